//! Handicaps and komi before a game (AGA Tournament Rules VI.A.2 and VI.A.3, London Open
//! rule 1).
//!
//! VI.A.2 gives the weaker player as many stones as the players are ranks apart, never more
//! than nine. In a Swiss-McMahon event the bands count instead of the ranks, and a player who
//! starts above the bar never receives a handicap. We model the bands as the text's McMahon
//! practice has them: every rank at or above the bar is one top band (so the bar is the
//! lowest rank of the top group; a player "above the bar" is in it), every rank below the bar
//! is its own band, and a TD may merge the lowest ranks into one bottom band (the "lower bands
//! encompassing several ranks") with a floor. A player in the top band can never be the weaker
//! side of a band difference, which is the bar rule.
//!
//! A rank difference of one gives a one-stone handicap: the weaker player takes Black with no
//! komi and no stone placed; VI.A.2 says no more and the 1991 rules (Rule 4) start placed
//! handicaps at two.
//!
//! Komi differs by text: the 1988 Tournament Rules give White 5 points in even games and every
//! draw, even or handicap; today's AGA rules give 7.5 in even games and 0.5 in handicap games;
//! the London Open gives 7.5 in even games and, in handicap games, no komi but every draw.

use crate::board::Color;
use crate::rules::{Draws, Komi, Rules};

use super::rank::Rank;

/// How handicaps are set.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum System {
    /// VI.A.2: the difference in rank.
    Rank,
    /// VI.A.2.b: the difference in McMahon band. `bar` is the lowest rank of the top band;
    /// ranks at or below `floor`, if given, form one bottom band.
    McMahon {
        /// The lowest rank of the top band: this rank and every stronger one play as one
        /// band and never receive a handicap.
        bar: Rank,
        /// The highest rank of the bottom band, every weaker rank with it; `None`: each rank
        /// below the bar is its own band.
        floor: Option<Rank>,
    },
}

/// Why a handicap cannot be set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    /// The bottom band would start above the top one, so the bands overlap.
    #[error("the McMahon floor {floor} is above the bar {bar}")]
    FloorAboveBar {
        /// The lowest rank of the top band.
        bar: Rank,
        /// The highest rank of the bottom band, stronger than the bar.
        floor: Rank,
    },
}

/// A game's handicap: how many stones the weaker player receives, and who takes Black.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Handicap {
    /// 0 for an even game (colours by VI.A.4), 1 for Black first without komi, 2..=9 placed.
    pub stones: u8,
    /// The difference the system counted before the nine-stone cap.
    pub difference: u32,
    /// Who takes Black: `None` in an even game (colours are chosen by VI.A.4), else the index
    /// (0 or 1) of the weaker player in the pair given.
    pub black: Option<usize>,
}

impl Handicap {
    /// The stones placed on the board before White's first move: none for an even game and
    /// none for a one-stone handicap, which AGA Rule 4 plays as Black moving first with only
    /// the handicap komi; the number of stones otherwise.
    pub fn placed(&self) -> u8 {
        if self.stones >= 2 {
            self.stones
        } else {
            0
        }
    }
}

/// The maximum of VI.A.2.a.
pub const MAX_STONES: u8 = 9;

impl System {
    /// The level a rank plays at, one step a rank: the rank itself, or under McMahon its band
    /// (every rank at or above the bar in the top band, every rank at or below the floor in
    /// the bottom one).
    pub fn level(self, rank: Rank) -> Result<i32, HandicapError> {
        match self {
            System::Rank => Ok(rank.ordinal()),
            System::McMahon { bar, floor } => {
                let top = bar.ordinal();
                let bottom = match floor {
                    Some(f) if f.ordinal() > top => {
                        return Err(HandicapError::FloorAboveBar { bar, floor: f })
                    }
                    Some(f) => f.ordinal(),
                    None => i32::MIN,
                };
                Ok(rank.ordinal().clamp(bottom, top))
            }
        }
    }
}

/// McMahon starting scores, in half points: each player starts one point a band above the
/// lowest band present, so that the bands of VI.A.2.b are also the score groups of the first
/// round. The 1988 text names the bands for handicaps only; starting the bands apart is what
/// the McMahon system is, and the director chooses the bar and the floor.
pub fn mcmahon_start(
    ranks: &[Rank],
    bar: Rank,
    floor: Option<Rank>,
) -> Result<Vec<u32>, HandicapError> {
    let system = System::McMahon { bar, floor };
    let levels = ranks
        .iter()
        .map(|r| system.level(*r))
        .collect::<Result<Vec<i32>, _>>()?;
    let lowest = levels.iter().copied().min().unwrap_or(0);
    Ok(levels.iter().map(|l| 2 * l.abs_diff(lowest)).collect())
}

/// The handicap between two players of the given ranks.
pub fn handicap(ranks: [Rank; 2], system: System) -> Result<Handicap, HandicapError> {
    let (a, b) = (system.level(ranks[0])?, system.level(ranks[1])?);
    let difference = a.abs_diff(b);
    let stones = u8::try_from(difference.min(u32::from(MAX_STONES))).unwrap_or(MAX_STONES);
    let black = match a.cmp(&b) {
        std::cmp::Ordering::Equal => None,
        std::cmp::Ordering::Less => Some(0),
        std::cmp::Ordering::Greater => Some(1),
    };
    Ok(Handicap {
        stones,
        difference,
        black,
    })
}

