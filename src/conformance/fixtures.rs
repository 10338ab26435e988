//! What the report modules' unit tests share: two small real scenarios and hand-made trials.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::{Capabilities, EngineInfo, Outcome, RunReport, Tier, Trial};
use crate::scenario::Suite;
use crate::spec::Spec;

/// The spec, and a suite of two scenarios (a capture and a suicide) with several runs each.
pub(crate) fn two_scenarios() -> (Spec, Suite) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(root).expect("the spec loads");
    let files: Vec<PathBuf> = [
        "conformance/capture/single-stone.toml",
        "conformance/suicide/single-stone-suicide.toml",
    ]
    .iter()
    .map(|p| root.join(p))
    .collect();
    let suite = Suite::load(&files, &spec).expect("the scenarios load");
    (spec, suite)
}

/// A trial with the given outcome and a fixed time.
pub(crate) fn trial(scenario: usize, run: usize, outcome: Outcome, millis: u64) -> Trial {
    Trial {
        elapsed: Duration::from_millis(millis),
        ..Trial::with_outcome(scenario, run, outcome)
    }
}

/// The indices of the capture and the suicide scenario in [`two_scenarios`]'s suite.
pub(crate) fn capture_and_suicide(suite: &Suite) -> (usize, usize) {
    let capture = suite
        .scenarios
        .iter()
        .position(|s| s.topic == "capture")
        .expect("the capture scenario is loaded");
    (capture, 1 - capture)
}

/// A failure on the captures after move 1, with a `|` and a `<` in what it got, for the
/// reports' escaping.
pub(crate) fn captures_failure() -> Outcome {
    super::Outcome::Fail(vec![super::Mismatch {
        after: 1,
        line: 29,
        key: "captures",
        expected: "C3".to_string(),
        actual: "a|b <none>".to_string(),
        first_difference: None,
    }])
}

/// A report of an engine `name` 1.0 that claims everything, in the strict tier, with these
/// outcomes (each trial taking 1 ms).
pub(crate) fn report(name: &str, outcomes: Vec<((usize, usize), Outcome)>) -> RunReport {
    RunReport {
        engine: EngineInfo {
            name: name.to_string(),
            version: "1.0".to_string(),
        },
        capabilities: Capabilities::everything(),
        tier: Tier::Strict,
        trials: outcomes
            .into_iter()
            .map(|((s, r), o)| trial(s, r, o, 1))
            .collect(),
    }
}
