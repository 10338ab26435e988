//! Scoring a final position: territory, area, komi, handicap compensation and the result.
//!
//! This is a pure function of a position and the rules: the players' agreement on dead stones
//! is an input, not something guessed here. The steps are those every ruleset in this project
//! shares: remove the agreed dead stones (they become prisoners of the other colour), find the
//! empty regions, give each region bordered by one colour only to that colour, then add up
//! what the scoring method counts.
//!
//! All amounts that can be half points (komi, totals, the margin) are kept in half points, as
//! [`Komi`](crate::rules::Komi) does, so that no result depends on floating point.

use super::Prisoners;
use crate::board::{Board, Color, Point, MAX_SIDE};
use crate::rules::{Draws, HandicapCompensation, Rules, Scoring, SekiEyes};

/// The count of a final position. Arrays are indexed by [`Color::index`] (Black first).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Count {
    /// What was counted: territory (with prisoners) or area (with stones).
    pub scoring: Scoring,
    /// Empty points that count for each colour.
    pub territory: [u32; 2],
    /// Stones of each colour on the board after the dead stones are removed.
    pub stones: [u32; 2],
    /// Opposing stones each colour captured in play (with the opponent's self-captures).
    pub captures: [u32; 2],
    /// Pass stones each colour received.
    pub pass_stones: [u32; 2],
    /// Opposing stones removed as dead and credited to each colour as prisoners: those the
    /// game removed at agreement and those this count removed.
    pub dead: [u32; 2],
    /// Komi for each colour in half points (only White's is ever non-zero; it may be negative).
    pub komi: [i32; 2],
    /// Handicap compensation for each colour in half points (White's, area counting only).
    pub compensation: [i32; 2],
    /// Each colour's score in half points: everything above that the scoring method counts.
    pub total: [i32; 2],
    /// Black's total minus White's, in half points: positive means Black is ahead.
    pub margin: i32,
    /// Who a zero margin goes to, if anyone ([`Draws`] rule); `None` means a draw stands.
    pub draw_winner: Option<Color>,
}

impl Count {
    /// The result in the form of the SGF `RE` property: `B+3.5`, `W+0.5`, `W+12`, or `0` for a
    /// draw. A zero margin that the rules give to White is `W+0`.
    pub fn result(&self) -> String {
        match self.margin.signum() {
            1 => format!("B+{}", format_points(self.margin)),
            -1 => format!("W+{}", format_points(-self.margin)),
            _ => match self.draw_winner {
                Some(color) => format!("{}+0", color.letter()),
                None => "0".to_string(),
            },
        }
    }

    /// The winner, if the game is not a draw.
    pub fn winner(&self) -> Option<Color> {
        match self.margin.signum() {
            1 => Some(Color::Black),
            -1 => Some(Color::White),
            _ => self.draw_winner,
        }
    }
}

/// An amount of half points as a number of points: `7`, `3.5`, `-0.5`.
pub fn format_points(half: i32) -> String {
    let sign = if half < 0 { "-" } else { "" };
    let magnitude = half.unsigned_abs();
    if magnitude.is_multiple_of(2) {
        format!("{sign}{}", magnitude / 2)
    } else {
        format!("{sign}{}.5", magnitude / 2)
    }
}

