//! The JavaScript face of the library (cargo feature `wasm`, built for
//! `wasm32-unknown-unknown` and wrapped by `wasm-bindgen`; the npm package in `js/`).
//!
//! Nothing here decides a rule: a [`Game`] is the reference executor behind the
//! [`Referee`] trait ([`Reference`]), its answers spelled as the JSON-lines protocol spells a
//! step ([`WireStep`]); the specification and the suite are the copy embedded in the library
//! ([`crate::spec::embedded`]); [`check`] runs that suite through the library's own harness
//! against a JavaScript object that answers the protocol's requests, exactly as a JSON-lines
//! shim answers them on a pipe, and reports with the library's own report writer.
//!
//! Values cross the boundary as JSON text; `js/index.js` parses them and gives them types
//! (`js/index.d.ts`).

use std::cell::RefCell;
use std::collections::BTreeSet;
use std::path::Path;
use std::sync::OnceLock;

use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

use crate::board::{Color, Move, Point};
use crate::conformance::harness::select;
use crate::conformance::matrix::matrix;
use crate::conformance::report::write_jsonl;
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Harness, Observable, Observation, Referee, Reference,
    Tally, Tier, Unsupported, INTERPRETATION_VERSION,
};
use crate::engines::protocol::{
    encode_rules, read_reply, ReadReply, Reply, Request, WireObservation, WireSetup, WireStep,
};
use crate::engines::replay::{Answerer, Replay};
use crate::game::{Event, Setup, Verdict};
use crate::rules::Rules;
use crate::scenario::expectations::Expectations;
use crate::scenario::{Suite, SuiteFiles};
use crate::spec::{embedded, Spec};

/// The embedded specification, loaded once.
fn spec() -> Result<&'static Spec, JsError> {
    static SPEC: OnceLock<Result<Spec, String>> = OnceLock::new();
    SPEC.get_or_init(|| embedded::spec().map_err(|e| e.to_string()))
        .as_ref()
        .map_err(|e| JsError::new(&format!("the embedded specification is invalid: {e}")))
}

/// The embedded suite, loaded once.
fn suite() -> Result<&'static Suite, JsError> {
    static SUITE: OnceLock<Result<Suite, String>> = OnceLock::new();
    let spec = spec()?;
    SUITE
        .get_or_init(|| {
            SuiteFiles::new(embedded::scenario_texts())
                .check(spec)
                .map_err(|e| e.to_string())
        })
        .as_ref()
        .map_err(|e| JsError::new(&format!("the embedded suite is invalid: {e}")))
}

fn to_text(value: &impl serde::Serialize) -> Result<String, JsError> {
    serde_json::to_string(value).map_err(|e| JsError::new(&e.to_string()))
}

/// Everything the reference can show.
fn everything() -> BTreeSet<Observable> {
    Observable::ALL.iter().copied().collect()
}

/// The rules of a game's options: a ruleset's (`ruleset`, by name) or the default rules, then
/// each axis of `rules` (`{"ko": "simple", ...}`, the protocol's words) set over them.
fn rules_of(options: &Value) -> Result<Rules, String> {
    let mut rules = match options.get("ruleset") {
        None | Some(Value::Null) => Rules::default(),
        Some(Value::String(name)) => spec().map_err(|_| "no specification")?.rules(name)?,
        Some(other) => return Err(format!("`ruleset` must be a name, not {other}")),
    };
    match options.get("rules") {
        None | Some(Value::Null) => {}
        Some(Value::Object(axes)) => {
            for (axis, word) in axes {
                let word = match word {
                    Value::String(w) => w.clone(),
                    Value::Number(n) => n.to_string(),
                    other => return Err(format!("`rules.{axis}` must be a word, not {other}")),
                };
                rules
                    .set(axis, &word)
                    .map_err(|e| format!("`rules.{axis}`: {e}"))?;
            }
        }
        Some(other) => return Err(format!("`rules` must be an object, not {other}")),
    }
    Ok(rules)
}

