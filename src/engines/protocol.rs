//! The JSON-lines engine protocol, version 1: the messages both sides exchange, their serde
//! form, the conversions to and from the crate's types, and [`validate_reply`] /
//! [`validate_request`], the checks behind `docs/protocol.schema.json`.
//!
//! One JSON object per line in each direction, every one with a `type`. The harness sends
//! `hello`, then one `run` per trial (the whole set-up, the rules and every event of the trial
//! in one request), then `bye`; the engine answers `hello` with its name and capabilities and
//! each `run` with a `result` (one step per event), `skipped` or `error`. `docs/protocol.md`
//! documents every message with examples; the harness side is [`super::jsonl`], the engine
//! side for the reference [`super::serve`].
//!
//! The serde types are lenient (unknown fields are ignored, optional fields have defaults);
//! the `decode` methods turn them into the crate's types and refuse anything contradictory
//! (an unknown word, a vertex off the board, a legal verdict with a reason). The validators
//! are the strict reading: every rule of the JSON Schema, unknown fields included, with every
//! problem reported and not only the first.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::{Map, Value};

use crate::board::{Color, Point};
use crate::conformance::{Capabilities, EngineInfo, EventKind, Observable, Observation};
use crate::game::{Class, Event, Phase, Reason, Ruling, Setup, SetupHistory, Verdict};
use crate::rules::{Rules, AXES};
use crate::scenario::Stones;

/// The version of the protocol this crate speaks. A `hello` with another number is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line either side may send: 4 MiB.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

// ---------------------------------------------------------------------------------------------
// Messages from the harness to the engine.

/// A message from the harness to the engine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request {
    /// The first message: the protocol version the harness speaks.
    Hello { protocol: u32 },
    /// One trial.
    Run(RunRequest),
    /// The last message: the engine exits.
    Bye,
}

/// One trial: the rules, the whole set-up and every event, in one request.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunRequest {
    /// Chosen by the harness and echoed in the answer; nothing else may be read into it.
    pub id: String,
    /// Every rules axis with its word (`"ko": "situational"`, `"komi": "7.5"`).
    pub rules: BTreeMap<String, String>,
    pub setup: WireSetup,
    /// The events in their scenario text form (`B D4`, `W pass`, `agree C3`, ...).
    pub events: Vec<String>,
    /// The observations to return after the start and after every event (words of
    /// [`Observable`]; only `board`, `to-move`, `prisoners`, `phase`, `score` and
    /// `procedures` change what an observation holds).
    #[serde(default)]
    pub observe: Vec<String>,
}

/// A [`Setup`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireSetup {
    pub width: u8,
    pub height: u8,
    /// `[vertex, colour]` pairs: `[["D4", "B"], ["C3", "W"]]`.
    #[serde(default)]
    pub stones: Vec<(String, String)>,
    /// Black's handicap stones, on top of `stones`; with any, White moves first.
    #[serde(default)]
    pub handicap: Vec<String>,
    /// `B` or `W`.
    pub to_move: String,
    /// `played` or `excluded`.
    #[serde(default = "played")]
    pub history: String,
    #[serde(default)]
    pub handicap_as_placed: bool,
}

fn played() -> String {
    SetupHistory::Played.word().to_string()
}

// ---------------------------------------------------------------------------------------------
// Messages from the engine to the harness.

/// A message from the engine to the harness.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Reply {
    /// The answer to `hello`: who the engine is and what it can do.
    Hello(HelloReply),
    /// The answer to `run`: the initial observation and one step per event.
    Result(RunResult),
    /// The engine cannot play this trial (a board size, a set-up it does not handle): the
    /// trial is not applicable.
    Skipped(Skipped),
    /// The engine broke down on this request: the trial is an error.
    Error(ErrorReply),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HelloReply {
    pub protocol: u32,
    pub engine: WireEngine,
    pub capabilities: WireCapabilities,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireEngine {
    pub name: String,
    pub version: String,
}

/// [`Capabilities`] on the wire, in the shape `Capabilities` serialises to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireCapabilities {
    /// For each axis listed, the only values supported; an axis not listed takes every value.
    #[serde(default)]
    pub axes: BTreeMap<String, Vec<String>>,
    /// Words of [`Observable`].
    #[serde(default)]
    pub observes: Vec<String>,
    /// The reasons it refuses moves for; absent or `null` for every reason.
    #[serde(default)]
    pub judges: Option<Vec<String>>,
    /// The kinds of event it takes; absent or `null` for every kind.
    #[serde(default)]
    pub events: Option<Vec<String>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    pub id: String,
    /// What the engine shows after the start, before any event.
    #[serde(default)]
    pub initial: WireObservation,
    /// One step per event, in order.
    pub steps: Vec<WireStep>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    pub id: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The request's id; `null` when the request could not be read.
    pub id: Option<String>,
    pub message: String,
    /// Anything that helps to understand the error (free form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Value>,
}

/// The verdict on one event and what the engine shows after it.
///
/// The verdict is flat: `"verdict"` is `legal` (with `captured` and `self_captured`),
/// `illegal` (with a `reason`), `breach` (with a `reason` and a `class`) or `ruled` (with a
/// `ruling`); the words are those of [`Reason`], [`Class`] and [`Ruling`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireStep {
    pub verdict: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<Vec<String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_captured: Option<Vec<String>>,
    #[serde(default)]
    pub observation: WireObservation,
}

/// An [`Observation`] on the wire. A field left out is something the engine does not show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireObservation {
    /// `[vertex, colour]` pairs, in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<(String, String)>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    /// `[black, white]`, pass stones included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prisoners: Option<[u32; 2]>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phase: Option<String>,
    /// SGF `RE` form: `B+3.5`, `W+R`, `0`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// `[black, white]` in points (whole or half).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<[Points; 2]>,
    /// `[black, white]`: warnings of a referee's record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warnings: Option<[u32; 2]>,
}

