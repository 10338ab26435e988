//! The rules as data: one value for every independent axis.
//!
//! A [`Rules`] value is plain data with no knowledge of files. Named rulesets are read from
//! spec/rulesets/*.toml by the spec layer and turned into `Rules` through [`Rules::set`], which
//! takes the same words a person writes on the command line (`ko=situational`).

mod axis;

pub use axis::{
    CycleOutcome, Draws, Ending, HandicapCompensation, HandicapPlacement, IllegalMoveProcedure,
    KoRule, PassStones, Scoring, SekiEyes, SuicideRule, UnknownWord, WhitePassesLast,
};

use std::fmt;
use std::str::FromStr;

/// A komi in half points, so that 7.5, -3 and 0.5 are exact and 7.25 is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Komi(i32);

impl Komi {
    /// No komi: the default of a handicap game's compensation and of a bare `Rules`.
    pub const ZERO: Komi = Komi(0);

    /// A komi from a count of half points.
    pub const fn from_half_points(half_points: i32) -> Komi {
        Komi(half_points)
    }

    /// The komi in half points.
    pub fn half_points(self) -> i32 {
        self.0
    }

    /// A komi from a number, if it is a whole or half number of reasonable size.
    pub fn from_f64(value: f64) -> Option<Komi> {
        let doubled = value * 2.0;
        if value.is_finite() && doubled.fract() == 0.0 && doubled.abs() <= 2.0 * 1000.0 {
            Some(Komi(doubled as i32))
        } else {
            None
        }
    }

    /// The komi as a number, for output that wants one (SGF `KM`, GTP `komi`); exact, since
    /// every half point is a binary fraction.
    pub fn as_f64(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Komi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 2;
        if self.0 % 2 == 0 {
            write!(f, "{whole}")
        } else if self.0 < 0 && whole == 0 {
            write!(f, "-0.5")
        } else {
            write!(f, "{whole}.5")
        }
    }
}

impl FromStr for Komi {
    type Err = UnknownWord;
    fn from_str(text: &str) -> Result<Komi, UnknownWord> {
        text.trim()
            .parse::<f64>()
            .ok()
            .and_then(Komi::from_f64)
            .ok_or_else(|| UnknownWord {
                what: "komi".to_string(),
                given: text.to_string(),
                allowed: "a whole or half number such as 7.5, 6, 0.5 or -3".to_string(),
            })
    }
}

/// The value of every rules axis.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Which repetitions are forbidden (axis `ko`).
    pub ko: KoRule,
    /// Whether a play may capture its own stones (axis `suicide`).
    pub suicide: SuicideRule,
    /// Whether a pass hands the opponent a prisoner (axis `pass-stones`).
    pub pass_stones: PassStones,
    /// Area or territory counting (axis `scoring`).
    pub scoring: Scoring,
    /// Whether one-colour points inside a seki count (axis `seki-eyes`).
    pub seki_eyes: SekiEyes,
    /// White's compensation in an even game (axis `komi`).
    pub komi: Komi,
    /// White's compensation when there are handicap stones, which rulesets set apart from
    /// the even game's (axis `handicap-komi`).
    pub handicap_komi: Komi,
    /// Points White gets per handicap stone under area counting (axis
    /// `handicap-compensation`).
    pub handicap_compensation: HandicapCompensation,
    /// Fixed or free placement of handicap stones (axis `handicap-placement`).
    pub handicap_placement: HandicapPlacement,
    /// What two passes do and how the dead stones are settled (axis `ending`).
    pub ending: Ending,
    /// Whether White must pass last (axis `white-passes-last`).
    pub white_passes_last: WhitePassesLast,
    /// Who wins a zero margin (axis `draws`).
    pub draws: Draws,
    /// What a referee does about an illegal move that stood on the board (axis
    /// `illegal-move`).
    pub illegal_move: IllegalMoveProcedure,
}

/// The names of all axes, in the order tables show them.
pub const AXES: &[&str] = &[
    KoRule::AXIS,
    SuicideRule::AXIS,
    PassStones::AXIS,
    Scoring::AXIS,
    SekiEyes::AXIS,
    "komi",
    "handicap-komi",
    HandicapCompensation::AXIS,
    HandicapPlacement::AXIS,
    Ending::AXIS,
    WhitePassesLast::AXIS,
    Draws::AXIS,
    IllegalMoveProcedure::AXIS,
];

impl Default for Rules {
    /// The AGA rules as their authors intended them; every named ruleset states all axes
    /// anyway, so this default only matters to code that builds rules by hand.
    fn default() -> Rules {
        Rules {
            ko: KoRule::NaturalSituational,
            suicide: SuicideRule::Forbidden,
            pass_stones: PassStones::On,
            scoring: Scoring::Area,
            seki_eyes: SekiEyes::Count,
            komi: Komi::from_half_points(15),
            handicap_komi: Komi::from_half_points(1),
            handicap_compensation: HandicapCompensation::NMinusOne,
            handicap_placement: HandicapPlacement::Fixed,
            ending: Ending::PauseAgreeResume,
            white_passes_last: WhitePassesLast::Yes,
            draws: Draws::Jigo,
            illegal_move: IllegalMoveProcedure::AgaRule8,
        }
    }
}

