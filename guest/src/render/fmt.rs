//! Shared formatting helpers: text cleaning and widths, short ids, status
//! badges, dates and durations, counters, scopes, and tolerant JSON access.
//! Everything here is total: odd input gives a sensible string, never a panic.

use super::Span;
use super::Style;
use crate::model::Counts;
use crate::results::TaskJson;
use jiff::Timestamp;
use serde_json::Value;

/// `1 task`, `3 tasks`: the same wording as the summaries.
pub(crate) use crate::tools::summary::plural;

// ---------------------------------------------------------------- text

/// The text on one line and safe for a terminal: newlines, tabs and other
/// control characters become spaces (a span must never break the host's
/// line layout or reach it as an escape sequence), invisible characters a
/// visible `�` ([`crate::text::for_screen`]).
pub(crate) fn one_line(s: &str) -> String {
    crate::text::for_screen(s)
}

/// Columns a character takes in a terminal. Approximate on purpose (no
/// Unicode tables in the guest): East Asian wide/fullwidth blocks and emoji
/// count 2, combining marks and zero-width characters 0, the rest 1.
fn char_width(c: char) -> usize {
    let u = c as u32;
    if c.is_control() {
        return 0;
    }
    // Combining marks, joiners (one_line keeps them only where they join)
    // and variation selectors take no column of their own.
    if matches!(u, 0x0300..=0x036F | 0x200C..=0x200D | 0xFE00..=0xFE0F | 0x20D0..=0x20FF) {
        return 0;
    }
    let wide = matches!(u,
        0x1100..=0x115F
        | 0x2E80..=0x303E
        | 0x3041..=0x33FF
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xA000..=0xA4CF
        | 0xAC00..=0xD7A3
        | 0xF900..=0xFAFF
        | 0xFE30..=0xFE4F
        | 0xFF00..=0xFF60
        | 0xFFE0..=0xFFE6
        | 0x1F300..=0x1F64F
        | 0x1F900..=0x1F9FF
        | 0x20000..=0x3FFFD);
    if wide { 2 } else { 1 }
}

/// Display width of a string in terminal columns.
pub(crate) fn width(s: &str) -> usize {
    s.chars().map(char_width).sum()
}

/// The longest prefix of `s` that fits in `max` columns (no ellipsis).
pub(crate) fn take_width(s: &str, max: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = char_width(c);
        if used + w > max {
            break;
        }
        used += w;
        out.push(c);
    }
    out
}

/// `s` on one line, cut to `max` columns with a trailing `…` when too long.
pub(crate) fn truncate(s: &str, max: usize) -> String {
    let s = one_line(s);
    let s = s.trim();
    if width(s) <= max {
        return s.to_string();
    }
    let mut out = take_width(s, max.saturating_sub(1)).trim_end().to_string();
    out.push('…');
    out
}

/// Like [`truncate`] but keeps the end: for paths and keys, whose tail is
/// the part that tells them apart.
pub(crate) fn truncate_left(s: &str, max: usize) -> String {
    let s = one_line(s);
    if width(&s) <= max {
        return s;
    }
    let mut tail: Vec<char> = Vec::new();
    let mut used = 0;
    for c in s.chars().rev() {
        let w = char_width(c);
        if used + w > max.saturating_sub(1) {
            break;
        }
        used += w;
        tail.push(c);
    }
    let mut out = String::from("…");
    out.extend(tail.into_iter().rev());
    out
}

// ---------------------------------------------------------------- ids

/// How many trailing characters of an id are kept. ULIDs end with random
/// characters (monotonic ones differ in the last ones), so the tail is what
/// tells two ids apart; six base-32 characters are plenty within one list.
const ID_TAIL: usize = 6;

/// A human form of an id: `task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B` → `task_…3X5Z7B`.
/// The prefix stays so the kind of id is visible at a glance. Short or
/// unprefixed ids are kept as they are (unprefixed long ones lose their head).
pub(crate) fn short_id(id: &str) -> String {
    let id = one_line(id.trim());
    let (prefix, rest) = match id.find('_') {
        Some(i) => id.split_at(i + 1),
        None => ("", id.as_str()),
    };
    let n = rest.chars().count();
    if n <= ID_TAIL + 2 {
        return id;
    }
    let tail: String = rest.chars().skip(n - ID_TAIL).collect();
    format!("{prefix}…{tail}")
}

// ---------------------------------------------------------------- status

/// How a task status is shown: symbol, word and style. `in_progress` reads
/// `run` and `blocked` reads `paused` (the widget's words). The list
/// counters ([`counters`]) keep the wire word `blocked`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Badge {
    /// One-column symbol.
    pub symbol: &'static str,
    /// Short word.
    pub label: String,
    /// Style of both.
    pub style: Style,
}

