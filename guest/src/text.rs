//! Safe text: what the component lets reach a screen or a model.
//!
//! Text is stored exactly as agents send it, but no raw control sequence
//! ever leaves the component: escape sequences (ESC, CSI as the single C1
//! byte U+009B, OSC as U+009D, DEL) could drive a terminal, and invisible
//! characters (bidirectional overrides, zero-width spaces, tag characters)
//! could make one text pass for another. Three views, one definition of
//! what is unsafe:
//!
//! - [`json_text`]: JSON for models and `--json`, escaping DEL, C1 and the
//!   invisible characters as `\uXXXX` (serde_json escapes only C0);
//! - [`printable`]: one line of plain text (summaries, error messages),
//!   the same characters shown as `\u{…}` escapes;
//! - [`for_screen`]: what renderers draw, controls as spaces and invisible
//!   characters as a visible `�`.
//!
//! [`quote`] is how a message names a bad value: at most [`QUOTE_MAX`]
//! characters, JSON-quoted, whatever its size.

use serde_json::Value as Json;

pub mod safe_json;

/// Most characters of a bad value a message quotes.
pub const QUOTE_MAX: usize = 200;

/// What renderers draw instead of an invisible character.
const SHOWN_INVISIBLE: char = '\u{FFFD}';

/// Unicode's default-ignorable code points (characters that render as
/// nothing), plus the line and paragraph separators: none of them may
/// appear in an agent id, where they would let one id look like another.
pub fn is_invisible(c: char) -> bool {
    matches!(c,
        '\u{00AD}'
        | '\u{034F}'
        | '\u{061C}'
        | '\u{115F}'..='\u{1160}'
        | '\u{17B4}'..='\u{17B5}'
        | '\u{180B}'..='\u{180F}'
        | '\u{200B}'..='\u{200F}'
        | '\u{2028}'..='\u{202E}'
        | '\u{2060}'..='\u{206F}'
        | '\u{3164}'
        | '\u{FE00}'..='\u{FE0F}'
        | '\u{FEFF}'
        | '\u{FFA0}'
        | '\u{FFF0}'..='\u{FFFB}'
        | '\u{1BCA0}'..='\u{1BCA3}'
        | '\u{1D173}'..='\u{1D17A}'
        | '\u{E0000}'..='\u{E0FFF}')
}

/// Variation selectors only pick the glyph of the character before them
/// (`❤` + U+FE0F is the red heart emoji): they cannot hide or reorder text,
/// so titles keep them.
fn is_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0F}' | '\u{E0100}'..='\u{E01EF}')
}

/// Characters no view lets through raw: controls (C0, DEL, C1) and the
/// invisible ones that can reorder or hide text.
fn is_unsafe(c: char) -> bool {
    if c.is_ascii() {
        // The common case, decided without the Unicode tables.
        return c.is_ascii_control();
    }
    c.is_control() || (is_invisible(c) && !is_variation_selector(c))
}

/// Whether `s` holds no unsafe character. Printable ASCII is checked a
/// byte at a time (what nearly every id, title and JSON text is); only
/// text with other bytes is walked character by character.
fn all_safe(s: &str) -> bool {
    printable_ascii(s.as_bytes()) || !s.chars().any(is_unsafe)
}

/// Whether every byte is printable ASCII (0x20..=0x7e), eight bytes at a
/// time: every result's JSON text is checked, and a byte at a time this
/// was the component's costliest loop after serialization itself.
fn printable_ascii(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let x = u64::from_le_bytes(word.try_into().unwrap_or_default());
        // A byte >= 0x80; a byte < 0x20 (x - 0x20 borrows into its high
        // bit, bytes being < 0x80); a byte == 0x7f (x ^ 0x7f has a zero).
        let del = x ^ (0x7f * ONES);
        let bad = (x & HIGH)
            | (x.wrapping_sub(0x20 * ONES) & !x & HIGH)
            | (del.wrapping_sub(ONES) & !del & HIGH);
        if bad != 0 {
            return false;
        }
    }
    words.remainder().iter().all(|b| (0x20..0x7f).contains(b))
}

/// `value` as compact JSON text that is safe to print: serde_json's
/// escapes, plus `\uXXXX` for DEL, C1 and invisible characters. Parsing
/// it gives back exactly `value`'s JSON. Any serializable value, written
/// straight from its type (no JSON tree built on the way).
pub fn json_text<T: serde::Serialize + ?Sized>(value: &T) -> String {
    json_text_with_capacity(value, 128)
}

/// [`json_text`], written into a string of `capacity` bytes at first.
pub fn json_text_with_capacity<T: serde::Serialize + ?Sized>(value: &T, capacity: usize) -> String {
    safe_json::write(value, capacity).unwrap_or_else(|_| json_text_slowly(value))
}

