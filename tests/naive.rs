//! The naive executor against the suite and against the reference.
//!
//! Two independent implementations of the rules keep each other honest: the naive executor
//! (`conformance::Naive`: a grid, flood fill, whole positions compared with the whole history)
//! shares no rules code with the reference. It must pass every trial of the suite it can play,
//! and over random games it must agree with the reference after every event, on everything
//! both show: verdict, reason, captures, board, prisoners, turn, phase, and the count at the
//! end.

mod common;

use goconform::board::{Board, Color, Move, Point};
use goconform::conformance::differential::{count_agree, start_agree, step_agree};
use goconform::conformance::harness::{select, Factory};
use goconform::conformance::{Harness, Naive, Observable, Outcome, Referee, Reference};
use goconform::game::handicap::{fixed_points, Pattern};
use goconform::game::{Event, Phase, Reason, Setup, SetupHistory, Verdict};
use goconform::rules::{
    Draws, Ending, HandicapCompensation, HandicapPlacement, IllegalMoveProcedure, KoRule, Komi,
    PassStones, Rules, Scoring, SekiEyes, SuicideRule, WhitePassesLast,
};
use goconform::scenario::{find_files, Suite};
use goconform::spec::Spec;
use proptest::prelude::*;

#[test]
fn the_naive_executor_passes_every_trial_it_can_play() {
    let spec = Spec::load(common::root()).unwrap();
    let files = find_files(&common::root().join("conformance")).unwrap();
    let suite = Suite::load(&files, &spec).unwrap();
    let factory: &Factory = &|| Box::new(Naive::new()) as Box<dyn Referee>;
    let report = Harness::default()
        .run(&suite, &select(&suite, |_, _| true), factory)
        .unwrap();
    let mut played = 0;
    for trial in &report.trials {
        let scenario = &suite.scenarios[trial.scenario];
        let name = format!("{} under {}", scenario.id, scenario.runs[trial.run].label);
        match &trial.outcome {
            Outcome::Pass => played += 1,
            // Its capabilities leave out the referee's record, and only that.
            Outcome::NotApplicable(_) => assert!(scenario.needs_record(), "{name}"),
            other => panic!("{name}: {} {}", other.word(), other.summary()),
        }
    }
    // The suite is mostly board play: most trials must have been played, not skipped.
    assert!(played * 4 > report.trials.len() * 3, "only {played} played");
    assert!(!report.capabilities.observes(Observable::Procedures));
}

#[test]
fn the_naive_executor_refuses_what_the_reference_refuses() {
    let rules = Rules::default();
    let mut bad = Setup::empty(9, 9);
    bad.handicap = vec![Point::new(4, 4)]; // one handicap stone
    let (mut a, mut b) = (Reference::new(), Naive::new());
    assert!(a.start(&rules, &bad).is_err() && b.start(&rules, &bad).is_err());
    assert_eq!(started(&mut a, &mut b, &rules, &bad), Ok(false));
    bad.handicap = vec![Point::new(2, 2), Point::new(6, 2)]; // not the fixed points
    assert!(a.start(&rules, &bad).is_err() && b.start(&rules, &bad).is_err());
    bad.handicap_as_placed = true;
    assert_eq!(started(&mut a, &mut b, &rules, &bad), Ok(true));
    let mut dead = Setup::empty(2, 2);
    dead.stones = vec![
        (Point::new(0, 0), Color::Black),
        (Point::new(1, 0), Color::White),
    ];
    dead.stones.push((Point::new(0, 1), Color::White));
    assert!(a.start(&rules, &dead).is_err() && b.start(&rules, &dead).is_err());
}

