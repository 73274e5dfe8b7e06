//! Fuzzing of the component's entry points (issue 11, item 4), through the
//! real component under wasmtime on real SQLite files, with proptest.
//!
//! What it proves, for random and mutated input:
//! - tool calls (`Host::reply_to_action`, and whole requests as raw text
//!   through `Host::reply`, the MCP path) never trap and never fail in the
//!   host: every failure is a contract error (a known code, never
//!   `internal` or `storage` on a healthy file; a non-empty, one-line,
//!   printable, bounded message; the error object as the reply's text and
//!   structured content);
//! - a failed call changes nothing (a hash of every table's rows and of
//!   the schema, before and after) but the `private_bypass` events of a
//!   bypass it made, which stay;
//! - a successful call keeps the database's invariants (dense positions,
//!   claims only on `in_progress` tasks and always on them, outcomes on
//!   closed tasks, dependencies acyclic and within one list, one live
//!   claim per agent and list) and its text is one safe summary line plus
//!   the JSON data;
//! - no tool call approves or rejects a plan, nor hands out a task of a
//!   plan that is not approved or one awaiting approval, whatever its
//!   params and even with a person named in its context (seeded: a plan
//!   awaiting approval, and an approved one with a task added since);
//! - the renderers (`render_result`, `render_call`, `render_reply`,
//!   `render_error`) and the views (`widget`, `run_command`, `complete`)
//!   never trap and never emit a raw control or invisible character,
//!   whatever data they are given.
//!
//! Each case of the first test is a few steps (calls and clock moves) on
//! a fresh copy of a seeded database: lists shared, private and deleted,
//! tasks in every status, a dependency, a live claim. Inputs start from
//! valid params of every tool+action and are mutated: fields dropped,
//! added and retyped, ids of the wrong kind or of deleted things, strings
//! past their limits (up to 5 MiB), SQL-looking text, terminal escapes,
//! NUL, lone surrogates in JSON escapes, nesting 5,000 deep, numbers out
//! of every range; tool and action names at random; requests truncated.
//!
//! Run (bounded, as CI does; about a minute in release on 2 cores):
//!
//! ```sh
//! cargo test --release -p tasklists-tests --test contract fuzz:: -- --nocapture
//! ```
//!
//! Long run: `TASKLISTS_FUZZ_CASES=N` (or `PROPTEST_CASES=N`) runs N cases
//! in each test (bounded: 3,000 calls cases of up to 6 steps, 5,000
//! renderer and 1,500 view cases); `TASKLISTS_FUZZ_SEED=random` draws a new
//! seed per run (default: a fixed seed, so CI is reproducible), or
//! `=<u64>` picks one. A failure prints the shrunk input; nothing is
//! written to the source tree (failure persistence is off: put a found
//! case in a named test). For example, an hour-long run:
//!
//! ```sh
//! TASKLISTS_FUZZ_CASES=100000 TASKLISTS_FUZZ_SEED=random \
//!   cargo test --release -p tasklists-tests --test contract fuzz:: -- --nocapture
//! ```

// `fuzz/*.rs`: this module's parts (`checks` also serves `transfer`).
pub(crate) mod checks;
mod params;
mod values;
mod world;

use checks::{check_error, check_lines, check_reply, clip, code_name};
use params::{Step, step};
use proptest::prelude::*;
use proptest::sample::select;
use proptest::test_runner::{Config, RngSeed, TestCaseError, TestError, TestRunner};
use std::cell::RefCell;
use std::collections::BTreeMap;
use std::time::Instant;
use tasklists_host::{CommandEffect, WidgetMode, WidgetView};
use tasklists_tests::*;
use values::{nasty_string, nasty_value, raw_text};
use world::{BYPASS_EVENTS, OWNER, Seed, broken_invariant, raw, snapshot};

/// Why this file's tests skip themselves on PostgreSQL.
const ON_POSTGRES: &str = "fuzz runs on copies of an SQLite seed file, read raw with rusqlite; the component's entry points are fuzzed in the SQLite pass";

/// Cases of the calls test in the bounded (CI) run.
const CALL_CASES: u32 = 3_000;
/// Cases of the renderers test in the bounded run (cheap: no database).
const RENDER_CASES: u32 = 5_000;
/// Cases of the views test in the bounded run.
const VIEW_CASES: u32 = 1_500;
/// Steps per case of the calls test, at most.
const MAX_STEPS: usize = 6;

