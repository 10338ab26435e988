//! One trial: a scenario under one of its runs, played through one implementation, with every
//! expectation compared against what the implementation says and shows.

use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::time::Duration;
use web_time::Instant;

use super::projection::{project, Projection};
use super::{Capabilities, EngineError, ErrorKind, Observable, Observation, Referee, Unsupported};
use crate::board::{points_text, Point};
use crate::game::counting::format_points;
use crate::game::{Game, Reason, Setup, SetupError, Verdict};
use crate::rules::Rules;
use crate::scenario::{Check, ExpectedVerdict, Scenario, Stones};

/// How closely verdicts are compared.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Tier {
    /// Legal against illegal (and a breach as a breach); reasons are not compared.
    Basic,
    /// Also the reason of every illegal verdict and breach. Needs
    /// [`Observable::Reasons`].
    Strict,
}

impl Tier {
    /// The tier's word on the command line and in reports.
    pub fn word(self) -> &'static str {
        match self {
            Tier::Basic => "basic",
            Tier::Strict => "strict",
        }
    }
}

/// One assertion that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The move after which the check was made (0: the start).
    pub after: usize,
    /// The line of the expectation in the scenario file.
    pub line: usize,
    /// The key checked (`board`, `prisoners`, `verdict`, ...).
    pub key: &'static str,
    /// What the scenario expects, in its own notation.
    pub expected: String,
    /// What the implementation showed, in the same notation.
    pub actual: String,
    /// For boards: the first point where expected and actual differ.
    pub first_difference: Option<Point>,
}

impl Mismatch {
    /// One line for lists and expectations files: where, which key, expected and actual
    /// (boards shortened to their first difference).
    pub fn summary(&self) -> String {
        let at = if self.after == 0 {
            "at the start".to_string()
        } else {
            format!("after move {}", self.after)
        };
        if self.expected.contains('\n') || self.actual.contains('\n') {
            let first = self
                .first_difference
                .map_or(String::new(), |p| format!(", first difference at {p}"));
            format!("{at}: {} differs{first}", self.key)
        } else {
            format!(
                "{at}: {} expected {}, got {}",
                self.key, self.expected, self.actual
            )
        }
    }
}

/// The outcome of one trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Every check it was given held.
    Pass,
    /// Some checks did not hold: each, with its line in the scenario file.
    Fail(Vec<Mismatch>),
    /// It did not pass, and the engine's expectations file says so (`listed` is the reason
    /// given there). It does not fail the run.
    ExpectedFailure {
        /// The reason the expectations file gives.
        listed: String,
        /// What happened instead of a pass.
        actual: Box<Outcome>,
    },
    /// The expectations file says it fails, but it passed: the run fails, so that the list
    /// cannot rot.
    UnexpectedPass {
        /// The reason the expectations file gives, which is now out of date.
        listed: String,
    },
    /// The implementation lacks a rules value or an observation the scenario needs.
    NotApplicable(String),
    /// The implementation crashed, panicked or broke the protocol.
    Error(String),
    /// The implementation did not answer in time.
    Timeout(String),
    /// Something went wrong on our side (an invalid scenario, a panic in the harness): never
    /// blamed on the implementation.
    HarnessError(String),
}

