//! Near-miss suggestions for unknown keys and actions (`listId` → `list_id`,
//! `task` → `task_id`, `claim-next` → `claim_next`).

/// Lowercase with `_` and `-` removed, so `listId`, `list-id` and `LIST_ID` meet.
fn squash(s: &str) -> String {
    s.chars()
        .filter(|c| *c != '_' && *c != '-')
        .flat_map(char::to_lowercase)
        .collect()
}

/// The candidate that `wrong` most probably meant, if any is close enough.
pub fn closest<'a>(
    wrong: &str,
    candidates: impl IntoIterator<Item = &'a str> + Clone,
) -> Option<&'a str> {
    // No name is longer than this: a longer text (a pasted page, a
    // hostile megabyte) is no near miss, and its edit distance to every
    // name would cost time in proportion to its length.
    const LONGEST: usize = 64;
    if wrong.len() > 4 * LONGEST {
        return None;
    }
    let w = squash(wrong);
    if w.is_empty() || w.chars().count() > LONGEST {
        return None;
    }
    if let Some(c) = candidates.clone().into_iter().find(|c| squash(c) == w) {
        return Some(c);
    }
    // `task` → `task_id`, `list` → `list_id`: a key missing its suffix.
    if let Some(c) = candidates
        .clone()
        .into_iter()
        .find(|c| c.starts_with(&format!("{wrong}_")))
    {
        return Some(c);
    }
    candidates
        .into_iter()
        .map(|c| (strsim::damerau_levenshtein(&w, &squash(c)), c))
        .filter(|(d, c)| *d <= 2.min(c.len() / 3 + 1))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::closest;

    const KEYS: [&str; 4] = ["list_id", "task_id", "lease_seconds", "agent_id"];

    #[test]
    fn finds_near_misses() {
        assert_eq!(closest("listId", KEYS), Some("list_id"));
        assert_eq!(closest("task", KEYS), Some("task_id"));
        assert_eq!(closest("lease_secs", KEYS), None);
        assert_eq!(closest("lease_second", KEYS), Some("lease_seconds"));
        assert_eq!(closest("agentid", KEYS), Some("agent_id"));
        assert_eq!(closest("zzz", KEYS), None);
        assert_eq!(closest(&"y".repeat(5 << 20), KEYS), None);
    }
}
