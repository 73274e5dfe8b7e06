//! Pages of results: at most `limit` rows and about [`PAGE_BYTES`] of
//! JSON, read from the store a chunk at a time, so that no list or log is
//! too long or too wordy to answer within the component's memory, and no
//! result passes the contract's 1 MiB.

use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::text::json_text_with_capacity;
use crate::text::safe_json::{RAW_VALUE, WRITTEN_HERE};

/// JSON text of one page's rows, at most, measured as sent
/// ([`crate::text::json_text`]): a page stops before the row that would
/// pass it, but always holds at least one row (a single task whose texts
/// are at their limits can be larger).
pub const PAGE_BYTES: usize = 256 * 1024;

/// Rows read from the store per query while a page fills, at most.
const CHUNK: usize = 50;

/// Rows of the first query of a page: few, since the rows may be large
/// (a task's texts can reach 64K characters each); later queries read as
/// many as the rows seen so far say the budget holds.
const FIRST_CHUNK: usize = 4;

/// The room a page's first row is written into (a list or a task with
/// short texts; a longer one grows it).
const FIRST_ROW_BYTES: usize = 512;

/// The most room a row is given before it is written (a longer row grows
/// its text as it is written).
const ROW_ROOM_MAX: usize = 4096;

/// A page being filled with rows of `T` (measured as their JSON).
pub struct Page<T> {
    rows: PageRows<T>,
    bytes: usize,
    limit: usize,
}

/// A page's rows, each kept with the JSON text it was measured by, so that
/// the result writes a row's text rather than serializing it a second
/// time (measuring was half of a page's cost). Read back (by renderers,
/// from JSON) as plain rows.
#[derive(Debug, Clone)]
pub struct PageRows<T> {
    rows: Vec<T>,
    /// Each row's [`crate::text::json_text`]; empty when read back.
    texts: Vec<String>,
}

impl<T> PageRows<T> {
    /// The rows, without their texts.
    pub fn into_vec(self) -> Vec<T> {
        self.rows
    }
}

impl<T> Default for PageRows<T> {
    fn default() -> Self {
        Vec::new().into()
    }
}

impl<T> From<Vec<T>> for PageRows<T> {
    fn from(rows: Vec<T>) -> Self {
        PageRows {
            rows,
            texts: Vec::new(),
        }
    }
}

impl<T> std::ops::Deref for PageRows<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.rows
    }
}

impl<'a, T> IntoIterator for &'a PageRows<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.rows.iter()
    }
}

impl<T> IntoIterator for PageRows<T> {
    type Item = T;
    type IntoIter = std::vec::IntoIter<T>;
    fn into_iter(self) -> Self::IntoIter {
        self.rows.into_iter()
    }
}

/// PageRows are equal when their values are (the texts only cache them).
impl<T: PartialEq> PartialEq for PageRows<T> {
    fn eq(&self, other: &Self) -> bool {
        self.rows == other.rows
    }
}

impl<T: Serialize> Serialize for PageRows<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.texts.len() == self.rows.len() {
            serializer.collect_seq(self.texts.iter().map(|text| RowText(text)))
        } else {
            serializer.collect_seq(&self.rows)
        }
    }
}

/// A row's JSON text, written as it is: as a `RawValue`, by serde_json as
/// by [`crate::text::safe_json`] (what a page's text is serialized by), which
/// knows it wrote it. A `RawValue` itself would have to be parsed again to
/// be made safely.
struct RowText<'a>(&'a str);

impl Serialize for RowText<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_newtype_struct(WRITTEN_HERE, &AsRawValue(self.0))
    }
}

/// JSON text as serde_json's `RawValue` serializes.
struct AsRawValue<'a>(&'a str);

impl Serialize for AsRawValue<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut raw = serializer.serialize_struct(RAW_VALUE, 1)?;
        raw.serialize_field(RAW_VALUE, self.0)?;
        raw.end()
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for PageRows<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Vec::<T>::deserialize(deserializer).map(PageRows::from)
    }
}

