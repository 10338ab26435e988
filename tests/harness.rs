//! The harness reaches every result state, and each for the right cause: engines with
//! deliberate faults, restricted capabilities, expectations files, and a scenario we broke.

use std::sync::Arc;

use goconform::conformance::harness::{select, Factory};
use goconform::conformance::libtest::{self, Options};
use goconform::conformance::{
    Capabilities, EngineError, EngineInfo, Harness, Observable, Observation, Outcome, Referee,
    Reference, RunReport, Tier, Unsupported,
};
use goconform::game::{Event, Reason, Setup, Verdict};
use goconform::rules::Rules;
use goconform::scenario::expectations::{Expectations, ExpectedFailure};
use goconform::scenario::Suite;
use goconform::spec::Spec;

mod common;

/// What a faulty engine does wrong. Every fault strikes at the first board play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fault {
    None,
    /// Calls every illegal move legal (and does not play it).
    AllLegal,
    /// Gives every illegal move the reason `occupied`.
    WrongReason,
    Crash,
    Panic,
    Timeout,
    /// Says it observes the board but shows none.
    HidesBoard,
}

/// The reference behind the trait, with one fault and the given capabilities.
struct Faulty {
    inner: Reference,
    fault: Fault,
    capabilities: Capabilities,
}

impl Faulty {
    fn new(fault: Fault, capabilities: Capabilities) -> Faulty {
        Faulty {
            inner: Reference::new(),
            fault,
            capabilities,
        }
    }
}

impl Referee for Faulty {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: format!("faulty-{:?}", self.fault).to_lowercase(),
            version: "0".to_string(),
        }
    }
    fn capabilities(&self) -> Capabilities {
        self.capabilities.clone()
    }
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.inner.start(rules, setup)
    }
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let is_play = matches!(event, Event::Move(_, goconform::board::Move::Play(_)));
        match self.fault {
            Fault::Crash if is_play => return Err(EngineError::crash("the engine exited")),
            Fault::Timeout if is_play => return Err(EngineError::timeout("no answer within 5 s")),
            Fault::Panic if is_play => panic!("deliberate fault"),
            _ => {}
        }
        let verdict = self.inner.apply(event)?;
        Ok(match (self.fault, verdict) {
            (Fault::AllLegal, Verdict::Illegal(_)) => Verdict::Legal {
                captured: Vec::new(),
                self_captured: Vec::new(),
            },
            (Fault::WrongReason, Verdict::Illegal(_)) => Verdict::Illegal(Reason::Occupied),
            (_, v) => v,
        })
    }
    fn observe(&self) -> Observation {
        let mut seen = self.inner.observe();
        if self.fault == Fault::HidesBoard {
            seen.stones = None;
        }
        seen
    }
    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.inner.count()
    }
}

fn suite(files: &[&str]) -> (Spec, Suite) {
    let spec = Spec::load(common::root()).unwrap();
    let paths: Vec<_> = files
        .iter()
        .map(|f| common::root().join("conformance").join(f))
        .collect();
    let suite = Suite::load(&paths, &spec).unwrap();
    (spec, suite)
}

const KO: &str = "ko/basic-ko.toml";
const ETERNAL_LIFE: &str = "superko/eternal-life-cycle.toml";

fn run(suite: &Suite, harness: &Harness, fault: Fault, caps: Capabilities) -> RunReport {
    let factory: &Factory = &move || Box::new(Faulty::new(fault, caps.clone())) as Box<dyn Referee>;
    harness
        .run(suite, &select(suite, |_, _| true), factory)
        .unwrap()
}

fn words(report: &RunReport) -> Vec<&'static str> {
    report.trials.iter().map(|t| t.outcome.word()).collect()
}

#[test]
fn a_faithful_engine_passes_and_a_broken_one_fails() {
    let (_, suite) = suite(&[KO]);
    let ok = run(
        &suite,
        &Harness::default(),
        Fault::None,
        Capabilities::everything(),
    );
    assert!(
        ok.trials.iter().all(|t| t.outcome == Outcome::Pass),
        "{:?}",
        words(&ok)
    );
    let bad = run(
        &suite,
        &Harness::default(),
        Fault::AllLegal,
        Capabilities::everything(),
    );
    assert!(bad
        .trials
        .iter()
        .all(|t| matches!(t.outcome, Outcome::Fail(_))));
    assert_eq!(bad.tally().failing(), bad.trials.len());
    let Outcome::Fail(m) = &bad.trials[0].outcome else {
        unreachable!()
    };
    assert!(
        m.iter().any(|m| m.key == "illegal" && m.actual == "legal"),
        "{m:?}"
    );
}

