//! Runs a selection of trials through an implementation: in parallel, one engine per worker,
//! in a stable order, with the engine's expectations applied.

use std::io::IsTerminal;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::runner::{run_trial, Outcome, Tally, Tier, Trial};
use super::{Capabilities, EngineInfo, Observable, Referee};
use crate::scenario::expectations::Expectations;
use crate::scenario::{Run, Scenario, Suite};

/// Makes a fresh implementation. Called once per worker thread, so it must be callable from
/// any thread; the implementations it makes never leave the thread that made them.
pub type Factory<'a> = dyn Fn() -> Box<dyn Referee> + Sync + 'a;

/// How a run is made.
#[derive(Clone, Debug, Default)]
pub struct Harness<'a> {
    /// The engine's expectations file, if it has one.
    pub expectations: Option<&'a Expectations>,
    /// The tier; `None` picks strict when the engine reports reasons, else basic.
    pub tier: Option<Tier>,
    /// Worker threads; 0 for one on each thread of rayon's pool (one a core by default).
    pub jobs: usize,
    /// Draw a progress bar on standard error. The bar is the cargo feature `progress` (on with
    /// `cli`, so in the default build); without it nothing is drawn, so a library build does
    /// not compile a terminal library it may not want.
    pub progress: bool,
}

/// What a run produced: who was checked, how, and every trial in the order of the
/// selection.
#[derive(Clone, Debug)]
pub struct RunReport {
    /// The engine, as it named itself.
    pub engine: EngineInfo,
    /// What it claimed, which decided the trials that did not apply.
    pub capabilities: Capabilities,
    /// How strictly it was judged.
    pub tier: Tier,
    /// Every trial of the selection, in its order whatever the number of workers.
    pub trials: Vec<Trial>,
}

impl RunReport {
    /// The outcomes counted, for the totals of every report.
    pub fn tally(&self) -> Tally {
        let mut tally = Tally::default();
        for t in &self.trials {
            tally.add(&t.outcome);
        }
        tally
    }
}

/// The run cannot start: the engine's declaration or the options are inconsistent.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HarnessError {
    /// The capabilities restrict axes that the rules do not have (a typo, or an older
    /// suite): the restriction would silently restrict nothing.
    #[error("{engine} declares unknown rules axes: {axes}")]
    UnknownAxes {
        /// The engine, as it named itself.
        engine: String,
        /// The unknown names, comma-separated.
        axes: String,
    },
    /// The strict tier compares reasons, which this engine does not claim to give.
    #[error(
        "{engine} does not report reasons, so the strict tier cannot judge it; use the basic tier"
    )]
    StrictWithoutReasons {
        /// The engine, as it named itself.
        engine: String,
    },
}

