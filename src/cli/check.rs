//! `goconform check` and `goconform show`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::{load_spec, load_suite, relative, CommandResult};
use crate::conformance::{
    run_scenario, Mismatch, Outcome, Referee, Reference, Tally, INTERPRETATION_VERSION,
    REPORT_FORMAT_VERSION,
};
use crate::game::{Game, Refereed, Verdict};
use crate::scenario::{Run, Scenario, Suite};

/// Does a run match a `--rules` filter (its own name or its ruleset's)?
fn run_matches(run: &Run, filter: Option<&str>) -> bool {
    filter.is_none_or(|f| run.label == f || run.ruleset == f)
}

/// The arguments of `goconform check`.
#[derive(Args)]
pub(super) struct CheckArgs {
    /// Scenario files or folders (default: the whole suite under conformance/).
    paths: Vec<PathBuf>,
    /// Only the runs of this ruleset (a ruleset name or a custom run's name).
    #[arg(long, value_name = "NAME")]
    rules: Option<String>,
    /// Only scenarios whose id contains this text.
    #[arg(long, value_name = "TEXT")]
    id: Option<String>,
    /// Only scenarios that cite this clause.
    #[arg(long, value_name = "ID")]
    clause: Option<String>,
    /// Only scenarios of this topic (the folder under conformance/).
    #[arg(long, value_name = "NAME")]
    topic: Option<String>,
    /// The report: text for people, or JSON lines (a header, one line per trial, a footer).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
}

/// How `check` reports.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ReportFormat {
    Text,
    Jsonl,
}

impl CheckArgs {
    /// Whether a scenario passes the `--id`, `--clause` and `--topic` filters.
    fn selects(&self, scenario: &Scenario) -> bool {
        self.id.as_deref().is_none_or(|t| scenario.id.contains(t))
            && self
                .clause
                .as_deref()
                .is_none_or(|c| scenario.clauses.iter().any(|x| x == c))
            && self.topic.as_deref().is_none_or(|t| scenario.topic == t)
    }
}

pub(super) fn check(root: &Path, args: &CheckArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let mut suite = load_suite(root, &args.paths, &spec)?;
    if let Some(c) = args.clause.as_deref().filter(|c| spec.clause(c).is_none()) {
        return Err(format!(
            "unknown clause `{c}` (goconform coverage lists them)"
        ));
    }
    suite.scenarios.retain(|s| args.selects(s));
    let filter = args.rules.as_deref();
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
    let mut report =
        (args.format == ReportFormat::Jsonl).then(|| JsonReport::start(root, args, &reference));
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
            if let Some(report) = &mut report {
                report.trial(root, scenario, trial.run, &trial.outcome);
            }
            if !matches!(trial.outcome, Outcome::Pass) {
                failures.push((index, trial.run, trial.outcome));
            }
        }
    }
    let failed = tally.fail + tally.error;
    let code = if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    if let Some(report) = report {
        report.finish(&tally);
        return Ok(code);
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
    println!("{} passed, {failed} failed", tally.pass);
    if tally.not_applicable > 0 {
        println!("({} not applicable)", tally.not_applicable);
    }
    Ok(code)
}

/// The JSON-lines report: one object per line, each with a `type`. The header says which
/// versions and options produced the run, every trial follows in the suite's order, and the
/// footer carries the totals and `complete: true`, so a consumer can tell a run that was cut
/// short from one that finished.
struct JsonReport {
    out: std::io::StdoutLock<'static>,
}

#[derive(Serialize)]
struct JsonHeader<'a> {
    r#type: &'static str,
    suite_version: &'static str,
    format_version: u32,
    interpretation_version: u32,
    engine: JsonEngine,
    options: JsonOptions<'a>,
    /// Runs are deterministic: there is no seed.
    seed: Option<u64>,
}

#[derive(Serialize)]
struct JsonEngine {
    name: String,
    version: String,
}

#[derive(Serialize)]
struct JsonOptions<'a> {
    paths: Vec<String>,
    rules: Option<&'a str>,
    id: Option<&'a str>,
    clause: Option<&'a str>,
    topic: Option<&'a str>,
}

#[derive(Serialize)]
struct JsonTrial<'a> {
    r#type: &'static str,
    scenario: &'a str,
    file: String,
    topic: &'a str,
    run: &'a str,
    ruleset: &'a str,
    /// `pass`, `fail`, `not-applicable` or `error`.
    outcome: String,
    /// Why a trial was not applicable or errored.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mismatches: Vec<JsonMismatch<'a>>,
}

#[derive(Serialize)]
struct JsonMismatch<'a> {
    after: usize,
    line: usize,
    key: &'static str,
    expected: &'a str,
    actual: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    first_difference: Option<String>,
}

#[derive(Serialize)]
struct JsonFooter {
    r#type: &'static str,
    pass: usize,
    fail: usize,
    not_applicable: usize,
    error: usize,
    complete: bool,
}

impl JsonReport {
    fn start(root: &Path, args: &CheckArgs, engine: &dyn Referee) -> JsonReport {
        let info = engine.info();
        let mut report = JsonReport {
            out: std::io::stdout().lock(),
        };
        report.line(&JsonHeader {
            r#type: "header",
            suite_version: env!("CARGO_PKG_VERSION"),
            format_version: REPORT_FORMAT_VERSION,
            interpretation_version: INTERPRETATION_VERSION,
            engine: JsonEngine {
                name: info.name,
                version: info.version,
            },
            options: JsonOptions {
                paths: args.paths.iter().map(|p| relative(root, p)).collect(),
                rules: args.rules.as_deref(),
                id: args.id.as_deref(),
                clause: args.clause.as_deref(),
                topic: args.topic.as_deref(),
            },
            seed: None,
        });
        report
    }

    fn trial(&mut self, root: &Path, scenario: &Scenario, run: usize, outcome: &Outcome) {
        let reason = match outcome {
            Outcome::NotApplicable(why) | Outcome::Error(why) => Some(why.as_str()),
            Outcome::Pass | Outcome::Fail(_) => None,
        };
        let mismatches = match outcome {
            Outcome::Fail(list) => list
                .iter()
                .map(|m| JsonMismatch {
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
        let run = &scenario.runs[run];
        self.line(&JsonTrial {
            r#type: "trial",
            scenario: &scenario.id,
            file: relative(root, &scenario.path),
            topic: &scenario.topic,
            run: &run.label,
            ruleset: &run.ruleset,
            outcome: outcome.word().replace(' ', "-"),
            reason,
            mismatches,
        });
    }

    fn finish(mut self, tally: &Tally) {
        self.line(&JsonFooter {
            r#type: "footer",
            pass: tally.pass,
            fail: tally.fail,
            not_applicable: tally.not_applicable,
            error: tally.error,
            complete: true,
        });
    }

    /// Writes one object as one line. A closed pipe ends the output quietly (the binary
    /// restores the default SIGPIPE action), so write errors are not reported here.
    fn line(&mut self, value: &impl Serialize) {
        use std::io::Write;
        if let Ok(text) = serde_json::to_string(value) {
            let _ = writeln!(self.out, "{text}");
        }
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
