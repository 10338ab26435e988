//! The strict reading of a `result` reply in one typed pass, for the harness's hot path.
//!
//! In strict mode every reply must be one the protocol's schema accepts. Holding each `result`
//! to the schema through the validator ([`super::validate_reply`]: the line parsed into a
//! `serde_json::Value`, then walked by boon) and then parsing it again into [`RunResult`] was
//! most of the harness's time against a fast engine. This reads the line once, into types that
//! refuse what the schema refuses: no unknown field, no `null` for an optional part, words from
//! the schema's own closed lists (read from the committed schema, not spelled here again), the
//! vertex and result patterns, counts and points in the schema's ranges, and each kind of step
//! with exactly the fields of its branch.
//!
//! It is a fast path, never the judge: [`strict_run`] may refuse a line the schema accepts
//! (an integer written `2.0`, a key given twice), and the caller then asks the validator,
//! whose answer stands and whose problems are the ones reported. What must hold is the other
//! way round, that nothing it accepts is refused by the schema; the tests check it over the
//! reference's answers to the conformance vectors, the documentation's examples and mutations
//! of them, and that on the unmutated answers the two agree exactly.

use std::sync::OnceLock;

use serde::de::{self, Deserializer};
use serde::Deserialize;
use serde_json::Value;

use super::{
    ObservationView, Points, RunResult, StepView, WireObservation, WireStep, MAX_LINE_BYTES,
};

/// The closed word lists of the committed schema.
struct Words {
    reason: Vec<String>,
    class: Vec<String>,
    ruling: Vec<String>,
    phase: Vec<String>,
}

/// The word lists, read once from the schema built into the binary; `None` if it cannot be
/// read (then nothing takes the fast path and the validator reports the broken schema).
fn words() -> Option<&'static Words> {
    static WORDS: OnceLock<Option<Words>> = OnceLock::new();
    WORDS
        .get_or_init(|| {
            let schema: Value = serde_json::from_str(super::validate::SCHEMA).ok()?;
            let list = |name: &str| -> Option<Vec<String>> {
                schema
                    .pointer(&format!("/$defs/{name}/enum"))?
                    .as_array()?
                    .iter()
                    .map(|w| w.as_str().map(str::to_string))
                    .collect()
            };
            Some(Words {
                reason: list("reason")?,
                class: list("class")?,
                ruling: list("ruling")?,
                phase: list("phase")?,
            })
        })
        .as_ref()
}

/// A `result` reply as the schema has it, read in one pass; `None` if the line is not one
/// this reading accepts (the schema may still accept it: ask [`super::validate_reply`]).
/// Kept without the wire's strings: the harness decodes the steps straight from the vertices
/// and colours this reading keeps ([`StrictRun::initial`], [`StrictRun::steps`]), with the
/// decoding [`RunResult`]'s steps go through, so that both read a reply alike.
pub(super) fn strict_run(line: &str) -> Option<StrictRun> {
    if line.len() > MAX_LINE_BYTES {
        return None;
    }
    let words = words()?;
    let OnlyMap(result): OnlyMap<StrictResult> = serde_json::from_str(line).ok()?;
    if result.kind != "result" {
        return None;
    }
    let fits = result.initial.0.fits(words) && result.steps.iter().all(|s| s.0.fits(words));
    fits.then(|| StrictRun {
        id: result.id,
        initial: result.initial.0,
        steps: result.steps.into_iter().map(|s| s.0).collect(),
    })
}

/// A `result` reply the strict reading accepted.
pub(crate) struct StrictRun {
    /// The request's id.
    pub(crate) id: String,
    initial: StrictObservation,
    steps: Vec<StrictStep>,
}

