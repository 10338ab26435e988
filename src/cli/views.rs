//! `goconform explain`, `rulesets`, `lint` and `coverage`: views of the spec and the suite.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{load_spec, load_spec_and_suite, load_suite, CommandResult, Project};
use crate::rules::AXES;
use crate::scenario::lint;
use crate::spec::Level;

pub(super) fn explain(root: &Project, id: &str) -> CommandResult {
    let spec = load_spec(root)?;
    let Some(clause) = spec.clause(id) else {
        let close: Vec<&str> = spec
            .clauses
            .iter()
            .filter(|c| c.id.contains(id) || id.contains(c.id.as_str()))
            .map(|c| c.id.as_str())
            .take(12)
            .collect();
        let hint = if close.is_empty() {
            "`goconform coverage --all` lists every clause".to_string()
        } else {
            format!("did you mean: {}", close.join(", "))
        };
        return Err(format!("unknown clause `{id}`; {hint}"));
    };
    let suite = load_suite(root, &[], &spec)?;
    let document = spec.document(&clause.document);
    outln!("{}", clause.id);
    outln!("  where:   {}", clause.locator);
    if let Some(d) = document {
        outln!("  source:  {} ({})", d.title, d.source);
    }
    outln!("  level:   {}", clause.level);
    outln!("  topic:   {}", clause.topic);
    outln!("  says:    {}", clause.summary);
    if let Some(note) = &clause.note {
        outln!("  note:    {note}");
    }
    if !clause.see.is_empty() {
        outln!("  see:     {}", clause.see.join(", "));
    }
    let adopters = spec.adopters(id);
    outln!(
        "  adopted by: {}",
        if adopters.is_empty() {
            "no named ruleset".to_string()
        } else {
            adopters.join(", ")
        }
    );
    let scenarios: Vec<_> = suite
        .scenarios
        .iter()
        .filter(|s| s.clauses.iter().any(|c| c == id))
        .collect();
    let tournament: Vec<_> = suite
        .tournament
        .iter()
        .filter(|s| s.clauses.iter().any(|c| c == id))
        .collect();
    if scenarios.is_empty() && tournament.is_empty() {
        outln!("  scenarios: none");
    } else {
        outln!("  scenarios:");
        for s in scenarios {
            let runs: Vec<&str> = s.runs.iter().map(|r| r.label.as_str()).collect();
            outln!("    {:<44} {} [{}]", s.id, s.title, runs.join(", "));
        }
        for s in tournament {
            outln!(
                "    {:<44} {} [{}, {} cases]",
                s.id,
                s.title,
                s.kind,
                s.cases.len()
            );
        }
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn rulesets(root: &Project) -> CommandResult {
    let spec = load_spec(root)?;
    let mut columns: Vec<Vec<String>> = Vec::new();
    let mut header = vec!["axis".to_string()];
    header.extend(AXES.iter().map(|a| a.to_string()));
    columns.push(header);
    for def in spec.rulesets() {
        let rules = spec.rules(&def.name)?;
        let mut col = vec![def.name.clone()];
        col.extend(AXES.iter().map(|a| rules.get(a).unwrap_or_default()));
        columns.push(col);
    }
    let widths: Vec<usize> = columns
        .iter()
        .map(|c| c.iter().map(|v| v.len()).max().unwrap_or(0))
        .collect();
    for row in 0..=AXES.len() {
        let cells: Vec<String> = columns
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{:<w$}", c[row], w = *w))
            .collect();
        outln!("{}", cells.join("  ").trim_end());
        if row == 0 {
            let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
            outln!("{}", rule.join("  "));
        }
    }
    outln!();
    for def in spec.rulesets() {
        let base = def
            .extends
            .as_deref()
            .map(|e| format!(" (extends {e})"))
            .unwrap_or_default();
        outln!("{}{base}: {}", def.name, def.title);
    }
    Ok(ExitCode::SUCCESS)
}

pub(super) fn lint(root: &Project, paths: &[PathBuf]) -> CommandResult {
    let (spec, suite) = load_spec_and_suite(root, paths)?;
    let findings = lint::lint(&spec, &suite);
    for f in &findings {
        outln!("{}: {}", f.place, f.message);
    }
    outln!(
        "goconform lint: {} clauses, {} rulesets, {} scenarios, {} findings",
        spec.clauses.len(),
        spec.ruleset_names().len(),
        suite.scenarios.len() + suite.tournament.len(),
        findings.len()
    );
    Ok(if findings.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub(super) fn coverage(root: &Project, document: Option<&str>, all: bool) -> CommandResult {
    let spec = load_spec(root)?;
    if let Some(d) = document {
        if spec.document(d).is_none() {
            let ids: Vec<&str> = spec.documents.iter().map(|d| d.id.as_str()).collect();
            return Err(format!(
                "unknown document `{d}`; known documents: {}",
                ids.join(", ")
            ));
        }
    }
    let suite = load_suite(root, &[], &spec)?;
    let cov = lint::coverage(&spec, &suite);
    for level in Level::ALL {
        if level == Level::Informative && !all {
            continue;
        }
        let clauses: Vec<_> = spec
            .clauses
            .iter()
            .filter(|c| c.level == level && document.is_none_or(|d| c.document == d))
            .collect();
        if clauses.is_empty() {
            continue;
        }
        let covered = clauses
            .iter()
            .filter(|c| !cov[&c.id].scenarios.is_empty())
            .count();
        outln!(
            "{level}: {covered} of {} clauses have scenarios",
            clauses.len()
        );
        for c in clauses {
            let entry = &cov[&c.id];
            let mark = if entry.scenarios.is_empty() {
                "  -"
            } else {
                "  +"
            };
            let list = if entry.scenarios.is_empty() {
                "(none)".to_string()
            } else {
                entry.scenarios.join(", ")
            };
            outln!("{mark} {:<34} {:<12} {list}", c.id, c.topic);
        }
        outln!();
    }
    let testable = spec
        .clauses
        .iter()
        .filter(|c| c.level.is_testable())
        .count();
    let covered = spec
        .clauses
        .iter()
        .filter(|c| c.level.is_testable() && !cov[&c.id].scenarios.is_empty())
        .count();
    outln!("testable clauses with scenarios: {covered} of {testable} (by level above; informative clauses need none)");
    Ok(ExitCode::SUCCESS)
}