impl Outcome {
    /// The word reports use for the outcome.
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::ExpectedFailure { .. } => "expected-failure",
            Outcome::UnexpectedPass { .. } => "unexpected-pass",
            Outcome::NotApplicable(_) => "not-applicable",
            Outcome::Error(_) => "error",
            Outcome::Timeout(_) => "timeout",
            Outcome::HarnessError(_) => "harness-error",
        }
    }

    /// Whether the outcome fails the run: anything but a pass, an expected failure or a
    /// trial that does not apply.
    pub fn fails_run(&self) -> bool {
        !matches!(
            self,
            Outcome::Pass | Outcome::ExpectedFailure { .. } | Outcome::NotApplicable(_)
        )
    }

    /// Whether the implementation did not do what the scenario expects (a failure, an error
    /// or a timeout): what an expectations file may list.
    pub fn is_failure(&self) -> bool {
        matches!(
            self,
            Outcome::Fail(_) | Outcome::Error(_) | Outcome::Timeout(_)
        )
    }

    /// A one-line account of what went wrong, for lists, JUnit messages and expectations
    /// files; empty for a pass.
    pub fn summary(&self) -> String {
        match self {
            Outcome::Pass => String::new(),
            Outcome::Fail(mismatches) => {
                let first = mismatches.first().map_or(String::new(), Mismatch::summary);
                match mismatches.len() {
                    0 | 1 => first,
                    n => format!("{first} (and {} more)", n - 1),
                }
            }
            Outcome::ExpectedFailure { actual, .. } => actual.summary(),
            Outcome::UnexpectedPass { listed } => {
                format!("listed as an expected failure ({listed}), but it passed")
            }
            Outcome::NotApplicable(why)
            | Outcome::Error(why)
            | Outcome::Timeout(why)
            | Outcome::HarnessError(why) => why.clone(),
        }
    }
}

/// A scenario under one run, and how it went.
#[derive(Clone, Debug)]
pub struct Trial {
    /// Index of the scenario in its suite.
    pub scenario: usize,
    /// Index of the run in the scenario.
    pub run: usize,
    /// Pass, failure, not applicable, error..., after the expectations file.
    pub outcome: Outcome,
    /// The verdict of every event, in order (as far as the trial got).
    pub verdicts: Vec<Verdict>,
    /// The keys of the checks left out because the implementation cannot observe them.
    pub unobserved: Vec<&'static str>,
    /// Set when the trial ran under other rules than its run's, within the implementation's
    /// capabilities (see [`super::projection`]).
    pub projection: Option<Projection>,
    /// How long the trial took, from the start of its game to its last check.
    pub elapsed: Duration,
}

impl Trial {
    /// A trial not yet played: a pass with nothing recorded.
    pub fn new(scenario: usize, run: usize) -> Trial {
        Trial {
            scenario,
            run,
            outcome: Outcome::Pass,
            verdicts: Vec::new(),
            unobserved: Vec::new(),
            projection: None,
            elapsed: Duration::ZERO,
        }
    }

    /// A trial that ended before it started, with this outcome.
    pub fn with_outcome(scenario: usize, run: usize, outcome: Outcome) -> Trial {
        Trial {
            outcome,
            ..Trial::new(scenario, run)
        }
    }
}

/// Runs one scenario under each of its runs (or those whose label `only` accepts), one after
/// the other on one implementation, in the strictest tier it supports.
pub fn run_scenario(
    scenario: &Scenario,
    index: usize,
    referee: &mut dyn Referee,
    only: &dyn Fn(&str) -> bool,
) -> Vec<Trial> {
    let capabilities = referee.capabilities();
    let tier = if capabilities.observes(Observable::Reasons) {
        Tier::Strict
    } else {
        Tier::Basic
    };
    (0..scenario.runs.len())
        .filter(|&r| only(&scenario.runs[r].label))
        .map(|r| run_trial(scenario, index, r, referee, &capabilities, tier))
        .collect()
}

/// Runs one trial. Nothing the implementation does (an error, a panic) escapes: it becomes
/// the outcome.
pub fn run_trial(
    scenario: &Scenario,
    index: usize,
    run: usize,
    referee: &mut dyn Referee,
    capabilities: &Capabilities,
    tier: Tier,
) -> Trial {
    let started = Instant::now();
    let mut trial = Trial::new(index, run);
    trial.outcome = play(scenario, run, referee, capabilities, tier, &mut trial);
    trial.elapsed = started.elapsed();
    trial
}

/// Why a trial cannot apply to an implementation with these capabilities, before it starts.
pub fn not_applicable(
    scenario: &Scenario,
    run: usize,
    capabilities: &Capabilities,
) -> Option<String> {
    plan(scenario, run, capabilities).err()
}