/// The number of cases: `bounded`, or `TASKLISTS_FUZZ_CASES` (else
/// `PROPTEST_CASES`) when set.
fn cases(bounded: u32) -> u32 {
    ["TASKLISTS_FUZZ_CASES", "PROPTEST_CASES"]
        .iter()
        .find_map(|k| std::env::var(k).ok()?.parse::<u32>().ok())
        .unwrap_or(bounded)
}

/// The proptest config: `cases`, a fixed seed unless told otherwise, no
/// failure files.
fn config(cases: u32) -> Config {
    let rng_seed = match std::env::var("TASKLISTS_FUZZ_SEED").ok().as_deref() {
        Some("random") => RngSeed::Random,
        Some(n) => RngSeed::Fixed(n.parse().expect("TASKLISTS_FUZZ_SEED: a u64 or `random`")),
        None => RngSeed::Fixed(0x7a51_c11e),
    };
    Config {
        cases,
        rng_seed,
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    }
}

/// Runs `test` on `cases` values of `strategy`; panics with the shrunk
/// failing input.
fn run<S: Strategy>(
    name: &str,
    cases: u32,
    strategy: S,
    test: impl Fn(S::Value) -> Result<(), TestCaseError>,
) where
    S::Value: std::fmt::Debug,
{
    let start = Instant::now();
    let mut runner = TestRunner::new(config(cases));
    match runner.run(&strategy, test) {
        Ok(()) => {}
        Err(TestError::Fail(why, input)) => panic!(
            "{name}: {why}\nminimal failing input: {}",
            squeeze(&format!("{input:#?}"))
        ),
        Err(e) => panic!("{name}: {e}"),
    }
    eprintln!(
        "{name}: {cases} cases in {:.1} s",
        start.elapsed().as_secs_f64()
    );
}

/// `text` with every run of more than 40 equal characters written as
/// `{N × 'c'}`: a failing input may hold strings of megabytes.
fn squeeze(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let mut n = 1;
        while chars.peek() == Some(&c) {
            chars.next();
            n += 1;
        }
        if n > 40 {
            out.push_str(&format!("{{{n} × {c:?}}}"));
        } else {
            out.extend(std::iter::repeat_n(c, n));
        }
    }
    out
}

/// What the calls test saw, printed at the end (proof that the inputs
/// reach past validation, not only into it).
#[derive(Default)]
struct Stats {
    calls: u64,
    successes: BTreeMap<String, u64>,
    errors: BTreeMap<&'static str, u64>,
}

fn fail(msg: String) -> TestCaseError {
    TestCaseError::fail(msg)
}

/// Checks one reply of a call that ran on `db`, `before` being the
/// snapshot taken just before it.
fn check_call(
    db: &TestDb,
    conn: &rusqlite::Connection,
    before: &[(String, u64, u64)],
    tool: &str,
    arguments: &str,
    reply: Result<ToolReply, HostError>,
    stats: &RefCell<Stats>,
) -> Result<(), TestCaseError> {
    let reply = reply.map_err(|e| fail(format!("host error (the component did not run): {e}")))?;
    let ok = check_reply(&reply).map_err(fail)?;
    let mut st = stats.borrow_mut();
    st.calls += 1;
    match &reply.outcome {
        Ok(_) => {
            let action = serde_json::from_str::<Value>(arguments)
                .ok()
                .and_then(|a| a["action"].as_str().map(str::to_string))
                .unwrap_or_default();
            *st.successes.entry(format!("{tool} {action}")).or_default() += 1;
            if let Some(broken) = broken_invariant(conn, db.clock.now_ms()) {
                return Err(fail(format!("after a success: {broken}")));
            }
            drop(st);
            counts_match(db)?;
            st = stats.borrow_mut();
        }
        Err(e) => {
            *st.errors.entry(code_name(e.code)).or_default() += 1;
            let after = snapshot(conn);
            let changed: Vec<&str> = before
                .iter()
                .zip(&after)
                .filter(|(b, a)| b != a)
                .map(|(b, _)| b.0.as_str())
                .collect();
            // A bypass stays audited when its call then fails: new
            // private_bypass events are the one change a failure may make.
            let only_bypasses = changed == [BYPASS_EVENTS]
                && before
                    .iter()
                    .zip(&after)
                    .all(|(b, a)| b.0 != BYPASS_EVENTS || a.1 > b.1);
            if before.len() != after.len() || !(changed.is_empty() || only_bypasses) {
                return Err(fail(format!(
                    "a failed call ({}: {}) changed {changed:?}",
                    code_name(e.code),
                    clip(&e.message)
                )));
            }
        }
    }
    drop(st);
    // The same reply as a person sees it.
    let lines = db
        .host()
        .render_reply(tool, arguments, &reply)
        .map_err(|e| fail(format!("render_reply trapped: {e}")))?;
    check_lines(
        &lines,
        if ok {
            "rendered result"
        } else {
            "rendered error"
        },
    )
    .map_err(fail)
}