/// The set-up of a game's options: `setup` in the protocol's form, else an empty board of
/// `size` (or `width` by `height`; 19 by default), Black first.
fn setup_of(options: &Value) -> Result<Setup, String> {
    if let Some(setup) = options.get("setup").filter(|s| !s.is_null()) {
        let wire: WireSetup =
            serde_json::from_value(setup.clone()).map_err(|e| format!("`setup`: {e}"))?;
        return wire.decode().map_err(|e| format!("`setup`: {e}"));
    }
    let dimension = |key: &str| -> Result<Option<u8>, String> {
        match options.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v
                .as_u64()
                .filter(|n| (2..=25).contains(n))
                .map(|n| Some(n as u8))
                .ok_or_else(|| format!("`{key}` must be a whole number from 2 to 25, not {v}")),
        }
    };
    let size = dimension("size")?.unwrap_or(19);
    let width = dimension("width")?.unwrap_or(size);
    let height = dimension("height")?.unwrap_or(size);
    Ok(Setup::empty(width, height))
}

/// A game under the reference executor: every event answered with the JSON-lines protocol's
/// step (the verdict, its reason or captures, and the observation after it: the board, the
/// player to move, prisoners, phase, the count, warnings).
#[wasm_bindgen]
pub struct Game {
    rules: Rules,
    setup: Setup,
    /// Every event given, the refused ones included (they change nothing, and a scenario
    /// written from the game keeps them with their verdicts).
    events: Vec<(Event, Verdict)>,
    reference: Reference,
    /// What each step shows (`observe` of the options; everything by default).
    observe: BTreeSet<Observable>,
}

/// The observations of a game's options: `observe`, the protocol's words (`["board",
/// "to-move"]`), or everything.
fn observe_of(options: &Value) -> Result<BTreeSet<Observable>, String> {
    match options.get("observe") {
        None | Some(Value::Null) => Ok(everything()),
        Some(Value::Array(words)) => words
            .iter()
            .map(|w| {
                w.as_str()
                    .and_then(Observable::from_word)
                    .ok_or_else(|| format!("`observe`: unknown observation {w}"))
            })
            .collect(),
        Some(other) => Err(format!("`observe` must be a list of words, not {other}")),
    }
}

#[wasm_bindgen]
impl Game {
    /// A game from its options, as JSON text: `{"ruleset": "aga", "rules": {"ko": "simple"},
    /// "size": 9}` or `{"setup": {...the protocol's set-up...}}`, and `observe`, what each step
    /// shows (the protocol's words; everything by default, the count included, which costs a
    /// count of the board each event).
    #[wasm_bindgen(constructor)]
    pub fn new(options: &str) -> Result<Game, JsError> {
        let options: Value = if options.trim().is_empty() {
            json!({})
        } else {
            serde_json::from_str(options)
                .map_err(|e| JsError::new(&format!("the game's options are not JSON: {e}")))?
        };
        if !options.is_object() {
            return Err(JsError::new("the game's options must be an object"));
        }
        let rules = rules_of(&options).map_err(|e| JsError::new(&e))?;
        let setup = setup_of(&options).map_err(|e| JsError::new(&e))?;
        let observe = observe_of(&options).map_err(|e| JsError::new(&e))?;
        let mut game = Game {
            rules,
            setup,
            events: Vec::new(),
            reference: Reference::new(),
            observe,
        };
        game.restart()?;
        Ok(game)
    }

    fn restart(&mut self) -> Result<(), JsError> {
        self.reference
            .start(&self.rules, &self.setup)
            .map_err(|Unsupported(why)| JsError::new(&why))
    }

    fn colour_to_move(&self) -> Color {
        self.reference
            .game()
            .map_or(self.setup.to_move, crate::game::Game::to_move)
    }

    /// What the reference shows, the count included when it is observed (as `goconform
    /// serve` observes it).
    fn seen(&self) -> Observation {
        let mut seen = self.reference.observe();
        if self.observe.contains(&Observable::Score)
            && seen.result.is_none()
            && seen.score.is_none()
        {
            (seen.result, seen.score) = self.reference.count();
        }
        seen
    }

    fn step(&mut self, event: Event) -> Result<String, JsError> {
        let verdict = self
            .reference
            .apply(&event)
            .map_err(|e| JsError::new(&e.message))?;
        let step = WireStep::encode(&verdict, &self.seen(), &self.observe);
        self.events.push((event, verdict));
        to_text(&step)
    }