/// Counts a final position.
///
/// - `prisoners`: what each colour holds from the game ([`super::Game::prisoner_breakdown`]);
///   used by territory counting only.
/// - `dead`: stones still on the board that are to be counted as dead. They are removed first
///   and credited to the other colour as prisoners. Empty points in the list are ignored; each point removes only
///   its own stone (callers that mark whole strings expand them first).
/// - `handicap`: the number of handicap stones; 0 or 1 is an even game. It chooses between
///   `rules.komi` and `rules.handicap_komi`, and sizes White's compensation under area counting.
///
/// Territory counting: territory + prisoners + dead stones (+ komi for White).
/// Area counting: stones on the board + territory (+ komi + handicap compensation for White).
/// Under [`SekiEyes::Neutral`] a region bordered by a group in seki counts for nobody; see
/// [`seki_stones`] for what "in seki" means here.
pub fn count(
    board: &Board,
    rules: &Rules,
    prisoners: Prisoners,
    dead: &[Point],
    handicap: u32,
) -> Count {
    let Tally {
        territory,
        stones,
        dead: removed,
    } = Planes::new(board, dead).tally(rules.seki_eyes);

    let komi_half = if handicap >= 2 {
        rules.handicap_komi.half_points()
    } else {
        rules.komi.half_points()
    };
    let compensated_stones = match (rules.scoring, rules.handicap_compensation) {
        (Scoring::Territory, _) | (_, HandicapCompensation::None) => 0,
        _ if handicap < 2 => 0,
        (Scoring::Area, HandicapCompensation::NMinusOne) => handicap - 1,
        (Scoring::Area, HandicapCompensation::N) => handicap,
    };
    let white = Color::White.index();
    let mut komi = [0i32; 2];
    komi[white] = komi_half;
    let mut compensation = [0i32; 2];
    compensation[white] = 2 * to_i32(compensated_stones);

    let dead_total = [
        prisoners.dead[0] + removed[0],
        prisoners.dead[1] + removed[1],
    ];
    let mut total = [0i32; 2];
    for color in Color::BOTH {
        let c = color.index();
        let points = match rules.scoring {
            Scoring::Territory => {
                territory[c] + prisoners.captures[c] + prisoners.pass_stones[c] + dead_total[c]
            }
            Scoring::Area => stones[c] + territory[c],
        };
        total[c] = 2 * to_i32(points) + komi[c] + compensation[c];
    }

    let draw_winner = match rules.draws {
        Draws::Jigo => None,
        Draws::WhiteWins => Some(Color::White),
        Draws::WhiteWinsHandicap if handicap >= 2 => Some(Color::White),
        Draws::WhiteWinsHandicap => None,
        Draws::BlackWins => Some(Color::Black),
    };
    Count {
        scoring: rules.scoring,
        territory,
        stones,
        captures: prisoners.captures,
        pass_stones: prisoners.pass_stones,
        dead: dead_total,
        komi,
        compensation,
        total,
        margin: total[Color::Black.index()] - total[white],
        draw_winner,
    }
}

/// Counts of stones and points never come near `i32::MAX` (a board has at most 625 points),
/// but prisoners come from outside; saturate rather than wrap.
fn to_i32(value: u32) -> i32 {
    i32::try_from(value).unwrap_or(i32::MAX / 4)
}

/// The stones in seki once the `dead` stones are removed, in the order of [`Board::points`].
///
/// This definition is meant for final positions with the dame filled, which is when the
/// question is asked. A *group* here is a set of same-coloured strings linked through the
/// empty regions that only that colour borders (its eyes and territory): the strings around
/// one eye live or die together. A group is in seki when one of its strings
///
/// - has a liberty that is also a liberty of an opposing string (a shared liberty), or
/// - borders an empty region that touches both colours.
///
/// (The first case is a special case of the second; it is named because it is the familiar
/// form.) Every string of a group in seki is in seki, and so is every empty region the group
/// encloses: under [`SekiEyes::Neutral`] such a region is nobody's territory.
///
/// If the dame are not filled, every group touching them counts as in seki: the position is
/// then read as if the unfilled points were shared liberties, which is what they would be if
/// neither player could fill them. This is also the letter of the Japanese 1989 rules, which
/// call live stones that border a dame stones in seki (hence their practice of filling the dame
/// before counting), and the check position of KataGo's rules tests relies on it.
pub fn seki_stones(board: &Board, dead: &[Point]) -> Vec<Point> {
    let planes = Planes::new(board, dead);
    let seki = planes.seki(&planes.regions());
    board
        .points()
        .filter(|p| {
            let (r, bit) = (usize::from(p.row) + 1, 1u32 << p.col);
            (0..2).any(|c| planes.stones[c][r] & seki[c][r] & bit != 0)
        })
        .collect()
}

