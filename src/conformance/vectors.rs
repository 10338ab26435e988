//! Language-neutral test vectors: every board trial of the suite (a scenario under one of its
//! runs) as one JSON file that needs nothing of goconform to be understood, with an index and
//! a JSON Schema (`docs/vectors.schema.json`, described in `docs/vectors.md`). Engines in any
//! language run them with a small runner of their own (`tests/vectors/`), as toml-test and
//! JSON-Schema-Test-Suite are run.
//!
//! The words are the JSON-lines protocol's (docs/protocol.md): rules as axis words, the set-up
//! as `WireSetup`, events in their text form, vertices as GTP vertices.

use serde_json::{json, Map, Value};

use super::EventKind;
use crate::board::Point;
use crate::engines::protocol::{encode_rules, Points, WireSetup};
use crate::scenario::{Check, ExpectedVerdict, Scenario, Suite};

/// The version of the vector format: bumped when a field is removed or changes meaning.
pub const VECTOR_FORMAT_VERSION: u32 = 1;

/// The JSON Schema of a vector and of the index, as committed in `docs/`.
pub const SCHEMA: &str = include_str!("../../docs/vectors.schema.json");

/// One vector: its file name under the export folder, and its JSON.
#[derive(Clone, Debug)]
pub struct Vector {
    /// `TOPIC/SCENARIO.RUN.json`.
    pub file: String,
    /// The vector itself.
    pub json: Value,
}

fn sorted_vertices(points: &[Point]) -> Vec<String> {
    let mut v: Vec<String> = points.iter().map(Point::to_string).collect();
    v.sort();
    v
}

/// The vectors of every board trial of `suite`, in suite order, and the index.
pub fn vectors(suite: &Suite) -> (Vec<Vector>, Value) {
    let mut out = Vec::new();
    for scenario in &suite.scenarios {
        for run in 0..scenario.runs.len() {
            out.push(vector(scenario, run));
        }
    }
    let entries: Vec<Value> = out
        .iter()
        .map(|v| {
            json!({
                "id": v.json["id"],
                "file": v.file,
                "scenario": v.json["scenario"]["id"],
                "run": v.json["run"],
            })
        })
        .collect();
    let index = json!({
        "format": VECTOR_FORMAT_VERSION,
        "suite": env!("CARGO_PKG_VERSION"),
        "interpretation": super::INTERPRETATION_VERSION,
        "count": entries.len(),
        "vectors": entries,
    });
    (out, index)
}

/// The vector of run `run` of `scenario`.
pub fn vector(scenario: &Scenario, run: usize) -> Vector {
    let r = &scenario.runs[run];
    let mut kinds: Vec<&str> = scenario
        .events
        .iter()
        .filter_map(EventKind::of)
        .map(EventKind::word)
        .collect();
    kinds.sort_unstable();
    kinds.dedup();
    let mut after: Vec<(usize, Map<String, Value>)> = Vec::new();
    for e in scenario
        .expectations
        .iter()
        .filter(|e| e.runs.contains(&run))
    {
        let slot = match after.iter().position(|(a, _)| *a == e.after) {
            Some(k) => k,
            None => {
                let mut m = Map::new();
                m.insert("after".into(), json!(e.after));
                after.push((e.after, m));
                after.len() - 1
            }
        };
        let m = &mut after[slot].1;
        for check in &e.checks {
            let (key, value) = check_json(check);
            m.entry(key).or_insert(value);
        }
        if let Some(note) = &e.note {
            m.entry("note").or_insert(json!(note));
        }
    }
    after.sort_by_key(|(a, _)| *a);
    let id = format!("{}.{}", scenario.id, r.label);
    let json = json!({
        "format": VECTOR_FORMAT_VERSION,
        "id": id,
        "scenario": {
            "id": scenario.id,
            "file": project_path(scenario),
            "topic": scenario.topic,
            "title": scenario.title,
            "clauses": scenario.clauses,
        },
        "run": r.label,
        "ruleset": r.ruleset,
        "rules": encode_rules(&r.rules),
        "setup": WireSetup::encode(&scenario.setup),
        "events": scenario.events.iter().map(|e| e.to_string()).collect::<Vec<_>>(),
        "event_kinds": kinds,
        "record": scenario.needs_record(),
        "expect": after.into_iter().map(|(_, m)| Value::Object(m)).collect::<Vec<_>>(),
    });
    Vector {
        file: format!("{}/{id}.json", scenario.topic),
        json,
    }
}

