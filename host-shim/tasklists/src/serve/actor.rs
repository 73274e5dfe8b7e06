//! The host actor: a pool of threads, each owning a [`Host`] (its own
//! store connection and instance, all sharing the process's engine and
//! compiled component), taking jobs from a queue in the order they were
//! queued ([`Shape`]: one queue for everything, or tool calls on one
//! worker of their own beside the rest). Every serving mode goes through
//! it: `tasklists mcp` on stdio (one worker, so pipelined writes land in
//! the order the client sent them), and `tasklists serve`, whose board
//! pages, token lookups and `/mcp` calls share one pool
//! ([`super::pool::shape`] lays it out by the store: a call on PostgreSQL
//! spends most of its time waiting for the network, so many run at once).
//! No two guest calls ever share an instance; each call is its own
//! transaction on its worker's connection, so the store keeps the
//! guarantees it keeps between processes (one claim per task).
//!
//! A panic in the host loses nothing but that job: a tool call is
//! answered by the component (a `host-bug` failure), a page gets the
//! "host failed" answer, and that worker's host is replaced; the store
//! reopens on demand, so a broken database is reported by each call and a
//! fixed one picked up.
//!
//! Two kinds of job, bounded differently. A tool call ([`Actor::call`])
//! carries what its transport counts for it (`held`), dropped only once
//! the call has run: the transport bounds the queue by that count and
//! stops reading its input while it is full. Any other work on the host
//! ([`Actor::run`]: a page, a token lookup) is answered "busy" at once when
//! [`MAX_WAITING`] such jobs already wait, so a flood cannot grow memory.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, PoisonError, mpsc};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};
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

/// A job for one of the actor's workers.
type Job = Box<dyn FnOnce(&mut Owner) + Send>;

/// Why an [`Actor::run`] job got no answer.
#[derive(Debug)]
pub enum Unanswered {
    /// Too many jobs wait: answer "busy".
    Busy,
    /// The host failed (it panicked, or the thread is gone).
    Failed(String),
}

/// Queues jobs for the actor's workers; cheap to clone. Dropping every
/// `Actor` lets the workers finish what is queued and end.
#[derive(Clone)]
pub struct Actor {
    /// Where tool calls go.
    calls: mpsc::Sender<Job>,
    /// Where every other job goes (the same queue unless the shape splits
    /// them).
    others: mpsc::Sender<Job>,
    /// [`Actor::run`] jobs queued and not yet started.
    waiting: Arc<AtomicUsize>,
    /// The jobs a stopping server waits for.
    tally: Arc<Tally>,
}

/// The jobs queued or running that a stopping server waits for: those
/// queued before it began to stop.
#[derive(Default)]
struct Tally {
    outstanding: AtomicUsize,
    /// Set once the server stops: jobs queued from now on are not waited
    /// for (connections still open may go on sending).
    draining: AtomicBool,
}

/// One job counted in the [`Tally`] until it has run (or is dropped
/// unrun).
struct Counted(Arc<Tally>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.outstanding.fetch_sub(1, Ordering::AcqRel);
    }
}

/// What each worker owns: its host (or why it could not be opened
/// again), what to reopen it from, and the context of calls that name no
/// caller.
struct Owner {
    host: Result<Box<Host>, HostError>,
    config: HostConfig,
    ctx: CallContext,
}

/// The actor's worker threads; [`Workers::join`] waits for them to finish
/// what is queued once every [`Actor`] is gone.
pub struct Workers {
    threads: Vec<JoinHandle<()>>,
    /// Shared with every [`Actor`].
    tally: Arc<Tally>,
}

impl Workers {
    /// Waits until every worker has ended (every `Actor` dropped and the
    /// queue drained).
    pub fn join(self) {
        for worker in self.threads {
            let _ = worker.join();
        }
    }

    /// Waits until every job queued so far has run, or `limit` has
    /// passed; true when they have. Jobs queued from now on are not waited
    /// for. For a server that stops while `Actor`s are still held (by
    /// connections not closed yet): the calls it accepted finish, each its
    /// own transaction, before the process exits.
    pub fn drain(&self, limit: Duration) -> bool {
        self.tally.draining.store(true, Ordering::Release);
        let until = Instant::now() + limit;
        while self.tally.outstanding.load(Ordering::Acquire) > 0 {
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        true
    }
}

/// How the actor's workers are laid out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// One queue for every job, taken by this many workers (at least one).
    Shared(usize),
    /// Tool calls on a queue of their own, taken by one worker, so they
    /// never wait for each other's locks (SQLite: one writer); the other
    /// jobs (pages, token lookups: mostly reads) on a second queue taken
    /// by this many workers (at least one), beside it.
    OneCaller(usize),
}

