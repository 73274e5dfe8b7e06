//! The stdio transport: newline-delimited JSON-RPC on stdin/stdout.
//!
//! rmcp's own stdio transport drops what it cannot parse without a word,
//! so a client whose request holds a lone UTF-16 surrogate (what
//! `JSON.stringify` makes of a string cut mid-emoji), nests too deep or
//! runs over the size limit waits for an answer that never comes. This one
//! answers every such line with a JSON-RPC error under the request's id
//! when it can be recovered (`null` otherwise), ignores stray notifications
//! and responses sent before the session starts (rmcp would stop on them),
//! and stops reading once stdout is gone instead of serving into the void.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcMessage,
    ProtocolVersion,
};
use rmcp::service::{RoleServer, RxJsonRpcMessage, TxJsonRpcMessage};
use rmcp::transport::Transport;
use serde_json::{Value, json};
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use tokio::io::{AsyncBufRead, AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite};
use tokio::io::{AsyncWriteExt, BufReader};
use tokio::sync::{Mutex, mpsc, watch};

/// The longest message accepted, like rmcp's own limit: well above the
/// 4 MiB params limit, so an oversized request still gets the contract's
/// own `invalid_params` answer first.
pub(super) const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// How much of an oversized line is kept to find its id.
const HEAD_BYTES: usize = 4096;

/// JSON-RPC error codes used for refused lines.
const PARSE_ERROR: i64 = -32700;
const INVALID_REQUEST: i64 = -32600;
const INVALID_PARAMS: i64 = -32602;

/// The MCP requests a client sends; rmcp reads one of these with params it
/// cannot decode as a custom request and answers "method not found",
/// which would tell the client the server lacks the method altogether.
const MCP_REQUEST_METHODS: [&str; 20] = [
    "initialize",
    "ping",
    "server/discover",
    "tools/list",
    "tools/call",
    "prompts/list",
    "prompts/get",
    "resources/list",
    "resources/read",
    "resources/templates/list",
    "resources/subscribe",
    "resources/unsubscribe",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// The server side of the connection, handed to rmcp.
pub(super) struct StdioTransport {
    /// Decoded messages, in the order they arrived.
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    out: LineWriter,
}

/// Whether stdout still works, readable after the session ended.
#[derive(Clone)]
pub(super) struct OutputHealth(watch::Receiver<bool>);

impl OutputHealth {
    /// True once a write to stdout failed (the client stopped reading).
    pub(super) fn is_broken(&self) -> bool {
        *self.0.borrow()
    }
}

impl StdioTransport {
    /// Starts reading `input` on a task of the current runtime; answers go
    /// to `output`, one line each.
    pub(super) fn spawn(
        input: impl AsyncRead + Send + Unpin + 'static,
        output: impl AsyncWrite + Send + 'static,
    ) -> (StdioTransport, OutputHealth) {
        let out = LineWriter::new(output);
        let health = OutputHealth(out.broken.subscribe());
        let (sender, incoming) = mpsc::channel(64);
        tokio::spawn(read_loop(BufReader::new(input), sender, out.clone()));
        (StdioTransport { incoming, out }, health)
    }
}

impl Transport<RoleServer> for StdioTransport {
    type Error = io::Error;

    fn send(
        &mut self,
        item: TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), io::Error>> + Send + 'static {
        let out = self.out.clone();
        async move { out.write_line(serde_json::to_vec(&item)?).await }
    }

    async fn receive(&mut self) -> Option<RxJsonRpcMessage<RoleServer>> {
        let mut broken = self.out.broken.subscribe();
        tokio::select! {
            message = self.incoming.recv() => message,
            // Nobody reads the answers any more: stop taking requests.
            _ = broken.wait_for(|broken| *broken) => None,
        }
    }

    async fn close(&mut self) -> Result<(), io::Error> {
        self.incoming.close();
        self.out.flush().await
    }
}

/// Writes whole lines to stdout, one writer at a time, so an answer from
/// rmcp and a refusal from the reader never interleave.
#[derive(Clone)]
struct LineWriter {
    inner: Arc<Mutex<Pin<Box<dyn AsyncWrite + Send>>>>,
    broken: Arc<watch::Sender<bool>>,
}

