//! A task's `refs`: URIs of items in other systems (OpenTasks' scheme,
//! seed 004: `github://owner/repo/123`, `beads://./bd-x7k9`,
//! `linear://ENG/ENG-123`, …) or plain `https://` links. A ref is a
//! pointer, never a dependency: dependencies stay within a list.
//!
//! The rule, the same for every caller: at most [`MAX_REFS`] refs of at
//! most [`MAX_REF_CHARS`] characters each, each one of [`SCHEMES`] followed
//! by a non-empty rest of printable, non-space characters (no control,
//! bidirectional or zero-width character: a ref cannot pass for another
//! on screen, nor hold a line break).

use crate::text::quote;

/// The schemes a ref may use: OpenTasks' (seed 004) and `https`.
pub const SCHEMES: &[&str] = &[
    "github",
    "gitlab",
    "beads",
    "linear",
    "jira",
    "taskmaster",
    "claude",
    "native",
    "https",
];
/// Most refs on one task.
pub const MAX_REFS: usize = 20;
/// Longest ref, in characters.
pub const MAX_REF_CHARS: usize = 500;

/// The rule in one line, for errors and help.
pub const REFS_RULE: &str = "URIs such as github://owner/repo/123, beads://./bd-x7k9 or https://…; schemes github, gitlab, beads, linear, jira, taskmaster, claude, native, https; at most 20 of at most 500 characters, no spaces";

/// Why `uri` is not a valid ref, if it is not.
pub fn check_ref(uri: &str) -> Result<(), String> {
    let n = uri.chars().count();
    if n == 0 || n > MAX_REF_CHARS {
        return Err(format!("must be 1 to {MAX_REF_CHARS} characters, got {n}"));
    }
    let Some((scheme, rest)) = uri.split_once("://") else {
        return Err(format!("{} is not a URI (scheme://…)", quote(uri)));
    };
    if !SCHEMES.contains(&scheme) {
        return Err(format!(
            "{} has scheme {}, which is not one of {}",
            quote(uri),
            quote(scheme),
            SCHEMES.join(", ")
        ));
    }
    if rest.is_empty() {
        return Err(format!("{} names nothing after {scheme}://", quote(uri)));
    }
    if let Some(c) = uri.chars().find(|c| !allowed(*c)) {
        return Err(format!(
            "{} holds U+{:04X}, which a ref may not (spaces, control, bidirectional and zero-width characters)",
            quote(uri),
            c as u32
        ));
    }
    Ok(())
}

/// Whether `c` may appear in a ref: printable and not white space.
fn allowed(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || ('\u{200B}'..='\u{200F}').contains(&c)
        || ('\u{202A}'..='\u{202E}').contains(&c)
        || ('\u{2060}'..='\u{2069}').contains(&c)
        || c == '\u{FEFF}')
}

/// Whether `uri` is a link a browser may follow (`https://` only; every
/// other scheme is shown as text).
pub fn is_link(uri: &str) -> bool {
    uri.starts_with("https://") && check_ref(uri).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_schemes_and_https_pass_and_the_rest_is_refused() {
        for ok in [
            "github://owner/repo/123",
            "beads://./bd-x7k9",
            "linear://ENG/ENG-123",
            "jira://PROJ/PROJ-1",
            "taskmaster://./12.3",
            "https://example.com/a?b=c&d=<e>",
        ] {
            assert_eq!(check_ref(ok), Ok(()), "{ok}");
        }
        for bad in [
            "",
            "javascript://alert(1)",
            "javascript:alert(1)",
            "http://example.com",
            "github://",
            "github://a b",
            "github://a\nb",
            "github://a\u{202E}b",
            "HTTPS://example.com",
        ] {
            assert!(check_ref(bad).is_err(), "{bad:?} passed");
        }
        assert!(check_ref(&format!("https://{}", "a".repeat(MAX_REF_CHARS))).is_err());
        assert!(is_link("https://example.com") && !is_link("github://o/r/1"));
    }
}