    /// The player to move plays at a vertex (`D4`); the step as JSON text.
    pub fn play(&mut self, vertex: &str) -> Result<String, JsError> {
        let point = Point::parse_gtp(vertex, self.setup.width, self.setup.height)
            .map_err(|e| JsError::new(&format!("`{vertex}`: {e}")))?;
        let colour = self.colour_to_move();
        self.step(Event::Move(colour, Move::Play(point)))
    }

    /// The player to move passes; the step as JSON text.
    pub fn pass(&mut self) -> Result<String, JsError> {
        let colour = self.colour_to_move();
        self.step(Event::Move(colour, Move::Pass))
    }

    /// Any event in the scenario format's text (`B D4`, `W pass`, `B resign`, `agree C3 D4`,
    /// `dispute`, a referee's record such as `W B3!` or `notice`); the step as JSON text.
    pub fn event(&mut self, text: &str) -> Result<String, JsError> {
        let event = Event::parse(text, self.setup.width, self.setup.height)
            .map_err(|e| JsError::new(&format!("`{text}`: {e}")))?;
        self.step(event)
    }

    /// Takes back the last event: the game is replayed from its set-up without it. False when
    /// there was none.
    pub fn undo(&mut self) -> Result<bool, JsError> {
        if self.events.pop().is_none() {
            return Ok(false);
        }
        self.restart()?;
        for (event, _) in &self.events {
            self.reference
                .apply(event)
                .map_err(|e| JsError::new(&e.message))?;
        }
        Ok(true)
    }

    /// The observation as it stands (what the options observe), as JSON text.
    pub fn observe(&self) -> Result<String, JsError> {
        to_text(&WireObservation::encode(&self.seen(), &self.observe))
    }

    /// The events so far in their text form with each verdict's word and reason, as JSON
    /// text: `[{"event": "B D4", "verdict": "legal"}, ...]`.
    pub fn history(&self) -> Result<String, JsError> {
        let list: Vec<Value> = self
            .events
            .iter()
            .map(|(event, verdict)| {
                let step = WireStep::encode(verdict, &Observation::default(), &BTreeSet::new());
                let mut v = serde_json::to_value(step).unwrap_or(Value::Null);
                if let Value::Object(map) = &mut v {
                    map.remove("observation");
                    map.insert("event".to_string(), json!(event.to_string()));
                }
                v
            })
            .collect();
        to_text(&list)
    }

    /// The rules, every axis with its word, as JSON text.
    pub fn rules(&self) -> Result<String, JsError> {
        to_text(&encode_rules(&self.rules))
    }

    /// The set-up in the protocol's form, as JSON text.
    pub fn setup(&self) -> Result<String, JsError> {
        to_text(&WireSetup::encode(&self.setup))
    }
}

/// The version of the library and of the suite's interpretation, as JSON text.
#[wasm_bindgen]
pub fn version() -> String {
    json!({
        "version": env!("CARGO_PKG_VERSION"),
        "interpretation": INTERPRETATION_VERSION,
        "protocol": crate::engines::protocol::PROTOCOL_VERSION,
    })
    .to_string()
}

/// Every ruleset, with its title, description, clauses and rules (every axis with its
/// word), as JSON text.
#[wasm_bindgen]
pub fn rulesets() -> Result<String, JsError> {
    let spec = spec()?;
    let list = spec
        .rulesets()
        .map(|r| {
            let rules = spec.rules(&r.name).map(|rules| encode_rules(&rules));
            json!({
                "name": r.name,
                "title": r.title,
                "description": r.description,
                "extends": r.extends,
                "clauses": r.clauses,
                "rules": rules.ok(),
            })
        })
        .collect::<Vec<_>>();
    to_text(&list)
}

/// Every clause of the registry with its document, as JSON text.
#[wasm_bindgen]
pub fn clauses() -> Result<String, JsError> {
    let spec = spec()?;
    let list = spec
        .clauses
        .iter()
        .map(|c| {
            json!({
                "id": c.id,
                "document": c.document,
                "locator": c.locator,
                "summary": c.summary,
                "level": c.level.to_string(),
                "topic": c.topic,
                "note": c.note,
                "see": c.see,
            })
        })
        .collect::<Vec<_>>();
    to_text(&list)
}

