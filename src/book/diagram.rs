//! Board diagrams as SVG: the picture of a position every text about Go rules uses, drawn
//! from a [`Board`] and a few marks.
//!
//! The drawing is plain SVG 1.1 (circles, lines, text), so the same markup works inline in
//! the book's HTML and as a standalone `.svg` file (`goconform show --format svg`). Columns
//! are lettered as GTP does (no I) and rows numbered from the bottom, like the text views.

use maud::{html, Markup};

use crate::board::{Board, Color, Point};

/// The spacing of the grid, in SVG user units.
const CELL: f32 = 24.0;
/// The room around the grid for coordinates.
const MARGIN: f32 = 26.0;
/// The width small boards are drawn at, at the least (in CSS pixels), so a 5x5 diagram
/// is as legible as a 9x9 one.
const MIN_WIDTH: f32 = 250.0;
/// The width boards of 13 lines and more are drawn at (in CSS pixels): a 19x19 diagram's
/// stones and coordinates then read at a 1280 px window (tests/browser/check-book.js measures
/// it), where the grid's own 24 units a line would be too small once the page shrank it.
const LARGE_WIDTH: f32 = 600.0;
/// The number of lines from which a board is drawn large.
const LARGE_LINES: u8 = 13;

/// What a diagram draws besides the stones.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Marks {
    /// The move the diagram is about: a ring on the stone (or on its number).
    pub last: Option<Point>,
    /// A move that was refused: drawn as a faint stone of the mover's colour under a cross.
    pub refused: Option<(Point, Color)>,
    /// Stones the move removed, drawn as faint stones with a dashed edge.
    pub removed: Vec<(Point, Color)>,
    /// Move numbers on stones (or on empty points, for a move whose stone has gone).
    pub numbers: Vec<(Point, usize)>,
}

/// A position to draw: the board, the marks and a caption that says what it shows (also the
/// SVG's `<title>`, for screen readers).
#[derive(Clone, Debug)]
pub struct Diagram<'a> {
    /// The position.
    pub board: &'a Board,
    /// What to point out on it: the last move, a refused move, removed stones, move numbers.
    pub marks: Marks,
    /// What it shows, in words.
    pub caption: String,
}

impl Diagram<'_> {
    fn size(&self) -> (f32, f32) {
        (
            2.0 * MARGIN + CELL * f32::from(self.board.width().saturating_sub(1)),
            2.0 * MARGIN + CELL * f32::from(self.board.height().saturating_sub(1)),
        )
    }

    /// The centre of a point in user units: column from the left, row 1 at the bottom.
    fn centre(&self, p: Point) -> (f32, f32) {
        let top_row = self.board.height().saturating_sub(1);
        (
            MARGIN + CELL * f32::from(p.col),
            MARGIN + CELL * f32::from(top_row.saturating_sub(p.row)),
        )
    }

    /// The diagram as an `<svg>` element for inline use in HTML.
    pub fn svg(&self) -> Markup {
        self.render(false)
    }

    /// The diagram as a standalone SVG document (`.svg` file).
    pub fn svg_document(&self) -> String {
        format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n{}\n",
            self.render(true).into_string()
        )
    }

    fn render(&self, standalone: bool) -> Markup {
        let (w, h) = self.size();
        let (width, height) = (self.board.width(), self.board.height());
        let large = width.max(height) >= LARGE_LINES;
        let scale = if large {
            (LARGE_WIDTH / w).max(1.0)
        } else {
            (MIN_WIDTH / w).clamp(1.0, 1.8)
        };
        let first = self.centre(Point::new(0, height.saturating_sub(1)));
        let last = self.centre(Point::new(width.saturating_sub(1), 0));
        let number_at = |p: Point| self.marks.numbers.iter().find(|(q, _)| *q == p);
        let xmlns = standalone.then_some("http://www.w3.org/2000/svg");
        html! {
            svg xmlns=[xmlns] class=(if large { "board large" } else { "board" }) viewBox=(format!("0 0 {w} {h}"))
                width=(w * scale) height=(h * scale) role="img" {
                title { (self.caption) }
                rect class="wood" x="0" y="0" width=(w) height=(h) fill="#dcb35c" {}
                @for col in 0..width {
                    @let (x, _) = self.centre(Point::new(col, 0));
                    line x1=(x) y1=(first.1) x2=(x) y2=(last.1) stroke="#000" stroke-width="0.8" {}
                    text x=(x) y=(h - 6.0) font-size="10" text-anchor="middle"
                        font-family="sans-serif" fill="#000" { (column_letter(col)) }
                }
                @for row in 0..height {
                    @let (_, y) = self.centre(Point::new(0, row));
                    line x1=(first.0) y1=(y) x2=(last.0) y2=(y) stroke="#000" stroke-width="0.8" {}
                    text x="11" y=(y + 3.5) font-size="10" text-anchor="middle"
                        font-family="sans-serif" fill="#000" { (u32::from(row) + 1) }
                }
                @for p in star_points(width, height) {
                    @let (x, y) = self.centre(p);
                    circle cx=(x) cy=(y) r="2.6" fill="#000" {}
                }
                @for (p, c) in &self.marks.removed {
                    @let (x, y) = self.centre(*p);
                    circle class="removed" cx=(x) cy=(y) r=(CELL * 0.45) fill=(fill(*c))
                        fill-opacity="0.4" stroke="#333" stroke-width="1.2" stroke-dasharray="3 2" {}
                }
                @for (p, c) in self.board.stones() {
                    @let (x, y) = self.centre(p);
                    circle class=(stone_class(c)) cx=(x) cy=(y) r=(CELL * 0.47) fill=(fill(c))
                        stroke="#000" stroke-width="1" {}
                }
                @if let Some((p, c)) = self.marks.refused {
                    @let (x, y) = self.centre(p);
                    @let d = CELL * 0.3;
                    circle class="refused" cx=(x) cy=(y) r=(CELL * 0.47) fill=(fill(c))
                        fill-opacity="0.35" stroke="#b00" stroke-width="1.5" {}
                    path d=(format!("M{} {}L{} {}M{} {}L{} {}", x - d, y - d, x + d, y + d, x - d, y + d, x + d, y - d))
                        stroke="#c00" stroke-width="3" stroke-linecap="round" {}
                }
                @for (p, n) in &self.marks.numbers {
                    @let (x, y) = self.centre(*p);
                    @let on = self.board.get(*p);
                    @let colour = if Some(*p) == self.marks.last { "#d00" } else { ink(on) };
                    text class="number" x=(x) y=(y + 4.0) font-size=(if *n >= 100 { "9" } else { "11" })
                        font-weight="bold" text-anchor="middle" font-family="sans-serif"
                        fill=(colour) { (n) }
                }
                @if let Some(p) = self.marks.last.filter(|p| number_at(*p).is_none()) {
                    @let (x, y) = self.centre(p);
                    circle class="last" cx=(x) cy=(y) r=(CELL * 0.22) fill="none"
                        stroke=(if self.board.get(p).is_some() { "#d00" } else { "#000" }) stroke-width="2.2" {}
                }
            }
        }
    }
}