#[test]
fn reasons_count_only_in_the_strict_tier() {
    let (_, suite) = suite(&[KO]);
    let strict = run(
        &suite,
        &Harness::default(),
        Fault::WrongReason,
        Capabilities::everything(),
    );
    assert_eq!(strict.tier, Tier::Strict);
    assert!(strict
        .trials
        .iter()
        .all(|t| matches!(t.outcome, Outcome::Fail(_))));
    let basic = Harness {
        tier: Some(Tier::Basic),
        ..Harness::default()
    };
    let basic = run(
        &suite,
        &basic,
        Fault::WrongReason,
        Capabilities::everything(),
    );
    assert!(
        basic.trials.iter().all(|t| t.outcome == Outcome::Pass),
        "{:?}",
        words(&basic)
    );
    // Without reasons the tier is basic, and strict is refused.
    let no_reasons = Capabilities::new().observing([Observable::Board, Observable::ToMove]);
    let auto = run(
        &suite,
        &Harness::default(),
        Fault::WrongReason,
        no_reasons.clone(),
    );
    assert_eq!(auto.tier, Tier::Basic);
    let strict = Harness {
        tier: Some(Tier::Strict),
        ..Harness::default()
    };
    let factory: &Factory =
        &move || Box::new(Faulty::new(Fault::None, no_reasons.clone())) as Box<dyn Referee>;
    assert!(strict
        .run(&suite, &select(&suite, |_, _| true), factory)
        .is_err());
}

#[test]
fn errors_panics_and_timeouts_are_the_engines_and_the_run_goes_on() {
    let (_, suite) = suite(&[KO, "suicide/single-stone-suicide.toml"]);
    for (fault, word) in [
        (Fault::Crash, "error"),
        (Fault::Panic, "error"),
        (Fault::Timeout, "timeout"),
    ] {
        let report = run(
            &suite,
            &Harness::default(),
            fault,
            Capabilities::everything(),
        );
        assert_eq!(report.trials.len(), select(&suite, |_, _| true).len());
        for t in &report.trials {
            assert_eq!(t.outcome.word(), word, "{fault:?}: {:?}", t.outcome);
            assert!(t.outcome.fails_run());
        }
    }
    let report = run(
        &suite,
        &Harness::default(),
        Fault::Panic,
        Capabilities::everything(),
    );
    assert!(report.trials[0]
        .outcome
        .summary()
        .contains("deliberate fault"));
}

#[test]
fn missing_capabilities_make_trials_projected_or_not_applicable_never_failed() {
    // A basic ko is judged alike under every ko rule: runs under another rule are projected
    // onto simple ko. A cycle only superko forbids is not: those runs do not apply.
    let (_, suite) = suite(&[KO, ETERNAL_LIFE]);
    let simple_only = Capabilities::everything().only("ko", ["simple"]);
    let report = run(&suite, &Harness::default(), Fault::None, simple_only);
    let mut not_applicable = 0;
    for t in &report.trials {
        let scenario = &suite.scenarios[t.scenario];
        let run = &scenario.runs[t.run];
        if run.rules.ko.to_string() == "simple" {
            assert_eq!(t.outcome, Outcome::Pass);
            assert_eq!(t.projection, None);
        } else if scenario.id == "basic-ko" {
            assert_eq!(t.outcome, Outcome::Pass, "{}", run.label);
            let p = t.projection.as_ref().expect("projected");
            assert_eq!(p.axes_text(), format!("ko {}→simple", run.rules.ko));
        } else {
            let Outcome::NotApplicable(why) = &t.outcome else {
                panic!("{}: {:?}", run.label, t.outcome)
            };
            assert!(why.contains("ko="), "{why}");
            assert!(why.contains("goes differently"), "{why}");
            not_applicable += 1;
        }
    }
    assert!(not_applicable > 0);
    assert_eq!(report.tally().failing(), 0);
}

#[test]
fn not_observable_is_not_wrong() {
    let (_, suite) = suite(&[KO]);
    // Declares no board: board checks are left out, and the rest still passes.
    let blind = Capabilities::everything();
    let mut blind_caps = blind.clone();
    blind_caps.observes.remove(&Observable::Board);
    let report = run(&suite, &Harness::default(), Fault::HidesBoard, blind_caps);
    for t in &report.trials {
        assert_eq!(t.outcome, Outcome::Pass, "{:?}", t.outcome);
        assert!(t.unobserved.contains(&"board"), "{:?}", t.unobserved);
    }
    // Declares the board and shows none: that is wrong.
    let report = run(&suite, &Harness::default(), Fault::HidesBoard, blind);
    for t in &report.trials {
        let Outcome::Fail(m) = &t.outcome else {
            panic!("{:?}", t.outcome)
        };
        assert!(m.iter().all(|m| m.key == "board"), "{m:?}");
    }
    // Observing nothing a scenario checks makes it not applicable.
    let nothing = Capabilities::new();
    let report = run(&suite, &Harness::default(), Fault::None, nothing);
    let only_boards = suite.scenarios[0]
        .expectations
        .iter()
        .all(|e| e.checks.iter().all(|c| c.key() == "board"));
    if only_boards {
        assert!(report
            .trials
            .iter()
            .all(|t| matches!(t.outcome, Outcome::NotApplicable(_))));
    }
}

