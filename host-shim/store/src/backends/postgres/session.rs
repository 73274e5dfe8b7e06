//! One connection to the server: tokio-postgres on a current-thread
//! runtime of its own, which runs only while the backend waits for an
//! answer (`block_on`), so nothing runs in the background between calls.
//!
//! Driving the async client directly, rather than through the sync
//! `postgres` crate, lets every wait have a client-side limit too
//! (connecting with its TLS handshake and authentication, each statement):
//! a server that stops answering (stopped, partitioned away) costs the
//! call a typed error at its deadline, never a hang. The server enforces
//! the same deadline itself (`statement_timeout`, `lock_timeout`), a
//! little earlier, so it is normally the one that stops a statement and
//! the connection survives.
//!
//! Like the sync crate, this must not be used from inside another tokio
//! runtime's async context (the hosts call stores from plain threads).

use super::config::{ConnInfo, PgLocation, SslMode};
use super::errors::{Failure, chain, connect_reason};
use super::{search_path, tls};
use crate::OpenError;
use std::collections::HashMap;
use std::future::Future;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::task::JoinHandle;
use tokio_postgres::config::Host;
use tokio_postgres::{Client, Config, SimpleQueryMessage, Statement};
use tokio_postgres_rustls::MakeRustlsConnect;

/// How long connecting may take when the string says nothing
/// (`connect_timeout`) and no call's deadline is nearer.
pub(super) const DEFAULT_CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// The `application_name` the server shows for the store's connections
/// (in `pg_stat_activity`) unless the string names one.
const APPLICATION_NAME: &str = "tasklists";

/// Prepared statements kept per connection; the component uses a few
/// dozen distinct statements. Past this (ad-hoc SQL) the cache starts over.
const STATEMENT_CACHE_CAPACITY: usize = 256;

/// A queued statement's work on the server (its rows, if any, dropped):
/// the rows it changed.
pub(super) type Queued<'a> =
    std::pin::Pin<Box<dyn Future<Output = Result<u64, tokio_postgres::Error>> + 'a>>;

/// Which of the requests sent together failed first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// The BEGIN (its settings, the write lock, the clock).
    Begin,
    /// A statement queued with `pipeline`.
    Queued,
    /// The statement (or COMMIT) they went with.
    Work,
}

/// How long a goodbye (the protocol's Terminate) or a cancel request may
/// take before the connection is just closed.
const HANG_UP_LIMIT: Duration = Duration::from_millis(500);

/// A live connection and its prepared statements.
pub(super) struct Session {
    /// Always `Some` until dropped (taken out by `Drop`).
    runtime: Option<Runtime>,
    /// Always `Some` until dropped (taken out by `Drop`).
    client: Option<Client>,
    /// For cancel requests, which open a connection of their own.
    connector: MakeRustlsConnect,
    /// Why the connection task ended, once it has: a FATAL message the
    /// server sent while the client was idle (`pg_terminate_backend`, a
    /// shutdown) is only seen there.
    closed: Arc<Mutex<Option<String>>>,
    task: Option<JoinHandle<()>>,
    statements: HashMap<String, Statement>,
}

/// A connection attempt that failed: the error, and the server's SQLSTATE
/// when the server refused it (`3D000`: no such database).
#[derive(Debug)]
pub(super) struct ConnectError {
    pub(super) error: OpenError,
    pub(super) sqlstate: Option<String>,
}

impl From<OpenError> for ConnectError {
    fn from(error: OpenError) -> Self {
        ConnectError {
            error,
            sqlstate: None,
        }
    }
}

