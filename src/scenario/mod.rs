//! Declarative scenarios: the format, and loading it into checked, typed values.
//!
//! A scenario is one TOML file under `conformance/<topic>/` named after its id. It gives a
//! position, the rules to run it under (one or several rulesets, or custom runs with axis
//! overrides), a list of events, and expectations after any event: the verdict, captures,
//! board, prisoners, turn and phase. Where rulesets disagree, expectations say which runs they
//! apply to with `under`. conformance/README.md documents the format with examples.
//!
//! Loading never panics. Every problem is reported with file, line, column and key, and a file
//! with several problems reports them all.

pub mod diagram;
pub mod expectations;
pub mod lint;
mod raw;
pub mod tournament;
pub mod write;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use toml::Spanned;

use crate::board::{Color, Point};
use crate::game::{Class, Event, Game, Phase, Reason, Ruling, Setup, SetupHistory};
use crate::rules::{Komi, Rules};
use crate::spec::location::{Located, Source};
use crate::spec::rulesets::axis_word;
use crate::spec::{LoadError, Spec};

pub use diagram::Stones;

/// One way of running a scenario: a ruleset, possibly with some axes changed.
#[derive(Clone, Debug, PartialEq)]
pub struct Run {
    /// The name expectations use in `under`: the ruleset name, or the custom run's name.
    pub label: String,
    /// The ruleset the run starts from.
    pub ruleset: String,
    /// Axis overrides applied on top of the ruleset, in order, as `(axis, value)` words.
    pub overrides: Vec<(String, String)>,
    /// The rules that result: the ruleset's with the overrides applied.
    pub rules: Rules,
}

/// The verdict an expectation asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExpectedVerdict {
    /// The event is legal and applied.
    Legal,
    /// The event is refused for this reason.
    Illegal(Reason),
    /// The move breaks this rule and stands on the board (a referee's record).
    Breach(Reason),
    /// A notice (or a sealed move) gets this ruling.
    Ruled(Ruling),
}

impl std::fmt::Display for ExpectedVerdict {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExpectedVerdict::Legal => f.write_str("legal"),
            ExpectedVerdict::Illegal(r) => write!(f, "illegal: {r}"),
            ExpectedVerdict::Breach(r) => write!(f, "breach: {r}"),
            ExpectedVerdict::Ruled(r) => write!(f, "ruling: {r}"),
        }
    }
}

/// One thing an expectation asserts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Check {
    /// The verdict on the event.
    Verdict(ExpectedVerdict),
    /// The opposing stones the event removed, in any order.
    Captures(Vec<Point>),
    /// The mover's own stones the event removed, in any order.
    SelfCaptures(Vec<Point>),
    /// The whole board after the event.
    Board(Stones),
    /// Prisoners held by Black and by White, pass stones included.
    Prisoners([u32; 2]),
    /// Who is to move after the event.
    ToMove(Color),
    /// Where the game stands after the event.
    Phase(Phase),
    /// The result in SGF `RE` form (`B+3.5`, `W+R`, `0`), of the position as it stands.
    Result(String),
    /// Each colour's score in half points (Black, White), komi and compensation included.
    Score([i32; 2]),
    /// How the ruleset classes the violation a breach records.
    Class(Class),
    /// Warnings recorded against Black and White (AGA Tournament Rules VI.B.8).
    Warnings([u32; 2]),
}

impl Check {
    /// The scenario key this check comes from.
    pub fn key(&self) -> &'static str {
        match self {
            Check::Verdict(ExpectedVerdict::Legal) => "legal",
            Check::Verdict(ExpectedVerdict::Illegal(_)) => "illegal",
            Check::Verdict(ExpectedVerdict::Breach(_)) => "breach",
            Check::Verdict(ExpectedVerdict::Ruled(_)) => "ruling",
            Check::Class(_) => "class",
            Check::Warnings(_) => "warnings",
            Check::Captures(_) => "captures",
            Check::SelfCaptures(_) => "self_captures",
            Check::Board(_) => "board",
            Check::Prisoners(_) => "prisoners",
            Check::ToMove(_) => "to_move",
            Check::Phase(_) => "phase",
            Check::Result(_) => "result",
            Check::Score(_) => "score",
        }
    }

    fn kind(&self) -> u8 {
        match self {
            Check::Verdict(_) => 0,
            Check::Captures(_) => 1,
            Check::SelfCaptures(_) => 2,
            Check::Board(_) => 3,
            Check::Prisoners(_) => 4,
            Check::ToMove(_) => 5,
            Check::Phase(_) => 6,
            Check::Result(_) => 7,
            Check::Score(_) => 8,
            Check::Class(_) => 9,
            Check::Warnings(_) => 10,
        }
    }
}