/// A ko fight on a 4x3 board under simple ko, then an end by passes and agreement: each
/// verdict checked by hand, and both executors agreeing after each event.
#[test]
fn a_hand_checked_ko_fight_agrees() {
    // 3 . X O .
    // 2 X . X O    W B2 takes the lone C2 stone, and B C2 would take B2 straight back.
    // 1 . X O .
    //   A B C D
    let p = |v: &str| Point::parse_gtp(v, 4, 3).unwrap();
    let mut setup = Setup::empty(4, 3);
    for v in ["B3", "A2", "C2", "B1"] {
        setup.stones.push((p(v), Color::Black));
    }
    for v in ["C3", "D2", "C1"] {
        setup.stones.push((p(v), Color::White));
    }
    setup.to_move = Color::White;
    let mut rules = Rules {
        ko: KoRule::Simple,
        ..Rules::default()
    };
    let (mut a, mut b) = (Reference::new(), Naive::new());
    assert_eq!(started(&mut a, &mut b, &rules, &setup), Ok(true));
    let ev = |t: &str| Event::parse(t, 4, 3).unwrap();
    // W B2 is self-atari but captures C2 (its last liberty was B2): legal, one stone.
    let legal = b.apply(&ev("W B2")).unwrap();
    assert_eq!(legal.to_string(), "legal, captures C2");
    a.apply(&ev("W B2")).unwrap();
    // B C2 retakes at once: a ko.
    assert_eq!(b.apply(&ev("B C2")).unwrap().to_string(), "illegal: ko");
    assert_eq!(a.apply(&ev("B C2")).unwrap().to_string(), "illegal: ko");
    // Under positional superko the retake repeats the set-up position (part of the history):
    // still refused, as a ko; B D3 is suicide; after passes B may take C2, which repeats
    // nothing now that the board has changed.
    rules.ko = KoRule::Positional;
    let events: Vec<Event> = ["W B2", "B C2", "B D3", "W pass", "B C2", "W pass", "B pass"]
        .iter()
        .map(|t| ev(t))
        .collect();
    let in_turn = vec![true; events.len()];
    let game = goconform::fuzzing::Case {
        rules,
        setup,
        events,
        in_turn,
    };
    let (mut a, mut b) = (Reference::new(), Naive::new());
    let played = goconform::fuzzing::differential(&mut a, &mut b, &game);
    assert_eq!(played, goconform::fuzzing::Played::Agreed { asked: 7 });
}

/// Whether both executors started from `setup` (and agree on what they show).
fn started(
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    rules: &Rules,
    setup: &Setup,
) -> Result<bool, goconform::conformance::differential::Divergence> {
    start_agree(a, b, rules, setup).map(|compared| compared.is_some())
}

/// Which board play, pass or ending step to try; resolved against the reference's state when
/// the case runs, so that most moves are made by the player to move, a retake goes where a
/// stone was just captured, and a paused game mostly gets ending steps.
#[derive(Clone, Debug)]
enum Intent {
    /// A board play at the point with this index; `by_turn`: by the player to move. While
    /// play is paused, mostly a dispute or an agreement instead.
    Play {
        point: usize,
        by_turn: bool,
    },
    /// A play where the last move captured a stone: ko retakes and superko cycles.
    Retake(usize),
    Pass {
        by_turn: bool,
    },
    /// A dispute; the colour named, if any: the player to move, or the other.
    Dispute(Option<bool>),
    /// An agreement: the strings through the stones picked by these indices are dead; with
    /// `stray`, an empty point is named too (refused as no-stone).
    Agree {
        picks: Vec<usize>,
        stray: bool,
    },
    Resign(bool),
}

fn intent() -> impl Strategy<Value = Intent> {
    prop_oneof![
        160 => (any::<usize>(), prop::bool::weighted(0.97))
            .prop_map(|(point, by_turn)| Intent::Play { point, by_turn }),
        48 => any::<usize>().prop_map(Intent::Retake),
        16 => prop::bool::weighted(0.95).prop_map(|by_turn| Intent::Pass { by_turn }),
        4 => prop::option::of(any::<bool>()).prop_map(Intent::Dispute),
        4 => (prop::collection::vec(any::<usize>(), 0..3), prop::bool::weighted(0.3))
            .prop_map(|(picks, stray)| Intent::Agree { picks, stray }),
        1 => any::<bool>().prop_map(Intent::Resign),
    ]
}

