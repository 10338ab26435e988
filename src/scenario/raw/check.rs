//! The one validating pass over a scenario file as serde read it: every check serde cannot
//! make (names of rulesets and clauses, vertices, diagrams, events, expectations and their
//! consistency), collecting every problem instead of stopping at the first.

use std::collections::BTreeMap;
use std::path::Path;

use toml::Spanned;

use super::values::{find_contradictions, read_diagram, read_handicap, read_points, Handicap};
use super::{parse_size, unknown_run, Kind, RawScenario};
use crate::board::Color;
use crate::game::{Class, Event, Phase, Reason, Ruling, Setup, SetupHistory};
use crate::rules::{HandicapPlacement, Komi, PassStones, Rules, Scoring};
use crate::scenario::{
    check_setup, is_record, parse_result, parse_setup_history, resolve_runs, Check, Crosscheck,
    Expectation, ExpectedVerdict, Scenario,
};
use crate::spec::location::{Located, Source};
use crate::spec::rulesets::axis_word;
use crate::spec::{is_slug, Spec};

pub(crate) fn parse(
    path: &Path,
    text: &str,
    topic: &str,
    spec: &Spec,
    kind: Kind,
) -> Result<Scenario, Vec<Located>> {
    check(path, text, deserialize(path, text)?, topic, spec, kind)
}

/// Reads a scenario file into its raw form: the TOML parse and serde's checks, the part of
/// loading that needs no specification (so that it can run while the specification loads).
pub(crate) fn deserialize(path: &Path, text: &str) -> Result<RawScenario, Vec<Located>> {
    toml::from_str(text).map_err(|e| vec![Source::new(path, text).from_toml(&e)])
}

/// Checks a scenario file that [`deserialize`] read against `spec`, and builds the scenario.
pub(crate) fn check(
    path: &Path,
    text: &str,
    raw: RawScenario,
    topic: &str,
    spec: &Spec,
    kind: Kind,
) -> Result<Scenario, Vec<Located>> {
    let source = Source::new(path, text);
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
    let refereed = is_record(&setup, &events);
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
