//! Short forms of the tools' ids (`task_…3X5Z7B`).

use super::one_line;

/// How many trailing characters of an id are kept. ULIDs end with random
/// characters (monotonic ones differ in the last ones), so the tail is what
/// tells two ids apart; six base-32 characters are plenty within one list.
const ID_TAIL: usize = 6;

/// A human form of an id: `task_01JDQ4ZK8M3N5P7R9T1V3X5Z7B` → `task_…3X5Z7B`.
/// The prefix stays so the kind of id is visible at a glance. Short or
/// unprefixed ids are kept as they are (unprefixed long ones lose their head).
pub(crate) fn short_id(id: &str) -> String {
    let id = one_line(id.trim());
    let (prefix, rest) = match id.find('_') {
        Some(i) => id.split_at(i + 1),
        None => ("", id.as_str()),
    };
    let n = rest.chars().count();
    if n <= ID_TAIL + 2 {
        return id;
    }
    let tail: String = rest.chars().skip(n - ID_TAIL).collect();
    format!("{prefix}…{tail}")
}
