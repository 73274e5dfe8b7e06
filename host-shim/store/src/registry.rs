//! Every kind of store this build serves, in the order a location's text
//! is tried: the first kind that recognizes it names the store. The file
//! kind (SQLite) takes any text, so it comes last.

use crate::Descriptor;

/// The kinds of store, one line each.
pub(crate) static KINDS: &[&Descriptor] =
    &[&crate::postgres::DESCRIPTOR, &crate::sqlite::DESCRIPTOR];

/// The kind named by `text` as a user writes it.
pub(crate) fn kind_of(text: &str) -> &'static Descriptor {
    KINDS
        .iter()
        .copied()
        .find(|kind| (kind.recognizes)(text))
        .unwrap_or_else(file_kind)
}

/// The kind a path is (a path is always a file, whatever its text looks
/// like).
pub(crate) fn file_kind() -> &'static Descriptor {
    KINDS
        .iter()
        .copied()
        .find(|kind| kind.file)
        .expect("a file kind is registered")
}
