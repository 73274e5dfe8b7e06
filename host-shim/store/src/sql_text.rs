//! Reading a statement's text without parsing it, for the checks every
//! backend makes before running one (which transaction-control word it
//! starts with).

/// Drops leading `--` and `/* */` comments (enough to find the first word).
pub(crate) fn strip_comments(mut sql: &str) -> &str {
    loop {
        sql = sql.trim_start();
        if let Some(rest) = sql.strip_prefix("--") {
            sql = rest.split_once('\n').map_or("", |(_, after)| after);
        } else if let Some(rest) = sql.strip_prefix("/*") {
            sql = rest.split_once("*/").map_or("", |(_, after)| after);
        } else {
            return sql;
        }
    }
}
