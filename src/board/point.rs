//! Colours, points and GTP vertex notation.
//!
//! Everything a person reads or writes uses GTP vertices: a column letter A-Z skipping I,
//! then a row number counted from 1 at the bottom. Internally a point is a (column, row)
//! pair counted from the bottom-left corner, so text and storage never disagree on
//! orientation.

use std::fmt;

/// The largest board side we accept. GTP letters A-Z without I give 25 columns.
pub const MAX_SIDE: u8 = 25;
/// The smallest board side we accept: a 1xN board has no interesting play.
pub const MIN_SIDE: u8 = 2;

/// Column letters in GTP order (no I).
const COLUMNS: &[u8; 25] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A player, or the colour of a stone.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The first player (without handicap stones).
    Black,
    /// The second player.
    White,
}

impl Color {
    /// Both colours, Black first.
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    /// The other player.
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: an index into per-colour arrays.
    pub fn index(self) -> usize {
        self as usize
    }

    /// The one-letter GTP/SGF form, `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// The diagram form, `X` for Black and `O` for White.
    pub fn stone_char(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// Parses `B`, `W`, `black`, `white` (any case), as GTP allows.
    pub fn parse(text: &str) -> Option<Color> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }

    /// The name in lower case, as used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// An intersection: column and row counted from 0 at the bottom-left.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Point {
    /// Column, 0 at the left (GTP letter A).
    pub col: u8,
    /// Row, 0 at the bottom (GTP row 1).
    pub row: u8,
}

/// The start of a text that is not a vertex, for an error: at most 20 characters and an
/// ellipsis, so that a peer sending a vertex of megabytes is not sent it back.
fn quoted(text: &str) -> String {
    const SHOWN: usize = 20;
    let text = text.trim();
    match text.char_indices().nth(SHOWN) {
        Some((cut, _)) => format!("{}...", &text[..cut]),
        None => text.to_string(),
    }
}

/// Why a vertex could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VertexError {
    /// Not a column letter and a row number.
    #[error(
        "`{0}` is not a vertex: expected a column letter A-Z (no I) and a row number, like D4"
    )]
    Malformed(String),
    /// A vertex beyond the edge of the board.
    #[error("`{text}` is off the {width}x{height} board")]
    OffBoard {
        /// The vertex as written.
        text: String,
        /// Columns of the board.
        width: u8,
        /// Rows of the board.
        height: u8,
    },
}

impl Point {
    /// The point at a column and row counted from the bottom-left corner.
    pub fn new(col: u8, row: u8) -> Point {
        Point { col, row }
    }

    /// Reads a GTP vertex such as `D4` or `t19` and checks it lies on a `width` x `height`
    /// board. `pass` is not a point; callers that accept passes check for it first.
    pub fn parse_gtp(text: &str, width: u8, height: u8) -> Result<Point, VertexError> {
        let malformed = || VertexError::Malformed(quoted(text));
        let bytes = text.trim().as_bytes();
        let (&letter, digits) = bytes.split_first().ok_or_else(malformed)?;
        let letter = letter.to_ascii_uppercase();
        // The column's place in COLUMNS (A to Z without I), by arithmetic: vertices are read
        // for every stone of every observation an engine sends.
        let col = match letter {
            b'A'..=b'H' => usize::from(letter - b'A'),
            b'J'..=b'Z' => usize::from(letter - b'A') - 1,
            _ => return Err(malformed()),
        };
        if digits.is_empty() || digits.len() > 2 || !digits.iter().all(u8::is_ascii_digit) {
            return Err(malformed());
        }
        let row = digits
            .iter()
            .fold(0usize, |row, d| row * 10 + usize::from(d - b'0'));
        if row == 0 || row > usize::from(height) || col >= usize::from(width) {
            return Err(VertexError::OffBoard {
                text: text.trim().to_string(),
                width,
                height,
            });
        }
        Ok(Point::new(col as u8, (row - 1) as u8))
    }

    /// The GTP vertex, e.g. `D4`.
    pub fn to_gtp(self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Point {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letter = COLUMNS
            .get(usize::from(self.col))
            .map(|&c| c as char)
            .unwrap_or('?');
        write!(f, "{}{}", letter, u32::from(self.row) + 1)
    }
}

/// A move: a board play at a point, or a pass.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// A stone put on this point.
    Play(Point),
    /// No stone: the turn passes.
    Pass,
}

impl Move {
    /// Reads `pass` or a GTP vertex.
    pub fn parse_gtp(text: &str, width: u8, height: u8) -> Result<Move, VertexError> {
        if text.trim().eq_ignore_ascii_case("pass") {
            Ok(Move::Pass)
        } else {
            Point::parse_gtp(text, width, height).map(Move::Play)
        }
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Play(p) => write!(f, "{p}"),
            Move::Pass => write!(f, "pass"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn vertices_skip_i_and_count_rows_from_the_bottom() {
        assert_eq!(Point::parse_gtp("A1", 19, 19), Ok(Point::new(0, 0)));
        assert_eq!(Point::parse_gtp("J1", 19, 19), Ok(Point::new(8, 0)));
        assert_eq!(Point::parse_gtp("t19", 19, 19), Ok(Point::new(18, 18)));
        assert_eq!(Point::new(8, 0).to_string(), "J1");
        assert_eq!(Point::new(24, 24).to_string(), "Z25");
    }

    /// Every point of the largest board reads back from its vertex, in either case.
    #[test]
    fn every_vertex_reads_back_to_its_point() {
        for col in 0..25 {
            for row in 0..25 {
                let p = Point::new(col, row);
                assert_eq!(Point::parse_gtp(&p.to_string(), 25, 25), Ok(p));
                let lower = p.to_string().to_ascii_lowercase();
                assert_eq!(Point::parse_gtp(&lower, 25, 25), Ok(p));
            }
        }
        for letter in [b'@', b'I', b'i', b'[', b'`', b'{', b'0'] {
            let text = format!("{}1", letter as char);
            assert!(Point::parse_gtp(&text, 25, 25).is_err(), "{text}");
        }
    }

    #[test]
    fn bad_vertices_are_errors_not_panics() {
        for text in ["", "I5", "A0", "A", "4A", "A-1", "A123", "é1"] {
            assert!(Point::parse_gtp(text, 19, 19).is_err(), "{text}");
        }
        assert!(matches!(
            Point::parse_gtp("T19", 9, 9),
            Err(VertexError::OffBoard { .. })
        ));
        assert!(matches!(
            Point::parse_gtp("A10", 9, 9),
            Err(VertexError::OffBoard { .. })
        ));
    }

    #[test]
    fn a_long_bad_vertex_is_not_echoed_whole() {
        let long = "é".repeat(100_000);
        let message = Point::parse_gtp(&long, 19, 19).unwrap_err().to_string();
        assert!(
            message.starts_with(&format!("`{}...`", "é".repeat(20))),
            "{message}"
        );
        assert!(message.len() < 200, "{message}");
    }

    #[test]
    fn rectangular_boards_check_each_side() {
        assert!(Point::parse_gtp("G3", 7, 3).is_ok());
        assert!(Point::parse_gtp("H3", 7, 3).is_err());
        assert!(Point::parse_gtp("G4", 7, 3).is_err());
    }
}