fn pick<T: Copy + std::fmt::Debug + 'static>(all: &[T]) -> impl Strategy<Value = T> {
    let all = all.to_vec();
    (0..all.len()).prop_map(move |i| all[i])
}

fn rules() -> impl Strategy<Value = Rules> {
    let play = (
        pick(KoRule::ALL),
        pick(SuicideRule::ALL),
        pick(PassStones::ALL),
        pick(Scoring::ALL),
        pick(SekiEyes::ALL),
        -20i32..30,
        -4i32..4,
    );
    let rest = (
        pick(HandicapCompensation::ALL),
        pick(HandicapPlacement::ALL),
        pick(Ending::ALL),
        pick(WhitePassesLast::ALL),
        pick(Draws::ALL),
        pick(IllegalMoveProcedure::ALL),
    );
    (play, rest).prop_map(
        |(
            (ko, suicide, pass_stones, scoring, seki_eyes, komi, handicap_komi),
            (
                handicap_compensation,
                handicap_placement,
                ending,
                white_passes_last,
                draws,
                illegal_move,
            ),
        )| Rules {
            ko,
            suicide,
            pass_stones,
            scoring,
            seki_eyes,
            komi: Komi::from_half_points(komi),
            handicap_komi: Komi::from_half_points(handicap_komi),
            handicap_compensation,
            handicap_placement,
            ending,
            white_passes_last,
            draws,
            illegal_move,
        },
    )
}

/// A set-up: a size, some stones (strings left without a liberty are cleared, so the
/// position is one the rules can start from), perhaps handicap stones, who moves, and
/// whether the set-up position is part of the history.
#[derive(Clone, Debug)]
struct Case {
    rules: Rules,
    setup: Setup,
    intents: Vec<Intent>,
}

fn case() -> impl Strategy<Value = Case> {
    // Small boards fill up and fight: captures, kos and repetitions come quickly there.
    let side = || prop_oneof![3 => 2u8..=5, 1 => 6u8..=9];
    let size = (side(), side(), prop::bool::weighted(0.6));
    let stones = prop::collection::vec((any::<usize>(), any::<bool>()), 0..12);
    // Mostly even games; a handicap of one stone, or one with no fixed placement on this
    // board, is a set-up both must refuse.
    let count = prop_oneof![7 => Just(0usize), 3 => 1usize..=9];
    let handicap = (count, prop::bool::weighted(0.7), any::<bool>());
    let start = (any::<bool>(), prop::bool::weighted(0.8));
    (
        rules(),
        size,
        stones,
        handicap,
        start,
        prop::collection::vec(intent(), 0..90),
    )
        .prop_map(
            |(
                rules,
                (w, h, square),
                stones,
                (handicap, fixed, as_placed),
                (black, played),
                intents,
            )| {
                let h = if square { w } else { h };
                let mut board = Board::new(w, h).unwrap();
                let area = usize::from(w) * usize::from(h);
                let point = |i: usize| Point::new((i % area) as u8 % w, (i % area) as u8 / w);
                for (i, black) in stones {
                    let color = if black { Color::Black } else { Color::White };
                    board.set_stone(color, point(i));
                }
                while let Some(p) = board.string_without_liberty() {
                    for q in board.string(p) {
                        board.clear_point(q);
                    }
                }
                let mut setup = Setup::empty(w, h);
                setup.stones = board.stones();
                setup.to_move = if black { Color::Black } else { Color::White };
                setup.history = if played {
                    SetupHistory::Played
                } else {
                    SetupHistory::Excluded
                };
                // Handicap stones: the fixed points where there are some (else the
                // reference refuses the set-up, and so must the naive executor), or free
                // points; with `as_placed`, free points stand even under fixed placement.
                let table = (square && handicap >= 2)
                    .then(|| fixed_points(Pattern::Traditional, w, handicap as u32))
                    .flatten();
                setup.handicap = match table {
                    Some(points) if fixed => points,
                    _ => (0..handicap).map(|k| point(k * 7 + 3)).collect::<Vec<_>>(),
                };
                setup.handicap_as_placed = as_placed;
                // Handicap stones go on empty points.
                setup.stones.retain(|(p, _)| !setup.handicap.contains(p));
                Case {
                    rules,
                    setup,
                    intents,
                }
            },
        )
}

