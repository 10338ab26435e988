//! Named rulesets: a value for every rules axis, and the clauses the ruleset adopts.
//!
//! One file per ruleset under spec/rulesets/. A ruleset either states every axis or `extends`
//! another and states only what differs, so a user can define a new ruleset as a file without
//! touching Rust. Values are the same words the command line takes (`ko = "situational"`).

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::location::{Located, Source};
use crate::rules::{Rules, AXES};

/// A ruleset as written in its file.
#[derive(Clone, Debug, PartialEq)]
pub struct RulesetDef {
    /// The name scenarios and the command line use (`aga`).
    pub name: String,
    /// A title for people.
    pub title: String,
    /// What the ruleset is and where it comes from.
    pub description: String,
    /// A ruleset whose axes this one starts from, changing only those it sets.
    pub extends: Option<String>,
    /// The ids of the clauses the ruleset adopts.
    pub clauses: Vec<String>,
    /// Axis name to value word, in file order of keys (sorted).
    pub axes: BTreeMap<String, String>,
    /// Where each axis and clause reference sits, for errors found after parsing.
    pub(crate) located: Locations,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub(crate) struct Locations {
    pub name: Option<Located>,
    pub extends: Option<Located>,
    pub clauses: Vec<Located>,
    pub axes: BTreeMap<String, Located>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRuleset {
    name: Spanned<String>,
    title: String,
    description: String,
    extends: Option<Spanned<String>>,
    #[serde(default)]
    clauses: Vec<Spanned<String>>,
    #[serde(default)]
    axes: BTreeMap<String, Spanned<toml::Value>>,
}

/// The word of an axis value written as a string or a number (`ko = "simple"`, `komi = 7.5`).
pub(crate) fn axis_word(value: &toml::Value) -> Option<String> {
    match value {
        toml::Value::String(s) => Some(s.clone()),
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        _ => None,
    }
}

/// Reads one ruleset file, checking axis names and values; names of other rulesets and
/// clauses are checked by the caller, which knows them all.
pub fn parse_file(path: &Path, text: &str) -> Result<RulesetDef, Vec<Located>> {
    let source = Source::new(path, text);
    let raw: RawRuleset = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
    let mut errors = Vec::new();
    let mut axes = BTreeMap::new();
    let mut located = Locations {
        name: Some(source.error(&raw.name.span(), "name", "")),
        extends: raw
            .extends
            .as_ref()
            .map(|e| source.error(&e.span(), "extends", "")),
        ..Locations::default()
    };
    let mut probe = Rules::default();
    for (axis, value) in &raw.axes {
        let key = format!("axes.{axis}");
        let Some(word) = axis_word(value.get_ref()) else {
            errors.push(source.error(
                &value.span(),
                key,
                format!(
                    "expected a word or a number, found {}",
                    value.get_ref().type_str()
                ),
            ));
            continue;
        };
        if let Err(e) = probe.set(axis, &word) {
            errors.push(source.error(&value.span(), key, e.to_string()));
            continue;
        }
        located
            .axes
            .insert(axis.clone(), source.error(&value.span(), key, ""));
        axes.insert(axis.clone(), word);
    }
    if raw.extends.is_none() {
        let missing: Vec<&str> = AXES
            .iter()
            .copied()
            .filter(|a| !raw.axes.contains_key(*a))
            .collect();
        if !missing.is_empty() {
            errors.push(source.error(
                &raw.name.span(),
                "axes",
                format!(
                    "a ruleset that extends no other must state every axis; missing: {}",
                    missing.join(", ")
                ),
            ));
        }
    }
    for (i, c) in raw.clauses.iter().enumerate() {
        located
            .clauses
            .push(source.error(&c.span(), format!("clauses[{i}]"), ""));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(RulesetDef {
        name: raw.name.into_inner(),
        title: raw.title,
        description: raw.description,
        extends: raw.extends.map(Spanned::into_inner),
        clauses: raw.clauses.into_iter().map(Spanned::into_inner).collect(),
        axes,
        located,
    })
}