/// The contract's `counts` of each seeded list that still exists are its
/// live tasks by status, as `get` lists them (kept by the component in
/// the same transaction as each change).
fn counts_match(db: &TestDb) -> Result<(), TestCaseError> {
    let lists: Vec<String> = db.ok(OWNER, "task_lists", "find", json!({"limit": 200}))["lists"]
        .as_array()
        .expect("lists")
        .iter()
        .map(|l| l["id"].as_str().expect("id").to_string())
        .collect();
    for list in lists {
        let tasks = db.all_tasks(OWNER, &list, json!({}));
        let mut want = json!({"todo": 0, "in_progress": 0, "blocked": 0, "done": 0, "canceled": 0});
        for t in &tasks {
            let status = t["status"].as_str().expect("status");
            want[status] = json!(want[status].as_i64().unwrap_or(0) + 1);
        }
        let got = db.get(OWNER, &list)["counts"].clone();
        if got != want {
            return Err(fail(format!(
                "{list}: counts {got} but its tasks make {want}"
            )));
        }
    }
    Ok(())
}

/// Runs the steps of one case on a fresh copy of the seed.
fn run_case(seed: &Seed, steps: &[Step], stats: &RefCell<Stats>) -> Result<(), TestCaseError> {
    let db = seed.case();
    let conn = raw(&db);
    for step in steps {
        match step {
            Step::Advance(secs) => db.advance(*secs),
            Step::Action {
                caller,
                tool,
                action,
                params,
            } => {
                let before = snapshot(&conn);
                let reply = db
                    .host()
                    .reply_to_action(tool, action, params, &caller.ctx());
                let params = if params.is_empty() { "{}" } else { params };
                let action = Value::String(action.clone());
                let arguments = format!("{{\"action\":{action},\"params\":{params}}}");
                check_call(&db, &conn, &before, tool, &arguments, reply, stats)?;
            }
            Step::Request {
                caller,
                tool,
                arguments,
            } => {
                let before = snapshot(&conn);
                let reply = db.host().reply(tool, arguments, &caller.ctx());
                check_call(&db, &conn, &before, tool, arguments, reply, stats)?;
            }
        }
    }
    nothing_handed_out(&db, seed)
}

/// After any calls, the plan awaiting approval still awaits it and hands
/// out nothing, even to an agent whose context names a person (unless a
/// call deleted it).
fn nothing_handed_out(db: &TestDb, seed: &Seed) -> Result<(), TestCaseError> {
    let ctx = CallContext {
        person: Some("fuzz-person".into()),
        ..CallContext::agent("fuzz-checker")
    };
    let params = json!({"list_id": seed.gated});
    match db.call(&ctx, "task_claims", "claim_next", &params) {
        Ok(out) => {
            let state = &out.data["waiting"]["approval"]["state"];
            if !out.data["task"].is_null() || state != "pending" {
                return Err(fail(format!(
                    "the plan awaiting approval answered claim_next with {}",
                    clip(&out.data.to_string())
                )));
            }
            Ok(())
        }
        Err(e) if e.code == ErrorCode::NotFound => Ok(()),
        Err(e) => Err(fail(format!(
            "claim_next on the plan awaiting approval: {}",
            clip(&e.message)
        ))),
    }
}

