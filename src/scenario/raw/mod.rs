//! The scenario file as written, and its translation into a checked [`Scenario`].
//!
//! Serde reads the file into the `Raw*` structs with byte spans on every value that needs a
//! check serde cannot make (vertices, diagrams, names of rulesets and clauses). The checks
//! then run in one pass that collects every problem instead of stopping at the first
//! (`check.rs`), with the readers of single values in `values.rs`.

mod check;
mod values;

pub(crate) use check::{check, deserialize, parse};

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

/// `rules = "aga"` or `rules = ["aga", "bga"]`.
#[derive(Default)]
pub(crate) struct OneOrMany(pub Vec<Spanned<String>>);

impl<'de> Deserialize<'de> for OneOrMany {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<OneOrMany, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = OneOrMany;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a ruleset name or a list of ruleset names")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<OneOrMany, E> {
                Ok(OneOrMany(vec![Spanned::new(0..0, v.to_string())]))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<OneOrMany, A::Error> {
                let mut out = Vec::new();
                while let Some(item) = seq.next_element::<Spanned<String>>()? {
                    out.push(item);
                }
                Ok(OneOrMany(out))
            }
        }
        deserializer.deserialize_any(V)
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawScenario {
    id: Option<Spanned<String>>,
    title: Option<String>,
    #[serde(default)]
    description: String,
    clauses: Option<Spanned<Vec<Spanned<String>>>>,
    checked: Option<Spanned<String>>,
    added: Option<String>,
    rules: Option<Spanned<OneOrMany>>,
    #[serde(default)]
    run: Vec<RawRun>,
    #[serde(default)]
    set: BTreeMap<String, Spanned<toml::Value>>,
    size: Spanned<toml::Value>,
    komi: Option<Spanned<toml::Value>>,
    to_move: Option<Spanned<String>>,
    setup_history: Option<Spanned<String>>,
    board: Option<Spanned<String>>,
    handicap: Option<Spanned<toml::Value>>,
    handicap_as_placed: Option<Spanned<bool>>,
    #[serde(default)]
    moves: Vec<Spanned<String>>,
    #[serde(default)]
    expect: Vec<Spanned<RawExpect>>,
    #[serde(default)]
    crosscheck: Vec<RawCrosscheck>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrosscheck {
    engine: Spanned<String>,
    run: Spanned<String>,
    #[serde(default)]
    flags: Vec<String>,
    score: Option<Spanned<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawRun {
    pub name: Spanned<String>,
    pub rules: Spanned<String>,
    #[serde(default)]
    pub set: BTreeMap<String, Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RawExpect {
    after: Spanned<i64>,
    under: Option<Vec<Spanned<String>>>,
    legal: Option<Spanned<bool>>,
    illegal: Option<Spanned<String>>,
    captures: Option<Vec<Spanned<String>>>,
    self_captures: Option<Vec<Spanned<String>>>,
    board: Option<Spanned<String>>,
    prisoners: Option<Spanned<RawPrisoners>>,
    to_move: Option<Spanned<String>>,
    phase: Option<Spanned<String>>,
    result: Option<Spanned<String>>,
    score: Option<Spanned<RawScore>>,
    breach: Option<Spanned<String>>,
    class: Option<Spanned<String>>,
    ruling: Option<Spanned<String>>,
    warnings: Option<Spanned<RawPrisoners>>,
    note: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawScore {
    #[serde(rename = "B")]
    black: Spanned<toml::Value>,
    #[serde(rename = "W")]
    white: Spanned<toml::Value>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPrisoners {
    #[serde(rename = "B")]
    black: u32,
    #[serde(rename = "W")]
    white: u32,
}

pub(super) fn parse_size(value: &toml::Value) -> Result<(u8, u8), String> {
    let side = |n: i64| u8::try_from(n).ok();
    let parsed = match value {
        toml::Value::Integer(n) => side(*n).map(|s| (s, s)),
        toml::Value::String(s) => s.split_once(['x', 'X']).and_then(|(w, h)| {
            let w = w.trim().parse::<i64>().ok().and_then(side)?;
            let h = h.trim().parse::<i64>().ok().and_then(side)?;
            Some((w, h))
        }),
        _ => None,
    };
    match parsed {
        Some((w, h)) if (2..=25).contains(&w) && (2..=25).contains(&h) => Ok((w, h)),
        _ => Err(
            "expected a board size from 2 to 25, as a number (9) or WIDTHxHEIGHT (\"7x5\")"
                .to_string(),
        ),
    }
}

/// The message for a name that is not one of the scenario's runs, listing those that are.
pub(super) fn unknown_run(name: &str, labels: &BTreeMap<&str, usize>) -> String {
    let known: Vec<&str> = labels.keys().copied().collect();
    format!(
        "`{name}` is not one of this scenario's runs: {}",
        known.join(", ")
    )
}

/// What a file is read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A conformance scenario: every key that documents and checks it is required.
    Scenario,
    /// A game record to rule on (`goconform ruling`): the same format, with the id, title,
    /// clauses, `checked`, rules and expectations optional.
    Record,
}
