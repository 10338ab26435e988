//! `goconform perft`: GoPerft counts (docs/perft.md), their divide, the check of `.perft`
//! files, and the published tables.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use super::{load_spec, load_suite, rules_with, CommandResult, Project};
use crate::board::Color;
use crate::perft::{self, file, replay, Start};
use crate::rules::Rules;

/// The arguments of `goconform perft`.
#[derive(clap::Args, Debug)]
pub(super) struct PerftArgs {
    /// The ruleset; only the ko and suicide axes change a count (see docs/perft.md).
    #[arg(long, value_name = "NAME", default_value = "aga")]
    rules: String,
    /// Change one axis, e.g. --set ko=situational (repeatable, or comma-separated).
    #[arg(long = "set", value_name = "AXIS=VALUE", value_delimiter = ',')]
    set: Vec<String>,
    /// The empty board of this size: N or WxH (default 3).
    #[arg(long, value_name = "N", conflicts_with = "position")]
    size: Option<String>,
    /// Start from a scenario's set-up instead (its file, or its id as `explain` lists it),
    /// after the first --after N of its moves.
    #[arg(long, value_name = "FILE|ID")]
    position: Option<PathBuf>,
    /// With --position: how many of the scenario's moves to play before counting.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "position")]
    after: usize,
    /// Moves played before counting (after those of --after), e.g. --moves "B A1 W B1": to
    /// follow a difference down a divide.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    /// The number of moves of each line counted.
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Also print each first move with the count below it.
    #[arg(long)]
    divide: bool,
    /// Count through this implementation (as `check --engine` names it) by replaying every
    /// line, instead of the reference's own counter; slow, for small depths.
    #[arg(long, value_name = "SPEC", default_value = "reference")]
    engine: String,
    /// Check the counts of these `.perft` files (exit 1 on a difference); entries above
    /// --max-nodes are skipped and said so.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["depth", "tables"])]
    verify: Vec<PathBuf>,
    /// Write the published tables into DIR: boards.perft, positions.perft and tables.md
    /// (the tables and the first separating lines, as docs/perft.md includes them).
    #[arg(long, value_name = "DIR", conflicts_with = "depth")]
    tables: Option<PathBuf>,
    /// With --verify: skip entries above this count. With --tables: go one depth deeper only
    /// while the next count is estimated at most this (the previous count times the last
    /// growth).
    #[arg(long, value_name = "NODES", default_value_t = 100_000_000)]
    max_nodes: u64,
    /// With --tables: the budget of the empty 4x4 and 5x5 boards instead of --max-nodes, so
    /// that the largest boards go as deep as about a minute of counting allows.
    #[arg(long, value_name = "NODES", requires = "tables")]
    board_max_nodes: Option<u64>,
}

