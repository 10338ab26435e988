//! `goconform score`: the count of a final position, under one ruleset or all of them.
//!
//! The position comes from a scenario (its events replayed by the reference executor under
//! the ruleset asked for) or from a plain diagram file (the position as it stands, with the
//! prisoners, komi and handicap given on the command line). Dead stones are an input, never
//! guessed: `--dead` names them, and under `ending=two-passes` nothing is removed at all.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, ValueEnum};
use serde::Serialize;

use super::{load_spec, load_suite, relative, CommandResult, Project};
use crate::board::{Board, Color, Point};
use crate::game::counting::format_points;
use crate::game::Prisoners;
use crate::rules::{Komi, Rules, Scoring, SekiEyes};
use crate::scenario::diagram;
use crate::scoring::{parting, score_under, Outcome, Position, Scored};
use crate::spec::Spec;

/// The arguments of `goconform score`.
#[derive(Args)]
pub(super) struct ScoreArgs {
    /// A scenario (.toml), an SGF game record (.sgf: dead stones from its TB/TW marks unless
    /// --dead names them), or a diagram file: rows top first, X black, O white, . empty.
    file: PathBuf,
    /// SGF only: which game of a collection (from 1; default the first).
    #[arg(long, value_name = "N")]
    game: Option<usize>,
    /// The ruleset: one of the scenario's runs or any ruleset name (default: the scenario's
    /// first run; for a diagram, aga).
    #[arg(long, value_name = "NAME", conflicts_with = "all_rulesets")]
    rules: Option<String>,
    /// Change one axis, e.g. --set seki-eyes=neutral (repeatable, or comma-separated; applies
    /// to every ruleset).
    #[arg(long = "set", value_name = "AXIS=VALUE", value_delimiter = ',')]
    set: Vec<String>,
    /// Score the position under every ruleset, side by side.
    #[arg(long)]
    all_rulesets: bool,
    /// Stones counted dead at the end; each vertex names its whole string (nothing is
    /// removed under ending=two-passes). Repeatable, or comma-separated (`--dead E2,F3`), like
    /// every list option; several vertices after one `--dead` are also taken.
    #[arg(long, value_name = "VERTEX", num_args = 1.., value_delimiter = ',')]
    dead: Vec<String>,
    /// The komi of the game, even or handicap (default: the scenario's, else the ruleset's).
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    komi: Option<String>,
    /// Diagram only: the prisoners each side holds, counted as captures, e.g. B=3,W=2.
    #[arg(long, value_name = "B=n,W=m")]
    prisoners: Option<String>,
    /// Diagram only: the number of handicap stones, for the komi and the compensation (no
    /// stones are placed).
    #[arg(long, value_name = "N")]
    handicap: Option<u32>,
    /// SGF only: count the board with the repairs the record's artifacts imply (a missing
    /// pass inserted, a play on one's own stone read as a pass), as `judge --repair` does.
    /// Without it a move out of turn is played as written, as `judge` plays it.
    #[arg(long)]
    repair: bool,
    /// The output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
}

/// How `score` prints.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    Text,
    Json,
}

