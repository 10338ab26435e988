//! Playing one game through two implementations and finding where they first part.
//!
//! The first implementation is the one whose answers count (the reference); the second is
//! judged only on what its capabilities claim, exactly as the runner judges a trial. What
//! "agree" means after each event is [`crate::conformance::differential`]'s, the one
//! comparison; this module plays a whole game through it: it decides whether the game is a
//! case for the second at all, tells the second the whole game at once (an engine in another
//! process then answers it in one exchange), catches the second's panics, and names each
//! divergence by the scenario key that checks it, for [`super::finding`].

use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};

use super::game::Case;
use crate::conformance::differential::{self as compare, Compared};
use crate::conformance::{Observable, Referee, Unsupported};
use crate::game::{Event, Verdict};

/// Where two implementations first disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The event after which they disagree (1-based; 0 is the start).
    pub after: usize,
    /// What differs, as the scenario key that checks it (`legal`, `illegal`, `captures`,
    /// `board`, ...), or `error` where the second broke down or panicked.
    pub key: &'static str,
    /// What the first implementation says or shows.
    pub expected: String,
    /// What the second says or shows.
    pub actual: String,
}

impl Divergence {
    /// One line: where, what, and both sides (boards are shown on lines of their own).
    pub fn summary(&self) -> String {
        let at = if self.after == 0 {
            "at the start".to_string()
        } else {
            format!("after event {}", self.after)
        };
        if self.expected.contains('\n') || self.actual.contains('\n') {
            format!(
                "{at}: {} differs\nexpected:\n{}actual:\n{}",
                self.key, self.expected, self.actual
            )
        } else if matches!(self.key, "legal" | "illegal" | "breach" | "ruling") {
            format!("{at}: expected {}, got {}", self.expected, self.actual)
        } else {
            format!(
                "{at}: {} expected {}, got {}",
                self.key, self.expected, self.actual
            )
        }
    }

    /// The comparison's divergence after event `after`, named by its scenario key (the
    /// verdict's kind for a verdict or reason: `verdict` is the first implementation's).
    fn of(after: usize, verdict: Option<&Verdict>, d: compare::Divergence) -> Divergence {
        Divergence {
            after,
            key: d.aspect.key(verdict),
            expected: d.left,
            actual: d.right,
        }
    }
}

/// How a game went through the two implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// They agree on everything compared; `asked` events were put to the second.
    Agreed {
        /// How many events the second was asked about.
        asked: usize,
    },
    /// They parted: the first difference.
    Diverged(Divergence),
    /// The second cannot play this game (its rules or set-up), or the first refuses the
    /// set-up: nothing to compare.
    NotApplicable(String),
}

/// Plays `case` through `first` (whose answers count) and `second`, comparing after the start
/// and after every event what both claim to observe (the count where play stops and after
/// the last event), and returns the first difference.
pub fn differential(first: &mut dyn Referee, second: &mut dyn Referee, case: &Case) -> Played {
    match Prepared::new(first, &second.capabilities(), case) {
        Ok(prepared) => prepared.compare(first, second, case),
        Err(played) => played,
    }
}

/// A game made ready to compare: found to be a case for the second implementation, and
/// played through the first once, which gives the first's verdicts and the events put to the
/// second. Preparing games ahead lets the second be told them before they are compared
/// ([`Prepared::foretell`], [`Ahead`]).
#[derive(Clone, Debug)]
pub struct Prepared {
    compared: Compared,
    verdicts: Vec<Verdict>,
    put: Vec<Event>,
}

impl Prepared {
    /// Decides whether `case` is a case for an implementation with `caps` at all (its
    /// [`Played::NotApplicable`] otherwise), and plays it through `first`.
    pub fn new(
        first: &mut dyn Referee,
        caps: &crate::conformance::Capabilities,
        case: &Case,
    ) -> Result<Prepared, Played> {
        if let Err(why) = caps.supports(&case.rules) {
            return Err(Played::NotApplicable(why));
        }
        // As the runner decides before a trial: a referee's record needs an implementation
        // that keeps one, and every kind of event must be one it takes.
        let record = crate::scenario::is_record(&case.setup, &case.events);
        if record && !caps.observes(Observable::Procedures) {
            return Err(Played::NotApplicable(
                "the game is a referee's record".to_string(),
            ));
        }
        if let Some(kind) = caps.untaken(&case.events) {
            return Err(Played::NotApplicable(format!(
                "it does not take `{}` events",
                kind.word()
            )));
        }
        let compared = Compared::new(first.capabilities(), caps.clone(), &case.setup);
        // The events put to the second are found by playing the game through the first once
        // beforehand, so that the second can be told them all at once.
        if let Err(Unsupported(why)) = first.start(&case.rules, &case.setup) {
            return Err(refused(why));
        }
        let verdicts: Vec<Verdict> = case
            .events
            .iter()
            .map(|event| {
                first.apply(event).unwrap_or_else(|e| {
                    // The first implementation is in this process and has no reason to break
                    // down; if it does, the game says nothing about the second.
                    panic!("the first implementation broke down on `{event}`: {e}")
                })
            })
            .collect();
        let put: Vec<Event> = case
            .events
            .iter()
            .zip(&verdicts)
            .filter(|(_, v)| compared.put_to_right(v))
            .map(|(e, _)| e.clone())
            .collect();
        Ok(Prepared {
            compared,
            verdicts,
            put,
        })
    }

