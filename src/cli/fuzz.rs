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
use crate::fuzzing::{differential, game_bytes, Case, Divergence, GameInput, Played};
use crate::scenario::{write, Scenario};

#[derive(Args)]
pub(super) struct FuzzArgs {
    /// The engine to fuzz, as `check --engine` takes it (`goconform engines` lists them).
    #[arg(long, value_name = "SPEC")]
    engine: String,
    #[command(flatten)]
    engine_options: engines::EngineOptions,
    /// Stop after this many seconds without a divergence.
    #[arg(long, value_name = "N", default_value_t = 10)]
    seconds: u64,
    /// The seed of the run (default: from the clock; printed either way).
    #[arg(long, value_name = "S")]
    seed: Option<u64>,
    /// Stop after this many games without a divergence (default: no limit).
    #[arg(long, value_name = "N")]
    games: Option<u64>,
    /// Where to write the scenario of a divergence.
    #[arg(long, value_name = "DIR", default_value = "fuzz-findings")]
    out: PathBuf,
}

pub(super) fn fuzz(root: &Project, args: &FuzzArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let factory = engines::factory(&args.engine, &args.engine_options)?;
    let seed = args.seed.unwrap_or_else(clock_seed);
    let mut engine = factory();
    let info = engine.info();
    outln!(
        "fuzzing {} ({info}) for {} s, seed {seed}",
        args.engine,
        args.seconds
    );
    let started = Instant::now();
    let limit = Duration::from_secs(args.seconds);
    let (mut played, mut compared, mut skipped) = (0u64, 0usize, 0u64);
    let mut game = 0u64;
    while started.elapsed() < limit && args.games.is_none_or(|n| game < n) {
        let case = GameInput::from_bytes(&game_bytes(seed, game)).realise(&engine.capabilities());
        match differential(&mut Reference::new(), engine.as_mut(), &case) {
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
                return report(
                    &spec,
                    &factory,
                    &mut engine,
                    &case,
                    &d,
                    &provenance,
                    &args.out,
                );
            }
        }
        game += 1;
    }
    outln!(
        "no divergence: {played} games played ({compared} events compared, {skipped} games the engine cannot play) in {:.1} s, seed {seed}",
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::SUCCESS)
}

/// Minimises the game, writes its scenario and checks that the scenario shows the divergence
/// through the ordinary runner.
fn report(
    spec: &crate::spec::Spec,
    factory: &Factory<'static>,
    engine: &mut Box<dyn Referee>,
    case: &Case,
    found: &Divergence,
    provenance: &Provenance,
    out: &Path,
) -> CommandResult {
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
        "minimised from {before} events and {} set-up stones to {} events and {} stones: {}",
        case.setup.stones.len(),
        small.events.len(),
        small.setup.stones.len(),
        divergence.summary().replace('\n', "\n  ")
    );
    let mut scenario = finding::scenario(spec, &small, &divergence, provenance)?;
    let (path, text) = std::fs::create_dir_all(out)
        .map_err(|e| format!("cannot create {}: {e}", out.display()))
        .and_then(|()| write_finding(out, &mut scenario))
        .map_err(|e| finding::unwritten(&e, &write::to_toml(&scenario)))?;
    // The file must load, pass for the reference and not pass for the engine; say so if not.
    let loaded = Scenario::parse(&path, &text, "fuzz", spec).map_err(|e| {
        let problems: Vec<String> = e.iter().map(ToString::to_string).collect();
        format!(
            "the scenario written to {} does not load (a bug in goconform):\n{}",
            path.display(),
            problems.join("\n")
        )
    })?;
    let all = |_: &str| true;
    let reference = run_scenario(&loaded, 0, &mut Reference::new(), &all);
    let theirs = run_scenario(&loaded, 0, engine.as_mut(), &all);
    let word = |t: &[crate::conformance::Trial]| {
        t.first()
            .map_or("no trial".to_string(), |t| t.outcome.word().to_string())
    };
    // The same game as a record, for a GUI or the engine's own loadsgf.
    let sgf_path = path.with_extension("sgf");
    let sgf = crate::sgf::write::write_scenario(&loaded);
    match crate::files::write_new(&sgf_path, sgf.as_bytes()) {
        Ok(true) => {}
        Ok(false) => {
            return Err(format!(
                "{} appeared while the scenario beside it was written; it was left as it is",
                sgf_path.display()
            ))
        }
        Err(e) => return Err(format!("cannot write {}: {e}", sgf_path.display())),
    }
    outln!("wrote {}", path.display());
    outln!("wrote {}", sgf_path.display());
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
    Ok(ExitCode::from(1))
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
