//! The JSON-lines engine protocol (docs/protocol.md): the schema file, the validators and the
//! serde types agree; the reference behind the protocol (`engines::serve`) answers exactly as
//! the reference in process; `JsonlEngine` driving a child process that speaks the protocol
//! judges like the reference through the harness; and every fault of an engine (a hang, a
//! crash, garbage, an oversized line, a wrong version, a skip, an inconsistent answer) gives
//! the right outcome, and the run goes on.
//!
//! The child is `tests/fixtures/jsonl/fake_engine.py`: it relays every line to the reference
//! server this test serves on a Unix socket, except where its mode puts a fault in.

#![cfg(unix)]

use std::collections::BTreeSet;
use std::io::BufReader;
use std::os::unix::net::UnixListener;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use goconform::board::{Color, Move, Point};
use goconform::conformance::harness::{select, Factory};
use goconform::conformance::{
    Capabilities, EngineError, EngineInfo, ErrorKind, EventKind, Harness, Observable, Observation,
    OneAtATime, Outcome, Referee, Reference, RunReport, Unsupported,
};
use goconform::engines::jsonl::{JsonlEngine, JsonlOptions};
use goconform::engines::protocol::{
    validate_reply, validate_request, Reply, Request, RunRequest, PROTOCOL_VERSION,
};
use goconform::engines::serve::{serve, serve_referee};
use goconform::fuzzing::{differential, game_bytes, Ahead, Case, GameInput, Played};
use goconform::game::{Class, Event, Phase, Reason, Ruling, Setup, Verdict};
use goconform::rules::{
    Draws, Ending, HandicapCompensation, HandicapPlacement, IllegalMoveProcedure, KoRule,
    PassStones, Rules, Scoring, SekiEyes, SuicideRule, WhitePassesLast, AXES,
};
use goconform::scenario::Suite;
use goconform::spec::Spec;

mod common;

// ---------------------------------------------------------------------------------------------
// The schema, read from the committed file and compiled by a validator nobody here wrote
// (boon): the whole document (`anyOf` request or reply) and its `request` and `reply`
// definitions (`oneOf` the kinds of message), independently of the crate's dispatch on `type`.

fn schema() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(|| {
        let text = std::fs::read_to_string(common::root().join("docs/protocol.schema.json"))
            .expect("docs/protocol.schema.json");
        serde_json::from_str(&text).expect("the schema is JSON")
    })
}

fn def(name: &str) -> &'static Value {
    &schema()["$defs"][name]
}

/// The schema compiled, with its entry points: the whole, `request` and `reply`.
fn compiled() -> &'static (boon::Schemas, [boon::SchemaIndex; 3]) {
    static COMPILED: OnceLock<(boon::Schemas, [boon::SchemaIndex; 3])> = OnceLock::new();
    COMPILED.get_or_init(|| {
        let location = "https://goconform.invalid/protocol.schema.json";
        let mut compiler = boon::Compiler::new();
        compiler
            .add_resource(location, schema().clone())
            .expect("the schema is added");
        let mut schemas = boon::Schemas::new();
        let mut compile = |fragment: &str| {
            compiler
                .compile(&format!("{location}{fragment}"), &mut schemas)
                .unwrap_or_else(|e| panic!("the schema compiles: {e}"))
        };
        let entries = [
            compile(""),
            compile("#/$defs/request"),
            compile("#/$defs/reply"),
        ];
        (schemas, entries)
    })
}

fn in_schema(value: &Value, entry: usize) -> bool {
    let (schemas, entries) = compiled();
    schemas.validate(value, entries[0]).is_ok() && schemas.validate(value, entries[entry]).is_ok()
}

fn reply_in_schema(value: &Value) -> bool {
    in_schema(value, 2)
}

fn request_in_schema(value: &Value) -> bool {
    in_schema(value, 1)
}