/// Starts the workers `shape` asks for: the first owns `host`, the others
/// a host each opened lazily from `config` (which a replacement host is
/// opened from too); tool calls that name no caller run as `ctx`.
/// `before_each` runs on a worker before each job: a transport that must
/// hold answers back (too many unread) blocks there.
pub fn start(
    host: Host,
    config: HostConfig,
    ctx: CallContext,
    shape: Shape,
    before_each: impl Fn() + Send + Sync + 'static,
) -> std::io::Result<(Actor, Workers)> {
    let tally = Arc::new(Tally::default());
    let mut spawner = Spawner {
        first: Some(host),
        config,
        ctx,
        before_each: Arc::new(before_each),
        threads: Vec::new(),
    };
    let (calls, others) = match shape {
        Shape::Shared(workers) => {
            let jobs = spawner.lane(workers)?;
            (jobs.clone(), jobs)
        }
        Shape::OneCaller(others) => (spawner.lane(1)?, spawner.lane(others)?),
    };
    let actor = Actor {
        calls,
        others,
        waiting: Arc::new(AtomicUsize::new(0)),
        tally: Arc::clone(&tally),
    };
    let workers = Workers {
        threads: spawner.threads,
        tally,
    };
    Ok((actor, workers))
}

/// What starting the workers needs.
struct Spawner<F> {
    /// The host given to [`start`], for the first worker.
    first: Option<Host>,
    config: HostConfig,
    ctx: CallContext,
    before_each: Arc<F>,
    threads: Vec<JoinHandle<()>>,
}

impl<F: Fn() + Send + Sync + 'static> Spawner<F> {
    /// A queue taken by `workers` threads (at least one), each owning a
    /// host; where to send its jobs.
    fn lane(&mut self, workers: usize) -> std::io::Result<mpsc::Sender<Job>> {
        let (jobs, queue) = mpsc::channel::<Job>();
        // One receiver shared by the lane's workers: whoever is free takes
        // the next job, so jobs start in the order they were queued.
        let queue = Arc::new(Mutex::new(queue));
        for _ in 0..workers.max(1) {
            let host = match self.first.take() {
                Some(host) => Ok(Box::new(host)),
                None => Host::open_lazily(self.config.clone()).map(Box::new),
            };
            let mut owner = Owner {
                host,
                config: self.config.clone(),
                ctx: self.ctx.clone(),
            };
            let queue = Arc::clone(&queue);
            let before_each = Arc::clone(&self.before_each);
            let thread = std::thread::Builder::new()
                .name(format!("tasklists-guest-{}", self.threads.len()))
                .spawn(move || {
                    loop {
                        // The lock is held only while taking a job, never
                        // while running one.
                        let job = queue.lock().unwrap_or_else(PoisonError::into_inner).recv();
                        let Ok(job) = job else { return };
                        before_each();
                        job(&mut owner);
                    }
                })?;
            self.threads.push(thread);
        }
        Ok(jobs)
    }
}

impl Actor {
    /// Queues a call of `tool` with the agent's `arguments` (JSON text), as
    /// `ctx` when given (a remote client known by its token) or else the
    /// actor's own context, and returns where its answer will arrive;
    /// `held` (the transport's count of the call) is dropped once the call
    /// has run. Queuing is synchronous, so calls start in the order this
    /// is called (and, with one worker, end in it too).
    pub fn call(
        &self,
        tool: String,
        arguments: String,
        ctx: Option<CallContext>,
        held: impl Send + 'static,
    ) -> oneshot::Receiver<Answer> {
        let (reply, answer) = oneshot::channel();
        // If the workers are gone, `reply` and `held` are dropped with the
        // job and the caller sees a closed channel.
        let _ = self.send(
            &self.calls,
            Box::new(move |owner: &mut Owner| {
                let answer = owner.reply(&tool, &arguments, ctx.as_ref());
                // The client may have cancelled the request: its answer is
                // dropped (the call itself completed, as one transaction).
                let _ = reply.send(answer);
                drop(held);
            }),
        );
        answer
    }

    /// Runs `f` on one of the actor's workers and waits for its result; "busy" at
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
        if self.send(&self.others, job).is_err() {
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

impl Actor {
    /// Queues `job` on `queue`, counted until it has run unless the
    /// server is stopping.
    fn send(&self, queue: &mpsc::Sender<Job>, job: Job) -> Result<(), mpsc::SendError<Job>> {
        if self.tally.draining.load(Ordering::Acquire) {
            return queue.send(job);
        }
        self.tally.outstanding.fetch_add(1, Ordering::AcqRel);
        let counted = Counted(Arc::clone(&self.tally));
        queue.send(Box::new(move |owner: &mut Owner| {
            job(owner);
            drop(counted);
        }))
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

#[cfg(test)]
#[path = "actor_tests.rs"]
mod tests;
