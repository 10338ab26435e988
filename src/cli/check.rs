//! `goconform check` and `goconform show`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{
    engines, load_spec, load_spec_and_suite, load_suite, relative, CommandResult, Project,
};
use crate::conformance::harness::{progress_wanted, select, HarnessError};
use crate::conformance::junit::junit;
use crate::conformance::matrix::{matrix, Matrix};
use crate::conformance::projection;
use crate::conformance::report::write_jsonl;
use crate::conformance::{
    Harness, Mismatch, Outcome, RunReport, Tally, Tier, Trial, INTERPRETATION_VERSION,
};
use crate::game::{Game, Refereed, Verdict};
use crate::scenario::expectations::{Expectations, ExpectedFailure};
use crate::scenario::{Run, Scenario, Suite};

/// Does a run match a `--rules` filter (its own name or its ruleset's)?
fn run_matches(run: &Run, filter: Option<&str>) -> bool {
    filter.is_none_or(|f| run.label == f || run.ruleset == f)
}

/// Which trials to run: shared by `check` and `compare`.
#[derive(Args)]
pub(super) struct SelectArgs {
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
}

/// The spec, the scenarios loaded (before the filters, so that an expectations file can be
/// checked against all of them) and the trials selected from them.
pub(super) struct Selected {
    pub spec: crate::spec::Spec,
    pub suite: Suite,
    pub trials: Vec<(usize, usize)>,
}

impl SelectArgs {
    /// Whether a scenario passes the `--id`, `--clause` and `--topic` filters.
    fn selects(&self, scenario: &Scenario) -> bool {
        self.id.as_deref().is_none_or(|t| scenario.id.contains(t))
            && self
                .clause
                .as_deref()
                .is_none_or(|c| scenario.clauses.iter().any(|x| x == c))
            && self.topic.as_deref().is_none_or(|t| scenario.topic == t)
    }

    /// Whether a tournament scenario passes the filters; they have no runs, so `--rules`
    /// leaves them out.
    pub(super) fn selects_tournament(
        &self,
        t: &crate::scenario::tournament::TournamentScenario,
    ) -> bool {
        self.rules.is_none()
            && self.id.as_deref().is_none_or(|x| t.id.contains(x))
            && self
                .clause
                .as_deref()
                .is_none_or(|c| t.clauses.iter().any(|x| x == c))
            && self.topic.as_deref().is_none_or(|x| t.topic == x)
    }

    fn is_filtered(&self) -> bool {
        self.rules.is_some()
            || self.id.is_some()
            || self.clause.is_some()
            || self.topic.is_some()
            || !self.paths.is_empty()
    }

    /// Loads the spec and the scenarios and applies the filters, refusing unknown clause
    /// and ruleset names (a typo must not select nothing and pass).
    pub(super) fn load(&self, root: &Project) -> Result<Selected, String> {
        let (spec, suite) = load_spec_and_suite(root, &self.paths)?;
        if let Some(c) = self.clause.as_deref().filter(|c| spec.clause(c).is_none()) {
            return Err(format!(
                "unknown clause `{c}` (goconform coverage lists them)"
            ));
        }
        let filter = self.rules.as_deref();
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
        let trials = select(&suite, |s, run| self.selects(s) && run_matches(run, filter));
        if self.is_filtered()
            && trials.is_empty()
            && !suite.tournament.iter().any(|t| self.selects_tournament(t))
        {
            // A typo must not select nothing and pass.
            let topics = suite.topics();
            return Err(match self.topic.as_deref() {
                Some(t) if !topics.contains(&t) => {
                    format!("unknown topic `{t}`; topics: {}", topics.join(", "))
                }
                _ if filter.is_some() && suite.scenarios.is_empty() && !suite.tournament.is_empty() => {
                    "the filters select no scenario: tournament scenarios have no runs, so --rules leaves them out".to_string()
                }
                _ => "the filters select no scenario (--id matches part of an id; `goconform explain CLAUSE` lists a clause's scenarios)".to_string(),
            });
        }
        Ok(Selected {
            spec,
            suite,
            trials,
        })
    }

    pub(super) fn options_json(&self, root: &Project) -> serde_json::Value {
        serde_json::json!({
            "paths": self.paths.iter().map(|p| relative(root, p)).collect::<Vec<_>>(),
            "rules": self.rules,
            "id": self.id,
            "clause": self.clause,
            "topic": self.topic,
        })
    }
}