/// Asks a fresh engine once for its name and capabilities, refuses capabilities that name
/// axes the rules do not have, and settles the tier: the one asked for, or strict when the
/// engine reports reasons; strict is refused for an engine that does not.
pub(crate) fn probe(
    factory: &(dyn Fn() -> Box<dyn Referee> + '_),
    tier: Option<Tier>,
) -> Result<(EngineInfo, Capabilities, Tier), HarnessError> {
    let probe = factory();
    let engine = probe.info();
    let capabilities = probe.capabilities();
    drop(probe);
    let unknown = capabilities.unknown_axes();
    if !unknown.is_empty() {
        return Err(HarnessError::UnknownAxes {
            engine: engine.to_string(),
            axes: unknown.join(", "),
        });
    }
    let reasons = capabilities.observes(Observable::Reasons);
    let tier = match tier {
        Some(Tier::Strict) if !reasons => {
            return Err(HarnessError::StrictWithoutReasons {
                engine: engine.to_string(),
            })
        }
        Some(tier) => tier,
        None if reasons => Tier::Strict,
        None => Tier::Basic,
    };
    Ok((engine, capabilities, tier))
}

/// Every trial of `suite` whose scenario and run `keep` accepts, as (scenario, run) indices
/// in the suite's order.
pub fn select(suite: &Suite, keep: impl Fn(&Scenario, &Run) -> bool) -> Vec<(usize, usize)> {
    suite
        .scenarios
        .iter()
        .enumerate()
        .flat_map(|(s, scenario)| {
            let keep = &keep;
            scenario
                .runs
                .iter()
                .enumerate()
                .filter(move |(_, run)| keep(scenario, run))
                .map(move |(r, _)| (s, r))
        })
        .collect()
}

/// Whether a progress bar makes sense: standard error is a terminal and no CI system is
/// running us.
pub fn progress_wanted() -> bool {
    std::io::stderr().is_terminal() && std::env::var_os("CI").is_none()
}

impl Harness<'_> {
    /// Runs the selected trials. The engine is asked for its name and capabilities once,
    /// before any trial; each worker then makes its own engine with `factory`.
    pub fn run(
        &self,
        suite: &Suite,
        selection: &[(usize, usize)],
        factory: &Factory<'_>,
    ) -> Result<RunReport, HarnessError> {
        let (engine, capabilities, tier) = probe(factory, self.tier)?;
        let trials = self.run_workers(suite, selection, factory, &capabilities, tier);
        Ok(RunReport {
            engine,
            capabilities,
            tier,
            trials,
        })
    }

    fn run_workers(
        &self,
        suite: &Suite,
        selection: &[(usize, usize)],
        factory: &Factory<'_>,
        capabilities: &Capabilities,
        tier: Tier,
    ) -> Vec<Trial> {
        let bar = Bar::new(self.progress, selection.len());
        let next = AtomicUsize::new(0);
        let done: Mutex<Vec<Option<Trial>>> = Mutex::new(vec![None; selection.len()]);
        let work = || {
            let mut engine = factory();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(s, r)) = selection.get(i) else {
                    break;
                };
                let trial = self.one_trial(suite, s, r, engine.as_mut(), capabilities, tier);
                bar.inc();
                if let Ok(mut done) = done.lock() {
                    done[i] = Some(trial);
                }
            }
        };
        match self.jobs {
            // One worker on each thread of rayon's pool, which is already running (one thread
            // a core unless RAYON_NUM_THREADS says otherwise): a pool of its own would start
            // as many threads again for every run. Called from inside a pool, the workers run
            // on that pool's threads.
            0 if selection.len() > 1 => {
                rayon::broadcast(|_| work());
            }
            jobs => {
                let jobs = jobs.clamp(1, selection.len().max(1));
                match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
                    Ok(pool) if jobs > 1 => {
                        pool.broadcast(|_| work());
                    }
                    _ => work(),
                }
            }
        }
        bar.finish();
        let done = done.into_inner().unwrap_or_else(|e| e.into_inner());
        done.into_iter()
            .zip(selection)
            .map(|(trial, &(s, r))| {
                trial.unwrap_or_else(|| {
                    Trial::with_outcome(
                        s,
                        r,
                        Outcome::HarnessError(
                            "the worker that took this trial stopped before finishing it"
                                .to_string(),
                        ),
                    )
                })
            })
            .collect()
    }

    /// One trial, with the expectations applied. A panic here is ours (the runner catches
    /// the engine's own), so it becomes a harness error.
    fn one_trial(
        &self,
        suite: &Suite,
        s: usize,
        r: usize,
        engine: &mut dyn Referee,
        capabilities: &Capabilities,
        tier: Tier,
    ) -> Trial {
        let scenario = &suite.scenarios[s];
        let ran = catch_unwind(AssertUnwindSafe(|| {
            run_trial(scenario, s, r, engine, capabilities, tier)
        }));
        let mut trial = ran.unwrap_or_else(|_| {
            Trial::with_outcome(
                s,
                r,
                Outcome::HarnessError("the harness panicked during this trial".to_string()),
            )
        });
        if let Some(entry) = self
            .expectations
            .and_then(|e| e.lookup(&scenario.id, &scenario.runs[r].label))
        {
            trial.outcome = apply_expectation(trial.outcome, &entry.reason);
        }
        trial
    }
}

/// The run's progress bar: indicatif's with the `progress` feature, nothing without it.
struct Bar {
    #[cfg(feature = "progress")]
    bar: indicatif::ProgressBar,
}

impl Bar {
    /// A bar over `len` trials, drawn on standard error when `shown`.
    #[cfg(feature = "progress")]
    fn new(shown: bool, len: usize) -> Bar {
        use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
        let bar = if shown {
            let bar = ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::stderr());
            if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} trials {msg}") {
                bar.set_style(style);
            }
            bar
        } else {
            ProgressBar::hidden()
        };
        Bar { bar }
    }

    /// Without the `progress` feature there is nothing to draw.
    #[cfg(not(feature = "progress"))]
    fn new(_shown: bool, _len: usize) -> Bar {
        Bar {}
    }

    /// One more trial done.
    fn inc(&self) {
        #[cfg(feature = "progress")]
        self.bar.inc(1);
    }

    /// The run is over: the bar leaves the terminal as it found it.
    fn finish(&self) {
        #[cfg(feature = "progress")]
        self.bar.finish_and_clear();
    }
}

/// A listed trial: a failure becomes expected, a pass unexpected; a trial that did not apply
/// or that we broke stays as it is.
pub(crate) fn apply_expectation(outcome: Outcome, listed: &str) -> Outcome {
    if outcome.is_failure() {
        Outcome::ExpectedFailure {
            listed: listed.to_string(),
            actual: Box::new(outcome),
        }
    } else if outcome == Outcome::Pass {
        Outcome::UnexpectedPass {
            listed: listed.to_string(),
        }
    } else {
        outcome
    }
}
