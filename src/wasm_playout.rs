//! Random playouts: the workload behind the WebAssembly figures. The same code runs natively
//! (`tests/wasm_playouts.rs`) and inside the npm package's module (`playouts` of `wasm.rs`),
//! and `js/test/figures.test.js` plays the same algorithm from JavaScript through the
//! package's `Game` and through the shimmed npm engines, so the figures compare like with like.
//!
//! A playout starts from an empty board; the player to move tries up to [`TRIES`] points drawn
//! at random (each try judged by the executor, a refusal included) and passes when none was
//! legal; it ends at two passes in a row, or after `3 x points` events.

use crate::board::{Move, Point};
use crate::game::{Event, Game, Setup};
use crate::rng::SplitMix64;
use crate::rules::Rules;

/// The random points tried before passing.
pub const TRIES: usize = 8;

/// What a batch of playouts did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Playouts {
    /// Games played.
    pub games: u64,
    /// Moves made: legal plays and passes.
    pub moves: u64,
    /// Events judged: every try, refused or not, and the passes.
    pub judged: u64,
}

/// `games` playouts on an empty `size` x `size` board under `rules`, from `seed`. `None` for a
/// size the board does not take.
pub fn random_playouts(rules: Rules, size: u8, games: u64, seed: u64) -> Option<Playouts> {
    let setup = Setup::empty(size, size);
    let mut rng = SplitMix64::new(seed);
    let mut out = Playouts::default();
    let points = usize::from(size) * usize::from(size);
    for _ in 0..games {
        let mut game = Game::new(rules, &setup).ok()?;
        let mut passes = 0;
        let mut events = 0;
        while passes < 2 && events < 3 * points {
            let colour = game.to_move();
            let mut played = false;
            for _ in 0..TRIES {
                let k = rng.below(points);
                let p = Point::new((k % usize::from(size)) as u8, (k / usize::from(size)) as u8);
                out.judged += 1;
                events += 1;
                if game.apply(Event::Move(colour, Move::Play(p))).is_legal() {
                    played = true;
                    break;
                }
            }
            if played {
                passes = 0;
            } else {
                out.judged += 1;
                events += 1;
                game.apply(Event::Move(colour, Move::Pass));
                passes += 1;
            }
            out.moves += 1;
        }
        out.games += 1;
    }
    Some(out)
}
