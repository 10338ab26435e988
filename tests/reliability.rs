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
            eprintln!("skipped: /dev/full cannot be opened here ({e})");
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
        assert!(!said.contains("panicked"), "{said}");
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
            ":31:1: key `size`: duplicate key",
        ),
        (
            "huge-size",
            Box::new(|t: String| t.replacen("size = 5", "size = 99999999999999999999", 1)),
            ":30:8: key `size`: the integer 99999999999999999999 is too large",
        ),
        (
            "huge-after",
            Box::new(|t: String| t.replacen("after = 1\n", "after = 1e309\n", 1)),
            "key `expect[0].after`",
        ),
        (
            "no-runs",
            Box::new(runs("[]")),
            ":26:9: key `rules`: say which rules to run under",
        ),
        (
            "duplicate-run",
            Box::new(runs("[\"aga\", \"bga\", \"aga\"]")),
            ":26:24: key `rules[2]`: two runs are both named `aga`",
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
