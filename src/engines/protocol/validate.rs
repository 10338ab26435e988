//! The strict reading of a message: `docs/protocol.schema.json` itself, compiled once by a
//! JSON Schema validator nobody here wrote (`boon`, draft 2020-12), with every problem
//! reported at its path (`steps[2].reason: unknown reason `kox`; expected one of ...`), and
//! not only the first.
//!
//! The schema is built into the binary (`include_str!`), so the checks are exactly the
//! committed file's. What this module adds is only the wording: a message is checked against
//! the schema of its `type`, so that a bad `result` is not also reported as a bad `hello`;
//! of the kinds of step (`oneOf` on `verdict`), the one its `verdict` names is the one
//! reported; and each problem is said in the terms of the protocol's documentation.

use std::sync::OnceLock;

use boon::{Compiler, ErrorKind, InstanceToken, SchemaIndex, Schemas, Type, ValidationError};
use serde_json::Value;

use super::MAX_LINE_BYTES;

/// The committed schema, as built into the binary.
pub(super) const SCHEMA: &str = include_str!("../../../docs/protocol.schema.json");

/// Where the schema is filed for the compiler (its own `$id` names it as well).
const LOCATION: &str = "https://goconform.invalid/protocol.schema.json";

/// The messages from the harness (`type`, then the schema's definition).
const REQUESTS: [(&str, &str); 3] = [("hello", "hello-request"), ("run", "run"), ("bye", "bye")];

/// The messages from an engine.
const REPLIES: [(&str, &str); 4] = [
    ("hello", "hello-reply"),
    ("result", "result"),
    ("skipped", "skipped"),
    ("error", "error"),
];

