//! Pages of results: at most `limit` rows and about [`PAGE_BYTES`] of
//! JSON, read from the store a chunk at a time, so that no list or log is
//! too long or too wordy to answer within the component's memory, and no
//! result passes the contract's 1 MiB.

use serde_json::Value as Json;

/// JSON of one page's rows, at most: a page stops before the row that
/// would pass it (but always holds at least one row). Escaping can make
/// the text sent up to three times this, still under 1 MiB.
pub const PAGE_BYTES: usize = 256 * 1024;

/// Rows read from the store per query while a page fills.
const CHUNK: usize = 50;

/// A page being filled.
pub struct Page {
    rows: Vec<Json>,
    bytes: usize,
    limit: usize,
}

impl Page {
    /// An empty page of at most `limit` rows.
    pub fn new(limit: i64) -> Self {
        Page {
            rows: Vec::new(),
            bytes: 0,
            limit: limit.max(1) as usize,
        }
    }

    /// How many rows to read next: what the page still takes (a chunk at
    /// most), plus one, whose presence says that more rows follow.
    pub fn want(&self) -> i64 {
        (self.limit - self.rows.len()).min(CHUNK) as i64 + 1
    }

    /// Adds `row`, or says the page is full (the row starts the next page).
    pub fn add(&mut self, row: Json) -> bool {
        let size = row.to_string().len();
        if self.rows.len() == self.limit
            || (!self.rows.is_empty() && self.bytes + size > PAGE_BYTES)
        {
            return false;
        }
        self.bytes += size;
        self.rows.push(row);
        true
    }

    /// The rows, in the order added.
    pub fn into_rows(self) -> Vec<Json> {
        self.rows
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_page_stops_at_its_limit_or_its_size() {
        let mut page = Page::new(3);
        assert_eq!(page.want(), 4);
        assert!(page.add(json!(1)) && page.add(json!(2)) && page.add(json!(3)));
        assert!(!page.add(json!(4)), "the limit");
        let big = json!("x".repeat(PAGE_BYTES / 2));
        let mut page = Page::new(500);
        assert_eq!(page.want(), CHUNK as i64 + 1);
        assert!(page.add(big.clone()) && !page.add(big.clone()), "the size");
        // A single row larger than the budget still makes a page.
        let mut page = Page::new(10);
        assert!(page.add(json!("y".repeat(PAGE_BYTES * 2))));
        assert_eq!(page.into_rows().len(), 1);
    }
}