/// A whole or half number of points, kept exactly as half points. On the wire a JSON number:
/// `42`, `3.5`, `-0.5`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Points(pub i32);

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.0 % 2 == 0 {
            serializer.serialize_i64(i64::from(self.0 / 2))
        } else {
            serializer.serialize_f64(f64::from(self.0) / 2.0)
        }
    }
}

impl<'de> Deserialize<'de> for Points {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Points, D::Error> {
        let value = f64::deserialize(deserializer)?;
        points_from_f64(value).ok_or_else(|| {
            serde::de::Error::custom(format!("{value} is not a whole or half number of points"))
        })
    }
}

fn points_from_f64(value: f64) -> Option<Points> {
    let doubled = value * 2.0;
    (value.is_finite() && doubled.fract() == 0.0 && doubled.abs() <= 1e9)
        .then_some(Points(doubled as i32))
}

// ---------------------------------------------------------------------------------------------
// Conversions.

/// Every axis of `rules` with its word.
pub fn encode_rules(rules: &Rules) -> BTreeMap<String, String> {
    AXES.iter()
        .filter_map(|axis| Some((axis.to_string(), rules.get(axis)?)))
        .collect()
}

/// Rules from their words: every axis must be given, and no other.
pub fn decode_rules(words: &BTreeMap<String, String>) -> Result<Rules, String> {
    let mut rules = Rules::default();
    let mut problems = Vec::new();
    for (axis, value) in words {
        if let Err(e) = rules.set(axis, value) {
            problems.push(e.to_string());
        }
    }
    let missing: Vec<&str> = AXES
        .iter()
        .copied()
        .filter(|a| !words.contains_key(*a))
        .collect();
    if !missing.is_empty() {
        problems.push(format!("rules: missing axes {}", missing.join(", ")));
    }
    if problems.is_empty() {
        Ok(rules)
    } else {
        Err(problems.join("; "))
    }
}

fn color_word(color: Color) -> String {
    color.letter().to_string()
}

fn decode_color(text: &str) -> Result<Color, String> {
    match text {
        "B" => Ok(Color::Black),
        "W" => Ok(Color::White),
        other => Err(format!("`{other}` is not a colour: expected B or W")),
    }
}

fn decode_point(text: &str, width: u8, height: u8) -> Result<Point, String> {
    Point::parse_gtp(text, width, height).map_err(|e| e.to_string())
}

fn decode_points(texts: &[String], width: u8, height: u8) -> Result<Vec<Point>, String> {
    texts
        .iter()
        .map(|t| decode_point(t, width, height))
        .collect()
}

fn encode_stones(stones: &[(Point, Color)]) -> Vec<(String, String)> {
    stones
        .iter()
        .map(|(p, c)| (p.to_string(), color_word(*c)))
        .collect()
}

/// Stones from `[vertex, colour]` pairs, sorted by point; a point given twice is an error.
fn decode_stones(pairs: &[(String, String)], width: u8, height: u8) -> Result<Stones, String> {
    let mut stones = pairs
        .iter()
        .map(|(v, c)| Ok((decode_point(v, width, height)?, decode_color(c)?)))
        .collect::<Result<Stones, String>>()?;
    stones.sort();
    if let Some(w) = stones.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("the point {} is given twice", w[0].0));
    }
    Ok(stones)
}

impl WireSetup {
    /// The set-up as it is, stones in the order given (an engine may depend on it, say for
    /// the order in which it lists captures).
    pub fn encode(setup: &Setup) -> WireSetup {
        WireSetup {
            width: setup.width,
            height: setup.height,
            stones: encode_stones(&setup.stones),
            handicap: setup.handicap.iter().map(|p| p.to_string()).collect(),
            to_move: color_word(setup.to_move),
            history: setup.history.word().to_string(),
            handicap_as_placed: setup.handicap_as_placed,
        }
    }

    /// The set-up, with its vertices read on its own board. Whether the position can start a
    /// game is for the engine to say.
    pub fn decode(&self) -> Result<Setup, String> {
        let (w, h) = (self.width, self.height);
        let history = [SetupHistory::Played, SetupHistory::Excluded]
            .into_iter()
            .find(|s| s.word() == self.history)
            .ok_or_else(|| {
                format!(
                    "unknown history `{}`; expected played or excluded",
                    self.history
                )
            })?;
        Ok(Setup {
            width: w,
            height: h,
            stones: self
                .stones
                .iter()
                .map(|(v, c)| Ok((decode_point(v, w, h)?, decode_color(c)?)))
                .collect::<Result<_, String>>()?,
            handicap: decode_points(&self.handicap, w, h)?,
            to_move: decode_color(&self.to_move)?,
            history,
            handicap_as_placed: self.handicap_as_placed,
        })
    }
}

impl RunRequest {
    /// The request for a trial: every axis of `rules`, the set-up, the events and the
    /// observations wanted.
    pub fn new(
        id: impl Into<String>,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
        observe: &BTreeSet<Observable>,
    ) -> RunRequest {
        RunRequest {
            id: id.into(),
            rules: encode_rules(rules),
            setup: WireSetup::encode(setup),
            events: events.iter().map(|e| e.to_string()).collect(),
            observe: observe.iter().map(|o| o.word().to_string()).collect(),
        }
    }

