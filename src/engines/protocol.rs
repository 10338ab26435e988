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
//! (`validate`) are the strict reading: the committed JSON Schema itself, unknown fields
//! included, with every problem reported and not only the first.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::board::{Color, Point};
use crate::conformance::{Capabilities, EngineInfo, EventKind, Observable, Observation};
use crate::game::{Event, Phase, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{Rules, AXES};
use crate::scenario::Stones;

mod strict;
mod validate;

use strict::strict_run;
pub(crate) use strict::StrictRun;
pub use validate::{validate_reply, validate_request};

/// The version of the protocol this crate speaks. A `hello` with another number is refused.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line either side may send: 4 MiB.
pub const MAX_LINE_BYTES: usize = 4 * 1024 * 1024;

/// The optional extension by which an engine may give a board as rows of cells
/// ([`BoardForm::Rows`]): an engine that lists it in its `hello` is asked for it in every
/// `run` that observes the board.
pub const BOARD_ROWS: &str = "board-rows";

// ---------------------------------------------------------------------------------------------
// Messages from the harness to the engine.

/// A message from the harness to the engine.
// Nearly every message is a `run`; boxing it would cost an allocation each for the sake of
// the two small ones.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum Request {
    /// The first message: the protocol version the harness speaks.
    Hello {
        /// The version ([`PROTOCOL_VERSION`]).
        protocol: u32,
    },
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
    /// The position the trial starts from.
    pub setup: WireSetup,
    /// The events in their scenario text form (`B D4`, `W pass`, `agree C3`, ...).
    pub events: Vec<String>,
    /// The observations to return after the start and after every event (words of
    /// [`Observable`]; only `board`, `to-move`, `prisoners`, `phase`, `score` and
    /// `procedures` change what an observation holds).
    #[serde(default)]
    pub observe: Vec<String>,
    /// How the engine may give the board in its observations: sent (`"rows"`) only to an
    /// engine whose `hello` lists the [`BOARD_ROWS`] extension.
    #[serde(default, skip_serializing_if = "BoardForm::is_pairs")]
    pub board_form: BoardForm,
}

/// How an observation gives the board.
///
/// `[vertex, colour]` pairs are the protocol's own form, which every engine speaks. Rows of
/// cells are the [`BOARD_ROWS`] extension: one string per row from the top of the board
/// (`.`, `B` or `W` for each column from the left), read without a string per stone: on the
/// boards of a fuzzing run about a third of the bytes of the pairs (a nearly empty large
/// board is shorter as pairs). The harness reads the board at every step of every trial, so
/// against a fast engine the boards are most of what crosses the pipe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BoardForm {
    /// `"board": [["D4", "B"], ...]`.
    #[default]
    Pairs,
    /// `"rows": ["..B..", ...]`, the top row first.
    Rows,
}

impl BoardForm {
    /// Whether this is the protocol's own form (left out of a request).
    pub fn is_pairs(&self) -> bool {
        *self == BoardForm::Pairs
    }
}

/// A [`Setup`] on the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireSetup {
    /// Columns, 2 to 25.
    pub width: u8,
    /// Rows, 2 to 25.
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
    /// Handicap stones stand where they were put even off the fixed points (a referee's record).
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

/// The engine's answer to `hello`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct HelloReply {
    /// The protocol version the engine speaks (must be [`PROTOCOL_VERSION`]).
    pub protocol: u32,
    /// Who the engine is.
    pub engine: WireEngine,
    /// What the engine plays under, observes, judges and takes.
    pub capabilities: WireCapabilities,
    /// The optional extensions of the protocol the engine speaks ([`BOARD_ROWS`]); words the
    /// harness does not know are ignored.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub extensions: Vec<String>,
}

/// An engine's name and version, as reports show them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireEngine {
    /// The engine's name (not empty).
    pub name: String,
    /// Its version (may be empty).
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

/// The engine's answer to `run`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunResult {
    /// The request's id.
    pub id: String,
    /// What the engine shows after the start, before any event.
    #[serde(default)]
    pub initial: WireObservation,
    /// One step per event, in order.
    pub steps: Vec<WireStep>,
}

