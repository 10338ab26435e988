//! The implementations the command line can check, by the name `--engine` takes:
//! `reference`, `naive` (the second executor in this binary), the GNU Go profiles (`gnugo`,
//! `gnugo-positional`, ...), the goban crate (`goban`, with the cargo feature of that name),
//! any GTP engine
//! (`gtp:PROGRAM ARGS...`) and any engine speaking the JSON-lines protocol
//! (`jsonl:PROGRAM ARGS...`).
//!
//! Each spec makes a [`Factory`]: the harness calls it once per worker. An engine in another
//! process is started once here before the run, so that one that cannot start at all is bad
//! input (exit 2) with its reason, not hundreds of identical errors.

use crate::conformance::harness::Factory;
use crate::conformance::{Naive, Referee, Reference};
use crate::engines::gtp::{gnugo_profiles, profile_by_name, GtpEngine, GtpProfile};
use crate::engines::jsonl::{JsonlEngine, JsonlOptions};
use crate::engines::process::split_command;
use crate::engines::profile::{Claims, EngineProfile, Protocol};
use std::path::Path;
use std::time::Duration;

/// Options for engines in other processes, shared by `check` and `compare`.
#[derive(clap::Args, Clone, Debug, Default)]
pub(super) struct EngineOptions {
    /// How long an engine in another process may take over one answer before the trial is
    /// a timeout and the engine is restarted (default: the engine's profile, 10 s for
    /// GTP and JSON-lines engines).
    #[arg(long = "engine-timeout", value_name = "SECONDS", value_parser = parse_seconds)]
    pub timeout: Option<Duration>,
    /// What a `gtp:`, `jsonl:` or `profile:` engine claims, laid over its profile: a rules
    /// axis and its only values (`ko=simple`, `suicide=forbidden,multi-stone`), or
    /// `observes=...`, `judges=...`, `events=...` (docs/engine-profiles.md). Repeat for each.
    #[arg(long = "claim", value_name = "KEY=VALUES")]
    pub claims: Vec<String>,
    /// Accept JSON-lines replies the protocol's schema refuses (unknown keys, say) as long as
    /// what the harness reads is there. By default every reply is checked against the schema
    /// and a misspelt key is an error naming it and the nearest known key.
    #[arg(long)]
    pub lenient: bool,
}

/// A positive, finite number of seconds.
fn parse_seconds(text: &str) -> Result<Duration, String> {
    let seconds: f64 = text
        .parse()
        .map_err(|_| format!("`{text}` is not a number of seconds"))?;
    if !(seconds.is_finite() && seconds > 0.0) {
        return Err(format!(
            "`{text}`: the time limit must be a positive number of seconds"
        ));
    }
    Duration::try_from_secs_f64(seconds).map_err(|e| format!("`{text}`: {e}"))
}

/// The factory for an engine spec, or an error saying what is known.
pub(super) fn factory(
    spec: &str,
    options: &EngineOptions,
) -> Result<Box<Factory<'static>>, String> {
    if spec == "reference" {
        return Ok(Box::new(|| Box::new(Reference::new()) as Box<dyn Referee>));
    }
    if spec == "naive" {
        return Ok(Box::new(|| Box::new(Naive::new()) as Box<dyn Referee>));
    }
    #[cfg(feature = "goban")]
    if spec == "goban" {
        use crate::engines::goban::GobanEngine;
        return Ok(Box::new(|| {
            Box::new(GobanEngine::new()) as Box<dyn Referee>
        }));
    }
    let claims = Claims::from_settings(&options.claims)?;
    if let Some(path) = spec.strip_prefix("profile:") {
        let profile = EngineProfile::read(Path::new(path))?;
        // The command line's claims are laid over the profile's.
        return match profile.protocol {
            Protocol::Gtp => gtp_factory(
                spec,
                GtpProfile::from_profile(&profile).claiming(&claims),
                options,
            ),
            Protocol::Jsonl => jsonl_factory(
                spec,
                profile.program,
                profile.args,
                profile.timeout,
                profile.claims.then(&claims),
                options,
            ),
        };
    }
    if let Some(command) = spec.strip_prefix("jsonl:") {
        let (program, args) = split_command(command).map_err(|e| format!("{spec}: {e}"))?;
        return jsonl_factory(spec, program, args, None, claims, options);
    }
    if let Some(profile) = profile_by_name(spec) {
        return gtp_factory(spec, profile.claiming(&claims), options);
    }
    if spec.starts_with("gtp:") {
        return Err(format!(
            "{spec}: the GTP command line is empty or unbalanced"
        ));
    }
    Err(format!(
        "unknown engine `{spec}`; known: reference, naive, {}{}, gtp:PROGRAM ARGS..., jsonl:PROGRAM ARGS..., profile:FILE (goconform engines describes them)",
        gnugo_profiles()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join(", "),
        if cfg!(feature = "goban") { ", goban" } else { "" }
    ))
}