    /// The rules, the set-up, the events and the observations wanted.
    pub fn decode(&self) -> Result<(Rules, Setup, Vec<Event>, BTreeSet<Observable>), String> {
        let rules = decode_rules(&self.rules)?;
        let setup = self.setup.decode()?;
        let events = self
            .events
            .iter()
            .enumerate()
            .map(|(k, text)| {
                Event::parse(text, setup.width, setup.height)
                    .map_err(|e| format!("events[{k}]: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        let observe = self
            .observe
            .iter()
            .map(|w| Observable::from_word(w).ok_or_else(|| format!("unknown observation `{w}`")))
            .collect::<Result<BTreeSet<_>, _>>()?;
        Ok((rules, setup, events, observe))
    }
}

impl WireObservation {
    /// What `observation` shows of what `observe` asks for.
    pub fn encode(observation: &Observation, observe: &BTreeSet<Observable>) -> WireObservation {
        let wants = |o: Observable| observe.contains(&o);
        WireObservation {
            board: observation
                .stones
                .as_ref()
                .filter(|_| wants(Observable::Board))
                .map(|s| encode_stones(s)),
            to_move: observation
                .to_move
                .filter(|_| wants(Observable::ToMove))
                .map(color_word),
            prisoners: observation
                .prisoners
                .filter(|_| wants(Observable::Prisoners)),
            phase: observation
                .phase
                .filter(|_| wants(Observable::Phase))
                .map(|p| p.word().to_string()),
            result: observation
                .result
                .clone()
                .filter(|_| wants(Observable::Score)),
            score: observation
                .score
                .filter(|_| wants(Observable::Score))
                .map(|[b, w]| [Points(b), Points(w)]),
            warnings: observation
                .warnings
                .filter(|_| wants(Observable::Procedures)),
        }
    }

    /// The observation, its vertices read on a `width` x `height` board.
    pub fn decode(&self, width: u8, height: u8) -> Result<Observation, String> {
        Ok(Observation {
            stones: self
                .board
                .as_ref()
                .map(|b| decode_stones(b, width, height))
                .transpose()
                .map_err(|e| format!("board: {e}"))?,
            to_move: self
                .to_move
                .as_deref()
                .map(decode_color)
                .transpose()
                .map_err(|e| format!("to_move: {e}"))?,
            prisoners: self.prisoners,
            phase: self
                .phase
                .as_deref()
                .map(str::parse::<Phase>)
                .transpose()
                .map_err(|e| format!("phase: {e}"))?,
            result: self.result.clone(),
            score: self.score.map(|[b, w]| [b.0, w.0]),
            warnings: self.warnings,
        })
    }
}

impl WireStep {
    pub fn encode(
        verdict: &Verdict,
        observation: &Observation,
        observe: &BTreeSet<Observable>,
    ) -> WireStep {
        let mut step = WireStep {
            observation: WireObservation::encode(observation, observe),
            ..WireStep::default()
        };
        let word = |w: &str| Some(w.to_string());
        match verdict {
            Verdict::Legal {
                captured,
                self_captured,
            } => {
                step.verdict = "legal".to_string();
                step.captured = Some(captured.iter().map(|p| p.to_string()).collect());
                step.self_captured = Some(self_captured.iter().map(|p| p.to_string()).collect());
            }
            Verdict::Illegal(reason) => {
                step.verdict = "illegal".to_string();
                step.reason = word(reason.word());
            }
            Verdict::Breach { reason, class } => {
                step.verdict = "breach".to_string();
                step.reason = word(reason.word());
                step.class = word(class.word());
            }
            Verdict::Ruled(ruling) => {
                step.verdict = "ruled".to_string();
                step.ruling = word(ruling.word());
            }
        }
        step
    }

    /// The verdict and the observation, vertices read on a `width` x `height` board.
    pub fn decode(&self, width: u8, height: u8) -> Result<(Verdict, Observation), String> {
        let verdict = self.decode_verdict(width, height)?;
        let observation = self
            .observation
            .decode(width, height)
            .map_err(|e| format!("observation: {e}"))?;
        Ok((verdict, observation))
    }

    fn decode_verdict(&self, width: u8, height: u8) -> Result<Verdict, String> {
        let present = [
            ("reason", self.reason.is_some()),
            ("class", self.class.is_some()),
            ("ruling", self.ruling.is_some()),
            ("captured", self.captured.is_some()),
            ("self_captured", self.self_captured.is_some()),
        ];
        let allowed: &[&str] = match self.verdict.as_str() {
            "legal" => &["captured", "self_captured"],
            "illegal" => &["reason"],
            "breach" => &["reason", "class"],
            "ruled" => &["ruling"],
            other => {
                return Err(format!(
                    "unknown verdict `{other}`; expected legal, illegal, breach or ruled"
                ))
            }
        };
        if let Some((field, _)) = present
            .iter()
            .find(|(field, here)| *here && !allowed.contains(field))
        {
            return Err(format!("a `{}` verdict has no `{field}`", self.verdict));
        }
        let required = |field: &str, value: &Option<String>| {
            value
                .clone()
                .ok_or_else(|| format!("a `{}` verdict needs a `{field}`", self.verdict))
        };
        let reason = || -> Result<Reason, String> { required("reason", &self.reason)?.parse() };
        Ok(match self.verdict.as_str() {
            "legal" => Verdict::Legal {
                captured: decode_points(self.captured.as_deref().unwrap_or(&[]), width, height)
                    .map_err(|e| format!("captured: {e}"))?,
                self_captured: decode_points(
                    self.self_captured.as_deref().unwrap_or(&[]),
                    width,
                    height,
                )
                .map_err(|e| format!("self_captured: {e}"))?,
            },
            "illegal" => Verdict::Illegal(reason()?),
            "breach" => Verdict::Breach {
                reason: reason()?,
                class: required("class", &self.class)?.parse()?,
            },
            _ => Verdict::Ruled(required("ruling", &self.ruling)?.parse()?),
        })
    }
}

impl WireCapabilities {
    pub fn encode(capabilities: &Capabilities) -> WireCapabilities {
        WireCapabilities {
            axes: capabilities.axes.clone(),
            observes: capabilities
                .observes
                .iter()
                .map(|o| o.word().to_string())
                .collect(),
            judges: capabilities
                .judges
                .as_ref()
                .map(|set| set.iter().map(|r| r.word().to_string()).collect()),
            events: capabilities
                .events
                .as_ref()
                .map(|set| set.iter().map(|k| k.word().to_string()).collect()),
        }
    }

    /// The capabilities. Axis names are kept as given (the harness refuses unknown ones with
    /// its own message); every other word must be known.
    pub fn decode(&self) -> Result<Capabilities, String> {
        let observes = self
            .observes
            .iter()
            .map(|w| {
                Observable::from_word(w)
                    .ok_or_else(|| format!("observes: unknown observation `{w}`"))
            })
            .collect::<Result<BTreeSet<_>, _>>()?;
        let judges = self
            .judges
            .as_ref()
            .map(|words| {
                words
                    .iter()
                    .map(|w| w.parse::<Reason>().map_err(|e| format!("judges: {e}")))
                    .collect::<Result<BTreeSet<_>, _>>()
            })
            .transpose()?;
        let events = self
            .events
            .as_ref()
            .map(|words| {
                words
                    .iter()
                    .map(|w| {
                        EventKind::ALL
                            .iter()
                            .copied()
                            .find(|k| k.word() == w)
                            .ok_or_else(|| format!("events: unknown kind of event `{w}`"))
                    })
                    .collect::<Result<BTreeSet<_>, _>>()
            })
            .transpose()?;
        Ok(Capabilities {
            axes: self.axes.clone(),
            observes,
            judges,
            events,
        })
    }
}

impl HelloReply {
    pub fn new(info: &EngineInfo, capabilities: &Capabilities) -> HelloReply {
        HelloReply {
            protocol: PROTOCOL_VERSION,
            engine: WireEngine {
                name: info.name.clone(),
                version: info.version.clone(),
            },
            capabilities: WireCapabilities::encode(capabilities),
        }
    }

    /// Who the engine is and what it can do; a protocol other than ours is an error.
    pub fn decode(&self) -> Result<(EngineInfo, Capabilities), String> {
        if self.protocol != PROTOCOL_VERSION {
            return Err(format!(
                "the engine speaks protocol version {}, and this harness speaks version {PROTOCOL_VERSION}",
                self.protocol
            ));
        }
        let info = EngineInfo {
            name: self.engine.name.clone(),
            version: self.engine.version.clone(),
        };
        Ok((info, self.capabilities.decode()?))
    }
}

impl Request {
    /// The message as one line of JSON (without the newline).
    pub fn to_line(&self) -> String {
        to_line(self)
    }
}

impl Reply {
    /// The message as one line of JSON (without the newline).
    pub fn to_line(&self) -> String {
        to_line(self)
    }

    /// The `type` word of the message.
    pub fn kind(&self) -> &'static str {
        match self {
            Reply::Hello(_) => "hello",
            Reply::Result(_) => "result",
            Reply::Skipped(_) => "skipped",
            Reply::Error(_) => "error",
        }
    }
}

fn to_line<T: Serialize>(message: &T) -> String {
    // Serialising these types cannot fail: every map has string keys and no value is a float
    // that JSON cannot hold.
    serde_json::to_string(message).unwrap_or_else(|e| {
        format!(
            "{{\"type\":\"error\",\"id\":null,\"message\":{}}}",
            Value::String(format!("cannot write the message: {e}"))
        )
    })
}

// ---------------------------------------------------------------------------------------------
// Validation: the rules of docs/protocol.schema.json, every problem at once.

/// Checks one line from an engine against the protocol's schema (every field, every word,
/// no unknown field), reporting every problem with its path, such as
/// `steps[2].reason: unknown reason `kox``.
pub fn validate_reply(line: &str) -> Result<(), Vec<String>> {
    let mut v = Validator::default();
    if let Some(message) = v.parse(line) {
        match message.get("type").and_then(Value::as_str) {
            Some("hello") => v.hello_reply(&message),
            Some("result") => v.result(&message),
            Some("skipped") => v.skipped(&message),
            Some("error") => v.error(&message),
            _ => v.bad_type(&message, &["hello", "result", "skipped", "error"]),
        }
    }
    v.finish()
}

/// Checks one line from a harness against the protocol's schema.
pub fn validate_request(line: &str) -> Result<(), Vec<String>> {
    let mut v = Validator::default();
    if let Some(message) = v.parse(line) {
        match message.get("type").and_then(Value::as_str) {
            Some("hello") => v.hello_request(&message),
            Some("run") => v.run(&message),
            Some("bye") => {
                v.object("", &message, &["type"], &[]);
            }
            _ => v.bad_type(&message, &["hello", "run", "bye"]),
        }
    }
    v.finish()
}

#[derive(Default)]
struct Validator {
    problems: Vec<String>,
}

/// A path inside a message: `steps[2].observation.board`.
fn at(path: &str, key: impl fmt::Display) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn index(path: &str, i: usize) -> String {
    format!("{path}[{i}]")
}

fn show(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

/// A vertex as the protocol writes it: a capital column letter A-Z without I, then a row
/// number 1-25 without leading zeros (`^[A-HJ-Z]([1-9]|1[0-9]|2[0-5])$` in the schema).
pub fn is_vertex(text: &str) -> bool {
    let mut chars = text.chars();
    let Some(letter) = chars.next() else {
        return false;
    };
    let digits = chars.as_str();
    letter.is_ascii_uppercase()
        && letter != 'I'
        && !digits.starts_with('0')
        && (1..=2).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
        && digits.parse::<u8>().is_ok_and(|n| (1..=25).contains(&n))
}

/// A result as the suite writes it: `0`, `B+R`, `W+3.5`, `B+12`
/// (`^(0|[BW]\+(R|(0|[1-9][0-9]*)(\.5)?))$` in the schema).
pub fn is_result(text: &str) -> bool {
    if text == "0" {
        return true;
    }
    let Some(rest) = text.strip_prefix("B+").or_else(|| text.strip_prefix("W+")) else {
        return false;
    };
    rest == "R" || is_plain_number(rest.strip_suffix(".5").unwrap_or(rest))
}

/// `0` or a positive whole number without leading zeros.
fn is_plain_number(text: &str) -> bool {
    !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'))
}

/// A komi as the rules write it: `7.5`, `-0.5`, `6` (`^-?(0|[1-9][0-9]*)(\.5)?$`).
pub fn is_komi(text: &str) -> bool {
    let unsigned = text.strip_prefix('-').unwrap_or(text);
    is_plain_number(unsigned.strip_suffix(".5").unwrap_or(unsigned))
}

impl Validator {
    fn fail(&mut self, path: &str, message: impl fmt::Display) {
        let path = if path.is_empty() { "(message)" } else { path };
        self.problems.push(format!("{path}: {message}"));
    }

    fn finish(self) -> Result<(), Vec<String>> {
        if self.problems.is_empty() {
            Ok(())
        } else {
            Err(self.problems)
        }
    }

    fn parse(&mut self, line: &str) -> Option<Value> {
        if line.len() > MAX_LINE_BYTES {
            self.fail(
                "",
                format!("a line of {} bytes (at most {MAX_LINE_BYTES})", line.len()),
            );
            return None;
        }
        match serde_json::from_str::<Value>(line) {
            Ok(value @ Value::Object(_)) => Some(value),
            Ok(other) => {
                self.fail("", format!("expected a JSON object, got {}", show(&other)));
                None
            }
            Err(e) => {
                self.fail("", format!("not JSON: {e}"));
                None
            }
        }
    }

    fn bad_type(&mut self, message: &Value, allowed: &[&str]) {
        match message.get("type") {
            None => self.fail("type", "missing"),
            Some(t) => self.fail(
                "type",
                format!("{} is not one of {}", show(t), allowed.join(", ")),
            ),
        }
    }

    /// The object at `path` with its required and optional keys; unknown keys and missing
    /// required ones are reported.
    fn object<'a>(
        &mut self,
        path: &str,
        value: &'a Value,
        required: &[&str],
        optional: &[&str],
    ) -> Option<&'a Map<String, Value>> {
        let Some(map) = value.as_object() else {
            self.fail(path, format!("expected an object, got {}", show(value)));
            return None;
        };
        for key in required {
            if !map.contains_key(*key) {
                self.fail(&at(path, key), "missing");
            }
        }
        for key in map.keys() {
            if !required.contains(&key.as_str()) && !optional.contains(&key.as_str()) {
                self.fail(&at(path, key), "unknown field");
            }
        }
        Some(map)
    }

    fn string<'a>(&mut self, path: &str, value: &'a Value) -> Option<&'a str> {
        let text = value.as_str();
        if text.is_none() {
            self.fail(path, format!("expected a string, got {}", show(value)));
        }
        text
    }

