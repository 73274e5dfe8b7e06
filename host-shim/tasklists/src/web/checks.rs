//! Where a request comes from: the names the server answers for (against
//! DNS rebinding: a page of another site whose name was pointed at
//! 127.0.0.1 sends its own name as `Host`), and whether a state change was
//! sent by the board's own page (its `Origin`).

use std::net::SocketAddr;

/// The `Host` values the server answers for, lowercased.
#[derive(Clone, Debug)]
pub struct AllowedHosts {
    names: Vec<String>,
}

impl AllowedHosts {
    /// The names of a server bound to `bound`: on loopback, `localhost`,
    /// `127.0.0.1` and `[::1]` with its port; elsewhere its own address
    /// (unless it is a wildcard, which names no one); and each `extra`
    /// name, with the port added when it has none.
    pub fn new(bound: SocketAddr, extra: &[String]) -> AllowedHosts {
        let port = bound.port();
        let mut names = Vec::new();
        if bound.ip().is_loopback() {
            names.extend([
                format!("localhost:{port}"),
                format!("127.0.0.1:{port}"),
                format!("[::1]:{port}"),
            ]);
        }
        if !bound.ip().is_unspecified() {
            names.push(bound.to_string());
        }
        for name in extra {
            let name = name.to_ascii_lowercase();
            if has_port(&name) {
                names.push(name);
            } else {
                names.push(format!("{name}:{port}"));
                // Behind a reverse proxy the browser's Host has no port.
                names.push(name);
            }
        }
        names.dedup();
        AllowedHosts { names }
    }

    /// Whether a request's `Host` header is one of ours.
    pub fn allows(&self, host: &str) -> bool {
        let host = host.trim().to_ascii_lowercase();
        self.names.contains(&host)
    }

    /// Whether the server answers for no name but the explicit ones (a
    /// wildcard address with no `--allow-host`): nobody could open it.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }
}

/// Whether `name` (`host:port`, `[v6]:port`, `host`) ends in a port.
fn has_port(name: &str) -> bool {
    match name.rsplit_once(':') {
        Some((head, port)) => {
            !port.is_empty()
                && port.chars().all(|c| c.is_ascii_digit())
                && (!head.contains(':') || head.ends_with(']'))
        }
        None => false,
    }
}

/// Whether a state change's `Origin` is the board's own page: the scheme
/// the browser used and the `Host` the request was sent to (already
/// checked to be ours). No `Origin` at all is refused: every browser sends
/// one with a POST, so its absence means the request did not come from a
/// page of ours.
pub fn same_origin(origin: Option<&str>, host: &str) -> bool {
    let Some(origin) = origin else {
        return false;
    };
    let origin = origin.trim().to_ascii_lowercase();
    let host = host.trim().to_ascii_lowercase();
    ["http://", "https://"]
        .iter()
        .any(|scheme| origin.strip_prefix(scheme) == Some(host.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loopback_server_answers_for_its_loopback_names_only() {
        let hosts = AllowedHosts::new("127.0.0.1:8080".parse().unwrap(), &[]);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(hosts.allows(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "localhost:8081",
            "localhost",
            "127.0.0.1",
            "",
        ] {
            assert!(!hosts.allows(bad), "{bad}");
        }
    }

    #[test]
    fn extra_names_get_the_port_and_a_wildcard_names_nobody() {
        let none = AllowedHosts::new("0.0.0.0:80".parse().unwrap(), &[]);
        assert!(none.is_empty());
        let named = AllowedHosts::new(
            "0.0.0.0:9000".parse().unwrap(),
            &["Board.Example".into(), "10.0.0.5:9000".into()],
        );
        assert!(named.allows("board.example:9000"));
        assert!(named.allows("board.example"));
        assert!(named.allows("10.0.0.5:9000"));
        assert!(!named.allows("0.0.0.0:9000"));
        let v6 = AllowedHosts::new("[::1]:7000".parse().unwrap(), &["[fe80::1]".into()]);
        assert!(v6.allows("[fe80::1]:7000"));
    }

    #[test]
    fn only_the_boards_own_origin_may_change_state() {
        assert!(same_origin(Some("http://127.0.0.1:8080"), "127.0.0.1:8080"));
        assert!(same_origin(Some("https://board.example"), "board.example"));
        assert!(!same_origin(Some("http://evil.example"), "127.0.0.1:8080"));
        assert!(!same_origin(Some("null"), "127.0.0.1:8080"));
        assert!(!same_origin(
            Some("http://127.0.0.1:8080.evil"),
            "127.0.0.1:8080"
        ));
        assert!(!same_origin(None, "127.0.0.1:8080"));
    }
}
