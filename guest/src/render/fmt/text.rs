//! Text for a terminal: one line, display width, truncation by columns.

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