/// The driver's configuration for a parsed connection string.
fn driver_config(info: &ConnInfo) -> Result<Config, String> {
    // Everything but the password goes through the driver's own parser,
    // as key/value words (every value quoted, so none needs care here).
    let mut text = String::new();
    for (key, value) in &info.settings {
        text.push_str(key);
        text.push_str("='");
        for c in value.chars() {
            if c == '\'' || c == '\\' {
                text.push('\\');
            }
            text.push(c);
        }
        text.push_str("' ");
    }
    let mut config = if text.is_empty() {
        Config::new()
    } else {
        text.parse::<Config>().map_err(|e| chain(&e))?
    };
    if let Some(password) = &info.password {
        config.password(password);
    }
    if config.get_user().is_none() {
        return Err("it names no user (postgresql://USER@host/db, or user=…)".into());
    }
    if config.get_hosts().is_empty() && config.get_hostaddrs().is_empty() {
        return Err("it names no host (postgresql://user@HOST/db, or host=…)".into());
    }
    // PostgreSQL has no TLS on Unix sockets; libpq ignores sslmode there.
    #[cfg(unix)]
    let unix_only = config.get_hostaddrs().is_empty()
        && config
            .get_hosts()
            .iter()
            .all(|h| matches!(h, Host::Unix(_)));
    #[cfg(not(unix))]
    let unix_only = false;
    config.ssl_mode(match info.ssl_mode {
        _ if unix_only => tokio_postgres::config::SslMode::Disable,
        SslMode::Disable => tokio_postgres::config::SslMode::Disable,
        SslMode::Allow | SslMode::Prefer => tokio_postgres::config::SslMode::Prefer,
        SslMode::Require | SslMode::VerifyCa | SslMode::VerifyFull => {
            tokio_postgres::config::SslMode::Require
        }
    });
    if config.get_application_name().is_none() {
        config.application_name(APPLICATION_NAME);
    }
    Ok(config)
}

/// `connect_timeout` of the string (seconds; libpq's floor of 2), or the
/// default.
fn connect_timeout(info: &ConnInfo) -> Duration {
    match info
        .get("connect_timeout")
        .and_then(|t| t.trim().parse::<u64>().ok())
    {
        Some(secs) if secs > 0 => Duration::from_secs(secs.max(2)),
        _ => DEFAULT_CONNECT_TIMEOUT,
    }
}

impl Session {
    /// Connects to `location`, within `deadline` (what is left of the
    /// call, if one is in progress) and the string's `connect_timeout`.
    pub(super) fn open(
        location: &PgLocation,
        deadline: Option<Duration>,
    ) -> Result<Session, ConnectError> {
        let unusable = |reason: String| OpenError::ConnectionString {
            location: location.to_string(),
            reason: location.scrub(&reason),
        };
        let failed = |reason: String| OpenError::Server {
            location: location.to_string(),
            reason: location.scrub(&reason),
        };
        let info = location.info().map_err(|e| unusable(e.to_string()))?;
        let mut config = driver_config(info).map_err(unusable)?;
        let connector =
            tls::connector(info.ssl_mode, info.ssl_root_cert.as_deref()).map_err(failed)?;
        let own = connect_timeout(info);
        let limit = deadline
            .map_or(own, |left| left.min(own))
            .max(Duration::from_millis(1));
        // Per address too (several hosts, or a name with several).
        config.connect_timeout(limit);
        let runtime = tokio::runtime::Builder::new_current_thread()
            .enable_io()
            .enable_time()
            .build()
            .map_err(|e| failed(format!("cannot start the connection's runtime: {e}")))?;
        // The timer is made inside the runtime: it needs its clock.
        let connecting =
            async { tokio::time::timeout(limit, config.connect(connector.clone())).await };
        let (client, connection) = match runtime.block_on(connecting) {
            Ok(Ok(pair)) => pair,
            Ok(Err(e)) => {
                let mut reason = connect_reason(&e, location);
                if reason.contains("UnknownIssuer") {
                    reason.push_str(match &info.ssl_root_cert {
                        Some(_) => " (the server's certificate is not signed by sslrootcert)",
                        None => {
                            " (name the CA that signed the server's certificate with \
                             sslrootcert=/path/to/ca.pem)"
                        }
                    });
                }
                return Err(ConnectError {
                    error: failed(reason),
                    sqlstate: e.code().map(|c| c.code().to_string()),
                });
            }
            Err(_) => {
                let which = if limit < own {
                    "the call's time limit"
                } else {
                    "the connect timeout"
                };
                return Err(failed(format!(
                    "the server did not answer within {} ms ({which})",
                    limit.as_millis()
                ))
                .into());
            }
        };
        let closed = Arc::new(Mutex::new(None));
        let slot = Arc::clone(&closed);
        let task = runtime.spawn(async move {
            if let Err(e) = connection.await {
                let why = match e.as_db_error() {
                    Some(db) => format!("{} (SQLSTATE {})", db.message(), db.code().code()),
                    None => chain(&e),
                };
                *slot.lock().unwrap_or_else(PoisonError::into_inner) = Some(why);
            }
        });
        let session = Session {
            runtime: Some(runtime),
            client: Some(client),
            connector,
            closed,
            task: Some(task),
            statements: HashMap::new(),
        };
        // Before anything else runs on it: the component's names resolve
        // in its own schema only.
        search_path::pinned(session.simple(search_path::PIN, limit), limit).map_err(failed)?;
        Ok(session)
    }

