//! Fuzzing and differential checks: the library side of `fuzz/` (cargo-fuzz targets),
//! `tests/fuzz_corpus.rs` (their committed inputs replayed on stable) and `goconform fuzz`.
//!
//! The checks live here so that a fuzz target is a few lines of glue and every input a fuzzer
//! ever found is replayed by `cargo test` without a nightly compiler:
//!
//! - [`game`]: a structured game input any bytes decode into ([`GameInput`]), realised into a
//!   concrete [`Case`] restricted to an implementation's capabilities;
//! - [`differential`]: one game through two implementations, and their first divergence;
//! - [`minimise`]: delta debugging of a divergent game down to a few events and stones;
//! - [`finding`]: a divergence as a scenario in the suite's format;
//! - [`symmetry`]: the reference seen through a symmetry of the board, the independent second
//!   executor until the naive executor is merged;
//! - [`inputs`]: the scenario loader, the GTP engine and the JSON-lines server on arbitrary
//!   bytes.

pub mod differential;
pub mod finding;
pub mod game;
pub mod inputs;
pub mod minimise;
pub mod symmetry;

pub use differential::{differential, Divergence, Played};
pub use game::{Case, EventChoice, GameInput};
pub use symmetry::{Symmetric, Symmetry};

use crate::conformance::{Referee, Reference};

/// The game `data` decodes into, realised for `second`'s capabilities and played through the
/// reference and `second`.
pub fn play_against(data: &[u8], second: &mut dyn Referee) -> (Case, Played) {
    let case = GameInput::from_bytes(data).realise(&second.capabilities());
    let played = differential(&mut Reference::new(), second, &case);
    (case, played)
}

/// The differential check against any implementation: `Err` with the divergence and the game
/// if `second` parts from the reference.
pub fn check_against(data: &[u8], second: &mut dyn Referee) -> Result<(), String> {
    match play_against(data, second) {
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

/// The second executor of the `differential` fuzz target: the reference through the symmetry
/// the first byte chooses (see [`symmetry`]), until the naive executor is merged and takes
/// its place.
pub fn second_executor(data: &[u8]) -> (Box<dyn Referee>, &[u8]) {
    let (first, rest) = data.split_first().map_or((0, data), |(f, r)| (*f, r));
    let symmetry = Symmetry::all()[usize::from(first) % 8];
    (Box::new(Symmetric::new(symmetry)), rest)
}

/// The `differential` fuzz target's check: the reference against [`second_executor`].
pub fn check_differential(data: &[u8]) -> Result<(), String> {
    let (mut second, rest) = second_executor(data);
    check_against(rest, second.as_mut())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::rng::SplitMix64;

    /// The reference agrees with itself through every symmetry over random games: a rule that
    /// depended on orientation would show here.
    #[test]
    fn the_reference_is_the_same_through_every_symmetry() {
        let mut rng = SplitMix64::new(7);
        let mut compared = 0;
        for _ in 0..300 {
            let data: Vec<u8> = (0..700).map(|_| rng.next_u64() as u8).collect();
            let (mut second, rest) = second_executor(&data);
            match play_against(rest, second.as_mut()) {
                (_, Played::Diverged(d)) => panic!("{}", d.summary()),
                (_, Played::Agreed { asked }) => compared += asked,
                (_, Played::NotApplicable(_)) => {}
            }
        }
        assert!(compared > 5000, "only {compared} events compared");
    }
}
