//! The `goconform` command line: thin faces over the library.
//!
//! Each subcommand loads what it needs (the spec, the suite), calls the library, and prints.
//! Exit codes: 0 success, 1 a check or lint failed, 2 bad input (unreadable or invalid files,
//! unknown names).

// First, so that `out!` and `outln!` are in scope in every module after it.
#[macro_use]
mod output;

mod book;
mod check;
mod compare;
mod engines;
mod fuzz;
mod judge;
mod mutants;
mod perft;
mod records;
mod referee;
mod ruling;
mod score;
mod tournament;
mod views;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::rules::Rules;
use crate::scenario::{Suite, SuiteFiles};
use crate::spec::{embedded, Spec};

#[derive(Parser)]
#[command(
    name = "goconform",
    version,
    about = "The rules of Go under AGA-style rules, as a specification and a conformance suite"
)]
struct Cli {
    /// The project folder holding spec/ and conformance/ (default: the first folder from the
    /// current folder upwards that holds spec/rulesets and conformance/, else the copy built
    /// into this binary).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// Use the specification and scenarios built into this binary, even inside a project
    /// folder.
    #[arg(long, global = true, conflicts_with = "root")]
    embedded: bool,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run scenarios through an implementation (the reference by default) and report
    /// every trial that fails the run.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform check\n  goconform check conformance/ko --rules bga\n  goconform check --topic superko --engine naive --format jsonl\n  goconform check --id basic-ko --junit report.xml"
    )]
    Check(check::CheckArgs),
    /// The same trials through several implementations: a table of disagreements grouped by
    /// clause, in Markdown and as an HTML page.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform compare --engine reference --engine naive --topic ko"
    )]
    Compare(compare::CompareArgs),
    /// The implementations `check --engine` and `compare --engine` can run, with their
    /// capabilities.
    Engines,
    /// Random games through the reference and an engine, by default under every named
    /// ruleset the engine claims; each divergence is minimised and written as a scenario.
    /// Exit status: 0 no new finding (known ones, --known, do not count), 1 at least one new
    /// finding, 2 bad input or an engine that does not start.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform fuzz --engine naive --games 200 --seed 7\n  goconform fuzz --engine naive --rules aga,japanese-1989 --games 100 --findings 3 --junit fuzz.xml"
    )]
    Fuzz(fuzz::FuzzArgs),
    /// Run the suite through deliberately broken executors and list the scenarios that
    /// catch each; exits 1 if any broken executor passes the whole suite.
    Mutants(mutants::MutantsArgs),
    /// Show a scenario or an SGF record move by move: the position after each move, with the
    /// verdicts; or write it as SGF.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform show basic-ko --rules bga\n  goconform show conformance/ko/basic-ko.toml --format svg --out diagrams\n  goconform show tests/fixtures/sgf/nssk-retake.sgf --rules aga"
    )]
    Show {
        /// A scenario (.toml, or its id as `explain` lists it, e.g. basic-ko) or an SGF
        /// record (.sgf).
        scenario: PathBuf,
        /// Only the runs of this ruleset (for a record: the ruleset to play it under, default
        /// the one its RU names).
        #[arg(long, value_name = "NAME")]
        rules: Option<String>,
        /// text (the position after every event), sgf (the scenario as a record, its
        /// expectations in the comments) or svg (a diagram of the set-up and of each checked
        /// event, one file each, into --out DIR).
        #[arg(long, value_enum, default_value_t = check::ShowFormat::Text)]
        format: check::ShowFormat,
        /// SGF only: which game of a collection (from 1; default the first).
        #[arg(long, value_name = "N")]
        game: Option<usize>,
        /// svg only: the folder to write the diagrams into (created if need be).
        #[arg(long, value_name = "DIR")]
        out: Option<PathBuf>,
    },
    /// Write the rule book: a static site (no server, no network) with a page per source
    /// document and per scenario, SVG board diagrams of every checked position, the rulesets
    /// side by side, an engines page and a search.
    Book(book::BookArgs),
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
    /// Replay SGF game records under our rulesets: the first move that breaks a rule (with
    /// the clause), the count, and whether the recorded result agrees; a summary at the end.
    /// Exit 2 if a record is unreadable or has no ruleset, 1 if a move breaks a rule.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform judge tests/fixtures/sgf/nssk-retake.sgf\n  goconform judge tests/fixtures/sgf/nssk-retake.sgf tests/fixtures/sgf/four-passes.sgf --all-rulesets --format csv"
    )]
    Judge(judge::JudgeArgs),
    /// Play a match between two GTP engines under a ruleset, refereed by the reference: the
    /// rules' own procedure for illegal moves, passes, the end and disputes, with clocks.
    Referee(referee::RefereeArgs),
    /// Score a final position (a scenario's or a diagram's) under one ruleset or all of them.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform score conformance/counting/dame-counts-for-nobody.toml --all-rulesets"
    )]
    Score(score::ScoreArgs),
    /// Rule on a violation standing on the board: a game record with `notice`, under the BGA,
    /// London Open and AGA procedures side by side, with the clauses behind each ruling.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform ruling tests/fixtures/sgf/suicide.sgf --notice-after 7 --rules bga,aga\n  goconform ruling conformance/incidents/ko-retake-later-without-agreement.toml --format json"
    )]
    Ruling(ruling::RulingArgs),
    /// Final standings of a crosstable (TOML or CSV) with every tiebreak value shown and cash
    /// prizes of tied places pooled (AGA Tournament Rules VI.F, Resolving Ties).
    #[command(
        after_help = "Examples (from a checkout):\n  goconform standings docs/examples/crosstable.csv\n  goconform standings docs/examples/crosstable.csv --tiebreak sos,h2h,chance --seed 3 --prizes 100,50\n  goconform standings docs/examples/mcmahon.csv --bar 2d --floor 5k --bye 1 --format json\n  goconform standings docs/examples/mcmahon.csv --format results"
    )]
    Standings(tournament::StandingsArgs),
    /// Replay a clock event file and print both clocks after each event (VI.E).
    #[command(
        after_help = "Examples (from a checkout):\n  goconform clock docs/examples/clock.toml"
    )]
    Clock { file: PathBuf },
    /// The handicap between two ranks (VI.A.2) and the komi of that game under the 1988 text,
    /// today's AGA rules and the London Open.
    #[command(after_help = "Examples (from a checkout):\n  goconform handicap 3k 2d")]
    Handicap(tournament::HandicapArgs),
    /// Speak the JSON-lines engine protocol (docs/protocol.md) on standard input and
    /// output, with the reference as the engine: what implementers diff against.
    Serve,
    /// Speak GTP version 2 on standard input and output, with the reference as referee.
    Gtp {
        /// The ruleset to start with.
        #[arg(long, value_name = "NAME", default_value = "aga")]
        rules: String,
        /// Change one axis, e.g. --set ko=situational (repeatable, or comma-separated).
        #[arg(long = "set", value_name = "AXIS=VALUE", value_delimiter = ',')]
        set: Vec<String>,
    },
    /// GoPerft: count the lines of legal moves of a given length from a position (docs/perft.md),
    /// split by first move with --divide; check .perft files; write the published tables.
    #[command(
        after_help = "Examples (from a checkout):\n  goconform perft --rules tromp-taylor --size 3 --depth 5\n  goconform perft --set ko=situational --position basic-ko --after 1 --depth 3 --divide\n  goconform perft --verify docs/perft/boards.perft --max-nodes 100000"
    )]
    Perft(perft::PerftArgs),
    /// Write the embedded specification and scenarios (spec/, conformance/) into DIR, so they
    /// can be read, edited and run with --root DIR, with the JSON-lines protocol and both
    /// schemas (docs/protocol.md, docs/protocol.schema.json, docs/report.schema.json).
    #[command(
        after_help = "Examples:\n  goconform export suite-copy\n  goconform export --vectors vectors"
    )]
    Export {
        /// Where to write spec/ and conformance/ (optional with --vectors).
        #[arg(required_unless_present = "vectors")]
        dir: Option<PathBuf>,
        /// Write every board trial as a language-neutral JSON test vector into this folder,
        /// with index.json and schema.json (docs/vectors.md).
        #[arg(long, value_name = "DIR")]
        vectors: Option<PathBuf>,
        /// Overwrite files under DIR that differ from the embedded copy.
        #[arg(long)]
        force: bool,
        /// Also write every scenario as an SGF record, DIR/sgf/TOPIC/ID.sgf, with the
        /// expectations of each move in its comment (any GUI opens them).
        #[arg(long)]
        sgf: bool,
    },
}

