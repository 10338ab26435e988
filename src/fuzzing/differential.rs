//! Playing one game through two implementations and finding where they first part.
//!
//! The first implementation is the one whose answers count (the reference); the second is
//! judged only on what its capabilities claim, exactly as the runner judges a trial: checks of
//! what it cannot observe are left out, reasons are compared only if it reports them, and an
//! event the first refuses for a reason the second does not judge is not put to the second
//! (a refusal changes nothing, so the game goes on the same without it).

use std::panic::{catch_unwind, AssertUnwindSafe};

use super::game::Case;
use crate::board::{points_text, Point};
use crate::conformance::runner::stones_diagram;
use crate::conformance::{Capabilities, Observable, Observation, Referee, Unsupported};
use crate::game::Verdict;

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
}

/// How a game went through the two implementations.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Played {
    /// They agree on everything compared; `asked` events were put to the second.
    Agreed {
        asked: usize,
    },
    Diverged(Divergence),
    /// The second cannot play this game (its rules or set-up), or the first refuses the
    /// set-up: nothing to compare.
    NotApplicable(String),
}

/// Plays `case` through `first` (whose answers count) and `second`, comparing after the start
/// and after every event what `second` claims to observe, and returns the first difference.
pub fn differential(first: &mut dyn Referee, second: &mut dyn Referee, case: &Case) -> Played {
    let caps = second.capabilities();
    let size = (case.setup.width, case.setup.height);
    if let Err(why) = caps.supports(&case.rules) {
        return Played::NotApplicable(why);
    }
    // As the runner decides before a trial: a referee's record needs an implementation that
    // keeps one, and every kind of event must be one it takes.
    let record = crate::scenario::is_record(&case.setup, &case.events);
    if record && !caps.observes(Observable::Procedures) {
        return Played::NotApplicable("the game is a referee's record".to_string());
    }
    if let Some(kind) = case
        .events
        .iter()
        .filter_map(crate::conformance::EventKind::of)
        .find(|k| !caps.takes(*k))
    {
        return Played::NotApplicable(format!("it does not take `{}` events", kind.word()));
    }
    // The events put to the second are those the first does not refuse for a reason the
    // second does not judge: found by playing the game through the first once beforehand,
    // so that the second can be told them all at once (an engine in another process then
    // answers the whole game in one exchange).
    if let Err(Unsupported(why)) = first.start(&case.rules, &case.setup) {
        return Played::NotApplicable(format!(
            "the first implementation refuses the set-up: {why}"
        ));
    }
    let put: Vec<crate::game::Event> = case
        .events
        .iter()
        .filter(|event| match first.apply(event) {
            Ok(Verdict::Illegal(reason)) => caps.judges(reason),
            _ => true,
        })
        .cloned()
        .collect();
    if let Err(Unsupported(why)) = first.start(&case.rules, &case.setup) {
        return Played::NotApplicable(format!(
            "the first implementation refuses the set-up: {why}"
        ));
    }
    match guarded(|| second.start(&case.rules, &case.setup)) {
        Err(message) => return diverged(0, "error", "a start", message),
        Ok(Err(Unsupported(why))) => return Played::NotApplicable(why),
        Ok(Ok(())) => {}
    }
    let last = case.events.len();
    if let Some(d) = compare_state(0, first, second, &caps, size, last == 0) {
        // An implementation that broke down while starting can only say so at its first
        // event (the trait's `start` has no error): ask it, so that a crash is reported as
        // one and not as a start that shows nothing.
        if let Some(event) = put.first() {
            let expected = verdict_text(&first_verdict(first, case, event), &caps);
            match guarded(|| second.apply(event)) {
                Err(message) => return diverged(0, "error", &expected, message),
                Ok(Err(e)) => return diverged(0, "error", &expected, e.message),
                Ok(Ok(_)) => {}
            }
        }
        return Played::Diverged(d);
    }
    if let Err(message) = guarded(|| second.announce(&put)) {
        return diverged(0, "error", "a start", message);
    }
    let mut asked = 0;
    for (k, event) in case.events.iter().enumerate() {
        let after = k + 1;
        let expected = first.apply(event).unwrap_or_else(|e| {
            // The first implementation is in this process and has no reason to break down;
            // if it does, the game says nothing about the second.
            panic!("the first implementation broke down on `{event}`: {e}")
        });
        if let Verdict::Illegal(reason) = &expected {
            if !caps.judges(*reason) {
                continue;
            }
        }
        asked += 1;
        let actual = match guarded(|| second.apply(event)) {
            Err(message) => {
                return diverged(after, "error", &verdict_text(&expected, &caps), message)
            }
            Ok(Err(e)) => {
                return diverged(after, "error", &verdict_text(&expected, &caps), e.message)
            }
            Ok(Ok(v)) => v,
        };
        if let Some(d) = compare_verdicts(after, &expected, &actual, &caps) {
            return Played::Diverged(d);
        }
        if let Some(d) = compare_state(after, first, second, &caps, size, after == last) {
            return Played::Diverged(d);
        }
    }
    Played::Agreed { asked }
}