/// What a count takes from the position once the dead stones are removed, arrays indexed by
/// [`Color::index`].
#[derive(Debug, PartialEq, Eq)]
struct Tally {
    /// Empty points in regions only that colour borders (under [`SekiEyes::Neutral`], not
    /// those of a group in seki).
    territory: [u32; 2],
    stones: [u32; 2],
    /// Stones removed as dead, credited to the colour that takes them.
    dead: [u32; 2],
}

/// Rows of a board as bit planes, one word a row (a side is at most 25 points), with an empty
/// row above and below so that every row has two neighbours.
type Rows = [u32; MAX_SIDE as usize + 2];

const NO_ROWS: Rows = [0; MAX_SIDE as usize + 2];

/// The position after dead-stone removal as bit planes, each question of the count answered
/// by floods of the whole board (a set of points grown into its neighbours within a mask until
/// it stops growing) rather than by labelling strings and regions one by one:
///
/// - an empty region is bordered by a colour when it holds an empty point reachable from that
///   colour's stones through empty points; it is a colour's when that colour borders it and the
///   other does not;
/// - the groups in seki (see [`seki_stones`]) are, for each colour, what a flood through its
///   stones and the regions it alone borders reaches from its stones that touch a region both
///   colours border; the regions it reaches are the eyes of a group in seki.
///
/// The floods test nothing point by point. `judge` counts every record, on boards the processor
/// has not seen before, and labelling region by region (the test module's `Analysis`, which
/// this is held to) took about 9 µs a count there, mostly mispredicted branches, against
/// 1.3 µs on one board counted over and over.
struct Planes {
    height: usize,
    /// The bits of a row that are on the board.
    row: u32,
    /// Each colour's stones, by [`Color::index`]; row `r` of the board is at index `r + 1`.
    stones: [Rows; 2],
    /// Stones removed as dead, credited to the colour that takes them.
    dead: [u32; 2],
}

/// The empty regions as two planes: the empty points of the regions each colour borders.
struct Regions {
    bordered: [Rows; 2],
}

impl Regions {
    /// The points of the regions colour `c` borders and the other does not.
    fn owned(&self, c: usize) -> Rows {
        let mut owned = NO_ROWS;
        for (r, row) in owned.iter_mut().enumerate() {
            *row = self.bordered[c][r] & !self.bordered[1 - c][r];
        }
        owned
    }
}

impl Planes {
    fn new(board: &Board, dead: &[Point]) -> Planes {
        let mut stones = [NO_ROWS; 2];
        for row in 0..board.height() {
            for col in 0..board.width() {
                if let Some(color) = board.get(Point::new(col, row)) {
                    stones[color.index()][usize::from(row) + 1] |= 1 << col;
                }
            }
        }
        let mut removed = [0u32; 2];
        for &p in dead {
            if !board.contains(p) {
                continue;
            }
            let (r, bit) = (usize::from(p.row) + 1, 1u32 << p.col);
            for color in Color::BOTH {
                if stones[color.index()][r] & bit != 0 {
                    stones[color.index()][r] &= !bit;
                    removed[color.opponent().index()] += 1;
                }
            }
        }
        Planes {
            height: usize::from(board.height()),
            row: (1u32 << board.width()) - 1,
            stones,
            dead: removed,
        }
    }

    /// `set` and its neighbours on the board.
    fn dilate(&self, set: &Rows) -> Rows {
        let mut grown = NO_ROWS;
        for r in 1..=self.height {
            let here = set[r];
            grown[r] = (here | here << 1 | here >> 1 | set[r - 1] | set[r + 1]) & self.row;
        }
        grown
    }

    /// Every point of `within` connected to `seed` (a part of `within`) inside `within`.
    fn flood(&self, mut seed: Rows, within: &Rows) -> Rows {
        loop {
            let mut grown = self.dilate(&seed);
            let mut changed = 0;
            for r in 1..=self.height {
                grown[r] &= within[r];
                changed |= grown[r] ^ seed[r];
            }
            if changed == 0 {
                return seed;
            }
            seed = grown;
        }
    }