/// Assertions about the state after one event (or about the start, `after == 0`).
#[derive(Clone, Debug, PartialEq)]
pub struct Expectation {
    /// 1-based index of the event whose verdict and aftermath are checked; 0 is the start.
    pub after: usize,
    /// Indices into [`Scenario::runs`] this expectation applies to.
    pub runs: Vec<usize>,
    /// What is asserted.
    pub checks: Vec<Check>,
    /// Line of the `[[expect]]` table, for reports.
    pub line: usize,
    /// The scenario writer's note on the expectation, shown with a failure.
    pub note: Option<String>,
}

/// A checked scenario, ready to run.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// The permanent id, the same as the file name.
    pub id: String,
    /// One line saying what the scenario shows.
    pub title: String,
    /// A longer explanation, possibly empty.
    pub description: String,
    /// The ids of the clauses the scenario checks.
    pub clauses: Vec<String>,
    /// What second source the expectations were checked against, and how.
    pub checked: String,
    /// The suite version the scenario was added in.
    pub added: Option<String>,
    /// The file the scenario was read from.
    pub path: PathBuf,
    /// The folder under conformance/ the scenario lives in.
    pub topic: String,
    /// The position the game starts from.
    pub setup: Setup,
    /// The scenario-wide axis overrides (`set`), as `(axis, value)` words, already applied to
    /// every run; kept so that tools can apply them to other rulesets too.
    pub set: Vec<(String, String)>,
    /// The scenario-wide komi, already applied to every run (even and handicap komi).
    pub komi: Option<Komi>,
    /// A one-stone handicap (`handicap = 1`, AGA Rule 4): no stone placed, Black first, and
    /// each run's komi already set to its ruleset's handicap komi.
    pub one_stone_handicap: bool,
    /// The ways the scenario is run: one per ruleset or custom run.
    pub runs: Vec<Run>,
    /// The events played, in order.
    pub events: Vec<Event>,
    /// Line of each event in the file.
    pub event_lines: Vec<usize>,
    /// What must hold after the events.
    pub expectations: Vec<Expectation>,
    /// Second sources that must agree with the reference on every board play of one run.
    pub crosschecks: Vec<Crosscheck>,
}

/// A claim that another engine, started with `flags`, judges every board play of one run
/// the way the reference does. `tests/gnugo_crosscheck.rs` replays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Crosscheck {
    /// The engine: `gnugo` (GNU Go 3.8 over GTP).
    pub engine: String,
    /// Index into [`Scenario::runs`].
    pub run: usize,
    /// The engine's command-line flags.
    pub flags: Vec<String>,
    /// Also claimed: at the end, the engine's `final_score` equals the reference's result.
    pub score: bool,
}

impl Scenario {
    /// Reads one scenario file's text. `topic` is the folder it lives in.
    pub fn parse(
        path: &Path,
        text: &str,
        topic: &str,
        spec: &Spec,
    ) -> Result<Scenario, Vec<Located>> {
        raw::parse(path, text, topic, spec, raw::Kind::Scenario)
    }

    /// Whether the scenario is a referee's record: a move standing on the board although it
    /// breaks a rule, a misplaced handicap, a notice or a sealed move.
    pub fn needs_record(&self) -> bool {
        is_record(&self.setup, &self.events)
    }

    /// Reads a game record in the scenario format for a ruling: the id, title, clauses,
    /// `checked`, rules and expectations may be left out (expectations given are still
    /// checked for consistency, and `goconform ruling` reports whether they hold).
    pub fn parse_record(path: &Path, text: &str, spec: &Spec) -> Result<Scenario, Vec<Located>> {
        raw::parse(path, text, "", spec, raw::Kind::Record)
    }
}