/// The first implementation's verdict on `event` from the start of `case` (it is restarted:
/// this is only for the text of a divergence).
fn first_verdict(first: &mut dyn Referee, case: &Case, event: &crate::game::Event) -> Verdict {
    let _ = first.start(&case.rules, &case.setup);
    first.apply(event).unwrap_or(Verdict::Legal {
        captured: Vec::new(),
        self_captured: Vec::new(),
    })
}

fn diverged(after: usize, key: &'static str, expected: &str, actual: String) -> Played {
    Played::Diverged(Divergence {
        after,
        key,
        expected: expected.to_string(),
        actual,
    })
}

/// Calls into the second implementation, turning a panic into its message.
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

/// A verdict as far as an implementation with these capabilities is judged on it.
fn verdict_text(verdict: &Verdict, caps: &Capabilities) -> String {
    let reasons = caps.observes(Observable::Reasons);
    let record = caps.observes(Observable::Procedures);
    match verdict {
        Verdict::Legal { .. } => "legal".to_string(),
        Verdict::Illegal(r) if reasons => format!("illegal: {r}"),
        Verdict::Illegal(_) => "illegal".to_string(),
        Verdict::Breach { reason, class } => match (reasons, record) {
            (true, true) => format!("breach: {reason} ({class})"),
            (true, false) => format!("breach: {reason}"),
            (false, true) => format!("breach ({class})"),
            (false, false) => "breach".to_string(),
        },
        Verdict::Ruled(r) => format!("ruling: {r}"),
    }
}

/// The scenario key that checks a verdict of this kind.
fn verdict_key(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Legal { .. } => "legal",
        Verdict::Illegal(_) => "illegal",
        Verdict::Breach { .. } => "breach",
        Verdict::Ruled(_) => "ruling",
    }
}

fn compare_verdicts(
    after: usize,
    expected: &Verdict,
    actual: &Verdict,
    caps: &Capabilities,
) -> Option<Divergence> {
    let (e, a) = (verdict_text(expected, caps), verdict_text(actual, caps));
    if e != a {
        return Some(Divergence {
            after,
            key: verdict_key(expected),
            expected: e,
            actual: a,
        });
    }
    if !caps.observes(Observable::Captures) {
        return None;
    }
    if let (
        Verdict::Legal {
            captured: c1,
            self_captured: s1,
        },
        Verdict::Legal {
            captured: c2,
            self_captured: s2,
        },
    ) = (expected, actual)
    {
        for (key, x, y) in [("captures", c1, c2), ("self_captures", s1, s2)] {
            let (x, y) = (sorted(x), sorted(y));
            if x != y {
                return Some(Divergence {
                    after,
                    key,
                    expected: points_text(&x),
                    actual: points_text(&y),
                });
            }
        }
    }
    None
}

