//! `goconform standings`, `clock` and `handicap`, and the tournament scenarios in `check`, as a
//! user meets them: outputs, exit codes, and bad input refused with file, line, column and key.

use std::path::PathBuf;
use std::process::Output;

mod common;

use common::goconform;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Writes a file under this test binary's scratch folder and returns its path.
fn write(name: &str, contents: &str) -> String {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tournament_cli");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, contents).unwrap();
    path.to_str().unwrap().to_string()
}

/// Runs the command and insists on `code`; returns everything printed.
fn run(args: &[&str], code: i32) -> String {
    let out = goconform(args);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(code), "{args:?}:\n{t}");
    t
}

/// Six players, three rounds: A, B, C on 2 (C first on SOS, A over B on SODOS), D, E, F on 1.
const TOML_TABLE: &str = r#"
[[player]]
name = "A"
results = ["C+", "E+", "D-"]
[[player]]
name = "B"
results = ["D+", "F+", "C-"]
[[player]]
name = "C"
results = ["A-", "D+", "B+"]
[[player]]
name = "D"
results = ["B-", "C-", "A+"]
[[player]]
name = "E"
results = ["F+", "A-", "F-"]
[[player]]
name = "F"
results = ["E-", "B-", "E+"]
"#;

const CSV_TABLE: &str = "name,1,2,3
A,C+,E+,D-
B,D+,F+,C-
C,A-,D+,B+
D,B-,C-,A+
E,F+,A-,F-
F,E-,B-,E+
";

/// The standings rows (lines starting with a place number), without the header line.
fn rows(output: &str) -> Vec<String> {
    output
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .skip(1)
        .map(str::to_string)
        .collect()
}

#[test]
fn standings_show_every_tiebreak_value_in_toml_and_csv_alike() {
    let toml = write("six.toml", TOML_TABLE);
    let csv = write("six.csv", CSV_TABLE);
    let a = run(&["standings", &toml, "--seed", "5"], 0);
    let b = run(&["standings", &csv, "--seed", "5"], 0);
    assert!(a.contains("6 players, 3 rounds"), "{a}");
    assert!(a.contains("place  player"), "{a}");
    let first: Vec<&str> = a
        .lines()
        .find(|l| l.trim_start().starts_with("1  "))
        .unwrap()
        .split_whitespace()
        .collect();
    // place, player, score, sos, sodos, median, saco, cumulative, decided by
    // SACO within the group A, B, C: D is the only opponent all three met, and C beat D.
    assert_eq!(
        first,
        ["1", "C", "2", "5", "3", "-", "1", "3", "sos"],
        "{a}"
    );
    assert!(
        a.contains("note: a playoff between A and B may be considered"),
        "{a}"
    );
    assert!(a.contains("note: chance: E drawn among E, F"), "{a}");
    assert_eq!(rows(&a), rows(&b), "TOML and CSV give the same standings");
}

#[test]
fn prizes_of_tied_places_are_pooled() {
    let toml = write("prizes.toml", TOML_TABLE);
    let out = run(&["standings", &toml, "--prizes", "300,100,50,30,20,10"], 0);
    let shares: Vec<&str> = out
        .lines()
        .filter(|l| {
            l.trim_start()
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        })
        .skip(1)
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(
        shares,
        ["150.00", "150.00", "150.00", "20.00", "20.00", "20.00"],
        "{out}"
    );
}

#[test]
fn standings_refuse_the_median_under_five_rounds() {
    let toml = write("median.toml", TOML_TABLE);
    let out = run(&["standings", &toml, "--tiebreak", "sos,median"], 2);
    assert!(
        out.contains("needs at least five rounds; this event has 3"),
        "{out}"
    );
    let out = run(&["standings", &toml, "--tiebreak", "sos,bogus"], 2);
    assert!(out.contains("`bogus` is not a tiebreak"), "{out}");
}

#[test]
fn an_unknown_player_is_located() {
    let toml = write(
        "unknown.toml",
        "[[player]]\nname = \"A\"\nresults = [\"B+\"]\n[[player]]\nname = \"B\"\nresults = [\"Zed-\"]\n",
    );
    let out = run(&["standings", &toml], 2);
    assert!(
        out.contains("unknown.toml:6:12: key `player[1].results[0]`: unknown player `Zed`"),
        "{out}"
    );
    let csv = write("unknown.csv", "name,r1\nA,B+\nB,Zed-\n");
    let out = run(&["standings", &csv], 2);
    assert!(
        out.contains("unknown.csv:3:3: key `round r1`: unknown player `Zed`"),
        "{out}"
    );
}

