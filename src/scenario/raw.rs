//! The scenario file as written, and its translation into a checked [`Scenario`].
//!
//! Serde reads the file into the `Raw*` structs with byte spans on every value that needs a
//! check serde cannot make (vertices, diagrams, names of rulesets and clauses). The checks
//! then run in one pass that collects every problem instead of stopping at the first.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::de::{self, Deserializer, SeqAccess, Visitor};
use serde::Deserialize;
use toml::Spanned;

use super::{
    check_setup, diagram, parse_result, parse_setup_history, resolve_runs, Check, Crosscheck,
    Expectation, ExpectedVerdict, Scenario,
};
use crate::board::{Color, Point};
use crate::game::handicap::{self, Pattern};
use crate::game::{Class, Event, Phase, Reason, Ruling, Setup, SetupHistory};
use crate::rules::{HandicapPlacement, Komi, PassStones, Rules, Scoring};
use crate::spec::location::{Located, Source};
use crate::spec::rulesets::axis_word;
use crate::spec::{is_slug, Spec};

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

fn parse_size(value: &toml::Value) -> Result<(u8, u8), String> {
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
fn unknown_run(name: &str, labels: &BTreeMap<&str, usize>) -> String {
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

pub(crate) fn parse(
    path: &Path,
    text: &str,
    topic: &str,
    spec: &Spec,
    kind: Kind,
) -> Result<Scenario, Vec<Located>> {
    let source = Source::new(path, text);
    let raw: RawScenario = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
    let mut errors = Vec::new();
    let strict = kind == Kind::Scenario;
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    let mut missing = |key: &str, what: &str| {
        if strict {
            errors.push(source.error_at(0, key, format!("missing key `{key}`: {what}")));
        }
    };
    if raw.id.is_none() {
        missing("id", "a scenario's permanent id, the same as its file name");
    }
    if raw.title.is_none() {
        missing("title", "one line saying what the scenario shows");
    }
    if raw.clauses.is_none() {
        missing("clauses", "the clause ids the scenario checks");
    }
    if raw.checked.is_none() {
        missing(
            "checked",
            "what second source the expectations were checked against, and how",
        );
    }

    let id = raw
        .id
        .as_ref()
        .map_or(stem.to_string(), |i| i.get_ref().clone());
    if let Some(spanned) = &raw.id {
        if !is_slug(&id) {
            errors.push(source.error(
                &spanned.span(),
                "id",
                "a scenario id is lowercase letters, digits and dashes",
            ));
        }
        if stem != id && strict {
            errors.push(source.error(
                &spanned.span(),
                "id",
                format!("scenario `{id}` must live in a file named {id}.toml (found {stem}.toml)"),
            ));
        }
    }
    if let Some(clauses) = &raw.clauses {
        if clauses.get_ref().is_empty() && strict {
            errors.push(source.error(
                &clauses.span(),
                "clauses",
                "a scenario cites at least one clause",
            ));
        }
        for (i, c) in clauses.get_ref().iter().enumerate() {
            if spec.clause(c.get_ref()).is_none() {
                errors.push(source.error(
                    &c.span(),
                    format!("clauses[{i}]"),
                    format!("unknown clause `{}`", c.get_ref()),
                ));
            }
        }
    }
    if let Some(checked) = raw
        .checked
        .as_ref()
        .filter(|c| c.get_ref().trim().is_empty())
    {
        if strict {
            errors.push(source.error(
                &checked.span(),
                "checked",
                "say what second source the expectations were checked against, and how",
            ));
        }
    }

    let (width, height) = match parse_size(raw.size.get_ref()) {
        Ok(size) => size,
        Err(message) => {
            errors.push(source.error(&raw.size.span(), "size", message));
            return Err(errors);
        }
    };

    let komi = raw.komi.as_ref().and_then(|k| {
        let parsed = axis_word(k.get_ref()).and_then(|w| w.parse::<Komi>().ok());
        if parsed.is_none() {
            errors.push(source.error(
                &k.span(),
                "komi",
                "expected a whole or half number such as 7.5, 6 or 0.5",
            ));
        }
        parsed
    });

    let (handicap, one_stone) = match &raw.handicap {
        None => (Vec::new(), false),
        Some(h) => match read_handicap(&source, h, width, height, &mut errors) {
            Handicap::OneStone => (Vec::new(), true),
            Handicap::Placed(points) => (points, false),
        },
    };
    if let (true, Some(k)) = (one_stone, &raw.komi) {
        errors.push(source.error(
            &k.span(),
            "komi",
            "a one-stone handicap (`handicap = 1`) takes White's compensation from each ruleset's handicap-komi; leave `komi` out",
        ));
    }
    let to_move = match &raw.to_move {
        None if handicap.is_empty() => Color::Black,
        None => Color::White,
        Some(c) => Color::parse(c.get_ref()).unwrap_or_else(|| {
            errors.push(source.error(&c.span(), "to_move", "expected B or W"));
            Color::Black
        }),
    };
    if let (Some(c), true, Color::White) = (&raw.to_move, one_stone, to_move) {
        errors.push(source.error(
            &c.span(),
            "to_move",
            "in a one-stone handicap Black moves first (AGA Rule 4)",
        ));
    }
    if let (Some(c), false) = (&raw.to_move, handicap.is_empty()) {
        if to_move == Color::Black {
            errors.push(source.error(
                &c.span(),
                "to_move",
                "White moves first after the handicap stones",
            ));
        }
    }
    let history = match &raw.setup_history {
        None => SetupHistory::Played,
        Some(h) => parse_setup_history(h.get_ref()).unwrap_or_else(|| {
            errors.push(source.error(
                &h.span(),
                "setup_history",
                "expected `played` or `excluded`",
            ));
            SetupHistory::Played
        }),
    };
    let stones = match &raw.board {
        None => Vec::new(),
        Some(b) => read_diagram(&source, b, "board", width, height, &mut errors),
    };
    let setup = Setup {
        width,
        height,
        stones,
        handicap,
        to_move,
        history,
        handicap_as_placed: raw
            .handicap_as_placed
            .as_ref()
            .is_some_and(|h| *h.get_ref()),
    };
    if let (Some(h), true) = (&raw.handicap_as_placed, setup.handicap.is_empty()) {
        errors.push(source.error(
            &h.span(),
            "handicap_as_placed",
            "there are no handicap stones to stand as placed: give `handicap` as a list of points",
        ));
    }
    let no_handicap = Setup {
        handicap: Vec::new(),
        ..setup.clone()
    };
    let board_is_legal = match (&raw.board, check_setup(&no_handicap, Rules::default())) {
        (Some(b), Err(message)) => {
            errors.push(source.error(&b.span(), "board", message));
            false
        }
        _ => true,
    };

    let named: Vec<Spanned<String>> = match &raw.rules {
        None => Vec::new(),
        Some(r) => r
            .get_ref()
            .0
            .iter()
            .map(|s| {
                // A bare string has no span of its own: point at the `rules` value.
                let span = if s.span() == (0..0) {
                    r.span()
                } else {
                    s.span()
                };
                Spanned::new(span, s.get_ref().clone())
            })
            .collect(),
    };
    let mut runs = resolve_runs(&source, spec, &named, &raw.run, &raw.set, komi, &mut errors);
    if one_stone {
        // A one-stone handicap places no stone: the game is played as an even game in which
        // White receives the ruleset's handicap compensation instead of its even-game komi
        // (AGA Rule 4: Black moves first, White gets the half point of Rule 3). No stone is
        // placed, so there is nothing for the per-stone compensation of area counting to
        // count. A run that sets the komi itself keeps it.
        for run in &mut runs {
            if !run.overrides.iter().any(|(axis, _)| axis == "komi") {
                run.rules.komi = run.rules.handicap_komi;
            }
        }
    }
    if let (Some(h), true) = (&raw.handicap, board_is_legal) {
        // What does not depend on the rules (the number of stones, empty distinct points) is
        // reported once; whether the placement must be the fixed one is checked per run.
        let free = Rules {
            handicap_placement: HandicapPlacement::Free,
            ..Rules::default()
        };
        let placement_problem = check_setup(&setup, free).err();
        if let Some(message) = &placement_problem {
            errors.push(source.error(&h.span(), "handicap", message.clone()));
        }
        for run in runs.iter().filter(|_| placement_problem.is_none()) {
            if let Err(message) = check_setup(&setup, run.rules) {
                errors.push(source.error(
                    &h.span(),
                    "handicap",
                    format!("under `{}`: {message}", run.label),
                ));
            }
        }
    }
    if named.is_empty() && raw.run.is_empty() && strict {
        // At `rules = []` if that is what was written, else at the top of the file.
        let at = raw.rules.as_ref().map_or(0, |r| r.span().start);
        errors.push(source.error_at(
            at,
            "rules",
            "say which rules to run under: `rules = \"aga\"`, a list, or [[run]] tables",
        ));
    }
    // A run's name given twice, at the second time it is given.
    let given = named
        .iter()
        .enumerate()
        .map(|(i, n)| (n, format!("rules[{i}]")))
        .chain(
            raw.run
                .iter()
                .enumerate()
                .map(|(i, r)| (&r.name, format!("run[{i}].name"))),
        );
    let mut seen = std::collections::HashSet::new();
    for (name, key) in given {
        if !seen.insert(name.get_ref().as_str()) {
            errors.push(source.error(
                &name.span(),
                key,
                format!("two runs are both named `{}`", name.get_ref()),
            ));
        }
    }
    let labels: BTreeMap<&str, usize> = runs
        .iter()
        .enumerate()
        .rev()
        .map(|(i, run)| (run.label.as_str(), i))
        .collect();

    let mut events = Vec::new();
    let mut event_lines = Vec::new();
    for (i, m) in raw.moves.iter().enumerate() {
        match Event::parse(m.get_ref(), width, height) {
            Ok(e) => {
                events.push(e);
                event_lines.push(source.line_column(m.span().start).0);
            }
            Err(e) => errors.push(source.error(&m.span(), format!("moves[{i}]"), e.to_string())),
        }
    }

    let mut expectations = Vec::new();
    for (i, spanned) in raw.expect.iter().enumerate() {
        let e = spanned.get_ref();
        let key = |k: &str| format!("expect[{i}].{k}");
        let line = source.line_column(spanned.span().start).0;
        let after = *e.after.get_ref();
        if after < 0 || after as usize > raw.moves.len() {
            errors.push(source.error(
                &e.after.span(),
                key("after"),
                format!(
                    "`after` must be from 0 (the start) to {} (the last move)",
                    raw.moves.len()
                ),
            ));
            continue;
        }
        let after = after as usize;
        let run_indices: Vec<usize> = match &e.under {
            None => (0..runs.len()).collect(),
            Some(names) => names
                .iter()
                .enumerate()
                .filter_map(|(j, n)| {
                    let found = labels.get(n.get_ref().as_str()).copied();
                    if found.is_none() {
                        errors.push(source.error(
                            &n.span(),
                            format!("expect[{i}].under[{j}]"),
                            unknown_run(n.get_ref(), &labels),
                        ));
                    }
                    found
                })
                .collect(),
        };
        let mut checks = Vec::new();
        if let Some(l) = &e.legal {
            if *l.get_ref() {
                checks.push(Check::Verdict(ExpectedVerdict::Legal));
            } else {
                errors.push(source.error(
                    &l.span(),
                    key("legal"),
                    "write `illegal = \"REASON\"` instead of `legal = false`",
                ));
            }
        }
        let mut word = |value: &Option<Spanned<String>>,
                        name: &str,
                        check: &dyn Fn(&str) -> Result<Check, String>| {
            if let Some(v) = value {
                match check(v.get_ref()) {
                    Ok(c) => checks.push(c),
                    Err(message) => errors.push(source.error(&v.span(), key(name), message)),
                }
            }
        };
        word(&e.illegal, "illegal", &|w| {
            w.parse::<Reason>()
                .map(|r| Check::Verdict(ExpectedVerdict::Illegal(r)))
        });
        word(&e.breach, "breach", &|w| {
            w.parse::<Reason>()
                .map(|r| Check::Verdict(ExpectedVerdict::Breach(r)))
        });
        word(&e.class, "class", &|w| w.parse::<Class>().map(Check::Class));
        word(&e.ruling, "ruling", &|w| {
            w.parse::<Ruling>()
                .map(|r| Check::Verdict(ExpectedVerdict::Ruled(r)))
        });
        word(&e.phase, "phase", &|w| w.parse::<Phase>().map(Check::Phase));
        if let Some(points) = &e.captures {
            checks.push(Check::Captures(read_points(
                &source,
                points,
                &key("captures"),
                width,
                height,
                &mut errors,
            )));
        }
        if let Some(points) = &e.self_captures {
            checks.push(Check::SelfCaptures(read_points(
                &source,
                points,
                &key("self_captures"),
                width,
                height,
                &mut errors,
            )));
        }
        if let Some(b) = &e.board {
            checks.push(Check::Board(read_diagram(
                &source,
                b,
                &key("board"),
                width,
                height,
                &mut errors,
            )));
        }
        if let Some(p) = &e.prisoners {
            checks.push(Check::Prisoners([p.get_ref().black, p.get_ref().white]));
        }
        if let Some(w) = &e.warnings {
            checks.push(Check::Warnings([w.get_ref().black, w.get_ref().white]));
        }
        if let Some(c) = &e.to_move {
            match Color::parse(c.get_ref()) {
                Some(c) => checks.push(Check::ToMove(c)),
                None => errors.push(source.error(&c.span(), key("to_move"), "expected B or W")),
            }
        }
        if let Some(r) = &e.result {
            match parse_result(r.get_ref()) {
                Ok(text) => checks.push(Check::Result(text)),
                Err(message) => errors.push(source.error(&r.span(), key("result"), message)),
            }
        }
        if let Some(score) = &e.score {
            let mut half = |v: &Spanned<toml::Value>, colour: &str| {
                let parsed = axis_word(v.get_ref())
                    .and_then(|w| w.parse::<Komi>().ok())
                    .map(Komi::half_points);
                if parsed.is_none() {
                    errors.push(source.error(
                        &v.span(),
                        key(&format!("score.{colour}")),
                        "expected a whole or half number of points such as 12 or 6.5",
                    ));
                }
                parsed.unwrap_or(0)
            };
            let black = half(&score.get_ref().black, "B");
            let white = half(&score.get_ref().white, "W");
            checks.push(Check::Score([black, white]));
        }
        if checks.is_empty() {
            errors.push(source.error(
                &spanned.span(),
                format!("expect[{i}]"),
                "this expectation asserts nothing",
            ));
        }
        let is_verdict = |c: &Check| {
            matches!(
                c,
                Check::Verdict(_) | Check::Captures(_) | Check::SelfCaptures(_) | Check::Class(_)
            )
        };
        if after == 0 && checks.iter().any(is_verdict) {
            errors.push(source.error(
                &e.after.span(),
                key("after"),
                "the start (`after = 0`) has no move: verdicts and captures need a move",
            ));
        }
        let illegal = checks.iter().any(|c| {
            matches!(
                c,
                Check::Verdict(
                    ExpectedVerdict::Illegal(_)
                        | ExpectedVerdict::Breach(_)
                        | ExpectedVerdict::Ruled(_)
                )
            )
        });
        let removes = checks
            .iter()
            .any(|c| matches!(c, Check::Captures(p) | Check::SelfCaptures(p) if !p.is_empty()));
        if illegal && removes {
            errors.push(source.error(
                &spanned.span(),
                format!("expect[{i}]"),
                "contradictory expectations: `captures` and `self_captures` describe legal moves only; a breach or a ruling shows its effect on the board and prisoners",
            ));
        }
        expectations.push(Expectation {
            after,
            runs: run_indices,
            checks,
            line,
            note: e.note.clone(),
        });
    }
    if raw.expect.is_empty() && strict {
        errors.push(source.error_at(
            0,
            "expect",
            "a scenario without expectations asserts nothing",
        ));
    }
    find_contradictions(&source, &expectations, &runs, &raw.expect, &mut errors);

    let mut crosschecks = Vec::new();
    let refereed = super::is_record(&setup, &events);
    for (i, c) in raw.crosscheck.iter().enumerate() {
        if refereed {
            errors.push(source.error(
                &c.engine.span(),
                format!("crosscheck[{i}]"),
                "a referee's record (breaches, notices, sealed moves) has no GTP equivalent, so it cannot be cross-checked against an engine",
            ));
        }
        if c.engine.get_ref() != "gnugo" {
            errors.push(source.error(
                &c.engine.span(),
                format!("crosscheck[{i}].engine"),
                format!(
                    "unknown engine `{}`; expected one of: gnugo",
                    c.engine.get_ref()
                ),
            ));
        }
        let score = c.score.as_ref().is_some_and(|s| *s.get_ref());
        match labels.get(c.run.get_ref().as_str()) {
            Some(&run) => {
                let rules = &runs[run].rules;
                let countable =
                    rules.scoring == Scoring::Area || rules.pass_stones == PassStones::Off;
                if let (Some(s), false) = (&c.score, countable) {
                    errors.push(source.error(
                        &s.span(),
                        format!("crosscheck[{i}].score"),
                        format!(
                            "GNU Go has no pass stones, so its score can only be compared under area counting or without pass stones; run `{}` counts territory with pass stones",
                            c.run.get_ref()
                        ),
                    ));
                }
                crosschecks.push(Crosscheck {
                    engine: c.engine.get_ref().clone(),
                    run,
                    flags: c.flags.clone(),
                    score,
                })
            }
            None => errors.push(source.error(
                &c.run.span(),
                format!("crosscheck[{i}].run"),
                unknown_run(c.run.get_ref(), &labels),
            )),
        }
    }

    if !errors.is_empty() {
        return Err(errors);
    }
    Ok(Scenario {
        id,
        title: raw.title.unwrap_or_default(),
        description: raw.description,
        clauses: raw
            .clauses
            .map(Spanned::into_inner)
            .unwrap_or_default()
            .into_iter()
            .map(Spanned::into_inner)
            .collect(),
        checked: raw.checked.map(Spanned::into_inner).unwrap_or_default(),
        added: raw.added,
        path: path.to_path_buf(),
        topic: topic.to_string(),
        setup,
        set: raw
            .set
            .iter()
            .filter_map(|(axis, value)| axis_word(value.get_ref()).map(|w| (axis.clone(), w)))
            .collect(),
        komi,
        one_stone_handicap: one_stone,
        runs,
        events,
        event_lines,
        expectations,
        crosschecks,
    })
}

fn read_points(
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

fn read_diagram(
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
fn find_contradictions(
    source: &Source,
    expectations: &[Expectation],
    runs: &[super::Run],
    raw: &[Spanned<RawExpect>],
    errors: &mut Vec<Located>,
) {
    // The first value asserted for each (move, run, key): a later expectation that asserts
    // another value contradicts it. One pass with a map, not every pair: a generated scenario
    // may hold tens of thousands of expectations after the same move.
    let mut first: std::collections::HashMap<(usize, usize, u8), (usize, &Check)> =
        std::collections::HashMap::new();
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
enum Handicap {
    /// `handicap = 1`: Black moves first and no stone is placed (AGA Rule 4).
    OneStone,
    /// Stones to place (none after an error, which is reported).
    Placed(Vec<Point>),
}

/// `handicap = 4` (the fixed placement of that many stones, AGA Rule 4),
/// `handicap = ["C3", "G7"]` (a free placement on the named points) or `handicap = 1` (a
/// one-stone handicap, which places no stone).
fn read_handicap(
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
fn read_handicap_points(
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