/// Random and mutated tool calls on the seeded database: no trap, only
/// contract errors, failed calls change nothing, successes keep the
/// invariants, replies and their renderings are safe text.
#[test]
fn calls_never_trap_and_failures_change_nothing() {
    if skip_on_postgres(
        "fuzz::calls_never_trap_and_failures_change_nothing",
        ON_POSTGRES,
    ) {
        return;
    }
    let seed = Seed::build();
    let stats = RefCell::new(Stats::default());
    let n = cases(CALL_CASES);
    let steps = prop::collection::vec(step(&seed), 1..=MAX_STEPS);
    run("calls", n, steps, |steps| run_case(&seed, &steps, &stats));
    let st = stats.into_inner();
    let ok: u64 = st.successes.values().sum();
    eprintln!(
        "calls: {} calls, {ok} succeeded ({} tool+actions), errors by code: {:?}",
        st.calls,
        st.successes.len(),
        st.errors
    );
    eprintln!("calls: successes: {:?}", st.successes);
    // Inputs that never get past validation would prove little.
    assert!(
        ok * 10 >= st.calls,
        "fewer than 1 call in 10 succeeded: the generators are off"
    );
}

/// Any style of ToolReply and ToolError, as a host could hand them over.
fn any_reply(ids: Vec<String>) -> impl Strategy<Value = ToolReply> {
    let codes = select(vec![
        ErrorCode::InvalidParams,
        ErrorCode::UnknownAction,
        ErrorCode::NotFound,
        ErrorCode::Forbidden,
        ErrorCode::AgentRequired,
        ErrorCode::Conflict,
        ErrorCode::OutcomeRequired,
        ErrorCode::VerificationRequired,
        ErrorCode::Cycle,
        ErrorCode::Storage,
        ErrorCode::Internal,
    ]);
    let error =
        (codes, nasty_string(), nasty_string()).prop_map(|(code, message, hint)| ToolError {
            code,
            message,
            hint,
        });
    let outcome = prop_oneof![nasty_string().prop_map(Ok), error.prop_map(Err),];
    (nasty_string(), nasty_value(ids), outcome).prop_map(|(text, data, outcome)| ToolReply {
        text,
        structured: raw_text(&data),
        outcome,
    })
}

/// A tool+action: mostly a published pair, sometimes any text.
fn any_names() -> impl Strategy<Value = (String, String)> {
    let pairs: Vec<(String, String)> = tool_actions()
        .iter()
        .flat_map(|(t, acts)| acts.iter().map(|a| (t.to_string(), a.to_string())))
        .collect();
    prop_oneof![
        4 => select(pairs),
        1 => (nasty_string(), nasty_string()),
    ]
}

/// Result-shaped data: a real result of the seed with hostile values
/// put in, or any JSON at all.
fn any_data(samples: Vec<Value>, ids: Vec<String>) -> impl Strategy<Value = String> {
    let v = nasty_value(ids);
    let planted = (
        select(samples),
        prop::collection::vec((any::<prop::sample::Index>(), v.clone()), 1..4),
    )
        .prop_map(|(mut data, changes)| {
            for (i, value) in changes {
                plant(&mut data, i, value);
            }
            raw_text(&data)
        });
    prop_oneof![3 => planted, 1 => v.prop_map(|v| raw_text(&v)), 1 => nasty_string()]
}

/// Replaces the i-th node (depth first) of `data` with `value`.
fn plant(data: &mut Value, i: prop::sample::Index, value: Value) {
    fn count(v: &Value) -> usize {
        1 + match v {
            Value::Array(a) => a.iter().map(count).sum(),
            Value::Object(o) => o.values().map(count).sum(),
            _ => 0,
        }
    }
    fn nth<'a>(v: &'a mut Value, n: &mut usize) -> Option<&'a mut Value> {
        if *n == 0 {
            return Some(v);
        }
        *n -= 1;
        match v {
            Value::Array(a) => a.iter_mut().find_map(|c| nth(c, n)),
            Value::Object(o) => o.values_mut().find_map(|c| nth(c, n)),
            _ => None,
        }
    }
    // Never the root: a renderer is always given an object at the top.
    let total = count(data);
    if total > 1 {
        let mut n = 1 + i.index(total - 1);
        if let Some(slot) = nth(data, &mut n) {
            *slot = value;
        }
    }
}

