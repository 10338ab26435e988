//! Applicability by relevance: a trial whose ruleset has an axis value an implementation lacks
//! may still say something about it, when that value makes no difference to anything the
//! implementation can be asked.
//!
//! The trial is then *projected*: it runs under the nearest rules within the implementation's
//! capabilities, replacing only the axes it lacks. A projection is allowed only when the
//! reference, run under the projected rules, gives every event the same verdict as under the
//! scenario's own rules (the same game is played), and it keeps only the checks whose answer
//! the reference gives unchanged; a check whose answer would change is left out and listed,
//! never rewritten. So a projected trial asserts nothing the scenario does not, and nothing
//! the scenario's ruleset and the projected rules disagree on.
//!
//! "Nearest" is decided by the checks: of every combination of allowed values for the lacking
//! axes, the one keeping the most checks the implementation observes wins, ties going to the
//! implementation's own order of values. Reports say which axes were projected, to what, and
//! which checks were left out.

use std::fmt;

use serde::Serialize;

use super::runner::{judge_trial, Outcome, Tier, Trial};
use super::{Capabilities, Observable, Referee, Reference};
use crate::game::Verdict;
use crate::rules::{Rules, AXES};
use crate::scenario::Scenario;

/// The most combinations of values tried for one trial; beyond it the trial is not applicable
/// (no implementation restricts enough axes to reach it today).
const MAX_CANDIDATES: usize = 256;

/// One axis a trial was moved along.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ProjectedAxis {
    /// The axis name (`ko`).
    pub axis: &'static str,
    /// The scenario ruleset's value.
    pub from: String,
    /// The value the trial ran under.
    pub to: String,
}

/// A check left out of a projected trial because the reference answers it differently under
/// the projected rules.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct LeftOut {
    /// The event after which the check is made (0: the start).
    pub after: usize,
    /// The line of its expectation in the scenario file.
    pub line: usize,
    /// The key checked there (`board`, `prisoners`, ...).
    pub key: &'static str,
}

/// How a trial was moved to rules an implementation has.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Projection {
    /// The rules the trial ran under.
    #[serde(skip)]
    pub rules: Rules,
    /// The axes moved, each from the scenario's value to the engine's.
    pub axes: Vec<ProjectedAxis>,
    /// The checks left out because their answer changes with the move.
    pub left_out: Vec<LeftOut>,
}

impl Projection {
    /// Whether a check is one of those left out.
    pub fn leaves_out(&self, after: usize, line: usize, key: &str) -> bool {
        self.left_out
            .iter()
            .any(|l| l.after == after && l.line == line && l.key == key)
    }