pub(super) fn score(root: &Project, args: &ScoreArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let position = load_position(root, &spec, args)?;
    let komi = args
        .komi
        .as_deref()
        .map(|k| k.parse::<Komi>().map_err(|e| format!("--komi: {e}")))
        .transpose()?;
    // Check the overrides once, so a typo is reported even before any ruleset is named.
    let mut probe = Rules::default();
    for assignment in &args.set {
        probe
            .set_assignment(assignment)
            .map_err(|e| format!("--set {assignment}: {e}"))?;
    }
    let (width, height) = position.size();
    let mut dead = Vec::new();
    for vertex in &args.dead {
        let p = Point::parse_gtp(vertex, width, height).map_err(|e| format!("--dead: {e}"))?;
        if !dead.contains(&p) {
            dead.push(p);
        }
    }
    let record = match &position {
        Position::Scenario {
            record: Some(record),
            ..
        } => Some(record.as_ref()),
        _ => None,
    };
    if args.repair && record.is_none() {
        return Err("--repair is for SGF records".to_string());
    }
    if let (Some(record), Format::Text, true) = (record, args.format, args.dead.is_empty()) {
        // The stones the record's marks name, on the board its moves make under the first
        // ruleset asked for.
        let (_, rules, _) = chosen_rules(&spec, &position, args, komi)?;
        if let Ok(counted) = crate::sgf::judge::count_record(record, rules, args.repair, None) {
            if let Some(marked) = counted.marked.filter(|m| !m.is_empty()) {
                let names: Vec<String> = marked.iter().map(|p| p.to_string()).collect();
                outln!(
                    "dead stones from the record's TB/TW marks: {}",
                    names.join(" ")
                );
            }
        }
    }
    // A record is counted on the board `judge` counts (`sgf::judge::count_record`): its moves
    // as judge replays them, the players' agreement where play stopped with two passes.
    let score_one = |label: String, rules: Rules, origin: String| match record {
        Some(record) => {
            crate::scoring::score_record(record, label, rules, origin, &dead, args.repair)
        }
        None => score_under(&position, label, rules, origin, &dead),
    };

    let mut scored = Vec::new();
    if args.all_rulesets {
        for def in spec.rulesets() {
            let (rules, origin) = ruleset_rules(&spec, &position, &def.name, args, komi)?;
            scored.push(score_one(def.name.clone(), rules, origin));
        }
    } else {
        let (label, rules, origin) = chosen_rules(&spec, &position, args, komi)?;
        scored.push(score_one(label, rules, origin));
    }

    // A dead vertex that is empty in every position scored is a mistake, not a ruling.
    for &p in &dead {
        let somewhere = scored.iter().any(|s| match &s.outcome {
            Ok(o) => o.fin.board.get(p).is_some(),
            Err(_) => true,
        });
        if !somewhere {
            return Err(format!(
                "--dead {p}: there is no stone at {p} in the final position"
            ));
        }
    }
    if !args.all_rulesets {
        if let Some(Err(message)) = scored.first().map(|s| &s.outcome) {
            return Err(format!("{}: {message}", args.file.display()));
        }
    }

    match args.format {
        Format::Json => print_json(root, &position, &scored, args.all_rulesets)?,
        Format::Text if args.all_rulesets => print_table(root, &position, &scored),
        Format::Text => print_one(root, &position, &scored[0]),
    }
    Ok(ExitCode::SUCCESS)
}

fn load_position(root: &Project, spec: &Spec, args: &ScoreArgs) -> Result<Position, String> {
    let path = &args.file;
    if path.is_dir() {
        return Err(format!(
            "{} is a folder; score takes one scenario or diagram file",
            path.display()
        ));
    }
    if !path.exists() {
        return Err(format!("cannot read {}: no such file", path.display()));
    }
    if crate::sgf::is_sgf(path) {
        for (given, flag) in [
            (args.prisoners.is_some(), "--prisoners"),
            (args.handicap.is_some(), "--handicap"),
        ] {
            if given {
                return Err(format!(
                    "{flag} is for diagram files; a record's prisoners and handicap come from its moves and set-up"
                ));
            }
        }
        let record = super::records::load_record(
            path,
            super::records::game_index(args.game)?,
            &Default::default(),
        )?;
        let wanted: Vec<String> = args.rules.iter().cloned().collect();
        let rulesets = match crate::sgf::convert::rulesets_for(&record, &wanted) {
            Ok(names) => names,
            Err(_) if args.all_rulesets => Vec::new(),
            Err(message) => return Err(message),
        };
        let scenario = crate::sgf::convert::to_scenario(&record, &rulesets, spec)?;
        return Ok(Position::Scenario {
            scenario: Box::new(scenario),
            record: Some(Box::new(record)),
        });
    }
    if args.game.is_some() {
        return Err("--game is for SGF records".to_string());
    }
    if path.extension().is_some_and(|x| x == "toml") {
        for (given, flag) in [
            (args.prisoners.is_some(), "--prisoners"),
            (args.handicap.is_some(), "--handicap"),
        ] {
            if given {
                return Err(format!(
                    "{flag} is for diagram files; a scenario's prisoners and handicap come from the scenario itself"
                ));
            }
        }
        let suite = load_suite(root, std::slice::from_ref(path), spec)?;
        let Some(scenario) = suite.scenarios.into_iter().next() else {
            return Err(format!("{} holds no scenario", path.display()));
        };
        Ok(Position::Scenario {
            scenario: Box::new(scenario),
            record: None,
        })
    } else {
        let text = super::read_input(path)?;
        let board = diagram::read_board(path, &text)?;
        let prisoners = match &args.prisoners {
            None => Prisoners::default(),
            Some(p) => Prisoners {
                captures: parse_prisoners(p)?,
                ..Prisoners::default()
            },
        };
        let handicap = args.handicap.unwrap_or(0);
        if handicap == 1 {
            return Err("--handicap 1: one stone is an even game without komi; give --handicap 0 and the komi with --komi".to_string());
        }
        if handicap > 9 {
            return Err(format!(
                "--handicap {handicap}: a handicap is 2 to 9 stones (0 for an even game)"
            ));
        }
        Ok(Position::Diagram {
            path: path.clone(),
            board,
            prisoners,
            handicap,
        })
    }
}