/// What clap's own exit does for `--help`, `--version` and bad arguments, but with a failed
/// write as an error: clap ignores it, so `goconform --help > /dev/full` exited 0.
fn arguments_refused(e: &clap::Error) -> ExitCode {
    let printed = e.print().and_then(|()| {
        use std::io::Write;
        std::io::stdout().flush()?;
        std::io::stderr().flush()
    });
    if let Err(w) = printed {
        eprintln!("goconform: cannot write to standard output: {w}");
        return ExitCode::from(2);
    }
    ExitCode::from(u8::try_from(e.exit_code()).unwrap_or(2))
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return arguments_refused(&e),
    };
    let root = Project::find(cli.root.as_deref(), cli.embedded);
    let result = match cli.command {
        Command::Check(args) => check::check(&root, &args),
        Command::Compare(args) => compare::compare(&root, &args),
        Command::Engines => engines::list(),
        Command::Fuzz(args) => fuzz::fuzz(&root, &args),
        Command::Mutants(args) => mutants::mutants(&root, &args),
        Command::Serve => serve(),
        Command::Show {
            scenario,
            rules,
            format,
            game,
            out,
        } => check::show(
            &root,
            &scenario,
            rules.as_deref(),
            format,
            game,
            out.as_deref(),
        ),
        Command::Book(args) => book::book(&root, &args),
        Command::Explain { clause } => views::explain(&root, &clause),
        Command::Rulesets => views::rulesets(&root),
        Command::Lint { paths } => views::lint(&root, &paths),
        Command::Coverage { document, all } => views::coverage(&root, document.as_deref(), all),
        Command::Judge(args) => judge::judge_command(&root, &args),
        Command::Referee(args) => referee::referee_command(&root, &args),
        Command::Score(args) => score::score(&root, &args),
        Command::Ruling(args) => ruling::ruling(&root, &args),
        Command::Standings(args) => tournament::standings_command(&args),
        Command::Clock { file } => tournament::clock_command(&file),
        Command::Handicap(args) => tournament::handicap_command(&root, &args),
        Command::Perft(args) => perft::perft(&root, &args),
        Command::Gtp { rules, set } => gtp(&root, &rules, &set),
        Command::Export {
            dir,
            vectors,
            force,
            sgf,
        } => export(&root, dir.as_deref(), vectors.as_deref(), force, sgf),
    };
    let written = output::finish();
    match (result, written) {
        (_, Err(message)) | (Err(message), Ok(())) => {
            if message.trim().is_empty() {
                // Every failure says what went wrong; an empty one is our bug, said as such.
                eprintln!("goconform: failed with no message (a bug in goconform: please report it with the command line)");
            } else {
                eprintln!("goconform: {message}");
            }
            ExitCode::from(2)
        }
        (Ok(code), Ok(())) => code,
    }
}

