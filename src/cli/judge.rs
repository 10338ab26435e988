//! `goconform judge`: replays SGF game records under our rulesets and reports the first move
//! that breaks a rule, the count and whether the recorded result agrees with it.
//!
//! Files are judged in parallel (rayon) and reported in the order given (folders sorted), with
//! a progress bar on a terminal. A record that cannot be read is one located error and the
//! run goes on. Exit code: 2 if any record could not be read or judged (no ruleset for it), else
//! 1 if any move of any record breaks a rule, else 0.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::{load_spec, CommandResult, Project};
use crate::board::Move;
use crate::rules::Rules;
use crate::sgf::judge::{judge, Judgement, ResultCheck};
use crate::sgf::{self, KomiUnits, ReadOptions, Record};
use crate::spec::location::Located;
use crate::spec::Spec;

/// The arguments of `goconform judge`.
#[derive(Args)]
pub(super) struct JudgeArgs {
    /// SGF files, or folders searched for `.sgf` files.
    #[arg(required = true, value_name = "FILE|DIR")]
    paths: Vec<PathBuf>,
    /// Judge under these rulesets (repeatable, or comma-separated) instead of the one each
    /// record's RU names.
    #[arg(long, value_name = "NAME", value_delimiter = ',', conflicts_with_all = ["all_rulesets", "as_recorded"])]
    rules: Vec<String>,
    /// Judge every record under every ruleset.
    #[arg(long, conflicts_with = "as_recorded")]
    all_rulesets: bool,
    /// Judge each record under the ruleset its RU names (the default); a record whose RU
    /// names none of ours is refused by name.
    #[arg(long)]
    as_recorded: bool,
    /// With --as-recorded: judge records whose RU is missing or names none of our rulesets
    /// under this ruleset instead of refusing them (`-v` notes it).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["rules", "all_rulesets"])]
    fallback_rules: Option<String>,
    /// How KM is read: auto (points, except a whole number of 100 or more: hundredths, as the
    /// Fox server writes 750 for 7.5), points, or hundredths.
    #[arg(long, value_name = "UNITS", default_value = "auto", value_parser = parse_units)]
    komi_units: KomiUnits,
    /// The output: text (what needs attention, then a summary), jsonl (one object per record
    /// and ruleset, then the summary) or csv (one row per record and ruleset).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// Worker threads (default: all cores).
    #[arg(short = 'j', long, value_name = "N")]
    jobs: Option<usize>,
    /// Text: every record under every ruleset, not only what needs attention.
    #[arg(short, long)]
    verbose: bool,
}

fn parse_units(word: &str) -> Result<KomiUnits, String> {
    KomiUnits::parse(word).ok_or_else(|| "expected auto, points or hundredths".to_string())
}

/// How `judge` prints.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    Text,
    Jsonl,
    Csv,
}

/// What became of one game of a file.
enum Outcome {
    /// The file or the game could not be read.
    Unreadable(Located),
    /// Read, but there is no ruleset to judge it under.
    NoRuleset { name: String, message: String },
    Judged {
        record: Box<Record>,
        judgements: Vec<Judgement>,
    },
}