/// The engine's answer to a `run` it cannot play.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Skipped {
    /// The request's id.
    pub id: String,
    /// Why, for people (not empty).
    pub reason: String,
}

/// The engine's answer to a request it broke down on.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ErrorReply {
    /// The request's id; `null` when the request could not be read.
    pub id: Option<String>,
    /// What went wrong, for people (not empty).
    pub message: String,
    /// Anything that helps to understand the error (free form).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub context: Option<Value>,
}

/// The verdict on one event and what the engine shows after it.
///
/// The verdict is flat: `"verdict"` is `legal` (with `captured` and `self_captured`),
/// `illegal` (with a `reason`), `breach` (with a `reason` and a `class`) or `ruled` (with a
/// `ruling`); the words are those of [`Reason`], [`crate::game::Class`] and [`crate::game::Ruling`].
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireStep {
    /// `legal`, `illegal`, `breach` or `ruled`.
    pub verdict: String,
    /// Why an illegal move or a breach was refused: a word of [`Reason`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A breach's procedure class: a word of [`crate::game::Class`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub class: Option<String>,
    /// A ruling's word: a word of [`crate::game::Ruling`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ruling: Option<String>,
    /// The vertices a legal move captured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captured: Option<Vec<String>>,
    /// The vertices of the mover's own stones a legal move removed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub self_captured: Option<Vec<String>>,
    /// What the engine shows after the event.
    #[serde(default)]
    pub observation: WireObservation,
}

/// An [`Observation`] on the wire. A field left out is something the engine does not show.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireObservation {
    /// `[vertex, colour]` pairs, in any order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub board: Option<Vec<(String, String)>>,
    /// The board as rows of cells, the top row first ([`BoardForm::Rows`]); never with `board`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rows: Option<Vec<String>>,
    /// `B` or `W`: whose turn it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_move: Option<String>,
    /// `[black, white]`, pass stones included.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prisoners: Option<[u32; 2]>,
    /// A word of [`Phase`].
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

fn decode_points<V: AsRef<str>>(texts: &[V], width: u8, height: u8) -> Result<Vec<Point>, String> {
    texts
        .iter()
        .map(|t| decode_point(t.as_ref(), width, height))
        .collect()
}

fn encode_stones(stones: &[(Point, Color)]) -> Vec<(String, String)> {
    stones
        .iter()
        .map(|(p, c)| (p.to_string(), color_word(*c)))
        .collect()
}

/// Stones from `[vertex, colour]` pairs, sorted by point; a point given twice is an error.
fn decode_stones<V: AsRef<str>, C: AsRef<str>>(
    pairs: &[(V, C)],
    width: u8,
    height: u8,
) -> Result<Stones, String> {
    let mut stones = pairs
        .iter()
        .map(|(v, c)| {
            Ok((
                decode_point(v.as_ref(), width, height)?,
                decode_color(c.as_ref())?,
            ))
        })
        .collect::<Result<Stones, String>>()?;
    stones.sort();
    if let Some(w) = stones.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(format!("the point {} is given twice", w[0].0));
    }
    Ok(stones)
}

/// The board as rows of cells, the top row first ([`BoardForm::Rows`]).
fn encode_rows(stones: &[(Point, Color)], width: u8, height: u8) -> Vec<String> {
    let (w, h) = (usize::from(width), usize::from(height));
    let mut cells = vec![b'.'; w * h];
    for &(p, c) in stones {
        let (col, row) = (usize::from(p.col), usize::from(p.row));
        if col < w && row < h {
            cells[(h - 1 - row) * w + col] = c.letter() as u8;
        }
    }
    cells
        .chunks(w.max(1))
        .map(|row| row.iter().map(|&b| char::from(b)).collect())
        .collect()
}

/// Whether `byte` is a cell of a row ([`BoardForm::Rows`]): `.`, `B` or `W`.
fn is_cell(byte: u8) -> bool {
    matches!(byte, b'.' | b'B' | b'W')
}

