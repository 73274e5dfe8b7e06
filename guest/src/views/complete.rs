//! Argument completions of the slash commands, as each command's row says
//! ([`Args`]): its words (`full`, the widget actions), visible list ids
//! (matched by id prefix or by a piece of the name) and the words after one.

use super::read::{self, Viewer};
use super::visible;
use crate::bindings::Completion;
use crate::clock::Clock;
use crate::context::CallContext;
use crate::error::ToolResult;
use crate::render::fmt;
use crate::store::Store;

/// Most suggestions returned.
const MAX: usize = 50;

/// What a command's arguments complete to.
pub(crate) struct Args {
    /// Words it takes first, with what each does.
    pub words: &'static [(&'static str, &'static str)],
    /// It takes a visible list's id first, then these words (None: no
    /// list id).
    pub list_then: Option<&'static [(&'static str, &'static str)]>,
    /// Which visible lists its list id completes to.
    pub lists: Lists,
}

/// Which of the visible lists a command's list id completes to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Lists {
    /// Every one.
    All,
    /// Those awaiting a person's decision ([`visible::awaits_approval`]).
    AwaitingApproval,
}

/// Suggestions for arguments that read as `args` says, given the text
/// typed so far; no list ids when the store cannot be read.
pub(crate) fn args(
    args: &Args,
    prefix: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
) -> Vec<Completion> {
    let typed = prefix.trim_start();
    let mut out = keywords(typed, args.words);
    if let Some(after) = args.list_then {
        out.extend(list_args(typed, ctx, store, clock, after, args.lists));
    }
    out.truncate(MAX);
    out
}

/// The keywords that start with what was typed.
fn keywords(typed: &str, words: &[(&str, &str)]) -> Vec<Completion> {
    words
        .iter()
        .filter(|(w, _)| w.starts_with(typed))
        .map(|(w, d)| Completion {
            value: (*w).into(),
            label: (*w).into(),
            description: (*d).into(),
        })
        .collect()
}

/// A list id as the first argument; once it is typed whole (followed by a
/// space or not), the words that may follow it.
fn list_args(
    typed: &str,
    ctx: &CallContext,
    store: &dyn Store,
    clock: &dyn Clock,
    after: &[(&str, &str)],
    lists: Lists,
) -> Vec<Completion> {
    let (first, rest) = match typed.split_once(char::is_whitespace) {
        Some((f, r)) => (f, Some(r.trim_start())),
        None => (typed, None),
    };
    let Ok(options) = list_options(ctx, first, store, clock, lists) else {
        return Vec::new();
    };
    if let Some(exact) = options.iter().find(|o| o.value == first) {
        let rest = rest.unwrap_or("");
        let mut out = Vec::new();
        if rest.is_empty() {
            out.push(exact.clone());
        }
        out.extend(
            after
                .iter()
                .filter(|(w, _)| w.starts_with(rest))
                .map(|(w, d)| Completion {
                    value: format!("{} {w}", exact.value),
                    label: format!("{} {w}", exact.label),
                    description: (*d).into(),
                }),
        );
        return out;
    }
    if rest.is_some() {
        return Vec::new();
    }
    options
}

/// The lists a person sees (those `all_lists` says) as options (value and label the
/// full id, description the name made safe for a screen), most recently
/// updated first, those whose id starts with `prefix` or whose name
/// contains it.
pub(crate) fn list_options(
    ctx: &CallContext,
    prefix: &str,
    store: &dyn Store,
    clock: &dyn Clock,
    lists: Lists,
) -> ToolResult<Vec<Completion>> {
    let viewer = Viewer::new(ctx, clock)?;
    let shown = read::read(store, |tx| {
        let mut shown = visible::all_lists(tx, &viewer)?.lists;
        if lists == Lists::AwaitingApproval {
            shown.retain(|l| l.approval.is_some());
            let ids: Vec<&str> = shown.iter().map(|l| l.id.as_str()).collect();
            let awaiting = visible::awaiting_approval(tx, &ids)?;
            let count = |id: &str| {
                awaiting
                    .iter()
                    .find(|(l, _)| l == id)
                    .map_or(0, |(_, n)| *n)
            };
            shown.retain(|l| visible::awaits_approval(l, count(&l.id)));
        }
        Ok(shown)
    })?;
    let needle = prefix.trim().to_lowercase();
    Ok(shown
        .into_iter()
        .filter(|l| {
            l.id.to_lowercase().starts_with(&needle) || l.name.to_lowercase().contains(&needle)
        })
        .take(MAX)
        .map(|l| Completion {
            value: l.id.clone(),
            label: l.id,
            description: fmt::truncate(&l.name, 60),
        })
        .collect())
}
