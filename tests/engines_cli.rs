//! Engines from outside through the command line: the goban crate with its triaged
//! expectations, the engine time limit, and `compare` keeping a hand-written preamble and
//! checking a committed table.

use std::path::PathBuf;
use std::process::Output;

mod common;

use common::{goconform, root};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn expectations(engine: &str) -> String {
    root()
        .join(format!("tests/engines/{engine}.expectations.toml"))
        .display()
        .to_string()
}

/// A scratch folder of its own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("goconform-engines-{}-{test}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(feature = "goban")]
#[test]
fn the_goban_crate_fails_exactly_its_triaged_trials() {
    let out = goconform(&["check", "--engine", "goban"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let listed = goconform(&[
        "check",
        "--engine",
        "goban",
        "--expectations",
        &expectations("goban"),
    ]);
    let shown = text(&listed);
    assert_eq!(listed.status.code(), Some(0), "{shown}");
    // Every entry of the file is one expected failure, and none is left unused.
    let entries = std::fs::read_to_string(expectations("goban"))
        .unwrap()
        .matches("[[expected-failure]]")
        .count();
    assert!(
        shown.contains(&format!("{entries} expected failures")),
        "{shown}"
    );
    assert!(!shown.contains("unexpected pass"), "{shown}");
}

#[cfg(feature = "goban")]
#[test]
fn a_failure_before_an_engine_fault_is_reported_as_the_failure() {
    // The crate accepts the single-stone suicide at move 1 (the repetition it does not
    // check), so at move 2 it is asked for a move out of its turn: the report leads with
    // the wrong verdict, then names the fault.
    let out = goconform(&[
        "check",
        "conformance/capture/last-liberty-only.toml",
        "--rules",
        "tromp-taylor",
        "--engine",
        "goban",
    ]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(shown.contains("FAIL last-liberty-only"), "{shown}");
    let verdict = shown
        .find("expected: illegal: superko")
        .expect("the verdict");
    let fault = shown
        .find("protocol error: the crate has")
        .expect("the fault");
    assert!(verdict < fault, "{shown}");
}

#[test]
fn the_engine_time_limit_applies_to_the_handshake() {
    let engine = "jsonl:python3 -c 'import time; time.sleep(30)'";
    let out = goconform(&[
        "check",
        "conformance/passes",
        "--engine",
        engine,
        "--engine-timeout",
        "0.3",
    ]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(shown.contains("did not answer within 300 ms"), "{shown}");
    for bad in ["0", "-1", "soon", "inf"] {
        let out = goconform(&["check", "--engine-timeout", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {}", text(&out));
    }
}

#[test]
fn a_timeout_says_whether_the_engine_left_a_line_unended_and_how_to_flush() {
    // A reply written without its newline (or left in a buffer) looks like silence from the
    // other end of the pipe: the message says what arrived and how to flush.
    let engine = r#"jsonl:python3 -c 'import sys, time; sys.stdout.write("{\"type\""); sys.stdout.flush(); time.sleep(30)'"#;
    let out = goconform(&[
        "check",
        "conformance/passes",
        "--engine",
        engine,
        "--engine-timeout",
        "0.5",
    ]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("it wrote 7 bytes of a line without ending it"),
        "{shown}"
    );
    assert!(shown.contains("flush=True"), "{shown}");
}

#[test]
fn an_engine_spec_with_spaces_is_quoted_in_the_reproduction() {
    // The reference behind the protocol passes everything; a broken expectation (a scratch
    // scenario) makes it fail so that the reproduction line is printed.
    let scratch = Scratch::new("quoted");
    let dir = scratch.0.join("conformance/play");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("wrong.toml");
    std::fs::write(
        &file,
        r#"
id = "wrong"
title = "a deliberately wrong expectation"
clauses = ["logic-r7-step2"]
checked = "none: it is wrong on purpose"
rules = "tromp-taylor"
size = 5
moves = ["B C3"]

[[expect]]
after = 1
illegal = "occupied"
"#,
    )
    .unwrap();
    let binary = env!("CARGO_BIN_EXE_goconform");
    let engine = format!("jsonl:{binary} serve");
    let out = goconform(&["check", file.to_str().unwrap(), "--engine", &engine]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(1), "{shown}");
    assert!(
        shown.contains(&format!("--engine 'jsonl:{binary} serve'")),
        "{shown}"
    );
}

#[cfg(feature = "goban")]
#[test]
fn compare_keeps_the_preamble_and_check_finds_a_stale_table() {
    let scratch = Scratch::new("compare");
    let doc = scratch.0.join("engines.md");
    let preamble =
        "# Hand-written\n\nTriage here.\n\n<!-- goconform compare: generated below -->\n";
    std::fs::write(&doc, format!("{preamble}\nold table\n")).unwrap();
    let dir = root().join("tests/engines");
    let args = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "--topic",
            "suicide",
            "--expectations-dir",
            dir.to_str().unwrap(),
            "--engine",
            "reference",
            "--engine",
            "goban",
            "--markdown",
            doc.to_str().unwrap(),
        ];
        args.extend_from_slice(extra);
        args.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let run = |extra: &[&str]| {
        let owned = args(extra);
        let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
        goconform(&refs)
    };
    let stale = run(&["--check"]);
    assert_eq!(stale.status.code(), Some(1), "{}", text(&stale));
    assert!(text(&stale).contains("is not what this run generates"));

    let written = run(&[]);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written));
    let now = std::fs::read_to_string(&doc).unwrap();
    assert!(now.starts_with(preamble), "{now}");
    assert!(!now.contains("old table"), "{now}");
    assert!(now.contains("0 of them not triaged"), "{now}");
    // Scenario files appear as the project names them.
    assert!(now.contains("| conformance/suicide/"), "{now}");

    let fresh = run(&["--check"]);
    assert_eq!(fresh.status.code(), Some(0), "{}", text(&fresh));

    // Without the expectations the goban failures are not triaged: --check fails.
    let owned: Vec<String> = args(&["--check"])
        .into_iter()
        .filter(|a| a != "--expectations-dir" && a != dir.to_str().unwrap())
        .collect();
    let refs: Vec<&str> = owned.iter().map(String::as_str).collect();
    let untriaged = goconform(&refs);
    assert_eq!(untriaged.status.code(), Some(1), "{}", text(&untriaged));
    assert!(
        text(&untriaged).contains("not triaged"),
        "{}",
        text(&untriaged)
    );
}

#[test]
fn compare_fills_its_summary_note_and_check_fails_on_a_placeholder() {
    let dir = tempfile::tempdir().unwrap();
    let md = dir.path().join("engines.md");
    let md_arg = md.to_str().unwrap();
    let run = |check: bool| {
        let mut args = vec![
            "compare",
            "--engine",
            "reference",
            "--engine",
            "naive",
            "--topic",
            "passes",
            "--markdown",
            md_arg,
        ];
        if check {
            args.push("--check");
        }
        goconform(&args)
    };
    let written = run(false);
    assert_eq!(written.status.code(), Some(0), "{}", text(&written));
    let generated = std::fs::read_to_string(&md).unwrap();
    assert!(
        generated.contains("Applicable counts the trials"),
        "{generated}"
    );
    assert!(!generated.contains("{SUMMARY_NOTE}"), "{generated}");
    assert_eq!(run(true).status.code(), Some(0));
    // A file as an older goconform wrote it, with the note unfilled, is stale.
    let note_start = generated.find("Applicable counts the trials").unwrap();
    let note_end = note_start + generated[note_start..].find('\n').unwrap();
    let old = format!(
        "{}{{SUMMARY_NOTE}}{}",
        &generated[..note_start],
        &generated[note_end..]
    );
    std::fs::write(&md, old).unwrap();
    let checked = run(true);
    assert_eq!(checked.status.code(), Some(1), "{}", text(&checked));
    assert!(
        text(&checked).contains("holds the unfilled placeholder {SUMMARY_NOTE}"),
        "{}",
        text(&checked)
    );
}

/// The Python starting point of docs/protocol.md: the shim and the engine written on it pass
/// every trial they are given, with the schema checked (the default).
#[test]
fn the_python_example_engine_on_the_python_shim_passes_what_it_claims() {
    let out = goconform(&[
        "check",
        "--engine",
        "jsonl:python3 tests/engines/python-example/engine.py",
    ]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    let tally = shown.lines().last().unwrap_or_default();
    assert!(tally.contains(" passed"), "{shown}");
    assert!(!tally.contains("failed"), "{shown}");
}

/// An adapter's misspelt key (`to-move` for `to_move`) is an error by default, naming the key
/// and the nearest known one, where it used to be ignored and show "(nothing shown)";
/// `--lenient` goes back to ignoring it.
#[test]
fn a_misspelt_key_is_named_with_the_nearest_known_one_unless_lenient() {
    let dir = tempfile::tempdir().unwrap();
    let engine = dir.path().join("misspelt.py");
    std::fs::write(
        &engine,
        r#"import json, sys
for line in sys.stdin:
    r = json.loads(line)
    if r["type"] == "hello":
        out = {"type": "hello", "protocol": 1, "engine": {"name": "misspelt", "version": "1"},
               "capabilities": {"axes": {}, "observes": ["board"], "judges": None, "events": ["play", "pass"]}}
    elif r["type"] == "run":
        obs = {"board": r["setup"]["stones"], "to-move": "B"}
        out = {"type": "result", "id": r["id"], "initial": obs,
               "steps": [{"verdict": "legal", "captured": [], "self_captured": [], "observation": obs}
                         for _ in r["events"]]}
    else:
        break
    print(json.dumps(out), flush=True)
"#,
    )
    .unwrap();
    let spec = format!("jsonl:python3 {}", engine.display());
    let strict = goconform(&["check", "conformance/passes", "--engine", &spec]);
    let shown = text(&strict);
    assert!(
        shown.contains("initial.to-move: unknown field (did you mean `to_move`?)"),
        "{shown}"
    );
    let lenient = goconform(&[
        "check",
        "conformance/passes",
        "--engine",
        &spec,
        "--lenient",
    ]);
    assert!(
        !text(&lenient).contains("unknown field"),
        "{}",
        text(&lenient)
    );
}
