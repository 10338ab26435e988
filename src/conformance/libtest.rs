//! The suite as ordinary tests in an implementer's own `cargo test`: one test per trial,
//! named `topic/scenario[run]`, filtered by name as usual (`cargo test --test conformance
//! -- superko`).
//!
//! In the implementer's crate:
//!
//! ```toml
//! [[test]]
//! name = "conformance"
//! harness = false
//! ```
//!
//! ```ignore
//! // tests/conformance.rs
//! use std::sync::Arc;
//! use goconform::conformance::{libtest, Referee};
//!
//! fn main() {
//!     libtest::main(
//!         Arc::new(|| Box::new(MyEngine::new()) as Box<dyn Referee>),
//!         libtest::Options::default(),
//!     );
//! }
//! ```
//!
//! A trial that does not apply, or that the expectations file lists and that fails, is
//! shown as ignored with the reason; everything that fails a `goconform check` run (a
//! failure, an unexpected pass, an error, a timeout, a harness error) fails the test.

use std::path::PathBuf;
use std::sync::Arc;

use libtest_mimic::{Arguments, Completion, Conclusion, Failed, Trial as TestCase};

use super::harness::{apply_expectation, probe};
use super::runner::{not_applicable, run_trial, Outcome, Tier};
use super::{Capabilities, Referee, INTERPRETATION_VERSION};
use crate::scenario::expectations::Expectations;
use crate::scenario::Suite;
use crate::spec::{embedded, Spec};

/// Where the suite comes from and how it is judged.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// A project folder holding `spec/` and `conformance/`; `None` for the suite embedded in
    /// this crate.
    pub suite: Option<PathBuf>,
    /// The engine's expectations file.
    pub expectations: Option<PathBuf>,
    /// The tier; `None` for strict when the engine reports reasons, else basic.
    pub tier: Option<Tier>,
}

/// Makes a fresh engine for one test; tests run on several threads.
pub type SharedFactory = dyn Fn() -> Box<dyn Referee> + Send + Sync;

/// Builds one test per trial of the suite. Problems with the suite or the expectations file
/// are returned as a message (they are the caller's to report, not a test's).
pub fn tests(factory: Arc<SharedFactory>, options: &Options) -> Result<Vec<TestCase>, String> {
    let (spec, suite) = load(options)?;
    drop(spec);
    let expectations = match &options.expectations {
        None => None,
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
            let parsed = Expectations::parse(path, &text, INTERPRETATION_VERSION)
                .map_err(|errors| lines(&errors))?;
            let unknown = parsed.unknown_in(&suite);
            if !unknown.is_empty() {
                return Err(lines(&unknown));
            }
            Some(parsed)
        }
    };
    let (engine, capabilities, tier) =
        probe(&|| factory(), options.tier).map_err(|e| e.to_string())?;
    eprintln!(
        "goconform suite {} (interpretation {INTERPRETATION_VERSION}): {engine}, {} tier",
        env!("CARGO_PKG_VERSION"),
        tier.word()
    );
    let suite = Arc::new(suite);
    let capabilities = Arc::new(capabilities);
    let expectations = Arc::new(expectations);
    let mut out = Vec::new();
    for (s, scenario) in suite.scenarios.iter().enumerate() {
        for (r, run) in scenario.runs.iter().enumerate() {
            let name = format!("{}/{}[{}]", scenario.topic, scenario.id, run.label);
            let (suite, factory, capabilities, expectations) = (
                Arc::clone(&suite),
                Arc::clone(&factory),
                Arc::clone(&capabilities),
                Arc::clone(&expectations),
            );
            let case = TestCase::ignorable_test(name, move || {
                one(
                    &suite,
                    s,
                    r,
                    &*factory,
                    &capabilities,
                    tier,
                    (*expectations).as_ref(),
                )
            })
            .with_kind(run.ruleset.clone());
            out.push(case);
        }
    }
    Ok(out)
}

/// Runs the suite as a test binary with the process's arguments and exits with libtest's
/// code. A broken suite or expectations file exits with code 2 and the message.
pub fn main(factory: Arc<SharedFactory>, options: Options) -> ! {
    match run(factory, &options, &Arguments::from_args()) {
        Ok(conclusion) => conclusion.exit(),
        Err(message) => {
            eprintln!("goconform: {message}");
            std::process::exit(2)
        }
    }
}

/// Runs the suite with the given libtest arguments.
pub fn run(
    factory: Arc<SharedFactory>,
    options: &Options,
    args: &Arguments,
) -> Result<Conclusion, String> {
    Ok(libtest_mimic::run(args, tests(factory, options)?))
}

fn one(
    suite: &Suite,
    s: usize,
    r: usize,
    factory: &SharedFactory,
    capabilities: &Capabilities,
    tier: Tier,
    expectations: Option<&Expectations>,
) -> Result<Completion, Failed> {
    let scenario = &suite.scenarios[s];
    if let Some(why) = not_applicable(scenario, r, capabilities) {
        return Ok(Completion::ignored_with(format!("not applicable: {why}")));
    }
    let mut engine = factory();
    let trial = run_trial(scenario, s, r, engine.as_mut(), capabilities, tier);
    let outcome = match expectations.and_then(|e| e.lookup(&scenario.id, &scenario.runs[r].label)) {
        Some(entry) => apply_expectation(trial.outcome, &entry.reason),
        None => trial.outcome,
    };
    match outcome {
        Outcome::Pass => Ok(Completion::Completed),
        Outcome::ExpectedFailure { listed, actual } => Ok(Completion::ignored_with(format!(
            "expected failure: {listed} (actual: {})",
            actual.summary()
        ))),
        Outcome::NotApplicable(why) => {
            Ok(Completion::ignored_with(format!("not applicable: {why}")))
        }
        other => Err(Failed::from(format!(
            "{}\n(scenario file {}; `goconform check {} --rules {}` shows it under the reference)",
            detail(&other),
            scenario.path.display(),
            scenario.path.display(),
            scenario.runs[r].label
        ))),
    }
}

/// Every mismatch, or the error, one per line.
fn detail(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Fail(mismatches) => mismatches
            .iter()
            .map(|m| {
                if m.expected.contains('\n') || m.actual.contains('\n') {
                    format!(
                        "{} (line {}):\nexpected:\n{}actual:\n{}",
                        m.summary(),
                        m.line,
                        m.expected,
                        m.actual
                    )
                } else {
                    format!("{} (line {})", m.summary(), m.line)
                }
            })
            .collect::<Vec<_>>()
            .join("\n"),
        other => format!("{}: {}", other.word(), other.summary()),
    }
}

fn load(options: &Options) -> Result<(Spec, Suite), String> {
    match &options.suite {
        Some(dir) => {
            let spec = Spec::load(dir).map_err(|e| e.to_string())?;
            let suite =
                Suite::load(&[dir.join("conformance")], &spec).map_err(|e| e.to_string())?;
            Ok((spec, suite))
        }
        None => {
            let spec = embedded::spec().map_err(|e| e.to_string())?;
            let suite =
                Suite::from_texts(&embedded::scenario_texts(), &spec).map_err(|e| e.to_string())?;
            Ok((spec, suite))
        }
    }
}

fn lines(errors: &[crate::spec::location::Located]) -> String {
    errors
        .iter()
        .map(|e| e.to_string())
        .collect::<Vec<_>>()
        .join("\n")
}
