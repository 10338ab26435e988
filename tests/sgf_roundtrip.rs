//! Every scenario of the suite written as SGF (`sgf::write::write_scenario`, the game under
//! its first run) and read back (`sgf::read`) has the same set-up, and replayed as `judge`
//! replays records it goes through the same boards, move after move; and random games of the
//! fuzzing generator, written and read back, get the same verdict for every move.
//!
//! What SGF cannot say is counted, and such scenarios are compared on their set-up and their
//! moves only (the moves that stood on the board under the first run, in order): a
//! set-up outside the repetition history (`setup_history = "excluded"`), a handicap left off
//! the fixed points, a referee's record (moves made although forbidden, notices), which
//! the record carries as comments, and a confirmation of life and death (Japanese 1989,
//! Article 7(2)), whose hypothetical moves the record also gives as comments.

use std::path::Path;

use goconform::board::{Color, Move};
use goconform::game::{Event, Phase, Refereed, Setup, SetupHistory, Verdict};
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

/// The moves that stood on the board under `rules` (a move made although forbidden stood; a
/// refused one did not), each with its colour: what a record of the game has as its moves.
fn moves_played(
    rules: Rules,
    setup: &Setup,
    events: &[Event],
) -> Result<Vec<(Color, Move)>, String> {
    let mut referee = Refereed::new(rules, setup).map_err(|e| e.to_string())?;
    let mut moves = Vec::new();
    for event in events {
        // A confirmation's moves are hypothetical: the record has them in words only.
        let hypothetical = referee.game().phase() == Phase::Confirming;
        let verdict = referee.apply(event.clone());
        if hypothetical {
            continue;
        }
        if let Event::Move(color, mv) | Event::Breach(color, mv, _) | Event::Sealed(color, mv) =
            event
        {
            if !matches!(verdict, Verdict::Illegal(_)) {
                moves.push((*color, *mv));
            }
        }
    }
    Ok(moves)
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
        && !scenario.needs_record()
        && !scenario
            .events
            .iter()
            .any(|e| matches!(e, Event::Confirm(_)));
    let Some(run) = scenario.runs.first() else {
        return Ok(false);
    };
    // Whatever else SGF cannot say, the moves are the moves: the record's are the ones that
    // stood on the board under the first run, in order.
    let wanted_moves = moves_played(run.rules, &scenario.setup, &scenario.events)?;
    let got_moves: Vec<(Color, Move)> = record
        .events
        .iter()
        .filter_map(|e| match e {
            Event::Move(color, mv) => Some((*color, *mv)),
            _ => None,
        })
        .collect();
    if wanted_moves != got_moves {
        return Err(format!(
            "{} under {}: the moves differ\n{wanted_moves:?}\n{got_moves:?}\n{text}",
            scenario.id, run.label
        ));
    }
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
    let (mut whole, mut partly) = (0, 0);
    let mut failures = Vec::new();
    for scenario in &suite.scenarios {
        match round_trip(scenario) {
            Ok(true) => whole += 1,
            Ok(false) => partly += 1,
            Err(e) => failures.push(e),
        }
    }
    println!(
        "{whole} scenarios played identically from SGF; {partly} compared on their set-up and moves only"
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

/// The set-up as SGF can say it: in the repetition history, and a handicap that is either
/// alone or on the fixed points.
fn expressible(setup: &Setup) -> bool {
    use goconform::game::handicap::{fixed_points, Pattern};
    let fixed = |pattern| {
        fixed_points(pattern, setup.width, setup.handicap.len() as u32).is_some_and(|points| {
            let mut points = points;
            let mut placed = setup.handicap.clone();
            points.sort();
            placed.sort();
            points == placed
        })
    };
    setup.history == SetupHistory::Played
        && !setup.handicap_as_placed
        && (setup.handicap.is_empty()
            || setup
                .stones
                .iter()
                .all(|(_, c)| *c == goconform::board::Color::White)
                && setup.handicap.len() >= 2
            || fixed(goconform::game::handicap::Pattern::Traditional)
            || fixed(Pattern::Gtp))
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]

    /// Random games (the fuzzing generator's, moves and passes only) written as SGF and read
    /// back: the same set-up and moves, and the same verdict for every move, under the game's
    /// own rules. Games that open with two black plays and no set-up are left out: SGF cannot
    /// tell them from a handicap written as moves, which the reader takes them for on star
    /// points.
    #[test]
    fn random_games_survive_sgf(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
        use goconform::board::Color;
        use goconform::fuzzing::game::GameInput;
        use goconform::game::Game;
        use goconform::sgf::write::{write_record, Info, MoveNode};
        let case = GameInput::from_bytes(&bytes).realise(&goconform::conformance::Capabilities::everything());
        let events: Vec<Event> = case
            .events
            .iter()
            .filter(|e| matches!(e, Event::Move(..)))
            .cloned()
            .collect();
        let opens_with_black_run = case.setup.stones.is_empty()
            && case.setup.handicap.is_empty()
            && events.iter().take(2).filter(|e| matches!(e, Event::Move(Color::Black, goconform::board::Move::Play(_)))).count() == 2;
        proptest::prop_assume!(expressible(&case.setup) && !opens_with_black_run);
        let nodes: Vec<MoveNode> = events
            .iter()
            .filter_map(|e| match e {
                Event::Move(color, mv) => Some(MoveNode { color: *color, mv: *mv, comment: Vec::new() }),
                _ => None,
            })
            .collect();
        let text = write_record(&case.setup, &nodes, &Info { komi: Some(case.rules.komi), ..Info::default() });
        let mut read = sgf::read(Path::new("random.sgf"), text.as_bytes(), &Default::default())
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        let record = read.remove(0).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        let mut a = case.setup.stones.clone();
        let mut b = record.setup.stones.clone();
        a.sort();
        b.sort();
        proptest::prop_assert_eq!(a, b, "{}", text);
        proptest::prop_assert_eq!(&record.events, &events, "{}", text);
        let mut original = Game::new(case.rules, &case.setup).unwrap();
        let mut again = Game::new(case.rules, &record.setup)
            .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{text}")))?;
        // The same stones, whatever order the set-up put them down in.
        let sorted = |verdict: Verdict| match verdict {
            Verdict::Legal { mut captured, mut self_captured } => {
                captured.sort();
                self_captured.sort();
                Verdict::Legal { captured, self_captured }
            }
            other => other,
        };
        for event in &events {
            proptest::prop_assert_eq!(
                sorted(original.apply(event.clone())),
                sorted(again.apply(event.clone())),
                "{}",
                text
            );
            proptest::prop_assert_eq!(original.board().diagram(), again.board().diagram(), "{}", text);
        }
    }
}

/// Found by `random_games_survive_sgf`: a handicap off the fixed points (here a 2x2 board,
/// which has none) beside white set-up stones. As many black stones as `HA` are the handicap;
/// the white ones are set-up.
#[test]
fn a_free_handicap_beside_white_set_up_stones_reads_back() {
    let text = "(;FF[4]GM[1]SZ[2]KM[-2]HA[2]AB[ba][bb]AW[aa]PL[W])";
    let games = goconform::sgf::read(
        std::path::Path::new("free.sgf"),
        text.as_bytes(),
        &Default::default(),
    )
    .expect("the collection reads");
    let record = games.into_iter().next().unwrap().expect("the game reads");
    assert_eq!(record.setup.handicap.len(), 2);
    assert_eq!(record.setup.stones.len(), 1);
    assert_eq!(record.setup.stones[0].1, goconform::board::Color::White);
}
