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
        eprintln!("skipped: Python's xunitparser is not installed (pip install xunitparser)");
        return;
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
