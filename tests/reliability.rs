//! Issue 20's reproductions, each kept as a regression test through the binary: output that
//! cannot be written, names too wide for the formatter, folder loops, temporary and exported
//! files that must not follow a planted link, expectations and reports that must not lose
//! what the user wrote, and numbers a loader must not drop.

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

mod common;

use common::{goconform, root};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A scratch folder of this test binary's own, emptied first.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("reliability")
        .join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `goconform --root ROOT ARGS...` with standard output sent to `/dev/full`, or `None`
/// (after saying why) where the system has no such device.
fn to_dev_full(args: &[&str]) -> Option<Output> {
    let full = match std::fs::OpenOptions::new().write(true).open("/dev/full") {
        Ok(f) => f,
        Err(e) => {
            common::skip(&format!("/dev/full cannot be opened here ({e})"));
            return None;
        }
    };
    Some(
        Command::new(env!("CARGO_BIN_EXE_goconform"))
            .arg("--root")
            .arg(root())
            .args(args)
            .stdout(Stdio::from(full))
            .stderr(Stdio::piped())
            .output()
            .expect("the binary runs"),
    )
}

#[test]
fn a_full_standard_output_is_an_error_not_a_panic() {
    for args in [
        &["show", "conformance/ko/basic-ko.toml"][..],
        &["explain", "bga-ko-superko"][..],
        &["rulesets"][..],
        &["engines"][..],
        &["check", "conformance/ko", "--format", "jsonl"][..],
        &["check", "conformance/ko"][..],
    ] {
        let Some(out) = to_dev_full(args) else { return };
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}:\n{err}");
        assert!(
            err.contains("goconform: cannot write to standard output:"),
            "{args:?}:\n{err}"
        );
        assert!(!err.contains("panicked"), "{args:?}:\n{err}");
    }
}

#[test]
fn a_closed_pipe_still_ends_quietly() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .arg("--root")
        .arg(root())
        .args(["show", "conformance/ko/basic-ko.toml"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.is_empty(), "nothing on standard error:\n{err}");
}

