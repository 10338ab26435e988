//! The same trials through several implementations, side by side: where they disagree,
//! grouped by the clause each trial tests.
//!
//! Every report is a column, and all columns are alike: the first one is the reference by
//! convention only, and nothing here treats it differently. A trial is a *disagreement*
//! when at least one engine it applied to did not pass it (a failure, an error, a
//! timeout, ...). A trial an engine cannot play is not a disagreement: what each engine
//! cannot play is its capabilities, shown once per engine, and listing every such trial
//! would bury the real disagreements. When all the engines that played a trial agree on
//! anything but a pass (all fail, all error, ...), the suite disagrees with every one of
//! them, which is worth a look at the scenario as much as at the engines. In the tables a
//! trial that did not apply to an engine shows as `n/a`, without the reason.
//!
//! Each disagreement is listed under every clause its scenario cites (testable clauses
//! only: an informative clause is never tested, so it groups nothing unless the scenario
//! cites nothing else), clauses ordered by level (must, should, may) and then id. The
//! per-engine summary counts, by level, the trials passed over the trials that applied;
//! a trial citing clauses of several levels counts once under each of them, so the rows do
//! not add up, and there is deliberately no overall percentage.
//!
//! [`Comparison::rows`] lists each disagreement once more, in trial order, for the HTML page
//! (`crate::book::engines`, which draws each at its position).
//!
//! [`Comparison::to_markdown`] renders it here; the HTML page is drawn by
//! `crate::book::engines` (rendering stays out of this layer). Both depend only on the
//! reports, the suite and the spec (no times, no dates), so they can be committed and diffed.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::PathBuf;

use super::{
    Capabilities, EngineInfo, Outcome, RunReport, Tally, Tier, INTERPRETATION_VERSION,
    REPORT_FORMAT_VERSION,
};
use crate::scenario::Suite;
use crate::spec::{Level, Spec};

/// The levels the summary counts by, in order.
pub const LEVELS: [Level; 3] = [Level::Must, Level::Should, Level::May];

/// Why the reports cannot be compared.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompareError {
    /// The reports given were none.
    #[error("there is nothing to compare: no reports")]
    NoReports,
    /// Two reports ran different numbers of trials.
    #[error(
        "{engine} ran {count} trials and {other} ran {other_count}: the reports did not run the same selection"
    )]
    DifferentLength {
        /// The first engine's name.
        engine: String,
        /// How many trials it ran.
        count: usize,
        /// The engine whose report differs.
        other: String,
        /// How many trials that one ran.
        other_count: usize,
    },
    /// Two reports ran different trials at the same place.
    #[error(
        "trial {index} is {trial} for {engine} but {other_trial} for {other}: the reports did not run the same selection in the same order"
    )]
    DifferentTrial {
        /// The place (0-based) in the reports.
        index: usize,
        /// The first engine's name.
        engine: String,
        /// Its trial there.
        trial: String,
        /// The engine whose report differs.
        other: String,
        /// That one's trial there.
        other_trial: String,
    },
    /// A report names a trial the suite does not hold.
    #[error("trial {index} ({trial}) is not in the suite: the reports ran another suite")]
    NotInSuite {
        /// The place (0-based) in the reports.
        index: usize,
        /// The trial the report names.
        trial: String,
    },
}

/// The reports side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// The suite release (the crate version).
    pub suite_version: &'static str,
    /// The version of the report format ([`super::REPORT_FORMAT_VERSION`]).
    pub format_version: u32,
    /// The version of the suite's interpretation of the rules
    /// ([`super::INTERPRETATION_VERSION`]).
    pub interpretation_version: u32,
    /// One per report, in the order given.
    pub engines: Vec<EngineColumn>,
    /// The clauses with at least one disagreement, by level then id.
    pub clauses: Vec<ClauseGroup>,
    /// Every disagreement once, in the order of the trials (each lists the clauses it is
    /// grouped under in [`Comparison::clauses`]).
    pub rows: Vec<Row>,
    /// How many trials are disagreements (each counted once, however many clauses it
    /// appears under).
    pub disagreements: usize,
    /// How many disagreements include an outcome that fails a check run (a failure, error
    /// or timeout not listed in the engine's expectations file, or a listed one that
    /// passed): the disagreements nobody has triaged yet.
    pub untriaged: usize,
    /// How many trials were compared.
    pub trials: usize,
}

