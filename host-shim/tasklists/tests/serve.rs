//! `tasklists serve` as a browser (or an attacker) reaches it: the binary
//! on a test database, spoken to over plain HTTP on loopback. The pages'
//! contents are the component's (tested in the guest and in the browser
//! tests under `tests/web`); these tests hold the transport to its
//! promises: nothing without a token, no foreign `Host`, no state change
//! from another origin, no exposed listener without named tokens, live
//! events on every commit of another process, and a clean stop.

use crate::plan;

use plan::{call, get, list, tasklists};
use serde_json::json;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::Path;
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

/// A running server, killed when dropped (a failing test included).
struct Server {
    child: Child,
    port: u16,
    token: Option<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `tasklists serve` on `db` with `args` (as the person `ann`) and
/// reads the URL it prints.
fn serve(db: &Path, args: &[&str]) -> Server {
    let mut child = tasklists(db)
        .env("TASKLISTS_PERSON", "ann")
        .arg("serve")
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary runs");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .expect("serve prints its URL");
    let url = line
        .strip_prefix("tasklists board: http://")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or_else(|| panic!("the first line names the board: {line:?}"));
    let port = url
        .split_once('/')
        .and_then(|(addr, _)| addr.rsplit_once(':'))
        .and_then(|(_, port)| port.parse().ok())
        .unwrap_or_else(|| panic!("a port in {line:?}"));
    let token = url
        .split_once("?token=")
        .map(|(_, token)| token.trim().to_string());
    Server { child, port, token }
}

/// An answer: status, headers (lowercased names), body.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Answer {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }
}

/// Sends one request (`head` lines without the final blank line) and
/// reads the whole answer.
fn send(port: u16, head: &str, body: &str) -> Answer {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let request = format!(
        "{head}\r\nConnection: close\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).unwrap();
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("an answer");
    let raw = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = raw.split_once("\r\n\r\n").expect("a head and a body");
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .expect("a status line");
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    Answer {
        status,
        headers,
        body: body.to_string(),
    }
}

/// A GET of `path` sent to `host`, with `extra` header lines.
fn get_page(server: &Server, host: &str, path: &str, extra: &str) -> Answer {
    let mut head = format!("GET {path} HTTP/1.1\r\nHost: {host}");
    if !extra.is_empty() {
        head.push_str("\r\n");
        head.push_str(extra);
    }
    send(server.port, &head, "")
}

/// The cookie header line of a browser that opened the printed link:
/// the session the sign-in started (never the token itself).
fn cookie(server: &Server) -> String {
    let host = format!("127.0.0.1:{}", server.port);
    let token = server.token.as_deref().unwrap();
    let signed = get_page(server, &host, &format!("/?token={token}"), "");
    let set = signed
        .header("set-cookie")
        .expect("signing in sets a cookie");
    let pair = set.split(';').next().unwrap();
    format!("Cookie: {pair}")
}

/// A signed-in page's event stream, asked for (the answer unread).
fn events(server: &Server) -> TcpStream {
    let mut stream = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    write!(
        stream,
        "GET /events HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{}\r\n\r\n",
        server.port,
        cookie(server)
    )
    .unwrap();
    stream
}

fn db() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("tasks.db");
    (dir, db)
}

