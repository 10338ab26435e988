//! A crosstable: who played whom in each round and who won.
//!
//! Each player has one entry per round: a game (opponent and outcome, and whether it was won
//! by forfeit), a bye (present but not paired) or an absence (not there: late, missing a
//! round, or withdrawn). Scores are counted in half points so that a draw (a jigo where the
//! rules let one stand) is exact. The table is consistent by construction: a game is entered
//! once for both players, so A's win over B in round 2 is B's loss to A in round 2.
//!
//! Two things the 1988 text leaves to the director are inputs here rather than guesses: what a
//! bye is worth (nothing by default) and the McMahon starting scores (none by default). A
//! player's score is the starting score, plus the games' points, plus the byes' worth; the
//! tiebreaks that add up opponents' scores use that same score, as McMahon events do. A
//! forfeit counts as the result it gives, a win for the opponent of the player who forfeits
//! (VIII.B, which also has it entered for ratings as such); it is only marked as a forfeit.

use std::fmt;

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Won, on the board or by the opponent's forfeit: one point.
    Win,
    /// Lost, on the board or by forfeit: nothing.
    Loss,
    /// A jigo the rules let stand: half a point each.
    Draw,
}

impl Outcome {
    /// The score in half points: 2 for a win, 1 for a draw, 0 for a loss.
    pub fn half_points(self) -> u32 {
        match self {
            Outcome::Win => 2,
            Outcome::Draw => 1,
            Outcome::Loss => 0,
        }
    }

    /// The same game seen from the opponent's side.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Loss => Outcome::Win,
            Outcome::Draw => Outcome::Draw,
        }
    }

    /// The mark after an opponent's name in a crosstable cell: `+`, `-` or `=`.
    pub fn mark(self) -> char {
        match self {
            Outcome::Win => '+',
            Outcome::Loss => '-',
            Outcome::Draw => '=',
        }
    }
}

/// One player's game in one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Game {
    /// The opponent's index in the table.
    pub opponent: usize,
    /// How the game ended for this player.
    pub outcome: Outcome,
    /// Decided by a forfeit (VIII.B) rather than played out; written `!` after the mark.
    pub forfeit: bool,
}

/// One player's entry for one round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A game against another player.
    Played(Game),
    /// Present but not paired: worth what the table's `bye` says.
    Bye,
    /// Not there that round (late, away, or withdrawn): worth nothing.
    Absent,
}

impl Entry {
    /// The game, if one was played.
    pub fn game(self) -> Option<Game> {
        match self {
            Entry::Played(g) => Some(g),
            Entry::Bye | Entry::Absent => None,
        }
    }
}

/// Why a crosstable is inconsistent. Positions are (player index, round index), 0-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CrosstableError {
    /// Two rows with this name: games name opponents by name, so names must be unique.
    #[error("player `{0}` is listed twice")]
    DuplicatePlayer(String),
    /// A game whose opponent is the player of the row itself.
    #[error("a player cannot play themself")]
    SelfGame {
        /// The player's row.
        player: usize,
        /// The round of the game.
        round: usize,
    },
    /// A row with fewer or more rounds than the longest row: every player has an entry,
    /// possibly an absence, in every round.
    #[error("`{player}` has {found} round(s), the table has {rounds}")]
    RoundCount {
        /// The player's name.
        player: String,
        /// The rounds in this player's row.
        found: usize,
        /// The rounds of the table (its longest row).
        rounds: usize,
    },
    /// A game that the opponent's row does not show, reversed, in the same round.
    #[error("`{opponent}`'s entry for round {} should be `{expected}` but is `{found}`", .round + 1)]
    Mismatch {
        /// The row of the player whose game names the opponent.
        player: usize,
        /// The round of the game.
        round: usize,
        /// The opponent's name.
        opponent: String,
        /// The opponent's entry the game implies, as a crosstable cell (`A-`, `A+!`).
        expected: String,
        /// The opponent's entry as it stands, as a cell (`bye`, empty for an absence).
        found: String,
    },
}

/// A consistent crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    /// The players' names, in the order of the table's rows.
    pub players: Vec<String>,
    /// `entries[player][round]`.
    pub entries: Vec<Vec<Entry>>,
    /// McMahon starting scores in half points, one per player (all 0 outside McMahon).
    pub start: Vec<u32>,
    /// What a bye is worth, in half points.
    pub bye: u32,
}

