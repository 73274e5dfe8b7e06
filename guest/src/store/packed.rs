//! The WIT `rows` record, which carries a query's cells packed (each
//! kind in one flat list, so that a result crosses in a few copies),
//! unpacked into rows of [`Value`]s, or read in place ([`PackedRows`]).
//! Rows packed wrongly by a host are a store error, never a panic.

use super::{Rows, StoreError, Value};
use crate::bindings::tasklists::component::store::Rows as Packed;

/// The rows `packed` carries, checked ([`CellReader`]), each as values
/// of its own.
pub fn unpack(packed: Packed) -> Result<Rows, StoreError> {
    let width = packed.width as usize;
    let count = packed.cells.len();
    let mut rows = Vec::with_capacity(count.checked_div(width).unwrap_or(0));
    // Never more than the cells: a width no host would send (no cells,
    // 4 billion columns) must not reserve memory for it.
    let row_capacity = width.min(count);
    let mut row = Vec::with_capacity(row_capacity);
    let mut reader = CellReader::new(packed)?;
    while let Some(found) = reader.next()? {
        row.push(match found {
            Found::Null => Value::Null,
            Found::Integer(v) => Value::Integer(v),
            Found::Real(v) => Value::Real(v),
            Found::Text(text, _) => Value::Text(text.to_owned()),
            Found::Blob(blob) => Value::Blob(blob),
        });
        if row.len() == width {
            rows.push(std::mem::replace(
                &mut row,
                Vec::with_capacity(row_capacity),
            ));
        }
    }
    reader.finish()?;
    Ok(Rows { rows })
}

/// A cell as [`CellReader`] finds it.
enum Found<'t> {
    Null,
    Integer(i64),
    Real(f64),
    /// The text, and where it starts and ends in the record's text.
    Text(&'t str, (u32, u32)),
    Blob(Vec<u8>),
}

/// Reads the cells of a packed record in order, checking each: its kind
/// known, and its kind's list holding it; then ([`CellReader::finish`])
/// that every list held exactly the cells that name it. A loop over it,
/// not a callback per cell: the callback's version made `get` 5 % slower.
struct CellReader {
    width: usize,
    kinds: std::vec::IntoIter<u8>,
    integers: std::vec::IntoIter<i64>,
    reals: std::vec::IntoIter<f64>,
    text: String,
    text_ends: std::vec::IntoIter<u32>,
    text_start: u32,
    blobs: std::vec::IntoIter<Vec<u8>>,
}

impl CellReader {
    /// A reader of `packed`, whose cells must make whole rows.
    fn new(packed: Packed) -> Result<CellReader, StoreError> {
        let width = packed.width as usize;
        let count = packed.cells.len();
        if (width == 0 && count > 0) || (width > 0 && !count.is_multiple_of(width)) {
            return Err(malformed(format!(
                "{count} cells do not make rows of {width}"
            )));
        }
        Ok(CellReader {
            width,
            kinds: packed.cells.into_bytes().into_iter(),
            integers: packed.integers.into_iter(),
            reals: packed.reals.into_iter(),
            text: packed.text,
            text_ends: packed.text_ends.into_iter(),
            text_start: 0,
            blobs: packed.blobs.into_iter(),
        })
    }

    /// The next cell, checked; `None` after the last.
    #[inline(always)]
    fn next(&mut self) -> Result<Option<Found<'_>>, StoreError> {
        let Some(kind) = self.kinds.next() else {
            return Ok(None);
        };
        Ok(Some(match kind {
            b'n' => Found::Null,
            b'i' => Found::Integer(self.integers.next().ok_or_else(|| fewer("integers"))?),
            b'r' => Found::Real(self.reals.next().ok_or_else(|| fewer("reals"))?),
            b't' => {
                let start = self.text_start;
                let end = self.text_ends.next().ok_or_else(|| fewer("text ends"))?;
                let Some(text) = self.text.get(start as usize..end as usize) else {
                    return Err(malformed(format!(
                        "a text cell ends at byte {end}, before its start ({start}), past the \
                         text ({}) or inside a character",
                        self.text.len()
                    )));
                };
                self.text_start = end;
                Found::Text(text, (start, end))
            }
            b'b' => Found::Blob(self.blobs.next().ok_or_else(|| fewer("blobs"))?),
            other => {
                return Err(malformed(format!(
                    "unknown cell kind {:?}",
                    char::from(other)
                )));
            }
        }))
    }

    /// Checks that no list holds a value no cell named; the width and the
    /// text, for rows read in place.
    fn finish(self) -> Result<(usize, String), StoreError> {
        let left = self.integers.len() + self.reals.len() + self.text_ends.len() + self.blobs.len();
        let unread = self.text.len() - self.text_start as usize;
        if left > 0 || unread > 0 {
            return Err(malformed(format!(
                "{left} values and {unread} bytes of text that no cell names"
            )));
        }
        Ok((self.width, self.text))
    }
}

/// A query's rows as they crossed, checked once, read in place: a text
/// cell is a `&str` into the one text they all came in (blobs are
/// checked, not kept), so reading a row costs no allocation per cell (an
/// allocation per cell was a quarter of `task_audit get`'s time in the
/// component; BENCHMARKS.md, "reads near the store", fifth pass).
#[derive(Debug, Default)]
pub struct PackedRows {
    width: usize,
    cells: Vec<Cell>,
    text: String,
}

/// One cell, as found in its kind's list.
#[derive(Debug, Clone, Copy)]
enum Cell {
    Integer(i64),
    /// Where its text starts and ends, in bytes (on character boundaries).
    Text(u32, u32),
    /// NULL, a real or a blob: nothing reads them in place.
    Other,
}

