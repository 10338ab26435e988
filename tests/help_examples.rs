//! Every example a command's `--help` gives is run from the checkout, as a reader would copy
//! it: it must work (exit 0, or 1 where the command reports what it found) and print
//! something. An example that went stale would fail here.

use std::process::Command;

mod common;

use common::root;

const COMMANDS: [&str; 10] = [
    "check",
    "compare",
    "fuzz",
    "show",
    "judge",
    "score",
    "ruling",
    "standings",
    "clock",
    "handicap",
];

/// The example lines of `goconform COMMAND --help`, without the leading `goconform`.
fn examples(command: &str) -> Vec<Vec<String>> {
    let out = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args([command, "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    help.lines()
        .skip_while(|l| !l.starts_with("Examples"))
        .filter_map(|l| l.trim().strip_prefix("goconform "))
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect()
}

#[test]
fn every_help_example_runs() {
    let scratch = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("help-examples");
    let _ = std::fs::remove_dir_all(&scratch);
    std::fs::create_dir_all(&scratch).unwrap();
    for command in COMMANDS {
        let found = examples(command);
        assert!(
            !found.is_empty(),
            "`goconform {command} --help` gives examples"
        );
        for args in found {
            // Outputs the examples write go to a scratch folder, not the checkout.
            let args: Vec<String> = args
                .iter()
                .map(|a| match a.as_str() {
                    "report.xml" | "diagrams" | "fuzz.xml" => scratch.join(a).display().to_string(),
                    _ => a.clone(),
                })
                .collect();
            let out = Command::new(env!("CARGO_BIN_EXE_goconform"))
                .current_dir(root())
                .args(&args)
                .output()
                .unwrap();
            let said = format!(
                "{}{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
            assert!(
                matches!(out.status.code(), Some(0 | 1)),
                "goconform {}: {said}",
                args.join(" ")
            );
            assert!(
                !out.stdout.is_empty(),
                "goconform {}: {said}",
                args.join(" ")
            );
        }
    }
}