impl LineWriter {
    fn new(output: impl AsyncWrite + Send + 'static) -> Self {
        LineWriter {
            inner: Arc::new(Mutex::new(Box::pin(output))),
            broken: Arc::new(watch::Sender::new(false)),
        }
    }

    async fn write_line(&self, mut line: Vec<u8>) -> io::Result<()> {
        line.push(b'\n');
        let mut out = self.inner.lock().await;
        let written = match out.write_all(&line).await {
            Ok(()) => out.flush().await,
            Err(e) => Err(e),
        };
        if let Err(e) = &written
            && !self.broken.send_replace(true)
        {
            tracing::error!("cannot write to stdout ({e}); stopping");
        }
        written
    }

    async fn flush(&self) -> io::Result<()> {
        self.inner.lock().await.flush().await
    }
}

/// Reads stdin line by line until it closes, passing messages on in order
/// and answering the lines that are not messages.
async fn read_loop<R: AsyncBufRead + Unpin>(
    mut input: R,
    messages: mpsc::Sender<ClientJsonRpcMessage>,
    out: LineWriter,
) {
    let mut gate = LifecycleGate::default();
    let mut line = Vec::new();
    loop {
        line.clear();
        let refusal = match read_line(&mut input, &mut line).await {
            Ok(LineRead::Eof) => break,
            Err(e) => {
                tracing::error!("cannot read stdin ({e}); stopping");
                break;
            }
            Ok(LineRead::TooLong { bytes }) => Some(refuse(
                scan_id(&line),
                INVALID_REQUEST,
                format!(
                    "the message is {} MiB, over the limit of {} MiB; split the work into smaller calls",
                    bytes.div_ceil(1024 * 1024),
                    MAX_LINE_BYTES / (1024 * 1024)
                ),
            )),
            Ok(LineRead::Line) => match decode(&line) {
                Decoded::Message(message) => {
                    if gate.admits(&message) && messages.send(*message).await.is_err() {
                        break; // the session is over
                    }
                    None
                }
                Decoded::Skip => None,
                Decoded::Refuse(refusal) => Some(refusal),
            },
        };
        if let Some(refusal) = refusal
            && out.write_line(refusal).await.is_err()
        {
            break;
        }
    }
}

/// What reading one line gave.
#[derive(Debug, PartialEq, Eq)]
enum LineRead {
    /// A line (without its limit exceeded) is in the buffer.
    Line,
    /// The line was over [`MAX_LINE_BYTES`]; the buffer holds its head.
    TooLong { bytes: usize },
    /// stdin is closed.
    Eof,
}

/// Reads one `\n`-terminated line into `buf`, never buffering more than
/// [`MAX_LINE_BYTES`] of it.
async fn read_line<R: AsyncBufRead + Unpin>(
    input: &mut R,
    buf: &mut Vec<u8>,
) -> io::Result<LineRead> {
    let read = (&mut *input)
        .take(MAX_LINE_BYTES as u64 + 1)
        .read_until(b'\n', buf)
        .await?;
    if read == 0 {
        return Ok(LineRead::Eof);
    }
    if buf.len() <= MAX_LINE_BYTES || (buf.len() == MAX_LINE_BYTES + 1 && buf.ends_with(b"\n")) {
        return Ok(LineRead::Line);
    }
    // Over the limit: keep the head (where the id is), skip to the newline.
    let mut bytes = buf.len();
    buf.truncate(HEAD_BYTES);
    let mut skipped = Vec::new();
    loop {
        skipped.clear();
        let read = (&mut *input)
            .take(64 * 1024)
            .read_until(b'\n', &mut skipped)
            .await?;
        bytes += read;
        if read == 0 || skipped.ends_with(b"\n") {
            return Ok(LineRead::TooLong { bytes });
        }
    }
}

/// What one line of input is.
#[derive(Debug)]
enum Decoded {
    /// A message for rmcp (boxed: it is large, the other cases are not).
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to do (a blank line, a notification nobody knows).
    Skip,
    /// An error answer to write back.
    Refuse(Vec<u8>),
}

