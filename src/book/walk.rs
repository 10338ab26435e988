//! A scenario played by the reference under one of its runs, kept event by event: what the
//! diagrams and verdict tables of the book draw from.
//!
//! The walk is the reference's answer, not the scenario's expectations: a page shows what the
//! rules give, and the suite (`goconform check`) is what says the two agree.

use crate::board::{Board, Color, Move, Point};
use crate::game::procedure::Refereed;
use crate::game::{Event, Phase, Verdict};
use crate::scenario::Scenario;

/// One event and the state it left.
#[derive(Clone, Debug)]
pub struct Step {
    /// 1-based, as `after` counts in scenarios.
    pub number: usize,
    /// The event.
    pub event: Event,
    /// What the reference answered.
    pub verdict: Verdict,
    /// The board after the event (unchanged by a refused one).
    pub board: Board,
    /// Black's and White's prisoners after the event.
    pub prisoners: [u32; 2],
    /// Who moves next.
    pub to_move: Color,
    /// Playing, paused, resumed or ended.
    pub phase: Phase,
    /// The referee's explanation of a ruling or of a violation recorded, if any.
    pub explanation: Vec<String>,
}

impl Step {
    /// The stones the event removed from the board: captures, self-captures and, for an
    /// agreement, the stones agreed dead; each with its colour before removal.
    pub fn removed(&self, before: &Board) -> Vec<(Point, Color)> {
        before
            .stones()
            .into_iter()
            .filter(|(p, _)| self.board.get(*p).is_none())
            .collect()
    }

    /// The point a move of this event names and who made it, if it names one.
    pub fn played(&self) -> Option<(Point, Color)> {
        match &self.event {
            Event::Move(c, Move::Play(p))
            | Event::Breach(c, Move::Play(p), _)
            | Event::Sealed(c, Move::Play(p)) => Some((*p, *c)),
            _ => None,
        }
    }

    /// Whether the event was refused (the state is unchanged).
    pub fn refused(&self) -> bool {
        matches!(self.verdict, Verdict::Illegal(_))
    }
}

/// The whole scenario under one run.
#[derive(Clone, Debug)]
pub struct Walk {
    /// Index into the scenario's runs.
    pub run: usize,
    /// The position before the first event.
    pub start: Board,
    /// Who moves first.
    pub start_to_move: Color,
    /// One per event of the scenario, in order, refused ones included.
    pub steps: Vec<Step>,
    /// The result in SGF form if the game ended.
    pub result: Option<String>,
}

impl Walk {
    /// The board before event `number` (1-based): the start for the first.
    pub fn board_before(&self, number: usize) -> &Board {
        match number {
            0 | 1 => &self.start,
            n => self
                .steps
                .get(n - 2)
                .map_or(&self.start, |s: &Step| &s.board),
        }
    }
}

/// Plays `scenario` under its run `run` through the reference, the referee's procedures
/// included. A set-up the reference refuses is an error (the loader accepts none such).
pub fn walk(scenario: &Scenario, run: usize) -> Result<Walk, String> {
    let rules = scenario
        .runs
        .get(run)
        .ok_or_else(|| format!("scenario {} has no run #{run}", scenario.id))?
        .rules;
    let mut referee = Refereed::new(rules, &scenario.setup)
        .map_err(|e| format!("scenario {}: the set-up is refused: {e}", scenario.id))?;
    let start = referee.game().board().clone();
    let start_to_move = referee.game().to_move();
    let mut steps = Vec::with_capacity(scenario.events.len());
    for (k, event) in scenario.events.iter().enumerate() {
        let verdict = referee.apply(event.clone());
        let game = referee.game();
        steps.push(Step {
            number: k + 1,
            event: event.clone(),
            verdict,
            board: game.board().clone(),
            prisoners: [game.prisoners(Color::Black), game.prisoners(Color::White)],
            to_move: game.to_move(),
            phase: game.phase(),
            explanation: referee
                .report()
                .map(|r| r.explanation.clone())
                .unwrap_or_default(),
        });
    }
    let game = referee.game();
    let result = (game.phase() == Phase::Ended).then(|| game.result());
    Ok(Walk {
        run,
        start,
        start_to_move,
        steps,
        result,
    })
}
