//! A set of a board's points held as bits of the board's padded indices: the form of the
//! board's own bit planes, so that whole sets (the empty points, the points next to an empty
//! one) are computed a word at a time, and the points come out row by row.

use super::{Point, MAX_SIDE};

/// Words of a set: one bit for every padded index of the largest board (25x25 and its border,
/// 729 points), and no more, since whole sets are copied as they are made and combined.
pub(super) const WORDS: usize = ((MAX_SIDE as usize + 2) * (MAX_SIDE as usize + 2)).div_ceil(64);

/// Points of one board (its size fixed when the set is made), in no particular order inside,
/// listed row by row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointSet {
    pub(super) words: [u64; WORDS],
    stride: usize,
    /// `2^16 / stride` rounded up: a padded index times this, shifted right by 16, is its
    /// row (exact for every index below 1,024 and every stride of a board: the rounding error
    /// is below the stride, so below 2^6, and indices are below 2^10).
    reciprocal: u32,
    width: u8,
    height: u8,
}

impl PointSet {
    /// An empty set of points of a `width` x `height` board whose padded rows are `stride`
    /// points long.
    pub(super) fn new(width: u8, height: u8, stride: usize) -> PointSet {
        PointSet {
            words: [0; WORDS],
            stride,
            reciprocal: (1u32 << 16).div_ceil(stride as u32),
            width,
            height,
        }
    }

    /// The bit of `p`, a point of the board.
    fn bit(&self, p: Point) -> usize {
        debug_assert!(
            p.col < self.width && p.row < self.height,
            "{p:?} is off the board"
        );
        (usize::from(p.row) + 1) * self.stride + usize::from(p.col) + 1
    }

    /// Adds `p`, a point of the board.
    pub fn insert(&mut self, p: Point) {
        let bit = self.bit(p);
        self.words[bit / 64] |= 1 << (bit % 64);
    }

    /// Takes `p`, a point of the board, out; whether it was in.
    pub fn remove(&mut self, p: Point) -> bool {
        let bit = self.bit(p);
        let was = self.words[bit / 64] & (1 << (bit % 64)) != 0;
        self.words[bit / 64] &= !(1 << (bit % 64));
        was
    }

    /// Whether `p`, a point of the board, is in.
    pub fn contains(&self, p: Point) -> bool {
        let bit = self.bit(p);
        self.words[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// Takes every point out.
    pub fn clear(&mut self) {
        self.words = [0; WORDS];
    }

    /// Adds every point of `other`, a set of the same board.
    pub fn extend(&mut self, other: &PointSet) {
        debug_assert_eq!(
            (self.stride, self.width, self.height),
            (other.stride, other.width, other.height)
        );
        for (w, o) in self.words.iter_mut().zip(other.words) {
            *w |= o;
        }
    }

    /// Number of points in the set.
    pub fn len(&self) -> usize {
        self.words.iter().map(|w| w.count_ones() as usize).sum()
    }

    /// Whether the set has no point.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Calls `visit` with every point, row 0 first, each row's columns in turn: the order of
    /// the padded indices, so the set bits are taken word after word, and each index turned
    /// into its row and column with a multiplication (no division, and no branch at the end of
    /// each row).
    #[inline]
    pub fn for_each(&self, mut visit: impl FnMut(Point)) {
        let used = ((usize::from(self.height) + 2) * self.stride).div_ceil(64);
        for (w, &word) in self.words[..used.min(WORDS)].iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let index = (w * 64) as u32 + bits.trailing_zeros();
                bits &= bits - 1;
                let padded_row = (index * self.reciprocal) >> 16;
                let padded_col = index - padded_row * self.stride as u32;
                // A set holds only points of the board, never its border.
                visit(Point::new(padded_col as u8 - 1, padded_row as u8 - 1));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn points_go_in_and_come_out_row_by_row() {
        for (width, height) in [(2u8, 2u8), (9, 9), (19, 19), (25, 25), (25, 3), (3, 25)] {
            let stride = usize::from(width) + 2;
            let mut set = PointSet::new(width, height, stride);
            let mut expected = Vec::new();
            for row in 0..height {
                for col in 0..width {
                    if (col * 7 + row * 3) % 5 < 2 || col == width - 1 {
                        expected.push(Point::new(col, row));
                    }
                }
            }
            // Inserted backwards: the order out is the set's own.
            for &p in expected.iter().rev() {
                set.insert(p);
            }
            let mut seen = Vec::new();
            set.for_each(|p| seen.push(p));
            assert_eq!(seen, expected, "{width}x{height}");
            assert_eq!(set.len(), expected.len());
            assert!(set.contains(expected[0]));
            assert!(set.remove(expected[0]));
            assert!(!set.remove(expected[0]));
            assert!(!set.contains(expected[0]));
        }
        assert!(PointSet::new(9, 9, 11).is_empty());
    }

    #[test]
    fn the_reciprocal_gives_every_row_of_every_board() {
        for side in 2..=MAX_SIDE as usize {
            let stride = side + 2;
            let set = PointSet::new(side as u8, side as u8, stride);
            for index in 0..1024u32 {
                assert_eq!(
                    (index * set.reciprocal) >> 16,
                    index / stride as u32,
                    "index {index}, stride {stride}"
                );
            }
        }
    }
}
