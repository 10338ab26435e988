//! `goconform referee` between real engines: GNU Go 3.8 against itself at two levels, and GNU
//! Go behind a fake player that misbehaves on purpose (tests/fixtures/fake_player.py): every
//! game ends, faults are reported and forfeit only their own game, illegal moves follow the
//! ruleset's procedure. Skipped, saying why, without GNU Go or python3 (a failure under CI).

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;

use common::{goconform, root};

fn gnugo() -> Option<PathBuf> {
    let path = std::env::var_os("GNUGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/games/gnugo"));
    let python = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok();
    if path.exists() && python {
        return Some(path);
    }
    common::skip("GNU Go or python3 is not installed (apt-get install gnugo python3)");
    None
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

fn engine(gnugo: &Path, level: u32) -> String {
    format!("{} --mode gtp --level {level}", gnugo.display())
}

fn fake(gnugo: &Path, mode: &str) -> String {
    format!(
        "python3 {} {mode} {}",
        root().join("tests/fixtures/fake_player.py").display(),
        engine(gnugo, 1)
    )
}

fn referee(args: &[&str]) -> String {
    let mut all = vec!["referee", "--size", "9"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    t
}

/// The rows of the results table: (result, moves, how it ended).
fn rows(out: &str) -> Vec<(String, usize, String)> {
    out.lines()
        .filter_map(|line| {
            let mut words = line.split_whitespace();
            words.next()?.parse::<usize>().ok()?;
            let result = words.next()?.to_string();
            let moves = words.next()?.parse().ok()?;
            Some((result, moves, words.collect::<Vec<_>>().join(" ")))
        })
        .collect()
}

#[test]
fn gnu_go_against_gnu_go_under_aga_and_tromp_taylor_with_a_clock() {
    let Some(gnugo) = gnugo() else { return };
    let dir = tempfile::tempdir().unwrap();
    let control = dir.path().join("control.toml");
    std::fs::write(
        &control,
        "control = { main = \"0:05\", overtime = \"canadian\", stones = 10, period = \"0:05\" }\n",
    )
    .unwrap();
    for rules in ["aga", "tromp-taylor"] {
        let records = dir.path().join(rules);
        let out = referee(&[
            "--black",
            &engine(&gnugo, 1),
            "--white",
            &engine(&gnugo, 3),
            "--rules",
            rules,
            "--games",
            "2",
            "--time-control",
            control.to_str().unwrap(),
            "--sgf-out",
            records.to_str().unwrap(),
        ]);
        // Every record read back and judged: all moves legal, and its RE is the count of the
        // final position with the dead stones it marks (the ones both engines agreed on).
        let judged = goconform(&["judge", "--format", "jsonl", records.to_str().unwrap()]);
        let lines = String::from_utf8_lossy(&judged.stdout).to_string();
        assert_eq!(judged.status.code(), Some(0), "{lines}");
        for line in lines.lines().filter(|l| l.contains("\"ruleset\"")) {
            let row: serde_json::Value = serde_json::from_str(line).unwrap();
            assert_eq!(row["ruleset"], rules, "{line}");
            assert!(row["violation"].is_null(), "{line}");
            assert!(
                row["check"] == "agrees"
                    || ["+R", "+T"]
                        .iter()
                        .any(|end| row["recorded_result"].as_str().unwrap().ends_with(end)),
                "{line}"
            );
        }
        sgfmill_reads(&records);
        let rows = rows(&out);
        assert_eq!(rows.len(), 2, "{out}");
        for (result, moves, how) in &rows {
            assert!(
                how.starts_with("counted") || how.ends_with("resigned"),
                "{rules}: {out}"
            );
            assert!(*moves > 0, "{out}");
            assert!(result.starts_with("B+") || result.starts_with("W+") || result == "0");
            if rules == "tromp-taylor" {
                assert!(
                    !how.contains("agreed dead"),
                    "nothing is removed under tromp-taylor: {out}"
                );
            }
        }
        assert!(out.contains("2 games:"), "{out}");
    }
}

/// A reader nobody here wrote: Python's sgfmill parses every record and finds the same
/// moves. Skipped, saying why, where sgfmill is not installed (`.ci/run` installs it).
fn sgfmill_reads(dir: &Path) {
    let script = r#"
import sys, glob
from sgfmill import sgf
count = 0
for path in sorted(glob.glob(sys.argv[1] + "/*.sgf")):
    game = sgf.Sgf_game.from_bytes(open(path, "rb").read())
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    assert all(colour in ("b", "w") for colour, _ in moves), path
    count += 1
print(count)
"#;
    let out = std::process::Command::new("python3")
        .args(["-c", script, dir.to_str().unwrap()])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if stderr.contains("No module named 'sgfmill'") {
        common::skip("the sgfmill check: sgfmill is not installed (pip install sgfmill)");
        return;
    }
    assert!(out.status.success(), "{stderr}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "2", "{stderr}");
}

#[test]
fn a_broken_engine_forfeits_its_game_and_the_match_goes_on() {
    let Some(gnugo) = gnugo() else { return };
    for (mode, expected) in [
        ("hang", "black's engine failed (timeout)"),
        ("crash", "black's engine failed (crash)"),
        ("garbage", "black's engine failed (protocol error)"),
        ("nonsense", "`banana` is not a vertex"),
    ] {
        let out = referee(&[
            "--black",
            &fake(&gnugo, mode),
            "--white",
            &engine(&gnugo, 1),
            "--games",
            "2",
            "--move-timeout",
            "2",
        ]);
        let rows = rows(&out);
        assert_eq!(rows.len(), 2, "{mode}: {out}");
        for (result, _, how) in &rows {
            assert_eq!(result, "W+F", "{mode}: {out}");
            assert!(how.contains(expected), "{mode}: {out}");
        }
        assert!(
            out.contains("faults and illegal moves: Black 2, White 0"),
            "{mode}: {out}"
        );
    }
    let out = referee(&[
        "--black",
        &fake(&gnugo, "resign"),
        "--white",
        &engine(&gnugo, 1),
    ]);
    assert_eq!(rows(&out)[0].0, "W+R", "{out}");
}

#[test]
fn illegal_moves_follow_the_rulesets_procedure() {
    let Some(gnugo) = gnugo() else { return };
    // The fake plays on an occupied point from its third move on. Under aga (AGA Rule 8) each
    // is taken back as a pass, so the game still ends on the board; under the London Open
    // rules the engine moves again and the third illegal move in a row loses; with
    // --illegal-move lose, and under tromp-taylor (no procedure), the first loses.
    let black = fake(&gnugo, "illegal");
    let white = engine(&gnugo, 1);
    let aga = referee(&["--black", &black, "--white", &white, "--rules", "aga"]);
    assert!(rows(&aga)[0].2.starts_with("counted"), "{aga}");
    for args in [
        vec!["--rules", "london-open"],
        vec!["--rules", "aga", "--illegal-move", "lose"],
        vec!["--rules", "tromp-taylor"],
    ] {
        let mut all = vec!["--black", black.as_str(), "--white", white.as_str()];
        all.extend(args.iter().copied());
        let out = referee(&all);
        let (result, _, how) = &rows(&out)[0];
        assert_eq!(result, "W+F", "{args:?}: {out}");
        assert_eq!(
            how, "black made an illegal move (occupied)",
            "{args:?}: {out}"
        );
    }
}

#[test]
fn engines_that_never_agree_end_with_four_passes() {
    let Some(gnugo) = gnugo() else { return };
    // The fake calls every white stone dead at every pause; GNU Go does not: under aga play
    // resumes after each disagreement, and two passes opening a resumption end the game with
    // every stone alive (AGA Rule 10), so the game is counted with nothing removed.
    let dir = tempfile::tempdir().unwrap();
    let out = referee(&[
        "--black",
        &fake(&gnugo, "disagree"),
        "--white",
        &engine(&gnugo, 1),
        "--rules",
        "aga",
        "--sgf-out",
        dir.path().to_str().unwrap(),
    ]);
    let (_, _, how) = &rows(&out)[0];
    assert!(how.starts_with("counted"), "{out}");
    // The record shows the dispute and the resumption, and judge replays them.
    let record = std::fs::read_to_string(dir.path().join("game-001.sgf")).unwrap();
    assert!(
        record.contains("dispute\\: Black's engine calls dead"),
        "{record}"
    );
    let judged = goconform(&["judge", "-v", dir.path().to_str().unwrap()]);
    let judged = text(&judged);
    assert!(judged.contains("play resumed after two passes"), "{judged}");
    assert!(judged.contains(": agrees"), "{judged}");
}

#[test]
fn bad_input_is_refused() {
    for (args, message) in [
        (vec!["--handicap", "12"], "no fixed placement of 12 stones"),
        (vec!["--move-timeout", "0"], "--move-timeout"),
        (vec!["--games", "0"], "--games"),
        (vec!["--rules", "klingon"], "klingon"),
    ] {
        let mut all = vec!["referee", "--black", "x", "--white", "y", "--size", "9"];
        all.extend(args.iter().copied());
        let out = goconform(&all);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", text(&out));
        assert!(text(&out).contains(message), "{args:?}: {}", text(&out));
    }
}
