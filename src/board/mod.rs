//! The board: stones, strings, liberties, captures and Zobrist hashes.
//!
//! This layer knows nothing of rules, files or text formats beyond GTP vertices. It can place a
//! stone and resolve captures in the order every ruleset here agrees on (opposing strings
//! without liberties first, then the mover's own), and it can preview a play without changing
//! anything, which is what legality checks and superko need.
//!
//! Strings are kept incrementally: each stone points at its string's head, stones of a string
//! form a circular list, and the head carries the string's size, its pseudo-liberty count (the
//! number of stone/empty-neighbour adjacencies, zero exactly when the string has no liberty)
//! and the xor of its stones' Zobrist keys, so the hash after a capture is known without
//! walking the board.

mod point;
mod point_set;
mod zobrist;

pub use point::{Color, Move, Point, VertexError, MAX_SIDE, MIN_SIDE};
pub use point_set::PointSet;

use std::fmt;
use std::ops::{Index, IndexMut};

/// Padded points a board has room for, a power of two above the 27x27 of a 25x25 board, so
/// that an index masked by `CAPACITY - 1` is in range by construction.
const CAPACITY: usize = 1024;
const _: () = assert!(CAPACITY.is_power_of_two() && CAPACITY > 27 * 27);

/// An index past every padded point (so it holds `BORDER` and heads no string): "no string"
/// in [`Board::preview`].
const NO_STRING: usize = CAPACITY - 1;

/// One value per padded point, indexed without a bounds check: the index is masked into
/// range. Every index the board computes is below the padded area (a point's neighbours
/// are on the board or on its border), so the mask never changes one; a debug build
/// asserts it.
#[derive(Clone, PartialEq, Eq)]
struct Grid<T>(Box<[T; CAPACITY]>);

impl<T: Copy> Grid<T> {
    fn new(fill: T) -> Grid<T> {
        Grid(Box::new([fill; CAPACITY]))
    }

    fn swap(&mut self, a: usize, b: usize) {
        self.0.swap(a & (CAPACITY - 1), b & (CAPACITY - 1));
    }
}

impl<T> Index<usize> for Grid<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        debug_assert!(i < CAPACITY);
        &self.0[i & (CAPACITY - 1)]
    }
}

impl<T> IndexMut<usize> for Grid<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < CAPACITY);
        &mut self.0[i & (CAPACITY - 1)]
    }
}

const EMPTY: u8 = 0;
const BLACK: u8 = 1;
const WHITE: u8 = 2;
const BORDER: u8 = 3;

/// Where [`Board`]'s `around` counts the neighbours holding `cell` (empty, black or white):
/// four bits for each content, for at most four neighbours.
#[inline(always)]
fn neighbour_shift(cell: u8) -> u32 {
    u32::from(cell) * 4
}
const NEIGHBOUR_MASK: u16 = 0xF;

/// Whether a point whose neighbours' counts (from [`Board`]'s `around`) are `around` has an
/// empty neighbour: a stone played there keeps a liberty whatever it captures.
#[inline(always)]
fn has_empty_neighbour(around: u16) -> bool {
    around & (NEIGHBOUR_MASK << neighbour_shift(EMPTY)) != 0
}

/// The liberties string `h` loses to a stone played where `heads` (from
/// [`Board::string_heads`]) are the neighbours: one for each neighbouring stone of it.
#[inline(always)]
fn liberties_lost(heads: &[usize; 4], h: usize) -> u16 {
    heads.iter().map(|&x| u16::from(x == h)).sum()
}

fn cell_of(color: Color) -> u8 {
    match color {
        Color::Black => BLACK,
        Color::White => WHITE,
    }
}

fn color_of(cell: u8) -> Option<Color> {
    match cell {
        BLACK => Some(Color::Black),
        WHITE => Some(Color::White),
        _ => None,
    }
}

/// A board size outside 2x2..=25x25.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a board must be between {MIN_SIDE}x{MIN_SIDE} and {MAX_SIDE}x{MAX_SIDE}; {width}x{height} is not")]
pub struct SizeError {
    /// The width asked for.
    pub width: u32,
    /// The height asked for.
    pub height: u32,
}

/// What a play would do, computed without changing the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PlayPreview {
    /// Opposing stones the play removes.
    pub captured: u32,
    /// The mover's own stones removed because they have no liberty after the captures (the
    /// played stone included). Zero whenever `captured` is non-zero.
    pub self_captured: u32,
    /// The Zobrist hash of the board after the play.
    pub hash_after: u64,
    /// True when the play captures exactly one stone and leaves the played stone alone in a
    /// string with that one captured point as its only liberty: the shape of a basic ko.
    pub ko_shape: bool,
}

/// The empty points of a board sorted by what a play there would do: [`Board::turn_plays`].
/// Every empty point is in exactly one of the three.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnPlays {
    /// Where a play keeps its stone (and captures nothing, where captures are kept apart).
    pub keeps: PointSet,
    /// Where a play captures, where captures are kept apart (else empty).
    pub captures: PointSet,
    /// Where a play captures nothing and its stone (with any string it joins) is left without
    /// a liberty.
    pub lost: PointSet,
}

/// A play as [`Board::quiet_play`] sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuietPlay {
    /// It captures nothing and its stone stays on the board; the hash of the position after it.
    Keeps {
        /// The Zobrist hash of the board after the play.
        hash_after: u64,
    },
    /// It captures nothing and its stone (with any string it joins) is left without a
    /// liberty.
    Lost,
    /// It captures at least one opposing string: [`Board::preview`] tells the rest.
    Captures,
}

/// What a play did: how many stones each side lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Removal {
    /// Opposing stones removed.
    pub captured: u32,
    /// The mover's own stones removed (only where the rules allow self-capture).
    pub self_captured: u32,
    /// True when the play captured exactly one stone and left the played stone alone in a
    /// string whose only liberty is the captured point: the shape of a basic ko, as
    /// [`PlayPreview::ko_shape`] foresaw it.
    pub ko_shape: bool,
}

/// A rectangular Go board with incrementally maintained strings.
#[derive(Clone)]
pub struct Board {
    width: u8,
    height: u8,
    stride: usize,
    /// Padded points: `BORDER` around the board and past its end.
    cells: Grid<u8>,
    head: Grid<u16>,
    next: Grid<u16>,
    libs: Grid<u16>,
    size: Grid<u16>,
    string_hash: Grid<u64>,
    /// For every point, what its neighbours on the board hold: a count of each kind of
    /// content in its own four bits (`neighbour_shift`), kept as stones come and go. Read
    /// only for empty points; what border points hold is never read.
    around: Grid<u16>,
    hash: u64,
    stones: [u32; 2],
    /// The stones again as two bit planes over the padded indices, Black's words then
    /// White's: the compact form of a whole position that snapshots copy and compare.
    planes: Vec<u64>,
    /// Words in one plane.
    plane_words: usize,
    /// The board's points as a plane: the bits of the padded indices that are not border
    /// (boxed, as the per-point arrays are, to keep a board value small).
    on_board: Box<[u64; point_set::WORDS]>,
    /// One bit a word of `planes`: set for every word written since the last
    /// [`Board::take_changed_words`] (a superset of the words whose value changed).
    changed: u32,
}

