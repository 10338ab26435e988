//! Applicability by relevance, checked against a second executor. A trial projected onto the
//! rules an engine has keeps only the checks the reference answers the same way under both
//! rulesets; if that is sound, the naive executor (written apart from the reference), run under
//! the projected rules and judged on the kept checks, passes every projected trial. The
//! restrictions below are those of real engines (GNU Go, the goban crate, tenuki) and of each
//! axis alone, so every axis is projected somewhere.

use goconform::conformance::harness::select;
use goconform::conformance::projection::project;
use goconform::conformance::{
    Capabilities, EngineError, EngineInfo, Harness, Naive, Observation, Outcome, Referee,
    Unsupported,
};
use goconform::game::{Event, Setup, Verdict};
use goconform::rules::Rules;
use goconform::scenario::Suite;
use goconform::spec::Spec;

mod common;

/// The naive executor claiming fewer axis values than it plays.
struct Restricted {
    inner: Naive,
    axes: Vec<(&'static str, Vec<&'static str>)>,
}

impl Referee for Restricted {
    fn info(&self) -> EngineInfo {
        self.inner.info()
    }
    fn capabilities(&self) -> Capabilities {
        self.axes
            .iter()
            .fold(self.inner.capabilities(), |caps, (axis, values)| {
                caps.only(axis, values.iter().copied())
            })
    }
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.inner.start(rules, setup)
    }
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        self.inner.apply(event)
    }
    fn observe(&self) -> Observation {
        self.inner.observe()
    }
    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.inner.count()
    }
}

fn suite() -> Suite {
    let root = common::root();
    let spec = Spec::load(root).expect("the spec loads");
    Suite::load(&[root.join("conformance")], &spec).expect("the suite loads")
}

type Axes = Vec<(&'static str, Vec<&'static str>)>;

fn restrictions() -> Vec<Axes> {
    vec![
        vec![("ko", vec!["simple"]), ("suicide", vec!["forbidden"])],
        vec![("ko", vec!["positional"]), ("suicide", vec!["allowed"])],
        vec![("ko", vec!["simple", "positional"])],
        vec![("ko", vec!["situational"])],
        vec![("suicide", vec!["forbidden"])],
        vec![("suicide", vec!["multi-stone"])],
        vec![("pass-stones", vec!["off"])],
        vec![("scoring", vec!["territory"])],
        vec![("scoring", vec!["area"])],
        vec![("seki-eyes", vec!["neutral"])],
        vec![("ending", vec!["two-passes"])],
        vec![("white-passes-last", vec!["no"])],
        vec![("komi", vec!["7.5"])],
        vec![("handicap-compensation", vec!["none"])],
        vec![("draws", vec!["jigo"])],
    ]
}

#[test]
fn a_second_executor_under_the_projected_rules_passes_every_kept_check() {
    let suite = suite();
    let selection = select(&suite, |_, _| true);
    let mut projected = 0;
    let mut left_out = 0;
    for axes in restrictions() {
        let factory = || -> Box<dyn Referee> {
            Box::new(Restricted {
                inner: Naive::default(),
                axes: axes.clone(),
            })
        };
        let report = Harness::default()
            .run(&suite, &selection, &factory)
            .expect("the run starts");
        for t in &report.trials {
            let scenario = &suite.scenarios[t.scenario];
            let name = format!("{}[{}]", scenario.id, scenario.runs[t.run].label);
            assert!(
                !t.outcome.fails_run(),
                "{name} under {axes:?}: {} ({:?})",
                t.outcome.summary(),
                t.projection
            );
            if let Some(p) = &t.projection {
                assert!(!matches!(t.outcome, Outcome::NotApplicable(_)));
                projected += 1;
                left_out += p.left_out.len();
                for a in &p.axes {
                    assert_ne!(a.from, a.to, "{name}: an axis projected onto itself");
                    let allowed = &axes.iter().find(|(x, _)| *x == a.axis).unwrap().1;
                    assert!(allowed.contains(&a.to.as_str()), "{name}: {a:?}");
                }
            }
        }
    }
    // Not vacuous: hundreds of trials are projected, and some lose checks on the way.
    assert!(projected > 500, "only {projected} projected trials");
    assert!(left_out > 20, "only {left_out} checks left out");
}

/// Finds a run of a scenario by id and label.
fn trial(suite: &Suite, id: &str, label: &str) -> (usize, usize) {
    let s = suite
        .scenarios
        .iter()
        .position(|s| s.id == id)
        .unwrap_or_else(|| panic!("no scenario {id}"));
    let r = suite.scenarios[s]
        .runs
        .iter()
        .position(|r| r.label == label)
        .unwrap_or_else(|| panic!("no run {label} in {id}"));
    (s, r)
}

#[test]
fn a_repetition_only_superko_forbids_is_not_projected_onto_simple_ko() {
    let suite = suite();
    let (s, r) = trial(&suite, "eternal-life-cycle", "aga");
    let caps = Capabilities::everything().only("ko", ["simple"]);
    let why = project(&suite.scenarios[s], r, &caps).unwrap_err();
    assert!(why.contains("goes differently"), "{why}");
}

#[test]
fn a_check_whose_answer_changes_is_left_out_and_the_others_kept() {
    let suite = suite();
    // Pass stones change the prisoners after each pass, not the board or the verdicts.
    let found = suite
        .scenarios
        .iter()
        .enumerate()
        .find_map(|(s, scenario)| {
            (0..scenario.runs.len()).find_map(|r| {
                let caps = Capabilities::everything().only("pass-stones", ["off"]);
                let p = project(scenario, r, &caps).ok()?;
                p.left_out
                    .iter()
                    .any(|l| l.key == "prisoners")
                    .then_some((s, r, p))
            })
        });
    let (s, _, p) = found.expect("some trial loses a prisoners check to pass-stones=off");
    assert_eq!(p.axes.len(), 1);
    assert_eq!(
        (p.axes[0].from.as_str(), p.axes[0].to.as_str()),
        ("on", "off")
    );
    assert!(
        p.left_out.iter().all(|l| l.key != "board"),
        "{}: a board check left out though passes do not change the board: {p:?}",
        suite.scenarios[s].id
    );
}