    /// The client.
    pub(super) fn client(&self) -> &Client {
        self.client.as_ref().expect("present until dropped")
    }

    /// Waits for `work` at most `limit`.
    pub(super) fn run<T>(
        &self,
        limit: Duration,
        work: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<T, Failure> {
        let runtime = self.runtime.as_ref().expect("present until dropped");
        match runtime.block_on(async { tokio::time::timeout(limit, work).await }) {
            Ok(result) => result.map_err(Failure::Pg),
            Err(_) => Err(Failure::TimedOut),
        }
    }

    /// Waits for `work` at most `limit`, after `begin` (a simple query,
    /// when given) and the `queued` statements, all sent in the same round
    /// trip: every request is made before any answer is awaited, so the
    /// connection writes them together, and the server runs them in that
    /// order. The error says whose it was: the first to fail, in that
    /// order (after a failure the server runs nothing more of the
    /// transaction: the later ones fail as aborted).
    #[allow(clippy::type_complexity)] // One use, spelled out once.
    pub(super) fn run_after<T>(
        &self,
        limit: Duration,
        begin: Option<&str>,
        queued: Vec<Queued<'_>>,
        work: impl Future<Output = Result<T, tokio_postgres::Error>>,
    ) -> Result<(Option<Vec<SimpleQueryMessage>>, T), (Stage, Failure)> {
        if begin.is_none() && queued.is_empty() {
            return self
                .run(limit, work)
                .map(|value| (None, value))
                .map_err(|f| (Stage::Work, f));
        }
        let runtime = self.runtime.as_ref().expect("present until dropped");
        let client = self.client();
        let begin_future = async move {
            match begin {
                Some(sql) => client.simple_query(sql).await.map(Some),
                None => Ok(None),
            }
        };
        let waits_first = if begin.is_some() {
            Stage::Begin
        } else {
            Stage::Queued
        };
        // `join3` polls in order, and `in_order` its futures in order: the
        // requests are queued in the order they are listed.
        let all = futures_util::future::join3(begin_future, in_order(queued), work);
        match runtime.block_on(async { tokio::time::timeout(limit, all).await }) {
            Ok((Err(e), _, _)) => Err((Stage::Begin, Failure::Pg(e))),
            Ok((Ok(messages), queued, work)) => {
                if let Some(e) = queued.into_iter().find_map(Result::err) {
                    return Err((Stage::Queued, Failure::Pg(e)));
                }
                match work {
                    Ok(value) => Ok((messages, value)),
                    Err(e) => Err((Stage::Work, Failure::Pg(e))),
                }
            }
            // Most likely still waiting for a lock (the write lock with the
            // BEGIN, or a list's that a queued statement takes).
            Err(_) => Err((waits_first, Failure::TimedOut)),
        }
    }

    /// Runs `sql` (several statements, no parameters) in one round trip.
    pub(super) fn simple(
        &self,
        sql: &str,
        limit: Duration,
    ) -> Result<Vec<SimpleQueryMessage>, Failure> {
        self.run(limit, self.client().simple_query(sql))
    }

    /// The prepared statement for `sql`, from the cache or prepared now.
    pub(super) fn prepare(&mut self, sql: &str, limit: Duration) -> Result<Statement, Failure> {
        if let Some(statement) = self.statements.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self.run(limit, self.client().prepare(sql))?;
        if self.statements.len() >= STATEMENT_CACHE_CAPACITY {
            self.statements.clear();
        }
        self.statements.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }

    /// Forgets one prepared statement (it failed in a way that a fresh
    /// preparation may not: a changed table under a cached plan).
    pub(super) fn forget(&mut self, sql: &str) {
        self.statements.remove(sql);
    }

    /// Forgets every prepared statement (the schema changed).
    pub(super) fn forget_all(&mut self) {
        self.statements.clear();
    }

    /// Why the connection ended, if its task saw it end.
    pub(super) fn closed_reason(&self) -> Option<String> {
        self.closed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Asks the server to cancel what this connection is running (a
    /// statement the client stopped waiting for): it may hold the write
    /// lock. Best effort, on a connection of its own.
    pub(super) fn cancel(&self) {
        let token = self.client().cancel_token();
        let cancel = token.cancel_query(self.connector.clone());
        let _ = self.run(HANG_UP_LIMIT, cancel);
    }
}

/// Waits for all of `futures`, polling them in their order (so each one's
/// request is made after the one before it), and their results in order.
async fn in_order(mut futures: Vec<Queued<'_>>) -> Vec<Result<u64, tokio_postgres::Error>> {
    let mut results: Vec<Option<Result<u64, tokio_postgres::Error>>> =
        futures.iter().map(|_| None).collect();
    std::future::poll_fn(|cx| {
        let mut all = true;
        for (future, result) in futures.iter_mut().zip(results.iter_mut()) {
            if result.is_none() {
                match future.as_mut().poll(cx) {
                    std::task::Poll::Ready(value) => *result = Some(value),
                    std::task::Poll::Pending => all = false,
                }
            }
        }
        if all {
            std::task::Poll::Ready(())
        } else {
            std::task::Poll::Pending
        }
    })
    .await;
    results.into_iter().flatten().collect()
}

impl Drop for Session {
    /// Hangs up politely (the server then logs no "unexpected EOF"), unless
    /// this runs inside some tokio runtime, where blocking would panic.
    fn drop(&mut self) {
        drop(self.client.take());
        let Some(runtime) = self.runtime.take() else {
            return;
        };
        if tokio::runtime::Handle::try_current().is_ok() {
            runtime.shutdown_background();
            return;
        }
        if let Some(task) = self.task.take() {
            let _ = runtime.block_on(async { tokio::time::timeout(HANG_UP_LIMIT, task).await });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(text: &str) -> Result<Config, String> {
        driver_config(PgLocation::parse(text).info().unwrap())
    }

    #[test]
    fn the_driver_gets_everything_but_what_the_store_handles_itself() {
        let c =
            config("postgresql://agent:pw@db:6000/tasks?sslmode=verify-full&options=-c%20x%3D'1'")
                .unwrap();
        assert_eq!(c.get_user(), Some("agent"));
        assert_eq!(c.get_password(), Some(&b"pw"[..]));
        assert_eq!(c.get_dbname(), Some("tasks"));
        assert_eq!(c.get_ports(), &[6000]);
        assert_eq!(c.get_options(), Some("-c x='1'"));
        assert_eq!(c.get_application_name(), Some(APPLICATION_NAME));
        assert_eq!(c.get_ssl_mode(), tokio_postgres::config::SslMode::Require);
        let c = config("host=/tmp/pg user=u sslmode=require application_name=mine").unwrap();
        assert_eq!(
            c.get_ssl_mode(),
            tokio_postgres::config::SslMode::Disable,
            "a socket"
        );
        assert_eq!(c.get_application_name(), Some("mine"));
    }

    #[test]
    fn what_the_driver_cannot_use_is_said() {
        assert!(config("host=h").unwrap_err().contains("no user"));
        assert!(config("user=u").unwrap_err().contains("no host"));
        let e = config("host=h user=u sslcert=/x").unwrap_err();
        assert!(e.contains("sslcert"), "{e}");
    }

    #[test]
    fn connect_timeout_has_libpqs_floor_and_a_default() {
        let timeout = |text: &str| connect_timeout(PgLocation::parse(text).info().unwrap());
        assert_eq!(timeout("host=h connect_timeout=1"), Duration::from_secs(2));
        assert_eq!(
            timeout("host=h connect_timeout=30"),
            Duration::from_secs(30)
        );
        assert_eq!(timeout("host=h connect_timeout=0"), DEFAULT_CONNECT_TIMEOUT);
        assert_eq!(timeout("host=h"), DEFAULT_CONNECT_TIMEOUT);
    }
}
