//! `goconform ruling`: what a tournament director rules when a violation stands on the board.
//!
//! The input is a game record in the scenario format (the metadata and expectations a
//! scenario needs are optional here). Its events are replayed by the reference executor's
//! referee ([`Refereed`]) under each ruleset asked for, and every ruling is printed in plain
//! words with the position before and after it and the chain of clauses behind it. Rulesets
//! side by side show where the BGA, the London Open rules and the AGA rules differ.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

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
    outln!("{}", relative(root, &args.file));
    if !record.title.is_empty() {
        outln!("{}", record.title);
    }
    let mut standing_somewhere = false;
    for (label, rules) in &chosen {
        let record = match &sgf_record {
            Some(sgf) => as_made(sgf, &record, *rules, args.notice_after, args.agreed)?,
            None => record.clone(),
        };
        standing_somewhere |= rule_under(&spec, &record, label, *rules)?;
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
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
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

/// Prints the record ruled under one set of rules; answers whether violations were left
/// standing unnoticed at the end.
fn rule_under(spec: &Spec, record: &Scenario, label: &str, rules: Rules) -> Result<bool, String> {
    outln!();
    let title = spec
        .ruleset(label)
        .map(|r| format!(" ({})", r.title))
        .unwrap_or_default();
    outln!("== under {label}{title}");
    outln!("   procedure: {}", procedure_words(rules.illegal_move));
    let mut game = Refereed::new(rules, &record.setup)
        .map_err(|e| format!("the record's set-up cannot start under {label}: {e}"))?;
    let mut rulings = 0;
    for (i, event) in record.events.iter().enumerate() {
        let before = game.game().board().clone();
        let verdict = game.apply(event.clone());
        outln!(
            "{:>4}. {:<24} {}",
            i + 1,
            event.to_string(),
            verdict_words(&verdict)
        );
        if let Some(report) = game.report().cloned() {
            rulings += 1;
            print_report(spec, &report, &before, game.game().board(), event);
        }
    }
    if rulings == 0 {
        outln!("   no ruling: nothing in the record was noticed");
    }
    let standing = game.standing();
    for (violation, class, offender) in &standing {
        outln!("   still standing, unnoticed: {offender}'s {class} move ({violation})");
    }
    Ok(!standing.is_empty())
}

fn print_report(spec: &Spec, report: &Report, before: &Board, after: &Board, event: &Event) {
    outln!();
    outln!("   RULING: {}", report.ruling);
    for sentence in &report.explanation {
        outln!("     {sentence}");
    }
    outln!();
    let marked: Vec<Point> = match event {
        Event::Breach(_, crate::board::Move::Play(p), _) => vec![*p],
        _ => Vec::new(),
    };
    let left = board_lines(before, &marked);
    let right = board_lines(after, &[]);
    let width = left.iter().map(|l| l.chars().count()).max().unwrap_or(0);
    outln!("     {:<width$}    after", "before");
    for (l, r) in left.iter().zip(&right) {
        outln!("     {l:<width$}    {r}");
    }
    outln!();
    outln!("   grounds:");
    for id in &report.clauses {
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
