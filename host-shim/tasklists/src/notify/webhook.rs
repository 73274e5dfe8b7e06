//! A webhook: each notice's payload POSTed as it is, signed
//! ([`super::signature`]), over hyper's HTTP/1 client connection (one
//! connection a POST: a few a minute at most), TLS by rustls with the
//! system's roots for `https://`. A 2xx is delivered; a 5xx, a 429, a
//! 408, a refused connection or an attempt past [`ATTEMPT`] is tried again
//! after [`BACKOFF`]; anything else (a redirect, which is never followed,
//! or another 4xx) is given up at once.

use super::signature;
use hyper::header::{CONNECTION, CONTENT_TYPE, HOST, USER_AGENT};
use hyper::{Method, Request, StatusCode, Uri};
use hyper_util::rt::TokioIo;
use rustls::pki_types::ServerName;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::TcpStream;
use tokio_rustls::TlsConnector;

/// How long one attempt may take, connecting to the answer's head.
const ATTEMPT: Duration = Duration::from_secs(5);
/// The waits before the second, third, … attempt: five attempts at most.
const BACKOFF: [Duration; 4] = [
    Duration::from_millis(500),
    Duration::from_secs(1),
    Duration::from_secs(2),
    Duration::from_secs(4),
];
/// The header naming the entry a POST is about (a receiver may drop a
/// repeat: a POST whose answer was lost is sent again).
const DELIVERY: &str = "x-tasklists-delivery";

