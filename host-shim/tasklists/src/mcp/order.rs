//! Keeps a stdio client's tool-call answers in the order it sent the calls.
//!
//! The calls already run in that order (one worker, queued before the
//! handler's first await), but rmcp hands each answer to the transport
//! through a bounded channel from the request's own task. When that
//! channel is full, a task woken by the worker thread can push its answer
//! before an earlier task that was granted room first but has not run
//! again: two answers swap. So each call's handler, once its answer is
//! ready, waits for the call before it to be through before it returns
//! its own.
//!
//! A call is through once the call before it is through and its own
//! answer is done with rmcp: its handler, having waited for the one
//! before, has returned it, and rmcp has taken it or will never send it.
//! The second has two signs. rmcp cancels a request's token when it takes
//! the request's answer to send it (just before it hands it to the
//! transport), when the client cancels the request (its answer is then
//! dropped), and when the session ends. A client that reuses an id still
//! in flight gets one answer for it and rmcp keeps only the last token of
//! that id, so the earlier request's token is never cancelled: for it the
//! transport's word that an answer to that id went out counts instead.
//! Waiting for the one before to be through, not merely done, matters: a
//! call the client cancelled is done at once, before the calls ahead of
//! it have answered.

use rmcp::model::RequestId;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};
use tokio_util::sync::{CancellationToken, DropGuard};

/// Past this many requests remembered by id, the ones rmcp has finished
/// with (cancelled by the client, so never answered) are forgotten.
const PRUNE_AT: usize = 1024;

/// Shared by a stdio session's handler and its transport; cheap to clone.
#[derive(Clone, Default)]
pub(super) struct AnswerOrder {
    inner: Arc<Mutex<Inner>>,
}

#[derive(Default)]
struct Inner {
    /// The latest tool call, which the next one waits for.
    last: Option<Done>,
    /// The tool calls not answered yet, by id.
    by_id: HashMap<RequestId, Vec<Done>>,
    /// Where `by_id` is pruned next: twice what survived the last pruning.
    prune_at: usize,
}

/// How a tool call is known to be through.
#[derive(Clone)]
struct Done {
    /// Cancelled once the call's handler has waited its turn and returns
    /// its answer (or was dropped).
    returned: CancellationToken,
    /// rmcp's token for the request (see the module's doc).
    request: CancellationToken,
    /// Cancelled once the transport sent an answer to the request's id.
    answered: CancellationToken,
}

impl Done {
    async fn wait(&self) {
        self.returned.cancelled().await;
        tokio::select! {
            _ = self.request.cancelled() => {}
            _ = self.answered.cancelled() => {}
        }
    }
}

/// A tool call's place in line: what it waits for before it answers.
pub(super) struct Turn {
    before: Option<Done>,
    /// Tells the next call this one has returned, when dropped.
    _returned: DropGuard,
}

impl Turn {
    /// Waits until the call before this one is through (at once if it
    /// already is, or if there was none); the next call's wait may then
    /// go on as soon as this one's answer is taken.
    pub(super) async fn wait(self) {
        if let Some(before) = &self.before {
            before.wait().await;
        }
    }
}

impl AnswerOrder {
    /// Takes the next place in line for the tool call `id`, whose rmcp
    /// token is `request`. Must be called in the order the calls arrived,
    /// before the handler's first await.
    pub(super) fn take_turn(&self, id: RequestId, request: CancellationToken) -> Turn {
        let done = Done {
            returned: CancellationToken::new(),
            request,
            answered: CancellationToken::new(),
        };
        let returned = done.returned.clone().drop_guard();
        let mut inner = self.inner.lock().unwrap_or_else(PoisonError::into_inner);
        let inner = &mut *inner;
        if inner.by_id.len() >= inner.prune_at.max(PRUNE_AT) {
            inner.by_id.retain(|_, calls| {
                calls.retain(|call| !call.request.is_cancelled());
                !calls.is_empty()
            });
            inner.prune_at = inner.by_id.len() * 2;
        }
        inner.by_id.entry(id).or_default().push(done.clone());
        Turn {
            before: inner.last.replace(done),
            _returned: returned,
        }
    }

    /// The transport is sending an answer to `id`: every call under that
    /// id is done (rmcp sends one answer per id in flight).
    pub(super) fn answered(&self, id: &RequestId) {
        let calls = self
            .inner
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .by_id
            .remove(id);
        for call in calls.into_iter().flatten() {
            call.answered.cancel();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;
    use tokio::time::timeout;

    const SOON: Duration = Duration::from_millis(50);

    #[tokio::test]
    async fn a_call_answers_after_the_one_before_is_taken_or_dropped() {
        let order = AnswerOrder::default();
        let (first, second, third) = (
            CancellationToken::new(),
            CancellationToken::new(),
            CancellationToken::new(),
        );
        let none = order.take_turn(RequestId::Number(1), first.clone());
        let after_first = order.take_turn(RequestId::Number(2), second.clone());
        let after_second = order.take_turn(RequestId::Number(3), third);
        timeout(SOON, none.wait()).await.expect("nothing before");
        let waiting = tokio::spawn(after_first.wait());
        tokio::time::sleep(SOON).await;
        assert!(!waiting.is_finished(), "answered before the call before it");
        // rmcp takes the first answer to send it.
        first.cancel();
        timeout(SOON, waiting).await.expect("woken").unwrap();
        // The client cancels the second: its answer is dropped.
        second.cancel();
        timeout(SOON, after_second.wait()).await.expect("woken");
    }

    #[tokio::test]
    async fn a_call_cancelled_by_the_client_does_not_let_the_next_overtake_the_one_before() {
        let order = AnswerOrder::default();
        let (first, second) = (CancellationToken::new(), CancellationToken::new());
        let _ = order.take_turn(RequestId::Number(1), first.clone());
        let before_second = order.take_turn(RequestId::Number(2), second.clone());
        let third = order.take_turn(RequestId::Number(3), CancellationToken::new());
        // The client cancels the second while the first is unanswered.
        second.cancel();
        let second_waits = tokio::spawn(before_second.wait());
        let third_waits = tokio::spawn(third.wait());
        tokio::time::sleep(SOON).await;
        assert!(!second_waits.is_finished());
        assert!(!third_waits.is_finished(), "the third overtook the first");
        first.cancel();
        timeout(SOON, second_waits).await.expect("woken").unwrap();
        timeout(SOON, third_waits).await.expect("woken").unwrap();
    }

    #[tokio::test]
    async fn a_reused_id_is_done_once_an_answer_to_it_is_sent() {
        let order = AnswerOrder::default();
        // rmcp keeps only the reused id's last token: the first's never
        // cancels.
        let _ = order.take_turn(RequestId::Number(7), CancellationToken::new());
        let _ = order.take_turn(RequestId::Number(7), CancellationToken::new());
        let next = order.take_turn(RequestId::Number(8), CancellationToken::new());
        let waiting = tokio::spawn(next.wait());
        tokio::time::sleep(SOON).await;
        assert!(!waiting.is_finished());
        order.answered(&RequestId::Number(7));
        timeout(SOON, waiting).await.expect("woken").unwrap();
    }

    #[tokio::test]
    async fn requests_cancelled_by_the_client_are_forgotten() {
        let order = AnswerOrder::default();
        for n in 0..(PRUNE_AT as i64 * 3) {
            let token = CancellationToken::new();
            let _ = order.take_turn(RequestId::Number(n), token.clone());
            token.cancel();
        }
        let remembered = order.inner.lock().unwrap().by_id.len();
        assert!(remembered <= PRUNE_AT, "{remembered} ids kept");
    }
}
