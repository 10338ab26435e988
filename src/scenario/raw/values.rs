//! Readers of single values of a scenario file (vertex lists, diagrams, the handicap) and the
//! check that no two expectations contradict each other.

use toml::Spanned;

use super::RawExpect;
use crate::board::Point;
use crate::game::handicap::{self, Pattern};
use crate::scenario::{diagram, Check, Expectation, Run};
use crate::spec::location::{Located, Source};

pub(super) fn read_points(
    source: &Source,
    points: &[Spanned<String>],
    key: &str,
    width: u8,
    height: u8,
    errors: &mut Vec<Located>,
) -> Vec<Point> {
    points
        .iter()
        .enumerate()
        .filter_map(
            |(j, v)| match Point::parse_gtp(v.get_ref(), width, height) {
                Ok(p) => Some(p),
                Err(e) => {
                    errors.push(source.error(&v.span(), format!("{key}[{j}]"), e.to_string()));
                    None
                }
            },
        )
        .collect()
}

pub(super) fn read_diagram(
    source: &Source,
    value: &Spanned<String>,
    key: &str,
    width: u8,
    height: u8,
    errors: &mut Vec<Located>,
) -> diagram::Stones {
    match diagram::parse(value.get_ref(), width, height) {
        Ok(stones) => stones,
        Err(e) => {
            let at = source.string_content_start(&value.span()) + e.offset;
            errors.push(source.error_at(at, key, e.message));
            Vec::new()
        }
    }
}

/// Two expectations that apply to the same run after the same move and assert different
/// values for the same key cannot both be right.
pub(super) fn find_contradictions(
    source: &Source,
    expectations: &[Expectation],
    runs: &[Run],
    raw: &[Spanned<RawExpect>],
    errors: &mut Vec<Located>,
) {
    // The first value asserted for each (move, run, key): a later expectation that asserts
    // another value contradicts it. One pass with a map, not every pair: a generated scenario
    // may hold tens of thousands of expectations after the same move.
    let entries: usize = expectations
        .iter()
        .map(|b| b.checks.len() * b.runs.len())
        .sum();
    let mut first: rustc_hash::FxHashMap<(usize, usize, u8), (usize, &Check)> =
        rustc_hash::FxHashMap::with_capacity_and_hasher(entries, Default::default());
    for (j, b) in expectations.iter().enumerate() {
        for cb in &b.checks {
            let earlier = b.runs.iter().find_map(|&run| {
                first
                    .get(&(b.after, run, cb.kind()))
                    .filter(|(_, ca)| *ca != cb)
                    .map(|&(i, ca)| (i, ca, run))
            });
            if let Some((i, ca, run)) = earlier {
                errors.push(source.error(
                    &raw[j].span(),
                    format!("expect[{j}].{}", cb.key()),
                    format!(
                        "contradictory expectations: expect[{i}] says otherwise about `{}` after move {} under `{}`",
                        ca.key(),
                        b.after,
                        runs[run].label
                    ),
                ));
            }
            for &run in &b.runs {
                first.entry((b.after, run, cb.kind())).or_insert((j, cb));
            }
        }
    }
}

/// What the `handicap` key asks for.
pub(super) enum Handicap {
    /// `handicap = 1`: Black moves first and no stone is placed (AGA Rule 4).
    OneStone,
    /// Stones to place (none after an error, which is reported).
    Placed(Vec<Point>),
}

/// `handicap = 4` (the fixed placement of that many stones, AGA Rule 4),
/// `handicap = ["C3", "G7"]` (a free placement on the named points) or `handicap = 1` (a
/// one-stone handicap, which places no stone).
pub(super) fn read_handicap(
    source: &Source,
    value: &Spanned<toml::Value>,
    width: u8,
    height: u8,
    errors: &mut Vec<Located>,
) -> Handicap {
    if matches!(value.get_ref(), toml::Value::Integer(1)) {
        return Handicap::OneStone;
    }
    Handicap::Placed(read_handicap_points(source, value, width, height, errors))
}

/// The points of a placed handicap (see [`read_handicap`]).
pub(super) fn read_handicap_points(
    source: &Source,
    value: &Spanned<toml::Value>,
    width: u8,
    height: u8,
    errors: &mut Vec<Located>,
) -> Vec<Point> {
    let mut fail = |message: String| {
        errors.push(source.error(&value.span(), "handicap", message));
        Vec::new()
    };
    match value.get_ref() {
        toml::Value::Integer(n) => {
            let Ok(stones) = u32::try_from(*n) else {
                return fail(format!(
                    "a handicap of {n} stones is not a number of stones"
                ));
            };
            if stones as usize > handicap::MAX_HANDICAP || stones < 2 {
                return fail(format!(
                    "a handicap is 1 (Black moves first, no stone placed) or 2 to 9 stones, not {stones}"
                ));
            }
            let fixed = (width == height)
                .then(|| handicap::fixed_points(Pattern::Traditional, width, stones))
                .flatten();
            match fixed {
                Some(points) => points,
                None => fail(format!(
                    "a {width}x{height} board has no fixed placement of {stones} stones; list the points for a free placement"
                )),
            }
        }
        toml::Value::Array(items) => {
            let mut points = Vec::new();
            for item in items {
                let parsed = item
                    .as_str()
                    .ok_or_else(|| format!("`{item}` is not a vertex"))
                    .and_then(|v| Point::parse_gtp(v, width, height).map_err(|e| e.to_string()));
                match parsed {
                    Ok(p) => points.push(p),
                    Err(message) => return fail(message),
                }
            }
            points
        }
        _ => fail(
            "expected a number of stones (fixed placement) or a list of vertices (free placement)"
                .to_string(),
        ),
    }
}
