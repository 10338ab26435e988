//! `goconform judge`: replays SGF game records under our rulesets and reports the first move
//! that breaks a rule, the count and whether the recorded result agrees with it.
//!
//! Files are judged in parallel (worker threads taking the next file, see `in_order`) and reported in the order given (folders sorted), with
//! a progress bar on a terminal. A record that cannot be read is one located error and the
//! run goes on. Exit code: 0 when every record was read and judged and no move breaks a rule;
//! 1 when a move of some record breaks a rule (a record artifact included) and every record
//! was judged; 2 when some record could not be read or judged (no ruleset for it, or a set-up
//! the rules refuse) and no move of those judged breaks a rule; 3 when both happened. So a
//! rule broken is never hidden by a record left unjudged: the exit code's bit 1 says a rule was
//! broken, bit 2 that something was not judged.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde::Serialize;

use super::{load_spec, CommandResult, Project};
use crate::board::Move;
use crate::rules::Rules;
use crate::sgf::judge::{judge_with, JudgeOptions, Judgement, ResultCheck, Violation};
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
    /// Judge every record under this komi, whatever its KM says (or where it has none).
    #[arg(long, value_name = "POINTS", value_parser = parse_komi_points, allow_hyphen_values = true)]
    komi: Option<crate::rules::Komi>,
    /// Repair record artifacts and judge on: a pass by the other player inserted before a
    /// second move in a row by one colour, a play on one's own stone read as a pass; the count
    /// of a record whose only violations are artifacts is then judged. Every report says so.
    #[arg(long)]
    repair: bool,
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

