//! A divergence turned into a scenario in the suite's format, ready for a person to review
//! and commit.
//!
//! The expectations are the reference's answers: the verdict of every event up to the one
//! where the implementations part, and there everything the reference shows (board, turn,
//! prisoners, phase) plus whatever diverged. The rules are a named ruleset with every axis
//! that differs written in `set`, so the file says exactly what was played. The clause is
//! chosen from what diverged; the reviewer confirms or changes it when checking the
//! expectation against the clause by hand.

use std::path::PathBuf;

use super::differential::Divergence;
use super::game::Case;
use crate::conformance::{Referee, Reference};
use crate::game::{Reason, Verdict};
use crate::rules::{Rules, AXES};
use crate::scenario::{Check, Expectation, ExpectedVerdict, Run, Scenario};
use crate::spec::Spec;

/// The ruleset a found scenario's rules are written against.
pub const BASE_RULESET: &str = "aga";

/// Who found the divergence, and how to find it again.
#[derive(Clone, Debug)]
pub struct Provenance {
    /// The engine spec as `--engine` took it.
    pub engine: String,
    /// The engine's own name and version.
    pub engine_version: String,
    /// The seed of the run (`goconform fuzz --seed`).
    pub seed: u64,
    /// The game of the run (0-based) that diverged.
    pub game: u64,
}

/// The message for a finding that could not be written (a full disk, a folder that cannot
/// be made): the error, then the scenario itself, so that a divergence found and minimised is
/// never lost with the file. The caller prints it on standard error.
pub fn unwritten(error: &str, scenario_text: &str) -> String {
    format!(
        "{error}\nthe finding was not saved; its scenario follows, to be saved by hand:\n{}",
        scenario_text.trim_end()
    )
}

/// The scenario for a (minimised) divergent game: the reference's answers as expectations.
pub fn scenario(
    spec: &Spec,
    case: &Case,
    divergence: &Divergence,
    provenance: &Provenance,
) -> Result<Scenario, String> {
    let base = spec.rules(BASE_RULESET)?;
    let set = overrides(&base, &case.rules);
    let mut reference = Reference::new();
    reference
        .start(&case.rules, &case.setup)
        .map_err(|e| format!("the reference refuses the set-up: {}", e.0))?;
    let mut expectations = Vec::new();
    let mut verdicts = Vec::new();
    if divergence.after == 0 {
        expectations.push(expect(0, state_checks(&reference, divergence.key)));
    }
    for (k, event) in case.events.iter().enumerate() {
        let after = k + 1;
        let verdict = reference
            .apply(event)
            .map_err(|e| format!("the reference broke down: {e}"))?;
        let mut checks = vec![Check::Verdict(expected_verdict(&verdict))];
        if after == divergence.after {
            if let Verdict::Legal {
                captured,
                self_captured,
            } = &verdict
            {
                checks.push(Check::Captures(captured.clone()));
                if !self_captured.is_empty() || divergence.key == "self_captures" {
                    checks.push(Check::SelfCaptures(self_captured.clone()));
                }
            }
            checks.extend(state_checks(&reference, divergence.key));
        }
        expectations.push(expect(after, checks));
        verdicts.push(verdict);
    }
    let at_divergence = divergence
        .after
        .checked_sub(1)
        .and_then(|i| verdicts.get(i));
    let id = format!(
        "fuzz-{}-{}-{}",
        engine_slug(&provenance.engine),
        provenance.seed,
        provenance.game
    );
    let where_ = if divergence.after == 0 {
        "at the start".to_string()
    } else {
        format!("at event {}", divergence.after)
    };
    let actual = divergence.actual.replace('\n', " / ");
    Ok(Scenario {
        id: id.clone(),
        title: format!(
            "Found by goconform fuzz: {} differs from the reference {where_} ({})",
            provenance.engine, divergence.key
        ),
        description: format!(
            "`goconform fuzz --engine {} --seed {}` found this in game {} and minimised it. \
             The expectations are the reference's answers. {} ({}) answered differently {where_}: \
             `{}` was `{}` there. Review before committing: check the expectation against \
             the clause by hand, give the scenario a descriptive id and title, and move it to \
             the topic it belongs to.",
            provenance.engine,
            provenance.seed,
            provenance.game,
            provenance.engine,
            provenance.engine_version,
            divergence.key,
            actual,
        ),
        clauses: clauses_for(divergence.key, at_divergence),
        checked: format!(
            "Not yet checked by hand: the reference's answers, against which {} ({}) diverged.",
            provenance.engine, provenance.engine_version
        ),
        added: Some(env!("CARGO_PKG_VERSION").to_string()),
        path: PathBuf::from(format!("{id}.toml")),
        topic: String::new(),
        setup: case.setup.clone(),
        set: set.clone(),
        komi: None,
        one_stone_handicap: false,
        runs: vec![Run {
            label: BASE_RULESET.to_string(),
            ruleset: BASE_RULESET.to_string(),
            overrides: set,
            rules: case.rules,
        }],
        events: case.events.clone(),
        event_lines: Vec::new(),
        expectations,
        crosschecks: Vec::new(),
    })
}