/// Reads `B=3,W=2` (either may be left out; colours as GTP writes them).
fn parse_prisoners(text: &str) -> Result<[u32; 2], String> {
    let wrong = |why: String| format!("--prisoners {text}: {why}; expected B=n,W=m, e.g. B=3,W=2");
    let mut held = [0u32; 2];
    let mut seen = [false; 2];
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((colour, n)) = part.split_once('=') else {
            return Err(wrong(format!("`{part}` is not COLOUR=NUMBER")));
        };
        let Some(colour) = Color::parse(colour.trim()) else {
            return Err(wrong(format!("`{}` is not B or W", colour.trim())));
        };
        let Ok(n) = n.trim().parse::<u32>() else {
            return Err(wrong(format!("`{}` is not a whole number", n.trim())));
        };
        if seen[colour.index()] {
            return Err(wrong(format!("{} is given twice", colour.letter())));
        }
        seen[colour.index()] = true;
        held[colour.index()] = n;
    }
    Ok(held)
}

/// The rules of a named ruleset for this position: the scenario-wide `set` and `komi` (as the
/// scenario's own runs get them), then `--set`, then `--komi`. A small helper that builds what
/// the scenario loader's `resolve_runs` builds for a named run.
fn ruleset_rules(
    spec: &Spec,
    position: &Position,
    name: &str,
    args: &ScoreArgs,
    komi: Option<Komi>,
) -> Result<(Rules, String), String> {
    let mut rules = spec.rules(name)?;
    let mut origin = Vec::new();
    if let Position::Scenario { scenario: wide, .. } = position {
        for (axis, word) in &wide.set {
            rules
                .set(axis, word)
                .map_err(|e| format!("the scenario's set.{axis}: {e}"))?;
            origin.push(format!("{axis}={word} from the scenario"));
        }
        if let Some(k) = wide.komi {
            rules.komi = k;
            rules.handicap_komi = k;
            origin.push(format!("komi {k} from the scenario"));
        }
    }
    apply_command_line(&mut rules, args, komi, &mut origin)?;
    Ok((rules, origin.join(", ")))
}

fn apply_command_line(
    rules: &mut Rules,
    args: &ScoreArgs,
    komi: Option<Komi>,
    origin: &mut Vec<String>,
) -> Result<(), String> {
    for assignment in &args.set {
        rules
            .set_assignment(assignment)
            .map_err(|e| format!("--set {assignment}: {e}"))?;
        origin.push(format!("--set {assignment}"));
    }
    if let Some(k) = komi {
        rules.komi = k;
        rules.handicap_komi = k;
        origin.push(format!("--komi {k}"));
    }
    Ok(())
}

/// The one set of rules asked for without `--all-rulesets`: a run of the scenario by name, a
/// ruleset by name, or the default (the scenario's first run; aga for a diagram).
fn chosen_rules(
    spec: &Spec,
    position: &Position,
    args: &ScoreArgs,
    komi: Option<Komi>,
) -> Result<(String, Rules, String), String> {
    let name = args.rules.as_deref();
    if let Position::Scenario { scenario, .. } = position {
        let run = match name {
            None => scenario.runs.first(),
            Some(n) => scenario.runs.iter().find(|r| r.label == n),
        };
        if let Some(run) = run {
            let mut rules = run.rules;
            let mut origin: Vec<String> = Vec::new();
            if run.label != run.ruleset {
                origin.push(format!("the scenario's run of {}", run.ruleset));
            }
            origin.extend(
                run.overrides
                    .iter()
                    .map(|(a, v)| format!("{a}={v} from the scenario")),
            );
            if let Some(k) = scenario.komi {
                origin.push(format!("komi {k} from the scenario"));
            }
            apply_command_line(&mut rules, args, komi, &mut origin)?;
            return Ok((run.label.clone(), rules, origin.join(", ")));
        }
        if let Some(n) = name {
            if spec.ruleset(n).is_none() {
                let runs: Vec<&str> = scenario.runs.iter().map(|r| r.label.as_str()).collect();
                return Err(format!(
                    "unknown ruleset `{n}`: not one of the scenario's runs ({}) nor a known ruleset ({})",
                    runs.join(", "),
                    spec.ruleset_names().join(", ")
                ));
            }
        }
    }
    let name = name.unwrap_or("aga");
    let (rules, origin) = ruleset_rules(spec, position, name, args, komi)?;
    Ok((name.to_string(), rules, origin))
}

