//! What `goconform judge` says about real-shaped records (issue 33): who moves first, set-up
//! after a move, record artifacts and `--repair`, the exit status, the clause named for each
//! reason, komi and results as real records spell them.

use std::path::PathBuf;
use std::process::Output;

mod common;

use common::{goconform, root};
use goconform::game::Reason;
use goconform::sgf::judge::clauses_for;
use goconform::spec::Spec;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Writes each record in a scratch folder of its own test.
fn records(test: &str, texts: &[(&str, &str)]) -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
        .join("judge_records")
        .join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    texts
        .iter()
        .map(|(name, body)| {
            let path = dir.join(name);
            std::fs::write(&path, body).unwrap();
            path
        })
        .collect()
}

fn judge(args: &[&str], paths: &[PathBuf]) -> (Option<i32>, String) {
    let mut all: Vec<String> = vec!["judge".to_string()];
    all.extend(args.iter().map(|a| a.to_string()));
    all.extend(paths.iter().map(|p| p.display().to_string()));
    let refs: Vec<&str> = all.iter().map(String::as_str).collect();
    let out = goconform(&refs);
    (out.status.code(), text(&out))
}

#[test]
fn every_reason_names_a_clause_about_that_reason() {
    let spec = Spec::load(root()).unwrap();
    // The clause a reason names under rulesets with no document of their own (the logical
    // rules' clause) and under aga, by what the clause says.
    let expected: &[(Reason, &str, &[&str])] = &[
        (Reason::Occupied, "japanese-1989", &["logic-r7-step1"]),
        (Reason::Occupied, "aga", &["aga-1991-r2-move"]),
        (Reason::OutOfTurn, "japanese-1989", &["logic-r6"]),
        (Reason::OutOfTurn, "aga", &["aga-1991-r2"]),
        (Reason::Suicide, "japanese-1989", &["logic-r7a"]),
        (Reason::Suicide, "aga", &["aga-1991-r5-suicide"]),
        // Suicide allowed: only a one-stone suicide is refused, by the repetition ban.
        (Reason::Suicide, "tromp-taylor", &["logic-r8"]),
        (Reason::Suicide, "new-zealand", &["logic-r8"]),
        (Reason::Ko, "aga", &["aga-1991-r6-ko"]),
        (Reason::Superko, "tromp-taylor", &["logic-r8"]),
        (Reason::GamePaused, "aga", &["aga-1991-r9"]),
        (Reason::GameOver, "aga", &["aga-1991-r10"]),
    ];
    for (reason, ruleset, ids) in expected {
        assert_eq!(
            clauses_for(*reason, ruleset, &spec),
            ids.iter().map(|s| s.to_string()).collect::<Vec<_>>(),
            "{reason} under {ruleset}"
        );
    }
    // Every reason under every ruleset: only clauses the specification has, and never the
    // turn-order clause for anything but a move out of turn.
    for reason in Reason::ALL {
        for ruleset in spec.ruleset_names() {
            for id in clauses_for(*reason, ruleset, &spec) {
                assert!(spec.clause(&id).is_some(), "{reason} {ruleset}: {id}");
                if *reason != Reason::OutOfTurn {
                    assert!(
                        id != "logic-r6" && id != "aga-1991-r2",
                        "{reason} under {ruleset} names the turn-order clause {id}"
                    );
                }
            }
        }
    }
}

#[test]
fn black_moves_first_unless_the_record_says_otherwise() {
    let paths = records(
        "black-first",
        &[
            (
                "white-opens.sgf",
                "(;GM[1]FF[4]SZ[19]RU[Japanese]KM[6.5];W[pd];B[dd];W[pp])",
            ),
            (
                "pl.sgf",
                "(;GM[1]FF[4]SZ[19]RU[Japanese]KM[6.5]PL[W];W[pd];B[dd];W[pp])",
            ),
            (
                "handicap.sgf",
                "(;GM[1]FF[4]SZ[19]RU[Japanese]KM[0.5]HA[2]AB[dd][pp];W[pd];B[dp])",
            ),
        ],
    );
    let (code, said) = judge(&["--all-rulesets"], &paths[..1]);
    assert_eq!(code, Some(1), "{said}");
    // Every one of the rulesets reports it, as a record artifact.
    let reported = said
        .matches("move 1 (W Q16) record artifact (white-opens")
        .count();
    let rulesets = goconform::spec::Spec::load(root())
        .unwrap()
        .ruleset_names()
        .len();
    assert_eq!(reported, rulesets, "{said}");
    let (code, said) = judge(&[], &paths[1..]);
    assert_eq!(code, Some(0), "{said}");
}

