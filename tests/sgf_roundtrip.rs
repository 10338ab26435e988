//! Every scenario of the suite written as SGF (`sgf::write::write_scenario`, the game under
//! its first run) and read back (`sgf::read`) has the same set-up, and replayed as `judge`
//! replays records it goes through the same boards, move after move.
//!
//! What SGF cannot say is counted, and such scenarios are compared on their set-up only: a
//! set-up outside the repetition history (`setup_history = "excluded"`), a handicap left off
//! the fixed points, and a referee's record (moves made although forbidden, notices), which
//! the record carries as comments.

use std::path::Path;

use goconform::game::{Event, Refereed, Setup, SetupHistory, Verdict};
use goconform::rules::Rules;
use goconform::scenario::{Scenario, Suite};
use goconform::sgf;
use goconform::spec::Spec;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The boards after every move that stood on the board, under `rules`, the set-up first.
fn boards(rules: Rules, setup: &Setup, events: &[Event]) -> Result<Vec<String>, String> {
    let mut referee = Refereed::new(rules, setup).map_err(|e| e.to_string())?;
    let mut boards = vec![referee.game().board().diagram()];
    for event in events {
        let verdict = referee.apply(event.clone());
        let is_move = matches!(
            event,
            Event::Move(..) | Event::Breach(..) | Event::Sealed(..)
        );
        if is_move && !matches!(verdict, Verdict::Illegal(_)) {
            boards.push(referee.game().board().diagram());
        }
    }
    Ok(boards)
}

fn round_trip(scenario: &Scenario) -> Result<bool, String> {
    let text = sgf::write::write_scenario(scenario);
    let path = scenario.path.with_extension("sgf");
    let mut games = sgf::read(&path, text.as_bytes(), &Default::default())
        .map_err(|e| format!("{e}\n{text}"))?;
    let record = games.remove(0).map_err(|e| format!("{e}\n{text}"))?;
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
    let expressible = scenario.setup.history == SetupHistory::Played
        && !scenario.setup.handicap_as_placed
        && !scenario.needs_record();
    let Some(run) = scenario.runs.first() else {
        return Ok(false);
    };
    if !expressible {
        return Ok(false);
    }
    // The record is the game under the first run: the same boards, move after move, when it
    // is replayed as `judge` replays records (a dispute wherever play goes on after a pause).
    let wanted = boards(run.rules, &scenario.setup, &scenario.events)?;
    let (events, _) = sgf::convert::events_with_disputes(&record);
    let got = boards(run.rules, &record.setup, &events)?;
    if wanted != got {
        return Err(format!(
            "{} under {}: the boards part\n{wanted:?}\n{got:?}\n{text}",
            scenario.id, run.label
        ));
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
        "{whole} scenarios played identically from SGF; {moves_only} compared on their set-up only"
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
