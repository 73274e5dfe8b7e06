//! The one thread that runs guest calls: it owns the [`Host`] (one SQLite
//! connection, one instance) and takes calls from a queue, one at a time,
//! in the order they were queued. Pipelined writes therefore land in the
//! order the client sent them, and no two guest calls ever share the
//! instance.

use super::pending::Pending;
use crate::{CallContext, ErrorCode, Host, HostConfig, ToolError, ToolOutput, ToolRequest};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// The answer to one queued call.
pub(super) type Outcome = Result<ToolOutput, ToolError>;

/// One queued call.
struct Job {
    tool: String,
    request: ToolRequest,
    reply: oneshot::Sender<Outcome>,
}

/// Queues calls for the worker thread; dropping every `Worker` lets the
/// thread finish the queue and end.
pub(super) struct Worker {
    jobs: mpsc::Sender<Job>,
}

/// Starts the worker thread on `host` (opened from `config`), calling
/// with `ctx`, making no answer while `pending` says too many wait for
/// stdout.
pub(super) fn start(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    pending: Pending,
) -> std::io::Result<(Worker, JoinHandle<()>)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let thread = std::thread::Builder::new()
        .name("tasklists-guest".into())
        .spawn(move || run(host, config, ctx, queue, pending))?;
    Ok((Worker { jobs }, thread))
}

impl Worker {
    /// Queues `tool` with `request` and returns where its answer will
    /// arrive. Queuing is synchronous, so calls run in the order this is
    /// called.
    pub(super) fn submit(&self, tool: String, request: ToolRequest) -> oneshot::Receiver<Outcome> {
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

/// Runs the queue. The host opens its database on demand (and again after
/// an I/O error), so a broken file is reported by each call and a fixed
/// one is picked up; only a panic replaces the host.
fn run(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    queue: mpsc::Receiver<Job>,
    pending: Pending,
) {
    let mut host = Ok(Box::new(host));
    for job in queue {
        pending.wait_to_answer();
        let outcome = match &mut host {
            Ok(h) => match catch_unwind(AssertUnwindSafe(|| {
                h.call(&job.tool, &job.request.action, &job.request.params, &ctx)
            })) {
                Ok(outcome) => outcome,
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".into());
                    tracing::error!("a call panicked ({what}); starting a fresh host");
                    // The unwind may have left the host without its
                    // connection or instance: the next call gets a new one.
                    host = Host::open_lazily(config.clone()).map(Box::new);
                    Err(ToolError::new(
                        ErrorCode::Internal,
                        format!("the tasklists host hit a bug ({what})"),
                        "this is a bug in tasklists; please report it. The call may not have completed; check before retrying",
                    ))
                }
            },
            Err(e) => {
                let error = ToolError::new(
                    ErrorCode::Internal,
                    format!("the tasklists host could not be restarted: {e}"),
                    "restart the server",
                );
                host = Host::open_lazily(config.clone()).map(Box::new);
                Err(error)
            }
        };
        // The client may have cancelled the request: its answer is dropped
        // (the call itself completed, as one transaction).
        let _ = job.reply.send(outcome);
    }
}