impl Badge {
    /// `symbol label` as one span.
    pub(crate) fn span(&self) -> Span {
        Span {
            text: format!("{} {}", self.symbol, self.label),
            style: self.style,
        }
    }
}

/// The badge of a wire status; unknown values stay readable, muted.
pub(crate) fn status(s: &str) -> Badge {
    let (symbol, label, style) = match s {
        "todo" => ("○", "todo", Style::Text),
        "in_progress" => ("▶", "run", Style::Accent),
        "blocked" => ("⏸", "paused", Style::Warning),
        "done" => ("✓", "done", Style::Success),
        "canceled" => ("✗", "canceled", Style::Muted),
        other => {
            return Badge {
                symbol: "?",
                label: truncate(other, 12),
                style: Style::Muted,
            };
        }
    };
    Badge {
        symbol,
        label: label.to_string(),
        style,
    }
}

// ---------------------------------------------------------------- time

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

// ---------------------------------------------------------------- lists

/// `todo N · run N · blocked N · done N`, plus `· canceled N` only when
/// non-zero (canceled work is rarely what a person looks for). Zero counts
/// are muted so the eye lands on the others.
pub(crate) fn counters(counts: &Counts) -> Vec<Span> {
    let mut out: Vec<Span> = Vec::new();
    let fields = [
        (counts.todo, "todo", Style::Text),
        (counts.in_progress, "run", Style::Accent),
        (counts.blocked, "blocked", Style::Warning),
        (counts.done, "done", Style::Success),
        (counts.canceled, "canceled", Style::Muted),
    ];
    for (n, label, style) in fields {
        if label == "canceled" && n == 0 {
            continue;
        }
        if !out.is_empty() {
            out.push(Span {
                text: " · ".into(),
                style: Style::Muted,
            });
        }
        out.push(Span {
            text: format!("{label} "),
            style: Style::Muted,
        });
        let style = if n == 0 { Style::Muted } else { style };
        out.push(Span {
            text: n.to_string(),
            style,
        });
    }
    out
}

/// Counts of tasks by status, computed from the tasks themselves when a
/// result carries tasks but no counts object.
pub(crate) fn count_tasks(tasks: &[TaskJson]) -> Counts {
    let mut counts = Counts::default();
    for t in tasks {
        if let Some(s) = t.status {
            counts.add(s.as_str(), 1);
        }
    }
    counts
}

/// `workspace:/work/main`, `thread:abc`, `global`: scope type and key in one
/// token; long keys (paths) keep their tail.
pub(crate) fn scope(list: &Value) -> String {
    scope_of(str_of(list, "scope_type"), str_of(list, "scope_key"))
}

/// [`scope`] from the scope type and key (blank ones count as absent).
pub(crate) fn scope_of(ty: Option<&str>, key: Option<&str>) -> String {
    let ty = ty
        .and_then(nonblank)
        .map(|t| truncate(t, 12))
        .unwrap_or_default();
    match key.and_then(nonblank).map(str::trim) {
        Some(key) if !key.is_empty() => format!("{ty}:{}", truncate_left(key, 32)),
        _ => ty,
    }
}

/// Visibility word and its style: `private` stands out (other agents cannot
/// see the list), `shared` is the quiet default.
pub(crate) fn visibility(v: &str) -> Option<Span> {
    let v = nonblank(v)?;
    let style = if v == "private" {
        Style::Warning
    } else {
        Style::Muted
    };
    Some(Span {
        text: truncate(v, 12),
        style,
    })
}

// ---------------------------------------------------------------- json

/// A non-empty string field.
pub(crate) fn str_of<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key)?.as_str().and_then(nonblank)
}

/// The text unless it is blank: a typed field read as [`str_of`] reads a
/// JSON one.
pub(crate) fn nonblank(s: &str) -> Option<&str> {
    (!s.trim().is_empty()).then_some(s)
}

/// An optional typed text field, blank counting as absent.
pub(crate) fn opt(s: &Option<String>) -> Option<&str> {
    s.as_deref().and_then(nonblank)
}

/// An integer field, tolerant of huge or fractional numbers (clamped).
pub(crate) fn int(v: &Value, key: &str) -> Option<i64> {
    as_int(v.get(key)?)
}

/// An integer from a JSON number, clamped into i64.
pub(crate) fn as_int(v: &Value) -> Option<i64> {
    if let Some(i) = v.as_i64() {
        return Some(i);
    }
    if v.as_u64().is_some() {
        return Some(i64::MAX);
    }
    // `as` saturates for floats; NaN cannot come from JSON.
    v.as_f64().map(|f| f as i64)
}

/// A field that must be an array.
pub(crate) fn arr<'a>(v: &'a Value, key: &str) -> Option<&'a Vec<Value>> {
    v.get(key)?.as_array()
}