/// Real results of every action on the seed, as the renderers' sample
/// shapes (with every field a real reply carries).
fn sample_results(seed: &Seed) -> Vec<Value> {
    let db = seed.case();
    let (main, task) = (&seed.lists[0], &seed.tasks[3]);
    let calls = [
        ("task_lists", "create", json!({"name": "n"})),
        ("task_lists", "find", json!({})),
        (
            "task_lists",
            "get",
            json!({"list_id": main, "include_times": true}),
        ),
        (
            "task_items",
            "create",
            json!({"list_id": main, "title": "t", "depends_on": [seed.tasks[0]]}),
        ),
        (
            "task_items",
            "add_many",
            json!({"list_id": main, "tasks": [{"title": "a"}]}),
        ),
        (
            "task_items",
            "update",
            json!({"task_id": task, "notes": "n"}),
        ),
        (
            "task_items",
            "reorder",
            json!({"list_id": main, "task_ids": [task]}),
        ),
        ("task_claims", "claim_next", json!({"list_id": main})),
        (
            "task_claims",
            "claim_next",
            json!({"list_id": seed.lists[1], "agent_id": "builder-3"}),
        ),
        // Closed again, so that the list can be deleted below.
        (
            "task_items",
            "update",
            json!({"task_id": seed.tasks[6], "status": "done", "outcome": "o", "agent_id": "builder-3"}),
        ),
        ("task_claims", "release_expired", json!({})),
        ("task_audit", "get", json!({"list_id": main})),
        ("task_items", "delete", json!({"task_id": task})),
        ("task_lists", "delete", json!({"list_id": seed.lists[1]})),
        ("task_help", "workflow", json!({})),
    ];
    calls
        .iter()
        .map(|(t, a, p)| db.ok(super_agent(p), t, a, p.clone()))
        .collect()
}

/// The seed owner unless the params name their agent.
fn super_agent(p: &Value) -> &str {
    p["agent_id"].as_str().unwrap_or(OWNER)
}

/// One renderer input.
#[derive(Clone, Debug)]
enum Render {
    Result(String, String, String),
    Call(String, String, String),
    Reply(String, String, ToolReply),
    Error(ToolError),
}

/// The renderers, given any data: never a trap, never a raw control or
/// invisible character in a span.
#[test]
fn renderers_never_trap_nor_emit_controls() {
    if skip_on_postgres("fuzz::renderers_never_trap_nor_emit_controls", ON_POSTGRES) {
        return;
    }
    let seed = Seed::build();
    let samples = sample_results(&seed);
    let db = seed.case();
    let ids = seed.ids.clone();
    let input = prop_oneof![
        3 => (any_names(), any_data(samples, ids.clone())).prop_map(|((t, a), d)| Render::Result(t, a, d)),
        2 => (any_names(), nasty_value(ids.clone())).prop_map(|((t, a), p)| Render::Call(t, a, raw_text(&p))),
        2 => (any_names(), nasty_value(ids.clone()), any_reply(ids.clone())).prop_map(|((t, a), p, r)| {
            let args = raw_text(&json!({"action": a, "params": p}));
            Render::Reply(t, args, r)
        }),
        1 => any_reply(ids).prop_filter_map("an error", |r| r.outcome.err()).prop_map(Render::Error),
    ];
    run("renderers", cases(RENDER_CASES), input, |input| {
        let mut host = db.host();
        let (what, lines) = match &input {
            Render::Result(t, a, d) => ("render_result", host.render_result(t, a, d)),
            Render::Call(t, a, p) => ("render_call", host.render_call(t, a, p)),
            Render::Reply(t, args, r) => ("render_reply", host.render_reply(t, args, r)),
            Render::Error(e) => ("render_error", host.render_error(e)),
        };
        let lines = lines.map_err(|e| fail(format!("{what} trapped: {e}")))?;
        check_lines(&lines, what).map_err(fail)
    });
}

/// One view input.
#[derive(Clone, Debug)]
enum View {
    Widget(CallContext, bool, u32, Option<String>),
    Command(String, String, CallContext, u32, bool),
    Complete(String, String, CallContext),
}

