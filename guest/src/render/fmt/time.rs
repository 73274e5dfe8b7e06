//! Times and durations: RFC 3339 stamps shown as short dates, lease
//! lengths as `15m`.

use super::truncate;
use jiff::Timestamp;

/// Parses an RFC 3339 timestamp, ignoring surrounding spaces; None for
/// anything else.
pub(crate) fn parse_time(s: &str) -> Option<Timestamp> {
    crate::clock::parse_timestamp(s.trim())
}

/// `2026-11-30 12:00` (UTC, minutes): what a person needs from the wire's
/// millisecond timestamps. Unparsable text is shown as is, shortened.
pub(crate) fn date(s: &str) -> String {
    match parse_time(s) {
        Some(t) => t.strftime("%Y-%m-%d %H:%M").to_string(),
        None => truncate(s, 24),
    }
}

/// A date as short as the context allows: `12:15` on the same UTC day as
/// `reference`, `12-01 09:00` in the same year, else the full [`date`].
/// Renderers are pure (no clock), so the reference is another time found in
/// the same data, e.g. the task's `updated_at` for its lease expiry.
pub(crate) fn compact_date(s: &str, reference: Option<&str>) -> String {
    let (Some(t), Some(r)) = (parse_time(s), reference.and_then(parse_time)) else {
        return date(s);
    };
    let day = |x: Timestamp| x.strftime("%Y-%m-%d").to_string();
    let year = |x: Timestamp| x.strftime("%Y").to_string();
    if day(t) == day(r) {
        t.strftime("%H:%M").to_string()
    } else if year(t) == year(r) {
        t.strftime("%m-%d %H:%M").to_string()
    } else {
        date(s)
    }
}

/// Whole seconds from `from` to `to`, when both parse.
pub(crate) fn seconds_between(from: &str, to: &str) -> Option<i64> {
    let (a, b) = (parse_time(from)?, parse_time(to)?);
    Some(b.as_second().saturating_sub(a.as_second()))
}

/// A short duration: `45s`, `1m30s`, `15m`, `2h`, `1h30m`, `3d`, `1d2h`.
pub(crate) fn duration(secs: i64) -> String {
    let sign = if secs < 0 { "-" } else { "" };
    let s = secs.unsigned_abs();
    let body = if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        match s % 60 {
            0 => format!("{}m", s / 60),
            r => format!("{}m{r}s", s / 60),
        }
    } else if s < 86_400 {
        match (s % 3600) / 60 {
            0 => format!("{}h", s / 3600),
            m => format!("{}h{m}m", s / 3600),
        }
    } else {
        match (s % 86_400) / 3600 {
            0 => format!("{}d", s / 86_400),
            h => format!("{}d{h}h", s / 86_400),
        }
    };
    format!("{sign}{body}")
}