#[test]
fn an_inconsistent_crosstable_is_located() {
    let csv = write("both-won.csv", "name,1\nA,B+\nB,A+\n");
    let out = run(&["standings", &csv], 2);
    assert!(
        out.contains(
            "both-won.csv:2:3: key `round 1`: `B`'s entry for round 1 should be `A-` but is `A+`"
        ),
        "{out}"
    );
    let csv = write("ragged.csv", "name,1,2\nA,B+\nB,A-,\n");
    let out = run(&["standings", &csv], 2);
    assert!(
        out.contains("ragged.csv:2:1: this row has 2 cells"),
        "{out}"
    );
}

const CLOCK: &str = r#"control = { main = "1:00", overtime = "byo-yomi", periods = 3, period = 10 }
events = [
  "0 begin",
  "0:35 play B",
  "0:36 play W",
  "1:00 look",
]
"#;

#[test]
fn clock_replays_events_and_prints_both_clocks() {
    let file = write("byo.toml", CLOCK);
    let out = run(&["clock", &file], 0);
    assert!(
        out.contains(
            "not acceptable for rated games (VI.E.1): basic time 1:00 with overtime is under 30:00"
        ),
        "{out}"
    );
    let lines: Vec<&str> = out.lines().collect();
    assert!(lines[1].contains("1. begin"), "{out}");
    assert!(
        lines[2].contains(
            "B byo-yomi 3 period(s), 0:00 used; W 0:30 main before byo-yomi; white's clock runs"
        ),
        "{out}"
    );
    // 24 seconds with three periods of 10: two periods gone, 4 seconds into the last.
    assert!(
        lines[4].contains(
            "B byo-yomi 1 period(s), 0:04 used; W 0:29 main before byo-yomi; black's clock runs"
        ),
        "{out}"
    );
    assert!(!out.contains("loses on time"), "{out}");
}

#[test]
fn clock_files_refuse_negative_times_and_impossible_orders() {
    let file = write(
        "negative.toml",
        "control = { main = -5 }\nevents = [\"0 begin\", \"-0:05 play B\"]\n",
    );
    let out = run(&["clock", &file], 2);
    assert!(
        out.contains("negative.toml:1:20: key `control.main`: negative time -5"),
        "{out}"
    );
    assert!(
        out.contains("negative.toml:2:22: key `events[1]`: negative time `-0:05`"),
        "{out}"
    );
    let file = write(
        "order.toml",
        "control = { main = \"10:00\" }\nevents = [\n  \"0 begin\",\n  \"1:00 play B\",\n  \"0:30 play W\",\n]\n",
    );
    let out = run(&["clock", &file], 2);
    assert!(
        out.contains("order.toml:5:3: key `events[2]`: `play W`: this event is at 0:30, before the previous one at 1:00"),
        "{out}"
    );
    let file = write(
        "turn.toml",
        "control = { main = \"10:00\" }\nevents = [\"0 begin\", \"0:10 play W\"]\n",
    );
    let out = run(&["clock", &file], 2);
    assert!(
        out.contains("key `events[1]`: `play W`: white's clock is not running"),
        "{out}"
    );
}

#[test]
fn handicap_by_rank_and_by_band_with_the_komi_of_each_text() {
    let out = run(&["handicap", "1d", "3k"], 0);
    assert!(
        out.contains("1d v 3k: 3k takes Black with 3 stone(s)"),
        "{out}"
    );
    assert!(
        out.contains("komi under aga-tournament-1988  0; a tie goes to white"),
        "{out}"
    );
    assert!(
        out.contains("komi under aga                  0.5; no tie can occur"),
        "{out}"
    );
    let out = run(&["handicap", "5k", "5k"], 0);
    assert!(out.contains("even game"), "{out}");
    assert!(
        out.contains("komi under aga-tournament-1988  5; a tie goes to white"),
        "{out}"
    );
    assert!(
        out.contains("komi under london-open          7.5; no tie can occur"),
        "{out}"
    );
    let out = run(&["handicap", "20k", "3d"], 0);
    assert!(
        out.contains("with 9 stone(s) (difference 22, capped at nine"),
        "{out}"
    );
    let out = run(
        &["handicap", "6d", "4d", "--system", "mcmahon", "--bar", "3d"],
        0,
    );
    assert!(out.contains("even game (McMahon bands equal)"), "{out}");
    let out = run(&["handicap", "6d", "4d", "--system", "mcmahon"], 2);
    assert!(out.contains("needs --bar"), "{out}");
    let out = run(&["handicap", "0k", "4d"], 2);
    assert!(out.contains("`0k` is not a rank"), "{out}");
}