/// One implementation: who it is, how it was run, and how it did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineColumn {
    /// Who the engine says it is.
    pub engine: EngineInfo,
    /// The tier it was checked in.
    pub tier: Tier,
    /// What it claimed to play under and to observe.
    pub capabilities: Capabilities,
    /// Must, should and may, in that order.
    pub by_level: Vec<LevelCount>,
    /// Its outcomes, counted.
    pub tally: Tally,
    /// Of the trials that applied, how many ran under projected rules (the nearest the
    /// engine has, see [`super::projection`]); the rest ran under their own ruleset.
    pub projected: usize,
}

/// Trials passed over trials that applied, for the trials citing a clause of one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LevelCount {
    /// The level of the clauses counted.
    pub level: Level,
    /// Trials that passed.
    pub passed: usize,
    /// Trials that applied (not-applicable ones are left out).
    pub applicable: usize,
}

/// A clause and the disagreements on the trials that cite it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseGroup {
    /// The clause's id.
    pub id: String,
    /// `None` for a clause the spec does not know (or for the group of trials whose
    /// scenario cites no clause): such groups come last.
    pub level: Option<Level>,
    /// The document the clause comes from.
    pub document: String,
    /// Where in the document (article, paragraph).
    pub locator: String,
    /// What the clause says, in one line.
    pub summary: String,
    /// The disagreements on trials citing it, in the order of the trials.
    pub rows: Vec<Row>,
}

/// One trial on which the engines disagree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// `{scenario id}[{run label}]`.
    pub trial: String,
    /// The scenario's file, as the suite was loaded from.
    pub scenario_file: PathBuf,
    /// The trial's scenario and run, as indices into the suite.
    pub scenario: usize,
    /// See `scenario`.
    pub run: usize,
    /// The clauses the row is grouped under.
    pub clauses: Vec<String>,
    /// The earliest event (0: the start) at which some engine's answer differed from the
    /// expectation, where a failure names one: the position a reader should look at.
    pub first_difference: Option<usize>,
    /// Every engine that played it (at least two) had the same outcome, and it was not a
    /// pass: the suite disagrees with all of them.
    pub unanimous: bool,
    /// One per engine, in the order of [`Comparison::engines`].
    pub cells: Vec<Cell>,
}

/// What one engine made of one trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// [`Outcome::word`].
    pub word: &'static str,
    /// [`Outcome::summary`]; empty for a pass.
    pub summary: String,
    /// The projection the trial ran under, in words; empty when it ran under its own rules.
    pub projected: String,
}

/// The first `{NAME}` placeholder (capital letters and underscores in braces) left in a
/// generated text: a template whose value was never filled in, which `compare` refuses to
/// write and `compare --check` fails on.
pub fn unfilled_placeholder(text: &str) -> Option<&str> {
    let mut rest = text;
    while let Some(open) = rest.find('{') {
        let after = &rest[open + 1..];
        if let Some(close) = after.find('}') {
            let name = &after[..close];
            if !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_') {
                return Some(&rest[open..open + close + 2]);
            }
        }
        rest = after;
    }
    None
}

/// What the Applicable column means, under every summary table.
pub const SUMMARY_NOTE: &str = "Applicable counts the trials an engine was judged on: under the run's own rules, or projected onto the nearest rules the engine has when the reference plays the same game there (every event the same verdict) and keeps the answer of at least one check the engine observes; checks whose answer would change are left out, never rewritten. The own-rules count is what applied before projections existed.";

/// The id of the group for trials whose scenario cites no clause.
const NO_CLAUSE: &str = "(no clause)";

