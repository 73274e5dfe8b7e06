//! Time comes only from the host's clock capability; this module formats and
//! parses it as the contract's RFC 3339 UTC strings with milliseconds.

use jiff::Timestamp;

/// The host clock: milliseconds since the Unix epoch.
pub trait Clock {
    /// Now, in ms since the epoch (UTC).
    fn now_ms(&self) -> i64;

    /// Whether this clock is the store's own (the WIT `store-clock`): a
    /// statement may then read the time from the store itself. False for
    /// any other clock (the default).
    fn store_clock(&self) -> bool {
        false
    }
}

/// Formats ms since the epoch as `2026-11-30T12:00:00.000Z`.
pub fn format_ms(ms: i64) -> String {
    match Timestamp::from_millisecond(ms) {
        // RFC 3339 at millisecond precision is jiff's own Display, many
        // times faster than its strftime (every result carries times).
        // Years before 0 are written as strftime writes them.
        Ok(ts) if ms >= YEAR_0_MS => format!("{ts:.3}"),
        Ok(ts) => ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        // Out of jiff's range only for absurd clocks; keep the raw number visible.
        Err(_) => format!("@{ms}ms"),
    }
}

/// 0000-01-01T00:00:00Z in ms since the epoch.
const YEAR_0_MS: i64 = -62_167_219_200_000;

/// Parses an RFC 3339 time (any offset): the one time parser of the crate.
pub fn parse_timestamp(s: &str) -> Option<Timestamp> {
    s.parse::<Timestamp>().ok()
}

/// Parses an RFC 3339 time (any offset) into ms since the epoch.
pub fn parse_rfc3339(s: &str) -> Option<i64> {
    parse_timestamp(s).map(|t| t.as_millisecond())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_with_millis_and_z() {
        assert_eq!(format_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(format_ms(1_795_003_200_123), "2026-11-18T12:00:00.123Z");
    }

    #[test]
    fn writes_every_time_as_strftime_would() {
        let mut ms: i64 = -377_705_023_201_000; // jiff's first
        let step = 7_919_993_123_457;
        while ms <= 253_402_207_200_000 {
            let ts = Timestamp::from_millisecond(ms).unwrap();
            let want = ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
            assert_eq!(format_ms(ms), want, "{ms}");
            ms += step;
        }
        for ms in [YEAR_0_MS - 1, YEAR_0_MS, -1, 1, 999, 1_000] {
            let ts = Timestamp::from_millisecond(ms).unwrap();
            let want = ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string();
            assert_eq!(format_ms(ms), want, "{ms}");
        }
    }

    #[test]
    fn parses_offsets_and_rejects_garbage() {
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(
            parse_rfc3339("2026-11-18T12:00:00.123Z"),
            Some(1_795_003_200_123)
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }
}
