//! The referee's procedures: unwinds restore the past exactly, the record's events read and
//! print back the same, and every ruling cites clauses that exist.

mod common;

use goconform::board::{Color, Move, Point};
use goconform::game::procedure::CITED;
use goconform::game::{Event, Game, Refereed, Ruling, Setup, Verdict};
use goconform::rules::Rules;
use goconform::scenario::Suite;
use goconform::spec::Spec;
use proptest::prelude::*;

/// What an unwind must restore: everything a later ruling or count depends on.
fn state(game: &Game) -> String {
    format!(
        "{}to move {:?}, phase {:?}, prisoners {:?}, history {}",
        game.board().diagram(),
        game.to_move(),
        game.phase(),
        game.prisoner_breakdown(),
        game.history_len()
    )
}

/// Plays `choices` as moves of the player to move: each picks an empty point (or a pass),
/// and a play the rules refuse becomes a pass. Stops before play would pause.
fn play_randomly(referee: &mut Refereed, choices: &[(u8, u8, bool)], size: u8) -> usize {
    let mut made = 0;
    for &(col, row, pass) in choices {
        let game = referee.game();
        let mover = game.to_move();
        let point = Point::new(col % size, row % size);
        let wants_play = !pass && game.board().get(point).is_none();
        let event = if wants_play && game.check_play(mover, point).is_ok() {
            Event::Move(mover, Move::Play(point))
        } else {
            Event::Move(mover, Move::Pass)
        };
        // Two passes in a row would pause play; avoid them so that moves stay possible.
        let passes = matches!(event, Event::Move(_, Move::Pass));
        let mut probe = referee.game().clone();
        probe.apply(event.clone());
        if passes && !probe.phase().is_play() {
            continue;
        }
        assert!(referee.apply(event).is_legal());
        made += 1;
    }
    made
}

fn occupied_point(game: &Game) -> Option<Point> {
    game.board().stones().first().map(|&(p, _)| p)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// AGA Rule 8 with agreement, any number of moves later: the unwind gives back exactly
    /// the state before the illegal move (board, turn, phase, prisoners and pass stones,
    /// repetition history), and the offender is to move again.
    #[test]
    fn an_agreed_unwind_restores_the_state_before_the_violation(
        opening in prop::collection::vec((0u8..7, 0u8..7, prop::bool::weighted(0.1)), 1..40),
        later in prop::collection::vec((0u8..7, 0u8..7, prop::bool::weighted(0.2)), 1..6),
    ) {
        let rules = Rules::default();
        let mut referee = Refereed::new(rules, &Setup::empty(7, 7)).unwrap();
        play_randomly(&mut referee, &opening, 7);
        let Some(point) = occupied_point(referee.game()) else { return Ok(()); };
        let before = state(referee.game());
        let offender = referee.game().to_move();
        let verdict = referee.apply(Event::Breach(offender, Move::Play(point), goconform::game::Breach::Forced));
        prop_assert!(matches!(verdict, Verdict::Breach { .. }), "{verdict}");
        let k = play_randomly(&mut referee, &later, 7);
        let ruling = referee.apply(Event::Notice { agreed: true });
        let expected = if k == 0 { Ruling::UnwindPass } else { Ruling::UnwindReplay };
        prop_assert_eq!(ruling, Verdict::Ruled(expected));
        if k > 0 {
            prop_assert_eq!(state(referee.game()), before);
        }
    }

    /// Noticed at once under AGA Rule 8: the state is the one before the illegal move with a
    /// pass by the offender, exactly as if the offender had passed instead.
    #[test]
    fn an_unwind_and_pass_equals_a_pass_instead(
        opening in prop::collection::vec((0u8..7, 0u8..7, prop::bool::weighted(0.1)), 1..40),
    ) {
        let rules = Rules::default();
        let mut referee = Refereed::new(rules, &Setup::empty(7, 7)).unwrap();
        play_randomly(&mut referee, &opening, 7);
        let Some(point) = occupied_point(referee.game()) else { return Ok(()); };
        let offender = referee.game().to_move();
        let mut passed = referee.game().clone();
        passed.apply(Event::Move(offender, Move::Pass));
        referee.apply(Event::Breach(offender, Move::Play(point), goconform::game::Breach::Forced));
        let ruling = referee.apply(Event::Notice { agreed: false });
        prop_assert_eq!(ruling, Verdict::Ruled(Ruling::UnwindPass));
        prop_assert_eq!(state(referee.game()), state(&passed));
        prop_assert_eq!(referee.warnings()[offender.index()], 1);
    }
}

