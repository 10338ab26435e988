//! Zobrist keys: one pseudo-random 64-bit key per (intersection, colour).
//!
//! The keys come from a fixed splitmix64 sequence computed at compile time, so hashes are the
//! same in every run and on every machine. A hash match is only ever a hint: the superko
//! history compares whole positions before it calls a play a repetition.

use super::Color;
use crate::rng::mix;

/// Enough entries for the padded 27x27 layout of a 25x25 board.
const CELLS: usize = 27 * 27;

const fn build() -> [[u64; 2]; CELLS] {
    let mut table = [[0u64; 2]; CELLS];
    let mut i = 0;
    while i < CELLS {
        table[i][0] = mix((i as u64) * 2 + 0x5EED);
        table[i][1] = mix((i as u64) * 2 + 1 + 0x5EED);
        i += 1;
    }
    table
}

static KEYS: [[u64; 2]; CELLS] = build();

/// The key of a stone of `color` at padded board index `index`.
pub(super) fn key(index: usize, color: Color) -> u64 {
    KEYS[index][color.index()]
}
