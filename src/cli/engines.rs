//! The implementations the command line can check, by the name `--engine` takes:
//! `reference`, `naive` (the second executor in this binary), the GNU Go profiles (`gnugo`, `gnugo-positional`, ...), any GTP engine
//! (`gtp:PROGRAM ARGS...`) and any engine speaking the JSON-lines protocol
//! (`jsonl:PROGRAM ARGS...`).
//!
//! Each spec makes a [`Factory`]: the harness calls it once per worker. An engine in another
//! process is started once here before the run, so that one that cannot start at all is bad
//! input (exit 2) with its reason, not hundreds of identical errors.

use crate::conformance::harness::Factory;
use crate::conformance::{Naive, Referee, Reference};
use crate::engines::gtp::{gnugo_profiles, profile_by_name, GtpEngine};
use crate::engines::jsonl::{JsonlEngine, JsonlOptions};
use crate::engines::process::split_command;

/// The factory for an engine spec, or an error saying what is known.
pub(super) fn factory(spec: &str) -> Result<Box<Factory<'static>>, String> {
    if spec == "reference" {
        return Ok(Box::new(|| Box::new(Reference::new()) as Box<dyn Referee>));
    }
    if spec == "naive" {
        return Ok(Box::new(|| Box::new(Naive::new()) as Box<dyn Referee>));
    }
    if let Some(command) = spec.strip_prefix("jsonl:") {
        let (program, args) = split_command(command).map_err(|e| format!("{spec}: {e}"))?;
        let options = JsonlOptions::default();
        JsonlEngine::connect(&program, &args, options.clone())
            .map_err(|e| format!("{spec} does not start: {e}"))?;
        return Ok(Box::new(move || {
            Box::new(JsonlEngine::new(&program, &args, options.clone())) as Box<dyn Referee>
        }));
    }
    if let Some(profile) = profile_by_name(spec) {
        GtpEngine::try_new(profile.clone()).map_err(|e| format!("{spec} does not start: {e}"))?;
        return Ok(Box::new(move || {
            Box::new(GtpEngine::new(profile.clone())) as Box<dyn Referee>
        }));
    }
    if spec.starts_with("gtp:") {
        return Err(format!(
            "{spec}: the GTP command line is empty or unbalanced"
        ));
    }
    Err(format!(
        "unknown engine `{spec}`; known: reference, naive, {}, gtp:PROGRAM ARGS..., jsonl:PROGRAM ARGS... (goconform engines describes them)",
        gnugo_profiles()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

/// `goconform engines`: the engines with their capabilities. Engines in other processes are
/// described from their profiles; they are not started.
pub(super) fn list() -> super::CommandResult {
    let reference = Reference::new();
    print_engine(
        "reference",
        "the reference executor in this binary",
        &reference.capabilities(),
    );
    print_engine(
        "naive",
        "the naive executor in this binary: flood fill and whole-position comparison, no referee's record",
        &Naive::new().capabilities(),
    );
    for profile in gnugo_profiles() {
        print_engine(&profile.name, &profile.about, &profile.capabilities);
    }
    println!("gtp:PROGRAM ARGS...: any GTP engine, judged on the board only (basic tier)");
    println!("jsonl:PROGRAM ARGS...: any engine speaking the JSON-lines protocol (docs/protocol.md); it declares its own capabilities");
    Ok(std::process::ExitCode::SUCCESS)
}

fn print_engine(spec: &str, about: &str, caps: &crate::conformance::Capabilities) {
    println!("{spec}: {about}");
    let observes: Vec<&str> = caps.observes.iter().map(|o| o.word()).collect();
    println!("  observes: {}", observes.join(", "));
    if caps.axes.is_empty() {
        println!("  axes: every value");
    }
    for (axis, values) in &caps.axes {
        println!("  {axis}: only {}", values.join(", "));
    }
    if let Some(judges) = &caps.judges {
        let words: Vec<&str> = judges.iter().map(|r| r.word()).collect();
        println!("  judges: {}", words.join(", "));
    }
    if let Some(events) = &caps.events {
        let words: Vec<&str> = events.iter().map(|e| e.word()).collect();
        println!("  takes: {}", words.join(", "));
    }
}
