//! The implementations the command line can check, by the name `--engine` takes.
//!
//! Each entry makes a [`Factory`]: the harness calls it once per worker. Out-of-process
//! engines (GTP, JSON lines) are added here as they come, each behind the same trait.

use crate::conformance::harness::Factory;
use crate::conformance::{Referee, Reference};

/// An engine the command line knows: its spec word and what it is.
pub(super) struct EngineEntry {
    pub spec: &'static str,
    pub about: &'static str,
}

pub(super) const ENGINES: &[EngineEntry] = &[EngineEntry {
    spec: "reference",
    about: "the reference executor in this binary (every axis value, every observation)",
}];

/// The factory for an engine spec, or an error listing the known specs.
pub(super) fn factory(spec: &str) -> Result<Box<Factory<'static>>, String> {
    match spec {
        "reference" => Ok(Box::new(|| Box::new(Reference::new()) as Box<dyn Referee>)),
        other => Err(format!(
            "unknown engine `{other}`; known engines: {}",
            ENGINES
                .iter()
                .map(|e| e.spec)
                .collect::<Vec<_>>()
                .join(", ")
        )),
    }
}

/// `goconform engines`: the engines with their name, version and capabilities.
pub(super) fn list() -> super::CommandResult {
    for entry in ENGINES {
        let engine = factory(entry.spec)?();
        let caps = engine.capabilities();
        println!("{}: {}", entry.spec, entry.about);
        println!("  reports as: {}", engine.info());
        let observes: Vec<&str> = caps.observes.iter().map(|o| o.word()).collect();
        println!("  observes: {}", observes.join(", "));
        if caps.axes.is_empty() {
            println!("  axes: every value");
        } else {
            for (axis, values) in &caps.axes {
                println!("  {axis}: only {}", values.join(", "));
            }
        }
    }
    Ok(std::process::ExitCode::SUCCESS)
}