/// The first lines of every text report: what position is scored.
fn print_heading(root: &Project, position: &Position) {
    match position {
        Position::Scenario { scenario, .. } => {
            outln!(
                "{} ({}): {}",
                scenario.id,
                relative(root, &scenario.path),
                scenario.title
            );
        }
        Position::Diagram {
            path,
            board,
            prisoners,
            handicap,
        } => {
            let handicap = match handicap {
                0 => "even game".to_string(),
                n => format!("handicap {n}"),
            };
            outln!(
                "{} ({}x{} diagram, prisoners B {} W {}, {handicap})",
                relative(root, path),
                board.width(),
                board.height(),
                prisoners.captures[0],
                prisoners.captures[1]
            );
        }
    }
}

fn method(scoring: Scoring) -> &'static str {
    match scoring {
        Scoring::Area => "area counting: stones on the board + territory (+ komi and handicap compensation for White)",
        Scoring::Territory => "territory counting: territory + prisoners (captures, dead stones, pass stones) (+ komi for White)",
    }
}

fn seki_words(seki: SekiEyes) -> &'static str {
    match seki {
        SekiEyes::Count => "seki eye points count as territory",
        SekiEyes::Neutral => "the empty points of a group in seki count for nobody",
    }
}

fn print_one(root: &Project, position: &Position, s: &Scored) {
    print_heading(root, position);
    let Ok(o) = &s.outcome else {
        return;
    };
    let under = if s.origin.is_empty() {
        s.label.clone()
    } else {
        format!("{} ({})", s.label, s.origin)
    };
    match position {
        Position::Scenario {
            record: Some(record),
            ..
        } => outln!(
            "position: after the record's {} moves, replayed as `judge` replays them, under {under}",
            record.events.len()
        ),
        Position::Scenario { scenario, .. } => outln!(
            "position: after the scenario's {} events replayed under {under}",
            scenario.events.len()
        ),
        Position::Diagram { .. } => outln!("position: as given, scored under {under}"),
    }
    outln!("{}", method(s.rules.scoring));
    outln!(
        "seki eyes: {} ({})",
        s.rules.seki_eyes,
        seki_words(s.rules.seki_eyes)
    );
    let komi = if o.fin.handicap >= 2 {
        format!(
            "handicap {} stones: handicap komi {}, compensation {}",
            o.fin.handicap, s.rules.handicap_komi, s.rules.handicap_compensation
        )
    } else {
        format!("even game: komi {}", s.rules.komi)
    };
    outln!("{komi}");
    outln!();
    print_board(&o.fin.board, &o.removed);
    if !o.removed.is_empty() {
        let names: Vec<String> = o.removed.iter().map(|p| p.to_string()).collect();
        outln!("counted dead (x, o): {}", names.join(" "));
    }
    outln!();
    let c = &o.count;
    let (area, territory) = (c.scoring == Scoring::Area, c.scoring == Scoring::Territory);
    let whole = |v: [u32; 2]| [v[0].to_string(), v[1].to_string()];
    let halves = |v: [i32; 2]| [format_points(v[0]), format_points(v[1])];
    let rows: [(&str, [String; 2], bool); 8] = [
        ("territory", whole(c.territory), true),
        ("stones on the board", whole(c.stones), area),
        ("captures", whole(c.captures), territory),
        ("dead stones", whole(c.dead), territory),
        ("pass stones", whole(c.pass_stones), territory),
        ("komi", halves(c.komi), true),
        ("handicap compensation", halves(c.compensation), true),
        ("total", halves(c.total), true),
    ];
    outln!("{:<22} {:>7} {:>7}", "", "Black", "White");
    for (name, [b, w], counted) in rows {
        let mark = if counted { "" } else { "   (not counted)" };
        outln!("{name:<22} {b:>7} {w:>7}{mark}");
    }
    outln!();
    outln!("result: {}", o.result());
    print_notes(&o.notes, None);
}