/// The scenario's file relative to the project (`conformance/TOPIC/ID.toml`), wherever the
/// suite was loaded from.
fn project_path(scenario: &Scenario) -> String {
    let text = scenario.path.to_string_lossy().replace('\\', "/");
    match text.rfind("conformance/") {
        Some(at) => text[at..].to_string(),
        None => text,
    }
}

fn check_json(check: &Check) -> (String, Value) {
    let pair = |k: &str, v: Value| (k.to_string(), v);
    match check {
        Check::Verdict(ExpectedVerdict::Legal) => pair("verdict", json!("legal")),
        Check::Verdict(ExpectedVerdict::Illegal(reason)) => {
            pair("verdict", json!({"illegal": reason.word()}))
        }
        Check::Verdict(ExpectedVerdict::Breach(reason)) => {
            pair("verdict", json!({"breach": reason.word()}))
        }
        Check::Verdict(ExpectedVerdict::Ruled(ruling)) => {
            pair("verdict", json!({"ruling": ruling.word()}))
        }
        Check::Captures(points) => pair("captures", json!(sorted_vertices(points))),
        Check::SelfCaptures(points) => pair("self_captures", json!(sorted_vertices(points))),
        Check::Board(stones) => {
            let mut v: Vec<(String, String)> = stones
                .iter()
                .map(|(p, c)| (p.to_string(), c.letter().to_string()))
                .collect();
            v.sort();
            pair("board", json!(v))
        }
        Check::Prisoners(p) => pair("prisoners", json!(p)),
        Check::ToMove(c) => pair("to_move", json!(c.letter().to_string())),
        Check::Phase(p) => pair("phase", json!(p.word())),
        Check::Result(r) => pair("result", json!(r)),
        Check::Score([b, w]) => pair("score", json!([Points(*b), Points(*w)])),
        Check::Class(c) => pair("class", json!(c.word())),
        Check::Warnings(w) => pair("warnings", json!(w)),
    }
}

/// A validator of vectors and of the index against [`SCHEMA`]: problems in words.
pub struct Validator {
    schemas: boon::Schemas,
    vector: boon::SchemaIndex,
    index: boon::SchemaIndex,
}

impl Validator {
    /// Compiles the committed schema.
    pub fn new() -> Result<Validator, String> {
        let schema: Value =
            serde_json::from_str(SCHEMA).map_err(|e| format!("vectors.schema.json: {e}"))?;
        let mut compiler = boon::Compiler::new();
        let url = "https://goconform.invalid/vectors.schema.json";
        compiler
            .add_resource(url, schema)
            .map_err(|e| e.to_string())?;
        let mut schemas = boon::Schemas::new();
        let vector = compiler
            .compile(&format!("{url}#/$defs/vector"), &mut schemas)
            .map_err(|e| e.to_string())?;
        let index = compiler
            .compile(&format!("{url}#/$defs/index"), &mut schemas)
            .map_err(|e| e.to_string())?;
        Ok(Validator {
            schemas,
            vector,
            index,
        })
    }

    /// Checks a vector.
    pub fn vector(&self, value: &Value) -> Result<(), String> {
        self.schemas
            .validate(value, self.vector)
            .map_err(|e| format!("{e:#}"))
    }

    /// Checks the index.
    pub fn index(&self, value: &Value) -> Result<(), String> {
        self.schemas
            .validate(value, self.index)
            .map_err(|e| format!("{e:#}"))
    }
}
