//! Laying command output out for a terminal width: lines cut to fit, long
//! texts wrapped by words, JSON pretty-printed and wrapped (never cut: the
//! `full` forms exist to show everything).

use super::frame::fit;
use crate::render::{Line, LineBuf, Span, Style, fmt};
use crate::text::printable;

/// Every line cut to `width` columns.
pub(crate) fn fit_all(lines: Vec<Line>, width: usize) -> Vec<Line> {
    lines.iter().map(|l| fit(l, width)).collect()
}

/// Every line wrapped (not cut) to `width` columns: what must be read
/// whole, like an error message. A wrapped line keeps the style of its
/// last span and continues indented by two columns.
pub(crate) fn wrap_lines(lines: Vec<Line>, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    for l in lines {
        let text: String = l.iter().map(|s| s.text.as_str()).collect();
        if fmt::width(&text) <= width {
            out.push(l);
            continue;
        }
        let style = l.last().map_or(Style::Text, |s| s.style);
        let lead = text.len() - text.trim_start().len();
        let indent = " ".repeat(lead + 2);
        for (i, chunk) in wrap(&text, width.saturating_sub(lead + 2), 40)
            .into_iter()
            .enumerate()
        {
            let mut b = LineBuf::new();
            b.push(
                if i == 0 {
                    " ".repeat(lead)
                } else {
                    indent.clone()
                },
                Style::Text,
            )
            .push(chunk, style);
            out.push(b.finish());
        }
    }
    out
}

/// Pieces joined by ` · ` on lines of at most `width` columns, each line
/// indented by `indent`: a piece never splits (unless it is wider than a
/// line alone, then it is cut), so ids and dates stay whole.
pub(crate) fn pack(pieces: &[Span], indent: usize, width: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let mut current = LineBuf::new();
    current.push(" ".repeat(indent), Style::Text);
    let mut empty = true;
    for p in pieces {
        let w = fmt::width(&p.text);
        if !empty && current.width() + 3 + w > width {
            out.push(std::mem::take(&mut current).finish());
            current.push(" ".repeat(indent), Style::Text);
            empty = true;
        }
        if !empty {
            current.push(" · ", Style::Muted);
        }
        current.push(&p.text, p.style);
        empty = false;
    }
    if !empty {
        out.push(current.finish());
    }
    fit_all(out, width)
}

/// `text` wrapped by words into lines of at most `width` columns, its own
/// line breaks kept, at most `max_lines` lines (the last one ending in `…`
/// when text was left out). Words longer than a line are split.
pub(crate) fn wrap(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let width = width.max(8);
    let mut out: Vec<String> = Vec::new();
    let mut cut = false;
    'paragraphs: for para in text.lines() {
        let para = fmt::one_line(para);
        let mut current = String::new();
        for word in para.split_whitespace() {
            let mut word = word.to_string();
            loop {
                let sep = usize::from(!current.is_empty());
                if fmt::width(&current) + sep + fmt::width(&word) <= width {
                    if sep == 1 {
                        current.push(' ');
                    }
                    current.push_str(&word);
                    break;
                }
                if !current.is_empty() {
                    out.push(std::mem::take(&mut current));
                } else {
                    // A word wider than the line: split it.
                    let head = fmt::take_width(&word, width);
                    word = word[head.len()..].to_string();
                    out.push(head);
                }
                if out.len() >= max_lines {
                    cut = true;
                    break 'paragraphs;
                }
            }
        }
        if !current.is_empty() {
            out.push(current);
        }
        if out.len() >= max_lines {
            cut = true;
            break;
        }
    }
    if cut {
        out.truncate(max_lines);
        if let Some(last) = out.last_mut() {
            *last = format!("{}…", fmt::take_width(last, width.saturating_sub(1)));
        }
    }
    out
}

/// Most lines of one task field (description, notes, outcome) in a
/// detail view; `tasks <list_id> full` has them whole.
const FIELD_LINES: usize = 20;

/// `label: text` wrapped under an indent, muted: a task's description,
/// notes or outcome.
pub(crate) fn field(label: &str, text: &str, indent: usize, width: usize) -> Vec<Line> {
    let lead = format!("{}{label}: ", " ".repeat(indent));
    let room = width.saturating_sub(fmt::width(&lead));
    wrap(text, room, FIELD_LINES)
        .into_iter()
        .enumerate()
        .map(|(i, chunk)| {
            let mut l = LineBuf::new();
            if i == 0 {
                l.push(&lead, Style::Muted);
            } else {
                l.push(" ".repeat(fmt::width(&lead)), Style::Text);
            }
            l.push(chunk, Style::Text);
            l.finish()
        })
        .collect()
}

/// A character escaped for JSON text when it must not reach a screen raw
/// (the same set as [`crate::text::json_text`]): `\uXXXX`.
fn escape(c: char) -> String {
    let s = c.to_string();
    if printable(&s) == s {
        return s;
    }
    let mut units = [0u16; 2];
    c.encode_utf16(&mut units)
        .iter()
        .map(|u| format!("\\u{u:04x}"))
        .collect()
}

/// `value` as pretty JSON lines, unsafe characters escaped, each line
/// wrapped (not cut) at `width` columns.
pub(crate) fn json_lines(value: &serde_json::Value, width: usize) -> Vec<Line> {
    let pretty = serde_json::to_string_pretty(value).unwrap_or_default();
    let mut out = Vec::new();
    for raw in pretty.lines() {
        let safe: String = raw.chars().map(escape).collect();
        let mut rest = safe.as_str();
        loop {
            let head = fmt::take_width(rest, width.max(8));
            let head = if head.is_empty() {
                rest.chars().next().map(String::from).unwrap_or_default()
            } else {
                head
            };
            out.push(crate::render::line(&head, Style::Text));
            rest = &rest[head.len()..];
            if rest.is_empty() {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_words_and_bounds_lines() {
        assert_eq!(
            wrap("one two three four", 9, 5),
            ["one two", "three", "four"]
        );
        assert_eq!(wrap("abcdefghijkl", 8, 5), ["abcdefgh", "ijkl"]);
        assert_eq!(wrap("a\nb", 8, 5), ["a", "b"]);
        assert_eq!(wrap("one two three four five", 8, 2), ["one two", "three…"]);
    }

    #[test]
    fn json_lines_escape_and_wrap() {
        let v = serde_json::json!({"t": "a\u{1b}b\u{202e}", "long": "x".repeat(30)});
        let text = crate::render::to_plain(&json_lines(&v, 30));
        assert!(
            !text.contains('\u{1b}') && !text.contains('\u{202e}'),
            "{text}"
        );
        assert!(text.contains(r"a\u001bb\u202e"), "{text}");
        assert!(text.lines().all(|l| fmt::width(l) <= 30), "{text}");
        assert!(text.contains("xxxxxxxx\nxx"), "long lines wrap: {text}");
    }
}
