//! How much one server takes on at once: requests in progress in total and
//! the body bytes they hold (over: `503`, at once), and requests per token
//! holder (over: `429`, at once), so
//! a flood is answered promptly instead of queueing without end. A count
//! is held until the request's call has run, even when the client left.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// The bounds, and what is in progress now.
pub struct Limits {
    /// Requests in progress at most, whoever sends them.
    total: usize,
    /// Requests in progress at most for one token holder.
    per_holder: usize,
    /// Body bytes held at most, over every request in progress.
    bytes: usize,
    state: Mutex<State>,
}

#[derive(Default)]
struct State {
    total: usize,
    bytes: usize,
    by_holder: HashMap<String, usize>,
}

/// Why a request is not taken on now.
#[derive(Debug, PartialEq, Eq)]
pub enum Over {
    /// The server has as many requests in progress as it takes: `503`.
    Total,
    /// This holder has as many in progress as one may: `429`.
    Holder,
}

/// One request counted in the total (not yet against a holder).
pub struct Slot {
    limits: Arc<Limits>,
}

/// One request counted in the total and against its holder, with the
/// body bytes it holds.
pub struct Permit {
    _slot: Slot,
    holder: String,
    bytes: usize,
}

impl Limits {
    /// Bounds of `total` requests in progress, `per_holder` for one
    /// holder, `bytes` of bodies held over all of them.
    pub fn new(total: usize, per_holder: usize, bytes: usize) -> Arc<Limits> {
        Arc::new(Limits {
            total,
            per_holder,
            bytes,
            state: Mutex::new(State::default()),
        })
    }

    /// A place among the requests in progress, if one is free.
    pub fn slot(self: &Arc<Self>) -> Result<Slot, Over> {
        let mut state = self.lock();
        if state.total >= self.total {
            return Err(Over::Total);
        }
        state.total += 1;
        Ok(Slot {
            limits: self.clone(),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        // A panic while counting leaves plain numbers: still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Slot {
    /// The slot counted against `holder` too, if it has room.
    pub fn for_holder(self, holder: &str) -> Result<Permit, Over> {
        let limits = self.limits.clone();
        let mut state = limits.lock();
        let count = state.by_holder.entry(holder.to_string()).or_default();
        if *count >= limits.per_holder {
            return Err(Over::Holder);
        }
        *count += 1;
        drop(state);
        Ok(Permit {
            _slot: self,
            holder: holder.to_string(),
            bytes: 0,
        })
    }
}

impl Permit {
    /// Counts `more` body bytes as held by this request, if the server's
    /// budget has room for them.
    pub fn hold(&mut self, more: usize) -> Result<(), Over> {
        let limits = self._slot.limits.clone();
        let mut state = limits.lock();
        if state.bytes + more > limits.bytes {
            return Err(Over::Total);
        }
        state.bytes += more;
        self.bytes += more;
        Ok(())
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.limits.lock().total -= 1;
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut state = self._slot.limits.lock();
        state.bytes -= self.bytes;
        if let Some(count) = state.by_holder.get_mut(&self.holder) {
            *count -= 1;
            if *count == 0 {
                state.by_holder.remove(&self.holder);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_and_each_holder_are_bounded_and_given_back() {
        let limits = Limits::new(3, 2, 100);
        let a1 = limits.slot().unwrap().for_holder("a").unwrap();
        let a2 = limits.slot().unwrap().for_holder("a").unwrap();
        assert_eq!(
            limits.slot().unwrap().for_holder("a").err(),
            Some(Over::Holder)
        );
        let b1 = limits.slot().unwrap().for_holder("b").unwrap();
        assert_eq!(limits.slot().err(), Some(Over::Total));
        drop(a1);
        let a3 = limits.slot().unwrap().for_holder("a").unwrap();
        let mut a3 = a3;
        a3.hold(60).unwrap();
        let mut b1 = b1;
        assert_eq!(b1.hold(41), Err(Over::Total));
        b1.hold(40).unwrap();
        drop((a2, a3, b1));
        assert_eq!(limits.lock().total, 0);
        assert_eq!(limits.lock().bytes, 0);
        assert!(limits.lock().by_holder.is_empty());
    }
}