/// The messages of the `jsonl` blocks of docs/protocol.md: (valid, from the harness, line).
fn doc_examples() -> Vec<(bool, bool, String)> {
    let text = std::fs::read_to_string(common::root().join("docs/protocol.md")).unwrap();
    let mut out = Vec::new();
    let mut block: Option<bool> = None;
    for line in text.lines() {
        match (block, line.trim_end()) {
            (None, "```jsonl") => block = Some(true),
            (None, "```jsonl invalid") => block = Some(false),
            (Some(_), "```") => block = None,
            (Some(ok), l) => {
                let (from_harness, message) = if let Some(m) = l.strip_prefix("> ") {
                    (true, m)
                } else if let Some(m) = l.strip_prefix("< ") {
                    (false, m)
                } else {
                    panic!("a jsonl line of docs/protocol.md without > or <: {l}")
                };
                out.push((ok, from_harness, message.to_string()));
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_example_of_the_docs_is_valid_and_every_counterexample_refused() {
    let examples = doc_examples();
    assert!(
        examples.iter().filter(|e| e.0).count() >= 15,
        "{examples:?}"
    );
    assert!(
        examples.iter().filter(|e| !e.0).count() >= 10,
        "{examples:?}"
    );
    // A reply is decoded on the board of the run before it (19x19 where none came before).
    let mut size = (19, 19);
    for (ok, from_harness, line) in examples {
        let value: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        if from_harness {
            let by_schema = request_in_schema(&value);
            let by_code = validate_request(&line);
            assert_eq!(by_schema, ok, "schema on {line}");
            assert_eq!(
                by_code.is_ok(),
                ok,
                "validate_request on {line}: {by_code:?}"
            );
            if ok {
                let request: Request = serde_json::from_str(&line).unwrap();
                if let Request::Run(run) = &request {
                    run.decode().unwrap();
                    size = (run.setup.width, run.setup.height);
                }
                assert_eq!(serde_json::to_value(&request).unwrap(), value, "{line}");
            }
        } else {
            let by_schema = reply_in_schema(&value);
            let by_code = validate_reply(&line);
            assert_eq!(by_schema, ok, "schema on {line}");
            assert_eq!(by_code.is_ok(), ok, "validate_reply on {line}: {by_code:?}");
            if ok {
                let reply: Reply = serde_json::from_str(&line).unwrap();
                if let Reply::Result(result) = &reply {
                    result.initial.decode(size.0, size.1).unwrap();
                    for step in &result.steps {
                        step.decode(size.0, size.1).unwrap();
                    }
                }
                if let Reply::Hello(hello) = &reply {
                    hello.decode().unwrap();
                }
                assert_eq!(serde_json::to_value(&reply).unwrap(), value, "{line}");
            }
        }
    }
}

fn enum_words(name: &str) -> Vec<String> {
    def(name)["enum"]
        .as_array()
        .unwrap_or_else(|| panic!("$defs/{name} is an enum"))
        .iter()
        .map(|w| w.as_str().unwrap().to_string())
        .collect()
}

fn words<T: Copy>(all: &[T], word: impl Fn(T) -> &'static str) -> Vec<String> {
    all.iter().map(|&v| word(v).to_string()).collect()
}

#[test]
fn the_schema_has_the_words_of_the_code() {
    assert_eq!(enum_words("reason"), words(Reason::ALL, Reason::word));
    assert_eq!(enum_words("class"), words(Class::ALL, Class::word));
    assert_eq!(enum_words("ruling"), words(Ruling::ALL, Ruling::word));
    assert_eq!(enum_words("phase"), words(Phase::ALL, Phase::word));
    assert_eq!(
        enum_words("observable"),
        words(Observable::ALL, Observable::word)
    );
    assert_eq!(
        enum_words("event-kind"),
        words(EventKind::ALL, EventKind::word)
    );
    assert_eq!(def("protocol")["const"], json!(PROTOCOL_VERSION));
    let axes: Vec<(&str, Vec<String>)> = vec![
        (KoRule::AXIS, words(KoRule::ALL, KoRule::word)),
        (
            SuicideRule::AXIS,
            words(SuicideRule::ALL, SuicideRule::word),
        ),
        (PassStones::AXIS, words(PassStones::ALL, PassStones::word)),
        (Scoring::AXIS, words(Scoring::ALL, Scoring::word)),
        (SekiEyes::AXIS, words(SekiEyes::ALL, SekiEyes::word)),
        (
            HandicapCompensation::AXIS,
            words(HandicapCompensation::ALL, HandicapCompensation::word),
        ),
        (
            HandicapPlacement::AXIS,
            words(HandicapPlacement::ALL, HandicapPlacement::word),
        ),
        (Ending::AXIS, words(Ending::ALL, Ending::word)),
        (
            WhitePassesLast::AXIS,
            words(WhitePassesLast::ALL, WhitePassesLast::word),
        ),
        (Draws::AXIS, words(Draws::ALL, Draws::word)),
        (
            IllegalMoveProcedure::AXIS,
            words(IllegalMoveProcedure::ALL, IllegalMoveProcedure::word),
        ),
    ];
    let rules = &def("rules")["properties"];
    let caps = &def("capabilities")["properties"]["axes"]["properties"];
    let listed: Vec<&String> = rules.as_object().unwrap().keys().collect();
    let mut all: Vec<&str> = AXES.to_vec();
    all.sort_unstable();
    assert_eq!(listed, all);
    assert_eq!(
        def("rules")["required"].as_array().unwrap().len(),
        AXES.len()
    );
    for (axis, expected) in axes {
        assert_eq!(rules[axis]["enum"], json!(expected), "{axis}");
        assert_eq!(caps[axis]["items"]["enum"], json!(expected), "{axis}");
    }
    for axis in ["komi", "handicap-komi"] {
        assert_eq!(rules[axis]["$ref"], "#/$defs/komi");
    }
}

// ---------------------------------------------------------------------------------------------
// The reference behind the protocol, in memory.

fn load(files: &[&str]) -> Suite {
    let spec = Spec::load(common::root()).unwrap();
    let paths: Vec<PathBuf> = if files.is_empty() {
        vec![common::root().join("conformance")]
    } else {
        files
            .iter()
            .map(|f| common::root().join("conformance").join(f))
            .collect()
    };
    Suite::load(&paths, &spec).unwrap()
}

fn all_observations() -> BTreeSet<Observable> {
    Observable::ALL.iter().copied().collect()
}

/// Sends `lines` to `serve` in memory and returns its answers.
fn serve_lines(lines: &[String]) -> Vec<String> {
    let mut input = lines.join("\n");
    input.push('\n');
    let mut out = Vec::new();
    serve(input.as_bytes(), &mut out).unwrap();
    String::from_utf8(out)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect()
}

#[test]
fn the_served_reference_answers_every_trial_of_the_suite_like_the_reference() {
    let suite = load(&[]);
    let observe = all_observations();
    let mut requests = vec![Request::Hello { protocol: 1 }.to_line()];
    let mut expected = Vec::new();
    for (s, scenario) in suite.scenarios.iter().enumerate() {
        for (r, run) in scenario.runs.iter().enumerate() {
            let id = format!("{}[{}]", scenario.id, run.label);
            let request =
                RunRequest::new(&id, &run.rules, &scenario.setup, &scenario.events, &observe);
            requests.push(Request::Run(request).to_line());
            expected.push((s, r, id));
        }
    }
    requests.push(Request::Bye.to_line());
    let replies = serve_lines(&requests);
    assert_eq!(replies.len(), expected.len() + 1);
    let mut played = 0;
    for (line, request) in replies.iter().zip(&requests) {
        // Every request and every answer is valid, for the schema and the validators alike.
        let request_value: Value = serde_json::from_str(request).unwrap();
        assert!(request_in_schema(&request_value), "{request}");
        assert_eq!(validate_request(request), Ok(()), "{request}");
        let value: Value = serde_json::from_str(line).unwrap();
        assert!(reply_in_schema(&value), "{line}");
        assert_eq!(validate_reply(line), Ok(()), "{line}");
    }
    for (line, (s, r, id)) in replies[1..].iter().zip(&expected) {
        let scenario = &suite.scenarios[*s];
        let (w, h) = (scenario.setup.width, scenario.setup.height);
        let mut reference = Reference::new();
        let started = reference.start(&scenario.runs[*r].rules, &scenario.setup);
        let reply: Reply = serde_json::from_str(line).unwrap();
        let result = match (started, reply) {
            (Err(Unsupported(why)), Reply::Skipped(skipped)) => {
                assert_eq!((&skipped.id, &skipped.reason), (id, &why));
                continue;
            }
            (Ok(()), Reply::Result(result)) => result,
            (started, reply) => panic!("{id}: {started:?} against {reply:?}"),
        };
        assert_eq!(&result.id, id);
        let with_count = |r: &Reference| {
            let mut seen = r.observe();
            (seen.result, seen.score) = r.count();
            seen
        };
        assert_eq!(
            result.initial.decode(w, h),
            Ok(with_count(&reference)),
            "{id}"
        );
        assert_eq!(result.steps.len(), scenario.events.len());
        for (step, event) in result.steps.iter().zip(&scenario.events) {
            let verdict = reference.apply(event).unwrap();
            assert_eq!(
                step.decode(w, h),
                Ok((verdict, with_count(&reference))),
                "{id}: {event}"
            );
        }
        played += 1;
    }
    assert!(played > 500, "{played}");
}

#[test]
fn each_schema_rule_is_enforced_by_the_validator_too() {
    // One valid reply of each kind, and mutations of it, each refused by both or by neither.
    let result = json!({"type":"result","id":"a","initial":{"board":[["A1","B"]],"to_move":"W","prisoners":[0,1],"phase":"ended","result":"W+R","warnings":[0,0]},"steps":[
        {"verdict":"legal","captured":["B2"],"self_captured":[],"observation":{"score":[12.5,-3]}},
        {"verdict":"illegal","reason":"superko","observation":{}},
        {"verdict":"breach","reason":"occupied","class":"irregular","observation":{}},
        {"verdict":"ruled","ruling":"adjudicate","observation":{"result":"0"}}]});
    let hello = json!({"type":"hello","protocol":1,"engine":{"name":"e","version":""},"capabilities":{"axes":{"komi":["7.5","-0.5"],"ko":["simple"]},"observes":["board"],"judges":["ko"],"events":null}});
    let skipped = json!({"type":"skipped","id":"a","reason":"no"});
    let error = json!({"type":"error","id":null,"message":"m","context":[1,{"x":null}]});
    type Edit = fn(&mut Value);
    let mutations: Vec<(&Value, Edit, bool)> = vec![
        (&result, |_| {}, true),
        (&hello, |_| {}, true),
        (&skipped, |_| {}, true),
        (&error, |_| {}, true),
        (&hello, |v| v["capabilities"] = json!({"observes":[]}), true),
        (&error, |v| v["id"] = json!("x"), true),
        (&result, |v| v["steps"][0]["captured"] = json!([]), true),
        (&result, |v| v["type"] = json!("results"), false),
        (&result, |v| v["id"] = json!(1), false),
        (
            &result,
            |v| {
                v.as_object_mut()
                    .unwrap()
                    .remove("initial")
                    .map(|_| ())
                    .unwrap()
            },
            false,
        ),
        (&result, |v| v["steps"][0]["verdict"] = json!("fine"), false),
        (
            &result,
            |v| v["steps"][0]["ruling"] = json!("stands"),
            false,
        ),
        (&result, |v| v["steps"][1]["reason"] = json!("Ko"), false),
        (
            &result,
            |v| {
                v["steps"][2]
                    .as_object_mut()
                    .unwrap()
                    .remove("class")
                    .map(|_| ())
                    .unwrap()
            },
            false,
        ),
        (
            &result,
            |v| v["steps"][3]["ruling"] = json!("unwind"),
            false,
        ),
        (
            &result,
            |v| v["steps"][0]["captured"] = json!(["I5"]),
            false,
        ),
        (
            &result,
            |v| v["steps"][0]["captured"] = json!(["A26"]),
            false,
        ),
        (
            &result,
            |v| v["steps"][0]["self_captured"] = json!("B2"),
            false,
        ),
        (
            &result,
            |v| v["initial"]["board"] = json!([["A1", "X"]]),
            false,
        ),
        (&result, |v| v["initial"]["board"] = json!([["A1"]]), false),
        (
            &result,
            |v| v["initial"]["board"] = json!([["A1", "B", "extra"]]),
            false,
        ),
        (&result, |v| v["initial"]["to_move"] = json!("black"), false),
        (
            &result,
            |v| v["initial"]["prisoners"] = json!([0, -1]),
            false,
        ),
        (
            &result,
            |v| v["initial"]["prisoners"] = json!([0, 1, 2]),
            false,
        ),
        (
            &result,
            |v| v["initial"]["prisoners"] = json!([0, 1.5]),
            false,
        ),
        (&result, |v| v["initial"]["phase"] = json!("over"), false),
        (&result, |v| v["initial"]["result"] = json!("B+3.0"), false),
        // `Void`: a game a repetition ended without result (ko = simple-cycle-void).
        (&result, |v| v["initial"]["result"] = json!("Void"), true),
        (&result, |v| v["initial"]["result"] = json!("Draw"), false),
        (&result, |v| v["initial"]["score"] = json!([1]), false),
        (&result, |v| v["initial"]["score"] = json!(["1", 2]), false),
        (&result, |v| v["initial"]["warnings"] = json!(null), false),
        (&result, |v| v["initial"]["stones"] = json!([]), false),
        (&hello, |v| v["protocol"] = json!(2), false),
        (&hello, |v| v["engine"]["name"] = json!(""), false),
        (
            &hello,
            |v| {
                v["engine"]
                    .as_object_mut()
                    .unwrap()
                    .remove("version")
                    .map(|_| ())
                    .unwrap()
            },
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["axes"]["kko"] = json!(["simple"]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["axes"]["ko"] = json!(["super"]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["axes"]["komi"] = json!(["7.50"]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["axes"]["komi"] = json!([7.5]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["observes"] = json!(["board", "board"]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["judges"] = json!(["kos"]),
            false,
        ),
        (
            &hello,
            |v| v["capabilities"]["events"] = json!(["move"]),
            false,
        ),
        (
            &hello,
            |v| {
                v["capabilities"]
                    .as_object_mut()
                    .unwrap()
                    .remove("observes")
                    .map(|_| ())
                    .unwrap()
            },
            false,
        ),
        (&skipped, |v| v["reason"] = json!(""), false),
        (&skipped, |v| v["id"] = json!(null), false),
        (&error, |v| v["message"] = json!(""), false),
        (
            &error,
            |v| v.as_object_mut().unwrap().remove("id").map(|_| ()).unwrap(),
            false,
        ),
    ];
    for (base, edit, ok) in mutations {
        let mut value = base.clone();
        edit(&mut value);
        let line = value.to_string();
        assert_eq!(reply_in_schema(&value), ok, "schema on {line}");
        let checked = validate_reply(&line);
        assert_eq!(checked.is_ok(), ok, "validate_reply on {line}: {checked:?}");
    }
    for line in ["", "[]", "{", "{\"type\":\"hello\"", "42"] {
        assert!(validate_reply(line).is_err(), "{line}");
    }
}

/// A referee that gives a scripted verdict for each event: every kind the protocol encodes.
struct Scripted {
    verdicts: Vec<Verdict>,
    next: usize,
}

impl Referee for Scripted {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "scripted".to_string(),
            version: "1".to_string(),
        }
    }
    fn capabilities(&self) -> Capabilities {
        Capabilities::new().observing([Observable::Reasons])
    }
    fn start(&mut self, _: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.next = 0;
        if setup.width == 25 {
            return Err(Unsupported("too wide".to_string()));
        }
        Ok(())
    }
    fn apply(&mut self, _: &Event) -> Result<Verdict, EngineError> {
        self.next += 1;
        self.verdicts
            .get(self.next - 1)
            .cloned()
            .ok_or_else(|| EngineError::crash("out of verdicts"))
    }
    fn observe(&self) -> Observation {
        Observation::default()
    }
}

#[test]
fn every_kind_of_verdict_round_trips_through_a_served_referee() {
    let at = |v: &str| Point::parse_gtp(v, 9, 9).unwrap();
    let mut verdicts = vec![
        Verdict::Legal {
            captured: vec![],
            self_captured: vec![],
        },
        Verdict::Legal {
            captured: vec![at("A1"), at("J9")],
            self_captured: vec![at("E5")],
        },
    ];
    verdicts.extend(Reason::ALL.iter().map(|&r| Verdict::Illegal(r)));
    for &class in Class::ALL {
        verdicts.extend(
            Reason::ALL
                .iter()
                .map(|&reason| Verdict::Breach { reason, class }),
        );
    }
    verdicts.extend(Ruling::ALL.iter().map(|&r| Verdict::Ruled(r)));
    let events = vec![Event::Move(Color::Black, Move::Pass); verdicts.len() + 1];
    let rules = Rules::default();
    let observe = BTreeSet::new();
    let run = |width: u8, events: &[Event]| {
        Request::Run(RunRequest::new(
            "v",
            &rules,
            &Setup::empty(width, 9),
            events,
            &observe,
        ))
        .to_line()
    };
    let lines = [
        run(9, &events[..verdicts.len()]),
        run(9, &events),
        run(25, &events),
    ];
    let mut referee = Scripted {
        verdicts: verdicts.clone(),
        next: 0,
    };
    let mut out = Vec::new();
    serve_referee(&mut referee, lines.join("\n").as_bytes(), &mut out).unwrap();
    let replies: Vec<Reply> = String::from_utf8(out)
        .unwrap()
        .lines()
        .map(|l| {
            assert_eq!(validate_reply(l), Ok(()), "{l}");
            serde_json::from_str(l).unwrap()
        })
        .collect();
    let Reply::Result(result) = &replies[0] else {
        panic!("{:?}", replies[0]);
    };
    let back: Vec<Verdict> = result
        .steps
        .iter()
        .map(|s| s.decode(9, 9).unwrap().0)
        .collect();
    assert_eq!(back, verdicts);
    let Reply::Error(error) = &replies[1] else {
        panic!("{:?}", replies[1]);
    };
    assert_eq!(error.message, "out of verdicts");
    assert_eq!(
        error.context,
        Some(json!({"event": events.len(), "text": "B pass"}))
    );
    assert!(matches!(&replies[2], Reply::Skipped(s) if s.reason == "too wide"));
}

// ---------------------------------------------------------------------------------------------
// A child process behind the protocol.

/// The Unix socket where this test process serves the reference, one thread per connection.
fn server() -> &'static Path {
    static SOCKET: OnceLock<PathBuf> = OnceLock::new();
    SOCKET.get_or_init(|| {
        // In the target folder, unless that makes a path too long for a socket address.
        let name = format!("goconform-jsonl-{}.sock", std::process::id());
        let mut path = Path::new(env!("CARGO_TARGET_TMPDIR")).join(&name);
        if path.as_os_str().len() > 100 {
            path = std::env::temp_dir().join(&name);
        }
        let _ = std::fs::remove_file(&path);
        let listener = UnixListener::bind(&path).expect("a Unix socket in the temporary folder");
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                std::thread::spawn(move || {
                    let Ok(reader) = stream.try_clone() else {
                        return;
                    };
                    let _ = serve(BufReader::new(reader), stream);
                });
            }
        });
        path
    })
}

/// The Python interpreter itself, not a wrapper such as a pyenv shim (which can take longer
/// to start than the short time limits of these tests).
fn python() -> &'static str {
    static PYTHON: OnceLock<String> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let out = std::process::Command::new("python3")
            .args(["-c", "import sys; print(sys.executable)"])
            .output()
            .expect("python3 runs the fake engines of these tests");
        String::from_utf8(out.stdout).unwrap().trim().to_string()
    })
}

