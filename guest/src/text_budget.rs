//! How much text one task may hold, and how much one result carries,
//! counted as the bytes of JSON it is sent as (escapes included,
//! [`crate::text::json_str_len`]), so that every result stays under the
//! contract's 1 MiB whatever characters its texts are made of.
//!
//! Each long text (description, notes, outcome, verification,
//! verification_result: [`LONG_TEXTS`]) is at most 64K characters (the
//! validator), and the five together at most [`TASK_TEXT_BYTES`] of JSON:
//! three texts of any characters JSON keeps as they are (4 bytes each at
//! most) always fit; characters it escapes count for what they become (a
//! control character 6 bytes, a tag character 12). A write that would pass
//! the bound is refused ([`check`]). A row written before the bound (or by
//! hand) may still hold more: results cut its texts to fit ([`fit`] with
//! [`Cut::OverBound`]), each cut text ending with a marker that says how
//! much of it is left out.
//!
//! One `add_many` stores up to 500 such tasks (4 MiB of params), whole; its
//! result echoes them, so the echo's texts (titles included) are cut when
//! it would pass [`ECHO_BYTES`] (`actions::items::fit_batch`, [`Cut::Echo`]), and a batch
//! names at most [`MAX_BATCH_DEPS`] dependencies, the one part of the echo
//! that cannot be cut.

use crate::error::{ToolError, ToolResult};
use crate::text::{json_char_len, json_str_len};

/// The long texts of a task, bounded together: description, notes,
/// outcome, verification, verification_result (in that order).
pub const LONG_TEXTS: usize = 5;

/// The most JSON bytes of a task's long texts together: three texts of 64K
/// 4-byte characters. With the title (500 characters, 6,000 bytes at
/// most) and the other fields, a task stays under 800 KB.
pub const TASK_TEXT_BYTES: usize = 3 * 4 * 65_536;

/// The most JSON bytes of an `add_many` result's data (`{"tasks":[…]}`):
/// with its summary line (under 200 bytes) the reply's text stays under
/// 1 MiB (1,048,576 bytes).
pub const ECHO_BYTES: usize = 1_000_000;

/// What the summary line of an `add_many` whose echo was cut adds.
pub const ECHO_CUT_NOTE: &str =
    "; texts cut in this echo to keep it under 1 MiB (stored whole: task_lists get shows them)";

/// The most `depends_on` entries of one `add_many`, all items together:
/// the echo keeps every dependency whole (an id is 34 bytes of it), so
/// they must leave room for the rest (`actions::items::fit_batch`).
pub const MAX_BATCH_DEPS: usize = 5_000;

/// Why texts are cut: what the marker after each cut text says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cut {
    /// A task stored before [`TASK_TEXT_BYTES`] holds more than it.
    OverBound,
    /// An `add_many` echo would pass [`ECHO_BYTES`]; the tasks are stored
    /// whole.
    Echo,
}

impl Cut {
    /// What ends a cut text.
    pub fn marker(self, left_out: usize) -> String {
        match self {
            Cut::OverBound => format!(
                " … [cut: {left_out} more characters not shown; this task's texts pass the {TASK_TEXT_BYTES} bytes of JSON a task may hold: shorten them with task_items update]"
            ),
            Cut::Echo => format!(
                " … [cut: {left_out} more characters not shown in this echo; the task is stored whole: task_lists get shows it]"
            ),
        }
    }
}

/// The JSON bytes of a task's long texts together.
pub fn size(texts: [Option<&str>; LONG_TEXTS]) -> usize {
    texts.into_iter().flatten().map(json_str_len).sum()
}

/// Refuses texts that pass [`TASK_TEXT_BYTES`] unless they do not grow
/// (`before`: the size stored now, 0 for a new task), so that an update of
/// a task written before the bound is not refused for what it keeps.
/// `at` names the item of a batch (`tasks[3].`), empty for one task.
pub fn check(at: &str, texts: [Option<&str>; LONG_TEXTS], before: usize) -> ToolResult<()> {
    let after = size(texts);
    if after <= TASK_TEXT_BYTES || after <= before {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!(
            "{at}description, notes, outcome, verification and verification_result would take {after} bytes of JSON together; a task holds at most {TASK_TEXT_BYTES} (768 KiB)"
        ),
        "shorten them: text counts as sent in JSON, where a control or invisible character takes 6 or 12 bytes (three 64K-character texts without them always fit)",
    ))
}

