//! The structured games of `goconform fuzz` find every mutant of `conformance::mutants` (the
//! broken executors the suite must catch) by differential play against the reference alone,
//! without a scenario: evidence that the generator reaches the rules each mutant breaks
//! (every ko rule, suicide, pass stones, handicaps, komi, the ending, disputes, agreements,
//! resignations and the count).

use goconform::conformance::mutants::{mutants, Mutant, MutantEngine};
use goconform::fuzzing::{game_bytes, play_against, Played};

/// Games tried per mutant before it counts as missed.
const GAMES: u64 = 6000;

fn first_divergent_game(mutant: Mutant) -> Option<u64> {
    let mut engine = MutantEngine::new(mutant);
    (0..GAMES).find(|&g| {
        matches!(
            play_against(&game_bytes(1, g), &mut engine).1,
            Played::Diverged(_)
        )
    })
}

#[test]
fn every_mutant_is_found_by_random_games() {
    let mut missed = Vec::new();
    for mutant in mutants() {
        match first_divergent_game(mutant) {
            Some(g) => eprintln!("{:40} found in game {g}", mutant.name),
            None => missed.push(mutant.name),
        }
    }
    assert!(missed.is_empty(), "not found in {GAMES} games: {missed:?}");
}

#[test]
fn the_control_is_never_found() {
    assert_eq!(first_divergent_game(Mutant::control()), None);
}
