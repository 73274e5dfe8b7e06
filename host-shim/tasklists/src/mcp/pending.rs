//! What the server holds for its client: the requests handed to rmcp and
//! not answered yet, the tool calls queued or running, and the answers
//! made but not written to stdout yet.
//!
//! Two uses. At the end of stdin, the server stops only after answering
//! every request (rmcp itself gives in-flight answers five seconds, then
//! drops them: a script that pipes many calls in and closes its end would
//! lose answers). And under pipelining, memory stays bounded: a client
//! that writes without reading fills stdout, answers pile up, and the
//! reader stops taking lines from stdin while [`MAX_BUFFERED_BYTES`] are
//! held (requests read and not answered, tool calls queued or running,
//! answers not written, each request and each call costing
//! [`REQUEST_OVERHEAD`] beyond its bytes); the worker stops making answers
//! while that many bytes of them wait to be written. Requests are known by
//! their ids (rmcp writes one answer for a reused id still in flight and
//! drops the others), but every tool call counts, whatever its id, from
//! the moment it is queued until it has run: a flood of calls under one id
//! is bounded too. A client that writes a batch and reads afterwards is
//! never deadlocked as long as the batch stays under that bound (about
//! 10,000 small calls).

use rmcp::model::{ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId};
use rmcp::service::{RoleServer, TxJsonRpcMessage};
use std::collections::HashMap;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;
use tokio::sync::Notify;

/// What the server may hold for its client, in bytes: past this the
/// reader waits, and past this many bytes of answers alone the worker
/// waits too.
pub(super) const MAX_BUFFERED_BYTES: usize = 64 << 20;

/// What a request costs beyond its own bytes while it is held (rmcp's
/// task, the queued call, the bookkeeping): about what one held request
/// was measured to take.
pub(super) const REQUEST_OVERHEAD: usize = 6 << 10;

/// Shared by the reader, the writer and the worker; cheap to clone.
#[derive(Clone, Default)]
pub(super) struct Pending {
    state: Arc<Mutex<State>>,
    /// Wakes the reader (room to read, or every request answered).
    changed: Arc<Notify>,
    /// Wakes the worker (room for answers, or the session is over).
    room: Arc<Condvar>,
}

#[derive(Default)]
struct State {
    /// Each request awaiting its answer, with what it costs (its bytes
    /// plus [`REQUEST_OVERHEAD`]).
    requests: HashMap<RequestId, usize>,
    /// What they cost together.
    request_bytes: usize,
    /// What the tool calls queued or running cost together (each [`Call`]).
    call_bytes: usize,
    /// Answers serialized and waiting for stdout.
    answer_bytes: usize,
    /// The session ended: nothing will be written any more.
    closed: bool,
}

impl State {
    fn full(&self) -> bool {
        self.request_bytes + self.call_bytes + self.answer_bytes >= MAX_BUFFERED_BYTES
    }

    fn hold(&mut self, id: RequestId, cost: usize) {
        if let Some(old) = self.requests.insert(id, cost) {
            // A client reusing an id still in flight: rmcp writes one of
            // their answers (and drops the others), so the id is awaited
            // once; each of its calls is counted on its own ([`Call`]).
            self.request_bytes -= old;
        }
        self.request_bytes += cost;
    }

    /// Lets the request go; whether it was held.
    fn release(&mut self, id: &RequestId) -> bool {
        match self.requests.remove(id) {
            Some(cost) => {
                self.request_bytes -= cost;
                true
            }
            None => false,
        }
    }
}

/// Bytes of an answer on their way to stdout; dropping it (written,
/// failed or abandoned) gives them back.
pub(super) struct Queued {
    pending: Pending,
    bytes: usize,
}

impl Drop for Queued {
    fn drop(&mut self) {
        let mut state = self.pending.lock();
        state.answer_bytes = state.answer_bytes.saturating_sub(self.bytes);
        drop(state);
        self.pending.wake();
    }
}

/// A tool call queued or running, counted (its params plus
/// [`REQUEST_OVERHEAD`]) until it is dropped: the queued job owns it, so
/// it goes once the call has run, even if the client cancelled the request
/// meanwhile or reused its id.
pub(super) struct Call {
    pending: Pending,
    cost: usize,
}

impl Drop for Call {
    fn drop(&mut self) {
        let mut state = self.pending.lock();
        state.call_bytes = state.call_bytes.saturating_sub(self.cost);
        drop(state);
        self.pending.wake();
    }
}

