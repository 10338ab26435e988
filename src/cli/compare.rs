//! `goconform compare`: the same trials through several implementations, as a table of
//! disagreements grouped by clause, in Markdown and as a standalone HTML page.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;

use super::check::{SelectArgs, Selected};
use super::{engines, CommandResult, Project};
use crate::conformance::compare::compare as compare_reports;
use crate::conformance::Harness;

/// The arguments of `goconform compare`.
#[derive(Args)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    select: SelectArgs,
    /// An implementation to run (repeat for each column; see `goconform engines`).
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engines: Vec<String>,
    /// Write the table as Markdown to this file (default: standard output).
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Also write the table as a standalone HTML page to this file.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Worker threads per engine (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
}

pub(super) fn compare(root: &Project, args: &CompareArgs) -> CommandResult {
    let Selected {
        spec,
        suite,
        trials,
    } = args.select.load(root)?;
    let factories = args
        .engines
        .iter()
        .map(|e| engines::factory(e))
        .collect::<Result<Vec<_>, _>>()?;
    let harness = Harness {
        jobs: args.jobs,
        ..Harness::default()
    };
    let reports = factories
        .iter()
        .map(|f| harness.run(&suite, &trials, f.as_ref()))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| e.to_string())?;
    let comparison = compare_reports(&suite, &spec, &reports).map_err(|e| e.to_string())?;
    let markdown = comparison.to_markdown();
    match &args.markdown {
        Some(path) => write(path, &markdown)?,
        None => print!("{markdown}"),
    }
    if let Some(path) = &args.html {
        write(path, &comparison.to_html())?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
