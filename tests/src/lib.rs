//! Shared helpers for the integration tests.
//!
//! Every test goes through the real component (compiled from `guest/`,
//! embedded in `tasklists-host`, run by wasmtime) against a real store: a
//! SQLite file in a temporary directory, or with `TASKLISTS_TEST_STORE=postgres`
//! a fresh PostgreSQL database ([`StoreKind`]). Time comes from a [`ManualClock`] the test
//! steps, so leases expire without sleeping.
//!
//! ```no_run
//! use tasklists_tests::*;
//! let db = TestDb::new();
//! let list = db.list("planner", "Release");
//! let ids = db.add(&list, &["one", "two"]);
//! let c = db.ok("builder-1", "task_claims", "claim_next", json!({"list_id": list}));
//! assert_eq!(s(&c, "/task/id"), ids[0]);
//! ```

use std::cell::{RefCell, RefMut};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

pub use serde_json::{Value, json};
pub use store_under_test::{
    FreshStore, StoreKind, WriteLock, connect as pg_connect, skip_on_postgres, with_database,
};
pub use tasklists_host::{
    CallContext, Clock, ErrorCode, FaultInjection, Host, HostConfig, HostError, Line, Location,
    ManualClock, OpenError, Span, Style, SystemClock, ToolError, ToolOutput, ToolReply,
};

mod alone;
mod latency_proxy;
mod person;
mod store_under_test;

pub use alone::in_own_process;
pub use latency_proxy::LatencyProxy;

pub use person::*;

/// The test clock's start: `2026-11-30T12:00:00.000Z`.
pub const T0: i64 = 1_796_040_000_000;

/// The tools in catalogue order, each with its actions in published
/// order, as the component publishes them (its catalogue, read once per
/// process: the order of the component's registry). `tests/catalogue.rs`
/// pins the list.
pub fn tool_actions() -> &'static [(&'static str, Vec<&'static str>)] {
    static PUBLISHED: std::sync::OnceLock<Vec<(&'static str, Vec<&'static str>)>> =
        std::sync::OnceLock::new();
    PUBLISHED.get_or_init(|| {
        let dir = tempfile::tempdir().expect("a temporary directory");
        let mut host = Host::open(config(dir.path().join("catalogue.db"))).expect("a host");
        let leak = |s: &str| -> &'static str { Box::leak(s.to_owned().into_boxed_str()) };
        host.catalogue()
            .expect("the catalogue")
            .iter()
            .map(|tool| {
                let schema = tool.schema();
                let actions = schema["properties"]["action"]["enum"]
                    .as_array()
                    .map(|a| a.iter().filter_map(Value::as_str).map(leak).collect())
                    .unwrap_or_default();
                (leak(&tool.name), actions)
            })
            .collect()
    })
}

/// Where the compiled component is cached for every test process (and the
/// race workers), so only the first process of a run pays the compilation.
pub fn cache_dir() -> PathBuf {
    std::env::temp_dir().join("tasklists-tests-cache")
}

/// A host config for the store at `location` (a path is an SQLite file)
/// with the shared compile cache.
pub fn config(location: impl Into<Location>) -> HostConfig {
    HostConfig::new(location).with_cache_dir(cache_dir())
}

/// A call context with this agent as the host default identity.
pub fn ctx(agent: &str) -> CallContext {
    CallContext::agent(agent)
}

/// A call context without any identity.
pub fn anon() -> CallContext {
    CallContext::default()
}

/// A fresh store of the suite's backend ([`StoreKind`]: an SQLite file, or
/// a PostgreSQL database), a host on it and the clock that host reads.
pub struct TestDb {
    /// The SQLite file (on PostgreSQL a path that names nothing: a test
    /// that handles the file itself is an SQLite test).
    pub path: PathBuf,
    /// The host's clock; step it with [`TestDb::advance`].
    pub clock: ManualClock,
    host: RefCell<Host>,
    /// The store, removed on drop (after the host, declared before it).
    pub store: FreshStore,
}

