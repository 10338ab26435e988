//! `goconform fuzz`: random games through the reference and an engine until they part, then
//! the smallest game that still shows it, written as a scenario.
//!
//! Games come from a seeded generator (the same [`GameInput`] a fuzzer's bytes decode into),
//! restricted to what the engine's capabilities claim, so every divergence is one the engine
//! can be held to. One engine process serves the whole run; after it breaks down a new one is
//! made. Game `g` of seed `s` is the same game on every machine, so a finding names the seed
//! and the game that gave it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::Args;

use super::{engines, load_spec, CommandResult, Project};
use crate::conformance::harness::Factory;
use crate::conformance::{run_scenario, Outcome, Referee, Reference};
use crate::fuzzing::finding::{self, Provenance};
use crate::fuzzing::minimise::minimise;
use crate::fuzzing::{differential, game_bytes, Ahead, Case, Divergence, GameInput, Played};
use crate::scenario::{write, Scenario};

#[derive(Args)]
pub(super) struct FuzzArgs {
    /// The engine to fuzz, as `check --engine` takes it (`goconform engines` lists them).
    #[arg(long, value_name = "SPEC")]
    engine: String,
    #[command(flatten)]
    engine_options: engines::EngineOptions,
    /// Stop after this many seconds.
    #[arg(long, value_name = "N", default_value_t = 10)]
    seconds: u64,
    /// The seed of the run (default: from the clock; printed either way).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Stop after this many games (default: no limit).
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Where to write the scenario of a divergence.
    #[arg(long, value_name = "DIR", default_value = "fuzz-findings")]
    out: PathBuf,
    /// The rulesets to play games under (comma-separated names, `goconform rulesets` lists
    /// them), or `any` for every combination of the axis values the engine claims. Default:
    /// every named ruleset the engine claims to play.
    #[arg(long, value_name = "NAME", value_delimiter = ',')]
    rules: Vec<String>,
    /// Findings already triaged: scenario files (as `fuzz` writes them) in this folder. A
    /// divergence whose minimised game is one of them is counted as known and the run goes on.
    #[arg(long, value_name = "DIR")]
    known: Option<PathBuf>,
    /// Stop after this many new findings (default 1); each is minimised and written.
    #[arg(long, value_name = "N", default_value_t = 1)]
    findings: u64,
    /// Write the run as JUnit XML: a test per new finding (failed), per known finding met
    /// (skipped, naming its file), and one for the games that agreed.
    #[arg(long, value_name = "FILE")]
    junit: Option<PathBuf>,
}

/// A divergence found and minimised in this run.
struct Found {
    /// The game number.
    game: u64,
    /// What parted, in one paragraph.
    summary: String,
    /// The scenario file written, or the known finding it matched.
    file: Option<PathBuf>,
    /// Whether it matched a known finding.
    known: bool,
}

/// How many games are prepared and told to the engine at a time ([`Ahead`]).
const AHEAD: usize = 8;

