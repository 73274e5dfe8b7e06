//! Who may open the board: the tokens a server holds itself (the printed
//! one, a token file) and the identity each one carries (a token the store
//! holds is resolved by the component: `Identity::holder`). A token is compared by its SHA-256 digest in constant
//! time, against every known token whatever matched first, so neither the
//! answer's timing nor an early exit tells how much of a guess was right.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use subtle::ConstantTimeEq;
use tasklists_host::{CallContext, TokenHolder, TokenKind};

/// The shortest token a token file may hold: 128 bits of hexadecimal.
pub const MIN_TOKEN_CHARS: usize = 32;
/// The random bytes of a generated token (256 bits, 64 hex characters).
const TOKEN_BYTES: usize = 32;

/// The identity a request with a token acts as.
#[derive(Clone, Debug)]
pub struct Identity {
    /// The name the server logs for it (the person, or `you` for the
    /// printed token of a server whose person is unnamed).
    pub name: String,
    /// The context its requests run in: the person, and the agent id that
    /// decides which private lists it sees.
    pub ctx: CallContext,
    /// Whether it may open the board and take a person's actions (a
    /// person's token); an agent's token may only call the tools.
    pub board: bool,
}

impl Identity {
    /// The identity of a token the store holds: its holder's name as the
    /// agent id, pinned, and for a person's token the person too; `base`
    /// is the context the server was started with (its workspace).
    pub fn holder(holder: &TokenHolder, base: &CallContext) -> Identity {
        let person = holder.kind == TokenKind::Person;
        Identity {
            name: holder.name.clone(),
            ctx: CallContext {
                agent_id: Some(holder.name.clone()),
                agent_pinned: true,
                workspace: base.workspace.clone(),
                thread: None,
                person: person.then(|| holder.name.clone()),
            },
            board: person,
        }
    }
}

/// The tokens a server accepts.
pub struct Tokens {
    /// Each token's digest and identity.
    known: Vec<([u8; 32], Identity)>,
}

/// Why a token file cannot be used; the server does not start.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    /// The file cannot be read.
    #[error("cannot read the token file {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// Other users may read the file: anyone on the machine could take a token.
    #[error(
        "the token file {path} can be read by other users (mode {mode:o}): run `chmod 600 {path}`"
    )]
    Exposed {
        /// The file.
        path: PathBuf,
        /// Its permission bits.
        mode: u32,
    },
    /// A line is not `NAME TOKEN`, or its name or token is unusable.
    #[error("{path}:{line}: {reason}")]
    Line {
        /// The file.
        path: PathBuf,
        /// The line number (from 1).
        line: usize,
        /// What is wrong with it.
        reason: String,
    },
    /// No token at all: nobody could open the board.
    #[error("the token file {path} holds no token: add lines `NAME TOKEN`")]
    Empty {
        /// The file.
        path: PathBuf,
    },
    /// The system's random source failed.
    #[error("cannot make a random token: {0}")]
    Random(String),
}

impl Tokens {
    /// One fresh random token for `identity`, returned with the set (the
    /// server prints it once, in the URL to open).
    pub fn generate(identity: Identity) -> Result<(Tokens, String), TokenError> {
        let token = new_token()?;
        let tokens = Tokens {
            known: vec![(digest(&token), identity)],
        };
        Ok((tokens, token))
    }

    /// The tokens of a file of `NAME TOKEN` lines (blank lines and lines
    /// starting with `#` are skipped). Each token's holder acts as the
    /// person NAME and sees what the agent NAME sees (its own private
    /// lists, pinned: never another's). `base` is the context the server
    /// was started with (its workspace).
    pub fn from_file(path: &Path, base: &CallContext) -> Result<Tokens, TokenError> {
        let read_error = |source| TokenError::Read {
            path: path.to_path_buf(),
            source,
        };
        check_private(path)?;
        let text = std::fs::read_to_string(path).map_err(read_error)?;
        let mut known: Vec<([u8; 32], Identity)> = Vec::new();
        for (index, raw) in text.lines().enumerate() {
            let line_error = |reason: String| TokenError::Line {
                path: path.to_path_buf(),
                line: index + 1,
                reason,
            };
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let mut words = line.split_whitespace();
            let (Some(name), Some(token), None) = (words.next(), words.next(), words.next()) else {
                return Err(line_error("expected `NAME TOKEN`".into()));
            };
            if !usable_name(name) {
                return Err(line_error(format!(
                    "the name {name:?} is not usable: letters, digits, `.`, `_`, `-` and `@`, at most 64"
                )));
            }
            if token.len() < MIN_TOKEN_CHARS || !token.chars().all(|c| c.is_ascii_graphic()) {
                return Err(line_error(format!(
                    "the token of {name} is too weak: at least {MIN_TOKEN_CHARS} printable characters (e.g. `openssl rand -hex 32`)"
                )));
            }
            let sum = digest(token);
            if known.iter().any(|(other, _)| *other == sum) {
                return Err(line_error("this token is already given to someone".into()));
            }
            let ctx = CallContext {
                agent_id: Some(name.to_string()),
                agent_pinned: true,
                workspace: base.workspace.clone(),
                thread: None,
                person: Some(name.to_string()),
            };
            let identity = Identity {
                name: name.to_string(),
                ctx,
                board: true,
            };
            known.push((sum, identity));
        }
        if known.is_empty() {
            return Err(TokenError::Empty {
                path: path.to_path_buf(),
            });
        }
        Ok(Tokens { known })
    }