/// The views, given any context, width, list id, command and arguments:
/// never a trap, never a raw control or invisible character.
#[test]
fn views_never_trap_nor_emit_controls() {
    if skip_on_postgres("fuzz::views_never_trap_nor_emit_controls", ON_POSTGRES) {
        return;
    }
    let seed = Seed::build();
    let db = seed.case();
    let commands: Vec<String> = db
        .host()
        .commands()
        .expect("commands")
        .into_iter()
        .map(|c| c.name)
        .collect();
    let ids = seed.ids.clone();
    let ctx = (
        prop_oneof![
            4 => select(&["owner", "builder-1", "builder-2"][..]).prop_map(|a| Some(a.to_string())),
            1 => Just(None),
            1 => nasty_string().prop_map(Some),
        ],
        prop::option::of(nasty_string()),
        prop::option::of(nasty_string()),
    )
        .prop_map(|(agent_id, workspace, thread)| CallContext {
            agent_id,
            agent_pinned: false,
            workspace,
            thread,
            person: None,
        });
    let width = prop_oneof![4 => 0u32..300, 1 => select(&[0u32, 1, 2, 5, 10_000, u32::MAX][..])];
    let name = prop_oneof![4 => select(commands), 1 => nasty_string()];
    let args = prop_oneof![
        2 => select(ids.clone()),
        1 => select(ids.clone()).prop_map(|id| format!("{id} full")),
        1 => select(ids.clone()).prop_map(|id| format!("{id} bypass because \u{1b}[31m")),
        1 => Just("full".to_string()),
        2 => nasty_string(),
    ];
    let input = prop_oneof![
        2 => (ctx.clone(), any::<bool>(), width.clone(), prop::option::of(select(ids))).prop_map(|(c, full, w, l)| View::Widget(c, full, w, l)),
        3 => (name.clone(), args.clone(), ctx.clone(), width, any::<bool>()).prop_map(|(n, a, c, w, y)| View::Command(n, a, c, w, y)),
        1 => (name, args, ctx).prop_map(|(n, a, c)| View::Complete(n, a, c)),
    ];
    run("views", cases(VIEW_CASES), input, |input| {
        let mut host = db.host();
        match &input {
            View::Widget(ctx, full, width, list_id) => {
                let view = WidgetView {
                    mode: if *full {
                        WidgetMode::Full
                    } else {
                        WidgetMode::Compact
                    },
                    width: *width,
                    list_id: list_id.clone(),
                    every_list: false,
                };
                let lines = host
                    .widget(ctx, &view)
                    .map_err(|e| fail(format!("widget trapped: {e}")))?;
                check_lines(&lines, "widget").map_err(fail)
            }
            View::Command(name, args, ctx, width, yes) => {
                let effect = host
                    .run_command(name, args, ctx, *width, *yes)
                    .map_err(|e| fail(format!("run_command trapped: {e}")))?;
                match effect {
                    CommandEffect::Show(out) => check_lines(&out.lines, "command output"),
                    CommandEffect::SetWidget(change) => check_lines(&change.lines, "widget change"),
                    CommandEffect::Confirm(c) => checks::safe(&c.title, "confirm title")
                        .and_then(|()| checks::safe(&c.message, "confirm message")),
                    CommandEffect::Pick(choice) => choice
                        .options
                        .iter()
                        .try_for_each(|o| checks::safe(&o.label, "pick label")),
                }
                .map_err(fail)
            }
            View::Complete(name, prefix, ctx) => {
                let done = host
                    .complete(name, prefix, ctx)
                    .map_err(|e| fail(format!("complete trapped: {e}")))?;
                done.iter()
                    .try_for_each(|c| checks::safe(&c.label, "completion label"))
                    .map_err(fail)
            }
        }
    });
}

/// The error checks themselves refuse what they must (so a green run
/// means something): a trap's `internal`, raw escapes, multi-line text.
#[test]
fn the_checks_refuse_bad_errors() {
    if skip_on_postgres("fuzz::the_checks_refuse_bad_errors", ON_POSTGRES) {
        return;
    }
    let e = |code, message: &str| ToolError {
        code,
        message: message.into(),
        hint: String::new(),
    };
    assert!(check_error(&e(ErrorCode::Internal, "the component trapped")).is_err());
    assert!(check_error(&e(ErrorCode::Storage, "disk full")).is_err());
    assert!(check_error(&e(ErrorCode::InvalidParams, "")).is_err());
    assert!(check_error(&e(ErrorCode::InvalidParams, "two\nlines")).is_err());
    assert!(check_error(&e(ErrorCode::InvalidParams, "esc \u{1b}[2J")).is_err());
    assert!(check_error(&e(ErrorCode::InvalidParams, &"x".repeat(5_000))).is_err());
    assert!(check_error(&e(ErrorCode::NotFound, "list_x does not exist")).is_ok());
}