/// Every board scenario of the suite: its id, file, title, description, clauses, runs,
/// set-up and events, and the file's TOML text, as JSON text.
#[wasm_bindgen]
pub fn scenarios() -> Result<String, JsError> {
    let suite = suite()?;
    let texts: std::collections::HashMap<String, String> = embedded::scenario_texts()
        .into_iter()
        .map(|(p, t)| (p.to_string_lossy().replace('\\', "/"), t))
        .collect();
    let list = suite
        .scenarios
        .iter()
        .map(|s| {
            let path = s.path.to_string_lossy().replace('\\', "/");
            json!({
                "id": s.id,
                "file": path,
                "topic": s.topic,
                "title": s.title,
                "description": s.description,
                "clauses": s.clauses,
                "checked": s.checked,
                "runs": s.runs.iter().map(|r| json!({
                    "label": r.label,
                    "ruleset": r.ruleset,
                    "rules": encode_rules(&r.rules),
                })).collect::<Vec<_>>(),
                "setup": WireSetup::encode(&s.setup),
                "events": s.events.iter().map(Event::to_string).collect::<Vec<_>>(),
                "toml": texts.get(&path),
            })
        })
        .collect::<Vec<_>>();
    to_text(&list)
}

/// The language-neutral vectors of every board trial (`docs/vectors.md`): `{"index": ...,
/// "vectors": [...]}` as JSON text.
#[wasm_bindgen]
pub fn vectors() -> Result<String, JsError> {
    let (vectors, index) = crate::conformance::vectors::vectors(suite()?);
    let vectors: Vec<Value> = vectors.into_iter().map(|v| v.json).collect();
    to_text(&json!({ "index": index, "vectors": vectors }))
}

thread_local! {
    /// The JavaScript engine of the check in progress. The harness makes its engines through
    /// a factory that must be `Sync`, which a JavaScript value is not: the factory finds the
    /// object here instead (WebAssembly without threads has the one thread).
    static ENGINE: RefCell<Option<JsValue>> = const { RefCell::new(None) };
}

/// A JavaScript object answering the protocol's requests (`answer(request) -> reply`, both
/// plain objects as a JSON-lines shim reads and writes them), behind [`Referee`]. Like the
/// harness's JSON-lines engine it keeps no game on the engine's side: its trials are replayed
/// by the same [`Replay`], so every answer must agree with the ones before it.
struct JsEngine {
    object: JsObject,
    replay: Replay,
}

/// The JavaScript object and what it said when it shook hands: how a request reaches it.
struct JsObject {
    object: JsValue,
    answer: Option<js_sys::Function>,
    strict: bool,
    hello: Result<(EngineInfo, Capabilities), EngineError>,
}

impl JsEngine {
    fn new(object: JsValue, strict: bool) -> JsEngine {
        let answer = js_sys::Reflect::get(&object, &JsValue::from_str("answer"))
            .ok()
            .and_then(|f| f.dyn_into::<js_sys::Function>().ok());
        let mut object = JsObject {
            object,
            answer,
            strict,
            hello: Err(EngineError::crash("no handshake")),
        };
        object.hello = object.handshake();
        JsEngine {
            object,
            replay: Replay::default(),
        }
    }
}

impl JsObject {
    fn handshake(&mut self) -> Result<(EngineInfo, Capabilities), EngineError> {
        match self
            .exchange(&Request::Hello {
                protocol: crate::engines::protocol::PROTOCOL_VERSION,
            })?
            .into_reply()
        {
            Reply::Hello(hello) => hello.decode().map_err(EngineError::protocol),
            Reply::Error(e) => Err(EngineError::crash(format!(
                "the engine refused the handshake: {}",
                e.message
            ))),
            other => Err(EngineError::protocol(format!(
                "the engine answered `hello` with `{}`",
                other.kind()
            ))),
        }
    }
}