/// Stones from rows of cells ([`BoardForm::Rows`]), sorted by point: exactly `height` rows of
/// exactly `width` cells each. An error starts with where it is (`[2]: ...`, or `: ...` for the
/// whole list), for the caller to put after the field's name.
fn decode_rows<R: AsRef<str>>(rows: &[R], width: u8, height: u8) -> Result<Stones, String> {
    let (w, h) = (usize::from(width), usize::from(height));
    // The rows from the bottom, each read once.
    let mut cells: [&[u8]; 25] = [&[]; 25];
    if rows.len() != h || h > cells.len() {
        return Err(format!(": {} rows for a board {h} high", rows.len()));
    }
    for (k, row) in rows.iter().enumerate() {
        let row = row.as_ref();
        if row.len() != w || !row.bytes().all(is_cell) {
            return Err(format!(
                "[{k}]: {} is not a row of a board {w} wide: expected {w} cells, each `.`, `B` or `W`",
                excerpt(row)
            ));
        }
        cells[h - 1 - k] = row.as_bytes();
    }
    // Point order is column first, then row from the bottom: read up the columns.
    let mut stones = Stones::new();
    for col in 0..w {
        for (row, line) in cells[..h].iter().enumerate() {
            let color = match line[col] {
                b'B' => Color::Black,
                b'W' => Color::White,
                _ => continue,
            };
            stones.push((Point::new(col as u8, row as u8), color));
        }
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
            board_form: BoardForm::Pairs,
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
    /// What `observation` shows of what `observe` asks for, the board as pairs.
    pub fn encode(observation: &Observation, observe: &BTreeSet<Observable>) -> WireObservation {
        WireObservation::encode_as(observation, observe, BoardForm::Pairs, (0, 0))
    }

    /// What `observation` shows of what `observe` asks for, the board in `form` (rows of a
    /// board of `size`, width and height).
    pub fn encode_as(
        observation: &Observation,
        observe: &BTreeSet<Observable>,
        form: BoardForm,
        size: (u8, u8),
    ) -> WireObservation {
        let wants = |o: Observable| observe.contains(&o);
        let stones = observation
            .stones
            .as_ref()
            .filter(|_| wants(Observable::Board));
        WireObservation {
            board: stones
                .filter(|_| form == BoardForm::Pairs)
                .map(|s| encode_stones(s)),
            rows: stones
                .filter(|_| form == BoardForm::Rows)
                .map(|s| encode_rows(s, size.0, size.1)),
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
        self.view().decode(width, height)
    }

    /// The parts of the observation, for the decoding it shares with the strict reading.
    pub(crate) fn view(&self) -> ObservationView<'_, String, String, String> {
        ObservationView {
            board: self.board.as_deref(),
            rows: self.rows.as_deref(),
            to_move: self.to_move.as_deref(),
            prisoners: self.prisoners,
            phase: self.phase.as_deref(),
            result: self.result.as_deref(),
            score: self.score,
            warnings: self.warnings,
        }
    }
}

/// An observation of a reply however it was read: [`WireObservation`]'s strings, or the
/// strict reading's vertices and colours, which it keeps without a string each (the harness
/// reads a whole board at every step). One decoding for both, so that they cannot differ in
/// what they accept or in how they word a problem.
pub(crate) struct ObservationView<'a, V, C, R> {
    pub(crate) board: Option<&'a [(V, C)]>,
    pub(crate) rows: Option<&'a [R]>,
    pub(crate) to_move: Option<&'a str>,
    pub(crate) prisoners: Option<[u32; 2]>,
    pub(crate) phase: Option<&'a str>,
    pub(crate) result: Option<&'a str>,
    pub(crate) score: Option<[Points; 2]>,
    pub(crate) warnings: Option<[u32; 2]>,
}