    /// The identity of `token`, if it is one of the server's.
    pub fn identify(&self, token: &str) -> Option<&Identity> {
        let sum = digest(token);
        let mut found = None;
        for (known, identity) in &self.known {
            // Every entry is compared; which one matched is chosen without
            // a branch on the comparison's bytes.
            if bool::from(known.ct_eq(&sum)) {
                found = Some(identity);
            }
        }
        found
    }
}

/// A fresh random token: 256 bits from the system's random source, as 64
/// hex characters.
pub fn new_token() -> Result<String, TokenError> {
    let mut bytes = [0u8; TOKEN_BYTES];
    getrandom::fill(&mut bytes).map_err(|e| TokenError::Random(e.to_string()))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The SHA-256 of a token as the component keeps it: 64 lowercase hex
/// characters.
pub fn digest_hex(token: &str) -> String {
    digest(token).iter().map(|b| format!("{b:02x}")).collect()
}

/// The SHA-256 of a token.
fn digest(token: &str) -> [u8; 32] {
    Sha256::digest(token.as_bytes()).into()
}

/// A name a person can be known by in the audit log.
fn usable_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-' | '@'))
}

/// Refuses a token file that others on the machine may read.
fn check_private(path: &Path) -> Result<(), TokenError> {
    match others_may_read(path) {
        Ok(None) => Ok(()),
        Ok(Some(mode)) => Err(TokenError::Exposed {
            path: path.to_path_buf(),
            mode,
        }),
        Err(source) => Err(TokenError::Read {
            path: path.to_path_buf(),
            source,
        }),
    }
}

/// The permission bits of a file that users other than its owner may
/// read or write (a secret anyone on the machine could take), or `None`.
#[cfg(unix)]
pub(super) fn others_may_read(path: &Path) -> std::io::Result<Option<u32>> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)?.permissions().mode() & 0o777;
    Ok((mode & 0o077 != 0).then_some(mode))
}

/// Other systems have no mode bits to check.
#[cfg(not(unix))]
pub(super) fn others_may_read(_path: &Path) -> std::io::Result<Option<u32>> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(text: &str, mode: u32) -> tempfile::NamedTempFile {
        use std::io::Write;
        use std::os::unix::fs::PermissionsExt;
        let mut file = tempfile::NamedTempFile::new().unwrap();
        file.write_all(text.as_bytes()).unwrap();
        std::fs::set_permissions(file.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        file
    }

    const T1: &str = "0123456789abcdef0123456789abcdef";
    const T2: &str = "fedcba9876543210fedcba9876543210";

    #[test]
    fn a_generated_token_is_known_and_a_guess_is_not() {
        let identity = Identity {
            name: "ann".into(),
            ctx: CallContext::default(),
            board: true,
        };
        let (tokens, token) = Tokens::generate(identity).unwrap();
        assert_eq!(token.len(), 64);
        assert_eq!(tokens.identify(&token).unwrap().name, "ann");
        assert!(tokens.identify(&token[..63]).is_none());
        assert!(tokens.identify("").is_none());
        let (_, other) = Tokens::generate(tokens.known[0].1.clone()).unwrap();
        assert_ne!(token, other, "two tokens are never the same");
    }

    #[test]
    fn a_token_file_names_people_pinned_to_their_own_identity() {
        let file = write(&format!("# the team\nann {T1}\n\n  bob   {T2}  \n"), 0o600);
        let tokens = Tokens::from_file(file.path(), &CallContext::default()).unwrap();
        let bob = tokens.identify(T2).unwrap();
        assert_eq!(bob.ctx.person.as_deref(), Some("bob"));
        assert_eq!(bob.ctx.agent_id.as_deref(), Some("bob"));
        assert!(bob.ctx.agent_pinned);
        assert_eq!(tokens.identify(T1).unwrap().name, "ann");
    }

    #[test]
    fn a_bad_token_file_is_refused_with_its_line() {
        let cases = [
            (
                format!("ann {T1}\nbob\n"),
                0o600,
                ":2: expected `NAME TOKEN`",
            ),
            ("ann short\n".to_string(), 0o600, "too weak"),
            (format!("a\u{1b}[2J {T1}\n"), 0o600, "not usable"),
            (format!("ann {T1}\nbob {T1}\n"), 0o600, "already given"),
            ("# nobody\n".to_string(), 0o600, "holds no token"),
            (format!("ann {T1}\n"), 0o644, "chmod 600"),
        ];
        for (text, mode, expected) in cases {
            let file = write(&text, mode);
            let err = Tokens::from_file(file.path(), &CallContext::default())
                .err()
                .unwrap_or_else(|| panic!("{text:?} was accepted"));
            assert!(err.to_string().contains(expected), "{text:?}: {err}");
        }
    }
}