#[test]
fn check_runs_tournament_scenarios_and_counts_them() {
    let out = run(&["check", "conformance/tiebreak", "conformance/clock"], 0);
    assert!(out.contains("tournament rules"), "{out}");
    let wrong =
        std::fs::read_to_string(common::root().join("conformance/tournament/nigiri-parity.toml"))
            .unwrap()
            .replace(
                "handful = 7\nshown = 1\nblack = \"guesser\"",
                "handful = 7\nshown = 1\nblack = \"holder\"",
            );
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tournament_cli_suite");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("nigiri-parity.toml");
    std::fs::write(&path, wrong).unwrap();
    let out = run(&["check", path.to_str().unwrap()], 1);
    assert!(
        out.contains("case `seven stones, odd called`, line 17, key `black`: expected holder, actual guesser"),
        "{out}"
    );
    assert!(out.contains("1 failed"), "{out}");
    let out = run(&["check", path.to_str().unwrap(), "--format", "jsonl"], 1);
    assert!(
        out.contains("goconform: tournament scenario nigiri-parity"),
        "{out}"
    );
    // Tournament scenarios have no runs, so a ruleset filter leaves them out; a selection
    // of nothing is an error that says so.
    let out = run(&["check", "conformance/tiebreak", "--rules", "aga"], 2);
    assert!(
        out.contains("tournament scenarios have no runs, so --rules leaves them out"),
        "{out}"
    );
}

#[test]
fn show_lists_a_tournament_scenarios_cases_with_what_the_reference_computes() {
    let out = run(&["show", "conformance/clock/byo-yomi.toml"], 0);
    assert!(out.contains("byo-yomi: Japanese byo-yomi"), "{out}");
    assert!(
        out.contains("case `a long move costs several periods`"),
        "{out}"
    );
    assert!(
        out.contains("after event 3: black.periods = 1 (expected 1)"),
        "{out}"
    );
    let out = run(&["show", "conformance/tournament/nigiri-parity.toml"], 0);
    assert!(out.contains("black = holder (expected holder)"), "{out}");
}

#[test]
fn a_broken_tournament_scenario_is_located() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tournament_cli_broken");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("broken.toml");
    std::fs::write(
        &path,
        "[scenario]\nid = \"broken\"\ntitle = \"t\"\nkind = \"nigiri\"\nclauses = [\"agatr-vi-a-4-c\"]\nchecked = \"x\"\n\n[[case]]\nname = \"n\"\nhandful = 3\nshown = 1\nblack = \"nobody\"\n",
    )
    .unwrap();
    let out = run(&["check", path.to_str().unwrap()], 2);
    assert!(
        out.contains(
            "broken.toml:12:9: key `case[0].black`: `nobody` is not one of: guesser, holder"
        ),
        "{out}"
    );
}

#[test]
fn a_name_longer_than_a_format_width_is_printed_whole() {
    // A format width stops at 65,535; a name past it once made `standings` panic.
    let long = "L".repeat(70_000);
    let toml = write(
        "long-name.toml",
        &TOML_TABLE
            .replace("name = \"A\"", &format!("name = \"{long}\""))
            .replace("\"A-\"", &format!("\"{long}-\""))
            .replace("\"A+\"", &format!("\"{long}+\"")),
    );
    let csv = write(
        "long-name.csv",
        &CSV_TABLE
            .replace("\nA,", &format!("\n{long},"))
            .replace("A-", &format!("{long}-"))
            .replace("A+", &format!("{long}+")),
    );
    for path in [toml, csv] {
        let out = run(&["standings", &path, "--seed", "5"], 0);
        assert!(out.contains(&long), "the long name is not printed");
        // Every row is padded to the longest name, so the score column starts at the same
        // place in all six.
        let rows = rows(&out);
        assert_eq!(rows.len(), 6, "{}", rows.len());
        let score_at = 5 + 2 + long.len() + 2;
        for r in &rows {
            assert!(r.len() > score_at + 5, "a short row");
            assert_eq!(&r[score_at - 2..score_at], "  ");
            assert_ne!(&r[score_at..score_at + 5], "     ");
        }
    }
}

