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
    if let (Some(markdown), Some(html)) = (&args.markdown, &args.html) {
        if same_file(markdown, html) {
            return Err(format!(
                "--markdown and --html name the same file, {}: one would replace the other",
                markdown.display()
            ));
        }
    }
    if let Some(path) = &args.markdown {
        // Before the engines run: a refusal should cost nothing.
        keep_preamble(path, "")?;
    }
    let comparison = args.runs.compare(root, &suite, &spec, &trials)?;
    let markdown = comparison.to_markdown();
    if let Some(placeholder) = crate::conformance::compare::unfilled_placeholder(&markdown) {
        return Err(format!(
            "the generated table holds the unfilled placeholder {placeholder} (a bug in goconform): nothing was written"
        ));
    }
    let mut stale = Vec::new();
    match &args.markdown {
        Some(path) => {
            let text = keep_preamble(path, &markdown)?;
            output(path, &text, args.check, &mut stale)?;
        }
        None => out!("{markdown}"),
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
    // A committed file written by an older goconform may still hold a placeholder that this
    // one fills: stale, whatever else it says.
    if let Some(path) = &args.markdown {
        let committed = std::fs::read_to_string(path).unwrap_or_default();
        if let Some(placeholder) = crate::conformance::compare::unfilled_placeholder(&committed) {
            eprintln!(
                "goconform compare: {} holds the unfilled placeholder {placeholder}",
                path.display()
            );
            if !stale.contains(path) {
                stale.push(path.clone());
            }
        }
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
///
/// A file that is neither empty, nor marked, nor written whole by `compare` before (it
/// starts with the generated heading) is someone's own text: it is refused rather than
/// replaced, with the way to keep it.
fn keep_preamble(path: &Path, generated: &str) -> Result<String, String> {
    let old = match std::fs::read_to_string(path) {
        Ok(old) => old,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(generated.to_string()),
        Err(e) => return Err(format!("cannot read {}: {e}", path.display())),
    };
    if let Some(at) = old.find(MARKER) {
        return Ok(format!("{}{MARKER}\n\n{generated}", &old[..at]));
    }
    if old.trim().is_empty() || is_generated(&old) {
        return Ok(generated.to_string());
    }
    Err(format!(
        "{} was not written by goconform compare and has no line `{MARKER}`: \
         nothing was written (add that line where the generated part should begin, \
         or name another file)",
        path.display()
    ))
}

/// Whether a Markdown file starts with the heading `compare` writes.
fn is_generated(text: &str) -> bool {
    let first = text.lines().next().unwrap_or("");
    first
        .strip_prefix("# Comparison of ")
        .and_then(|rest| rest.strip_suffix(" implementations"))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Whether two paths name one file: the same path, or the same real path once the folders
/// are resolved (the files themselves need not exist yet).
fn same_file(a: &Path, b: &Path) -> bool {
    let real = |p: &Path| -> PathBuf {
        if let Ok(real) = std::fs::canonicalize(p) {
            return real;
        }
        let folder = match p.parent() {
            Some(f) if !f.as_os_str().is_empty() => f,
            _ => Path::new("."),
        };
        match (std::fs::canonicalize(folder), p.file_name()) {
            (Ok(folder), Some(name)) => folder.join(name),
            _ => p.to_path_buf(),
        }
    };
    a == b || real(a) == real(b)
}

/// Writes `text` to `path` whole (a temporary file renamed into place), or with `check` only
/// notes whether it would change.
fn output(path: &Path, text: &str, check: bool, stale: &mut Vec<PathBuf>) -> Result<(), String> {
    if check {
        if std::fs::read_to_string(path).ok().as_deref() != Some(text) {
            stale.push(path.to_path_buf());
        }
        return Ok(());
    }
    crate::files::write_whole(path, text.as_bytes())
        .map_err(|e| format!("cannot write {}: {e}", path.display()))
}