/// The factory of a GTP engine, started once here: one that does not start is bad input, and
/// one without `list_stones` is said once, here, to be judged on its verdicts alone.
fn gtp_factory(
    spec: &str,
    mut profile: GtpProfile,
    options: &EngineOptions,
) -> Result<Box<Factory<'static>>, String> {
    if let Some(timeout) = options.timeout {
        profile.timeout = timeout;
    }
    let engine =
        GtpEngine::try_new(profile.clone()).map_err(|e| format!("{spec} does not start: {e}"))?;
    if !engine.lists_stones() {
        eprintln!(
            "note: {spec} has no `list_stones` (its `list_commands` does not name it): the board and captures cannot be read, so it is judged on its verdicts alone"
        );
    }
    drop(engine);
    Ok(Box::new(move || {
        Box::new(GtpEngine::new(profile.clone())) as Box<dyn Referee>
    }))
}

/// The factory of a JSON-lines engine, started once here; claims narrow what it declares.
fn jsonl_factory(
    spec: &str,
    program: String,
    args: Vec<String>,
    timeout: Option<Duration>,
    claims: Claims,
    options: &EngineOptions,
) -> Result<Box<Factory<'static>>, String> {
    let mut jsonl = JsonlOptions {
        strict: !options.lenient,
        ..JsonlOptions::default()
    };
    if let Some(timeout) = options.timeout.or(timeout) {
        jsonl.timeout = timeout;
    }
    jsonl.claims = (!claims.is_empty()).then_some(claims);
    JsonlEngine::connect(&program, &args, jsonl.clone())
        .map_err(|e| format!("{spec} does not start: {e}"))?;
    Ok(Box::new(move || {
        Box::new(JsonlEngine::new(&program, &args, jsonl.clone())) as Box<dyn Referee>
    }))
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
    #[cfg(feature = "goban")]
    print_engine(
        "goban",
        &format!(
            "the goban crate {}, in this process",
            crate::engines::goban::GOBAN_VERSION
        ),
        &crate::engines::goban::GobanEngine::declared_capabilities(),
    );
    outln!("gtp:PROGRAM ARGS...: any GTP engine, judged on the board only (basic tier), under every rules axis value unless --claim says which (docs/engine-profiles.md)");
    outln!("jsonl:PROGRAM ARGS...: any engine speaking the JSON-lines protocol (docs/protocol.md); it declares its own capabilities, which --claim can narrow");
    outln!("profile:FILE: an engine described by a profile file: its protocol, command and the rules it claims (docs/engine-profiles.md; examples in docs/profiles/)");
    Ok(std::process::ExitCode::SUCCESS)
}

fn print_engine(spec: &str, about: &str, caps: &crate::conformance::Capabilities) {
    outln!("{spec}: {about}");
    let observes: Vec<&str> = caps.observes.iter().map(|o| o.word()).collect();
    outln!("  observes: {}", observes.join(", "));
    if caps.axes.is_empty() {
        outln!("  axes: every value");
    }
    for (axis, values) in &caps.axes {
        outln!("  {axis}: only {}", values.join(", "));
    }
    if let Some(judges) = &caps.judges {
        let words: Vec<&str> = judges.iter().map(|r| r.word()).collect();
        outln!("  judges: {}", words.join(", "));
    }
    if let Some(events) = &caps.events {
        let words: Vec<&str> = events.iter().map(|e| e.word()).collect();
        outln!("  takes: {}", words.join(", "));
    }
}