/// Turns an intent into an event in the reference's current state; `captured` are the
/// stones the last event took off the board.
fn resolve(intent: &Intent, reference: &Reference, captured: &[Point], w: u8, h: u8) -> Event {
    let seen = reference.observe();
    let to_move = seen.to_move.unwrap_or(Color::Black);
    let paused = seen.phase == Some(Phase::Paused);
    let who = |by_turn: bool| {
        if by_turn {
            to_move
        } else {
            to_move.opponent()
        }
    };
    let area = usize::from(w) * usize::from(h);
    let point = |i: usize| {
        Point::new(
            (i % area % usize::from(w)) as u8,
            (i % area / usize::from(w)) as u8,
        )
    };
    let stones = seen.stones.unwrap_or_default();
    let agree = |picks: &[usize], stray: bool| {
        let mut dead: Vec<Point> = picks
            .iter()
            .filter(|_| !stones.is_empty())
            .map(|k| stones[k % stones.len()].0)
            .collect();
        if stray {
            let empty = (0..area)
                .map(point)
                .find(|p| !stones.iter().any(|(q, _)| q == p));
            dead.extend(empty);
        }
        Event::Agree(dead)
    };
    match intent {
        Intent::Play { point: i, by_turn } if paused => match i % 8 {
            0 => Event::Move(who(*by_turn), Move::Play(point(*i))),
            1..=3 => Event::Dispute((i % 3 > 0).then(|| who(i % 2 == 0))),
            // A confirmation of life and death (refused as no-confirmation except under
            // `confirm-or-resume`), either colour first.
            6 | 7 => Event::Confirm(who(i % 2 == 0)),
            _ => agree(&[i / 8], i % 16 == 5),
        },
        // Mostly an empty point: a random game on a full board is all `occupied`.
        Intent::Play { point: i, by_turn } => {
            let empty: Vec<Point> = (0..area)
                .map(point)
                .filter(|p| !stones.iter().any(|(q, _)| q == p))
                .collect();
            let at = match i % 10 {
                0 => point(i / 10),
                _ if empty.is_empty() => point(i / 10),
                _ => empty[i / 10 % empty.len()],
            };
            Event::Move(who(*by_turn), Move::Play(at))
        }
        Intent::Retake(i) if !captured.is_empty() => {
            Event::Move(to_move, Move::Play(captured[i % captured.len()]))
        }
        Intent::Retake(i) => Event::Move(to_move, Move::Play(point(*i))),
        Intent::Pass { by_turn } => Event::Move(who(*by_turn), Move::Pass),
        Intent::Dispute(named) => Event::Dispute(named.map(who)),
        Intent::Agree { picks, stray } => agree(picks, *stray),
        Intent::Resign(by_turn) => Event::Resign(who(*by_turn)),
    }
}

/// Plays one case through both executors, stopping a few events after the game ends. The
/// verdicts the reference gave are handed to `seen` (for the coverage test); the events
/// actually played are returned with a divergence, so that a failure shows the whole game.
fn play(case: &Case, seen: &mut dyn FnMut(&Verdict, Phase)) -> Result<(), String> {
    play_against(case, &mut Naive::new(), seen)
}

