//! The remote clients' tokens (WIT `tokens`): who may call `/mcp` and open
//! the board of `tasklists serve`, kept in the store by SHA-256 digest
//! only. The host makes each token and prints it once; this module checks
//! the holder's name (it becomes a pinned agent id), keeps the rows and
//! words every line a person reads about them.

use crate::bindings::{TokenHolder, TokenKind};
use crate::clock::{Clock, format_ms};
use crate::error::{ErrorCode, ToolError, ToolResult};
use crate::ids::{AGENT_ID_RULE, is_agent_id};
use crate::params;
use crate::schema;
use crate::store::{Store, Tx, Value};
use crate::text::{printable, quote};

/// Characters of a SHA-256 in lowercase hexadecimal.
const DIGEST_CHARS: usize = 64;

/// The kind as its column holds it.
fn kind_text(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Agent => "agent",
        TokenKind::Person => "person",
    }
}

/// A digest as the host must send it: 64 lowercase hex characters.
fn check_digest(digest: &str) -> ToolResult<()> {
    if digest.len() == DIGEST_CHARS
        && digest
            .bytes()
            .all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    {
        return Ok(());
    }
    Err(ToolError::invalid(
        "a token's digest must be its SHA-256 as 64 lowercase hex characters",
        "the host computes it from the token; this is a host bug",
    ))
}

/// A holder's name: a valid agent id, since its requests act as that agent.
fn check_name(name: &str) -> ToolResult<()> {
    if is_agent_id(name) {
        return Ok(());
    }
    Err(ToolError::invalid(
        format!("the token name {} is not a usable agent id", quote(name)),
        format!("a token's name is the agent id its requests act as: {AGENT_ID_RULE}"),
    ))
}

/// Runs `work` in one write transaction on a schema brought up to date.
fn write<T>(store: &dyn Store, work: impl FnOnce(&dyn Tx) -> ToolResult<T>) -> ToolResult<T> {
    schema::ensure(store)?;
    let tx = store.begin(true)?;
    let out = work(&*tx)?;
    tx.commit().map_err(ToolError::commit_failed)?;
    Ok(out)
}

/// Runs `read` in one read transaction on a schema brought up to date.
fn read<T>(store: &dyn Store, read: impl FnOnce(&dyn Tx) -> ToolResult<T>) -> ToolResult<T> {
    let mut tx = store.begin(false)?;
    if schema::read_version(&*tx)? != schema::LATEST {
        drop(tx);
        schema::ensure(store)?;
        tx = store.begin(false)?;
    }
    let out = read(&*tx)?;
    tx.commit()?;
    Ok(out)
}

/// Records a token for `name` by its digest; the line to show.
pub fn add(
    name: &str,
    kind: TokenKind,
    digest: &str,
    store: &dyn Store,
    clock: &dyn Clock,
) -> ToolResult<String> {
    check_name(name)?;
    check_digest(digest)?;
    write(store, |tx| {
        let taken = tx.query("SELECT 1 FROM tokens WHERE name = ?", params![name])?;
        if !taken.rows.is_empty() {
            return Err(ToolError::conflict(
                format!("{} already holds a token", quote(name)),
                format!(
                    "revoke it first (`tasklists token revoke {}`) or choose another name",
                    printable(name)
                ),
            ));
        }
        tx.execute(
            "INSERT INTO tokens (name, kind, digest, created_at) VALUES (?, ?, ?, ?)",
            params![name, kind_text(kind), digest, clock.now_ms()],
        )?;
        Ok(())
    })?;
    let (what, may) = match kind {
        TokenKind::Agent => (
            "an agent",
            "the five tools at /mcp, as this agent id and no other",
        ),
        TokenKind::Person => (
            "a person's",
            "the five tools at /mcp, the board and the person's actions",
        ),
    };
    Ok(format!(
        "Added {what} token for {}: {may}. It is shown once, below; only its SHA-256 is stored.",
        quote(name)
    ))
}

/// The lines of `tasklists token list`.
pub fn list(store: &dyn Store) -> ToolResult<Vec<String>> {
    let rows = read(store, |tx| {
        Ok(tx.query(
            "SELECT name, kind, created_at FROM tokens ORDER BY name",
            params![],
        )?)
    })?;
    if rows.rows.is_empty() {
        return Ok(vec![
            "No tokens: add one with `tasklists token add NAME` (`--person` for a person)."
                .to_string(),
        ]);
    }
    let holders: Vec<(String, String, i64)> = rows
        .rows
        .iter()
        .map(|row| {
            let text = |i: usize| row.get(i).and_then(Value::as_str).unwrap_or("").to_string();
            let at = row.get(2).and_then(Value::as_i64).unwrap_or(0);
            (printable(&text(0)), text(1), at)
        })
        .collect();
    let width = holders
        .iter()
        .map(|(name, _, _)| name.chars().count())
        .max()
        .unwrap_or(0);
    Ok(holders
        .into_iter()
        .map(|(name, kind, at)| {
            let pad = width - name.chars().count();
            format!(
                "{name}{}  {kind:<6}  since {}",
                " ".repeat(pad),
                format_ms(at)
            )
        })
        .collect())
}

