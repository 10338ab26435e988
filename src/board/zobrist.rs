//! Zobrist keys: one pseudo-random 64-bit key per (intersection, colour).
//!
//! The keys come from a fixed splitmix64 sequence computed at compile time, so hashes are the
//! same in every run and on every machine. A hash match is only ever a hint: the superko
//! history compares whole positions before it calls a play a repetition.

use super::Color;

/// An entry for every padded index a board has room for (more than the 27x27 of a 25x25
/// board), so that a masked index needs no bounds check.
const CELLS: usize = super::CAPACITY;

const fn splitmix64(state: u64) -> u64 {
    let mut z = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const fn build() -> [[u64; 2]; CELLS] {
    let mut table = [[0u64; 2]; CELLS];
    let mut i = 0;
    while i < CELLS {
        table[i][0] = splitmix64((i as u64) * 2 + 0x5EED);
        table[i][1] = splitmix64((i as u64) * 2 + 1 + 0x5EED);
        i += 1;
    }
    table
}

static KEYS: [[u64; 2]; CELLS] = build();

/// The key of a stone of `color` at padded board index `index`.
pub(super) fn key(index: usize, color: Color) -> u64 {
    KEYS[index & (CELLS - 1)][color.index()]
}
