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

const TABLE: [[u64; 2]; CELLS] = build();
static KEYS: [[u64; 2]; CELLS] = TABLE;

/// Slots of the reverse index, for each colour: a power of two, four times the keys, so that
/// a probe for a key that is not there ends at a free slot within a few steps.
const REVERSE_SLOTS: usize = 4 * CELLS;
/// A free slot of the reverse index.
const NO_INDEX: u16 = u16::MAX;

/// For each colour, the padded index of every key, placed by open addressing from the key's
/// low bits (the keys are uniformly random already).
const fn build_reverse(keys: &[[u64; 2]; CELLS]) -> [[u16; REVERSE_SLOTS]; 2] {
    let mut reverse = [[NO_INDEX; REVERSE_SLOTS]; 2];
    let mut color = 0;
    while color < 2 {
        let mut i = 0;
        while i < CELLS {
            let mut slot = keys[i][color] as usize & (REVERSE_SLOTS - 1);
            while reverse[color][slot] != NO_INDEX {
                slot = (slot + 1) & (REVERSE_SLOTS - 1);
            }
            reverse[color][slot] = i as u16;
            i += 1;
        }
        color += 1;
    }
    reverse
}

static REVERSE: [[u16; REVERSE_SLOTS]; 2] = build_reverse(&TABLE);

/// The key of a stone of `color` at padded board index `index`.
pub(super) fn key(index: usize, color: Color) -> u64 {
    KEYS[index & (CELLS - 1)][color.index()]
}

/// The padded index whose key for a stone of `color` is `key`, if any: which one stone, added
/// to a position, turns its hash into another (`key` being the two hashes' xor).
pub(super) fn index_of(key: u64, color: Color) -> Option<usize> {
    let (keys, reverse) = (&KEYS, &REVERSE[color.index()]);
    let mut slot = key as usize & (REVERSE_SLOTS - 1);
    loop {
        let index = reverse[slot];
        if index == NO_INDEX {
            return None;
        }
        if keys[usize::from(index)][color.index()] == key {
            return Some(usize::from(index));
        }
        slot = (slot + 1) & (REVERSE_SLOTS - 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_is_found_at_its_index_and_no_other_value_is() {
        for index in 0..CELLS {
            for color in [Color::Black, Color::White] {
                assert_eq!(index_of(key(index, color), color), Some(index));
                assert_eq!(index_of(key(index, color) ^ 1, color), None);
            }
        }
        // A key of one colour is not a key of the other (the table is one random sequence).
        assert_eq!(index_of(key(40, Color::Black), Color::White), None);
    }
}
