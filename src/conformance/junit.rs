//! A run as JUnit XML, for CI systems (GitLab, Jenkins, GitHub test reporters) to show.
//!
//! # Layout
//!
//! One `<testsuite>` per scenario topic (the folder of the scenario: `capture`, `ko`,
//! `counting`, ...), in the order the topics first appear in the run, and one `<testcase>`
//! per trial, named `{scenario id}[{run label}]`, with the topic as its classname.
//!
//! Topics rather than run labels, because CI UIs show a report as a tree of suites and
//! sort and collapse by suite: grouping by topic gives a dozen suites of a handful of
//! related trials each and keeps every run of a scenario side by side, so a scenario that
//! fails under several rulesets reads as one problem in one place. Grouping by run label
//! would repeat nearly the whole suite under each of fifteen rulesets and scatter one
//! scenario across all of them; the label is in each test's name anyway, so a UI's
//! search still finds every trial of one ruleset.
//!
//! # Outcomes
//!
//! | outcome          | JUnit                                                          |
//! |------------------|----------------------------------------------------------------|
//! | pass             | success                                                        |
//! | fail             | `<failure type="fail">`                                        |
//! | unexpected-pass  | `<failure type="unexpected-pass">`                             |
//! | error            | `<error type="error">`                                         |
//! | timeout          | `<error type="timeout">`                                       |
//! | harness-error    | `<error type="harness-error">` (our fault, not the engine's)   |
//! | not-applicable   | `<skipped type="not-applicable">` with the reason              |
//! | expected-failure | success, with `expected failure: {reason}` in `<system-out>`   |
//!
//! A trial run under projected rules (the nearest an engine has, see
//! [`super::projection`]) says so on the first line of its `<system-out>`, and in its failure
//! text: `projected: ko natural-situational→simple; 1 check left out (prisoners)`.
//!
//! An expected failure is reported as a success, not as skipped: the engine's expectations
//! file lists it, and the run does not fail because of it ([`Outcome::fails_run`]), so CI
//! must stay green; a skip would also be wrong, since the trial did run. The information
//! is kept in the test's output (the listed reason and what actually happened), where the
//! UIs show it next to the test.
//!
//! A failure's text lists every mismatch as `{scenario file}:{line}: {summary}` and ends
//! with the command that reproduces the trial. Scenario files are named relative to the
//! project folder when they are under it, as the text report names them, so a report is the
//! same on every machine; each `<testcase>` also carries the file as a `file` attribute, which
//! GitLab and the GitHub reporters use to link a test to its source.
//!
//! Tournament scenarios (tiebreaks, clocks, handicaps) have no runs: each is one `<testcase>`
//! named by its id in its topic's `<testsuite>`, a failure listing every value that differs,
//! as the text report counts them.
//!
//! # Properties
//!
//! The run's properties (engine, tier, versions) are written once, in the first
//! `<testsuite>`: parsers such as Python's `xunitparser` gather every suite's properties into
//! one table and refuse a name seen twice.
//!
//! # Determinism
//!
//! The output depends only on the report and the suite, apart from the `time` attributes:
//! no report uuid and no timestamp (quick-junit sets neither unless asked). Each
//! `<testsuite>`'s time is the sum of its trials'; the root's is the wall time of the run when
//! the caller gives it (trials run in parallel, so the sum would not be).

use std::path::Path;
use std::time::Duration;

use quick_junit::{NonSuccessKind, Property, Report, TestCase, TestCaseStatus, TestSuite};

pub use quick_junit::SerializeError;

use super::tournament::CaseMismatch;
use super::{Outcome, RunReport, Trial, INTERPRETATION_VERSION, REPORT_FORMAT_VERSION};
use crate::scenario::tournament::TournamentScenario;
use crate::scenario::Suite;

/// The version of the suite (the crate's release), as reports show it.
const SUITE_VERSION: &str = env!("CARGO_PKG_VERSION");

pub use super::tournament::TournamentTrial;

/// What frames a JUnit report besides its trials.
pub struct JunitOptions<'a> {
    /// The name of the root `<testsuites>`.
    pub root_name: &'a str,
    /// The folder scenario paths are shown relative to (the project folder).
    pub base: Option<&'a Path>,
    /// The wall time of the whole run, for the root.
    pub wall_time: Option<Duration>,
}

