//! Checks on the suite as a whole, beyond what loading a single file can see.
//!
//! Loading already rejects malformed files (unknown keys, clauses, rulesets, axis values,
//! vertices off the board, ragged diagrams, contradictions). Lint adds the rules that keep the
//! suite honest: every must-level board-play clause is shown both permitting and forbidding
//! (forbidding by a refusal for the reason the clause is about: [`forbidding_reasons`]),
//! and a scenario that runs under several rulesets states the verdict for each of them
//! wherever it states one for any.

use std::collections::BTreeMap;

use super::{Check, ExpectedVerdict, Scenario, Suite};
use crate::game::Reason;
use crate::spec::{Level, Spec, BOARD_PLAY_TOPICS};

/// One lint finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    /// The file the finding is about (a scenario, or the clause registry).
    pub place: String,
    /// What is missing or inconsistent, for the suite's authors to fix.
    pub message: String,
}

/// How scenarios cover one clause.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClauseCoverage {
    /// Scenario ids citing the clause.
    pub scenarios: Vec<String>,
    /// Whether some citing scenario expects a legal verdict.
    pub permits: bool,
    /// Whether some citing scenario expects an illegal verdict.
    pub forbids: bool,
}

/// Coverage of every clause by the suite, keyed by clause id.
pub fn coverage(spec: &Spec, suite: &Suite) -> BTreeMap<String, ClauseCoverage> {
    let mut map: BTreeMap<String, ClauseCoverage> = spec
        .clauses
        .iter()
        .map(|c| (c.id.clone(), ClauseCoverage::default()))
        .collect();
    for s in &suite.scenarios {
        let verdicts = s.expectations.iter().flat_map(|e| &e.checks);
        let permits = verdicts
            .clone()
            .any(|c| *c == Check::Verdict(ExpectedVerdict::Legal));
        let refused: Vec<Reason> = verdicts
            .clone()
            .filter_map(|c| match c {
                Check::Verdict(ExpectedVerdict::Illegal(r)) => Some(*r),
                _ => None,
            })
            .collect();
        for clause in &s.clauses {
            // A refusal forbids on a clause's behalf only for the reason the clause is about
            // (a pass clause is not shown forbidding by an out-of-turn refusal).
            let about = spec
                .clause(clause)
                .and_then(|c| forbidding_reasons(&c.topic));
            let forbids = refused
                .iter()
                .any(|r| about.is_none_or(|reasons| reasons.contains(r)));
            if let Some(entry) = map.get_mut(clause) {
                entry.scenarios.push(s.id.clone());
                entry.permits |= permits;
                entry.forbids |= forbids;
            }
        }
    }
    for t in &suite.tournament {
        for clause in &t.clauses {
            if let Some(entry) = map.get_mut(clause) {
                entry.scenarios.push(t.id.clone());
            }
        }
    }
    map
}

/// The refusals that show a clause of this topic forbidding a move: a ko clause by a ko
/// refusal, a superko clause by a ko or superko refusal, and so on. `None`: any refusal.
pub fn forbidding_reasons(topic: &str) -> Option<&'static [Reason]> {
    match topic {
        "suicide" => Some(&[Reason::Suicide]),
        "ko" => Some(&[Reason::Ko]),
        "superko" => Some(&[Reason::Ko, Reason::Superko]),
        "capture" => Some(&[Reason::Suicide, Reason::Occupied]),
        "play" => Some(&[Reason::Occupied, Reason::OutOfTurn]),
        "passes" => Some(&[Reason::GamePaused, Reason::GameOver]),
        _ => None,
    }
}

/// Is this a must-level clause about board play, the kind owed a permitting and a forbidding
/// scenario?
pub fn is_board_play_must(spec: &Spec, id: &str) -> bool {
    spec.clause(id).is_some_and(|c| {
        c.level == Level::Must
            && BOARD_PLAY_TOPICS.contains(&c.topic.as_str())
            && c.topic != "board"
    })
}

/// Every lint finding for the suite.
pub fn lint(spec: &Spec, suite: &Suite) -> Vec<Finding> {
    let mut findings = Vec::new();
    for (id, cov) in coverage(spec, suite) {
        if !is_board_play_must(spec, &id) {
            continue;
        }
        let place = spec
            .clause(&id)
            .map(|c| format!("spec/clauses/{}.toml:{}", c.document, c.line))
            .unwrap_or_default();
        if cov.scenarios.is_empty() {
            findings.push(Finding {
                place,
                message: format!("must-level board-play clause `{id}` has no scenario"),
            });
            continue;
        }
        if !cov.permits {
            findings.push(Finding {
                place: place.clone(),
                message: format!("clause `{id}` has no scenario in which the rule permits a move (`legal = true`)"),
            });
        }
        if !cov.forbids {
            findings.push(Finding {
                place,
                message: format!("clause `{id}` has no scenario in which the rule forbids a move (`illegal = ...`)"),
            });
        }
    }
    for s in &suite.scenarios {
        findings.extend(verdicts_for_every_run(s));
    }
    findings
}

/// Where a scenario states a verdict after some move for one run, it must state one for all.
fn verdicts_for_every_run(s: &Scenario) -> Vec<Finding> {
    let mut stated: BTreeMap<usize, Vec<bool>> = BTreeMap::new();
    for e in &s.expectations {
        if e.checks.iter().any(|c| matches!(c, Check::Verdict(_))) {
            let runs = stated
                .entry(e.after)
                .or_insert_with(|| vec![false; s.runs.len()]);
            for &r in &e.runs {
                runs[r] = true;
            }
        }
    }
    stated
        .into_iter()
        .filter_map(|(after, runs)| {
            let missing: Vec<&str> = runs
                .iter()
                .enumerate()
                .filter(|(_, stated)| !**stated)
                .map(|(r, _)| s.runs[r].label.as_str())
                .collect();
            (!missing.is_empty()).then(|| Finding {
                place: s.path.display().to_string(),
                message: format!(
                    "scenario `{}` states the verdict of move {after} for some runs but not for: {}",
                    s.id,
                    missing.join(", ")
                ),
            })
        })
        .collect()
}
