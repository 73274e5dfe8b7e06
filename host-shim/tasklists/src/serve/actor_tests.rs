//! The actor's layouts: workers of one queue run jobs at once; with one
//! caller, tool calls keep one worker and end in the order they came while
//! other jobs run beside them; a stopping server can wait for what it
//! accepted.

use super::*;
use std::sync::mpsc::{Receiver, Sender, channel};
use tasklists_host::CallContext;

/// Long enough for any job here; a layout that cannot run two jobs at
/// once fails by it instead of hanging.
const WAIT: Duration = Duration::from_secs(5);

fn actor(shape: Shape) -> (Actor, Workers, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let config = HostConfig::new(dir.path().join("tasks.db"));
    let host = Host::open_lazily(config.clone()).unwrap();
    let (actor, workers) = start(host, config, CallContext::default(), shape, || {}).unwrap();
    (actor, workers, dir)
}

/// A job that tells `mine` it started, then waits for `theirs`: two of
/// them finish only when they run at once.
fn meet(
    mine: Sender<()>,
    theirs: Receiver<()>,
) -> impl FnOnce(&mut Host) -> Result<bool, HostError> {
    move |_host| {
        mine.send(()).unwrap();
        Ok(theirs.recv_timeout(WAIT).is_ok())
    }
}

/// Sends its number when dropped: what a transport's count of a call
/// is, dropped once the call has run.
struct Ran(usize, Sender<usize>);

impl Drop for Ran {
    fn drop(&mut self) {
        let _ = self.1.send(self.0);
    }
}

#[tokio::test]
async fn workers_of_one_queue_run_jobs_at_once() {
    let (actor, _workers, _dir) = actor(Shape::Shared(2));
    let (a_tx, a_rx) = channel();
    let (b_tx, b_rx) = channel();
    let (a, b) = tokio::join!(actor.run(meet(a_tx, b_rx)), actor.run(meet(b_tx, a_rx)));
    assert!(a.unwrap() && b.unwrap(), "the two jobs did not run at once");
}

// Multi-threaded: the test blocks its thread while a spawned task queues.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_caller_runs_calls_beside_other_jobs_and_in_order() {
    let (actor, workers, _dir) = actor(Shape::OneCaller(1));
    let (ran_tx, ran) = channel();
    // A page that waits for a call: the call must run beside it.
    let (started_tx, started) = channel();
    let pages = actor.clone();
    let page = tokio::spawn(async move {
        pages
            .run(move |_host| {
                started_tx.send(()).unwrap();
                Ok(ran.recv_timeout(WAIT).ok())
            })
            .await
    });
    started.recv_timeout(WAIT).unwrap();
    let (order_tx, order) = channel();
    let mut answers = Vec::new();
    for n in 0..8 {
        let held = (
            Ran(n, order_tx.clone()),
            (n == 0).then(|| Ran(n, ran_tx.clone())),
        );
        let arguments = r#"{"action":"workflow"}"#.to_string();
        answers.push(actor.call("task_help".into(), arguments, None, held));
    }
    assert_eq!(
        page.await.unwrap().unwrap(),
        Some(0),
        "the call waited for the page"
    );
    for answer in answers {
        assert!(answer.await.unwrap().unwrap().outcome.is_ok());
    }
    // A call's count is dropped just after its answer is sent.
    let ended: Vec<usize> = (0..8).map(|_| order.recv_timeout(WAIT).unwrap()).collect();
    assert_eq!(
        ended,
        (0..8).collect::<Vec<_>>(),
        "calls ended out of order"
    );
    assert!(workers.drain(WAIT));
}

/// A `run` job, spawned, that says it started and then waits for `go`.
fn blocked(
    actor: &Actor,
    go: Receiver<()>,
) -> (
    tokio::task::JoinHandle<Result<bool, Unanswered>>,
    Receiver<()>,
) {
    let (started_tx, started) = channel();
    let actor = actor.clone();
    let job = tokio::spawn(async move {
        actor
            .run(move |_host| {
                started_tx.send(()).unwrap();
                Ok(go.recv_timeout(WAIT).is_ok())
            })
            .await
    });
    (job, started)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn draining_waits_for_the_jobs_queued_before_it_only() {
    let (actor, workers, _dir) = actor(Shape::Shared(1));
    let (go_first, go) = channel::<()>();
    let (first, started) = blocked(&actor, go);
    started.recv_timeout(WAIT).unwrap();
    assert!(
        !workers.drain(Duration::from_millis(50)),
        "drained while a job runs"
    );
    // Queued once the server stops: not waited for.
    let (go_later, go) = channel::<()>();
    let (later, _later_started) = blocked(&actor, go);
    tokio::time::sleep(Duration::from_millis(50)).await;
    go_first.send(()).unwrap();
    let began = Instant::now();
    assert!(workers.drain(WAIT));
    assert!(
        began.elapsed() < WAIT / 2,
        "the drain waited for a later job"
    );
    assert!(first.await.unwrap().unwrap());
    go_later.send(()).unwrap();
    assert!(later.await.unwrap().unwrap());
}
