//! The referee between engines: matches of GTP engines played under a ruleset exactly, the
//! way the rules' own procedure runs a game (see [`game`] for every rule the referee applies
//! around the board).
//!
//! A face like `fuzzing`: it drives two engines in other processes ([`player`]) and the
//! reference executor's referee ([`crate::game::Refereed`]), with the tournament layer's
//! clock. It holds no rule of its own: legality, passes, pauses, disputes, the four-pass end,
//! White passing last and the count are the executor's.

pub mod game;
pub mod player;

pub use game::{GameEnd, GameOptions, IllegalMoves, PlayedGame};

/// Wins, losses and the rest over a match, from Black's engine's side and White's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: usize,
    /// Games won by the engine playing Black, and by the engine playing White.
    pub wins: [usize; 2],
    pub draws: usize,
    pub void: usize,
    /// Games decided by a fault or an illegal move, by the colour at fault.
    pub faults: [usize; 2],
    pub counted: usize,
    pub resignations: usize,
    pub on_time: usize,
}

impl Tally {
    pub fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        match game.result.as_bytes().first() {
            Some(b'B') => self.wins[0] += 1,
            Some(b'W') => self.wins[1] += 1,
            Some(b'0') => self.draws += 1,
            _ => self.void += 1,
        }
        match &game.ending {
            GameEnd::Counted => self.counted += 1,
            GameEnd::Resignation(_) => self.resignations += 1,
            GameEnd::Time(_) => self.on_time += 1,
            GameEnd::IllegalMove(c, _) => self.faults[c.index()] += 1,
            GameEnd::Fault(f) => self.faults[f.color.index()] += 1,
            GameEnd::MoveLimit => {}
        }
    }
}

/// What the results table says of how a game ended.
pub fn ending_words(game: &PlayedGame) -> String {
    match &game.ending {
        GameEnd::Counted if game.dead.is_empty() => "counted".to_string(),
        GameEnd::Counted => format!("counted, {} stones agreed dead", game.dead.len()),
        GameEnd::Resignation(c) => format!("{} resigned", c.name()),
        GameEnd::Time(c) => format!("{}'s flag fell", c.name()),
        GameEnd::IllegalMove(c, reason) => format!("{} made an illegal move ({reason})", c.name()),
        GameEnd::Fault(f) => format!(
            "{}'s engine failed ({}): {}",
            f.color.name(),
            f.kind,
            f.message
        ),
        GameEnd::MoveLimit => "move limit".to_string(),
    }
}
