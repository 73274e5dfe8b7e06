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
        Ok(ts) => ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string(),
        // Out of jiff's range only for absurd clocks; keep the raw number visible.
        Err(_) => format!("@{ms}ms"),
    }
}

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
    fn parses_offsets_and_rejects_garbage() {
        assert_eq!(parse_rfc3339("1970-01-01T01:00:00+01:00"), Some(0));
        assert_eq!(
            parse_rfc3339("2026-11-18T12:00:00.123Z"),
            Some(1_795_003_200_123)
        );
        assert_eq!(parse_rfc3339("yesterday"), None);
    }
}
