//! `goconform compare`: the same trials through several implementations, as a table of
//! disagreements grouped by clause, in Markdown and as a standalone HTML page.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;

use super::check::{load_expectations, SelectArgs, Selected};
use super::{engines, relative, CommandResult, Project};
use crate::conformance::compare::{compare as compare_reports, Comparison};
use crate::conformance::Harness;
use crate::scenario::Suite;
use crate::spec::Spec;

/// The engines to run and how: shared by `compare` and `book`.
#[derive(Args)]
pub(super) struct EngineRuns {
    /// An implementation to run (repeat for each column; see `goconform engines`).
    #[arg(long = "engine", value_name = "SPEC")]
    engines: Vec<String>,
    #[command(flatten)]
    engine_options: engines::EngineOptions,
    /// A folder of expectations files, one per engine, named
    /// `<engine name>.expectations.toml`: the failures they list show as expected failures
    /// with their triage, and the rest count as not triaged.
    #[arg(long, value_name = "DIR")]
    expectations_dir: Option<PathBuf>,
    /// Worker threads per engine (default: one per core).
    #[arg(long, short = 'j', value_name = "N", default_value_t = 0)]
    jobs: usize,
}

impl EngineRuns {
    /// Whether any engine is named.
    pub(super) fn any(&self) -> bool {
        !self.engines.is_empty()
    }

    /// Runs `trials` through every engine and compares the reports; scenario files are named
    /// as the project names them, never as this machine does (the output is committed).
    pub(super) fn compare(
        &self,
        root: &Project,
        suite: &Suite,
        spec: &Spec,
        trials: &[(usize, usize)],
    ) -> Result<Comparison, String> {
        let factories = self
            .engines
            .iter()
            .map(|e| engines::factory(e, &self.engine_options))
            .collect::<Result<Vec<_>, _>>()?;
        let mut reports = Vec::new();
        for factory in &factories {
            let expectations = match &self.expectations_dir {
                Some(dir) => {
                    let name = factory().info().name;
                    let path = dir.join(format!("{name}.expectations.toml"));
                    if path.exists() {
                        Some(load_expectations(&path, suite)?)
                    } else {
                        None
                    }
                }
                None => None,
            };
            let harness = Harness {
                jobs: self.jobs,
                expectations: expectations.as_ref(),
                ..Harness::default()
            };
            reports.push(
                harness
                    .run(suite, trials, factory.as_ref())
                    .map_err(|e| e.to_string())?,
            );
        }
        let mut comparison = compare_reports(suite, spec, &reports).map_err(|e| e.to_string())?;
        for row in comparison
            .clauses
            .iter_mut()
            .flat_map(|g| &mut g.rows)
            .chain(&mut comparison.rows)
        {
            row.scenario_file = PathBuf::from(relative(root, &row.scenario_file));
        }
        Ok(comparison)
    }
}

/// The arguments of `goconform compare`.
#[derive(Args)]
pub(super) struct CompareArgs {
    #[command(flatten)]
    select: SelectArgs,
    #[command(flatten)]
    runs: EngineRuns,
    /// Write the table as Markdown to this file (default: standard output). If the file
    /// already has the line `<!-- goconform compare: generated below -->`, everything above
    /// it is kept and only what follows is replaced.
    #[arg(long, value_name = "FILE")]
    markdown: Option<PathBuf>,
    /// Write nothing; exit 1 if the Markdown or HTML file would change (for CI), or if any
    /// disagreement is not triaged.
    #[arg(long)]
    check: bool,
    /// Also write a standalone HTML page to this file: each disagreement once, drawn at the
    /// position where it arises, with the clauses it touches and every engine's outcome.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

pub(super) fn compare(root: &Project, args: &CompareArgs) -> CommandResult {
    let Selected {
        spec,
        suite,
        trials,
    } = args.select.load(root)?;
    if !args.runs.any() {
        return Err("compare needs at least one --engine".to_string());
    }
    let comparison = args.runs.compare(root, &suite, &spec, &trials)?;
    let mut stale = Vec::new();
    match &args.markdown {
        Some(path) => {
            let text = keep_preamble(path, &comparison.to_markdown())?;
            output(path, &text, args.check, &mut stale)?;
        }
        None => print!("{}", comparison.to_markdown()),
    }
    if let Some(path) = &args.html {
        output(
            path,
            &crate::book::engines::standalone(&comparison, &suite, &spec),
            args.check,
            &mut stale,
        )?;
    }
    if !args.check {
        return Ok(ExitCode::SUCCESS);
    }
    for path in &stale {
        eprintln!(
            "goconform compare: {} is not what this run generates; run the same command without --check to regenerate it",
            path.display()
        );
    }
    if comparison.untriaged > 0 {
        eprintln!(
            "goconform compare: {} disagreements are not triaged; list each in the engine's expectations file with its cause",
            comparison.untriaged
        );
    }
    Ok(if stale.is_empty() && comparison.untriaged == 0 {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The line above which a Markdown file is written by hand and kept.
const MARKER: &str = "<!-- goconform compare: generated below -->";

/// The generated text, after the hand-written part of the file if it has the marker.
fn keep_preamble(path: &Path, generated: &str) -> Result<String, String> {
    let old = match std::fs::read_to_string(path) {
        Ok(old) => old,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(generated.to_string()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    Ok(match old.find(MARKER) {
        Some(at) => format!("{}{MARKER}\n\n{generated}", &old[..at]),
        None => generated.to_string(),
    })
}

/// Writes `text` to `path`, or with `check` only notes whether it would change.
fn output(path: &Path, text: &str, check: bool, stale: &mut Vec<PathBuf>) -> Result<(), String> {
    if check {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
            stale.push(path.to_path_buf());
        }
        return Ok(());
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}