impl StrictRun {
    /// The initial observation, to decode.
    pub(crate) fn initial(&self) -> ObservationView<'_, Vertex, Colour, Row> {
        self.initial.view()
    }

    /// The steps, to decode.
    pub(crate) fn steps(&self) -> impl ExactSizeIterator<Item = StepView<'_, Vertex, Colour, Row>> {
        self.steps.iter().map(StrictStep::view)
    }

    /// The reply as the wire's types have it.
    pub(super) fn into_wire(self) -> RunResult {
        RunResult {
            id: self.id,
            initial: self.initial.into_wire(),
            steps: self.steps.into_iter().map(StrictStep::into_wire).collect(),
        }
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrictResult {
    #[serde(rename = "type")]
    kind: String,
    id: String,
    initial: OnlyMap<StrictObservation>,
    steps: Vec<OnlyMap<StrictStep>>,
}

/// An object read as a struct, and only an object: serde's derived struct readers also take
/// a JSON array of the fields in order (`[]` for an observation of nothing), which the schema
/// refuses.
struct OnlyMap<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for OnlyMap<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<OnlyMap<T>, D::Error> {
        struct Fields<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> de::Visitor<'de> for Fields<T> {
            type Value = OnlyMap<T>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<OnlyMap<T>, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map)).map(OnlyMap)
            }
        }
        d.deserialize_map(Fields(std::marker::PhantomData))
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrictStep {
    verdict: String,
    #[serde(default, deserialize_with = "present")]
    reason: Option<String>,
    #[serde(default, deserialize_with = "present")]
    class: Option<String>,
    #[serde(default, deserialize_with = "present")]
    ruling: Option<String>,
    #[serde(default, deserialize_with = "present")]
    captured: Option<Vec<Vertex>>,
    #[serde(default, deserialize_with = "present")]
    self_captured: Option<Vec<Vertex>>,
    observation: OnlyMap<StrictObservation>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StrictObservation {
    #[serde(default, deserialize_with = "present")]
    board: Option<Vec<(Vertex, Colour)>>,
    #[serde(default, deserialize_with = "present")]
    rows: Option<Vec<Row>>,
    #[serde(default, deserialize_with = "present")]
    to_move: Option<Colour>,
    #[serde(default, deserialize_with = "present")]
    prisoners: Option<[u32; 2]>,
    #[serde(default, deserialize_with = "present")]
    phase: Option<String>,
    #[serde(default, deserialize_with = "present")]
    result: Option<String>,
    #[serde(default, deserialize_with = "present")]
    score: Option<[Points; 2]>,
    #[serde(default, deserialize_with = "present")]
    warnings: Option<[u32; 2]>,
}

/// An optional field that, when given, must hold its value: `null` is refused (the schema's
/// optional parts are never nullable), where `Option`'s own reading would take it as absent.
fn present<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// `B` or `W` (read from a string only: serde's enums also take `{"B": null}`), kept without
/// a string of its own.
pub(crate) struct Colour(&'static str);

impl AsRef<str> for Colour {
    fn as_ref(&self) -> &str {
        self.0
    }
}

impl<'de> Deserialize<'de> for Colour {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Colour, D::Error> {
        struct Letter;
        impl de::Visitor<'_> for Letter {
            type Value = Colour;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("B or W")
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<Colour, E> {
                match text {
                    "B" => Ok(Colour("B")),
                    "W" => Ok(Colour("W")),
                    _ => Err(E::custom("not a colour")),
                }
            }
        }
        d.deserialize_str(Letter)
    }
}

/// A pattern of the schema that an [`InPlace`] string must match.
pub(crate) trait Pattern {
    /// The longest text the pattern matches, in bytes (the room an [`InPlace`] keeps).
    const MOST: usize;
    /// What a matching text is, for serde's error (which nobody sees: a refusal sends the
    /// line to the validator).
    const WHAT: &'static str;
    /// Whether `text` matches.
    fn matches(text: &str) -> bool;
}

/// The schema's vertex pattern `^[A-HJ-Z]([1-9]|1[0-9]|2[0-5])$`: two or three bytes.
pub(crate) enum VertexPattern {}

impl Pattern for VertexPattern {
    const MOST: usize = 3;
    const WHAT: &'static str = "a vertex";
    fn matches(text: &str) -> bool {
        is_vertex(text)
    }
}

/// The schema's row pattern `^[.BW]{1,25}$` (a row of the `board-rows` extension).
pub(crate) enum RowPattern {}

impl Pattern for RowPattern {
    const MOST: usize = 25;
    const WHAT: &'static str = "a row of cells";
    fn matches(text: &str) -> bool {
        is_row(text)
    }
}

/// A short ASCII string the pattern `P` matches, kept in place (at most `N` bytes, `P::MOST`)
/// rather than as a string of its own: the harness reads one for every stone or row of every
/// observation.
pub(crate) struct InPlace<const N: usize, P> {
    bytes: [u8; N],
    len: u8,
    pattern: std::marker::PhantomData<P>,
}

/// A vertex kept in place.
pub(crate) type Vertex = InPlace<{ VertexPattern::MOST }, VertexPattern>;
/// A row of cells kept in place.
pub(crate) type Row = InPlace<{ RowPattern::MOST }, RowPattern>;

impl<const N: usize, P> AsRef<str> for InPlace<N, P> {
    fn as_ref(&self) -> &str {
        // Only a text the pattern accepts is kept, and every pattern here is ASCII.
        std::str::from_utf8(&self.bytes[..usize::from(self.len)]).unwrap_or_default()
    }
}

impl<'de, const N: usize, P: Pattern> Deserialize<'de> for InPlace<N, P> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<InPlace<N, P>, D::Error> {
        struct Text<const N: usize, P>(std::marker::PhantomData<P>);
        impl<const N: usize, P: Pattern> de::Visitor<'_> for Text<N, P> {
            type Value = InPlace<N, P>;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str(P::WHAT)
            }
            fn visit_str<E: de::Error>(self, text: &str) -> Result<InPlace<N, P>, E> {
                if text.len() > N || !P::matches(text) {
                    return Err(E::custom(format_args!("not {}", P::WHAT)));
                }
                let mut bytes = [0; N];
                bytes[..text.len()].copy_from_slice(text.as_bytes());
                Ok(InPlace {
                    bytes,
                    len: text.len() as u8,
                    pattern: std::marker::PhantomData,
                })
            }
        }
        d.deserialize_str(Text::<N, P>(std::marker::PhantomData))
    }
}