#[test]
fn set_up_after_a_move_is_an_event_not_an_unreadable_record() {
    // Black's set-up stone at E5 after move 2, White to move by PL; Black's play there is
    // then a play on its own stone: the set-up was applied.
    let paths = records(
        "mid-game",
        &[(
            "setup.sgf",
            "(;SZ[9]RU[aga]KM[7.5];B[cc];W[dd];AB[ee]PL[W];W[ff];B[ee])",
        )],
    );
    let (code, said) = judge(&[], &paths);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("move 4 (B E5) record artifact (own-stone"),
        "{said}"
    );
    assert!(
        !said.contains("unreadable\n") && said.contains("1 judged"),
        "{said}"
    );
}

#[test]
fn every_violation_is_listed_and_repair_judges_the_count() {
    // 5x5, Black owns columns A-C, White D-E; White's second move in a row at move 3 (a pass
    // not recorded) and a play on Black's own stone at move 8 (a pass written as a play).
    let game = "(;SZ[5]RU[chinese]KM[0]RE[B+5];B[ca];W[da];W[db];B[cb];W[dc];B[cc];W[dd];B[cc];W[de];B[cd];W[];B[ce];W[];B[])";
    let paths = records("artifacts", &[("two.sgf", game)]);
    let (code, said) = judge(&[], &paths);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("move 3 (W D4) record artifact (missing-pass"),
        "{said}"
    );
    assert!(
        said.contains("move 8 (B C3) record artifact (own-stone"),
        "{said}"
    );
    assert!(said.contains("--repair judges the count"), "{said}");
    assert_eq!(said.matches("record artifact (").count(), 2, "{said}");
    let (code, said) = judge(&["--repair"], &paths);
    assert_eq!(code, Some(1), "{said}");
    assert!(
        said.contains("RE B+5, counted B+5 (no stone marked dead): agrees"),
        "{said}"
    );
    assert!(said.contains("note: judged with --repair"), "{said}");
}

#[test]
fn the_exit_status_never_hides_a_rule_broken() {
    let paths = records(
        "exit",
        &[
            ("legal.sgf", "(;SZ[9]RU[aga]KM[7.5];B[cc];W[dd])"),
            ("illegal.sgf", "(;SZ[9]RU[aga]KM[7.5];B[cc];W[cc])"),
            ("no-ru.sgf", "(;SZ[9]KM[7.5];B[cc];W[dd])"),
            ("refused.sgf", "(;SZ[9]RU[aga]AB[aa]AW[ab][ba];B[cc])"),
        ],
    );
    let (legal, illegal, no_ru, refused) = (&paths[0], &paths[1], &paths[2], &paths[3]);
    for (files, code) in [
        (vec![legal.clone()], 0),
        (vec![illegal.clone()], 1),
        (vec![no_ru.clone()], 2),
        (vec![refused.clone()], 2),
        (vec![legal.clone(), illegal.clone(), no_ru.clone()], 3),
        (vec![illegal.clone(), refused.clone()], 3),
    ] {
        let (got, said) = judge(&[], &files);
        assert_eq!(got, Some(code), "{files:?}: {said}");
    }
}

/// A 5x5 game that ends with two passes: Black owns columns A-C (15 points), White D-E (10).
fn finished(km: &str, re: &str) -> String {
    format!(
        "(;SZ[5]RU[chinese]{km}RE[{re}];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[];W[])"
    )
}