impl Default for TestDb {
    fn default() -> Self {
        Self::new()
    }
}

impl TestDb {
    /// A fresh database with the clock at [`T0`].
    pub fn new() -> Self {
        Self::with_config(|c| c)
    }

    /// A fresh database whose host config is adjusted by `f` (fault
    /// injection, timeouts, limits).
    pub fn with_config(f: impl FnOnce(HostConfig) -> HostConfig) -> Self {
        Self::on(FreshStore::new(), f)
    }

    /// A fresh SQLite file, whatever the suite's backend: for fixtures
    /// that are copied as files.
    pub fn sqlite() -> Self {
        Self::on(FreshStore::sqlite(), |c| c)
    }

    /// A host on `store` (adjusted by `f`) with the clock at [`T0`].
    pub fn on(store: FreshStore, f: impl FnOnce(HostConfig) -> HostConfig) -> Self {
        let clock = ManualClock::new(T0);
        let host = Host::open(f(config(store.location.clone()).with_clock(clock.shared())))
            .expect("open host");
        TestDb {
            path: store
                .file
                .clone()
                .unwrap_or_else(|| store.dir.path().join("not-sqlite")),
            clock,
            host: RefCell::new(host),
            store,
        }
    }

    /// A copy of the database file at `path` (closed, WAL checkpointed) in
    /// a fresh directory, with a host on it and the clock at `now_ms`:
    /// for tests that share a large fixture built once (SQLite only).
    pub fn copy_of(path: &Path, now_ms: i64) -> Self {
        let store = FreshStore::sqlite();
        let copy = store.file.clone().expect("an SQLite store");
        std::fs::copy(path, &copy).expect("copy the fixture database");
        let clock = ManualClock::new(now_ms);
        let host = Host::open(config(&copy).with_clock(clock.shared())).expect("open host");
        TestDb {
            path: copy,
            clock,
            host: RefCell::new(host),
            store,
        }
    }