fn fixture() -> PathBuf {
    common::root().join("tests/fixtures/jsonl/fake_engine.py")
}

fn fake_args(mode: &str, when: &[&str]) -> Vec<String> {
    let mut args = vec![
        fixture().display().to_string(),
        server().display().to_string(),
        mode.to_string(),
    ];
    args.extend(when.iter().map(|s| s.to_string()));
    args
}

fn fake(mode: &str, when: &[&str], options: JsonlOptions) -> JsonlEngine {
    JsonlEngine::new(python(), &fake_args(mode, when), options)
}

fn run_through(suite: &Suite, jobs: usize, labels: &[&str], factory: &Factory) -> RunReport {
    let harness = Harness {
        jobs,
        ..Harness::default()
    };
    let selection = select(suite, |_, run| {
        labels.is_empty() || labels.contains(&run.label.as_str())
    });
    harness.run(suite, &selection, factory).unwrap()
}

fn name(suite: &Suite, report: &RunReport, i: usize) -> String {
    let t = &report.trials[i];
    let s = &suite.scenarios[t.scenario];
    format!("{}[{}]", s.id, s.runs[t.run].label)
}

#[test]
fn a_child_behind_the_protocol_judges_exactly_like_the_reference() {
    let suite = load(&[
        "ko/basic-ko.toml",
        "superko/triple-ko.toml",
        "superko/setup-position-excluded-from-history.toml",
        "capture/capture-before-self-capture.toml",
        "suicide/single-stone-suicide-after-pass.toml",
        "counting/dead-stones-by-agreement.toml",
        "ending/dispute-resumption-then-agreement.toml",
        "ending/resign-during-play.toml",
        "handicap/fixed-placement-three-stones.toml",
        "komi/integer-komi-jigo.toml",
        "passes/pass-stones.toml",
        "play/white-first-after-handicap.toml",
        "incidents/ko-retake-noticed-at-once.toml",
        "incidents/ambiguous-placement.toml",
        "incidents/repeated-warnings.toml",
    ]);
    let reference = run_through(&suite, 1, &[], &|| {
        Box::new(Reference::new()) as Box<dyn Referee>
    });
    let strict = JsonlOptions {
        strict: true,
        ..JsonlOptions::default()
    };
    let child = run_through(&suite, 3, &[], &move || {
        Box::new(fake("pass", &[], strict.clone())) as Box<dyn Referee>
    });
    assert_eq!(child.engine, reference.engine);
    assert_eq!(child.capabilities, reference.capabilities);
    assert_eq!(child.tier, reference.tier);
    assert_eq!(child.trials.len(), reference.trials.len());
    for (i, (c, r)) in child.trials.iter().zip(&reference.trials).enumerate() {
        let trial = name(&suite, &reference, i);
        assert_eq!((c.scenario, c.run), (r.scenario, r.run), "{trial}");
        assert_eq!(c.outcome, r.outcome, "{trial}");
        assert_eq!(c.verdicts, r.verdicts, "{trial}");
        assert_eq!(c.unobserved, r.unobserved, "{trial}");
    }
    let tally = child.tally();
    assert_eq!(tally, reference.tally());
    assert!(tally.pass > 100, "{tally}");
    assert!(
        child
            .trials
            .iter()
            .any(|t| suite.scenarios[t.scenario].topic == "incidents" && t.outcome == Outcome::Pass),
        "an incident record passes through the protocol"
    );
}