impl<V: AsRef<str>, C: AsRef<str>, R: AsRef<str>> ObservationView<'_, V, C, R> {
    /// The observation, its vertices read on a `width` x `height` board.
    pub(crate) fn decode(&self, width: u8, height: u8) -> Result<Observation, String> {
        let stones = match (self.board, self.rows) {
            (Some(_), Some(_)) => {
                return Err("board and rows: the board is given twice".to_string())
            }
            (Some(b), None) => {
                Some(decode_stones(b, width, height).map_err(|e| format!("board: {e}"))?)
            }
            (None, Some(r)) => Some(decode_rows(r, width, height).map_err(|e| format!("rows{e}"))?),
            (None, None) => None,
        };
        Ok(Observation {
            stones,
            to_move: self
                .to_move
                .map(decode_color)
                .transpose()
                .map_err(|e| format!("to_move: {e}"))?,
            prisoners: self.prisoners,
            phase: self
                .phase
                .map(str::parse::<Phase>)
                .transpose()
                .map_err(|e| format!("phase: {e}"))?,
            result: self.result.map(str::to_string),
            score: self.score.map(|[b, w]| [b.0, w.0]),
            warnings: self.warnings,
        })
    }
}

impl WireStep {
    /// A verdict and the observation after it, with what `observe` asks for.
    pub fn encode(
        verdict: &Verdict,
        observation: &Observation,
        observe: &BTreeSet<Observable>,
    ) -> WireStep {
        WireStep::encode_with(verdict, WireObservation::encode(observation, observe))
    }

    /// A verdict with the observation after it, already put on the wire (in the board form
    /// its request asks for: [`WireObservation::encode_as`]).
    pub fn encode_with(verdict: &Verdict, observation: WireObservation) -> WireStep {
        let mut step = WireStep {
            observation,
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
        self.view().decode(width, height)
    }

    /// The parts of the step, for the decoding it shares with the strict reading.
    pub(crate) fn view(&self) -> StepView<'_, String, String, String> {
        StepView {
            verdict: &self.verdict,
            reason: self.reason.as_deref(),
            class: self.class.as_deref(),
            ruling: self.ruling.as_deref(),
            captured: self.captured.as_deref(),
            self_captured: self.self_captured.as_deref(),
            observation: self.observation.view(),
        }
    }
}

/// A step of a reply however it was read (see [`ObservationView`]).
pub(crate) struct StepView<'a, V, C, R> {
    pub(crate) verdict: &'a str,
    pub(crate) reason: Option<&'a str>,
    pub(crate) class: Option<&'a str>,
    pub(crate) ruling: Option<&'a str>,
    pub(crate) captured: Option<&'a [V]>,
    pub(crate) self_captured: Option<&'a [V]>,
    pub(crate) observation: ObservationView<'a, V, C, R>,
}

impl<'a, V: AsRef<str>, C: AsRef<str>, R: AsRef<str>> StepView<'a, V, C, R> {
    /// The verdict and the observation, vertices read on a `width` x `height` board.
    pub(crate) fn decode(&self, width: u8, height: u8) -> Result<(Verdict, Observation), String> {
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
        let allowed: &[&str] = match self.verdict {
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
        let required = |field: &str, value: Option<&'a str>| {
            value.ok_or_else(|| format!("a `{}` verdict needs a `{field}`", self.verdict))
        };
        let reason = || -> Result<Reason, String> { required("reason", self.reason)?.parse() };
        Ok(match self.verdict {
            "legal" => Verdict::Legal {
                captured: decode_points(self.captured.unwrap_or(&[]), width, height)
                    .map_err(|e| format!("captured: {e}"))?,
                self_captured: decode_points(self.self_captured.unwrap_or(&[]), width, height)
                    .map_err(|e| format!("self_captured: {e}"))?,
            },
            "illegal" => Verdict::Illegal(reason()?),
            "breach" => Verdict::Breach {
                reason: reason()?,
                class: required("class", self.class)?.parse()?,
            },
            _ => Verdict::Ruled(required("ruling", self.ruling)?.parse()?),
        })
    }
}