/// The axes on which `rules` differs from `base`, as words.
fn overrides(base: &Rules, rules: &Rules) -> Vec<(String, String)> {
    AXES.iter()
        .filter_map(|axis| {
            let (b, r) = (base.get(axis)?, rules.get(axis)?);
            (b != r).then(|| (axis.to_string(), r))
        })
        .collect()
}

fn expect(after: usize, checks: Vec<Check>) -> Expectation {
    Expectation {
        after,
        runs: vec![0],
        checks,
        line: 0,
        note: None,
    }
}

fn expected_verdict(verdict: &Verdict) -> ExpectedVerdict {
    match verdict {
        Verdict::Legal { .. } => ExpectedVerdict::Legal,
        Verdict::Illegal(r) => ExpectedVerdict::Illegal(*r),
        Verdict::Breach { reason, .. } => ExpectedVerdict::Breach(*reason),
        Verdict::Ruled(r) => ExpectedVerdict::Ruled(*r),
    }
}

/// What the reference shows of the state, plus the count or the warnings where they are what
/// diverged.
fn state_checks(reference: &Reference, key: &str) -> Vec<Check> {
    let seen = reference.observe();
    let mut checks = Vec::new();
    if let Some(mut stones) = seen.stones {
        stones.sort();
        checks.push(Check::Board(stones));
    }
    if let Some(c) = seen.to_move {
        checks.push(Check::ToMove(c));
    }
    if let Some(p) = seen.prisoners {
        checks.push(Check::Prisoners(p));
    }
    if let Some(p) = seen.phase {
        checks.push(Check::Phase(p));
    }
    if key == "warnings" {
        if let Some(w) = seen.warnings {
            checks.push(Check::Warnings(w));
        }
    }
    if key == "result" || key == "score" {
        let (result, score) = reference.count();
        if let Some(r) = result {
            checks.push(Check::Result(r));
        }
        if let Some(s) = score {
            checks.push(Check::Score(s));
        }
    }
    checks
}

/// The AGA clause a divergence most likely bears on, from what diverged and the reference's
/// verdict there.
fn clauses_for(key: &str, verdict: Option<&Verdict>) -> Vec<String> {
    let clause = match (key, verdict) {
        (_, Some(Verdict::Illegal(Reason::Ko | Reason::Superko))) => "aga-1991-r6",
        (_, Some(Verdict::Illegal(Reason::Suicide))) => "aga-1991-r5-suicide",
        (_, Some(Verdict::Illegal(Reason::Occupied))) => "aga-1991-r2-move",
        (_, Some(Verdict::Illegal(Reason::OutOfTurn))) => "aga-1991-r2",
        (_, Some(Verdict::Illegal(Reason::GamePaused | Reason::NotPaused))) => "aga-1991-r9",
        (_, Some(Verdict::Illegal(Reason::GameOver | Reason::NoResumption))) => "aga-1991-r10",
        (_, Some(Verdict::Breach { .. } | Verdict::Ruled(_))) | ("warnings" | "class", _) => {
            "aga-1991-r8"
        }
        ("result" | "score", _) => "aga-1991-r12",
        ("phase", _) => "aga-1991-r9",
        ("prisoners", _) => "aga-1991-r7",
        ("to_move", _) => "aga-1991-r2",
        (_, Some(Verdict::Legal { .. })) => "aga-1991-r5",
        _ => "aga-1991-r2-move",
    };
    vec![clause.to_string()]
}

/// An engine spec as part of an id: the spec itself for a named engine (`gnugo-positional`),
/// and for a command (`jsonl:python3 tools/my_engine.py --fast`) its kind and the name of its
/// program or script (`jsonl-my-engine`), so that no folder of the machine ends up in an id.
fn engine_slug(spec: &str) -> String {
    const INTERPRETERS: &[&str] = &[
        "python", "python3", "node", "ruby", "perl", "sh", "bash", "env", "java",
    ];
    let Some((kind, command)) = spec.split_once(':') else {
        return slug(spec);
    };
    let program = command
        .split_whitespace()
        .filter(|w| !w.starts_with('-'))
        .map(|w| {
            std::path::Path::new(w)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or(w)
                .to_string()
        })
        .find(|stem| !INTERPRETERS.contains(&stem.as_str()))
        .unwrap_or_default();
    slug(&format!("{kind}-{program}"))
}

/// Lowercase letters, digits and single dashes.
fn slug(text: &str) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with('-') && !out.is_empty() {
            out.push('-');
        }
        if out.len() >= 40 {
            break;
        }
    }
    let out = out.trim_end_matches('-').to_string();
    if out.is_empty() {
        "engine".to_string()
    } else {
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_name_the_engine_without_its_folders() {
        assert_eq!(engine_slug("gnugo-positional"), "gnugo-positional");
        assert_eq!(
            engine_slug("jsonl:python3 some/where/my_engine.py --fast"),
            "jsonl-my-engine"
        );
        assert_eq!(engine_slug("gtp:/opt/bin/katago gtp"), "gtp-katago");
        assert_eq!(engine_slug("jsonl:"), "jsonl");
    }
}