/// The komi and draw rule of a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KomiRule {
    /// White's komi in even games.
    pub even: Komi,
    /// White's komi in handicap games (one stone or more).
    pub handicap: Komi,
    /// Who wins when the margin after komi is zero: White always (1988), White in handicap
    /// games only (London Open), or nobody (jigo).
    pub draws: Draws,
}

impl KomiRule {
    /// AGA Tournament Rules VI.A.3 (1988): five points, and White wins every draw.
    pub const AGA_1988: KomiRule = KomiRule {
        even: Komi::from_half_points(10),
        handicap: Komi::ZERO,
        draws: Draws::WhiteWins,
    };

    /// The komi and draw rule of a ruleset (today's AGA rules, the London Open, ...).
    pub fn of(rules: &Rules) -> KomiRule {
        KomiRule {
            even: rules.komi,
            handicap: rules.handicap_komi,
            draws: rules.draws,
        }
    }

    /// The komi of a game with this many handicap stones (0: even). A one-stone game has no
    /// stone placed (the weaker player just takes Black) but is a handicap game for komi and
    /// for the draw rule; the board scenarios never meet it, since a placed handicap starts at
    /// two stones.
    pub fn komi(&self, stones: u8) -> Komi {
        if stones == 0 {
            self.even
        } else {
            self.handicap
        }
    }

    /// Who wins a game Black leads by `margin` before komi, with this many handicap stones,
    /// and by how much after komi (in half points); `None` for a draw that stands.
    pub fn settle(&self, stones: u8, margin: Komi) -> Option<(Color, u32)> {
        let net = margin.half_points() - self.komi(stones).half_points();
        match net.cmp(&0) {
            std::cmp::Ordering::Greater => Some((Color::Black, net.unsigned_abs())),
            std::cmp::Ordering::Less => Some((Color::White, net.unsigned_abs())),
            std::cmp::Ordering::Equal => match self.draws {
                Draws::Jigo => None,
                Draws::WhiteWins => Some((Color::White, 0)),
                Draws::WhiteWinsHandicap if stones > 0 => Some((Color::White, 0)),
                Draws::WhiteWinsHandicap => None,
                Draws::BlackWins => Some((Color::Black, 0)),
            },
        }
    }

    /// The result in SGF `RE` form: `B+1`, `W+2.5`, `W+0` (a draw given to White), `0`.
    pub fn result(&self, stones: u8, margin: Komi) -> String {
        match self.settle(stones, margin) {
            None => "0".to_string(),
            Some((color, half)) => format!(
                "{}+{}",
                color.letter(),
                Komi::from_half_points(i32::try_from(half).unwrap_or(i32::MAX))
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rank {
        s.parse().unwrap()
    }

    #[test]
    fn the_handicap_is_the_rank_difference_at_most_nine() {
        let h = handicap([r("1d"), r("3k")], System::Rank).unwrap();
        assert_eq!((h.stones, h.difference, h.black), (3, 3, Some(1)));
        let h = handicap([r("20k"), r("3d")], System::Rank).unwrap();
        assert_eq!((h.stones, h.difference, h.black), (9, 22, Some(0)));
        let h = handicap([r("4k"), r("4k")], System::Rank).unwrap();
        assert_eq!((h.stones, h.black), (0, None));
        let h = handicap([r("1k"), r("1d")], System::Rank).unwrap();
        assert_eq!((h.stones, h.black), (1, Some(0)));
    }

    #[test]
    fn mcmahon_counts_bands_and_nobody_at_the_bar_receives() {
        let sys = System::McMahon {
            bar: r("3d"),
            floor: Some(r("10k")),
        };
        assert_eq!(handicap([r("6d"), r("4d")], sys).unwrap().stones, 0);
        let h = handicap([r("5d"), r("1d")], sys).unwrap();
        assert_eq!((h.stones, h.black), (2, Some(1)));
        assert_eq!(handicap([r("12k"), r("15k")], sys).unwrap().stones, 0);
        assert_eq!(handicap([r("9k"), r("15k")], sys).unwrap().stones, 1);
        let bad = System::McMahon {
            bar: r("3k"),
            floor: Some(r("1d")),
        };
        assert!(handicap([r("1k"), r("2k")], bad).is_err());
    }

    #[test]
    fn komi_and_draws_follow_each_text() {
        let old = KomiRule::AGA_1988;
        assert_eq!(old.result(0, Komi::from_half_points(10)), "W+0");
        assert_eq!(old.result(0, Komi::from_half_points(12)), "B+1");
        assert_eq!(old.result(3, Komi::ZERO), "W+0");
        let jigo = KomiRule {
            draws: Draws::WhiteWinsHandicap,
            ..old
        };
        assert_eq!(jigo.result(0, Komi::from_half_points(10)), "0");
    }
}
