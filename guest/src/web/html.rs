//! The one way a page writes HTML: [`Html`], whose tag and attribute names
//! are the component's own (`&'static str`) and whose every text and
//! attribute value is cleaned as a screen's text is ([`for_screen`]: no
//! control, bidi override or zero-width character) and then escaped. No
//! page writes a raw string, so nothing an agent stored can become markup.

use crate::render::{Line, Style};
use crate::text::for_screen;

/// An HTML fragment under construction.
#[derive(Debug, Default, Clone)]
pub(crate) struct Html(String);

/// An attribute: its name (the component's) and its value (any text).
pub(crate) type Attr<'a> = (&'static str, &'a str);

impl Html {
    /// An empty fragment.
    pub(crate) fn new() -> Self {
        Html(String::new())
    }

    /// `<tag attrs…>`.
    pub(crate) fn open(&mut self, tag: &'static str, attrs: &[Attr]) -> &mut Self {
        self.0.push('<');
        self.0.push_str(tag);
        for (name, value) in attrs {
            self.0.push(' ');
            self.0.push_str(name);
            self.0.push_str("=\"");
            self.0.push_str(&attr(value));
            self.0.push('"');
        }
        self.0.push('>');
        self
    }

    /// `</tag>`.
    pub(crate) fn close(&mut self, tag: &'static str) -> &mut Self {
        self.0.push_str("</");
        self.0.push_str(tag);
        self.0.push('>');
        self
    }

    /// Text, cleaned and escaped (one line: breaks become spaces).
    pub(crate) fn text(&mut self, text: &str) -> &mut Self {
        self.0.push_str(&escape(&for_screen(text)));
        self
    }

    /// A text of several lines, each cleaned and escaped, the breaks kept
    /// (shown by the stylesheet's `pre-wrap`).
    pub(crate) fn multiline(&mut self, text: &str) -> &mut Self {
        let lines: Vec<String> = text
            .lines()
            .map(|l| escape(&for_screen(l.trim_end_matches('\r'))))
            .collect();
        self.0.push_str(&lines.join("\n"));
        self
    }

    /// `<tag attrs…>text</tag>`.
    pub(crate) fn elem(&mut self, tag: &'static str, attrs: &[Attr], text: &str) -> &mut Self {
        self.open(tag, attrs).text(text).close(tag)
    }

    /// A void element: `<tag attrs…>`.
    pub(crate) fn void(&mut self, tag: &'static str, attrs: &[Attr]) -> &mut Self {
        self.open(tag, attrs)
    }

    /// Another fragment, as built.
    pub(crate) fn append(&mut self, other: &Html) -> &mut Self {
        self.0.push_str(&other.0);
        self
    }

    /// Another fragment, as built, whose first element gets one more
    /// attribute `name="value"` (a card's version, known only once the
    /// card is written).
    pub(crate) fn append_marked(
        &mut self,
        other: &Html,
        name: &'static str,
        value: &str,
    ) -> &mut Self {
        let at = other.0.find([' ', '>']).unwrap_or(other.0.len());
        self.0.push_str(&other.0[..at]);
        self.0.push(' ');
        self.0.push_str(name);
        self.0.push_str("=\"");
        self.0.push_str(&attr(value));
        self.0.push('"');
        self.0.push_str(&other.0[at..]);
        self
    }

    /// The markup built so far.
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The component's styled lines (a rendering, an error): one `<div
    /// class="line">` each, spans classed by their style.
    pub(crate) fn lines(&mut self, lines: &[Line]) -> &mut Self {
        for line in lines {
            self.open("div", &[("class", "line")]);
            for span in line {
                self.elem("span", &[("class", style_class(span.style))], &span.text);
            }
            self.close("div");
        }
        self
    }

    /// The markup.
    pub(crate) fn finish(self) -> String {
        self.0
    }
}

/// The class a style is drawn with (`board.css`).
pub(crate) fn style_class(style: Style) -> &'static str {
    match style {
        Style::Text => "s-text",
        Style::Accent => "s-accent",
        Style::Muted => "s-muted",
        Style::Success => "s-success",
        Style::Warning => "s-warning",
        Style::Error => "s-error",
        Style::Strong => "s-strong",
    }
}

/// `s` escaped for text content.
pub(crate) fn escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// An attribute value: cleaned as text, then escaped (quotes included).
/// JSON in an attribute (the key map) keeps its characters: it has no
/// control or invisible character to clean.
pub(crate) fn attr(s: &str) -> String {
    escape(&for_screen(s))
}