/// Compares reports that ran the same selection of `suite`, in the same order.
pub fn compare(
    suite: &Suite,
    spec: &Spec,
    reports: &[RunReport],
) -> Result<Comparison, CompareError> {
    let first = reports.first().ok_or(CompareError::NoReports)?;
    let name = |s: usize, r: usize| -> Option<String> {
        let scenario = suite.scenarios.get(s)?;
        Some(format!("{}[{}]", scenario.id, scenario.runs.get(r)?.label))
    };
    let shown = |s: usize, r: usize| name(s, r).unwrap_or_else(|| format!("#{s}[#{r}]"));
    for other in &reports[1..] {
        if other.trials.len() != first.trials.len() {
            return Err(CompareError::DifferentLength {
                engine: first.engine.to_string(),
                count: first.trials.len(),
                other: other.engine.to_string(),
                other_count: other.trials.len(),
            });
        }
        for (index, (a, b)) in first.trials.iter().zip(&other.trials).enumerate() {
            if (a.scenario, a.run) != (b.scenario, b.run) {
                return Err(CompareError::DifferentTrial {
                    index,
                    engine: first.engine.to_string(),
                    trial: shown(a.scenario, a.run),
                    other: other.engine.to_string(),
                    other_trial: shown(b.scenario, b.run),
                });
            }
        }
    }
    for (index, t) in first.trials.iter().enumerate() {
        if name(t.scenario, t.run).is_none() {
            return Err(CompareError::NotInSuite {
                index,
                trial: shown(t.scenario, t.run),
            });
        }
    }

    let mut groups: BTreeMap<(u8, Option<Level>, String), ClauseGroup> = BTreeMap::new();
    let mut rows: Vec<Row> = Vec::new();
    let mut disagreements = 0;
    let mut untriaged = 0;
    for (index, t) in first.trials.iter().enumerate() {
        let outcomes: Vec<&Outcome> = reports.iter().map(|r| &r.trials[index].outcome).collect();
        if !disagree(&outcomes) {
            continue;
        }
        disagreements += 1;
        if outcomes.iter().any(|o| o.fails_run()) {
            untriaged += 1;
        }
        let scenario = &suite.scenarios[t.scenario];
        let grouping = grouping_clauses(&scenario.clauses, spec);
        let row = Row {
            trial: shown(t.scenario, t.run),
            scenario_file: scenario.path.clone(),
            scenario: t.scenario,
            run: t.run,
            clauses: grouping.clone(),
            first_difference: outcomes.iter().filter_map(|o| first_mismatch(o)).min(),
            unanimous: {
                let played: Vec<&&Outcome> = outcomes
                    .iter()
                    .filter(|o| !matches!(o, Outcome::NotApplicable(_)))
                    .collect();
                played.iter().all(|o| o.word() == played[0].word()) && played.len() > 1
            },
            cells: reports
                .iter()
                .map(|r| &r.trials[index])
                .map(|t| (&t.outcome, t))
                .map(|(o, t)| Cell {
                    word: o.word(),
                    projected: match (&t.projection, o) {
                        (Some(p), o) if !matches!(o, Outcome::NotApplicable(_)) => p.to_string(),
                        _ => String::new(),
                    },
                    // An expected failure shows its triage first: that is what a reader
                    // of the table needs, and what it did follows.
                    summary: match o {
                        Outcome::ExpectedFailure { listed, actual } => {
                            format!("{listed} (it did: {})", actual.summary())
                        }
                        _ => o.summary(),
                    },
                })
                .collect(),
        };
        rows.push(row.clone());
        for id in grouping {
            let clause = spec.clause(&id);
            let level = clause.map(|c| c.level);
            let key = (u8::from(level.is_none()), level, id.clone());
            groups
                .entry(key)
                .or_insert_with(|| ClauseGroup {
                    level,
                    document: clause.map_or(String::new(), |c| c.document.clone()),
                    locator: clause.map_or(String::new(), |c| c.locator.clone()),
                    summary: clause.map_or_else(
                        || {
                            if id == NO_CLAUSE {
                                "The scenario cites no clause.".to_string()
                            } else {
                                "A clause the spec does not list.".to_string()
                            }
                        },
                        |c| c.summary.clone(),
                    ),
                    id,
                    rows: Vec::new(),
                })
                .rows
                .push(row.clone());
        }
    }

    let engines = reports
        .iter()
        .map(|report| EngineColumn {
            engine: report.engine.clone(),
            tier: report.tier,
            capabilities: report.capabilities.clone(),
            by_level: LEVELS
                .iter()
                .map(|&level| {
                    let mut count = LevelCount {
                        level,
                        passed: 0,
                        applicable: 0,
                    };
                    for t in &report.trials {
                        let cites = suite.scenarios[t.scenario]
                            .clauses
                            .iter()
                            .any(|id| spec.clause(id).is_some_and(|c| c.level == level));
                        if !cites || matches!(t.outcome, Outcome::NotApplicable(_)) {
                            continue;
                        }
                        count.applicable += 1;
                        count.passed += usize::from(t.outcome == Outcome::Pass);
                    }
                    count
                })
                .collect(),
            tally: report.tally(),
            projected: report
                .trials
                .iter()
                .filter(|t| {
                    t.projection.is_some() && !matches!(t.outcome, Outcome::NotApplicable(_))
                })
                .count(),
        })
        .collect();

    Ok(Comparison {
        suite_version: env!("CARGO_PKG_VERSION"),
        format_version: REPORT_FORMAT_VERSION,
        interpretation_version: INTERPRETATION_VERSION,
        engines,
        clauses: groups.into_values().collect(),
        rows,
        disagreements,
        untriaged,
        trials: first.trials.len(),
    })
}

