//! The host actor: one thread owns the [`Host`] (one store connection, one
//! instance) and runs jobs from one queue, one at a time, in the order they
//! were queued. Every serving mode goes through it: `tasklists mcp` on
//! stdio, and `tasklists serve`, whose board pages, token lookups and
//! `/mcp` calls share one actor. Pipelined writes therefore land in the
//! order the client sent them, and no two guest calls ever share the
//! instance.
//!
//! A panic in the host loses nothing but that job: a tool call is
//! answered by the component (a `host-bug` failure), a page gets the
//! "host failed" answer, and the host is replaced; the store reopens on
//! demand, so a broken database is reported by each call and a fixed one
//! picked up.
//!
//! Two kinds of job, bounded differently. A tool call ([`Actor::call`])
//! carries what its transport counts for it (`held`), dropped only once
//! the call has run: the transport bounds the queue by that count and
//! stops reading its input while it is full. Any other work on the host
//! ([`Actor::run`]: a page, a token lookup) is answered "busy" at once when
//! [`MAX_WAITING`] such jobs already wait, so a flood cannot grow memory.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::thread::JoinHandle;
use tasklists_host::{
    CallContext, CallFailure, FailureKind, Host, HostConfig, HostError, ToolReply, WriteState,
};
use tokio::sync::oneshot;

/// [`Actor::run`] jobs that may wait at once (pages and token lookups:
/// more than `/mcp` lets be in progress, so its own limits answer a flood
/// first).
const MAX_WAITING: usize = 256;

/// The answer to one tool call: the component's reply, or the host unable
/// to run the component at all.
pub type Answer = Result<ToolReply, HostError>;

/// A job for the actor's thread.
type Job = Box<dyn FnOnce(&mut Owner) + Send>;

/// Why an [`Actor::run`] job got no answer.
#[derive(Debug)]
pub enum Unanswered {
    /// Too many jobs wait: answer "busy".
    Busy,
    /// The host failed (it panicked, or the thread is gone).
    Failed(String),
}

/// Queues jobs for the actor's thread; cheap to clone. Dropping every
/// `Actor` lets the thread finish what is queued and end.
#[derive(Clone)]
pub struct Actor {
    jobs: mpsc::Sender<Job>,
    /// [`Actor::run`] jobs queued and not yet started.
    waiting: Arc<AtomicUsize>,
}

/// What the actor's thread owns: the host (or why it could not be opened
/// again), what to reopen it from, and the context of calls that name no
/// caller.
struct Owner {
    host: Result<Box<Host>, HostError>,
    config: HostConfig,
    ctx: CallContext,
}

/// Starts the actor's thread on `host` (opened from `config`, which a
/// replacement host is opened from too); tool calls that name no caller
/// run as `ctx`. `before_each` runs before each job: a transport that must
/// hold answers back (too many unread) blocks there.
pub fn start(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    before_each: impl Fn() + Send + 'static,
) -> std::io::Result<(Actor, JoinHandle<()>)> {
    let (jobs, queue) = mpsc::channel::<Job>();
    let mut owner = Owner {
        host: Ok(Box::new(host)),
        config,
        ctx,
    };
    let thread = std::thread::Builder::new()
        .name("tasklists-guest".into())
        .spawn(move || {
            for job in queue {
                before_each();
                job(&mut owner);
            }
        })?;
    let actor = Actor {
        jobs,
        waiting: Arc::new(AtomicUsize::new(0)),
    };
    Ok((actor, thread))
}

impl Actor {
    /// Queues a call of `tool` with the agent's `arguments` (JSON text), as
    /// `ctx` when given (a remote client known by its token) or else the
    /// actor's own context, and returns where its answer will arrive;
    /// `held` (the transport's count of the call) is dropped once the call
    /// has run. Queuing is synchronous, so calls run in the order this is
    /// called.
    pub fn call(
        &self,
        tool: String,
        arguments: String,
        ctx: Option<CallContext>,
        held: impl Send + 'static,
    ) -> oneshot::Receiver<Answer> {
        let (reply, answer) = oneshot::channel();
        // If the thread is gone, `reply` and `held` are dropped with the
        // job and the caller sees a closed channel.
        let _ = self.jobs.send(Box::new(move |owner: &mut Owner| {
            let answer = owner.reply(&tool, &arguments, ctx.as_ref());
            // The client may have cancelled the request: its answer is
            // dropped (the call itself completed, as one transaction).
            let _ = reply.send(answer);
            drop(held);
        }));
        answer
    }