fn parse_komi_points(word: &str) -> Result<crate::rules::Komi, String> {
    word.trim()
        .parse::<f64>()
        .ok()
        .and_then(crate::rules::Komi::from_f64)
        .ok_or_else(|| format!("`{word}` is not a whole or half number of points"))
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
    /// The file or the game (numbered from 0) could not be read.
    Unreadable(Located, usize),
    /// Read, but there is no ruleset to judge it under.
    NoRuleset {
        name: String,
        game: usize,
        message: String,
    },
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
    let judging = JudgeOptions {
        repair: args.repair,
        komi: args.komi,
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
    let every = args.verbose || files.len() == 1;
    // Each file judged on a worker, its games one at a time, each outcome rendered (text) or
    // turned into rows (jsonl, csv) and tallied as it is judged and then dropped: what
    // crosses back is the rendering and the tallies, never a record.
    let judge_file = |path: &PathBuf| -> Judged {
        let mut done = Judged::default();
        judge_one_file(
            path,
            &options,
            &judging,
            &rulesets,
            args.fallback_rules.as_deref(),
            &spec,
            &mut |outcome| done.add(&outcome, args.format, every),
        );
        done
    };
    let threads = match args.jobs {
        Some(n) if n > 0 => n,
        _ => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    // CSV's header goes before the first row only.
    let mut csv_header = args.format == Format::Csv;
    let mut summary = Summary {
        files: files.len(),
        ..Summary::default()
    };
    let mut wrote_any = false;
    let write_error = |e: std::io::Error| format!("cannot write the report: {e}");
    // Each file's reports written as soon as every file before it has been: memory holds at
    // most a window of files' reports (see `in_order`), whatever the run's size.
    let mut emit = |done: Judged| -> Result<(), String> {
        bar.inc(1);
        summary.merge(done.tally);
        wrote_any |= !done.text.is_empty() || !done.rows.is_empty();
        out.write_all(done.text.as_bytes()).map_err(write_error)?;
        for row in done.rows {
            match args.format {
                Format::Csv => {
                    let mut writer = csv::WriterBuilder::new()
                        .has_headers(std::mem::take(&mut csv_header))
                        .from_writer(Vec::new());
                    writer
                        .serialize(row)
                        .map_err(|e| write_error(std::io::Error::other(e)))?;
                    let bytes = writer
                        .into_inner()
                        .map_err(|e| write_error(std::io::Error::other(e.to_string())))?;
                    out.write_all(&bytes).map_err(write_error)?;
                }
                _ => {
                    serde_json::to_writer(&mut out, &row)
                        .map_err(|e| write_error(std::io::Error::other(e)))?;
                    writeln!(out).map_err(write_error)?;
                }
            }
        }
        Ok(())
    };
    in_order(
        &files,
        threads,
        JUDGE_WINDOW * threads,
        &judge_file,
        &mut emit,
    )?;
    bar.finish_and_clear();
    summary.seconds = started.elapsed().as_secs_f64();
    let written = match args.format {
        Format::Text => print_summary(&mut out, &summary, wrote_any),
        Format::Jsonl => {
            serde_json::to_writer(&mut out, &serde_json::json!({ "summary": summary }))
                .map_err(std::io::Error::other)
                .and_then(|()| writeln!(out))
        }
        Format::Csv => Ok(()),
    };
    written.and_then(|()| out.flush()).map_err(write_error)?;
    Ok(ExitCode::from(exit_code(&summary)))
}

/// How many files a worker thread may run ahead of the first file not yet written (see
/// [`in_order`]).
const JUDGE_WINDOW: usize = 64;

/// Runs `work` on every item on `threads` threads (the calling thread one of them) and hands
/// the results to `take` in the items' order, on the calling thread. Each thread takes the next
/// item from a shared counter (one atomic add per item, so a long file holds up only its own
/// thread, and there is no barrier between batches) and judges it with nothing shared; the
/// other threads send their results over a channel, which the calling thread empties without
/// waiting between its own items, putting results back in order and handing each over as
/// soon as those before it are. It waits for the others only when the next result it needs
/// is theirs and it may not run further ahead. A thread more than `window` items ahead of the
/// first result not taken waits (the only lock, taken only then), so at most `window` results
/// wait in memory. When `take` fails, the threads stop taking items and its error is returned.
fn in_order<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    window: usize,
    work: &(dyn Fn(&T) -> R + Sync),
    take: &mut dyn FnMut(R) -> Result<(), String>,
) -> Result<(), String> {
    use std::collections::BTreeMap;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{mpsc, Condvar, Mutex, PoisonError};

    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        return items.iter().try_for_each(|item| take(work(item)));
    }
    let window = window.max(1);
    let next = AtomicUsize::new(0);
    let taken = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    // Threads waiting at the gate: the calling thread takes its lock only when there are any.
    let sleeping = AtomicUsize::new(0);
    let gate = (Mutex::new(()), Condvar::new());
    let (send, receive) = mpsc::channel::<(usize, R)>();
    std::thread::scope(|scope| {
        for _ in 1..threads {
            let send = send.clone();
            let (next, taken, stop, sleeping, gate) = (&next, &taken, &stop, &sleeping, &gate);
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= items.len() || stop.load(Ordering::SeqCst) {
                    return;
                }
                if i >= taken.load(Ordering::SeqCst) + window {
                    let mut guard = gate.0.lock().unwrap_or_else(PoisonError::into_inner);
                    sleeping.fetch_add(1, Ordering::SeqCst);
                    while i >= taken.load(Ordering::SeqCst) + window && !stop.load(Ordering::SeqCst)
                    {
                        guard = gate.1.wait(guard).unwrap_or_else(PoisonError::into_inner);
                    }
                    sleeping.fetch_sub(1, Ordering::SeqCst);
                }
                if send.send((i, work(&items[i]))).is_err() {
                    return;
                }
            });
        }
        drop(send);
        let mut waiting = BTreeMap::new();
        let mut first = 0;
        let mut outcome = Ok(());
        // Hands over every result in order from `first`, and lets waiting threads on.
        let mut advance = |waiting: &mut BTreeMap<usize, R>, first: &mut usize| {
            let before = *first;
            while let Some(result) = waiting.remove(first) {
                if outcome.is_ok() {
                    outcome = take(result);
                    if outcome.is_err() {
                        stop.store(true, Ordering::SeqCst);
                    }
                }
                *first += 1;
            }
            if *first != before || outcome.is_err() {
                taken.store(*first, Ordering::SeqCst);
                // A thread that counted itself sleeping checks `taken` and `stop` under the
                // lock after counting, so one that missed these stores is seen here.
                if sleeping.load(Ordering::SeqCst) > 0 {
                    let _guard = gate.0.lock().unwrap_or_else(PoisonError::into_inner);
                    gate.1.notify_all();
                }
            }
            outcome.is_err()
        };
        loop {
            waiting.extend(receive.try_iter());
            if advance(&mut waiting, &mut first) {
                break;
            }
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= items.len() {
                break;
            }
            // Too far ahead: what is needed next is another thread's.
            while i >= first + window {
                match receive.recv() {
                    Ok((k, result)) => {
                        waiting.insert(k, result);
                    }
                    Err(_) => break,
                }
                if advance(&mut waiting, &mut first) {
                    break;
                }
            }
            if stop.load(Ordering::SeqCst) {
                break;
            }
            waiting.insert(i, work(&items[i]));
        }
        // The rest from the other threads; the channel ends when every one has ended.
        for (k, result) in receive.iter() {
            waiting.insert(k, result);
            advance(&mut waiting, &mut first);
        }
        advance(&mut waiting, &mut first);
        outcome
    })
}

