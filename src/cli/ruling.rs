//! `goconform ruling`: what a tournament director rules when a violation stands on the board.
//!
//! The input is a game record in the scenario format (the metadata and expectations a
//! scenario needs are optional here). Its events are replayed by the reference executor's
//! referee ([`Refereed`]) under each ruleset asked for, and every ruling is printed in plain
//! words with the position before and after it and the chain of clauses behind it. Rulesets
//! side by side show where the BGA, the London Open rules and the AGA rules differ.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{board_lines, load_spec, relative, CommandResult, Project};
use crate::board::{Board, Point};
use crate::game::{Event, Refereed, Report, Verdict};
use crate::rules::{IllegalMoveProcedure, Rules};
use crate::scenario::Scenario;
use crate::spec::location::Located;
use crate::spec::Spec;

/// The rulesets a record without rules of its own is ruled under: one of each procedure.
const DEFAULT_RULESETS: &[&str] = &["bga", "london-open", "aga"];

/// The arguments of `goconform ruling`.
#[derive(Args)]
pub(super) struct RulingArgs {
    /// A game record in the scenario format (.toml): a position, the events with the
    /// violation (`W B3!`, `B D4 leaves-captures`, ...) and the `notice`; or an SGF record
    /// (.sgf), whose moves that break a rule are taken as made on the board (see
    /// --notice-after).
    file: PathBuf,
    /// SGF only: the violation was pointed out after this move of the record (counted from
    /// 1); without it nothing is noticed and the violations are listed as standing.
    #[arg(long, value_name = "MOVE")]
    notice_after: Option<usize>,
    /// SGF only, with --notice-after: both players agree to go back (`notice agreed`).
    #[arg(long, requires = "notice_after")]
    agreed: bool,
    /// SGF only: which game of a collection (from 1; default the first).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// A ruleset or one of the record's runs (repeatable, or comma-separated:
    /// `--rules bga,london-open`). Default: the record's runs, else bga, london-open and aga
    /// side by side.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    rules: Vec<String>,
    /// Change one axis for every ruleset, e.g. --set illegal-move=bga (repeatable, or
    /// comma-separated).
    #[arg(long = "set", value_name = "AXIS=VALUE", value_delimiter = ',')]
    set: Vec<String>,
    /// `text`, or `json`: one document with every ruleset's verdicts and rulings, for
    /// programs.
    #[arg(long, value_enum, default_value_t = RulingFormat::Text)]
    format: RulingFormat,
}

/// How `ruling` prints.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum RulingFormat {
    Text,
    Json,
}

pub(super) fn ruling(root: &Project, args: &RulingArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let sgf_record = if crate::sgf::is_sgf(&args.file) {
        Some(super::records::load_record(
            &args.file,
            super::records::game_index(args.game)?,
            &Default::default(),
        )?)
    } else {
        if args.notice_after.is_some() || args.game.is_some() {
            return Err("--notice-after and --game are for SGF records".to_string());
        }
        None
    };
    let record = match &sgf_record {
        Some(sgf) => {
            let names = match (&args.rules[..], sgf.ruleset()) {
                ([], Some(name)) => vec![name.to_string()],
                ([], None) => DEFAULT_RULESETS.iter().map(|s| s.to_string()).collect(),
                (given, _) => given.to_vec(),
            };
            if let Some(n) = args.notice_after {
                if n == 0 || n > sgf.events.len() {
                    return Err(format!(
                        "--notice-after {n}: the record has moves 1 to {}",
                        sgf.events.len()
                    ));
                }
            }
            crate::sgf::convert::to_scenario(sgf, &names, &spec)?
        }
        None => load_record(&args.file, &spec)?,
    };
    let chosen = chosen_rules(&spec, &record, args)?;
    let mut ruled = Vec::new();
    for (label, rules) in &chosen {
        let record = match &sgf_record {
            Some(sgf) => as_made(sgf, &record, *rules, args.notice_after, args.agreed)?,
            None => record.clone(),
        };
        ruled.push(rule_under(&record, label, *rules)?);
    }
    if args.format == RulingFormat::Json {
        return print_json(root, &spec, &args.file, &record, &ruled);
    }
    outln!("{}", relative(root, &args.file));
    if !record.title.is_empty() {
        outln!("{}", record.title);
    }
    let mut standing_somewhere = false;
    for r in &ruled {
        print_ruled(&spec, r);
        standing_somewhere |= !r.standing.is_empty();
    }
    if standing_somewhere {
        outln!();
        outln!("note: some violations were never noticed; add `notice` (or `notice agreed`) to the record for a ruling on them.");
    }
    Ok(ExitCode::SUCCESS)
}