    /// Tells `second` the game before it is compared ([`Referee::foresee`]), so that an engine
    /// in another process works on it meanwhile.
    /// A panic there is ignored: the game is still compared, and meets whatever broke.
    pub fn foretell(&self, second: &mut dyn Referee, case: &Case) {
        let _ = guarded(|| second.foresee(&case.rules, &case.setup, &self.put));
    }

    /// Plays the game through both, comparing after the start and after every event, and
    /// returns the first difference.
    pub fn compare(
        &self,
        first: &mut dyn Referee,
        second: &mut dyn Referee,
        case: &Case,
    ) -> Played {
        let Prepared {
            compared,
            verdicts,
            put,
        } = self;
        if let Err(Unsupported(why)) = first.start(&case.rules, &case.setup) {
            return refused(why);
        }
        let error = |after: usize, expected: String, actual: String| {
            Played::Diverged(Divergence {
                after,
                key: "error",
                expected,
                actual,
            })
        };
        // The game is announced with the start, before the start is observed: an engine in
        // another process then answers both in one exchange.
        match guarded(|| second.start_announced(&case.rules, &case.setup, put)) {
            Err(message) => return error(0, "a start".to_string(), message),
            Ok(Err(Unsupported(why))) => return Played::NotApplicable(why),
            Ok(Ok(())) => {}
        }
        let last = case.events.len();
        match guarded(|| compare::state_agree(compared, first, second, None, last == 0)) {
            Err(message) => return error(0, "an observation".to_string(), message),
            Ok(Err(d)) => {
                // An implementation that broke down while starting can only say so at its
                // first event (the trait's `start` has no error): ask it, so that a crash is
                // reported as one and not as a start that shows nothing.
                if let Some(event) = put.first() {
                    let index = case.events.iter().position(|e| e == event).unwrap_or(0);
                    let expected = compared.verdict_text(&verdicts[index]);
                    match guarded(|| second.apply(event)) {
                        Err(message) => return error(0, expected, message),
                        Ok(Err(e)) => return error(0, expected, e.message),
                        Ok(Ok(_)) => {}
                    }
                }
                return Played::Diverged(Divergence::of(0, None, d));
            }
            Ok(Ok(())) => {}
        }
        let mut asked = 0;
        for (k, (event, verdict)) in case.events.iter().zip(verdicts).enumerate() {
            let after = k + 1;
            match guarded(|| compare::step_agree(compared, first, second, event, after == last)) {
                Ok(Ok(step)) => asked += usize::from(step.asked),
                Ok(Err(d)) => return Played::Diverged(Divergence::of(after, Some(verdict), d)),
                Err(message) => return error(after, compared.verdict_text(verdict), message),
            }
        }
        Played::Agreed { asked }
    }
}

/// The first implementation refused the set-up: nothing to compare.
fn refused(why: String) -> Played {
    Played::NotApplicable(format!(
        "the first implementation refuses the set-up: {why}"
    ))
}

/// Games played in order through two implementations, prepared in batches and told to the
/// second before they are compared ([`Prepared::foretell`]): an engine in another process
/// answers a batch while this side compares the games before it, so that the two processes
/// work at the same time instead of in turns, and a batch of requests wakes the engine once
/// (on a virtual machine a wake-up across processors costs more than a short game). Every
/// game is played and compared exactly as [`differential`] plays it; only the order of the
/// work changes.
pub struct Ahead<T> {
    /// How many games are prepared at a time.
    batch: usize,
    waiting: VecDeque<(T, Case, Result<Prepared, Played>)>,
}

impl<T> Ahead<T> {
    /// Games prepared `batch` at a time, the next batch once half the last is compared (1:
    /// one game at a time, as [`differential`] plays it).
    pub fn new(batch: usize) -> Ahead<T> {
        Ahead {
            batch: batch.max(1),
            waiting: VecDeque::new(),
        }
    }

    /// The next game, played: taken from the games prepared before, after `source` has been
    /// asked for a new batch (each game with a tag of the caller's, given the second's
    /// capabilities to realise it for) when half a batch or less is waiting. `None` once
    /// `source` has run out and every game it gave is played.
    pub fn next(
        &mut self,
        first: &mut dyn Referee,
        second: &mut dyn Referee,
        source: &mut dyn FnMut(&crate::conformance::Capabilities) -> Option<(T, Case)>,
    ) -> Option<(T, Case, Played)> {
        if self.waiting.len() <= self.batch / 2 {
            let caps = second.capabilities();
            for _ in 0..self.batch {
                let Some((tag, case)) = source(&caps) else {
                    break;
                };
                let prepared = Prepared::new(first, &caps, &case);
                if let Ok(prepared) = &prepared {
                    prepared.foretell(second, &case);
                }
                self.waiting.push_back((tag, case, prepared));
            }
        }
        let (tag, case, prepared) = self.waiting.pop_front()?;
        let played = match prepared {
            Ok(prepared) => prepared.compare(first, second, &case),
            Err(played) => played,
        };
        Some((tag, case, played))
    }
}

/// Calls into the implementations, turning a panic into its message.
fn guarded<T>(call: impl FnOnce() -> T) -> Result<T, String> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        format!("panicked: {text}")
    })
}
