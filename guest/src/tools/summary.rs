//! Small text helpers for the one-line summaries that lead every result.

/// A title quoted and shortened for a summary line.
pub fn quoted(title: &str) -> String {
    const MAX: usize = 60;
    if title.chars().count() <= MAX {
        format!("{title:?}")
    } else {
        format!(
            "{:?}",
            format!("{}…", title.chars().take(MAX - 1).collect::<String>())
        )
    }
}

/// `1 task` / `3 tasks`.
pub fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shortens_long_titles() {
        assert_eq!(quoted("Ship"), "\"Ship\"");
        assert_eq!(quoted(&"x".repeat(80)).chars().count(), 62);
        assert_eq!(plural(1, "task"), "1 task");
        assert_eq!(plural(2, "task"), "2 tasks");
    }
}
