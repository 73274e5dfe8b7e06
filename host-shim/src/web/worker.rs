//! The one thread that owns the component for the board: a [`Host`] (one
//! store connection, one instance) runs the requests one at a time, in
//! the order they came. A bounded queue keeps a flood from growing memory:
//! when it is full the request is answered "busy" at once. A panic in the
//! host loses only that request; the host is opened again for the next.

use crate::{Host, HostConfig, HostError};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc;
use tokio::sync::oneshot;

/// Requests that may wait for the component at once (pages and token
/// lookups: more than `/mcp` lets be in progress, so its own limits answer
/// a flood first).
const QUEUE: usize = 256;

/// A job for the component's thread.
type Job = Box<dyn FnOnce(&mut Host) + Send>;

/// Why a request got no answer from the component.
#[derive(Debug)]
pub enum Unanswered {
    /// The queue is full: answer "busy".
    Busy,
    /// The host failed (it panicked, or its thread is gone).
    Failed(String),
}

/// The handle the server's tasks submit jobs through; cheap to clone.
#[derive(Clone)]
pub struct Worker {
    jobs: mpsc::SyncSender<Job>,
}

impl Worker {
    /// Starts the thread; the host opens the store on its first call.
    pub fn start(config: HostConfig) -> Result<Worker, HostError> {
        let mut host = Host::open_lazily(config.clone())?;
        let (jobs, queue) = mpsc::sync_channel::<Job>(QUEUE);
        std::thread::Builder::new()
            .name("tasklists-board".into())
            .spawn(move || {
                for job in queue {
                    if catch_unwind(AssertUnwindSafe(|| job(&mut host))).is_err() {
                        // The instance may be half-way through anything:
                        // start again from a fresh one.
                        match Host::open_lazily(config.clone()) {
                            Ok(fresh) => host = fresh,
                            Err(e) => eprintln!("tasklists serve: cannot reopen the host: {e}"),
                        }
                    }
                }
            })
            .map_err(|e| HostError::Serve(format!("cannot start the board's thread: {e}")))?;
        Ok(Worker { jobs })
    }

    /// Runs `f` on the component's thread and waits for its result.
    pub async fn run<R: Send + 'static>(
        &self,
        f: impl FnOnce(&mut Host) -> Result<R, HostError> + Send + 'static,
    ) -> Result<R, Unanswered> {
        let (reply, answer) = oneshot::channel();
        let job: Job = Box::new(move |host| {
            let _ = reply.send(f(host));
        });
        match self.jobs.try_send(job) {
            Ok(()) => {}
            Err(mpsc::TrySendError::Full(_)) => return Err(Unanswered::Busy),
            Err(mpsc::TrySendError::Disconnected(_)) => {
                return Err(Unanswered::Failed("the board's thread stopped".into()));
            }
        }
        match answer.await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(e)) => Err(Unanswered::Failed(e.to_string())),
            Err(_) => Err(Unanswered::Failed(
                "the host failed on this request (see the log above)".into(),
            )),
        }
    }
}
