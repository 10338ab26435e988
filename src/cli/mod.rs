//! The `goconform` command line: thin faces over the library.
//!
//! Each subcommand loads what it needs (the spec, the suite), calls the library, and prints.
//! Exit codes: 0 success, 1 a check or lint failed, 2 bad input (unreadable or invalid files,
//! unknown names).

mod check;
mod ruling;
mod score;
mod views;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::rules::Rules;
use crate::scenario::Suite;
use crate::spec::Spec;

#[derive(Parser)]
#[command(
    name = "goconform",
    version,
    about = "The rules of Go under AGA-style rules, as a specification and a conformance suite"
)]
struct Cli {
    /// The project folder holding spec/ and conformance/ (default: found from the current
    /// folder upwards, else the folder this binary was built from).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the reference executor over scenarios and report every failure.
    Check(check::CheckArgs),
    /// Show a scenario move by move: the position after each move, with the verdicts.
    Show {
        scenario: PathBuf,
        /// Only the runs of this ruleset.
        #[arg(long, value_name = "NAME")]
        rules: Option<String>,
    },
    /// Explain a clause: what it says, the rulesets that adopt it, and its scenarios.
    Explain { clause: String },
    /// The rulesets and their axis values side by side.
    Rulesets,
    /// Check the suite as a whole: files, names, and coverage of board-play clauses.
    Lint {
        /// Scenario files or folders (default: the whole suite).
        paths: Vec<PathBuf>,
    },
    /// Clauses by level with the scenarios that cover them.
    Coverage {
        /// Only clauses of this document (e.g. london-open).
        #[arg(long, value_name = "ID")]
        document: Option<String>,
        /// Also list informative clauses.
        #[arg(long)]
        all: bool,
    },
    /// Score a final position (a scenario's or a diagram's) under one ruleset or all of them.
    Score(score::ScoreArgs),
    /// Rule on a violation standing on the board: a game record with `notice`, under the BGA,
    /// London Open and AGA procedures side by side, with the clauses behind each ruling.
    Ruling(ruling::RulingArgs),
    /// Speak GTP version 2 on standard input and output, with the reference as referee.
    Gtp {
        /// The ruleset to start with.
        #[arg(long, value_name = "NAME", default_value = "aga")]
        rules: String,
        /// Change one axis, e.g. --set ko=situational (repeatable).
        #[arg(long = "set", value_name = "AXIS=VALUE")]
        set: Vec<String>,
    },
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    let root = find_root(cli.root.as_deref());
    let result = match cli.command {
        Command::Check(args) => check::check(&root, &args),
        Command::Show { scenario, rules } => check::show(&root, &scenario, rules.as_deref()),
        Command::Explain { clause } => views::explain(&root, &clause),
        Command::Rulesets => views::rulesets(&root),
        Command::Lint { paths } => views::lint(&root, &paths),
        Command::Coverage { document, all } => views::coverage(&root, document.as_deref(), all),
        Command::Score(args) => score::score(&root, &args),
        Command::Ruling(args) => ruling::ruling(&root, &args),
        Command::Gtp { rules, set } => gtp(&root, &rules, &set),
    };
    match result {
        Ok(code) => code,
        Err(message) => {
            eprintln!("goconform: {message}");
            ExitCode::from(2)
        }
    }
}

/// The outcome of a subcommand: an exit code, or a message for bad input.
type CommandResult = Result<ExitCode, String>;

fn find_root(given: Option<&Path>) -> PathBuf {
    if let Some(root) = given {
        return root.to_path_buf();
    }
    if let Ok(cwd) = std::env::current_dir() {
        let mut dir: Option<&Path> = Some(&cwd);
        while let Some(d) = dir {
            if d.join("spec").join("rulesets").is_dir() && d.join("conformance").is_dir() {
                return d.to_path_buf();
            }
            dir = d.parent();
        }
    }
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn load_spec(root: &Path) -> Result<Spec, String> {
    Spec::load(root).map_err(|e| {
        format!(
            "the specification under {} is invalid:\n{e}",
            root.display()
        )
    })
}

fn load_suite(root: &Path, paths: &[PathBuf], spec: &Spec) -> Result<Suite, String> {
    let default = [root.join("conformance")];
    let paths = if paths.is_empty() {
        &default[..]
    } else {
        paths
    };
    Suite::load(paths, spec).map_err(|e| format!("cannot load scenarios:\n{e}"))
}

/// Rules from a ruleset name plus `AXIS=VALUE` overrides.
fn rules_with(spec: &Spec, name: &str, set: &[String]) -> Result<Rules, String> {
    let mut rules = spec.rules(name)?;
    for assignment in set {
        rules
            .set_assignment(assignment)
            .map_err(|e| e.to_string())?;
    }
    Ok(rules)
}

fn gtp(root: &Path, name: &str, set: &[String]) -> CommandResult {
    let spec = load_spec(root)?;
    let rules = rules_with(&spec, name, set)?;
    let resolve = |n: &str| spec.rules(n);
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    crate::gtp::serve(
        stdin.lock(),
        stdout.lock(),
        rules,
        name.to_string(),
        &resolve,
    )
    .map_err(|e| format!("GTP session ended with an I/O error: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// A path as reports show it: relative to the project root where it lies inside it.
fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .display()
        .to_string()
}

/// A board as text lines with coordinates, top row first: `X` black, `O` white, `.` empty,
/// and the stones at `marked` in lower case (dead stones, a stone in question).
fn board_lines(board: &crate::board::Board, marked: &[crate::board::Point]) -> Vec<String> {
    let mut lines: Vec<String> = (0..board.height())
        .rev()
        .map(|row| {
            let cells: Vec<String> = (0..board.width())
                .map(|col| {
                    let p = crate::board::Point::new(col, row);
                    match board.get(p) {
                        None => ".".to_string(),
                        Some(c) if marked.contains(&p) => {
                            c.stone_char().to_ascii_lowercase().to_string()
                        }
                        Some(c) => c.stone_char().to_string(),
                    }
                })
                .collect();
            format!("{:>2} {}", u32::from(row) + 1, cells.join(" "))
        })
        .collect();
    lines.push(format!("   {}", column_letters(board.width())));
    lines
}

/// The column letters of a board diagram's footer (`A B C ... J`, GTP style: no I).
fn column_letters(width: u8) -> String {
    (0..width)
        .map(|col| {
            crate::board::Point::new(col, 0)
                .to_string()
                .chars()
                .next()
                .unwrap_or('?')
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ")
}