fn listing(scenario: &str, run: Option<&str>, reason: &str) -> Expectations {
    Expectations {
        path: "expect.toml".into(),
        engine: None,
        entries: vec![ExpectedFailure {
            scenario: scenario.to_string(),
            run: run.map(str::to_string),
            reason: reason.to_string(),
            link: None,
            line: 1,
        }],
    }
}

#[test]
fn listed_failures_are_expected_and_listed_passes_fail_the_run() {
    let (_, suite) = suite(&[KO]);
    let id = suite.scenarios[0].id.clone();
    let listed = listing(&id, None, "no ko rule yet");
    let harness = Harness {
        expectations: Some(&listed),
        ..Harness::default()
    };
    let bad = run(
        &suite,
        &harness,
        Fault::AllLegal,
        Capabilities::everything(),
    );
    for t in &bad.trials {
        let Outcome::ExpectedFailure { listed, actual } = &t.outcome else {
            panic!("{:?}", t.outcome)
        };
        assert_eq!(listed, "no ko rule yet");
        assert!(matches!(**actual, Outcome::Fail(_)));
    }
    assert_eq!(bad.tally().failing(), 0);
    let good = run(&suite, &harness, Fault::None, Capabilities::everything());
    for t in &good.trials {
        assert!(
            matches!(t.outcome, Outcome::UnexpectedPass { .. }),
            "{:?}",
            t.outcome
        );
        assert!(t.outcome.fails_run());
    }
    // A run entry names one run only.
    let first_run = suite.scenarios[0].runs[0].label.clone();
    let one = listing(&id, Some(&first_run), "x");
    let harness = Harness {
        expectations: Some(&one),
        ..Harness::default()
    };
    let report = run(&suite, &harness, Fault::None, Capabilities::everything());
    assert!(matches!(
        report.trials[0].outcome,
        Outcome::UnexpectedPass { .. }
    ));
    assert!(report.trials[1..]
        .iter()
        .all(|t| t.outcome == Outcome::Pass));
}

#[test]
fn a_scenario_we_broke_is_a_harness_error_not_the_engines() {
    let (_, mut suite) = suite(&[KO]);
    // A stone off the board: the loader would refuse it, so only a bug of ours makes it.
    suite.scenarios[0].setup.stones.push((
        goconform::board::Point::new(30, 30),
        goconform::board::Color::Black,
    ));
    let report = run(
        &suite,
        &Harness::default(),
        Fault::None,
        Capabilities::everything(),
    );
    for t in &report.trials {
        assert!(
            matches!(t.outcome, Outcome::HarnessError(_)),
            "{:?}",
            t.outcome
        );
        assert!(t.outcome.fails_run());
    }
}

#[test]
fn parallel_runs_keep_the_suites_order_and_agree_with_one_worker() {
    let spec = Spec::load(common::root()).unwrap();
    let suite = Suite::load(&[common::root().join("conformance")], &spec).unwrap();
    let selection = select(&suite, |_, _| true);
    let factory: &Factory = &|| Box::new(Reference::new()) as Box<dyn Referee>;
    let one = Harness {
        jobs: 1,
        ..Harness::default()
    }
    .run(&suite, &selection, factory)
    .unwrap();
    let four = Harness {
        jobs: 4,
        ..Harness::default()
    }
    .run(&suite, &selection, factory)
    .unwrap();
    let key = |r: &RunReport| -> Vec<(usize, usize, &'static str)> {
        r.trials
            .iter()
            .map(|t| (t.scenario, t.run, t.outcome.word()))
            .collect()
    };
    assert_eq!(key(&one), key(&four));
    let order: Vec<(usize, usize)> = four.trials.iter().map(|t| (t.scenario, t.run)).collect();
    assert_eq!(order, selection);
    assert_eq!(four.tally().pass, selection.len());
    // The default (`jobs: 0`) runs its workers on rayon's pool; two runs started at once from
    // inside that pool, as `check` runs beside its tournament scenarios, each finish and agree.
    let default = || Harness::default().run(&suite, &selection, factory).unwrap();
    let (a, b) = rayon::join(default, default);
    assert_eq!(key(&a), key(&one));
    assert_eq!(key(&b), key(&one));
}

