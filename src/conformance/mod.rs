//! Running scenarios through any implementation of the rules.
//!
//! [`Referee`] is what an implementation exposes; [`Reference`] is ours, and it gets no
//! privileged path: the runner only ever talks to the trait. A scenario under one run is one
//! trial ([`runner::run_trial`]); [`harness::Harness`] runs a selection of trials in parallel,
//! one engine per worker, applies an engine's [`expectations`](crate::scenario::expectations) file, and hands the trials to
//! the reports ([`report`]: JSON lines, JUnit XML, the per-clause [`matrix`], and the
//! side-by-side [`compare`] table). [`libtest`] turns the suite into one `cargo test` test per
//! trial for an implementer's own crate.

mod capabilities;
pub mod compare;
pub mod differential;
#[cfg(test)]
pub(crate) mod fixtures;
pub mod harness;
pub mod junit;
#[cfg(feature = "libtest")]
pub mod libtest;
pub mod matrix;
pub mod mutants;
mod naive;
mod one_at_a_time;
pub mod projection;
mod reference;
pub mod report;
pub mod runner;
pub mod tournament;
pub mod vectors;

pub use capabilities::{Capabilities, EventKind, Observable};
pub use harness::{Harness, RunReport};
pub use naive::Naive;
pub use one_at_a_time::OneAtATime;
pub use reference::Reference;
pub use runner::{run_scenario, run_trial, Mismatch, Outcome, Tally, Tier, Trial};

use std::fmt;

use crate::board::Color;
use crate::game::{Event, Phase, Setup, Verdict};
use crate::rules::Rules;
use crate::scenario::Stones;

/// The version of the report formats (`check --format jsonl`, `--junit`, `compare`): bumped
/// when a field is removed or changes meaning; added fields do not bump it.
pub const REPORT_FORMAT_VERSION: u32 = 3;

/// The version of the suite's interpretation of the rules: bumped when the meaning of a
/// scenario key, an event, a reason or a result changes, so that an engine's expectations
/// recorded under one interpretation are not silently compared under another. The suite
/// release is the crate version.
pub const INTERPRETATION_VERSION: u32 = 1;

/// Who an implementation is.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EngineInfo {
    /// What the implementation calls itself (`tiny-engine`, `GNU Go`).
    pub name: String,
    /// Its version, so that a report says which build it judged.
    pub version: String,
}

/// The implementation cannot play under these rules or from this set-up: the trial is not
/// applicable, which is neither a pass nor a failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unsupported: {0}")]
pub struct Unsupported(pub String);

/// How an implementation broke down.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// It crashed, panicked or exited.
    Crash,
    /// It answered something the protocol does not allow (garbage, a wrong version, an
    /// answer too large).
    Protocol,
    /// It did not answer in time. In-process implementations cannot be interrupted, so only
    /// adapters that talk to another process report this.
    Timeout,
}

impl ErrorKind {
    /// The kind in words, as reports write it.
    pub fn word(self) -> &'static str {
        match self {
            ErrorKind::Crash => "crash",
            ErrorKind::Protocol => "protocol error",
            ErrorKind::Timeout => "timeout",
        }
    }
}

/// The implementation broke down instead of giving a verdict: an error or a timeout, never a
/// failure of the rules.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct EngineError {
    /// Crash, protocol error or timeout: reported apart, since a timeout may only mean a slow
    /// machine.
    pub kind: ErrorKind,
    /// What went wrong, in the implementation's or the adapter's words.
    pub message: String,
}

impl EngineError {
    /// The implementation died or lost its game.
    pub fn crash(message: impl Into<String>) -> EngineError {
        EngineError {
            kind: ErrorKind::Crash,
            message: message.into(),
        }
    }

    /// The implementation cannot take this request, or answered something that makes no
    /// sense.
    pub fn protocol(message: impl Into<String>) -> EngineError {
        EngineError {
            kind: ErrorKind::Protocol,
            message: message.into(),
        }
    }

    /// The implementation did not answer in time (only adapters to other processes can tell).
    pub fn timeout(message: impl Into<String>) -> EngineError {
        EngineError {
            kind: ErrorKind::Timeout,
            message: message.into(),
        }
    }
}