/// An SGF record's moves as a referee finds them on the board under `rules`: every move the
/// rules forbid (ko, superko, suicide, out of turn, an occupied point) is recorded as made
/// although forbidden (`B D4!`), and a notice follows move `notice_after` if given.
fn as_made(
    sgf: &crate::sgf::Record,
    scenario: &Scenario,
    rules: Rules,
    notice_after: Option<usize>,
    agreed: bool,
) -> Result<Scenario, String> {
    use crate::game::{Breach, Reason};
    let mut referee = Refereed::new(rules, &scenario.setup)
        .map_err(|e| format!("the record's set-up is refused: {e}"))?;
    let (events, numbers) = crate::sgf::convert::events_with_disputes(sgf);
    let mut made = Vec::with_capacity(events.len() + 1);
    for (event, number) in events.into_iter().zip(numbers) {
        let mut event = event;
        if let Verdict::Illegal(
            Reason::Ko | Reason::Superko | Reason::Suicide | Reason::OutOfTurn | Reason::Occupied,
        ) = referee.apply(event.clone())
        {
            if let Event::Move(color, mv) = event {
                event = Event::Breach(color, mv, Breach::Forced);
                referee.apply(event.clone());
            }
        }
        let is_move = matches!(event, Event::Move(..) | Event::Breach(..));
        made.push(event);
        if is_move && Some(number) == notice_after {
            made.push(Event::Notice { agreed });
            referee.apply(Event::Notice { agreed });
        }
    }
    let mut scenario = scenario.clone();
    scenario.events = made;
    Ok(scenario)
}

fn load_record(path: &Path, spec: &Spec) -> Result<Scenario, String> {
    if path.is_dir() {
        return Err(format!(
            "{} is a folder; ruling takes one game record (.toml)",
            path.display()
        ));
    }
    let text = super::read_input(path)?;
    Scenario::parse_record(path, &text, spec).map_err(|errors| {
        let lines: Vec<String> = errors.iter().map(Located::to_string).collect();
        format!("cannot read the game record:\n{}", lines.join("\n"))
    })
}

/// The runs to rule under, with their labels.
fn chosen_rules(
    spec: &Spec,
    record: &Scenario,
    args: &RulingArgs,
) -> Result<Vec<(String, Rules)>, String> {
    let names: Vec<String> = if !args.rules.is_empty() {
        args.rules.clone()
    } else if !record.runs.is_empty() {
        record.runs.iter().map(|r| r.label.clone()).collect()
    } else {
        DEFAULT_RULESETS.iter().map(|s| s.to_string()).collect()
    };
    let mut out = Vec::new();
    for name in names {
        let mut rules = match record.runs.iter().find(|r| r.label == name) {
            Some(run) => run.rules,
            None => {
                let mut rules = spec.rules(&name)?;
                for (axis, word) in &record.set {
                    rules
                        .set(axis, word)
                        .map_err(|e| format!("the record's set.{axis}: {e}"))?;
                }
                if let Some(k) = record.komi {
                    rules.komi = k;
                    rules.handicap_komi = k;
                }
                rules
            }
        };
        for assignment in &args.set {
            rules
                .set_assignment(assignment)
                .map_err(|e| format!("--set {assignment}: {e}"))?;
        }
        out.push((name, rules));
    }
    Ok(out)
}

/// A record ruled under one set of rules.
struct Ruled {
    label: String,
    rules: Rules,
    /// Each event with the referee's verdict in words.
    verdicts: Vec<(Event, String)>,
    rulings: Vec<RulingAt>,
    /// Violations on the board that nobody noticed: (violation, class, offender) in words.
    standing: Vec<String>,
}