impl Pending {
    /// Notes a message of `bytes` on its way to rmcp: a request now awaits
    /// its answer; a cancellation means rmcp will send none.
    pub(super) fn incoming(&self, message: &ClientJsonRpcMessage, bytes: usize) {
        match message {
            JsonRpcMessage::Request(request) => {
                self.lock()
                    .hold(request.id.clone(), bytes + REQUEST_OVERHEAD);
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    // rmcp will send no answer; a call still queued or
                    // running stays counted by its own [`Call`].
                    if self.lock().release(id) {
                        self.wake();
                    }
                }
            }
            _ => {}
        }
    }

    /// Counts an answer of `bytes` waiting for stdout until the returned
    /// guard is dropped.
    pub(super) fn queue(&self, bytes: usize) -> Queued {
        self.lock().answer_bytes += bytes;
        Queued {
            pending: self.clone(),
            bytes,
        }
    }

    /// Counts a tool call with `bytes` of params, queued now, until the
    /// returned guard is dropped (whatever its request's id).
    pub(super) fn call(&self, bytes: usize) -> Call {
        let cost = bytes + REQUEST_OVERHEAD;
        self.lock().call_bytes += cost;
        Call {
            pending: self.clone(),
            cost,
        }
    }

    /// The request a message rmcp sends answers: a response's or an
    /// error's id.
    pub(super) fn answers(message: &TxJsonRpcMessage<RoleServer>) -> Option<RequestId> {
        match message {
            JsonRpcMessage::Response(response) => Some(response.id.clone()),
            JsonRpcMessage::Error(error) => error.id.clone(),
            _ => None,
        }
    }

    /// The answer to `id` was written: the request is no longer held.
    pub(super) fn answered(&self, id: &RequestId) {
        if self.lock().release(id) {
            self.wake();
        }
    }

    /// Waits until the reader may take another line.
    pub(super) async fn room_to_read(&self) {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            if !self.lock().full() {
                return;
            }
            changed.await;
        }
    }

    /// Blocks the worker thread while the answers waiting for stdout pass
    /// [`MAX_BUFFERED_BYTES`] (until they are written or the session ends).
    pub(super) fn wait_to_answer(&self) {
        let state = self.lock();
        let _state = self
            .room
            .wait_while(state, |s| s.answer_bytes >= MAX_BUFFERED_BYTES && !s.closed)
            .unwrap_or_else(PoisonError::into_inner);
    }

    /// The session is over: nothing waits for stdout any more.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.wake();
    }

    /// Waits until every request is answered, giving up when no answer has
    /// come for `idle` (a call runs at most its deadline, so that only
    /// happens if rmcp drops an answer). Returns how many were left.
    pub(super) async fn drained(&self, idle: Duration) -> usize {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let left = self.unanswered();
            if left == 0 {
                return 0;
            }
            if tokio::time::timeout(idle, changed).await.is_err() {
                return self.unanswered();
            }
        }
    }

    /// Requests still owed an answer.
    fn unanswered(&self) -> usize {
        self.lock().requests.len()
    }

    fn wake(&self) {
        self.changed.notify_waiters();
        self.room.notify_all();
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // The counts stay consistent whatever panicked while holding them.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rmcp::model::NumberOrString;

    fn request(id: i64) -> ClientJsonRpcMessage {
        serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "ping"}))
            .unwrap()
    }

    #[tokio::test]
    async fn the_reader_waits_while_too_much_is_held() {
        let pending = Pending::default();
        pending.incoming(&request(1), MAX_BUFFERED_BYTES - REQUEST_OVERHEAD - 10);
        pending.room_to_read().await;
        let answer = pending.queue(10);
        assert!(pending.lock().full());
        // Written: the room comes back.
        drop(answer);
        tokio::time::timeout(Duration::from_secs(1), pending.room_to_read())
            .await
            .expect("room again");
        let response: TxJsonRpcMessage<RoleServer> =
            serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "id": 1, "result": {}}))
                .unwrap();
        pending.answered(&Pending::answers(&response).unwrap());
        assert_eq!(pending.lock().request_bytes, 0);
        // Many small requests cost their overhead.
        let many = MAX_BUFFERED_BYTES / (REQUEST_OVERHEAD + 1) + 1;
        for id in 1..=many as i64 {
            pending.incoming(&request(id), 1);
        }
        assert!(pending.lock().full(), "too many requests held");
        pending.answered(&RequestId::from(NumberOrString::Number(7)));
        assert!(!pending.lock().full());
        // A cancelled request is let go at once; its call, still queued or
        // running, counts until it has run.
        let bytes = |p: &Pending| {
            let state = p.lock();
            state.request_bytes + state.call_bytes
        };
        let call = pending.call(100);
        let before = bytes(&pending);
        pending.incoming(&cancel(8), 0);
        assert_eq!(bytes(&pending), before - 1 - REQUEST_OVERHEAD);
        drop(call);
        assert_eq!(bytes(&pending), before - 1 - 100 - 2 * REQUEST_OVERHEAD);
        assert_eq!(pending.unanswered(), pending.lock().requests.len());
    }

    #[tokio::test]
    async fn every_call_counts_whatever_its_id() {
        let pending = Pending::default();
        // One id reused: the request is awaited once, but each call counts
        // until it has run, and enough of them stop the reader.
        let many = MAX_BUFFERED_BYTES / (REQUEST_OVERHEAD + 1) + 1;
        let calls: Vec<_> = (0..many)
            .map(|_| {
                pending.incoming(&request(1), 1);
                pending.call(1)
            })
            .collect();
        assert_eq!(pending.unanswered(), 1);
        assert!(pending.lock().full(), "too many calls queued");
        let room = pending.clone();
        let reader = tokio::spawn(async move { room.room_to_read().await });
        tokio::task::yield_now().await;
        assert!(!reader.is_finished(), "the reader waits");
        drop(calls);
        tokio::time::timeout(Duration::from_secs(1), reader)
            .await
            .expect("room again once the calls have run")
            .unwrap();
        assert_eq!(pending.lock().call_bytes, 0);
    }

    fn cancel(id: i64) -> ClientJsonRpcMessage {
        serde_json::from_value(serde_json::json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}}))
            .unwrap()
    }

    #[test]
    fn the_worker_waits_for_answers_to_be_written_or_the_end() {
        let pending = Pending::default();
        let queued = pending.queue(MAX_BUFFERED_BYTES);
        let worker = {
            let pending = pending.clone();
            std::thread::spawn(move || pending.wait_to_answer())
        };
        std::thread::sleep(Duration::from_millis(50));
        assert!(!worker.is_finished(), "the worker waits");
        drop(queued);
        worker.join().unwrap();
        let _queued = pending.queue(MAX_BUFFERED_BYTES);
        pending.close();
        pending.wait_to_answer();
    }
}
