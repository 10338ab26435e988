//! Board diagrams: rows of `X` (black), `O` (white) and `.` (empty), top row first.
//!
//! Spaces between points are optional, so `X.O` and `X . O` read the same. Leading and
//! trailing blank lines are ignored; every other line is one row and must have exactly
//! `width` points.

use std::path::Path;

use crate::board::{Board, Color, Point};
use crate::spec::location::Source;

/// The stones of a diagram, by point.
pub type Stones = Vec<(Point, Color)>;

/// A problem at a character of the diagram text (byte offset into the diagram string).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiagramError {
    /// Where the problem is, in bytes from the start of the diagram text; a reader adds the
    /// diagram's own position in its file to locate it there.
    pub offset: usize,
    /// What is wrong, in words for the person who wrote the diagram.
    pub message: String,
}

/// Reads a diagram for a `width` x `height` board.
pub fn parse(text: &str, width: u8, height: u8) -> Result<Stones, DiagramError> {
    let mut rows: Vec<(usize, &str)> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let content = line.trim_end_matches(['\n', '\r']);
        rows.push((offset, content));
        offset += line.len();
    }
    while rows.last().is_some_and(|(_, l)| l.trim().is_empty()) {
        rows.pop();
    }
    let first = rows
        .iter()
        .position(|(_, l)| !l.trim().is_empty())
        .unwrap_or(rows.len());
    let rows = &rows[first..];
    if rows.len() != usize::from(height) {
        return Err(DiagramError {
            offset: rows.first().map_or(0, |(o, _)| *o),
            message: format!(
                "the diagram has {} rows; the board has {height}",
                rows.len()
            ),
        });
    }
    let mut stones = Vec::new();
    for (i, (row_offset, line)) in rows.iter().enumerate() {
        let row = (usize::from(height) - 1 - i) as u8;
        let mut col = 0u8;
        for (j, ch) in line.char_indices() {
            let color = match ch {
                ' ' | '\t' => continue,
                '.' => None,
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                other => {
                    return Err(DiagramError {
                        offset: row_offset + j,
                        message: format!(
                            "`{other}` is not a point; use X (black), O (white) or . (empty)"
                        ),
                    })
                }
            };
            if col == width {
                return Err(DiagramError {
                    offset: row_offset + j,
                    message: format!("row {} has more than {width} points", i + 1),
                });
            }
            if let Some(c) = color {
                stones.push((Point::new(col, row), c));
            }
            col += 1;
        }
        if col != width {
            return Err(DiagramError {
                offset: row_offset + line.len(),
                message: format!("row {} has {col} points; the board is {width} wide", i + 1),
            });
        }
    }
    Ok(stones)
}

/// Reads a diagram file into a board, its size taken from the diagram. Problems name the
/// file, line and column.
pub fn read_board(path: &Path, text: &str) -> Result<Board, String> {
    let source = Source::new(path, text);
    let located = |offset: usize, message: String| {
        let (line, column) = source.line_column(offset);
        format!("{}:{line}:{column}: {message}", path.display())
    };
    let lines: Vec<(usize, &str)> = {
        let mut offset = 0;
        let mut out = Vec::new();
        for line in text.split_inclusive('\n') {
            out.push((offset, line.trim_end_matches(['\n', '\r'])));
            offset += line.len();
        }
        out
    };
    let Some(first) = lines.iter().position(|(_, l)| !l.trim().is_empty()) else {
        return Err(located(
            0,
            "the file holds no diagram: expected rows of X (black), O (white) and . (empty)"
                .to_string(),
        ));
    };
    let last = lines
        .iter()
        .rposition(|(_, l)| !l.trim().is_empty())
        .unwrap_or(first);
    let (first_offset, first_row) = lines[first];
    let width = first_row.chars().filter(|c| !c.is_whitespace()).count();
    let height = last - first + 1;
    let range = usize::from(crate::board::MIN_SIDE)..=usize::from(crate::board::MAX_SIDE);
    if !range.contains(&width) {
        return Err(located(
            first_offset,
            format!(
                "the first row has {width} points; a board is {} to {} points wide",
                range.start(),
                range.end()
            ),
        ));
    }
    if !range.contains(&height) {
        return Err(located(
            first_offset,
            format!(
                "the diagram has {height} rows; a board is {} to {} rows high",
                range.start(),
                range.end()
            ),
        ));
    }
    // Both fit in a u8: they are at most MAX_SIDE.
    let (width, height) = (width as u8, height as u8);
    let stones = parse(text, width, height).map_err(|e| located(e.offset, e.message))?;
    let mut board = Board::new(width, height).map_err(|e| located(first_offset, e.to_string()))?;
    for (p, c) in stones {
        board.set_stone(c, p);
    }
    if let Some(p) = board.string_without_liberty() {
        let row_offset = lines[first + usize::from(height - 1 - p.row)].0;
        let column_offset = lines[first + usize::from(height - 1 - p.row)]
            .1
            .char_indices()
            .filter(|(_, c)| !c.is_whitespace())
            .nth(usize::from(p.col))
            .map_or(0, |(i, _)| i);
        return Err(located(
            row_offset + column_offset,
            format!("the string at {p} has no liberty; a position must be one play can reach"),
        ));
    }
    Ok(board)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_are_read_top_first() {
        let stones = parse("\nX . .\n. . O\n", 3, 2).unwrap();
        assert_eq!(
            stones,
            vec![
                (Point::new(0, 1), Color::Black),
                (Point::new(2, 0), Color::White)
            ]
        );
        assert_eq!(parse("X..\n..O", 3, 2).unwrap(), stones);
    }

    #[test]
    fn ragged_and_unknown_characters_are_located() {
        let e = parse("X . .\n. .\n", 3, 2).unwrap_err();
        assert!(e.message.contains("row 2 has 2 points"), "{}", e.message);
        let e = parse("X . #\n. . .\n", 3, 2).unwrap_err();
        assert_eq!(e.offset, 4);
        let e = parse("X . .\n", 3, 2).unwrap_err();
        assert!(e.message.contains("1 rows"), "{}", e.message);
        let e = parse("X . . .\n. . .\n", 3, 2).unwrap_err();
        assert_eq!(e.offset, 6);
    }
}
