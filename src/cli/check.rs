//! `goconform check` and `goconform show`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::{load_spec, load_suite, CommandResult};
use crate::conformance::{run_scenario, Mismatch, Outcome, Referee, Reference, Tally};
use crate::game::{Game, Refereed, Verdict};
use crate::scenario::{Run, Scenario, Suite};

/// Does a run match a `--rules` filter (its own name or its ruleset's)?
fn run_matches(run: &Run, filter: Option<&str>) -> bool {
    filter.is_none_or(|f| run.label == f || run.ruleset == f)
}

pub(super) fn check(root: &Path, paths: &[PathBuf], filter: Option<&str>) -> CommandResult {
    let spec = load_spec(root)?;
    let suite = load_suite(root, paths, &spec)?;
    if let Some(f) = filter {
        let known = suite
            .scenarios
            .iter()
            .flat_map(|s| &s.runs)
            .any(|r| run_matches(r, Some(f)));
        if !known && spec.ruleset(f).is_none() {
            return Err(format!(
                "unknown ruleset `{f}`; known rulesets: {}",
                spec.ruleset_names().join(", ")
            ));
        }
    }
    let mut reference = Reference::new();
    let mut tally = Tally::default();
    let mut by_ruleset: BTreeMap<String, Tally> = BTreeMap::new();
    let mut failures = Vec::new();
    for (index, scenario) in suite.scenarios.iter().enumerate() {
        let only = |label: &str| {
            scenario
                .runs
                .iter()
                .find(|r| r.label == label)
                .is_some_and(|r| run_matches(r, filter))
        };
        for trial in run_scenario(scenario, index, &mut reference, &only) {
            tally.add(&trial.outcome);
            by_ruleset
                .entry(scenario.runs[trial.run].label.clone())
                .or_default()
                .add(&trial.outcome);
            if !matches!(trial.outcome, Outcome::Pass) {
                failures.push((index, trial.run, trial.outcome));
            }
        }
    }
    let info = reference.info();
    println!(
        "goconform check: {} scenarios, {} trials, engine {} {}",
        suite.scenarios.len(),
        tally.total(),
        info.name,
        info.version
    );
    for (index, run, outcome) in &failures {
        print_failure(root, &suite, *index, *run, outcome);
    }
    println!();
    println!("by run:");
    for (label, t) in &by_ruleset {
        println!("  {label:<28} {t}");
    }
    println!();
    println!("{} passed, {} failed", tally.pass, tally.fail + tally.error);
    if tally.not_applicable > 0 {
        println!("({} not applicable)", tally.not_applicable);
    }
    Ok(if tally.fail + tally.error == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn relative<'a>(root: &Path, path: &'a Path) -> std::borrow::Cow<'a, str> {
    match path.strip_prefix(root) {
        Ok(rel) => std::borrow::Cow::Owned(rel.display().to_string()),
        Err(_) => path.to_string_lossy(),
    }
}

fn print_failure(root: &Path, suite: &Suite, index: usize, run: usize, outcome: &Outcome) {
    let s = &suite.scenarios[index];
    let label = &s.runs[run].label;
    let file = relative(root, &s.path);
    println!();
    println!(
        "{} {} under {} ({})",
        outcome.word().to_uppercase(),
        s.id,
        label,
        file
    );
    match outcome {
        Outcome::Fail(mismatches) => {
            for m in mismatches {
                print_mismatch(s, m);
            }
        }
        Outcome::NotApplicable(why) | Outcome::Error(why) => println!("  {why}"),
        Outcome::Pass => {}
    }
    println!("  reproduce: goconform check {file} --rules {label}");
}

