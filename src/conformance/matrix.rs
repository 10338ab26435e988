//! The per-clause matrix: for every clause the trials cite, how many passed out of those
//! that apply, by ruleset; and the same by level. Never one pass percentage: a clause of
//! level must that fails is not made good by ten of level may that pass.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::{RunReport, Tally};
use crate::scenario::Suite;
use crate::spec::clauses::Level;
use crate::spec::Spec;

/// One clause's row: a tally per ruleset column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClauseRow {
    /// The clause's id.
    pub clause: String,
    /// Its level, so that a must row is never read as a may row.
    pub level: Level,
    /// One per column of [`Matrix::rulesets`].
    pub cells: Vec<Tally>,
}

/// Clauses by ruleset, and levels by ruleset.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Matrix {
    /// The column names: the rulesets the trials ran under, sorted.
    pub rulesets: Vec<String>,
    /// Clauses ordered by level (must first), then id.
    pub rows: Vec<ClauseRow>,
    /// Per level (must, should, may, informative, in that order, only those with trials):
    /// one tally per column, and the level's tally over all columns.
    pub levels: Vec<(Level, Vec<Tally>, Tally)>,
}

/// Builds the matrix of a run. A trial counts for every clause its scenario cites; a clause
/// the registry does not know (which lint forbids) is counted as informative.
pub fn matrix(suite: &Suite, spec: &Spec, report: &RunReport) -> Matrix {
    let mut rulesets: Vec<&str> = report
        .trials
        .iter()
        .map(|t| suite.scenarios[t.scenario].runs[t.run].ruleset.as_str())
        .collect();
    rulesets.sort_unstable();
    rulesets.dedup();
    let column = |name: &str| rulesets.iter().position(|r| *r == name).unwrap_or(0);
    // The levels of each scenario's clauses, looked up once for all its runs.
    let mut clause_levels: Vec<Option<Vec<Level>>> = vec![None; suite.scenarios.len()];
    let mut rows: BTreeMap<(Level, &str), Vec<Tally>> = BTreeMap::new();
    let mut levels: BTreeMap<Level, (Vec<Tally>, Tally)> = BTreeMap::new();
    for trial in &report.trials {
        let scenario = &suite.scenarios[trial.scenario];
        let col = column(&scenario.runs[trial.run].ruleset);
        let mut counted_levels = Vec::new();
        let scenario_levels = clause_levels[trial.scenario].get_or_insert_with(|| {
            scenario
                .clauses
                .iter()
                .map(|id| spec.clause(id).map_or(Level::Informative, |c| c.level))
                .collect()
        });
        for (clause, &level) in scenario.clauses.iter().zip(scenario_levels.iter()) {
            rows.entry((level, clause.as_str()))
                .or_insert_with(|| vec![Tally::default(); rulesets.len()])[col]
                .add(&trial.outcome);
            // A trial citing two clauses of one level counts once for that level.
            if !counted_levels.contains(&level) {
                counted_levels.push(level);
                let (cells, all) = levels
                    .entry(level)
                    .or_insert_with(|| (vec![Tally::default(); rulesets.len()], Tally::default()));
                cells[col].add(&trial.outcome);
                all.add(&trial.outcome);
            }
        }
    }
    Matrix {
        rows: rows
            .into_iter()
            .map(|((level, clause), cells)| ClauseRow {
                clause: clause.to_string(),
                level,
                cells,
            })
            .collect(),
        levels: levels
            .into_iter()
            .map(|(level, (cells, all))| (level, cells, all))
            .collect(),
        rulesets: rulesets.into_iter().map(str::to_string).collect(),
    }
}

/// A cell as tables show it: `passed/applicable`, `n/a` when nothing applied, `-` when no
/// trial ran there.
pub fn cell(t: &Tally) -> String {
    if t.total() == 0 {
        "-".to_string()
    } else if t.applicable() == 0 {
        "n/a".to_string()
    } else {
        format!("{}/{}", t.pass, t.applicable())
    }
}

impl Matrix {
    /// The levels as a text table, one column per ruleset and one for all of them.
    pub fn levels_text(&self) -> String {
        let mut header = vec!["level".to_string()];
        header.extend(self.rulesets.iter().cloned());
        header.push("all".to_string());
        let rows = self.levels.iter().map(|(level, cells, all)| {
            let mut row = vec![level.word().to_string()];
            row.extend(cells.iter().map(cell));
            row.push(cell(all));
            row
        });
        table(header, rows.collect())
    }

    /// Every clause as a text table, one column per ruleset.
    pub fn clauses_text(&self) -> String {
        let mut header = vec!["clause".to_string(), "level".to_string()];
        header.extend(self.rulesets.iter().cloned());
        let rows = self.rows.iter().map(|row| {
            let mut out = vec![row.clause.clone(), row.level.word().to_string()];
            out.extend(row.cells.iter().map(cell));
            out
        });
        table(header, rows.collect())
    }
}

/// Left-aligned columns separated by two spaces.
fn table(header: Vec<String>, rows: Vec<Vec<String>>) -> String {
    let mut widths: Vec<usize> = header.iter().map(String::len).collect();
    for row in &rows {
        for (w, c) in widths.iter_mut().zip(row) {
            *w = (*w).max(c.len());
        }
    }
    let mut out = String::new();
    for row in std::iter::once(&header).chain(&rows) {
        let line: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:<w$}"))
            .collect();
        let _ = writeln!(out, "{}", line.join("  ").trim_end());
    }
    out
}
