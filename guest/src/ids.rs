//! Ids: a kind prefix plus a ULID (`list_01J…`, `task_01J…`), so a list id
//! passed where a task id is expected is caught and explained.

use ulid::Ulid;

use crate::text::{is_invisible, quote};

/// The kinds of ids the tools hand out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdKind {
    /// A task list.
    List,
    /// A task.
    Task,
    /// An audit event.
    Event,
    /// A claim token.
    Claim,
}

impl IdKind {
    const ALL: [IdKind; 4] = [IdKind::List, IdKind::Task, IdKind::Event, IdKind::Claim];

    /// The id prefix, including the underscore.
    pub fn prefix(self) -> &'static str {
        match self {
            IdKind::List => "list_",
            IdKind::Task => "task_",
            IdKind::Event => "evt_",
            IdKind::Claim => "claim_",
        }
    }

    /// How the kind is named in messages.
    pub fn noun(self) -> &'static str {
        match self {
            IdKind::List => "list id",
            IdKind::Task => "task id",
            IdKind::Event => "event id",
            IdKind::Claim => "claim token",
        }
    }

    /// The kind an id's prefix says it is, if any.
    pub fn of(id: &str) -> Option<IdKind> {
        Self::ALL.into_iter().find(|k| id.starts_with(k.prefix()))
    }
}

/// A fresh id of `kind`: the ULID's time part comes from the host clock and
/// its random part from the host's entropy.
pub fn new_id(kind: IdKind, now_ms: i64) -> String {
    let mut bytes = [0u8; 16];
    // Entropy failure would be a host bug; fall back to the clock so ids stay
    // unique enough rather than trapping mid-transaction.
    if getrandom::fill(&mut bytes).is_err() {
        bytes[..8].copy_from_slice(&now_ms.to_le_bytes());
    }
    let ulid = Ulid::from_parts(now_ms.max(0) as u64, u128::from_le_bytes(bytes));
    let prefix = kind.prefix();
    let mut id = String::with_capacity(prefix.len() + ulid::ULID_LEN);
    id.push_str(prefix);
    // Encoded straight into a buffer: `Ulid`'s `Display` goes through the
    // formatter's padding, a measurable share of a write call's guest time.
    id.push_str(ulid.array_to_str(&mut [0; ulid::ULID_LEN]));
    id
}

/// Checks that `id` is a well-formed id of `kind`, explaining a wrong kind.
pub fn check(kind: IdKind, id: &str) -> Result<(), String> {
    match IdKind::of(id) {
        Some(k) if k == kind => {
            let rest = &id[k.prefix().len()..];
            // Only the canonical form (uppercase, in range) is an id we handed out.
            if Ulid::from_string(rest)
                .is_ok_and(|u| u.array_to_str(&mut [0; ulid::ULID_LEN]) == rest)
            {
                Ok(())
            } else {
                Err(format!(
                    "{} is not a valid {} ({}<26-char ULID>)",
                    quote(id),
                    kind.noun(),
                    kind.prefix()
                ))
            }
        }
        Some(other) => Err(format!(
            "{} is a {}, but a {} ({}…) is expected here",
            quote(id),
            other.noun(),
            kind.noun(),
            kind.prefix()
        )),
        None => Err(format!(
            "{} is not a {} (expected {}<ULID>)",
            quote(id),
            kind.noun(),
            kind.prefix()
        )),
    }
}

/// Longest agent id accepted.
pub const MAX_AGENT_ID: usize = 200;

/// The agent id rule in words, for messages (checked by
/// [`is_agent_id`]).
pub const AGENT_ID_RULE: &str = "1 to 200 characters, no surrounding spaces, no control, bidirectional or zero-width characters, no space but the plain one";

/// Agent ids: 1–200 characters, not blank, no surrounding spaces (` me`
/// and `me` would be two agents), and nothing that would let one id pass
/// for another on screen: no control, bidirectional or zero-width
/// characters (any of Unicode's invisible ones), and no space but the
/// plain one (a no-break space looks like it).
pub fn is_agent_id(s: &str) -> bool {
    let n = s.chars().count();
    (1..=MAX_AGENT_ID).contains(&n)
        && s.trim() == s
        && !s
            .chars()
            .any(|c| c.is_control() || is_invisible(c) || (c.is_whitespace() && c != ' '))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefixed_and_unique() {
        let a = new_id(IdKind::Task, 1_700_000_000_000);
        let b = new_id(IdKind::Task, 1_700_000_000_000);
        assert!(a.starts_with("task_") && a.len() == 31);
        assert_ne!(a, b);
        assert!(check(IdKind::Task, &a).is_ok());
        // The ULID part is the canonical text of the ULID it encodes.
        let ulid = Ulid::from_string(&a["task_".len()..]).unwrap();
        assert_eq!(a, format!("task_{ulid}"));
        assert_eq!(ulid.timestamp_ms(), 1_700_000_000_000);
        // Only that canonical form is an id: the same ULID in lower case
        // parses, and is refused.
        let lower = format!("task_{}", ulid.to_string().to_lowercase());
        assert!(Ulid::from_string(&lower["task_".len()..]).is_ok());
        assert!(check(IdKind::Task, &lower).is_err());
    }

    #[test]
    fn wrong_kind_is_explained() {
        let l = new_id(IdKind::List, 1);
        let err = check(IdKind::Task, &l).unwrap_err();
        assert!(err.contains("is a list id"), "{err}");
        assert!(
            check(IdKind::Task, "task_nope")
                .unwrap_err()
                .contains("not a valid task id")
        );
        assert!(
            check(IdKind::List, "42")
                .unwrap_err()
                .contains("not a list id")
        );
    }
}