impl Answerer for JsObject {
    /// An object whose handshake failed fails every trial the same way.
    fn ready(&mut self) -> Result<(), EngineError> {
        self.hello.as_ref().map(|_| ()).map_err(Clone::clone)
    }

    /// One request through `answer`: the request as a plain object, the reply read back from
    /// its JSON text (checked against the protocol's schema unless lenient).
    fn exchange(&mut self, request: &Request) -> Result<ReadReply, EngineError> {
        let Some(answer) = &self.answer else {
            return Err(EngineError::crash(
                "the engine object has no `answer(request)` method",
            ));
        };
        let request = js_sys::JSON::parse(&request.to_line())
            .map_err(|e| EngineError::crash(format!("cannot build the request: {e:?}")))?;
        let reply = answer
            .call1(&self.object, &request)
            .map_err(|e| EngineError::crash(format!("the engine threw: {}", describe(&e))))?;
        let line: String = js_sys::JSON::stringify(&reply)
            .map_err(|e| EngineError::protocol(format!("the reply is not JSON: {}", describe(&e))))?
            .into();
        read_reply(&line, self.strict).map_err(EngineError::protocol)
    }

    /// Nothing to clean up: the object is simply asked again.
    fn protocol_error(&mut self, message: String) -> EngineError {
        EngineError::protocol(format!("the engine broke the protocol: {message}"))
    }

    fn hello(&self) -> Result<&(EngineInfo, Capabilities), &EngineError> {
        self.hello.as_ref()
    }
}

fn describe(value: &JsValue) -> String {
    if let Some(e) = value.dyn_ref::<js_sys::Error>() {
        return String::from(e.message());
    }
    value.as_string().unwrap_or_else(|| format!("{value:?}"))
}

impl Referee for JsEngine {
    fn info(&self) -> EngineInfo {
        match &self.object.hello {
            Ok((info, _)) => info.clone(),
            Err(_) => EngineInfo {
                name: "javascript engine".to_string(),
                version: "unknown (no handshake)".to_string(),
            },
        }
    }

    fn capabilities(&self) -> Capabilities {
        match &self.object.hello {
            Ok((_, caps)) => caps.clone(),
            Err(_) => Capabilities::everything(),
        }
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.replay.start(&mut self.object, rules, setup)
    }

    fn announce(&mut self, events: &[Event]) {
        self.replay.announce(&mut self.object, events);
    }

