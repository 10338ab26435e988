//! SGF records as a user meets them: `goconform judge` over the fixtures in tests/fixtures/sgf
//! (one per edge of the reader: komi spellings, character sets, collections, FF[3] names,
//! passes written `tt`, handicaps, rectangular boards, broken files), and `score` and
//! `ruling` taking a record.
//!
//! The expectations were derived by hand from the rules; the ones that say more than "legal"
//! are explained where they are asserted.

use std::path::Path;
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

fn fixture(name: &str) -> String {
    root()
        .join("tests/fixtures/sgf")
        .join(name)
        .display()
        .to_string()
}

/// Runs `judge` with `args` and insists on the exit code; returns everything printed.
fn judge(args: &[&str], code: i32) -> String {
    let mut all = vec!["judge"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(code), "{t}");
    t
}

/// The JSON lines of `judge --format jsonl`, summary line last.
fn judge_jsonl(args: &[&str]) -> Vec<serde_json::Value> {
    let mut all = vec!["judge", "--format", "jsonl"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect()
}

fn row<'a>(rows: &'a [serde_json::Value], ruleset: &str) -> &'a serde_json::Value {
    rows.iter()
        .find(|r| r["ruleset"] == ruleset)
        .unwrap_or_else(|| panic!("no row for {ruleset} in {rows:?}"))
}

#[test]
fn the_natural_situational_retake_is_judged_per_ruleset() {
    // RULES-FACTS 6: after E1, a pass, the ko capture at C3 and two passes, play resumes and
    // White retakes at B3, recreating the position after Black's E1 with Black to move.
    // Natural situational superko (aga, bga, london-open) allows it: White never made that
    // position by a play. Situational superko (the 1991 text read literally) forbids it, as
    // does positional superko. Rules that end on two passes or settle disputes without
    // resuming play refuse the move itself.
    let rows = judge_jsonl(&["--all-rulesets", &fixture("nssk-retake.sgf")]);
    for legal in ["aga", "bga", "london-open"] {
        let r = row(&rows, legal);
        assert_eq!(r["check"], "not-checkable", "{r}");
        assert!(r["violation"].is_null(), "{legal}: {r}");
        assert_eq!(r["resumptions"], "6", "{legal}: {r}");
    }
    let text_run = row(&rows, "aga-1991-text");
    assert_eq!(text_run["violation_move"], 6);
    assert_eq!(text_run["violation"], "W B3");
    assert_eq!(text_run["reason"], "superko");
    assert_eq!(text_run["clauses"], "aga-1991-r6");
    assert_eq!(text_run["line"], 4);
    let tt = row(&rows, "tromp-taylor");
    assert_eq!(tt["reason"], "game-over", "{tt}");
    let cn = row(&rows, "chinese");
    assert_eq!(cn["reason"], "no-resumption", "{cn}");
    // Japanese 1989 resumes on request (Article 9(3)) under simple ko: the retake is legal.
    let jp = row(&rows, "japanese-1989");
    assert!(jp["violation"].is_null(), "{jp}");
    assert_eq!(jp["resumptions"], "6", "{jp}");
    // A move that breaks a rule under some ruleset makes the exit code 1.
    judge(&["--all-rulesets", &fixture("nssk-retake.sgf")], 1);
    judge(&[&fixture("nssk-retake.sgf")], 0);
}