#[test]
fn standings_and_clock_point_a_tournament_scenario_to_show_and_check() {
    for (command, file) in [
        ("standings", "conformance/tiebreak/cash-prizes-split.toml"),
        ("clock", "conformance/clock/byo-yomi.toml"),
    ] {
        let out = run(&[command, file], 2);
        assert!(out.contains("is a tournament scenario"), "{out}");
        assert!(out.contains(&format!("goconform show {file}")), "{out}");
    }
}

/// The crosstable of conformance/tiebreak/mcmahon-byes-forfeits.toml, with ranks only: the
/// bar, the floor and the bye's worth come from the command line here.
const MCMAHON_CSV: &str = "name,rank,1,2,3
Ann,3d,Bob+,Cid+!,Dan+
Bob,1d,Ann-,Dan+,bye
Cid,3k,Dan-,Ann-!,absent
Dan,10k,Cid+,Bob-,Ann-
";

#[test]
fn mcmahon_starting_scores_byes_and_forfeits_from_the_command_line() {
    let csv = write("mcmahon.csv", MCMAHON_CSV);
    let out = run(
        &[
            "standings",
            &csv,
            "--bar",
            "2d",
            "--floor",
            "5k",
            "--bye",
            "1",
            "--format",
            "json",
        ],
        0,
    );
    let doc: serde_json::Value = serde_json::from_str(&out).expect(&out);
    let rows = doc["standings"].as_array().unwrap();
    let get = |name: &str| rows.iter().find(|r| r["player"] == name).unwrap().clone();
    // Values derived by hand in the scenario's description.
    for (name, start, score, sos, cumulative) in [
        ("Ann", 6, 9, 10, 24),
        ("Bob", 5, 7, 10, 18),
        ("Cid", 2, 2, 10, 6),
        ("Dan", 0, 1, 18, 3),
    ] {
        let r = get(name);
        assert_eq!(r["start"], start, "{name}: {out}");
        assert_eq!(r["score"], score, "{name}: {out}");
        assert_eq!(r["sos"], sos, "{name}: {out}");
        assert_eq!(r["cumulative"], cumulative, "{name}: {out}");
    }
    assert_eq!(get("Cid")["withdrew_after"], 2);
    assert_eq!(get("Ann")["withdrew_after"], serde_json::Value::Null);
    assert_eq!(get("Ann")["place"], 1);
    assert_eq!(doc["bye"], 1);
    let notes = doc["notes"].to_string();
    assert!(notes.contains("Ann won by forfeit against Cid"), "{notes}");
    assert!(notes.contains("Cid withdrew after round 2"), "{notes}");

    // Without --bar and --bye the same games score as plain wins, and the text says so.
    let text = run(&["standings", &csv], 0);
    assert!(!text.contains("start"), "{text}");
    assert!(
        text.contains("note: 1 bye(s), each worth 0 point(s)"),
        "{text}"
    );
}

#[test]
fn results_report_lists_each_game_once_with_ranks_and_forfeits() {
    let csv = write("results.csv", MCMAHON_CSV);
    let out = run(&["standings", &csv, "--format", "results"], 0);
    let mut reader = csv::Reader::from_reader(out.as_bytes());
    let rows: Vec<Vec<String>> = reader
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect();
    // Five games (a bye and an absence are not games), each once, in round order.
    let expected = [
        ["1", "Ann", "3d", "Bob", "1d", "1-0", "no"],
        ["1", "Cid", "3k", "Dan", "10k", "0-1", "no"],
        ["2", "Ann", "3d", "Cid", "3k", "1-0", "yes"],
        ["2", "Bob", "1d", "Dan", "10k", "1-0", "no"],
        ["3", "Ann", "3d", "Dan", "10k", "1-0", "no"],
    ];
    assert_eq!(rows.len(), expected.len(), "{out}");
    for (row, want) in rows.iter().zip(expected) {
        assert_eq!(row, &want, "{out}");
    }
}