/// The position with the stones counted dead in lower case, and coordinates.
fn print_board(board: &Board, dead: &[Point]) {
    for line in super::board_lines(board, dead) {
        outln!("  {line}");
    }
}

fn print_notes(notes: &[String], label: Option<&str>) {
    for note in notes {
        match label {
            Some(l) => outln!("  {l}: {note}"),
            None => outln!("note: {note}"),
        }
    }
}

fn print_table(root: &Project, position: &Position, scored: &[Scored]) {
    print_heading(root, position);
    match position {
        Position::Scenario { scenario, .. } => {
            let mut line = format!(
                "the scenario's {} events replayed under every ruleset",
                scenario.events.len()
            );
            let mut given: Vec<String> = scenario
                .set
                .iter()
                .map(|(a, v)| format!("{a}={v}"))
                .collect();
            if let Some(k) = scenario.komi {
                given.push(format!("komi {k}"));
            }
            if !given.is_empty() {
                line.push_str(&format!(", with the scenario's {}", given.join(", ")));
            }
            outln!("{line}");
        }
        Position::Diagram { .. } => outln!("the position as given, under every ruleset"),
    }
    let handicap = scored
        .iter()
        .filter_map(|s| s.outcome.as_ref().ok())
        .map(|o| o.fin.handicap)
        .max()
        .unwrap_or(0);
    if handicap >= 2 {
        outln!(
            "a handicap of {handicap} stones: the komi is each ruleset's handicap komi, and White's total includes the handicap compensation under area counting"
        );
    }
    outln!();
    let header = [
        "ruleset",
        "counting",
        "seki eyes",
        "komi",
        "B total",
        "W total",
        "result",
    ];
    let mut rows: Vec<[String; 7]> = Vec::new();
    for s in scored {
        let (komi, b, w, result) = match &s.outcome {
            Ok(o) => (
                format_points(o.count.komi[Color::White.index()]),
                format_points(o.count.total[0]),
                format_points(o.count.total[1]),
                o.result(),
            ),
            Err(_) => (
                s.rules.komi.to_string(),
                "-".to_string(),
                "-".to_string(),
                "not scored".to_string(),
            ),
        };
        rows.push([
            s.label.clone(),
            s.rules.scoring.to_string(),
            s.rules.seki_eyes.to_string(),
            komi,
            b,
            w,
            result,
        ]);
    }
    let mut widths = header.map(str::len);
    for row in &rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.len());
        }
    }
    let line = |cells: &[String]| {
        let parts: Vec<String> = cells
            .iter()
            .zip(widths)
            .enumerate()
            .map(|(i, (c, w))| {
                if (3..=5).contains(&i) {
                    format!("{c:>w$}")
                } else {
                    format!("{c:<w$}")
                }
            })
            .collect();
        outln!("{}", parts.join("  ").trim_end());
    };
    line(&header.map(String::from));
    line(&widths.map(|w| "-".repeat(w)));
    for row in &rows {
        line(row);
    }
    outln!();
    for sentence in parting(scored) {
        outln!("{sentence}");
    }
    // Notes every ruleset shares (an event the scenario means to be refused, say) once.
    let outcomes: Vec<&Outcome> = scored
        .iter()
        .filter_map(|s| s.outcome.as_ref().ok())
        .collect();
    let shared: Vec<&String> = match outcomes.split_first() {
        Some((first, rest)) if !rest.is_empty() => first
            .notes
            .iter()
            .filter(|n| rest.iter().all(|o| o.notes.contains(n)))
            .collect(),
        _ => Vec::new(),
    };
    let own = |o: &Outcome| -> Vec<String> {
        o.notes
            .iter()
            .filter(|n| !shared.contains(n))
            .cloned()
            .collect()
    };
    let any_notes = !shared.is_empty()
        || scored.iter().any(|s| match &s.outcome {
            Ok(o) => !own(o).is_empty(),
            Err(_) => true,
        });
    if any_notes {
        outln!();
        outln!("notes:");
        for note in &shared {
            outln!("  every ruleset: {note}");
        }
        for s in scored {
            match &s.outcome {
                Ok(o) => print_notes(&own(o), Some(&s.label)),
                Err(e) => outln!("  {}: not scored: {e}", s.label),
            }
        }
    }
}

