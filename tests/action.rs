//! The GitHub Action's steps (`.ci/action/run.sh`, `.ci/action/summarise.py`) run as the
//! action runs them, against GNU Go 3.8: the reports, the job summary, the annotations on the
//! failing trials' scenario lines, and the exit status in each case. GitHub's runner is not
//! at hand here; everything the action does besides installing goconform is this script.

mod common;

use std::process::{Command, Output};

use common::{gnugo, root, skip};

fn action(env: &[(&str, &str)], out: &std::path::Path) -> Output {
    let mut command = Command::new("bash");
    command
        .arg(root().join(".ci/action/run.sh"))
        .current_dir(root())
        .env("GOCONFORM", env!("CARGO_BIN_EXE_goconform"))
        .env("OUT", out)
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        command.env(k, v);
    }
    command.output().expect("bash runs")
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn the_action_reports_a_clean_engine_and_annotates_a_failing_one() {
    let Some(gnugo) = gnugo() else {
        return skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let dir = tempfile::tempdir().unwrap();
    let engine = format!("gtp:{} --mode gtp", gnugo.display());
    // Claiming its rules, with a short fuzz: green, with every report and the summary.
    let clean = dir.path().join("clean");
    let run = action(
        &[
            ("ENGINE", engine.as_str()),
            ("CLAIMS", "ko=simple suicide=forbidden"),
            ("FUZZ_SECONDS", "2"),
        ],
        &clean,
    );
    assert_eq!(run.status.code(), Some(0), "{}", text(&run));
    for file in ["check.jsonl", "check.xml", "fuzz.xml", "summary.md"] {
        assert!(clean.join(file).is_file(), "{file}: {}", text(&run));
    }
    let summary = std::fs::read_to_string(clean.join("summary.md")).unwrap();
    assert!(
        summary.contains("Every trial that applied passed."),
        "{summary}"
    );
    assert!(summary.contains("### Fuzz\n\nno divergence: "), "{summary}");
    assert!(!text(&run).contains("::error"), "{}", text(&run));
    // Unclaimed, it fails trials under rules it does not play: red, each failing trial an
    // annotation on its scenario's line, and listed in the summary.
    let failing = dir.path().join("failing");
    let run = action(&[("ENGINE", engine.as_str())], &failing);
    assert_eq!(run.status.code(), Some(1), "{}", text(&run));
    let stdout = String::from_utf8_lossy(&run.stdout);
    let annotations: Vec<&str> = stdout
        .lines()
        .filter(|l| l.starts_with("::error file=conformance/"))
        .collect();
    assert!(!annotations.is_empty(), "{stdout}");
    for a in &annotations {
        let (props, _) = a
            .strip_prefix("::error ")
            .and_then(|rest| rest.split_once("::"))
            .unwrap();
        let file = props
            .split(',')
            .find_map(|p| p.strip_prefix("file="))
            .unwrap();
        let line: usize = props
            .split(',')
            .find_map(|p| p.strip_prefix("line="))
            .unwrap()
            .parse()
            .unwrap();
        // The line is a real line of the scenario file the annotation names.
        let scenario = std::fs::read_to_string(root().join(file)).unwrap();
        assert!(line >= 1 && line <= scenario.lines().count(), "{a}");
    }
    let summary = std::fs::read_to_string(failing.join("summary.md")).unwrap();
    assert!(
        summary.contains(&format!("### Failing trials ({})", annotations.len())),
        "{summary}"
    );
    // No engine: bad input.
    let run = action(&[("ENGINE", "")], &dir.path().join("none"));
    assert_eq!(run.status.code(), Some(2), "{}", text(&run));
}
