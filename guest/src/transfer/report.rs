//! What an import changed on the way, so that a person moving in from
//! another tracker knows what came across as it was and what did not:
//! fields changed to fit (and why), links kept as refs instead of
//! dependencies, what was dropped (and why), each counted with its first
//! few places in the file. An import reads leniently and says so here;
//! `--strict` refuses a file with anything in its report.

use serde::Serialize;

/// Places named per kind of change: enough to find the rest.
const EXAMPLES: usize = 3;

/// One kind of change, how often it happened and where first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tally {
    /// What happened, the same words for each place it happened.
    pub what: String,
    /// How many times.
    pub count: usize,
    /// The first places (`line 12 (bd-x)`, `master.tasks[3]`).
    pub examples: Vec<String>,
}

/// An import's report.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Report {
    /// Fields changed to fit the contract or this tool's model.
    pub changed: Vec<Tally>,
    /// Links that are no dependency here, kept as refs to their source.
    pub kept_as_refs: Vec<Tally>,
    /// What the file holds that nothing here keeps.
    pub dropped: Vec<Tally>,
}

impl Report {
    /// `what` was changed at `at`.
    pub fn changed(&mut self, what: impl Into<String>, at: impl Into<String>) {
        count(&mut self.changed, what.into(), at.into());
    }

    /// A link `what` at `at` was kept as a ref.
    pub fn kept_as_ref(&mut self, what: impl Into<String>, at: impl Into<String>) {
        count(&mut self.kept_as_refs, what.into(), at.into());
    }

    /// `what` at `at` was dropped.
    pub fn dropped(&mut self, what: impl Into<String>, at: impl Into<String>) {
        count(&mut self.dropped, what.into(), at.into());
    }

    /// Whether the file came across exactly as it was.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.kept_as_refs.is_empty() && self.dropped.is_empty()
    }

    /// Every tally with its section's name, in the report's order.
    pub fn sections(&self) -> [(&'static str, &[Tally]); 3] {
        [
            ("changed", &self.changed),
            ("kept as refs", &self.kept_as_refs),
            ("dropped", &self.dropped),
        ]
    }

    /// Adds `other`'s tallies to this report's.
    pub fn extend(&mut self, other: &Report) {
        for (mine, theirs) in [
            (&mut self.changed, &other.changed),
            (&mut self.kept_as_refs, &other.kept_as_refs),
            (&mut self.dropped, &other.dropped),
        ] {
            for t in theirs {
                match mine.iter_mut().find(|m| m.what == t.what) {
                    Some(m) => {
                        m.count += t.count;
                        for e in &t.examples {
                            if m.examples.len() < EXAMPLES && !m.examples.contains(e) {
                                m.examples.push(e.clone());
                            }
                        }
                    }
                    None => mine.push(t.clone()),
                }
            }
        }
    }
}

/// Counts one more `what` at `at` in `tallies`.
fn count(tallies: &mut Vec<Tally>, what: String, at: String) {
    match tallies.iter_mut().find(|t| t.what == what) {
        Some(t) => {
            t.count += 1;
            // A place named once: two links of one issue are one example.
            if t.examples.len() < EXAMPLES && !t.examples.contains(&at) {
                t.examples.push(at);
            }
        }
        None => tallies.push(Tally {
            what,
            count: 1,
            examples: vec![at],
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_is_counted_with_its_first_places() {
        let mut r = Report::default();
        assert!(r.is_empty());
        for n in 1..=5 {
            r.changed("status hooked → todo", format!("line {n}"));
        }
        r.dropped("field owner", "line 2");
        assert_eq!(r.changed[0].count, 5);
        assert_eq!(r.changed[0].examples, ["line 1", "line 2", "line 3"]);
        let mut all = Report::default();
        all.extend(&r);
        all.extend(&r);
        assert_eq!(all.changed[0].count, 10);
        assert_eq!(all.dropped[0].count, 2);
        assert_eq!(all.changed[0].examples.len(), 3);
        assert!(!all.is_empty());
    }
}
