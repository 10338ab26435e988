//! `goconform score` as a user meets it: exact counts of a scenario and of a diagram, under one
//! ruleset and under all of them, and bad input refused with exit code 2.

use std::path::PathBuf;
use std::process::Output;

mod common;

use common::{goconform, root};

/// How many rulesets the specification names: one row of `--all-rulesets` each.
fn rulesets() -> usize {
    std::fs::read_dir(root().join("spec/rulesets"))
        .expect("spec/rulesets")
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "toml"))
        })
        .count()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `score` and insists on success.
fn score(args: &[&str]) -> String {
    let mut all = vec!["score"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    stdout(&out)
}

/// Runs `score` and insists on exit code 2; returns everything printed.
fn score_fails(args: &[&str]) -> String {
    let mut all = vec!["score"];
    all.extend_from_slice(args);
    let out = goconform(&all);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    t
}

const SEKI: &str = "conformance/counting/seki-with-eyes.toml";

fn seki() -> String {
    root().join(SEKI).to_str().unwrap().to_string()
}

/// The two numbers of a breakdown row (`territory`, `total`, ...), Black first.
fn breakdown(report: &str, name: &str) -> [String; 2] {
    let line = report
        .lines()
        .find(|l| {
            l.strip_prefix(name)
                .is_some_and(|rest| rest.starts_with("  "))
        })
        .unwrap_or_else(|| panic!("no row `{name}` in:\n{report}"));
    let cells: Vec<&str> = line[name.len()..].split_whitespace().collect();
    [cells[0].to_string(), cells[1].to_string()]
}

fn result_line(report: &str) -> String {
    report
        .lines()
        .find_map(|l| l.strip_prefix("result: "))
        .unwrap_or_else(|| panic!("no result in:\n{report}"))
        .to_string()
}

/// The cells of a ruleset's row in the `--all-rulesets` table: counting, seki eyes, komi,
/// B total, W total, result.
fn table_row(report: &str, ruleset: &str) -> Vec<String> {
    let line = report
        .lines()
        .find(|l| l.split_whitespace().next() == Some(ruleset))
        .unwrap_or_else(|| panic!("no row for {ruleset} in:\n{report}"));
    line.split_whitespace().skip(1).map(String::from).collect()
}

/// A scratch folder of its own, removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("goconform-score-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn file(&self, name: &str, body: &str) -> String {
        let path = self.0.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        std::fs::write(&path, body).unwrap();
        path.to_str().unwrap().to_string()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A 5x5 position counted by hand. Black: the B column (5) and a stone at E2 inside White's
/// side; White: the C column (5), D3 and E3. The A column (5 points) is Black's; D4 E4 D5 E5
/// (4) are White's; D2 D1 E1 touch the black E2 stone, so they are nobody's while it stands.
const SMALL: &str = "
. X O . .
. X O . .
. X O O O
. X O . X
. X O . .
";

#[test]
fn the_seki_scenario_under_its_first_run_is_itemised() {
    let report = score(&[&seki()]);
    assert!(report.contains("replayed under aga"), "{report}");
    assert!(report.contains("area counting"), "{report}");
    assert_eq!(breakdown(&report, "territory"), ["9", "7"]);
    assert_eq!(breakdown(&report, "stones on the board"), ["27", "33"]);
    assert_eq!(breakdown(&report, "komi"), ["0", "0.5"]);
    assert_eq!(breakdown(&report, "total"), ["36", "40.5"]);
    assert_eq!(result_line(&report), "W+4.5");
}

#[test]
fn the_seki_scenario_under_territory_and_japanese_counting() {
    let bga = score(&[&seki(), "--rules", "bga"]);
    assert!(bga.contains("territory counting"), "{bga}");
    assert_eq!(breakdown(&bga, "territory"), ["9", "7"]);
    // One pass stone each from the two passes: the margin does not move.
    assert_eq!(breakdown(&bga, "pass stones"), ["1", "1"]);
    assert_eq!(breakdown(&bga, "total"), ["10", "8.5"]);
    assert_eq!(result_line(&bga), "B+1.5");

    let japanese = score(&[&seki(), "--rules", "japanese-1989"]);
    assert!(japanese.contains("seki eyes: neutral"), "{japanese}");
    assert_eq!(breakdown(&japanese, "territory"), ["0", "0"]);
    assert_eq!(breakdown(&japanese, "total"), ["0", "0.5"]);
    assert_eq!(result_line(&japanese), "W+0.5");
}

#[test]
fn a_ruleset_the_scenario_does_not_run_gets_the_scenarios_komi() {
    // logical-rules is not one of the scenario's runs; its own komi is 0, the scenario's 0.5.
    let report = score(&[&seki(), "--rules", "logical-rules"]);
    assert!(report.contains("komi 0.5 from the scenario"), "{report}");
    assert_eq!(breakdown(&report, "total"), ["36", "40.5"]);
    assert_eq!(result_line(&report), "W+4.5");
    assert!(
        report.contains("note: event 3 (agree) refused: game-over"),
        "{report}"
    );
    assert!(report.contains("nothing is removed as dead"), "{report}");
}

#[test]
fn the_seki_scenario_under_every_ruleset_parts_by_counting() {
    let report = score(&[&seki(), "--all-rulesets"]);
    let expected: &[(&str, [&str; 6])] = &[
        ("aga", ["area", "count", "0.5", "36", "40.5", "W+4.5"]),
        ("chinese", ["area", "count", "0.5", "36", "40.5", "W+4.5"]),
        ("french", ["area", "count", "0.5", "36", "40.5", "W+4.5"]),
        (
            "tromp-taylor",
            ["area", "count", "0.5", "36", "40.5", "W+4.5"],
        ),
        ("bga", ["territory", "count", "0.5", "10", "8.5", "B+1.5"]),
        (
            "london-open",
            ["territory", "count", "0.5", "10", "8.5", "B+1.5"],
        ),
        (
            "egf-option-2",
            ["territory", "count", "0.5", "10", "8.5", "B+1.5"],
        ),
        (
            "japanese-1989",
            ["territory", "neutral", "0.5", "0", "0.5", "W+0.5"],
        ),
    ];
    for (ruleset, cells) in expected {
        assert_eq!(table_row(&report, ruleset), cells.to_vec(), "{ruleset}");
    }
    let rows = report
        .lines()
        .skip_while(|l| !l.starts_with("---"))
        .skip(1)
        .take_while(|l| !l.is_empty())
        .count();
    assert_eq!(rows, rulesets(), "one row per ruleset:\n{report}");
    assert!(
        report.contains("where they part: Black wins under bga, egf-option-2, london-open"),
        "{report}"
    );
    assert!(
        report.contains("tromp-taylor: event 3 (agree) refused: game-over"),
        "{report}"
    );
}

#[test]
fn dead_stones_removed_under_an_agreement_stay_under_tromp_taylor() {
    // White's B2 is agreed dead in the scenario; two passes end a tromp-taylor game first.
    let file = root().join("conformance/ending/agreement-black-passed-last.toml");
    let file = file.to_str().unwrap();
    let report = score(&[file, "--all-rulesets"]);
    // aga: Black C3 D4 and the whole 5x5 board but those two points, komi 7.5.
    assert_eq!(
        table_row(&report, "aga"),
        ["area", "count", "7.5", "25", "7.5", "B+17.5"]
    );
    // tromp-taylor: B2 stands, so every empty point touches both colours.
    assert_eq!(
        table_row(&report, "tromp-taylor"),
        ["area", "count", "7.5", "2", "8.5", "W+6.5"]
    );
    assert!(
        report.contains("tromp-taylor: event 8 (agree B2) refused: game-over (two passes ended the game); B2 stay on the board"),
        "{report}"
    );
    assert!(report.contains("White wins under tromp-taylor"), "{report}");
}

#[test]
fn a_diagram_is_counted_by_hand() {
    let scratch = Scratch::new("diagram");
    let file = scratch.file("small.txt", SMALL);
    // aga, area, komi 7.5: Black 6 stones + 5; White 7 stones + 4 + 7.5.
    let report = score(&[&file]);
    assert!(report.contains("5x5 diagram"), "{report}");
    assert_eq!(breakdown(&report, "territory"), ["5", "4"]);
    assert_eq!(breakdown(&report, "stones on the board"), ["6", "7"]);
    assert_eq!(breakdown(&report, "total"), ["11", "18.5"]);
    assert_eq!(result_line(&report), "W+7.5");

    // E2 dead: its point and D2 D1 E1 become White's. Black 5 + 5; White 7 + 8 + 7.5.
    let dead = score(&[&file, "--dead", "E2"]);
    assert!(dead.contains("counted dead (x, o): E2"), "{dead}");
    assert!(dead.contains(" 2 . X O . x"), "{dead}");
    assert_eq!(breakdown(&dead, "total"), ["10", "22.5"]);
    assert_eq!(result_line(&dead), "W+12.5");

    // Territory: Black 5 + 2 prisoners; White 8 + 1 prisoner + 1 dead + 0.5.
    let terr = score(&[
        &file,
        "--rules",
        "bga",
        "--dead",
        "E2",
        "--prisoners",
        "B=2,W=1",
        "--komi",
        "0.5",
    ]);
    assert_eq!(breakdown(&terr, "captures"), ["2", "1"]);
    assert_eq!(breakdown(&terr, "dead stones"), ["0", "1"]);
    assert_eq!(breakdown(&terr, "total"), ["7", "10.5"]);
    assert_eq!(result_line(&terr), "W+3.5");
}

#[test]
fn handicap_komi_and_compensation_apply_to_a_diagram() {
    let scratch = Scratch::new("handicap");
    let file = scratch.file("small.txt", SMALL);
    // aga: handicap komi 0.5 and n-1 = 3 points of compensation. White 15 + 0.5 + 3.
    let aga = score(&[&file, "--dead", "E2", "--handicap", "4"]);
    assert_eq!(breakdown(&aga, "komi"), ["0", "0.5"]);
    assert_eq!(breakdown(&aga, "handicap compensation"), ["0", "3"]);
    assert_eq!(result_line(&aga), "W+8.5");
    // chinese: handicap komi 0 and n = 4 points. White 15 + 4.
    let chinese = score(&[
        &file,
        "--dead",
        "E2",
        "--handicap",
        "4",
        "--rules",
        "chinese",
    ]);
    assert_eq!(breakdown(&chinese, "total"), ["10", "19"]);
    assert_eq!(result_line(&chinese), "W+9");
}

#[test]
fn two_passes_rulesets_remove_nothing_as_dead() {
    let scratch = Scratch::new("two-passes");
    let file = scratch.file("small.txt", SMALL);
    let report = score(&[&file, "--rules", "tromp-taylor", "--dead", "E2"]);
    assert!(report.contains("(--dead is ignored)"), "{report}");
    assert!(!report.contains("counted dead"), "{report}");
    assert_eq!(breakdown(&report, "total"), ["11", "18.5"]);
    assert_eq!(result_line(&report), "W+7.5");

    let all = score(&[
        &file,
        "--all-rulesets",
        "--dead",
        "E2",
        "--prisoners",
        "B=2,W=1",
        "--komi",
        "0.5",
    ]);
    assert_eq!(
        table_row(&all, "aga"),
        ["area", "count", "0.5", "10", "15.5", "W+5.5"]
    );
    assert_eq!(
        table_row(&all, "japanese-1989"),
        ["territory", "neutral", "0.5", "7", "10.5", "W+3.5"]
    );
    assert_eq!(
        table_row(&all, "tromp-taylor"),
        ["area", "count", "0.5", "11", "11.5", "W+0.5"]
    );
    assert!(
        all.contains("where they part: White wins under every ruleset, by different margins."),
        "{all}"
    );
}

#[test]
fn json_carries_the_same_numbers() {
    let out = score(&[&seki(), "--rules", "bga", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out).expect("valid JSON");
    let s = &v["scores"][0];
    assert_eq!(s["ruleset"], "bga");
    assert_eq!(s["counting"], "territory");
    assert_eq!(s["black"]["total"], 10.0);
    assert_eq!(s["white"]["total"], 8.5);
    assert_eq!(s["white"]["pass_stones"], 1);
    assert_eq!(s["result"], "B+1.5");
    assert_eq!(s["winner"], "B");
    assert_eq!(v["source"]["id"], "seki-with-eyes");

    let all = score(&[&seki(), "--all-rulesets", "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&all).expect("valid JSON");
    let scores = v["scores"].as_array().unwrap();
    assert_eq!(scores.len(), rulesets());
    let tt = scores
        .iter()
        .find(|s| s["ruleset"] == "tromp-taylor")
        .unwrap();
    assert_eq!(tt["refused"][0]["event"], 3);
    assert_eq!(tt["refused"][0]["reason"], "game-over");
}

#[test]
fn a_missing_file_is_bad_input() {
    let t = score_fails(&["/nonexistent/goconform-score/position.txt"]);
    assert!(
        t.contains("cannot read /nonexistent/goconform-score/position.txt"),
        "{t}"
    );
}

#[test]
fn a_broken_diagram_names_its_line_and_column() {
    let scratch = Scratch::new("broken");
    let file = scratch.file("bad.txt", ". X O\n. # O\n. X O\n");
    let t = score_fails(&[&file]);
    assert!(
        t.contains(&format!("{file}:2:3: `#` is not a point")),
        "{t}"
    );
    let short = scratch.file("short.txt", "\n. X O\n. X\n. X O\n");
    let t = score_fails(&[&short]);
    assert!(
        t.contains(&format!("{short}:3:4: row 2 has 2 points")),
        "{t}"
    );
    let dead = scratch.file("dead.txt", "X O .\nO . .\n. . .\n");
    let t = score_fails(&[&dead]);
    assert!(
        t.contains(&format!("{dead}:1:1: the string at A3 has no liberty")),
        "{t}"
    );
}

#[test]
fn a_broken_scenario_is_located_like_check_does() {
    let scratch = Scratch::new("scenario");
    let file = scratch.file(
        "broken/broken-score.toml",
        "id = \"broken-score\"\ntitle = \"t\"\nclauses = [\"logic-r7-step2\"]\nchecked = \"hand\"\nrules = \"aga\"\nsize = 5\nmoves = [\"B K9\"]\n[[expect]]\nafter = 1\nlegal = true\n",
    );
    let t = score_fails(&[&file]);
    assert!(
        t.contains(&format!(
            "{file}:7:10: key `moves[0]`: `K9` is off the 5x5 board"
        )),
        "{t}"
    );
}

#[test]
fn unknown_rulesets_and_bad_options_are_bad_input() {
    let t = score_fails(&[&seki(), "--rules", "nope"]);
    assert!(t.contains("unknown ruleset `nope`"), "{t}");
    assert!(t.contains("japanese-1989"), "{t}");

    let scratch = Scratch::new("options");
    let file = scratch.file("small.txt", SMALL);
    let t = score_fails(&[&file, "--rules", "agga"]);
    assert!(
        t.contains("unknown ruleset `agga`; known rulesets: aga,"),
        "{t}"
    );
    let t = score_fails(&[&file, "--dead", "A1"]);
    assert!(t.contains("--dead A1: there is no stone at A1"), "{t}");
    let t = score_fails(&[&file, "--dead", "Z9"]);
    assert!(t.contains("`Z9` is off the 5x5 board"), "{t}");
    let t = score_fails(&[&file, "--komi", "7.25"]);
    assert!(t.contains("--komi"), "{t}");
    let t = score_fails(&[&file, "--prisoners", "B=two"]);
    assert!(t.contains("`two` is not a whole number"), "{t}");
    let t = score_fails(&[&file, "--set", "ko=superduper"]);
    assert!(t.contains("unknown value for `ko` `superduper`"), "{t}");
    let t = score_fails(&[&seki(), "--prisoners", "B=1"]);
    assert!(t.contains("--prisoners is for diagram files"), "{t}");
}
