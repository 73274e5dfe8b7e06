//! The one thread that runs guest calls: it owns the [`Host`] (one SQLite
//! connection, one instance) and takes calls from a queue, one at a time,
//! in the order they were queued. Pipelined writes therefore land in the
//! order the client sent them, and no two guest calls ever share the
//! instance.

use crate::{CallContext, ErrorCode, Host, HostConfig, ToolError, ToolOutput};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// The answer to one queued call.
pub(super) type Outcome = Result<ToolOutput, ToolError>;

/// One queued call.
struct Job {
    tool: String,
    request: String,
    reply: oneshot::Sender<Outcome>,
}

/// Queues calls for the worker thread; dropping every `Worker` lets the
/// thread finish the queue and end.
pub(super) struct Worker {
    jobs: mpsc::Sender<Job>,
}

/// Starts the worker thread on `host` (opened from `config`), calling
/// with `ctx`.
pub(super) fn start(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
) -> std::io::Result<(Worker, JoinHandle<()>)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let thread = std::thread::Builder::new()
        .name("tasklists-guest".into())
        .spawn(move || run(host, config, ctx, queue))?;
    Ok((Worker { jobs }, thread))
}

impl Worker {
    /// Queues `tool` with `request` (the contract's `{"action", "params"}`
    /// object as JSON text) and returns where its answer will arrive.
    /// Queuing is synchronous, so calls run in the order this is called.
    pub(super) fn submit(&self, tool: String, request: String) -> oneshot::Receiver<Outcome> {
        let (reply, answer) = oneshot::channel();
        // If the thread is gone, `reply` is dropped with the job and the
        // caller sees a closed channel.
        let _ = self.jobs.send(Job {
            tool,
            request,
            reply,
        });
        answer
    }
}

fn run(mut host: Host, config: HostConfig, ctx: CallContext, queue: mpsc::Receiver<Job>) {
    for job in queue {
        let called = catch_unwind(AssertUnwindSafe(|| {
            host.call_json(&job.request, &job.tool, &ctx)
        }));
        let outcome = match called {
            Ok(outcome) => outcome,
            Err(panic) => {
                let what = panic
                    .downcast_ref::<&str>()
                    .map(|s| s.to_string())
                    .or_else(|| panic.downcast_ref::<String>().cloned())
                    .unwrap_or_else(|| "a panic".into());
                tracing::error!("a call panicked ({what}); reopening the database");
                // The unwind may have left the host without its connection
                // or instance: start again from a fresh one, or stop (the
                // handler then answers every call with an error).
                match Host::open(config.clone()) {
                    Ok(fresh) => host = fresh,
                    Err(e) => {
                        tracing::error!("cannot reopen the database ({e}); no more calls");
                        return;
                    }
                }
                Err(ToolError::new(
                    ErrorCode::Internal,
                    format!("the tasklists host hit a bug ({what})"),
                    "this is a bug in tasklists; please report it. The call may not have completed; check before retrying",
                ))
            }
        };
        // The client may have cancelled the request: its answer is dropped
        // (the call itself completed, as one transaction).
        let _ = job.reply.send(outcome);
    }
}