#[test]
fn the_printed_link_signs_in_with_a_strict_http_only_cookie_and_nothing_opens_without_it() {
    let (_dir, db) = db();
    let server = serve(&db, &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let token = server.token.clone().expect("the URL carries a token");
    assert_eq!(token.len(), 64, "256 random bits");

    let anonymous = get_page(&server, &host, "/", "");
    assert_eq!(anonymous.status, 401, "{}", anonymous.body);
    for path in ["/events", "/assets/board.css", "/lists/x"] {
        assert_eq!(get_page(&server, &host, path, "").status, 401, "{path}");
    }
    let guess = get_page(&server, &host, &format!("/?token={}", &token[..63]), "");
    assert_eq!(guess.status, 401, "a token one character short");
    assert!(guess.header("set-cookie").is_none());

    let link = get_page(
        &server,
        &host,
        &format!("/lists/x?view=order&token={token}"),
        "",
    );
    assert_eq!(link.status, 303);
    assert_eq!(
        link.header("location"),
        Some("/lists/x?view=order"),
        "sent on without the token"
    );
    let set = link.header("set-cookie").expect("a cookie");
    // A fresh session secret, never the token (a browser sends a host's
    // cookies to every port of it).
    let (pair, attributes) = set.split_once(';').unwrap();
    let (name, secret) = pair.split_once('=').unwrap();
    assert_eq!(name, format!("tasklists-{}", server.port));
    assert!(secret.len() == 64 && secret != token, "{set}");
    assert_eq!(attributes, " HttpOnly; SameSite=Strict; Path=/");

    let signed_in = get_page(&server, &host, "/", &cookie(&server));
    assert_ne!(signed_in.status, 401, "{}", signed_in.body);
    let bearer = get_page(
        &server,
        &host,
        "/",
        &format!("Authorization: Bearer {token}"),
    );
    assert_ne!(bearer.status, 401);
    for answer in [&anonymous, &signed_in] {
        let csp = answer.header("content-security-policy").expect("a CSP");
        assert!(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"));
        assert!(csp.contains("frame-ancestors 'none'"));
        assert_eq!(answer.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(answer.header("cache-control"), Some("no-store"));
    }
}

#[test]
fn a_foreign_host_name_is_refused_even_with_the_token() {
    let (_dir, db) = db();
    let server = serve(&db, &[]);
    let port = server.port;
    for host in [
        format!("evil.example:{port}"),
        format!("127.0.0.1:{}", port.wrapping_add(1)),
        "127.0.0.1".to_string(),
        String::new(),
    ] {
        let answer = get_page(&server, &host, "/", &cookie(&server));
        assert_eq!(answer.status, 421, "Host {host:?}: {}", answer.body);
    }
    for host in [format!("localhost:{port}"), format!("[::1]:{port}")] {
        assert_ne!(
            get_page(&server, &host, "/", &cookie(&server)).status,
            421,
            "{host}"
        );
    }
}

#[test]
fn a_state_change_from_another_origin_or_from_nowhere_is_refused_and_changes_nothing() {
    let (_dir, db) = db();
    let (list_id, _) = list(&db, json!({}), &["One"]);
    let server = serve(&db, &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let body = format!("action=add&target={list_id}&title=Injected&return=%2F");
    let post = |origin: Option<&str>, auth: &str| {
        let mut head = format!(
            "POST /act HTTP/1.1\r\nHost: {host}\r\n{auth}\r\nContent-Type: application/x-www-form-urlencoded"
        );
        if let Some(origin) = origin {
            head.push_str(&format!("\r\nOrigin: {origin}"));
        }
        send(server.port, &head, &body)
    };
    let cookie = cookie(&server);
    for origin in [Some("http://evil.example"), Some("null"), None] {
        let answer = post(origin, &cookie);
        assert_eq!(answer.status, 403, "Origin {origin:?}: {}", answer.body);
    }
    let titles = |db: &Path| -> Vec<String> {
        get(db, &list_id)["tasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["title"].as_str().unwrap().to_string())
            .collect()
    };
    assert_eq!(titles(&db), ["One"], "nothing was added");

    // The board's own page may: the component carried it out.
    let own = post(Some(&format!("http://{host}")), &cookie);
    assert_eq!(own.status, 303, "{}", own.body);
    assert_eq!(titles(&db), ["One", "Injected"]);
    // A bearer token is no browser's ambient credential: no Origin needed.
    let token = server.token.clone().unwrap();
    let scripted = post(None, &format!("Authorization: Bearer {token}"));
    assert_eq!(scripted.status, 303, "{}", scripted.body);
}

#[test]
fn events_say_change_within_a_second_of_another_process_committing() {
    let (_dir, db) = db();
    let (list_id, _) = list(&db, json!({}), &["One"]);
    let server = serve(&db, &[]);
    let stream = events(&server);
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .unwrap();
    let mut reader = BufReader::new(stream);
    let mut line = String::new();
    reader.read_line(&mut line).unwrap();
    assert!(line.starts_with("HTTP/1.1 200"), "{line}");
    // Up to the stream's first event (the reconnect hint).
    let mut seen = String::new();
    while !seen.contains("retry: 1000") {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        seen.push_str(&line);
    }
    assert!(
        seen.to_ascii_lowercase().contains("text/event-stream"),
        "{seen}"
    );
    // At once, as a page's first agent may: the write may come before the
    // check's first read since the page connected, and is told all the same.
    let wrote = Instant::now();
    call(
        &db,
        "a1",
        "task_claims",
        json!({"action": "claim_next", "params": {"list_id": list_id}}),
    );
    let written = wrote.elapsed();
    loop {
        line.clear();
        assert!(reader.read_line(&mut line).unwrap() > 0, "the stream ended");
        if line.starts_with("event: change") {
            break;
        }
    }
    let seen_after = wrote.elapsed() - written;
    assert!(
        seen_after < Duration::from_secs(1),
        "the change was told {seen_after:?} after the commit"
    );
}

#[test]
fn beyond_loopback_it_needs_named_tokens_and_a_name_to_answer_for() {
    let (dir, db) = db();
    let refused = tasklists(&db)
        .args(["serve", "--listen", "0.0.0.0:0"])
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("without named tokens"), "{said}");
    assert!(said.contains("tasklists token add"), "{said}");
    assert!(refused.stdout.is_empty(), "no URL printed");

    let file = dir.path().join("tokens");
    let bob = "b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0";
    std::fs::write(&file, format!("bob {bob}\n")).unwrap();
    let file_arg = file.to_str().unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o644)).unwrap();
    let exposed = tasklists(&db)
        .args(["serve", "--listen", "0.0.0.0:0", "--token-file", file_arg])
        .args(["--allow-host", "board.example"])
        .output()
        .unwrap();
    assert_eq!(exposed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&exposed.stderr).contains("chmod 600"));

    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o600)).unwrap();
    let nameless = tasklists(&db)
        .args(["serve", "--listen", "0.0.0.0:0", "--token-file", file_arg])
        .output()
        .unwrap();
    assert_eq!(nameless.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&nameless.stderr).contains("--allow-host"));

    // Named tokens on loopback: no token printed, bob's opens it as bob.
    let server = serve(&db, &["--token-file", file_arg]);
    assert_eq!(server.token, None, "no token of its own is printed");
    let host = format!("127.0.0.1:{}", server.port);
    let open = get_page(&server, &host, "/", &format!("Authorization: Bearer {bob}"));
    assert_ne!(open.status, 401, "{}", open.body);
    let wrong = get_page(
        &server,
        &host,
        "/",
        &format!("Authorization: Bearer {bob}x"),
    );
    assert_eq!(wrong.status, 401);
}