fn print_mismatch(s: &Scenario, m: &Mismatch) {
    let at = if m.after == 0 {
        "at the start".to_string()
    } else {
        format!("after move {} ({})", m.after, s.events[m.after - 1])
    };
    println!(
        "  {at}, expectation at {}:{}, key `{}`:",
        s.path.display(),
        m.line,
        m.key
    );
    if m.expected.contains('\n') || m.actual.contains('\n') {
        let expected: Vec<&str> = m.expected.lines().collect();
        let actual: Vec<&str> = m.actual.lines().collect();
        let width = expected
            .iter()
            .map(|l| l.len())
            .max()
            .unwrap_or(0)
            .max("expected".len());
        println!("    {:<width$}   actual", "expected");
        for i in 0..expected.len().max(actual.len()) {
            let e = expected.get(i).copied().unwrap_or("");
            let a = actual.get(i).copied().unwrap_or("");
            let mark = if e != a { "<>" } else { "  " };
            println!("    {e:<width$} {mark} {a}");
        }
        if let Some(p) = m.first_difference {
            println!("    first difference at {p}");
        }
    } else {
        println!("    expected: {}", m.expected);
        println!("    actual:   {}", m.actual);
    }
}

pub(super) fn show(root: &Path, path: &Path, filter: Option<&str>) -> CommandResult {
    let spec = load_spec(root)?;
    let suite = load_suite(root, &[path.to_path_buf()], &spec)?;
    let Some(s) = suite.scenarios.first() else {
        return Err(format!("{} holds no scenario", path.display()));
    };
    println!("{}: {}", s.id, s.title);
    println!("clauses: {}", s.clauses.join(", "));
    let mut shown = 0;
    for run in s.runs.iter().filter(|r| run_matches(r, filter)) {
        shown += 1;
        println!();
        let overrides: Vec<String> = run
            .overrides
            .iter()
            .map(|(a, v)| format!("{a}={v}"))
            .collect();
        if overrides.is_empty() {
            println!("== under {} ==", run.label);
        } else {
            println!(
                "== under {} ({} with {}) ==",
                run.label,
                run.ruleset,
                overrides.join(", ")
            );
        }
        let mut referee = Refereed::new(run.rules, &s.setup).map_err(|e| e.to_string())?;
        println!("start, {} to move:", referee.game().to_move().name());
        print_board(referee.game());
        for (k, event) in s.events.iter().enumerate() {
            let verdict = referee.apply(event.clone());
            let game = referee.game();
            let extra = match &verdict {
                Verdict::Legal { self_captured, .. } if !self_captured.is_empty() => {
                    let pts: Vec<String> = self_captured.iter().map(|p| p.to_string()).collect();
                    format!(" (self-captures {})", pts.join(" "))
                }
                _ => String::new(),
            };
            println!();
            println!("{}. {event}: {verdict}{extra}", k + 1);
            println!(
                "   prisoners B {} W {}, {} to move, {}",
                game.prisoners(crate::board::Color::Black),
                game.prisoners(crate::board::Color::White),
                game.to_move().name(),
                game.phase()
            );
            if let Some(report) = referee.report() {
                for sentence in &report.explanation {
                    println!("   {sentence}");
                }
                println!("   grounds: {}", report.clauses.join(", "));
            }
            if referee.warnings() != [0, 0] {
                let [b, w] = referee.warnings();
                println!("   warnings B {b} W {w}");
            }
            if !matches!(verdict, Verdict::Illegal(_)) {
                print_board(game);
            }
        }
        let game = referee.game();
        if game.phase() == crate::game::Phase::Ended {
            println!();
            println!(
                "result: {} (goconform score {} --rules {} itemises it)",
                game.result(),
                path.display(),
                run.label
            );
        }
    }
    if shown == 0 {
        return Err(format!(
            "scenario {} has no run named {}",
            s.id,
            filter.unwrap_or("")
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn print_board(game: &Game) {
    let board = game.board();
    for (i, line) in board.diagram().lines().enumerate() {
        println!("   {:>2} {line}", usize::from(board.height()) - i);
    }
    println!("      {}", super::column_letters(board.width()));
}