/// The snapshot sees a committed change, and each invariant query sees a
/// database broken on purpose (so a green run means something).
#[test]
fn the_snapshot_and_invariants_see_what_they_must() {
    if skip_on_postgres(
        "fuzz::the_snapshot_and_invariants_see_what_they_must",
        ON_POSTGRES,
    ) {
        return;
    }
    let seed = Seed::build();
    let db = seed.case();
    let conn = raw(&db);
    let before = snapshot(&conn);
    assert_eq!(broken_invariant(&conn, db.clock.now_ms()), None);
    db.update(OWNER, json!({"task_id": seed.tasks[3], "notes": "changed"}));
    assert_ne!(snapshot(&conn), before, "a committed update must show");
    let now = db.clock.now_ms();
    let rw = rusqlite::Connection::open(&db.path).expect("open read-write");
    let breakages = [
        (
            "dense",
            "UPDATE tasks SET position = position + 1 WHERE id = ?1",
        ),
        (
            "in_progress",
            "UPDATE tasks SET claimed_by_agent_id = NULL WHERE id = ?2",
        ),
        (
            "claimer",
            "UPDATE tasks SET claim_token = 'claim_x' WHERE id = ?1",
        ),
        ("outcome", "UPDATE tasks SET outcome = ' ' WHERE id = ?3"),
        ("dependency on", "INSERT INTO task_deps VALUES (?1, ?1)"),
        (
            "approval changed by no person",
            "UPDATE lists SET approval = 'approved', approval_by = 'owner' WHERE id = ?6",
        ),
        (
            "approval changed by no person",
            "UPDATE lists SET approval_note = 'sneaky' WHERE id = ?6",
        ),
        (
            "approval event or a person's event",
            "UPDATE events SET agent_id = 'owner' WHERE kind = 'approved' AND list_id = ?7",
        ),
        (
            "not approved handed out",
            "UPDATE tasks SET started_at = 1 WHERE id = ?4",
        ),
        (
            "awaiting approval handed out",
            "UPDATE tasks SET started_at = 1 WHERE id = ?5",
        ),
        (
            "let go without its approval",
            "UPDATE tasks SET awaits_approval = 0 WHERE id = ?5",
        ),
        (
            "settled by no person",
            "UPDATE tasks SET ask = json_set(ask, '$.answer', 'yes') WHERE id = ?8",
        ),
        (
            "settled by no person",
            "UPDATE tasks SET review = json_set(review, '$.state', 'accepted') WHERE id = ?9",
        ),
        (
            "not blocked, or is held",
            "UPDATE tasks SET status = 'todo' WHERE id = ?9",
        ),
    ];
    for (what, sql) in breakages {
        rw.execute_batch("SAVEPOINT s").unwrap();
        let sql = sql
            .replace("?1", &format!("'{}'", seed.tasks[3]))
            .replace("?2", &format!("'{}'", seed.tasks[0]))
            .replace("?3", &format!("'{}'", seed.tasks[1]))
            .replace("?4", &format!("'{}'", seed.tasks[8]))
            .replace("?5", &format!("'{}'", seed.tasks[11]))
            .replace("?6", &format!("'{}'", seed.gated))
            .replace("?7", &format!("'{}'", seed.lists[5]))
            .replace("?8", &format!("'{}'", seed.tasks[12]))
            .replace("?9", &format!("'{}'", seed.tasks[13]));
        assert_eq!(rw.execute(&sql, []).unwrap(), 1, "{sql}");
        // On the writing connection: the change is not committed.
        let broken = broken_invariant(&rw, now).unwrap_or_default();
        rw.execute_batch("ROLLBACK TO s; RELEASE s").unwrap();
        assert!(broken.contains(what), "{what}: not seen ({broken:?})");
    }
}
