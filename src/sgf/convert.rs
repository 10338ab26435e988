//! A record as a scenario: the same set-up and events, one run per ruleset, no expectations.
//! `show`, `score` and `ruling` take a record this way, so they play it exactly as they play a
//! scenario.

use crate::board::Move;
use crate::game::Event;
use crate::scenario::{Run, Scenario};
use crate::spec::Spec;

use super::judge::rules_for;
use super::Record;

/// A record's moves as events, with a dispute before every move (a play or a pass) that
/// follows two passes in a row (the record shows play going on after a pause, so the players
/// did not agree), naming the colour that moved next. Under the AGA-style ending four passes
/// in a row are thus two passes, a dispute and the two passes that end the game with every
/// stone alive. Also gives, for each event, the record's move number it stands
/// for (the move it precedes, for a dispute).
pub fn events_with_disputes(record: &Record) -> (Vec<Event>, Vec<usize>) {
    with_disputes(record).unzip()
}

/// [`events_with_disputes`] one event at a time, without collecting them. A record's last
/// move that is White's pass right after two passes ending with Black's is White's extra pass
/// (AGA Rule 11, which `goconform referee` writes down): the rules make it when the game ends,
/// so it is left out rather than read as play resuming.
pub fn with_disputes(record: &Record) -> impl Iterator<Item = (Event, usize)> + '_ {
    let mut passes = 0;
    record
        .events
        .iter()
        .enumerate()
        .flat_map(move |(index, event)| {
            let mut dispute = None;
            let mut kept = Some((event.clone(), index + 1));
            if let Event::Move(color, mv) = event {
                if is_whites_extra_pass(&record.events, index) {
                    kept = None;
                } else {
                    if passes >= 2 {
                        dispute = Some((Event::Dispute(Some(*color)), index + 1));
                        passes = 0;
                    }
                    passes = if *mv == Move::Pass { passes + 1 } else { 0 };
                }
            }
            dispute.into_iter().chain(kept)
        })
}

/// Whether the move at `index` is White's extra pass at the end of a record: the last move,
/// a White pass, right after a stop made with Black's pass. Passes stop play in pairs, so the
/// passes in a row before it must be an even number (two, or four with a resumption between),
/// the last of them Black's: after B W B, a W pass is the fourth pass of the pair, not extra.
pub fn is_whites_extra_pass(events: &[Event], index: usize) -> bool {
    use crate::board::Color;
    let is_pass = |e: &Event| matches!(e, Event::Move(_, Move::Pass));
    let run = events[..index.min(events.len())]
        .iter()
        .rev()
        .take_while(|e| is_pass(e))
        .count();
    index + 1 == events.len()
        && matches!(events[index], Event::Move(Color::White, Move::Pass))
        && run >= 2
        && run % 2 == 0
        && matches!(events[index - 1], Event::Move(Color::Black, Move::Pass))
}

/// The rulesets a record is read under: `wanted` if given, else the one its `RU` names.
/// `Err` names an `RU` with no ruleset here, or a record with none, so the caller can ask for
/// `--rules`.
pub fn rulesets_for(record: &Record, wanted: &[String]) -> Result<Vec<String>, String> {
    if !wanted.is_empty() {
        return Ok(wanted.to_vec());
    }
    match &record.rules {
        Some((_, super::RulesTag::Ruleset(name))) => Ok(vec![name.to_string()]),
        Some((raw, super::RulesTag::Unsupported(_))) => Err(format!(
            "{}: RU[{raw}] names rules this project does not specify; choose rulesets with --rules",
            record.name()
        )),
        None => Err(format!(
            "{}: the record names no rules (no RU); choose rulesets with --rules",
            record.name()
        )),
    }
}

/// The record as a scenario run under each of `rulesets`, each with the record's komi and,
/// when the record places its own handicap stones, a free placement.
pub fn to_scenario(record: &Record, rulesets: &[String], spec: &Spec) -> Result<Scenario, String> {
    let mut runs = Vec::new();
    for name in rulesets {
        let rules = rules_for(record, spec.rules(name)?);
        let mut overrides = Vec::new();
        if let Some(komi) = &record.komi {
            overrides.push(("komi".to_string(), komi.komi.to_string()));
            overrides.push(("handicap-komi".to_string(), komi.komi.to_string()));
        }
        if !record.setup.handicap.is_empty() {
            overrides.push(("handicap-placement".to_string(), "free".to_string()));
        }
        runs.push(Run {
            label: name.clone(),
            ruleset: name.clone(),
            overrides,
            rules,
        });
    }
    let (events, numbers) = events_with_disputes(record);
    let event_lines = numbers
        .iter()
        .map(|n| record.positions.get(n - 1).map_or(0, |p| p.line))
        .collect();
    let title = match (&record.black, &record.white) {
        (Some(b), Some(w)) => format!("{b} (Black) against {w} (White)"),
        _ => String::new(),
    };
    Ok(Scenario {
        id: record
            .path
            .file_stem()
            .map(|s| s.to_string_lossy().to_string())
            .unwrap_or_default(),
        title,
        description: String::new(),
        clauses: Vec::new(),
        checked: String::new(),
        added: None,
        path: record.path.clone(),
        topic: String::new(),
        setup: record.setup.clone(),
        set: if record.setup.handicap.is_empty() {
            Vec::new()
        } else {
            vec![("handicap-placement".to_string(), "free".to_string())]
        },
        komi: record.komi.as_ref().map(|k| k.komi),
        one_stone_handicap: false,
        runs,
        events,
        event_lines,
        expectations: Vec::new(),
        crosschecks: Vec::new(),
    })
}
