//! PostgreSQL connection strings as libpq takes them: a `postgresql://`
//! URL or `key=value` words. Parsed here, without the driver, so that every
//! build (the component's too) tells a server location from a file path and
//! shows it without its password; the backend turns the parsed settings
//! into the driver's configuration.
//!
//! `sslmode` and `sslrootcert` are taken out here: the driver knows only
//! `disable`, `prefer` and `require`, while a store on a shared server
//! needs libpq's `verify-ca` and `verify-full` too (see `tls.rs`).

use std::fmt;

/// What a masked secret is shown as.
const MASK: &str = "********";

/// The libpq keywords: a text that starts with one of them followed by `=`
/// is a key/value connection string, not a file name.
const KEYWORDS: &[&str] = &[
    "host",
    "hostaddr",
    "port",
    "dbname",
    "user",
    "password",
    "passfile",
    "require_auth",
    "channel_binding",
    "connect_timeout",
    "client_encoding",
    "options",
    "application_name",
    "fallback_application_name",
    "keepalives",
    "keepalives_idle",
    "keepalives_interval",
    "keepalives_count",
    "tcp_user_timeout",
    "replication",
    "gssencmode",
    "sslmode",
    "sslnegotiation",
    "sslcompression",
    "sslcert",
    "sslkey",
    "sslpassword",
    "sslcertmode",
    "sslrootcert",
    "sslcrl",
    "sslcrldir",
    "sslsni",
    "requirepeer",
    "ssl_min_protocol_version",
    "ssl_max_protocol_version",
    "krbsrvname",
    "gsslib",
    "gssdelegation",
    "service",
    "target_session_attrs",
    "load_balance_hosts",
];

/// Settings whose value is a secret: never shown, and masked in any text
/// the backend passes on.
const SECRET_KEYS: &[&str] = &["password", "sslpassword"];

/// Keywords the driver takes beyond libpq's.
const DRIVER_KEYWORDS: &[&str] = &["keepalives_retries"];

/// Whether `key` is a keyword a connection string may use.
fn is_keyword(key: &str) -> bool {
    KEYWORDS.contains(&key) || DRIVER_KEYWORDS.contains(&key)
}

/// How a connection uses TLS, with libpq's names and meaning.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SslMode {
    /// No TLS.
    Disable,
    /// TLS if the server offers it, unverified. libpq's `allow` (plain
    /// first, TLS if the server insists) is served as this: the driver
    /// cannot try plain first, and TLS is never the weaker choice.
    Allow,
    /// TLS if the server offers it, unverified (libpq's default).
    #[default]
    Prefer,
    /// TLS or no connection; the certificate is checked only when a root
    /// certificate is given (`sslrootcert`), as with libpq.
    Require,
    /// TLS, the server's certificate chain checked against the roots, its
    /// host name not.
    VerifyCa,
    /// TLS, the chain and the host name checked.
    VerifyFull,
}

impl SslMode {
    /// The valid `sslmode` values, for error messages.
    pub const VALID: &'static str = "disable, allow, prefer, require, verify-ca, verify-full";

    fn parse(value: &str) -> Result<SslMode, ConnInfoError> {
        // Exact, as libpq: `Require` is no sslmode.
        Ok(match value {
            "disable" => SslMode::Disable,
            "allow" => SslMode::Allow,
            "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            other => return Err(ConnInfoError::UnknownSslMode(other.to_string())),
        })
    }

    /// libpq's name of the mode.
    pub fn name(self) -> &'static str {
        match self {
            SslMode::Disable => "disable",
            SslMode::Allow => "allow",
            SslMode::Prefer => "prefer",
            SslMode::Require => "require",
            SslMode::VerifyCa => "verify-ca",
            SslMode::VerifyFull => "verify-full",
        }
    }
}

