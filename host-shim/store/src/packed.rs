//! A query's rows, held packed as the WIT `rows` record carries them
//! (`wit/store.wit`): each kind of cell in one flat list. The backends
//! write cells straight into it, and a host hands its lists to the
//! component as they are: no value per cell is built on either side of
//! the boundary. The component unpacks them (`guest/src/store/packed.rs`).

use crate::Value;

/// Rows returned by a query, columns in the order of the SELECT.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Rows {
    /// Cells per row: the SELECT's columns. Their names are not kept: the
    /// WIT record carries only their number, and copying each name of
    /// each query was a measurable share of a read (BENCHMARKS.md, "reads
    /// near the store").
    pub width: usize,
    /// One letter per cell, row after row: `n` NULL, `i` integer, `r`
    /// real, `t` text, `b` blob.
    pub cells: String,
    /// The integer cells, in order.
    pub integers: Vec<i64>,
    /// The real cells, in order.
    pub reals: Vec<f64>,
    /// The text cells, concatenated.
    pub text: String,
    /// Where each text cell ends in `text`, in bytes.
    pub text_ends: Vec<u32>,
    /// The blob cells, in order.
    pub blobs: Vec<Vec<u8>>,
}

impl Rows {
    /// No rows yet, of `width` columns.
    pub fn new(width: usize) -> Self {
        Rows {
            width,
            ..Rows::default()
        }
    }

    /// Rows of `width` columns holding `rows` (each that wide).
    pub fn from_values(width: usize, rows: Vec<Vec<Value>>) -> Self {
        let mut packed = Rows::new(width);
        for value in rows.into_iter().flatten() {
            packed.push(value);
        }
        packed
    }

    /// Cells per row.
    pub fn width(&self) -> usize {
        self.width
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.cells.len().checked_div(self.width()).unwrap_or(0)
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.cells.is_empty()
    }

    /// Appends a cell (a row is `width` cells, in column order).
    pub fn push(&mut self, value: Value) {
        match value {
            Value::Null => self.push_null(),
            Value::Integer(n) => self.push_integer(n),
            Value::Real(f) => self.push_real(f),
            Value::Text(s) => self.push_text(&s),
            Value::Blob(b) => {
                self.cells.push('b');
                self.blobs.push(b);
            }
        }
    }

    /// Appends a NULL cell.
    pub fn push_null(&mut self) {
        self.cells.push('n');
    }

    /// Appends an integer cell.
    pub fn push_integer(&mut self, n: i64) {
        self.cells.push('i');
        self.integers.push(n);
    }

    /// Appends a real cell.
    pub fn push_real(&mut self, f: f64) {
        self.cells.push('r');
        self.reals.push(f);
    }

    /// Appends a text cell.
    pub fn push_text(&mut self, s: &str) {
        self.cells.push('t');
        self.text.push_str(s);
        // A text past 4 GiB cannot be in a component's memory (nor pass
        // the result's size limit); the component refuses ends that do not
        // add up.
        self.text_ends
            .push(u32::try_from(self.text.len()).unwrap_or(u32::MAX));
    }

    /// Appends a blob cell.
    pub fn push_blob(&mut self, b: &[u8]) {
        self.cells.push('b');
        self.blobs.push(b.to_vec());
    }

    /// The rows as values, row by row (for tests and the few host readers;
    /// the component unpacks its own).
    pub fn values(&self) -> Vec<Vec<Value>> {
        let mut integers = self.integers.iter();
        let mut reals = self.reals.iter();
        let mut ends = self.text_ends.iter();
        let mut blobs = self.blobs.iter();
        let mut start = 0;
        let cells: Vec<Value> = self
            .cells
            .bytes()
            .map(|kind| match kind {
                b'i' => Value::Integer(integers.next().copied().unwrap_or_default()),
                b'r' => Value::Real(reals.next().copied().unwrap_or_default()),
                b't' => {
                    let end = ends.next().map_or(start, |&e| e as usize);
                    let s = self.text.get(start..end).unwrap_or_default().to_owned();
                    start = end;
                    Value::Text(s)
                }
                b'b' => Value::Blob(blobs.next().cloned().unwrap_or_default()),
                _ => Value::Null,
            })
            .collect();
        cells
            .chunks(self.width().max(1))
            .map(<[Value]>::to_vec)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packs_each_kind_in_its_list_and_reads_back() {
        let values = vec![
            vec![Value::Integer(7), Value::Text("été".into()), Value::Null],
            vec![
                Value::Real(1.5),
                Value::Text(String::new()),
                Value::Blob(vec![0, 255]),
            ],
        ];
        let rows = Rows::from_values(3, values.clone());
        assert_eq!((rows.width(), rows.len()), (3, 2));
        assert_eq!(rows.cells, "itnrtb");
        assert_eq!(rows.integers, [7]);
        assert_eq!(rows.reals, [1.5]);
        assert_eq!(rows.text, "été");
        assert_eq!(rows.text_ends, [5, 5], "bytes, an empty text too");
        assert_eq!(rows.blobs, [vec![0, 255]]);
        assert_eq!(rows.values(), values);
        let none = Rows::new(1);
        assert_eq!((none.is_empty(), none.len()), (true, 0));
        assert!(none.values().is_empty());
    }
}