#[test]
fn a_counted_result_is_compared_with_the_count_of_the_marked_dead_stones() {
    // 5x5: Black's wall on column B with column A behind it, White's on column C with columns
    // D and E; a black stone at E3 in White's area, marked dead by TW. Area counting (aga):
    // Black 5 stones + 5 points = 10, White 5 stones + 10 points + komi 0.5 = 15.5: W+5.5,
    // the recorded result. Territory counting without pass stones (japanese-1989): Black 5,
    // White 10 + 1 prisoner + 0.5 = 11.5: W+6.5. Tromp-Taylor removes nothing: E3 stays,
    // columns D and E border both colours and count for nobody: Black 6 + 5 = 11 against
    // White 5 + 0.5: B+5.5.
    let rows = judge_jsonl(&[
        "--rules",
        "aga,japanese-1989,tromp-taylor",
        &fixture("counted-5x5.sgf"),
    ]);
    let aga = row(&rows, "aga");
    assert_eq!(aga["count"], "W+5.5");
    assert_eq!(aga["check"], "agrees");
    let jp = row(&rows, "japanese-1989");
    assert_eq!(jp["count"], "W+6.5");
    assert_ne!(jp["check"], "agrees");
    let tt = row(&rows, "tromp-taylor");
    assert_eq!(tt["count"], "B+5.5");
    assert_eq!(tt["check"], "disagrees");
    let summary = &rows.last().unwrap()["summary"];
    assert_eq!(summary["rulesets"]["aga"]["agrees"], 1);
    assert_eq!(summary["moves"], 13);
}

#[test]
fn a_count_with_dead_stones_in_doubt_lists_the_groups_the_choices_and_the_plausible_one() {
    // counted-5x5 without its TB/TW marks: play ended with two passes and nothing says which
    // stones are dead. Three groups have fewer than two eyes: Black's wall on column B (one
    // eye, column A), White's wall on column C (none: columns D and E touch E3 too) and the
    // black stone E3 (none). Area counting (aga): nothing dead gives B+5.5 (Black 5 stones +
    // 5 points + E3 = 11, White 5 + komi 0.5); E3 dead gives W+5.5 (Black 10, White 5 + 10 +
    // 0.5), the recorded result; by hand no other of the 8 choices gives W+5.5 (killing either
    // wall hands its side's points to the other). Both winners are reachable, so the verdict is
    // not checkable, and the report says exactly why: the choice {3} gives the recorded result
    // and one choice (nothing dead) gives B+5.5. The plausible choice is E3 alone: it has no
    // eye, nothing of Black's with an eye is reachable from it without crossing White, and its
    // region (E3 and the ten points of columns D and E) is smaller than that of White's
    // eyeless wall (its five stones and those ten points); the wall, bordering a smaller
    // eyeless region, is not taken dead. Under japanese-1989 (territory, prisoners, no pass
    // stones) the same choice gives White 10 + 1 prisoner + 0.5 against Black's 5: W+6.5.
    let path = fixture("unmarked-5x5.sgf");
    let rows = judge_jsonl(&["--rules", "aga,japanese-1989", &path]);
    let aga = row(&rows, "aga");
    assert_eq!(aga["count"], "B+5.5");
    assert_eq!(aga["check"], "not-checkable");
    assert_eq!(aga["groups_in_doubt"], "B:B1:5 W:C1:5 B:E3:1");
    assert_eq!(aga["choices_giving_result"], "1 of 8");
    assert_eq!(aga["listed_choices"], "3");
    assert_eq!(aga["plausible_dead"], "3");
    assert_eq!(aga["plausible_result"], "W+5.5");
    let jp = row(&rows, "japanese-1989");
    assert_eq!(jp["plausible_dead"], "3");
    assert_eq!(jp["plausible_result"], "W+6.5");
    // The text report says the same in words.
    let t = judge(&["--rules", "aga", &path], 0);
    for line in [
        "groups in doubt (3): 1 B B1 (5 stones); 2 W C1 (5 stones); 3 B E3",
        "choices of dead groups giving W+5.5: 1 of 8 ({3}); giving the other winner the same margin: 1",
        "the plausible choice (eyeless groups the other colour encloses) {3} dead gives W+5.5",
    ] {
        assert!(t.contains(line), "{line}\n{t}");
    }
    // With the marks (counted-5x5) the players' agreement settles it: no doubt is reported.
    let marked = judge_jsonl(&["--rules", "aga", &fixture("counted-5x5.sgf")]);
    assert_eq!(
        row(&marked, "aga")["groups_in_doubt"],
        serde_json::Value::Null
    );
}

