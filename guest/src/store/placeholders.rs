//! The placeholders of the one SQL the component writes (SQLite's `?` and
//! `?N`), in the syntax of the store's dialect: every statement passes
//! through [`SqlDialect::sql`] on its way to the WIT store.

use std::borrow::Cow;

use super::SqlDialect;

impl SqlDialect {
    /// `sql` with its placeholders in this dialect's syntax.
    pub fn sql(self, sql: &str) -> Cow<'_, str> {
        match self {
            SqlDialect::Sqlite => Cow::Borrowed(sql),
            SqlDialect::Postgres => numbered_placeholders(sql),
        }
    }
}

/// SQLite's `?` and `?N` placeholders as PostgreSQL's `$N`, numbered as
/// SQLite numbers them: `?N` is parameter N, a bare `?` the one after the
/// largest number used so far. Quoted text (`'…'`, `"…"`) is left alone.
fn numbered_placeholders(sql: &str) -> Cow<'_, str> {
    if !sql.contains('?') {
        return Cow::Borrowed(sql);
    }
    let mut out = String::with_capacity(sql.len() + 16);
    let mut largest = 0u32;
    let mut quote: Option<char> = None;
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), _) => {
                if c == q {
                    quote = None;
                }
                out.push(c);
            }
            (None, '\'' | '"') => {
                quote = Some(c);
                out.push(c);
            }
            (None, '?') => {
                let mut digits = String::new();
                while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
                    digits.push(*d);
                    chars.next();
                }
                let n = match digits.parse::<u32>() {
                    Ok(n) => n,
                    Err(_) => largest + 1,
                };
                largest = largest.max(n);
                out.push('$');
                out.push_str(&n.to_string());
            }
            (None, _) => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_numbered_as_sqlite_numbers_them() {
        let pg = SqlDialect::Postgres;
        assert_eq!(
            pg.sql("SELECT a FROM t WHERE a = ? AND b = ?"),
            "SELECT a FROM t WHERE a = $1 AND b = $2"
        );
        assert_eq!(
            pg.sql("UPDATE t SET a = ?, b = ? WHERE c = ?1 OR d = ?3 OR e = ?"),
            "UPDATE t SET a = $1, b = $2 WHERE c = $1 OR d = $3 OR e = $4"
        );
        assert_eq!(
            pg.sql("SELECT '?', \"a?\" FROM t WHERE x = ? AND y LIKE 'it''s?'"),
            "SELECT '?', \"a?\" FROM t WHERE x = $1 AND y LIKE 'it''s?'"
        );
        assert_eq!(pg.sql("SELECT 1"), "SELECT 1");
        assert_eq!(SqlDialect::Sqlite.sql("SELECT ?1, ?"), "SELECT ?1, ?");
    }
}