/// [`play`] against any implementation on the right.
fn play_against(
    case: &Case,
    b: &mut dyn Referee,
    seen: &mut dyn FnMut(&Verdict, Phase),
) -> Result<(), String> {
    let mut a = Reference::new();
    let (w, h) = (case.setup.width, case.setup.height);
    let started = start_agree(&mut a, b, &case.rules, &case.setup).map_err(|d| format!("{d}"))?;
    let Some(compared) = started else {
        // Not a case: the reference refused the set-up (the naive executor must too).
        return match b.start(&case.rules, &case.setup) {
            Err(_) => Ok(()),
            Ok(()) => Err("the naive executor started from a set-up the reference refuses".into()),
        };
    };
    let mut events = Vec::new();
    let mut captured = Vec::new();
    let mut after_the_end = 0;
    for intent in &case.intents {
        let event = resolve(intent, &a, &captured, w, h);
        events.push(event.to_string());
        let before = a.observe().stones.unwrap_or_default();
        // Every event is compared, and the count of the position as it stands after every
        // event: random positions with open borders, shared liberties and groups in seki,
        // not only finished games.
        let step = step_agree(&compared, &mut a, b, &event, true)
            .map_err(|d| format!("{d}\nevents: {}", events.join(", ")))?;
        let left = step.verdict;
        let now = a.observe();
        let stones = now.stones.unwrap_or_default();
        let removed: Vec<Point> = before
            .iter()
            .filter(|s| !stones.contains(s))
            .map(|(p, _)| *p)
            .collect();
        let phase = now.phase.unwrap_or(Phase::Playing);
        // In a confirmation a ko ban outlives the next move (Japanese 1989, Article 7(2)), so
        // retakes keep aiming at the last stones taken until something else is taken.
        if !(removed.is_empty() && phase == Phase::Confirming) {
            captured = removed;
        }
        seen(&left, phase);
        if phase == Phase::Ended {
            after_the_end += 1;
            if after_the_end > 2 {
                break;
            }
        }
    }
    count_agree(&compared, &a, b).map_err(|d| format!("{d}\nevents: {}", events.join(", ")))
}