    /// The host (for `catalogue`, renderers, fault injection, timeouts).
    pub fn host(&self) -> RefMut<'_, Host> {
        self.host.borrow_mut()
    }

    /// Where the store is, for another host.
    pub fn location(&self) -> Location {
        self.store.location.clone()
    }

    /// A second, independent host (its own connection) on the same store and clock.
    pub fn open_another(&self) -> Host {
        Host::open(config(self.location()).with_clock(self.clock.shared()))
            .expect("open second host")
    }

    /// Replaces the host with a fresh one on the same store (drops the old
    /// connection first): what a restarted process sees.
    pub fn reopen(&self) {
        let mut slot = self.host.borrow_mut();
        let fresh = Host::open(config(self.location()).with_clock(self.clock.shared()))
            .expect("reopen host");
        *slot = fresh;
    }

    /// Every row of every table, plus the schema version: two equal dumps
    /// mean nothing was changed ([`FreshStore::dump`]).
    pub fn dump(&self) -> String {
        self.store.dump()
    }

    /// Drops the host (closing its connection, which checkpoints the WAL
    /// into the file) and hands back the store, file and clock.
    pub fn close(self) -> (FreshStore, PathBuf, ManualClock) {
        drop(self.host);
        (self.store, self.path, self.clock)
    }

    /// Moves the clock forward by `secs` seconds.
    pub fn advance(&self, secs: i64) {
        self.clock.advance_ms(secs * 1000);
    }

    /// Moves the clock forward by `ms` milliseconds.
    pub fn advance_ms(&self, ms: i64) {
        self.clock.advance_ms(ms);
    }

    /// The clock's time as the contract formats it.
    pub fn now(&self) -> String {
        fmt_ms(self.clock.now_ms())
    }

    /// The clock's time plus `secs`, formatted.
    pub fn now_plus(&self, secs: i64) -> String {
        fmt_ms(self.clock.now_ms() + secs * 1000)
    }

    /// Any call: `params` is sent as JSON text (`Value::Null` sends `""`).
    pub fn call(
        &self,
        ctx: &CallContext,
        tool: &str,
        action: &str,
        params: &Value,
    ) -> Result<ToolOutput, ToolError> {
        let text = if params.is_null() {
            String::new()
        } else {
            params.to_string()
        };
        self.host.borrow_mut().call(tool, action, &text, ctx)
    }

    /// The component's reply to a call, as an agent receives it.
    pub fn reply(&self, ctx: &CallContext, tool: &str, action: &str, params: &Value) -> ToolReply {
        let text = if params.is_null() {
            String::new()
        } else {
            params.to_string()
        };
        self.host
            .borrow_mut()
            .reply_to_action(tool, action, &text, ctx)
            .expect("the component runs")
    }

    /// A call with raw params text (broken JSON, huge payloads).
    pub fn call_raw(
        &self,
        ctx: &CallContext,
        tool: &str,
        action: &str,
        params: &str,
    ) -> Result<ToolOutput, ToolError> {
        self.host.borrow_mut().call(tool, action, params, ctx)
    }

    /// A call in the contract's request convention.
    pub fn call_json(
        &self,
        ctx: &CallContext,
        tool: &str,
        request: &str,
    ) -> Result<ToolOutput, ToolError> {
        self.host.borrow_mut().call_json(request, tool, ctx)
    }

    /// A call as `agent` (host default identity) that must succeed; its output.
    #[track_caller]
    pub fn out(&self, agent: &str, tool: &str, action: &str, params: Value) -> ToolOutput {
        match self.call(&ctx(agent), tool, action, &params) {
            Ok(out) => out,
            Err(e) => panic!(
                "{agent}: {tool} {action} {params} failed: {:?} ({}) hint: {}",
                e.code, e.message, e.hint
            ),
        }
    }

    /// A call as `agent` that must succeed; its data.
    #[track_caller]
    pub fn ok(&self, agent: &str, tool: &str, action: &str, params: Value) -> Value {
        self.out(agent, tool, action, params).data.into_value()
    }

    /// A call as `agent` that must fail; its error.
    #[track_caller]
    pub fn err(&self, agent: &str, tool: &str, action: &str, params: Value) -> ToolError {
        match self.call(&ctx(agent), tool, action, &params) {
            Ok(out) => panic!(
                "{agent}: {tool} {action} {params} should have failed but returned {}",
                out.to_content_text()
            ),
            Err(e) => e,
        }
    }

    /// A call with a given context that must fail; its error.
    #[track_caller]
    pub fn err_ctx(&self, ctx: &CallContext, tool: &str, action: &str, params: Value) -> ToolError {
        match self.call(ctx, tool, action, &params) {
            Ok(out) => panic!(
                "{ctx:?}: {tool} {action} {params} should have failed but returned {}",
                out.to_content_text()
            ),
            Err(e) => e,
        }
    }

    /// A call with a given context that must succeed; its data.
    #[track_caller]
    pub fn ok_ctx(&self, ctx: &CallContext, tool: &str, action: &str, params: Value) -> Value {
        match self.call(ctx, tool, action, &params) {
            Ok(out) => out.data.into_value(),
            Err(e) => panic!(
                "{ctx:?}: {tool} {action} {params} failed: {:?} ({}) hint: {}",
                e.code, e.message, e.hint
            ),
        }
    }

    /// Creates a shared list named `name` as `agent`; its id.
    #[track_caller]
    pub fn list(&self, agent: &str, name: &str) -> String {
        let d = self.ok(agent, "task_lists", "create", json!({"name": name}));
        s(&d, "/list/id")
    }

    /// Adds tasks (titles, in order) to `list` as "planner"; their ids.
    #[track_caller]
    pub fn add(&self, list: &str, titles: &[&str]) -> Vec<String> {
        let tasks: Vec<Value> = titles.iter().map(|t| json!({"title": t})).collect();
        let d = self.ok(
            "planner",
            "task_items",
            "add_many",
            json!({"list_id": list, "tasks": tasks}),
        );
        strs(&d, "/tasks", "id")
    }

    /// Adds task objects to `list` as "planner" with `add_many`, in as
    /// many batches as the limits need (500 tasks, about 3 MiB of params
    /// each); their ids, in order.
    #[track_caller]
    pub fn add_tasks(&self, list: &str, tasks: &[Value]) -> Vec<String> {
        let mut ids = Vec::with_capacity(tasks.len());
        let mut batch: Vec<&Value> = Vec::new();
        let mut bytes = 0;
        for (i, task) in tasks.iter().enumerate() {
            bytes += task.to_string().len();
            batch.push(task);
            let next = tasks.get(i + 1).map_or(0, |t| t.to_string().len());
            if batch.len() == 500 || bytes + next > 3 << 20 || next == 0 {
                let d = self.ok(
                    "planner",
                    "task_items",
                    "add_many",
                    json!({"list_id": list, "tasks": batch}),
                );
                ids.extend(strs(&d, "/tasks", "id"));
                batch.clear();
                bytes = 0;
            }
        }
        ids
    }

    /// Creates a private list named `name` owned by `owner`; its id.
    #[track_caller]
    pub fn private_list(&self, owner: &str, name: &str) -> String {
        let d = self.ok(
            owner,
            "task_lists",
            "create",
            json!({"name": name, "visibility": "private"}),
        );
        s(&d, "/list/id")
    }

    /// `task_claims claim_next` on `list` as `agent` (default lease); its data.
    #[track_caller]
    pub fn claim(&self, agent: &str, list: &str) -> Value {
        self.ok(agent, "task_claims", "claim_next", json!({"list_id": list}))
    }

    /// `task_claims claim_next` on `list` as `agent` with `lease_seconds`; its data.
    #[track_caller]
    pub fn claim_lease(&self, agent: &str, list: &str, secs: i64) -> Value {
        self.ok(
            agent,
            "task_claims",
            "claim_next",
            json!({"list_id": list, "lease_seconds": secs}),
        )
    }

    /// `task_items update` as `agent` that must succeed; its data.
    #[track_caller]
    pub fn update(&self, agent: &str, params: Value) -> Value {
        self.ok(agent, "task_items", "update", params)
    }

    /// `task_lists get` of `list` as `agent`: its first page of tasks.
    #[track_caller]
    pub fn get(&self, agent: &str, list: &str) -> Value {
        self.ok(agent, "task_lists", "get", json!({"list_id": list}))
    }

    /// Every page of a paged read (`task_lists get`, `find`, `task_audit
    /// get`) as `agent` with `params`, following `next_cursor` to the end.
    #[track_caller]
    pub fn pages(&self, agent: &str, tool: &str, action: &str, params: Value) -> Vec<ToolOutput> {
        let mut out = Vec::new();
        let mut cursor: Option<String> = None;
        loop {
            let mut p = params.clone();
            if let Some(c) = &cursor {
                p["cursor"] = json!(c);
            }
            let page = self.out(agent, tool, action, p);
            cursor = page.data["next_cursor"].as_str().map(str::to_string);
            out.push(page);
            if cursor.is_none() {
                return out;
            }
        }
    }

    /// Every task of `list` as `agent` sees them through `task_lists get`
    /// with `params` (pages of 500), in page order.
    #[track_caller]
    pub fn all_tasks(&self, agent: &str, list: &str, params: Value) -> Vec<Value> {
        let mut p = params;
        p["list_id"] = json!(list);
        p["limit"] = json!(500);
        self.pages(agent, "task_lists", "get", p)
            .iter()
            .flat_map(|page| page.data["tasks"].as_array().expect("tasks").clone())
            .collect()
    }

    /// One task of `list` as `agent` sees it (deleted ones included), whole:
    /// the `get` row with its history times, plus the `list_id` the page's
    /// list gives.
    #[track_caller]
    pub fn task(&self, agent: &str, list: &str, task_id: &str) -> Value {
        let tasks = self.all_tasks(
            agent,
            list,
            json!({"include_deleted": true, "include_times": true}),
        );
        let mut task = tasks
            .into_iter()
            .find(|t| t["id"] == task_id)
            .unwrap_or_else(|| panic!("task {task_id} not in list {list}"));
        task["list_id"] = json!(list);
        task
    }

    /// Task ids of `list` in position order (non-deleted, every page).
    #[track_caller]
    pub fn order(&self, list: &str) -> Vec<String> {
        let tasks = self.all_tasks("planner", list, json!({}));
        for (i, t) in tasks.iter().enumerate() {
            assert_eq!(t["position"], json!(i + 1), "positions not dense");
        }
        tasks
            .iter()
            .map(|t| t["id"].as_str().expect("id").to_string())
            .collect()
    }

    /// Every audit event of `list` as `agent` sees them, newest first (all pages).
    #[track_caller]
    pub fn events(&self, agent: &str, list: &str) -> Vec<Value> {
        self.events_with(agent, json!({"list_id": list}))
    }

    /// Every audit event matching `params` (pages of 200), newest first.
    #[track_caller]
    pub fn events_with(&self, agent: &str, params: Value) -> Vec<Value> {
        let mut p = params;
        p["limit"] = json!(200);
        self.pages(agent, "task_audit", "get", p)
            .iter()
            .flat_map(|page| page.data["events"].as_array().expect("events").clone())
            .collect()
    }

    /// Everything observable about `list` through the tools (as its owner
    /// `agent`): the full `get` with deleted tasks, every audit event, and
    /// the `find` listing; plus the raw rows of every table.
    #[track_caller]
    pub fn snapshot(&self, agent: &str, list: &str) -> Value {
        json!({
            "get": self.ok(agent, "task_lists", "get", json!({"list_id": list, "include_deleted": true, "include_times": true, "limit": 500})),
            "audit": self.events(agent, list),
            "find": self.ok(agent, "task_lists", "find", json!({"include_deleted": true, "limit": 200})),
            "raw": self.dump(),
        })
    }
}