/// What a worker hands back for one file: its reports, rendered as judged, and its tallies.
#[derive(Default)]
struct Judged {
    /// Text output.
    text: String,
    /// JSON-lines and CSV output.
    rows: Vec<Row>,
    tally: Summary,
}

impl Judged {
    fn add(&mut self, outcome: &Outcome, format: Format, every: bool) {
        self.tally.add(outcome);
        match format {
            Format::Text => {
                let mut bytes = Vec::new();
                // Writing into memory cannot fail.
                let _ = print_outcome(&mut bytes, outcome, every);
                self.text.push_str(&String::from_utf8_lossy(&bytes));
            }
            Format::Jsonl | Format::Csv => self.rows.extend(rows(outcome)),
        }
    }
}

/// The exit code: bit 1 a move that breaks a rule, bit 2 a record not read or not judged.
fn exit_code(summary: &Summary) -> u8 {
    let broken = u8::from(summary.records_with_violation > 0);
    let unjudged = u8::from(summary.unreadable + summary.no_ruleset + summary.not_judged > 0);
    broken | (unjudged << 1)
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
    judging: &JudgeOptions,
    rulesets: &[(String, Rules)],
    fallback: Option<&str>,
    spec: &Spec,
    each: &mut dyn FnMut(Outcome),
) {
    let bytes = match crate::spec::location::read_bounded(path) {
        Ok(bytes) => bytes,
        Err(_) => {
            // The reader's own words for the error, located as it locates them.
            if let Err(e) = sgf::read_file(path, options) {
                each(Outcome::Unreadable(e, 0));
            }
            return;
        }
    };
    let mut index = 0;
    let read = sgf::read_each(path, &bytes, options, |game| {
        let outcome = match game {
            Err(e) => Outcome::Unreadable(e, index),
            Ok(record) => 'judged: {
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
                                break 'judged Outcome::NoRuleset {
                                    name: record.path.display().to_string(),
                                    game: record.game,
                                    message,
                                }
                            }
                        },
                        Err(message) => {
                            break 'judged Outcome::NoRuleset {
                                name: record.path.display().to_string(),
                                game: record.game,
                                message,
                            }
                        }
                    }
                } else {
                    rulesets.to_vec()
                };
                let judgements = chosen
                    .into_iter()
                    .map(|(name, rules)| {
                        let mut j = judge_with(&record, &name, rules, spec, judging);
                        if fallback.contains(&name) {
                            j.notes.push(format!(
                                "RU names none of our rulesets: judged under --fallback-rules {name}"
                            ));
                        }
                        j
                    })
                    .collect();
                Outcome::Judged {
                    record: Box::new(record),
                    judgements,
                }
            }
        };
        index += 1;
        each(outcome);
    });
    if let Err(e) = read {
        each(Outcome::Unreadable(e, index));
    }
}