/// The scenarios of a suite, in a stable order (by path).
#[derive(Clone, Debug, Default)]
pub struct Suite {
    /// Scenarios about the game on the board, run through any [`Referee`](crate::conformance::Referee).
    pub scenarios: Vec<Scenario>,
    /// Tournament scenarios (a `[scenario]` header and `[[case]]` tables): ranks, handicaps,
    /// komi, colours, clocks and tiebreaks, run through the reference's tournament module only.
    pub tournament: Vec<tournament::TournamentScenario>,
}

/// The topic of the scenario file at `path`: the name of the folder holding it (`ko` for
/// `conformance/ko/basic-ko.toml`), empty for a file with no folder.
pub(crate) fn topic_of(path: &Path) -> String {
    path.parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("")
        .to_string()
}

/// Finds every scenario file under `dir`, recursively, sorted.
///
/// Symbolic links to folders are followed (a suite may gather topics from elsewhere), so a
/// link back to a folder above it would make the walk endless (two such links, an
/// exponential one): a folder whose real path is that of one of its ancestors in the walk is
/// an error naming the link, not a hang.
pub fn find_files(dir: &Path) -> Result<Vec<PathBuf>, LoadError> {
    let real = |path: &Path| std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let mut out = Vec::new();
    // Each folder still to read, with the real paths of the folders above it in the walk.
    let mut stack = vec![(dir.to_path_buf(), vec![real(dir)])];
    while let Some((d, above)) = stack.pop() {
        let entries = std::fs::read_dir(&d).map_err(|error| LoadError::Io {
            path: d.clone(),
            error,
        })?;
        for entry in entries.flatten() {
            let p = entry.path();
            // The entry's type comes with the listing; only a link needs a look at its target.
            let is_dir = match entry.file_type() {
                Ok(t) if !t.is_symlink() => t.is_dir(),
                _ => p.is_dir(),
            };
            if is_dir {
                let target = real(&p);
                if let Some(ancestor) = above.iter().find(|a| **a == target) {
                    return Err(LoadError::Io {
                        error: std::io::Error::other(format!(
                            "a symbolic link back to {}, a folder that contains it: \
                             the folder loops, remove the link",
                            ancestor.display()
                        )),
                        path: p,
                    });
                }
                let mut chain = above.clone();
                chain.push(target);
                stack.push((p, chain));
            } else if p.extension().is_some_and(|x| x == "toml") {
                out.push(p);
            }
        }
    }
    out.sort();
    Ok(out)
}

impl Suite {
    /// The topics (folders under conformance/) of the board and tournament scenarios, sorted,
    /// each once.
    pub fn topics(&self) -> Vec<&str> {
        let mut topics: Vec<&str> = self
            .scenarios
            .iter()
            .map(|s| s.topic.as_str())
            .chain(self.tournament.iter().map(|t| t.topic.as_str()))
            .collect();
        topics.sort_unstable();
        topics.dedup();
        topics
    }

    /// Loads scenario files or folders. A folder is searched recursively. The topic of a
    /// scenario is the name of the folder holding it.
    pub fn load(paths: &[PathBuf], spec: &Spec) -> Result<Suite, LoadError> {
        SuiteFiles::new(Suite::read(paths)?).check(spec)
    }

    /// The texts of the scenario files at `paths` (files, or folders searched for `.toml`
    /// files), sorted by path: what [`Suite::from_texts`] builds a suite from. Reading needs
    /// no specification, so a caller can read while the specification loads. Files are read
    /// on rayon's pool; the error, if any, is the first in path order, as a sequential read
    /// would give.
    pub fn read(paths: &[PathBuf]) -> Result<Vec<(PathBuf, String)>, LoadError> {
        use rayon::prelude::*;
        let mut files = Vec::new();
        for p in paths {
            if p.is_dir() {
                files.extend(find_files(p)?);
            } else {
                files.push(p.clone());
            }
        }
        files.sort();
        files.dedup();
        files
            .into_par_iter()
            .map(|file| crate::spec::location::read_text(&file).map(|text| (file, text)))
            .collect::<Vec<_>>()
            .into_iter()
            .collect()
    }