/// The factory for an engine spec as `--engine` takes it (`reference`, `naive`, a GNU Go
/// profile, `goban`, `gtp:CMD`, `jsonl:CMD`) with the default time limits, for tools outside
/// the command line: the `differential_engine` fuzz target and `tests/fuzz_corpus.rs` pick
/// their engine with it.
pub fn engine_factory(
    spec: &str,
) -> Result<Box<crate::conformance::harness::Factory<'static>>, String> {
    engines::factory(spec, &engines::EngineOptions::default())
}

/// [`engine_factory`] with `--claim` settings (`ko=simple`, ...) laid over the engine's
/// profile: how the `differential_engine` fuzz target holds a `gtp:` engine to its rules.
pub fn engine_factory_claiming(
    spec: &str,
    claims: &[String],
) -> Result<Box<crate::conformance::harness::Factory<'static>>, String> {
    let options = engines::EngineOptions {
        claims: claims.to_vec(),
        ..engines::EngineOptions::default()
    };
    engines::factory(spec, &options)
}

/// The rules of the named rulesets of the embedded specification for an engine with these
/// capabilities, as `goconform fuzz --rules` chooses them: the names given (each of which the
/// engine must claim), `any` for none (every mix of axis values), or, with no name, every
/// ruleset the engine claims.
pub fn fuzz_rulesets(
    names: &[String],
    caps: &crate::conformance::Capabilities,
) -> Result<Vec<crate::rules::Rules>, String> {
    let spec = load_spec(&Project::Embedded)?;
    fuzz::rulesets_to_fuzz(&spec, names, caps).map(|(rules, _)| rules)
}

/// The outcome of a subcommand: an exit code, or a message for bad input.
type CommandResult = Result<ExitCode, String>;

/// Where the specification and the scenarios come from.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Project {
    /// A project folder on disk holding spec/ and conformance/.
    Dir(PathBuf),
    /// The copy built into this binary ([`embedded`]); its files are named by their paths
    /// relative to the project root.
    Embedded,
}

