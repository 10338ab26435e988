//! The command line as a user meets it: exit codes, failure reports, located errors.

use std::path::PathBuf;
use std::process::{Command, Output};

mod common;

use common::{goconform, root};

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A scenario file in a scratch folder of its own, removed when dropped.
struct ScratchScenario {
    folder: PathBuf,
    path: PathBuf,
}

impl ScratchScenario {
    fn path(&self) -> &str {
        self.path.to_str().unwrap()
    }
}

impl Drop for ScratchScenario {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.folder);
    }
}

fn scenario_file(test: &str, id: &str, body: &str) -> ScratchScenario {
    let folder = std::env::temp_dir().join(format!("goconform-cli-{}-{test}", std::process::id()));
    let dir = folder.join("broken");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("{id}.toml"));
    std::fs::write(&path, body).unwrap();
    ScratchScenario { folder, path }
}

const GOOD_HEAD: &str = r#"
id = "NAME"
title = "t"
clauses = ["logic-r7-step2"]
checked = "hand count"
rules = "aga"
size = 5
"#;

fn head(id: &str) -> String {
    GOOD_HEAD.replace("NAME", id)
}

#[test]
fn the_whole_suite_passes_under_the_reference() {
    let out = goconform(&["check"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let last = t.lines().last().unwrap_or("");
    assert!(
        last.ends_with(" passed") && !last.contains(','),
        "the last line counts passes and nothing else: {t}"
    );
}

#[test]
fn lint_is_clean() {
    let out = goconform(&["lint"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn a_wrong_expectation_fails_with_both_sides_and_a_reproduction() {
    let body = format!(
        "{}moves = [\"B C3\"]\n\n[[expect]]\nafter = 1\nillegal = \"suicide\"\n",
        head("wrong-verdict")
    );
    let path = scenario_file("wrong", "wrong-verdict", &body);
    let out = goconform(&["check", path.path()]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("expected: illegal: suicide"), "{t}");
    assert!(t.contains("actual:   legal"), "{t}");
    assert!(t.contains("reproduce: goconform check"), "{t}");
    assert!(t.contains("0 passed, 1 failed"), "{t}");
}

#[test]
fn a_wrong_board_shows_both_diagrams_and_the_first_difference() {
    let body = format!(
        "{}moves = [\"B C3\"]\n\n[[expect]]\nafter = 1\nboard = \"\"\"\n. . . . .\n. . . . .\n. . . X .\n. . . . .\n. . . . .\n\"\"\"\n",
        head("wrong-board")
    );
    let path = scenario_file("board", "wrong-board", &body);
    let t = text(&goconform(&["check", path.path()]));
    assert!(t.contains("first difference at C3"), "{t}");
    assert!(t.contains("<>"), "{t}");
}

/// Each broken file is rejected with file:line:column, the key, and a message; exit code 2.
#[test]
fn broken_scenarios_name_file_line_column_and_key() {
    let cases: &[(&str, String, &str, &str)] = &[
        (
            "unknown-key",
            format!("{}colour = \"B\"\n", head("unknown-key")),
            "key `colour`",
            "unknown field",
        ),
        (
            "off-board",
            format!("{}moves = [\"B K9\"]\n[[expect]]\nafter = 1\nlegal = true\n", head("off-board")),
            "key `moves[0]`",
            "off the 5x5 board",
        ),
        (
            "ragged",
            format!("{}board = \"\"\"\n. . . . .\n. . . .\n. . . . .\n. . . . .\n. . . . .\n\"\"\"\n[[expect]]\nafter = 0\nto_move = \"B\"\n", head("ragged")),
            "key `board`",
            "row 2 has 4 points",
        ),
        (
            "unknown-clause",
            format!("{}[[expect]]\nafter = 0\nto_move = \"B\"\n", head("unknown-clause")).replace("logic-r7-step2", "logic-r99"),
            "key `clauses[0]`",
            "unknown clause `logic-r99`",
        ),
        (
            "unknown-ruleset",
            format!("{}[[expect]]\nafter = 0\nto_move = \"B\"\n", head("unknown-ruleset")).replace("rules = \"aga\"", "rules = \"ag\""),
            "key `rules",
            "unknown ruleset `ag`",
        ),
        (
            "contradiction",
            format!("{}moves = [\"B C3\"]\n[[expect]]\nafter = 1\nlegal = true\n[[expect]]\nafter = 1\nillegal = \"occupied\"\n", head("contradiction")),
            "key `expect[1].illegal`",
            "contradictory expectations",
        ),
        (
            "asserts-nothing",
            format!("{}moves = [\"B C3\"]\n[[expect]]\nafter = 1\n", head("asserts-nothing")),
            "key `expect[0]`",
            "asserts nothing",
        ),
        (
            "bad-axis",
            format!("{}set = {{ ko = \"superduper\" }}\n[[expect]]\nafter = 0\nto_move = \"B\"\n", head("bad-axis")),
            "key `set.ko`",
            "expected one of: simple, positional, situational, natural-situational",
        ),
    ];
    for (id, body, key, message) in cases {
        let path = scenario_file(id, id, body);
        let out = goconform(&["check", path.path()]);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{id}: {t}");
        let file = path.path();
        let located = t
            .lines()
            .find(|l| l.contains(file))
            .unwrap_or_else(|| panic!("{id}: no line names the file:\n{t}"));
        let rest = &located[located.find(file).unwrap() + file.len()..];
        let mut parts = rest.splitn(4, ':');
        assert_eq!(parts.next(), Some(""), "{id}: {located}");
        assert!(
            parts.next().unwrap().parse::<usize>().is_ok(),
            "{id}: no line in {located}"
        );
        assert!(
            parts.next().unwrap().parse::<usize>().is_ok(),
            "{id}: no column in {located}"
        );
        assert!(located.contains(key), "{id}: no `{key}` in {located}");
        assert!(t.contains(message), "{id}: no `{message}` in {t}");
    }
}

#[test]
fn a_ragged_diagram_points_at_the_short_row() {
    let body = format!(
        "{}board = \"\"\"\n. . . . .\n. . . .\n. . . . .\n. . . . .\n. . . . .\n\"\"\"\n[[expect]]\nafter = 0\nto_move = \"B\"\n",
        head("ragged-line")
    );
    let path = scenario_file("ragged-line", "ragged-line", &body);
    let t = text(&goconform(&["check", path.path()]));
    // The board string opens on line 8; its second row is line 10 of the file.
    assert!(t.contains("ragged-line.toml:10:"), "{t}");
}

#[test]
fn bad_handicaps_are_located_errors() {
    let cases = [
        (
            "handicap = 10",
            "8:12: key `handicap`: a handicap is 1 (Black moves first, no stone placed) or 2 to 9 stones, not 10",
        ),
        (
            "handicap = 1\nkomi = 0.5",
            "key `komi`: a one-stone handicap (`handicap = 1`) takes White's compensation from each ruleset's handicap-komi; leave `komi` out",
        ),
        (
            "handicap = 1\nto_move = \"W\"",
            "key `to_move`: in a one-stone handicap Black moves first (AGA Rule 4)",
        ),
        (
            "handicap = [\"C3\", \"C3\"]",
            "8:12: key `handicap`: handicap stone at C3: the point is given twice",
        ),
        (
            "handicap = [\"C3\", \"D4\"]",
            "8:12: key `handicap`: under `aga`: the rules place handicap stones on fixed points, and a 5x5 board has no fixed placement of 2 stones",
        ),
        (
            "handicap = [\"D4\", \"B2\"]\nboard = \"\"\"\n. . . . .\n. . . X .\n. . . . .\n. . . . .\n. . . . .\n\"\"\"",
            "8:12: key `handicap`: handicap stone at D4: the point already holds a stone",
        ),
    ];
    for (i, (line, message)) in cases.into_iter().enumerate() {
        let id = format!("bad-handicap-{i}");
        let body = format!(
            "{}{line}\n[[expect]]\nafter = 0\nto_move = \"W\"\n",
            head(&id)
        );
        let path = scenario_file(&id, &id, &body);
        let out = goconform(&["check", path.path()]);
        let t = text(&out);
        assert_eq!(out.status.code(), Some(2), "{t}");
        assert!(t.contains(message), "{line}: {t}");
    }
}

#[test]
fn explain_names_adopting_rulesets_and_scenarios() {
    let out = goconform(&["explain", "bga-ko-superko"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("adopted by: bga, egf-option-2, london-open"),
        "{t}"
    );
    assert!(t.contains("retake-after-passes"), "{t}");
    let out = goconform(&["explain", "bga-ko"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("did you mean"), "{}", text(&out));
}

#[test]
fn rulesets_are_shown_side_by_side() {
    let out = goconform(&["rulesets"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    let header = t.lines().next().unwrap();
    for name in [
        "aga",
        "aga-1991-text",
        "bga",
        "london-open",
        "egf-option-2",
        "new-zealand",
        "tromp-taylor",
        "chinese",
        "japanese-1989",
        "logical-rules",
    ] {
        assert!(
            header.split_whitespace().any(|w| w == name),
            "{name} missing from {header}"
        );
    }
    let ko = t.lines().find(|l| l.starts_with("ko ")).unwrap();
    assert!(
        ko.contains("natural-situational")
            && ko.contains("situational")
            && ko.contains("positional"),
        "{ko}"
    );
}

#[test]
fn check_refuses_an_unknown_ruleset_filter() {
    let out = goconform(&["check", "--rules", "agga"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("unknown ruleset `agga`"));
}

#[test]
fn show_prints_every_move_with_its_verdict() {
    let file = root().join("conformance/superko/retake-after-passes.toml");
    let out = goconform(&["show", file.to_str().unwrap(), "--rules", "aga-1991-text"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("14. W B3: illegal: superko"), "{t}");
    assert!(t.contains("13. dispute: legal"), "{t}");
}

#[test]
fn show_takes_an_sgf_record_and_says_which_game_of_a_collection() {
    let collection = root().join("tests/fixtures/sgf/collection.sgf");
    let collection = collection.to_str().unwrap();
    let out = goconform(&["show", collection]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("game 1 of the 2 games in"), "{t}");
    // The second game: White retakes the ko at once (see tests/sgf_judge.rs).
    let out = goconform(&["show", collection, "--game", "2"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("game 2 of the 2 games in"), "{t}");
    assert!(t.contains("4. W B3: illegal: ko"), "{t}");
    let out = goconform(&["show", collection, "--game", "3"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("--game 3: the file holds 2 games"));
    // A record written as SGF has the note on standard error only, so standard output is
    // the record alone and reads back.
    let out = goconform(&["show", collection, "--format", "sgf"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("game 1 of the 2"));
    let games = goconform::sgf::read(
        std::path::Path::new("written.sgf"),
        &out.stdout,
        &Default::default(),
    )
    .unwrap();
    assert_eq!(games.len(), 1);
}

#[test]
fn show_refuses_a_record_it_cannot_read_or_rule() {
    let bad = root().join("tests/fixtures/sgf/bad-komi.sgf");
    let out = goconform(&["show", bad.to_str().unwrap(), "--rules", "aga"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("bad-komi.sgf:2:11: key `KM`"),
        "{}",
        text(&out)
    );
    let no_rules = scenario_file("show-no-ru", "x", "");
    let path = no_rules.path.with_extension("sgf");
    std::fs::write(&path, "(;FF[4]GM[1]SZ[9];B[ee];W[cc])").unwrap();
    let out = goconform(&["show", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out).contains("no RU"), "{}", text(&out));
    let out = goconform(&["show", path.to_str().unwrap(), "--rules", "aga"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn coverage_lists_clauses_by_level() {
    let out = goconform(&["coverage"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("must: "), "{t}");
    assert!(t.contains("bga-ko-superko"), "{t}");
}

#[test]
fn gtp_answers_over_standard_streams() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args([
            "--root",
            root().to_str().unwrap(),
            "gtp",
            "--rules",
            "aga",
            "--set",
            "ko=simple",
        ])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"1 boardsize 5\n2 play b c3\n3 goconform-why b c3\nbogus\n4 quit\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let t = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(t.contains("=1 \n\n=2 \n\n=3 occupied\n\n?"), "{t}");
    assert!(t.contains("=4"), "{t}");
}

#[test]
fn a_reader_that_stops_early_gets_no_panic() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--root", root().to_str().unwrap(), "coverage", "--all"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Close the pipe before the command has loaded the spec and printed anything, as a reader
    // like `head` does once it has what it wants.
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn jsonl_reports_a_header_every_trial_and_a_complete_footer() {
    let body = format!(
        "{}moves = [\"B C3\"]\n\n[[expect]]\nafter = 1\nillegal = \"suicide\"\n",
        head("wrong-verdict-json")
    );
    let path = scenario_file("jsonl", "wrong-verdict-json", &body);
    let out = goconform(&["check", path.path(), "--format", "jsonl"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("every line is JSON"))
        .collect();
    assert_eq!(lines.len(), 3, "{lines:?}");
    assert_eq!(lines[0]["type"], "header");
    assert_eq!(lines[0]["suite_version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(lines[0]["format_version"], 3);
    assert_eq!(lines[0]["interpretation_version"], 1);
    assert_eq!(lines[0]["engine"]["name"], "goconform-reference");
    assert_eq!(lines[0]["tier"], "strict");
    assert_eq!(lines[0]["options"]["engine"], "reference");
    assert!(lines[0]["capabilities"]["observes"]
        .as_array()
        .unwrap()
        .contains(&serde_json::json!("procedures")));
    assert_eq!(lines[1]["type"], "trial");
    assert_eq!(lines[1]["outcome"], "fail");
    assert_eq!(lines[1]["mismatches"][0]["expected"], "illegal: suicide");
    assert_eq!(lines[1]["mismatches"][0]["actual"], "legal");
    assert_eq!(lines[1]["mismatches"][0]["line"], 10);
    assert_eq!(lines[2]["type"], "footer");
    assert_eq!(lines[2]["fail"], 1);
    assert_eq!(lines[2]["by_level"][0]["level"], "must");
    assert_eq!(lines[2]["by_level"][0]["fail"], 1);
    assert_eq!(lines[2]["complete"], true);
}

/// The failing scenario of the expectation tests, with an expectations file beside it.
fn wrong_verdict(test: &str) -> (ScratchScenario, String) {
    let body = format!(
        "{}moves = [\"B C3\"]\n\n[[expect]]\nafter = 1\nillegal = \"suicide\"\n",
        head("wrong-verdict-listed")
    );
    let path = scenario_file(test, "wrong-verdict-listed", &body);
    let list = path
        .folder
        .join("expect.toml")
        .to_str()
        .unwrap()
        .to_string();
    (path, list)
}

#[test]
fn written_expectations_turn_failures_into_expected_failures() {
    let (path, list) = wrong_verdict("write-expect");
    let out = goconform(&["check", path.path(), "--write-expectations", &list]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let written = std::fs::read_to_string(&list).unwrap();
    assert!(
        written.contains("scenario = \"wrong-verdict-listed\""),
        "{written}"
    );
    assert!(written.contains("run = \"aga\""), "{written}");
    assert!(written.contains("interpretation = 1"), "{written}");
    // Listed, the failure no longer fails the run, and the text report says so with -v.
    let out = goconform(&["check", path.path(), "--expectations", &list, "-v"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains("EXPECTED-FAILURE wrong-verdict-listed under aga"),
        "{t}"
    );
    assert!(t.contains("1 expected failures"), "{t}");
}

#[test]
fn a_listed_trial_that_passes_fails_the_run() {
    let (path, list) = wrong_verdict("unexpected-pass");
    std::fs::write(
        &list,
        "[[expected-failure]]\nscenario = \"basic-ko\"\nreason = \"thought broken\"\n",
    )
    .unwrap();
    let out = goconform(&["check", "--id", "basic-ko", "--expectations", &list]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(1), "{t}");
    assert!(t.contains("UNEXPECTED-PASS basic-ko"), "{t}");
    assert!(t.contains("thought broken"), "{t}");
    drop(path);
}

#[test]
fn an_expectations_file_naming_no_scenario_is_a_located_error() {
    let (path, list) = wrong_verdict("unknown-entry");
    std::fs::write(
        &list,
        "engine = \"x\"\n\n[[expected-failure]]\nscenario = \"no-such-scenario\"\nreason = \"r\"\n",
    )
    .unwrap();
    let out = goconform(&["check", "--id", "basic-ko", "--expectations", &list]);
    let t = text(&out);
    assert_eq!(out.status.code(), Some(2), "{t}");
    assert!(
        t.contains("expect.toml:3:1: key `expected-failure[0]`"),
        "{t}"
    );
    assert!(t.contains("no scenario `no-such-scenario`"), "{t}");
    drop(path);
}

#[test]
fn junit_is_written_beside_the_text_report() {
    let (path, _) = wrong_verdict("junit");
    let xml_path = path.folder.join("report.xml");
    let xml_arg = xml_path.to_str().unwrap();
    let out = goconform(&["check", path.path(), "--junit", xml_arg]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    let xml = std::fs::read_to_string(&xml_path).unwrap();
    assert!(xml.starts_with("<?xml"), "{xml}");
    assert!(xml.contains("wrong-verdict-listed[aga]"), "{xml}");
    assert!(xml.contains("<failure"), "{xml}");
    assert!(xml.contains("reproduce: goconform check"), "{xml}");
}

#[test]
fn the_matrix_shows_clauses_by_ruleset_without_a_percentage() {
    let out = goconform(&["check", "--topic", "ko", "--matrix"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("by clause (passed/applicable):"), "{t}");
    assert!(t.contains("by level (passed/applicable):"), "{t}");
    assert!(!t.contains('%'), "{t}");
}

#[test]
fn compare_writes_markdown_and_html() {
    let (path, _) = wrong_verdict("compare");
    let html = path.folder.join("table.html");
    let out = goconform(&[
        "compare",
        "--engine",
        "reference",
        "--engine",
        "reference",
        "--topic",
        "ko",
        "--html",
        html.to_str().unwrap(),
    ]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(
        t.contains(&format!(
            "| goconform-reference {} |",
            env!("CARGO_PKG_VERSION")
        )),
        "{t}"
    );
    let page = std::fs::read_to_string(&html).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"), "{page}");
    let unknown = goconform(&["compare", "--engine", "reference", "--engine", "nope"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(text(&unknown).contains("unknown engine `nope`"));
}

#[test]
fn filters_select_scenarios_by_id_clause_and_topic() {
    let count = |args: &[&str]| -> u64 {
        let mut all = vec!["check", "--format", "jsonl"];
        all.extend_from_slice(args);
        let out = goconform(&all);
        assert!(out.status.success(), "{}", text(&out));
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let footer: serde_json::Value =
            serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
        footer["pass"].as_u64().unwrap()
    };
    let all = count(&[]);
    let incidents = count(&["--topic", "incidents"]);
    let rule4 = count(&["--topic", "incidents", "--clause", "london-4"]);
    let one = count(&["--id", "ko-retake-noticed-after-four"]);
    assert!(
        all > incidents && incidents > rule4 && rule4 > one,
        "{all} {incidents} {rule4} {one}"
    );
    assert_eq!(one, 4, "one scenario, four runs");
    let unknown = goconform(&["check", "--clause", "no-such-clause"]);
    assert_eq!(unknown.status.code(), Some(2));
}

#[test]
fn show_takes_a_scenario_id_as_explain_prints_it() {
    let out = goconform(&["show", "basic-ko", "--rules", "aga"]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.starts_with("basic-ko: Basic ko"), "{t}");
    assert!(t.contains("== under aga =="), "{t}");
    // A tournament scenario by id too.
    let out = goconform(&["show", "clocks-stopped-for-a-violation"]);
    assert!(out.status.success(), "{}", text(&out));
    // Neither a file nor an id: the close ids are named.
    let out = goconform(&["show", "basic"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out).contains("`basic` is neither a file nor a scenario id; did you mean: basic-ko"),
        "{}",
        text(&out)
    );
}

#[test]
fn filters_that_select_nothing_are_an_error_not_a_pass() {
    let out = goconform(&["check", "--topic", "bogus"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("unknown topic `bogus`; topics: capture, clock,"),
        "{}",
        text(&out)
    );
    let out = goconform(&["check", "--id", "zzzz"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(
        text(&out).contains("the filters select no scenario"),
        "{}",
        text(&out)
    );
    // A filter that selects only tournament scenarios still runs them.
    let out = goconform(&["check", "--topic", "clock"]);
    assert!(out.status.success(), "{}", text(&out));
}

#[test]
fn show_prints_runs_that_play_alike_once() {
    let out = goconform(&["show", "conformance/ko/basic-ko.toml"]);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    // Basic ko plays the same under every ruleset: one run in full, the others named.
    assert_eq!(all.matches("== under").count(), 1, "{all}");
    for run in [
        "bga",
        "london-open",
        "chinese",
        "japanese-1989",
        "tromp-taylor",
    ] {
        assert!(
            all.lines().next().is_some() && all.contains(run),
            "{run}: {all}"
        );
    }
    assert!(all.contains("--rules NAME shows one run"), "{all}");
    assert!(all.lines().count() < 120, "{all}");
    // Runs that part are each shown: area and territory counts differ in prisoners, and the
    // run without pass stones whose White still passes last leaves Black to move at the end,
    // where japanese-1989 leaves White.
    let out = goconform(&["show", "conformance/counting/captures-and-pass-stones.toml"]);
    let counting = text(&out);
    assert_eq!(counting.matches("== under").count(), 5, "{counting}");
    assert!(counting.contains("result: W+8.5"), "{counting}");
    // One run asked for: that run alone, without the note.
    let out = goconform(&["show", "conformance/ko/basic-ko.toml", "--rules", "bga"]);
    let one = text(&out);
    assert!(one.contains("== under bga ==\n"), "{one}");
    assert!(!one.contains("shows one run"), "{one}");
}
