//! Zobrist keys: one pseudo-random 64-bit key per (intersection, colour).
//!
//! The keys come from a fixed splitmix64 sequence computed at compile time, so hashes are the
//! same in every run and on every machine. A hash match is only ever a hint: the superko
//! history compares whole positions before it calls a play a repetition.

use super::Color;
use crate::rng::mix;

/// An entry for every padded index a board has room for (more than the 27x27 of a 25x25
/// board), so that a masked index needs no bounds check.
const CELLS: usize = super::CAPACITY;

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
    KEYS[index & (CELLS - 1)][color.index()]
}