/// The arguments of `goconform check`.
#[derive(Args)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// The implementation to check (see `goconform engines`).
    #[arg(long, value_name = "SPEC", default_value = "reference")]
    engine: String,
    #[command(flatten)]
    engine_options: engines::EngineOptions,
    /// The engine's expectations file: trials it is known to fail, each with a reason.
    #[arg(long, value_name = "FILE")]
    expectations: Option<PathBuf>,
    /// Write an expectations file listing every trial that failed in this run.
    #[arg(long, value_name = "FILE")]
    write_expectations: Option<PathBuf>,
    /// How verdicts are compared: strict also compares the reasons of illegal moves; auto
    /// is strict for engines that report reasons.
    #[arg(long, value_enum, default_value_t = TierChoice::Auto)]
    tier: TierChoice,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// The report on standard output: text for people, or JSON lines (a header, one line
    /// per trial, a footer).
    #[arg(long, value_enum, default_value_t = ReportFormat::Text)]
    format: ReportFormat,
    /// Also write a JUnit XML report to this file.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
    /// Print the per-clause matrix: passed over applicable trials, by ruleset.
    #[arg(long)]
    matrix: bool,
    /// List every trial that did not pass, expected failures and trials that did not apply
    /// included (by default only what fails the run).
    #[arg(long, short = 'v')]
    verbose: bool,
}

/// How `check` reports.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum ReportFormat {
    Text,
    Jsonl,
}

/// `--tier`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum TierChoice {
    Auto,
    Basic,
    Strict,
}

impl CheckArgs {
    /// The options as the JSON-lines header records them.
    fn options_json(&self, root: &Project) -> serde_json::Value {
        let mut options = self.select.options_json(root);
        options["engine"] = serde_json::json!(self.engine);
        options["tier"] = serde_json::json!(match self.tier {
            TierChoice::Auto => "auto",
            TierChoice::Basic => "basic",
            TierChoice::Strict => "strict",
        });
        options["expectations"] =
            serde_json::json!(self.expectations.as_ref().map(|p| relative(root, p)));
        options
    }

    /// The options a reproduction command repeats besides the file and the run.
    fn reproduce_options(&self) -> String {
        let mut out = String::new();
        if self.engine != "reference" {
            out.push_str(&format!(" --engine {}", shell_word(&self.engine)));
        }
        if let Some(timeout) = self.engine_options.timeout {
            out.push_str(&format!(" --engine-timeout {}", timeout.as_secs_f64()));
        }
        match self.tier {
            TierChoice::Auto => {}
            TierChoice::Basic => out.push_str(" --tier basic"),
            TierChoice::Strict => out.push_str(" --tier strict"),
        }
        out
    }
}