impl Project {
    /// `--root DIR` if given; else the embedded copy if asked for; else the first folder from
    /// the current folder upwards that holds spec/rulesets and conformance/; else the embedded
    /// copy.
    fn find(given: Option<&Path>, embedded: bool) -> Project {
        if let Some(root) = given {
            return Project::Dir(root.to_path_buf());
        }
        if embedded {
            return Project::Embedded;
        }
        if let Ok(cwd) = std::env::current_dir() {
            let mut dir: Option<&Path> = Some(&cwd);
            while let Some(d) = dir {
                if d.join("spec").join("rulesets").is_dir() && d.join("conformance").is_dir() {
                    return Project::Dir(d.to_path_buf());
                }
                dir = d.parent();
            }
        }
        Project::Embedded
    }
}

fn load_spec(root: &Project) -> Result<Spec, String> {
    match root {
        Project::Dir(dir) => Spec::load(dir)
            .map_err(|e| format!("the specification under {} is invalid:\n{e}", dir.display())),
        Project::Embedded => {
            embedded::spec().map_err(|e| format!("the embedded specification is invalid:\n{e}"))
        }
    }
}

/// The scenarios at `paths` (files or folders), or the project's whole suite if none are
/// given. Paths are read from disk; with the embedded copy, paths that are not on disk but
/// name embedded files or folders (`conformance/ko`, as reports print them) are taken from it.
fn load_suite(root: &Project, paths: &[PathBuf], spec: &Spec) -> Result<Suite, String> {
    build_suite(SuiteFiles::new(suite_texts(root, paths)?), spec)
}

/// The specification and the scenarios at `paths` (as [`load_suite`] finds them), the
/// scenario files read and deserialized while the specification loads: neither needs the
/// other until the scenarios are checked against the specification. A specification that does
/// not load is the error reported, as when the two were loaded one after the other.
fn load_spec_and_suite(root: &Project, paths: &[PathBuf]) -> Result<(Spec, Suite), String> {
    let (spec, files) = rayon::join(
        || load_spec(root),
        || suite_texts(root, paths).map(SuiteFiles::new),
    );
    let spec = spec?;
    let suite = build_suite(files?, &spec)?;
    Ok((spec, suite))
}

/// Leaves what a command loaded to the operating system instead of freeing it: the process
/// ends as soon as the command returns, and freeing a loaded suite and its report piece by
/// piece took about half a millisecond of `check`'s fifteen, for nothing.
fn left_to_exit<T>(loaded: T) {
    std::mem::forget(loaded);
}