/// The earliest event a failure names (a listed failure: the one it had).
fn first_mismatch(outcome: &Outcome) -> Option<usize> {
    match outcome {
        Outcome::Fail(mismatches) => mismatches.iter().map(|m| m.after).min(),
        Outcome::ExpectedFailure { actual, .. } => first_mismatch(actual),
        _ => None,
    }
}

/// Whether the outcomes of one trial are a disagreement: some engine played it and did not
/// pass.
fn disagree(outcomes: &[&Outcome]) -> bool {
    outcomes
        .iter()
        .any(|o| !matches!(o, Outcome::Pass | Outcome::NotApplicable(_)))
}

/// The clauses a trial is listed under: those cited that are tested (not informative), or
/// if there are none, every clause cited, or the no-clause group.
fn grouping_clauses(cited: &[String], spec: &Spec) -> Vec<String> {
    let mut ids: Vec<String> = cited
        .iter()
        .filter(|id| spec.clause(id).is_none_or(|c| c.level.is_testable()))
        .cloned()
        .collect();
    if ids.is_empty() {
        ids = cited.to_vec();
    }
    if ids.is_empty() {
        ids.push(NO_CLAUSE.to_string());
    }
    ids.sort();
    ids.dedup();
    ids
}

/// A clause level as a word; `unregistered` for a clause the spec does not know.
pub fn level_word(level: Option<Level>) -> &'static str {
    level.map_or("unregistered", Level::word)
}

/// What an engine observes, as words (`verdicts only` for nothing more).
pub fn observes_text(capabilities: &Capabilities) -> String {
    if capabilities.observes.is_empty() {
        "verdicts only".to_string()
    } else {
        let words: Vec<&str> = capabilities.observes.iter().map(|o| o.word()).collect();
        words.join(", ")
    }
}

/// The axis values an engine is limited to, as text (`none (every value)` for no limit).
pub fn axes_text(capabilities: &Capabilities) -> String {
    if capabilities.axes.is_empty() {
        "none (every value)".to_string()
    } else {
        let axes: Vec<String> = capabilities
            .axes
            .iter()
            .map(|(axis, values)| format!("{axis}: {}", values.join(", ")))
            .collect();
        axes.join("; ")
    }
}

/// Passed over applicable: `12/14`.
pub fn count_text(count: &LevelCount) -> String {
    format!("{}/{}", count.passed, count.applicable)
}

fn cell_text(cell: &Cell) -> String {
    let word = if cell.projected.is_empty() {
        cell.word.to_string()
    } else {
        format!("{} ({})", cell.word, cell.projected)
    };
    if cell.word == "not-applicable" {
        "n/a".to_string()
    } else if cell.summary.is_empty() {
        word
    } else {
        format!("{word}: {}", cell.summary)
    }
}

/// Applicable trials, and how many of them ran under their own rules and how many projected.
pub fn applicable_text(e: &EngineColumn) -> String {
    let applicable = e.tally.applicable();
    format!(
        "{applicable} ({} own rules, {} projected)",
        applicable - e.projected,
        e.projected
    )
}

