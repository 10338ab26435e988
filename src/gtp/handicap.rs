//! Fixed handicap placement as the GTP 2 specification defines it (section 4.1.1).
//!
//! The specification's table is for 19x19 (D4 Q16 D16 Q4, then D10 Q10, then K4 K16, with
//! tengen K10 added for odd counts from 5), and the same pattern applies to other square
//! boards: corner stones on the fourth line from 13x13 up and on the third line below that;
//! on even sizes and on 7x7 there is no centre line, so at most four stones; below 7x7 there
//! is no fixed handicap. GNU Go places the same points.

use crate::board::Point;

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
/// the specification's table, or `None` where the specification defines no placement.
pub fn fixed_points(size: u8, stones: u32) -> Option<Vec<Point>> {
    if stones < 2 || stones > max_fixed(size) {
        return None;
    }
    let low = if size >= 13 { 3 } else { 2 };
    let high = size - 1 - low;
    let mid = size / 2;
    let corners = [
        Point::new(low, low),
        Point::new(high, high),
        Point::new(low, high),
        Point::new(high, low),
    ];
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
        fixed_points(size, stones)
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
    fn undefined_placements_are_refused() {
        for (size, stones) in [(19, 1), (19, 10), (19, 0), (8, 5), (7, 5), (6, 2), (2, 2)] {
            assert_eq!(fixed_points(size, stones), None, "{size} {stones}");
        }
        assert!(fixed_points(25, 9).is_some());
        assert!(fixed_points(11, 9).is_some());
    }
}
