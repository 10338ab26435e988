//! Running scenarios through any implementation of the rules.
//!
//! [`Referee`] is what an implementation exposes; [`Reference`] is ours, and it gets no
//! privileged path: [`run_scenario`] only ever talks to the trait. A scenario under one run is
//! one trial, and every expectation of that run is compared with what the implementation
//! says and shows.

mod reference;

/// The version of the report formats (`check --format jsonl`): bumped when a field is
/// removed or changes meaning; added fields do not bump it.
pub const REPORT_FORMAT_VERSION: u32 = 1;

/// The version of the suite's interpretation of the rules: bumped when the meaning of a
/// scenario key, an event, a reason or a result changes, so that an engine's expectations
/// recorded under one interpretation are not silently compared under another. The suite
/// release is the crate version.
pub const INTERPRETATION_VERSION: u32 = 1;

pub use reference::Reference;

use std::fmt;

use crate::board::{points_text, Color, Point};
use crate::game::counting::format_points;
use crate::game::{Event, Phase, Setup, Verdict};
use crate::rules::Rules;
use crate::scenario::{Check, ExpectedVerdict, Scenario, Stones};

/// Who an implementation is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineInfo {
    pub name: String,
    pub version: String,
}

/// The implementation cannot play under these rules or from this set-up: the trial is not
/// applicable, which is neither a pass nor a failure.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unsupported: {0}")]
pub struct Unsupported(pub String);

/// The implementation broke down (crashed, answered nonsense): an error, not a verdict.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("engine error: {0}")]
pub struct EngineError(pub String);

/// What an implementation can show of the state; `None` means it cannot observe that.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Observation {
    /// The stones on the board, sorted by point.
    pub stones: Option<Stones>,
    pub to_move: Option<Color>,
    /// Prisoners held by Black and by White, pass stones included.
    pub prisoners: Option<[u32; 2]>,
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
pub trait Referee {
    /// Name and version, for reports.
    fn info(&self) -> EngineInfo;
    /// Starts a game from a full set-up under the given rules.
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported>;
    /// Applies one event. An illegal play is a verdict, not an error.
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
    /// Whether the implementation keeps a referee's record: moves that stand on the board
    /// although they break a rule ([`Event::Breach`], [`Event::Ambiguous`]), notices and
    /// sealed moves, ruled by the procedures of the `illegal-move` axis. Implementations that
    /// only judge legality leave this false, and scenarios with such events are not
    /// applicable to them, never failures.
    fn keeps_record(&self) -> bool {
        false
    }
}

/// One assertion that did not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The move after which the check was made (0: the start).
    pub after: usize,
    /// The line of the expectation in the scenario file.
    pub line: usize,
    pub key: &'static str,
    pub expected: String,
    pub actual: String,
    /// For boards: the first point where expected and actual differ.
    pub first_difference: Option<Point>,
}

/// The outcome of one scenario under one run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Pass,
    Fail(Vec<Mismatch>),
    NotApplicable(String),
    Error(String),
}

impl Outcome {
    pub fn word(&self) -> &'static str {
        match self {
            Outcome::Pass => "pass",
            Outcome::Fail(_) => "fail",
            Outcome::NotApplicable(_) => "not applicable",
            Outcome::Error(_) => "error",
        }
    }
}

/// A scenario under one run, and how it went.
#[derive(Clone, Debug)]
pub struct Trial {
    pub scenario: usize,
    pub run: usize,
    pub outcome: Outcome,
    /// The verdict of every event, in order (as far as the trial got).
    pub verdicts: Vec<Verdict>,
}

/// Runs one scenario under each of its runs (or those whose label `only` accepts).
pub fn run_scenario(
    scenario: &Scenario,
    index: usize,
    referee: &mut dyn Referee,
    only: &dyn Fn(&str) -> bool,
) -> Vec<Trial> {
    scenario
        .runs
        .iter()
        .enumerate()
        .filter(|(_, run)| only(&run.label))
        .map(|(r, run)| {
            let (outcome, verdicts) = run_trial(scenario, r, &run.rules, referee);
            Trial {
                scenario: index,
                run: r,
                outcome,
                verdicts,
            }
        })
        .collect()
}

