//! Unit tests of the formatting helpers.

use super::*;
use crate::model::Counts;
use crate::render::{Span, Style};
use serde_json::{Value, json};

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