/// One webhook: where to POST and the secret to sign with.
#[derive(Clone)]
pub(crate) struct Webhook {
    /// `webhook:` and the URL's SHA-256: the channel its notices are
    /// recorded under (never the URL, which may hold a secret).
    channel: String,
    /// The host to connect to (an IPv6 address without its brackets).
    host: String,
    port: u16,
    /// The `Host` header: the URL's authority.
    authority: String,
    /// What the request line asks for: the URL's path and query.
    target: String,
    /// For `https://`: the connector and the name the certificate must
    /// carry.
    tls: Option<(TlsConnector, ServerName<'static>)>,
    secret: Arc<[u8]>,
}

impl Webhook {
    /// The webhook at `url`, signed with `secret`; why not when the URL is
    /// not one to POST to.
    pub(crate) fn new(url: &str, secret: &str) -> Result<Webhook, String> {
        let uri: Uri = url.parse().map_err(|_| {
            "--notify-webhook: not a URL (http://HOST[:PORT]/PATH or https://…)".to_string()
        })?;
        let https = match uri.scheme_str() {
            Some("http") => false,
            Some("https") => true,
            _ => {
                return Err(
                    "--notify-webhook: a webhook URL starts with http:// or https://".into(),
                );
            }
        };
        let authority = uri
            .authority()
            .ok_or("--notify-webhook: the URL names no host")?;
        if authority.as_str().contains('@') {
            // Credentials in the URL would go out in no header this
            // notifier sends; the signature is how a receiver knows it.
            return Err(
                "--notify-webhook: a URL with a user or password (user@host) is not supported; the receiver checks the X-Tasklists-Signature header instead".into(),
            );
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        let port = authority.port_u16().unwrap_or(if https { 443 } else { 80 });
        let tls = if https {
            let name = ServerName::try_from(host.clone())
                .map_err(|_| format!("--notify-webhook: {host:?} is not a host name"))?;
            Some((connector()?, name))
        } else {
            None
        };
        Ok(Webhook {
            channel: format!("webhook:{}", signature::digest_hex(url)),
            host,
            port,
            authority: authority.as_str().to_string(),
            target: uri.path_and_query().map_or("/", |p| p.as_str()).to_string(),
            tls,
            secret: Arc::from(secret.as_bytes()),
        })
    }

    /// The channel its notices are recorded under.
    pub(crate) fn channel(&self) -> &str {
        &self.channel
    }

    /// POSTs `payload` about the entry `key`, trying again after a
    /// failure that may pass; why it was given up otherwise.
    pub(crate) async fn deliver(&self, key: &str, payload: &str) -> Result<(), String> {
        let signature = signature::sign(&self.secret, payload.as_bytes());
        let mut waits = BACKOFF.iter();
        loop {
            let why = match tokio::time::timeout(ATTEMPT, self.post(key, payload, &signature)).await
            {
                Ok(Ok(status)) if status.is_success() => return Ok(()),
                Ok(Ok(status)) if passing(status) => format!("answered {status}"),
                Ok(Ok(status)) if status.is_redirection() => {
                    return Err(format!("answered {status}, a redirect (never followed)"));
                }
                Ok(Ok(status)) => return Err(format!("answered {status}")),
                Ok(Err(e)) => e,
                Err(_) => format!("no answer within {} s", ATTEMPT.as_secs()),
            };
            match waits.next() {
                Some(wait) => tokio::time::sleep(*wait).await,
                None => return Err(format!("{why}, {} attempts", BACKOFF.len() + 1)),
            }
        }
    }

    /// One attempt: the answer's status.
    async fn post(&self, key: &str, payload: &str, signature: &str) -> Result<StatusCode, String> {
        let request = Request::builder()
            .method(Method::POST)
            .uri(self.target.as_str())
            .header(HOST, self.authority.as_str())
            .header(CONTENT_TYPE, "application/json")
            .header(USER_AGENT, concat!("tasklists/", env!("CARGO_PKG_VERSION")))
            .header(signature::HEADER, signature)
            .header(DELIVERY, key)
            .header(CONNECTION, "close")
            .body(payload.to_string())
            .map_err(|e| format!("cannot write the request: {e}"))?;
        let tcp = TcpStream::connect((self.host.as_str(), self.port))
            .await
            .map_err(|e| format!("cannot connect: {e}"))?;
        match &self.tls {
            None => send(TokioIo::new(tcp), request).await,
            Some((connector, name)) => {
                let stream = connector
                    .connect(name.clone(), tcp)
                    .await
                    .map_err(|e| format!("TLS: {e}"))?;
                send(TokioIo::new(stream), request).await
            }
        }
    }
}

/// Whether a failure answered with `status` may pass: the receiver is
/// down or busy, not refusing this request.
fn passing(status: StatusCode) -> bool {
    status.is_server_error()
        || status == StatusCode::TOO_MANY_REQUESTS
        || status == StatusCode::REQUEST_TIMEOUT
}

/// Sends `request` on a fresh connection over `io`; the answer's status
/// (its body is not read).
async fn send<T>(io: T, request: Request<String>) -> Result<StatusCode, String>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (mut sender, connection) = hyper::client::conn::http1::handshake(io)
        .await
        .map_err(|e| format!("HTTP: {e}"))?;
    // The connection is driven beside the request, and dropped with it.
    let driver = tokio::spawn(connection);
    let answer = sender.send_request(request).await;
    driver.abort();
    answer
        .map(|response| response.status())
        .map_err(|e| format!("HTTP: {e}"))
}

/// A TLS connector that checks the server's certificate and name against
/// the system's roots (`SSL_CERT_FILE` and `SSL_CERT_DIR` name others).
fn connector() -> Result<TlsConnector, String> {
    let mut roots = rustls::RootCertStore::empty();
    let found = rustls_native_certs::load_native_certs();
    let (added, _ignored) = roots.add_parsable_certificates(found.certs);
    if added == 0 {
        return Err(
            "--notify-webhook: no system root certificates were found to check an https:// receiver with; name a PEM file of them with SSL_CERT_FILE".into(),
        );
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("TLS setup: {e}"))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(TlsConnector::from(Arc::new(config)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_taken_apart_and_named_by_its_digest() {
        let hook = Webhook::new("http://127.0.0.1:8123/hook?team=a", "s").unwrap();
        assert_eq!(hook.host, "127.0.0.1");
        assert_eq!(hook.port, 8123);
        assert_eq!(hook.authority, "127.0.0.1:8123");
        assert_eq!(hook.target, "/hook?team=a");
        assert!(hook.tls.is_none());
        assert_eq!(
            hook.channel(),
            format!(
                "webhook:{}",
                signature::digest_hex("http://127.0.0.1:8123/hook?team=a")
            )
        );
        assert!(!hook.channel().contains("team"));

        let bare = Webhook::new("http://[::1]", "s").unwrap();
        assert_eq!((bare.host.as_str(), bare.port), ("::1", 80));
        assert_eq!(bare.target, "/");
    }

    #[test]
    fn only_http_and_https_urls_without_credentials_are_taken() {
        for bad in [
            "ftp://example.com/x",
            "example.com/hook",
            "/hook",
            "http://user:pw@example.com/hook",
        ] {
            assert!(Webhook::new(bad, "s").is_err(), "{bad}");
        }
    }

    #[test]
    fn what_may_pass_is_tried_again() {
        for status in [500, 502, 503, 429, 408] {
            assert!(passing(StatusCode::from_u16(status).unwrap()), "{status}");
        }
        for status in [400, 401, 403, 404, 410, 422] {
            assert!(!passing(StatusCode::from_u16(status).unwrap()), "{status}");
        }
    }
}