#[test]
fn four_passes_end_the_game_with_every_stone_alive_whatever_the_marks_say() {
    // counted-5x5 played on to four passes: under aga the third pass follows a dispute and
    // the fourth ends the game with every stone alive (AGA Rule 10), so E3 stays: Black 6
    // stones + 5 points = 11 against White 5 + komi 0.5, B+5.5, the recorded result. Rules
    // that settle disputes without resuming play, or end on two passes, refuse the third pass.
    let rows = judge_jsonl(&[
        "--rules",
        "aga,chinese,tromp-taylor",
        &fixture("four-passes.sgf"),
    ]);
    let aga = row(&rows, "aga");
    assert_eq!(aga["count"], "B+5.5", "{aga}");
    assert_eq!(aga["check"], "agrees", "{aga}");
    assert_eq!(aga["resumptions"], "14", "{aga}");
    assert_eq!(row(&rows, "chinese")["reason"], "no-resumption");
    assert_eq!(row(&rows, "tromp-taylor")["reason"], "game-over");
}

#[test]
fn illegal_moves_name_the_move_the_reason_the_clause_and_where_it_is_written() {
    let out = judge(&["--rules", "aga,new-zealand", &fixture("suicide.sgf")], 1);
    // Move 7, B A2, takes the last liberty of its own two stones: suicide under AGA Rule 5,
    // allowed under the New Zealand rules.
    assert!(
        out.contains(
            "suicide.sgf:1:62: [aga] move 7 (B A2) breaks a rule: suicide (aga-1991-r5-suicide)"
        ),
        "{out}"
    );
    assert!(out.contains("[new-zealand] 7 moves, all legal"), "{out}");
    // The second game of a collection: White retakes the ko at once.
    let out = judge(&[&fixture("collection.sgf")], 1);
    assert!(
        out.contains(
            "collection.sgf:3:53: [aga] game 2, move 4 (W B3) breaks a rule: ko (aga-1991-r6-ko)"
        ),
        "{out}"
    );
    assert!(out.contains("1 files, 2 games: 2 judged"), "{out}");
}

#[test]
fn what_real_records_write_is_read() {
    // Fox's hundredths: 750 is 7.5 points; under Chinese rules 375 is 3.75 stones, 7.5 points.
    let out = judge(&["-v", &fixture("fox-komi.sgf")], 0);
    assert!(out.contains("KM read as hundredths: komi 7.5"), "{out}");
    assert!(
        out.contains("KM read as hundredths of stones: komi 7.5"),
        "{out}"
    );
    // `--komi-units points` reads FF[4]'s plain points.
    let out = judge(
        &["-v", "--komi-units", "points", &fixture("fox-komi.sgf")],
        0,
    );
    assert!(!out.contains("KM read as"), "{out}");
    // A handicap written as black moves before White's first is placed, not played twice.
    let out = judge(&["-v", &fixture("handicap-as-moves.sgf")], 0);
    assert!(out.contains("2 moves, all legal"), "{out}");
    assert!(
        out.contains("the 2 black moves before White's first are read as the handicap"),
        "{out}"
    );
    for (file, moves) in [
        ("handicap.sgf", 2),
        ("ff3.sgf", 2),
        ("rectangular.sgf", 2),
        ("tt-pass.sgf", 4),
        ("gb2312.sgf", 1),
    ] {
        let out = judge(&[&fixture(file)], 0);
        assert!(
            out.contains(&format!("{moves} moves, all legal")),
            "{file}: {out}"
        );
    }
}

