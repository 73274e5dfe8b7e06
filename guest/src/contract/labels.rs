//! A task's `labels`: short words naming a role, a skill, a kind of work
//! or a tracker's tag (`backend`, `gt:merge-request`,
//! `delivery-acked-by:gastown/witness`), set on a task, filtered by
//! `task_lists get` (`label`) and asked for by `claim_next` (`labels`: an
//! agent claims only work carrying one of them).
//!
//! The rule, the same for every caller (the tools, the board's filter,
//! the importer through [`label_from`]): at most [`MAX_LABELS`] labels on
//! a task, each 1 to [`MAX_LABEL_CHARS`] characters taken from ASCII
//! letters, digits and [`LABEL_PUNCTUATION`]. That leaves out every space,
//! control, bidirectional and zero-width character, so a label can never
//! pass for another on screen, nor hold a line break (the store keeps one
//! a line). Labels are case-sensitive, and a task's labels are a set:
//! [`label_set`] drops a repeat, keeping the order given.

use crate::text::quote;

/// Most labels on one task.
pub const MAX_LABELS: usize = 20;
/// Longest label, in characters.
pub const MAX_LABEL_CHARS: usize = 64;
/// The characters a label may hold besides ASCII letters and digits.
pub const LABEL_PUNCTUATION: &str = "-_.:/@+#";

/// The rule in one line, for errors and help.
pub const LABELS_RULE: &str = "at most 20 labels, each 1 to 64 characters: ASCII letters, digits and - _ . : / @ + # (no spaces); case-sensitive, e.g. backend, gt:merge-request";

/// The rule as a JSON Schema `pattern` (the same characters and bounds).
pub const LABEL_PATTERN: &str = "^[A-Za-z0-9._:/@+#-]{1,64}$";

/// Whether `c` may appear in a label.
pub fn label_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || LABEL_PUNCTUATION.contains(c)
}

/// Why `label` is not a valid label, if it is not.
pub fn check_label(label: &str) -> Result<(), String> {
    let n = label.chars().count();
    if n == 0 || n > MAX_LABEL_CHARS {
        return Err(format!(
            "a label is 1 to {MAX_LABEL_CHARS} characters, got {n}"
        ));
    }
    if let Some(c) = label.chars().find(|c| !label_char(*c)) {
        return Err(format!(
            "{} holds {}, which a label may not (ASCII letters, digits and {} only)",
            quote(label),
            shown_char(c),
            LABEL_PUNCTUATION
                .chars()
                .map(String::from)
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }
    Ok(())
}

/// A refused character as a message names it: printable ASCII quoted,
/// anything else by its code point alone (a control or invisible
/// character would hide in quotes).
fn shown_char(c: char) -> String {
    if c.is_ascii_graphic() {
        format!("'{c}'")
    } else if c == ' ' {
        "a space".into()
    } else {
        format!("U+{:04X}", c as u32)
    }
}

/// The labels of `given` as a set: each once, in the order first given
/// (the contract's rule was checked on each before).
pub fn label_set<S: AsRef<str>>(given: &[S]) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(given.len());
    for label in given {
        let label = label.as_ref();
        if !out.iter().any(|l| l == label) {
            out.push(label.to_string());
        }
    }
    out
}

/// `text` (a Beads label or type, a Taskmaster tag, any word from
/// elsewhere) made into a valid label, or None when nothing of it is
/// left: trimmed, each run of white space made one `-`, every other
/// character a label may not hold dropped, cut to [`MAX_LABEL_CHARS`].
pub fn label_from(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut space = false;
    for c in text.trim().chars() {
        if c.is_whitespace() {
            space = true;
            continue;
        }
        if !label_char(c) {
            continue;
        }
        if space && !out.is_empty() {
            out.push('-');
        }
        space = false;
        out.push(c);
    }
    // ASCII only: a byte is a character.
    out.truncate(MAX_LABEL_CHARS);
    check_label(&out).is_ok().then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_tracker_labels_pass_and_the_rest_is_refused() {
        for ok in [
            "backend",
            "gt:merge-request",
            "delivery-acked-by:gastown/witness",
            "delivery-acked-at:2026-02-27T23:06:39Z",
            "c++",
            "#42",
            "a@b.c_d",
            "A",
            &"x".repeat(MAX_LABEL_CHARS),
        ] {
            assert_eq!(check_label(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "two words",
            "tab\there",
            "line\nbreak",
            "bidi\u{202E}",
            "zero\u{200B}width",
            "café",
            "a,b",
            "<b>",
            "quote\"",
            &"x".repeat(MAX_LABEL_CHARS + 1),
        ] {
            assert!(check_label(bad).is_err(), "{bad:?} passed");
        }
        let why = check_label("two words").unwrap_err();
        assert!(why.contains("a space"), "{why}");
        let why = check_label("bidi\u{202E}").unwrap_err();
        assert!(why.contains("U+202E"), "{why}");
        assert!(LABELS_RULE.contains(&MAX_LABELS.to_string()));
        assert!(LABELS_RULE.contains(&MAX_LABEL_CHARS.to_string()));
    }

    #[test]
    fn a_set_keeps_the_first_of_each_in_order_and_is_case_sensitive() {
        assert_eq!(
            label_set(&["b", "a", "b", "A", "a"]),
            ["b", "a", "A"].map(String::from)
        );
        assert!(label_set::<&str>(&[]).is_empty());
    }

    #[test]
    fn any_text_becomes_a_label_or_none() {
        assert_eq!(label_from("  needs  review "), Some("needs-review".into()));
        assert_eq!(label_from("Bug"), Some("Bug".into()));
        assert_eq!(
            label_from("gt:merge-request"),
            Some("gt:merge-request".into())
        );
        assert_eq!(label_from("café au lait"), Some("caf-au-lait".into()));
        assert_eq!(label_from("a\u{202E}b\u{200B}c"), Some("abc".into()));
        assert_eq!(label_from("   "), None);
        assert_eq!(label_from("éé"), None);
        assert_eq!(label_from("\u{202E}"), None);
        let long = label_from(&"y".repeat(200)).unwrap();
        assert_eq!(long.len(), MAX_LABEL_CHARS);
        for text in ["x y", "日本 語 tag", "a\tb\nc", "#1 / @me"] {
            if let Some(l) = label_from(text) {
                assert_eq!(check_label(&l), Ok(()), "{text:?} gave {l:?}");
            }
        }
    }
}