/// Refuses an `add_many` whose items name more than [`MAX_BATCH_DEPS`]
/// dependencies together (`given`: how many, as sent).
pub fn check_batch_deps(given: usize) -> ToolResult<()> {
    if given <= MAX_BATCH_DEPS {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!(
            "the tasks name {given} dependencies together; one add_many takes at most {MAX_BATCH_DEPS}, so that its result (which lists them) stays under 1 MiB"
        ),
        "split the batch: a later add_many or task_items update can name the first batch's task ids in depends_on",
    ))
}

/// Cuts `texts` to `budget` bytes of JSON together: nothing when they fit;
/// else the bytes are shared out evenly, a text shorter than its share
/// keeping it whole and leaving the rest to the others (the longest texts
/// are cut first), and each cut text ends with `why`'s marker. Each cut
/// text's share is at least `budget / texts.len()`: when that holds the
/// longest marker, the texts end within `budget`. Says whether it cut.
pub fn fit(texts: &mut [&mut String], budget: usize, why: Cut) -> bool {
    // Fast path: six bytes per UTF-8 byte is the most any text escapes to
    // (a control character), so short texts need no count.
    let raw: usize = texts.iter().map(|t| t.len()).sum();
    if raw.saturating_mul(6) <= budget {
        return false;
    }
    let sizes: Vec<usize> = texts.iter().map(|t| json_str_len(t)).collect();
    if sizes.iter().sum::<usize>() <= budget {
        return false;
    }
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| sizes[i]);
    let mut shares = vec![0usize; texts.len()];
    let mut left = budget;
    for (k, &i) in order.iter().enumerate() {
        shares[i] = sizes[i].min(left / (order.len() - k));
        left -= shares[i];
    }
    for (i, text) in texts.iter_mut().enumerate() {
        if sizes[i] > shares[i] {
            **text = cut(text, shares[i], why);
        }
    }
    true
}

