//! Fuzzing and differential checks: the library side of `fuzz/` (cargo-fuzz targets),
//! `tests/fuzz_corpus.rs` (their committed inputs replayed on stable) and `goconform fuzz`.
//!
//! The checks live here so that a fuzz target is a few lines of glue and every input a fuzzer
//! ever found is replayed by `cargo test` without a nightly compiler:
//!
//! - [`game`]: a structured game input any bytes decode into ([`GameInput`]), realised into a
//!   concrete [`Case`] restricted to an implementation's capabilities;
//! - [`mod@differential`]: one game through two implementations, and their first divergence;
//! - [`minimise`]: delta debugging of a divergent game down to a few events and stones;
//! - [`finding`]: a divergence as a scenario in the suite's format;
//! - [`symmetry`]: the reference seen through a symmetry of the board (the symmetry
//!   properties of `tests/symmetry.rs`);
//! - [`inputs`]: the scenario loader, the GTP engine and the JSON-lines server on arbitrary
//!   bytes;
//! - `generators` (cargo features `arbitrary`, `proptest`, `quickcheck`): the public types as
//!   generated values, for engine authors' own tests.

pub mod differential;
pub mod finding;
pub mod game;
#[cfg(any(feature = "arbitrary", feature = "proptest", feature = "quickcheck"))]
pub mod generators;
pub mod inputs;
pub mod minimise;
pub mod symmetry;

pub use differential::{differential, Ahead, Divergence, Played, Prepared};
pub use game::{Case, EventChoice, GameInput};
pub use symmetry::{Symmetric, Symmetry};

use crate::conformance::{Naive, Referee, Reference};
use crate::rng::SplitMix64;

/// The game `data` decodes into, realised for `second`'s capabilities and played through the
/// reference and `second`.
pub fn play_against(data: &[u8], second: &mut dyn Referee) -> (Case, Played) {
    play_against_under(data, second, &[])
}

/// [`play_against`] under one of `rulesets` (chosen by the data), or any mix of the axis
/// values `second` claims when none is given.
pub fn play_against_under(
    data: &[u8],
    second: &mut dyn Referee,
    rulesets: &[crate::rules::Rules],
) -> (Case, Played) {
    let case = GameInput::from_bytes(data).realise_under(&second.capabilities(), rulesets);
    let played = differential(&mut Reference::new(), second, &case);
    (case, played)
}

/// The differential check against any implementation: `Err` with the divergence and the game
/// if `second` parts from the reference.
pub fn check_against(data: &[u8], second: &mut dyn Referee) -> Result<(), String> {
    check_against_under(data, second, &[])
}

/// [`check_against`] under one of `rulesets` (chosen by the data; any mix of the axis values
/// `second` claims when none is given).
pub fn check_against_under(
    data: &[u8],
    second: &mut dyn Referee,
    rulesets: &[crate::rules::Rules],
) -> Result<(), String> {
    match play_against_under(data, second, rulesets) {
        (case, Played::Diverged(d)) => Err(format!(
            "{} diverges from the reference {}\nrules: {:?}\nset-up: {:?}\nevents: {}",
            second.info(),
            d.summary(),
            case.rules,
            case.setup,
            case.events
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        _ => Ok(()),
    }
}

/// Bytes of generator output per game: more than the largest game reads.
const BYTES_PER_GAME: usize = 2048;

/// The generator bytes of game `game` of a run: a fresh SplitMix64 stream per game, so a game
/// does not depend on how many bytes the ones before it used.
pub fn game_bytes(seed: u64, game: u64) -> Vec<u8> {
    let mut rng = SplitMix64::new(seed ^ game.wrapping_mul(crate::rng::GAMMA));
    let mut bytes = Vec::with_capacity(BYTES_PER_GAME);
    while bytes.len() < BYTES_PER_GAME {
        bytes.extend_from_slice(&rng.next_u64().to_le_bytes());
    }
    bytes
}

/// The second executor of the `differential` fuzz target: the naive executor
/// ([`crate::conformance::Naive`]), written for obviousness, not speed, and independent of the
/// reference's incremental board and hashed history.
pub fn second_executor() -> Box<dyn Referee> {
    Box::new(Naive::new())
}

/// The `differential` fuzz target's check: the reference against [`second_executor`].
pub fn check_differential(data: &[u8]) -> Result<(), String> {
    check_against(data, second_executor().as_mut())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference and the naive executor agree over random games, and the games are long
    /// enough to compare thousands of events.
    #[test]
    fn the_reference_and_the_naive_executor_agree() {
        let mut rng = SplitMix64::new(7);
        let mut compared = 0;
        for _ in 0..300 {
            let data: Vec<u8> = (0..700).map(|_| rng.next_u64() as u8).collect();
            match play_against(&data, second_executor().as_mut()) {
                (_, Played::Diverged(d)) => panic!("{}", d.summary()),
                (_, Played::Agreed { asked }) => compared += asked,
                (_, Played::NotApplicable(_)) => {}
            }
        }
        assert!(compared > 5000, "only {compared} events compared");
    }
}