#[test]
fn a_stop_signal_ends_it_cleanly_with_a_page_listening() {
    let (_dir, db) = db();
    let mut server = serve(&db, &[]);
    let _stream = events(&server);
    std::thread::sleep(Duration::from_millis(300));
    let pid = server.child.id().to_string();
    assert!(
        std::process::Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = server.child.try_wait().unwrap() {
            break status;
        }
        assert!(Instant::now() < deadline, "still running after SIGTERM");
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
}

#[test]
fn a_method_no_route_takes_is_405_and_every_answer_carries_the_security_headers() {
    let (_dir, db) = db();
    let server = serve(&db, &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let cookie = cookie(&server);
    let safe = |answer: &Answer, what: &str| {
        let csp = answer.header("content-security-policy").unwrap_or("");
        assert!(csp.contains("frame-ancestors 'none'"), "{what}: {csp:?}");
        assert_eq!(
            answer.header("x-content-type-options"),
            Some("nosniff"),
            "{what}"
        );
        assert_eq!(
            answer.header("referrer-policy"),
            Some("same-origin"),
            "{what}"
        );
        assert_eq!(answer.header("x-frame-options"), Some("DENY"), "{what}");
        assert_eq!(answer.header("cache-control"), Some("no-store"), "{what}");
    };
    for (method, path) in [("DELETE", "/"), ("PUT", "/lists/x"), ("PATCH", "/events")] {
        let head = format!("{method} {path} HTTP/1.1\r\nHost: {host}\r\n{cookie}");
        let answer = send(server.port, &head, "");
        assert_eq!(answer.status, 405, "{method} {path}: {}", answer.body);
        safe(&answer, &format!("{method} {path}"));
    }
    // The Host is checked before any route: a refusal, no route's 405.
    let foreign = send(
        server.port,
        &format!("DELETE / HTTP/1.1\r\nHost: evil.example\r\n{cookie}"),
        "",
    );
    assert_eq!(foreign.status, 421, "{}", foreign.body);
    assert!(foreign.header("allow").is_none(), "no route answered it");
    safe(&foreign, "a foreign Host");
    // The component's own pages and refusals, and rmcp's answers, too.
    let page = get_page(&server, &host, "/", &cookie);
    assert_eq!(page.status, 200, "{}", page.body);
    safe(&page, "a page");
    let mcp = send(
        server.port,
        &format!(
            "POST /mcp HTTP/1.1\r\nHost: {host}\r\n{cookie}\r\nContent-Type: application/json"
        ),
        "{}",
    );
    assert_eq!(
        mcp.status, 401,
        "a session is no token at /mcp: {}",
        mcp.body
    );
    assert_eq!(mcp.header("www-authenticate"), Some("Bearer"));
    assert!(mcp.body.contains("Sign in to the board"), "{}", mcp.body);
    safe(&mcp, "/mcp");
}

#[test]
fn only_an_asset_may_be_kept_and_only_by_the_browser() {
    let (_dir, db) = db();
    let server = serve(&db, &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let css = get_page(&server, &host, "/assets/board.css", &cookie(&server));
    assert_eq!(css.status, 200, "{}", css.body);
    assert_eq!(
        css.header("cache-control"),
        Some("private, max-age=86400, immutable")
    );
    assert!(
        !css.headers
            .iter()
            .any(|(name, _)| name.starts_with("x-tasklists")),
        "no header of the server's own: {:?}",
        css.headers
    );
    // The event stream too is kept nowhere (axum's own answer says
    // `no-cache`).
    let mut reader = BufReader::new(events(&server));
    let mut head = String::new();
    let mut line = String::new();
    while reader.read_line(&mut line).unwrap() > 2 {
        head.push_str(&line.to_ascii_lowercase());
        line.clear();
    }
    assert!(head.starts_with("http/1.1 200"), "{head}");
    assert!(head.contains("cache-control: no-store\r\n"), "{head}");
}

#[test]
fn a_form_over_the_bound_gets_the_components_page_once_its_sender_is_known() {
    let (_dir, db) = db();
    let server = serve(&db, &[]);
    let host = format!("127.0.0.1:{}", server.port);
    let body = "x".repeat(257 * 1024);
    let post = |auth: &str| {
        send(
            server.port,
            &format!("POST /act HTTP/1.1\r\nHost: {host}\r\n{auth}\r\nOrigin: http://{host}"),
            &body,
        )
    };
    let anonymous = post("Accept: text/html");
    assert_eq!(
        anonymous.status, 401,
        "who sent it first: {}",
        anonymous.body
    );
    let large = post(&cookie(&server));
    assert_eq!(large.status, 413, "{}", large.body);
    assert!(
        large
            .header("content-type")
            .unwrap_or("")
            .starts_with("text/html")
            && large.body.contains("Too large"),
        "the component's page: {:?} {}",
        large.headers,
        large.body
    );
}
