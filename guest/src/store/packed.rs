//! The WIT `rows` record, which carries a query's cells packed (each
//! kind in one flat list, so that a result crosses in a few copies),
//! unpacked into rows of [`Value`]s. Rows packed wrongly by a host are a
//! store error, never a panic.

use super::{Rows, StoreError, Value};
use crate::bindings::tasklists::component::store::Rows as Packed;

/// The rows `packed` carries, checked: every cell's kind known, and every
/// list holding exactly the cells that name it.
pub fn unpack(packed: Packed) -> Result<Rows, StoreError> {
    let Packed {
        width,
        cells,
        integers,
        reals,
        text,
        text_ends,
        blobs,
    } = packed;
    let width = width as usize;
    if (width == 0 && !cells.is_empty()) || (width > 0 && cells.len() % width != 0) {
        return Err(malformed(format!(
            "{} cells do not make rows of {width}",
            cells.len()
        )));
    }
    let mut integers = integers.into_iter();
    let mut reals = reals.into_iter();
    let mut text_ends = text_ends.into_iter();
    let mut blobs = blobs.into_iter();
    let mut rows = Vec::with_capacity(cells.len().checked_div(width).unwrap_or(0));
    // Never more than the cells: a width no host would send (no cells,
    // 4 billion columns) must not reserve memory for it.
    let row_capacity = width.min(cells.len());
    let mut row = Vec::with_capacity(row_capacity);
    let mut text_start = 0;
    for kind in cells.bytes() {
        let value = match kind {
            b'n' => Value::Null,
            b'i' => Value::Integer(integers.next().ok_or_else(|| fewer("integers"))?),
            b'r' => Value::Real(reals.next().ok_or_else(|| fewer("reals"))?),
            b't' => {
                let end = text_ends.next().ok_or_else(|| fewer("text ends"))? as usize;
                let cell = text.get(text_start..end).ok_or_else(|| {
                    malformed(format!(
                        "a text cell ends at byte {end}, before its start ({text_start}), past \
                         the text ({}) or inside a character",
                        text.len()
                    ))
                })?;
                text_start = end;
                Value::Text(cell.to_owned())
            }
            b'b' => Value::Blob(blobs.next().ok_or_else(|| fewer("blobs"))?),
            other => {
                return Err(malformed(format!(
                    "unknown cell kind {:?}",
                    char::from(other)
                )));
            }
        };
        row.push(value);
        if row.len() == width {
            rows.push(std::mem::replace(
                &mut row,
                Vec::with_capacity(row_capacity),
            ));
        }
    }
    let left = integers.len() + reals.len() + text_ends.len() + blobs.len();
    if left > 0 || text_start != text.len() {
        return Err(malformed(format!(
            "{left} values and {} bytes of text that no cell names",
            text.len() - text_start
        )));
    }
    Ok(Rows { rows })
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

    #[test]
    fn unpacks_each_kind_in_order() {
        let p = Packed {
            integers: vec![7, -1],
            reals: vec![1.5],
            text: "étéab".into(),
            text_ends: vec![5, 5, 7, 7],
            blobs: vec![vec![0, 255]],
            ..packed("itnrtbtti", 3)
        };
        let rows = unpack(p).unwrap().rows;
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
    fn refuses_rows_packed_wrongly() {
        let reason = |p: Packed| match unpack(p) {
            Err(StoreError::Other(m)) => m,
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