/// Two scenarios: the fake engine's fault strikes on the 5x5 one (basic-ko), and the 7x7 one
/// (triple-ko) after it must pass, on the same engine: the run goes on.
fn fault_run(mode: &str, when: &[&str], strict: bool) -> (Suite, RunReport, Duration) {
    let suite = load(&["superko/triple-ko.toml", "ko/basic-ko.toml"]);
    let options = JsonlOptions {
        // Long enough for the relay to answer on a loaded machine (tests run in parallel).
        timeout: Duration::from_millis(1500),
        strict,
        ..JsonlOptions::default()
    };
    let mode = mode.to_string();
    let when: Vec<String> = when.iter().map(|s| s.to_string()).collect();
    let started = Instant::now();
    let report = run_through(
        &suite,
        1,
        &["aga", "chinese", "japanese-1989"],
        &move || {
            let when: Vec<&str> = when.iter().map(String::as_str).collect();
            Box::new(fake(&mode, &when, options.clone())) as Box<dyn Referee>
        },
    );
    (suite, report, started.elapsed())
}

/// Runs the fake engine in `mode` and checks that every 5x5 trial ends with `word` and a
/// summary holding `needle`, and every 7x7 trial passes.
fn check_fault(mode: &str, when: &[&str], strict: bool, word: &str, needle: &str) -> Duration {
    let (suite, report, elapsed) = fault_run(mode, when, strict);
    assert_eq!(report.trials.len(), 6);
    for (i, trial) in report.trials.iter().enumerate() {
        let name = name(&suite, &report, i);
        if suite.scenarios[trial.scenario].setup.width == 5 {
            assert_eq!(
                trial.outcome.word(),
                word,
                "{mode} {name}: {:?}",
                trial.outcome
            );
            let summary = trial.outcome.summary();
            assert!(summary.contains(needle), "{mode} {name}: {summary}");
        } else {
            assert_eq!(trial.outcome, Outcome::Pass, "{mode} {name}");
        }
    }
    elapsed
}