pub(super) fn judge_command(root: &Project, args: &JudgeArgs) -> CommandResult {
    let spec = load_spec(root)?;
    for name in args.rules.iter().chain(&args.fallback_rules) {
        spec.rules(name)?;
    }
    let files = sgf_files(&args.paths)?;
    let rulesets: Vec<(String, Rules)> = if args.all_rulesets {
        spec.ruleset_names()
            .into_iter()
            .map(|n| Ok((n.to_string(), spec.rules(n)?)))
            .collect::<Result<_, String>>()?
    } else {
        args.rules
            .iter()
            .map(|n| Ok((n.clone(), spec.rules(n)?)))
            .collect::<Result<_, String>>()?
    };
    let options = ReadOptions {
        komi_units: args.komi_units,
    };
    let started = Instant::now();
    let bar = if crate::conformance::harness::progress_wanted() && files.len() > 1 {
        let bar =
            ProgressBar::with_draw_target(Some(files.len() as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} records {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    let judge_file = |path: &PathBuf| -> Vec<Outcome> {
        let outcomes = judge_one_file(
            path,
            &options,
            &rulesets,
            args.fallback_rules.as_deref(),
            &spec,
        );
        bar.inc(1);
        outcomes
    };
    let jobs = args.jobs.unwrap_or(0);
    let outcomes: Vec<Vec<Outcome>> =
        match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
            Ok(pool) => pool.install(|| files.par_iter().map(judge_file).collect()),
            Err(_) => files.iter().map(judge_file).collect(),
        };
    bar.finish_and_clear();
    let elapsed = started.elapsed().as_secs_f64();
    let outcomes: Vec<Outcome> = outcomes.into_iter().flatten().collect();
    let summary = Summary::of(&outcomes, files.len(), elapsed);

    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let written = match args.format {
        Format::Text => print_text(
            &mut out,
            &outcomes,
            &summary,
            args.verbose || files.len() == 1,
        ),
        Format::Jsonl => print_jsonl(&mut out, &outcomes, &summary),
        Format::Csv => print_csv(&mut out, &outcomes),
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| format!("cannot write the report: {e}"))?;
    Ok(if summary.unreadable + summary.no_ruleset > 0 {
        ExitCode::from(2)
    } else if summary.records_with_violation > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// Every SGF file under the given paths: files as given, folders searched recursively
/// (sorted). A symbolic link to an `.sgf` file is followed; a link to a folder is not (it may
/// close a loop), and standard error says so. A subfolder, link or entry that cannot be read is
/// kept in the list under its own name, so it is reported unreadable like a record and the run
/// goes on (exit status 2); only a top folder that cannot be read stops the run.
fn sgf_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            let mut found = Vec::new();
            let entries = std::fs::read_dir(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            collect_entries(entries, path, &mut found);
            found.sort();
            if found.is_empty() {
                return Err(format!("{} holds no .sgf file", path.display()));
            }
            files.extend(found);
        } else if path.exists() {
            files.push(path.clone());
        } else {
            return Err(format!("cannot read {}: no such file", path.display()));
        }
    }
    Ok(files)
}

/// The `.sgf` files under the folder `dir` whose entries are `entries`, into `found`; what
/// cannot be read goes in too, under its own name (see [`sgf_files`]).
fn collect_entries(entries: std::fs::ReadDir, dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in entries {
        let entry = match entry {
            Ok(entry) => entry,
            Err(_) => {
                // The folder could not be listed to the end: reading it again as a record
                // reports the error under its name.
                found.push(dir.to_path_buf());
                return;
            }
        };
        let path = entry.path();
        let kind = match entry.file_type() {
            Ok(kind) => kind,
            Err(_) => {
                found.push(path);
                continue;
            }
        };
        if kind.is_dir() {
            match std::fs::read_dir(&path) {
                Ok(inner) => collect_entries(inner, &path, found),
                Err(_) => found.push(path),
            }
        } else if kind.is_symlink() {
            match std::fs::metadata(&path) {
                Ok(target) if target.is_dir() => eprintln!(
                    "note: {} is a link to a folder, not followed (a link may close a loop); name the folder to judge it",
                    path.display()
                ),
                // A link to a record, or a broken link named like one (reported unreadable).
                _ if sgf::is_sgf(&path) => found.push(path),
                Ok(target) if target.is_file() && std::fs::canonicalize(&path).is_ok_and(|t| sgf::is_sgf(&t)) => {
                    found.push(path)
                }
                _ => {}
            }
        } else if kind.is_file() && sgf::is_sgf(&path) {
            found.push(path);
        }
    }
}

fn judge_one_file(
    path: &Path,
    options: &ReadOptions,
    rulesets: &[(String, Rules)],
    fallback: Option<&str>,
    spec: &Spec,
) -> Vec<Outcome> {
    let games = match sgf::read_file(path, options) {
        Ok(games) => games,
        Err(e) => return vec![Outcome::Unreadable(e)],
    };
    games
        .into_iter()
        .map(|game| match game {
            Err(e) => Outcome::Unreadable(e),
            Ok(record) => {
                let fallback: Vec<String> = match (fallback, record.ruleset()) {
                    (Some(name), None) => vec![name.to_string()],
                    _ => Vec::new(),
                };
                let chosen: Vec<(String, Rules)> = if rulesets.is_empty() {
                    match sgf::convert::rulesets_for(&record, &fallback) {
                        Ok(names) => match names
                            .iter()
                            .map(|n| spec.rules(n).map(|r| (n.clone(), r)))
                            .collect()
                        {
                            Ok(chosen) => chosen,
                            Err(message) => {
                                return Outcome::NoRuleset {
                                    name: record.name(),
                                    message,
                                }
                            }
                        },
                        Err(message) => {
                            return Outcome::NoRuleset {
                                name: record.name(),
                                message,
                            }
                        }
                    }
                } else {
                    rulesets.to_vec()
                };
                let judgements = chosen
                    .into_iter()
                    .map(|(name, rules)| judge(&record, &name, rules, spec))
                    .collect();
                Outcome::Judged {
                    record: Box::new(record),
                    judgements,
                }
            }
        })
        .collect()
}

/// Tallies over a run, per ruleset and in all.
#[derive(Default, Serialize)]
struct Summary {
    files: usize,
    games: usize,
    unreadable: usize,
    no_ruleset: usize,
    moves: usize,
    records_with_violation: usize,
    rulesets: BTreeMap<String, RulesetTally>,
    seconds: f64,
}

#[derive(Default, Serialize)]
struct RulesetTally {
    judged: usize,
    legal: usize,
    illegal: usize,
    reasons: BTreeMap<String, usize>,
    agrees: usize,
    consistent: usize,
    disagrees: usize,
    not_checkable: usize,
}

impl Summary {
    fn of(outcomes: &[Outcome], files: usize, seconds: f64) -> Summary {
        let mut s = Summary {
            files,
            seconds,
            ..Summary::default()
        };
        for outcome in outcomes {
            s.games += 1;
            match outcome {
                Outcome::Unreadable(_) => s.unreadable += 1,
                Outcome::NoRuleset { .. } => s.no_ruleset += 1,
                Outcome::Judged { record, judgements } => {
                    s.moves += record.events.len();
                    if judgements.iter().any(|j| j.violation.is_some()) {
                        s.records_with_violation += 1;
                    }
                    for j in judgements {
                        let t = s.rulesets.entry(j.ruleset.clone()).or_default();
                        t.judged += 1;
                        match &j.violation {
                            Some(v) => {
                                t.illegal += 1;
                                *t.reasons.entry(v.reason.to_string()).or_default() += 1;
                            }
                            None => t.legal += 1,
                        }
                        match j.check {
                            ResultCheck::Agrees => t.agrees += 1,
                            ResultCheck::Consistent { .. } => t.consistent += 1,
                            ResultCheck::Disagrees => t.disagrees += 1,
                            ResultCheck::NotCheckable(_) => t.not_checkable += 1,
                        }
                    }
                }
            }
        }
        s
    }
}

/// A move as reports write it: `B Q16`, `W pass`.
fn move_text(color: crate::board::Color, mv: Move) -> String {
    match mv {
        Move::Pass => format!("{} pass", color.letter()),
        Move::Play(p) => format!("{} {p}", color.letter()),
    }
}

fn check_text(j: &Judgement, record: &Record) -> String {
    let recorded = record
        .result
        .as_ref()
        .map_or("none".to_string(), |r| r.to_string());
    let counted = j
        .count
        .as_ref()
        .map(|c| format!(", counted {}", c.result()))
        .unwrap_or_default();
    let detail = match &j.check {
        ResultCheck::Agrees => "agrees".to_string(),
        ResultCheck::Consistent { dead } => {
            let names: Vec<String> = dead.iter().map(|p| p.to_string()).collect();
            format!("consistent with these stones dead: {}", names.join(" "))
        }
        ResultCheck::Disagrees => "disagrees with every choice of dead stones".to_string(),
        ResultCheck::NotCheckable(why) => format!("not checkable: {why}"),
    };
    format!("RE {recorded}{counted}: {detail}")
}

fn print_text(
    out: &mut impl Write,
    outcomes: &[Outcome],
    summary: &Summary,
    every: bool,
) -> std::io::Result<()> {
    for outcome in outcomes {
        match outcome {
            Outcome::Unreadable(e) => writeln!(out, "{e}")?,
            Outcome::NoRuleset { message, .. } => writeln!(out, "{message}")?,
            Outcome::Judged { record, judgements } => {
                let mut notes = Vec::new();
                if record.handicap_from_moves {
                    notes.push(format!(
                        "the {} black moves before White's first are read as the handicap",
                        record.setup.handicap.len()
                    ));
                }
                if record.ruleset().is_none() {
                    notes.push(
                        "RU names none of our rulesets: judged under --fallback-rules".to_string(),
                    );
                }
                if let Some(reading) = record.komi.as_ref().and_then(|k| k.reading) {
                    if let Some(k) = &record.komi {
                        notes.push(format!("KM read as {reading}: komi {}", k.komi));
                    }
                }
                for j in judgements {
                    let attention =
                        j.violation.is_some() || matches!(j.check, ResultCheck::Disagrees);
                    if !every && !attention {
                        continue;
                    }
                    match &j.violation {
                        Some(v) => writeln!(
                            out,
                            "{}:{}:{}: [{}]{} move {} ({}) breaks a rule: {} ({})",
                            record.path.display(),
                            v.position.line,
                            v.position.column,
                            j.ruleset,
                            if record.game > 0 {
                                format!(" game {},", record.game + 1)
                            } else {
                                String::new()
                            },
                            v.move_number,
                            move_text(v.color, v.mv),
                            v.reason,
                            if v.clauses.is_empty() {
                                "no registered clause of this ruleset".to_string()
                            } else {
                                v.clauses.join(", ")
                            }
                        )?,
                        None => writeln!(
                            out,
                            "{}: [{}] {} moves, all legal",
                            record.name(),
                            j.ruleset,
                            record.events.len()
                        )?,
                    }
                    if !j.resumptions.is_empty() {
                        let moves: Vec<String> =
                            j.resumptions.iter().map(|n| n.to_string()).collect();
                        writeln!(
                            out,
                            "    play resumed after two passes before move {} (taken as a dispute)",
                            moves.join(", ")
                        )?;
                    }
                    writeln!(out, "    {}", check_text(j, record))?;
                    if every {
                        for note in &notes {
                            writeln!(out, "    note: {note}")?;
                        }
                    }
                }
            }
        }
    }
    if !outcomes.is_empty() {
        writeln!(out)?;
    }
    writeln!(
        out,
        "{} files, {} games: {} judged, {} unreadable, {} with no ruleset; {} moves; {} games with a move that breaks a rule",
        summary.files,
        summary.games,
        summary.games - summary.unreadable - summary.no_ruleset,
        summary.unreadable,
        summary.no_ruleset,
        summary.moves,
        summary.records_with_violation
    )?;
    if summary.rulesets.is_empty() {
        return Ok(());
    }
    let width = summary
        .rulesets
        .keys()
        .map(String::len)
        .max()
        .unwrap_or(7)
        .max(7);
    writeln!(
        out,
        "{:width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>10}  {:>9}  {:>13}",
        "ruleset",
        "judged",
        "legal",
        "illegal",
        "agrees",
        "consistent",
        "disagrees",
        "not-checkable"
    )?;
    for (name, t) in &summary.rulesets {
        writeln!(
            out,
            "{name:width$}  {:>7}  {:>7}  {:>7}  {:>7}  {:>10}  {:>9}  {:>13}",
            t.judged, t.legal, t.illegal, t.agrees, t.consistent, t.disagrees, t.not_checkable
        )?;
        if !t.reasons.is_empty() {
            let reasons: Vec<String> = t.reasons.iter().map(|(r, n)| format!("{r} {n}")).collect();
            writeln!(
                out,
                "{:width$}  illegal by reason: {}",
                "",
                reasons.join(", ")
            )?;
        }
    }
    Ok(())
}

/// One line of `--format jsonl`/`csv`: a record judged under one ruleset, or a record that
/// could not be read or judged.
#[derive(Serialize)]
struct Row {
    file: String,
    game: usize,
    ruleset: Option<String>,
    moves: Option<usize>,
    violation_move: Option<usize>,
    violation: Option<String>,
    reason: Option<String>,
    clauses: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    resumptions: Option<String>,
    recorded_result: Option<String>,
    count: Option<String>,
    check: String,
    detail: Option<String>,
}

fn rows(outcomes: &[Outcome]) -> Vec<Row> {
    let mut rows = Vec::new();
    for outcome in outcomes {
        match outcome {
            Outcome::Unreadable(e) => rows.push(Row {
                file: e.file.display().to_string(),
                game: 0,
                ruleset: None,
                moves: None,
                violation_move: None,
                violation: None,
                reason: None,
                clauses: None,
                line: Some(e.line),
                column: Some(e.column),
                resumptions: None,
                recorded_result: None,
                count: None,
                check: "unreadable".to_string(),
                detail: Some(if e.key.is_empty() {
                    e.message.clone()
                } else {
                    format!("{}: {}", e.key, e.message)
                }),
            }),
            Outcome::NoRuleset { name, message } => rows.push(Row {
                file: name.clone(),
                game: 0,
                ruleset: None,
                moves: None,
                violation_move: None,
                violation: None,
                reason: None,
                clauses: None,
                line: None,
                column: None,
                resumptions: None,
                recorded_result: None,
                count: None,
                check: "no-ruleset".to_string(),
                detail: Some(message.clone()),
            }),
            Outcome::Judged { record, judgements } => {
                for j in judgements {
                    let v = j.violation.as_ref();
                    rows.push(Row {
                        file: record.path.display().to_string(),
                        game: record.game + 1,
                        ruleset: Some(j.ruleset.clone()),
                        moves: Some(record.events.len()),
                        violation_move: v.map(|v| v.move_number),
                        violation: v.map(|v| move_text(v.color, v.mv)),
                        reason: v.map(|v| v.reason.to_string()),
                        clauses: v.map(|v| v.clauses.join(" ")),
                        line: v.map(|v| v.position.line),
                        column: v.map(|v| v.position.column),
                        resumptions: (!j.resumptions.is_empty()).then(|| {
                            j.resumptions
                                .iter()
                                .map(|n| n.to_string())
                                .collect::<Vec<_>>()
                                .join(" ")
                        }),
                        recorded_result: record.result.as_ref().map(|r| r.to_string()),
                        count: j.count.as_ref().map(|c| c.result()),
                        check: j.check.word().to_string(),
                        detail: match &j.check {
                            ResultCheck::Consistent { dead } => Some(format!(
                                "dead: {}",
                                dead.iter()
                                    .map(|p| p.to_string())
                                    .collect::<Vec<_>>()
                                    .join(" ")
                            )),
                            ResultCheck::NotCheckable(why) => Some(why.clone()),
                            _ => None,
                        },
                    });
                }
            }
        }
    }
    rows
}

fn print_jsonl(
    out: &mut impl Write,
    outcomes: &[Outcome],
    summary: &Summary,
) -> std::io::Result<()> {
    for row in rows(outcomes) {
        serde_json::to_writer(&mut *out, &row)?;
        writeln!(out)?;
    }
    serde_json::to_writer(&mut *out, &serde_json::json!({ "summary": summary }))?;
    writeln!(out)
}

fn print_csv(out: &mut impl Write, outcomes: &[Outcome]) -> std::io::Result<()> {
    let mut writer = csv::Writer::from_writer(out);
    for row in rows(outcomes) {
        writer.serialize(row).map_err(std::io::Error::other)?;
    }
    writer.flush()
}