fn decode(line: &[u8]) -> Decoded {
    let line = line
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(line)
        .trim_ascii();
    if line.is_empty() {
        return Decoded::Skip;
    }
    match serde_json::from_slice::<ClientJsonRpcMessage>(line) {
        Ok(JsonRpcMessage::Request(request)) => match &request.request {
            ClientRequest::CustomRequest(custom)
                if MCP_REQUEST_METHODS.contains(&custom.method.as_str()) =>
            {
                let detail = match custom.method.as_str() {
                    "tools/call" => custom
                        .params_as::<CallToolRequestParams>()
                        .err()
                        .map(|e| format!(" ({e})"))
                        .unwrap_or_else(|| " (params are required)".into()),
                    _ => String::new(),
                };
                let id = serde_json::to_value(&request.id).ok();
                Decoded::Refuse(refuse(
                    id,
                    INVALID_PARAMS,
                    format!(
                        "the params of `{}` do not match the MCP schema{detail}",
                        custom.method
                    ),
                ))
            }
            _ => Decoded::Message(Box::new(JsonRpcMessage::Request(request))),
        },
        Ok(message) => Decoded::Message(Box::new(message)),
        Err(error) => match serde_json::from_slice::<Value>(line) {
            // Well-formed JSON that is no message we know.
            Ok(value) => {
                let id = value.get("id").filter(|id| id.is_i64() || id.is_string());
                if id.is_none() && value.get("method").is_some_and(Value::is_string) {
                    tracing::warn!("ignored a notification it cannot read ({error})");
                    return Decoded::Skip;
                }
                Decoded::Refuse(refuse(
                    id.cloned(),
                    INVALID_REQUEST,
                    format!("not a JSON-RPC 2.0 request ({error})"),
                ))
            }
            Err(_) => Decoded::Refuse(refuse(
                scan_id(line),
                PARSE_ERROR,
                format!(
                    "the message is not valid JSON ({error}); send one JSON-RPC message per line, UTF-8, without lone surrogates"
                ),
            )),
        },
    }
}

/// A JSON-RPC error line answering `id` (`null` when it is unknown).
fn refuse(id: Option<Value>, code: i64, message: String) -> Vec<u8> {
    tracing::warn!("refused an incoming message: {message}");
    let answer = json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": {"code": code, "message": message},
    });
    serde_json::to_vec(&answer).unwrap_or_default()
}

/// The request id of a line that does not parse, found by looking for the
/// first `"id":` followed by an integer or a plain string. Clients write the
/// id before the params, so the first one is the request's.
fn scan_id(line: &[u8]) -> Option<Value> {
    const KEY: &[u8] = b"\"id\"";
    let at = line.windows(KEY.len()).position(|w| w == KEY)?;
    let rest = line[at + KEY.len()..].trim_ascii_start();
    let rest = rest.strip_prefix(b":")?.trim_ascii_start();
    if let Some(text) = rest.strip_prefix(b"\"") {
        let end = text.iter().position(|&b| b == b'"' || b == b'\\')?;
        if text[end] != b'"' {
            return None;
        }
        return std::str::from_utf8(&text[..end]).ok().map(Value::from);
    }
    let end = rest
        .iter()
        .position(|b| !(b.is_ascii_digit() || *b == b'-'))
        .unwrap_or(rest.len());
    std::str::from_utf8(&rest[..end])
        .ok()?
        .parse::<i64>()
        .ok()
        .map(Value::from)
}

/// Until a request opens the session (`initialize`, or a 2026-07-28 request
/// carrying its protocol version), rmcp stops serving on any notification
/// or response; those are dropped here instead.
#[derive(Default)]
struct LifecycleGate {
    open: bool,
}

impl LifecycleGate {
    fn admits(&mut self, message: &ClientJsonRpcMessage) -> bool {
        if self.open {
            return true;
        }
        match message {
            JsonRpcMessage::Request(request) => {
                self.open = opens_session(&request.request);
                true
            }
            _ => {
                tracing::warn!("ignored a notification or response sent before initialize");
                false
            }
        }
    }
}

