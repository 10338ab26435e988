//! The generators behind the cargo features `arbitrary`, `proptest` and `quickcheck`
//! (`cargo test --features arbitrary,proptest,quickcheck --test generators`): the values they
//! make are valid and varied, and a generated game runs through the reference.
#![cfg(all(feature = "arbitrary", feature = "proptest", feature = "quickcheck"))]

use goconform::board::{Color, Move, Point};
use goconform::conformance::Reference;
use goconform::fuzzing::{differential, Case, Played};
use goconform::game::{Event, Refereed};
use goconform::rules::{KoRule, Rules};
use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn proptest_values_are_valid(rules in any::<Rules>(), p in any::<Point>(), m in any::<Move>(), e in any::<Event>()) {
        for axis in goconform::rules::AXES {
            let mut again = Rules::default();
            again.set(axis, &rules.get(axis).unwrap()).unwrap();
        }
        prop_assert!(p.col < 25 && p.row < 25);
        if let Move::Play(q) = m {
            prop_assert!(q.col < 25 && q.row < 25);
        }
        let text = e.to_string();
        prop_assert_eq!(Event::parse(&text, 25, 25).unwrap(), e);
    }

    #[test]
    fn a_proptest_game_starts_and_plays(case in any::<Case>()) {
        let mut referee = Refereed::new(case.rules, &case.setup).unwrap();
        for e in &case.events {
            referee.apply(e.clone());
        }
    }
}

#[test]
fn quickcheck_values_vary_and_games_run() {
    fn rules_vary(rules: Vec<Rules>) -> bool {
        rules.len() < 8 || rules.iter().any(|r| r.ko != KoRule::NaturalSituational)
    }
    quickcheck::quickcheck(rules_vary as fn(Vec<Rules>) -> bool);
    fn colours_are_both(cs: Vec<Color>) -> bool {
        cs.len() < 40 || (cs.contains(&Color::Black) && cs.contains(&Color::White))
    }
    quickcheck::quickcheck(colours_are_both as fn(Vec<Color>) -> bool);
    /// Games with a referee's record are not applicable to the naive executor (it keeps
    /// none); the others must agree.
    fn the_naive_executor_agrees_with_the_reference(case: Case) -> bool {
        let mut naive = goconform::conformance::Naive::new();
        match differential(&mut Reference::new(), &mut naive, &case) {
            Played::Diverged(d) => {
                eprintln!("{}\n{case:?}", d.summary());
                false
            }
            _ => true,
        }
    }
    quickcheck::QuickCheck::new()
        .tests(50)
        .quickcheck(the_naive_executor_agrees_with_the_reference as fn(Case) -> bool);
}

#[test]
fn arbitrary_bytes_make_valid_games() {
    use arbitrary::{Arbitrary, Unstructured};
    let bytes: Vec<u8> = (0..4000u32)
        .map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8)
        .collect();
    let case = <Case as Arbitrary>::arbitrary(&mut Unstructured::new(&bytes)).unwrap();
    assert!(Refereed::new(case.rules, &case.setup).is_ok());
    let point = <Point as Arbitrary>::arbitrary(&mut Unstructured::new(&bytes[7..])).unwrap();
    assert!(point.col < 25);
}