/// Every row of every table of the database at `path`, in a stable order,
/// plus `user_version`: two equal dumps mean nothing was changed.
pub fn dump(path: &Path) -> String {
    let conn =
        rusqlite::Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY)
            .expect("open read-only");
    let mut out = String::new();
    let version: i64 = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .expect("user_version");
    writeln!(out, "user_version={version}").unwrap();
    let mut tables: Vec<String> = conn
        .prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name")
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .map(Result::unwrap)
        .collect();
    tables.sort();
    for table in tables {
        writeln!(out, "[{table}]").unwrap();
        let mut stmt = conn
            .prepare(&format!("SELECT * FROM \"{table}\" ORDER BY 1"))
            .unwrap();
        let width = stmt.column_count();
        let mut rows = stmt.query([]).unwrap();
        while let Some(row) = rows.next().unwrap() {
            let cells: Vec<String> = (0..width)
                .map(|i| format!("{:?}", row.get_ref(i).unwrap()))
                .collect();
            writeln!(out, "{}", cells.join(" | ")).unwrap();
        }
    }
    out
}

/// The string at JSON pointer `ptr` of `v` (panics if absent).
#[track_caller]
pub fn s(v: &Value, ptr: &str) -> String {
    v.pointer(ptr)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("no string at {ptr} in {v}"))
        .to_string()
}