/// The rules a trial runs under for an implementation with these capabilities: the run's
/// own, or their projection onto what it has (`Some`); or why the trial cannot apply.
pub fn plan(
    scenario: &Scenario,
    run: usize,
    capabilities: &Capabilities,
) -> Result<Option<Projection>, String> {
    if scenario.needs_record() && !capabilities.observes(Observable::Procedures) {
        return Err(
            "the scenario is a referee's record (violations standing on the board, notices), and the implementation only judges legality".to_string(),
        );
    }
    if let Some(kind) = capabilities.untaken(&scenario.events) {
        return Err(format!(
            "the implementation does not take `{}` events",
            kind.word()
        ));
    }
    let breaches = scenario
        .expectations
        .iter()
        .filter(|e| e.runs.contains(&run))
        .flat_map(|e| &e.checks)
        .filter_map(|c| match c {
            Check::Verdict(ExpectedVerdict::Breach(r)) => Some(*r),
            _ => None,
        });
    if let Some(reason) = breaches.into_iter().find(|r| !capabilities.judges(*r)) {
        return Err(format!(
            "the implementation does not judge `{}`",
            reason.word()
        ));
    }
    let checks: Vec<(usize, usize, &Check)> = scenario
        .expectations
        .iter()
        .filter(|e| e.runs.contains(&run))
        .flat_map(|e| e.checks.iter().map(move |c| (e.after, e.line, c)))
        .collect();
    let unseen: Vec<&'static str> = checks
        .iter()
        .filter(|(_, _, c)| !observable(c, capabilities))
        .map(|(_, _, c)| c.key())
        .collect();
    if !checks.is_empty() && unseen.len() == checks.len() {
        return Err(format!(
            "the implementation observes nothing this scenario checks ({})",
            dedup(unseen).join(", ")
        ));
    }
    let projection = match capabilities.supports(&scenario.runs[run].rules) {
        Ok(()) => return Ok(None),
        Err(lacks) => project(scenario, run, capabilities)
            .map_err(|why| format!("{lacks}, and no projection onto it applies: {why}"))?,
    };
    Ok(Some(projection))
}

fn dedup(mut keys: Vec<&'static str>) -> Vec<&'static str> {
    keys.sort_unstable();
    keys.dedup();
    keys
}

fn play(
    scenario: &Scenario,
    run: usize,
    referee: &mut dyn Referee,
    capabilities: &Capabilities,
    tier: Tier,
    trial: &mut Trial,
) -> Outcome {
    let projection = match plan(scenario, run, capabilities) {
        Ok(projection) => projection,
        Err(why) => return Outcome::NotApplicable(why),
    };
    let rules = projection
        .as_ref()
        .map_or(scenario.runs[run].rules, |p| p.rules);
    trial.projection = projection;
    let projection = trial.projection.clone();
    judge_trial(
        scenario,
        run,
        &rules,
        projection.as_ref(),
        referee,
        capabilities,
        tier,
        trial,
    )
}

/// Plays run `run` of `scenario` under `rules` through `referee` and compares every check the
/// capabilities observe, except those `projection` leaves out. Applicability is the caller's.
#[allow(clippy::too_many_arguments)]
pub(super) fn judge_trial(
    scenario: &Scenario,
    run: usize,
    rules: &Rules,
    projection: Option<&Projection>,
    referee: &mut dyn Referee,
    capabilities: &Capabilities,
    tier: Tier,
    trial: &mut Trial,
) -> Outcome {
    // The suite is ours: a set-up the reference cannot start from is a harness error, and
    // must not be reported as the implementation's refusal.
    if let Err(e) = reference_can_start(*rules, &scenario.setup) {
        return Outcome::HarnessError(format!("the scenario's set-up is invalid: {e}"));
    }
    match guarded(|| referee.start(rules, &scenario.setup)) {
        Err(e) => return engine_failure(0, &e),
        Ok(Err(Unsupported(why))) => return Outcome::NotApplicable(why),
        Ok(Ok(())) => {}
    }
    let mut mismatches = Vec::new();
    let mut judge = Judge {
        scenario,
        run,
        capabilities,
        tier,
        projection,
        mismatches: &mut mismatches,
        unobserved: &mut trial.unobserved,
    };
    let seen = match guarded(|| observe(scenario, run, 0, referee)) {
        Ok(seen) => seen,
        Err(e) => return engine_failure(0, &e),
    };
    judge.check_after(0, None, &seen);
    for (k, event) in scenario.events.iter().enumerate() {
        // A move the scenario expects refused for a reason the implementation does not judge
        // is not put to it: a refusal leaves the state as it was, so the rest of the trial
        // is the same without it, and the implementation is not blamed for what it never
        // claimed (a GTP engine and whose turn it is).
        let unjudged = unjudged_refusal(scenario, run, k + 1, capabilities);
        let verdict = match unjudged {
            Some(reason) => Verdict::Illegal(reason),
            None => match guarded(|| referee.apply(event)).and_then(|r| r) {
                Ok(v) => v,
                Err(e) => return failure_after(judge.mismatches, scenario, k + 1, &e),
            },
        };
        let seen = match guarded(|| observe(scenario, run, k + 1, referee)) {
            Ok(seen) => seen,
            Err(e) => return failure_after(judge.mismatches, scenario, k + 1, &e),
        };
        let asked = unjudged.is_none().then_some(&verdict);
        judge.check_after(k + 1, asked, &seen);
        trial.verdicts.push(verdict);
    }
    trial.unobserved = dedup(std::mem::take(&mut trial.unobserved));
    if mismatches.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(mismatches)
    }
}