    /// The axes in one short phrase: `ko natural-situational→simple, suicide allowed→forbidden`.
    pub fn axes_text(&self) -> String {
        self.axes
            .iter()
            .map(|a| format!("{} {}→{}", a.axis, a.from, a.to))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

impl fmt::Display for Projection {
    /// `under ko=simple (from natural-situational); 2 checks left out: prisoners, score`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "projected: {}", self.axes_text())?;
        if !self.left_out.is_empty() {
            let mut keys: Vec<&str> = self.left_out.iter().map(|l| l.key).collect();
            keys.sort_unstable();
            keys.dedup();
            write!(
                f,
                "; {} check{} left out ({})",
                self.left_out.len(),
                if self.left_out.len() == 1 { "" } else { "s" },
                keys.join(", ")
            )?;
        }
        Ok(())
    }
}

/// The projection of run `run` of `scenario` onto what `capabilities` allow, or why there is
/// none. Call it only when the run's own rules are not supported.
pub fn project(
    scenario: &Scenario,
    run: usize,
    capabilities: &Capabilities,
) -> Result<Projection, String> {
    let rules = scenario.runs[run].rules;
    let lacking: Vec<(&'static str, String, &[String])> = AXES
        .iter()
        .filter_map(|axis| {
            let allowed = capabilities.axes.get(*axis)?;
            let value = rules.get(axis)?;
            (!allowed.contains(&value)).then_some((*axis, value, allowed.as_slice()))
        })
        .collect();
    let combinations = lacking
        .iter()
        .try_fold(1usize, |n, (_, _, allowed)| n.checked_mul(allowed.len()))
        .filter(|&n| n <= MAX_CANDIDATES)
        .ok_or_else(|| "too many combinations of axis values to try a projection".to_string())?;
    let Some(played) = verdicts(scenario, &rules) else {
        return Err("the reference cannot play the scenario".to_string());
    };
    // The checks are judged as the implementation would be, on what it observes, but under any
    // axis value.
    let unrestricted = Capabilities {
        axes: Default::default(),
        ..capabilities.clone()
    };
    // A reason changed by the projection is a changed answer only where reasons are compared.
    let tier = if capabilities.observes(Observable::Reasons) {
        Tier::Strict
    } else {
        Tier::Basic
    };
    let mut best: Option<(usize, Projection)> = None;
    let mut why_not = Vec::new();
    for k in 0..combinations {
        let mut candidate = rules;
        let mut axes = Vec::new();
        let mut rest = k;
        for (axis, from, allowed) in &lacking {
            let to = &allowed[rest % allowed.len()];
            rest /= allowed.len();
            if candidate.set(axis, to).is_err() {
                // An unknown word: the harness reports unknown axes; a bad value never fits.
                continue;
            }
            axes.push(ProjectedAxis {
                axis,
                from: from.clone(),
                to: to.clone(),
            });
        }
        if axes.len() != lacking.len() {
            continue;
        }
        let phrase = axes
            .iter()
            .map(|a| format!("{}={}", a.axis, a.to))
            .collect::<Vec<_>>()
            .join(", ");
        match verdicts(scenario, &candidate) {
            Some(v) if v.len() == played.len() && v.iter().zip(&played).all(same_move) => {}
            Some(v) => {
                let k = v.iter().zip(&played).take_while(|p| same_move(*p)).count();
                why_not.push(format!(
                    "under {phrase} the game goes differently (move {} `{}`: {} instead of {})",
                    k + 1,
                    scenario.events[k],
                    v[k],
                    played[k]
                ));
                continue;
            }
            None => {
                why_not.push(format!("under {phrase} the reference cannot start"));
                continue;
            }
        }
        let mut reference = Reference::new();
        let mut trial = Trial::new(0, run);
        let outcome = judge_trial(
            scenario,
            run,
            &candidate,
            None,
            &mut reference,
            &unrestricted,
            tier,
            &mut trial,
        );
        let left_out: Vec<LeftOut> = match outcome {
            Outcome::Pass => Vec::new(),
            Outcome::Fail(mismatches) => mismatches
                .iter()
                .map(|m| LeftOut {
                    after: m.after,
                    line: m.line,
                    key: m.key,
                })
                .collect(),
            other => {
                why_not.push(format!("under {phrase}: {}", other.summary()));
                continue;
            }
        };
        let kept = observed_checks(scenario, run, &unrestricted) - left_out.len();
        if kept == 0 {
            why_not.push(format!(
                "under {phrase} every check it observes would change"
            ));
            continue;
        }
        if best.as_ref().is_none_or(|(most, _)| kept > *most) {
            best = Some((
                kept,
                Projection {
                    rules: candidate,
                    axes,
                    left_out,
                },
            ));
        }
    }
    best.map(|(_, p)| p).ok_or_else(|| why_not.join("; "))
}

/// Whether two verdicts on one event play the same game: equal, or both a refusal (which
/// leaves the state as it was, whatever its reason; a changed reason is then a changed
/// answer of that event's verdict check, left out where reasons are compared).
fn same_move((a, b): (&Verdict, &Verdict)) -> bool {
    a == b || matches!((a, b), (Verdict::Illegal(_), Verdict::Illegal(_)))
}

/// The reference's verdict on every event under `rules`, judging everything; `None` if it
/// cannot start.
fn verdicts(scenario: &Scenario, rules: &Rules) -> Option<Vec<Verdict>> {
    let mut reference = Reference::new();
    reference.start(rules, &scenario.setup).ok()?;
    scenario
        .events
        .iter()
        .map(|e| reference.apply(e).ok())
        .collect()
}

/// How many checks of the run an implementation with these capabilities is asked.
fn observed_checks(scenario: &Scenario, run: usize, capabilities: &Capabilities) -> usize {
    scenario
        .expectations
        .iter()
        .filter(|e| e.runs.contains(&run))
        .flat_map(|e| &e.checks)
        .filter(|c| super::runner::observable(c, capabilities))
        .count()
}

/// How many applicable trials ran under each projection, most common first: a line per
/// distinct set of projected axes, for the summaries of reports.
pub fn tally<'a>(trials: impl IntoIterator<Item = &'a Trial>) -> Vec<(String, usize)> {
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    for t in trials {
        if let (Some(p), false) = (
            &t.projection,
            matches!(t.outcome, Outcome::NotApplicable(_)),
        ) {
            *counts.entry(p.axes_text()).or_default() += 1;
        }
    }
    let mut lines: Vec<(String, usize)> = counts.into_iter().collect();
    lines.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    lines
}