/// A board's state saved by [`Board::save`], for [`Board::restore`] to put back: how a search
/// (perft) takes back moves without copying whole boards. Only the padded points a board of
/// its size uses are kept (36 on a 4x4 board, against the 1,024 a board has room for), and the
/// buffers are reused from one save to the next.
#[derive(Clone, Debug, Default)]
pub struct BoardMark {
    cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    libs: Vec<u16>,
    size: Vec<u16>,
    string_hash: Vec<u64>,
    around: Vec<u16>,
    hash: u64,
    stones: [u32; 2],
    planes: Vec<u64>,
    changed: u32,
}

/// Refuses a size outside what a board can have.
fn check_size(width: u8, height: u8) -> Result<(), SizeError> {
    if (MIN_SIDE..=MAX_SIDE).contains(&width) && (MIN_SIDE..=MAX_SIDE).contains(&height) {
        Ok(())
    } else {
        Err(SizeError {
            width: width.into(),
            height: height.into(),
        })
    }
}

impl Board {
    /// An empty board of the given size.
    pub fn new(width: u8, height: u8) -> Result<Board, SizeError> {
        check_size(width, height)?;
        let mut board = Board {
            width,
            height,
            stride: 0,
            planes: Vec::new(),
            plane_words: 0,
            on_board: Box::new([0; point_set::WORDS]),
            changed: 0,
            cells: Grid::new(BORDER),
            head: Grid::new(0),
            next: Grid::new(0),
            libs: Grid::new(0),
            size: Grid::new(0),
            string_hash: Grid::new(0),
            around: Grid::new(0),
            hash: 0,
            stones: [0, 0],
        };
        board.lay_out(width, height);
        Ok(board)
    }

    /// Empties the board and gives it a new size in the storage it has: what [`Board::new`]
    /// makes, without allocating and filling its per-point arrays again (a new board fills
    /// 17 KB, which was most of the cost of starting a short game). Only the points and the
    /// bit planes are laid out anew: the strings' arrays are read only for points that hold a
    /// stone, and each entry is written when its stone is placed, so what the last game left
    /// in them is never seen.
    pub fn reset(&mut self, width: u8, height: u8) -> Result<(), SizeError> {
        check_size(width, height)?;
        self.lay_out(width, height);
        Ok(())
    }

    /// Lays out an empty board of a checked size: every point's cell, the bit planes, the
    /// hash and the stone counts.
    fn lay_out(&mut self, width: u8, height: u8) {
        let stride = usize::from(width) + 2;
        let len = stride * (usize::from(height) + 2);
        self.cells.0.fill(BORDER);
        for row in 0..height {
            for col in 0..width {
                self.cells[(usize::from(row) + 1) * stride + usize::from(col) + 1] = EMPTY;
            }
        }
        self.stride = stride;
        self.on_board.fill(0);
        for row in 0..height {
            for col in 0..width {
                let index = (usize::from(row) + 1) * stride + usize::from(col) + 1;
                self.on_board[index / 64] |= 1 << (index % 64);
                let empty = self
                    .neighbours(index)
                    .iter()
                    .map(|&n| u16::from(self.cells[n] == EMPTY))
                    .sum::<u16>();
                self.around[index] = empty << neighbour_shift(EMPTY);
            }
        }
        let plane_words = len.div_ceil(64);
        // 25x25 padded is 729 points, 12 words a plane: every word has its bit in `changed`.
        debug_assert!(2 * plane_words <= 32);
        self.planes.clear();
        self.planes.resize(2 * plane_words, 0);
        self.plane_words = plane_words;
        self.changed = 0;
        self.width = width;
        self.height = height;
        self.hash = 0;
        self.stones = [0, 0];
    }

    /// Padded points this board's size uses: its points and their border.
    fn padded_len(&self) -> usize {
        self.stride * (usize::from(self.height) + 2)
    }

    /// Saves the whole state of the board into `mark` (its buffers reused).
    pub fn save(&self, mark: &mut BoardMark) {
        fn keep<T: Copy>(into: &mut Vec<T>, grid: &Grid<T>, len: usize) {
            into.clear();
            into.extend_from_slice(&grid.0[..len]);
        }
        let len = self.padded_len();
        keep(&mut mark.cells, &self.cells, len);
        keep(&mut mark.head, &self.head, len);
        keep(&mut mark.next, &self.next, len);
        keep(&mut mark.libs, &self.libs, len);
        keep(&mut mark.size, &self.size, len);
        keep(&mut mark.string_hash, &self.string_hash, len);
        keep(&mut mark.around, &self.around, len);
        mark.planes.clear();
        mark.planes.extend_from_slice(&self.planes);
        mark.hash = self.hash;
        mark.stones = self.stones;
        mark.changed = self.changed;
    }

    /// Puts back the state `mark` saved from this board: the board is then equal to what it
    /// was in every respect. The board must not have changed size since (it cannot, but
    /// through [`Board::reset`] or [`Board::clear_point`]'s rebuild, which keep the size).
    ///
    /// # Panics
    /// If `mark` was saved from a board of another size.
    pub fn restore(&mut self, mark: &BoardMark) {
        fn put<T: Copy>(grid: &mut Grid<T>, from: &[T]) {
            grid.0[..from.len()].copy_from_slice(from);
        }
        assert_eq!(
            mark.cells.len(),
            self.padded_len(),
            "a mark of another board"
        );
        put(&mut self.cells, &mark.cells);
        put(&mut self.head, &mark.head);
        put(&mut self.next, &mark.next);
        put(&mut self.libs, &mark.libs);
        put(&mut self.size, &mark.size);
        put(&mut self.string_hash, &mark.string_hash);
        put(&mut self.around, &mark.around);
        self.planes.copy_from_slice(&mark.planes);
        self.hash = mark.hash;
        self.stones = mark.stones;
        self.changed = mark.changed;
    }

    /// Columns of the board.
    pub fn width(&self) -> u8 {
        self.width
    }

    /// Rows of the board.
    pub fn height(&self) -> u8 {
        self.height
    }