fn run_trial(
    scenario: &Scenario,
    run: usize,
    rules: &Rules,
    referee: &mut dyn Referee,
) -> (Outcome, Vec<Verdict>) {
    if scenario.needs_record() && !referee.keeps_record() {
        return (
            Outcome::NotApplicable(
                "the scenario is a referee's record (violations standing on the board, notices), and the implementation only judges legality".to_string(),
            ),
            Vec::new(),
        );
    }
    if let Err(Unsupported(why)) = referee.start(rules, &scenario.setup) {
        return (Outcome::NotApplicable(why), Vec::new());
    }
    let mut mismatches = Vec::new();
    let mut verdicts = Vec::new();
    check_after(
        scenario,
        run,
        0,
        None,
        &observe(scenario, run, 0, referee),
        &mut mismatches,
    );
    for (k, event) in scenario.events.iter().enumerate() {
        let verdict = match referee.apply(event) {
            Ok(v) => v,
            Err(EngineError(why)) => {
                return (
                    Outcome::Error(format!("after move {}: {why}", k + 1)),
                    verdicts,
                );
            }
        };
        check_after(
            scenario,
            run,
            k + 1,
            Some(&verdict),
            &observe(scenario, run, k + 1, referee),
            &mut mismatches,
        );
        verdicts.push(verdict);
    }
    let outcome = if mismatches.is_empty() {
        Outcome::Pass
    } else {
        Outcome::Fail(mismatches)
    };
    (outcome, verdicts)
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

fn first_difference(a: &Stones, b: &Stones, width: u8, height: u8) -> Option<Point> {
    let at = |s: &Stones, p: Point| s.iter().find(|(q, _)| *q == p).map(|(_, c)| *c);
    (0..height)
        .rev()
        .flat_map(|row| (0..width).map(move |col| Point::new(col, row)))
        .find(|&p| at(a, p) != at(b, p))
}

const NOT_OBSERVABLE: &str = "(not observable)";

fn check_after(
    scenario: &Scenario,
    run: usize,
    after: usize,
    verdict: Option<&Verdict>,
    seen: &Observation,
    out: &mut Vec<Mismatch>,
) {
    let (w, h) = (scenario.setup.width, scenario.setup.height);
    for e in scenario
        .expectations
        .iter()
        .filter(|e| e.after == after && e.runs.contains(&run))
    {
        for check in &e.checks {
            let mut first = None;
            let compared: Option<(String, String)> = match check {
                Check::Verdict(expected) => {
                    let actual = verdict.map_or("(no move)".to_string(), verdict_text);
                    let ok = match (expected, verdict) {
                        (ExpectedVerdict::Legal, Some(Verdict::Legal { .. })) => true,
                        (ExpectedVerdict::Illegal(r), Some(Verdict::Illegal(a))) => r == a,
                        (ExpectedVerdict::Breach(r), Some(Verdict::Breach { reason, .. })) => {
                            r == reason
                        }
                        (ExpectedVerdict::Ruled(r), Some(Verdict::Ruled(a))) => r == a,
                        _ => false,
                    };
                    (!ok).then(|| (expected.to_string(), actual))
                }
                Check::Class(class) => {
                    let actual = match verdict {
                        Some(Verdict::Breach { class, .. }) => class.to_string(),
                        Some(other) => format!("no breach ({})", verdict_text(other)),
                        None => "(no move)".to_string(),
                    };
                    (class.word() != actual).then(|| (class.to_string(), actual))
                }
                Check::Warnings(expected) => compare_pair(*expected, seen.warnings),
                Check::Captures(points) | Check::SelfCaptures(points) => {
                    let actual: Vec<Point> = match verdict {
                        Some(Verdict::Legal {
                            captured,
                            self_captured,
                        }) => {
                            if matches!(check, Check::Captures(_)) {
                                captured.clone()
                            } else {
                                self_captured.clone()
                            }
                        }
                        _ => Vec::new(),
                    };
                    let (e, a) = (points_text(points), points_text(&actual));
                    (e != a).then_some((e, a))
                }
                Check::Board(expected) => {
                    let mut expected = expected.clone();
                    expected.sort();
                    match &seen.stones {
                        None => Some((stones_diagram(&expected, w, h), NOT_OBSERVABLE.to_string())),
                        Some(actual) if *actual != expected => {
                            first = first_difference(&expected, actual, w, h);
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
                    let a = seen
                        .to_move
                        .map_or(NOT_OBSERVABLE.to_string(), |c| c.letter().to_string());
                    (c.letter().to_string() != a).then(|| (c.letter().to_string(), a))
                }
                Check::Phase(p) => {
                    let a = seen
                        .phase
                        .map_or(NOT_OBSERVABLE.to_string(), |p| p.to_string());
                    (p.to_string() != a).then(|| (p.to_string(), a))
                }
                Check::Result(r) => {
                    let a = seen.result.as_deref().unwrap_or(NOT_OBSERVABLE);
                    (r != a).then(|| (r.clone(), a.to_string()))
                }
                Check::Score([b, wt]) => {
                    let text = |[b, w]: [i32; 2]| {
                        format!("B {}, W {}", format_points(b), format_points(w))
                    };
                    let e = text([*b, *wt]);
                    let a = seen.score.map_or(NOT_OBSERVABLE.to_string(), text);
                    (e != a).then_some((e, a))
                }
            };
            if let Some((expected, actual)) = compared {
                out.push(Mismatch {
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

/// Compares a count per colour (prisoners, warnings) with what the implementation shows.
fn compare_pair(expected: [u32; 2], seen: Option<[u32; 2]>) -> Option<(String, String)> {
    let text = |[b, w]: [u32; 2]| format!("B {b}, W {w}");
    let actual = seen.map_or(NOT_OBSERVABLE.to_string(), text);
    let expected = text(expected);
    (expected != actual).then_some((expected, actual))
}

/// A verdict as reports show it.
fn verdict_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Legal { .. } => "legal".to_string(),
        other => other.to_string(),
    }
}

/// Counts of outcomes, for summaries.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub pass: usize,
    pub fail: usize,
    pub not_applicable: usize,
    pub error: usize,
}

impl Tally {
    pub fn add(&mut self, outcome: &Outcome) {
        match outcome {
            Outcome::Pass => self.pass += 1,
            Outcome::Fail(_) => self.fail += 1,
            Outcome::NotApplicable(_) => self.not_applicable += 1,
            Outcome::Error(_) => self.error += 1,
        }
    }

    pub fn total(&self) -> usize {
        self.pass + self.fail + self.not_applicable + self.error
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} passed, {} failed, {} not applicable, {} errors",
            self.pass, self.fail, self.not_applicable, self.error
        )
    }
}
