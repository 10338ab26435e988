//! Choosing colours in an even game by the players' own lot (AGA Tournament Rules VI.A.4.c).
//!
//! One player (the holder) takes a handful of White stones; the other (the guesser) shows one
//! Black stone to call odd or two to call even. The text says that if "the parity of both
//! guesses agrees" that player takes Black; we read it as: the guesser takes Black when the
//! call matches the parity of the number of stones in the handful, else the holder takes Black.
//! An empty hand is no handful and showing a number other than one or two is no call: both are
//! refused rather than read.

/// Who takes Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chooser {
    /// The player who showed one or two Black stones.
    Guesser,
    /// The player who took the handful of White stones.
    Holder,
}

impl Chooser {
    /// The word nigiri cases expect (`black = "guesser"`).
    pub fn word(self) -> &'static str {
        match self {
            Chooser::Guesser => "guesser",
            Chooser::Holder => "holder",
        }
    }
}

/// Why a nigiri cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NigiriError {
    /// The holder took no stones, so there is no parity to guess.
    #[error("an empty hand is no handful: the holder must take at least one stone")]
    EmptyHand,
    /// The guesser showed this many Black stones: only one (odd) or two (even) is a call.
    #[error("the guesser shows one stone (odd) or two (even), not {0}")]
    NoCall(u32),
}

/// Who takes Black after a handful of `handful` White stones and a call of `shown` Black stones.
pub fn nigiri(handful: u32, shown: u32) -> Result<Chooser, NigiriError> {
    if handful == 0 {
        return Err(NigiriError::EmptyHand);
    }
    if !(1..=2).contains(&shown) {
        return Err(NigiriError::NoCall(shown));
    }
    Ok(if handful % 2 == shown % 2 {
        Chooser::Guesser
    } else {
        Chooser::Holder
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_matching_call_takes_black() {
        assert_eq!(nigiri(7, 1), Ok(Chooser::Guesser));
        assert_eq!(nigiri(7, 2), Ok(Chooser::Holder));
        assert_eq!(nigiri(12, 2), Ok(Chooser::Guesser));
        assert_eq!(nigiri(12, 1), Ok(Chooser::Holder));
        assert_eq!(nigiri(0, 1), Err(NigiriError::EmptyHand));
        assert_eq!(nigiri(5, 3), Err(NigiriError::NoCall(3)));
    }
}