/// `s` cut to at most `max` bytes of JSON, `why`'s marker included (when
/// `max` holds the marker).
fn cut(s: &str, max: usize, why: Cut) -> String {
    let total = s.chars().count();
    // The marker of the longest cut: no shorter one takes more room.
    let room = max.saturating_sub(json_str_len(&why.marker(total)));
    let mut used = 0;
    let mut end = 0;
    let mut kept = 0;
    for (i, c) in s.char_indices() {
        let n = json_char_len(c);
        if used + n > room {
            break;
        }
        used += n;
        end = i + c.len_utf8();
        kept += 1;
    }
    format!("{}{}", &s[..end], why.marker(total - kept))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::actions::items::{TasksResult, fit_batch};
    use crate::contract::MAX_BATCH;
    use crate::model::{Status, TaskForm, TaskRow};
    use crate::results::TaskJson;
    use crate::text::json_text_len;

    /// The character JSON escapes most: a tag character, 12 bytes.
    const WORST: char = '\u{e0001}';

    /// What a task's object does with its long texts (the first three
    /// given; no verification).
    fn fit3(texts: [&mut Option<String>; 3]) {
        let mut texts: Vec<&mut String> = texts.into_iter().flatten().collect();
        fit(&mut texts, TASK_TEXT_BYTES, Cut::OverBound);
    }

    /// A task of an `add_many` echo as large as the validator lets every
    /// part but its texts be: a 200-character assignee of 4-byte
    /// characters, 10 dependencies, the longest position, the longest
    /// priority shown (`high`); `verification` empty: none.
    fn echoed(
        i: usize,
        title: &str,
        description: &str,
        notes: &str,
        verification: &str,
    ) -> TaskJson {
        let id = |k: usize| format!("task_{k:026}");
        let row = TaskRow {
            id: id(i),
            list_id: format!("list_{:026}", 0),
            position: i64::MAX,
            title: title.to_string(),
            description: Some(description.to_string()),
            notes: Some(notes.to_string()),
            status: Status::Todo,
            assigned_to_agent_id: Some("😀".repeat(200)),
            claimed_by_agent_id: None,
            claim_token: None,
            claim_expires_at: None,
            lease_ms: None,
            outcome: None,
            created_at: 253_402_300_799_999,
            updated_at: 253_402_300_799_999,
            started_at: None,
            completed_at: None,
            deleted_at: None,
            priority: crate::model::Priority::High,
            verification: (!verification.is_empty()).then(|| verification.to_string()),
            verification_result: None,
            awaits_approval: false,
            approved_title: None,
            refs: Vec::new(),
            labels: Vec::new(),
            // An add_many echo is of new tasks: nothing asked or reviewed.
            waits_on: None,
            ask: None,
            review: None,
            requires_review: false,
            resume_for: None,
        };
        let deps: Vec<String> = (0..MAX_BATCH_DEPS / MAX_BATCH)
            .map(|k| id(1000 + k))
            .collect();
        TaskJson::new(&row, &deps, TaskForm::Whole)
    }

    /// The longest summary line of an `add_many` (see `actions/items.rs`).
    fn longest_summary() -> String {
        format!(
            "added {MAX_BATCH} tasks to list_{:026} at #{}{ECHO_CUT_NOTE}",
            0,
            i64::MAX
        )
    }

    #[test]
    fn the_worst_add_many_echo_stays_under_one_mib() {
        let long = WORST.to_string().repeat(2_000);
        let title = WORST.to_string().repeat(500);
        let mut echo = TasksResult {
            tasks: (0..MAX_BATCH)
                .map(|i| echoed(i, &title, &long, &long, &long))
                .collect(),
        };
        let sent = echo.clone();
        assert!(json_text_len(&echo) > 12 * ECHO_BYTES);
        assert!(fit_batch(&mut echo));
        let data = json_text_len(&echo);
        assert!(data <= ECHO_BYTES, "{data}");
        // The reply's text: the summary line, a newline, the data.
        let text = longest_summary().len() + 1 + data;
        assert!(text < 1 << 20, "{text}");
        // Every text was cut (titles too) and says so; the rest is whole.
        for (cut, whole) in echo.tasks.iter().zip(&sent.tasks) {
            for (c, w) in [
                (&cut.title, &whole.title),
                (
                    cut.description.as_ref().unwrap(),
                    whole.description.as_ref().unwrap(),
                ),
                (cut.notes.as_ref().unwrap(), whole.notes.as_ref().unwrap()),
                (
                    cut.verification.as_ref().unwrap(),
                    whole.verification.as_ref().unwrap(),
                ),
            ] {
                let (kept, marker) = c.split_once(" … [cut: ").expect("a marker");
                assert!(!kept.is_empty() && w.starts_with(kept), "{c}");
                assert!(
                    marker.ends_with(
                        "more characters not shown in this echo; the task is stored whole: task_lists get shows it]"
                    ),
                    "{marker}"
                );
            }
            assert_eq!(cut.depends_on, whole.depends_on);
            assert_eq!(cut.assigned_to_agent_id, whole.assigned_to_agent_id);
            assert_eq!(cut.id, whole.id);
        }
        // Each text's share holds its marker with room to spare: every
        // text keeps a few characters at the limits.
        let texts = MAX_BATCH * (json_str_len(&title) + 3 * json_str_len(&long));
        let fixed = json_text_len(&sent) - texts;
        // 710,011 bytes: 400 KB of assignees, 170 KB of dependencies.
        assert!(fixed < 800_000, "{fixed}");
        let share = (ECHO_BYTES - fixed) / (4 * MAX_BATCH);
        assert!(
            share > json_str_len(&Cut::Echo.marker(65_536)) + 20,
            "{share}"
        );
    }

    #[test]
    fn an_echo_cuts_the_longest_texts_first_and_only_when_it_must() {
        let worst = WORST.to_string().repeat(65_536);
        // Within the bound: untouched.
        let mut echo = TasksResult {
            tasks: vec![echoed(0, "a title", &worst, "", "")],
        };
        let before = echo.clone();
        assert!(!fit_batch(&mut echo));
        assert_eq!(echo, before);
        // Two such tasks are 1.6 MB: their descriptions are cut, evenly;
        // the titles and short notes stay whole.
        let mut echo = TasksResult {
            tasks: vec![
                echoed(0, "first", &worst, "notes", "cargo test"),
                echoed(1, "second", &worst, "", ""),
            ],
        };
        assert!(fit_batch(&mut echo));
        let size = json_text_len(&echo);
        assert!(size <= ECHO_BYTES && size > ECHO_BYTES - 300, "{size}");
        assert_eq!(echo.tasks[0].title, "first");
        assert_eq!(echo.tasks[0].notes.as_deref(), Some("notes"));
        assert_eq!(echo.tasks[0].verification.as_deref(), Some("cargo test"));
        let d: Vec<&str> = echo
            .tasks
            .iter()
            .map(|t| t.description.as_deref().unwrap())
            .collect();
        assert!(d[0].ends_with("task_lists get shows it]"));
        let gap = json_str_len(d[0]).abs_diff(json_str_len(d[1]));
        assert!(gap < 300, "{gap}");
    }

    #[test]
    fn task_help_states_the_bounds_and_the_markers() {
        let rules = crate::contract::RULES.join("\n");
        let echo = Cut::Echo.marker(7);
        let echo = echo.trim_start_matches(" … ").replace("7", "N");
        for needle in [
            format!("{TASK_TEXT_BYTES} bytes (768 KiB)"),
            format!("\"{echo}\""),
            format!("at most {MAX_BATCH_DEPS} depends_on entries"),
        ] {
            assert!(rules.contains(&needle), "{needle}");
        }
    }

    #[test]
    fn a_batch_names_at_most_five_thousand_dependencies() {
        assert!(check_batch_deps(MAX_BATCH_DEPS).is_ok());
        let e = check_batch_deps(MAX_BATCH_DEPS + 1).unwrap_err();
        assert_eq!(e.code, crate::error::ErrorCode::InvalidParams);
        assert!(
            e.message.starts_with(
                "the tasks name 5001 dependencies together; one add_many takes at most 5000"
            ),
            "{}",
            e.message
        );
    }

    #[test]
    fn texts_at_the_character_limit_fit_unless_escapes_inflate_them() {
        let emoji = "😀".repeat(65_536);
        assert!(
            check(
                "",
                [Some(&emoji), Some(&emoji), Some(&emoji), None, None],
                0
            )
            .is_ok()
        );
        // The verification texts count with the others: any three fit,
        // not four.
        assert!(
            check(
                "",
                [Some(&emoji), None, None, Some(&emoji), Some(&emoji)],
                0
            )
            .is_ok()
        );
        assert!(
            check(
                "",
                [Some(&emoji), Some(&emoji), None, Some(&emoji), Some(&emoji)],
                0
            )
            .is_err()
        );
        let worst = WORST.to_string().repeat(65_536);
        // One such text fills the bound exactly; the three are 2.3 MB.
        assert!(check("", [Some(&worst), None, None, None, None], 0).is_ok());
        assert!(check("", [Some(&worst), None, Some("x"), None, None], 0).is_err());
        assert!(check("", [None, None, None, Some(&worst), Some("x")], 0).is_err());
        let e = check(
            "tasks[2].",
            [Some(&worst), Some(&worst), Some(&worst), None, None],
            0,
        )
        .unwrap_err();
        assert!(
            e.message
                .starts_with("tasks[2].description, notes, outcome, verification and verification_result would take 2359296 bytes"),
            "{}",
            e.message
        );
        // An update that does not make a task over the bound larger passes.
        let over = size([Some(&worst), Some(&worst), None, None, None]);
        assert!(check("", [Some(&worst), Some(&worst), None, None, None], over).is_ok());
        assert!(
            check(
                "",
                [Some(&worst), Some(&worst), Some("x"), None, None],
                over
            )
            .is_err()
        );
    }

    #[test]
    fn an_old_task_over_the_bound_is_cut_to_fit_with_markers() {
        let worst = WORST.to_string().repeat(65_536);
        let mut d = Some(worst.clone());
        let mut n = Some("short notes".to_string());
        let mut o = Some(format!("{}tail", "\"".repeat(65_000)));
        fit3([&mut d, &mut n, &mut o]);
        let sizes = [&d, &n, &o].map(|t| json_str_len(t.as_deref().unwrap()));
        assert!(sizes.iter().sum::<usize>() <= TASK_TEXT_BYTES, "{sizes:?}");
        assert_eq!(
            n.as_deref(),
            Some("short notes"),
            "a short text stays whole"
        );
        // The outcome (130,004 bytes) fits in its share: only the
        // description is cut, to what the others leave.
        assert!(o.as_deref().unwrap().ends_with("tail"));
        let d = d.unwrap();
        assert!(d.starts_with(WORST) && d.ends_with("shorten them with task_items update]"));
        let kept = d.chars().take_while(|c| *c == WORST).count();
        assert!(
            d.contains(&format!("[cut: {} more characters", 65_536 - kept)),
            "{}",
            &d[d.len() - 200..]
        );
        assert!(
            TASK_TEXT_BYTES - sizes.iter().sum::<usize>() < 300,
            "the room is used"
        );
        // Three texts over the bound: an even share each.
        let [mut a, mut b, mut c] = [0; 3].map(|_| Some(worst.clone()));
        fit3([&mut a, &mut b, &mut c]);
        for t in [&a, &b, &c] {
            let n = json_str_len(t.as_deref().unwrap());
            assert!(
                n <= TASK_TEXT_BYTES / 3 && n > TASK_TEXT_BYTES / 3 - 300,
                "{n}"
            );
        }
        // Within the bound: untouched.
        let mut e = Some("😀".repeat(65_536));
        let before = e.clone();
        fit3([&mut e, &mut None, &mut None]);
        assert_eq!(e, before);
    }
}
