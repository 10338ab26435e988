//! `goconform export --vectors`: every board trial as a JSON vector, each validated against
//! the committed schema (docs/vectors.schema.json) with `boon`; the index lists every file;
//! the schema refuses what the format forbids; and the vectors, read as an engine author
//! reads them (only the JSON), replay through the reference with every expectation holding.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use goconform::board::{Color, Point};
use goconform::conformance::vectors::{Validator, VECTOR_FORMAT_VERSION};
use goconform::engines::protocol::{decode_rules, WireSetup};
use goconform::game::{Event, Game, Reason, Verdict};
use serde_json::Value;

fn export(dir: &Path) {
    let out = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--embedded", "export", "--vectors"])
        .arg(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn read(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap())
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn exported() -> (tempfile::TempDir, Value, Vec<Value>) {
    let dir = tempfile::tempdir().unwrap();
    export(dir.path());
    let index = read(&dir.path().join("index.json"));
    let vectors = index["vectors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| read(&dir.path().join(e["file"].as_str().unwrap())))
        .collect();
    (dir, index, vectors)
}

#[test]
fn every_vector_and_the_index_match_the_schema() {
    let (dir, index, vectors) = exported();
    let validator = Validator::new().unwrap();
    validator.index(&index).unwrap();
    assert_eq!(index["format"], VECTOR_FORMAT_VERSION);
    assert_eq!(index["count"].as_u64().unwrap() as usize, vectors.len());
    // Every board trial of the suite: as many vectors as `check` runs board trials.
    let check = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--embedded", "check", "--format", "jsonl"])
        .output()
        .unwrap();
    let trials = String::from_utf8_lossy(&check.stdout)
        .lines()
        .filter(|l| l.contains("\"type\":\"trial\""))
        .count();
    assert_eq!(vectors.len(), trials, "one vector a board trial");
    for text in [
        readme(),
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/vectors.md"))
            .unwrap(),
    ] {
        assert!(
            text.contains(&format!("{trials}")),
            "the docs' count of vectors is not {trials}"
        );
    }
    assert!(readme().contains(&format!("wrote {trials} vectors")));
    let mut ids = BTreeSet::new();
    for v in &vectors {
        validator
            .vector(v)
            .unwrap_or_else(|e| panic!("{}: {e}", v["id"]));
        assert!(
            ids.insert(v["id"].as_str().unwrap().to_string()),
            "{}",
            v["id"]
        );
    }
    // The schema shipped with the vectors is the committed one.
    let shipped = std::fs::read_to_string(dir.path().join("schema.json")).unwrap();
    let committed = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/vectors.schema.json"),
    )
    .unwrap();
    assert_eq!(shipped, committed);
}

#[test]
fn the_schema_refuses_what_the_format_forbids() {
    let (_dir, _index, vectors) = exported();
    let validator = Validator::new().unwrap();
    let good = vectors
        .iter()
        .find(|v| v["id"] == "basic-ko.aga")
        .unwrap()
        .clone();
    type Change = Box<dyn Fn(&mut Value)>;
    let broken: Vec<(&str, Change)> = vec![
        (
            "an I column",
            Box::new(|v| v["setup"]["stones"][0][0] = "I3".into()),
        ),
        (
            "a verdict word",
            Box::new(|v| v["expect"][0]["verdict"] = "fine".into()),
        ),
        (
            "an unknown field",
            Box::new(|v| v["expect"][0]["colour"] = "B".into()),
        ),
        (
            "a missing axis",
            Box::new(|v| {
                v["rules"].as_object_mut().unwrap().remove("ko");
            }),
        ),
        ("another format", Box::new(|v| v["format"] = 2.into())),
        (
            "a half point off",
            Box::new(|v| v["expect"][0]["score"] = serde_json::json!([1.25, 0])),
        ),
    ];
    for (what, change) in broken {
        let mut v = good.clone();
        change(&mut v);
        assert!(validator.vector(&v).is_err(), "{what} passed the schema");
    }
}

fn vertex(text: &str, setup: &goconform::game::Setup) -> Point {
    Point::parse_gtp(text, setup.width, setup.height).unwrap()
}

fn stones(v: &Value, setup: &goconform::game::Setup) -> Vec<(Point, Color)> {
    let mut out: Vec<(Point, Color)> = v
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                vertex(p[0].as_str().unwrap(), setup),
                Color::parse(p[1].as_str().unwrap()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// The vectors read as data and replayed through the reference: every expectation of every
/// vector that the plain executor can show (no referee's record) holds.
#[test]
fn the_vectors_replay_through_the_reference() {
    let (_dir, _index, vectors) = exported();
    let mut replayed = 0;
    for v in &vectors {
        if v["record"].as_bool().unwrap() {
            continue;
        }
        let id = v["id"].as_str().unwrap();
        let words: std::collections::BTreeMap<String, String> =
            serde_json::from_value(v["rules"].clone()).unwrap();
        let rules = decode_rules(&words).unwrap();
        let wire: WireSetup = serde_json::from_value(v["setup"].clone()).unwrap();
        let setup = wire.decode().unwrap();
        let mut game = Game::new(rules, &setup).unwrap();
        let events: Vec<Event> = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| Event::parse(e.as_str().unwrap(), setup.width, setup.height).unwrap())
            .collect();
        let mut verdicts: Vec<Option<Verdict>> = vec![None];
        let mut games = vec![game.clone()];
        for e in events {
            verdicts.push(Some(game.apply(e)));
            games.push(game.clone());
        }
        for x in v["expect"].as_array().unwrap() {
            let after = x["after"].as_u64().unwrap() as usize;
            let g = &games[after];
            let here = format!("{id} after {after}");
            if let Some(expected) = x.get("verdict") {
                let got = verdicts[after].as_ref().unwrap();
                match (expected.as_str(), got) {
                    (Some("legal"), Verdict::Legal { .. }) => {}
                    (None, Verdict::Illegal(reason)) => assert_eq!(
                        expected["illegal"].as_str(),
                        Some(Reason::word(*reason)),
                        "{here}"
                    ),
                    _ => panic!("{here}: expected {expected}, got {got:?}"),
                }
            }
            if let Some(b) = x.get("board") {
                let mut on_board: Vec<(Point, Color)> = (0..setup.height)
                    .flat_map(|r| (0..setup.width).map(move |c| Point::new(c, r)))
                    .filter_map(|p| g.board().get(p).map(|c| (p, c)))
                    .collect();
                on_board.sort();
                assert_eq!(on_board, stones(b, &setup), "{here}: board");
            }
            if let Some(c) = x.get("captures") {
                let Some(Verdict::Legal { captured, .. }) = &verdicts[after] else {
                    panic!("{here}: captures of an illegal event")
                };
                let mut got: Vec<String> = captured.iter().map(Point::to_string).collect();
                got.sort();
                assert_eq!(serde_json::json!(got), *c, "{here}: captures");
            }
            if let Some(t) = x.get("to_move") {
                assert_eq!(g.to_move().letter().to_string(), *t, "{here}: to_move");
            }
            if let Some(p) = x.get("prisoners") {
                let got = [g.prisoners(Color::Black), g.prisoners(Color::White)];
                assert_eq!(serde_json::json!(got), *p, "{here}: prisoners");
            }
            if let Some(p) = x.get("phase") {
                assert_eq!(g.phase().word(), p.as_str().unwrap(), "{here}: phase");
            }
            if let Some(r) = x.get("result") {
                assert_eq!(g.result(), r.as_str().unwrap(), "{here}: result");
            }
        }
        replayed += 1;
    }
    assert!(replayed > 500, "{replayed}");
}

fn readme() -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap()
}

/// Each trial's outcome by `goconform check` of `engine` over JSON lines: `SCENARIO.RUN` to
/// the outcome word and whether the trial was projected onto other rules.
fn check_outcomes(engine: &str) -> std::collections::BTreeMap<String, (String, bool)> {
    let out = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "--embedded",
            "check",
            "--format",
            "jsonl",
            "--engine",
            engine,
        ])
        .output()
        .unwrap();
    let mut outcomes = std::collections::BTreeMap::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        if v["type"] == "trial" {
            outcomes.insert(
                format!(
                    "{}.{}",
                    v["scenario"].as_str().unwrap(),
                    v["run"].as_str().unwrap()
                ),
                (
                    v["outcome"].as_str().unwrap().to_string(),
                    v.get("projected").is_some_and(|p| !p.is_null()),
                ),
            );
        }
    }
    outcomes
}

