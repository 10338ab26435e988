//! Every scenario of the suite written as SGF (`sgf::write::write_scenario`) and read back
//! (`sgf::read`) has the same set-up and the same moves, and its moves get the same verdicts
//! from the reference under every run.
//!
//! What SGF cannot say is compared as far as it goes, and counted: a set-up outside the
//! repetition history (`setup_history = "excluded"`), a handicap left where it was put off the
//! fixed points, and events that are not moves (disputes, agreements, resignations, notices),
//! which the record carries as comments. Such scenarios are compared on their set-up and moves
//! only.

use std::path::Path;

use goconform::board::Move;
use goconform::game::{Event, Game, SetupHistory};
use goconform::scenario::{Scenario, Suite};
use goconform::sgf;
use goconform::spec::Spec;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The moves a scenario's events put on the board, in the order SGF writes them.
fn moves(events: &[Event]) -> Vec<(goconform::board::Color, Move)> {
    events
        .iter()
        .filter_map(|e| match e {
            Event::Move(c, m) | Event::Breach(c, m, _) | Event::Sealed(c, m) => Some((*c, *m)),
            _ => None,
        })
        .collect()
}

fn verdicts(game: &mut Game, events: &[Event]) -> Vec<String> {
    events
        .iter()
        .map(|e| game.apply(e.clone()).to_string())
        .collect()
}

fn round_trip(scenario: &Scenario) -> Result<bool, String> {
    let text = sgf::write::write_scenario(scenario);
    let path = scenario.path.with_extension("sgf");
    let mut games = sgf::read(&path, text.as_bytes(), &Default::default())
        .map_err(|e| format!("{e}\n{text}"))?;
    let record = games.remove(0).map_err(|e| format!("{e}\n{text}"))?;
    let expressible = scenario.setup.history == SetupHistory::Played
        && !scenario.setup.handicap_as_placed
        && scenario.events.iter().all(|e| matches!(e, Event::Move(..)));
    let mut wanted_stones = scenario.setup.stones.clone();
    let mut got_stones = record.setup.stones.clone();
    wanted_stones.sort();
    got_stones.sort();
    let mut wanted_handicap = scenario.setup.handicap.clone();
    let mut got_handicap = record.setup.handicap.clone();
    wanted_handicap.sort();
    got_handicap.sort();
    if (wanted_stones, wanted_handicap) != (got_stones, got_handicap) {
        return Err(format!("{}: the set-up differs\n{text}", scenario.id));
    }
    let wanted_moves = moves(&scenario.events);
    if wanted_moves != moves(&record.events) {
        return Err(format!("{}: the moves differ\n{text}", scenario.id));
    }
    if !expressible {
        return Ok(false);
    }
    if record.setup.to_move != scenario.setup.to_move && scenario.setup.handicap.is_empty() {
        return Err(format!("{}: the first player differs\n{text}", scenario.id));
    }
    for run in &scenario.runs {
        let mut original = Game::new(run.rules, &scenario.setup).map_err(|e| e.to_string())?;
        let mut read = Game::new(run.rules, &record.setup).map_err(|e| e.to_string())?;
        let a = verdicts(&mut original, &scenario.events);
        let b = verdicts(&mut read, &record.events);
        if a != b {
            return Err(format!(
                "{} under {}: {a:?} against {b:?}",
                scenario.id, run.label
            ));
        }
    }
    Ok(true)
}

#[test]
fn every_scenario_survives_sgf() {
    let spec = Spec::load(root()).unwrap();
    let suite = Suite::load(&[root().join("conformance")], &spec).unwrap();
    let (mut whole, mut moves_only) = (0, 0);
    let mut failures = Vec::new();
    for scenario in &suite.scenarios {
        match round_trip(scenario) {
            Ok(true) => whole += 1,
            Ok(false) => moves_only += 1,
            Err(e) => failures.push(e),
        }
    }
    println!(
        "{whole} scenarios played identically from SGF; {moves_only} compared on set-up and moves only"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // Most scenarios with only moves play identically; the floor keeps the comparison from
    // silently becoming moves-only for all of them.
    assert!(
        whole >= 30,
        "only {whole} of {} played identically",
        suite.scenarios.len()
    );
}