/// The integer at JSON pointer `ptr` of `v` (panics if absent).
#[track_caller]
pub fn int(v: &Value, ptr: &str) -> i64 {
    v.pointer(ptr)
        .and_then(Value::as_i64)
        .unwrap_or_else(|| panic!("no integer at {ptr} in {v}"))
}

/// The string field `key` of every object of the array at `ptr`.
#[track_caller]
pub fn strs(v: &Value, ptr: &str, key: &str) -> Vec<String> {
    v.pointer(ptr)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("no array at {ptr} in {v}"))
        .iter()
        .map(|o| {
            o[key]
                .as_str()
                .unwrap_or_else(|| panic!("no {key} in {o}"))
                .to_string()
        })
        .collect()
}

/// The `kind` of each event, in the order given.
pub fn kinds(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .map(|e| e["kind"].as_str().unwrap_or("?").to_string())
        .collect()
}

/// Asserts `err` has `code` and that its message contains every needle.
#[track_caller]
pub fn expect(err: &ToolError, code: ErrorCode, needles: &[&str]) {
    assert_eq!(
        err.code, code,
        "expected {:?} but got {:?}: {} (hint: {})",
        code, err.code, err.message, err.hint
    );
    for n in needles {
        assert!(
            err.message.contains(n),
            "{:?} message should contain {n:?}: {}",
            code,
            err.message
        );
    }
}