#[test]
fn a_hang_is_a_timeout_and_the_next_trial_gets_a_new_engine() {
    let elapsed = check_fault(
        "hang",
        &["--size", "5", "--events", "2"],
        false,
        "timeout",
        "at move 2: the engine `",
    );
    // Three timeouts of a second and a half each, and no more.
    let (_, report, _) = fault_run("hang", &["--size", "5", "--events", "2"], false);
    let summary = report.trials[0].outcome.summary();
    assert!(
        summary.contains("did not answer within 1.5 s (it wrote nothing since its last line; if it did answer, its reply may still sit in its output buffer"),
        "{summary}"
    );
    assert!(elapsed >= Duration::from_millis(4500), "{elapsed:?}");
    assert!(elapsed < Duration::from_secs(30), "{elapsed:?}");
    // A hang at the start is a timeout too, reported at the first event.
    check_fault(
        "hang",
        &["--size", "5"],
        false,
        "timeout",
        "at move 1: the trial did not start: the engine `",
    );
}

#[test]
fn a_crash_is_an_error_with_the_engines_last_words() {
    check_fault(
        "crash",
        &["--size", "5"],
        false,
        "error",
        "(exit status: 3) (stderr: fake engine: deliberate crash on t",
    );
    check_fault(
        "crash",
        &["--size", "5", "--events", "1"],
        false,
        "error",
        "at move 1: ",
    );
}