/// The texts of the scenario files [`load_suite`] loads.
fn suite_texts(root: &Project, paths: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, String> {
    let read = match root {
        Project::Embedded if paths.is_empty() => Ok(embedded::scenario_texts()),
        Project::Embedded if paths.iter().all(|p| !p.exists()) => match embedded_scenarios(paths) {
            Some(texts) => Ok(texts),
            None => Suite::read(paths),
        },
        Project::Dir(dir) if paths.is_empty() => Suite::read(&[dir.join("conformance")]),
        _ => Suite::read(paths),
    };
    read.map_err(|e| format!("cannot load scenarios:\n{e}"))
}

fn build_suite(files: SuiteFiles, spec: &Spec) -> Result<Suite, String> {
    files
        .check(spec)
        .map_err(|e| format!("cannot load scenarios:\n{e}"))
}

/// The embedded scenario files named by `paths` (relative files or folders, e.g.
/// `conformance/ko/basic-ko.toml` or `conformance/ko`), or `None` if some path names none.
fn embedded_scenarios(paths: &[PathBuf]) -> Option<Vec<(PathBuf, String)>> {
    let all = embedded::scenario_texts();
    let mut chosen: Vec<(PathBuf, String)> = Vec::new();
    for path in paths {
        let mut key = PathBuf::new();
        for component in path.components() {
            match component {
                std::path::Component::CurDir => {}
                std::path::Component::Normal(name) => key.push(name),
                _ => return None,
            }
        }
        let named: Vec<&(PathBuf, String)> = all
            .iter()
            .filter(|(file, _)| file.starts_with(&key))
            .collect();
        if key.as_os_str().is_empty() || named.is_empty() {
            return None;
        }
        for file in named {
            if !chosen.iter().any(|(c, _)| *c == file.0) {
                chosen.push(file.clone());
            }
        }
    }
    Some(chosen)
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

fn gtp(root: &Project, name: &str, set: &[String]) -> CommandResult {
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

/// The formats an engine author needs beside the suite, built into the binary: the
/// JSON-lines protocol (its description and schema) and the schema of `check --format jsonl`.
const FORMATS: [(&str, &str); 3] = [
    ("docs/protocol.md", include_str!("../../docs/protocol.md")),
    (
        "docs/protocol.schema.json",
        include_str!("../../docs/protocol.schema.json"),
    ),
    (
        "docs/report.schema.json",
        include_str!("../../docs/report.schema.json"),
    ),
];

/// `goconform export`: the embedded files written out as a project folder, and or the test
/// vectors of the project's suite.
fn export(
    root: &Project,
    dir: Option<&Path>,
    vectors: Option<&Path>,
    force: bool,
    sgf: bool,
) -> CommandResult {
    if let Some(out) = vectors {
        export_vectors(root, out, force)?;
    }
    match dir {
        Some(dir) => export_project(dir, force, sgf),
        None if sgf => Err("--sgf writes into the project copy: name its DIR".to_string()),
        None => Ok(ExitCode::SUCCESS),
    }
}

/// `goconform export --vectors DIR`: every board trial as a JSON vector, the index and the
/// schema.
fn export_vectors(root: &Project, out: &Path, force: bool) -> Result<(), String> {
    let (spec, suite) = load_spec_and_suite(root, &[])?;
    let (vectors, index) = crate::conformance::vectors::vectors(&suite);
    let pretty = |v: &serde_json::Value| {
        serde_json::to_string_pretty(v)
            .map(|t| t + "\n")
            .map_err(|e| e.to_string())
    };
    let mut files = vec![
        ("index.json".to_string(), pretty(&index)?),
        (
            "schema.json".to_string(),
            crate::conformance::vectors::SCHEMA.to_string(),
        ),
    ];
    for v in &vectors {
        files.push((v.file.clone(), pretty(&v.json)?));
    }
    match embedded::write_files(out, &files, force) {
        Ok(count) => {
            outln!(
                "wrote {} vectors ({count} files written or already current) to {}",
                vectors.len(),
                out.display()
            );
        }
        Err(e @ embedded::ExportError::WouldOverwrite { .. }) => {
            return Err(format!("{e}\nnothing was written; --force overwrites them"))
        }
        Err(e) => return Err(format!("cannot export the vectors: {e}")),
    }
    left_to_exit((spec, suite));
    Ok(())
}

fn export_project(dir: &Path, force: bool, sgf: bool) -> CommandResult {
    let mut files: Vec<(String, String)> = embedded::files()
        .iter()
        .map(|(relative, text)| (relative.to_string(), text.to_string()))
        .collect();
    files.extend(
        FORMATS
            .iter()
            .map(|(path, text)| (path.to_string(), text.to_string())),
    );
    if sgf {
        let spec = load_spec(&Project::Embedded)?;
        let suite = Suite::from_texts(&embedded::scenario_texts(), &spec)
            .map_err(|e| format!("the embedded scenarios are invalid:\n{e}"))?;
        for scenario in &suite.scenarios {
            files.push((
                format!("sgf/{}/{}.sgf", scenario.topic, scenario.id),
                crate::sgf::write::write_scenario(scenario),
            ));
        }
    }
    match embedded::write_files(dir, &files, force) {
        Ok(count) => {
            outln!("wrote {count} files to {}", dir.display());
            Ok(ExitCode::SUCCESS)
        }
        Err(e @ embedded::ExportError::WouldOverwrite { .. }) => {
            Err(format!("{e}\nnothing was written; --force overwrites them"))
        }
        Err(e) => Err(format!("cannot export: {e}")),
    }
}

fn serve() -> CommandResult {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    crate::engines::serve::serve(stdin.lock(), stdout.lock())
        .map_err(|e| format!("serve ended with an I/O error: {e}"))?;
    Ok(ExitCode::SUCCESS)
}

/// A path as reports show it: relative to the project root where it lies inside it. Embedded
/// files are named relative to the root already.
fn relative(root: &Project, path: &Path) -> String {
    let shown = match root {
        Project::Dir(dir) => path.strip_prefix(dir).unwrap_or(path),
        Project::Embedded => path,
    };
    shown.display().to_string()
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

/// Reads an input file a command was given (a crosstable, a clock file, a game record, a
/// diagram, an expectations file): bounded in size and checked to be UTF-8, with a located
/// error otherwise.
fn read_input(path: &Path) -> Result<String, String> {
    crate::spec::location::read_text(path).map_err(|e| match e {
        crate::spec::LoadError::Io { error, .. } => {
            format!("cannot read {}: {error}", path.display())
        }
        invalid => invalid.to_string(),
    })
}
