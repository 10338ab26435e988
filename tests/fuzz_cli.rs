//! `goconform fuzz` as a user meets it: a deliberately broken engine yields a scenario that
//! loads, passes for the reference and fails for that engine; the reference against itself
//! finds nothing and says how many games it played.
//!
//! The broken engine is `tests/fixtures/jsonl/mutant.py`: the reference served over the
//! JSON-lines protocol, but playing every game with suicide allowed.

mod common;

use std::path::PathBuf;

use common::{goconform, root};

fn mutant() -> String {
    mutant_in("suicide")
}

fn mutant_in(mode: &str) -> String {
    format!(
        "jsonl:python3 {} {} {mode}",
        root().join("tests/fixtures/jsonl/mutant.py").display(),
        env!("CARGO_BIN_EXE_goconform")
    )
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        std::env::temp_dir().join(format!("goconform-fuzz-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

#[test]
fn a_broken_engine_yields_a_scenario_that_fails_for_it_and_passes_for_the_reference() {
    let out = scratch("mutant");
    let engine = mutant();
    let run = goconform(&[
        "fuzz",
        "--engine",
        &engine,
        "--seconds",
        "60",
        "--seed",
        "5",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(
        run.status.code(),
        Some(1),
        "{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let path = stdout
        .lines()
        .find_map(|l| l.strip_prefix("wrote "))
        .expect("the path of the scenario is printed")
        .to_string();
    assert!(path.ends_with(".toml"), "{path}");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("illegal = \"suicide\""), "{text}");
    assert!(text.contains("--seed 5"), "the seed is recorded:\n{text}");
    assert!(text.contains("id = \"fuzz-jsonl-mutant-5-"), "{text}");
    // The same game as an SGF record beside it, which our reader takes back.
    let record = std::path::Path::new(&path).with_extension("sgf");
    assert!(
        stdout.contains(&format!("wrote {}", record.display())),
        "{stdout}"
    );
    let games = goconform::sgf::read_file(&record, &Default::default()).unwrap();
    assert!(games[0].is_ok(), "{games:?}");
    let reference = goconform(&["check", &path]);
    assert_eq!(
        reference.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&reference.stdout)
    );
    let theirs = goconform(&["check", &path, "--engine", &engine]);
    assert_eq!(
        theirs.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&theirs.stdout)
    );
    // Minimised: a suicide needs a few stones around a point, not a whole game.
    let moves = text
        .lines()
        .find(|l| l.starts_with("moves = "))
        .expect("moves");
    assert!(moves.matches('"').count() / 2 <= 12, "{moves}");
    // The rules are minimised too: suicide is forbidden under aga, so nothing is overridden.
    assert!(!text.contains("\nset = "), "{text}");
    let _ = std::fs::remove_dir_all(&out);
}

/// A crash is a finding too: the engine is replaced after each breakdown, the game minimised
/// with new engines, and the scenario shows the breakdown through `goconform check`.
#[test]
fn an_engine_that_crashes_is_replaced_and_the_crash_becomes_a_scenario() {
    let out = scratch("crash");
    let engine = mutant_in("crash-3");
    let run = goconform(&[
        "fuzz",
        "--engine",
        &engine,
        "--seconds",
        "60",
        "--seed",
        "3",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    let path = stdout
        .lines()
        .find_map(|l| l.strip_prefix("wrote "))
        .expect("the path of the scenario is printed")
        .to_string();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("size = 3\n"), "{text}");
    assert_eq!(goconform(&["check", &path]).status.code(), Some(0));
    let theirs = goconform(&["check", &path, "--engine", &engine]);
    let report = String::from_utf8_lossy(&theirs.stdout);
    assert_eq!(theirs.status.code(), Some(1), "{report}");
    // Minimised to the start: the crashed engine shows nothing of the set-up (a JSON-lines
    // engine's failure to start is reported by the first event, and none is left).
    assert!(
        report.contains("error") || report.contains("(nothing shown)"),
        "{report}"
    );
    let _ = std::fs::remove_dir_all(&out);
}

#[test]
fn the_reference_against_itself_finds_nothing_and_counts_its_games() {
    let out = scratch("reference");
    let run = goconform(&[
        "fuzz",
        "--engine",
        "reference",
        "--seconds",
        "30",
        "--games",
        "200",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("no divergence: 200 games played"),
        "{stdout}"
    );
    assert!(!out.exists(), "nothing is written without a divergence");
}

#[test]
fn an_unknown_engine_is_bad_input() {
    let run = goconform(&["fuzz", "--engine", "no-such-engine", "--seconds", "1"]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("unknown engine"));
}

/// Issue 37's F1: the reference's own GTP face under `aga`, fuzzed as a plain `gtp:` engine,
/// was played games under rules it never claimed, and set-ups the bridge cannot give it under
/// natural situational superko. Held to the ruleset it plays, it agrees in every game.
#[test]
fn the_gtp_face_fuzzed_under_its_own_ruleset_agrees() {
    let out = scratch("gtp-face");
    let engine = format!("gtp:{} gtp --rules aga", env!("CARGO_BIN_EXE_goconform"));
    let run = goconform(&[
        "fuzz",
        "--engine",
        &engine,
        "--rules",
        "aga",
        "--seconds",
        "60",
        "--games",
        "400",
        "--seed",
        "1",
        "--out",
        out.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("under the rulesets aga"), "{stdout}");
    assert!(stdout.contains("no divergence: "), "{stdout}");
    // A ruleset the engine does not claim is refused before any game.
    let run = goconform(&[
        "fuzz",
        "--engine",
        &engine,
        "--claim",
        "ko=simple",
        "--rules",
        "aga",
        "--seconds",
        "1",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("--rules aga: "), "{stderr}");
    assert!(stderr.contains("ko=natural-situational"), "{stderr}");
}

/// For CI: several findings in one run, JUnit, and findings already triaged skipped.
#[test]
fn findings_keep_coming_known_ones_are_skipped_and_junit_says_which() {
    let out = scratch("findings");
    let junit = scratch("findings-junit.xml");
    let engine = mutant();
    let args = |extra: &[&str]| {
        let mut all = vec![
            "fuzz",
            "--engine",
            &engine,
            "--rules",
            "aga",
            "--seconds",
            "120",
            "--seed",
            "5",
            "--out",
            out.to_str().unwrap(),
            "--junit",
            junit.to_str().unwrap(),
        ];
        all.extend_from_slice(extra);
        all.iter().map(|s| s.to_string()).collect::<Vec<String>>()
    };
    let first = args(&["--findings", "2", "--games", "3000"]);
    let first: Vec<&str> = first.iter().map(String::as_str).collect();
    let run = goconform(&first);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("2 new findings, 0 known met"), "{stdout}");
    let written: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "toml"))
        .collect();
    assert_eq!(written.len(), 2, "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<failure").count(), 2, "{xml}");
    assert!(xml.contains("games agreed with the reference"), "{xml}");
    // The same games with those findings known: both are met again and skipped, none is new.
    let last_game: u64 = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("game "))
        .filter_map(|l| l.split_whitespace().next()?.parse().ok())
        .max()
        .expect("the games that diverged are named");
    let games = (last_game + 1).to_string();
    let known = out.to_str().unwrap().to_string();
    let again = args(&["--findings", "2", "--known", &known, "--games", &games]);
    let again: Vec<&str> = again.iter().map(String::as_str).collect();
    let run = goconform(&again);
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("0 new findings, "), "{stdout}");
    assert!(stdout.contains("known: the minimised game is "), "{stdout}");
    let xml = std::fs::read_to_string(&junit).unwrap();
    assert_eq!(xml.matches("<failure").count(), 0, "{xml}");
    assert!(xml.contains("known finding"), "{xml}");
    let _ = std::fs::remove_dir_all(&out);
    let _ = std::fs::remove_file(&junit);
}
