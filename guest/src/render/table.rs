//! Aligned columns of styled cells. Tables are what make lists of lists,
//! tasks and audit events readable at a glance; detail rows (a task's notes)
//! hang under a given column without widening it.

use super::{Line, LineBuf, Span, Style, fmt};

/// How a column's cells sit in their width.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Align {
    /// Text columns.
    Left,
    /// Numbers (positions), so their digits line up.
    Right,
}

/// One row: aligned cells, or a free line starting under a column.
#[derive(Debug)]
enum Row {
    Cells(Vec<Vec<Span>>),
    Detail { column: usize, spans: Vec<Span> },
}

/// A table under construction; [`Table::lines`] lays it out.
#[derive(Debug)]
pub(crate) struct Table {
    align: Vec<Align>,
    indent: usize,
    rows: Vec<Row>,
}

/// Space between two columns.
const GAP: usize = 2;

impl Table {
    /// A table whose columns align as given (extra cells align left).
    pub(crate) fn new(align: &[Align]) -> Self {
        Table {
            align: align.to_vec(),
            indent: 0,
            rows: Vec::new(),
        }
    }

    /// Indents every line by `n` columns (rows nested under a header).
    pub(crate) fn indent(mut self, n: usize) -> Self {
        self.indent = n;
        self
    }

    /// Adds a row of cells; a cell is a few spans, possibly none.
    pub(crate) fn row(&mut self, cells: Vec<Vec<Span>>) {
        self.rows.push(Row::Cells(cells));
    }

    /// Adds a free line that starts where `column` starts and does not
    /// count towards column widths (so long notes do not stretch the table).
    pub(crate) fn detail(&mut self, column: usize, spans: Vec<Span>) {
        self.rows.push(Row::Detail { column, spans });
    }

    /// Lays the rows out: columns as wide as their widest cell, columns
    /// empty in every row dropped, no trailing blanks.
    pub(crate) fn lines(self) -> Vec<Line> {
        let cell_width = |c: &Vec<Span>| c.iter().map(|s| fmt::width(&s.text)).sum::<usize>();
        let ncols = self
            .rows
            .iter()
            .map(|r| match r {
                Row::Cells(c) => c.len(),
                Row::Detail { .. } => 0,
            })
            .max()
            .unwrap_or(0);
        let mut widths = vec![0usize; ncols];
        for row in &self.rows {
            if let Row::Cells(cells) = row {
                for (i, c) in cells.iter().enumerate() {
                    widths[i] = widths[i].max(cell_width(c));
                }
            }
        }
        // Where each column starts, skipping empty columns entirely.
        let mut starts = vec![self.indent; ncols];
        let mut x = self.indent;
        for i in 0..ncols {
            starts[i] = x;
            if widths[i] > 0 {
                x += widths[i] + GAP;
            }
        }
        let align = |i: usize| self.align.get(i).copied().unwrap_or(Align::Left);
        let mut out = Vec::with_capacity(self.rows.len());
        for row in &self.rows {
            let mut line = LineBuf::new();
            line.push(" ".repeat(self.indent), Style::Text);
            match row {
                Row::Detail { column, spans } => {
                    let start = starts.get(*column).copied().unwrap_or(self.indent);
                    line.push(" ".repeat(start.saturating_sub(self.indent)), Style::Text);
                    line.extend(spans);
                }
                Row::Cells(cells) => {
                    let last = cells.iter().rposition(|c| cell_width(c) > 0);
                    for (i, cell) in cells.iter().enumerate() {
                        if widths[i] == 0 {
                            continue;
                        }
                        if last.is_none_or(|l| i > l) {
                            break;
                        }
                        let pad = " ".repeat(widths[i].saturating_sub(cell_width(cell)));
                        match align(i) {
                            Align::Right => {
                                line.push(&pad, Style::Text).extend(cell);
                            }
                            Align::Left => {
                                line.extend(cell).push(&pad, Style::Text);
                            }
                        }
                        line.push(" ".repeat(GAP), Style::Text);
                    }
                }
            }
            out.push(line.finish());
        }
        out
    }
}

/// A one-span cell.
pub(crate) fn cell(text: impl Into<String>, style: Style) -> Vec<Span> {
    let text = fmt::one_line(&text.into());
    if text.is_empty() {
        Vec::new()
    } else {
        vec![Span { text, style }]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::to_plain;

    #[test]
    fn columns_align_and_lines_have_no_trailing_blanks() {
        let mut t = Table::new(&[Align::Right, Align::Left, Align::Left]).indent(2);
        t.row(vec![
            cell("1", Style::Muted),
            cell("short", Style::Text),
            cell("x", Style::Muted),
        ]);
        t.row(vec![
            cell("10", Style::Muted),
            cell("a longer one", Style::Text),
            vec![],
        ]);
        t.row(vec![
            cell("3", Style::Muted),
            vec![],
            cell("y", Style::Muted),
        ]);
        t.detail(1, cell("under the second column", Style::Muted));
        assert_eq!(
            to_plain(&t.lines()),
            "   1  short         x\n  10  a longer one\n   3                y\n      under the second column"
        );
    }

    #[test]
    fn empty_columns_vanish() {
        let mut t = Table::new(&[]);
        t.row(vec![cell("a", Style::Text), vec![], cell("b", Style::Text)]);
        t.row(vec![cell("cc", Style::Text), vec![], vec![]]);
        assert_eq!(to_plain(&t.lines()), "a   b\ncc");
        assert!(Table::new(&[]).lines().is_empty());
    }
}
