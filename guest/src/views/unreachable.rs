//! The widget's one line while a host cannot read the store: its change
//! check got no answer in time, or the store's own error. Worded here, like
//! every line a person reads, without touching the store, so a host can
//! show it at once while the store does not answer.

use super::frame;
use crate::bindings::StoreDown;
use crate::render::{Line, LineBuf, Style};

/// One line, `✗ store unreachable: <why>`, cut to `width` columns.
pub(crate) fn line(why: &StoreDown, width: usize) -> Line {
    let reason = match why {
        StoreDown::NoAnswer(ms) => format!("no answer within {ms} ms"),
        // The store's words may span lines; the widget's one line keeps
        // them on one.
        StoreDown::Failed(message) => message.split_whitespace().collect::<Vec<_>>().join(" "),
    };
    let mut l = LineBuf::new();
    l.push("✗ store unreachable: ", Style::Error)
        .push(reason, Style::Muted);
    frame::fit(&l.finish(), width)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(l: &Line) -> String {
        l.iter().map(|s| s.text.as_str()).collect()
    }

    #[test]
    fn no_answer_names_the_limit() {
        let l = line(&StoreDown::NoAnswer(2000), 80);
        assert_eq!(text(&l), "✗ store unreachable: no answer within 2000 ms");
        assert_eq!(l[0].style, Style::Error);
    }

    #[test]
    fn a_failure_is_one_line_cut_to_the_width() {
        let why = StoreDown::Failed("cannot connect to postgresql://a@h/db:\n  timed out".into());
        assert_eq!(
            text(&line(&why, 200)),
            "✗ store unreachable: cannot connect to postgresql://a@h/db: timed out"
        );
        let cut = line(&why, 30);
        assert_eq!(frame::line_width(&cut), 30);
        assert!(text(&cut).ends_with('…'), "{}", text(&cut));
    }
}
