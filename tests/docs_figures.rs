//! The figures of docs/implementing.md, checked against the program they describe so that
//! they cannot go stale: every transcript of `cargo run --example tiny_engine` in it must
//! be what the example prints today (line for line, the timing aside, `...` standing for
//! lines left out), the sentences that count its results must give today's counts, and its
//! `tests/conformance.rs` must be `examples/foreign_engine.rs`, which is built and run.

use std::path::Path;
use std::process::Command;

fn guide() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/implementing.md"))
        .expect("docs/implementing.md")
}

/// The output of the example run as the guide runs it, with `args` after `--`.
fn tiny_engine(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "--quiet",
            "--locked",
            "--example",
            "tiny_engine",
            "--",
        ])
        .args(args)
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the example fails: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// A line with its timing (`finished in 0.02s`) taken out, which no two runs share.
fn untimed(line: &str) -> String {
    match line.find("; finished in ") {
        Some(at) => line[..at].to_string(),
        None => line.trim_end().to_string(),
    }
}

/// Whitespace collapsed, so a sentence is found whatever the line breaks of the prose.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The `text` blocks that show a run of the example: their command's arguments and lines.
fn transcripts(guide: &str) -> Vec<(Vec<String>, Vec<String>)> {
    let mut found = Vec::new();
    let mut lines = guide.lines();
    while let Some(line) = lines.next() {
        if line.trim() != "```text" {
            continue;
        }
        let block: Vec<String> = lines
            .by_ref()
            .take_while(|l| l.trim() != "```")
            .map(str::to_string)
            .collect();
        let Some(command) = block
            .first()
            .and_then(|l| l.strip_prefix("$ cargo run --example tiny_engine"))
        else {
            continue;
        };
        let args = command
            .trim()
            .strip_prefix("--")
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        found.push((args, block[1..].to_vec()));
    }
    found
}

#[test]
fn every_transcript_of_the_example_is_what_it_prints() {
    let guide = guide();
    let shown = transcripts(&guide);
    assert!(shown.len() >= 2, "the guide shows the example run");
    for (args, lines) in shown {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let printed: Vec<String> = tiny_engine(&args).lines().map(untimed).collect();
        for line in lines
            .iter()
            .filter(|l| !l.trim().is_empty() && l.trim() != "...")
        {
            assert!(
                printed.contains(&untimed(line)),
                "docs/implementing.md shows, for `tiny_engine {}`:\n{line}\nbut the example prints:\n{}",
                args.join(" "),
                printed.join("\n")
            );
        }
    }
}

/// How the trials of one run of the example came out.
struct Counts {
    total: usize,
    passed: usize,
    expected_failures: usize,
    records: usize,
    other_rules: usize,
}

fn counts(args: &[&str]) -> Counts {
    let out = tiny_engine(args);
    let trials: Vec<&str> = out.lines().filter(|l| l.starts_with("test [")).collect();
    let not_applicable: Vec<&&str> = trials
        .iter()
        .filter(|l| l.contains("... ignored (not applicable:"))
        .collect();
    let records = not_applicable
        .iter()
        .filter(|l| l.contains("the scenario is a referee's record"))
        .count();
    Counts {
        total: trials.len(),
        passed: trials.iter().filter(|l| l.ends_with("... ok")).count(),
        expected_failures: trials
            .iter()
            .filter(|l| l.contains("... ignored (expected failure:"))
            .count(),
        records,
        other_rules: not_applicable.len() - records,
    }
}

#[test]
fn the_guides_counts_are_todays() {
    let guide = flat(&guide());
    let all = counts(&[]);
    let sentence = format!(
        "That is {} passes, {} expected failures (the resignation scenarios) and {} trials that do not apply",
        all.passed,
        all.expected_failures,
        all.records + all.other_rules
    );
    assert!(
        guide.contains(&sentence),
        "the guide should say: {sentence}"
    );
    assert_eq!(
        all.passed + all.expected_failures + all.records + all.other_rules,
        all.total,
        "every trial is counted once"
    );
    let chinese = counts(&["[chinese]"]);
    let sentence = format!(
        "under `[chinese]` {} of {} trials pass; of the rest, {} are expected failures, {} are referee's records and {} need another rule",
        chinese.passed, chinese.total, chinese.expected_failures, chinese.records, chinese.other_rules
    );
    assert!(
        guide.contains(&sentence),
        "the guide should say: {sentence}"
    );
}

/// The guide's `tests/conformance.rs` (the one `rust` block that defines `main`), which
/// `examples/foreign_engine.rs` holds between its `guide:` markers.
fn guide_test_file(guide: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut lines = guide.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "```rust" {
            let block: Vec<String> = lines
                .by_ref()
                .take_while(|l| l.trim() != "```")
                .map(str::to_string)
                .collect();
            if block.iter().any(|l| l.starts_with("fn main()")) {
                blocks.push(block);
            }
        }
    }
    assert_eq!(
        blocks.len(),
        1,
        "the guide shows one test file with a `main`"
    );
    blocks.remove(0)
}

#[test]
fn the_guides_test_file_is_the_example_that_compiles_and_runs() {
    let example = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/foreign_engine.rs"),
    )
    .expect("examples/foreign_engine.rs");
    let compiled: Vec<String> = example
        .lines()
        .skip_while(|l| l.trim() != "// guide: begin")
        .skip(1)
        .take_while(|l| l.trim() != "// guide: end")
        .map(str::to_string)
        .collect();
    assert!(!compiled.is_empty(), "the example marks the guide's lines");
    assert_eq!(
        guide_test_file(&guide()),
        compiled,
        "docs/implementing.md's tests/conformance.rs differs from examples/foreign_engine.rs"
    );
    // Built and run on the trials of one scenario: the wrapper is a working `Referee`.
    let out = Command::new(env!("CARGO"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "run",
            "--quiet",
            "--locked",
            "--example",
            "foreign_engine",
            "--",
            "ko/basic-ko",
        ])
        .output()
        .expect("cargo runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the example fails: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("ko/basic-ko[") && stdout.contains("... ok"),
        "the example ran no trial of ko/basic-ko: {stdout}"
    );
}