#[derive(Serialize)]
struct JsonReport {
    source: JsonSource,
    scores: Vec<JsonScore>,
    /// Where the rulesets part (only with --all-rulesets).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    parting: Vec<String>,
}

#[derive(Serialize)]
struct JsonSource {
    kind: &'static str,
    path: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    title: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    events: Option<usize>,
    width: u8,
    height: u8,
}

#[derive(Serialize)]
struct JsonScore {
    ruleset: String,
    counting: String,
    seki_eyes: String,
    ending: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    phase: Option<String>,
    handicap: u32,
    komi: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    black: Option<JsonSide>,
    #[serde(skip_serializing_if = "Option::is_none")]
    white: Option<JsonSide>,
    #[serde(skip_serializing_if = "Option::is_none")]
    result: Option<String>,
    /// `B`, `W`, or null for a draw.
    winner: Option<char>,
    dead: Vec<String>,
    refused: Vec<JsonRefused>,
    notes: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

#[derive(Serialize)]
struct JsonSide {
    territory: u32,
    stones: u32,
    captures: u32,
    dead: u32,
    pass_stones: u32,
    komi: f64,
    compensation: f64,
    total: f64,
}

#[derive(Serialize)]
struct JsonRefused {
    event: usize,
    text: String,
    reason: String,
}

fn json_score(s: &Scored) -> JsonScore {
    let half = |h: i32| f64::from(h) / 2.0;
    let mut out = JsonScore {
        ruleset: s.label.clone(),
        counting: s.rules.scoring.to_string(),
        seki_eyes: s.rules.seki_eyes.to_string(),
        ending: s.rules.ending.to_string(),
        phase: None,
        handicap: 0,
        komi: s.rules.komi.as_f64(),
        black: None,
        white: None,
        result: None,
        winner: None,
        dead: Vec::new(),
        refused: Vec::new(),
        notes: Vec::new(),
        error: None,
    };
    match &s.outcome {
        Err(e) => out.error = Some(e.clone()),
        Ok(o) => {
            let c = &o.count;
            let side = |i: usize| JsonSide {
                territory: c.territory[i],
                stones: c.stones[i],
                captures: c.captures[i],
                dead: c.dead[i],
                pass_stones: c.pass_stones[i],
                komi: half(c.komi[i]),
                compensation: half(c.compensation[i]),
                total: half(c.total[i]),
            };
            out.phase = o.fin.phase.map(|p| p.to_string());
            out.handicap = o.fin.handicap;
            out.komi = half(c.komi[Color::White.index()]);
            out.black = Some(side(0));
            out.white = Some(side(1));
            out.result = Some(o.result());
            out.winner = o.winner().map(Color::letter);
            out.dead = o.removed.iter().map(|p| p.to_string()).collect();
            out.refused = o
                .fin
                .refused
                .iter()
                .map(|r| JsonRefused {
                    event: r.number,
                    text: r.event.to_string(),
                    reason: r.reason.to_string(),
                })
                .collect();
            out.notes = o.notes.clone();
        }
    }
    out
}

fn print_json(
    root: &Project,
    position: &Position,
    scored: &[Scored],
    all: bool,
) -> Result<(), String> {
    let (width, height) = position.size();
    let source = match position {
        Position::Scenario { scenario, .. } => JsonSource {
            kind: "scenario",
            path: relative(root, &scenario.path),
            id: Some(scenario.id.clone()),
            title: Some(scenario.title.clone()),
            events: Some(scenario.events.len()),
            width,
            height,
        },
        Position::Diagram { path, .. } => JsonSource {
            kind: "diagram",
            path: relative(root, path),
            id: None,
            title: None,
            events: None,
            width,
            height,
        },
    };
    let report = JsonReport {
        source,
        scores: scored.iter().map(json_score).collect(),
        parting: if all { parting(scored) } else { Vec::new() },
    };
    let text = serde_json::to_string_pretty(&report)
        .map_err(|e| format!("cannot write the report as JSON: {e}"))?;
    outln!("{text}");
    Ok(())
}