/// Why a connection string cannot be used. Messages name keywords and
/// positions, never a value that could be a secret.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConnInfoError {
    /// `sslmode` has a value libpq does not know.
    #[error("unknown sslmode `{0}`: the valid values are {valid}", valid = SslMode::VALID)]
    UnknownSslMode(String),
    /// The text is not a well-formed URL or key/value string.
    #[error("malformed connection string: {0}")]
    Malformed(String),
    /// A URL's user name or password holds an `@` or `/` that is not
    /// percent-encoded, so where the credentials end is a guess (libpq
    /// would take a password's tail for the host). Nothing of them is
    /// quoted: any part could be the password.
    #[error(
        "the user name or password in the URL must be percent-encoded: an `@` (%40) or `/` (%2F) \
         in them makes the URL ambiguous"
    )]
    AmbiguousCredentials,
}

/// A connection string, parsed: what the backend connects with.
#[derive(Clone)]
pub(crate) struct ConnInfo {
    /// Every setting but the ones below, in order, each keyword once (a
    /// later value replaces an earlier one, as in libpq).
    pub(crate) settings: Vec<(String, String)>,
    /// The password, if the text has one.
    pub(crate) password: Option<String>,
    /// `sslmode` (libpq's default, `prefer`, when absent).
    pub(crate) ssl_mode: SslMode,
    /// `sslrootcert`: a PEM file of root certificates, or `system`.
    pub(crate) ssl_root_cert: Option<String>,
    /// An `sslmode` libpq does not know: the string is shown, but nothing
    /// connects with it.
    bad_ssl_mode: Option<String>,
}

impl ConnInfo {
    /// The value of a setting.
    pub(crate) fn get(&self, key: &str) -> Option<&str> {
        self.settings
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// Sets a setting, replacing an earlier value.
    fn set(&mut self, key: &str, value: String) {
        match key {
            "password" => self.password = Some(value),
            "sslmode" => match SslMode::parse(&value) {
                Ok(mode) => {
                    self.ssl_mode = mode;
                    self.bad_ssl_mode = None;
                }
                Err(_) => self.bad_ssl_mode = Some(value),
            },
            "sslrootcert" => self.ssl_root_cert = Some(value),
            _ => match self.settings.iter_mut().find(|(k, _)| k == key) {
                Some((_, v)) => *v = value,
                None => self.settings.push((key.to_string(), value)),
            },
        }
    }

    fn empty() -> ConnInfo {
        ConnInfo {
            settings: Vec::new(),
            password: None,
            ssl_mode: SslMode::default(),
            ssl_root_cert: None,
            bad_ssl_mode: None,
        }
    }
}

/// A PostgreSQL server store: the connection string as given (password
/// included, never shown) and what it says. `Display` and `Debug` show it
/// without the password: `postgresql://agent@db.example.com:5432/tasks`.
#[derive(Clone)]
pub struct PgLocation {
    spec: String,
    parsed: Result<ConnInfo, ConnInfoError>,
    shown: String,
    /// The password and other secrets as they may appear in text: decoded,
    /// and as written in the string (percent-encoded, say).
    secrets: Vec<String>,
}

impl PgLocation {
    /// Whether `text` is a PostgreSQL connection string: a `postgres://`
    /// or `postgresql://` URL, or key/value words starting with a libpq
    /// keyword (`host=…`, `dbname=…`). Anything else is a file path.
    pub fn recognizes(text: &str) -> bool {
        let text = text.trim_start();
        if url_rest(text).is_some() {
            return true;
        }
        let word_end = text
            .find(|c: char| c == '=' || c.is_whitespace())
            .unwrap_or(text.len());
        let (word, after) = text.split_at(word_end);
        KEYWORDS.contains(&word) && after.trim_start().starts_with('=')
    }