/// Tallies over a run, per ruleset and in all.
#[derive(Default, Serialize)]
struct Summary {
    files: usize,
    games: usize,
    unreadable: usize,
    no_ruleset: usize,
    not_judged: usize,
    moves: usize,
    records_with_artifact: usize,
    records_with_violation: usize,
    rulesets: BTreeMap<String, RulesetTally>,
    seconds: f64,
}

#[derive(Default, Serialize)]
struct RulesetTally {
    judged: usize,
    legal: usize,
    illegal: usize,
    not_judged: usize,
    violations: usize,
    artifacts: BTreeMap<String, usize>,
    reasons: BTreeMap<String, usize>,
    agrees: usize,
    consistent: usize,
    disagrees: usize,
    not_checkable: usize,
}

impl Summary {
    /// Adds the tallies of another part of the run (its files are counted by the caller).
    fn merge(&mut self, other: Summary) {
        self.games += other.games;
        self.unreadable += other.unreadable;
        self.no_ruleset += other.no_ruleset;
        self.not_judged += other.not_judged;
        self.moves += other.moves;
        self.records_with_artifact += other.records_with_artifact;
        self.records_with_violation += other.records_with_violation;
        for (name, t) in other.rulesets {
            let mine = self.rulesets.entry(name).or_default();
            mine.judged += t.judged;
            mine.legal += t.legal;
            mine.illegal += t.illegal;
            mine.not_judged += t.not_judged;
            mine.violations += t.violations;
            mine.agrees += t.agrees;
            mine.consistent += t.consistent;
            mine.disagrees += t.disagrees;
            mine.not_checkable += t.not_checkable;
            for (k, n) in t.artifacts {
                *mine.artifacts.entry(k).or_default() += n;
            }
            for (k, n) in t.reasons {
                *mine.reasons.entry(k).or_default() += n;
            }
        }
    }