/// Renders a run as a JUnit XML document: the board trials of `report` and the tournament
/// scenarios of `tournament`, by topic. The first `<testsuite>` carries the run's properties:
/// the engine's name and version, the tier, what the engine observes, and the suite, report
/// format and interpretation versions.
pub fn junit(
    report: &RunReport,
    suite: &Suite,
    tournament: &[TournamentTrial<'_>],
    options: &JunitOptions<'_>,
) -> Result<String, SerializeError> {
    let mut suites: Vec<TestSuite> = Vec::new();
    let mut times: Vec<Duration> = Vec::new();
    let mut suite_of = |topic: &str, suites: &mut Vec<TestSuite>| match suites
        .iter()
        .position(|s| s.name.as_str() == topic)
    {
        Some(i) => i,
        None => {
            let mut s = TestSuite::new(topic);
            if suites.is_empty() {
                s.add_properties(properties(report));
            }
            suites.push(s);
            times.push(Duration::ZERO);
            suites.len() - 1
        }
    };
    let mut cases: Vec<(usize, TestCase, Duration)> = Vec::new();
    for trial in &report.trials {
        let place = Place::of(suite, trial, options.base);
        let index = suite_of(&place.topic, &mut suites);
        cases.push((index, test_case(trial, &place), trial.elapsed));
    }
    for (scenario, mismatches) in tournament {
        let index = suite_of(&scenario.topic, &mut suites);
        cases.push((
            index,
            tournament_case(scenario, *mismatches, options.base),
            Duration::ZERO,
        ));
    }
    for (index, case, elapsed) in cases {
        suites[index].add_test_case(case);
        times[index] += elapsed;
    }
    let mut root = Report::new(options.root_name);
    if let Some(time) = options.wall_time {
        root.set_time(time);
    }
    for (mut s, time) in suites.into_iter().zip(times) {
        s.set_time(time);
        root.add_test_suite(s);
    }
    root.to_string()
}

/// A path as reports show it: relative to `base` when under it.
fn shown(path: &Path, base: Option<&Path>) -> String {
    base.and_then(|b| path.strip_prefix(b).ok())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// One tournament scenario as a test case.
fn tournament_case(
    scenario: &TournamentScenario,
    mismatches: Option<&[CaseMismatch]>,
    base: Option<&Path>,
) -> TestCase {
    let path = shown(&scenario.path, base);
    let status = match mismatches {
        None => {
            let mut status = TestCaseStatus::skipped();
            status.set_type("not-applicable").set_message(
                "tournament rules are checked against the reference only (the Referee trait has none)",
            );
            status
        }
        Some([]) => TestCaseStatus::success(),
        Some(found) => {
            let mut status = TestCaseStatus::non_success(NonSuccessKind::Failure);
            let mut text: String = found.iter().map(|m| format!("{path}: {m}\n")).collect();
            text.push_str(&format!("reproduce: goconform check {path}"));
            status
                .set_type("fail")
                .set_message(format!("{} value(s) differ", found.len()))
                .set_description(text);
            status
        }
    };
    let mut case = TestCase::new(scenario.id.as_str(), status);
    case.set_classname(scenario.topic.as_str());
    case.extra.insert("file".into(), path.into());
    case
}

fn properties(report: &RunReport) -> Vec<Property> {
    let observes: Vec<&str> = report
        .capabilities
        .observes
        .iter()
        .map(|o| o.word())
        .collect();
    vec![
        Property::new("engine", report.engine.name.as_str()),
        Property::new("engine-version", report.engine.version.as_str()),
        Property::new("tier", report.tier.word()),
        Property::new("observes", observes.join(" ")),
        Property::new("suite-version", SUITE_VERSION),
        Property::new("report-format-version", REPORT_FORMAT_VERSION.to_string()),
        Property::new("interpretation-version", INTERPRETATION_VERSION.to_string()),
    ]
}

/// Where a trial comes from, as the report names it. A trial whose indices are not in the
/// suite (a report from another selection) is still reported, under placeholder names,
/// rather than panicking.
struct Place {
    name: String,
    topic: String,
    path: String,
    label: String,
}

impl Place {
    fn of(suite: &Suite, trial: &Trial, base: Option<&Path>) -> Place {
        let Some(scenario) = suite.scenarios.get(trial.scenario) else {
            return Place {
                name: format!("#{}[#{}]", trial.scenario, trial.run),
                topic: "(unknown)".to_string(),
                path: "(unknown scenario)".to_string(),
                label: format!("#{}", trial.run),
            };
        };
        let label = scenario
            .runs
            .get(trial.run)
            .map_or_else(|| format!("#{}", trial.run), |r| r.label.clone());
        Place {
            name: format!("{}[{label}]", scenario.id),
            topic: scenario.topic.clone(),
            path: shown(&scenario.path, base),
            label,
        }
    }

    fn reproduce(&self) -> String {
        format!(
            "reproduce: goconform check {} --rules {}",
            self.path, self.label
        )
    }
}

fn test_case(trial: &Trial, place: &Place) -> TestCase {
    let outcome = &trial.outcome;
    let non_success = |kind: NonSuccessKind, message: String, description: String| {
        let mut status = TestCaseStatus::non_success(kind);
        status
            .set_type(outcome.word())
            .set_message(message)
            .set_description(description);
        status
    };
    let located = || format!("{}\n{}", place.path, place.reproduce());
    let projected = trial
        .projection
        .as_ref()
        .map_or(String::new(), |p| format!("{p}\n"));
    let mut system_out = (!projected.is_empty()).then(|| projected.clone());
    let status = match outcome {
        Outcome::Pass => TestCaseStatus::success(),
        Outcome::ExpectedFailure { listed, actual } => {
            system_out = Some(format!(
                "{projected}expected failure: {listed}\nactual outcome: {}: {}\n",
                actual.word(),
                actual.summary()
            ));
            TestCaseStatus::success()
        }
        Outcome::Fail(mismatches) => {
            let mut text = projected.clone();
            text.extend(
                mismatches
                    .iter()
                    .map(|m| format!("{}:{}: {}\n", place.path, m.line, m.summary())),
            );
            text.push_str(&place.reproduce());
            non_success(NonSuccessKind::Failure, outcome.summary(), text)
        }
        Outcome::UnexpectedPass { .. } => {
            non_success(NonSuccessKind::Failure, outcome.summary(), located())
        }
        Outcome::Error(_) | Outcome::Timeout(_) => {
            non_success(NonSuccessKind::Error, outcome.summary(), located())
        }
        Outcome::HarnessError(why) => non_success(
            NonSuccessKind::Error,
            format!("harness error, not the implementation's fault: {why}"),
            located(),
        ),
        Outcome::NotApplicable(why) => {
            let mut status = TestCaseStatus::skipped();
            status.set_type(outcome.word()).set_message(why.as_str());
            status
        }
    };
    let mut case = TestCase::new(place.name.as_str(), status);
    case.set_classname(place.topic.as_str())
        .set_time(trial.elapsed);
    case.extra.insert("file".into(), place.path.as_str().into());
    if let Some(out) = system_out {
        case.set_system_out(out);
    }
    case
}

#[cfg(test)]
mod tests {
    use super::*;

    const OPTIONS: JunitOptions<'static> = JunitOptions {
        root_name: "goconform",
        base: None,
        wall_time: None,
    };
    use crate::conformance::fixtures;
    use crate::conformance::{Capabilities, EngineInfo, Mismatch, Observable, Tier};

    fn suite() -> Suite {
        fixtures::two_scenarios().1
    }

    fn trial(scenario: usize, run: usize, outcome: Outcome) -> Trial {
        fixtures::trial(scenario, run, outcome, 3)
    }

    fn mismatch(line: usize) -> Mismatch {
        Mismatch {
            after: 1,
            line,
            key: "captures",
            expected: "C3".to_string(),
            actual: "(none) <&>".to_string(),
            first_difference: None,
        }
    }

    fn report(suite: &Suite) -> RunReport {
        let (capture, suicide) = fixtures::capture_and_suicide(suite);
        let fail = Outcome::Fail(vec![mismatch(29), mismatch(45)]);
        RunReport {
            engine: EngineInfo {
                name: "tiny".to_string(),
                version: "0.3".to_string(),
            },
            capabilities: Capabilities::new().observing([Observable::Board, Observable::Captures]),
            tier: Tier::Basic,
            trials: vec![
                trial(capture, 0, Outcome::Pass),
                trial(capture, 1, fail.clone()),
                trial(
                    capture,
                    2,
                    Outcome::ExpectedFailure {
                        listed: "no pass stones yet".to_string(),
                        actual: Box::new(fail),
                    },
                ),
                trial(
                    capture,
                    3,
                    Outcome::UnexpectedPass {
                        listed: "ko is wrong".to_string(),
                    },
                ),
                trial(
                    suicide,
                    0,
                    Outcome::NotApplicable("no suicide=allowed".to_string()),
                ),
                trial(
                    suicide,
                    1,
                    Outcome::Error("at move 1: it crashed".to_string()),
                ),
                trial(suicide, 2, Outcome::Timeout("at move 1: 5 s".to_string())),
                trial(
                    suicide,
                    3,
                    Outcome::HarnessError("the worker stopped".to_string()),
                ),
            ],
        }
    }

    /// The text of the element that starts at `from`, up to its closing tag.
    fn element<'a>(xml: &'a str, from: &str, end: &str) -> &'a str {
        let start = xml.find(from).unwrap_or_else(|| panic!("{from} in {xml}"));
        let stop = xml[start..]
            .find(end)
            .unwrap_or_else(|| panic!("{end} in {xml}"));
        &xml[start..start + stop + end.len()]
    }

    #[test]
    fn every_outcome_has_its_junit_form() {
        let suite = suite();
        let report = report(&suite);
        let xml = junit(&report, &suite, &[], &OPTIONS).unwrap();
        let capture = &suite.scenarios[report.trials[0].scenario];
        let suicide = &suite.scenarios[report.trials[4].scenario];
        let name =
            |s: &crate::scenario::Scenario, r: usize| format!("{}[{}]", s.id, s.runs[r].label);

        assert!(
            xml.contains(
                r#"<testsuites name="goconform" tests="8" skipped="1" failures="2" errors="3">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<testsuite name="capture" tests="4" skipped="0" errors="0" failures="2" time="0.012">"#
            ),
            "{xml}"
        );
        assert!(
            xml.contains(
                r#"<testsuite name="suicide" tests="4" skipped="1" errors="3" failures="0" time="0.012">"#
            ),
            "{xml}"
        );
        assert!(!xml.contains("uuid="), "{xml}");
        assert!(!xml.contains("timestamp="), "{xml}");

        // Pass: an empty test case.
        assert!(
            xml.contains(&format!(
                r#"<testcase name="{}" classname="capture" time="0.003" file="{}"/>"#,
                name(capture, 0),
                capture.path.display()
            )),
            "{xml}"
        );

        // Fail: every mismatch with file and line, and the command to reproduce it.
        let failed = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(capture, 1)),
            "</testcase>",
        );
        let path = capture.path.display().to_string();
        assert!(failed.contains(r#"<failure message="after move 1: captures expected C3, got (none) &lt;&amp;&gt; (and 1 more)" type="fail">"#), "{failed}");
        assert!(
            failed.contains(&format!("{path}:29: after move 1: captures")),
            "{failed}"
        );
        assert!(
            failed.contains(&format!("{path}:45: after move 1: captures")),
            "{failed}"
        );
        assert!(
            failed.contains(&format!(
                "reproduce: goconform check {path} --rules {}",
                capture.runs[1].label
            )),
            "{failed}"
        );

        // Expected failure: a success that keeps the reason.
        let expected = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(capture, 2)),
            "</testcase>",
        );
        assert!(
            !expected.contains("<failure") && !expected.contains("<skipped"),
            "{expected}"
        );
        assert!(
            expected.contains("<system-out>expected failure: no pass stones yet\nactual outcome: fail: after move 1"),
            "{expected}"
        );

        let unexpected = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(capture, 3)),
            "</testcase>",
        );
        assert!(
            unexpected.contains(r#"type="unexpected-pass""#),
            "{unexpected}"
        );
        assert!(unexpected.contains("ko is wrong"), "{unexpected}");

        let skipped = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(suicide, 0)),
            "</testcase>",
        );
        assert!(
            skipped.contains(r#"<skipped message="no suicide=allowed" type="not-applicable"/>"#),
            "{skipped}"
        );

        let error = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(suicide, 1)),
            "</testcase>",
        );
        assert!(
            error.contains(r#"<error message="at move 1: it crashed" type="error">"#),
            "{error}"
        );
        let timeout = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(suicide, 2)),
            "</testcase>",
        );
        assert!(timeout.contains(r#"type="timeout""#), "{timeout}");
        let harness = element(
            &xml,
            &format!(r#"<testcase name="{}""#, name(suicide, 3)),
            "</testcase>",
        );
        assert!(harness.contains(r#"type="harness-error""#), "{harness}");
        assert!(
            harness.contains("message=\"harness error, not the implementation&apos;s fault: the worker stopped\""),
            "{harness}"
        );
    }

    #[test]
    fn the_first_suite_carries_the_versions_once() {
        let suite = suite();
        let xml = junit(&report(&suite), &suite, &[], &OPTIONS).unwrap();
        for property in [
            r#"<property name="engine" value="tiny"/>"#.to_string(),
            r#"<property name="engine-version" value="0.3"/>"#.to_string(),
            r#"<property name="tier" value="basic"/>"#.to_string(),
            r#"<property name="observes" value="captures board"/>"#.to_string(),
            format!(r#"<property name="suite-version" value="{SUITE_VERSION}"/>"#),
            format!(r#"<property name="report-format-version" value="{REPORT_FORMAT_VERSION}"/>"#),
            format!(
                r#"<property name="interpretation-version" value="{INTERPRETATION_VERSION}"/>"#
            ),
        ] {
            assert_eq!(xml.matches(&property).count(), 1, "{property} in {xml}");
        }
    }

    #[test]
    fn the_output_is_deterministic_and_well_formed() {
        let suite = suite();
        let report = report(&suite);
        let a = junit(&report, &suite, &[], &OPTIONS).unwrap();
        let b = junit(&report, &suite, &[], &OPTIONS).unwrap();
        assert_eq!(a, b);
        let parsed = quick_junit::Report::deserialize_from_str(&a).expect("the XML parses back");
        assert_eq!(parsed.tests, 8);
        assert_eq!(parsed.test_suites.len(), 2);
        assert_eq!(parsed.test_suites[0].test_cases.len(), 4);
    }
}
