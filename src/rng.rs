//! A small deterministic pseudo-random generator for `genmove`.
//!
//! `genmove` here exists to drive controllers and fuzz other engines, not to play well, and a
//! session must be reproducible from its input alone. SplitMix64 (Steele, Lea and Flood, 2014)
//! is a few lines, passes the usual statistical batteries and needs no crate.

/// SplitMix64 with a fixed starting state.
#[derive(Clone, Debug)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    /// The seed every engine starts from, so that equal sessions choose equal moves.
    pub const SEED: u64 = 0x676f_636f_6e66_6f72; // "goconfor"

    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64 { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (`n` > 0), by multiply-and-shift: the bias is below 2^-50 for any
    /// board-sized `n`, far too small to matter here.
    pub fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_is_fixed_by_the_seed() {
        let mut a = SplitMix64::new(SplitMix64::SEED);
        let mut b = SplitMix64::new(SplitMix64::SEED);
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