/// `dir/a` and `dir/b`, both links back to `dir`.
#[cfg(unix)]
fn folder_loop(name: &str) -> PathBuf {
    let dir = scratch(name);
    let topic = dir.join("topic");
    std::fs::create_dir_all(&topic).unwrap();
    std::fs::copy(
        root().join("conformance/ko/basic-ko.toml"),
        topic.join("basic-ko.toml"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&dir, topic.join("a")).unwrap();
    std::os::unix::fs::symlink("..", topic.join("b")).unwrap();
    dir
}

/// Runs the command with a time limit: a walk that never ends fails the test instead of
/// hanging it.
fn run_with_limit(args: &[&str], seconds: u64) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .arg("--root")
        .arg(root())
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let started = std::time::Instant::now();
    loop {
        if child.try_wait().unwrap().is_some() {
            return child.wait_with_output().unwrap();
        }
        if started.elapsed().as_secs() > seconds {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{args:?} still running after {seconds} s");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

#[cfg(unix)]
#[test]
fn a_folder_loop_is_an_error_naming_the_link() {
    let dir = folder_loop("loop");
    let d = dir.to_str().unwrap();
    for command in ["check", "lint", "show"] {
        let out = run_with_limit(&[command, d], 60);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{command}:\n{t}");
        assert!(t.contains("symbolic link back to"), "{command}:\n{t}");
        assert!(
            t.contains(&format!("{}", Path::new("topic").join("a").display()))
                || t.contains(&format!("{}", Path::new("topic").join("b").display())),
            "{command}: the link is named:\n{t}"
        );
    }
}

/// The `(scenario, run)` pairs an expectations file lists, sorted.
fn listed(path: &Path) -> Vec<(String, String)> {
    let value: toml::Value = toml::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let mut pairs: Vec<(String, String)> = value["expected-failure"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["scenario"].as_str().unwrap().to_string(),
                e.get("run")
                    .and_then(|r| r.as_str())
                    .unwrap_or("")
                    .to_string(),
            )
        })
        .collect();
    pairs.sort();
    pairs
}

#[test]
fn writing_expectations_from_a_narrowed_run_keeps_the_other_entries() {
    let dir = scratch("write-expectations");
    let committed = root().join("tests/engines/goban.expectations.toml");
    let before = listed(&committed);
    assert!(before.len() > 10);
    // Narrowed by id, by topic and by ruleset: each time the file keeps every entry.
    for (k, filter) in [
        &["--id", "single-stone-suicide"][..],
        &["--topic", "ko"][..],
        &["--rules", "tromp-taylor"][..],
        &["conformance/suicide"][..],
    ]
    .iter()
    .enumerate()
    {
        let file = dir.join(format!("goban-{k}.toml"));
        std::fs::copy(&committed, &file).unwrap();
        let f = file.to_str().unwrap();
        let mut args = vec!["check", "--engine", "goban", "--write-expectations", f];
        args.extend_from_slice(filter);
        let out = goconform(&args);
        let said = text(&out);
        // goconform itself never panics; the goban crate may (its non-square boards), and
        // that is reported as the implementation's panic, one of its triaged failures.
        assert!(!said.contains("panicked at src/"), "{said}");
        assert!(!said.contains("thread 'main' panicked"), "{said}");
        assert_eq!(listed(&file), before, "{filter:?}:\n{said}");
        // And read with the file as the expectations too: the run passes. (Not with paths:
        // an expectations file must name only scenarios the run loads.)
        if filter[0].starts_with("conformance/") {
            continue;
        }
        let mut args = vec![
            "check",
            "--engine",
            "goban",
            "--expectations",
            f,
            "--write-expectations",
            f,
        ];
        args.extend_from_slice(filter);
        let out = goconform(&args);
        assert_eq!(out.status.code(), Some(0), "{filter:?}:\n{}", text(&out));
        assert_eq!(listed(&file), before, "{filter:?}");
    }
}

#[test]
fn compare_refuses_to_replace_what_it_did_not_write() {
    let dir = scratch("compare");
    let markdown = dir.join("notes.md");
    let hand = "# My notes\n\nWritten by hand.\n";
    std::fs::write(&markdown, hand).unwrap();
    let m = markdown.to_str().unwrap();
    let run = |extra: &[&str]| {
        let mut args = vec![
            "compare",
            "--engine",
            "reference",
            "--engine",
            "naive",
            "--id",
            "basic-ko",
        ];
        args.extend_from_slice(extra);
        goconform(&args)
    };

    let out = run(&["--markdown", m]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("was not written by goconform compare"),
        "{said}"
    );
    assert!(
        said.contains("<!-- goconform compare: generated below -->"),
        "{said}"
    );
    assert_eq!(std::fs::read_to_string(&markdown).unwrap(), hand);

    // The same file for both outputs: refused, nothing written.
    let both = dir.join("both.out");
    let b = both.to_str().unwrap();
    let out = run(&["--markdown", b, "--html", b]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("name the same file"), "{said}");
    assert!(!both.exists());
    let out = run(&[
        "--markdown",
        b,
        "--html",
        dir.join(".").join("both.out").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));

    // With the marker the hand-written part is kept; a file compare wrote whole is replaced.
    std::fs::write(
        &markdown,
        format!("{hand}<!-- goconform compare: generated below -->\nold\n"),
    )
    .unwrap();
    let out = run(&["--markdown", m]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let written = std::fs::read_to_string(&markdown).unwrap();
    assert!(written.starts_with(hand), "{written}");
    assert!(written.contains("# Comparison of 2 implementations"));
    assert!(!written.contains("\nold\n"));
    let generated = dir.join("generated.md");
    let g = generated.to_str().unwrap();
    assert_eq!(run(&["--markdown", g]).status.code(), Some(0));
    std::fs::write(
        &generated,
        std::fs::read_to_string(&generated).unwrap() + "stale\n",
    )
    .unwrap();
    let out = run(&["--markdown", g]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(!std::fs::read_to_string(&generated)
        .unwrap()
        .contains("stale"));
    // No temporary file is left beside the outputs.
    let left: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".tmp"))
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn fuzz_never_replaces_a_finding_already_written() {
    let dir = scratch("fuzz-findings");
    let engine = format!(
        "jsonl:python3 {} {} suicide",
        root().join("tests/fixtures/jsonl/mutant.py").display(),
        env!("CARGO_BIN_EXE_goconform")
    );
    let d = dir.to_str().unwrap();
    let fuzz = || {
        let out = goconform(&[
            "fuzz",
            "--engine",
            &engine,
            "--seconds",
            "60",
            "--seed",
            "5",
            "--out",
            d,
        ]);
        assert_eq!(out.status.code(), Some(1), "{}", text(&out));
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .find_map(|l| l.strip_prefix("wrote "))
            .filter(|p| p.ends_with(".toml"))
            .expect("the scenario's path is printed")
            .to_string()
    };
    let first = fuzz();
    let reviewed = std::fs::read_to_string(&first).unwrap() + "# reviewed by hand\n";
    std::fs::write(&first, &reviewed).unwrap();
    let second = fuzz();
    assert_ne!(first, second, "a new name");
    assert!(second.ends_with("-2.toml"), "{second}");
    assert_eq!(std::fs::read_to_string(&first).unwrap(), reviewed);
    let text2 = std::fs::read_to_string(&second).unwrap();
    let id = Path::new(&second).file_stem().unwrap().to_str().unwrap();
    assert!(text2.contains(&format!("id = \"{id}\"")), "{text2}");
    assert!(Path::new(&second).with_extension("sgf").exists());
    // The new finding loads and checks as a scenario of its own.
    let out = goconform(&["check", &second]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn a_count_past_u32_is_a_located_error_not_a_lost_case() {
    let dir = scratch("huge-count").join("tournament");
    std::fs::create_dir_all(&dir).unwrap();
    let nigiri = dir.join("huge-handful.toml");
    std::fs::write(
        &nigiri,
        "[scenario]\nid = \"huge-handful\"\ntitle = \"t\"\nkind = \"nigiri\"\n\
         clauses = [\"agatr-vi-a-4-c\"]\nchecked = \"by hand\"\n\n\
         [[case]]\nname = \"seven\"\nhandful = 7\nshown = 1\nblack = \"guesser\"\n\n\
         [[case]]\nname = \"too many\"\nhandful = 4294967296\nshown = 1\nblack = \"holder\"\n",
    )
    .unwrap();
    let out = goconform(&["check", nigiri.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("huge-handful.toml:16:11: key `case[1].handful`: expected a number of at most 4294967295, not 4294967296"),
        "{said}"
    );

    let clock = dir.join("huge-periods.toml");
    std::fs::write(
        &clock,
        "control = { main = \"1:00\", overtime = \"byo-yomi\", periods = 4294967296, period = 10 }\n\
         events = [\"0 begin\"]\n",
    )
    .unwrap();
    let out = goconform(&["clock", clock.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("huge-periods.toml:1:61: key `control.periods`: expected a number of at most 4294967295"),
        "{said}"
    );
    assert!(
        !said.lines().any(|l| l.trim() == "goconform:"),
        "never an empty message:\n{said}"
    );
}

/// A scenario folder holding one copy of `basic-ko` changed by `edit`.
fn broken_scenario(name: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let dir = scratch(name);
    std::fs::create_dir_all(dir.join("ko")).unwrap();
    let original = std::fs::read_to_string(root().join("conformance/ko/basic-ko.toml")).unwrap();
    let cut = original.find("[[crosscheck]]").unwrap_or(original.len());
    std::fs::write(
        dir.join("ko/basic-ko.toml"),
        edit(original[..cut].to_string()),
    )
    .unwrap();
    dir
}

#[test]
fn loader_errors_name_the_place_and_the_key() {
    fn runs(list: &'static str) -> impl Fn(String) -> String {
        move |t: String| {
            let start = t.find("rules = [").unwrap();
            let end = start + t[start..].find(']').unwrap() + 1;
            format!("{}rules = {list}{}", &t[..start], &t[end..])
        }
    }
    type Edit = Box<dyn Fn(String) -> String>;
    let cases: Vec<(&str, Edit, &str)> = vec![
        (
            "duplicate-key",
            Box::new(|t: String| t.replacen("size = 5\n", "size = 5\nsize = 6\n", 1)),
            ":32:1: key `size`: duplicate key",
        ),
        (
            "huge-size",
            Box::new(|t: String| t.replacen("size = 5", "size = 99999999999999999999", 1)),
            ":31:8: key `size`: the integer 99999999999999999999 is too large",
        ),
        (
            "huge-after",
            Box::new(|t: String| t.replacen("after = 1\n", "after = 1e309\n", 1)),
            "key `expect[0].after`",
        ),
        (
            "no-runs",
            Box::new(runs("[]")),
            ":27:9: key `rules`: say which rules to run under",
        ),
        (
            "duplicate-run",
            Box::new(runs("[\"aga\", \"bga\", \"aga\"]")),
            ":27:24: key `rules[2]`: two runs are both named `aga`",
        ),
    ];
    for (name, edit, expected) in cases {
        let dir = broken_scenario(name, edit);
        let out = goconform(&["check", dir.to_str().unwrap()]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{name}: {said}");
        assert!(
            said.contains(expected),
            "{name}: expected {expected:?} in\n{said}"
        );
    }
}

#[test]
fn a_file_that_is_not_utf8_is_located_at_its_first_bad_byte() {
    let dir = scratch("not-utf8");
    std::fs::create_dir_all(dir.join("ko")).unwrap();
    std::fs::write(
        dir.join("ko/basic-ko.toml"),
        b"id = \"basic-ko\"\ntitle = \"ab\xffc\"\n",
    )
    .unwrap();
    let out = goconform(&["check", dir.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("basic-ko.toml:2:12: the file is not UTF-8 text: byte 0xff"),
        "{said}"
    );
    let table = dir.join("table.toml");
    std::fs::write(&table, b"[[player]]\nname = \"\xc3\"\n").unwrap();
    let out = goconform(&["standings", table.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("table.toml:2:9: the file is not UTF-8 text"),
        "{said}"
    );
}

#[test]
fn a_tournament_file_with_a_number_toml_cannot_hold_is_read_as_one() {
    let dir = scratch("tournament-huge-number");
    std::fs::create_dir_all(dir.join("tiebreak")).unwrap();
    let original =
        std::fs::read_to_string(root().join("conformance/tiebreak/cash-prizes-split.toml"))
            .unwrap();
    std::fs::write(
        dir.join("tiebreak/cash-prizes-split.toml"),
        original.replacen("seed = 5", "seed = 99999999999999999999", 1),
    )
    .unwrap();
    let out = goconform(&["check", dir.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("key `case[0].seed`: the integer 99999999999999999999 is too large"),
        "{said}"
    );
    assert!(!said.contains("unknown field `case`"), "{said}");
}

#[test]
fn prizes_are_pooled_without_overflow_and_none_is_dropped_silently() {
    let dir = scratch("prizes");
    let table = dir.join("table.toml");
    std::fs::write(
        &table,
        "prizes = [\"184467440737095516.15\", \"184467440737095516.15\", \"1\"]\n\
         [[player]]\nname = \"A\"\nresults = [\"B=\"]\n\
         [[player]]\nname = \"B\"\nresults = [\"A=\"]\n",
    )
    .unwrap();
    let out = goconform(&["standings", table.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    // Two players level share the two largest prizes u64 can hold: each gets one whole.
    assert_eq!(said.matches("184467440737095516.15").count(), 2, "{said}");
    assert!(
        said.contains("1 prize(s) after place 2 go to no one: there are only 2 players"),
        "{said}"
    );
}

#[test]
fn a_record_deeper_than_the_limit_is_an_error_not_a_stack_overflow() {
    let dir = scratch("deep-sgf");
    let long = dir.join("long.sgf");
    std::fs::write(&long, format!("(;GM[1]SZ[9]{})", ";B[]".repeat(300_000))).unwrap();
    let nested = dir.join("nested.sgf");
    std::fs::write(
        &nested,
        format!(
            "(;GM[1]SZ[9]{}{})",
            "(;B[aa]".repeat(200_000),
            ")".repeat(200_000)
        ),
    )
    .unwrap();
    for file in [&long, &nested] {
        let out = goconform(&["show", file.to_str().unwrap(), "--rules", "aga"]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(
            said.contains("a line of play is longer than 10000 nodes"),
            "{said}"
        );
    }
}

#[test]
fn a_text_file_past_the_size_limit_is_refused_unread() {
    let dir = scratch("huge-file");
    std::fs::create_dir_all(dir.join("ko")).unwrap();
    // Sparse: 65 MiB on paper, nothing on disk.
    let file = std::fs::File::create(dir.join("ko/basic-ko.toml")).unwrap();
    file.set_len(65 << 20).unwrap();
    let out = goconform(&["check", dir.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(
        said.contains("basic-ko.toml:1:1: the file is larger than 64 MiB"),
        "{said}"
    );
}

#[test]
fn every_input_a_command_reads_is_bounded_in_size() {
    // Sparse files of 65 MiB: each command refuses its input before reading it whole.
    let dir = scratch("huge-inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let huge = |name: &str| {
        let path = dir.join(name);
        std::fs::File::create(&path)
            .unwrap()
            .set_len(65 << 20)
            .unwrap();
        path.to_str().unwrap().to_string()
    };
    let (sgf, toml, csv, diagram, expectations) = (
        huge("game.sgf"),
        huge("record.toml"),
        huge("table.csv"),
        huge("position.txt"),
        huge("expected.toml"),
    );
    for args in [
        vec!["judge", sgf.as_str()],
        vec!["show", sgf.as_str()],
        vec!["score", sgf.as_str()],
        vec!["ruling", toml.as_str()],
        vec!["standings", csv.as_str()],
        vec!["clock", toml.as_str()],
        vec!["score", diagram.as_str()],
        vec![
            "check",
            "conformance/ko/basic-ko.toml",
            "--expectations",
            expectations.as_str(),
        ],
    ] {
        let out = goconform(&args);
        let said = text(&out);
        assert_ne!(out.status.code(), Some(0), "{args:?}: {said}");
        assert!(
            said.contains("the file is larger than 64 MiB"),
            "{args:?}: {said}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 37 (reliability, third pass): links and unreadable folders under `judge`, the referee's
// records and engines, runs that judge nothing, writes through links and cut short, and inputs
// read in time linear in their size.
// ---------------------------------------------------------------------------------------------

/// A record whose second move is illegal (White plays on Black's stone).
const ILLEGAL_RECORD: &str = "(;SZ[9]RU[aga];B[aa];W[aa])";

#[cfg(unix)]
#[test]
fn judge_follows_a_link_to_a_record_and_reports_what_it_finds() {
    let dir = scratch("judge-linked-record");
    let outside = dir.join("outside");
    let judged = dir.join("judged");
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::create_dir_all(&judged).unwrap();
    std::fs::write(outside.join("bad.sgf"), ILLEGAL_RECORD).unwrap();
    std::fs::write(judged.join("good.sgf"), "(;SZ[9]RU[aga];B[aa];W[bb])").unwrap();
    std::os::unix::fs::symlink(outside.join("bad.sgf"), judged.join("linked.sgf")).unwrap();
    std::os::unix::fs::symlink(dir.join("missing.sgf"), judged.join("broken.sgf")).unwrap();
    let out = goconform(&["judge", judged.to_str().unwrap(), "--verbose"]);
    let said = text(&out);
    assert!(said.contains("linked.sgf"), "{said}");
    assert!(said.contains("broken.sgf"), "{said}");
    // The broken link is unreadable, and the linked record breaks a rule: exit 3, both
    // (judge's exit status never hides a rule broken).
    assert_eq!(out.status.code(), Some(3), "{said}");
    std::fs::remove_file(judged.join("broken.sgf")).unwrap();
    let out = goconform(&["judge", judged.to_str().unwrap(), "--verbose"]);
    let said = text(&out);
    assert_eq!(
        out.status.code(),
        Some(1),
        "the linked illegal record counts: {said}"
    );
}

/// Runs the binary as an unprivileged user where this test runs as root (root reads any
/// folder), or `None` (after saying why) where that cannot be done.
#[cfg(unix)]
fn as_unprivileged(args: &[&str]) -> Option<Output> {
    let root_user = std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0");
    let mut command = if root_user {
        let mut c = Command::new("setpriv");
        c.args(["--reuid=65534", "--regid=65534", "--clear-groups"])
            .arg(env!("CARGO_BIN_EXE_goconform"));
        c
    } else {
        Command::new(env!("CARGO_BIN_EXE_goconform"))
    };
    match command.arg("--root").arg(root()).args(args).output() {
        Ok(out) => Some(out),
        Err(e) => {
            common::skip(&format!("cannot run as an unprivileged user here ({e})"));
            None
        }
    }
}

#[cfg(unix)]
#[test]
fn judge_names_an_unreadable_subfolder_and_goes_on() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("judge-unreadable-subfolder");
    let locked = dir.join("locked");
    std::fs::create_dir_all(&locked).unwrap();
    std::fs::write(locked.join("hidden.sgf"), ILLEGAL_RECORD).unwrap();
    std::fs::write(dir.join("bad.sgf"), ILLEGAL_RECORD).unwrap();
    for folder in [&dir, &dir.parent().unwrap().to_path_buf()] {
        std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755)).unwrap();
    }
    std::fs::set_permissions(dir.join("bad.sgf"), std::fs::Permissions::from_mode(0o644)).unwrap();
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o000)).unwrap();
    let out = as_unprivileged(&["judge", dir.to_str().unwrap(), "--verbose"]);
    std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o755)).unwrap();
    let Some(out) = out else { return };
    let said = text(&out);
    if said.contains("Operation not permitted") && !said.contains("locked") {
        common::skip(&format!(
            "this system does not let the test change user ({said})"
        ));
        return;
    }
    // The other record was judged, and the locked folder is named by its own name.
    assert!(said.contains("bad.sgf"), "{said}");
    assert!(said.contains("locked"), "{said}");
    assert!(said.to_lowercase().contains("permission denied"), "{said}");
    // Unreadable (2) and a rule broken in bad.sgf (1): 3.
    assert_eq!(out.status.code(), Some(3), "{said}");
}

/// Whether python3 runs here (the scripted GTP players need it); says so when it does not.
fn python3() -> bool {
    let found = Command::new("python3").arg("--version").output().is_ok();
    if !found {
        common::skip("python3 is not installed");
    }
    found
}

/// A GTP player in front of `goconform gtp`: it passes at every `genmove` (as Black it first
/// plays one stone), and as Black it calls its own stones dead, so the players never agree.
const PASSING_PLAYER: &str = r#"
import subprocess, sys
mode, engine = sys.argv[1], sys.argv[2:]
child = subprocess.Popen(engine, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
def ask(line):
    child.stdin.write(line + "\n"); child.stdin.flush()
    got = []
    while True:
        l = child.stdout.readline()
        if not l: sys.exit("the engine went away")
        if l.strip() == "" and got: return "".join(got).rstrip("\n")
        if l.strip(): got.append(l)
moves = 0
for line in sys.stdin:
    words = line.split()
    ident = words[0] if words and words[0].isdigit() else ""
    command = words[1:] if ident else words
    name = command[0] if command else ""
    if name == "genmove":
        moves += 1
        if mode == "black" and moves == 1:
            answer = ask(" ".join(command))
        else:
            answer = ask("play %s pass" % command[1])
            if answer.startswith("="): answer = "= pass"
    elif name == "final_status_list" and mode == "black":
        answer = ask("list_stones black")
    else:
        answer = ask(" ".join(command))
    sys.stdout.write(answer[0] + ident + answer[1:] + "\n\n"); sys.stdout.flush()
    if name == "quit": break
"#;

#[test]
fn after_a_dispute_the_referee_tells_goconform_engines_that_play_resumes() {
    if !python3() {
        return;
    }
    let dir = scratch("referee-resumption");
    let player = dir.join("player.py");
    std::fs::write(&player, PASSING_PLAYER).unwrap();
    let engine = |mode: &str| {
        format!(
            "python3 {} {mode} {} --root {} gtp --rules aga",
            player.display(),
            env!("CARGO_BIN_EXE_goconform"),
            root().display()
        )
    };
    let out = goconform(&[
        "referee",
        "--size",
        "5",
        "--rules",
        "aga",
        "--black",
        &engine("black"),
        "--white",
        &engine("white"),
        "--move-timeout",
        "10",
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    // The dispute resumes play with White; both pass, which ends the game with every stone
    // alive (AGA Rule 10): no engine forfeits for refusing a move while it thought play paused.
    assert!(!said.contains("+F"), "{said}");
    assert!(said.contains("counted"), "{said}");
}

#[test]
fn the_referee_refuses_an_engine_that_cannot_start() {
    let dir = scratch("referee-no-engine");
    let missing = dir.join("no-such-engine");
    let sgf_out = dir.join("records");
    for (command, said_why) in [
        (missing.to_str().unwrap(), "No such file"),
        ("", "the command line is empty"),
        ("gnugo 'unbalanced", "a quote is not closed"),
    ] {
        let out = goconform(&[
            "referee",
            "--size",
            "9",
            "--black",
            command,
            "--white",
            command,
            "--sgf-out",
            sgf_out.to_str().unwrap(),
        ]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{command:?}: {said}");
        assert!(said.contains("--black"), "{command:?}: {said}");
        assert!(said.contains(said_why), "{command:?}: {said}");
        assert!(!said.contains("W+F"), "{command:?}: {said}");
    }
}

/// GNU Go in one of the places `check --engine gnugo` looks, or `None` after saying why.
fn gnugo_found() -> Option<String> {
    let found = ["/usr/games/gnugo", "/usr/bin/gnugo", "/usr/local/bin/gnugo"]
        .into_iter()
        .find(|p| Path::new(p).is_file());
    if found.is_none() {
        common::skip("GNU Go is not installed (apt-get install gnugo)");
    }
    found.map(str::to_string)
}

#[test]
fn the_referee_finds_gnu_go_off_the_path_and_never_replaces_a_record() {
    let Some(gnugo) = gnugo_found() else { return };
    let dir = scratch("referee-records");
    let records = dir.join("records");
    std::fs::create_dir_all(&records).unwrap();
    let annotated = records.join("game-001.sgf");
    std::fs::write(&annotated, "(;C[annotated by hand])").unwrap();
    // `gnugo` plainly, with a PATH that does not hold it: found as check finds it.
    let path = Path::new(&gnugo).parent().unwrap();
    let bare_path: Vec<PathBuf> =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
            .filter(|d| d != path)
            .collect();
    let run = |extra: &[&str]| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_goconform"));
        command
            .env("PATH", std::env::join_paths(&bare_path).unwrap())
            .env_remove("GNUGO")
            .arg("--root")
            .arg(root())
            .args([
                "referee",
                "--size",
                "5",
                "--black",
                "gnugo --mode gtp --level 1",
            ])
            .args(["--white", "gnugo --mode gtp --level 1"])
            .args(extra);
        command.output().unwrap()
    };
    let out = run(&["--sgf-out", records.to_str().unwrap()]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("game-001.sgf already exists"), "{said}");
    assert_eq!(
        std::fs::read_to_string(&annotated).unwrap(),
        "(;C[annotated by hand])"
    );
    // A clock file with events gives the match its control; the events are not played.
    let fresh = dir.join("fresh");
    let clock = root().join("docs/examples/clock.toml");
    let out = run(&[
        "--sgf-out",
        fresh.to_str().unwrap(),
        "--time-control",
        clock.to_str().unwrap(),
    ]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(said.contains("events are not played"), "{said}");
    assert!(fresh.join("game-001.sgf").is_file(), "{said}");
}

#[test]
fn a_run_in_which_no_trial_applies_says_so_in_its_exit_status() {
    // The second executor judges only the board: no tiebreak trial applies to it.
    let out = goconform(&["check", "--engine", "naive", "conformance/tiebreak"]);
    let said = text(&out);
    assert_eq!(out.status.code(), Some(2), "{said}");
    assert!(said.contains("nothing was checked"), "{said}");
    let out = goconform(&[
        "check",
        "--engine",
        "naive",
        "conformance/tiebreak",
        "--format",
        "jsonl",
    ]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    // Where some trial applies, the run passes as before.
    let out = goconform(&["check", "--engine", "naive", "conformance/ko/basic-ko.toml"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn help_that_cannot_be_written_is_an_error() {
    for args in [
        &["--help"][..],
        &["check", "--help"][..],
        &["--version"][..],
    ] {
        let Some(out) = to_dev_full(args) else { return };
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}:\n{err}");
        assert!(
            err.contains("cannot write to standard output"),
            "{args:?}: {err}"
        );
    }
    let out = goconform(&["--help"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage"));
    let out = goconform(&["--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2));
}

#[cfg(unix)]
#[test]
fn export_and_book_never_write_through_a_link_inside_the_folder() {
    let dir = scratch("links-inside");
    let outside = dir.join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    // export: DIR/spec is a link to a folder outside DIR, with --force too.
    let target = dir.join("export");
    std::fs::create_dir_all(&target).unwrap();
    std::os::unix::fs::symlink(&outside, target.join("spec")).unwrap();
    for force in [false, true] {
        let mut args = vec!["export", target.to_str().unwrap()];
        if force {
            args.push("--force");
        }
        let out = goconform(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{said}");
        assert!(said.contains("is a link"), "{said}");
        assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0, "{said}");
    }
    // book: a book written before, whose scenarios folder was replaced by a link.
    let site = dir.join("site");
    let out = goconform(&["book", site.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    std::fs::remove_dir_all(site.join("scenarios")).unwrap();
    std::os::unix::fs::symlink(&outside, site.join("scenarios")).unwrap();
    let out = goconform(&["book", site.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert_eq!(std::fs::read_dir(&outside).unwrap().count(), 0);
    assert!(std::fs::symlink_metadata(site.join("scenarios"))
        .unwrap()
        .is_dir());
}

/// Every file under `dir`, relative, sorted.
fn tree(dir: &Path) -> Vec<String> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let entry = entry.unwrap();
            if entry.file_type().unwrap().is_dir() {
                stack.push(entry.path());
            } else {
                let path = entry.path();
                found.push(path.strip_prefix(dir).unwrap().display().to_string());
            }
        }
    }
    found.sort();
    found
}

#[cfg(unix)]
#[test]
fn a_book_cut_short_leaves_the_old_site_or_the_new_one_never_a_part() {
    let dir = scratch("book-sigterm");
    let site = dir.join("site");
    let started = std::time::Instant::now();
    let out = goconform(&["book", site.to_str().unwrap()]);
    let whole_run = started.elapsed();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    let whole = tree(&site);
    assert!(whole.len() > 100, "{whole:?}");
    std::fs::write(site.join("CNAME"), "kept\n").unwrap();
    // SIGTERM at 30 delays spread over the second half of a run, where it writes the pages
    // (the site is built in memory first).
    for step in 0..30u32 {
        let delay_ms = whole_run.as_millis() as u64 * u64::from(15 + step) / 40;
        let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
            .arg("--root")
            .arg(root())
            .args(["book", site.to_str().unwrap()])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        terminate(child.id());
        let _ = child.wait();
        let now = tree(&site);
        let temporary: Vec<&String> = now.iter().filter(|p| p.contains(".tmp")).collect();
        assert!(temporary.is_empty(), "{delay_ms} ms: {temporary:?}");
        let mut expected = whole.clone();
        expected.push("CNAME".to_string());
        expected.sort();
        assert_eq!(now, expected, "{delay_ms} ms: the site is whole");
        assert_eq!(
            std::fs::read_to_string(site.join("CNAME")).unwrap(),
            "kept\n"
        );
    }
}

/// Sends SIGTERM to a process this test started, with the `kill` command.
fn terminate(pid: u32) {
    let _ = Command::new("kill")
        .args(["-TERM", &pid.to_string()])
        .status();
}

#[test]
fn a_finding_that_cannot_be_written_is_printed_with_the_error() {
    if !python3() {
        return;
    }
    let engine = format!(
        "jsonl:python3 {} {} suicide",
        root().join("tests/fixtures/jsonl/mutant.py").display(),
        env!("CARGO_BIN_EXE_goconform")
    );
    // A folder under a file cannot be made, as a full disk cannot take the file.
    let out = goconform(&[
        "fuzz",
        "--engine",
        &engine,
        "--seconds",
        "60",
        "--seed",
        "5",
        "--out",
        "/dev/null/findings",
    ]);
    let err = String::from_utf8_lossy(&out.stderr);
    // Exit 1: a new finding (fuzz's exit status says what was found; the message says it
    // could not be saved).
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("cannot create /dev/null/findings"), "{err}");
    assert!(err.contains("the finding was not saved"), "{err}");
    assert!(err.contains("[scenario]") || err.contains("id = "), "{err}");
}

/// `work(n)` at three sizes, n, 2n and 4n: each doubling must cost under three times as
/// much, so 4n under six times n (a quadratic reader costs four and sixteen times).
fn grows_linearly(what: &str, n: usize, work: impl Fn(usize) -> u64) {
    let counts: Vec<u64> = [n, 2 * n, 4 * n].iter().map(|&m| work(m)).collect();
    eprintln!("{what}: work at {n}, {}, {}: {counts:?}", 2 * n, 4 * n);
    assert!(counts[0] > 0, "{what}: no work counted: {counts:?}");
    assert!(counts[1] < 3 * counts[0], "{what}: {counts:?}");
    assert!(counts[2] < 6 * counts[0], "{what}: {counts:?}");
}

/// The bytes scanned to count columns while `f` runs on this thread.
fn columns_work(f: impl FnOnce()) -> u64 {
    let before = goconform::spec::location::column_bytes_counted();
    f();
    goconform::spec::location::column_bytes_counted() - before
}

/// A collection of `games` games of 300 moves each, all on one line.
fn one_line_collection(games: usize) -> String {
    let letters = b"abcdefghijklmnopqrs";
    let mut game = String::from("(;GM[1]SZ[19]RU[aga]KM[7.5]");
    for m in 0..300 {
        let (x, y) = (letters[m % 19] as char, letters[m / 19] as char);
        game.push_str(&format!(";{}[{x}{y}]", if m % 2 == 0 { 'B' } else { 'W' }));
    }
    game.push(')');
    game.repeat(games)
}

#[test]
fn a_one_line_collection_is_read_in_time_linear_in_its_size() {
    grows_linearly("SGF collection on one line (games)", 100, |games| {
        let text = one_line_collection(games);
        columns_work(|| {
            let read = goconform::sgf::read(
                Path::new("one-line.sgf"),
                text.as_bytes(),
                &goconform::sgf::ReadOptions::default(),
            )
            .unwrap();
            assert_eq!(read.len(), games);
            assert!(read.iter().all(Result::is_ok));
        })
    });
}

#[test]
fn a_long_moves_line_is_read_in_time_linear_in_its_size() {
    let spec = goconform::spec::Spec::load(root()).unwrap();
    grows_linearly("a scenario's moves on one line (moves)", 5_000, |moves| {
        // Plays on distinct points, then passes and disputes in turn: events of every kind.
        let letters = "ABCDEFGHJKLMNOPQRST".as_bytes();
        let list: Vec<String> = (0..moves)
            .map(|i| {
                let colour = if i % 2 == 0 { 'B' } else { 'W' };
                match i {
                    i if i < 200 => {
                        format!("\"{colour} {}{}\"", letters[i % 19] as char, i / 19 + 1)
                    }
                    i if (i - 200) % 3 == 2 => "\"dispute\"".to_string(),
                    _ => format!("\"{colour} pass\""),
                }
            })
            .collect();
        let text = format!(
            "id = \"long-line\"\ntitle = \"x\"\nadded = \"0.1.0\"\nclauses = [\"aga-1991-r10\"]\n\
             description = \"x\"\nchecked = \"x\"\nrules = [\"aga\"]\nsize = 19\nmoves = [{}]\n\
             [[expect]]\nafter = 1\nlegal = true\n",
            list.join(", ")
        );
        columns_work(|| {
            let parsed = goconform::scenario::Scenario::parse(
                Path::new("long-line.toml"),
                &text,
                "play",
                &spec,
            );
            assert!(parsed.is_ok(), "{:?}", parsed.err());
        })
    });
}

#[test]
fn a_one_line_clock_file_is_read_in_time_linear_in_its_size() {
    grows_linearly(
        "a clock file's events on one line (events)",
        5_000,
        |events| {
            let mut list = vec!["\"0 begin\"".to_string()];
            list.extend((1..events).map(|i| {
                format!(
                    "\"{}:{:02} play {}\"",
                    i / 60,
                    i % 60,
                    if i % 2 == 1 { 'B' } else { 'W' }
                )
            }));
            let text = format!(
                "control = {{ main = \"100:00:00\" }}\nevents = [{}]\n",
                list.join(", ")
            );
            columns_work(|| {
                let file = goconform::scenario::tournament::read_clock_file(
                    Path::new("clock.toml"),
                    &text,
                );
                assert!(file.is_ok(), "{:?}", file.err().map(|e| e[0].to_string()));
            })
        },
    );
}

#[test]
fn a_refused_set_up_is_reported_with_the_file_that_holds_it() {
    let dir = scratch("set-up-names-the-file");
    let record = dir.join("no-liberties.sgf");
    std::fs::write(&record, "(;SZ[9]RU[aga]AW[ab][ba]AB[aa])").unwrap();
    let name = record.to_str().unwrap();
    for args in [vec!["show", name], vec!["score", name]] {
        let out = goconform(&args);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {said}");
        assert!(said.contains("without liberties"), "{args:?}: {said}");
        assert!(said.contains(&format!("{name}: ")), "{args:?}: {said}");
    }
    let mut gtp = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .arg("--root")
        .arg(root())
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    {
        use std::io::Write;
        let mut stdin = gtp.stdin.take().unwrap();
        writeln!(stdin, "loadsgf {name}\nquit").unwrap();
    }
    let out = gtp.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(said.contains(&format!("? {name}: ")), "{said}");
    assert!(said.contains("without liberties"), "{said}");
}

#[test]
fn the_input_limits_in_the_readme_are_the_ones_enforced() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("Input limits, each refused")
        .expect("the paragraph");
    let paragraph = &readme[start..start + readme[start..].find("\n\n").unwrap()];
    let paragraph = paragraph.replace('\n', " ");
    let mib = |bytes: u64| format!("{} MiB", bytes >> 20);
    for (said, what) in [
        (
            mib(goconform::spec::location::MAX_TEXT_BYTES),
            "a text file",
        ),
        (
            format!(
                "{} nodes",
                goconform::sgf::text::MAX_LINE_NODES
                    .to_string()
                    .as_bytes()
                    .rchunks(3)
                    .rev()
                    .map(|c| std::str::from_utf8(c).unwrap())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
            "an SGF line of play",
        ),
        (
            format!("{} KiB", goconform::gtp::MAX_COMMAND_BYTES >> 10),
            "a GTP command",
        ),
        (
            mib(goconform::engines::protocol::MAX_LINE_BYTES as u64),
            "a JSON line",
        ),
    ] {
        assert!(
            paragraph.contains(&said),
            "{what}: `{said}` in: {paragraph}"
        );
    }
}

#[test]
fn standings_of_many_tied_players_take_n_log_n_steps() {
    use goconform::tournament::crosstable::{Crosstable, Entry, Game, Outcome};
    use goconform::tournament::tiebreak::{self, Tiebreak};
    // Players in pairs that drew their one game: all level on score, SOS and SODOS, none beaten,
    // so every place after the first is drawn by chance among everyone left.
    let tied = |n: usize| {
        let players: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let games = (0..n)
            .map(|i| {
                vec![Entry::Played(Game {
                    opponent: i ^ 1,
                    outcome: Outcome::Draw,
                    forfeit: false,
                })]
            })
            .collect();
        Crosstable::new(players, games).unwrap()
    };
    let order = [
        Tiebreak::Playoff,
        Tiebreak::Sos,
        Tiebreak::Sodos,
        Tiebreak::HeadToHead,
        Tiebreak::Chance,
    ];
    grows_linearly("standings of tied players (players)", 2_000, |n| {
        let table = tied(n);
        let before = tiebreak::work_counted();
        let standings = tiebreak::standings(&table, &order, 1, &[]).unwrap();
        assert_eq!(standings.rows.len(), n);
        // Notes name at most a dozen players each, so they grow with the places.
        let noted: usize = standings.notes.iter().map(String::len).sum();
        assert!(noted < 200 * n, "{noted} bytes of notes");
        tiebreak::work_counted() - before
    });
}

/// Writes `text` as an SGF file in a scratch folder and runs `judge` on it.
fn judge_text(name: &str, text: &str, extra: &[&str]) -> Output {
    let path = scratch(name).join("record.sgf");
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["judge"];
    args.extend_from_slice(extra);
    let path = path.display().to_string();
    args.push(&path);
    goconform(&args)
}

#[test]
fn a_refused_set_up_is_never_all_legal() {
    // S1 as reported: a set-up point repeated in a second set-up node. The set-up is one
    // black stone; the moves are then judged (move 2 plays on White's stone).
    let out = judge_text(
        "s1-repeated",
        "(;SZ[9]RU[aga]AB[aa];AB[aa];W[bb];B[bb];W[bb];B[bb])",
        &[],
    );
    let said = text(&out);
    assert!(!said.contains("all legal"), "{said}");
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("move 2 (B B8) breaks a rule: occupied"),
        "{said}"
    );
    // A set-up string with no liberties: the rules cannot start from it, so nothing is judged,
    // and the exit status says so.
    let out = judge_text(
        "s1-no-liberty",
        "(;SZ[9]RU[aga]AB[aa]AW[ab][ba];B[cc];W[dd])",
        &[],
    );
    let said = text(&out);
    assert!(!said.contains("all legal"), "{said}");
    assert!(said.contains("not judged: the set-up is refused"), "{said}");
    assert!(said.contains("1 not judged (set-up refused)"), "{said}");
    assert_eq!(out.status.code(), Some(2), "{said}");
    let rows = judge_text(
        "s1-no-liberty-jsonl",
        "(;SZ[9]RU[aga]AB[aa]AW[ab][ba];B[cc];W[dd])",
        &["--format", "jsonl"],
    );
    let first = String::from_utf8_lossy(&rows.stdout)
        .lines()
        .next()
        .unwrap()
        .to_string();
    assert!(first.contains("\"check\":\"not-judged\""), "{first}");
}

#[test]
fn identifiers_without_an_upper_case_letter_are_refused_where_they_stand() {
    // S2: `ab` and `w` have no upper-case letter; SGF ignores lower-case letters in an
    // identifier, which leaves nothing: a located error, not a silently dropped property.
    for (name, record, column) in [
        ("s2-ab", "(;SZ[9]RU[aga]ab[aa];W[aa])", 15),
        ("s2-w", "(;SZ[9]RU[aga];B[cc];w[dd];B[ee])", 22),
    ] {
        let out = judge_text(name, record, &[]);
        let said = text(&out);
        assert_eq!(out.status.code(), Some(2), "{record}: {said}");
        assert!(
            said.contains(&format!("record.sgf:1:{column}: "))
                && said.contains("no upper-case letter"),
            "{record}: {said}"
        );
    }
    // `aB` is `B`, as SGF reads it: judged like any black move.
    let out = judge_text("s2-mixed", "(;SZ[9]RU[aga];aB[cc];W[dd])", &[]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
}

#[test]
fn repeated_set_up_nodes_cost_work_in_proportion_to_their_number() {
    // Q6: every set-up node repeats the same points; reading them must look each point up
    // once, not scan a list that grows with every node. Work is counted (set-up look-ups),
    // not timed: 4x the nodes must cost under 6x the work.
    let work = |nodes: usize| {
        let mut text = String::from("(;SZ[19]");
        for _ in 0..nodes {
            text.push_str(";AB[aa][bb][cc]AW[dd][ee]AE[ff]");
        }
        text.push_str(";B[qq])");
        let before = goconform::sgf::setup_lookups();
        let games = goconform::sgf::read(Path::new("q6.sgf"), text.as_bytes(), &Default::default())
            .unwrap();
        let record = games.into_iter().next().unwrap().unwrap();
        assert_eq!(record.setup.stones.len(), 5);
        goconform::sgf::setup_lookups() - before
    };
    let (small, medium, large) = (work(250), work(1000), work(4000));
    assert!(small > 0);
    assert!(medium * 10 < small * 60, "{small} -> {medium}");
    assert!(large * 10 < medium * 60, "{medium} -> {large}");
}

#[test]
fn judge_names_the_fallback_only_when_given_and_numbers_every_game() {
    // The note "judged under --fallback-rules" only where that option chose the ruleset.
    let out = judge_text("no-option-record", "(;SZ[9]RU[aga];B[cc];W[dd])", &["-v"]);
    assert!(!text(&out).contains("fallback"), "{}", text(&out));
    let out = judge_text(
        "option-given",
        "(;SZ[9];B[cc];W[dd])",
        &["-v", "--fallback-rules", "aga"],
    );
    assert!(
        text(&out).contains("judged under --fallback-rules aga"),
        "{}",
        text(&out)
    );
    // Game 2 of a file with no ruleset is game 2 in jsonl, not game 0.
    let out = judge_text(
        "jsonl-game-number",
        "(;SZ[9]RU[aga];B[cc])(;SZ[9];B[cc])",
        &["--format", "jsonl"],
    );
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["game"], 1);
    assert_eq!(lines[1]["game"], 2, "{lines:?}");
    assert_eq!(lines[1]["check"], "no-ruleset");
}

/// M2: `judge` streams. Every record of the real corpus (`../shared/corpus/sgf`, never copied
/// into the project) that is UTF-8 is concatenated into one collection; `judge -j 1` reads it
/// once (1x) and sixteen times (16x: sixteen links to the file). One game of a collection is in
/// memory at a time and each outcome is written as it is judged, the summary kept as tallies,
/// so peak resident memory, as `/usr/bin/time -v` reports it, must differ by under 20 MB
/// (before streaming it grew with the records: 77 MB for 5,502 of them, 1.08 GB for 88,032).
/// One worker, so that both runs hold the same number of files at once. Skipped, saying why,
/// without the corpus or `/usr/bin/time`.
#[test]
fn judge_peak_memory_does_not_grow_with_the_number_of_records() {
    let corpus = std::env::var_os("GOCONFORM_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/corpus/sgf"));
    if !corpus.is_dir() {
        println!("skipped: the corpus folder ../shared/corpus/sgf is not beside the project");
        return;
    }
    let time = Path::new("/usr/bin/time");
    if !time.exists() {
        println!("skipped: /usr/bin/time, which reports a child's peak memory, is not installed");
        return;
    }
    let scratch = tempfile::tempdir().unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(&corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| goconform::sgf::is_sgf(p))
        .collect();
    names.sort();
    let mut collection = Vec::new();
    let mut records = 0;
    for path in &names {
        let bytes = std::fs::read(path).unwrap();
        if std::str::from_utf8(&bytes).is_ok() {
            collection.extend_from_slice(&bytes);
            collection.push(b'\n');
            records += 1;
        }
    }
    assert!(records > 5000, "{records} records");
    let once = scratch.path().join("1x");
    let many = scratch.path().join("16x");
    std::fs::create_dir(&once).unwrap();
    std::fs::create_dir(&many).unwrap();
    std::fs::write(once.join("corpus.sgf"), &collection).unwrap();
    drop(collection);
    for i in 0..16 {
        std::fs::hard_link(
            once.join("corpus.sgf"),
            many.join(format!("corpus-{i:02}.sgf")),
        )
        .unwrap();
    }
    let peak = |dir: &Path| -> (u64, String) {
        let out = Command::new(time)
            .arg("-v")
            .arg(env!("CARGO_BIN_EXE_goconform"))
            .arg("--root")
            .arg(root())
            .args(["judge", "-j", "1", "--fallback-rules", "aga"])
            .arg(dir)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        let kb: u64 = err
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix("Maximum resident set size (kbytes): ")
            })
            .and_then(|v| v.trim().parse().ok())
            .unwrap_or_else(|| panic!("no peak memory in {err}"));
        let summary = String::from_utf8_lossy(&out.stdout)
            .lines()
            .find(|l| l.contains(" files, "))
            .unwrap_or_default()
            .to_string();
        (kb, summary)
    };
    let (small, small_summary) = peak(&once);
    let (large, large_summary) = peak(&many);
    println!("1x: {small} kB peak ({small_summary}); 16x: {large} kB peak ({large_summary})");
    let games = |summary: &str| -> usize {
        summary
            .split(" files, ")
            .nth(1)
            .and_then(|s| s.split(' ').next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    assert_eq!(games(&small_summary), records, "{small_summary}");
    assert_eq!(games(&large_summary), 16 * records, "{large_summary}");
    assert!(
        large < small + 20 * 1024,
        "peak memory grew from {small} kB to {large} kB"
    );
}