/// A value in a few words: strings bare (ids shortened), others as compact
/// JSON, cut to `max` columns.
pub(crate) fn compact_value(v: &Value, max: usize) -> String {
    match v {
        Value::String(s) if looks_like_id(s) => short_id(s),
        Value::String(s) => truncate(s, max),
        Value::Array(items) if items.iter().all(|i| i.as_str().is_some_and(looks_like_id)) => {
            let ids: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(short_id)
                .collect();
            truncate(&format!("[{}]", ids.join(",")), max)
        }
        other => compact_json(other, max),
    }
}

/// Compact JSON, cut to `max` columns.
pub(crate) fn compact_json(v: &Value, max: usize) -> String {
    truncate(&serde_json::to_string(v).unwrap_or_default(), max)
}

/// `prefix_` + a 26-character ULID: the ids the tools hand out.
pub(crate) fn looks_like_id(s: &str) -> bool {
    match s.split_once('_') {
        Some((p, rest)) => {
            !p.is_empty()
                && p.chars().all(|c| c.is_ascii_lowercase())
                && rest.len() == 26
                && rest.chars().all(|c| c.is_ascii_alphanumeric())
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn short_ids_keep_prefix_and_tail() {
        assert_eq!(short_id("task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"), "task_…3X5Z7B");
        assert_eq!(short_id("list_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"), "list_…3X5Z7B");
        assert_eq!(short_id("evt_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"), "evt_…3X5Z7B");
        assert_eq!(short_id("task_42"), "task_42");
        assert_eq!(short_id("01JDQ4ZK8M3N5P7R9T1V3X5Z7B"), "…3X5Z7B");
        assert_eq!(short_id(""), "");
        assert_eq!(short_id("a_é€😀éééééééé"), "a_…éééééé");
    }

    #[test]
    fn dates_are_utc_minutes_and_compact_in_context() {
        assert_eq!(date("2026-11-30T12:00:00.000Z"), "2026-11-30 12:00");
        assert_eq!(date("2026-11-30T14:05:59.999+02:00"), "2026-11-30 12:05");
        assert_eq!(date("yesterday"), "yesterday");
        let r = Some("2026-11-30T12:00:00.000Z");
        assert_eq!(compact_date("2026-11-30T12:15:00.000Z", r), "12:15");
        assert_eq!(compact_date("2026-12-01T00:15:00.000Z", r), "12-01 00:15");
        assert_eq!(
            compact_date("2027-01-01T00:15:00.000Z", r),
            "2027-01-01 00:15"
        );
        assert_eq!(
            compact_date("2027-01-01T00:15:00.000Z", None),
            "2027-01-01 00:15"
        );
        assert_eq!(
            seconds_between("2026-11-30T12:00:00.000Z", "2026-11-30T12:15:00.000Z"),
            Some(900)
        );
    }

    #[test]
    fn durations_read_short() {
        let got: Vec<String> = [0, 45, 90, 900, 3600, 5400, 86_400, 93_600, -60, i64::MIN]
            .into_iter()
            .map(duration)
            .collect();
        assert_eq!(
            got[..9],
            [
                "0s", "45s", "1m30s", "15m", "1h", "1h30m", "1d", "1d2h", "-1m"
            ]
        );
    }

    #[test]
    fn counters_add_canceled_only_when_nonzero() {
        let plain = |v: Value| {
            counters(&serde_json::from_value::<Counts>(v).unwrap_or_default())
                .iter()
                .map(|s| s.text.clone())
                .collect::<String>()
        };
        let c = json!({"todo": 3, "in_progress": 1, "blocked": 0, "done": 2, "canceled": 0});
        assert_eq!(plain(c.clone()), "todo 3 · run 1 · blocked 0 · done 2");
        let c2 = json!({"todo": 0, "in_progress": 0, "blocked": 1, "done": 0, "canceled": 4});
        assert_eq!(
            plain(c2.clone()),
            "todo 0 · run 0 · blocked 1 · done 0 · canceled 4"
        );
        assert_eq!(
            plain(json!("garbage")),
            "todo 0 · run 0 · blocked 0 · done 0"
        );
        let spans = counters(&serde_json::from_value(c2.clone()).unwrap());
        let blocked = spans.iter().find(|s| s.text == "1").unwrap();
        assert_eq!(blocked.style, Style::Warning);
    }

    #[test]
    fn truncation_respects_width() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("line\nbreak", 20), "line break");
        assert_eq!(truncate("日本語のタイトル", 7), "日本語…");
        assert_eq!(truncate_left("/home/user/projects/app", 10), "…jects/app");
        assert_eq!(width("⏸ paused"), 8);
    }

    #[test]
    fn status_badges_use_widget_words() {
        assert_eq!(status("in_progress").span().text, "▶ run");
        assert_eq!(
            status("blocked").span(),
            Span {
                text: "⏸ paused".into(),
                style: Style::Warning
            }
        );
        assert_eq!(status("done").style, Style::Success);
        assert_eq!(status("weird").span().text, "? weird");
    }
}