    /// Builds a suite from scenario file texts, taken in the order of their paths (the paths
    /// name the files in messages). The topic of a scenario is the name of the folder holding
    /// it.
    pub fn from_texts(files: &[(PathBuf, String)], spec: &Spec) -> Result<Suite, LoadError> {
        SuiteFiles::new(files.to_vec()).check(spec)
    }
}

/// Scenario files read and taken as far as loading goes without a specification: each board
/// scenario's TOML parsed and deserialized, which is most of the cost of loading, so that a
/// caller can do it while the specification loads. [`SuiteFiles::check`] finishes the load.
pub struct SuiteFiles {
    /// In path order.
    files: Vec<SuiteFile>,
}

struct SuiteFile {
    path: PathBuf,
    text: String,
    /// A board scenario as serde read it, or what stopped serde; `None` for a tournament
    /// scenario, which is read whole by [`SuiteFiles::check`].
    board: Option<Result<raw::RawScenario, Vec<Located>>>,
}

impl SuiteFiles {
    /// Deserializes scenario files (path and text, in any order) on rayon's pool; a file that
    /// does not deserialize keeps its errors for [`SuiteFiles::check`] to report in path order.
    pub fn new(mut files: Vec<(PathBuf, String)>) -> SuiteFiles {
        use rayon::prelude::*;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        SuiteFiles {
            files: files
                .into_par_iter()
                .map(|(path, text)| {
                    let board = (!tournament::is_tournament_text(&text))
                        .then(|| raw::deserialize(&path, &text));
                    SuiteFile { path, text, board }
                })
                .collect(),
        }
    }

    /// Checks every file against `spec` and builds the suite, or gives every problem found.
    pub fn check(self, spec: &Spec) -> Result<Suite, LoadError> {
        let mut errors = Vec::new();
        let mut scenarios: Vec<Scenario> = Vec::new();
        let mut tournament_scenarios = Vec::new();
        let mut ids: HashMap<String, PathBuf> = HashMap::new();
        // Each file is checked alone, so the files are checked on rayon's pool; the results
        // come back in path order, and ids are checked in that order, so errors and the suite
        // are the same as a sequential load's.
        let checked: Vec<_> = {
            use rayon::prelude::*;
            self.files
                .into_par_iter()
                .map(|SuiteFile { path, text, board }| {
                    let topic = topic_of(&path);
                    let parsed = match board {
                        None => tournament::TournamentScenario::parse(&path, &text, &topic, spec)
                            .map(|t| (t.id.clone(), Parsed::Tournament(Box::new(t)))),
                        Some(raw) => raw
                            .and_then(|raw| {
                                raw::check(&path, &text, raw, &topic, spec, raw::Kind::Scenario)
                            })
                            .map(|s| (s.id.clone(), Parsed::Board(Box::new(s)))),
                    };
                    (path, parsed)
                })
                .collect()
        };
        for (file, parsed) in checked {
            match parsed {
                Err(mut e) => errors.append(&mut e),
                Ok((id, s)) => {
                    if let Some(first) = ids.get(&id) {
                        errors.push(Located {
                            file: file.clone(),
                            line: 1,
                            column: 1,
                            key: "id".to_string(),
                            message: format!(
                                "scenario id `{id}` is already used by {}",
                                first.display()
                            ),
                        });
                    } else {
                        ids.insert(id, file);
                    }
                    match s {
                        Parsed::Board(s) => scenarios.push(*s),
                        Parsed::Tournament(t) => tournament_scenarios.push(*t),
                    }
                }
            }
        }
        if errors.is_empty() {
            Ok(Suite {
                scenarios,
                tournament: tournament_scenarios,
            })
        } else {
            Err(LoadError::Invalid(errors))
        }
    }
}

/// A scenario file of either family.
enum Parsed {
    Board(Box<Scenario>),
    Tournament(Box<tournament::TournamentScenario>),
}

