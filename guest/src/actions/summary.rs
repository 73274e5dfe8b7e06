//! Small text helpers for the one-line summaries that lead every result.

/// A title quoted and shortened for a summary line, as a JSON string:
/// quotes, backslashes, control and invisible characters escaped, every
/// other character (accents, emoji, scripts) kept as is for the reader.
pub fn quoted(title: &str) -> String {
    const MAX: usize = 60;
    let shown = if title.chars().count() <= MAX {
        title.to_string()
    } else {
        format!("{}…", title.chars().take(MAX - 1).collect::<String>())
    };
    crate::text::json_text(&serde_json::Value::from(shown))
}

/// Ids in a summary line: all of them up to ten, else the first ten and
/// how many more (the data always has every id).
pub fn id_sample(ids: &[String]) -> String {
    const SHOWN: usize = 10;
    if ids.len() <= SHOWN {
        return ids.join(", ");
    }
    format!(
        "{}, … ({} more)",
        ids[..SHOWN].join(", "),
        ids.len() - SHOWN
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::plural;

    #[test]
    fn quotes_as_json_and_keeps_text_readable() {
        assert_eq!(quoted("café e\u{301} 🚀"), "\"café e\u{301} 🚀\"");
        assert_eq!(quoted("say \"hi\"\n"), r#""say \"hi\"\n""#);
        assert_eq!(quoted("\u{1b}[31m"), r#""\u001b[31m""#);
        assert_eq!(quoted("\u{9b}2J\u{202e}"), r#""\u009b2J\u202e""#);
    }

    #[test]
    fn shortens_long_titles() {
        assert_eq!(quoted("Ship"), "\"Ship\"");
        assert_eq!(quoted(&"x".repeat(80)).chars().count(), 62);
        assert_eq!(plural(1, "task"), "1 task");
        assert_eq!(plural(2, "task"), "2 tasks");
    }
}