impl Crosstable {
    /// Checks that every game appears, reversed, in the opponent's row for the same round.
    /// Returns every inconsistency, not only the first. No starting scores; byes worth nothing.
    pub fn new(
        players: Vec<String>,
        games: Vec<Vec<Entry>>,
    ) -> Result<Crosstable, Vec<CrosstableError>> {
        let mut errors = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for p in &players {
            if !seen.insert(p.as_str()) {
                errors.push(CrosstableError::DuplicatePlayer(p.clone()));
            }
        }
        let rounds = games.iter().map(Vec::len).max().unwrap_or(0);
        for (p, row) in games.iter().enumerate() {
            if row.len() != rounds {
                errors.push(CrosstableError::RoundCount {
                    player: players[p].clone(),
                    found: row.len(),
                    rounds,
                });
            }
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        let cell = |e: Entry| match e {
            Entry::Bye => "bye".to_string(),
            Entry::Absent => String::new(),
            Entry::Played(g) => format!(
                "{}{}{}",
                players[g.opponent],
                g.outcome.mark(),
                if g.forfeit { "!" } else { "" }
            ),
        };
        for (p, row) in games.iter().enumerate() {
            for (r, entry) in row.iter().enumerate() {
                let Entry::Played(game) = entry else { continue };
                if game.opponent == p {
                    errors.push(CrosstableError::SelfGame {
                        player: p,
                        round: r,
                    });
                    continue;
                }
                let theirs = games[game.opponent][r];
                let expected = Entry::Played(Game {
                    opponent: p,
                    outcome: game.outcome.reversed(),
                    forfeit: game.forfeit,
                });
                if theirs != expected {
                    errors.push(CrosstableError::Mismatch {
                        player: p,
                        round: r,
                        opponent: players[game.opponent].clone(),
                        expected: cell(expected),
                        found: cell(theirs),
                    });
                }
            }
        }
        if errors.is_empty() {
            let start = vec![0; players.len()];
            Ok(Crosstable {
                players,
                entries: games,
                start,
                bye: 0,
            })
        } else {
            Err(errors)
        }
    }

    /// How many rounds the table has; every row has an entry for each.
    pub fn rounds(&self) -> usize {
        self.entries.first().map_or(0, Vec::len)
    }

    /// The same table with McMahon starting scores (half points, by player; a player past
    /// the end of `start` starts at 0).
    pub fn with_start(mut self, mut start: Vec<u32>) -> Crosstable {
        start.resize(self.players.len(), 0);
        self.start = start;
        self
    }

    /// The same table with byes worth `half_points`.
    pub fn with_bye(mut self, half_points: u32) -> Crosstable {
        self.bye = half_points;
        self
    }

    /// A player's games, round by round, byes and absences left out.
    pub fn played(&self, player: usize) -> impl Iterator<Item = Game> + '_ {
        self.entries[player].iter().filter_map(|e| e.game())
    }

    /// What one entry is worth, in half points.
    pub fn points(&self, entry: Entry) -> u32 {
        match entry {
            Entry::Played(g) => g.outcome.half_points(),
            Entry::Bye => self.bye,
            Entry::Absent => 0,
        }
    }

    /// A player's score in half points: the starting score and every round's points.
    pub fn score(&self, player: usize) -> u32 {
        self.start[player]
            + self.entries[player]
                .iter()
                .map(|e| self.points(*e))
                .sum::<u32>()
    }

    /// The row of the player named `name`.
    pub fn index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }

    /// The number of rounds a player took part in before leaving for good, when every round
    /// after that finds them absent (a withdrawal; 0 if they never came). `None` when they
    /// were there in the last round.
    pub fn withdrew_after(&self, player: usize) -> Option<usize> {
        let row = &self.entries[player];
        let present = row
            .iter()
            .rposition(|e| *e != Entry::Absent)
            .map_or(0, |i| i + 1);
        (present < row.len()).then_some(present)
    }
}

/// A number of half points shown as a whole or half number (`3`, `2.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Half(pub i64);

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let n = self.0.unsigned_abs();
        if n.is_multiple_of(2) {
            write!(f, "{sign}{}", n / 2)
        } else {
            write!(f, "{sign}{}.5", n / 2)
        }
    }
}