#[test]
fn garbage_and_oversized_replies_are_protocol_errors() {
    check_fault(
        "garbage",
        &["--size", "5", "--events", "1"],
        false,
        "error",
        "not a protocol message",
    );
    check_fault(
        "oversized",
        &["--size", "5", "--events", "1"],
        false,
        "error",
        "at most 4194304 allowed",
    );
}

#[test]
fn a_skip_at_the_start_is_not_applicable_and_later_an_error() {
    check_fault(
        "skip",
        &["--size", "5"],
        false,
        "not-applicable",
        "deliberately skipped",
    );
    check_fault(
        "skip",
        &["--size", "5", "--events", "3"],
        false,
        "error",
        "at move 3: the engine `",
    );
}

#[test]
fn an_error_reply_is_the_trials_error() {
    check_fault(
        "error",
        &["--size", "5", "--events", "2"],
        false,
        "error",
        "at move 2: the engine reported an error: deliberate error (context: {\"events\":2})",
    );
}

#[test]
fn answers_for_another_run_or_that_change_are_protocol_errors() {
    check_fault(
        "other-id",
        &["--size", "5", "--events", "1"],
        false,
        "error",
        "is for `not-t",
    );
    check_fault(
        "inconsistent",
        &["--size", "5"],
        false,
        "error",
        "at move 2: the engine `",
    );
    let (_, report, _) = fault_run("inconsistent", &["--size", "5"], false);
    assert!(
        report.trials[0]
            .outcome
            .summary()
            .contains("answered differently for the same events at event 1 (`B C3`)"),
        "{}",
        report.trials[0].outcome.summary()
    );
    // It says which field changed, with both answers.
    let summary = report.trials[0].outcome.summary();
    assert!(summary.contains("(verdict `"), "{summary}");
    assert!(summary.contains("now `illegal"), "{summary}");
}

#[test]
fn unknown_fields_are_ignored_unless_strict() {
    let (_, lenient, _) = fault_run("invalid", &["--size", "5"], false);
    assert!(lenient.trials.iter().all(|t| t.outcome == Outcome::Pass));
    check_fault(
        "invalid",
        &["--size", "5", "--events", "1"],
        true,
        "error",
        "the reply breaks the protocol's schema: extra: unknown field",
    );
}

#[test]
fn another_protocol_version_is_refused_at_the_handshake() {
    let e = JsonlEngine::connect(
        python(),
        &fake_args("wrong-version", &[]),
        JsonlOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.kind, ErrorKind::Protocol);
    assert!(
        e.message
            .contains("the engine speaks protocol version 2, and this harness speaks version 1"),
        "{}",
        e.message
    );
    let (_, report, _) = fault_run("wrong-version", &[], false);
    for trial in &report.trials {
        assert_eq!(trial.outcome.word(), "error");
        assert!(
            trial.outcome.summary().contains("protocol version 2"),
            "{}",
            trial.outcome.summary()
        );
    }
    assert_eq!(report.engine.version, "unknown (no handshake)");
}

#[test]
fn the_binary_serves_the_reference() {
    let suite = load(&[
        "ko/basic-ko.toml",
        "incidents/ko-retake-noticed-at-once.toml",
    ]);
    let program = env!("CARGO_BIN_EXE_goconform");
    JsonlEngine::connect(program, &["serve".to_string()], JsonlOptions::default()).unwrap();
    let reference = run_through(&suite, 1, &[], &|| {
        Box::new(Reference::new()) as Box<dyn Referee>
    });
    let child = run_through(&suite, 2, &[], &move || {
        Box::new(JsonlEngine::new(
            program,
            &["serve".to_string()],
            JsonlOptions {
                strict: true,
                ..JsonlOptions::default()
            },
        )) as Box<dyn Referee>
    });
    for (c, r) in child.trials.iter().zip(&reference.trials) {
        assert_eq!((&c.outcome, &c.verdicts), (&r.outcome, &r.verdicts));
    }
}

/// A game announced to a JSON-lines engine goes in one request; a fault there is not reported
/// from it: the engine is asked again one prefix at a time, and meets the fault at the same
/// event, with the same kind, as when nothing was announced.
#[test]
fn an_announced_game_meets_each_fault_at_the_same_event() {
    let suite = load(&["ko/basic-ko.toml"]);
    let scenario = &suite.scenarios[0];
    let run = scenario
        .runs
        .iter()
        .position(|r| r.label == "japanese-1989")
        .expect("the run exists");
    assert!(scenario.events.len() >= 3);
    let case = Case::from_run(scenario, run);
    let options = JsonlOptions {
        timeout: Duration::from_millis(1500),
        strict: false,
        ..JsonlOptions::default()
    };
    for (mode, text) in [
        ("hang", "within"),
        ("crash", "deliberate crash"),
        ("garbage", "not a protocol message"),
        ("skip", "skipped the trial at event 3"),
        ("error", "deliberate error"),
    ] {
        let mut seen = Vec::new();
        for announced in [false, true] {
            let engine = fake(mode, &["--events", "3"], options.clone());
            let mut engine: Box<dyn Referee> = if announced {
                Box::new(engine)
            } else {
                Box::new(OneAtATime(Box::new(engine)))
            };
            let played = differential(&mut Reference::new(), engine.as_mut(), &case);
            let Played::Diverged(d) = played else {
                panic!("{mode} (announced: {announced}): {played:?}")
            };
            assert_eq!((d.after, d.key), (3, "error"), "{mode}: {d:?}");
            assert!(d.actual.contains(text), "{mode}: {d:?}");
            seen.push(d);
        }
        assert_eq!(seen[0].expected, seen[1].expected, "{mode}");
    }
    // Without a fault the announced game agrees, event for event.
    let mut engine = fake("pass", &[], options);
    assert_eq!(
        differential(&mut Reference::new(), &mut engine, &case),
        Played::Agreed {
            asked: case.events.len()
        }
    );
}

