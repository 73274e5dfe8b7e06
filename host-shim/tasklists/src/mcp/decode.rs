//! What one line of input is: a message for rmcp, nothing, or a JSON-RPC
//! error to answer with.
//!
//! rmcp ignores lines that are not JSON (rust-sdk #938: no id to answer,
//! and answering could start an error storm with a peer that echoes). An
//! MCP client never echoes, and a request left unanswered makes an agent
//! wait for its whole timeout, so here a broken line is answered under its
//! request id when the id can be read, `null` otherwise.

use rmcp::model::{
    CallToolRequestParams, ClientJsonRpcMessage, ClientRequest, GetMeta, JsonRpcMessage,
    ProtocolVersion,
};
use serde_json::{Value, json};

/// JSON-RPC error codes used for refused lines.
pub(super) const PARSE_ERROR: i64 = -32700;
pub(super) const INVALID_REQUEST: i64 = -32600;
pub(super) const INVALID_PARAMS: i64 = -32602;

/// The MCP requests a client sends. rmcp reads one of these whose params
/// it cannot decode as a custom request and answers "method not found",
/// which would tell the client the server lacks the method altogether.
const MCP_REQUEST_METHODS: [&str; 21] = [
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
    "resources/directory/read",
    "completion/complete",
    "logging/setLevel",
    "subscriptions/listen",
    "tasks/get",
    "tasks/update",
    "tasks/cancel",
    "skills/list",
    "skills/get",
];

/// What one line of input is.
#[derive(Debug)]
pub(super) enum Decoded {
    /// A message for rmcp (boxed: it is large, the other cases are not).
    Message(Box<ClientJsonRpcMessage>),
    /// Nothing to do (a blank line, a notification nobody knows).
    Skip,
    /// An error answer to write back.
    Refuse(Vec<u8>),
}

/// Decodes one line (without its limit exceeded).
pub(super) fn decode(line: &[u8]) -> Decoded {
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
                // No `id` key at all: a notification, which gets no answer.
                if value.get("id").is_none() && value.get("method").is_some_and(Value::is_string) {
                    tracing::warn!("ignored a notification it cannot read ({error})");
                    return Decoded::Skip;
                }
                let id = value
                    .get("id")
                    .filter(|id| id.is_i64() || id.is_string())
                    .cloned();
                Decoded::Refuse(refuse(
                    id,
                    INVALID_REQUEST,
                    format!("not a JSON-RPC 2.0 request ({error})"),
                ))
            }
            Err(_) => Decoded::Refuse(refuse(
                top_level_id(line),
                PARSE_ERROR,
                format!(
                    "the message is not valid JSON ({error}); send one JSON-RPC message per line, UTF-8, without lone surrogates"
                ),
            )),
        },
    }
}

/// A JSON-RPC error line answering `id` (`null` when it is unknown).
pub(super) fn refuse(id: Option<Value>, code: i64, message: String) -> Vec<u8> {
    tracing::warn!("refused an incoming message: {message}");
    let answer = json!({
        "jsonrpc": "2.0",
        "id": id.unwrap_or(Value::Null),
        "error": {"code": code, "message": message},
    });
    serde_json::to_vec(&answer).unwrap_or_default()
}

