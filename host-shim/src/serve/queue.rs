//! The call queue: one thread owns the [`Host`] (one store connection, one
//! instance) and takes calls from a queue, one at a time, in the order
//! they were queued. Pipelined writes therefore land in the order the
//! client sent them, and no two guest calls ever share the instance. A
//! panic in the host is answered (by the component, as a `host-bug`
//! failure) and the host is replaced; the store reopens on demand, so a
//! broken database is reported by each call and a fixed one picked up.
//!
//! Each job carries what its transport counts for it ([`Queue::submit`]'s
//! `held`), dropped only once the call has run: the transport bounds the
//! queue by that count (every call counts, whatever its request id) and
//! stops reading its input while it is full.

use crate::{
    CallContext, CallFailure, FailureKind, Host, HostConfig, HostError, ToolReply, WriteState,
};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use std::thread::JoinHandle;
use tokio::sync::oneshot;

/// The answer to one queued call: the component's reply, or the host
/// unable to run the component at all.
pub type Answer = Result<ToolReply, HostError>;

/// One queued call.
struct Job {
    tool: String,
    arguments: String,
    /// Who calls, when not the queue's own context (a remote client
    /// known by its token).
    ctx: Option<CallContext>,
    reply: oneshot::Sender<Answer>,
    /// The transport's count of this call, given back once it has run.
    _held: Box<dyn Send>,
}

/// Queues calls for the queue's thread; dropping every `Queue` lets the
/// thread finish what is queued and end.
pub struct Queue {
    jobs: mpsc::Sender<Job>,
}

/// Starts the queue's thread on `host` (opened from `config`, which a
/// replacement host is opened from too), calling with `ctx`. `before_each`
/// runs before each call: a transport that must hold answers back (too
/// many unread) blocks there.
pub fn start(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    before_each: impl Fn() + Send + 'static,
) -> std::io::Result<(Queue, JoinHandle<()>)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let thread = std::thread::Builder::new()
        .name("tasklists-guest".into())
        .spawn(move || run(host, config, ctx, queue, before_each))?;
    Ok((Queue { jobs }, thread))
}

impl Queue {
    /// Queues a call of `tool` with the agent's `arguments` (JSON text)
    /// and returns where its answer will arrive; `held` (the transport's
    /// count of the call) is dropped once the call has run. Queuing is
    /// synchronous, so calls run in the order this is called.
    pub fn submit(
        &self,
        tool: String,
        arguments: String,
        held: impl Send + 'static,
    ) -> oneshot::Receiver<Answer> {
        self.submit_as(tool, arguments, None, held)
    }

    /// As [`Queue::submit`], calling as `ctx` (when given) instead of the
    /// queue's own context: a remote client known by its token.
    pub fn submit_as(
        &self,
        tool: String,
        arguments: String,
        ctx: Option<CallContext>,
        held: impl Send + 'static,
    ) -> oneshot::Receiver<Answer> {
        let (reply, answer) = oneshot::channel();
        // If the thread is gone, `reply` and `held` are dropped with the
        // job and the caller sees a closed channel.
        let _ = self.jobs.send(Job {
            tool,
            arguments,
            ctx,
            reply,
            _held: Box::new(held),
        });
        answer
    }
}

impl Clone for Queue {
    fn clone(&self) -> Self {
        Queue {
            jobs: self.jobs.clone(),
        }
    }
}

fn run(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    queue: mpsc::Receiver<Job>,
    before_each: impl Fn(),
) {
    let mut host = Ok(Box::new(host));
    for job in queue {
        before_each();
        let answer = match &mut host {
            Ok(h) => match catch_unwind(AssertUnwindSafe(|| {
                h.reply(&job.tool, &job.arguments, job.ctx.as_ref().unwrap_or(&ctx))
            })) {
                Ok(answer) => answer,
                Err(panic) => {
                    let what = panic
                        .downcast_ref::<&str>()
                        .map(|s| s.to_string())
                        .or_else(|| panic.downcast_ref::<String>().cloned())
                        .unwrap_or_else(|| "a panic".into());
                    tracing::error!("a call panicked ({what}); starting a fresh host");
                    // The unwind may have left the host without its store
                    // or instance: the next call gets a new one, and this
                    // one's reply comes from it.
                    host = Host::open_lazily(config.clone()).map(Box::new);
                    // The panic may have come after a commit, or in one.
                    failed(&mut host, what, WriteState::MayBeApplied)
                }
            },
            Err(e) => {
                let what = format!("it could not be restarted: {e}; restart the server");
                host = Host::open_lazily(config.clone()).map(Box::new);
                failed(&mut host, what, WriteState::NotApplied)
            }
        };
        // The client may have cancelled the request: its answer is dropped
        // (the call itself completed, as one transaction).
        let _ = job.reply.send(answer);
    }
}

/// The component's reply to a host bug during a call, whose writes came
/// to `writes` as far as anyone can tell.
fn failed(host: &mut Result<Box<Host>, HostError>, what: String, writes: WriteState) -> Answer {
    let failure = CallFailure {
        whole_request: true,
        kind: FailureKind::HostBug(what),
        writes,
    };
    match host {
        Ok(h) => h.failed(&failure),
        Err(e) => Err(HostError::Component(e.to_string())),
    }
}