    /// Tallies one game's outcome.
    fn add(&mut self, outcome: &Outcome) {
        let s = self;
        {
            s.games += 1;
            match outcome {
                Outcome::Unreadable(..) => s.unreadable += 1,
                Outcome::NoRuleset { .. } => s.no_ruleset += 1,
                Outcome::Judged { record, judgements } => {
                    s.moves += record.events.len();
                    if judgements.iter().any(|j| j.not_judged.is_some()) {
                        s.not_judged += 1;
                    }
                    if judgements.iter().any(|j| !j.violations.is_empty()) {
                        s.records_with_violation += 1;
                    }
                    if judgements
                        .iter()
                        .any(|j| j.violations.iter().any(|v| v.artifact.is_some()))
                    {
                        s.records_with_artifact += 1;
                    }
                    for j in judgements {
                        let t = s.rulesets.entry(j.ruleset.clone()).or_default();
                        if j.not_judged.is_some() {
                            t.not_judged += 1;
                            continue;
                        }
                        t.judged += 1;
                        if j.violations.is_empty() {
                            t.legal += 1;
                        } else {
                            t.illegal += 1;
                        }
                        for v in &j.violations {
                            match v.artifact {
                                Some(a) => {
                                    *t.artifacts.entry(a.word().to_string()).or_default() += 1
                                }
                                None => t.violations += 1,
                            }
                            *t.reasons.entry(v.reason.to_string()).or_default() += 1;
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
        .map(|c| {
            if !j.ended_by_passes && record.territory.is_none() {
                format!(", counted {} as the board stands", c.result())
            } else if record.territory.is_none() {
                format!(", counted {} (no stone marked dead)", c.result())
            } else {
                format!(", counted {}", c.result())
            }
        })
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

/// The dead stones in doubt behind a count, as the lines of a report: the groups (numbered
/// from 1), the choices of them that give the recorded result, and the plausible choice.
fn doubt_lines(j: &Judgement, record: &Record) -> Vec<String> {
    let Some(d) = &j.doubt else {
        return Vec::new();
    };
    let recorded = record
        .result
        .as_ref()
        .map_or("none".to_string(), |r| r.to_string());
    let groups: Vec<String> = d
        .groups
        .iter()
        .enumerate()
        .map(|(i, (color, stones))| group_text(i, *color, stones))
        .collect();
    let choice = |c: &[usize]| -> String {
        if c.is_empty() {
            "{none dead}".to_string()
        } else {
            let n: Vec<String> = c.iter().map(|i| (i + 1).to_string()).collect();
            format!("{{{}}}", n.join(" "))
        }
    };
    let listed: Vec<String> = d.listed.iter().map(|c| choice(c)).collect();
    let choices = if d.every_choice {
        format!(
            "choices of dead groups giving {recorded}: {} of {}{}; giving the other winner the same margin: {}",
            d.giving_recorded,
            d.choices,
            if listed.is_empty() {
                String::new()
            } else {
                format!(
                    " ({}{})",
                    listed.join(", "),
                    if (d.giving_recorded as usize) > listed.len() {
                        ", ..."
                    } else {
                        ""
                    }
                )
            },
            d.giving_other
        )
    } else if listed.is_empty() {
        format!(
            "too many groups to count every choice (2^{}); adding up what each is worth alone finds none that gives {recorded}",
            d.groups.len()
        )
    } else {
        format!(
            "too many groups to count every choice (2^{}); adding up what each is worth alone finds {} that gives {recorded}",
            d.groups.len(),
            listed.join("")
        )
    };
    vec![
        format!(
            "groups in doubt ({}): {}",
            d.groups.len(),
            groups.join("; ")
        ),
        choices,
        format!(
            "the plausible choice (eyeless groups the other colour encloses) {} dead gives {}",
            choice(&d.plausible),
            d.plausible_result
        ),
    ]
}

/// A group in doubt as a report names it: number, colour, first stone, size.
fn group_text(index: usize, color: crate::board::Color, stones: &[crate::board::Point]) -> String {
    let first = stones.first().map(|p| p.to_string()).unwrap_or_default();
    if stones.len() == 1 {
        format!("{} {} {first}", index + 1, color.letter())
    } else {
        format!(
            "{} {} {first} ({} stones)",
            index + 1,
            color.letter(),
            stones.len()
        )
    }
}

/// One violation as a located line: a record artifact says what it most likely is and the repair
/// it implies; every line says how the replay went on.
fn violation_text(record: &Record, j: &Judgement, v: &Violation, game: &str) -> String {
    let clauses = if v.clauses.is_empty() {
        "no registered clause of this ruleset".to_string()
    } else {
        v.clauses.join(", ")
    };
    let kind = match v.artifact {
        Some(a) => format!(
            "record artifact ({}: {}; repair: {})",
            a.word(),
            match a {
                crate::sgf::judge::Artifact::MissingPass => "a pass not recorded",
                crate::sgf::judge::Artifact::OwnStone => "a pass written as a play",
                crate::sgf::judge::Artifact::WhiteOpens => "White opens an even game",
                crate::sgf::judge::Artifact::OpeningStones => "handicap stones written as moves",
            },
            a.repair()
        ),
        None => "breaks a rule".to_string(),
    };
    format!(
        "{}:{}:{}: [{}]{} move {} ({}) {kind}: {} ({clauses}); {}",
        record.path.display(),
        v.position.line,
        v.position.column,
        j.ruleset,
        game,
        v.move_number,
        move_text(v.color, v.mv),
        v.reason,
        v.went_on
    )
}

/// One game's report in text.
fn print_outcome(out: &mut impl Write, outcome: &Outcome, every: bool) -> std::io::Result<()> {
    {
        match outcome {
            Outcome::Unreadable(e, _) => writeln!(out, "{e}")?,
            Outcome::NoRuleset { message, .. } => writeln!(out, "{message}")?,
            Outcome::Judged { record, judgements } => {
                let mut notes = Vec::new();
                if record.handicap_from_moves {
                    notes.push(format!(
                        "the {} black moves before White's first are read as the handicap",
                        record.setup.handicap.len()
                    ));
                }
                if let Some(reading) = record.komi.as_ref().and_then(|k| k.reading) {
                    if let Some(k) = &record.komi {
                        notes.push(format!("KM read as {reading}: komi {}", k.komi));
                    }
                }
                let game = if record.game > 0 {
                    format!(" game {},", record.game + 1)
                } else {
                    String::new()
                };
                for j in judgements {
                    let attention = !j.violations.is_empty()
                        || j.not_judged.is_some()
                        || matches!(j.check, ResultCheck::Disagrees);
                    if !every && !attention {
                        continue;
                    }
                    if let Some(why) = &j.not_judged {
                        writeln!(out, "{}: [{}] not judged: {why}", record.name(), j.ruleset)?;
                        continue;
                    }
                    for v in &j.violations {
                        writeln!(out, "{}", violation_text(record, j, v, &game))?;
                    }
                    if j.violations.is_empty() {
                        writeln!(
                            out,
                            "{}: [{}] {} moves, all legal",
                            record.name(),
                            j.ruleset,
                            record.events.len()
                        )?;
                    }
                    if let Some(n) = j.stopped_at {
                        writeln!(out, "    the moves from move {n} on are not judged")?;
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
                    for line in doubt_lines(j, record) {
                        writeln!(out, "      {line}")?;
                    }
                    for note in j.notes.iter().chain(notes.iter().filter(|_| every)) {
                        writeln!(out, "    note: {note}")?;
                    }
                }
            }
        }
    }
    Ok(())
}

/// The run's summary in text, after a blank line where reports came before it.
fn print_summary(out: &mut impl Write, summary: &Summary, after: bool) -> std::io::Result<()> {
    if after {
        writeln!(out)?;
    }
    writeln!(
        out,
        "{} files, {} games: {} judged, {} unreadable, {} with no ruleset, {} not judged (set-up refused); {} moves; {} games with a move that breaks a rule ({} with a record artifact)",
        summary.files,
        summary.games,
        summary.games - summary.unreadable - summary.no_ruleset - summary.not_judged,
        summary.unreadable,
        summary.no_ruleset,
        summary.not_judged,
        summary.moves,
        summary.records_with_violation,
        summary.records_with_artifact
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
                "{:width$}  moves refused by reason: {}",
                "",
                reasons.join(", ")
            )?;
            let artifacts: Vec<String> = t
                .artifacts
                .iter()
                .map(|(a, n)| format!("{a} {n}"))
                .collect();
            writeln!(
                out,
                "{:width$}  record artifacts: {}; violations: {}",
                "",
                if artifacts.is_empty() {
                    "none".to_string()
                } else {
                    artifacts.join(", ")
                },
                t.violations
            )?;
        }
        if t.not_judged > 0 {
            writeln!(out, "{:width$}  not judged: {}", "", t.not_judged)?;
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
    /// The first violation's artifact class, if it is one.
    artifact: Option<String>,
    /// Every violation: `move:reason` or `move:reason:artifact`, space-separated.
    violations: Option<String>,
    /// The groups in doubt behind a count: `colour:first-stone:size`, space-separated, numbered
    /// from 1 in that order.
    groups_in_doubt: Option<String>,
    /// How many choices of them give the recorded result, of how many counted (`1 of 16`;
    /// `found 1` or `found 0` where not every choice was counted).
    choices_giving_result: Option<String>,
    /// The first of those choices: each the numbers of its groups, `+`-joined; `-` for none
    /// dead; space-separated.
    listed_choices: Option<String>,
    /// The plausible choice of dead groups (`+`-joined numbers, `-` for none).
    plausible_dead: Option<String>,
    /// The result the plausible choice gives.
    plausible_result: Option<String>,
}

fn rows(outcome: &Outcome) -> Vec<Row> {
    let mut rows = Vec::new();
    {
        match outcome {
            Outcome::Unreadable(e, game) => rows.push(Row {
                file: e.file.display().to_string(),
                game: game + 1,
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
                artifact: None,
                violations: None,
                groups_in_doubt: None,
                choices_giving_result: None,
                listed_choices: None,
                plausible_dead: None,
                plausible_result: None,
                detail: Some(if e.key.is_empty() {
                    e.message.clone()
                } else {
                    format!("{}: {}", e.key, e.message)
                }),
            }),
            Outcome::NoRuleset {
                name,
                game,
                message,
            } => rows.push(Row {
                file: name.clone(),
                game: game + 1,
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
                artifact: None,
                violations: None,
                groups_in_doubt: None,
                choices_giving_result: None,
                listed_choices: None,
                plausible_dead: None,
                plausible_result: None,
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
                        check: if j.not_judged.is_some() {
                            "not-judged".to_string()
                        } else {
                            j.check.word().to_string()
                        },
                        artifact: v.and_then(|v| v.artifact).map(|a| a.word().to_string()),
                        violations: (!j.violations.is_empty()).then(|| {
                            j.violations
                                .iter()
                                .map(|v| match v.artifact {
                                    Some(a) => {
                                        format!("{}:{}:{}", v.move_number, v.reason, a.word())
                                    }
                                    None => format!("{}:{}", v.move_number, v.reason),
                                })
                                .collect::<Vec<_>>()
                                .join(" ")
                        }),
                        groups_in_doubt: j.doubt.as_ref().map(|d| {
                            d.groups
                                .iter()
                                .map(|(c, stones)| {
                                    format!(
                                        "{}:{}:{}",
                                        c.letter(),
                                        stones.first().map(|p| p.to_string()).unwrap_or_default(),
                                        stones.len()
                                    )
                                })
                                .collect::<Vec<_>>()
                                .join(" ")
                        }),
                        choices_giving_result: j.doubt.as_ref().map(|d| {
                            if d.every_choice {
                                format!("{} of {}", d.giving_recorded, d.choices)
                            } else {
                                format!("found {}", d.giving_recorded)
                            }
                        }),
                        listed_choices: j.doubt.as_ref().map(|d| {
                            d.listed
                                .iter()
                                .map(|c| choice_word(c))
                                .collect::<Vec<_>>()
                                .join(" ")
                        }),
                        plausible_dead: j.doubt.as_ref().map(|d| choice_word(&d.plausible)),
                        plausible_result: j.doubt.as_ref().map(|d| d.plausible_result.clone()),
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

/// A choice of dead groups in one word: their numbers from 1, `+`-joined; `-` for none.
fn choice_word(choice: &[usize]) -> String {
    if choice.is_empty() {
        "-".to_string()
    } else {
        choice
            .iter()
            .map(|i| (i + 1).to_string())
            .collect::<Vec<_>>()
            .join("+")
    }
}

#[cfg(test)]
mod tests {
    use super::in_order;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// Results come back in the items' order whatever the threads and the time each item
    /// takes, no worker runs more than the window ahead of what was taken, and a failure to
    /// take stops the run with its error.
    #[test]
    fn results_come_in_order_within_the_window() {
        let items: Vec<u64> = (0..500).collect();
        for threads in [1, 2, 3, 8] {
            for window in [1, 4, 64] {
                let taken = AtomicUsize::new(0);
                let ahead = AtomicUsize::new(0);
                let work = |&i: &u64| {
                    let lead = (i as usize).saturating_sub(taken.load(Ordering::SeqCst));
                    ahead.fetch_max(lead, Ordering::SeqCst);
                    // Uneven work: every seventh item is slow.
                    if i % 7 == 0 {
                        std::thread::sleep(std::time::Duration::from_micros(200));
                    }
                    i * 3
                };
                let mut got = Vec::new();
                in_order(&items, threads, window, &work, &mut |r| {
                    got.push(r);
                    taken.store(got.len(), Ordering::SeqCst);
                    Ok(())
                })
                .unwrap();
                assert_eq!(got, items.iter().map(|i| i * 3).collect::<Vec<_>>());
                // A worker may start item `taken + window - 1` at most (plus the one
                // `threads == 1` reads inline).
                assert!(
                    ahead.load(Ordering::SeqCst) < window.max(1) + 1,
                    "{threads} threads, window {window}: {} ahead",
                    ahead.load(Ordering::SeqCst)
                );
            }
        }
        let mut seen = 0;
        let failed = in_order(&items, 2, 8, &|&i: &u64| i, &mut |_| {
            seen += 1;
            if seen == 10 {
                Err("full".to_string())
            } else {
                Ok(())
            }
        });
        assert_eq!(failed, Err("full".to_string()));
        assert_eq!(seen, 10);
    }
}