/// `goconform perft`.
pub(super) fn perft(root: &Project, args: &PerftArgs) -> CommandResult {
    if !args.verify.is_empty() {
        return verify(args);
    }
    if let Some(dir) = &args.tables {
        return tables(
            root,
            dir,
            args.max_nodes,
            args.board_max_nodes.unwrap_or(args.max_nodes),
        );
    }
    let Some(depth) = args.depth else {
        return Err("say how deep to count with --depth D (or --verify FILE, --tables DIR)".into());
    };
    let spec = load_spec(root)?;
    let rules = rules_with(&spec, &args.rules, &args.set)?;
    let start = match &args.position {
        Some(path) => scenario_start(root, path, args.after)?,
        None => {
            let text = args.size.as_deref().unwrap_or("3");
            let (w, h) = parse_size(text)?;
            Start::empty(w, h)
        }
    };
    let mut start = start;
    if let Some(text) = &args.moves {
        let words: Vec<&str> = text.split_whitespace().collect();
        if !words.len().is_multiple_of(2) {
            return Err(format!(
                "--moves `{text}`: expected colour and vertex pairs, e.g. \"B A1 W pass\""
            ));
        }
        for pair in words.chunks(2) {
            let event = crate::game::Event::parse(
                &format!("{} {}", pair[0], pair[1]),
                start.setup.width,
                start.setup.height,
            )
            .map_err(|e| format!("--moves: {e}"))?;
            start.moves.push(event);
        }
    }
    let began = Instant::now();
    let (divided, total) = if args.engine == "reference" {
        let game = start.game(&rules)?;
        if args.divide {
            let d = perft::divide(&game, depth);
            let total = d.iter().map(|&(_, n)| n).sum();
            (d, total)
        } else {
            (Vec::new(), perft::perft(&game, depth))
        }
    } else {
        start.game(&rules)?;
        let factory = super::engines::factory(&args.engine, &Default::default())?;
        let mut engine = factory();
        if args.divide {
            let d = replay::divide(engine.as_mut(), &rules, &start, depth)
                .map_err(|e| format!("{}: {e}", args.engine))?;
            let total = d.iter().map(|&(_, n)| n).sum();
            (d, total)
        } else {
            let n = replay::perft(engine.as_mut(), &rules, &start, depth)
                .map_err(|e| format!("{}: {e}", args.engine))?;
            (Vec::new(), n)
        }
    };
    let elapsed = began.elapsed().as_secs_f64();
    for (mv, n) in &divided {
        outln!("{mv}: {n}");
    }
    if args.divide {
        outln!();
    }
    outln!("perft {depth} {total}");
    eprintln!(
        "{} nodes in {elapsed:.3} s ({:.2} M nodes/s), {} from {}, {}",
        total,
        total as f64 / elapsed.max(1e-9) / 1e6,
        args.engine,
        file::position_words(&start.setup),
        rule_words(&rules).join(" ")
    );
    Ok(ExitCode::SUCCESS)
}

fn parse_size(text: &str) -> Result<(u8, u8), String> {
    let bad = || format!("`{text}` is not a board size: N or WxH, from 2 to 25");
    let (w, h) = match text.split_once('x') {
        Some((w, h)) => (w.parse().map_err(|_| bad())?, h.parse().map_err(|_| bad())?),
        None => {
            let n = text.parse().map_err(|_| bad())?;
            (n, n)
        }
    };
    if !(2..=25).contains(&w) || !(2..=25).contains(&h) {
        return Err(bad());
    }
    Ok((w, h))
}

/// The `AXIS=VALUE` words of the axes that change a count.
fn rule_words(rules: &Rules) -> Vec<String> {
    vec![
        format!("ko={}", rules.ko.word()),
        format!("suicide={}", rules.suicide.word()),
    ]
}

/// The set-up of a scenario (file or id) with its first `after` moves.
fn scenario_start(root: &Project, path: &Path, after: usize) -> Result<Start, String> {
    let spec = load_spec(root)?;
    let id = path
        .to_str()
        .filter(|n| crate::spec::is_slug(n) && !path.exists());
    let suite = match id {
        Some(_) => load_suite(root, &[], &spec)?,
        None => load_suite(root, &[path.to_path_buf()], &spec)?,
    };
    let scenario = match id {
        Some(id) => suite.scenarios.iter().find(|s| s.id == id),
        None => suite.scenarios.first(),
    }
    .ok_or_else(|| format!("no scenario {}", path.display()))?;
    if after > scenario.events.len() {
        return Err(format!(
            "--after {after}: the scenario {} has {} moves",
            scenario.id,
            scenario.events.len()
        ));
    }
    Ok(Start {
        setup: scenario.setup.clone(),
        moves: scenario.events[..after].to_vec(),
    })
}