/// Formats ms since the epoch as the contract does: `2026-11-30T12:00:00.000Z`.
pub fn fmt_ms(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let rem = ms.rem_euclid(86_400_000);
    // Howard Hinnant's civil_from_days.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = if m <= 2 { y + 1 } else { y };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{:03}Z",
        rem / 3_600_000,
        rem / 60_000 % 60,
        rem / 1000 % 60,
        rem % 1000
    )
}

/// The plain text of rendered lines (spans joined, lines joined with `\n`).
pub fn plain(lines: &[Line]) -> String {
    lines
        .iter()
        .map(|l| l.iter().map(|s| s.text.as_str()).collect::<String>())
        .collect::<Vec<_>>()
        .join("\n")
}

/// How renderers shorten ids: `task_…3X5Z7B` (prefix, ellipsis, last 6).
pub fn short_id(id: &str) -> String {
    let (prefix, rest) = id.split_at(id.find('_').map_or(0, |i| i + 1));
    let tail: String = rest
        .chars()
        .rev()
        .take(6)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    format!("{prefix}…{tail}")
}

/// `target/<profile>/tasklists`: CARGO_BIN_EXE_ only names this crate's
/// binaries, so it is found from the test executable's own directory
/// (`target/<profile>/deps/`). Built by `cargo test --workspace`.
pub fn tasklists_binary() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let bin = exe
        .parent()
        .and_then(Path::parent)
        .map(|dir| dir.join("tasklists"))
        .unwrap();
    assert!(
        bin.is_file(),
        "{} is missing: build it with `cargo build --release -p tasklists` (cargo test --workspace does)",
        bin.display()
    );
    bin
}

/// Held for the whole of each test that needs the machine's cores to
/// itself: the 100,000-task scale tests (one call runs near its deadline)
/// and the races and torture tests (many processes at once). The suite is
/// one binary whose tests run side by side, so on a 2-core machine two of
/// these at once would slow each other past their time limits; they take
/// turns, while the light tests go on beside them.
pub fn whole_machine() -> std::sync::MutexGuard<'static, ()> {
    static CORES: std::sync::Mutex<()> = std::sync::Mutex::new(());
    // A test that failed holding it poisons it; the next one still runs.
    CORES
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_times_like_the_contract() {
        assert_eq!(fmt_ms(T0), "2026-11-30T12:00:00.000Z");
        assert_eq!(fmt_ms(0), "1970-01-01T00:00:00.000Z");
        assert_eq!(fmt_ms(1_795_003_200_123), "2026-11-18T12:00:00.123Z");
        assert_eq!(fmt_ms(951_782_400_000), "2000-02-29T00:00:00.000Z");
    }

    #[test]
    fn shortens_ids_like_the_renderers() {
        assert_eq!(short_id("task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B"), "task_…3X5Z7B");
    }
}
