//! The labels rule (placeholder of the lead's branch until the labels
//! work lands: the same rule, replaced by its full module then).

/// Most labels a task carries.
pub const MAX_LABELS: usize = 20;
/// Longest label, in characters.
pub const MAX_LABEL_CHARS: usize = 64;

/// Whether `c` may be in a label.
fn allowed(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | ':' | '/' | '@' | '+' | '#')
}

/// `raw` made a valid label (trimmed, spaces as `-`, what is not allowed
/// dropped, cut to [`MAX_LABEL_CHARS`]), or none when nothing is left.
pub fn label_from(raw: &str) -> Option<String> {
    let made: String = raw
        .trim()
        .chars()
        .map(|c| if c.is_whitespace() { '-' } else { c })
        .filter(|c| allowed(*c))
        .take(MAX_LABEL_CHARS)
        .collect();
    (!made.is_empty()).then_some(made)
}