    /// Parses a connection string. Never fails: a string that cannot be
    /// used is still a PostgreSQL location, and connecting to it reports
    /// why (a host reading its configuration does not fail on it).
    pub fn parse(text: &str) -> PgLocation {
        let spec = text.trim().to_string();
        let mut secrets = Vec::new();
        let parsed = match url_rest(&spec) {
            Some(rest) => parse_url(rest, &mut secrets),
            None => parse_key_values(&spec, &mut secrets),
        };
        if let Ok(info) = &parsed {
            secrets.extend(info.password.iter().cloned());
            secrets.extend(info.get("sslpassword").map(str::to_string));
        }
        secrets.retain(|s| !s.is_empty());
        // Longest first, so a secret that contains another is masked whole.
        secrets.sort_by_key(|s| std::cmp::Reverse(s.len()));
        secrets.dedup();
        let shown = match &parsed {
            Ok(info) => show(info),
            Err(_) => "<a malformed PostgreSQL connection string>".to_string(),
        };
        // Shown as it is, but unusable.
        let parsed = parsed.and_then(|info| match &info.bad_ssl_mode {
            Some(mode) => Err(ConnInfoError::UnknownSslMode(mode.clone())),
            None => Ok(info),
        });
        PgLocation {
            spec,
            parsed,
            shown,
            secrets,
        }
    }

    /// The connection string as given, password included: for handing the
    /// store to a child process. Never print it; `Display` is for that.
    pub fn connection_string(&self) -> &str {
        &self.spec
    }

    /// The database name, if the string names one.
    pub fn dbname(&self) -> Option<&str> {
        self.parsed.as_ref().ok()?.get("dbname")
    }

    /// How the connection uses TLS (`prefer` when the string cannot be
    /// parsed: nothing connects to it then).
    pub fn ssl_mode(&self) -> SslMode {
        self.parsed
            .as_ref()
            .map_or(SslMode::default(), |info| info.ssl_mode)
    }

    /// Why the string cannot be used as written, if it cannot: for a
    /// host that reports it before anything connects (`db-path`). The
    /// error quotes no part of a secret.
    pub fn problem(&self) -> Option<&ConnInfoError> {
        self.parsed.as_ref().err()
    }

    /// What the string says, or why it cannot be used.
    pub(crate) fn info(&self) -> Result<&ConnInfo, &ConnInfoError> {
        self.parsed.as_ref()
    }

    /// `text` with every secret of this location masked: every message the
    /// backend passes on goes through this, whatever produced it.
    pub fn scrub(&self, text: &str) -> String {
        let mut text = text.to_string();
        for secret in &self.secrets {
            if text.contains(secret.as_str()) {
                text = text.replace(secret.as_str(), MASK);
            }
        }
        text
    }
}

impl fmt::Display for PgLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// By hand: the derived one would print the password.
impl fmt::Debug for PgLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("PgLocation").field(&self.shown).finish()
    }
}

/// Two locations are the same store when their strings are the same.
impl PartialEq for PgLocation {
    fn eq(&self, other: &Self) -> bool {
        self.spec == other.spec
    }
}

impl Eq for PgLocation {}

/// What follows the scheme of a `postgres://` / `postgresql://` URL.
fn url_rest(text: &str) -> Option<&str> {
    ["postgresql://", "postgres://"].iter().find_map(|scheme| {
        text.get(..scheme.len())
            .filter(|head| head.eq_ignore_ascii_case(scheme))
            .map(|_| &text[scheme.len()..])
    })
}