/// An engine that breaks down at the start of every game (its first request) is reported by
/// the fuzzing differential as broken down, not as a start that shows nothing (which once
/// made `goconform fuzz` write a finding of an empty board).
#[test]
fn a_breakdown_at_the_start_is_an_error_in_the_differential() {
    let suite = load(&["ko/basic-ko.toml"]);
    let scenario = &suite.scenarios[0];
    let case = Case::from_run(scenario, 0);
    let options = JsonlOptions {
        timeout: Duration::from_millis(1500),
        strict: false,
        ..JsonlOptions::default()
    };
    for (mode, text) in [
        ("crash", "deliberate crash"),
        ("garbage", "not a protocol message"),
    ] {
        let mut engine = fake(mode, &[], options.clone());
        let played = differential(&mut Reference::new(), &mut engine, &case);
        let Played::Diverged(d) = played else {
            panic!("{mode}: {played:?}")
        };
        assert_eq!((d.after, d.key), (0, "error"), "{mode}: {d:?}");
        assert!(d.actual.contains(text), "{mode}: {d:?}");
    }
}

/// The fuzzing differential announces each game with its start, so a JSON-lines engine is
/// asked one `run` a game (the start and every event at once), not one for the start and
/// another for the events; and the games agree as they did with two.
#[test]
fn the_differential_asks_one_request_a_game() {
    let (_dir, log, args) = logged_serve();
    let mut engine = JsonlEngine::new("sh", &args, JsonlOptions::default());
    let capabilities = engine.capabilities();
    let mut played_games = 0;
    for game in 0..40 {
        let case =
            goconform::fuzzing::GameInput::from_bytes(&goconform::fuzzing::game_bytes(7, game))
                .realise(&capabilities);
        match differential(&mut Reference::new(), &mut engine, &case) {
            Played::Agreed { .. } if case.events.is_empty() => {}
            Played::Agreed { .. } => played_games += 1,
            other => panic!("game {game}: {other:?}"),
        }
    }
    drop(engine);
    let runs = logged_runs(&log);
    assert!(played_games >= 30, "{played_games} games with events");
    let with_events = runs
        .iter()
        .filter(|r| r["events"].as_array().is_some_and(|e| !e.is_empty()))
        .count();
    assert_eq!(with_events, played_games, "one request a game with events");
    assert_eq!(runs.len(), 40, "one request for each of the 40 games");
}

/// The harness asks for boards as rows exactly when the engine's `hello` lists the
/// `board-rows` extension (`goconform serve` does), and the games agree either way: behind a
/// filter that strikes the extension from `serve`'s `hello`, no request says `board_form`.
#[test]
fn boards_are_asked_as_rows_only_of_an_engine_that_speaks_them() {
    let games = |args: &[String]| {
        let mut engine = JsonlEngine::new("sh", args, JsonlOptions::default());
        let capabilities = engine.capabilities();
        let outcomes: Vec<String> = fuzz_games(&capabilities, 30)
            .iter()
            .map(|(_, case)| {
                let played = differential(&mut Reference::new(), &mut engine, case);
                assert!(matches!(played, Played::Agreed { .. }), "{played:?}");
                format!("{played:?}")
            })
            .collect();
        outcomes
    };
    let (_dir, log, args) = logged_serve();
    let with_rows = games(&args);
    let runs = logged_runs(&log);
    assert_eq!(runs.len(), 30);
    assert!(
        runs.iter().all(|r| r["board_form"] == "rows"),
        "{:?}",
        runs[0]
    );

    let (_dir, log, mut args) = logged_serve();
    args[1] = format!(
        "{} | sed -u 's/,\"extensions\":\\[\"board-rows\"\\]//'",
        args[1]
    );
    let with_pairs = games(&args);
    let runs = logged_runs(&log);
    assert_eq!(runs.len(), 30);
    assert!(
        runs.iter().all(|r| r.get("board_form").is_none()),
        "{:?}",
        runs[0]
    );
    assert_eq!(with_rows, with_pairs);
}

/// The fuzzing games of seed 7 for an engine with `capabilities`, numbered.
fn fuzz_games(capabilities: &goconform::conformance::Capabilities, n: u64) -> Vec<(u64, Case)> {
    (0..n)
        .map(|game| {
            let case = GameInput::from_bytes(&game_bytes(7, game)).realise(capabilities);
            (game, case)
        })
        .collect()
}

/// Plays `games` through `engine` in batches sent ahead ([`Ahead`]), as `goconform fuzz` does.
fn play_ahead(engine: &mut dyn Referee, games: &[(u64, Case)], batch: usize) -> Vec<Played> {
    play_ahead_between(engine, games, batch, None)
}

/// [`play_ahead`], with the game `between` played on the same engine after the fifth game,
/// while the games after it are sent ahead (its outcome is not among those returned).
fn play_ahead_between(
    engine: &mut dyn Referee,
    games: &[(u64, Case)],
    batch: usize,
    between: Option<&Case>,
) -> Vec<Played> {
    let mut ahead = Ahead::new(batch);
    let mut reference = Reference::new();
    let mut source = games.iter().cloned();
    let mut outcomes = Vec::new();
    while let Some((game, _, played)) = ahead.next(&mut reference, engine, &mut |_| source.next()) {
        assert_eq!(game, outcomes.len() as u64, "games come back in order");
        outcomes.push(played);
        if let (5, Some(case)) = (outcomes.len(), between) {
            let played = differential(&mut Reference::new(), engine, case);
            assert!(matches!(played, Played::Agreed { .. }), "{played:?}");
        }
    }
    outcomes
}

/// Games sent ahead in batches are answered exactly as games asked one at a time: the same
/// outcome for every game, and one `run` request a game (none sent twice, none lost), even
/// with a game nobody foresaw played between them.
#[test]
fn games_sent_ahead_are_answered_as_games_asked_in_turn() {
    let (_dir, log, args) = logged_serve();
    let make = || JsonlEngine::new("sh", &args, JsonlOptions::default());
    let mut engine = make();
    let games = fuzz_games(&engine.capabilities(), 40);
    // A game nobody foresaw comes between: the replies to the requests sent ahead of it are
    // kept for their games, not lost and asked again.
    let between = games
        .iter()
        .map(|(_, case)| case)
        .find(|case| case.events.len() > 3)
        .expect("a game with events");
    let ahead = play_ahead_between(&mut engine, &games, 8, Some(between));
    drop(engine);
    let runs = logged_runs(&log).len();
    assert_eq!(
        runs, 41,
        "one request for each of the 40 games and the one between"
    );
    let mut engine = make();
    let in_turn: Vec<Played> = games
        .iter()
        .map(|(_, case)| differential(&mut Reference::new(), &mut engine, case))
        .collect();
    assert_eq!(ahead, in_turn);
    assert!(
        ahead.iter().all(|p| matches!(p, Played::Agreed { .. })),
        "{ahead:?}"
    );
}