/// One ruling, with what a director needs beside it.
struct RulingAt {
    /// The notice's number among the events (from 1).
    number: usize,
    event: Event,
    report: Report,
    before: Board,
    after: Board,
    /// The other outcome, where the players' agreement decides between two: the notice with
    /// the agreement turned the other way, replayed, and its report when the ruling differs.
    otherwise: Option<Report>,
}

/// Replays the record under `rules`, collecting every verdict and ruling.
fn rule_under(record: &Scenario, label: &str, rules: Rules) -> Result<Ruled, String> {
    let mut game = Refereed::new(rules, &record.setup)
        .map_err(|e| format!("the record's set-up cannot start under {label}: {e}"))?;
    let mut verdicts = Vec::new();
    let mut rulings = Vec::new();
    for (i, event) in record.events.iter().enumerate() {
        let before = game.game().board().clone();
        let verdict = game.apply(event.clone());
        verdicts.push((event.clone(), verdict_words(&verdict)));
        if let Some(report) = game.report().cloned() {
            let otherwise = match event {
                Event::Notice { agreed } => {
                    other_agreement(record, rules, i, !agreed).filter(|o| o.ruling != report.ruling)
                }
                _ => None,
            };
            rulings.push(RulingAt {
                number: i + 1,
                event: event.clone(),
                report,
                before,
                after: game.game().board().clone(),
                otherwise,
            });
        }
    }
    let standing = game
        .standing()
        .iter()
        .map(|(violation, class, offender)| format!("{offender}'s {class} move ({violation})"))
        .collect();
    Ok(Ruled {
        label: label.to_string(),
        rules,
        verdicts,
        rulings,
        standing,
    })
}

/// The report of the notice at `index` had the players' agreement been `agreed`.
fn other_agreement(record: &Scenario, rules: Rules, index: usize, agreed: bool) -> Option<Report> {
    let mut game = Refereed::new(rules, &record.setup).ok()?;
    for event in &record.events[..index] {
        game.apply(event.clone());
    }
    game.apply(Event::Notice { agreed });
    game.report().cloned()
}

/// What happens to the clocks while a violation is sorted out, under a procedure, with the
/// clause that says so; `None` where the ruleset's texts are silent.
fn clock_words(procedure: IllegalMoveProcedure) -> Option<(&'static str, &'static str)> {
    match procedure {
        IllegalMoveProcedure::Bga => Some((
            "both clocks are stopped while the players sort the violation out, and started again when play goes on",
            "bga-clock-stopped",
        )),
        IllegalMoveProcedure::AgaRule8 => Some((
            "the move is taken back on the offender's time: the offender's clock runs while it is put right",
            "agatr-vi-b-8",
        )),
        IllegalMoveProcedure::EgfRule4 | IllegalMoveProcedure::None => None,
    }
}

/// Prints one ruleset's verdicts and rulings.
fn print_ruled(spec: &Spec, r: &Ruled) {
    outln!();
    let title = spec
        .ruleset(&r.label)
        .map(|d| format!(" ({})", d.title))
        .unwrap_or_default();
    outln!("== under {}{title}", r.label);
    outln!("   procedure: {}", procedure_words(r.rules.illegal_move));
    let mut rulings = r.rulings.iter().peekable();
    for (i, (event, verdict)) in r.verdicts.iter().enumerate() {
        outln!("{:>4}. {:<24} {verdict}", i + 1, event.to_string());
        if let Some(at) = rulings.next_if(|at| at.number == i + 1) {
            print_report(spec, at, r.rules.illegal_move);
        }
    }
    if r.rulings.is_empty() {
        outln!("   no ruling: nothing in the record was noticed");
    }
    for s in &r.standing {
        outln!("   still standing, unnoticed: {s}");
    }
}

