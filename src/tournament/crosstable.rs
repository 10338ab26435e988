//! A crosstable: who played whom in each round and who won.
//!
//! Each player has one entry per round: a game (opponent and outcome) or none (a bye, an
//! absence). Scores are counted in half points so that a draw (a jigo where the rules let one
//! stand) is exact. The table is consistent by construction: a game is entered once for both
//! players, so A's win over B in round 2 is B's loss to A in round 2.

use std::fmt;

/// How a game ended for one player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win,
    Loss,
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
    pub opponent: usize,
    pub outcome: Outcome,
}

/// Why a crosstable is inconsistent. Positions are (player index, round index), 0-based.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CrosstableError {
    #[error("player `{0}` is listed twice")]
    DuplicatePlayer(String),
    #[error("a player cannot play themself")]
    SelfGame { player: usize, round: usize },
    #[error("`{player}` has {found} round(s), the table has {rounds}")]
    RoundCount {
        player: String,
        found: usize,
        rounds: usize,
    },
    #[error("`{opponent}`'s entry for round {} should be `{expected}` but is `{found}`", .round + 1)]
    Mismatch {
        player: usize,
        round: usize,
        opponent: String,
        expected: String,
        found: String,
    },
}

/// A consistent crosstable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosstable {
    pub players: Vec<String>,
    /// `games[player][round]`.
    pub games: Vec<Vec<Option<Game>>>,
}

impl Crosstable {
    /// Checks that every game appears, reversed, in the opponent's row for the same round.
    /// Returns every inconsistency, not only the first.
    pub fn new(
        players: Vec<String>,
        games: Vec<Vec<Option<Game>>>,
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
        let cell = |g: Option<Game>| match g {
            None => "bye".to_string(),
            Some(g) => format!("{}{}", players[g.opponent], g.outcome.mark()),
        };
        for (p, row) in games.iter().enumerate() {
            for (r, game) in row.iter().enumerate() {
                let Some(game) = game else { continue };
                if game.opponent == p {
                    errors.push(CrosstableError::SelfGame {
                        player: p,
                        round: r,
                    });
                    continue;
                }
                let theirs = games[game.opponent][r];
                let expected = Some(Game {
                    opponent: p,
                    outcome: game.outcome.reversed(),
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
            Ok(Crosstable { players, games })
        } else {
            Err(errors)
        }
    }

    pub fn rounds(&self) -> usize {
        self.games.first().map_or(0, Vec::len)
    }

    /// A player's games, round by round, byes left out.
    pub fn played(&self, player: usize) -> impl Iterator<Item = Game> + '_ {
        self.games[player].iter().flatten().copied()
    }

    /// A player's score in half points.
    pub fn score(&self, player: usize) -> u32 {
        self.played(player).map(|g| g.outcome.half_points()).sum()
    }

    pub fn index(&self, name: &str) -> Option<usize> {
        self.players.iter().position(|p| p == name)
    }
}

/// A number of half points shown as a whole or half number (`3`, `2.5`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Half(pub i64);

impl fmt::Display for Half {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let n = self.0.unsigned_abs();
        if n % 2 == 0 {
            write!(f, "{sign}{}", n / 2)
        } else {
            write!(f, "{sign}{}.5", n / 2)
        }
    }
}
