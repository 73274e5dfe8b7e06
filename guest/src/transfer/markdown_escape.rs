//! The escaping that lets any text sit inside the Markdown export and
//! come back exactly ([`super::markdown_out`] writes it,
//! [`super::markdown_in`] undoes it in a file that carries [`MARKER`]).
//!
//! A text is written one line at a time, and on each line:
//!
//! - a character no view shows raw (controls, line breaks inside a title,
//!   a bare CR, bidi and zero-width characters: what
//!   [`crate::text::printable`] escapes) is written `\u{…}`, its code
//!   point in hex, as the component's messages show it;
//! - a line that would read as Markdown syntax (a list marker `-` `*` `+`,
//!   hence a checkbox or a `key:` bullet; a heading `#`; a quote `>`; a
//!   fence `` ` `` `~`; a setext underline `=`) gets a `\` in front, and a
//!   numbered item `12.` or `12)` gets its `\.` / `\)`: Markdown's own
//!   escapes, so a renderer shows the plain character;
//! - leading white space gets a `\` in front (it would read as
//!   indentation), and a white space character that ends the line is
//!   written `\u{…}` (readers and editors trim it);
//! - a `\` is doubled where it could read as one of these escapes: before
//!   punctuation, `u`, white space or an escaped character.
//!
//! Reading undoes exactly that: `\` then ASCII punctuation is the
//! punctuation, `\u{hex}` the character, a `\` that starts a line before
//! white space the white space; any other `\` is itself.

use crate::text::printable;

/// The line an export carries after its heading: a Markdown comment (no
/// renderer shows it) that tells a reader the texts are escaped. Only a
/// file with it, unindented, is unescaped: a checklist a person wrote is
/// read as it always was, backslashes and all.
pub const MARKER: &str = "<!-- tasklists export: texts escaped (\\- is a plain \"-\", \\u{a} a line break); tasklists import reads them back exactly -->";

/// What a line must start with to be [`MARKER`].
const MARKER_PREFIX: &str = "<!-- tasklists export";

/// Whether `line` is the export's marker.
pub fn is_marker(line: &str) -> bool {
    line.starts_with(MARKER_PREFIX)
}

/// Characters that begin Markdown block syntax at the start of a line.
const SYNTAX_START: [char; 8] = ['-', '*', '+', '#', '>', '`', '~', '='];

/// Whether the views escape `c` (the same test as
/// [`crate::text::printable`], which is the definition).
fn escaped(c: char) -> bool {
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    let mut buf = [0u8; 4];
    let s = c.encode_utf8(&mut buf);
    printable(s) != *s
}