pub(super) fn fuzz(root: &Project, args: &FuzzArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let factory = engines::factory(&args.engine, &args.engine_options)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut engine = factory();
    let info = engine.info();
    let (rulesets, names) = rulesets_to_fuzz(&spec, &args.rules, &engine.capabilities())?;
    let known = match &args.known {
        Some(dir) => load_known(&spec, dir)?,
        None => Vec::new(),
    };
    if args.findings == 0 {
        return Err("--findings must be at least 1".to_string());
    }
    if args.engine.starts_with("gtp:") && args.engine_options.claims.is_empty() {
        eprintln!(
            "note: {} claims no rules (GTP cannot say which it plays), so it is held to every ruleset; say which with --claim KEY=VALUES, --rules NAME or a profile (docs/engine-profiles.md)",
            args.engine
        );
    }
    outln!(
        "fuzzing {} ({info}) for {} s, seed {seed}, under {}{}",
        args.engine,
        args.seconds,
        names,
        if known.is_empty() {
            String::new()
        } else {
            format!(", {} known findings", known.len())
        }
    );
    let started = Instant::now();
    let limit = Duration::from_secs(args.seconds);
    let (mut played, mut compared, mut skipped) = (0u64, 0usize, 0u64);
    let mut found: Vec<Found> = Vec::new();
    let new_count = |found: &[Found]| found.iter().filter(|f| !f.known).count() as u64;
    // Games are prepared and told to the engine in batches ahead of the one compared, so that
    // an engine in another process answers them while this side compares.
    let mut ahead = Ahead::new(AHEAD);
    let mut reference = Reference::new();
    let mut next_game = 0u64;
    let mut source = |caps: &crate::conformance::Capabilities| {
        let game = next_game;
        if args.games.is_some_and(|n| game >= n) {
            return None;
        }
        next_game += 1;
        let case = GameInput::from_bytes(&game_bytes(seed, game)).realise_under(caps, &rulesets);
        Some((game, case))
    };
    while started.elapsed() < limit && new_count(&found) < args.findings {
        let Some((game, case, outcome)) = ahead.next(&mut reference, engine.as_mut(), &mut source)
        else {
            break;
        };
        match outcome {
            Played::Agreed { asked } => {
                played += 1;
                compared += asked;
            }
            Played::NotApplicable(_) => skipped += 1,
            Played::Diverged(d) => {
                outln!(
                    "game {game} diverged ({played} games agreed before it) {}",
                    d.summary().replace('\n', "\n  ")
                );
                if d.key == "error" {
                    engine = factory();
                }
                let provenance = Provenance {
                    engine: args.engine.clone(),
                    engine_version: info.version.clone(),
                    seed,
                    game,
                };
                let (small, divergence) = shrink(&spec, &factory, &mut engine, &case, &d)?;
                let summary = divergence.summary();
                if let Some(file) = known.iter().find(|k| k.matches(&small)).map(|k| &k.path) {
                    outln!("  known: the minimised game is {}", file.display());
                    found.push(Found {
                        game,
                        summary,
                        file: Some(file.clone()),
                        known: true,
                    });
                } else {
                    let file = report(
                        &spec,
                        engine.as_mut(),
                        &small,
                        &divergence,
                        &provenance,
                        &args.out,
                    );
                    found.push(Found {
                        game,
                        summary,
                        file,
                        known: false,
                    });
                }
            }
        }
    }
    let new = new_count(&found);
    let met_known = found.len() as u64 - new;
    let games = format!(
        "({compared} events compared, {skipped} games the engine cannot play) in {:.1} s, seed {seed}",
        started.elapsed().as_secs_f64()
    );
    if found.is_empty() {
        outln!("no divergence: {played} games played {games}");
    } else {
        outln!(
            "{new} new finding{}, {met_known} known met; {played} games agreed {games}",
            if new == 1 { "" } else { "s" }
        );
    }
    if let Some(path) = &args.junit {
        let xml = junit(args, seed, played, &found)?;
        std::fs::write(path, xml)
            .map_err(|e| format!("cannot write the JUnit report {}: {e}", path.display()))?;
    }
    Ok(if new > 0 {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// The rulesets games are played under: the named ones (each of which the engine must claim),
/// every named ruleset it claims by default, or none for `any` (arbitrary axis mixes). Also
/// the words the banner shows.
pub(super) fn rulesets_to_fuzz(
    spec: &crate::spec::Spec,
    asked: &[String],
    caps: &crate::conformance::Capabilities,
) -> Result<(Vec<crate::rules::Rules>, String), String> {
    if asked.iter().any(|n| n == "any") {
        if asked.len() > 1 {
            return Err("--rules any stands alone: it means every combination of the axis values the engine claims".to_string());
        }
        return Ok((
            Vec::new(),
            "any combination of the axis values it claims".to_string(),
        ));
    }
    let named: Vec<String> = if asked.is_empty() {
        spec.ruleset_names()
            .into_iter()
            .filter(|n| spec.rules(n).is_ok_and(|r| caps.supports(&r).is_ok()))
            .map(str::to_string)
            .collect()
    } else {
        asked.to_vec()
    };
    if named.is_empty() {
        return Err("the engine claims none of the named rulesets (goconform engines shows its claims); name --rules any to fuzz every combination of the axis values it claims".to_string());
    }
    let mut rulesets = Vec::new();
    for name in &named {
        let rules = spec.rules(name)?;
        caps.supports(&rules)
            .map_err(|why| format!("--rules {name}: {why}"))?;
        rulesets.push(rules);
    }
    Ok((rulesets, format!("the rulesets {}", named.join(", "))))
}

/// A finding already triaged, as its game.
struct Known {
    path: PathBuf,
    cases: Vec<Case>,
}

impl Known {
    /// Whether a minimised game is this finding's (rules, set-up and events alike).
    fn matches(&self, game: &Case) -> bool {
        self.cases
            .iter()
            .any(|c| c.rules == game.rules && c.setup == game.setup && c.events == game.events)
    }
}

/// The scenario files of a folder of known findings, each read as the games of its runs.
fn load_known(spec: &crate::spec::Spec, dir: &Path) -> Result<Vec<Known>, String> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read the known findings {}: {e}", dir.display()))?;
    let mut paths: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    let mut known = Vec::new();
    for path in paths {
        let text = crate::spec::location::read_text(&path).map_err(|e| e.to_string())?;
        let scenario = Scenario::parse(&path, &text, "fuzz", spec).map_err(|problems| {
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })?;
        let cases = (0..scenario.runs.len())
            .map(|r| Case::from_run(&scenario, r))
            .collect();
        known.push(Known { path, cases });
    }
    Ok(known)
}

/// The run as JUnit XML.
fn junit(args: &FuzzArgs, seed: u64, agreed: u64, found: &[Found]) -> Result<String, String> {
    use quick_junit::{NonSuccessKind, Report, TestCase, TestCaseStatus, TestSuite};
    let mut suite = TestSuite::new(format!("fuzz {}", args.engine));
    for f in found {
        let name = format!("seed {seed} game {}", f.game);
        let file = f
            .file
            .as_ref()
            .map_or("(not written)".to_string(), |p| p.display().to_string());
        let status = if f.known {
            let mut status = TestCaseStatus::skipped();
            status.set_message(format!("known finding {file}"));
            status
        } else {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            status.set_message(format!("new finding, written to {file}"));
            status.set_description(f.summary.clone());
            status
        };
        suite.add_test_case(TestCase::new(name, status));
    }
    let mut agreed_case = TestCase::new(
        format!("{agreed} games agreed with the reference"),
        TestCaseStatus::success(),
    );
    agreed_case.set_classname("fuzz");
    suite.add_test_case(agreed_case);
    let mut report = Report::new("goconform fuzz");
    report.add_test_suite(suite);
    report
        .to_string()
        .map_err(|e| format!("cannot write the JUnit report: {e}"))
}

/// Minimises a divergent game against the engine.
fn shrink(
    spec: &crate::spec::Spec,
    factory: &Factory<'static>,
    engine: &mut Box<dyn Referee>,
    case: &Case,
    found: &Divergence,
) -> Result<(Case, Divergence), String> {
    let before = case.events.len();
    let plain = spec.rules(finding::BASE_RULESET)?;
    let (small, divergence) =
        minimise(
            case,
            found,
            &plain,
            &mut |candidate: &Case| match differential(
                &mut Reference::new(),
                engine.as_mut(),
                candidate,
            ) {
                Played::Diverged(d) => {
                    if d.key == "error" {
                        *engine = factory();
                    }
                    Some(d)
                }
                _ => None,
            },
        );
    outln!(
        "  minimised from {before} events and {} set-up stones to {} events and {} stones: {}",
        case.setup.stones.len(),
        small.events.len(),
        small.setup.stones.len(),
        divergence.summary().replace('\n', "\n  ")
    );
    Ok((small, divergence))
}

/// Writes a minimised finding's scenario and record and checks that the scenario shows the
/// divergence through the ordinary runner. Returns the scenario's path; a finding that cannot
/// be written is not lost: the error and the scenario itself go to standard error.
fn report(
    spec: &crate::spec::Spec,
    engine: &mut dyn Referee,
    small: &Case,
    divergence: &Divergence,
    provenance: &Provenance,
    out: &Path,
) -> Option<PathBuf> {
    let mut scenario = match finding::scenario(spec, small, divergence, provenance) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("goconform: the finding could not be made a scenario (a bug in goconform): {e}; its game: {small:?}");
            return None;
        }
    };
    let lost = |why: String, scenario: &Scenario| {
        eprintln!(
            "goconform: {}",
            finding::unwritten(&why, &write::to_toml(scenario))
        );
        None
    };
    if let Err(e) = std::fs::create_dir_all(out) {
        return lost(format!("cannot create {}: {e}", out.display()), &scenario);
    }
    let (path, text) = match write_finding(out, &mut scenario) {
        Ok(written) => written,
        Err(why) => return lost(why, &scenario),
    };
    // The file must load, pass for the reference and not pass for the engine; say so if not.
    let loaded = match Scenario::parse(&path, &text, "fuzz", spec) {
        Ok(loaded) => loaded,
        Err(e) => {
            let problems: Vec<String> = e.iter().map(ToString::to_string).collect();
            eprintln!(
                "goconform: the scenario written to {} does not load (a bug in goconform):\n{}",
                path.display(),
                problems.join("\n")
            );
            return Some(path);
        }
    };
    let all = |_: &str| true;
    let reference = run_scenario(&loaded, 0, &mut Reference::new(), &all);
    let theirs = run_scenario(&loaded, 0, engine, &all);
    let word = |t: &[crate::conformance::Trial]| {
        t.first()
            .map_or("no trial".to_string(), |t| t.outcome.word().to_string())
    };
    outln!("wrote {}", path.display());
    // The same game as a record, for a GUI or the engine's own loadsgf.
    let sgf_path = path.with_extension("sgf");
    let sgf = crate::sgf::write::write_scenario(&loaded);
    match crate::files::write_new(&sgf_path, sgf.as_bytes()) {
        Ok(true) => outln!("wrote {}", sgf_path.display()),
        Ok(false) => eprintln!(
            "goconform: {} appeared while the scenario beside it was written; it was left as it is",
            sgf_path.display()
        ),
        Err(e) => eprintln!("goconform: cannot write {}: {e}", sgf_path.display()),
    }
    outln!(
        "the scenario: {} for the reference, {} for {}",
        word(&reference),
        word(&theirs),
        provenance.engine
    );
    if reference.iter().any(|t| t.outcome != Outcome::Pass)
        || theirs.iter().all(|t| t.outcome == Outcome::Pass)
    {
        outln!("warning: the scenario does not show the divergence through `goconform check`");
    }
    Some(path)
}

/// Writes the finding's scenario under `out` without replacing anything there: a finding
/// already written (perhaps reviewed and edited since) with the same id keeps its file, and
/// this one takes the id with the first free suffix, `-2`, `-3`, ... (for the scenario and
/// for the SGF record beside it). Returns the path written and its text.
fn write_finding(out: &Path, scenario: &mut Scenario) -> Result<(PathBuf, String), String> {
    let base = scenario.id.clone();
    let taken = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    for n in 1..=10_000u32 {
        let id = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        let path = out.join(format!("{id}.toml"));
        if taken(&path) || taken(&path.with_extension("sgf")) {
            continue;
        }
        scenario.id = id;
        let text = write::to_toml(scenario);
        match crate::files::write_new(&path, text.as_bytes()) {
            Ok(true) => return Ok((path, text)),
            Ok(false) => continue,
            Err(e) => return Err(format!("cannot write {}: {e}", path.display())),
        }
    }
    Err(format!(
        "{} already holds 10,000 findings named {base}: nothing was written; clear them or name another --out",
        out.display()
    ))
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}