#[test]
fn libtest_makes_one_test_per_trial_and_fails_what_fails_the_run() {
    // libtest prints to its log file, so that the deliberate failures below do not show in
    // this test's own output.
    let log = std::env::temp_dir().join(format!("goconform-libtest-{}.log", std::process::id()));
    let args = libtest_mimic::Arguments {
        test_threads: Some(2),
        quiet: true,
        filter: Some("ko/basic-ko[".to_string()),
        logfile: Some(log.to_str().unwrap().to_string()),
        ..Default::default()
    };
    let good: Arc<libtest::SharedFactory> = Arc::new(|| Box::new(Reference::new()));
    let conclusion = libtest::run(good, &Options::default(), &args).unwrap();
    assert!(conclusion.num_passed > 0);
    assert_eq!(conclusion.num_failed, 0);
    let bad: Arc<libtest::SharedFactory> =
        Arc::new(|| Box::new(Faulty::new(Fault::AllLegal, Capabilities::everything())));
    let conclusion = libtest::run(bad, &Options::default(), &args).unwrap();
    assert_eq!(conclusion.num_passed, 0);
    assert!(conclusion.num_failed > 0);
    let printed = std::fs::read_to_string(&log).unwrap();
    assert!(printed.contains("---- ko/basic-ko[aga] ----"), "{printed}");
    assert!(printed.contains("expected illegal"), "{printed}");
    assert!(printed.contains("--rules aga` shows it"), "{printed}");
    let simple: Arc<libtest::SharedFactory> = Arc::new(|| {
        Box::new(Faulty::new(
            Fault::None,
            Capabilities::everything().only("ko", ["simple"]),
        ))
    });
    // A basic ko is projected onto simple ko and passes; a cycle only superko forbids does
    // not apply, and is ignored.
    let conclusion = libtest::run(simple.clone(), &Options::default(), &args).unwrap();
    assert!(conclusion.num_passed > 0, "{conclusion:?}");
    assert_eq!(conclusion.num_failed, 0);
    let cycle = libtest_mimic::Arguments {
        filter: Some("superko/eternal-life-cycle[".to_string()),
        ..args.clone()
    };
    let conclusion = libtest::run(simple, &Options::default(), &cycle).unwrap();
    assert!(conclusion.num_ignored > 0, "{conclusion:?}");
    assert_eq!(conclusion.num_failed, 0);
    let _ = std::fs::remove_file(&log);
}

#[test]
fn unjudged_reasons_and_untaken_events_are_not_applicable() {
    let (_, suite) = suite(&[KO, "ending/resign-during-play.toml"]);
    // A GTP-like engine: refuses occupied points, suicide and ko, takes plays and passes.
    let gtp_like = Capabilities::everything()
        .judging([Reason::Occupied, Reason::Suicide, Reason::Ko])
        .taking([
            goconform::conformance::EventKind::Play,
            goconform::conformance::EventKind::Pass,
        ]);
    let report = run(&suite, &Harness::default(), Fault::None, gtp_like.clone());
    for t in &report.trials {
        let scenario = &suite.scenarios[t.scenario];
        if scenario.id == "basic-ko" {
            assert_eq!(t.outcome, Outcome::Pass, "{:?}", t.outcome);
        } else {
            let Outcome::NotApplicable(why) = &t.outcome else {
                panic!("{}: {:?}", scenario.id, t.outcome)
            };
            assert!(why.contains("`resign` events"), "{why}");
        }
    }
    // A refusal for a reason it does not judge is not put to it: the ko retake is skipped,
    // its verdict is not observed, and the rest of the trial is judged as usual.
    let no_ko = gtp_like.judging([Reason::Occupied, Reason::Suicide]);
    let (_, ko) = self::suite(&[KO]);
    let report = run(&ko, &Harness::default(), Fault::None, no_ko.clone());
    for t in &report.trials {
        assert_eq!(t.outcome, Outcome::Pass, "{:?}", t.outcome);
        assert!(t.unobserved.contains(&"illegal"), "{:?}", t.unobserved);
    }
    // ... and an engine that would have played the retake is not blamed for it.
    let report = run(&ko, &Harness::default(), Fault::AllLegal, no_ko);
    for t in &report.trials {
        assert_eq!(t.outcome, Outcome::Pass, "{:?}", t.outcome);
    }
}
