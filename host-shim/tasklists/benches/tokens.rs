//! Sizes, in tokens, of what a model reads from tasklists: the MCP
//! `tools/list` catalogue as the real `tasklists mcp` server sends it, a
//! `task_lists get` of 50 tasks and a `claim_next` reply (the content text
//! the model receives, and the whole MCP result with its
//! `structuredContent`), and each `task_help` topic. Counted with
//! tiktoken's o200k_base (GPT-4o and later) and cl100k_base (GPT-4)
//! ranks, embedded in tiktoken-rs, so it works offline; bytes beside.
//!
//! `cargo bench -p tasklists --bench tokens`

#[path = "../../benches/support/machine.rs"]
mod machine;

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use tasklists_host::{CallContext, Host, HostConfig};
use tiktoken_rs::CoreBPE;

/// Tasks in the `get` measured.
const TASKS: usize = 50;

/// One measured text.
struct Sized {
    what: String,
    text: String,
}

/// Titles of the size agents write (about 40 characters).
fn title(i: usize) -> String {
    format!("Step {i}: update the parser for the new syntax")
}

/// Runs the real MCP server on `db` and returns the JSON-RPC `result` of
/// `tools/list` and of a `tools/call` of each `(name, arguments)`.
fn mcp_results(db: &Path, calls: &[(&str, Value)]) -> (Value, Vec<Value>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tasklists"))
        .args(["--db"])
        .arg(db)
        .args(["--agent-id", "bench", "mcp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("tasklists mcp starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut send = |v: Value| writeln!(stdin, "{v}").expect("request sent");
    let mut answer = |id: u64| -> Value {
        for line in lines.by_ref() {
            let v: Value = serde_json::from_str(&line.expect("a line")).expect("JSON-RPC");
            if v["id"] == json!(id) {
                return v["result"].clone();
            }
        }
        panic!("no answer to request {id}");
    };
    send(
        json!({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "tokens-bench", "version": "0"}}}),
    );
    answer(1);
    send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
    send(json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"}));
    let list = answer(2);
    let results = calls
        .iter()
        .enumerate()
        .map(|(i, (name, arguments))| {
            let id = 3 + i as u64;
            send(json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                "params": {"name": name, "arguments": arguments}}));
            answer(id)
        })
        .collect();
    drop(stdin);
    let _ = child.wait();
    (list, results)
}

fn main() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("tasks.db");
    let mut host = Host::open(HostConfig::new(&db)).expect("host opens");
    let ctx = CallContext::agent("bench");
    let list = host
        .call("task_lists", "create", r#"{"name":"Release 2.0"}"#, &ctx)
        .expect("list")
        .data["list"]["id"]
        .as_str()
        .expect("id")
        .to_string();
    let tasks: Vec<Value> = (0..TASKS).map(|i| json!({"title": title(i)})).collect();
    host.call(
        "task_items",
        "add_many",
        &json!({"list_id": list, "tasks": tasks}).to_string(),
        &ctx,
    )
    .expect("tasks");
    let get = json!({"list_id": list});
    let mut sized = vec![Sized {
        what: format!("task_lists get, {TASKS} tasks: content text"),
        text: host
            .call("task_lists", "get", &get.to_string(), &ctx)
            .expect("get")
            .text,
    }];
    for topic in ["all", "workflow", "schemas", "examples"] {
        sized.push(Sized {
            what: format!("task_help {topic}"),
            text: host.call("task_help", topic, "", &ctx).expect("help").text,
        });
    }
    drop(host);

    // tools/list and the MCP results from the real server; the claim is
    // made there (it is the one call that changes something).
    let (catalogue, results) = mcp_results(
        &db,
        &[
            ("task_lists", json!({"action": "get", "params": get})),
            (
                "task_claims",
                json!({"action": "claim_next", "params": {"list_id": list}}),
            ),
        ],
    );
    sized.insert(
        0,
        Sized {
            what: format!(
                "MCP tools/list ({} tools, result as sent)",
                catalogue["tools"].as_array().map_or(0, Vec::len)
            ),
            text: catalogue.to_string(),
        },
    );
    let claim_text = results[1]["content"][0]["text"]
        .as_str()
        .unwrap_or("")
        .to_string();
    sized.push(Sized {
        what: format!(
            "task_lists get, {TASKS} tasks: whole MCP result (content + structuredContent)"
        ),
        text: results[0].to_string(),
    });
    sized.push(Sized {
        what: "claim_next: content text".to_string(),
        text: claim_text,
    });
    sized.push(Sized {
        what: "claim_next: whole MCP result".to_string(),
        text: results[1].to_string(),
    });

    let o200k: CoreBPE = tiktoken_rs::o200k_base().expect("o200k_base ranks are embedded");
    let cl100k: CoreBPE = tiktoken_rs::cl100k_base().expect("cl100k_base ranks are embedded");
    println!("## Tokens a model reads\n");
    println!("Machine: {}  ", machine::machine());
    println!(
        "Parameters: a list of {TASKS} tasks titled like \"{}\" ({} characters), no descriptions or notes; tokenizer tiktoken-rs (o200k_base, cl100k_base).\n",
        title(0),
        title(0).len()
    );
    println!("| what | bytes | tokens o200k_base | tokens cl100k_base | bytes/token (o200k) |");
    println!("|---|--:|--:|--:|--:|");
    for s in &sized {
        let (a, b) = (
            o200k.encode_with_special_tokens(&s.text).len(),
            cl100k.encode_with_special_tokens(&s.text).len(),
        );
        println!(
            "| {} | {} | {a} | {b} | {:.1} |",
            s.what,
            s.text.len(),
            s.text.len() as f64 / a.max(1) as f64
        );
    }
}