/// What an implementation can show of the state. `None` where it cannot show it now; the
/// harness only looks at what [`Referee::capabilities`] says is observable, so a `None` there
/// for a declared observation counts as wrong, and for an undeclared one is never asked.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The stones on the board, sorted by point.
    pub stones: Option<Stones>,
    /// Whose turn it is.
    pub to_move: Option<Color>,
    /// Prisoners held by Black and by White, pass stones included.
    pub prisoners: Option<[u32; 2]>,
    /// Playing, paused after two passes, resumed after a dispute, or ended.
    pub phase: Option<Phase>,
    /// The result of the position as it stands, in SGF `RE` form (`B+3.5`, `W+R`, `0`).
    pub result: Option<String>,
    /// Black's and White's scores in half points; `None` also after a resignation.
    pub score: Option<[i32; 2]>,
    /// Warnings recorded against Black and White (AGA Tournament Rules VI.B.8), for
    /// implementations that keep a referee's record.
    pub warnings: Option<[u32; 2]>,
}

/// An implementation of the rules that can be checked against the scenarios.
///
/// A trial calls [`Referee::start`] once with the full set-up and rules, then
/// [`Referee::apply`] once per event, observing after the start and after each event. Every
/// trial starts afresh, so an implementation never has to undo anything. See
/// `examples/tiny_engine.rs` for a complete implementation, rules and all, in about 250
/// lines.
///
/// Only goconform or the crate that defines a type may implement this trait for it (Rust's
/// orphan rule), so an engine's own tests, a crate apart from the engine's, cannot implement it
/// for the engine's type:
///
/// ```compile_fail,E0117
/// // `String` stands for a type of another crate, as the engine's is to its tests.
/// impl goconform::conformance::Referee for String {}
/// ```
///
/// They wrap it in a type of their own instead, as `examples/foreign_engine.rs` shows (the
/// `tests/conformance.rs` of `docs/implementing.md`).
pub trait Referee {
    /// Name and version, for reports.
    fn info(&self) -> EngineInfo;
    /// The rules values it plays under and what it can show. Trials that need more are not
    /// applicable, and checks of what it cannot show are left out, never failed.
    fn capabilities(&self) -> Capabilities;
    /// Starts a game from a full set-up (size, position, handicap, history, who moves) under
    /// the given rules.
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported>;
    /// Applies one event. An illegal play is a verdict, not an error. Implementations that do
    /// not report reasons may give any reason in [`Verdict::Illegal`]: it is compared only
    /// in the strict tier.
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError>;
    /// What the implementation can show of the state now. `result` and `score` may be left
    /// out here: they cost a count, and the runner asks [`Referee::count`] only when an
    /// expectation needs them.
    fn observe(&self) -> Observation;
    /// The result (SGF `RE` form) and the scores in half points of the position as it stands;
    /// `None` for what the implementation cannot show.
    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        (None, None)
    }
    /// The events the caller will apply next, in this order (all of them, unless it stops
    /// early), given once after [`Referee::start`]. Engines in other processes use it to put
    /// the whole game in one exchange (one JSON-lines request, pipelined GTP commands) and
    /// answer the `apply` calls that follow from what came back, instead of one round trip
    /// per event. An `apply` of another event than announced must still be answered, one at
    /// a time. The default ignores it: an implementation in this process gains nothing.
    ///
    /// The fuzzing differential announces its games, where speed is what counts. The
    /// conformance runner does not: asked one prefix at a time, a JSON-lines engine that
    /// answers the same events differently in two requests is caught as a protocol error,
    /// which one request for the whole trial cannot show.
    fn announce(&mut self, _events: &[Event]) {}
    /// [`Referee::start`], then [`Referee::announce`] of `events`, for a caller that knows
    /// the whole game before it observes the start (the fuzzing differential). An engine that
    /// keeps no game between requests (JSON lines) answers the start and every event in one
    /// exchange instead of two. Whatever the engine does, the calls that follow see what they
    /// would see after `start` and `announce`. The default is exactly those two calls.
    fn start_announced(
        &mut self,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Result<(), Unsupported> {
        self.start(rules, setup)?;
        self.announce(events);
        Ok(())
    }
    /// A game the caller will start later with [`Referee::start_announced`] and exactly these
    /// arguments, after the games foreseen before it: an engine in another process may begin
    /// answering it now (a JSON-lines engine is sent its request at once and its reply is read
    /// when the game starts), so that both processes work at the same time. A hint only: a
    /// game started that was not foreseen, or foreseen games never started, change no answer.
    /// The default ignores it.
    fn foresee(&mut self, _rules: &Rules, _setup: &Setup, _events: &[Event]) {}
}

impl fmt::Display for EngineInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.name, self.version)
    }
}
