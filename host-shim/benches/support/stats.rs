//! Medians of timings: each round's median per call, then the median of
//! the rounds, so a burst of noise from another process moves one round,
//! not the figure.

use std::time::Duration;

/// The median of `values` (0 for none).
pub fn median(values: &[f64]) -> f64 {
    if values.is_empty() {
        return 0.0;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    let mid = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[mid - 1] + sorted[mid]) / 2.0
    } else {
        sorted[mid]
    }
}

/// Microseconds.
pub fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

/// Per-call samples kept round by round.
#[derive(Default, Debug, Clone)]
pub struct Rounds {
    rounds: Vec<Vec<f64>>,
}

impl Rounds {
    /// Starts a new round.
    pub fn start_round(&mut self) {
        self.rounds.push(Vec::new());
    }

    /// Adds one sample to the current round.
    pub fn push(&mut self, value: f64) {
        if self.rounds.is_empty() {
            self.start_round();
        }
        self.rounds.last_mut().expect("a round").push(value);
    }

    /// The median over rounds of each round's median.
    pub fn p50(&self) -> f64 {
        let per_round: Vec<f64> = self.rounds.iter().map(|r| median(r)).collect();
        median(&per_round)
    }
}
