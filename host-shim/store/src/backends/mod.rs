//! Every kind of store this build serves, one folder each, and the
//! registry: the order a location's text is tried in, the first kind that
//! recognizes it naming the store. The file kind (SQLite) takes any text,
//! so it comes last. A new kind is its folder, its `mod` line and its
//! line in [`KINDS`].

pub mod postgres;
pub mod sqlite;

use crate::Descriptor;

/// The kinds of store, in the order their texts are tried.
pub(crate) static KINDS: &[&Descriptor] = &[
    &postgres::DESCRIPTOR,
    // Last: any text is a file path.
    &sqlite::DESCRIPTOR,
];

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