#[test]
fn broken_records_are_one_located_error_each_and_the_run_goes_on() {
    let out = judge(
        &[
            &fixture("bad-komi.sgf"),
            &fixture("unclosed.sgf"),
            &fixture("off-board.sgf"),
            &fixture("unspecified-rules.sgf"),
            &fixture("handicap.sgf"),
        ],
        2,
    );
    assert!(
        out.contains("bad-komi.sgf:2:11: key `KM`: `seven` is not a number of points"),
        "{out}"
    );
    assert!(
        out.contains("unclosed.sgf:2:9: a property value is not closed with `]`"),
        "{out}"
    );
    assert!(
        out.contains("off-board.sgf:1:32: key `W`: point `kk` is off the 9x9 board"),
        "{out}"
    );
    assert!(
        out.contains("RU[Lasker-Maas] names rules this project does not specify"),
        "{out}"
    );
    assert!(
        out.contains("5 files, 5 games: 1 judged, 3 unreadable, 1 with no ruleset"),
        "{out}"
    );
    // --fallback-rules judges what names no ruleset of ours.
    let out = judge(
        &["--fallback-rules", "aga", &fixture("unspecified-rules.sgf")],
        0,
    );
    assert!(out.contains("[aga] 1 moves, all legal"), "{out}");
    // CSV: a row per record and ruleset, the unreadable ones included.
    let out = goconform(&[
        "judge",
        "--format",
        "csv",
        &fixture("bad-komi.sgf"),
        &fixture("suicide.sgf"),
    ]);
    let csv = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("file,game,ruleset,moves,violation_move"),
        "{csv}"
    );
    assert!(
        lines[1].contains(",unreadable,KM: `seven` is not a number of points"),
        "{csv}"
    );
    assert!(lines[2].contains(",aga,7,7,B A2,suicide,"), "{csv}");
}

#[test]
fn character_sets_are_decoded() {
    let path = root().join("tests/fixtures/sgf/gb2312.sgf");
    let games = goconform::sgf::read_file(&path, &Default::default()).unwrap();
    let record = games.into_iter().next().unwrap().unwrap();
    assert_eq!(record.black.as_deref(), Some("\u{67ef}\u{6d01}"));
    assert_eq!(record.white.as_deref(), Some("\u{53e4}\u{529b}"));
    assert_eq!(record.charset, "GBK");
}