/// `[user[:password]@][host[:port][,…]][/dbname][?key=value&…]`, with
/// libpq's rules: the credentials end at the first `@` before any `/`,
/// every part is percent-decoded, query parameters override the rest.
fn parse_url(rest: &str, secrets: &mut Vec<String>) -> Result<ConnInfo, ConnInfoError> {
    let mut info = ConnInfo::empty();
    let mut rest = rest;
    let creds_end = rest.find(['@', '/']);
    if let Some(at) = creds_end.filter(|&i| rest.as_bytes()[i] == b'@') {
        let creds = &rest[..at];
        rest = &rest[at + 1..];
        let (user, password) = match creds.split_once(':') {
            Some((user, password)) => (user, Some(password)),
            None => (creds, None),
        };
        if let Some(raw) = password {
            // As written, so a message that quotes the string is masked too.
            secrets.push(raw.to_string());
            info.set("password", decode(raw, "the password")?);
        }
        if !user.is_empty() {
            info.set("user", decode(user, "the user name")?);
        }
    }
    // No host, port or database name holds an `@`: one here is part of
    // the credentials (`user:Tr0ub@dor@host`), and the rest of them would
    // be taken for the host.
    if rest.split('?').next().unwrap_or("").contains('@') {
        return Err(ConnInfoError::AmbiguousCredentials);
    }
    let host_end = rest.find(['/', '?']).unwrap_or(rest.len());
    let (hostspec, after) = rest.split_at(host_end);
    if !hostspec.is_empty() {
        let (hosts, ports) = parse_hosts(hostspec)?;
        info.set("host", hosts.join(","));
        if ports.iter().any(|p| !p.is_empty()) {
            info.set("port", ports.join(","));
        }
    }
    let (path, query) = match after.split_once('?') {
        Some((path, query)) => (path, Some(query)),
        None => (after, None),
    };
    if let Some(dbname) = path.strip_prefix('/').filter(|d| !d.is_empty()) {
        info.set("dbname", decode(dbname, "the database name")?);
    }
    // The parameter before, when it is a secret: the next one may be the
    // tail of its value (an unencoded `&`), so it is never quoted.
    let mut after_secret: Option<String> = None;
    for pair in query.into_iter().flat_map(|q| q.split('&')) {
        if pair.is_empty() {
            continue;
        }
        let stray = |what: &str, secret: &str| {
            ConnInfoError::Malformed(format!(
                "a URL parameter after `{secret}` {what} (an `&` in a value must be \
                 percent-encoded: %26)"
            ))
        };
        let Some((key, raw)) = pair.split_once('=') else {
            return Err(match &after_secret {
                Some(secret) => stray("has no `=value`", secret),
                None => ConnInfoError::Malformed(format!(
                    "the URL parameter `{}` has no `=value`",
                    decode(pair, "a URL parameter").unwrap_or_default()
                )),
            });
        };
        let key = decode(key, "a URL parameter name")?;
        if let Some(secret) = &after_secret
            && !is_keyword(&key)
        {
            return Err(stray("is not a connection keyword", secret));
        }
        let secret = SECRET_KEYS.contains(&key.as_str());
        if secret {
            // As written, so a message that quotes the string is masked too.
            secrets.push(raw.to_string());
        }
        let value = decode(raw, &format!("the URL parameter `{key}`"))?;
        after_secret = secret.then(|| key.clone());
        info.set(&key, value);
    }
    Ok(info)
}

/// `host[:port],[v6]:port,…` into hosts and ports (empty when absent).
fn parse_hosts(spec: &str) -> Result<(Vec<String>, Vec<String>), ConnInfoError> {
    let mut hosts = Vec::new();
    let mut ports = Vec::new();
    for part in spec.split(',') {
        let (host, port) = if let Some(v6) = part.strip_prefix('[') {
            let (host, after) = v6.split_once(']').ok_or_else(|| {
                ConnInfoError::Malformed("an IPv6 address is missing its closing `]`".into())
            })?;
            let port = match after {
                "" => "",
                _ => after.strip_prefix(':').ok_or_else(|| {
                    ConnInfoError::Malformed("unexpected text after an IPv6 address".into())
                })?,
            };
            (host.to_string(), port)
        } else {
            let (host, port) = part.split_once(':').unwrap_or((part, ""));
            (decode(host, "a host name")?, port)
        };
        if !port.bytes().all(|b| b.is_ascii_digit()) {
            // Also what a password with an unencoded `/` looks like: say
            // nothing of the text itself.
            return Err(ConnInfoError::Malformed(
                "a port is not a number (a `/` or `:` in the password must be percent-encoded)"
                    .into(),
            ));
        }
        hosts.push(host);
        ports.push(port.to_string());
    }
    Ok((hosts, ports))
}