/// Builds the run list from `rules`, `[[run]]` and the scenario-wide `set` and `komi`.
pub(crate) fn resolve_runs(
    source: &Source,
    spec: &Spec,
    named: &[Spanned<String>],
    custom: &[raw::RawRun],
    set: &BTreeMap<String, Spanned<toml::Value>>,
    komi: Option<Komi>,
    errors: &mut Vec<Located>,
) -> Vec<Run> {
    let mut runs = Vec::new();
    let mut base_overrides = Vec::new();
    for (axis, value) in set {
        match axis_word(value.get_ref()) {
            Some(word) => {
                base_overrides.push((axis.clone(), word, value.span(), format!("set.{axis}")))
            }
            None => errors.push(source.error(
                &value.span(),
                format!("set.{axis}"),
                "expected a word or a number",
            )),
        }
    }
    type Override = (String, String, std::ops::Range<usize>, String);
    let mut wanted: Vec<(String, Spanned<String>, String, Vec<Override>)> = Vec::new();
    for (i, name) in named.iter().enumerate() {
        wanted.push((
            name.get_ref().clone(),
            name.clone(),
            format!("rules[{i}]"),
            Vec::new(),
        ));
    }
    for (i, run) in custom.iter().enumerate() {
        let mut extra = Vec::new();
        for (axis, value) in &run.set {
            let key = format!("run[{i}].set.{axis}");
            match axis_word(value.get_ref()) {
                Some(word) => extra.push((axis.clone(), word, value.span(), key)),
                None => {
                    errors.push(source.error(&value.span(), key, "expected a word or a number"))
                }
            }
        }
        wanted.push((
            run.name.get_ref().clone(),
            run.rules.clone(),
            format!("run[{i}].rules"),
            extra,
        ));
    }
    for (label, ruleset, ruleset_key, extra) in wanted {
        let mut rules = match spec.rules(ruleset.get_ref()) {
            Ok(r) => r,
            Err(message) => {
                errors.push(source.error(&ruleset.span(), ruleset_key, message));
                continue;
            }
        };
        let mut overrides = Vec::new();
        for (axis, word, span, key) in base_overrides.iter().cloned().chain(extra) {
            if let Err(e) = rules.set(&axis, &word) {
                errors.push(source.error(&span, key, e.to_string()));
            }
            overrides.push((axis, word));
        }
        if let Some(k) = komi {
            // The scenario states the komi of its game, even or handicap.
            rules.komi = k;
            rules.handicap_komi = k;
        }
        runs.push(Run {
            label,
            ruleset: ruleset.get_ref().clone(),
            overrides,
            rules,
        });
    }
    runs
}

/// Checks that the set-up describes a legal starting position under `rules`.
pub(crate) fn check_setup(setup: &Setup, rules: Rules) -> Result<(), String> {
    Game::new(rules, setup)
        .map(|_| ())
        .map_err(|e| e.to_string())
}

/// Whether a set-up and its events make a referee's record: a misplaced handicap left
/// standing, or any event only a referee's record holds.
pub(crate) fn is_record(setup: &Setup, events: &[Event]) -> bool {
    setup.handicap_as_placed || events.iter().any(Event::is_referees_record)
}

/// Parses `played` / `excluded`.
pub(crate) fn parse_setup_history(word: &str) -> Option<SetupHistory> {
    match word {
        "played" => Some(SetupHistory::Played),
        "excluded" => Some(SetupHistory::Excluded),
        _ => None,
    }
}

/// Reads an SGF-style result: `B+3.5`, `W+12`, `B+R`, `W+0` (a draw given to White), `0`,
/// `Void` (no result: a repetition ended the game under `ko = simple-cycle-void`).
pub(crate) fn parse_result(text: &str) -> Result<String, String> {
    let wrong = || {
        format!("`{text}` is not a result: expected B+POINTS or W+POINTS (whole or half points), B+R or W+R, 0 for a draw, or Void for no result")
    };
    if text == "0" || text == "Void" {
        return Ok(text.to_string());
    }
    let (Some(color), Some(rest)) = (text.get(..2), text.get(2..)) else {
        return Err(wrong());
    };
    if color != "B+" && color != "W+" {
        return Err(wrong());
    }
    let valid_points = rest.parse::<Komi>().is_ok_and(|k| k.half_points() >= 0)
        && !rest.starts_with('+')
        && !rest.starts_with('-');
    if rest == "R" || valid_points {
        Ok(text.to_string())
    } else {
        Err(wrong())
    }
}
