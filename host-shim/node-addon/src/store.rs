//! The `store` import: one backend connection per [`Store`], one
//! transaction at a time, for one call at a time. The worker that runs the
//! component wraps each call in `beginCall` / `endCall`, exactly as the
//! wasmtime host does around an instance call.

use crate::convert::{SqlParam, SqlRows, from_rows, host_bug, store_error, to_values};
use napi::Env;
use napi::bindgen_prelude::BigInt;
use napi_derive::napi;
use std::time::Duration;
use tasklists_store::{BackendOptions, Deadline, Location, Session, TxId, limits, sql_budget};

/// How a [`Store`] is opened; a field left out takes every host's default.
#[napi(object)]
pub struct StoreOptions {
    /// How long a write waits for another process's lock before `busy`.
    pub busy_timeout_ms: Option<u32>,
    /// A query result larger than this many bytes is refused.
    pub max_result_bytes: Option<u32>,
}

type Result<T> = napi::Result<T, String>;

/// One connection to the store the component reads and writes.
#[napi]
pub struct Store {
    backend: Session,
    deadline: Deadline,
    /// Test-only: how long the next commit sleeps before and after its
    /// SQL COMMIT (see [`Store::delay_next_commit`]).
    commit_delay: Option<(Duration, Duration)>,
}

#[napi]
impl Store {
    /// A store at `location`: a database file path (created with its
    /// parent directories by the first transaction that needs it), or a
    /// PostgreSQL connection string (a `postgresql://` URL or libpq
    /// `key=value` words; the database must exist). Nothing connects yet.
    #[napi(constructor)]
    pub fn new(location: String, options: Option<StoreOptions>) -> Self {
        let options = options.unwrap_or(StoreOptions {
            busy_timeout_ms: None,
            max_result_bytes: None,
        });
        let deadline = Deadline::new();
        let backend = Location::from(location.as_str()).open(BackendOptions {
            busy_timeout: options
                .busy_timeout_ms
                .map_or(limits::DEFAULT_BUSY_TIMEOUT, |ms| {
                    Duration::from_millis(u64::from(ms))
                }),
            deadline: deadline.clone(),
            // As in the wasmtime host: a result that could never be
            // copied into the component's capped memory is refused.
            max_result_bytes: options
                .max_result_bytes
                .map_or(limits::DEFAULT_MEMORY_LIMIT_BYTES, |n| n as usize),
        });
        Store {
            backend,
            deadline,
            commit_delay: None,
        }
    }

    /// The SQL dialect the store speaks, fixed for its lifetime: `sqlite`
    /// or `postgres`, as jco gives the WIT `sql-dialect` enum (the
    /// component's `dialect` import).
    #[napi(ts_return_type = "SqlDialect")]
    pub fn dialect(&self) -> String {
        self.backend.dialect().wit_case().to_string()
    }

    /// Whether the store keeps the clock every host of it reads (a
    /// database server several machines share): the component's
    /// `clock.store-clock`, asked of the backend rather than guessed from
    /// the dialect.
    #[napi]
    pub fn keeps_clock(&self) -> bool {
        self.backend.keeps_clock()
    }

    /// The store's own clock, in milliseconds since the Unix epoch (UTC):
    /// a database server's time, which every machine sharing it agrees on,
    /// so leases never depend on one machine's clock; `null` for a local
    /// store, whose clock is the host's (`nowMs`).
    #[napi]
    pub fn now_ms(&mut self) -> Option<BigInt> {
        self.backend.now_ms().map(BigInt::from)
    }

    /// Opens the connection now, for a host that must fail at once on a
    /// bad database; throws with the reason (`code` `open`).
    #[napi]
    pub fn connect(&mut self) -> Result<()> {
        self.backend
            .connect()
            .map_err(|e| napi::Error::new("open".to_string(), e.to_string()))
    }

    /// Starts a tool call limited to `time_limit_ms`: waits for locks and
    /// statements stop a little before it, so the component can still
    /// roll back and answer. The host checks the limit; whatever arrives
    /// here never panics: NaN or less is no time, more than the longest
    /// delay a Node timer keeps (2^31-1 ms), infinity included, is that.
    #[napi]
    pub fn begin_call(&mut self, time_limit_ms: f64) {
        let ms = if time_limit_ms.is_nan() {
            0.0
        } else {
            time_limit_ms.clamp(0.0, f64::from(i32::MAX))
        };
        let limit = Duration::from_secs_f64(ms / 1000.0);
        self.deadline.start(sql_budget(limit));
        self.backend.begin_call();
    }