/// The outside runner's pass/fail on every vector it runs is `check`'s on the same trial; a
/// vector it skips is one `check` finds not applicable, or plays only by projecting it onto
/// rules the engine has (which a runner of a few lines does not attempt).
fn agree(runner: &str, outcomes: &[(String, String)], engine: &str) {
    let checked = check_outcomes(engine);
    assert_eq!(
        outcomes.len(),
        checked.len(),
        "{runner}: one outcome a trial"
    );
    let mut decided = 0;
    for (id, outcome) in outcomes {
        let (by_check, projected) = checked
            .get(id)
            .unwrap_or_else(|| panic!("{runner}: {id} is no trial of check"));
        match outcome.as_str() {
            "pass" | "fail" => {
                assert_eq!(
                    (outcome.as_str(), false),
                    (by_check.as_str(), *projected),
                    "{runner}: {id}"
                );
                decided += 1;
            }
            "skip" => assert!(
                by_check == "not-applicable" || *projected,
                "{runner}: {id} skipped, but check says {by_check}"
            ),
            other => panic!("{runner}: {id}: outcome {other}"),
        }
    }
    println!("{runner}: {decided} vectors decided, as check decides them");
    assert!(decided >= 20, "{runner}: only {decided} vectors decided");
}

#[test]
fn the_python_runner_agrees_with_check() {
    let sgfmill = Command::new("python3")
        .args(["-c", "import sgfmill"])
        .status();
    if !sgfmill.is_ok_and(|s| s.success()) {
        println!("skipped: python3 with sgfmill is not installed (.ci/run installs it)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    export(dir.path());
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("python3")
        .arg(root.join("tests/vectors/run_vectors.py"))
        .arg(dir.path())
        .arg("--jsonl")
        .output()
        .unwrap();
    let outcomes: Vec<(String, String)> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                v["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let readme = readme();
    let tally = |o: &str| outcomes.iter().filter(|(_, x)| x == o).count();
    let line = format!(
        "{} passed, {} failed, {} skipped",
        tally("pass"),
        tally("fail"),
        tally("skip")
    );
    assert!(
        readme.contains(&line),
        "the README's tally is not today's: {line}"
    );
    agree(
        "run_vectors.py",
        &outcomes,
        "jsonl:python3 tests/vectors/sgfmill_engine.py",
    );
}

#[test]
fn the_javascript_runner_agrees_with_check() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let installed = root.join("tests/engines/sabaki-go-board/node_modules/@sabaki/go-board");
    if Command::new("node").arg("--version").output().is_err() || !installed.is_dir() {
        println!("skipped: node, or @sabaki/go-board (npm ci in tests/engines/sabaki-go-board), is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    export(dir.path());
    let record = dir.path().join("outcomes.jsonl");
    let status = Command::new("node")
        .current_dir(root)
        .args(["--test", "--test-reporter=dot", "tests/vectors/"])
        .env("GOCONFORM_VECTORS", dir.path())
        .env("GOCONFORM_VECTORS_OUT", &record)
        .status()
        .unwrap();
    let outcomes: Vec<(String, String)> = std::fs::read_to_string(&record)
        .unwrap()
        .lines()
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (
                v["id"].as_str().unwrap().to_string(),
                v["outcome"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(status.success(), outcomes.iter().all(|(_, o)| o != "fail"));
    let readme = readme();
    let tally = |o: &str| outcomes.iter().filter(|(_, x)| x == o).count();
    // Node counts the test that the folder was given as one more pass.
    for line in [
        format!("# pass {}", tally("pass") + 1),
        format!("# fail {}", tally("fail")),
        format!("# skipped {}", tally("skip")),
    ] {
        assert!(
            readme.contains(&line),
            "the README's tally is not today's: {line}"
        );
    }
    agree(
        "run_vectors.test.js",
        &outcomes,
        "jsonl:node tests/engines/sabaki-go-board/shim.js",
    );
}

/// The schema's word lists for the rules axes are exactly the words the rules have: a value
/// added to an axis (as `resume-on-request` was) must reach the schema before any vector of
/// it is exported.
#[test]
fn the_schema_lists_every_axis_word() {
    use goconform::rules::{
        Draws, Ending, HandicapCompensation, HandicapPlacement, IllegalMoveProcedure, KoRule,
        PassStones, Scoring, SekiEyes, SuicideRule, WhitePassesLast,
    };
    fn words<T: Copy + std::fmt::Display>(all: &[T]) -> Vec<String> {
        all.iter().map(|v| v.to_string()).collect()
    }
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/vectors.schema.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let listed = |axis: &str| -> Vec<String> {
        schema["$defs"]["rules"]["properties"][axis]["enum"]
            .as_array()
            .unwrap_or_else(|| panic!("no word list for {axis}"))
            .iter()
            .map(|w| w.as_str().unwrap().to_string())
            .collect()
    };
    for (axis, all) in [
        ("ko", words(KoRule::ALL)),
        ("suicide", words(SuicideRule::ALL)),
        ("pass-stones", words(PassStones::ALL)),
        ("scoring", words(Scoring::ALL)),
        ("seki-eyes", words(SekiEyes::ALL)),
        ("handicap-compensation", words(HandicapCompensation::ALL)),
        ("handicap-placement", words(HandicapPlacement::ALL)),
        ("ending", words(Ending::ALL)),
        ("white-passes-last", words(WhitePassesLast::ALL)),
        ("draws", words(Draws::ALL)),
        ("illegal-move", words(IllegalMoveProcedure::ALL)),
    ] {
        assert_eq!(listed(axis), all, "{axis}");
    }
}