fn is_row(text: &str) -> bool {
    (1..=25).contains(&text.len()) && text.bytes().all(super::is_cell)
}

fn is_vertex(text: &str) -> bool {
    let b = text.as_bytes();
    let column = |c: u8| c.is_ascii_uppercase() && c != b'I';
    match b {
        [c, d] => column(*c) && (b'1'..=b'9').contains(d),
        [c, b'1', d] => column(*c) && d.is_ascii_digit(),
        [c, b'2', d] => column(*c) && (b'0'..=b'5').contains(d),
        _ => false,
    }
}

/// Whether `text` matches the schema's result pattern
/// `^(0|Void|[BW]\+(R|(0|[1-9][0-9]*)(\.5)?))$`.
fn is_result(text: &str) -> bool {
    if text == "0" || text == "Void" {
        return true;
    }
    let Some(rest) = text.strip_prefix("B+").or_else(|| text.strip_prefix("W+")) else {
        return false;
    };
    if rest == "R" {
        return true;
    }
    let number = rest.strip_suffix(".5").unwrap_or(rest);
    let b = number.as_bytes();
    match b {
        [b'0'] => true,
        [first, more @ ..] => {
            (b'1'..=b'9').contains(first) && more.iter().all(|c| c.is_ascii_digit())
        }
        [] => false,
    }
}

fn vertices(list: Option<Vec<Vertex>>) -> Option<Vec<String>> {
    list.map(|l| l.iter().map(|v| v.as_ref().to_string()).collect())
}

impl StrictObservation {
    /// Whether the words and the result are the schema's, and the board given at most once.
    fn fits(&self, words: &Words) -> bool {
        !(self.board.is_some() && self.rows.is_some())
            && self
                .rows
                .as_ref()
                .is_none_or(|r| (1..=25).contains(&r.len()))
            && self.phase.as_ref().is_none_or(|p| words.phase.contains(p))
            && self.result.as_deref().is_none_or(is_result)
    }

    fn view(&self) -> ObservationView<'_, Vertex, Colour, Row> {
        ObservationView {
            board: self.board.as_deref(),
            rows: self.rows.as_deref(),
            to_move: self.to_move.as_ref().map(AsRef::as_ref),
            prisoners: self.prisoners,
            phase: self.phase.as_deref(),
            result: self.result.as_deref(),
            score: self.score,
            warnings: self.warnings,
        }
    }

    fn into_wire(self) -> WireObservation {
        WireObservation {
            board: self.board.map(|b| {
                b.iter()
                    .map(|(v, c)| (v.as_ref().to_string(), c.as_ref().to_string()))
                    .collect()
            }),
            rows: self
                .rows
                .map(|r| r.iter().map(|r| r.as_ref().to_string()).collect()),
            to_move: self.to_move.map(|c| c.as_ref().to_string()),
            prisoners: self.prisoners,
            phase: self.phase,
            result: self.result,
            score: self.score,
            warnings: self.warnings,
        }
    }
}