#[test]
fn score_takes_a_record_and_its_marked_dead_stones() {
    let out = goconform(&["score", &fixture("counted-5x5.sgf")]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(
        t.contains("dead stones from the record's TB/TW marks: E3"),
        "{t}"
    );
    assert!(t.contains("W+5.5"), "{t}");
    let out = goconform(&[
        "score",
        &fixture("counted-5x5.sgf"),
        "--rules",
        "japanese-1989",
    ]);
    assert!(text(&out).contains("W+6.5"), "{}", text(&out));
    let out = goconform(&["score", &fixture("unspecified-rules.sgf")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("choose rulesets with --rules"));
}

/// One count: `score` counts a record on the board `judge` counts, with and without
/// `--repair`, where the record has moves the rules refuse. Under bga a pass hands the other
/// player a stone, so the repair (a white pass inserted before Black's second move in a row)
/// gives Black one more point than the move played as written: the two boards differ, and each
/// command gives each the same count.
#[test]
fn score_counts_a_record_with_refused_moves_on_the_board_judge_counts() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("missing-pass.sgf");
    std::fs::write(
        &missing,
        "(;SZ[5]RU[bga]KM[0]RE[B+6];B[ca];W[da];B[cb];W[db];B[cc];W[dc];B[cd];W[dd];B[ce];B[aa];W[de];W[];B[])",
    )
    .unwrap();
    let missing = missing.display().to_string();
    let refused = fixture("refused-moves.sgf");
    let mut counts = Vec::new();
    for (path, repair) in [
        (&missing, false),
        (&missing, true),
        (&refused, false),
        (&refused, true),
    ] {
        let mut args = vec![path.as_str()];
        if repair {
            args.push("--repair");
        }
        let rows = judge_jsonl(&args);
        let judged = rows[0]["count"].as_str().unwrap_or("none").to_string();
        let mut all = vec!["score"];
        all.extend_from_slice(&args);
        let out = goconform(&all);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(0), "{t}");
        assert!(
            t.contains(&format!("result: {judged}\n")),
            "judge {judged}: {t}"
        );
        let board = if repair {
            "note: counted on the board with the record's artifacts repaired"
        } else {
            "note: counted on the board the record's moves make as written"
        };
        assert!(t.contains(board), "{t}");
        counts.push(judged);
    }
    let t = text(&goconform(&["score", &missing]));
    assert!(
        t.contains("note: move 10 (B A5) refused: out-of-turn (record artifact: missing-pass); played as written"),
        "{t}"
    );
    let t = text(&goconform(&["score", &refused]));
    assert!(
        t.contains("note: move 7 (B A2) refused: suicide; left off the board")
            && t.contains("note: move 9 (B E5) refused: occupied (record artifact: own-stone); left off the board"),
        "{t}"
    );
    // The repair moves one pass stone to Black.
    assert_ne!(counts[0], counts[1], "{counts:?}");
    // --repair is for records only.
    let out = goconform(&["score", "conformance/ko/basic-ko.toml", "--repair"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("--repair is for SGF records"),
        "{}",
        text(&out)
    );
}

#[test]
fn ruling_takes_a_record_and_where_the_violation_was_noticed() {
    // The suicide at move 7, pointed out at once: under the BGA reading and AGA Rule 8 the
    // position goes back and Black passes (a pass stone to White; a warning under AGA); the
    // London Open rules (EGF rule 4) let Black play again.
    let out = goconform(&[
        "ruling",
        &fixture("suicide.sgf"),
        "--notice-after",
        "7",
        "--rules",
        "bga",
        "--rules",
        "london-open",
    ]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(0), "{t}");
    assert!(t.contains("7. B A2!"), "{t}");
    assert!(t.contains("RULING: unwind-pass"), "{t}");
    assert!(t.contains("RULING: unwind-replay"), "{t}");
    // Without a notice the violation is listed as standing.
    let out = goconform(&["ruling", &fixture("suicide.sgf"), "--rules", "bga"]);
    assert!(
        text(&out).contains("still standing, unnoticed"),
        "{}",
        text(&out)
    );
    let out = goconform(&["ruling", &fixture("suicide.sgf"), "--notice-after", "9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("the record has moves 1 to 7"));
}

#[test]
fn the_fixtures_are_all_exercised() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/sgf");
    let here = std::fs::read_to_string(file!()).unwrap();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().to_string();
        assert!(
            here.contains(&format!("\"{name}\"")),
            "{name} is used by no test"
        );
    }
}

#[test]
fn list_options_take_commas_or_repeats_alike() {
    let file = fixture("nssk-retake.sgf");
    let commas = goconform(&["ruling", &file, "--rules", "bga,london-open"]);
    let repeats = goconform(&["ruling", &file, "--rules", "bga", "--rules", "london-open"]);
    assert_eq!(commas.status.code(), Some(0), "{}", text(&commas));
    assert_eq!(text(&commas), text(&repeats));
    let said = text(&commas);
    assert!(said.contains("== under bga"), "{said}");
    assert!(said.contains("== under london-open"), "{said}");
    assert!(!said.contains("== under aga "), "{said}");
}

/// The limits README.md's game-records section gives in words are the code's.
#[test]
fn the_readme_states_the_judges_limits_as_the_code_has_them() {
    use goconform::sgf::judge::{LISTED_CHOICES, MAX_SEARCHED_GROUPS};
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let word = |n: usize| {
        [
            "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve",
        ][n]
    };
    for said in [
        format!("more than {} such groups", word(MAX_SEARCHED_GROUPS)),
        format!("counted up to {} groups", word(MAX_SEARCHED_GROUPS)),
        format!("the first {} of them", word(LISTED_CHOICES)),
    ] {
        assert!(readme.contains(&said), "README.md no longer says `{said}`");
    }
}