    /// Runs `f` on the actor's thread and waits for its result; "busy" at
    /// once when too many such jobs wait.
    pub async fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host) -> Result<R, HostError> + Send + 'static,
    ) -> Result<R, Unanswered> {
        if self.waiting.fetch_add(1, Ordering::AcqRel) >= MAX_WAITING {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(Unanswered::Busy);
        }
        let (reply, answer) = oneshot::channel();
        let waiting = Arc::clone(&self.waiting);
        let job: Job = Box::new(move |owner: &mut Owner| {
            waiting.fetch_sub(1, Ordering::AcqRel);
            let _ = reply.send(owner.with_host(f));
        });
        if self.jobs.send(job).is_err() {
            self.waiting.fetch_sub(1, Ordering::AcqRel);
            return Err(Unanswered::Failed("the host's thread stopped".into()));
        }
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(Unanswered::Failed(e.to_string())),
            Err(_) => Err(Unanswered::Failed("the host's thread stopped".into())),
        }
    }
}

impl Owner {
    /// One tool call, answered whatever happens to the host.
    fn reply(&mut self, tool: &str, arguments: &str, ctx: Option<&CallContext>) -> Answer {
        let ctx = ctx.unwrap_or(&self.ctx);
        match &mut self.host {
            Ok(host) => match catch_unwind(AssertUnwindSafe(|| host.reply(tool, arguments, ctx))) {
                Ok(answer) => answer,
                Err(panic) => {
                    let what = panic_text(panic.as_ref());
                    tracing::error!("a call panicked ({what}); starting a fresh host");
                    // The unwind may have left the host without its store
                    // or instance: the next call gets a new one, and this
                    // one's reply comes from it.
                    self.reopen();
                    // The panic may have come after a commit, or in one.
                    self.failed(what, WriteState::MayBeApplied)
                }
            },
            Err(e) => {
                let what = format!("it could not be restarted: {e}; restart the server");
                self.reopen();
                self.failed(what, WriteState::NotApplied)
            }
        }
    }

    /// `f` on the host; a panic loses only this job's answer.
    fn with_host<R>(
        &mut self,
        f: impl FnOnce(&mut Host) -> Result<R, HostError>,
    ) -> Result<R, HostError> {
        if self.host.is_err() {
            self.reopen();
        }
        let host = match &mut self.host {
            Ok(host) => host,
            Err(e) => return Err(HostError::Component(e.to_string())),
        };
        match catch_unwind(AssertUnwindSafe(|| f(host))) {
            Ok(result) => result,
            Err(panic) => {
                let what = panic_text(panic.as_ref());
                tracing::error!("a request panicked ({what}); starting a fresh host");
                // The instance may be half-way through anything: start
                // again from a fresh one.
                self.reopen();
                Err(HostError::Component(format!(
                    "the host failed on this request ({what})"
                )))
            }
        }
    }

    /// A fresh host from the configuration (its store opened on demand).
    fn reopen(&mut self) {
        self.host = Host::open_lazily(self.config.clone()).map(Box::new);
    }

    /// The component's reply to a host bug during a call, whose writes
    /// came to `writes` as far as anyone can tell.
    fn failed(&mut self, what: String, writes: WriteState) -> Answer {
        let failure = CallFailure {
            whole_request: true,
            kind: FailureKind::HostBug(what),
            writes,
        };
        match &mut self.host {
            Ok(host) => host.failed(&failure),
            Err(e) => Err(HostError::Component(e.to_string())),
        }
    }
}

/// What a panic said, when it said it as text.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic".into())
}