    /// Number of intersections.
    pub fn area(&self) -> usize {
        usize::from(self.width) * usize::from(self.height)
    }

    /// The Zobrist hash of the stones on the board (not of whose turn it is).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// Stones of one colour on the board.
    #[inline]
    pub fn stone_count(&self, color: Color) -> u32 {
        self.stones[color.index()]
    }

    /// Stones of each colour on the board: Black's, White's (the pair the repetition history
    /// indexes positions by).
    #[inline]
    pub fn stone_counts(&self) -> [u32; 2] {
        self.stones
    }

    /// True if the point lies on this board.
    #[inline]
    pub fn contains(&self, p: Point) -> bool {
        p.col < self.width && p.row < self.height
    }

    #[inline]
    fn index(&self, p: Point) -> usize {
        (usize::from(p.row) + 1) * self.stride + usize::from(p.col) + 1
    }

    fn point_of(&self, index: usize) -> Point {
        // Padded indices are below 1,024: a 32-bit division is enough, and cheaper.
        let (index, stride) = (index as u32, self.stride as u32);
        Point::new((index % stride - 1) as u8, (index / stride - 1) as u8)
    }

    fn neighbours(&self, index: usize) -> [usize; 4] {
        [
            index - self.stride,
            index - 1,
            index + 1,
            index + self.stride,
        ]
    }

    /// The stone at a point, if any. Points off the board read as empty.
    pub fn get(&self, p: Point) -> Option<Color> {
        if !self.contains(p) {
            return None;
        }
        color_of(self.cells[self.index(p)])
    }