/// A fault in the middle of a batch sent ahead (a hang, a crash, garbage, a skip, an error
/// reply, on the games of one board size) is met at the same game and event, and worded the
/// same, as when every game is asked in turn; the games after it are answered by a new
/// engine and agree.
#[test]
fn a_fault_in_a_batch_sent_ahead_is_met_where_it_is_met_in_turn() {
    let options = JsonlOptions {
        timeout: Duration::from_millis(1500),
        strict: false,
        ..JsonlOptions::default()
    };
    let games = fuzz_games(&fake("pass", &[], options.clone()).capabilities(), 24);
    // The size of the fewest games (at least one): the fault strikes those alone, and only
    // from their sixth event, so that the start is answered.
    let mut sizes = std::collections::BTreeMap::<u8, usize>::new();
    for (_, case) in &games {
        if case.events.len() >= 8 {
            *sizes.entry(case.setup.width).or_default() += 1;
        }
    }
    let (&size, _) = sizes
        .iter()
        .min_by_key(|(_, n)| **n)
        .expect("some long game");
    let when = ["--size", &size.to_string(), "--events", "6"].map(str::to_string);
    let when: Vec<&str> = when.iter().map(String::as_str).collect();
    for (mode, text) in [
        ("hang", "within"),
        ("crash", "deliberate crash"),
        ("garbage", "not a protocol message"),
        ("skip", "skipped the trial"),
        ("error", "deliberate error"),
    ] {
        let ahead = play_ahead(&mut fake(mode, &when, options.clone()), &games, 8);
        let mut engine = fake(mode, &when, options.clone());
        let in_turn: Vec<Played> = games
            .iter()
            .map(|(_, case)| differential(&mut Reference::new(), &mut engine, case))
            .collect();
        // Request ids are the harness's own numbering (a game sent ahead takes its number
        // when it is sent), so the fake engine's words may name another id.
        assert_eq!(without_ids(&ahead), without_ids(&in_turn), "{mode}");
        let faults = ahead
            .iter()
            .filter(
                |p| matches!(p, Played::Diverged(d) if d.key == "error" && d.actual.contains(text)),
            )
            .count();
        assert!(faults >= 1, "{mode}: {ahead:?}");
        let agreed = ahead
            .iter()
            .filter(|p| matches!(p, Played::Agreed { .. }))
            .count();
        assert_eq!(agreed + faults, games.len(), "{mode}: {ahead:?}");
    }
}

/// The outcomes written out with every request id (`t12.6`) made `t#.6`.
fn without_ids(outcomes: &[Played]) -> String {
    let text = format!("{outcomes:?}");
    let mut out = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find(" t") {
        out.push_str(&rest[..at + 2]);
        rest = &rest[at + 2..];
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits > 0 && rest[digits..].starts_with('.') {
            out.push('#');
            rest = &rest[digits..];
        }
    }
    out.push_str(rest);
    out
}

/// Requests sent ahead and requests posted but not yet written, with an ordinary request
/// between them: the ordinary one goes before the unwritten ones, the replies to the written
/// ones are kept for their games, and every game agrees, with one request each.
#[test]
fn an_ordinary_request_between_sent_and_unsent_posts_keeps_them_all_in_order() {
    use goconform::fuzzing::Prepared;
    let (_dir, log, args) = logged_serve();
    let mut engine = JsonlEngine::new("sh", &args, JsonlOptions::default());
    let caps = engine.capabilities();
    let games: Vec<Case> = fuzz_games(&caps, 40)
        .into_iter()
        .map(|(_, case)| case)
        .filter(|case| case.events.len() > 3)
        .take(4)
        .collect();
    let [a, b, c, d] = &games[..] else {
        panic!("four games with events")
    };
    let mut reference = Reference::new();
    let mut prepare = |case: &Case| Prepared::new(&mut reference, &caps, case).expect("a case");
    let (pa, pb, pc) = (prepare(a), prepare(b), prepare(c));
    let agreed = |played: Played| assert!(matches!(played, Played::Agreed { .. }), "{played:?}");
    pa.foretell(&mut engine, a);
    pb.foretell(&mut engine, b);
    // Waiting for A's reply writes A's and B's requests.
    agreed(pa.compare(&mut Reference::new(), &mut engine, a));
    // C's request is posted, not written; D was never foreseen: its request goes first.
    pc.foretell(&mut engine, c);
    agreed(differential(&mut Reference::new(), &mut engine, d));
    agreed(pb.compare(&mut Reference::new(), &mut engine, b));
    agreed(pc.compare(&mut Reference::new(), &mut engine, c));
    drop(engine);
    let ids: Vec<String> = logged_runs(&log)
        .iter()
        .map(|v| v["id"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(ids.len(), 4, "one request a game: {ids:?}");
}

/// `goconform serve` behind `tee`, which copies every request the engine reads into a log in a
/// temporary folder (kept while the first value lives): the folder, the log and the command.
fn logged_serve() -> (tempfile::TempDir, PathBuf, Vec<String>) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = dir.path().join("requests.jsonl");
    let script = format!(
        "tee -a '{}' | '{}' serve",
        log.display(),
        env!("CARGO_BIN_EXE_goconform")
    );
    (dir, log, vec!["-c".to_string(), script])
}

/// The `run` requests of a log of [`logged_serve`], in order.
fn logged_runs(log: &Path) -> Vec<Value> {
    let text = std::fs::read_to_string(log).expect("the log was written");
    text.lines()
        .map(|l| serde_json::from_str::<Value>(l).expect("a JSON request"))
        .filter(|v| v["type"] == "run")
        .collect()
}