    /// A plane whose row `r` is `row(r)`, for each row of the board.
    fn plane(&self, row: impl Fn(usize) -> u32) -> Rows {
        let mut plane = NO_ROWS;
        for (r, bits) in plane.iter_mut().enumerate().take(self.height + 1).skip(1) {
            *bits = row(r);
        }
        plane
    }

    fn regions(&self) -> Regions {
        let empty = self.plane(|r| self.row & !(self.stones[0][r] | self.stones[1][r]));
        let bordered = [0, 1].map(|c| {
            let around = self.dilate(&self.stones[c]);
            self.flood(self.plane(|r| around[r] & empty[r]), &empty)
        });
        Regions { bordered }
    }

    /// For each colour, its groups in seki: their stones and the regions they alone border.
    fn seki(&self, regions: &Regions) -> [Rows; 2] {
        let [black, white] = &regions.bordered;
        let next_to_shared = self.dilate(&self.plane(|r| black[r] & white[r]));
        [0, 1].map(|c| {
            let (stones, owned) = (&self.stones[c], regions.owned(c));
            let seeds = self.plane(|r| stones[r] & next_to_shared[r]);
            self.flood(seeds, &self.plane(|r| stones[r] | owned[r]))
        })
    }

    /// The count's figures; under [`SekiEyes::Neutral`] the eyes of a group in seki count for
    /// nobody.
    fn tally(&self, seki_eyes: SekiEyes) -> Tally {
        let regions = self.regions();
        let seki = match seki_eyes {
            SekiEyes::Neutral => self.seki(&regions),
            SekiEyes::Count => [NO_ROWS; 2],
        };
        let rows = 1..=self.height;
        let territory = [0, 1].map(|c| {
            let owned = regions.owned(c);
            rows.clone()
                .map(|r| (owned[r] & !seki[c][r]).count_ones())
                .sum()
        });
        let stones = [0, 1].map(|c| rows.clone().map(|r| self.stones[c][r].count_ones()).sum());
        Tally {
            territory,
            stones,
            dead: self.dead,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Komi;

    // The labelling the counts were made by before the floods (as it stood before the
    // floods' work began, written for obviousness): strings and regions found one by one, the
    // seki status spread from string to region to string. It stays here as the second
    // reading [`Planes`] is held to.

    /// An empty region: its size and which colours border it.
    #[derive(Clone, Copy, Debug, Default)]
    struct Region {
        size: u32,
        borders: [bool; 2],
    }

    impl Region {
        /// The colour this region counts for, if exactly one colour borders it.
        fn owner(self) -> Option<Color> {
            match self.borders {
                [true, false] => Some(Color::Black),
                [false, true] => Some(Color::White),
                _ => None,
            }
        }
    }

    /// The position after dead-stone removal, cut into strings and empty regions, with the seki
    /// status of each: a plain grid, each string and region flood-filled, the seki status spread
    /// breadth first from string to region to string.
    struct Analysis {
        width: usize,
        cells: Vec<Option<Color>>,
        /// For each point: the index of its string (stones) or region (empty points).
        string_of: Vec<usize>,
        region_of: Vec<usize>,
        regions: Vec<Region>,
        string_in_seki: Vec<bool>,
        region_in_seki: Vec<bool>,
        stones: [u32; 2],
        dead: [u32; 2],
    }

    const NONE: usize = usize::MAX;

    impl Analysis {
        fn new(board: &Board, dead: &[Point]) -> Analysis {
            let width = usize::from(board.width());
            let height = usize::from(board.height());
            let mut cells: Vec<Option<Color>> = vec![None; width * height];
            for p in board.points() {
                cells[usize::from(p.row) * width + usize::from(p.col)] = board.get(p);
            }
            let mut dead_count = [0u32; 2];
            for &p in dead {
                if !board.contains(p) {
                    continue;
                }
                let i = usize::from(p.row) * width + usize::from(p.col);
                if let Some(color) = cells[i].take() {
                    dead_count[color.opponent().index()] += 1;
                }
            }
            let mut stones = [0u32; 2];
            for color in cells.iter().flatten() {
                stones[color.index()] += 1;
            }

            let mut analysis = Analysis {
                width,
                cells,
                string_of: vec![NONE; width * height],
                region_of: vec![NONE; width * height],
                regions: Vec::new(),
                string_in_seki: Vec::new(),
                region_in_seki: Vec::new(),
                stones,
                dead: dead_count,
            };
            analysis.label(height);
            analysis.find_seki(height);
            analysis
        }

        fn cell(&self, p: Point) -> usize {
            usize::from(p.row) * self.width + usize::from(p.col)
        }

        fn neighbours(&self, i: usize, height: usize) -> impl Iterator<Item = usize> {
            let (width, col, row) = (self.width, i % self.width, i / self.width);
            let left = (col > 0).then(|| i - 1);
            let right = (col + 1 < width).then(|| i + 1);
            let down = (row > 0).then(|| i - width);
            let up = (row + 1 < height).then(|| i + width);
            [left, right, down, up].into_iter().flatten()
        }

        /// Flood-fills strings (4-connected stones of one colour) and regions (4-connected empty
        /// points), recording which colours border each region.
        fn label(&mut self, height: usize) {
            let mut strings = 0;
            let mut stack = Vec::new();
            for start in 0..self.cells.len() {
                let color = self.cells[start];
                let seen = match color {
                    Some(_) => self.string_of[start] != NONE,
                    None => self.region_of[start] != NONE,
                };
                if seen {
                    continue;
                }
                let mut region = Region::default();
                let label = match color {
                    Some(_) => strings,
                    None => self.regions.len(),
                };
                stack.push(start);
                self.mark(start, color, label);
                while let Some(i) = stack.pop() {
                    if color.is_none() {
                        region.size += 1;
                    }
                    for n in self.neighbours(i, height) {
                        match (color, self.cells[n]) {
                            (None, Some(c)) => region.borders[c.index()] = true,
                            (a, b) if a == b && !self.is_marked(n) => {
                                self.mark(n, color, label);
                                stack.push(n);
                            }
                            _ => {}
                        }
                    }
                }
                match color {
                    Some(_) => strings += 1,
                    None => self.regions.push(region),
                }
            }
            self.string_in_seki = vec![false; strings];
            self.region_in_seki = vec![false; self.regions.len()];
        }

        fn is_marked(&self, i: usize) -> bool {
            self.string_of[i] != NONE || self.region_of[i] != NONE
        }

        fn mark(&mut self, i: usize, color: Option<Color>, label: usize) {
            match color {
                Some(_) => self.string_of[i] = label,
                None => self.region_of[i] = label,
            }
        }

        /// Seeds the strings that touch a region bordered by both colours, then spreads the seki
        /// status through one-colour regions to every string of the same group.
        fn find_seki(&mut self, height: usize) {
            // Which regions each string borders, and which strings each region borders.
            let mut string_regions: Vec<Vec<usize>> = vec![Vec::new(); self.string_in_seki.len()];
            let mut region_strings: Vec<Vec<usize>> = vec![Vec::new(); self.regions.len()];
            for i in 0..self.cells.len() {
                if self.cells[i].is_none() {
                    continue;
                }
                let s = self.string_of[i];
                for n in self.neighbours(i, height) {
                    if self.cells[n].is_none() {
                        let r = self.region_of[n];
                        if !string_regions[s].contains(&r) {
                            string_regions[s].push(r);
                            region_strings[r].push(s);
                        }
                    }
                }
            }
            let mut queue: Vec<usize> = Vec::new();
            for (s, regions) in string_regions.iter().enumerate() {
                let touches_shared = regions
                    .iter()
                    .any(|&r| self.regions[r].borders == [true, true]);
                if touches_shared {
                    self.string_in_seki[s] = true;
                    queue.push(s);
                }
            }
            while let Some(s) = queue.pop() {
                for &r in &string_regions[s] {
                    if self.regions[r].owner().is_none() || self.region_in_seki[r] {
                        continue;
                    }
                    self.region_in_seki[r] = true;
                    for &t in &region_strings[r] {
                        if !self.string_in_seki[t] {
                            self.string_in_seki[t] = true;
                            queue.push(t);
                        }
                    }
                }
            }
        }
    }

    /// A board from a diagram, top row first, `X` black, `O` white, `.` empty, spaces ignored.
    fn board(diagram: &str) -> Board {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let height = rows.len() as u8;
        let width = rows[0].len() as u8;
        let mut b = Board::new(width, height).unwrap();
        for (r, row) in rows.iter().enumerate() {
            for (c, ch) in row.iter().enumerate() {
                let p = Point::new(c as u8, height - 1 - r as u8);
                match ch {
                    'X' => assert!(b.set_stone(Color::Black, p)),
                    'O' => assert!(b.set_stone(Color::White, p)),
                    _ => {}
                }
            }
        }
        b
    }

    fn pt(b: &Board, v: &str) -> Point {
        Point::parse_gtp(v, b.width(), b.height()).unwrap()
    }

    fn rules(scoring: Scoring, seki_eyes: SekiEyes, komi_half: i32) -> Rules {
        Rules {
            scoring,
            seki_eyes,
            komi: Komi::from_half_points(komi_half),
            ..Rules::default()
        }
    }

    /// The floods ([`Planes`]) and the region-by-region labelling ([`Analysis`]) agree on the
    /// stones, the dead stones, each colour's territory with seki eyes counted and with them
    /// counting for nobody, and the stones in seki, on boards of every shape from 2x2 to 25x25
    /// with stones of each colour at several densities and some of them removed as dead (a
    /// point given twice, an empty point and a point off the board among them).
    #[test]
    fn the_floods_and_the_labelling_count_alike() {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move |below: u64| {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (seed >> 33) % below
        };
        // Boards where some stones are in seki and some are not.
        let mut some_in_seki = 0;
        for _ in 0..3000 {
            let (width, height) = (2 + next(24) as u8, 2 + next(24) as u8);
            let mut b = Board::new(width, height).unwrap();
            let density = 1 + next(9);
            for row in 0..height {
                for col in 0..width {
                    let p = Point::new(col, row);
                    match next(20) {
                        n if n < density => assert!(b.set_stone(Color::Black, p)),
                        n if n < 2 * density => assert!(b.set_stone(Color::White, p)),
                        _ => {}
                    }
                }
            }
            let mut dead: Vec<Point> = (0..next(6))
                .map(|_| Point::new(next(26) as u8, next(26) as u8))
                .collect();
            dead.extend(dead.first().copied());
            let labelled = Analysis::new(&b, &dead);
            let planes = Planes::new(&b, &dead);
            for seki_eyes in [SekiEyes::Count, SekiEyes::Neutral] {
                let territory = Color::BOTH.map(|c| {
                    labelled
                        .regions
                        .iter()
                        .enumerate()
                        .filter(|(i, r)| {
                            r.owner() == Some(c)
                                && !(seki_eyes == SekiEyes::Neutral && labelled.region_in_seki[*i])
                        })
                        .map(|(_, r)| r.size)
                        .sum()
                });
                let expected = Tally {
                    territory,
                    stones: labelled.stones,
                    dead: labelled.dead,
                };
                assert_eq!(
                    planes.tally(seki_eyes),
                    expected,
                    "{width}x{height} {seki_eyes:?}"
                );
            }
            let seki: Vec<Point> = b
                .points()
                .filter(|&p| {
                    let i = labelled.cell(p);
                    labelled.cells[i].is_some() && labelled.string_in_seki[labelled.string_of[i]]
                })
                .collect();
            let stones = labelled.stones[0] + labelled.stones[1];
            some_in_seki += usize::from(!seki.is_empty() && seki.len() < stones as usize);
            assert_eq!(seki_stones(&b, &dead), seki, "{width}x{height}");
        }
        // The boards put both answers of the seki question to the test.
        assert!(
            some_in_seki > 300,
            "{some_in_seki} of 3000 boards with stones both ways"
        );
    }

    /// RULES-FACTS item 21, from KataGo's rules tests ("GroupTaxSekiScoring").
    const SEKI_CHECK: &str = "
        . X . X O . O . X
        . . . X O O O X .
        . X X X X X X O O
        X O O O O O X O .
        X O . O . O X O O
        X O O O O O X X X
        X X X O . . . O O
        . X X X O O O O .
        . X . X O . O . O";

    /// The same position with the three dame E3 F3 G3 filled by Black ("GroupTaxSekiScoring2").
    const SEKI_CHECK_FILLED: &str = "
        . X . X O . O . X
        . . . X O O O X .
        . X X X X X X O O
        X O O O O O X O .
        X O . O . O X O O
        X O O O O O X X X
        X X X O X X X O O
        . X X X O O O O .
        . X . X O . O . O";

    fn result(diagram: &str, scoring: Scoring, seki_eyes: SekiEyes) -> String {
        let b = board(diagram);
        count(
            &b,
            &rules(scoring, seki_eyes, 1),
            Prisoners::default(),
            &[],
            0,
        )
        .result()
    }

    #[test]
    fn seki_check_position_matches_the_published_results() {
        // By hand: Black 27 stones, White 33. Regions: Black A7-A9/B8/C8/C9 (6), A1-A2 (2),
        // C1 (1); White F9, J6, C5, E5, F1, H1, J2 (1 each); shared H9, J8, E3-F3-G3.
        assert_eq!(result(SEKI_CHECK, Scoring::Area, SekiEyes::Count), "W+4.5");
        assert_eq!(
            result(SEKI_CHECK, Scoring::Territory, SekiEyes::Count),
            "B+1.5"
        );
        // Every group touches a shared point (the black group at G4 through G3, the left
        // black group through the A7 region it shares with it), so no territory counts.
        assert_eq!(
            result(SEKI_CHECK, Scoring::Territory, SekiEyes::Neutral),
            "W+0.5"
        );
        // KataGo's area counting with a seki tax gives W+6.5 too.
        assert_eq!(
            result(SEKI_CHECK, Scoring::Area, SekiEyes::Neutral),
            "W+6.5"
        );
    }

    #[test]
    fn filling_the_dame_leaves_only_the_real_seki() {
        let r = |s, e| result(SEKI_CHECK_FILLED, s, e);
        assert_eq!(r(Scoring::Area, SekiEyes::Count), "W+1.5");
        assert_eq!(r(Scoring::Area, SekiEyes::Neutral), "B+0.5");
        assert_eq!(r(Scoring::Territory, SekiEyes::Count), "B+1.5");
        // Only F9 and J6 (eyes of the white groups in seki with H8 and J9) are neutral.
        assert_eq!(r(Scoring::Territory, SekiEyes::Neutral), "B+3.5");
    }

    #[test]
    fn seki_stones_are_the_groups_touching_shared_points() {
        let b = board(SEKI_CHECK_FILLED);
        let seki = seki_stones(&b, &[]);
        for v in ["H8", "J9", "E9", "G9", "G8", "J7", "H5"] {
            assert!(seki.contains(&pt(&b, v)), "{v}");
        }
        for v in ["B9", "D8", "A6", "B6", "E1", "E3"] {
            assert!(!seki.contains(&pt(&b, v)), "{v}");
        }
    }

    #[test]
    fn counts_are_itemised() {
        let b = board(SEKI_CHECK);
        let c = count(
            &b,
            &rules(Scoring::Area, SekiEyes::Count, 1),
            Prisoners::default(),
            &[],
            0,
        );
        assert_eq!(c.stones, [27, 33]);
        assert_eq!(c.territory, [9, 7]);
        assert_eq!(c.total, [72, 81]);
        assert_eq!(c.margin, -9);
        assert_eq!(c.winner(), Some(Color::White));
    }

    #[test]
    fn dead_stones_become_prisoners_and_their_points_territory() {
        // Black wall on C, white wall on D, a white stone dead inside Black's side.
        let b = board(
            "
            . . X O .
            . . X O .
            O . X O .
            . . X O .
            . . X O .",
        );
        let dead = [pt(&b, "A3"), pt(&b, "E5")]; // E5 is empty: ignored
        let area = count(
            &b,
            &rules(Scoring::Area, SekiEyes::Count, 1),
            Prisoners::default(),
            &dead,
            0,
        );
        assert_eq!(area.stones, [5, 5]);
        assert_eq!(area.dead, [1, 0]);
        assert_eq!(area.territory, [10, 5]);
        assert_eq!(area.result(), "B+4.5");
        let terr = count(
            &b,
            &rules(Scoring::Territory, SekiEyes::Count, 1),
            Prisoners {
                captures: [2, 1],
                pass_stones: [0, 2],
                dead: [0, 0],
            },
            &dead,
            0,
        );
        // Black 10 + 2 prisoners + 1 dead = 13; White 5 + 3 + 0.5 = 8.5.
        assert_eq!(terr.result(), "B+4.5");
        assert_eq!(terr.captures, [2, 1]);
        assert_eq!(terr.pass_stones, [0, 2]);
        // Without the agreement the white stone stands, and the nine empty points around it
        // touch both colours: nobody's. Black 5; White 6 + 5 + 0.5.
        let alive = count(
            &b,
            &rules(Scoring::Area, SekiEyes::Count, 1),
            Prisoners::default(),
            &[],
            0,
        );
        assert_eq!(alive.territory, [0, 5]);
        assert_eq!(alive.result(), "W+6.5");
    }

    #[test]
    fn handicap_komi_and_compensation_apply_in_handicap_games_only() {
        let b = board(
            "
            X O .
            X O .
            X O .",
        );
        // Area: Black 3 stones, White 3 stones + 3 territory.
        let mut r = rules(Scoring::Area, SekiEyes::Count, 15);
        r.handicap_komi = Komi::from_half_points(1);
        let even = count(&b, &r, Prisoners::default(), &[], 1);
        assert_eq!(even.komi, [0, 15]);
        assert_eq!(even.compensation, [0, 0]);
        assert_eq!(even.result(), "W+10.5");
        r.handicap_compensation = HandicapCompensation::NMinusOne;
        let four = count(&b, &r, Prisoners::default(), &[], 4);
        assert_eq!(four.komi, [0, 1]);
        assert_eq!(four.compensation, [0, 6]);
        assert_eq!(four.result(), "W+6.5");
        r.handicap_compensation = HandicapCompensation::N;
        assert_eq!(
            count(&b, &r, Prisoners::default(), &[], 4).result(),
            "W+7.5"
        );
        r.handicap_compensation = HandicapCompensation::None;
        assert_eq!(
            count(&b, &r, Prisoners::default(), &[], 4).result(),
            "W+3.5"
        );
        // No compensation under territory counting.
        r.scoring = Scoring::Territory;
        r.handicap_compensation = HandicapCompensation::N;
        let terr = count(&b, &r, Prisoners::default(), &[], 4);
        assert_eq!(terr.compensation, [0, 0]);
        assert_eq!(terr.result(), "W+3.5");
    }

    #[test]
    fn draws_follow_the_rules() {
        let b = board(
            "
            X O
            X O",
        );
        let mut r = rules(Scoring::Area, SekiEyes::Count, 0);
        r.handicap_komi = Komi::ZERO;
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 0).result(), "0");
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 0).winner(), None);
        r.draws = Draws::WhiteWins;
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 0).result(), "W+0");
        r.draws = Draws::WhiteWinsHandicap;
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 0).result(), "0");
        r.handicap_compensation = HandicapCompensation::None;
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 2).result(), "W+0");
    }

    #[test]
    fn whole_and_negative_komi_print_as_sgf_results() {
        let b = board(
            "
            X .
            X .",
        );
        // Black 4 points by area; komi -3 gives Black 7.
        let r = rules(Scoring::Area, SekiEyes::Count, -6);
        assert_eq!(count(&b, &r, Prisoners::default(), &[], 0).result(), "B+7");
        let empty = Board::new(3, 3).unwrap();
        let c = count(
            &empty,
            &rules(Scoring::Area, SekiEyes::Count, 13),
            Prisoners::default(),
            &[],
            0,
        );
        assert_eq!(c.territory, [0, 0]);
        assert_eq!(c.result(), "W+6.5");
    }
}