    /// Every point of the board, bottom row first, left to right.
    pub fn points(&self) -> impl Iterator<Item = Point> + '_ {
        (0..self.height).flat_map(move |row| (0..self.width).map(move |col| Point::new(col, row)))
    }

    /// Every stone on the board with its colour, in [`Board::points`] order.
    pub fn stones(&self) -> Vec<(Point, Color)> {
        self.points()
            .filter_map(|p| self.get(p).map(|c| (p, c)))
            .collect()
    }

    /// Every stone on the board with its colour, sorted by point (column, then row): the
    /// order observations report, walked in that order rather than sorted afterwards.
    pub fn stones_by_point(&self) -> Vec<(Point, Color)> {
        let count = self.stones[0] + self.stones[1];
        let mut stones = Vec::with_capacity(count as usize);
        for col in 0..self.width {
            for row in 0..self.height {
                let p = Point::new(col, row);
                if let Some(c) = color_of(self.cells[self.index(p)]) {
                    stones.push((p, c));
                }
            }
        }
        stones
    }

    /// The orthogonal neighbours of a point that lie on the board.
    pub fn adjacent(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        let index = self.index(p);
        self.neighbours(index)
            .into_iter()
            .filter(move |&n| self.cells[n] != BORDER)
            .map(move |n| self.point_of(n))
    }

    /// The stones of every string through `points`, each once, sorted; points that hold no
    /// stone add nothing. This is how "these stones are dead" is read: a named stone stands
    /// for its whole string.
    pub fn strings_through(&self, points: &[Point]) -> Vec<Point> {
        let mut out: Vec<Point> = Vec::new();
        for &p in points {
            if !out.contains(&p) {
                out.extend(self.string(p));
            }
        }
        out.sort();
        out
    }

    /// The points of the string containing `p` (empty if `p` holds no stone).
    pub fn string(&self, p: Point) -> Vec<Point> {
        if self.get(p).is_none() {
            return Vec::new();
        }
        let start = self.index(p);
        let mut out = Vec::with_capacity(usize::from(self.size[usize::from(self.head[start])]));
        let mut s = start;
        loop {
            out.push(self.point_of(s));
            s = usize::from(self.next[s]);
            if s == start {
                break;
            }
        }
        out
    }

    /// The number of distinct liberties of the string containing `p` (0 if `p` is empty).
    pub fn liberties(&self, p: Point) -> usize {
        let mut libs: Vec<usize> = Vec::new();
        for s in self.string(p) {
            for n in self.neighbours(self.index(s)) {
                if self.cells[n] == EMPTY && !libs.contains(&n) {
                    libs.push(n);
                }
            }
        }
        libs.len()
    }

    /// Whether a play of `color` at the empty point `p` keeps its stone on the board: the point
    /// has an empty neighbour, or a friendly neighbouring string keeps another liberty, or an
    /// opposing neighbouring string loses its last one (so the capture leaves a liberty). This
    /// is all a legality check needs when no hash is looked up and self-capture is forbidden,
    /// and it stops at the first neighbour that settles it. `None` if `p` is occupied or off
    /// the board.
    #[inline]
    pub fn keeps_stone(&self, color: Color, p: Point) -> Option<bool> {
        if !self.contains(p) {
            return None;
        }
        let index = self.index(p);
        if self.cells[index] != EMPTY {
            return None;
        }
        if has_empty_neighbour(self.around[index]) {
            return Some(true);
        }
        let neighbours = self.neighbours(index);
        // Every neighbour holds a stone or is off the board.
        let own = cell_of(color);
        let heads = self.string_heads(&neighbours);
        Some(heads.iter().any(|&h| {
            let (libs, touches) = (self.libs[h], liberties_lost(&heads, h));
            (h != NO_STRING)
                & if self.cells[h] == own {
                    libs > touches
                } else {
                    libs == touches
                }
        }))
    }

    /// Whether `p` is on the board, empty, and has an empty neighbour: a stone played there
    /// keeps a liberty whatever it captures. One load of the counts of what `p`'s neighbours
    /// hold, and two of the point itself.
    #[inline(always)]
    pub fn is_next_to_empty(&self, p: Point) -> bool {
        if !self.contains(p) {
            return false;
        }
        let index = self.index(p);
        (self.cells[index] == EMPTY) & has_empty_neighbour(self.around[index])
    }

    /// Whether `p` is on the board, empty, and has an empty neighbour and no neighbour of the
    /// colour opposing `color`: then a play of `color` there captures nothing, keeps its stone,
    /// and makes the position [`Board::quiet_play`] hashes. One load of the counts of what
    /// `p`'s neighbours hold (kept as stones come and go), and two of the point itself.
    #[inline(always)]
    pub fn is_open(&self, color: Color, p: Point) -> bool {
        if !self.contains(p) {
            return false;
        }
        let index = self.index(p);
        let around = self.around[index];
        let foe = cell_of(color) ^ 3;
        (self.cells[index] == EMPTY)
            & ((around >> neighbour_shift(foe)) & NEIGHBOUR_MASK == 0)
            & has_empty_neighbour(around)
    }

    /// What a legality check under a repetition rule needs of a play of `color` at the empty
    /// point `p`, when the play captures nothing: whether its stone stays on the board and the
    /// hash of the position after it (the board's hash with the stone's key: joining strings
    /// changes no key). A play that captures is left to [`Board::preview`], which counts what
    /// it removes. `None` if `p` is occupied or off the board.
    ///
    /// Cheaper than a preview: a point with an empty neighbour and no opposing one is settled
    /// by one load (the counts of what its neighbours hold, kept as stones come and go), and
    /// otherwise only each neighbouring string's head and liberty count are read (not its size
    /// or its stones' hash).
    #[inline]
    pub fn quiet_play(&self, color: Color, p: Point) -> Option<QuietPlay> {
        if !self.contains(p) {
            return None;
        }
        let index = self.index(p);
        if self.cells[index] != EMPTY {
            return None;
        }
        Some(self.quiet_play_at(index, color))
    }

    /// [`Board::quiet_play`] at the padded index of an empty point.
    #[inline(always)]
    fn quiet_play_at(&self, index: usize, color: Color) -> QuietPlay {
        let hash_after = self.hash ^ zobrist::key(index, color);
        let own = cell_of(color);
        let around = self.around[index];
        let foes = (around >> neighbour_shift(own ^ 3)) & NEIGHBOUR_MASK;
        let empty = has_empty_neighbour(around);
        if (foes == 0) & empty {
            // No opposing string to capture, and a liberty: most points, settled by one load.
            return QuietPlay::Keeps { hash_after };
        }
        let (captures, joined_keeps_liberty) = self.enclosed_play(index, color);
        if captures {
            QuietPlay::Captures
        } else if empty | joined_keeps_liberty {
            QuietPlay::Keeps { hash_after }
        } else {
            QuietPlay::Lost
        }
    }

    /// An empty set of this board's points.
    pub fn point_set(&self) -> PointSet {
        PointSet::new(self.width, self.height, self.stride)
    }

    /// Every empty point sorted by what a play of `color` there would do, for a whole turn at
    /// once, as [`Board::quiet_play`] judges each: `keeps` holds the points where its stone
    /// stays on the board and, if `captures_apart`, it captures nothing
    /// ([`QuietPlay::Keeps`]); `captures` those where it captures, if `captures_apart`
    /// ([`QuietPlay::Captures`]; otherwise they are in `keeps`); `lost` the rest
    /// ([`QuietPlay::Lost`]). Most points are sorted a word
    /// of the board's bit planes at a time: an empty point next to an empty one keeps its
    /// stone, and captures only if it is the last liberty of an opposing string, which are
    /// found from the opposing strings' stones ([`Board::capture_points`]); only the points
    /// with no empty neighbour are looked at one by one.
    pub fn turn_plays(&self, color: Color, captures_apart: bool) -> TurnPlays {
        let words = self.plane_words;
        let plane = |c: Color| &self.planes[c.index() * words..(c.index() + 1) * words];
        let (black, white, foes) = (
            plane(Color::Black),
            plane(Color::White),
            plane(color.opponent()),
        );
        let mut empty = [0u64; point_set::WORDS];
        for i in 0..words {
            empty[i] = self.on_board[i] & !(black[i] | white[i]);
        }
        let (next_to_empty, next_to_two_empty) = self.next_to(&empty[..words]);
        let captures = if captures_apart {
            let mut next_to_one_empty = next_to_empty;
            for (one, two) in next_to_one_empty.iter_mut().zip(next_to_two_empty) {
                *one &= !two;
            }
            self.capture_points(foes, &next_to_one_empty)
        } else {
            [0; point_set::WORDS]
        };
        let (mut keeps, mut captured, mut lost) =
            (self.point_set(), self.point_set(), self.point_set());
        for i in 0..words {
            let open = empty[i] & next_to_empty[i];
            keeps.words[i] = open & !captures[i];
            captured.words[i] = open & captures[i];
            let mut rest = empty[i] & !next_to_empty[i];
            while rest != 0 {
                let index = i * 64 + rest.trailing_zeros() as usize;
                let bit = rest & rest.wrapping_neg();
                rest &= rest - 1;
                // Sorted by masks, not by a branch on the verdict (a coin toss in play).
                let (captures, keeps_stone) = self.enclosed_play(index, color);
                let apart = captures & captures_apart;
                let mask = |set: bool| std::hint::select_unpredictable(set, bit, 0);
                keeps.words[i] |= mask(keeps_stone & !apart);
                captured.words[i] |= mask(apart);
                lost.words[i] |= mask(!keeps_stone);
            }
        }
        TurnPlays {
            keeps,
            captures: captured,
            lost,
        }
    }

    /// What the neighbouring strings make of a play of `color` at the empty point of padded
    /// index `index`, its empty neighbours left aside: whether it captures, and whether its
    /// stone stays on the board through them (it does when it captures, or when a string it
    /// joins keeps a liberty), computed without a branch. For a point with no empty
    /// neighbour that settles the play; [`Board::quiet_play_at`] adds the empty neighbours.
    #[inline(always)]
    fn enclosed_play(&self, index: usize, color: Color) -> (bool, bool) {
        let own = cell_of(color);
        let heads = self.string_heads(&self.neighbours(index));
        let mut captures = false;
        let mut friend_keeps_liberty = false;
        for &h in &heads {
            let (libs, touches) = (self.libs[h], liberties_lost(&heads, h));
            let stone = h != NO_STRING;
            let friend = stone & (self.cells[h] == own);
            captures |= stone & !friend & (libs == touches);
            friend_keeps_liberty |= friend & (libs > touches);
        }
        (captures, captures | friend_keeps_liberty)
    }

    /// The empty points where a play captures something, among those next to an empty point,
    /// `foes` being the plane of the strings it would capture: the last liberty of each such
    /// string in atari. A string in atari has a stone next to that liberty, and every one of
    /// its stones next to an empty point is next to that one alone; so each opposing stone
    /// next to exactly one empty point (`next_to_one_empty`, from the planes) whose string
    /// has at most three pseudo-liberties is asked whether its string's
    /// pseudo-liberties are all at that point, the test [`Board::quiet_play`] makes from the
    /// point's side. (A liberty with an empty neighbour touches at most three of the string's
    /// stones; a liberty with none is not needed here, as such points are judged one by one.)
    fn capture_points(&self, foes: &[u64], next_to_one_empty: &[u64]) -> [u64; point_set::WORDS] {
        let mut captures = [0u64; point_set::WORDS];
        for (i, &foe) in foes.iter().enumerate() {
            let mut frontier = foe & next_to_one_empty[i];
            while frontier != 0 {
                let stone = i * 64 + frontier.trailing_zeros() as usize;
                frontier &= frontier - 1;
                let h = usize::from(self.head[stone]);
                let libs = self.libs[h];
                // All of a string's pseudo-liberties at one point with an empty neighbour: at
                // most three.
                if libs > 3 {
                    continue;
                }
                let liberty = self.neighbours(stone).into_iter().fold(0, |at, n| {
                    if self.cells[n] == EMPTY {
                        n
                    } else {
                        at
                    }
                });
                let heads = self.string_heads(&self.neighbours(liberty));
                if libs == liberties_lost(&heads, h) {
                    captures[liberty / 64] |= 1 << (liberty % 64);
                }
            }
        }
        captures
    }

    /// The padded indices next to one of `set`'s (a set of as many words as a plane): the set
    /// shifted by one point and by one row, each way; and those next to two or more of them.
    #[inline(always)]
    #[allow(clippy::type_complexity)]
    fn next_to(&self, set: &[u64]) -> ([u64; point_set::WORDS], [u64; point_set::WORDS]) {
        let stride = self.stride as u32;
        let word = |i: usize| set.get(i).copied().unwrap_or(0);
        let (mut one, mut two) = ([0u64; point_set::WORDS], [0u64; point_set::WORDS]);
        for i in 0..set.len() {
            let (before, here, after) = (if i == 0 { 0 } else { word(i - 1) }, set[i], word(i + 1));
            let up = |k: u32| (here << k) | (before >> (64 - k));
            let down = |k: u32| (here >> k) | (after << (64 - k));
            let [a, b, c, d] = [up(1), down(1), up(stride), down(stride)];
            one[i] = a | b | c | d;
            two[i] = (a & b) | ((a | b) & (c | d)) | (c & d);
        }
        (one, two)
    }

    /// The point at which a stone of `color` turns this board's hash into `hash_after`, if one
    /// of this board's points has that key: the only point where a play that captures nothing
    /// could make a position of that hash. A hint like every hash (the position itself may
    /// differ), whether or not the point is empty.
    pub fn point_hashing_to(&self, hash_after: u64, color: Color) -> Option<Point> {
        let index = zobrist::index_of(self.hash ^ hash_after, color)?;
        (index < self.padded_len() && self.cells[index] != BORDER).then(|| self.point_of(index))
    }

    /// The head of the string on each of `neighbours`, `NO_STRING` for an empty or border
    /// point, chosen without branching on what the points hold (a coin toss in play).
    #[inline(always)]
    fn string_heads(&self, neighbours: &[usize; 4]) -> [usize; 4] {
        neighbours.map(|n| {
            let c = self.cells[n];
            let h = usize::from(self.head[n]);
            // Marked unpredictable so that the compiler keeps it a conditional move: as a
            // branch (which it makes of a plain `if`, or of the same choice written as a mask)
            // it is mispredicted about one time in four in play.
            std::hint::select_unpredictable((c == BLACK) | (c == WHITE), h, NO_STRING)
        })
    }

    /// What playing `color` at the empty point `p` would do, without doing it.
    /// Returns `None` if `p` is occupied or off the board.
    pub fn preview(&self, color: Color, p: Point) -> Option<PlayPreview> {
        if !self.contains(p) {
            return None;
        }
        let index = self.index(p);
        if self.cells[index] != EMPTY {
            return None;
        }
        let own = cell_of(color);
        let neighbours = self.neighbours(index);
        // A point with no stone around it (so an empty point around it: every point has two
        // neighbours on the board at least) joins, captures and loses nothing: the common
        // case early in a game and in open areas, settled without reading any string.
        if neighbours
            .iter()
            .all(|&n| (self.cells[n] == EMPTY) | (self.cells[n] == BORDER))
        {
            return Some(PlayPreview {
                captured: 0,
                self_captured: 0,
                hash_after: self.hash ^ zobrist::key(index, color),
                ko_shape: false,
            });
        }
        // Otherwise worked out without branching on the neighbours, whose contents are a coin
        // toss in play: the head of each neighbouring string, then each string once, at its
        // first neighbour, counted in or out by masks.
        let heads = self.string_heads(&neighbours);
        let empty_neighbours = neighbours
            .iter()
            .map(|&n| u32::from(self.cells[n] == EMPTY))
            .sum::<u32>();
        let mut captured = 0u32;
        let mut captured_hash = 0u64;
        let mut friend_keeps_liberty = false;
        let mut friends_size = 0u32;
        let mut friends_hash = 0u64;
        for k in 0..4 {
            let h = heads[k];
            let first = (h != NO_STRING) & heads[..k].iter().all(|&x| x != h);
            let touches = liberties_lost(&heads, h);
            let friend = first & (self.cells[h] == own);
            let foe = first & (self.cells[h] != own);
            let (libs, size, key) = (self.libs[h], u32::from(self.size[h]), self.string_hash[h]);
            friends_size += size * u32::from(friend);
            friends_hash ^= key & 0u64.wrapping_sub(u64::from(friend));
            friend_keeps_liberty |= friend & (libs > touches);
            let dies = foe & (libs == touches);
            captured += size * u32::from(dies);
            captured_hash ^= key & 0u64.wrapping_sub(u64::from(dies));
        }
        let stone_key = zobrist::key(index, color);
        if captured == 0 && empty_neighbours == 0 && !friend_keeps_liberty {
            // The played stone and every friendly string it joins are removed again.
            return Some(PlayPreview {
                captured: 0,
                self_captured: 1 + friends_size,
                hash_after: self.hash ^ friends_hash,
                ko_shape: false,
            });
        }
        let ko_shape = captured == 1 && friends_size == 0 && empty_neighbours == 0;
        Some(PlayPreview {
            captured,
            self_captured: 0,
            hash_after: self.hash ^ stone_key ^ captured_hash,
            ko_shape,
        })
    }

    /// Places a stone of `color` at the empty point `p`, removes opposing strings left without
    /// liberties, then the mover's own string if it has none. The removed points are appended
    /// to `removed` (captures first). Rules are not consulted: legality is the caller's job.
    /// Playing on an occupied or off-board point changes nothing and removes nothing.
    pub fn play(&mut self, color: Color, p: Point, removed: &mut Vec<Point>) -> Removal {
        if !self.contains(p) || self.cells[self.index(p)] != EMPTY {
            return Removal::default();
        }
        let index = self.index(p);
        self.put_stone(index, color);
        let opponent = cell_of(color.opponent());
        let mut result = Removal::default();
        // Most plays capture nothing: one test for all four neighbours, without branches.
        let captures = self.neighbours(index).iter().fold(false, |any, &n| {
            any | ((self.cells[n] == opponent) & (self.libs[usize::from(self.head[n])] == 0))
        });
        if captures {
            for n in self.neighbours(index) {
                if self.cells[n] == opponent && self.libs[usize::from(self.head[n])] == 0 {
                    result.captured += self.remove_string(usize::from(self.head[n]), removed);
                }
            }
        }
        let own_head = usize::from(self.head[index]);
        // Alone (no string joined) with one pseudo-liberty: the captured point, the only
        // empty neighbour.
        result.ko_shape =
            result.captured == 1 && self.size[own_head] == 1 && self.libs[own_head] == 1;
        if self.libs[own_head] == 0 {
            result.self_captured = self.remove_string(own_head, removed);
        }
        result
    }

    /// Puts a stone on an empty point without resolving captures: for setting up positions.
    /// Returns false (and changes nothing) if the point is occupied or off the board.
    pub fn set_stone(&mut self, color: Color, p: Point) -> bool {
        if !self.contains(p) || self.cells[self.index(p)] != EMPTY {
            return false;
        }
        let index = self.index(p);
        self.put_stone(index, color);
        true
    }

    /// Removes the stone at `p` (and only that stone) for setting up or repairing positions.
    /// Strings are rebuilt from scratch, since removing one stone can split a string.
    pub fn clear_point(&mut self, p: Point) -> Option<Color> {
        let color = self.get(p)?;
        let stones = self.stones().into_iter().filter(|&(q, _)| q != p);
        let mut fresh = Board::new(self.width, self.height).expect("same size as self");
        for (q, c) in stones {
            fresh.set_stone(c, q);
        }
        // Words of the old planes may have been cleared that the fresh board never wrote.
        fresh.changed = u32::MAX;
        *self = fresh;
        Some(color)
    }

    /// A point of some string without any liberty, if there is one.
    pub fn string_without_liberty(&self) -> Option<Point> {
        self.points().find(|&p| {
            let i = self.index(p);
            self.cells[i] != EMPTY && self.libs[usize::from(self.head[i])] == 0
        })
    }

    fn put_stone(&mut self, index: usize, color: Color) {
        let own = cell_of(color);
        let key = zobrist::key(index, color);
        self.cells[index] = own;
        self.head[index] = index as u16;
        self.next[index] = index as u16;
        self.size[index] = 1;
        self.string_hash[index] = key;
        self.hash ^= key;
        self.stones[color.index()] += 1;
        let word = color.index() * self.plane_words + index / 64;
        self.planes[word] |= 1 << (index % 64);
        self.changed |= 1 << word;
        let mut libs = 0;
        let became = (1u16 << neighbour_shift(own)).wrapping_sub(1 << neighbour_shift(EMPTY));
        for n in self.neighbours(index) {
            // Without a branch: an empty or border point takes nothing from the string its
            // stale head names (every head is a point index, so in range).
            let c = self.cells[n];
            libs += u16::from(c == EMPTY);
            let h = usize::from(self.head[n]);
            self.libs[h] -= u16::from(c == BLACK || c == WHITE);
            self.around[n] = self.around[n].wrapping_add(became);
        }
        self.libs[index] = libs;
        // The strings the stone joins: none (one test of the neighbours' counts), one (found
        // without a branch on each neighbour, whose contents are a coin toss in play), or
        // several, each merged once.
        let friends = (self.around[index] >> neighbour_shift(own)) & NEIGHBOUR_MASK;
        if friends == 1 {
            let friend = self.neighbours(index).into_iter().fold(index, |at, n| {
                if self.cells[n] == own {
                    n
                } else {
                    at
                }
            });
            self.merge(index, usize::from(self.head[friend]));
        } else if friends > 1 {
            for n in self.neighbours(index) {
                let a = usize::from(self.head[index]);
                let b = usize::from(self.head[n]);
                if (self.cells[n] == own) & (a != b) {
                    self.merge(a, b);
                }
            }
        }
    }

    fn merge(&mut self, a: usize, b: usize) {
        let (keep, gone) = if self.size[a] >= self.size[b] {
            (a, b)
        } else {
            (b, a)
        };
        let mut s = gone;
        loop {
            self.head[s] = keep as u16;
            s = usize::from(self.next[s]);
            if s == gone {
                break;
            }
        }
        self.next.swap(keep, gone);
        self.libs[keep] += self.libs[gone];
        self.size[keep] += self.size[gone];
        self.string_hash[keep] ^= self.string_hash[gone];
    }

    fn remove_string(&mut self, head: usize, removed: &mut Vec<Point>) -> u32 {
        let color = color_of(self.cells[head]).expect("a string head holds a stone");
        let plane = color.index() * self.plane_words;
        let first = removed.len();
        let mut s = head;
        loop {
            self.cells[s] = EMPTY;
            self.planes[plane + s / 64] &= !(1 << (s % 64));
            self.changed |= 1 << (plane + s / 64);
            removed.push(self.point_of(s));
            s = usize::from(self.next[s]);
            if s == head {
                break;
            }
        }
        self.hash ^= self.string_hash[head];
        let count = (removed.len() - first) as u32;
        self.stones[color.index()] -= count;
        // The ring of `next` links is left as it was: walk it again to give each neighbouring
        // string back the liberties the removed stones held.
        let became =
            (1u16 << neighbour_shift(EMPTY)).wrapping_sub(1 << neighbour_shift(cell_of(color)));
        let mut s = head;
        loop {
            for n in self.neighbours(s) {
                // Without a branch: an empty or border point gives nothing to the string its
                // stale head names (every head is a point index, so in range).
                self.around[n] = self.around[n].wrapping_add(became);
                let c = self.cells[n];
                let h = usize::from(self.head[n]);
                self.libs[h] += u16::from((c == BLACK) | (c == WHITE));
            }
            s = usize::from(self.next[s]);
            if s == head {
                break;
            }
        }
        count
    }

    /// The stones of the board as two bit planes (one bit a point for each colour, Black's
    /// words first, border included so that a point's bit is its padded index): the compact
    /// form of a whole position for snapshots and for comparing positions when hashes match.
    /// Every snapshot of a board has the same length.
    pub fn snapshot(&self) -> &[u64] {
        &self.planes
    }

    /// The words of [`Board::snapshot`] written since the last call, one bit a word (bit `w`
    /// for word `w`), and starts counting afresh. Every word whose value changed has its bit
    /// set; a set bit does not promise a change. The repetition history reads it so as to
    /// compare only those words with the position it recorded last.
    pub fn take_changed_words(&mut self) -> u32 {
        std::mem::take(&mut self.changed)
    }

    /// True if `snapshot` (as given by [`Board::snapshot`]) shows this position.
    pub fn matches_snapshot(&self, snapshot: &[u64]) -> bool {
        self.planes[..] == snapshot[..]
    }

    /// The hash recomputed from scratch; equals [`Board::hash`] on every reachable board.
    pub fn hash_from_scratch(&self) -> u64 {
        self.points()
            .filter_map(|p| self.get(p).map(|c| zobrist::key(self.index(p), c)))
            .fold(0, |h, k| h ^ k)
    }

    /// The position as a diagram: top row first, `X` black, `O` white, `.` empty, points
    /// separated by single spaces.
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                if col > 0 {
                    out.push(' ');
                }
                out.push(match self.get(Point::new(col, row)) {
                    Some(c) => c.stone_char(),
                    None => '.',
                });
            }
            out.push('\n');
        }
        out
    }
}