/// `s` as one line of the export: no line break, no unsafe character, no
/// leading or trailing white space, nothing that reads as syntax. Line
/// breaks inside `s` are written `\u{a}`.
pub fn line(s: &str) -> String {
    let chars: Vec<char> = s.chars().collect();
    let n = chars.len();
    let mut out = String::with_capacity(s.len() + 4);
    // The character a trailing white space is written as \u{…}, so that
    // nothing trims it.
    let hex = |i: usize| escaped(chars[i]) || (i + 1 == n && chars[i].is_whitespace());
    match chars.first() {
        Some(c) if c.is_whitespace() && !hex(0) => out.push('\\'),
        Some(c) if SYNTAX_START.contains(c) => out.push('\\'),
        _ => {}
    }
    // A numbered item: its `.` or `)` after the digits.
    let digits = chars.iter().take_while(|c| c.is_ascii_digit()).count();
    let numbered = (digits > 0 && matches!(chars.get(digits), Some('.' | ')'))).then_some(digits);
    for (i, &c) in chars.iter().enumerate() {
        if hex(i) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else if c == '\\' {
            out.push('\\');
            let next = chars.get(i + 1).copied();
            let reads_as_escape = next.is_some_and(|d| {
                d.is_ascii_punctuation() || d == 'u' || d.is_whitespace() || hex(i + 1)
            });
            if reads_as_escape {
                out.push('\\');
            }
        } else {
            if numbered == Some(i) {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// `text` as the lines of a field: the first goes on the `key:` line, an
/// empty string is an empty line. Empty lines at the start or the end
/// would be lost among the file's blank lines, so their line breaks are
/// written `\u{a}` on the first or last line; the empty text is one empty
/// line.
pub fn text(text: &str) -> Vec<String> {
    let lines: Vec<&str> = text.split('\n').collect();
    let (Some(first), Some(last)) = (
        lines.iter().position(|l| !l.is_empty()),
        lines.iter().rposition(|l| !l.is_empty()),
    ) else {
        // Only line breaks, or nothing.
        return vec![line(text)];
    };
    let mut out = Vec::with_capacity(last - first + 1);
    for (i, l) in lines.iter().enumerate().take(last + 1).skip(first) {
        let mut l = (*l).to_string();
        if i == first {
            l.insert_str(0, &"\n".repeat(first));
        }
        if i == last {
            l.push_str(&"\n".repeat(lines.len() - 1 - last));
        }
        out.push(if l.is_empty() {
            String::new()
        } else {
            line(&l)
        });
    }
    out
}

/// Undoes [`line`]: `s` is one line's text, its indentation removed.
pub fn unescape(s: &str) -> String {
    if !s.contains('\\') {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    let mut at_start = true;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        at_start &= i == 0;
        let after = &rest[i + 1..];
        let mut chars = after.chars();
        match chars.next() {
            Some(c) if c.is_ascii_punctuation() || (at_start && c.is_whitespace()) => {
                out.push(c);
                rest = chars.as_str();
            }
            Some('u') => match code_point(chars.as_str()) {
                Some((c, len)) => {
                    out.push(c);
                    rest = &chars.as_str()[len..];
                }
                None => {
                    out.push('\\');
                    rest = after;
                }
            },
            _ => {
                out.push('\\');
                rest = after;
            }
        }
        at_start = false;
    }
    out.push_str(rest);
    out
}

/// `{hex}` at the start of `s`: the character and the bytes it took.
fn code_point(s: &str) -> Option<(char, usize)> {
    let inner = s.strip_prefix('{')?;
    let end = inner.find('}')?;
    let hex = &inner[..end];
    if hex.is_empty() || hex.len() > 6 || !hex.chars().all(|c| c.is_ascii_hexdigit()) {
        return None;
    }
    let c = char::from_u32(u32::from_str_radix(hex, 16).ok()?)?;
    Some((c, end + 2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_at_the_start_of_a_line_is_escaped_and_read_back() {
        for (text, written) in [
            ("- [x] Security review", "\\- [x] Security review"),
            ("# title", "\\# title"),
            ("12. step", "12\\. step"),
            ("3) step", "3\\) step"),
            ("```rust", "\\```rust"),
            ("  indented", "\\  indented"),
            ("trailing ", "trailing\\u{20}"),
            (" ", "\\u{20}"),
            (
                "a\rb\tc\u{202e}d\u{200b}",
                "a\\u{d}b\\u{9}c\\u{202e}d\\u{200b}",
            ),
            ("C:\\Users\\me", "C:\\Users\\me"),
            ("\\- \\u{41} \\", "\\\\- \\\\u{41} \\"),
            (
                "plain: text, 1. and - inside",
                "plain: text, 1. and - inside",
            ),
            ("❤\u{fe0f} é", "❤\u{fe0f} é"),
        ] {
            assert_eq!(line(text), written, "{text:?}");
            assert_eq!(unescape(written), text, "{written:?}");
        }
    }

    #[test]
    fn empty_lines_at_either_end_are_kept_as_escapes() {
        assert_eq!(text(""), [""]);
        assert_eq!(text("\n"), ["\\u{a}"]);
        assert_eq!(text("\na\n\nb\n"), ["\\u{a}a", "", "b\\u{a}"]);
    }

    #[test]
    fn a_backslash_that_is_no_escape_is_itself() {
        assert_eq!(
            unescape("a\\b \\u{zz} \\u{d800} \\"),
            "a\\b \\u{zz} \\u{d800} \\"
        );
        assert_eq!(unescape("mid \\ space"), "mid \\ space");
    }
}