    fn nonempty_string(&mut self, path: &str, value: &Value) {
        if self.string(path, value) == Some("") {
            self.fail(path, "must not be empty");
        }
    }

    fn protocol(&mut self, path: &str, value: &Value) {
        if value.as_u64() != Some(u64::from(PROTOCOL_VERSION)) {
            self.fail(
                path,
                format!(
                    "this is version {PROTOCOL_VERSION} of the protocol, not {}",
                    show(value)
                ),
            );
        }
    }

    /// A word of a closed list; `parse` gives the error that lists the allowed words.
    fn word<T>(&mut self, path: &str, value: &Value, parse: impl Fn(&str) -> Result<T, String>) {
        if let Some(text) = self.string(path, value) {
            if let Err(e) = parse(text) {
                self.fail(path, e);
            }
        }
    }

    fn array<'a>(&mut self, path: &str, value: &'a Value) -> Option<&'a Vec<Value>> {
        let items = value.as_array();
        if items.is_none() {
            self.fail(path, format!("expected an array, got {}", show(value)));
        }
        items
    }

    /// An array of words, each checked by `parse`, none given twice.
    fn words<T>(&mut self, path: &str, value: &Value, parse: impl Fn(&str) -> Result<T, String>) {
        let Some(items) = self.array(path, value) else {
            return;
        };
        for (i, item) in items.iter().enumerate() {
            self.word(&index(path, i), item, &parse);
            if items[..i].contains(item) {
                self.fail(&index(path, i), format!("{} is given twice", show(item)));
            }
        }
    }

    fn vertex(&mut self, path: &str, value: &Value) {
        if let Some(text) = self.string(path, value) {
            if !is_vertex(text) {
                self.fail(
                    path,
                    format!("`{text}` is not a vertex: a capital column letter A-Z without I and a row 1-25, like D4"),
                );
            }
        }
    }

    fn vertices(&mut self, path: &str, value: &Value) {
        if let Some(items) = self.array(path, value) {
            for (i, item) in items.iter().enumerate() {
                self.vertex(&index(path, i), item);
            }
        }
    }

    fn color(&mut self, path: &str, value: &Value) {
        self.word(path, value, |t| decode_color(t).map(|_| ()));
    }

    /// `[vertex, colour]` pairs, no point given twice.
    fn stones(&mut self, path: &str, value: &Value) {
        let Some(items) = self.array(path, value) else {
            return;
        };
        let mut seen = BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            let path = index(path, i);
            match item.as_array().map(Vec::as_slice) {
                Some([vertex, color]) => {
                    self.vertex(&index(&path, 0), vertex);
                    self.color(&index(&path, 1), color);
                    if let Some(v) = vertex.as_str() {
                        if !seen.insert(v) {
                            self.fail(&path, format!("the point {v} is given twice"));
                        }
                    }
                }
                _ => self.fail(
                    &path,
                    format!(
                        "expected a [vertex, colour] pair like [\"D4\", \"B\"], got {}",
                        show(item)
                    ),
                ),
            }
        }
    }

    fn count(&mut self, path: &str, value: &Value) {
        if value.as_u64().is_none_or(|n| n > u64::from(u32::MAX)) {
            self.fail(
                path,
                format!("expected a whole number 0 or more, got {}", show(value)),
            );
        }
    }

    /// `[black, white]`, each checked by `item`.
    fn pair(&mut self, path: &str, value: &Value, item: fn(&mut Validator, &str, &Value)) {
        match value.as_array().map(Vec::as_slice) {
            Some([b, w]) => {
                item(self, &index(path, 0), b);
                item(self, &index(path, 1), w);
            }
            _ => self.fail(
                path,
                format!("expected a [black, white] pair, got {}", show(value)),
            ),
        }
    }

    fn points(&mut self, path: &str, value: &Value) {
        if value.as_f64().and_then(points_from_f64).is_none() {
            self.fail(
                path,
                format!(
                    "expected a whole or half number of points, got {}",
                    show(value)
                ),
            );
        }
    }

    fn axis_value(&mut self, path: &str, axis: &str, value: &Value) {
        let Some(text) = self.string(path, value) else {
            return;
        };
        if let Err(e) = Rules::default().set(axis, text) {
            self.fail(path, e);
        } else if (axis == "komi" || axis == "handicap-komi") && !is_komi(text) {
            self.fail(
                path,
                format!("write a komi like 7.5, 6 or -0.5, not `{text}`"),
            );
        }
    }

    fn hello_request(&mut self, message: &Value) {
        if let Some(map) = self.object("", message, &["type", "protocol"], &[]) {
            if let Some(p) = map.get("protocol") {
                self.protocol("protocol", p);
            }
        }
    }

    fn run(&mut self, message: &Value) {
        let Some(map) = self.object(
            "",
            message,
            &["type", "id", "rules", "setup", "events", "observe"],
            &[],
        ) else {
            return;
        };
        if let Some(id) = map.get("id") {
            self.string("id", id);
        }
        if let Some(rules) = map.get("rules") {
            if let Some(rules) = self.object("rules", rules, AXES, &[]) {
                for (axis, value) in rules {
                    if AXES.contains(&axis.as_str()) {
                        self.axis_value(&at("rules", axis), axis, value);
                    }
                }
            }
        }
        if let Some(setup) = map.get("setup") {
            self.setup(setup);
        }
        if let Some(events) = map.get("events") {
            if let Some(items) = self.array("events", events) {
                for (i, item) in items.iter().enumerate() {
                    self.nonempty_string(&index("events", i), item);
                }
            }
        }
        if let Some(observe) = map.get("observe") {
            self.words("observe", observe, |w| {
                Observable::from_word(w).ok_or_else(|| format!("unknown observation `{w}`"))
            });
        }
    }

    fn setup(&mut self, value: &Value) {
        let fields = [
            "width",
            "height",
            "stones",
            "handicap",
            "to_move",
            "history",
            "handicap_as_placed",
        ];
        let Some(map) = self.object("setup", value, &fields, &[]) else {
            return;
        };
        for side in ["width", "height"] {
            if let Some(n) = map.get(side) {
                if n.as_u64().is_none_or(|n| !(2..=25).contains(&n)) {
                    self.fail(
                        &at("setup", side),
                        format!("expected a whole number from 2 to 25, got {}", show(n)),
                    );
                }
            }
        }
        if let Some(stones) = map.get("stones") {
            self.stones("setup.stones", stones);
        }
        if let Some(handicap) = map.get("handicap") {
            self.vertices("setup.handicap", handicap);
        }
        if let Some(c) = map.get("to_move") {
            self.color("setup.to_move", c);
        }
        if let Some(h) = map.get("history") {
            self.word("setup.history", h, |t| match t {
                "played" | "excluded" => Ok(()),
                other => Err(format!(
                    "unknown history `{other}`; expected played or excluded"
                )),
            });
        }
        if let Some(b) = map.get("handicap_as_placed") {
            if !b.is_boolean() {
                self.fail(
                    "setup.handicap_as_placed",
                    format!("expected true or false, got {}", show(b)),
                );
            }
        }
    }

    fn hello_reply(&mut self, message: &Value) {
        let Some(map) = self.object(
            "",
            message,
            &["type", "protocol", "engine", "capabilities"],
            &[],
        ) else {
            return;
        };
        if let Some(p) = map.get("protocol") {
            self.protocol("protocol", p);
        }
        if let Some(engine) = map.get("engine") {
            if let Some(engine) = self.object("engine", engine, &["name", "version"], &[]) {
                if let Some(name) = engine.get("name") {
                    self.nonempty_string("engine.name", name);
                }
                if let Some(version) = engine.get("version") {
                    self.string("engine.version", version);
                }
            }
        }
        if let Some(caps) = map.get("capabilities") {
            self.capabilities(caps);
        }
    }

    fn capabilities(&mut self, value: &Value) {
        let Some(map) = self.object(
            "capabilities",
            value,
            &["observes"],
            &["axes", "judges", "events"],
        ) else {
            return;
        };
        if let Some(axes) = map.get("axes") {
            if let Some(axes) = self.object("capabilities.axes", axes, &[], AXES) {
                for (axis, values) in axes {
                    if !AXES.contains(&axis.as_str()) {
                        continue;
                    }
                    let path = at("capabilities.axes", axis);
                    if let Some(items) = self.array(&path, values) {
                        for (i, item) in items.iter().enumerate() {
                            self.axis_value(&index(&path, i), axis, item);
                        }
                    }
                }
            }
        }
        if let Some(observes) = map.get("observes") {
            self.words("capabilities.observes", observes, |w| {
                Observable::from_word(w).ok_or_else(|| format!("unknown observation `{w}`"))
            });
        }
        if let Some(judges) = map.get("judges").filter(|v| !v.is_null()) {
            self.words("capabilities.judges", judges, str::parse::<Reason>);
        }
        if let Some(events) = map.get("events").filter(|v| !v.is_null()) {
            self.words("capabilities.events", events, |w| {
                EventKind::ALL
                    .iter()
                    .find(|k| k.word() == w)
                    .ok_or_else(|| format!("unknown kind of event `{w}`"))
            });
        }
    }

    fn result(&mut self, message: &Value) {
        let Some(map) = self.object("", message, &["type", "id", "initial", "steps"], &[]) else {
            return;
        };
        if let Some(id) = map.get("id") {
            self.string("id", id);
        }
        if let Some(initial) = map.get("initial") {
            self.observation("initial", initial);
        }
        if let Some(steps) = map.get("steps") {
            if let Some(items) = self.array("steps", steps) {
                for (i, step) in items.iter().enumerate() {
                    self.step(&index("steps", i), step);
                }
            }
        }
    }

    fn step(&mut self, path: &str, value: &Value) {
        let verdict = value.get("verdict").and_then(Value::as_str);
        let (required, optional): (&[&str], &[&str]) = match verdict {
            Some("legal") => (&["verdict", "observation"], &["captured", "self_captured"]),
            Some("illegal") => (&["verdict", "reason", "observation"], &[]),
            Some("breach") => (&["verdict", "reason", "class", "observation"], &[]),
            Some("ruled") => (&["verdict", "ruling", "observation"], &[]),
            _ => {
                match value.get("verdict") {
                    None if value.is_object() => self.fail(&at(path, "verdict"), "missing"),
                    None => self.fail(path, format!("expected an object, got {}", show(value))),
                    Some(v) => self.fail(
                        &at(path, "verdict"),
                        format!("{} is not one of legal, illegal, breach, ruled", show(v)),
                    ),
                }
                return;
            }
        };
        let Some(map) = self.object(path, value, required, optional) else {
            return;
        };
        for (key, field) in map {
            let here = at(path, key);
            match key.as_str() {
                "reason" => self.word(&here, field, str::parse::<Reason>),
                "class" => self.word(&here, field, str::parse::<Class>),
                "ruling" => self.word(&here, field, str::parse::<Ruling>),
                "captured" | "self_captured" => self.vertices(&here, field),
                "observation" => self.observation(&here, field),
                _ => {}
            }
        }
    }

    fn observation(&mut self, path: &str, value: &Value) {
        let fields = [
            "board",
            "to_move",
            "prisoners",
            "phase",
            "result",
            "score",
            "warnings",
        ];
        let Some(map) = self.object(path, value, &[], &fields) else {
            return;
        };
        for (key, field) in map {
            let here = at(path, key);
            match key.as_str() {
                "board" => self.stones(&here, field),
                "to_move" => self.color(&here, field),
                "prisoners" | "warnings" => self.pair(&here, field, Validator::count),
                "phase" => self.word(&here, field, str::parse::<Phase>),
                "result" => {
                    if let Some(text) = self.string(&here, field) {
                        if !is_result(text) {
                            self.fail(
                                &here,
                                format!("`{text}` is not a result like B+3.5, W+R or 0"),
                            );
                        }
                    }
                }
                "score" => self.pair(&here, field, Validator::points),
                _ => {}
            }
        }
    }

    fn skipped(&mut self, message: &Value) {
        if let Some(map) = self.object("", message, &["type", "id", "reason"], &[]) {
            if let Some(id) = map.get("id") {
                self.string("id", id);
            }
            if let Some(reason) = map.get("reason") {
                self.nonempty_string("reason", reason);
            }
        }
    }

    fn error(&mut self, message: &Value) {
        if let Some(map) = self.object("", message, &["type", "id", "message"], &["context"]) {
            if let Some(id) = map.get("id").filter(|v| !v.is_null()) {
                self.string("id", id);
            }
            if let Some(text) = map.get("message") {
                self.nonempty_string("message", text);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;

    fn p(v: &str) -> Point {
        Point::parse_gtp(v, 19, 19).unwrap()
    }

    #[test]
    fn every_verdict_round_trips() {
        let observe: BTreeSet<Observable> = Observable::ALL.iter().copied().collect();
        let mut verdicts = vec![
            Verdict::Legal {
                captured: vec![],
                self_captured: vec![],
            },
            Verdict::Legal {
                captured: vec![p("D5"), p("E5")],
                self_captured: vec![p("A1")],
            },
        ];
        verdicts.extend(Reason::ALL.iter().map(|r| Verdict::Illegal(*r)));
        for class in Class::ALL {
            verdicts.extend(Reason::ALL.iter().map(|r| Verdict::Breach {
                reason: *r,
                class: *class,
            }));
        }
        verdicts.extend(Ruling::ALL.iter().map(|r| Verdict::Ruled(*r)));
        let observation = Observation {
            stones: Some(vec![(p("A1"), Color::Black), (p("T19"), Color::White)]),
            to_move: Some(Color::White),
            prisoners: Some([1, 2]),
            phase: Some(Phase::Paused),
            result: Some("W+0.5".to_string()),
            score: Some([71, -3]),
            warnings: Some([0, 1]),
        };
        for verdict in verdicts {
            let step = WireStep::encode(&verdict, &observation, &observe);
            let line = serde_json::to_string(&step).unwrap();
            let back: WireStep = serde_json::from_str(&line).unwrap();
            assert_eq!(
                back.decode(19, 19),
                Ok((verdict, observation.clone())),
                "{line}"
            );
        }
    }

    #[test]
    fn rules_setups_and_events_round_trip() {
        let mut rules = Rules::default();
        rules.set("komi", "-0.5").unwrap();
        rules.set("ko", "simple").unwrap();
        let setup = Setup {
            width: 9,
            height: 13,
            stones: vec![(p("C3"), Color::White), (p("A1"), Color::Black)],
            handicap: vec![p("G10")],
            to_move: Color::White,
            history: SetupHistory::Excluded,
            handicap_as_placed: true,
        };
        let events = vec![
            Event::Move(Color::Black, Move::Play(p("D4"))),
            Event::Move(Color::White, Move::Pass),
            Event::Agree(vec![p("C3")]),
            Event::Notice { agreed: true },
        ];
        let observe = [Observable::Board].into_iter().collect();
        let request = Request::Run(RunRequest::new("x[1]", &rules, &setup, &events, &observe));
        let line = request.to_line();
        assert_eq!(validate_request(&line), Ok(()), "{line}");
        let Ok(Request::Run(back)) = serde_json::from_str::<Request>(&line) else {
            panic!("{line}");
        };
        let (r, s, e, o) = back.decode().unwrap();
        assert_eq!(r, rules);
        assert_eq!(s, setup);
        assert_eq!(e, events);
        assert_eq!(o, observe);
    }

    #[test]
    fn capabilities_round_trip_in_the_shape_they_serialise_to() {
        let caps = Capabilities::new()
            .only("ko", ["simple"])
            .observing([Observable::Board, Observable::ToMove])
            .judging([Reason::Ko, Reason::Occupied])
            .taking([EventKind::Play, EventKind::Pass]);
        let wire = WireCapabilities::encode(&caps);
        assert_eq!(
            serde_json::to_value(&wire).unwrap(),
            serde_json::to_value(&caps).unwrap()
        );
        assert_eq!(wire.decode(), Ok(caps));
        let all = Capabilities::everything();
        assert_eq!(WireCapabilities::encode(&all).decode(), Ok(all));
    }

    #[test]
    fn scores_are_points_on_the_wire() {
        let obs = WireObservation {
            score: Some([Points(85), Points(-4)]),
            ..WireObservation::default()
        };
        assert_eq!(
            serde_json::to_string(&obs).unwrap(),
            r#"{"score":[42.5,-2]}"#
        );
        assert!(serde_json::from_str::<WireObservation>(r#"{"score":[42.25,1]}"#).is_err());
    }

    #[test]
    fn contradictory_verdicts_are_refused() {
        for (line, why) in [
            (r#"{"verdict":"legal","reason":"ko"}"#, "no `reason`"),
            (r#"{"verdict":"illegal"}"#, "needs a `reason`"),
            (r#"{"verdict":"breach","reason":"ko"}"#, "needs a `class`"),
            (r#"{"verdict":"ruled","ruling":"nope"}"#, "unknown ruling"),
            (r#"{"verdict":"maybe"}"#, "unknown verdict"),
            (r#"{"verdict":"legal","captured":["Z9"]}"#, "off the"),
        ] {
            let step: WireStep = serde_json::from_str(line).unwrap();
            let e = step.decode(9, 9).unwrap_err();
            assert!(e.contains(why), "{line}: {e}");
        }
    }

    #[test]
    fn the_validator_reports_every_problem_with_its_path() {
        let line = r#"{"type":"result","id":"a","initial":{"phase":"over"},"steps":[{"verdict":"illegal","reason":"kox","observation":{}},{"verdict":"legal","observation":{"board":[["I3","B"]],"extra":1}}],"more":true}"#;
        let problems = validate_reply(line).unwrap_err();
        let text = problems.join("\n");
        for needle in [
            "more: unknown field",
            "initial.phase: unknown phase `over`",
            "steps[0].reason: unknown reason `kox`",
            "steps[1].observation.board[0][0]",
            "steps[1].observation.extra: unknown field",
        ] {
            assert!(text.contains(needle), "{needle} in\n{text}");
        }
        assert_eq!(problems.len(), 5, "{text}");
    }

    #[test]
    fn vertices_results_and_komi_have_one_spelling() {
        for v in ["A1", "H8", "J9", "T19", "Z25", "Z1"] {
            assert!(is_vertex(v), "{v}");
        }
        for v in ["I1", "a1", "A0", "A26", "A01", "A", "1A", "AA1", ""] {
            assert!(!is_vertex(v), "{v}");
        }
        for r in ["0", "B+R", "W+0", "W+0.5", "B+12", "B+120.5"] {
            assert!(is_result(r), "{r}");
        }
        for r in ["", "B+", "B+01", "B+3.0", "X+1", "B+r", "W+.5"] {
            assert!(!is_result(r), "{r}");
        }
        for k in ["0", "7.5", "-0.5", "6", "-3"] {
            assert!(is_komi(k), "{k}");
        }
        for k in ["7.50", "+7", "07", "7.", "", "-"] {
            assert!(!is_komi(k), "{k}");
        }
    }
}