/// The column letter of GTP (A to Z without I), as the text views print it.
fn column_letter(col: u8) -> String {
    Point::new(col, 0)
        .to_string()
        .chars()
        .take_while(|c| c.is_ascii_alphabetic())
        .collect()
}

fn fill(c: Color) -> &'static str {
    match c {
        Color::Black => "#111",
        Color::White => "#fafafa",
    }
}

fn stone_class(c: Color) -> &'static str {
    match c {
        Color::Black => "stone black",
        Color::White => "stone white",
    }
}

/// Ink that shows on a point: white on a black stone, black elsewhere.
fn ink(on: Option<Color>) -> &'static str {
    match on {
        Some(Color::Black) => "#fff",
        _ => "#000",
    }
}

/// The star points of the usual square sizes (none on boards smaller than 7x7).
fn star_points(width: u8, height: u8) -> Vec<Point> {
    if width != height || width < 7 {
        return Vec::new();
    }
    let edge = if width < 13 { 2 } else { 3 };
    let far = width - 1 - edge;
    let mut points = vec![
        Point::new(edge, edge),
        Point::new(far, edge),
        Point::new(edge, far),
        Point::new(far, far),
    ];
    if width % 2 == 1 && width >= 9 {
        let mid = width / 2;
        points.push(Point::new(mid, mid));
        if width >= 13 {
            points.extend([
                Point::new(mid, edge),
                Point::new(mid, far),
                Point::new(edge, mid),
                Point::new(far, mid),
            ]);
        }
    }
    points
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(text: &str) -> Board {
        let rows: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let height = rows.len() as u8;
        let width = rows[0].split_whitespace().count() as u8;
        let mut b = Board::new(width, height).unwrap();
        for (i, line) in rows.iter().enumerate() {
            for (col, cell) in line.split_whitespace().enumerate() {
                let p = Point::new(col as u8, height - 1 - i as u8);
                match cell {
                    "X" => assert!(b.set_stone(Color::Black, p)),
                    "O" => assert!(b.set_stone(Color::White, p)),
                    _ => {}
                }
            }
        }
        b
    }

    #[test]
    fn stones_marks_and_coordinates_are_drawn() {
        let b = board(
            ". X O\n\
             X . .\n\
             . . O",
        );
        let d = Diagram {
            board: &b,
            marks: Marks {
                last: Some(Point::new(2, 2)),
                refused: Some((Point::new(1, 1), Color::White)),
                removed: vec![(Point::new(0, 0), Color::Black)],
                numbers: vec![(Point::new(1, 2), 7)],
            },
            caption: "a <test> & more".to_string(),
        };
        let svg = d.svg().into_string();
        assert_eq!(svg.matches("class=\"stone black\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("class=\"stone white\"").count(), 2, "{svg}");
        assert_eq!(svg.matches("class=\"removed\"").count(), 1);
        assert_eq!(svg.matches("class=\"refused\"").count(), 1);
        assert_eq!(svg.matches("class=\"last\"").count(), 1);
        assert!(svg.contains(">7</text>"), "{svg}");
        assert!(
            svg.contains("<title>a &lt;test&gt; &amp; more</title>"),
            "{svg}"
        );
        for letter in ["A", "B", "C"] {
            assert!(svg.contains(&format!(">{letter}</text>")), "{svg}");
        }
        assert!(!svg.contains("xmlns"));
        let doc = d.svg_document();
        assert!(doc.starts_with("<?xml"));
        assert!(doc.contains("xmlns=\"http://www.w3.org/2000/svg\""));
        // The top-left point (A3) is drawn above the bottom-left one (A1).
        let (_, y_top) = d.centre(Point::new(0, 2));
        let (_, y_bottom) = d.centre(Point::new(0, 0));
        assert!(y_top < y_bottom);
    }

    #[test]
    fn columns_skip_i_and_star_points_follow_the_size() {
        assert_eq!(column_letter(7), "H");
        assert_eq!(column_letter(8), "J");
        assert_eq!(star_points(19, 19).len(), 9);
        assert_eq!(star_points(9, 9).len(), 5);
        assert_eq!(star_points(13, 13).len(), 9);
        assert!(star_points(5, 5).is_empty());
        assert!(star_points(9, 7).is_empty());
    }
}