/// Whether the reference can set up a game from `setup` under `rules`. Each thread keeps the
/// last game it set up, and sets up the next one in its storage (a new board fills 17 KB,
/// and this runs once a trial).
fn reference_can_start(rules: Rules, setup: &Setup) -> Result<(), SetupError> {
    thread_local! {
        static SPARE: std::cell::Cell<Option<Game>> = const { std::cell::Cell::new(None) };
    }
    SPARE.with(|spare| {
        let game = match spare.take() {
            Some(old) => Game::new_reusing(rules, setup, old),
            None => Game::new(rules, setup),
        }?;
        spare.set(Some(game));
        Ok(())
    })
}

/// The reason the scenario expects the event `after` refused for, under `run`, if the
/// implementation does not judge that reason.
fn unjudged_refusal(
    scenario: &Scenario,
    run: usize,
    after: usize,
    capabilities: &Capabilities,
) -> Option<Reason> {
    scenario
        .expectations
        .iter()
        .filter(|e| e.after == after && e.runs.contains(&run))
        .flat_map(|e| &e.checks)
        .find_map(|c| match c {
            Check::Verdict(ExpectedVerdict::Illegal(r)) if !capabilities.judges(*r) => Some(*r),
            _ => None,
        })
}

/// Calls into the implementation, turning a panic into a crash.
fn guarded<T>(call: impl FnOnce() -> T) -> Result<T, EngineError> {
    catch_unwind(AssertUnwindSafe(call)).map_err(|payload| {
        let text = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "(no message)".to_string());
        EngineError::crash(format!("the implementation panicked: {text}"))
    })
}

/// The outcome of an engine fault at event `after`. If checks before it already failed, the
/// trial fails with those mismatches and the fault as the last of them: the first divergence
/// is what a reader needs, and a fault that follows it is often its consequence (an engine
/// that accepted an illegal move is then asked for a move out of its turn).
fn failure_after(
    mismatches: &mut Vec<Mismatch>,
    scenario: &Scenario,
    after: usize,
    error: &EngineError,
) -> Outcome {
    if mismatches.is_empty() {
        return engine_failure(after, error);
    }
    let mut mismatches = std::mem::take(mismatches);
    mismatches.push(Mismatch {
        after,
        line: scenario.event_lines.get(after - 1).copied().unwrap_or(0),
        key: "engine",
        expected: "an answer".to_string(),
        actual: format!("{}: {}", error.kind.word(), error.message),
        first_difference: None,
    });
    Outcome::Fail(mismatches)
}

