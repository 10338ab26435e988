//! The JSON-lines report: one object per line, each with a `type`. The header says which
//! versions, engine and options produced the run; every trial follows in the order of the
//! selection; the footer carries the totals, the tallies by level and `complete: true`, so
//! a consumer can tell a run that was cut short from one that finished.

use std::io::{self, Write};

use serde::Serialize;

use super::matrix::Matrix;
use super::projection::Projection;
use super::tournament::TournamentTrial;
use super::{
    Capabilities, EngineInfo, Outcome, RunReport, Tally, Tier, Trial, INTERPRETATION_VERSION,
    REPORT_FORMAT_VERSION,
};
use crate::scenario::Suite;

#[derive(Serialize)]
struct Header<'a> {
    r#type: &'static str,
    suite_version: &'static str,
    format_version: u32,
    interpretation_version: u32,
    engine: &'a EngineInfo,
    capabilities: &'a Capabilities,
    tier: Tier,
    /// The options of the run, as the caller names them.
    options: &'a serde_json::Value,
    /// Runs are deterministic: there is no seed.
    seed: Option<u64>,
}

#[derive(Serialize)]
struct TrialLine<'a> {
    r#type: &'static str,
    scenario: &'a str,
    file: String,
    topic: &'a str,
    clauses: &'a [String],
    run: &'a str,
    ruleset: &'a str,
    outcome: &'static str,
    /// One line on what went wrong; absent for a pass.
    #[serde(skip_serializing_if = "String::is_empty")]
    summary: String,
    /// For expected failures and unexpected passes: the reason the expectations file gives.
    #[serde(skip_serializing_if = "Option::is_none")]
    listed: Option<&'a str>,
    /// For expected failures: what actually happened.
    #[serde(skip_serializing_if = "Option::is_none")]
    actual: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mismatches: Vec<MismatchLine<'a>>,
    /// Checks left out because the engine cannot observe them.
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    unobserved: &'a [&'static str],
    /// Set when the trial ran under the nearest rules the engine has: the axes moved, and
    /// the checks left out because their answer would change.
    #[serde(skip_serializing_if = "Option::is_none")]
    projected: Option<&'a Projection>,
}

/// A tournament scenario (tiebreaks, clocks, handicaps): one line each, with every value
/// that differs from the reference's.
#[derive(Serialize)]
struct TournamentLine<'a> {
    r#type: &'static str,
    scenario: &'a str,
    file: String,
    topic: &'a str,
    clauses: &'a [String],
    kind: &'a str,
    /// `pass`, `fail` or `not-applicable`.
    outcome: &'static str,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mismatches: Vec<CaseLine<'a>>,
}

#[derive(Serialize)]
struct CaseLine<'a> {
    case: &'a str,
    /// For clocks: the event after which the value was checked.
    #[serde(skip_serializing_if = "Option::is_none")]
    after: Option<usize>,
    key: &'a str,
    line: usize,
    expected: &'a str,
    actual: &'a str,
}

#[derive(Serialize)]
struct MismatchLine<'a> {
    after: usize,
    line: usize,
    key: &'static str,
    expected: &'a str,
    actual: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_difference: Option<String>,
}

#[derive(Serialize)]
struct LevelLine<'a> {
    level: &'static str,
    #[serde(flatten)]
    tally: &'a Tally,
}

#[derive(Serialize)]
struct Footer<'a> {
    r#type: &'static str,
    #[serde(flatten)]
    tally: Tally,
    by_level: Vec<LevelLine<'a>>,
    /// Applicable trials run under projected rules, by the axes projected.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    projected: Vec<ProjectedLine>,
    complete: bool,
}

#[derive(Serialize)]
struct ProjectedLine {
    axes: String,
    trials: usize,
}

/// Writes the whole report: the board trials of `report`, then the tournament scenarios.
/// `file` names a scenario's file as the report should show it. `tally` is the run's totals,
/// board trials and tournament scenarios together, as the text report counts them; the footer
/// gives it.
#[allow(clippy::too_many_arguments)]
pub fn write_jsonl(
    out: &mut dyn Write,
    suite: &Suite,
    report: &RunReport,
    tournament: &[TournamentTrial<'_>],
    tally: &Tally,
    matrix: &Matrix,
    options: &serde_json::Value,
    file: &dyn Fn(&std::path::Path) -> String,
) -> io::Result<()> {
    line(
        out,
        &Header {
            r#type: "header",
            suite_version: env!("CARGO_PKG_VERSION"),
            format_version: REPORT_FORMAT_VERSION,
            interpretation_version: INTERPRETATION_VERSION,
            engine: &report.engine,
            capabilities: &report.capabilities,
            tier: report.tier,
            options,
            seed: None,
        },
    )?;
    for trial in &report.trials {
        line(out, &trial_line(suite, trial, file))?;
    }
    for (scenario, mismatches) in tournament {
        let outcome = match mismatches {
            None => "not-applicable",
            Some([]) => "pass",
            Some(_) => "fail",
        };
        let mismatches = mismatches
            .unwrap_or_default()
            .iter()
            .map(|m| CaseLine {
                case: &m.case,
                after: m.after,
                key: &m.key,
                line: m.line,
                expected: &m.expected,
                actual: &m.actual,
            })
            .collect();
        line(
            out,
            &TournamentLine {
                r#type: "tournament",
                scenario: &scenario.id,
                file: file(&scenario.path),
                topic: &scenario.topic,
                clauses: &scenario.clauses,
                kind: &scenario.kind,
                outcome,
                mismatches,
            },
        )?;
    }
    line(
        out,
        &Footer {
            r#type: "footer",
            tally: *tally,
            by_level: matrix
                .levels
                .iter()
                .map(|(level, _, tally)| LevelLine {
                    level: level.word(),
                    tally,
                })
                .collect(),
            projected: super::projection::tally(&report.trials)
                .into_iter()
                .map(|(axes, trials)| ProjectedLine { axes, trials })
                .collect(),
            complete: true,
        },
    )
}

fn trial_line<'a>(
    suite: &'a Suite,
    trial: &'a Trial,
    file: &dyn Fn(&std::path::Path) -> String,
) -> TrialLine<'a> {
    let scenario = &suite.scenarios[trial.scenario];
    let run = &scenario.runs[trial.run];
    let (listed, actual, shown) = match &trial.outcome {
        Outcome::ExpectedFailure { listed, actual } => {
            (Some(listed.as_str()), Some(actual.word()), actual.as_ref())
        }
        Outcome::UnexpectedPass { listed } => (Some(listed.as_str()), None, &trial.outcome),
        other => (None, None, other),
    };
    let mismatches = match shown {
        Outcome::Fail(list) => list
            .iter()
            .map(|m| MismatchLine {
                after: m.after,
                line: m.line,
                key: m.key,
                expected: &m.expected,
                actual: &m.actual,
                first_difference: m.first_difference.map(|p| p.to_string()),
            })
            .collect(),
        _ => Vec::new(),
    };
    TrialLine {
        r#type: "trial",
        scenario: &scenario.id,
        file: file(&scenario.path),
        topic: &scenario.topic,
        clauses: &scenario.clauses,
        run: &run.label,
        ruleset: &run.ruleset,
        outcome: trial.outcome.word(),
        summary: trial.outcome.summary(),
        listed,
        actual,
        mismatches,
        unobserved: &trial.unobserved,
        projected: trial.projection.as_ref(),
    }
}

fn line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    let text = serde_json::to_string(value).map_err(io::Error::other)?;
    writeln!(out, "{text}")
}
