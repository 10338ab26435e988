//! Ranks, and the rank a rating gives (AGA Tournament Rules VI.A.1.c).
//!
//! The text derives a *grade* from the leading digits of a rating (one digit of a three-digit
//! rating, two of a four-digit one) and reads a negative grade as that many kyu, a positive one
//! as that many dan. It leaves open what we decide here, each decision tested below:
//!
//! - The sign is the rating's: `-1250` gives grade -12 (12 kyu), `550` grade 5 (5 dan). The
//!   sign is not a digit, so `-125` has three digits and gives 1 kyu.
//! - Ratings of one, two, or five and more digits are outside the rule and are refused, not
//!   guessed: the rating scale of 1988 is not ours to reconstruct.
//! - A grade of zero cannot come out of a three- or four-digit number (its leading digit is not
//!   zero), so the rule never has to say what grade 0 is.
//! - Nothing bounds the grade: `9999` gives 99 dan. The text gives it; a TD would not.
//!
//! Ranks sit on one scale with no gap: 1 kyu is directly below 1 dan, so they differ by one
//! rank (the handicap between them is one stone).

use std::fmt;
use std::str::FromStr;

/// A rank: kyu counts down towards 1 kyu, dan counts up from 1 dan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// This many kyu (1 to 99): the larger the number, the weaker the player.
    Kyu(u8),
    /// This many dan (1 to 99): the larger the number, the stronger the player.
    Dan(u8),
}

/// Why a rank or a rating could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RankError {
    /// VI.A.1.c.(1) defines grades only for three- and four-digit ratings.
    #[error("rating {rating} has {digits} digit(s); VI.A.1.c.(1) reads a grade only from three- or four-digit ratings")]
    Digits {
        /// The rating as given, sign included.
        rating: i64,
        /// How many digits it has, the sign not counted.
        digits: usize,
    },
    /// Not a rank word such as `3k` or `2d`.
    #[error(
        "`{0}` is not a rank: expected a number of kyu or dan such as 3k, 12kyu or 2d (1 to 99)"
    )]
    Syntax(String),
}

impl Rank {
    /// The rank a rating gives under VI.A.1.c.
    pub fn from_rating(rating: i64) -> Result<Rank, RankError> {
        let magnitude = rating.unsigned_abs();
        let digits = magnitude.to_string().len();
        if !(3..=4).contains(&digits) {
            return Err(RankError::Digits { rating, digits });
        }
        let grade = magnitude / 100;
        // Three digits keep one leading digit (550 / 100 = 5), four keep two (1250 / 100 =
        // 12); either way the grade is 1..=99 and never zero.
        let grade = u8::try_from(grade).expect("a grade of at most 99");
        Ok(if rating < 0 {
            Rank::Kyu(grade)
        } else {
            Rank::Dan(grade)
        })
    }

    /// VI.A.1.d: a player may enter at `entry` when it is not below the rank of their rating
    /// (`self`); a higher rank is the player's choice, after consulting the TD.
    pub fn may_enter_at(self, entry: Rank) -> bool {
        entry.ordinal() >= self.ordinal()
    }

    /// The position on one scale without a gap: 1 dan is 1, 1 kyu is 0, 2 kyu is -1.
    pub fn ordinal(self) -> i32 {
        match self {
            Rank::Dan(d) => i32::from(d),
            Rank::Kyu(k) => 1 - i32::from(k),
        }
    }

    /// The rank at an ordinal (inverse of [`Rank::ordinal`]), if it is within 99 kyu to 99 dan.
    pub fn from_ordinal(ordinal: i32) -> Option<Rank> {
        if ordinal >= 1 {
            u8::try_from(ordinal)
                .ok()
                .filter(|d| *d <= 99)
                .map(Rank::Dan)
        } else {
            u8::try_from(1 - ordinal)
                .ok()
                .filter(|k| *k <= 99)
                .map(Rank::Kyu)
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rank::Kyu(k) => write!(f, "{k}k"),
            Rank::Dan(d) => write!(f, "{d}d"),
        }
    }
}

impl FromStr for Rank {
    type Err = RankError;
    /// `3k`, `3kyu`, `3 kyu`, `2d`, `2dan` (any case), 1 to 99.
    fn from_str(text: &str) -> Result<Rank, RankError> {
        let wrong = || RankError::Syntax(text.to_string());
        let lower = text.trim().to_ascii_lowercase();
        let split = lower
            .find(|c: char| !c.is_ascii_digit())
            .ok_or_else(wrong)?;
        let (number, word) = lower.split_at(split);
        let n: u8 = number.parse().map_err(|_| wrong())?;
        if !(1..=99).contains(&n) {
            return Err(wrong());
        }
        match word.trim() {
            "k" | "kyu" => Ok(Rank::Kyu(n)),
            "d" | "dan" => Ok(Rank::Dan(n)),
            _ => Err(wrong()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_grade_is_the_leading_digits_with_the_rating_sign() {
        assert_eq!(Rank::from_rating(550), Ok(Rank::Dan(5)));
        assert_eq!(Rank::from_rating(-1250), Ok(Rank::Kyu(12)));
        assert_eq!(Rank::from_rating(-125), Ok(Rank::Kyu(1)));
        assert_eq!(Rank::from_rating(199), Ok(Rank::Dan(1)));
        assert_eq!(Rank::from_rating(-999), Ok(Rank::Kyu(9)));
        assert_eq!(Rank::from_rating(1000), Ok(Rank::Dan(10)));
        assert_eq!(Rank::from_rating(9999), Ok(Rank::Dan(99)));
    }

    #[test]
    fn ratings_outside_three_and_four_digits_are_refused() {
        for rating in [0, 5, -50, 99, -99, 10000, -12345] {
            assert!(
                matches!(Rank::from_rating(rating), Err(RankError::Digits { .. })),
                "{rating}"
            );
        }
    }

    #[test]
    fn the_scale_has_no_gap_between_kyu_and_dan() {
        assert_eq!(Rank::Dan(1).ordinal() - Rank::Kyu(1).ordinal(), 1);
        assert_eq!(Rank::Dan(2).ordinal() - Rank::Kyu(3).ordinal(), 4);
        for o in -98..=99 {
            assert_eq!(Rank::from_ordinal(o).map(Rank::ordinal), Some(o));
        }
        assert_eq!(Rank::from_ordinal(-98), Some(Rank::Kyu(99)));
        assert_eq!(Rank::from_ordinal(-99), None);
    }

    #[test]
    fn nobody_enters_below_their_rating() {
        let rated = Rank::Kyu(3);
        assert!(rated.may_enter_at(Rank::Kyu(3)));
        assert!(rated.may_enter_at(Rank::Kyu(1)));
        assert!(rated.may_enter_at(Rank::Dan(1)));
        assert!(!rated.may_enter_at(Rank::Kyu(4)));
    }

    #[test]
    fn ranks_read_and_print() {
        assert_eq!("3k".parse(), Ok(Rank::Kyu(3)));
        assert_eq!("12 Kyu".parse(), Ok(Rank::Kyu(12)));
        assert_eq!("2dan".parse(), Ok(Rank::Dan(2)));
        assert_eq!(Rank::Kyu(3).to_string(), "3k");
        for bad in ["", "k", "0k", "100d", "3p", "-3k", "3x"] {
            assert!(bad.parse::<Rank>().is_err(), "{bad}");
        }
    }
}