/// The id of a line that does not parse: the value of the key `id` of the
/// outermost object. Strings are skipped lexically (an escape skips one
/// byte), so what broke the parse inside a string (a lone surrogate,
/// invalid UTF-8) does not matter; an `id` key of a nested object is never
/// taken for the request's.
pub(super) fn top_level_id(bytes: &[u8]) -> Option<Value> {
    let mut depth = 0usize;
    let mut expecting_key = false;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                let end = string_end(bytes, i)?;
                if depth == 1 && expecting_key {
                    expecting_key = false;
                    let after = skip_ws(bytes, end + 1);
                    if &bytes[i + 1..end] == b"id" && bytes.get(after) == Some(&b':') {
                        return scalar_id(&bytes[skip_ws(bytes, after + 1)..]);
                    }
                }
                i = end;
            }
            open @ (b'{' | b'[') => {
                depth += 1;
                expecting_key = open == b'{' && depth == 1;
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            b',' if depth == 1 => expecting_key = true,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The id in the last bytes of a line too long to read whole, where
/// clients that write the id last (the TypeScript SDK) put it: the last
/// `"id": <scalar>` followed by nothing but one closing brace and other
/// top-level scalars, i.e. a key of the outermost object.
pub(super) fn trailing_id(tail: &[u8]) -> Option<Value> {
    const KEY: &[u8] = b"\"id\"";
    let mut end = tail.len();
    while let Some(at) = tail[..end].windows(KEY.len()).rposition(|w| w == KEY) {
        end = at;
        let colon = skip_ws(tail, at + KEY.len());
        if tail.get(colon) != Some(&b':') {
            continue;
        }
        let start = skip_ws(tail, colon + 1);
        let Some(id) = scalar_id(&tail[start..]) else {
            continue;
        };
        let rest = &tail[start..];
        let rest = &rest[scalar_len(rest)..];
        let closing = rest.iter().filter(|&&b| b == b'}').count();
        if closing == 1 && !rest.iter().any(|b| matches!(b, b'{' | b'[' | b']')) {
            return Some(id);
        }
    }
    None
}

/// The index of the quote closing the string that opens at `start`.
fn string_end(bytes: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while bytes.get(i).is_some_and(u8::is_ascii_whitespace) {
        i += 1;
    }
    i
}

/// The length of the scalar token `rest` starts with.
fn scalar_len(rest: &[u8]) -> usize {
    if rest.first() == Some(&b'"') {
        return string_end(rest, 0).map_or(rest.len(), |end| end + 1);
    }
    rest.iter()
        .position(|b| matches!(b, b',' | b'}' | b']') || b.is_ascii_whitespace())
        .unwrap_or(rest.len())
}

/// A JSON-RPC id (an integer or a string) at the start of `rest`.
fn scalar_id(rest: &[u8]) -> Option<Value> {
    let token = &rest[..scalar_len(rest)];
    match serde_json::from_slice::<Value>(token).ok()? {
        id @ Value::String(_) => Some(id),
        id @ Value::Number(_) if id.is_i64() => Some(id),
        _ => None,
    }
}

/// Until a request opens the session (`initialize`, or a 2026-07-28 request
/// carrying a protocol version the server speaks), rmcp stops serving on
/// any notification or response; those are dropped here instead.
#[derive(Default)]
pub(super) struct LifecycleGate {
    open: bool,
}

impl LifecycleGate {
    /// Whether `message` may go on to rmcp.
    pub(super) fn admits(&mut self, message: &ClientJsonRpcMessage) -> bool {
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

/// rmcp's rule (`serve_server_with_ct_inner`) for the request that ends its
/// pre-session loop.
fn opens_session(request: &ClientRequest) -> bool {
    match request {
        ClientRequest::InitializeRequest(_) => true,
        ClientRequest::PingRequest(_) | ClientRequest::DiscoverRequest(_) => false,
        other => {
            let meta = other.get_meta();
            meta.protocol_version()
                .is_some_and(|version| ProtocolVersion::KNOWN_VERSIONS.contains(&version))
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
    }

    #[test]
    fn broken_json_is_a_parse_error_under_the_request_id() {
        let lone_surrogate = r#"{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"task_items","arguments":{"action":"create","params":{"title":"cut \ud83d"}}}}"#;
        let answer = refusal(lone_surrogate);
        assert_eq!(answer["id"], 7);
        assert_eq!(answer["error"]["code"], PARSE_ERROR);
        let message = answer["error"]["message"].as_str().unwrap();
        assert!(message.contains("surrogate"), "{message}");

        // The TypeScript SDK writes the id last, after params that may hold
        // an `id` of their own.
        let id_last = r#"{"method":"tools/call","params":{"name":"task_items","arguments":{"action":"update","params":{"id":"t-123","title":"\ud83d"}}},"jsonrpc":"2.0","id":42}"#;
        assert_eq!(refusal(id_last)["id"], 42);

        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":"abc","method":"tools/call","params":{}{}}}"#,
            "[".repeat(300),
            "]".repeat(300)
        );
        assert_eq!(refusal(&deep)["id"], "abc");
        assert_eq!(refusal("{not json")["id"], Value::Null);
    }

    #[test]
    fn well_formed_json_that_is_no_request_is_invalid_request() {
        for line in [
            r#"{"hello":"world"}"#,
            r#"[{"jsonrpc":"2.0","id":1,"method":"ping"}]"#,
            r#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":1.5,"method":"ping"}"#,
            r#"{"jsonrpc":"2.0","id":99999999999999999999,"method":"ping"}"#,
        ] {
            let answer = refusal(line);
            assert_eq!(answer["error"]["code"], INVALID_REQUEST, "{line}");
            assert!(answer.as_object().unwrap().contains_key("id"), "{line}");
            assert_eq!(answer["id"], Value::Null, "{line}");
        }
        // A notification nobody knows is not answered.
        assert!(matches!(
            decode(br#"{"jsonrpc":"2.0","method":"tools/call","params":7}"#),
            Decoded::Skip
        ));
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
            let message = answer["error"]["message"].as_str().unwrap();
            assert!(message.contains("tools/call"), "{line}");
        }
    }

    #[test]
    fn only_the_outermost_id_is_taken() {
        assert_eq!(top_level_id(br#"{"id": 42, "x": "#), Some(Value::from(42)));
        assert_eq!(
            top_level_id(br#"{"params":{"id":"inner"},"id":"r-1""#),
            Some(Value::from("r-1"))
        );
        assert_eq!(
            top_level_id(br#"{"params":{"id":"inner"},"x":"\"id\":5"}"#),
            None
        );
        assert_eq!(top_level_id(br#"{"id":"a\"b"}"#), Some(Value::from("a\"b")));
        assert_eq!(top_level_id(br#"{"id":-3}"#), Some(Value::from(-3)));
        assert_eq!(top_level_id(br#"{"id":null}"#), None);
        assert_eq!(top_level_id(br#"{"id":1.5}"#), None);
        assert_eq!(top_level_id(b"garbage"), None);
    }

    #[test]
    fn the_trailing_id_is_the_outermost_one() {
        assert_eq!(
            trailing_id(br#"xxxxx"}}},"jsonrpc":"2.0","id":42}"#),
            Some(Value::from(42))
        );
        assert_eq!(trailing_id(br#"xx","id":"t-1"}}}"#), None);
        assert_eq!(
            trailing_id(br#"x"},"id": "r-9" , "jsonrpc":"2.0"}"#),
            Some(Value::from("r-9"))
        );
        assert_eq!(trailing_id(b"xxxxxxxx"), None);
    }

    #[test]
    fn only_requests_pass_before_the_session_opens() {
        let parse = |text: &str| serde_json::from_str::<ClientJsonRpcMessage>(text).unwrap();
        let notification = parse(
            r#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
        );
        let ping = parse(r#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#);
        let unknown_version = parse(
            r#"{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2099-01-01","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"0"}}}}"#,
        );
        let initialize = parse(
            r#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}"#,
        );
        let mut gate = LifecycleGate::default();
        assert!(!gate.admits(&notification));
        assert!(gate.admits(&ping));
        assert!(gate.admits(&unknown_version));
        assert!(!gate.admits(&notification));
        assert!(gate.admits(&initialize));
        assert!(gate.admits(&notification));
    }
}