impl WireCapabilities {
    /// Capabilities in their wire shape.
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
    /// The answer to `hello` for an engine with this identity and these capabilities.
    pub fn new(info: &EngineInfo, capabilities: &Capabilities) -> HelloReply {
        HelloReply {
            protocol: PROTOCOL_VERSION,
            engine: WireEngine {
                name: info.name.clone(),
                version: info.version.clone(),
            },
            capabilities: WireCapabilities::encode(capabilities),
            extensions: Vec::new(),
        }
    }

    /// Whether the engine lists the optional extension `word` (such as [`BOARD_ROWS`]).
    pub fn speaks(&self, word: &str) -> bool {
        self.extensions.iter().any(|e| e == word)
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

    /// Reads an engine's reply line: in `strict` mode held to the schema first (a `result` by the
    /// typed strict reading, anything it refuses by the validator, with every problem), then
    /// the message itself. The error says what is wrong and shows the start of the line.
    pub fn from_line(line: &str, strict: bool) -> Result<Reply, String> {
        read_reply(line, strict).map(ReadReply::into_reply)
    }
}

/// A reply line as [`read_reply`] read it.
pub(crate) enum ReadReply {
    /// A `result` the strict reading accepted, kept as that reading keeps it (no string for
    /// every vertex and colour of every observation, which is most of what the harness
    /// reads against a fast engine).
    Strict(StrictRun),
    /// Any other reply, or any reply in lenient mode.
    Reply(Reply),
}

impl ReadReply {
    /// The reply as the wire's types have it.
    pub(crate) fn into_reply(self) -> Reply {
        match self {
            ReadReply::Strict(run) => Reply::Result(run.into_wire()),
            ReadReply::Reply(reply) => reply,
        }
    }
}

/// [`Reply::from_line`], handing on a `result` the strict reading accepts as it keeps it.
pub(crate) fn read_reply(line: &str, strict: bool) -> Result<ReadReply, String> {
    if strict {
        // The typed strict reading first: what it accepts the schema accepts (see
        // protocol/strict.rs), and the validator reads only what it refuses, to judge it
        // and word its problems.
        if let Some(run) = strict_run(line) {
            return Ok(ReadReply::Strict(run));
        }
        if let Err(problems) = validate_reply(line) {
            return Err(format!(
                "the reply breaks the protocol's schema: {}; the reply: {}",
                problems.join("; "),
                excerpt(line)
            ));
        }
    }
    if let Some(result) = lenient_result(line) {
        return Ok(ReadReply::Reply(Reply::Result(result)));
    }
    serde_json::from_str::<Reply>(line)
        .map(ReadReply::Reply)
        .map_err(|e| {
            format!(
                "the reply is not a protocol message ({e}): {}",
                excerpt(line)
            )
        })
}

/// A `result` read straight into [`RunResult`], unknown fields ignored as [`Reply`]'s own
/// reading ignores them; `None` for anything else, which that reading then decides. `Reply`
/// is tagged inside the message, so serde buffers a whole message before it looks at `type`,
/// and for a long `result` (every step's board) the buffering cost more than the reading:
/// this is the lenient mode's (`--lenient`) hot path, as [`strict_run`] is the strict one's
/// (and the strict mode's reading of a `result` the schema accepts and [`strict_run`] left).
pub(super) fn lenient_result(line: &str) -> Option<RunResult> {
    #[derive(Deserialize)]
    struct Tagged {
        #[serde(rename = "type")]
        kind: String,
        id: String,
        #[serde(default)]
        initial: WireObservation,
        steps: Vec<WireStep>,
    }
    let tagged: Tagged = serde_json::from_str(line).ok()?;
    (tagged.kind == "result").then_some(RunResult {
        id: tagged.id,
        initial: tagged.initial,
        steps: tagged.steps,
    })
}

/// The start of a long line, for messages.
fn excerpt(line: &str) -> String {
    const KEEP: usize = 200;
    if line.len() <= KEEP {
        format!("`{line}`")
    } else {
        let cut = (0..=KEEP)
            .rev()
            .find(|&i| line.is_char_boundary(i))
            .unwrap_or(0);
        format!("`{}...` ({} bytes)", &line[..cut], line.len())
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::game::{Class, Ruling};

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

    /// Boards of every shape the protocol allows, read back from rows exactly as from pairs.
    #[test]
    fn boards_round_trip_through_rows() {
        let mut rng = crate::rng::SplitMix64::new(7);
        for (width, height) in [(2, 2), (5, 3), (3, 5), (9, 9), (19, 19), (25, 25), (2, 25)] {
            for _ in 0..20 {
                let mut stones: Stones = Vec::new();
                for col in 0..width {
                    for row in 0..height {
                        match rng.below(3) {
                            0 => stones.push((Point::new(col, row), Color::Black)),
                            1 => stones.push((Point::new(col, row), Color::White)),
                            _ => {}
                        }
                    }
                }
                let rows = encode_rows(&stones, width, height);
                assert_eq!(rows.len(), usize::from(height));
                assert!(rows.iter().all(|r| r.len() == usize::from(width)));
                assert_eq!(decode_rows(&rows, width, height), Ok(stones.clone()));
                let pairs = encode_stones(&stones);
                assert_eq!(decode_stones(&pairs, width, height), Ok(stones));
            }
        }
        // The top row comes first, columns from the left: B at A1 and W at C2 on 3x2.
        let stones = vec![
            (Point::new(0, 0), Color::Black),
            (Point::new(2, 1), Color::White),
        ];
        assert_eq!(encode_rows(&stones, 3, 2), ["..W", "B.."]);
    }

    /// The observation's board from rows, and what is wrong with rows that are not a board.
    #[test]
    fn rows_are_read_on_their_board_or_refused_with_where() {
        let observation = |json: &str| serde_json::from_str::<WireObservation>(json).unwrap();
        let seen = observation(r#"{"rows":["..W","B.."],"to_move":"B"}"#)
            .decode(3, 2)
            .unwrap();
        assert_eq!(
            seen.stones,
            Some(vec![
                (Point::new(0, 0), Color::Black),
                (Point::new(2, 1), Color::White)
            ])
        );
        for (json, why) in [
            (
                r#"{"rows":["...","..."]}"#,
                "rows: 2 rows for a board 3 high",
            ),
            (
                r#"{"rows":["...","..","..."]}"#,
                "rows[1]: `..` is not a row",
            ),
            (
                r#"{"rows":["...",".X.","..."]}"#,
                "rows[1]: `.X.` is not a row",
            ),
            (r#"{"rows":["...","....","..."]}"#, "board 3 wide"),
            (
                r#"{"rows":["...","...","..."],"board":[]}"#,
                "board and rows: the board is given twice",
            ),
        ] {
            let e = observation(json).decode(3, 3).unwrap_err();
            assert!(e.contains(why), "{json}: {e}");
        }
        let problems = validate_reply(
            r#"{"type":"result","id":"a","initial":{"rows":["..","x."],"board":[]},"steps":[]}"#,
        )
        .unwrap_err()
        .join("\n");
        assert!(
            problems.contains("initial.rows[1]: expected a row"),
            "{problems}"
        );
        assert!(problems.contains("the board is given twice"), "{problems}");
    }

    /// A request asks for rows only when told to, and says nothing of the form otherwise, so
    /// that an engine that knows no extension sees the requests it always saw.
    #[test]
    fn the_board_form_is_left_out_of_a_request_unless_rows() {
        let setup = Setup::empty(5, 5);
        let observe: BTreeSet<Observable> = [Observable::Board].into_iter().collect();
        let mut run = RunRequest::new("t", &Rules::default(), &setup, &[], &observe);
        assert!(!Request::Run(run.clone()).to_line().contains("board_form"));
        run.board_form = BoardForm::Rows;
        let line = Request::Run(run.clone()).to_line();
        assert!(line.contains(r#""board_form":"rows""#), "{line}");
        assert_eq!(validate_request(&line), Ok(()));
        let Ok(Request::Run(back)) = serde_json::from_str::<Request>(&line) else {
            panic!("{line}");
        };
        assert_eq!(back, run);
    }
}