fn cases() -> u32 {
    std::env::var("NAIVE_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(1000)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    /// After every event of a random game (sizes 2x2 to 9x9, every rules axis at random,
    /// random set-ups and handicaps, plays, passes, moves out of turn, disputes,
    /// agreements, resignations), the reference and the naive executor agree on everything
    /// both show, and on the count at the end.
    #[test]
    fn the_naive_executor_agrees_with_the_reference(case in case()) {
        if let Err(why) = play(&case, &mut |_, _| {}) {
            prop_assert!(false, "{:?}\n{:?}\n{}", case.rules, case.setup, why);
        }
    }
}

/// The random games reach what the differential is meant to check: every reason a board play
/// can be refused for, captures and self-captures, and every phase, over a fixed sample.
#[test]
fn the_random_games_reach_every_rule() {
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    use std::collections::BTreeMap;
    let mut runner = TestRunner::deterministic();
    let mut tally: BTreeMap<String, u32> = BTreeMap::new();
    for _ in 0..400 {
        let case = case().new_tree(&mut runner).unwrap().current();
        play(&case, &mut |verdict, phase| {
            let kind = match verdict {
                Verdict::Legal { captured, .. } if !captured.is_empty() => "captures".into(),
                Verdict::Legal { self_captured, .. } if !self_captured.is_empty() => {
                    "self-captures".into()
                }
                Verdict::Legal { .. } => "legal".into(),
                Verdict::Illegal(reason) => reason.word().to_string(),
                other => other.to_string(),
            };
            *tally.entry(kind).or_default() += 1;
            *tally.entry(phase.word().to_string()).or_default() += 1;
        })
        .unwrap();
    }
    let reasons = [
        Reason::Occupied,
        Reason::Suicide,
        Reason::Ko,
        Reason::Superko,
        Reason::OutOfTurn,
        Reason::GamePaused,
        Reason::GameOver,
        Reason::NotPaused,
        Reason::NoResumption,
        Reason::NoStone,
        Reason::NoConfirmation,
    ];
    let wanted = reasons.iter().map(|r| r.word()).chain([
        "captures",
        "self-captures",
        "legal",
        "playing",
        "paused",
        "resumed",
        "confirming",
        "ended",
    ]);
    for word in wanted {
        assert!(
            tally.get(word).copied().unwrap_or(0) > 0,
            "never reached `{word}`: {tally:?}"
        );
    }
}

/// AGA Rule 11 (White passes last) whenever play stops with Black's pass, also where two
/// passes end the game or play-on players cannot agree who moves: combinations no named
/// ruleset makes, pinned here because the differential found the reference applying the rule
/// only after an agreement and the four-pass end. By hand: White passes (Black holds 1), Black
/// passes (White holds 1) and play stops; White passes once more (Black holds 2).
#[test]
fn white_passes_last_whenever_play_stops() {
    let ev = |t: &str| Event::parse(t, 5, 5).unwrap();
    let mut setup = Setup::empty(5, 5);
    setup.to_move = Color::White;
    for (ending, events) in [
        (Ending::TwoPasses, vec!["W pass", "B pass"]),
        (Ending::PlayOn, vec!["W pass", "B pass", "dispute"]),
        (Ending::PauseAgreeResume, vec!["W pass", "B pass", "agree"]),
    ] {
        let rules = Rules {
            ending,
            pass_stones: PassStones::On,
            white_passes_last: WhitePassesLast::Yes,
            ..Rules::default()
        };
        let mut engines: [Box<dyn Referee>; 2] =
            [Box::new(Reference::new()), Box::new(Naive::new())];
        for engine in &mut engines {
            engine.start(&rules, &setup).unwrap();
            for e in &events {
                assert!(engine.apply(&ev(e)).unwrap().is_legal(), "{ending} {e}");
            }
            let seen = engine.observe();
            assert_eq!(seen.phase, Some(Phase::Ended), "{ending}");
            assert_eq!(seen.prisoners, Some([2, 1]), "{ending} {}", engine.info());
        }
    }
}

/// The differential has teeth: random games find every mutant whose flaw shows in board play,
/// the ending or the count (`conformance::mutants`), within a fixed sample of 1500 cases. The
/// mutants it cannot find are listed with the reason.
#[test]
fn the_differential_finds_the_mutants() {
    use goconform::conformance::mutants::{mutants, MutantEngine};
    use proptest::strategy::ValueTree;
    use proptest::test_runner::TestRunner;
    // Flaws outside what the random games generate: the illegal-move procedure only rules on
    // a referee's record (moves standing although illegal, notices), which they never make.
    // A confirmation's ko ban differs from simple ko only on a retake after other moves and no
    // pass by the banned player: the random games reach the confirmation (about 150 events
    // in 400 cases) but a ko taken in one hardly ever; the scenario
    // bent-four-in-the-corner-japanese-1989 kills that mutant.
    // The list is exact: a mutant found here that is listed fails the test too.
    let beyond: &[&str] = &[
        "wrong-illegal-move-procedure",
        "confirmation-ko-as-simple-ko",
    ];
    let mut runner = TestRunner::deterministic();
    let sample: Vec<Case> = (0..1500)
        .map(|_| case().new_tree(&mut runner).unwrap().current())
        .collect();
    let mut missed = Vec::new();
    for mutant in mutants() {
        let found = sample.iter().any(|case| {
            play_against(case, &mut MutantEngine::new(mutant), &mut |_, _| {}).is_err()
        });
        if found == beyond.contains(&mutant.name) {
            missed.push((mutant.name, found));
        }
    }
    assert!(missed.is_empty(), "(mutant, found): {missed:?}");
}