#[test]
fn komi_and_results_as_real_records_spell_them() {
    let cases: Vec<(&str, String, &[&str], &str)> = vec![
        ("agrees.sgf", finished("KM[0]", "B+5"), &[], "RE B+5, counted B+5 (no stone marked dead): agrees"),
        (
            "km0-half.sgf",
            finished("KM[0]", "B+4.5"),
            &[],
            "komi likely not recorded",
        ),
        (
            "komi-given.sgf",
            finished("KM[0]", "B+4.5"),
            &["--komi", "0.5"],
            "RE B+4.5, counted B+4.5 (no stone marked dead): agrees",
        ),
        ("no-km.sgf", finished("", "B+5"), &[], "no KM: the komi is not recorded"),
        (
            "stones.sgf",
            finished("KM[0]", "B+1.25"),
            &[],
            "a margin of 1.25, not a whole or half number of points",
        ),
        ("zero.sgf", finished("KM[5]", "B+0"), &[], "RE 0, counted 0 (no stone marked dead): agrees"),
        (
            "unfinished.sgf",
            "(;SZ[5]RU[chinese]KM[0]RE[B+5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de])"
                .to_string(),
            &[],
            "play did not end on the board",
        ),
    ];
    for (name, body, args, wanted) in &cases {
        let paths = records(&format!("komi-{name}"), &[(name, body)]);
        let (code, said) = judge(&[&["-v"][..], args].concat(), &paths);
        assert_eq!(code, Some(0), "{name}: {said}");
        assert!(said.contains(wanted), "{name}: {said}");
    }
}

#[test]
fn consistent_is_never_given_where_the_other_winner_is_consistent_too() {
    // Any record whose count found a choice of dead stones for its result is checked against
    // the same record with the winner swapped (the corpus test does this for every counted
    // record); here a record where a lone black stone inside White's area decides the winner.
    let body = "(;SZ[5]RU[japanese]KM[0]RE[W+1];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[ea];W[];B[])";
    let swapped = body.replace("RE[W+1]", "RE[B+1]");
    let paths = records("either", &[("w.sgf", body), ("b.sgf", &swapped)]);
    let (_, w) = judge(&["-v"], &paths[..1]);
    let (_, b) = judge(&["-v"], &paths[1..]);
    let verdict = |said: &str| {
        said.lines()
            .find(|l| l.trim_start().starts_with("RE "))
            .map(|l| l.split(": ").nth(1).unwrap_or("").to_string())
            .unwrap()
    };
    let (vw, vb) = (verdict(&w), verdict(&b));
    assert!(vw != vb || vw.starts_with("not checkable"), "{w}\n{b}");
}

#[test]
fn score_and_judge_give_one_count_for_a_record() {
    // Play paused with Black's pass last: under bga the agreement has White pass last, which
    // hands Black one more pass stone. `score` left it out (B+4 against judge's B+5).
    let body = "(;SZ[5]RU[bga]KM[0]RE[B+5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[aa];W[];B[]TB[ba]TW[ea])";
    let paths = records("one-count", &[("bga.sgf", body)]);
    let (code, said) = judge(&["-v"], &paths);
    assert_eq!(code, Some(0), "{said}");
    assert!(said.contains("RE B+5, counted B+5: agrees"), "{said}");
    let path = paths[0].display().to_string();
    let out = goconform(&["score", &path]);
    let scored = text(&out);
    assert!(scored.contains("result: B+5"), "{scored}");
}

/// `goconform referee` writes White's extra pass (AGA Rule 11) at the end of a record where
/// play stopped with Black's pass; read back, it is the rules' own pass, not play resuming,
/// and the count agrees with the one the game without it gives.
#[test]
fn whites_extra_pass_written_at_the_end_is_no_resumption() {
    let with = "(;SZ[5]RU[bga]KM[0]RE[B+5];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];W[de];B[aa];W[];B[];W[]TB[ba]TW[ea])";
    let paths = records("extra-pass", &[("bga.sgf", with)]);
    let (code, said) = judge(&["-v"], &paths);
    assert_eq!(code, Some(0), "{said}");
    assert!(!said.contains("play resumed"), "{said}");
    assert!(said.contains("RE B+5, counted B+5: agrees"), "{said}");
    let path = paths[0].display().to_string();
    let scored = text(&goconform(&["score", &path]));
    assert!(scored.contains("result: B+5"), "{scored}");
}

