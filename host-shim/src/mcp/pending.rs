//! The requests handed to rmcp and not answered yet, so that the server
//! stops only after answering them when stdin closes. (rmcp itself gives
//! in-flight answers five seconds, then drops them: a script that pipes
//! many calls in and closes its end would lose answers.)

use rmcp::model::{ClientJsonRpcMessage, ClientNotification, JsonRpcMessage, RequestId};
use rmcp::service::{RoleServer, TxJsonRpcMessage};
use std::collections::HashSet;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;
use tokio::sync::Notify;

/// Request ids awaiting an answer; cheap to clone, shared by the reader
/// and the writer.
#[derive(Clone, Default)]
pub(super) struct Pending {
    ids: Arc<Mutex<HashSet<RequestId>>>,
    changed: Arc<Notify>,
}

impl Pending {
    /// Notes a message on its way to rmcp: a request now awaits its answer;
    /// a cancellation means rmcp will send none.
    pub(super) fn incoming(&self, message: &ClientJsonRpcMessage) {
        match message {
            JsonRpcMessage::Request(request) => {
                self.lock().insert(request.id.clone());
            }
            JsonRpcMessage::Notification(notification) => {
                if let ClientNotification::CancelledNotification(cancelled) =
                    &notification.notification
                    && let Some(id) = &cancelled.params.request_id
                {
                    self.answered(id);
                }
            }
            _ => {}
        }
    }

    /// Notes a message rmcp sends: a response or an error answers its id.
    pub(super) fn outgoing(&self, message: &TxJsonRpcMessage<RoleServer>) {
        let id = match message {
            JsonRpcMessage::Response(response) => Some(&response.id),
            JsonRpcMessage::Error(error) => error.id.as_ref(),
            _ => None,
        };
        if let Some(id) = id {
            self.answered(id);
        }
    }

    fn answered(&self, id: &RequestId) {
        if self.lock().remove(id) {
            self.changed.notify_waiters();
        }
    }

    /// Waits until every request is answered, giving up when no answer has
    /// come for `idle` (a call runs at most its deadline, so that only
    /// happens if rmcp drops an answer). Returns how many were left.
    pub(super) async fn drained(&self, idle: Duration) -> usize {
        loop {
            let changed = self.changed.notified();
            tokio::pin!(changed);
            changed.as_mut().enable();
            let left = self.lock().len();
            if left == 0 {
                return 0;
            }
            if tokio::time::timeout(idle, changed).await.is_err() {
                return self.lock().len();
            }
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashSet<RequestId>> {
        // The set stays consistent whatever panicked while holding it.
        self.ids.lock().unwrap_or_else(PoisonError::into_inner)
    }
}