/// A cell of a GitHub-flavoured Markdown table: pipes escaped, line breaks as `<br>`, and
/// the characters that would start HTML written as entities.
fn md(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '|' => out.push_str("\\|"),
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push_str("<br>");
            }
            '\n' => out.push_str("<br>"),
            c => out.push(c),
        }
    }
    out
}

fn md_row(out: &mut String, cells: impl IntoIterator<Item = String>) {
    out.push('|');
    for c in cells {
        out.push(' ');
        out.push_str(&c);
        out.push_str(" |");
    }
    out.push('\n');
}

fn md_rule(out: &mut String, columns: usize) {
    out.push('|');
    for _ in 0..columns {
        out.push_str("---|");
    }
    out.push('\n');
}

impl Comparison {
    /// An engine's column heading: its name and version.
    pub fn engine_label(column: &EngineColumn) -> String {
        column.engine.to_string()
    }

    /// The comparison as GitHub-flavoured Markdown.
    pub fn to_markdown(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Comparison of {} implementations\n\nSuite {}, report format {}, interpretation {}: {} trials, {} disagreements, {} of them not triaged (a failure no expectations file lists).\n",
            self.engines.len(),
            self.suite_version,
            self.format_version,
            self.interpretation_version,
            self.trials,
            self.disagreements,
            self.untriaged
        );
        out.push_str("## Implementations\n\n");
        md_row(
            &mut out,
            [
                "Implementation",
                "Version",
                "Tier",
                "Observes",
                "Restricted axes",
            ]
            .map(String::from),
        );
        md_rule(&mut out, 5);
        for e in &self.engines {
            md_row(
                &mut out,
                [
                    md(&e.engine.name),
                    md(&e.engine.version),
                    e.tier.word().to_string(),
                    md(&observes_text(&e.capabilities)),
                    md(&axes_text(&e.capabilities)),
                ],
            );
        }
        out.push_str(&format!(
            "\n## Summary\n\nTrials passed over trials that applied, by the level of the clauses they cite. {SUMMARY_NOTE}\n\n",
        ));
        md_row(
            &mut out,
            std::iter::once("Implementation".to_string())
                .chain(LEVELS.iter().map(|l| l.word().to_string()))
                .chain(["Applicable".to_string(), "Tally".to_string()]),
        );
        md_rule(&mut out, LEVELS.len() + 3);
        for e in &self.engines {
            md_row(
                &mut out,
                std::iter::once(md(&Self::engine_label(e)))
                    .chain(e.by_level.iter().map(count_text))
                    .chain([applicable_text(e), md(&e.tally.to_string())]),
            );
        }
        out.push_str("\n## Disagreements\n");
        if self.clauses.is_empty() {
            out.push_str("\nNone: every trial passed everywhere or applied nowhere.\n");
        }
        for group in &self.clauses {
            let _ = writeln!(
                out,
                "\n### `{}` ({})\n",
                group.id.replace('`', "'"),
                level_word(group.level)
            );
            if group.locator.is_empty() {
                let _ = writeln!(out, "{}\n", md(&group.summary));
            } else {
                let _ = writeln!(out, "{}: {}\n", md(&group.locator), md(&group.summary));
            }
            md_row(
                &mut out,
                ["Trial".to_string(), "Scenario".to_string()]
                    .into_iter()
                    .chain(self.engines.iter().map(|e| md(&Self::engine_label(e)))),
            );
            md_rule(&mut out, self.engines.len() + 2);
            for row in &group.rows {
                md_row(
                    &mut out,
                    [md(&row.trial), md(&row.scenario_file.display().to_string())]
                        .into_iter()
                        .chain(row.cells.iter().map(|c| md(&cell_text(c)))),
                );
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::fixtures;

    fn load() -> (Spec, Suite) {
        fixtures::two_scenarios()
    }

    use fixtures::report;

    /// Every run of both scenarios: engine A passes them all; engine B fails one trial of
    /// the capture scenario (with a `|` and a `<` in the message) and cannot play one of
    /// the suicide scenario.
    fn reports(suite: &Suite) -> (Vec<RunReport>, usize, usize) {
        let (capture, suicide) = fixtures::capture_and_suicide(suite);
        let selection: Vec<(usize, usize)> = (0..suite.scenarios.len())
            .flat_map(|s| (0..suite.scenarios[s].runs.len()).map(move |r| (s, r)))
            .collect();
        let a = report(
            "alpha",
            selection.iter().map(|&t| (t, Outcome::Pass)).collect(),
        );
        let b = report(
            "beta <b>",
            selection
                .iter()
                .map(|&t| {
                    let outcome = if t == (capture, 1) {
                        fixtures::captures_failure()
                    } else if t == (suicide, 0) {
                        Outcome::NotApplicable("no suicide=allowed".to_string())
                    } else {
                        Outcome::Pass
                    };
                    (t, outcome)
                })
                .collect(),
        );
        (vec![a, b], capture, suicide)
    }

    #[test]
    fn disagreements_are_grouped_by_clause_and_level() {
        let (spec, suite) = load();
        let (reports, capture, suicide) = reports(&suite);
        let c = compare(&suite, &spec, &reports).unwrap();
        // The failure is a disagreement; the trial beta cannot play is not.
        assert_eq!(c.disagreements, 1);
        let trials = reports[0].trials.len();
        assert_eq!(c.trials, trials);

        let failed = format!("single-stone[{}]", suite.scenarios[capture].runs[1].label);
        // Every clause the failing scenario cites groups its row; informative ones do not.
        let mut expected: Vec<(Level, &str, &str)> = Vec::new();
        for id in &suite.scenarios[capture].clauses {
            let level = spec.clause(id).unwrap().level;
            if level.is_testable() {
                expected.push((level, id.as_str(), failed.as_str()));
            }
        }
        expected.sort();
        let got: Vec<(Level, &str, &str)> = c
            .clauses
            .iter()
            .flat_map(|g| {
                g.rows
                    .iter()
                    .map(move |r| (g.level.unwrap(), g.id.as_str(), r.trial.as_str()))
            })
            .collect();
        assert_eq!(got, expected);
        assert!(c.clauses.iter().all(|g| g.rows.iter().all(|r| r.trial
            != format!(
                "single-stone-suicide[{}]",
                suite.scenarios[suicide].runs[0].label
            ))));

        let group = c.clauses.iter().find(|g| g.id == "aga-1991-r5").unwrap();
        assert_eq!(group.rows.len(), 1);
        let row = &group.rows[0];
        assert_eq!(row.scenario_file, suite.scenarios[capture].path);
        assert!(!row.unanimous);
        assert_eq!(row.cells[0].word, "pass");
        assert_eq!(row.cells[0].summary, "");
        assert_eq!(row.cells[1].word, "fail");
        assert_eq!(
            row.cells[1].summary,
            "after move 1: captures expected C3, got a|b <none>"
        );
        assert_eq!(group.document, spec.clause("aga-1991-r5").unwrap().document);
    }

    #[test]
    fn the_summary_leaves_not_applicable_out_of_the_denominator() {
        let (spec, suite) = load();
        let (reports, capture, suicide) = reports(&suite);
        let c = compare(&suite, &spec, &reports).unwrap();
        let runs = |s: usize| suite.scenarios[s].runs.len();
        let (nc, ns) = (runs(capture), runs(suicide));
        let count = |e: usize, level: Level| {
            let l = c.engines[e]
                .by_level
                .iter()
                .find(|l| l.level == level)
                .unwrap();
            (l.passed, l.applicable)
        };
        // Both scenarios cite must clauses; only the suicide one cites a may clause; neither
        // a should clause.
        assert_eq!(count(0, Level::Must), (nc + ns, nc + ns));
        assert_eq!(count(0, Level::May), (ns, ns));
        assert_eq!(count(0, Level::Should), (0, 0));
        assert_eq!(count(1, Level::Must), (nc + ns - 2, nc + ns - 1));
        assert_eq!(count(1, Level::May), (ns - 1, ns - 1));
        assert_eq!(c.engines[1].tally.fail, 1);
        assert_eq!(c.engines[1].tally.not_applicable, 1);
        let md = c.to_markdown();
        // The summary's note is filled in, and no template placeholder is left anywhere.
        assert!(md.contains(SUMMARY_NOTE), "{md}");
        assert_eq!(unfilled_placeholder(&md), None, "{md}");
        assert!(
            md.contains(&format!(
                "| beta &lt;b&gt; 1.0 | {}/{} | 0/0 | {}/{} | {} ({} own rules, 0 projected) | {} |",
                nc + ns - 2,
                nc + ns - 1,
                ns - 1,
                ns - 1,
                nc + ns - 1,
                nc + ns - 1,
                c.engines[1].tally
            )),
            "{md}"
        );
        assert!(!md.contains('%'));
    }

    #[test]
    fn passing_or_not_applicable_is_no_disagreement_but_failing_is() {
        let (spec, suite) = load();
        let t = (0, 0);
        let na = || Outcome::NotApplicable("no".to_string());
        let fail = || Outcome::Error("crashed".to_string());
        let run = |a: Outcome, b: Outcome| {
            compare(
                &suite,
                &spec,
                &[report("a", vec![(t, a)]), report("b", vec![(t, b)])],
            )
            .unwrap()
        };
        assert_eq!(run(Outcome::Pass, Outcome::Pass).disagreements, 0);
        assert_eq!(run(na(), na()).disagreements, 0);
        let all_fail = run(fail(), fail());
        assert_eq!(all_fail.disagreements, 1);
        assert!(all_fail.clauses[0].rows[0].unanimous);
        assert_eq!(run(Outcome::Pass, na()).disagreements, 0);
        let one_fails = run(fail(), na());
        assert_eq!(one_fails.disagreements, 1);
        assert!(!one_fails.clauses[0].rows[0].unanimous);
        assert!(one_fails.to_markdown().contains("| error: crashed | n/a |"));
    }

    #[test]
    fn different_selections_are_an_error_not_a_panic() {
        let (spec, suite) = load();
        let a = report("a", vec![((0, 0), Outcome::Pass), ((0, 1), Outcome::Pass)]);
        let b = report("b", vec![((0, 1), Outcome::Pass), ((0, 0), Outcome::Pass)]);
        let short = report("c", vec![((0, 0), Outcome::Pass)]);
        let outside = report("d", vec![((9, 0), Outcome::Pass)]);
        assert!(matches!(
            compare(&suite, &spec, &[a.clone(), b]),
            Err(CompareError::DifferentTrial { index: 0, .. })
        ));
        assert!(matches!(
            compare(&suite, &spec, &[a, short]),
            Err(CompareError::DifferentLength { .. })
        ));
        assert!(matches!(
            compare(&suite, &spec, &[outside]),
            Err(CompareError::NotInSuite { index: 0, .. })
        ));
        assert_eq!(compare(&suite, &spec, &[]), Err(CompareError::NoReports));
    }

    #[test]
    fn an_unfilled_placeholder_is_found_and_braces_of_other_kinds_are_not() {
        assert_eq!(
            unfilled_placeholder("a {SUMMARY_NOTE} b"),
            Some("{SUMMARY_NOTE}")
        );
        assert_eq!(unfilled_placeholder("{ x } {a} {} {Ab}"), None);
        assert_eq!(unfilled_placeholder("{x {NOTE} y}"), Some("{NOTE}"));
    }

    #[test]
    fn markdown_escapes_pipes_and_line_breaks() {
        let (spec, suite) = load();
        let (reports, capture, _) = reports(&suite);
        let md = compare(&suite, &spec, &reports).unwrap().to_markdown();
        let failed = format!("single-stone[{}]", suite.scenarios[capture].runs[1].label);
        let path = suite.scenarios[capture].path.display().to_string();
        assert!(
            md.contains(&format!(
                "| {failed} | {path} | pass | fail: after move 1: captures expected C3, got a\\|b &lt;none&gt; |"
            )),
            "{md}"
        );
        assert!(md.contains("### `aga-1991-r5` (must)"), "{md}");
        assert!(
            md.contains("| Trial | Scenario | alpha 1.0 | beta &lt;b&gt; 1.0 |"),
            "{md}"
        );
        assert_eq!(super::md("a|b\r\nc\nd"), "a\\|b<br>c<br>d");
        // Every table row has the same number of unescaped pipes as its header.
        for line in md.lines().filter(|l| l.starts_with('|')) {
            let pipes = line.replace("\\|", "").matches('|').count();
            assert!((5..=7).contains(&pipes), "{line}");
        }
    }
}