fn engine_failure(after: usize, error: &EngineError) -> Outcome {
    let at = if after == 0 {
        "at the start".to_string()
    } else {
        format!("at move {after}")
    };
    let text = format!("{at}: {}", error.message);
    match error.kind {
        ErrorKind::Timeout => Outcome::Timeout(text),
        ErrorKind::Crash | ErrorKind::Protocol => Outcome::Error(text),
    }
}

/// What the referee shows after event `after`, with its count only if an expectation there
/// asks for the result or the score.
fn observe(scenario: &Scenario, run: usize, after: usize, referee: &dyn Referee) -> Observation {
    let mut seen = referee.observe();
    let wants_count = scenario
        .expectations
        .iter()
        .filter(|e| e.after == after && e.runs.contains(&run))
        .flat_map(|e| &e.checks)
        .any(|c| matches!(c, Check::Result(_) | Check::Score(_)));
    if wants_count && seen.result.is_none() && seen.score.is_none() {
        (seen.result, seen.score) = referee.count();
    }
    seen
}

/// Whether an implementation with these capabilities can be asked about a check. A verdict
/// is always observable: it is what `apply` returns.
pub(super) fn observable(check: &Check, capabilities: &Capabilities) -> bool {
    let needs = match check {
        Check::Verdict(ExpectedVerdict::Ruled(_)) | Check::Class(_) | Check::Warnings(_) => {
            Observable::Procedures
        }
        Check::Verdict(_) => return true,
        Check::Captures(_) | Check::SelfCaptures(_) => Observable::Captures,
        Check::Board(_) => Observable::Board,
        Check::Prisoners(_) => Observable::Prisoners,
        Check::ToMove(_) => Observable::ToMove,
        Check::Phase(_) => Observable::Phase,
        Check::Result(_) | Check::Score(_) => Observable::Score,
    };
    capabilities.observes(needs)
}

/// A diagram of a list of stones on the scenario's board, as the scenario format writes it.
pub fn stones_diagram(stones: &Stones, width: u8, height: u8) -> String {
    let mut out = String::new();
    for row in (0..height).rev() {
        for col in 0..width {
            if col > 0 {
                out.push(' ');
            }
            let p = Point::new(col, row);
            out.push(
                stones
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map_or('.', |(_, c)| c.stone_char()),
            );
        }
        out.push('\n');
    }
    out
}

/// The first point, in reading order (top row first, left to right), where two lists of
/// stones differ: what a report names under two boards. Points in neither list agree.
pub(crate) fn first_difference(a: &Stones, b: &Stones) -> Option<Point> {
    let at = |s: &Stones, p: Point| s.iter().find(|(q, _)| *q == p).map(|(_, c)| *c);
    let mut points: Vec<Point> = a.iter().chain(b).map(|(p, _)| *p).collect();
    points.sort_by_key(|p| (std::cmp::Reverse(p.row), p.col));
    points.into_iter().find(|&p| at(a, p) != at(b, p))
}

/// What an implementation shows for an observation it declared but did not give: wrong, not
/// "not observable".
const MISSING: &str = "(nothing shown)";

/// Compares one trial's expectations with what the implementation says and shows.
struct Judge<'a> {
    scenario: &'a Scenario,
    run: usize,
    capabilities: &'a Capabilities,
    tier: Tier,
    /// The checks a projection leaves out are not compared (and not listed as unobserved:
    /// the projection lists them).
    projection: Option<&'a Projection>,
    mismatches: &'a mut Vec<Mismatch>,
    unobserved: &'a mut Vec<&'static str>,
}