#[test]
fn the_record_events_read_and_print_back_the_same() {
    for text in [
        "B D4!",
        "W pass!",
        "B D4 leaves-captures",
        "B D4 removes E5 F5",
        "W C3 wrong-colour",
        "B between D4 D5",
        "W between D4 E5 D5 E4",
        "W E5 sealed",
        "notice",
        "notice agreed",
    ] {
        let event = Event::parse(text, 9, 9).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(event.to_string(), text);
    }
    for bad in [
        "B pass leaves-captures",
        "B D4 removes",
        "B between D4",
        // Not points a stone can lie between: apart, the same point twice, five points.
        "B between A1 E5",
        "B between D4 D6",
        "B between D4 D4",
        "B between D4 D5 E4 E5 C4",
        "notice maybe",
        "B D4 sealed now",
        "B resign!",
    ] {
        assert!(Event::parse(bad, 9, 9).is_err(), "{bad} should not parse");
    }
}

#[test]
fn the_plain_executor_refuses_a_referees_record() {
    let mut game = Game::new(Rules::default(), &Setup::empty(5, 5)).unwrap();
    let verdict = game.apply(Event::Notice { agreed: false });
    assert_eq!(verdict.reason().map(|r| r.word()), Some("no-procedure"));
}

#[test]
fn every_cited_clause_is_in_the_registry() {
    let spec = Spec::load(common::root()).unwrap();
    for id in CITED {
        assert!(spec.clause(id).is_some(), "{id} is not a clause");
    }
}

/// Every ruling the incident scenarios produce cites only clauses listed in `CITED`.
#[test]
fn rulings_cite_listed_clauses_only() {
    let spec = Spec::load(common::root()).unwrap();
    let suite = Suite::load(&[common::root().join("conformance/incidents")], &spec).unwrap();
    let mut rulings = 0;
    for scenario in &suite.scenarios {
        for run in &scenario.runs {
            let mut referee = Refereed::new(run.rules, &scenario.setup).unwrap();
            for event in &scenario.events {
                referee.apply(event.clone());
                if let Some(report) = referee.report() {
                    rulings += 1;
                    for id in &report.clauses {
                        assert!(
                            CITED.contains(id),
                            "{} under {}: {id} is not in CITED",
                            scenario.id,
                            run.label
                        );
                    }
                }
            }
        }
    }
    assert!(rulings > 0, "the incident scenarios produced no ruling");
}

#[test]
fn black_and_white_are_named_in_full_in_explanations() {
    let mut referee = Refereed::new(Rules::default(), &Setup::empty(5, 5)).unwrap();
    referee.apply(Event::parse("B C3", 5, 5).unwrap());
    referee.apply(Event::parse("W C3!", 5, 5).unwrap());
    assert_eq!(
        referee.apply(Event::Notice { agreed: false }),
        Verdict::Ruled(Ruling::UnwindPass)
    );
    let report = referee.report().unwrap();
    assert_eq!(report.offender, Color::White);
    assert!(report
        .explanation
        .iter()
        .any(|s| s.contains("White passes")));
}

