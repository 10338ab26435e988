//! `goconform book`: the rule book written out as a static site, and `show --format svg`:
//! a scenario's diagrams as SVG files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use clap::Args;

use super::compare::EngineRuns;
use super::{load_spec_and_suite, relative, CommandResult, Project};
use crate::book::live::LiveModule;
use crate::book::scenario_page::Played;
use crate::book::Book;
use crate::conformance::harness::select;
use crate::scenario::Scenario;

/// The arguments of `goconform book`.
#[derive(Args)]
pub(super) struct BookArgs {
    /// The folder to write the site into (created; a folder that is not empty must hold a
    /// book written before).
    dir: PathBuf,
    /// Engines to run through the whole suite for the engines page, as `compare` runs them
    /// (none: the page says how to add them).
    #[command(flatten)]
    runs: EngineRuns,
    /// The WebAssembly module of the live book (wasm-bindgen's no-modules output, which
    /// `js/build.sh` writes to js/pkg/web): every scenario's position and a free board then
    /// play in the page. By default js/pkg/web of the checkout, when it is there; without
    /// it the book is static.
    #[arg(long, value_name = "DIR")]
    live: Option<PathBuf>,
    /// A static book even where the live module is found.
    #[arg(long, conflicts_with = "live")]
    no_live: bool,
}

pub(super) fn book(root: &Project, args: &BookArgs) -> CommandResult {
    let started = Instant::now();
    let (spec, mut suite) = load_spec_and_suite(root, &[])?;
    let comparison = if args.runs.any() {
        let trials = select(&suite, |_, _| true);
        Some(args.runs.compare(root, &suite, &spec, &trials)?)
    } else {
        None
    };
    let engines_took = started.elapsed();
    // Scenario files as the project names them, never as this machine does.
    for s in &mut suite.scenarios {
        s.path = PathBuf::from(relative(root, &s.path));
    }
    for t in &mut suite.tournament {
        t.path = PathBuf::from(relative(root, &t.path));
    }
    let built = Instant::now();
    let live = match (&args.live, root) {
        _ if args.no_live => None,
        (Some(dir), _) => Some(LiveModule::read(dir)?),
        (None, Project::Dir(dir)) if dir.join("js/pkg/web/goconform_bg.wasm").is_file() => {
            Some(LiveModule::read(&dir.join("js/pkg/web"))?)
        }
        (None, _) => None,
    };
    let book = Book::build_live(&spec, &suite, comparison.as_ref(), live.as_ref())
        .map_err(|e| e.to_string())?;
    book.write(&args.dir).map_err(|e| e.to_string())?;
    let size = book.size();
    let engines = match &comparison {
        Some(c) => format!(
            "; the engines page compares {} implementations ({:.1} s to run them)",
            c.engines.len(),
            engines_took.as_secs_f64()
        ),
        None => "; no engines (--engine adds them)".to_string(),
    };
    let live = if live.is_some() {
        "; live boards on every scenario page and play.html"
    } else {
        "; static (no live boards: js/build.sh builds their module, or --live DIR)"
    };
    outln!(
        "wrote {} pages with {} diagrams ({} files, {} KB) to {} in {:.2} s{engines}{live}; open {}",
        size.pages,
        size.diagrams,
        size.files,
        size.bytes.div_ceil(1024),
        args.dir.display(),
        built.elapsed().as_secs_f64(),
        args.dir.join("index.html").display()
    );
    Ok(ExitCode::SUCCESS)
}

/// `show --format svg`: one SVG file per diagram of the scenario's page (the set-up and each
/// checked event; one per distinct position where runs differ), into `out`.
pub(super) fn show_svg(scenario: &Scenario, filter: Option<&str>, out: &Path) -> CommandResult {
    let mut chosen = scenario.clone();
    if let Some(name) = filter {
        chosen.runs.retain(|r| r.label == name || r.ruleset == name);
        if chosen.runs.is_empty() {
            return Err(format!("scenario {} has no run named {name}", scenario.id));
        }
        let kept: Vec<usize> = scenario
            .runs
            .iter()
            .enumerate()
            .filter(|(_, r)| r.label == name || r.ruleset == name)
            .map(|(i, _)| i)
            .collect();
        // Expectations name runs by index: keep those of the runs shown, renumbered.
        chosen.expectations.retain_mut(|e| {
            e.runs = e
                .runs
                .iter()
                .filter_map(|r| kept.iter().position(|k| k == r))
                .collect();
            !e.runs.is_empty()
        });
    }
    let played = Played::new(&chosen)?;
    std::fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    let mut written = 0;
    for moment in played.moments() {
        let several = moment.figures.len() > 1;
        for figure in &moment.figures {
            let mut name = format!("{}-{:03}", chosen.id, moment.after);
            if several {
                name.push('-');
                name.push_str(&figure.runs[0]);
            }
            let path = out.join(format!("{name}.svg"));
            crate::files::write_whole(&path, figure.diagram.svg_document().as_bytes())
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
            outln!(
                "{}  {} (under {})",
                path.display(),
                figure.diagram.caption,
                figure.runs.join(", ")
            );
            written += 1;
        }
    }
    eprintln!(
        "goconform show: {written} diagrams written to {}",
        out.display()
    );
    Ok(ExitCode::SUCCESS)
}
