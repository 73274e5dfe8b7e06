//! How much text one task may hold, counted as the bytes of JSON it is
//! sent as (escapes included, [`crate::text::json_str_len`]), so that one
//! task, whole, fits in a result (about 1 MiB at most) whatever characters
//! it is made of.
//!
//! Each long text (description, notes, outcome) is at most 64K characters
//! (the validator), and the three together at most [`TASK_TEXT_BYTES`] of
//! JSON: texts of any characters JSON keeps as they are (4 bytes each at
//! most) always fit; characters it escapes count for what they become (a
//! control character 6 bytes, a tag character 12). A write that would pass
//! the bound is refused ([`check`]). A row written before the bound (or by
//! hand) may still hold more: results cut its texts to fit ([`fit`]), each
//! cut text ending with a marker that says how much of it is left out.

use crate::error::{ToolError, ToolResult};
use crate::text::{json_char_len, json_str_len};

/// The most JSON bytes of description + notes + outcome of one task: three
/// texts of 64K 4-byte characters. With the title (500 characters, 6,000
/// bytes at most) and the other fields, a task stays under 800 KB.
pub const TASK_TEXT_BYTES: usize = 3 * 4 * 65_536;

/// The JSON bytes of a task's long texts together.
pub fn size(texts: [Option<&str>; 3]) -> usize {
    texts.into_iter().flatten().map(json_str_len).sum()
}

/// Refuses texts that pass [`TASK_TEXT_BYTES`] unless they do not grow
/// (`before`: the size stored now, 0 for a new task), so that an update of
/// a task written before the bound is not refused for what it keeps.
/// `at` names the item of a batch (`tasks[3].`), empty for one task.
pub fn check(at: &str, texts: [Option<&str>; 3], before: usize) -> ToolResult<()> {
    let after = size(texts);
    if after <= TASK_TEXT_BYTES || after <= before {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!(
            "{at}description, notes and outcome would take {after} bytes of JSON together; a task holds at most {TASK_TEXT_BYTES} (768 KiB)"
        ),
        "shorten them: text counts as sent in JSON, where a control or invisible character takes 6 or 12 bytes (64K-character texts without them always fit)",
    ))
}

/// Cuts the texts of a task that passes [`TASK_TEXT_BYTES`] (only a row
/// written before the bound can): the bytes are shared out evenly, a text
/// shorter than its share keeping it whole and leaving the rest to the
/// others; each cut text ends with [`marker`].
pub fn fit(texts: [&mut Option<String>; 3]) {
    // Fast path: six bytes per UTF-8 byte is the most any text escapes to
    // (a control character), so short texts need no count.
    let raw: usize = texts
        .iter()
        .map(|t| t.as_ref().map_or(0, String::len))
        .sum();
    if raw.saturating_mul(6) <= TASK_TEXT_BYTES {
        return;
    }
    let sizes: Vec<usize> = texts
        .iter()
        .map(|t| t.as_deref().map_or(0, json_str_len))
        .collect();
    if sizes.iter().sum::<usize>() <= TASK_TEXT_BYTES {
        return;
    }
    let mut order: Vec<usize> = (0..texts.len()).collect();
    order.sort_by_key(|&i| sizes[i]);
    let mut shares = [0usize; 3];
    let mut left = TASK_TEXT_BYTES;
    for (k, &i) in order.iter().enumerate() {
        shares[i] = sizes[i].min(left / (order.len() - k));
        left -= shares[i];
    }
    for (i, text) in texts.into_iter().enumerate() {
        if sizes[i] > shares[i]
            && let Some(t) = text.as_mut()
        {
            *t = cut(t, shares[i]);
        }
    }
}

/// What ends a cut text.
pub fn marker(left_out: usize) -> String {
    format!(
        " … [cut: {left_out} more characters not shown; this task's texts pass the {TASK_TEXT_BYTES} bytes of JSON a task may hold: shorten them with task_items update]"
    )
}

/// `s` cut to at most `max` bytes of JSON, [`marker`] included.
fn cut(s: &str, max: usize) -> String {
    let total = s.chars().count();
    // The marker of the longest cut: no shorter one takes more room.
    let room = max.saturating_sub(json_str_len(&marker(total)));
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
    format!("{}{}", &s[..end], marker(total - kept))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The character JSON escapes most: a tag character, 12 bytes.
    const WORST: char = '\u{e0001}';

    #[test]
    fn texts_at_the_character_limit_fit_unless_escapes_inflate_them() {
        let emoji = "😀".repeat(65_536);
        assert!(check("", [Some(&emoji), Some(&emoji), Some(&emoji)], 0).is_ok());
        let worst = WORST.to_string().repeat(65_536);
        // One such text fills the bound exactly; the three are 2.3 MB.
        assert!(check("", [Some(&worst), None, None], 0).is_ok());
        assert!(check("", [Some(&worst), None, Some("x")], 0).is_err());
        let e = check("tasks[2].", [Some(&worst), Some(&worst), Some(&worst)], 0).unwrap_err();
        assert!(
            e.message
                .starts_with("tasks[2].description, notes and outcome would take 2359296 bytes"),
            "{}",
            e.message
        );
        // An update that does not make a task over the bound larger passes.
        let over = size([Some(&worst), Some(&worst), None]);
        assert!(check("", [Some(&worst), Some(&worst), None], over).is_ok());
        assert!(check("", [Some(&worst), Some(&worst), Some("x")], over).is_err());
    }

    #[test]
    fn an_old_task_over_the_bound_is_cut_to_fit_with_markers() {
        let worst = WORST.to_string().repeat(65_536);
        let mut d = Some(worst.clone());
        let mut n = Some("short notes".to_string());
        let mut o = Some(format!("{}tail", "\"".repeat(65_000)));
        fit([&mut d, &mut n, &mut o]);
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
        fit([&mut a, &mut b, &mut c]);
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
        fit([&mut e, &mut None, &mut None]);
        assert_eq!(e, before);
    }
}