fn verify(args: &PerftArgs) -> CommandResult {
    let mut failed = 0;
    let (mut checked, mut skipped) = (0, 0);
    let factory = if args.engine == "reference" {
        None
    } else {
        Some(super::engines::factory(&args.engine, &Default::default())?)
    };
    for path in &args.verify {
        let text = crate::spec::location::read_text(path).map_err(|e| e.to_string())?;
        let records = file::parse(&text)
            .map_err(|e| format!("{}:{}: {}", path.display(), e.line, e.message))?;
        for r in &records {
            let game = r
                .start
                .game(&r.rules)
                .map_err(|e| format!("{}: {}: {e}", path.display(), r.id))?;
            let mut engine = factory.as_ref().map(|f| f());
            if let Some(e) = engine.as_mut() {
                if let Err(unsupported) = e.start(&r.rules, &r.start.setup) {
                    outln!(
                        "{}: {} ({}): not applicable: {unsupported}",
                        path.display(),
                        r.id,
                        r.rule_words.join(" ")
                    );
                    skipped += r.counts.len();
                    continue;
                }
            }
            for &(depth, expected) in &r.counts {
                if expected > args.max_nodes {
                    skipped += 1;
                    continue;
                }
                let got = match engine.as_mut() {
                    None => perft::perft(&game, depth),
                    Some(e) => replay::perft(e.as_mut(), &r.rules, &r.start, depth)
                        .map_err(|e| format!("{}: {e}", args.engine))?,
                };
                checked += 1;
                if got != expected {
                    failed += 1;
                    outln!(
                        "{}: {} ({}): perft {depth} is {got}, the file says {expected}",
                        path.display(),
                        r.id,
                        r.rule_words.join(" ")
                    );
                }
            }
        }
    }
    outln!(
        "{checked} counts checked with {}, {failed} differ, {skipped} skipped (above --max-nodes {} or not applicable)",
        args.engine,
        args.max_nodes
    );
    Ok(if failed == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}

/// Counts from one start under one rule set, deeper while the estimate of the next count
/// stays within `max_nodes`.
fn deepen(game: &crate::game::Game, max_nodes: u64) -> Vec<(u32, u64)> {
    let mut counts: Vec<(u32, u64)> = Vec::new();
    let mut depth = 1;
    loop {
        let n = perft::perft(game, depth);
        counts.push((depth, n));
        let growth = match counts.len() {
            1 => n,
            k => n.div_ceil(counts[k - 2].1.max(1)),
        };
        if n == 0 || n.saturating_mul(growth.max(1)) > max_nodes || depth >= 60 {
            return counts;
        }
        depth += 1;
    }
}

const SIZES: [u8; 4] = [2, 3, 4, 5];

/// The published tables (see `--tables`).
fn tables(root: &Project, dir: &Path, max_nodes: u64, board_max_nodes: u64) -> CommandResult {
    let mut starts: Vec<(String, String, Start)> = SIZES
        .iter()
        .map(|&n| {
            (
                format!("{n}x{n}"),
                format!("the empty {n}x{n} board"),
                Start::empty(n, n),
            )
        })
        .collect();
    for named in perft::NAMED {
        let start = scenario_start(root, Path::new(named.scenario), named.after)?;
        starts.push((
            named.name.to_string(),
            format!(
                "`{}` after {} moves: {}",
                named.scenario, named.after, named.about
            ),
            start,
        ));
    }
    let all_rules = perft::table_rules();
    let mut boards = Vec::new();
    let mut positions = Vec::new();
    let mut all_columns: Vec<Vec<Vec<(u32, u64)>>> = Vec::new();
    let mut md = String::new();
    let boards_flag = if board_max_nodes == max_nodes {
        String::new()
    } else {
        format!(" --board-max-nodes {board_max_nodes}")
    };
    md.push_str(&format!(
        "Generated by `goconform perft --tables DIR --max-nodes {max_nodes}{boards_flag}`.\n"
    ));
    for (k, (name, about, start)) in starts.iter().enumerate() {
        let mut columns = Vec::new();
        for rules in &all_rules {
            let game = start.game(rules).map_err(|e| format!("{name}: {e}"))?;
            let began = Instant::now();
            let budget = if k < SIZES.len() && SIZES[k] >= 4 {
                board_max_nodes
            } else {
                max_nodes
            };
            let counts = deepen(&game, budget);
            eprintln!(
                "{name} {}: depth {} in {:.1} s",
                rule_words(rules).join(" "),
                counts.len(),
                began.elapsed().as_secs_f64()
            );
            let record = file::Record {
                id: name.clone(),
                start: start.clone(),
                rules: *rules,
                rule_words: rule_words(rules),
                counts: counts.clone(),
            };
            if k < SIZES.len() {
                boards.push(record);
            } else {
                positions.push(record);
            }
            columns.push(counts);
        }
        md.push_str(&format!(
            "\n### {name}\n\n{about}; `position {}`",
            file::position_words(&start.setup)
        ));
        if !start.moves.is_empty() {
            let moves: Vec<String> = start.moves.iter().map(|e| e.to_string()).collect();
            md.push_str(&format!(", `moves {}`", moves.join(" ")));
        }
        md.push_str(".\n\n| depth |");
        for rules in &all_rules {
            md.push_str(&format!(
                " {}<br>{} |",
                rules.ko.word(),
                rules.suicide.word()
            ));
        }
        md.push_str("\n|---|");
        md.push_str(&"---:|".repeat(all_rules.len()));
        md.push('\n');
        let deepest = columns.iter().map(Vec::len).max().unwrap_or(0);
        for d in 1..=deepest {
            md.push_str(&format!("| {d} |"));
            for column in &columns {
                match column.get(d - 1) {
                    Some((_, n)) => md.push_str(&format!(" {n} |")),
                    None => md.push_str(" |"),
                }
            }
            md.push('\n');
        }
        all_columns.push(columns);
    }
    md.push_str(&separations(
        &starts[..SIZES.len()],
        &all_columns[..SIZES.len()],
        max_nodes,
    )?);
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    for (name, text) in [
        ("boards.perft", file::write(&boards)),
        ("positions.perft", file::write(&positions)),
        ("tables.md", md),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        outln!("wrote {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// The first separating line of every pair of ko rules on each board, with suicide forbidden
/// and allowed. A pair whose counts differ in the tables is searched to the first depth where
/// they do (so a line is always found); one whose counts agree, to the depth whose tree stays
/// within a tenth of `max_nodes` under the first rule (the search judges every move under both
/// rules at every node).
fn separations(
    boards: &[(String, String, Start)],
    columns: &[Vec<Vec<(u32, u64)>>],
    max_nodes: u64,
) -> Result<String, String> {
    let all_rules = perft::table_rules();
    let mut md = String::from(
        "\n### First separating lines\n\nThe shortest line (the first in move order) after which a move is legal under one ko rule and not the other; its length is the first depth at which the two trees differ. `counts part at` is the first depth at which the counts in the tables differ. `none to D`: the trees agree through depth D, the deepest searched.\n\n| board | suicide | rules | depth | counts part at | line (the last move is legal only under the rule named first) |\n|---|---|---|---:|---:|---|\n",
    );
    for ((name, _, start), counts) in boards.iter().zip(columns) {
        for (h, half) in all_rules.chunks(4).enumerate() {
            let game = start.game(&half[0])?;
            let within = deepen(&game, max_nodes / 10).len() as u32;
            for i in 0..half.len() {
                for j in i + 1..half.len() {
                    let (a, b) = (&half[i], &half[j]);
                    let (ca, cb) = (&counts[4 * h + i], &counts[4 * h + j]);
                    let parts = ca
                        .iter()
                        .zip(cb)
                        .find(|(x, y)| x.1 != y.1)
                        .map(|(x, _)| x.0);
                    let limit = parts.unwrap_or(within);
                    let found = perft::separation(start, a, b, limit)?;
                    let parts = parts.map_or("-".to_string(), |d| d.to_string());
                    let (depth, line, first, second) = match found {
                        Some(s) => {
                            let (first, second) = if s.legal_under_first { (a, b) } else { (b, a) };
                            (
                                s.depth().to_string(),
                                format!("`{}`", s.describe(Color::Black)),
                                first.ko.word(),
                                second.ko.word(),
                            )
                        }
                        None => (
                            format!("none to {limit}"),
                            String::new(),
                            a.ko.word(),
                            b.ko.word(),
                        ),
                    };
                    md.push_str(&format!(
                        "| {name} | {} | {first} / {second} | {depth} | {parts} | {line} |\n",
                        a.suicide.word()
                    ));
                }
            }
        }
    }
    Ok(md)
}