impl Judge<'_> {
    fn check_after(&mut self, after: usize, verdict: Option<&Verdict>, seen: &Observation) {
        let scenario = self.scenario;
        for e in scenario
            .expectations
            .iter()
            .filter(|e| e.after == after && e.runs.contains(&self.run))
        {
            for check in &e.checks {
                if self
                    .projection
                    .is_some_and(|p| p.leaves_out(after, e.line, check.key()))
                {
                    continue;
                }
                // `verdict` is `None` at the start, and for an event not put to the
                // implementation: what it would have said there is not observed.
                let about_the_event = matches!(
                    check,
                    Check::Verdict(_)
                        | Check::Class(_)
                        | Check::Captures(_)
                        | Check::SelfCaptures(_)
                );
                if !observable(check, self.capabilities) || (about_the_event && verdict.is_none()) {
                    self.unobserved.push(check.key());
                    continue;
                }
                let mut first = None;
                let compared = self.compare(check, verdict, seen, &mut first);
                if let Some((expected, actual)) = compared {
                    self.mismatches.push(Mismatch {
                        after,
                        line: e.line,
                        key: check.key(),
                        expected,
                        actual,
                        first_difference: first,
                    });
                }
            }
        }
    }

    /// `None` when the check holds, else the expected and actual texts. A check is decided on
    /// values; texts are written only for a mismatch (captures alone are compared as sets,
    /// by their sorted texts, when the lists differ in order).
    fn compare(
        &self,
        check: &Check,
        verdict: Option<&Verdict>,
        seen: &Observation,
        first: &mut Option<Point>,
    ) -> Option<(String, String)> {
        let (w, h) = (self.scenario.setup.width, self.scenario.setup.height);
        let strict = self.tier == Tier::Strict;
        match check {
            Check::Verdict(expected) => {
                let ok = match (expected, verdict) {
                    (ExpectedVerdict::Legal, Some(Verdict::Legal { .. })) => true,
                    (ExpectedVerdict::Illegal(r), Some(Verdict::Illegal(a))) => !strict || r == a,
                    (ExpectedVerdict::Breach(r), Some(Verdict::Breach { reason, .. })) => {
                        !strict || r == reason
                    }
                    (ExpectedVerdict::Ruled(r), Some(Verdict::Ruled(a))) => r == a,
                    _ => false,
                };
                (!ok).then(|| {
                    let actual = verdict.map_or("(no move)".to_string(), verdict_text);
                    (expected.to_string(), actual)
                })
            }
            Check::Class(class) => {
                if matches!(verdict, Some(Verdict::Breach { class: a, .. }) if a == class) {
                    return None;
                }
                let actual = match verdict {
                    Some(Verdict::Breach { class, .. }) => class.to_string(),
                    Some(other) => format!("no breach ({})", verdict_text(other)),
                    None => "(no move)".to_string(),
                };
                Some((class.to_string(), actual))
            }
            Check::Warnings(expected) => compare_pair(*expected, seen.warnings),
            Check::Captures(points) | Check::SelfCaptures(points) => {
                let actual: &[Point] = match verdict {
                    Some(Verdict::Legal {
                        captured,
                        self_captured,
                    }) => {
                        if matches!(check, Check::Captures(_)) {
                            captured
                        } else {
                            self_captured
                        }
                    }
                    _ => &[],
                };
                if points.as_slice() == actual {
                    return None;
                }
                let (e, a) = (points_text(points), points_text(actual));
                (e != a).then_some((e, a))
            }
            Check::Board(expected) => {
                // Compared in point order; a diagram's stones usually come sorted already,
                // and are copied only when they do not.
                let expected = if expected.is_sorted() {
                    std::borrow::Cow::Borrowed(expected)
                } else {
                    let mut sorted = expected.clone();
                    sorted.sort();
                    std::borrow::Cow::Owned(sorted)
                };
                match &seen.stones {
                    None => Some((stones_diagram(&expected, w, h), MISSING.to_string())),
                    Some(actual) if *actual != *expected => {
                        *first = first_difference(&expected, actual);
                        Some((
                            stones_diagram(&expected, w, h),
                            stones_diagram(actual, w, h),
                        ))
                    }
                    Some(_) => None,
                }
            }
            Check::Prisoners(expected) => compare_pair(*expected, seen.prisoners),
            Check::ToMove(c) => {
                if seen.to_move == Some(*c) {
                    return None;
                }
                let a = seen
                    .to_move
                    .map_or(MISSING.to_string(), |c| c.letter().to_string());
                Some((c.letter().to_string(), a))
            }
            Check::Phase(p) => {
                if seen.phase == Some(*p) {
                    return None;
                }
                let a = seen.phase.map_or(MISSING.to_string(), |p| p.to_string());
                Some((p.to_string(), a))
            }
            Check::Result(r) => {
                let a = seen.result.as_deref().unwrap_or(MISSING);
                (r != a).then(|| (r.clone(), a.to_string()))
            }
            Check::Score([b, wt]) => {
                if seen.score == Some([*b, *wt]) {
                    return None;
                }
                let text =
                    |[b, w]: [i32; 2]| format!("B {}, W {}", format_points(b), format_points(w));
                Some((
                    text([*b, *wt]),
                    seen.score.map_or(MISSING.to_string(), text),
                ))
            }
        }
    }
}

