//! Set-ups: the position a game starts from, its handicap stones and whether it counts as a
//! position of the repetition history; the checks a set-up must pass before play starts.

use crate::board::{Board, Color, Point, SizeError};
use crate::rules::{HandicapPlacement, Rules};

use super::handicap;

/// Whether the set-up position is part of the repetition history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SetupHistory {
    /// The set-up position is the first entry of the history, with the given player to move,
    /// and counts as created by a board play of the other player, as if that player had just
    /// made the last move of a game that reached it.
    #[default]
    Played,
    /// The set-up position is not in the history: only positions that arise afterwards count.
    Excluded,
}

impl SetupHistory {
    /// The word scenarios use for the convention (`history = "played"`).
    pub fn word(self) -> &'static str {
        match self {
            SetupHistory::Played => "played",
            SetupHistory::Excluded => "excluded",
        }
    }
}

/// Everything needed to start a game: size, position, who moves, history convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Columns of the board.
    pub width: u8,
    /// Rows of the board.
    pub height: u8,
    /// The stones on the board before the handicap is placed.
    pub stones: Vec<(Point, Color)>,
    /// Black's handicap stones, placed on top of `stones`. With any, White moves first
    /// whatever `to_move` says, and the game is a handicap game for komi and counting.
    pub handicap: Vec<Point>,
    /// The player to move first (White whenever there are handicap stones).
    pub to_move: Color,
    /// Whether the set-up position is part of the repetition history.
    pub history: SetupHistory,
    /// The handicap stones stand where they were put even if the fixed placement in force
    /// names other points: a misplacement (BGA irregularity iii) for a referee to rule on.
    /// Without it such a placement is refused.
    pub handicap_as_placed: bool,
}

impl Setup {
    /// The set-up stones of one colour, in the order given, handicap stones left out (writers
    /// of SGF and GTP list them by colour, and add the handicap where their format puts it).
    pub fn stones_of(&self, color: Color) -> impl Iterator<Item = Point> + '_ {
        self.stones
            .iter()
            .filter(move |(_, c)| *c == color)
            .map(|(p, _)| *p)
    }

    /// An empty board of the given size with Black to move.
    pub fn empty(width: u8, height: u8) -> Setup {
        Setup {
            width,
            height,
            stones: Vec::new(),
            handicap: Vec::new(),
            to_move: Color::Black,
            history: SetupHistory::Played,
            handicap_as_placed: false,
        }
    }
}

/// A set-up that describes no legal starting position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The board size is out of range.
    #[error(transparent)]
    Size(#[from] SizeError),
    /// A stone off the board or on a point given twice.
    #[error("set-up stone at {0} is off the board or on a point given twice")]
    BadStone(Point),
    /// A string of the set-up position has no liberty.
    #[error("set-up position has a string without liberties at {0}")]
    NoLiberty(Point),
    /// The handicap stones cannot be placed.
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// Handicap stones the rules of play cannot start from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// Not 2 to 9 stones.
    #[error("a handicap is 2 to 9 stones placed, not {0}: no ruleset places more than nine, and a one-stone handicap places none (Black moves first)")]
    Count(usize),
    /// A handicap stone on a point that holds a stone.
    #[error("handicap stone at {0}: the point already holds a stone")]
    Occupied(Point),
    /// A point given twice.
    #[error("handicap stone at {0}: the point is given twice")]
    Repeated(Point),
    /// A point off the board.
    #[error("handicap stone at {0}: the point is off the board")]
    OffBoard(Point),
    /// Fixed placement is required, and this board size has none for this many stones.
    #[error("the rules place handicap stones on fixed points, and a {size} board has no fixed placement of {stones} stones")]
    NoFixedPlacement {
        /// The board size, `19x19`.
        size: String,
        /// The number of stones asked for.
        stones: usize,
    },
    /// Fixed placement is required, and the stones stand elsewhere.
    #[error("the rules place {stones} handicap stones on the fixed points {expected}, not {given} (set handicap-placement = free for a free placement)")]
    NotFixed {
        /// The number of stones.
        stones: usize,
        /// The fixed points, as GTP vertices.
        expected: String,
        /// The points given, as GTP vertices.
        given: String,
    },
}

/// Places Black's handicap stones on a set-up board, checking what the rules require: at most
/// nine stones (and not exactly one), each on an empty point, and under fixed placement
/// exactly the fixed points for that number (in any order). A set-up with
/// `handicap_as_placed` may miss the fixed points; the fixed points are then returned.
pub(super) fn place_handicap(
    board: &mut Board,
    rules: &Rules,
    setup: &Setup,
) -> Result<Option<Vec<Point>>, HandicapError> {
    let points = &setup.handicap[..];
    let mut misplaced = None;
    if points.is_empty() {
        return Ok(None);
    }
    if points.len() == 1 || points.len() > handicap::MAX_HANDICAP {
        return Err(HandicapError::Count(points.len()));
    }
    if rules.handicap_placement == HandicapPlacement::Fixed {
        let stones = u32::try_from(points.len()).unwrap_or(u32::MAX);
        let fixed = (board.width() == board.height())
            .then(|| handicap::fixed_points(handicap::Pattern::Traditional, board.width(), stones))
            .flatten();
        let Some(mut expected) = fixed else {
            return Err(HandicapError::NoFixedPlacement {
                size: format!("{}x{}", board.width(), board.height()),
                stones: points.len(),
            });
        };
        let mut given = points.to_vec();
        expected.sort();
        given.sort();
        if expected != given && setup.handicap_as_placed {
            misplaced = Some(expected);
        } else if expected != given {
            let names = |ps: &[Point]| {
                ps.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            return Err(HandicapError::NotFixed {
                stones: points.len(),
                expected: names(&expected),
                given: names(&given),
            });
        }
    }
    for (i, &p) in points.iter().enumerate() {
        if !board.contains(p) {
            return Err(HandicapError::OffBoard(p));
        }
        if points[..i].contains(&p) {
            return Err(HandicapError::Repeated(p));
        }
        if !board.set_stone(Color::Black, p) {
            return Err(HandicapError::Occupied(p));
        }
    }
    Ok(misplaced)
}
