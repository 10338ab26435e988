//! What a referee's record can do to a game that the rules of play never would: moves that
//! stand on the board although they break a rule, and the corrections the procedures make.
//!
//! These are the physical facts only. Which rule a move broke, whether it stands and how it
//! is put right are decided in [`super::procedure`]; nothing here is reachable through
//! [`Game::apply`], so the plain executor keeps its invariant that an illegal event changes
//! nothing.

use super::{Game, Reason};
use crate::board::{Color, Move, Point};

impl Game {
    /// The rule a move by `color` would break if it were made now, `None` if it is legal.
    /// `Err` if no move can be made at all (play is paused or over). A move out of turn is
    /// reported as that first: a failure of alternation whatever else the play does.
    pub(crate) fn breach_of(&self, color: Color, mv: Move) -> Result<Option<Reason>, Reason> {
        self.in_play()?;
        if color != self.to_move {
            return Ok(Some(Reason::OutOfTurn));
        }
        Ok(match mv {
            Move::Pass => None,
            Move::Play(p) => self.judge(color, p).err(),
        })
    }

    /// Makes a move as a player physically did, whatever rule it breaks. A play on an occupied
    /// point leaves the board as it was (the stone lies on top of another, on no point of its
    /// own) but uses the turn; a self-capture leaves the stone and its string on the board
    /// without liberties, since the player did not take them off; any other play, a ko or
    /// superko retake or a move out of turn, captures as a play does.
    pub(crate) fn force(&mut self, color: Color, mv: Move) {
        let Move::Play(p) = mv else {
            self.pass(color);
            return;
        };
        match self.judge(color, p) {
            Err(Reason::Occupied) => self.after_physical_move(color, false),
            Err(Reason::Suicide) => {
                self.board.set_stone(color, p);
                self.after_physical_move(color, true);
            }
            _ => {
                if self.board.contains(p) && self.board.get(p).is_none() {
                    self.play(color, p);
                }
            }
        }
    }

    /// The stones a legal play by `color` at `p` would capture.
    pub(crate) fn captures_of(&self, color: Color, p: Point) -> Vec<Point> {
        let mut after = self.board.clone();
        let mut removed = Vec::new();
        let removal = after.play(color, p, &mut removed);
        removed.truncate(removal.captured as usize);
        removed
    }

    /// A legal play whose captures the player left on the board: the stone goes down and
    /// the captured strings stay, without liberties.
    pub(crate) fn play_leaving_captures(&mut self, color: Color, p: Point) {
        self.board.set_stone(color, p);
        self.after_physical_move(color, true);
    }

    /// A legal play after which the player also took off the strings through `taken`
    /// although they still had liberties; the player keeps them as prisoners. Returns the
    /// stones taken off beyond the play's own captures.
    pub(crate) fn play_removing(&mut self, color: Color, p: Point, taken: &[Point]) -> Vec<Point> {
        self.removed.clear();
        let removal = self.board.play(color, p, &mut self.removed);
        self.prisoners.captures[color.index()] += removal.captured;
        self.prisoners.captures[color.opponent().index()] += removal.self_captured;
        let extra: Vec<Point> = taken
            .iter()
            .copied()
            .filter(|&q| self.board.get(q) == Some(color.opponent()))
            .collect();
        let extra = self.board.strings_through(&extra);
        for &q in &extra {
            self.board.clear_point(q);
        }
        self.prisoners.captures[color.index()] += extra.len() as u32;
        self.after_physical_move(color, true);
        extra
    }

    /// The player to move put down a stone of the opponent's colour at `p`: it captures
    /// nothing (the player took nothing off), and the turn passes.
    pub(crate) fn play_wrong_colour(&mut self, color: Color, p: Point) {
        self.board.set_stone(color.opponent(), p);
        self.after_physical_move(color, true);
    }

    /// Takes off the strings through `points` that have no liberties and hands them to
    /// `taker` as prisoners. Returns the stones taken off.
    pub(crate) fn take_off_without_liberties(
        &mut self,
        points: &[Point],
        taker: Color,
    ) -> Vec<Point> {
        let dead: Vec<Point> = points
            .iter()
            .copied()
            .filter(|&q| self.board.get(q).is_some() && self.board.liberties(q) == 0)
            .collect();
        let dead = self.board.strings_through(&dead);
        for &q in &dead {
            self.board.clear_point(q);
        }
        self.prisoners.captures[taker.index()] += dead.len() as u32;
        dead
    }

    /// Puts stones that were wrongly taken off back on the board and takes them back from
    /// the prisoners of `taker`, who took them. The caller checks that the points are empty.
    pub(crate) fn put_back(&mut self, stones: &[(Point, Color)], taker: Color) {
        for &(q, c) in stones {
            if self.board.set_stone(c, q) {
                let held = &mut self.prisoners.captures[taker.index()];
                *held = held.saturating_sub(1);
            }
        }
    }

    /// Replaces the stone at `p` by one of colour `right` and completes the captures that
    /// stone makes, as if `right` had played there. Refused (and nothing changes) if that
    /// play would itself be illegal.
    pub(crate) fn replace_colour(&mut self, p: Point, right: Color) -> Result<Vec<Point>, Reason> {
        let saved = self.board.clone();
        self.board.clear_point(p);
        let Some(preview) = self.board.preview(right, p) else {
            self.board = saved;
            return Err(Reason::Occupied);
        };
        if preview.self_captured > 0 {
            self.board = saved;
            return Err(Reason::Suicide);
        }
        self.removed.clear();
        let removal = self.board.play(right, p, &mut self.removed);
        self.prisoners.captures[right.index()] += removal.captured;
        self.history
            .record(&mut self.board, self.to_move, Some(right));
        Ok(self.removed.clone())
    }

    /// Where the fixed placement would have put handicap stones that a set-up with
    /// `handicap_as_placed` put elsewhere.
    pub(crate) fn fixed_handicap(&self) -> Option<&[Point]> {
        self.fixed_handicap.as_deref()
    }

    /// The bookkeeping of a move made outside [`Game::play`]: the turn passes, passes stop
    /// being consecutive, no ko ban survives, and a board that changed is recorded as created
    /// by `color`'s play.
    fn after_physical_move(&mut self, color: Color, board_changed: bool) {
        self.ko_ban = None;
        self.consecutive_passes = 0;
        self.moves_since_resumption = self.moves_since_resumption.map(|m| m + 1);
        self.to_move = color.opponent();
        if board_changed {
            self.history
                .record(&mut self.board, self.to_move, Some(color));
        }
    }
}