/// One row of [`PackedRows`].
#[derive(Clone, Copy)]
pub struct PackedRow<'a> {
    cells: &'a [Cell],
    text: &'a str,
}

impl<'a> PackedRow<'a> {
    /// The text in column `i`, if it holds text.
    pub fn text(&self, i: usize) -> Option<&'a str> {
        match self.cells.get(i)? {
            Cell::Text(start, end) => self.text.get(*start as usize..*end as usize),
            _ => None,
        }
    }

    /// The integer in column `i`, if it holds an integer.
    pub fn int(&self, i: usize) -> Option<i64> {
        match self.cells.get(i)? {
            Cell::Integer(v) => Some(*v),
            _ => None,
        }
    }
}

impl PackedRows {
    /// The rows `packed` carries, checked ([`CellReader`]).
    pub fn check(packed: Packed) -> Result<PackedRows, StoreError> {
        let mut cells = Vec::with_capacity(packed.cells.len());
        let mut reader = CellReader::new(packed)?;
        while let Some(found) = reader.next()? {
            cells.push(match found {
                Found::Integer(v) => Cell::Integer(v),
                Found::Text(_, (start, end)) => Cell::Text(start, end),
                Found::Null | Found::Real(_) | Found::Blob(_) => Cell::Other,
            });
        }
        let (width, text) = reader.finish()?;
        Ok(PackedRows { width, cells, text })
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.width).unwrap_or(0)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// The rows, in order.
    pub fn rows(&self) -> impl Iterator<Item = PackedRow<'_>> {
        self.cells.chunks(self.width.max(1)).map(|cells| PackedRow {
            cells,
            text: &self.text,
        })
    }
}

/// Rows a host packed wrongly (a host bug).
fn malformed(what: String) -> StoreError {
    StoreError::Other(format!("the host sent malformed rows: {what}"))
}

/// More cells of a kind than values of it.
fn fewer(list: &str) -> StoreError {
    malformed(format!("more cells than {list}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packed(cells: &str, width: u32) -> Packed {
        Packed {
            width,
            cells: cells.into(),
            integers: vec![],
            reals: vec![],
            text: String::new(),
            text_ends: vec![],
            blobs: vec![],
        }
    }

    /// Three rows of three cells, every kind, empty texts and a
    /// two-byte character among them.
    fn every_kind() -> Packed {
        Packed {
            integers: vec![7, -1],
            reals: vec![1.5],
            text: "étéab".into(),
            text_ends: vec![5, 5, 7, 7],
            blobs: vec![vec![0, 255]],
            ..packed("itnrtbtti", 3)
        }
    }

    #[test]
    fn unpacks_each_kind_in_order() {
        let rows = unpack(every_kind()).unwrap().rows;
        use Value::*;
        assert_eq!(
            rows,
            vec![
                vec![Integer(7), Text("été".into()), Null],
                vec![Real(1.5), Text(String::new()), Blob(vec![0, 255])],
                vec![Text("ab".into()), Text(String::new()), Integer(-1)],
            ]
        );
        assert_eq!(unpack(packed("", 4)).unwrap().rows.len(), 0);
        assert_eq!(unpack(packed("", u32::MAX)).unwrap().rows.len(), 0);
    }

    #[test]
    fn reads_rows_in_place_as_unpack_reads_them() {
        let rows = PackedRows::check(every_kind()).unwrap();
        assert_eq!(rows.len(), 3);
        let seen: Vec<Vec<(Option<i64>, Option<&str>)>> = rows
            .rows()
            .map(|r| (0..3).map(move |i| (r.int(i), r.text(i))).collect())
            .collect();
        let unpacked = unpack(every_kind()).unwrap();
        let want: Vec<Vec<(Option<i64>, Option<&str>)>> = unpacked
            .rows
            .iter()
            .map(|r| r.iter().map(|v| (v.as_i64(), v.as_str())).collect())
            .collect();
        assert_eq!(seen, want);
        assert_eq!(
            rows.rows().nth(1).and_then(|r| r.text(3)),
            None,
            "past the row"
        );
        let none = PackedRows::check(packed("", u32::MAX)).unwrap();
        assert!(none.is_empty() && none.rows().next().is_none());
    }

    #[test]
    fn refuses_rows_packed_wrongly() {
        // Both readers check alike.
        let reason = |p: Packed| match (unpack(p.clone()), PackedRows::check(p)) {
            (Err(StoreError::Other(m)), Err(StoreError::Other(n))) if m == n => m,
            other => panic!("{other:?}"),
        };
        assert!(reason(packed("nnn", 2)).contains("3 cells do not make rows of 2"));
        assert!(reason(packed("n", 0)).contains("rows of 0"));
        assert!(reason(packed("x", 1)).contains("unknown cell kind 'x'"));
        assert!(reason(packed("i", 1)).contains("more cells than integers"));
        let split = Packed {
            text: "é".into(),
            text_ends: vec![1],
            ..packed("t", 1)
        };
        assert!(reason(split).contains("inside a character"));
        let backwards = Packed {
            text: "abc".into(),
            text_ends: vec![2, 1],
            ..packed("tt", 1)
        };
        assert!(reason(backwards).contains("before its start"));
        let extra = Packed {
            integers: vec![1, 2],
            ..packed("i", 1)
        };
        assert!(reason(extra).contains("1 values"));
        let unread = Packed {
            text: "abc".into(),
            text_ends: vec![1],
            ..packed("t", 1)
        };
        assert!(reason(unread).contains("2 bytes of text"));
    }
}
