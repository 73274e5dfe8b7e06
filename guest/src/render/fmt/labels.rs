//! A task's labels as every terminal view shows them: each in brackets
//! (`[backend] [db]`), the brackets being no label character, so where
//! one ends is never in doubt.

use super::text::truncate;

/// `[a] [b] [c] +2`: at most `shown` labels, each cut to `chars`
/// columns, and how many more; empty without labels.
pub(crate) fn labels(labels: &[String], shown: usize, chars: usize) -> String {
    let mut out: Vec<String> = labels
        .iter()
        .take(shown)
        .map(|l| format!("[{}]", truncate(l, chars)))
        .collect();
    if labels.len() > shown {
        out.push(format!("+{}", labels.len() - shown));
    }
    out.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_show_bracketed_cut_and_counted() {
        let l = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        assert_eq!(labels(&[], 3, 20), "");
        assert_eq!(labels(&l(&["backend", "db"]), 3, 20), "[backend] [db]");
        assert_eq!(
            labels(&l(&["a", "b", "c", "d", "e"]), 3, 20),
            "[a] [b] [c] +2"
        );
        let cut = labels(&l(&["delivery-acked-by:gastown/witness"]), 3, 12);
        assert_eq!(cut.chars().count(), 14, "{cut}");
    }
}