fn temp_record(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("goconform-ruling-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn ruling_prints_the_three_procedures_side_by_side_with_their_grounds() {
    let out = common::goconform(&[
        "ruling",
        "conformance/incidents/ko-retake-noticed-at-once.toml",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    for needle in [
        "== under bga",
        "== under london-open",
        "== under aga",
        "RULING: unwind-pass",
        "RULING: unwind-replay",
        "White passes instead, handing Black a pass stone",
        "A warning is recorded against White (1 so far)",
        "london-4: London Open rule 4",
        "before",
        "after",
    ] {
        assert!(text.contains(needle), "missing {needle:?} in:\n{text}");
    }
}

#[test]
fn a_bare_record_is_ruled_under_bga_london_and_aga() {
    let path = temp_record(
        "bare.toml",
        "size = 5\nmoves = [\"B C3\", \"B D3!\", \"W C4\", \"B pass\", \"W D4\", \"notice\"]\n",
    );
    let out = common::goconform(&["ruling", path.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // Black's run of two moves, noticed after three further moves: London still unwinds
    // (within three), the BGA and AGA let it stand without agreement.
    assert!(text.contains("RULING: unwind-replay"), "{text}");
    assert_eq!(text.matches("RULING: stands").count(), 2, "{text}");
}

#[test]
fn a_broken_record_names_file_line_column_and_key() {
    let path = temp_record("broken.toml", "size = 5\nmoves = [\"B C3\", \"B Z9!\"]\n");
    let out = common::goconform(&["ruling", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("broken.toml:2:"), "{err}");
    assert!(err.contains("moves[1]"), "{err}");
}

/// An implementation that only judges legality: the plain executor behind the trait.
struct LegalityOnly(Option<Game>);

impl goconform::conformance::Referee for LegalityOnly {
    fn info(&self) -> goconform::conformance::EngineInfo {
        goconform::conformance::EngineInfo {
            name: "legality-only".to_string(),
            version: "0".to_string(),
        }
    }
    fn capabilities(&self) -> goconform::conformance::Capabilities {
        use goconform::conformance::Observable::*;
        goconform::conformance::Capabilities::new()
            .observing([Reasons, Captures, Board, ToMove, Prisoners, Phase])
    }
    fn start(
        &mut self,
        rules: &Rules,
        setup: &Setup,
    ) -> Result<(), goconform::conformance::Unsupported> {
        let game = Game::new(*rules, setup)
            .map_err(|e| goconform::conformance::Unsupported(e.to_string()))?;
        self.0 = Some(game);
        Ok(())
    }
    fn apply(&mut self, event: &Event) -> Result<Verdict, goconform::conformance::EngineError> {
        let game = self.0.as_mut().expect("started");
        Ok(game.apply(event.clone()))
    }
    fn observe(&self) -> goconform::conformance::Observation {
        let game = self.0.as_ref().expect("started");
        let mut stones = game.board().stones();
        stones.sort();
        goconform::conformance::Observation {
            stones: Some(stones),
            to_move: Some(game.to_move()),
            prisoners: Some([game.prisoners(Color::Black), game.prisoners(Color::White)]),
            phase: Some(game.phase()),
            ..Default::default()
        }
    }
}

#[test]
fn an_engine_that_only_judges_legality_finds_incidents_not_applicable() {
    use goconform::conformance::{run_scenario, Outcome};
    let spec = Spec::load(common::root()).unwrap();
    let suite = Suite::load(
        &[
            common::root().join("conformance/incidents/ko-retake-noticed-at-once.toml"),
            common::root().join("conformance/ko/basic-ko.toml"),
        ],
        &spec,
    )
    .unwrap();
    let mut engine = LegalityOnly(None);
    for (i, scenario) in suite.scenarios.iter().enumerate() {
        let trials = run_scenario(scenario, i, &mut engine, &|_| true);
        assert!(!trials.is_empty());
        for trial in trials {
            if scenario.needs_record() {
                assert!(
                    matches!(trial.outcome, Outcome::NotApplicable(_)),
                    "{}: {:?}",
                    scenario.id,
                    trial.outcome
                );
            } else {
                assert_eq!(trial.outcome, Outcome::Pass, "{}", scenario.id);
            }
        }
    }
}

#[test]
fn broken_record_keys_are_located_errors() {
    let path = temp_record(
        "bad-keys.toml",
        r#"id = "bad-keys"
title = "broken"
clauses = ["bga-irregular-i"]
checked = "nothing"
rules = ["bga"]
size = 5
handicap_as_placed = true
moves = ["B C3", "W C3!", "notice"]

[[expect]]
after = 2
breach = "stacked"

[[expect]]
after = 3
ruling = "unwind"
class = "wrong"
"#,
    );
    let out = common::goconform(&["check", path.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    for needle in [
        "bad-keys.toml:7:",
        "handicap_as_placed",
        "bad-keys.toml:12:",
        "key `expect[0].breach`: unknown reason `stacked`",
        "bad-keys.toml:16:",
        "key `expect[1].ruling`: unknown ruling `unwind`",
        "key `expect[1].class`: unknown class `wrong`",
    ] {
        assert!(err.contains(needle), "missing {needle:?} in:\n{err}");
    }
}

#[test]
fn the_stone_count_shows_a_stone_of_the_wrong_colour_and_ignores_one_on_an_occupied_point() {
    let rules = Rules::default();
    let mut referee = Refereed::new(rules, &Setup::empty(5, 5)).unwrap();
    for text in ["B C3", "W C3!", "B D4 wrong-colour", "W E5"] {
        referee.apply(Event::parse(text, 5, 5).unwrap());
    }
    assert_eq!(
        referee.stone_count(),
        "Stone count: Black put down 2, and 1 are on the board or held as prisoners; \
         White put down 1, and 2 are on the board or held as prisoners."
    );
}

#[test]
fn a_ruling_during_the_pause_says_play_stays_paused() {
    let spec = Spec::load(common::root()).unwrap();
    for ruleset in ["bga", "aga", "london-open"] {
        let mut referee = Refereed::new(spec.rules(ruleset).unwrap(), &Setup::empty(7, 7)).unwrap();
        // White plays on an occupied point and it stands; two passes pause play; then the
        // breach is pointed out, and the stone is taken away.
        for text in ["B D4", "W D4!", "B pass", "W pass", "notice"] {
            referee.apply(Event::parse(text, 7, 7).unwrap());
        }
        assert_eq!(
            referee.game().phase(),
            goconform::game::Phase::Paused,
            "{ruleset}"
        );
        let report = referee
            .report()
            .unwrap_or_else(|| panic!("{ruleset}: a ruling"));
        let said = report.explanation.join("\n");
        assert!(
            report
                .explanation
                .last()
                .unwrap()
                .starts_with("Play stays paused"),
            "{ruleset}: {said}"
        );
        assert!(!said.contains("play goes on"), "{ruleset}: {said}");
        assert!(!said.contains("to move."), "{ruleset}: {said}");
    }
}

#[test]
fn ruling_shows_the_other_outcome_where_agreement_decides_and_the_clock() {
    let out = common::goconform(&[
        "ruling",
        "conformance/incidents/ko-retake-later-without-agreement.toml",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    // BGA, noticed one move late without agreement: it stands; had both agreed, the position
    // would go back and White replay (the BGA's third and fourth paragraphs on illegal moves).
    let bga = text.split("== under").nth(1).unwrap();
    assert!(bga.contains("RULING: stands"), "{bga}");
    assert!(
        bga.contains("OTHERWISE, had both players agreed to go back: unwind-replay"),
        "{bga}"
    );
    assert!(bga.contains("clock: both clocks are stopped"), "{bga}");
    assert!(bga.contains("bga-clock-stopped: BGA"), "{bga}");
    // London unwinds within three moves whatever the players say: no other outcome, and its
    // texts say nothing of the clock.
    let london = text.split("== under").nth(2).unwrap();
    assert!(london.starts_with(" london-open"), "{london}");
    assert!(!london.contains("OTHERWISE"), "{london}");
    assert!(
        london.contains("clock: the ruleset's texts say nothing"),
        "{london}"
    );
}

#[test]
fn ruling_as_json_carries_every_ruleset_verdict_and_ruling() {
    let out = common::goconform(&[
        "ruling",
        "conformance/incidents/ko-retake-noticed-at-once.toml",
        "--format",
        "json",
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    let doc: serde_json::Value = serde_json::from_str(&text).expect(&text);
    let rulesets = doc["rulesets"].as_array().unwrap();
    let names: Vec<&str> = rulesets
        .iter()
        .map(|r| r["ruleset"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["bga", "london-open", "aga"], "{text}");
    let aga = &rulesets[2];
    let ruling = &aga["rulings"][0];
    assert_eq!(ruling["ruling"], "unwind-pass", "{text}");
    assert_eq!(ruling["offender"], "white", "{text}");
    assert_eq!(ruling["clock"]["clause"], "agatr-vi-b-8", "{text}");
    assert!(ruling["clauses"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c == "aga-1991-r8-penalty"));
    // The notice is the event the ruling follows, and every event has a verdict.
    let events = aga["events"].as_array().unwrap();
    let notice = ruling["after_event"].as_u64().unwrap() as usize;
    assert_eq!(events[notice - 1]["event"], "notice", "{text}");
    assert!(events.iter().all(|e| e["verdict"].is_string()));
}
