//! Fixed handicap placement: which star points hold the handicap stones.
//!
//! Two tables are in use and they differ only for three stones. The AGA rules (Rule 4) and
//! the traditional placement give the third stone to the lower right corner (D4 Q16 Q4),
//! leaving the upper left open; the GTP 2 specification (section 4.1.1), which GNU Go follows,
//! gives it to the upper left (D4 Q16 D16). The rules of play use [`Pattern::Traditional`];
//! GTP's `fixed_handicap` uses [`Pattern::Gtp`], because controllers expect the specification.
//!
//! Otherwise both are the 19x19 table (the four corners, then D10 Q10, then K4 K16, with
//! tengen K10 added for odd counts from 5), applied to other square boards the same way:
//! corner stones on the fourth line from 13x13 up and on the third line below that; on even
//! sizes and on 7x7 there is no centre line, so at most four stones; below 7x7 there is no
//! fixed handicap.

use crate::board::Point;

/// The most handicap stones any placement allows: no ruleset has a standard above nine.
pub const MAX_HANDICAP: usize = 9;

/// Which table of fixed placements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pattern {
    /// AGA Rule 4 and the traditional placement: three stones are D4 Q16 Q4.
    Traditional,
    /// The GTP 2 specification: three stones are D4 Q16 D16.
    Gtp,
}

/// The largest fixed handicap on a square board of this size (0 if none is defined).
pub fn max_fixed(size: u8) -> u32 {
    match size {
        0..=6 => 0,
        7 => 4,
        s if s % 2 == 0 => 4,
        _ => 9,
    }
}

/// The points of `stones` fixed handicap stones on a `size` x `size` board, in the order of
/// the table, or `None` where no placement is defined.
pub fn fixed_points(pattern: Pattern, size: u8, stones: u32) -> Option<Vec<Point>> {
    if stones < 2 || stones > max_fixed(size) {
        return None;
    }
    let low = if size >= 13 { 3 } else { 2 };
    let high = size - 1 - low;
    let mid = size / 2;
    let mut corners = [
        Point::new(low, low),
        Point::new(high, high),
        Point::new(low, high),
        Point::new(high, low),
    ];
    if pattern == Pattern::Traditional {
        corners.swap(2, 3);
    }
    let sides = [
        Point::new(low, mid),
        Point::new(high, mid),
        Point::new(mid, low),
        Point::new(mid, high),
    ];
    let centre = Point::new(mid, mid);
    let stones = stones as usize;
    let mut points: Vec<Point> = corners.iter().copied().take(stones).collect();
    // Above four stones the side points come in pairs; an odd count adds the centre.
    let side_count = if stones > 4 { (stones - 4) / 2 * 2 } else { 0 };
    points.extend(sides.iter().copied().take(side_count));
    if stones > 4 && stones % 2 == 1 {
        points.push(centre);
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(size: u8, stones: u32) -> Vec<String> {
        named(Pattern::Gtp, size, stones)
    }

    fn named(pattern: Pattern, size: u8, stones: u32) -> Vec<String> {
        fixed_points(pattern, size, stones)
            .unwrap()
            .iter()
            .map(|p| p.to_string())
            .collect()
    }

    #[test]
    fn nineteen_follows_the_specification_table() {
        assert_eq!(names(19, 2), ["D4", "Q16"]);
        assert_eq!(names(19, 3), ["D4", "Q16", "D16"]);
        assert_eq!(names(19, 4), ["D4", "Q16", "D16", "Q4"]);
        assert_eq!(names(19, 5), ["D4", "Q16", "D16", "Q4", "K10"]);
        assert_eq!(names(19, 6), ["D4", "Q16", "D16", "Q4", "D10", "Q10"]);
        assert_eq!(
            names(19, 7),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K10"]
        );
        assert_eq!(
            names(19, 8),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16"]
        );
        assert_eq!(
            names(19, 9),
            ["D4", "Q16", "D16", "Q4", "D10", "Q10", "K4", "K16", "K10"]
        );
    }

    #[test]
    fn smaller_boards_use_the_third_line() {
        assert_eq!(names(13, 5), ["D4", "K10", "D10", "K4", "G7"]);
        assert_eq!(
            names(9, 9),
            ["C3", "G7", "C7", "G3", "C5", "G5", "E3", "E7", "E5"]
        );
        assert_eq!(names(8, 4), ["C3", "F6", "C6", "F3"]);
        assert_eq!(names(7, 4), ["C3", "E5", "C5", "E3"]);
    }

    #[test]
    fn the_traditional_table_differs_only_for_three_stones() {
        assert_eq!(named(Pattern::Traditional, 19, 3), ["D4", "Q16", "Q4"]);
        assert_eq!(named(Pattern::Traditional, 9, 3), ["C3", "G7", "G3"]);
        for stones in (2..=9).filter(|&n| n != 3) {
            let mut traditional = named(Pattern::Traditional, 19, stones);
            let mut gtp = named(Pattern::Gtp, 19, stones);
            traditional.sort();
            gtp.sort();
            assert_eq!(traditional, gtp, "{stones} stones");
        }
    }

    #[test]
    fn undefined_placements_are_refused() {
        for (size, stones) in [(19, 1), (19, 10), (19, 0), (8, 5), (7, 5), (6, 2), (2, 2)] {
            assert_eq!(
                fixed_points(Pattern::Gtp, size, stones),
                None,
                "{size} {stones}"
            );
        }
        assert!(fixed_points(Pattern::Gtp, 25, 9).is_some());
        assert!(fixed_points(Pattern::Traditional, 11, 9).is_some());
    }
}