impl<T: Serialize> Page<T> {
    /// An empty page of at most `limit` rows.
    pub fn new(limit: i64) -> Self {
        Page {
            rows: PageRows::default(),
            bytes: 0,
            limit: limit.max(1) as usize,
        }
    }

    /// How many rows to read next: what the page still takes (a chunk at
    /// most, and no more than the budget left holds at the average size
    /// so far), plus one, whose presence says that more rows follow.
    pub fn want(&self) -> i64 {
        let fits = match self.rows.len() {
            0 => FIRST_CHUNK,
            n => (PAGE_BYTES.saturating_sub(self.bytes) / (self.bytes / n).max(1)).max(1),
        };
        (self.limit - self.rows.len()).min(CHUNK).min(fits) as i64 + 1
    }

    /// Adds `row`, or says the page is full (the row starts the next page).
    pub fn add(&mut self, row: T) -> bool {
        if self.rows.len() == self.limit {
            return false;
        }
        // Room for a row as long as the average so far (growing the text
        // as it is written was a tenth of a page's cost), at most
        // ROW_ROOM_MAX: rows are kept as written, so room a short row
        // leaves unused after a long one stays taken until the reply.
        let average = match self.rows.len() {
            0 => FIRST_ROW_BYTES,
            n => self.bytes / n,
        };
        let room = (average + average / 4).min(ROW_ROOM_MAX);
        let text = json_text_with_capacity(&row, room);
        let size = text.len();
        if !self.rows.is_empty() && self.bytes + size > PAGE_BYTES {
            return false;
        }
        self.bytes += size;
        self.rows.rows.push(row);
        self.rows.texts.push(text);
        true
    }

    /// The last row added.
    pub fn last(&self) -> Option<&T> {
        self.rows.rows.last()
    }

    /// The rows, in the order added, with their texts.
    pub fn into_rows(self) -> PageRows<T> {
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
        assert_eq!(page.want(), FIRST_CHUNK as i64 + 1, "small first reads");
        assert!(page.add(big.clone()) && !page.add(big.clone()), "the size");
        // Small rows: whole chunks; large ones: as many as fit.
        let mut page = Page::new(500);
        page.add(json!("small"));
        assert_eq!(page.want(), CHUNK as i64 + 1);
        let mut page = Page::new(500);
        page.add(json!("z".repeat(PAGE_BYTES / 4)));
        // A quarter of the budget (plus its quotes) each: two more fit.
        assert_eq!(page.want(), 2 + 1);
        // The size is the text as sent: escapes count.
        let mut page = Page::new(500);
        // 43,689 DEL characters are 262,136 bytes once escaped.
        assert!(page.add(json!("\u{7f}".repeat(PAGE_BYTES / 6 - 1))));
        assert!(!page.add(json!("abcdefghij")), "{} bytes", page.bytes);
        // A single row larger than the budget still makes a page.
        let mut page = Page::new(10);
        assert!(page.add(json!("y".repeat(PAGE_BYTES * 2))));
        assert_eq!(page.into_rows().len(), 1);
    }

    #[test]
    fn rows_written_once_go_into_the_result_the_same_through_either_writer() {
        #[derive(Serialize)]
        struct Listing {
            rows: PageRows<serde_json::Value>,
            after: &'static str,
        }
        let rows = [
            json!({"t": "a\u{7f}\u{9b}\u{202e}\"q\"\n", "n": 1}),
            json!({"t": "plain", "raw": null}),
        ];
        let mut page = Page::new(10);
        for row in rows.clone() {
            assert!(page.add(row));
        }
        let listing = Listing {
            rows: page.into_rows(),
            after: "\u{2066}",
        };
        let fast = crate::text::json_text(&listing);
        assert_eq!(fast, crate::text::json_text_slowly(&listing));
        assert!(
            fast.contains(r#""t":"a\u007f\u009b\u202e\"q\"\n""#),
            "{fast}"
        );
        let read: serde_json::Value = serde_json::from_str(&fast).unwrap();
        assert_eq!(read, json!({"rows": rows, "after": "\u{2066}"}));
    }
}
