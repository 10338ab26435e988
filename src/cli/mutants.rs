//! `goconform mutants`: the suite measured against deliberately broken executors.

use std::collections::BTreeMap;
use std::process::ExitCode;

use clap::Args;

use super::{load_spec_and_suite, CommandResult, Project};
use crate::conformance::mutants::kill_table;

#[derive(Args)]
pub(super) struct MutantsArgs {
    /// Worker threads (default: one per core).
    #[arg(short = 'j', long, value_name = "N", default_value_t = 0)]
    jobs: usize,
    /// List every trial that kills each mutant, not only the scenarios.
    #[arg(short, long)]
    verbose: bool,
}

pub(super) fn mutants(root: &Project, args: &MutantsArgs) -> CommandResult {
    let (_spec, suite) = load_spec_and_suite(root, &[])?;
    let table = kill_table(&suite, args.jobs).map_err(|e| e.to_string())?;
    let mut survivors = 0;
    for kills in &table {
        if kills.survived() {
            survivors += 1;
            outln!("SURVIVED {}: {}", kills.mutant, kills.about);
            continue;
        }
        // Trials grouped by scenario: "id (run, run)".
        let mut by_scenario: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for trial in &kills.killed_by {
            let (id, run) = trial.split_once(" under ").unwrap_or((trial, ""));
            by_scenario.entry(id).or_default().push(run);
        }
        outln!(
            "killed {}: {} ({} trials in {} scenarios)",
            kills.mutant,
            kills.about,
            kills.killed_by.len(),
            by_scenario.len()
        );
        for (id, runs) in &by_scenario {
            if args.verbose {
                outln!("  {id} under {}", runs.join(", "));
            } else {
                outln!("  {id}");
            }
        }
    }
    outln!(
        "\n{} mutants: {} killed, {survivors} survived",
        table.len(),
        table.len() - survivors
    );
    Ok(if survivors == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    })
}