/// Percent-decodes a URL part, which must then be UTF-8.
fn decode(text: &str, what: &str) -> Result<String, ConnInfoError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes
                .get(i + 1..i + 3)
                .and_then(|h| std::str::from_utf8(h).ok())
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or_else(|| {
                    ConnInfoError::Malformed(format!("bad percent-encoding in {what}"))
                })?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out)
        .map_err(|_| ConnInfoError::Malformed(format!("{what} is not UTF-8 once decoded")))
}

/// libpq's key/value form: `key = value` words, a value bare (a `\`
/// escapes the next character) or in single quotes (`\'` and `\\`).
///
/// A word that does not parse is named only when it cannot be part of a
/// secret: after a `password=` value, a stray word is most likely that
/// password's tail (`password=correct horse`), so the error names the key
/// it follows instead.
fn parse_key_values(text: &str, secrets: &mut Vec<String>) -> Result<ConnInfo, ConnInfoError> {
    let mut info = ConnInfo::empty();
    let mut chars = text.chars().peekable();
    // The key before, when it is a secret.
    let mut after_secret: Option<String> = None;
    loop {
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        if chars.peek().is_none() {
            return Ok(info);
        }
        let mut key = String::new();
        while let Some(c) = chars.next_if(|&c| c != '=' && !c.is_whitespace()) {
            key.push(c);
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let has_value = chars.next() == Some('=');
        if let Some(secret) = &after_secret
            && !(has_value && is_keyword(&key))
        {
            return Err(ConnInfoError::Malformed(format!(
                "the value of `{secret}` is followed by a word that is not `keyword=value`: \
                 put a value that has spaces in single quotes ({secret}='…')"
            )));
        }
        if !has_value {
            return Err(ConnInfoError::Malformed(format!(
                "`{key}` is not followed by `=`"
            )));
        }
        while chars.next_if(|c| c.is_whitespace()).is_some() {}
        let mut value = String::new();
        if chars.next_if_eq(&'\'').is_some() {
            loop {
                match chars.next() {
                    Some('\'') => break,
                    Some('\\') => value.extend(chars.next()),
                    Some(c) => value.push(c),
                    None => {
                        return Err(ConnInfoError::Malformed(format!(
                            "the value of `{key}` has no closing quote"
                        )));
                    }
                }
            }
        } else {
            while let Some(c) = chars.next_if(|c| !c.is_whitespace()) {
                if c == '\\' {
                    value.extend(chars.next());
                } else {
                    value.push(c);
                }
            }
        }
        let secret = SECRET_KEYS.contains(&key.as_str());
        if secret {
            secrets.push(value.clone());
        }
        after_secret = secret.then(|| key.clone());
        info.set(&key, value);
    }
}

/// The location as a URL without secrets or parameters:
/// `postgresql://user@host:port,host2/dbname`.
fn show(info: &ConnInfo) -> String {
    let mut out = String::from("postgresql://");
    if let Some(user) = info.get("user") {
        out.push_str(&encode(user));
        out.push('@');
    }
    let hosts = info
        .get("host")
        .or_else(|| info.get("hostaddr"))
        .unwrap_or("");
    let ports: Vec<&str> = info
        .get("port")
        .map_or(Vec::new(), |p| p.split(',').collect());
    if !hosts.is_empty() {
        for (i, host) in hosts.split(',').enumerate() {
            if i > 0 {
                out.push(',');
            }
            if host.contains(':') && !host.starts_with('/') {
                out.push_str(&format!("[{host}]"));
            } else {
                out.push_str(&encode(host));
            }
            // One port for all hosts, or one each.
            let port = ports.get(i).or(ports.first().filter(|_| ports.len() == 1));
            if let Some(port) = port.filter(|p| !p.is_empty()) {
                out.push(':');
                out.push_str(port);
            }
        }
    }
    if let Some(dbname) = info.get("dbname") {
        out.push('/');
        out.push_str(&encode(dbname));
    }
    out
}

/// Percent-encodes what would change the meaning of a URL part.
fn encode(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' | '@' | '/' | ':' | '?' | '&' | '=' | ',' | '[' | ']' | '#' => {
                out.push_str(&format!("%{:02X}", c as u32));
            }
            c if c.is_whitespace() || c.is_control() => {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(text: &str) -> ConnInfo {
        PgLocation::parse(text).info().unwrap().clone()
    }

    #[test]
    fn urls_are_parsed_like_libpq() {
        let i = info(
            "postgresql://agent:se%2Fcret@db.example.com:5433/tasks?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=x",
        );
        assert_eq!(i.get("user"), Some("agent"));
        assert_eq!(i.password.as_deref(), Some("se/cret"));
        assert_eq!(i.get("host"), Some("db.example.com"));
        assert_eq!(i.get("port"), Some("5433"));
        assert_eq!(i.get("dbname"), Some("tasks"));
        assert_eq!(i.get("application_name"), Some("x"));
        assert_eq!(i.ssl_mode, SslMode::VerifyFull);
        assert_eq!(i.ssl_root_cert.as_deref(), Some("/etc/ca.pem"));
        assert_eq!(i.get("sslmode"), None, "taken out for the TLS setup");

        let i = info("postgres://[::1]:5432,other/db");
        assert_eq!(i.get("host"), Some("::1,other"));
        assert_eq!(i.get("port"), Some("5432,"));
        let i = info("postgresql://u@%2Ftmp%2Fpgdev/db?port=54329");
        assert_eq!(i.get("host"), Some("/tmp/pgdev"));
        assert_eq!(i.get("port"), Some("54329"));
        // A password may hold `?` unencoded: the credentials end at `@`.
        assert_eq!(
            info("postgresql://u:p?w@h/db").password.as_deref(),
            Some("p?w")
        );
        // Query parameters override the rest.
        assert_eq!(info("postgresql://a@h/db?user=b").get("user"), Some("b"));
    }

    #[test]
    fn key_values_are_parsed_like_libpq() {
        let i =
            info(r"host=h port = 5432 dbname='my db' user=agent password='it\'s' options=-c\ x=1");
        assert_eq!(i.get("host"), Some("h"));
        assert_eq!(i.get("port"), Some("5432"));
        assert_eq!(i.get("dbname"), Some("my db"));
        assert_eq!(i.password.as_deref(), Some("it's"));
        assert_eq!(i.get("options"), Some("-c x=1"));
        assert_eq!(i.ssl_mode, SslMode::Prefer);
    }

    #[test]
    fn bad_strings_are_typed_errors_that_quote_no_secret() {
        let err = |text: &str| PgLocation::parse(text).info().err().cloned().unwrap();
        assert_eq!(
            err("host=h sslmode=verify"),
            ConnInfoError::UnknownSslMode("verify".into())
        );
        assert!(
            err("host=h sslmode=bogus")
                .to_string()
                .contains("verify-full")
        );
        // Still shown as what it is.
        let location = PgLocation::parse("postgresql://u:pw@h/db?sslmode=Require");
        assert_eq!(location.to_string(), "postgresql://u@h/db");
        assert!(location.info().is_err());
        for text in [
            "host=h password='hunter22",
            "postgresql://h/db?password",
            "postgresql://u:hunter22@h/d%zzb",
        ] {
            let location = PgLocation::parse(text);
            let e = location.info().err().cloned().unwrap();
            assert!(matches!(e, ConnInfoError::Malformed(_)), "{text}: {e}");
            assert!(!e.to_string().contains("hunter22"), "{e}");
            assert!(!location.to_string().contains("hunter22"), "{location}");
        }
    }

    #[test]
    fn an_unencoded_at_in_the_credentials_is_an_error_that_quotes_none_of_them() {
        for text in [
            "postgresql://agent:Tr0ub@dor@host/db",
            "postgresql://agent:Tr0ub@dor@host",
            "postgresql://agent:Tr0ub@dor@host:5432/db?sslmode=disable",
            "postgresql://agent:Tr0ub@host/d@or",
            "postgres://me@Tr0ub.dor@host/db",
            // A `/` in the password: the URL has no credentials then, and
            // its `@` is further on.
            "postgresql://u:Tr0ub/dor@h/db",
        ] {
            let location = PgLocation::parse(text);
            assert_eq!(
                location.problem(),
                Some(&ConnInfoError::AmbiguousCredentials),
                "{text}"
            );
            let shown = format!("{location} {location:?} {}", location.problem().unwrap());
            assert!(shown.contains("percent-encoded"), "{shown}");
            for part in ["Tr0ub", "dor"] {
                assert!(!shown.contains(part), "{text}: {shown}");
            }
        }
        // Encoded, it is what it says; an `@` after the `?` is a value's.
        let location =
            PgLocation::parse("postgresql://agent:Tr0ub%40dor@host/db?application_name=a@b");
        assert_eq!(location.problem(), None);
        assert_eq!(
            location.info().unwrap().password.as_deref(),
            Some("Tr0ub@dor")
        );
        assert_eq!(location.to_string(), "postgresql://agent@host/db");
    }

    #[test]
    fn a_stray_word_after_a_password_is_never_quoted() {
        for (text, part) in [
            ("host=h user=u password=correct horse", "horse"),
            ("host=h password=correct horse dbname=x", "horse"),
            ("host=h password=correct horse=battery", "horse"),
            ("host=h sslpassword='it's' secret", "secret"),
            ("postgresql://u@h/db?password=Tr0ub&dor", "dor"),
            ("postgresql://u@h/db?password=Tr0ub&dor=x", "dor"),
        ] {
            let location = PgLocation::parse(text);
            let e = location.problem().cloned().unwrap();
            let shown = format!("{location} {location:?} {e}");
            assert!(!shown.contains(part), "{text}: {shown}");
            assert!(
                !shown.contains("correct") && !shown.contains("Tr0ub"),
                "{shown}"
            );
            assert!(shown.contains("password`"), "names the key: {shown}");
        }
        // Elsewhere a bad word is named: it holds no secret.
        let e = PgLocation::parse("host=h dbnmae x")
            .problem()
            .cloned()
            .unwrap();
        assert!(e.to_string().contains("`dbnmae`"), "{e}");
        // A keyword after a password is just the next setting.
        let i = info("password=correct host=h keepalives_retries=3");
        assert_eq!(i.password.as_deref(), Some("correct"));
        assert_eq!(i.get("host"), Some("h"));
    }

    #[test]
    fn recognizes_urls_and_keyword_strings_only() {
        for yes in [
            "postgres://h/db",
            "POSTGRESQL://h/db",
            "host=db.example.com port=5432",
            "  dbname = tasks",
            "sslmode=disable host=h",
        ] {
            assert!(PgLocation::recognizes(yes), "{yes}");
        }
        for no in [
            "tasks.db",
            "/var/lib/tasks.db",
            "hosts=x",
            "my host=x",
            "postgres:/x",
            "./host=x",
            "",
        ] {
            assert!(!PgLocation::recognizes(no), "{no}");
        }
    }

    #[test]
    fn scrub_masks_the_password_as_decoded_and_as_written() {
        let location = PgLocation::parse("postgresql://u:p%40ss%2Fword@h/db");
        assert_eq!(
            location.scrub("x p@ss/word y p%40ss%2Fword z"),
            "x ******** y ******** z"
        );
        let location = PgLocation::parse("host=h sslpassword=keypass password=pw12");
        assert_eq!(location.scrub("keypass pw12"), "******** ********");
    }
}