fn sorted(points: &[Point]) -> Vec<Point> {
    let mut v = points.to_vec();
    v.sort();
    v
}

const MISSING: &str = "(nothing shown)";

/// Compares what the second shows of the state with the first, for every observation the
/// second claims (the count only where play stops and after the `last` event).
fn compare_state(
    after: usize,
    first: &dyn Referee,
    second: &dyn Referee,
    caps: &Capabilities,
    size: (u8, u8),
    last: bool,
) -> Option<Divergence> {
    let expected = first.observe();
    let actual = match guarded(|| second.observe()) {
        Ok(seen) => seen,
        Err(message) => {
            return Some(Divergence {
                after,
                key: "error",
                expected: "an observation".to_string(),
                actual: message,
            })
        }
    };
    let differ = |key: &'static str, e: String, a: String| {
        (e != a).then_some(Divergence {
            after,
            key,
            expected: e,
            actual: a,
        })
    };
    let show = |o: Option<String>| o.unwrap_or_else(|| MISSING.to_string());
    let pair = |p: Option<[u32; 2]>| show(p.map(|[b, w]| format!("B {b}, W {w}")));
    let observed = |o| caps.observes(o);
    let Observation { stones, .. } = &expected;
    if observed(Observable::Board) {
        let board = |s: &Option<crate::scenario::Stones>| {
            show(s.as_ref().map(|s| {
                let mut s = s.clone();
                s.sort();
                stones_diagram(&s, size.0, size.1)
            }))
        };
        if let Some(d) = differ("board", board(stones), board(&actual.stones)) {
            return Some(d);
        }
    }
    if observed(Observable::ToMove) {
        let c = |c: Option<crate::board::Color>| show(c.map(|c| c.to_string()));
        if let Some(d) = differ("to_move", c(expected.to_move), c(actual.to_move)) {
            return Some(d);
        }
    }
    if observed(Observable::Prisoners) {
        if let Some(d) = differ(
            "prisoners",
            pair(expected.prisoners),
            pair(actual.prisoners),
        ) {
            return Some(d);
        }
    }
    if observed(Observable::Phase) {
        let p = |p: Option<crate::game::Phase>| show(p.map(|p| p.to_string()));
        if let Some(d) = differ("phase", p(expected.phase), p(actual.phase)) {
            return Some(d);
        }
    }
    if observed(Observable::Procedures) {
        if let Some(d) = differ("warnings", pair(expected.warnings), pair(actual.warnings)) {
            return Some(d);
        }
    }
    // A count is a flood fill of the whole board on both sides: it is compared where the
    // game stops (a pause, the end) and after the last event, not after every move.
    let stopped = !expected.phase.is_some_and(crate::game::Phase::is_play);
    if observed(Observable::Score) && (last || stopped) {
        let (e_result, e_score) = counted(first, &expected);
        let (a_result, a_score) = match guarded(|| counted(second, &actual)) {
            Ok(c) => c,
            Err(message) => {
                return Some(Divergence {
                    after,
                    key: "error",
                    expected: "a count".to_string(),
                    actual: message,
                })
            }
        };
        if let Some(d) = differ("result", show(e_result), show(a_result)) {
            return Some(d);
        }
        let score = |s: Option<[i32; 2]>| {
            show(s.map(|[b, w]| {
                format!(
                    "B {}, W {}",
                    crate::rules::Komi::from_half_points(b),
                    crate::rules::Komi::from_half_points(w)
                )
            }))
        };
        if let Some(d) = differ("score", score(e_score), score(a_score)) {
            return Some(d);
        }
    }
    None
}

/// The result and score an implementation shows, from its observation if it gave them there,
/// else from [`Referee::count`].
fn counted(referee: &dyn Referee, seen: &Observation) -> (Option<String>, Option<[i32; 2]>) {
    if seen.result.is_some() || seen.score.is_some() {
        (seen.result.clone(), seen.score)
    } else {
        referee.count()
    }
}