impl Rules {
    /// Sets one axis from its words, e.g. `set("ko", "situational")`.
    pub fn set(&mut self, axis: &str, value: &str) -> Result<(), UnknownWord> {
        match axis {
            KoRule::AXIS => self.ko = value.parse()?,
            SuicideRule::AXIS => self.suicide = value.parse()?,
            PassStones::AXIS => self.pass_stones = value.parse()?,
            Scoring::AXIS => self.scoring = value.parse()?,
            SekiEyes::AXIS => self.seki_eyes = value.parse()?,
            "komi" => self.komi = value.parse()?,
            "handicap-komi" => self.handicap_komi = value.parse()?,
            HandicapCompensation::AXIS => self.handicap_compensation = value.parse()?,
            HandicapPlacement::AXIS => self.handicap_placement = value.parse()?,
            Ending::AXIS => self.ending = value.parse()?,
            WhitePassesLast::AXIS => self.white_passes_last = value.parse()?,
            Draws::AXIS => self.draws = value.parse()?,
            IllegalMoveProcedure::AXIS => self.illegal_move = value.parse()?,
            _ => {
                return Err(UnknownWord {
                    what: "rules axis".to_string(),
                    given: axis.to_string(),
                    allowed: AXES.join(", "),
                })
            }
        }
        Ok(())
    }

    /// The word of one axis's value, e.g. `get("ko") == Some("situational")`.
    pub fn get(&self, axis: &str) -> Option<String> {
        Some(match axis {
            KoRule::AXIS => self.ko.to_string(),
            SuicideRule::AXIS => self.suicide.to_string(),
            PassStones::AXIS => self.pass_stones.to_string(),
            Scoring::AXIS => self.scoring.to_string(),
            SekiEyes::AXIS => self.seki_eyes.to_string(),
            "komi" => self.komi.to_string(),
            "handicap-komi" => self.handicap_komi.to_string(),
            HandicapCompensation::AXIS => self.handicap_compensation.to_string(),
            HandicapPlacement::AXIS => self.handicap_placement.to_string(),
            Ending::AXIS => self.ending.to_string(),
            WhitePassesLast::AXIS => self.white_passes_last.to_string(),
            Draws::AXIS => self.draws.to_string(),
            IllegalMoveProcedure::AXIS => self.illegal_move.to_string(),
            _ => return None,
        })
    }

    /// The allowed words of one axis, for help texts and error messages.
    pub fn allowed(axis: &str) -> Option<String> {
        Some(match axis {
            KoRule::AXIS => KoRule::allowed(),
            SuicideRule::AXIS => SuicideRule::allowed(),
            PassStones::AXIS => PassStones::allowed(),
            Scoring::AXIS => Scoring::allowed(),
            SekiEyes::AXIS => SekiEyes::allowed(),
            "komi" | "handicap-komi" => "a whole or half number".to_string(),
            HandicapCompensation::AXIS => HandicapCompensation::allowed(),
            HandicapPlacement::AXIS => HandicapPlacement::allowed(),
            Ending::AXIS => Ending::allowed(),
            WhitePassesLast::AXIS => WhitePassesLast::allowed(),
            Draws::AXIS => Draws::allowed(),
            IllegalMoveProcedure::AXIS => IllegalMoveProcedure::allowed(),
            _ => return None,
        })
    }

    /// Applies `AXIS=VALUE`, the form used by `--set` and the scenario `set` tables.
    pub fn set_assignment(&mut self, assignment: &str) -> Result<(), UnknownWord> {
        let (axis, value) = assignment.split_once('=').ok_or_else(|| UnknownWord {
            what: "axis assignment".to_string(),
            given: assignment.to_string(),
            allowed: "AXIS=VALUE, e.g. ko=situational".to_string(),
        })?;
        self.set(axis.trim(), value.trim())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_axis_round_trips_through_its_words() {
        let mut rules = Rules::default();
        for axis in AXES {
            let value = rules.get(axis).unwrap();
            rules.set(axis, &value).unwrap();
        }
        assert_eq!(rules, Rules::default());
        for ko in KoRule::ALL {
            rules.set("ko", ko.word()).unwrap();
            assert_eq!(rules.ko, *ko);
        }
    }

    #[test]
    fn unknown_words_list_what_is_allowed() {
        let mut rules = Rules::default();
        let err = rules.set("ko", "superduper").unwrap_err().to_string();
        assert!(err.contains("natural-situational"), "{err}");
        let err = rules.set("kommi", "7").unwrap_err().to_string();
        assert!(err.contains("handicap-compensation"), "{err}");
        assert!(rules.set("komi", "7.25").is_err());
        assert!(rules.set_assignment("ko").is_err());
    }

    #[test]
    fn komi_is_exact_in_half_points() {
        for (text, shown) in [
            ("7.5", "7.5"),
            ("-0.5", "-0.5"),
            ("6", "6"),
            ("-3.5", "-3.5"),
        ] {
            assert_eq!(text.parse::<Komi>().unwrap().to_string(), shown);
        }
    }
}