impl StrictStep {
    /// Whether the words are the schema's and the fields exactly those the verdict's branch
    /// allows, the observation included.
    fn fits(&self, words: &Words) -> bool {
        let word_in =
            |w: &Option<String>, list: &[String]| w.as_ref().is_none_or(|w| list.contains(w));
        if !word_in(&self.reason, &words.reason)
            || !word_in(&self.class, &words.class)
            || !word_in(&self.ruling, &words.ruling)
        {
            return false;
        }
        let (reason, class, ruling, moves) = (
            self.reason.is_some(),
            self.class.is_some(),
            self.ruling.is_some(),
            self.captured.is_some() || self.self_captured.is_some(),
        );
        let branch = match self.verdict.as_str() {
            "legal" => !reason && !class && !ruling,
            "illegal" => reason && !class && !ruling && !moves,
            "breach" => reason && class && !ruling && !moves,
            "ruled" => !reason && !class && ruling && !moves,
            _ => false,
        };
        branch && self.observation.0.fits(words)
    }

    fn view(&self) -> StepView<'_, Vertex, Colour, Row> {
        StepView {
            verdict: &self.verdict,
            reason: self.reason.as_deref(),
            class: self.class.as_deref(),
            ruling: self.ruling.as_deref(),
            captured: self.captured.as_deref(),
            self_captured: self.self_captured.as_deref(),
            observation: self.observation.0.view(),
        }
    }

    fn into_wire(self) -> WireStep {
        WireStep {
            verdict: self.verdict,
            reason: self.reason,
            class: self.class,
            ruling: self.ruling,
            captured: vertices(self.captured),
            self_captured: vertices(self.self_captured),
            observation: self.observation.0.into_wire(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engines::protocol::validate_reply;

    /// Every string of up to three characters over the alphabet the patterns care about, with
    /// a few longer ones: the hand-written patterns agree with the schema's (through the
    /// validator, on a one-stone board and a result).
    #[test]
    fn the_patterns_agree_with_the_schema() {
        let alphabet = [
            "A", "H", "I", "J", "Z", "a", "0", "1", "2", "5", "6", "9", "+", ".", "B", "W", "R",
            " ",
        ];
        let mut texts = vec![String::new()];
        for _ in 0..3 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |a| format!("{t}{a}")))
                .collect();
            texts.extend(longer);
        }
        texts.sort();
        texts.dedup();
        texts.extend(
            [
                "B+0.5",
                "W+10.5",
                "B+01",
                "B+1.0",
                "B+R.5",
                "Void",
                "void",
                "B+123456789.5",
                "0.5",
                "B+1.55",
                "T25",
                "T26",
                "T19\n",
                "A1 ",
                ".........................",
                "..........................",
                "BWBWBWBWBWBWBWBWBWBWBWBWB",
            ]
            .map(str::to_string),
        );
        for text in &texts {
            let quoted = Value::String(text.clone()).to_string();
            let board = format!(
                r#"{{"type":"result","id":"t","initial":{{"board":[[{quoted},"B"]]}},"steps":[]}}"#
            );
            assert_eq!(
                is_vertex(text),
                validate_reply(&board).is_ok(),
                "vertex {text:?}"
            );
            let result = format!(
                r#"{{"type":"result","id":"t","initial":{{"result":{quoted}}},"steps":[]}}"#
            );
            assert_eq!(
                is_result(text),
                validate_reply(&result).is_ok(),
                "result {text:?}"
            );
            let rows = format!(
                r#"{{"type":"result","id":"t","initial":{{"rows":[{quoted}]}},"steps":[]}}"#
            );
            assert_eq!(is_row(text), validate_reply(&rows).is_ok(), "row {text:?}");
        }
    }

    /// The reference's answers (`goconform serve`'s, through the same function) to every
    /// board trial of the embedded suite and to seeded fuzzing games (their boards as pairs,
    /// and again as rows), every observation asked for, and the replies of
    /// `docs/protocol.md`.
    fn corpus() -> Vec<String> {
        use crate::conformance::{Observable, Referee, Reference};
        use crate::engines::protocol::{BoardForm, Reply, RunRequest};
        use crate::engines::serve::play;
        use crate::fuzzing::{game_bytes, GameInput};
        use crate::scenario::SuiteFiles;
        use crate::spec::embedded;

        let observe: std::collections::BTreeSet<Observable> =
            Observable::ALL.iter().copied().collect();
        let mut lines = Vec::new();
        let answer = |lines: &mut Vec<String>,
                      id: String,
                      rules: &crate::rules::Rules,
                      setup: &crate::game::Setup,
                      events: &[crate::game::Event],
                      form: BoardForm| {
            let mut run = RunRequest::new(id, rules, setup, events, &observe);
            run.board_form = form;
            let reply = play(&mut Reference::new(), &run);
            if let Reply::Result(_) = reply {
                lines.push(reply.to_line());
            }
        };
        let spec = embedded::spec().expect("the embedded specification loads");
        let suite = SuiteFiles::new(embedded::scenario_texts())
            .check(&spec)
            .expect("the embedded suite loads");
        for scenario in &suite.scenarios {
            for run in &scenario.runs {
                let id = format!("{}.{}", scenario.id, run.label);
                answer(
                    &mut lines,
                    id,
                    &run.rules,
                    &scenario.setup,
                    &scenario.events,
                    BoardForm::Pairs,
                );
            }
        }
        let caps = Reference::new().capabilities();
        for game in 0..300 {
            let case = GameInput::from_bytes(&game_bytes(1, game)).realise(&caps);
            for form in [BoardForm::Pairs, BoardForm::Rows] {
                answer(
                    &mut lines,
                    format!("g{game}"),
                    &case.rules,
                    &case.setup,
                    &case.events,
                    form,
                );
            }
        }
        let docs = include_str!("../../../docs/protocol.md");
        lines.extend(
            docs.lines()
                .filter_map(|l| l.strip_prefix("< "))
                .filter(|l| l.contains(r#""type":"result""#))
                .map(str::to_string),
        );
        lines
    }

    /// Values that break some rule of the schema somewhere, or keep to it somewhere else.
    fn replacements() -> Vec<Value> {
        [
            "null",
            "\"b4\"",
            "\"I5\"",
            "\"T26\"",
            "\"A1\"",
            "\"kox\"",
            "\"\"",
            "\"W\"",
            "\"ko\"",
            "\"illegal\"",
            "\"unwind-pass\"",
            "\"ended\"",
            "\"B+R\"",
            "\"B+1.0\"",
            "2.0",
            "-1",
            "0.25",
            "1.5",
            "4294967296",
            "1e3",
            "[]",
            "{}",
            "[0]",
            "[0,0]",
            "[0,0,0]",
            "[\"A1\"]",
            "[[\"A1\",\"B\"]]",
            "[[\"A1\",\"B\",1]]",
            "[\"..\"]",
            "[\".X\"]",
            "\"B.W\"",
            "true",
        ]
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect()
    }

    /// Every place in `value` (pointer, value), depth first.
    fn places(value: &Value, at: String, out: &mut Vec<String>) {
        out.push(at.clone());
        match value {
            Value::Object(map) => {
                for (k, v) in map {
                    places(v, format!("{at}/{k}"), out);
                }
            }
            Value::Array(items) => {
                for (i, v) in items.iter().enumerate() {
                    places(v, format!("{at}/{i}"), out);
                }
            }
            _ => {}
        }
    }

    /// Mutations of `line`: each place removed, replaced by each of [`replacements`], given an
    /// unknown neighbour; a key written twice; bytes cut out. `budget` bounds how many.
    fn mutations(line: &str, rng: &mut crate::rng::SplitMix64, budget: usize) -> Vec<String> {
        let value: Value = serde_json::from_str(line).unwrap();
        let mut at = Vec::new();
        places(&value, String::new(), &mut at);
        let swaps = replacements();
        let mut out = Vec::new();
        while out.len() < budget {
            let place = &at[rng.below(at.len())];
            let mut changed = value.clone();
            let (parent, last) = place.rsplit_once('/').unwrap_or(("", ""));
            match rng.below(4) {
                0 if !place.is_empty() => match changed.pointer_mut(parent) {
                    Some(Value::Object(map)) => {
                        map.remove(last);
                    }
                    Some(Value::Array(items)) => {
                        items.remove(last.parse::<usize>().unwrap());
                    }
                    _ => {}
                },
                1 => {
                    if let Some(Value::Object(map)) = changed.pointer_mut(place) {
                        map.insert("extra".to_string(), Value::from(1));
                    }
                }
                _ => {
                    *changed.pointer_mut(place).unwrap() = swaps[rng.below(swaps.len())].clone();
                }
            }
            out.push(changed.to_string());
        }
        // A key twice (the first `"id":` written again before itself), and bytes cut out.
        out.push(line.replacen(r#""id":"#, r#""id":"x","id":"#, 1));
        for _ in 0..4 {
            let cut = rng.below(line.len());
            if line.is_char_boundary(cut) && line.is_char_boundary(cut + 1) {
                out.push(format!("{}{}", &line[..cut], &line[cut + 1..]));
            }
        }
        out
    }

    /// The lenient mode's fast path reads every `result` it takes exactly as `Reply`'s tagged
    /// reading does, and takes every one that reading makes a `result` of, over the same
    /// answers and their mutations.
    #[test]
    fn the_lenient_fast_path_reads_results_as_the_tagged_reading_does() {
        use crate::engines::protocol::{lenient_result, Reply};
        let mut rng = crate::rng::SplitMix64::new(39);
        let (mut taken, mut other) = (0, 0);
        for (k, line) in corpus().iter().enumerate() {
            let budget = if k % 10 == 0 { 24 } else { 3 };
            for mutated in std::iter::once(line.clone()).chain(mutations(line, &mut rng, budget)) {
                let tagged = serde_json::from_str::<Reply>(&mutated);
                match (lenient_result(&mutated), tagged) {
                    (Some(fast), Ok(Reply::Result(slow))) => {
                        assert_eq!(fast, slow, "{mutated}");
                        taken += 1;
                    }
                    (None, Ok(Reply::Result(_))) => {
                        panic!("the fast path leaves a result to the tagged reading: {mutated}")
                    }
                    (Some(_), tagged) => {
                        panic!("the fast path takes what the tagged reading makes {tagged:?}: {mutated}")
                    }
                    (None, _) => other += 1,
                }
            }
        }
        assert!(taken > 1_000 && other > 1_000, "{taken} taken, {other} not");
    }

    /// The fast path accepts nothing the schema refuses, reads what it accepts exactly as the
    /// lenient parse does, and on every unmutated answer (the reference's, valid, and the
    /// documentation's, some of them refused) agrees with the schema.
    #[test]
    fn the_fast_path_accepts_only_what_the_schema_accepts() {
        use crate::engines::protocol::Reply;
        let corpus = corpus();
        assert!(corpus.len() > 1_000, "{} answers", corpus.len());
        let mut rng = crate::rng::SplitMix64::new(38);
        let (mut accepted, mut refused_by_both, mut fallback) = (0, 0, 0);
        for (k, line) in corpus.iter().enumerate() {
            // Unmutated (the documentation's refused examples included), the two agree.
            assert_eq!(
                strict_run(line).is_some(),
                validate_reply(line).is_ok(),
                "the fast path and the schema disagree on an unmutated answer: {line}"
            );
            let budget = if k % 10 == 0 { 24 } else { 3 };
            for mutated in std::iter::once(line.clone()).chain(mutations(line, &mut rng, budget)) {
                let schema = validate_reply(&mutated).is_ok();
                match strict_run(&mutated).map(StrictRun::into_wire) {
                    Some(result) => {
                        assert!(
                            schema,
                            "the fast path accepts what the schema refuses: {mutated}"
                        );
                        let Ok(Reply::Result(lenient)) = serde_json::from_str(&mutated) else {
                            panic!("the lenient parse refuses {mutated}");
                        };
                        assert_eq!(result, lenient, "{mutated}");
                        accepted += 1;
                    }
                    None if schema => fallback += 1,
                    None => refused_by_both += 1,
                }
            }
        }
        println!(
            "{} answers: {accepted} accepted by both, {refused_by_both} refused by both, {fallback} left to the validator",
            corpus.len()
        );
        assert!(
            refused_by_both > 1_000,
            "the mutations refuse too little: {refused_by_both}"
        );
    }
}
