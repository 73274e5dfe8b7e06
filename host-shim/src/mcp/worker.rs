//! The one thread that runs guest calls: it owns the [`Host`] (one SQLite
//! connection, one instance) and takes calls from a queue, one at a time,
//! in the order they were queued. Pipelined writes therefore land in the
//! order the client sent them, and no two guest calls ever share the
//! instance.

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

/// What the worker calls: the host, or why the database cannot be opened
/// yet (retried on every call, so fixing the file needs no restart).
pub(super) enum Slot {
    /// The host on the real database (boxed: it is large).
    Ready(Box<Host>),
    /// The database could not be opened; the message says why.
    Unavailable(String),
}

/// Starts the worker thread on `slot` (opened from `config`), calling
/// with `ctx`.
pub(super) fn start(
    slot: Slot,
    config: HostConfig,
    ctx: CallContext,
) -> std::io::Result<(Worker, JoinHandle<()>)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let thread = std::thread::Builder::new()
        .name("tasklists-guest".into())
        .spawn(move || run(slot, config, ctx, queue))?;
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

fn run(mut slot: Slot, config: HostConfig, ctx: CallContext, queue: mpsc::Receiver<Job>) {
    for job in queue {
        if let Slot::Unavailable(_) = slot {
            slot = open(&config);
            if let Slot::Ready(_) = slot {
                tracing::info!("the database opened; serving normally");
            }
        }
        let (outcome, panicked) = match &mut slot {
            Slot::Unavailable(why) => (
                Err(ToolError::new(
                    ErrorCode::Storage,
                    why.clone(),
                    "fix or move the file, or point --db / TASKLISTS_DB elsewhere; the server retries on every call",
                )),
                false,
            ),
            Slot::Ready(host) => {
                match catch_unwind(AssertUnwindSafe(|| {
                    host.call(&job.tool, &job.request.action, &job.request.params, &ctx)
                })) {
                    Ok(outcome) => (outcome, false),
                    Err(panic) => {
                        let what = panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "a panic".into());
                        tracing::error!("a call panicked ({what}); reopening the database");
                        let error = ToolError::new(
                            ErrorCode::Internal,
                            format!("the tasklists host hit a bug ({what})"),
                            "this is a bug in tasklists; please report it. The call may not have completed; check before retrying",
                        );
                        (Err(error), true)
                    }
                }
            }
        };
        if panicked {
            // The unwind may have left the host without its connection or
            // instance: the next call starts from a fresh one.
            slot = open(&config);
        }
        // The client may have cancelled the request: its answer is dropped
        // (the call itself completed, as one transaction).
        let _ = job.reply.send(outcome);
    }
}

/// The host on `config`'s database, or why it cannot be opened.
fn open(config: &HostConfig) -> Slot {
    match Host::open(config.clone()) {
        Ok(host) => Slot::Ready(Box::new(host)),
        Err(e) => Slot::Unavailable(e.to_string()),
    }
}