fn print_report(spec: &Spec, at: &RulingAt, procedure: IllegalMoveProcedure) {
    let report = &at.report;
    outln!();
    outln!("   RULING: {}", report.ruling);
    for sentence in &report.explanation {
        outln!("     {sentence}");
    }
    if let Some(other) = &at.otherwise {
        let how = if report.agreed {
            "had the players not agreed to go back"
        } else {
            "had both players agreed to go back"
        };
        outln!("   OTHERWISE, {how}: {}", other.ruling);
        for sentence in &other.explanation {
            outln!("     {sentence}");
        }
    }
    match clock_words(procedure) {
        Some((words, clause)) => outln!("   clock: {words} ({clause})"),
        None => outln!("   clock: the ruleset's texts say nothing of the clocks while a violation is sorted out"),
    }
    outln!();
    let marked: Vec<Point> = match &at.event {
        Event::Breach(_, crate::board::Move::Play(p), _) => vec![*p],
        _ => Vec::new(),
    };
    let left = board_lines(&at.before, &marked);
    let right = board_lines(&at.after, &[]);
    let width = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    outln!("     {:<width$}    after", "before");
    for (l, r) in left.iter().zip(&right) {
        outln!("     {l:<width$}    {r}");
    }
    outln!();
    outln!("   grounds:");
    let clock_clause = clock_words(procedure)
        .map(|(_, c)| c)
        .filter(|c| !report.clauses.contains(c));
    for id in report.clauses.iter().copied().chain(clock_clause) {
        match spec.clause(id) {
            Some(clause) => {
                outln!("     {id}: {}", clause.locator);
                outln!("       {}", clause.summary);
            }
            None => outln!("     {id}"),
        }
    }
    outln!();
}

/// Every ruleset's verdicts and rulings as one JSON document.
fn print_json(
    root: &Project,
    spec: &Spec,
    file: &Path,
    record: &Scenario,
    ruled: &[Ruled],
) -> CommandResult {
    use serde_json::json;
    let report_json = |r: &Report| {
        json!({
            "ruling": r.ruling.to_string(),
            "violation": r.violation.to_string(),
            "class": r.class.to_string(),
            "offender": r.offender.name(),
            "moves_since": r.moves_since,
            "agreed": r.agreed,
            "clauses": r.clauses,
            "explanation": r.explanation,
        })
    };
    let rulesets: Vec<serde_json::Value> = ruled
        .iter()
        .map(|r| {
            let clock = clock_words(r.rules.illegal_move);
            json!({
                "ruleset": r.label,
                "title": spec.ruleset(&r.label).map(|d| d.title.clone()),
                "procedure": r.rules.illegal_move.to_string(),
                "events": r.verdicts.iter().enumerate().map(|(i, (e, v))| json!({
                    "number": i + 1,
                    "event": e.to_string(),
                    "verdict": v,
                })).collect::<Vec<_>>(),
                "rulings": r.rulings.iter().map(|at| {
                    let mut v = report_json(&at.report);
                    v["after_event"] = json!(at.number);
                    v["otherwise"] = at.otherwise.as_ref().map_or(serde_json::Value::Null, report_json);
                    v["clock"] = clock.map_or(serde_json::Value::Null, |(words, clause)| {
                        json!({ "what": words, "clause": clause })
                    });
                    v
                }).collect::<Vec<_>>(),
                "standing": r.standing,
            })
        })
        .collect();
    let doc = json!({
        "file": relative(root, file),
        "title": record.title,
        "rulesets": rulesets,
    });
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    outln!("{text}");
    Ok(ExitCode::SUCCESS)
}

fn verdict_words(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Legal { .. } => "legal".to_string(),
        Verdict::Illegal(reason) => format!("refused: {reason}"),
        Verdict::Breach { reason, class } => {
            format!("stands on the board: {class} ({reason})")
        }
        Verdict::Ruled(ruling) => format!("ruling: {ruling}"),
    }
}

fn procedure_words(procedure: IllegalMoveProcedure) -> &'static str {
    match procedure {
        IllegalMoveProcedure::None => {
            "none (the ruleset names no procedure, so a violation on the board cannot be ruled on)"
        }
        IllegalMoveProcedure::Bga => {
            "BGA: unwind and pass if noticed at once; later, rewind only by agreement"
        }
        IllegalMoveProcedure::EgfRule4 => {
            "EGF rule 4 (London Open): unwind if noticed within three moves, else play on"
        }
        IllegalMoveProcedure::AgaRule8 => {
            "AGA Rule 8: taken back as a pass if pointed out before the opponent moves, with a warning"
        }
    }
}
