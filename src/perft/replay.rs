//! Perft through any [`Referee`]: each line is replayed from the start and every candidate
//! move (each point of the board, then the pass) is offered to the implementation, which says
//! whether it is legal. Nothing of the reference is used, so the naive executor, the goban
//! crate or an engine in another process gets a count of its own to compare. Slow by design
//! (a replay a legal move), for small depths.

use super::{points, Start};
use crate::board::{Color, Move};
use crate::conformance::{EngineError, Referee};
use crate::game::Event;
use crate::rules::Rules;

/// Why a count through an implementation could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The implementation cannot play these rules or this set-up.
    #[error("the implementation cannot play this start: {0}")]
    Unsupported(String),
    /// The implementation broke down.
    #[error("the implementation broke down: {0}")]
    Engine(#[from] EngineError),
    /// A move it called legal before is refused on replay: its answers depend on more than
    /// the game so far.
    #[error("the implementation refused `{event}` on replay after allowing it before")]
    Inconsistent {
        /// The refused event.
        event: String,
    },
}

/// Counts lines of exactly `depth` legal moves through `referee` (see the module).
pub fn perft(
    referee: &mut dyn Referee,
    rules: &Rules,
    start: &Start,
    depth: u32,
) -> Result<u64, ReplayError> {
    let mut line = start.moves.clone();
    let first = first_to_move(start);
    count(referee, rules, start, &mut line, first, depth)
}

/// [`perft`] split by the first move, as [`super::divide`] splits it.
pub fn divide(
    referee: &mut dyn Referee,
    rules: &Rules,
    start: &Start,
    depth: u32,
) -> Result<Vec<(Move, u64)>, ReplayError> {
    let mut line = start.moves.clone();
    let mover = first_to_move(start);
    let mut out = Vec::new();
    if depth == 0 {
        return Ok(out);
    }
    for mv in legal(referee, rules, start, &line, mover)? {
        line.push(Event::Move(mover, mv));
        let n = count(
            referee,
            rules,
            start,
            &mut line,
            mover.opponent(),
            depth - 1,
        )?;
        line.pop();
        out.push((mv, n));
    }
    Ok(out)
}

/// Who moves after the start's moves: the set-up's player (White with handicap stones),
/// then alternately.
fn first_to_move(start: &Start) -> Color {
    let mut color = if start.setup.handicap.is_empty() {
        start.setup.to_move
    } else {
        Color::White
    };
    for event in &start.moves {
        if let Event::Move(c, _) = event {
            color = c.opponent();
        }
    }
    color
}

/// Whether the line ends with two consecutive passes: play has stopped.
fn stopped(line: &[Event]) -> bool {
    matches!(
        line,
        [.., Event::Move(_, Move::Pass), Event::Move(_, Move::Pass)]
    )
}

/// Starts a game and replays `line` on it.
fn replay(
    referee: &mut dyn Referee,
    rules: &Rules,
    start: &Start,
    line: &[Event],
) -> Result<(), ReplayError> {
    referee
        .start(rules, &start.setup)
        .map_err(|e| ReplayError::Unsupported(e.0))?;
    for event in line {
        if !referee.apply(event)?.is_legal() {
            return Err(ReplayError::Inconsistent {
                event: event.to_string(),
            });
        }
    }
    Ok(())
}

/// The moves `referee` allows `mover` after `line`, in perft order.
fn legal(
    referee: &mut dyn Referee,
    rules: &Rules,
    start: &Start,
    line: &[Event],
    mover: Color,
) -> Result<Vec<Move>, ReplayError> {
    if stopped(line) {
        return Ok(Vec::new());
    }
    let mut moves = Vec::new();
    let mut fresh = false;
    let candidates = points(start.setup.width, start.setup.height)
        .into_iter()
        .map(Move::Play)
        .chain(std::iter::once(Move::Pass));
    for mv in candidates {
        if !fresh {
            replay(referee, rules, start, line)?;
            fresh = true;
        }
        // An illegal move changes nothing, so the next candidate is tried on the same game; a
        // legal one changed it, so the line is replayed before the next.
        if referee.apply(&Event::Move(mover, mv))?.is_legal() {
            moves.push(mv);
            fresh = false;
        }
    }
    Ok(moves)
}

fn count(
    referee: &mut dyn Referee,
    rules: &Rules,
    start: &Start,
    line: &mut Vec<Event>,
    mover: Color,
    depth: u32,
) -> Result<u64, ReplayError> {
    if depth == 0 {
        return Ok(1);
    }
    let moves = legal(referee, rules, start, line, mover)?;
    if depth == 1 {
        return Ok(moves.len() as u64);
    }
    let mut total = 0;
    for mv in moves {
        line.push(Event::Move(mover, mv));
        total += count(referee, rules, start, line, mover.opponent(), depth - 1)?;
        line.pop();
    }
    Ok(total)
}
