//! Invariances of the rules, over random games (proptest):
//!
//! - the eight symmetries of the board change no verdict, capture, board (mapped back), turn,
//!   prisoner count, phase, result or score;
//! - swapping the colours (komi negated, the turn swapped) changes no verdict and negates the
//!   margin, under rules that treat both colours alike;
//! - a position embedded in a larger empty board keeps its verdicts and captures when no stone
//!   is ever on the edge;
//! - a scenario made from any game, written out and loaded again, runs identically and passes
//!   for the reference.
//!
//! The incremental hash against the hash from scratch after every move is
//! tests/board_properties.rs's, and is not repeated here.

use std::path::Path;

use goconform::board::{Color, Move, Point};
use goconform::conformance::{run_scenario, Outcome, Reference};
use goconform::fuzzing::finding::{self, Provenance};
use goconform::fuzzing::{differential, Case, Divergence, GameInput, Played, Symmetric, Symmetry};
use goconform::game::{Event, Refereed, Setup, Verdict};
use goconform::rules::{Draws, Komi, Rules, WhitePassesLast};
use goconform::scenario::{write, Scenario};
use goconform::spec::embedded;
use proptest::prelude::*;

fn any_case() -> impl Strategy<Value = Case> {
    prop::collection::vec(any::<u8>(), 0..900).prop_map(|bytes| {
        GameInput::from_bytes(&bytes).realise(&goconform::conformance::Capabilities::everything())
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_eight_symmetries_change_nothing(case in any_case()) {
        for symmetry in Symmetry::all() {
            let mut image = Symmetric::new(symmetry);
            match differential(&mut Reference::new(), &mut image, &case) {
                Played::Diverged(d) => {
                    prop_assert!(false, "{symmetry:?}: {}\n{case:?}", d.summary())
                }
                Played::Agreed { .. } => {}
                // A fixed handicap placement has no image among the fixed points under every
                // symmetry (three stones take one corner of four).
                Played::NotApplicable(why) => prop_assert!(!case.setup.handicap.is_empty(), "{why}"),
            }
        }
    }

    #[test]
    fn swapping_the_colours_negates_the_margin_and_keeps_the_verdicts(case in any_case()) {
        let mut case = case;
        // Rules that treat the colours alike: no last White pass, no draw given to White, no
        // handicap.
        case.rules.white_passes_last = WhitePassesLast::No;
        case.rules.draws = Draws::Jigo;
        case.setup.handicap.clear();
        case.setup.handicap_as_placed = false;
        let swapped = swap(&case);
        let (Ok(mut a), Ok(mut b)) = (
            Refereed::new(case.rules, &case.setup),
            Refereed::new(swapped.rules, &swapped.setup),
        ) else {
            return Ok(());
        };
        for (e, f) in case.events.iter().zip(&swapped.events) {
            let (v, w) = (a.apply(e.clone()), b.apply(f.clone()));
            prop_assert_eq!(&v, &w, "{} / {}", e, f);
            let (ga, gb) = (a.game(), b.game());
            prop_assert_eq!(ga.to_move(), gb.to_move().opponent());
            prop_assert_eq!(ga.phase(), gb.phase());
            prop_assert_eq!(ga.prisoners(Color::Black), gb.prisoners(Color::White));
            let mut stones: Vec<(Point, Color)> =
                ga.board().stones().into_iter().map(|(p, c)| (p, c.opponent())).collect();
            stones.sort();
            let mut other = gb.board().stones();
            other.sort();
            prop_assert_eq!(stones, other);
            if ga.resigned().is_none() {
                let (ca, cb) = (ga.count(), gb.count());
                prop_assert_eq!(ca.total[0] - ca.total[1], cb.total[1] - cb.total[0]);
            }
        }
    }

    #[test]
    fn an_embedded_position_keeps_its_verdicts_away_from_the_edge(
        side in 5u8..=9,
        grow in (0u8..=4, 0u8..=4, 0u8..=4, 0u8..=4),
        stones in prop::collection::vec((any::<u8>(), any::<u8>(), any::<bool>()), 0..12),
        plays in prop::collection::vec((any::<u8>(), any::<u8>(), 0u8..10), 0..60),
        rules in prop::sample::select(vec!["aga", "tromp-taylor", "japanese-1989", "new-zealand"]),
    ) {
        let spec = embedded::spec().unwrap();
        let rules = spec.rules(rules).unwrap();
        // Interior points only: columns and rows 1 to side - 2.
        let inner = |a: u8, b: u8| Point::new(1 + a % (side - 2), 1 + b % (side - 2));
        let mut setup = Setup::empty(side, side);
        for (a, b, white) in stones {
            let p = inner(a, b);
            if setup.stones.iter().any(|(q, _)| *q == p) {
                continue;
            }
            setup.stones.push((p, if white { Color::White } else { Color::Black }));
            if Refereed::new(rules, &setup).is_err() {
                setup.stones.pop();
            }
        }
        let (left, right, below, above) = grow;
        let shift = |p: Point| Point::new(p.col + left, p.row + below);
        let mut big = setup.clone();
        big.width = side + left + right;
        big.height = side + below + above;
        big.stones = setup.stones.iter().map(|&(p, c)| (shift(p), c)).collect();
        let mut small = Refereed::new(rules, &setup).unwrap();
        let mut large = Refereed::new(rules, &big).unwrap();
        for (a, b, kind) in plays {
            let mover = small.game().to_move();
            let (e, f) = if kind == 0 {
                (Event::Move(mover, Move::Pass), Event::Move(mover, Move::Pass))
            } else {
                let p = inner(a, b);
                (Event::Move(mover, Move::Play(p)), Event::Move(mover, Move::Play(shift(p))))
            };
            let (v, w) = (small.apply(e.clone()), large.apply(f));
            let shifted = match v {
                Verdict::Legal { captured, self_captured } => Verdict::Legal {
                    captured: captured.into_iter().map(shift).collect(),
                    self_captured: self_captured.into_iter().map(shift).collect(),
                },
                other => other,
            };
            prop_assert_eq!(shifted, w, "{}", e);
            let mut moved: Vec<(Point, Color)> =
                small.game().board().stones().into_iter().map(|(p, c)| (shift(p), c)).collect();
            moved.sort();
            let mut there = large.game().board().stones();
            there.sort();
            prop_assert_eq!(moved, there);
        }
    }

    #[test]
    fn a_scenario_written_and_loaded_again_runs_identically(case in any_case()) {
        let spec = embedded::spec().unwrap();
        if case.events.is_empty() {
            return Ok(());
        }
        // Full expectations (board, turn, prisoners, phase) after the last event.
        let last = Divergence {
            after: case.events.len(),
            key: "board",
            expected: String::new(),
            actual: String::new(),
        };
        let provenance = Provenance {
            engine: "property".to_string(),
            engine_version: "test".to_string(),
            seed: 0,
            game: 0,
        };
        let made = finding::scenario(&spec, &case, &last, &provenance).unwrap();
        let text = write::to_toml(&made);
        let path = Path::new("conformance/fuzz").join(format!("{}.toml", made.id));
        let path = path.as_path();
        let loaded = Scenario::parse(path, &text, "fuzz", &spec)
            .map_err(|e| format!("{e:?}\n{text}"))
            .unwrap();
        let again = Scenario::parse(path, &write::to_toml(&loaded), "fuzz", &spec).unwrap();
        prop_assert!(goconform::fuzzing::inputs::same_scenario(&loaded, &again).is_ok());
        let all = |_: &str| true;
        let first = run_scenario(&loaded, 0, &mut Reference::new(), &all);
        let second = run_scenario(&again, 0, &mut Reference::new(), &all);
        prop_assert_eq!(first.len(), 1);
        prop_assert_eq!(&first[0].outcome, &Outcome::Pass, "{}", text);
        prop_assert_eq!(&first[0].outcome, &second[0].outcome);
        prop_assert_eq!(&first[0].verdicts, &second[0].verdicts);
    }
}

/// The case with every colour swapped: set-up stones, the player to move, the colour of every
/// event; the komi negated, so that the margin is negated too.
fn swap(case: &Case) -> Case {
    let mut c = case.clone();
    c.rules = Rules {
        komi: Komi::from_half_points(-case.rules.komi.half_points()),
        handicap_komi: Komi::from_half_points(-case.rules.handicap_komi.half_points()),
        ..case.rules
    };
    c.setup.stones = case
        .setup
        .stones
        .iter()
        .map(|&(p, col)| (p, col.opponent()))
        .collect();
    c.setup.to_move = case.setup.to_move.opponent();
    c.events = case
        .events
        .iter()
        .map(|e| match e {
            Event::Move(col, m) => Event::Move(col.opponent(), *m),
            Event::Dispute(col) => Event::Dispute(col.map(Color::opponent)),
            Event::Confirm(col) => Event::Confirm(col.opponent()),
            Event::Resign(col) => Event::Resign(col.opponent()),
            Event::Breach(col, m, b) => Event::Breach(col.opponent(), *m, b.clone()),
            Event::Ambiguous(col, ps) => Event::Ambiguous(col.opponent(), ps.clone()),
            Event::Sealed(col, m) => Event::Sealed(col.opponent(), *m),
            other => other.clone(),
        })
        .collect();
    c
}