#[test]
fn mcmahon_and_bye_mistakes_are_refused_and_located() {
    // --bar needs every player's rank.
    let no_ranks = write("no-ranks.csv", "name,1\nA,B+\nB,A-\n");
    let out = run(&["standings", &no_ranks, "--bar", "2d"], 2);
    assert!(out.contains("gives none for A, B"), "{out}");
    let out = run(&["standings", &no_ranks, "--bye", "2"], 2);
    assert!(
        out.contains("--bye 2: a bye is worth 0, 0.5 or 1 point"),
        "{out}"
    );
    // In TOML: a player without a rank under `mcmahon`, `start` beside `mcmahon`, a bye worth
    // too much, and a forfeit entered on one side only.
    let toml = write(
        "mcmahon-mistakes.toml",
        r#"mcmahon = { bar = "2d" }
bye = 3
[[player]]
name = "A"
rank = "1d"
start = 2
results = ["B+!"]
[[player]]
name = "B"
results = ["A-"]
"#,
    );
    let out = run(&["standings", &toml], 2);
    assert!(
        out.contains(":2:7: key `bye`: a bye is worth 0, 0.5 or 1 point"),
        "{out}"
    );
    assert!(
        out.contains("key `player[0].start`: give either `mcmahon`"),
        "{out}"
    );
    assert!(
        out.contains("key `player[1].rank`: `mcmahon` draws starting scores"),
        "{out}"
    );
    let one_sided = write(
        "one-sided-forfeit.toml",
        "[[player]]\nname = \"A\"\nresults = [\"B+!\"]\n[[player]]\nname = \"B\"\nresults = [\"A-\"]\n",
    );
    let out = run(&["standings", &one_sided], 2);
    assert!(out.contains("should be `A-!` but is `A-`"), "{out}");
}

#[test]
fn a_refereed_game_runs_through_the_match_referee_and_its_mistakes_are_located() {
    // The scenario's London Open case, with the program's retry after its suicide removed: the
    // script runs out where the procedure asks Black to move again, which the referee treats
    // as an engine that stops answering (White wins by forfeit), not as a count.
    let good = std::fs::read_to_string(
        common::root().join("conformance/tournament/program-makes-an-illegal-move.toml"),
    )
    .unwrap();
    let wrong = good.replace(
        "black = [\"C3\", \"D4\", \"A1\", \"E5\", \"pass\"]",
        "black = [\"C3\", \"D4\", \"A1\"]",
    );
    assert_ne!(wrong, good);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("tournament_cli_refereed");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("program-makes-an-illegal-move.toml");
    std::fs::write(&path, &wrong).unwrap();
    let out = run(&["check", path.to_str().unwrap()], 1);
    assert!(
        out.contains("key `result`: expected W+7.5, actual W+F"),
        "{out}"
    );
    assert!(
        out.contains("key `ending`: expected counted, actual black's engine failed (script): the script has no more moves"),
        "{out}"
    );
    // A vertex off the board and an unknown policy, each located.
    let broken = good
        .replace("black = [\"C3\", \"C3\"]\nwhite = [\"D3\"]\nresult = \"W+F\"\nending = \"black made an illegal move (occupied)\"\nmoves = 2\n\n[[case]]\nname = \"a suicide", "black = [\"C3\", \"F9\"]\nwhite = [\"D3\"]\nresult = \"W+F\"\nending = \"black made an illegal move (occupied)\"\nmoves = 2\n\n[[case]]\nname = \"a suicide")
        .replacen("illegal_move = \"lose\"", "illegal_move = \"forfeit\"", 1);
    std::fs::write(&path, &broken).unwrap();
    let out = run(&["check", path.to_str().unwrap()], 2);
    assert!(
        out.contains("key `case[0].illegal_move`: `forfeit` is not one of: procedure, lose"),
        "{out}"
    );
    assert!(
        out.contains("key `case[0].black[1]`: `F9` is off the 5x5 board"),
        "{out}"
    );
}