/// A word as a POSIX shell reads it back: quoted when it holds anything but plain
/// characters (an engine spec such as `jsonl:goconform serve` has spaces).
fn shell_word(word: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_.,:/=+@%".contains(c);
    if !word.is_empty() && word.chars().all(plain) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

pub(super) fn check(root: &Project, args: &CheckArgs) -> CommandResult {
    let Selected {
        spec,
        suite,
        trials: selection,
    } = args.select.load(root)?;
    let factory = engines::factory(&args.engine, &args.engine_options)?;
    let expectations = match &args.expectations {
        None => None,
        Some(path) => Some(load_expectations(path, &suite)?),
    };
    let harness = Harness {
        expectations: expectations.as_ref(),
        tier: match args.tier {
            TierChoice::Auto => None,
            TierChoice::Basic => Some(Tier::Basic),
            TierChoice::Strict => Some(Tier::Strict),
        },
        jobs: args.jobs,
        progress: args.format == ReportFormat::Text && progress_wanted(),
    };
    let started = std::time::Instant::now();
    // The tournament scenarios need nothing of the board trials, so they run beside them (on
    // rayon's pool, as the board trials do); the matrix is built as soon as the board trials
    // are done.
    let (report, tournament) = rayon::join(
        || {
            let report = harness.run(&suite, &selection, factory.as_ref())?;
            let matrix = matrix(&suite, &spec, &report);
            Ok::<_, HarnessError>((report, matrix))
        },
        || {
            super::tournament::run_selected(
                &suite,
                |t| args.select.selects_tournament(t),
                args.engine == "reference",
            )
        },
    );
    let (report, matrix) = report.map_err(|e| e.to_string())?;
    let mut tally = report.tally();
    tournament.add_to(&mut tally);
    // A run in which no trial applies checked nothing, which must not pass as a success.
    let nothing_applied = tally.applicable() == 0;
    let code = if nothing_applied {
        ExitCode::from(2)
    } else if tally.failing() == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    };
    let say_nothing_applied = || {
        if nothing_applied {
            eprintln!(
                "goconform: no trial of this selection applies to the engine `{}` ({} not applicable): nothing was checked",
                args.engine, tally.not_applicable
            );
        }
    };
    if let Some(path) = &args.junit {
        let options = crate::conformance::junit::JunitOptions {
            root_name: "goconform",
            base: match root {
                Project::Dir(dir) => Some(dir.as_path()),
                Project::Embedded => None,
            },
            wall_time: Some(started.elapsed()),
        };
        let xml = junit(
            &report,
            &suite,
            &tournament.trials(&suite.tournament),
            &options,
        )
        .map_err(|e| e.to_string())?;
        crate::files::write_whole(path, xml.as_bytes())
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    if let Some(path) = &args.write_expectations {
        write_expectations(
            path,
            &suite,
            &report,
            expectations.as_ref(),
            args.select.is_filtered(),
        )?;
        if args.select.is_filtered() {
            eprintln!(
                "goconform: the entries of {} for trials outside this selection were kept as they were",
                path.display()
            );
        }
    }
    if args.format == ReportFormat::Jsonl {
        let mut out = std::io::stdout().lock();
        // A closed pipe ends the output quietly (the binary restores the default SIGPIPE
        // action); any other write error (a full disk) fails the command, since a report
        // that was not written must not pass as written.
        let written = write_jsonl(
            &mut out,
            &suite,
            &report,
            &tournament.trials(&suite.tournament),
            &tally,
            &matrix,
            &args.options_json(root),
            &|p| relative(root, p),
        )
        .and_then(|()| std::io::Write::flush(&mut out));
        drop(out);
        if let Err(e) = written {
            super::output::fail(&e);
        }
        // Failing tournament scenarios are also told on standard error, as board trials are
        // by the text report, for a person watching a run whose output goes to a file.
        tournament.report_failures(root, &suite.tournament);
        say_nothing_applied();
        super::left_to_exit((spec, suite, report, matrix, tournament));
        return Ok(code);
    }
    print_text(root, args, &suite, &report, &matrix, &tally, &tournament);
    say_nothing_applied();
    super::left_to_exit((spec, suite, report, matrix, tournament));
    Ok(code)
}

/// Reads an engine's expectations file and checks that every entry names a trial of the
/// scenarios loaded (before the filters), so that a list cannot keep entries for scenarios
/// that are gone.
pub(super) fn load_expectations(path: &Path, suite: &Suite) -> Result<Expectations, String> {
    let text = super::read_input(path)?;
    let located = |errors: Vec<crate::spec::location::Located>| {
        let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
        format!("invalid expectations file:\n{}", lines.join("\n"))
    };
    let expectations = Expectations::parse(path, &text, INTERPRETATION_VERSION).map_err(located)?;
    let unknown = expectations.unknown_in(suite);
    if unknown.is_empty() {
        Ok(expectations)
    } else {
        Err(located(unknown))
    }
}

/// Writes an expectations file listing every failing trial of the run: the reason kept from
/// the old file where the trial was already listed, else the first thing that went wrong.
///
/// A run narrowed by `--id`, `--rules`, `--topic`, `--clause` or paths knows nothing of the
/// trials it left out, so the entries the file at `path` already has for those are kept as
/// they are: only the selected trials' entries are replaced. (An entry for every run of a
/// scenario, some of whose runs were selected, is kept for the others, one entry per run.)
fn write_expectations(
    path: &Path,
    suite: &Suite,
    report: &RunReport,
    old: Option<&Expectations>,
    filtered: bool,
) -> Result<(), String> {
    let existing = if filtered && path.exists() {
        let text = super::read_input(path)?;
        let parsed = Expectations::parse(path, &text, INTERPRETATION_VERSION).map_err(|errors| {
            let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
            format!(
                "{} would lose the entries of the trials outside this selection, but it cannot be read back:\n{}\nnothing was written",
                path.display(),
                lines.join("\n")
            )
        })?;
        Some(parsed)
    } else {
        None
    };
    let old = old.or(existing.as_ref());
    let selected: std::collections::HashSet<(usize, usize)> =
        report.trials.iter().map(|t| (t.scenario, t.run)).collect();
    // Each entry with where it goes: the trial's place in the suite, entries naming a
    // scenario this run did not load last, in their old order.
    let mut entries: Vec<((usize, usize), ExpectedFailure)> = report
        .trials
        .iter()
        .filter_map(|t| {
            let scenario = &suite.scenarios[t.scenario];
            let run = &scenario.runs[t.run].label;
            let listed = old.and_then(|o| o.lookup(&scenario.id, run));
            let reason = match &t.outcome {
                Outcome::ExpectedFailure { listed, .. } => listed.clone(),
                o if o.is_failure() => o.summary(),
                _ => return None,
            };
            Some((
                (t.scenario, t.run),
                ExpectedFailure {
                    scenario: scenario.id.clone(),
                    run: Some(run.clone()),
                    reason,
                    link: listed.and_then(|l| l.link.clone()),
                    line: 0,
                },
            ))
        })
        .collect();
    for entry in existing.iter().flat_map(|e| &e.entries) {
        let Some(index) = suite.scenarios.iter().position(|s| s.id == entry.scenario) else {
            entries.push(((usize::MAX, 0), entry.clone()));
            continue;
        };
        let runs = &suite.scenarios[index].runs;
        let left_out: Vec<usize> = (0..runs.len())
            .filter(|r| !selected.contains(&(index, *r)))
            .filter(|r| {
                entry
                    .run
                    .as_ref()
                    .is_none_or(|label| *label == runs[*r].label)
            })
            .collect();
        if entry.run.is_none() && left_out.len() == runs.len() {
            entries.push(((index, 0), entry.clone()));
            continue;
        }
        for r in left_out {
            entries.push((
                (index, r),
                ExpectedFailure {
                    run: Some(runs[r].label.clone()),
                    ..entry.clone()
                },
            ));
        }
    }
    entries.sort_by_key(|(place, _)| *place);
    let entries: Vec<ExpectedFailure> = entries.into_iter().map(|(_, e)| e).collect();
    let text = Expectations::render(&report.engine.name, INTERPRETATION_VERSION, &entries);
    crate::files::write_whole(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    eprintln!(
        "goconform: wrote {} expected failures to {}",
        entries.len(),
        path.display()
    );
    Ok(())
}

fn print_text(
    root: &Project,
    args: &CheckArgs,
    suite: &Suite,
    report: &RunReport,
    matrix: &Matrix,
    tally: &Tally,
    tournament: &super::tournament::TournamentRun,
) {
    let mut scenarios: Vec<usize> = report.trials.iter().map(|t| t.scenario).collect();
    scenarios.dedup();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    outln!(
        "goconform check: {}, {}, engine {}, {} tier ({})",
        plural(scenarios.len() + tournament.len(), "scenario"),
        plural(tally.total(), "trial"),
        report.engine,
        report.tier.word(),
        match report.tier {
            Tier::Strict => "a refused move must also be refused for the right reason",
            Tier::Basic => "only legal or not is compared, not the reason for a refusal",
        }
    );
    for trial in &report.trials {
        if trial.outcome.fails_run() || (args.verbose && trial.outcome != Outcome::Pass) {
            print_trial(root, args, suite, trial);
        }
    }
    tournament.print(root, &suite.tournament, args.verbose);
    let mut by_ruleset: BTreeMap<&str, Tally> = BTreeMap::new();
    for trial in &report.trials {
        let run = &suite.scenarios[trial.scenario].runs[trial.run];
        by_ruleset
            .entry(run.label.as_str())
            .or_default()
            .add(&trial.outcome);
    }
    outln!();
    outln!("by run:");
    for (label, t) in &by_ruleset {
        outln!("  {label:<28} {t}");
    }
    if tournament.len() > 0 {
        outln!("  {:<28} {}", "tournament rules", tournament.tally());
    }
    outln!();
    outln!("by level (passed/applicable):");
    for line in matrix.levels_text().lines() {
        outln!("  {line}");
    }
    outln!("  (a trial counts once under each level among the clauses its scenario cites, so the rows add up to more than the trials)");
    if args.matrix {
        outln!();
        outln!("by clause (passed/applicable):");
        for line in matrix.clauses_text().lines() {
            outln!("  {line}");
        }
    }
    let projected = projection::tally(&report.trials);
    if !projected.is_empty() {
        outln!();
        outln!("projected (trials run under the nearest rules the engine has, checks whose answer would change left out):");
        for (axes, n) in &projected {
            outln!("  {n:>4}  {axes}");
        }
    }
    outln!();
    outln!("{tally}");
}

fn print_trial(root: &Project, args: &CheckArgs, suite: &Suite, trial: &Trial) {
    let s = &suite.scenarios[trial.scenario];
    let label = &s.runs[trial.run].label;
    let file = relative(root, &s.path);
    outln!();
    outln!(
        "{} {} under {} ({})",
        trial.outcome.word().to_uppercase(),
        s.id,
        label,
        file
    );
    if let Some(projection) = &trial.projection {
        outln!("  {projection}");
    }
    print_outcome(s, &file, &trial.outcome);
    outln!(
        "  reproduce: goconform check {file} --rules {label}{}",
        args.reproduce_options()
    );
}

/// `file` is the scenario's path as the report shows it (relative to the project).
fn print_outcome(s: &Scenario, file: &str, outcome: &Outcome) {
    match outcome {
        Outcome::Fail(mismatches) => {
            for m in mismatches {
                print_mismatch(s, file, m);
            }
        }
        Outcome::ExpectedFailure { listed, actual } => {
            outln!("  listed as an expected failure: {listed}");
            print_outcome(s, file, actual);
        }
        Outcome::UnexpectedPass { listed } => {
            outln!("  listed as an expected failure ({listed}), but it passed: remove the entry from the expectations file");
        }
        Outcome::NotApplicable(why)
        | Outcome::Error(why)
        | Outcome::Timeout(why)
        | Outcome::HarnessError(why) => outln!("  {why}"),
        Outcome::Pass => {}
    }
}

fn print_mismatch(s: &Scenario, file: &str, m: &Mismatch) {
    let at = if m.after == 0 {
        "at the start".to_string()
    } else {
        format!("after move {} ({})", m.after, s.events[m.after - 1])
    };
    outln!("  {at}, expectation at {file}:{}, key `{}`:", m.line, m.key);
    if m.expected.contains('\n') || m.actual.contains('\n') {
        let expected: Vec<&str> = m.expected.lines().collect();
        let actual: Vec<&str> = m.actual.lines().collect();
        let width = expected
            .iter()
            .map(|l| l.len())
            .max()
            .unwrap_or(0)
            .max("expected".len());
        outln!("    {:<width$}   actual", "expected");
        for i in 0..expected.len().max(actual.len()) {
            let e = expected.get(i).copied().unwrap_or("");
            let a = actual.get(i).copied().unwrap_or("");
            let mark = if e != a { "<>" } else { "  " };
            outln!("    {e:<width$} {mark} {a}");
        }
        if let Some(p) = m.first_difference {
            outln!("    first difference at {p}");
        }
    } else {
        outln!("    expected: {}", m.expected);
        outln!("    actual:   {}", m.actual);
    }
}

/// How `show` prints a scenario.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum ShowFormat {
    /// The position after every event, with the verdicts.
    Text,
    /// The scenario as an SGF record, its expectations in the move comments.
    Sgf,
    /// A diagram of the set-up and of each checked event, as SVG files (`--out DIR`).
    Svg,
}

/// `goconform show`: a scenario, or an SGF record (its `RU` ruleset or `--rules`; `--game`
/// picks a game of a collection), move by move.
pub(super) fn show(
    root: &Project,
    path: &Path,
    filter: Option<&str>,
    format: ShowFormat,
    game: Option<usize>,
    out: Option<&Path>,
) -> CommandResult {
    if out.is_some() != (format == ShowFormat::Svg) {
        return Err(match out {
            Some(_) => "--out is for --format svg".to_string(),
            None => "--format svg writes one file per diagram: name the folder with --out DIR"
                .to_string(),
        });
    }
    let spec = load_spec(root)?;
    let loaded;
    // For a collection of several games: which one is shown, and how many there are.
    let mut of_games = None;
    // An SGF record's game, for `--format sgf`: which game, the record, its first ruleset.
    let mut as_read = None;
    let s = if crate::sgf::is_sgf(path) {
        let index = super::records::game_index(game)?;
        let (record, count) =
            super::records::load_record_counted(path, index, &Default::default())?;
        if count > 1 {
            of_games = Some(format!(
                "game {} of the {count} games in {} (--game N shows another)",
                index + 1,
                path.display()
            ));
        }
        let wanted: Vec<String> = filter.iter().map(|f| f.to_string()).collect();
        let rulesets = crate::sgf::convert::rulesets_for(&record, &wanted)?;
        loaded = crate::sgf::convert::to_scenario(&record, &rulesets, &spec)?;
        if format == ShowFormat::Sgf {
            as_read = Some((index, record, rulesets));
        }
        &loaded
    } else {
        if game.is_some() {
            return Err("--game is for SGF records".to_string());
        }
        let suite = match scenario_by_id(root, &spec, path)? {
            Some(suite) => suite,
            None => load_suite(root, &[path.to_path_buf()], &spec)?,
        };
        let Some(s) = suite.scenarios.into_iter().next() else {
            if let Some(t) = suite.tournament.first() {
                return Ok(super::tournament::show(t));
            }
            return Err(format!("{} holds no scenario", path.display()));
        };
        loaded = s;
        &loaded
    };
    if let (ShowFormat::Svg, Some(out)) = (format, out) {
        if let Some(note) = &of_games {
            eprintln!("goconform: {note}");
        }
        return super::book::show_svg(s, filter, out);
    }
    if let (ShowFormat::Sgf, Some((index, record, rulesets))) = (format, &as_read) {
        // A record is written back as the game it is (every node and property of its main
        // line), each move a rule refuses kept and named in its comment.
        if let Some(note) = &of_games {
            eprintln!("goconform: {note}");
        }
        let text = crate::sgf::write::record_as_is(path, *index, record, rulesets, &spec)?;
        out!("{text}");
        return Ok(ExitCode::SUCCESS);
    }
    if format == ShowFormat::Sgf {
        let mut chosen = s.clone();
        if let Some(name) = filter {
            chosen.runs.retain(|r| r.label == name);
            if chosen.runs.is_empty() {
                return Err(format!("scenario {} has no run named {name}", s.id));
            }
        }
        // The record alone on standard output, so it can be redirected to a file.
        if let Some(note) = &of_games {
            eprintln!("goconform: {note}");
        }
        outln!("{}", crate::sgf::write::write_scenario(&chosen));
        return Ok(ExitCode::SUCCESS);
    }
    outln!("{}: {}", s.id, s.title);
    if let Some(note) = &of_games {
        outln!("{note}");
    }
    if !s.clauses.is_empty() {
        outln!("clauses: {}", s.clauses.join(", "));
    }
    let runs: Vec<&crate::scenario::Run> =
        s.runs.iter().filter(|r| run_matches(r, filter)).collect();
    if runs.is_empty() {
        return Err(format!(
            "scenario {} has no run named {}",
            s.id,
            filter.unwrap_or("")
        ));
    }
    // Runs that go through the same verdicts and positions are printed once, under the first
    // of them, with the others named: most scenarios play alike under most rulesets, and
    // printing each run in full made `show basic-ko` 860 lines long.
    let mut groups: Vec<(Vec<&crate::scenario::Run>, RunText)> = Vec::new();
    for run in runs {
        let text = run_text(s, run).map_err(|e| format!("{}: {e}", s.path.display()))?;
        match groups.iter_mut().find(|(_, t)| *t == text) {
            Some((members, _)) => members.push(run),
            None => groups.push((vec![run], text)),
        }
    }
    for (members, text) in &groups {
        let run = members[0];
        outln!();
        let overrides: Vec<String> = run
            .overrides
            .iter()
            .map(|(a, v)| format!("{a}={v}"))
            .collect();
        let mut heading = if overrides.is_empty() {
            format!("== under {}", run.label)
        } else {
            format!(
                "== under {} ({} with {})",
                run.label,
                run.ruleset,
                overrides.join(", ")
            )
        };
        if members.len() > 1 {
            let others: Vec<&str> = members[1..].iter().map(|r| r.label.as_str()).collect();
            heading.push_str(&format!(
                "; the same verdicts and positions under {}",
                others.join(", ")
            ));
        }
        outln!("{heading} ==");
        for line in &text.lines {
            outln!("{line}");
        }
        if let Some(result) = &text.result {
            outln!();
            outln!(
                "result: {result} (goconform score {} --rules {} itemises it)",
                path.display(),
                run.label
            );
        }
    }
    if groups.len() < s.runs.len() && filter.is_none() {
        outln!();
        outln!(
            "({} runs: those that play alike are shown once; --rules NAME shows one run)",
            s.runs.len()
        );
    }
    Ok(ExitCode::SUCCESS)
}

/// What `show` prints for one run: the lines after its heading, and the result if the game
/// ended. Two runs with equal texts went through the same verdicts and positions.
#[derive(PartialEq, Eq)]
struct RunText {
    lines: Vec<String>,
    result: Option<String>,
}

/// Plays a run through the referee and writes down every event's verdict and position.
fn run_text(s: &Scenario, run: &crate::scenario::Run) -> Result<RunText, String> {
    let mut lines = Vec::new();
    let mut referee = Refereed::new(run.rules, &s.setup).map_err(|e| e.to_string())?;
    lines.push(format!(
        "start, {} to move:",
        referee.game().to_move().name()
    ));
    board_text(referee.game(), &mut lines);
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
        lines.push(String::new());
        lines.push(format!("{}. {event}: {verdict}{extra}", k + 1));
        lines.push(format!(
            "   prisoners B {} W {}, {} to move, {}",
            game.prisoners(crate::board::Color::Black),
            game.prisoners(crate::board::Color::White),
            game.to_move().name(),
            game.phase()
        ));
        if let Some(report) = referee.report() {
            for sentence in &report.explanation {
                lines.push(format!("   {sentence}"));
            }
            lines.push(format!("   grounds: {}", report.clauses.join(", ")));
        }
        if referee.warnings() != [0, 0] {
            let [b, w] = referee.warnings();
            lines.push(format!("   warnings B {b} W {w}"));
        }
        if !matches!(verdict, Verdict::Illegal(_)) {
            board_text(game, &mut lines);
        }
    }
    let game = referee.game();
    let result = (game.phase() == crate::game::Phase::Ended).then(|| game.result());
    Ok(RunText { lines, result })
}