fn opens_session(request: &ClientRequest) -> bool {
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.protocol_version().is_some()
                && meta
                    .missing_required_keys(&ProtocolVersion::V_2026_07_28)
                    .is_empty()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refusal(line: &str) -> Value {
        match decode(line.as_bytes()) {
            Decoded::Refuse(bytes) => serde_json::from_slice(&bytes).unwrap(),
            other => panic!("{line}: expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn requests_pass_and_blank_lines_are_skipped() {
        let line = r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"task_help","arguments":{"action":"all"}}}"#;
        assert!(matches!(
            decode(line.as_bytes()),
            Decoded::Message(message) if matches!(*message, JsonRpcMessage::Request(_))
        ));
        assert!(matches!(decode(b"  \r\n"), Decoded::Skip));
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"x/unknown","params":7}"#),
            Decoded::Skip | Decoded::Message(_)
        ));
    }

    #[test]
    fn broken_json_is_a_parse_error_under_the_recovered_id() {
        let lone_surrogate = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_items","arguments":{"action":"create","params":{"title":"cut \ud83d"}}}}"#;
        let answer = refusal(lone_surrogate);
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        assert!(
            answer["error"]["message"]
                .as_str()
                .unwrap()
                .contains("surrogate")
        );

        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{}{}}}"#,
            "[".repeat(300),
            "]".repeat(300)
        );
        let answer = refusal(&deep);
        assert_eq!(answer["id"], "abc");
        assert_eq!(answer["error"]["code"], PARSE_ERROR);

        let answer = refusal("{not json");
        assert_eq!(answer["id"], Value::Null);
    }

    #[test]
    fn well_formed_json_that_is_no_request_is_invalid_request() {
        let answer = refusal(r#"{"hello":"world"}"#);
        assert_eq!(answer["error"]["code"], INVALID_REQUEST);
        assert!(answer.as_object().unwrap().contains_key("id"));
        assert_eq!(answer["id"], Value::Null);
        let answer = refusal(r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#);
        assert_eq!(answer["error"]["code"], INVALID_REQUEST);
    }

    #[test]
    fn a_standard_method_with_bad_params_is_invalid_params() {
        for line in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"task_help","arguments":[1]}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call"}"#,
        ] {
            let answer = refusal(line);
            assert_eq!(answer["id"], 3, "{line}");
            assert_eq!(answer["error"]["code"], INVALID_PARAMS, "{line}");
            assert!(
                answer["error"]["message"]
                    .as_str()
                    .unwrap()
                    .contains("tools/call"),
                "{line}"
            );
        }
    }

    #[test]
    fn ids_are_found_in_broken_lines() {
        assert_eq!(scan_id(br#"{"id": 42, "x": "#), Some(Value::from(42)));
        assert_eq!(
            scan_id(br#"{"jsonrpc":"2.0","id":"r-1","#),
            Some(Value::from("r-1"))
        );
        assert_eq!(scan_id(br#"{"id":-3}"#), Some(Value::from(-3)));
        assert_eq!(scan_id(br#"{"id":"a\"b"}"#), None);
        assert_eq!(scan_id(br#"{"id":null}"#), None);
        assert_eq!(scan_id(b"garbage"), None);
    }

    #[test]
    fn only_requests_pass_before_the_session_opens() {
        let notification: ClientJsonRpcMessage = serde_json::from_str(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        )
        .unwrap();
        let ping: ClientJsonRpcMessage =
            serde_json::from_str(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#).unwrap();
        let initialize: ClientJsonRpcMessage = serde_json::from_str(
            r#"{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        )
        .unwrap();
        let mut gate = LifecycleGate::default();
        assert!(!gate.admits(&notification));
        assert!(gate.admits(&ping));
        assert!(!gate.admits(&notification));
        assert!(gate.admits(&initialize));
        assert!(gate.admits(&notification));
    }

    #[tokio::test]
    async fn oversized_lines_are_skipped_whole() {
        let mut input = Vec::new();
        input.extend_from_slice(br#"{"jsonrpc":"2.0","id":9,"method":"tools/call","params":""#);
        input.resize(MAX_LINE_BYTES + 100, b'x');
        input.extend_from_slice(b"\"}\n{\"next\":1}\n");
        let mut reader = BufReader::new(input.as_slice());
        let mut buf = Vec::new();
        let read = read_line(&mut reader, &mut buf).await.unwrap();
        assert_eq!(
            read,
            LineRead::TooLong {
                bytes: MAX_LINE_BYTES + 103
            }
        );
        assert_eq!(scan_id(&buf), Some(Value::from(9)));
        buf.clear();
        assert_eq!(
            read_line(&mut reader, &mut buf).await.unwrap(),
            LineRead::Line
        );
        assert_eq!(buf, b"{\"next\":1}\n");
        buf.clear();
        assert_eq!(
            read_line(&mut reader, &mut buf).await.unwrap(),
            LineRead::Eof
        );
    }
}