#[test]
fn loadsgf_takes_the_rules_the_record_names() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let paths = records(
        "loadsgf-ru",
        &[
            ("japanese.sgf", "(;SZ[9]RU[Japanese]KM[6.5];B[cc];W[dd])"),
            (
                "lasker-maas.sgf",
                "(;SZ[9]RU[Lasker-Maas]KM[6.5];B[cc];W[dd])",
            ),
        ],
    );
    let script = format!(
        "loadsgf {}\nprintsgf\nloadsgf {}\nprintsgf\nplay b e5\nprintsgf\n",
        paths[0].display(),
        paths[1].display()
    );
    let root = root().display().to_string();
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--root", &root, "gtp", "--rules", "aga"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .split_terminator("\n\n")
        .map(str::to_string)
        .collect();
    assert_eq!(answers[0], "= black", "{answers:?}");
    // The game is the record's, under the rules and komi it gave: its RU and KM as written.
    assert!(
        answers[1].contains("RU[Japanese]") && answers[1].contains("KM[6.5]"),
        "{answers:?}"
    );
    assert!(
        answers[2].starts_with("? cannot load file: RU[Lasker-Maas]"),
        "{answers:?}"
    );
    // The refused record changed nothing: still the Japanese game.
    assert_eq!(answers[3], answers[1]);
    // Once play goes on, the session's own ruleset is written: ours for RU[Japanese].
    assert!(
        answers[5].contains("RU[japanese-1989]") && answers[5].matches("RU[").count() == 1,
        "{answers:?}"
    );
}

#[test]
fn a_record_written_back_is_the_game_with_every_move_and_root_property() {
    use std::io::Write;
    use std::process::{Command, Stdio};
    // Game information a server writes, a comment, a pass, and White's move 4 written right
    // after White's move 3 (a pass not recorded): `show --format sgf` keeps every root
    // property and every move, the refused one as played with the rule it breaks in its
    // comment, and the variation is left out.
    let body = "(;GM[1]FF[4]SZ[9]RU[AGA]KM[7.5]PB[Black Name]PW[White Name]DT[2024-05-01]\
                EV[Club cup]RO[3]PC[Somewhere]RE[W+R]GN[Final]\
                ;B[cc]C[a comment];W[gg];B[];W[cg];W[gc](;B[ee])(;B[dd]))";
    let paths = records("written-back", &[("game.sgf", body)]);
    let path = paths[0].display().to_string();
    let out = goconform(&["show", &path, "--format", "sgf"]);
    let written = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{}", text(&out));
    for property in [
        "RU[AGA]",
        "KM[7.5]",
        "PB[Black Name]",
        "PW[White Name]",
        "DT[2024-05-01]",
        "EV[Club cup]",
        "RO[3]",
        "PC[Somewhere]",
        "RE[W+R]",
        "GN[Final]",
        "C[a comment]",
        ";B[]",
        // (the crate escapes `:` in text, which SGF allows)
        ";W[gc]C[goconform\\: move 5 breaks a rule under aga\\: out-of-turn",
        ";B[ee]",
    ] {
        assert!(written.contains(property), "{property} lost:\n{written}");
    }
    assert!(
        !written.contains("B[dd]"),
        "the variation is left out:\n{written}"
    );
    // Read back, the record is the same game: the same six moves.
    let again = goconform::sgf::read(
        std::path::Path::new("written.sgf"),
        written.as_bytes(),
        &Default::default(),
    )
    .unwrap()
    .remove(0)
    .unwrap();
    assert_eq!(again.events.len(), 6);
    assert_eq!(again.black.as_deref(), Some("Black Name"));

    // GTP: printsgf after loadsgf keeps the record's game information.
    let script = format!("loadsgf {}\nprintsgf\n", paths[0].display());
    let root = root().display().to_string();
    let clean = records(
        "written-back-gtp",
        &[("game.sgf", &body.replace(";W[gc]", ";B[];W[gc]"))],
    );
    let script = script.replace(
        &paths[0].display().to_string(),
        &clean[0].display().to_string(),
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--root", &root, "gtp", "--rules", "aga"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(script.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let answers = String::from_utf8_lossy(&out.stdout).to_string();
    for property in [
        "PB[Black Name]",
        "PW[White Name]",
        "DT[2024-05-01]",
        "EV[Club cup]",
        "RO[3]",
        "PC[Somewhere]",
        "RE[W+R]",
        "GN[Final]",
        "RU[AGA]",
        "KM[7.5]",
    ] {
        assert!(answers.contains(property), "{property} lost:\n{answers}");
    }
    assert_eq!(answers.matches("RU[").count(), 1, "{answers}");
}