/// The schema compiled once: one entry point per kind of message.
struct Compiled {
    schemas: Schemas,
    requests: Vec<(&'static str, SchemaIndex)>,
    replies: Vec<(&'static str, SchemaIndex)>,
}

/// The compiled schema, or why it does not compile (a broken build, which the tests catch:
/// every check then reports it rather than panicking).
fn compiled() -> Result<&'static Compiled, String> {
    static COMPILED: OnceLock<Result<Compiled, String>> = OnceLock::new();
    COMPILED
        .get_or_init(|| {
            let broken = |e: &dyn std::fmt::Display| {
                format!("the protocol's schema built into goconform is broken: {e}")
            };
            let schema: Value = serde_json::from_str(SCHEMA).map_err(|e| broken(&e))?;
            let mut compiler = Compiler::new();
            compiler
                .add_resource(LOCATION, schema)
                .map_err(|e| broken(&e))?;
            let mut schemas = Schemas::new();
            let mut entries = |kinds: &[(&'static str, &str)]| {
                kinds
                    .iter()
                    .map(|&(kind, def)| {
                        compiler
                            .compile(&format!("{LOCATION}#/$defs/{def}"), &mut schemas)
                            .map(|index| (kind, index))
                            .map_err(|e| broken(&e))
                    })
                    .collect::<Result<Vec<_>, String>>()
            };
            let requests = entries(&REQUESTS)?;
            let replies = entries(&REPLIES)?;
            Ok(Compiled {
                schemas,
                requests,
                replies,
            })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Checks one line from an engine against the protocol's schema (every field, every word,
/// no unknown field), reporting every problem with its path, such as
/// `steps[2].reason: unknown reason `kox`; expected one of ...`.
pub fn validate_reply(line: &str) -> Result<(), Vec<String>> {
    validate(line, |c| &c.replies)
}

/// Checks one line from a harness against the protocol's schema.
pub fn validate_request(line: &str) -> Result<(), Vec<String>> {
    validate(line, |c| &c.requests)
}

fn validate(
    line: &str,
    kinds: fn(&Compiled) -> &Vec<(&'static str, SchemaIndex)>,
) -> Result<(), Vec<String>> {
    let whole = |problem: String| Err(vec![format!("(message): {problem}")]);
    if line.len() > MAX_LINE_BYTES {
        return whole(format!(
            "a line of {} bytes (at most {MAX_LINE_BYTES})",
            line.len()
        ));
    }
    let message = match serde_json::from_str::<Value>(line) {
        Ok(value @ Value::Object(_)) => value,
        Ok(other) => return whole(format!("expected a JSON object, got {}", show(&other))),
        Err(e) => return whole(format!("not JSON: {e}")),
    };
    let compiled = compiled().map_err(|e| vec![e])?;
    let kinds = kinds(compiled);
    let kind = message.get("type");
    let Some(&(_, index)) = kinds
        .iter()
        .find(|(k, _)| kind.and_then(Value::as_str) == Some(*k))
    else {
        let names: Vec<&str> = kinds.iter().map(|(k, _)| *k).collect();
        return Err(vec![match kind {
            None => "type: missing".to_string(),
            Some(t) => format!("type: {} is not one of {}", show(t), names.join(", ")),
        }]);
    };
    let Err(error) = compiled.schemas.validate(&message, index) else {
        return Ok(());
    };
    let mut problems = Vec::new();
    describe(&error, &message, &mut problems);
    let mut seen = std::collections::HashSet::new();
    problems.retain(|p| seen.insert(p.clone()));
    Err(problems)
}

/// The problems an error of the validator stands for, in the protocol's words.
fn describe(error: &ValidationError, message: &Value, out: &mut Vec<String>) {
    if let ErrorKind::OneOf(None) | ErrorKind::AnyOf = error.kind {
        return describe_alternatives(error, message, out);
    }
    if !error.causes.is_empty() {
        for cause in &error.causes {
            describe(cause, message, out);
        }
        return;
    }
    let tokens = &error.instance_location.tokens;
    let here = path(tokens);
    let value = value_at(message, tokens);
    let shown = value.map_or_else(String::new, show);
    let what = what_of(error.schema_url);
    let problem = match &error.kind {
        ErrorKind::Required { want } => {
            out.extend(
                want.iter()
                    .map(|key| format!("{}: missing", child(&here, key))),
            );
            return;
        }
        ErrorKind::AdditionalProperties { got } => {
            let known = known_fields(error.schema_url);
            out.extend(got.iter().map(|key| {
                let hint = nearest(key, &known)
                    .map_or_else(String::new, |k| format!(" (did you mean `{k}`?)"));
                format!("{}: unknown field{hint}", child(&here, key))
            }));
            return;
        }
        ErrorKind::FalseSchema | ErrorKind::AdditionalItems { .. } => {
            // An item past the end of a pair (`items: false`): the pair is what is wrong.
            let pair = &tokens[..tokens.len().saturating_sub(1)];
            let url = error.schema_url.strip_suffix("/items");
            if let Some(what) = url.and_then(what_of) {
                let shown = value_at(message, pair).map_or_else(String::new, show);
                out.push(format!("{}: expected {what}, got {shown}", path(pair)));
                return;
            }
            error.kind.to_string()
        }
        ErrorKind::Type { .. }
        | ErrorKind::Pattern { .. }
        | ErrorKind::Minimum { .. }
        | ErrorKind::Maximum { .. }
        | ErrorKind::MultipleOf { .. }
        | ErrorKind::MinItems { .. }
            if what.is_some() =>
        {
            format!("expected {}, got {shown}", what.unwrap_or_default())
        }
        ErrorKind::Type { want, .. } => {
            let names: Vec<&str> = want.iter().map(type_name).collect();
            format!("expected {}, got {shown}", names.join(" or "))
        }
        ErrorKind::Enum { want } => {
            let words: Vec<String> = want
                .iter()
                .map(|w| w.as_str().map_or_else(|| w.to_string(), str::to_string))
                .collect();
            let given = value
                .and_then(Value::as_str)
                .map_or_else(|| shown.clone(), |t| format!("`{t}`"));
            format!(
                "unknown {} {given}; expected one of {}",
                noun(error.schema_url),
                words.join(", ")
            )
        }
        ErrorKind::Const { want } if error.schema_url.ends_with("/$defs/protocol") => {
            format!("this is version {want} of the protocol, not {shown}")
        }
        ErrorKind::Const { want } => format!("expected {want}, got {shown}"),
        ErrorKind::MinLength { .. } => "must not be empty".to_string(),
        // The schema's one `not`: an observation giving the board both ways.
        ErrorKind::Not => "the board is given twice, as `board` and as `rows`".to_string(),
        ErrorKind::UniqueItems { got: [_, j] } => {
            let item = value.and_then(|v| v.get(j)).map_or_else(String::new, show);
            out.push(format!("{here}[{j}]: {item} is given twice"));
            return;
        }
        other => other.to_string(),
    };
    out.push(format!("{here}: {problem}"));
}

/// A `oneOf` or `anyOf` none of whose branches matched (the kinds of step on `verdict`,
/// `null` or a list): a branch refused by a constant (a `verdict` other than its own) or by
/// the type of the value itself is not the one the message meant, and of the others the one
/// with the fewest problems is reported; if every branch was refused so, the constant or the
/// type is what is wrong.
fn describe_alternatives(error: &ValidationError, message: &Value, out: &mut Vec<String>) {
    let here = &error.instance_location.tokens;
    let mut refusals = Vec::new();
    let mut candidates = Vec::new();
    for branch in &error.causes {
        let mut leaves = Vec::new();
        collect_leaves(branch, &mut leaves);
        let refused: Vec<&ValidationError> = leaves
            .iter()
            .copied()
            .filter(|e| match e.kind {
                ErrorKind::Const { .. } => true,
                ErrorKind::Type { .. } => path(&e.instance_location.tokens) == path(here),
                _ => false,
            })
            .collect();
        if refused.is_empty() {
            candidates.push((leaves.len(), branch));
        } else {
            refusals.extend(refused);
        }
    }
    if let Some((_, branch)) = candidates.iter().min_by_key(|(n, _)| *n) {
        return describe(branch, message, out);
    }
    let Some(first) = refusals.first() else {
        return out.push(format!("{}: {}", path(here), error.kind));
    };
    let tokens = &first.instance_location.tokens;
    let mut wanted: Vec<String> = Vec::new();
    for refusal in &refusals {
        match &refusal.kind {
            ErrorKind::Const { want } => {
                wanted.push(
                    want.as_str()
                        .map_or_else(|| want.to_string(), str::to_string),
                );
            }
            ErrorKind::Type { want, .. } => {
                wanted.extend(want.iter().map(|t| type_name(t).to_string()));
            }
            _ => {}
        }
    }
    let shown = value_at(message, tokens).map_or_else(String::new, show);
    out.push(format!(
        "{}: {shown} is not one of {}",
        path(tokens),
        wanted.join(", ")
    ));
}

fn collect_leaves<'a, 's, 'v>(
    error: &'a ValidationError<'s, 'v>,
    out: &mut Vec<&'a ValidationError<'s, 'v>>,
) {
    if error.causes.is_empty() {
        out.push(error);
    } else {
        for cause in &error.causes {
            collect_leaves(cause, out);
        }
    }
}

/// What a value of the schema's definition at `url` must be, for the definitions whose
/// keywords say it badly one by one (a pattern, a range, a pair).
/// The field names the schema object at `url` (or the object whose `additionalProperties`
/// it is) allows.
fn known_fields(url: &str) -> Vec<String> {
    static SCHEMA_VALUE: OnceLock<Option<Value>> = OnceLock::new();
    let Some(schema) = SCHEMA_VALUE.get_or_init(|| serde_json::from_str(SCHEMA).ok()) else {
        return Vec::new();
    };
    let Some((_, pointer)) = url.rsplit_once('#') else {
        return Vec::new();
    };
    let pointer = pointer
        .strip_suffix("/additionalProperties")
        .unwrap_or(pointer);
    schema
        .pointer(pointer)
        .and_then(|object| object.get("properties"))
        .and_then(Value::as_object)
        .map(|properties| properties.keys().cloned().collect())
        .unwrap_or_default()
}

/// The known field a misspelt one most likely meant: the closest by edit distance once
/// case, `-` and `_` are set aside, if it is close at all.
fn nearest(given: &str, known: &[String]) -> Option<String> {
    let plain = |s: &str| s.to_ascii_lowercase().replace('-', "_");
    let given = plain(given);
    known
        .iter()
        .map(|k| (strsim::damerau_levenshtein(&given, &plain(k)), k))
        .filter(|&(distance, k)| distance <= 2.max(k.len() / 3))
        .min_by_key(|&(distance, _)| distance)
        .map(|(_, k)| k.clone())
}

fn what_of(url: &str) -> Option<&'static str> {
    let (_, pointer) = url.rsplit_once('#')?;
    Some(match pointer {
        "/$defs/vertex" => {
            "a vertex like D4 (a capital column letter A-Z without I and a row 1-25)"
        }
        "/$defs/komi" => "a komi like 7.5, 6 or -0.5",
        "/$defs/observation/properties/result" => "a result like B+3.5, W+R or 0",
        "/$defs/side" => "a whole number from 2 to 25",
        "/$defs/count" => "a whole number from 0 to 4294967295",
        "/$defs/points" => "a whole or half number of points",
        "/$defs/stone" => "a [vertex, colour] pair like [\"D4\", \"B\"]",
        "/$defs/observation/properties/rows/items" => {
            "a row of 1 to 25 cells, each `.`, `B` or `W`, like \"..B.W\""
        }
        "/$defs/counts" | "/$defs/observation/properties/score" => "a [black, white] pair",
        _ => return None,
    })
}

/// What a word of the closed list at `url` is called.
fn noun(url: &str) -> String {
    let pointer = url.rsplit_once('#').map_or(url, |(_, p)| p);
    match pointer.strip_prefix("/$defs/") {
        Some("observable") => "observation".to_string(),
        Some("event-kind") => "kind of event".to_string(),
        Some(name) if !name.contains('/') => name.to_string(),
        _ => {
            // An axis of the rules, in `rules` or in the capabilities' `axes`.
            let axis = pointer
                .split('/')
                .rev()
                .find(|part| !matches!(*part, "items" | "properties" | ""))
                .unwrap_or("word");
            format!("`{axis}` value")
        }
    }
}

fn type_name(t: Type) -> &'static str {
    match t {
        Type::Null => "null",
        Type::Boolean => "true or false",
        Type::Number => "a number",
        Type::Integer => "a whole number",
        Type::String => "a string",
        Type::Array => "an array",
        Type::Object => "an object",
    }
}

/// A path inside a message as the protocol's documentation writes it:
/// `steps[2].observation.board`; `(message)` for the whole message.
fn path(tokens: &[InstanceToken]) -> String {
    let mut out = String::new();
    for token in tokens {
        match token {
            InstanceToken::Prop(name) => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(name);
            }
            InstanceToken::Item(i) => out.push_str(&format!("[{i}]")),
        }
    }
    if out.is_empty() {
        "(message)".to_string()
    } else {
        out
    }
}

fn child(path: &str, key: &str) -> String {
    if path == "(message)" {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

fn value_at<'v>(message: &'v Value, tokens: &[InstanceToken]) -> Option<&'v Value> {
    tokens.iter().try_fold(message, |value, token| match token {
        InstanceToken::Prop(name) => value.get(name.as_ref()),
        InstanceToken::Item(i) => value.get(i),
    })
}

/// A value as JSON, cut to 60 characters.
fn show(value: &Value) -> String {
    let text = value.to_string();
    if text.len() > 60 {
        format!("{}...", text.chars().take(57).collect::<String>())
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_misspelt_field_names_the_nearest_known_one() {
        let line =
            r#"{"type":"result","id":"t1.0","initial":{"board":[],"to-move":"B"},"steps":[]}"#;
        let problems = validate_reply(line).unwrap_err();
        assert!(
            problems
                .iter()
                .any(|p| p == "initial.to-move: unknown field (did you mean `to_move`?)"),
            "{problems:?}"
        );
        let line =
            r#"{"type":"result","id":"t1.0","initial":{"colour_of_the_sky":"B"},"steps":[]}"#;
        let problems = validate_reply(line).unwrap_err();
        assert!(
            problems
                .iter()
                .any(|p| p == "initial.colour_of_the_sky: unknown field"),
            "{problems:?}"
        );
    }
}