/// [`json_text`] of what [`safe_json`] leaves to serde_json: its
/// text, then its unsafe characters escaped (and the oracle of its tests).
pub(crate) fn json_text_slowly<T: serde::Serialize + ?Sized>(value: &T) -> String {
    // Serializing these types cannot fail (string keys, finite numbers).
    let raw = serde_json::to_string(value).unwrap_or_else(|_| "null".into());
    // serde_json escaped C0 already; any other unsafe character can only
    // sit inside a string literal, where a \u escape means the same.
    if all_safe(&raw) {
        return raw;
    }
    let mut out = String::with_capacity(raw.len() + 16);
    for c in raw.chars() {
        if is_unsafe(c) {
            let mut units = [0u16; 2];
            for unit in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{unit:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// `json_text(value).len()`, without building the text: what a page
/// budget needs for every row it takes. Any serializable value: its text
/// is that of its JSON value.
pub fn json_text_len<T: serde::Serialize + ?Sized>(value: &T) -> usize {
    /// Counts what serde_json writes, plus what [`json_text`] adds for
    /// each unsafe character (a `\uXXXX` escape per UTF-16 unit instead
    /// of the character's UTF-8 bytes).
    struct Counter(usize);
    impl std::io::Write for Counter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            if !buf.iter().all(|b| (0x20..0x7f).contains(b)) {
                // serde_json writes whole characters per call.
                for c in String::from_utf8_lossy(buf)
                    .chars()
                    .filter(|c| is_unsafe(*c))
                {
                    self.0 += 6 * c.len_utf16() - c.len_utf8();
                }
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut counter = Counter(0);
    match serde_json::to_writer(&mut counter, value) {
        Ok(()) => counter.0,
        Err(_) => serde_json::to_value(value).map_or(0, |v| json_text(&v).len()),
    }
}

/// The bytes one character of a string takes in [`json_text`]: two for
/// the short escapes (`\"`, `\\`, `\n`, …), six for any other C0 control
/// (`\u0001`), six per UTF-16 unit for the unsafe ones (a tag character is
/// a surrogate pair, twelve), else its UTF-8 bytes.
pub fn json_char_len(c: char) -> usize {
    match c {
        '"' | '\\' | '\u{8}' | '\u{c}' | '\n' | '\r' | '\t' => 2,
        c if u32::from(c) < 0x20 => 6,
        c if is_unsafe(c) => 6 * c.len_utf16(),
        c => c.len_utf8(),
    }
}

/// The bytes of `s` inside [`json_text`], without its two quotes.
pub fn json_str_len(s: &str) -> usize {
    if all_safe(s) && !s.contains(['"', '\\']) {
        return s.len();
    }
    s.chars().map(json_char_len).sum()
}

/// `s` as one line of plain text: unsafe characters (newlines included)
/// become visible `\u{…}` escapes, everything else is kept.
pub fn printable(s: &str) -> String {
    if all_safe(s) {
        return s.to_string();
    }
    let mut out = String::with_capacity(s.len() + 8);
    for c in s.chars() {
        if is_unsafe(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    out
}

/// `s` drawn on one line of a screen: controls (newlines, tabs, escape
/// sequences) become spaces and invisible characters a visible `�`. A
/// zero-width joiner or non-joiner between two non-Latin characters stays:
/// it joins emoji (👨‍👩‍👧) and shapes Indic and Persian words.
pub fn for_screen(s: &str) -> String {
    if !s.chars().any(is_unsafe) {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let joins = |i: usize| {
        let wide = |c: Option<&char>| c.is_some_and(|c| u32::from(*c) > 0xFF && !is_unsafe(*c));
        i > 0 && wide(chars.get(i - 1)) && wide(chars.get(i + 1))
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, &c)| match c {
            c if c.is_control() => ' ',
            '\u{200C}' | '\u{200D}' if joins(i) => c,
            c if is_unsafe(c) => SHOWN_INVISIBLE,
            c => c,
        })
        .collect()
}

/// A bad value as a message quotes it: JSON-quoted (escapes readable, no
/// raw control), at most [`QUOTE_MAX`] characters, and when cut, how long
/// it was: `"aaaa…" (1048576 characters)`.
pub fn quote(s: &str) -> String {
    match s.char_indices().nth(QUOTE_MAX) {
        Some((cut, _)) => format!(
            "{} ({} characters)",
            json_text(&Json::from(format!("{}…", &s[..cut]))),
            s.chars().count()
        ),
        None => json_text(&Json::from(s)),
    }
}

/// `1 task` / `3 tasks`, for any integer count (summaries and renderers).
pub fn plural<N: std::fmt::Display + PartialEq + From<u8>>(n: N, word: &str) -> String {
    if n == N::from(1) {
        format!("{n} {word}")
    } else {
        format!("{n} {word}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printable_ascii_agrees_with_a_byte_at_a_time() {
        let slow = |b: &[u8]| b.iter().all(|b| (0x20..0x7f).contains(b));
        for len in 0..20 {
            for at in 0..len.max(1) {
                for bad in [0u8, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff, b'a'] {
                    let mut bytes = vec![b'x'; len];
                    if len > 0 {
                        bytes[at] = bad;
                    }
                    assert_eq!(printable_ascii(&bytes), slow(&bytes), "{bytes:?}");
                }
            }
        }
    }
    use serde_json::json;

    #[test]
    fn json_text_escapes_what_serde_leaves_raw_and_round_trips() {
        let v =
            json!({"t": "a\u{7f}b\u{9b}31m\u{9d}0;x\u{7}\u{202e}rev\u{200b}\u{e0041}é🚀\u{fe0f}"});
        let text = json_text(&v);
        assert!(!text.chars().any(is_unsafe), "{text}");
        assert!(text.contains(r"\u007f") && text.contains(r"\u009b") && text.contains(r"\u202e"));
        assert!(
            text.contains(r"\udb40\udc41"),
            "tag characters as surrogate pairs: {text}"
        );
        assert!(text.contains("é🚀\u{fe0f}"), "readable text stays: {text}");
        assert_eq!(serde_json::from_str::<Json>(&text).unwrap(), v);
        assert_eq!(json_text(&json!({"plain": "café"})), r#"{"plain":"café"}"#);
    }

    #[test]
    fn json_text_len_is_the_length_of_json_text() {
        for v in [
            json!({"t": "a\u{7f}b\u{9b}31m\u{9d}0;x\u{7}\u{202e}rev\u{200b}\u{e0041}é🚀\u{fe0f}"}),
            json!({"plain": "café", "n": [1, 2.5, null, true], "nested": {"k": "\n\t\"\\"}}),
            json!("\u{2066}".repeat(100)),
            json!([]),
        ] {
            assert_eq!(json_text_len(&v), json_text(&v).len(), "{v}");
        }
    }

    #[test]
    fn json_str_len_counts_what_json_text_writes() {
        for s in [
            "a\u{7f}b\u{9b}31m\u{9d}0;x\u{7}\u{202e}rev\u{200b}\u{e0041}é🚀\u{fe0f}",
            "plain",
            "\n\t\"\\\u{8}\u{c}\r\u{1}\u{1f}",
            "",
            &"\u{e0001}".repeat(10),
        ] {
            assert_eq!(json_str_len(s) + 2, json_text(&json!(s)).len(), "{s:?}");
        }
        assert_eq!(
            json_str_len("\u{e0001}"),
            12,
            "the worst: a surrogate pair of escapes"
        );
    }

    #[test]
    fn printable_and_screen_views_neutralize_the_same_characters() {
        let s = "ok\n\u{1b}[31m\u{9b}2J\u{202e}dlrow\u{2066}x\u{200b}y";
        assert_eq!(
            printable(s),
            r"ok\u{a}\u{1b}[31m\u{9b}2J\u{202e}dlrow\u{2066}x\u{200b}y"
        );
        assert_eq!(for_screen(s), "ok  [31m 2J�dlrow�x�y");
        assert_eq!(printable("plain é"), "plain é");
    }

    #[test]
    fn joiners_stay_inside_emoji_and_scripts_only() {
        let family = "👨\u{200d}👩\u{200d}👧";
        assert_eq!(for_screen(family), family);
        let persian = "می\u{200c}خواهم";
        assert_eq!(for_screen(persian), persian);
        assert_eq!(for_screen("bo\u{200d}b"), "bo�b");
        assert_eq!(for_screen("\u{200d}x"), "�x");
        assert_eq!(for_screen("❤\u{fe0f}"), "❤\u{fe0f}");
    }

    #[test]
    fn quotes_are_bounded_whatever_the_input() {
        assert_eq!(quote("listId"), r#""listId""#);
        let huge = "x".repeat(1 << 20);
        let q = quote(&huge);
        assert!(q.chars().count() < QUOTE_MAX + 40, "{}", q.len());
        assert!(q.ends_with("…\" (1048576 characters)"), "{q}");
        let marks = "\u{301}".repeat(1_000_000);
        assert!(quote(&marks).len() < 1000);
        assert_eq!(quote("a\u{9b}b"), r#""a\u009bb""#);
    }
}