/// The scenario named by `name` when it is a scenario id rather than a path (`show basic-ko`,
/// as `explain` and reports name scenarios): a suite of that one scenario. `None` when `name`
/// is a file or folder on disk or could be a path; an error naming close ids when it is
/// neither a path nor an id.
fn scenario_by_id(
    root: &Project,
    spec: &crate::spec::Spec,
    name: &Path,
) -> Result<Option<Suite>, String> {
    let Some(id) = name.to_str().filter(|n| crate::spec::is_slug(n)) else {
        return Ok(None);
    };
    if name.exists() {
        return Ok(None);
    }
    let mut suite = load_suite(root, &[], spec)?;
    suite.scenarios.retain(|s| s.id == id);
    suite.tournament.retain(|t| t.id == id);
    if !suite.scenarios.is_empty() || !suite.tournament.is_empty() {
        return Ok(Some(suite));
    }
    let all = load_suite(root, &[], spec)?;
    let close: Vec<&str> = all
        .scenarios
        .iter()
        .map(|s| s.id.as_str())
        .chain(all.tournament.iter().map(|t| t.id.as_str()))
        .filter(|s| s.contains(id) || id.contains(s))
        .take(8)
        .collect();
    Err(if close.is_empty() {
        format!("`{id}` is neither a file nor a scenario id (`goconform explain CLAUSE` lists the scenarios of a clause)")
    } else {
        format!(
            "`{id}` is neither a file nor a scenario id; did you mean: {}",
            close.join(", ")
        )
    })
}

/// The board of `game` with row numbers and column letters, as lines.
fn board_text(game: &Game, lines: &mut Vec<String>) {
    let board = game.board();
    for (i, line) in board.diagram().lines().enumerate() {
        lines.push(format!("   {:>2} {line}", usize::from(board.height()) - i));
    }
    lines.push(format!("      {}", super::column_letters(board.width())));
}