/// A list of points for people: sorted, space separated, `none` when empty.
pub fn points_text(points: &[Point]) -> String {
    if points.is_empty() {
        return "none".to_string();
    }
    let mut sorted = points.to_vec();
    sorted.sort();
    let names: Vec<String> = sorted.iter().map(|p| p.to_string()).collect();
    names.join(" ")
}

impl PartialEq for Board {
    /// Two boards are equal when they have the same size and the same stones.
    fn eq(&self, other: &Board) -> bool {
        self.width == other.width && self.height == other.height && self.cells == other.cells
    }
}

impl Eq for Board {}

impl fmt::Debug for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Board {}x{}\n{}",
            self.width,
            self.height,
            self.diagram()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pt(s: &str, b: &Board) -> Point {
        Point::parse_gtp(s, b.width(), b.height()).unwrap()
    }

    fn play(b: &mut Board, c: Color, s: &str) -> (Removal, Vec<Point>) {
        let p = pt(s, b);
        let mut removed = Vec::new();
        let r = b.play(c, p, &mut removed);
        (r, removed)
    }

    /// Every on-board point's neighbour counts, recomputed from the cells, equal the counts
    /// the board keeps.
    fn assert_neighbour_counts(b: &Board) {
        for p in b.points() {
            let index = b.index(p);
            for cell in [EMPTY, BLACK, WHITE] {
                let counted = b
                    .neighbours(index)
                    .iter()
                    .filter(|&&n| b.cells[n] == cell)
                    .count() as u16;
                let kept = (b.around[index] >> neighbour_shift(cell)) & NEIGHBOUR_MASK;
                assert_eq!(kept, counted, "{cell} around {p} on\n{}", b.diagram());
            }
        }
    }

    #[test]
    fn neighbour_counts_follow_plays_captures_resets_and_restores() {
        // Random plays (a fixed splitmix64 stream) on boards of several shapes, suicide
        // included, so that single stones, strings and the mover's own strings are removed;
        // counts checked after every play, after a restore of a saved mark, after a reset to
        // another size in the same storage, and after a stone is cleared.
        let mut rng = 0x1234_5678_9ABC_DEF0u64;
        let mut next = move || {
            rng = rng.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = rng;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mut b = Board::new(9, 9).unwrap();
        let mut mark = BoardMark::default();
        let mut removed = Vec::new();
        let mut captures = 0;
        for (w, h) in [(9u8, 9u8), (5, 3), (19, 19), (2, 2), (7, 11)] {
            b.reset(w, h).unwrap();
            assert_neighbour_counts(&b);
            for k in 0..(4 * usize::from(w) * usize::from(h)) {
                let p = Point::new((next() % u64::from(w)) as u8, (next() % u64::from(h)) as u8);
                let c = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                if k == 40 {
                    b.save(&mut mark);
                }
                removed.clear();
                let r = b.play(c, p, &mut removed);
                captures += r.captured + r.self_captured;
                assert_neighbour_counts(&b);
            }
            if !mark.cells.is_empty() && mark.cells.len() == b.padded_len() {
                b.restore(&mark);
                assert_neighbour_counts(&b);
            }
            if let Some(&(p, _)) = b.stones().first() {
                b.clear_point(p);
                assert_neighbour_counts(&b);
            }
        }
        assert!(captures > 100, "only {captures} stones were removed");
    }

    #[test]
    fn stones_by_point_is_stones_sorted() {
        // A board wider than high, stones in every corner and between, so that a walk by
        // row or a swapped side would give another order or miss stones.
        let mut b = Board::new(7, 4).unwrap();
        for (i, v) in ["A1", "G1", "A4", "G4", "D2", "C3", "D3", "B2"]
            .iter()
            .enumerate()
        {
            let c = if i % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            assert!(b.set_stone(c, pt(v, &b)));
        }
        let mut sorted = b.stones();
        sorted.sort();
        assert_eq!(b.stones_by_point(), sorted);
        assert_eq!(sorted.len(), 8);
    }

    #[test]
    fn sizes_outside_the_range_are_refused() {
        assert!(Board::new(1, 5).is_err());
        assert!(Board::new(26, 5).is_err());
        assert!(Board::new(2, 25).is_ok());
        assert!(Board::new(25, 2).is_ok());
    }

    #[test]
    fn a_corner_stone_is_captured_by_two_stones() {
        let mut b = Board::new(9, 9).unwrap();
        play(&mut b, Color::Black, "A1");
        play(&mut b, Color::White, "A2");
        let (r, removed) = play(&mut b, Color::White, "B1");
        assert_eq!(r.captured, 1);
        assert_eq!(removed, vec![pt("A1", &b)]);
        assert_eq!(b.get(pt("A1", &b)), None);
        assert_eq!(b.stone_count(Color::Black), 0);
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn capture_comes_before_self_capture() {
        // White's A1 has no liberty of its own but captures the black stone at B1... once
        // that stone is itself out of liberties.
        let mut b = Board::new(5, 5).unwrap();
        for (c, v) in [
            (Color::Black, "B1"),
            (Color::Black, "A2"),
            (Color::White, "C1"),
            (Color::White, "B2"),
        ] {
            b.set_stone(c, pt(v, &b));
        }
        // A1 for White: no empty neighbour; B1 has liberty only at A1 -> captured.
        let preview = b.preview(Color::White, pt("A1", &b)).unwrap();
        assert_eq!(preview.captured, 1);
        assert_eq!(preview.self_captured, 0);
        let (r, _) = play(&mut b, Color::White, "A1");
        assert_eq!(r.captured, 1);
        assert_eq!(r.self_captured, 0);
        assert_eq!(b.hash(), preview.hash_after);
    }

    #[test]
    fn self_capture_removes_the_whole_string_and_the_preview_agrees() {
        let mut b = Board::new(5, 5).unwrap();
        for v in ["A3", "B2", "C1"] {
            b.set_stone(Color::White, pt(v, &b));
        }
        b.set_stone(Color::Black, pt("A2", &b));
        let preview = b.preview(Color::Black, pt("A1", &b)).unwrap();
        let before = b.hash();
        // A1 would leave A1+B1.. no: B1 is empty, so A1 joins A2 with liberty B1.
        assert_eq!(preview.self_captured, 0);
        b.set_stone(Color::Black, pt("B1", &b));
        let preview = b.preview(Color::Black, pt("A1", &b)).unwrap();
        assert_eq!(preview.self_captured, 3);
        assert_eq!(preview.captured, 0);
        let (r, removed) = play(&mut b, Color::Black, "A1");
        assert_eq!(r.self_captured, 3);
        assert_eq!(removed.len(), 3);
        assert_eq!(b.hash(), preview.hash_after);
        assert_ne!(b.hash(), before);
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn ko_shape_is_recognised() {
        // Black C2 sits in White's mouth; White B2 takes it and is left with C2 as its only
        // liberty: the shape of a basic ko.
        let mut b = Board::new(5, 5).unwrap();
        for v in ["B1", "A2", "B3", "C2"] {
            b.set_stone(Color::Black, pt(v, &b));
        }
        for v in ["C1", "D2", "C3"] {
            b.set_stone(Color::White, pt(v, &b));
        }
        let preview = b.preview(Color::White, pt("B2", &b)).unwrap();
        assert_eq!(preview.captured, 1);
        assert!(preview.ko_shape);
        // Capturing two stones is never a ko shape.
        let quiet = b.preview(Color::White, pt("E5", &b)).unwrap();
        assert!(!quiet.ko_shape);
        // The play itself reports the shape its preview foresaw.
        let (r, removed) = play(&mut b.clone(), Color::White, "E5");
        assert!(!r.ko_shape && removed.is_empty());
        let (r, removed) = play(&mut b, Color::White, "B2");
        assert!(r.ko_shape);
        assert_eq!(removed, vec![pt("C2", &b)]);
        // Black's retake at C2 (a board knows no ko rule) has the same shape.
        let (r, _) = play(&mut b, Color::Black, "C2");
        assert_eq!(r.captured, 1);
        assert!(r.ko_shape);
    }

    #[test]
    fn snapshots_compare_whole_positions() {
        let mut b = Board::new(7, 5).unwrap();
        let snap = b.snapshot().to_vec();
        assert!(b.matches_snapshot(&snap));
        play(&mut b, Color::Black, "G5");
        assert!(!b.matches_snapshot(&snap));
        assert_eq!(b.diagram().lines().next(), Some(". . . . . . X"));
    }

    #[test]
    fn snapshots_follow_captures_and_agree_with_the_stones() {
        // A capture on a 19x19 board clears bits in the second word of a plane; the snapshot
        // after it equals that of a board set up with the same stones, and no other.
        let mut b = Board::new(19, 19).unwrap();
        for (c, v) in [
            (Color::White, "K10"),
            (Color::Black, "J10"),
            (Color::Black, "L10"),
            (Color::Black, "K11"),
            (Color::Black, "K9"),
        ] {
            play(&mut b, c, v);
        }
        assert_eq!(b.get(pt("K10", &b)), None);
        let mut fresh = Board::new(19, 19).unwrap();
        for (p, c) in b.stones() {
            fresh.set_stone(c, p);
        }
        assert!(b.matches_snapshot(fresh.snapshot()));
        fresh.set_stone(Color::White, pt("K10", &b));
        assert!(!b.matches_snapshot(fresh.snapshot()));
        // The same points with the colours swapped are another position.
        let mut swapped = Board::new(19, 19).unwrap();
        for (p, c) in b.stones() {
            swapped.set_stone(c.opponent(), p);
        }
        assert!(!b.matches_snapshot(swapped.snapshot()));
    }

    #[test]
    fn keeps_stone_reads_the_neighbours() {
        let mut b = Board::new(5, 5).unwrap();
        b.set_stone(Color::Black, pt("B1", &b));
        assert_eq!(b.keeps_stone(Color::White, pt("A1", &b)), Some(true));
        assert_eq!(b.keeps_stone(Color::Black, pt("B1", &b)), None);
        b.set_stone(Color::White, pt("A2", &b));
        b.set_stone(Color::White, pt("C1", &b));
        // No empty neighbour: Black's B1 keeps B2 besides A1, White's A2 keeps A3.
        assert_eq!(b.keeps_stone(Color::Black, pt("A1", &b)), Some(true));
        assert_eq!(b.keeps_stone(Color::White, pt("A1", &b)), Some(true));
        b.set_stone(Color::White, pt("B2", &b));
        // B1's last liberty is A1: Black would be self-captured, White captures.
        assert_eq!(b.keeps_stone(Color::Black, pt("A1", &b)), Some(false));
        assert_eq!(b.keeps_stone(Color::White, pt("A1", &b)), Some(true));
        assert_eq!(b.keeps_stone(Color::Black, Point::new(5, 0)), None);
        // Each answer is the preview's: the stone stays unless it would be self-captured.
        for p in b.points().collect::<Vec<_>>() {
            for c in [Color::Black, Color::White] {
                let keeps = b.preview(c, p).map(|v| v.self_captured == 0);
                assert_eq!(b.keeps_stone(c, p), keeps, "{c:?} {p}");
            }
        }
    }

    #[test]
    fn clear_point_splits_strings() {
        let mut b = Board::new(5, 5).unwrap();
        for v in ["A1", "B1", "C1"] {
            b.set_stone(Color::Black, pt(v, &b));
        }
        assert_eq!(b.string(pt("A1", &b)).len(), 3);
        b.clear_point(pt("B1", &b));
        assert_eq!(b.string(pt("A1", &b)).len(), 1);
        assert_eq!(b.liberties(pt("A1", &b)), 2);
        assert_eq!(b.hash(), b.hash_from_scratch());
    }

    #[test]
    fn strings_through_names_each_stone_once_in_order() {
        let mut b = Board::new(5, 5).unwrap();
        for v in ["A1", "B1", "C1"] {
            b.set_stone(Color::Black, pt(v, &b));
        }
        b.set_stone(Color::White, pt("E5", &b));
        let named = [pt("C1", &b), pt("A1", &b), pt("E5", &b), pt("D3", &b)];
        let through: Vec<String> = b
            .strings_through(&named)
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert_eq!(through, ["A1", "B1", "C1", "E5"]);
    }
}