/// Compares a count per colour (prisoners, warnings) with what the implementation shows.
fn compare_pair(expected: [u32; 2], seen: Option<[u32; 2]>) -> Option<(String, String)> {
    if seen == Some(expected) {
        return None;
    }
    let text = |[b, w]: [u32; 2]| format!("B {b}, W {w}");
    Some((text(expected), seen.map_or(MISSING.to_string(), text)))
}

/// A verdict as reports show it.
fn verdict_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Legal { .. } => "legal".to_string(),
        other => other.to_string(),
    }
}

/// Counts of outcomes, for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Tally {
    /// Trials that passed.
    pub pass: usize,
    /// Trials that failed.
    pub fail: usize,
    /// Failures the expectations file lists.
    pub expected_failure: usize,
    /// Passes the expectations file says should fail.
    pub unexpected_pass: usize,
    /// Trials that need something the implementation does not claim.
    pub not_applicable: usize,
    /// Trials that ended with the implementation's error.
    pub error: usize,
    /// Trials that ended with the implementation's timeout.
    pub timeout: usize,
    /// Trials that went wrong on our side.
    pub harness_error: usize,
}

impl Tally {
    /// Counts one outcome.
    pub fn add(&mut self, outcome: &Outcome) {
        let slot = match outcome {
            Outcome::Pass => &mut self.pass,
            Outcome::Fail(_) => &mut self.fail,
            Outcome::ExpectedFailure { .. } => &mut self.expected_failure,
            Outcome::UnexpectedPass { .. } => &mut self.unexpected_pass,
            Outcome::NotApplicable(_) => &mut self.not_applicable,
            Outcome::Error(_) => &mut self.error,
            Outcome::Timeout(_) => &mut self.timeout,
            Outcome::HarnessError(_) => &mut self.harness_error,
        };
        *slot += 1;
    }

    /// Every trial counted, whatever its outcome.
    pub fn total(&self) -> usize {
        self.pass
            + self.fail
            + self.expected_failure
            + self.unexpected_pass
            + self.not_applicable
            + self.error
            + self.timeout
            + self.harness_error
    }

    /// Trials that fail the run.
    pub fn failing(&self) -> usize {
        self.fail + self.unexpected_pass + self.error + self.timeout + self.harness_error
    }

    /// Trials that apply: the denominator of every ratio a report shows.
    pub fn applicable(&self) -> usize {
        self.total() - self.not_applicable
    }
}

impl fmt::Display for Tally {
    /// The counts that are not zero, passes always; never a percentage.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts = [
            (self.fail, "failed"),
            (self.expected_failure, "expected failures"),
            (self.unexpected_pass, "unexpected passes"),
            (self.error, "errors"),
            (self.timeout, "timeouts"),
            (self.harness_error, "harness errors"),
            (self.not_applicable, "not applicable"),
        ];
        write!(f, "{} passed", self.pass)?;
        for (n, word) in parts {
            if n > 0 {
                write!(f, ", {n} {word}")?;
            }
        }
        Ok(())
    }
}