    fn start_announced(
        &mut self,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Result<(), Unsupported> {
        self.replay
            .start_announced(&mut self.object, rules, setup, events)
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        self.replay.apply(&mut self.object, event)
    }

    fn observe(&self) -> Observation {
        self.replay.observe()
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.replay.count()
    }
}

/// Runs the embedded suite in this thread against `engine`, an object with an
/// `answer(request)` method returning the protocol's reply (the same objects a JSON-lines shim
/// reads and writes), as `goconform check` runs it against an engine in another process.
/// `options` (JSON text): `expectations` (an expectations file's TOML text), `tier`
/// (`"basic"` or `"strict"`), `lenient` (do not hold replies to the schema), and the filters
/// `rules`, `id`, `clause`, `topic`. Returns, as JSON text, the report `goconform check
/// --format jsonl` writes (`report`: its lines as objects), the run's `tally` (board trials
/// and tournament scenarios, as `check` counts them) and `board` (the board trials alone, as
/// `compare` counts them).
#[wasm_bindgen]
pub fn check(engine: JsValue, options: &str) -> Result<String, JsError> {
    let options: Value = if options.trim().is_empty() {
        json!({})
    } else {
        serde_json::from_str(options)
            .map_err(|e| JsError::new(&format!("the options are not JSON: {e}")))?
    };
    let word = |key: &str| options.get(key).and_then(Value::as_str).map(str::to_string);
    let spec = spec()?;
    let suite = suite()?;
    let expectations = match word("expectations") {
        None => None,
        Some(text) => Some(
            Expectations::parse(
                Path::new("expectations.toml"),
                &text,
                INTERPRETATION_VERSION,
            )
            .map_err(|errors| {
                let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
                JsError::new(&format!("invalid expectations file:\n{}", lines.join("\n")))
            })?,
        ),
    };
    if let Some(e) = &expectations {
        let unknown = e.unknown_in(suite);
        if !unknown.is_empty() {
            let lines: Vec<String> = unknown.iter().map(|e| e.to_string()).collect();
            return Err(JsError::new(&format!(
                "invalid expectations file:\n{}",
                lines.join("\n")
            )));
        }
    }
    let tier = match word("tier").as_deref() {
        None | Some("auto") => None,
        Some("basic") => Some(Tier::Basic),
        Some("strict") => Some(Tier::Strict),
        Some(other) => {
            return Err(JsError::new(&format!(
                "unknown tier `{other}`: basic, strict or auto"
            )))
        }
    };
    let strict = !options
        .get("lenient")
        .and_then(Value::as_bool)
        .unwrap_or(false);
    let (rules, id, clause, topic) = (word("rules"), word("id"), word("clause"), word("topic"));
    let selection = select(suite, |s, r| {
        rules
            .as_deref()
            .is_none_or(|f| r.label == f || r.ruleset == f)
            && id.as_deref().is_none_or(|t| s.id.contains(t))
            && clause
                .as_deref()
                .is_none_or(|c| s.clauses.iter().any(|x| x == c))
            && topic.as_deref().is_none_or(|t| s.topic == t)
    });
    // Tournament scenarios run through the reference alone: for any other engine each
    // selected one is not applicable, as `goconform check` counts it.
    let tournament: Vec<_> = suite
        .tournament
        .iter()
        .filter(|t| {
            rules.is_none()
                && id.as_deref().is_none_or(|x| t.id.contains(x))
                && clause
                    .as_deref()
                    .is_none_or(|c| t.clauses.iter().any(|x| x == c))
                && topic.as_deref().is_none_or(|x| t.topic == x)
        })
        .map(|t| (t, None))
        .collect();
    let harness = Harness {
        expectations: expectations.as_ref(),
        tier,
        jobs: 1,
        progress: false,
    };
    ENGINE.with(|e| *e.borrow_mut() = Some(engine));
    let factory = move || -> Box<dyn Referee> {
        let object = ENGINE.with(|e| e.borrow().clone()).unwrap_or(JsValue::NULL);
        Box::new(JsEngine::new(object, strict))
    };
    let report = harness.run(suite, &selection, &factory);
    ENGINE.with(|e| *e.borrow_mut() = None);
    let report = report.map_err(|e| JsError::new(&e.to_string()))?;
    let board = report.tally();
    let mut tally: Tally = board;
    tally.not_applicable += tournament.len();
    let matrix = matrix(suite, spec, &report);
    let mut out = Vec::new();
    write_jsonl(
        &mut out,
        suite,
        &report,
        &tournament,
        &tally,
        &matrix,
        &json!({
            "paths": Vec::<String>::new(),
            "rules": rules,
            "id": id,
            "clause": clause,
            "topic": topic,
            "engine": "javascript",
            "tier": word("tier").unwrap_or_else(|| "auto".to_string()),
            "expectations": expectations.as_ref().map(|_| "expectations.toml"),
        }),
        &|p| p.to_string_lossy().replace('\\', "/"),
    )
    .map_err(|e| JsError::new(&e.to_string()))?;
    let text = String::from_utf8_lossy(&out);
    let lines: Vec<Value> = text
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    to_text(&json!({
        "engine": report.engine,
        "tier": report.tier,
        "tally": tally,
        "board": board,
        "report": lines,
    }))
}

/// `games` random playouts on an empty `size` x `size` board under the ruleset `ruleset`, run
/// inside the module ([`crate::wasm_playout`], the same code as natively); as JSON text:
/// `{"games", "moves", "judged"}`.
#[wasm_bindgen]
pub fn playouts(ruleset: &str, size: u8, games: u32, seed: u32) -> Result<String, JsError> {
    let rules = spec()?.rules(ruleset).map_err(|e| JsError::new(&e))?;
    let done = crate::wasm_playout::random_playouts(rules, size, u64::from(games), u64::from(seed))
        .ok_or_else(|| JsError::new(&format!("no {size}x{size} board")))?;
    to_text(&done)
}
