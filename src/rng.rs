//! The one deterministic pseudo-random generator: SplitMix64 (Steele, Lea and Flood, 2014).
//!
//! Everything random in goconform must be reproducible from a seed alone, on every platform
//! and in every version: the Zobrist keys (computed at compile time), `genmove` of the GTP
//! engine, the fuzzer's games and a tiebreak's drawing of lots. SplitMix64 is a few lines,
//! passes the usual statistical batteries and needs no crate; it depends on nothing here.

/// The step SplitMix64 adds to its state (the golden ratio in 64 bits); also what the fuzzer
/// multiplies a game's number by to spread the seeds of its games.
pub(crate) const GAMMA: u64 = 0x9e37_79b9_7f4a_7c15;

/// The output of SplitMix64 whose state before the step is `state`: a fixed mixing of one
/// 64-bit value, usable in `const` code (the Zobrist table is built from it at compile time).
pub(crate) const fn mix(state: u64) -> u64 {
    let mut z = state.wrapping_add(GAMMA);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// SplitMix64 from a given seed.
#[derive(Clone, Debug)]
pub(crate) struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// A generator whose first output is `mix(seed)`.
    pub(crate) fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    /// The next 64 random bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        let out = mix(self.state);
        self.state = self.state.wrapping_add(GAMMA);
        out
    }

    /// A number in `0..n` (`n` > 0), by multiply-and-shift: the bias is below 2^-50 for any
    /// board-sized `n`, far too small to matter here.
    pub(crate) fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_fixed_by_the_seed() {
        let mut a = SplitMix64::new(42);
        let mut b = SplitMix64::new(42);
        let xs: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        let ys: Vec<u64> = (0..5).map(|_| b.next_u64()).collect();
        assert_eq!(xs, ys);
        // The published first output of SplitMix64 from seed 0.
        assert_eq!(SplitMix64::new(0).next_u64(), 0xe220_a839_7b1d_cdaf);
    }

    #[test]
    fn below_stays_in_range() {
        let mut r = SplitMix64::new(1);
        for n in 1..100 {
            assert!(r.below(n) < n);
        }
    }
}
