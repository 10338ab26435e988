//! The JUnit report as the tools that read it see it: every trial the text report counts
//! (the tournament scenarios too), files named relative to the project with a `file`
//! attribute, the run's properties once, the wall time on the root; and read by Python's
//! `xunitparser`, which refused the report while every suite repeated the properties.

use std::path::PathBuf;
use std::process::Command;

mod common;

use common::{goconform, root};

/// The text report's count of passed trials and the JUnit file of the same run.
fn run_with_junit() -> (usize, String) {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reports");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("junit.xml");
    let out = goconform(&["check", "--junit", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert_eq!(out.status.code(), Some(0), "{text}");
    let passed = text
        .lines()
        .rev()
        .find_map(|l| l.strip_suffix(" passed"))
        .and_then(|n| n.trim().parse().ok())
        .unwrap_or_else(|| panic!("a total in:\n{text}"));
    (passed, std::fs::read_to_string(&path).unwrap())
}

#[test]
fn the_junit_report_counts_what_the_text_report_counts() {
    let (passed, xml) = run_with_junit();
    let report = quick_junit::Report::deserialize_from_str(&xml).expect("the report parses");
    assert_eq!(report.tests, passed, "every trial the text report counts");
    assert!(report.time.is_some(), "the root has the run's wall time");
    let with_properties = report
        .test_suites
        .iter()
        .filter(|s| !s.properties.is_empty())
        .count();
    assert_eq!(with_properties, 1, "the properties are written once");
    let mut tournament = 0;
    for suite in &report.test_suites {
        for case in &suite.test_cases {
            let file = case
                .extra
                .get("file")
                .unwrap_or_else(|| panic!("{} has a file", case.name.as_str()));
            let file = PathBuf::from(file.as_str());
            assert!(file.is_relative(), "{}", file.display());
            assert!(root().join(&file).is_file(), "{}", file.display());
            if !case.name.contains('[') {
                tournament += 1;
            }
        }
    }
    assert!(tournament > 0, "the tournament scenarios are reported");
    assert!(
        !xml.contains(root().to_str().unwrap()),
        "no path of this machine"
    );
}

#[test]
fn pythons_xunitparser_reads_the_junit_report() {
    let probe = Command::new("python3")
        .args(["-c", "import xunitparser"])
        .output();
    if !probe.is_ok_and(|o| o.status.success()) {
        return common::skip("Python's xunitparser is not installed (pip install xunitparser)");
    }
    let (passed, xml) = run_with_junit();
    let path = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("reports/read.xml");
    std::fs::write(&path, xml).unwrap();
    let out = Command::new("python3")
        .arg("-c")
        .arg(
            "import sys, xunitparser\n\
             suite, result = xunitparser.parse(open(sys.argv[1]))\n\
             print(result.testsRun, len(result.failures), len(result.errors))",
        )
        .arg(&path)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(said.trim(), format!("{passed} 0 0"));
}

/// docs/report.schema.json, compiled by a validator nobody here wrote (boon).
fn report_schema() -> (boon::Schemas, boon::SchemaIndex) {
    let text = std::fs::read_to_string(root().join("docs/report.schema.json")).unwrap();
    let schema: serde_json::Value = serde_json::from_str(&text).expect("the schema is JSON");
    let location = "https://goconform.invalid/report.schema.json";
    let mut schemas = boon::Schemas::new();
    let mut compiler = boon::Compiler::new();
    compiler
        .add_resource(location, schema)
        .expect("the schema is added");
    let index = compiler
        .compile(location, &mut schemas)
        .unwrap_or_else(|e| panic!("the schema compiles: {e}"));
    (schemas, index)
}

/// The lines of `goconform check --format jsonl ARGS`, each checked against the schema, and
/// the footer's totals against the lines.
fn checked_report(args: &[&str]) -> Vec<serde_json::Value> {
    let (schemas, index) = report_schema();
    let mut all = vec!["check", "--format", "jsonl"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    for line in &lines {
        if let Err(e) = schemas.validate(line, index) {
            panic!("{args:?}: a line the schema refuses:\n{line}\n{e:#}");
        }
    }
    let footer = lines.last().expect("a footer");
    let total: u64 = [
        "pass",
        "fail",
        "expected_failure",
        "unexpected_pass",
        "not_applicable",
        "error",
        "timeout",
        "harness_error",
    ]
    .iter()
    .map(|k| footer[k].as_u64().unwrap())
    .sum();
    assert_eq!(
        total as usize,
        lines.len() - 2,
        "{args:?}: the totals count every line"
    );
    lines
}

#[test]
fn real_reports_follow_the_report_schema() {
    let outcomes = |lines: &[serde_json::Value]| -> std::collections::BTreeSet<String> {
        lines
            .iter()
            .filter_map(|l| l["outcome"].as_str().map(str::to_string))
            .collect()
    };
    let reference = checked_report(&[]);
    assert!(reference.iter().any(|l| l["type"] == "tournament"));
    // An engine with failures, projections and trials that do not apply, then the same with
    // its expectations file (expected failures).
    let goban = checked_report(&["--engine", "goban"]);
    for word in ["pass", "fail", "not-applicable"] {
        assert!(outcomes(&goban).contains(word), "{word}");
    }
    assert!(goban.iter().any(|l| l.get("projected").is_some()));
    let listed = checked_report(&[
        "--engine",
        "goban",
        "--expectations",
        "tests/engines/goban.expectations.toml",
    ]);
    assert!(outcomes(&listed).contains("expected-failure"));
}

#[test]
fn the_report_schema_refuses_what_is_not_a_report() {
    let (schemas, index) = report_schema();
    for bad in [
        r#"{"type":"trial","scenario":"basic-ko"}"#,
        r#"{"type":"summary","pass":1}"#,
        r#"{"type":"tournament","scenario":"x","file":"f","topic":"t","clauses":[],"kind":"clock","outcome":"fail"}"#,
        r#"{"type":"footer","pass":1,"fail":0,"expected_failure":0,"unexpected_pass":0,"not_applicable":0,"error":0,"timeout":0,"harness_error":0,"by_level":[],"complete":false}"#,
    ] {
        let value: serde_json::Value = serde_json::from_str(bad).unwrap();
        assert!(schemas.validate(&value, index).is_err(), "accepted: {bad}");
    }
}
