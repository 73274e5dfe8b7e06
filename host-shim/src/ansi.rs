//! Styled lines to terminal text: ANSI colors on a terminal, plain text
//! otherwise. The component picks style tokens; the colors are ours.

use crate::bindings::{Line, Style};

/// Renders `lines` as text, one `\n`-terminated line each, with ANSI
/// colors when `color` is true. Control characters in the text (which an
/// agent could put in a task title) are neutralized so they can never
/// drive the terminal.
pub fn render_ansi(lines: &[Line], color: bool) -> String {
    let mut out = String::new();
    for line in lines {
        for span in line {
            let text = sanitize(&span.text);
            match ansi_code(span.style).filter(|_| color) {
                Some(code) => {
                    out.push_str("\x1b[");
                    out.push_str(code);
                    out.push('m');
                    out.push_str(&text);
                    out.push_str("\x1b[0m");
                }
                None => out.push_str(&text),
            }
        }
        out.push('\n');
    }
    out
}

/// The SGR parameters of each style (`None`: terminal default).
fn ansi_code(style: Style) -> Option<&'static str> {
    match style {
        Style::Text => None,
        Style::Accent => Some("36"),
        Style::Muted => Some("2"),
        Style::Success => Some("32"),
        Style::Warning => Some("33"),
        Style::Error => Some("1;31"),
        Style::Strong => Some("1"),
    }
}

fn sanitize(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\r' => ' ',
            '\t' => '\t',
            c if c.is_control() => '\u{FFFD}',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bindings::Span;

    #[test]
    fn plain_and_colored() {
        let lines = vec![
            vec![
                Span::new("done ", Style::Success),
                Span::new("task_1", Style::Muted),
            ],
            vec![Span::new("plain", Style::Text)],
        ];
        assert_eq!(render_ansi(&lines, false), "done task_1\nplain\n");
        assert_eq!(
            render_ansi(&lines, true),
            "\x1b[32mdone \x1b[0m\x1b[2mtask_1\x1b[0m\nplain\n"
        );
    }

    #[test]
    fn neutralizes_control_characters() {
        let lines = vec![vec![Span::new("evil\x1b[2Jtitle\nnext", Style::Text)]];
        assert_eq!(render_ansi(&lines, false), "evil\u{FFFD}[2Jtitle next\n");
    }
}
