//! A program whose every answer is written down in advance: the seat a tournament scenario
//! puts at the referee's board, so that the match referee's procedure (an illegal move taken
//! back, moved again or losing; the dead stones agreed or disputed) runs in `goconform check`
//! exactly as it runs between two engines, with no process and no chance in it.

use std::collections::VecDeque;
use std::time::Duration;

use crate::board::{Color, Move, Point};
use crate::tournament::clock::Phase;
use crate::tournament::time_control::TimeControl;

use super::player::{Fault, Generated, Seat};

/// A scripted program: its moves in the order it gives them, and the stones it calls dead
/// whenever it is asked.
#[derive(Clone, Debug)]
pub struct Scripted {
    color: Color,
    moves: VecDeque<Generated>,
    dead: Vec<Point>,
}

impl Scripted {
    /// A program playing `color` that answers `genmove` with `moves` in order and
    /// `final_status_list dead` with `dead`.
    pub fn new(color: Color, moves: Vec<Generated>, dead: Vec<Point>) -> Scripted {
        Scripted {
            color,
            moves: moves.into(),
            dead,
        }
    }
}

impl Seat for Scripted {
    fn color(&self) -> Color {
        self.color
    }

    fn identity(&mut self) -> String {
        format!("script ({})", self.color.name())
    }

    fn new_game(&mut self, _size: u8, _komi: f64, _handicap: &[Point]) -> Result<(), Fault> {
        Ok(())
    }

    fn time_settings(&mut self, _control: &TimeControl) -> Result<(), Fault> {
        Ok(())
    }

    fn time_left(&mut self, _phase: Phase, _control: &TimeControl) -> Result<(), Fault> {
        Ok(())
    }

    /// The next move of the script; a script that has run out is a fault, as an engine that
    /// stops answering is.
    fn genmove(&mut self, _timeout: Duration) -> Result<Generated, Fault> {
        self.moves.pop_front().ok_or_else(|| Fault {
            color: self.color,
            kind: "script",
            message: "the script has no more moves".to_string(),
        })
    }

    fn play(&mut self, _color: Color, _mv: Move) -> Result<(), Fault> {
        Ok(())
    }

    fn resume(&mut self, _first: Color) -> Result<(), Fault> {
        Ok(())
    }

    fn undo(&mut self) -> Result<(), Fault> {
        Ok(())
    }

    fn dead_stones(&mut self) -> Result<Vec<Point>, Fault> {
        Ok(self.dead.clone())
    }

    fn quit(self: Box<Self>) {}
}