/// Revokes `name`'s token; the line to show.
pub fn revoke(name: &str, store: &dyn Store) -> ToolResult<String> {
    let gone = write(store, |tx| {
        Ok(tx.execute("DELETE FROM tokens WHERE name = ?", params![name])?)
    })?;
    if gone == 0 {
        return Err(ToolError::new(
            ErrorCode::NotFound,
            format!("{} holds no token", quote(name)),
            "`tasklists token list` shows who holds one",
        ));
    }
    Ok(format!(
        "Revoked the token of {}: its next request is refused.",
        quote(name)
    ))
}

/// Whether anyone holds a token.
pub fn any(store: &dyn Store) -> ToolResult<bool> {
    let rows = read(store, |tx| {
        Ok(tx.query("SELECT 1 FROM tokens LIMIT 1", params![])?)
    })?;
    Ok(!rows.rows.is_empty())
}

/// The holder of the token of `digest`, if any.
pub fn resolve(digest: &str, store: &dyn Store) -> ToolResult<Option<TokenHolder>> {
    check_digest(digest)?;
    let rows = read(store, |tx| {
        Ok(tx.query(
            "SELECT name, kind FROM tokens WHERE digest = ?",
            params![digest],
        )?)
    })?;
    let Some(row) = rows.rows.first() else {
        return Ok(None);
    };
    let name = row
        .first()
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let kind = match row.get(1).and_then(Value::as_str) {
        Some("person") => TokenKind::Person,
        _ => TokenKind::Agent,
    };
    Ok(Some(TokenHolder { name, kind }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{TestClock, TestStore};

    const D1: &str = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    const D2: &str = "fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210";

    #[test]
    fn a_token_is_added_resolved_listed_and_revoked() {
        let store = TestStore::new();
        assert!(!any(&store).unwrap());
        let clock = TestClock::default();
        clock.0.set(1_764_936_000_000);
        assert_eq!(
            list(&store).unwrap(),
            vec!["No tokens: add one with `tasklists token add NAME` (`--person` for a person)."]
        );
        let line = add("ci-runner", TokenKind::Agent, D1, &store, &clock).unwrap();
        assert_eq!(
            line,
            "Added an agent token for \"ci-runner\": the five tools at /mcp, as this agent id and no other. It is shown once, below; only its SHA-256 is stored."
        );
        assert!(any(&store).unwrap());
        add("ann", TokenKind::Person, D2, &store, &clock).unwrap();
        let holder = resolve(D1, &store).unwrap().unwrap();
        assert_eq!(holder.name, "ci-runner");
        assert_eq!(holder.kind, TokenKind::Agent);
        assert_eq!(
            resolve(D2, &store).unwrap().unwrap().kind,
            TokenKind::Person
        );
        assert_eq!(
            list(&store).unwrap(),
            vec![
                "ann        person  since 2025-12-05T12:00:00.000Z",
                "ci-runner  agent   since 2025-12-05T12:00:00.000Z",
            ]
        );
        let err = add("ann", TokenKind::Agent, D1, &store, &clock).unwrap_err();
        assert_eq!(err.code, ErrorCode::Conflict);
        assert!(
            revoke("ci-runner", &store)
                .unwrap()
                .contains("next request is refused")
        );
        assert!(resolve(D1, &store).unwrap().is_none());
        assert_eq!(
            revoke("ci-runner", &store).unwrap_err().code,
            ErrorCode::NotFound
        );
    }

    #[test]
    fn bad_names_and_digests_are_refused_and_change_nothing() {
        let store = TestStore::new();
        let clock = TestClock::default();
        for name in ["", " ann", "a\u{202e}b", "a\nb"] {
            let err = add(name, TokenKind::Agent, D1, &store, &clock).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{name:?}");
        }
        for digest in ["", "ABCDEF", &D1[1..], &D1.to_uppercase()] {
            let err = add("ann", TokenKind::Agent, digest, &store, &clock).unwrap_err();
            assert_eq!(err.code, ErrorCode::InvalidParams, "{digest:?}");
            assert_eq!(
                resolve(digest, &store).unwrap_err().code,
                ErrorCode::InvalidParams
            );
        }
        assert_eq!(list(&store).unwrap().len(), 1);
        assert!(list(&store).unwrap()[0].starts_with("No tokens"));
    }
}
