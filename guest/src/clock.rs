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
    let mut text = String::with_capacity(24);
    push_ms(&mut text, ms);
    text
}

/// [`format_ms`]'s text, appended to `text` (where a result keeps several
/// texts in one string).
pub fn push_ms(text: &mut String, ms: i64) {
    match Timestamp::from_millisecond(ms) {
        // Every result carries times, so the years a clock gives (0 to
        // 9999, four digits) are written here by arithmetic: jiff's own
        // Display through `format!` was a sixth of a `find` page.
        Ok(_) if ms >= YEAR_0_MS => push_rfc3339_ms(text, ms),
        // Years before 0 are written as strftime writes them.
        Ok(ts) => text.push_str(&ts.strftime("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()),
        // Out of jiff's range only for absurd clocks; keep the raw number visible.
        Err(_) => text.push_str(&format!("@{ms}ms")),
    }
}

/// `YYYY-MM-DDTHH:MM:SS.mmmZ` for a time in years 0 to 9999 (jiff's
/// range from year 0 on), the date by Howard Hinnant's
/// `civil_from_days`; equal to jiff's text for every such time (tests).
fn push_rfc3339_ms(text: &mut String, ms: i64) {
    let days = ms.div_euclid(MS_PER_DAY);
    let in_day = ms.rem_euclid(MS_PER_DAY);
    // Days since 0000-03-01, in 400-year eras of 146,097 days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);

    let mut digits = |value: i64, width: u32, after: char| {
        for place in (0..width).rev() {
            let digit = (value / 10_i64.pow(place)) % 10;
            text.push(char::from(b'0' + digit as u8));
        }
        text.push(after);
    };
    digits(year, 4, '-');
    digits(month, 2, '-');
    digits(day, 2, 'T');
    digits(in_day / 3_600_000, 2, ':');
    digits(in_day / 60_000 % 60, 2, ':');
    digits(in_day / 1_000 % 60, 2, '.');
    digits(in_day % 1_000, 3, 'Z');
}

/// Milliseconds in a day (UTC has no leap seconds in Unix time).
const MS_PER_DAY: i64 = 86_400_000;

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
    fn writes_the_years_of_clocks_as_jiff_does() {
        // Every day boundary (and the millisecond either side) of the
        // years around leap-year rules, then a dense walk of 0 to 9999.
        let jiff = |ms: i64| format!("{:.3}", Timestamp::from_millisecond(ms).unwrap());
        for year_start in [
            0_i64, 1_600, 1_700, 1_900, 1_970, 2_000, 2_024, 2_100, 9_999,
        ] {
            let first = (year_start - 1_970) * 365 * MS_PER_DAY - 800 * MS_PER_DAY;
            for day in 0..1_600 {
                for delta in [-1, 0, 1, 43_199_999] {
                    let ms = first + day * MS_PER_DAY + delta;
                    if ms < YEAR_0_MS || Timestamp::from_millisecond(ms).is_err() {
                        continue;
                    }
                    assert_eq!(format_ms(ms), jiff(ms), "{ms}");
                }
            }
        }
        let mut ms = YEAR_0_MS;
        while Timestamp::from_millisecond(ms).is_ok() {
            assert_eq!(format_ms(ms), jiff(ms), "{ms}");
            ms += 1_234_567_891_011;
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