    /// Ends the call: rolls back a transaction left open and says what it
    /// was (`true` a write, `false` a read, `null` nothing).
    #[napi]
    pub fn end_call(&mut self) -> Option<bool> {
        self.deadline.clear();
        self.backend.end_call()
    }

    /// What the writes of the call in progress (or just ended) came to,
    /// as jco gives the WIT `write-state` enum: `not-applied`, `applied`,
    /// or `may-be-applied` (a COMMIT whose outcome is unknown).
    #[napi(ts_return_type = "WriteState")]
    pub fn write_state(&self) -> String {
        self.backend.write_state().wit_case().to_string()
    }

    /// Test-only: the next commit sleeps `before_ms` before sending its
    /// SQL COMMIT and `after_ms` after it returned, here in native code
    /// where terminating the worker cannot interrupt it, as a slow disk
    /// or server would, so a test can land a call's deadline inside the
    /// commit. Fires once.
    #[napi]
    pub fn delay_next_commit(&mut self, before_ms: u32, after_ms: u32) {
        let ms = |n: u32| Duration::from_millis(u64::from(n));
        self.commit_delay = Some((ms(before_ms), ms(after_ms)));
    }

    /// Opens a transaction (`write` takes the write lock at once); returns
    /// its handle.
    #[napi]
    pub fn begin(&mut self, write: bool) -> Result<i64> {
        let id = self.backend.begin(write).map_err(store_error)?;
        Ok(handle(id))
    }

    /// Runs a statement; returns the rows it changed (a `u64`, as BigInt).
    #[napi]
    pub fn execute(&mut self, tx: i64, sql: String, params: Vec<SqlParam>) -> Result<BigInt> {
        let params = to_values(params).map_err(host_bug)?;
        let changed = self
            .backend
            .execute(tx_id(tx), &sql, &params)
            .map_err(store_error)?;
        Ok(BigInt::from(changed))
    }

    /// Runs a statement that returns rows.
    #[napi]
    pub fn query<'env>(
        &mut self,
        env: &'env Env,
        tx: i64,
        sql: String,
        params: Vec<SqlParam>,
    ) -> Result<SqlRows<'env>> {
        let params = to_values(params).map_err(host_bug)?;
        let rows = self
            .backend
            .query(tx_id(tx), &sql, &params)
            .map_err(store_error)?;
        from_rows(env, rows).map_err(host_bug)
    }

    /// Sends a statement whose answer the component does not wait for:
    /// with the next statement or the commit, in its round trip (the WIT
    /// `pipeline`).
    #[napi]
    pub fn pipeline(&mut self, tx: i64, sql: String, params: Vec<SqlParam>) -> Result<()> {
        let params = to_values(params).map_err(host_bug)?;
        self.backend
            .pipeline(tx_id(tx), &sql, &params)
            .map_err(store_error)
    }

    /// Commits and ends the transaction.
    #[napi]
    pub fn commit(&mut self, tx: i64) -> Result<()> {
        let Some((before, after)) = self.commit_delay.take() else {
            return self.backend.commit(tx_id(tx)).map_err(store_error);
        };
        std::thread::sleep(before);
        let result = self.backend.commit(tx_id(tx));
        std::thread::sleep(after);
        result.map_err(store_error)
    }

    /// Runs a statement that returns rows, then commits and ends the
    /// transaction, in one round trip where the store can (the WIT
    /// `query-then-commit`).
    #[napi]
    pub fn query_then_commit<'env>(
        &mut self,
        env: &'env Env,
        tx: i64,
        sql: String,
        params: Vec<SqlParam>,
    ) -> Result<SqlRows<'env>> {
        let params = to_values(params).map_err(host_bug)?;
        let (before, after) = self.commit_delay.take().unwrap_or_default();
        std::thread::sleep(before);
        let result = self.backend.query_then_commit(tx_id(tx), &sql, &params);
        std::thread::sleep(after);
        from_rows(env, result.map_err(store_error)?).map_err(host_bug)
    }

    /// The component dropped the handle: an unfinished transaction rolls
    /// back.
    #[napi]
    pub fn abandon(&mut self, tx: i64) {
        self.backend.abandon(tx_id(tx));
    }
}

/// Transaction ids count up from 0 per connection, far below 2^53, so a
/// JavaScript number carries them exactly.
fn handle(id: TxId) -> i64 {
    i64::try_from(id).unwrap_or(i64::MAX)
}

/// A handle back to its id; a negative one names no transaction.
fn tx_id(handle: i64) -> TxId {
    TxId::try_from(handle).unwrap_or(TxId::MAX)
}
