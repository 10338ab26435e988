//! The independent rules axes, one enum each.
//!
//! Each value has exactly one word, and that word is the same on the command line, in
//! spec/rulesets/*.toml, in scenarios and in the GTP extensions. The `axis!` macro keeps the
//! enum, its words and its error message in one place so they cannot drift apart.

use std::fmt;
use std::str::FromStr;

/// An axis name or value that is not one of ours. The message lists what is allowed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown {what} `{given}`; expected one of: {allowed}")]
pub struct UnknownWord {
    /// What was being read: an axis name (`ko`), `axis` itself, or `komi`.
    pub what: String,
    /// The word as written.
    pub given: String,
    /// The words that would have been accepted, for the message.
    pub allowed: String,
}

macro_rules! axis {
    (
        $(#[$meta:meta])*
        $name:ident, $axis:literal {
            $( $(#[$vmeta:meta])* $variant:ident = $word:literal ),+ $(,)?
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum $name {
            $( $(#[$vmeta])* $variant ),+
        }

        impl $name {
            /// The axis name as written in rulesets and on the command line.
            pub const AXIS: &'static str = $axis;
            /// Every value, in documentation order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The value's one word.
            pub fn word(self) -> &'static str {
                match self {
                    $($name::$variant => $word),+
                }
            }

            /// The words of every value, comma separated, for error messages.
            pub fn allowed() -> String {
                [$($word),+].join(", ")
            }
        }

        impl FromStr for $name {
            type Err = UnknownWord;
            fn from_str(text: &str) -> Result<Self, UnknownWord> {
                match text {
                    $($word => Ok($name::$variant),)+
                    _ => Err(UnknownWord {
                        what: format!("value for `{}`", $axis),
                        given: text.to_string(),
                        allowed: $name::allowed(),
                    }),
                }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }
    };
}

axis!(
    /// Which repetitions a board play may not create.
    KoRule, "ko" {
        /// Only the immediate recapture of a single stone that just captured a single stone.
        Simple = "simple",
        /// No play may recreate any earlier whole-board position (PSK).
        Positional = "positional",
        /// No play may recreate an earlier position with the same player to move (SSK),
        /// positions reached by passes included.
        Situational = "situational",
        /// No play may recreate a position that the same player earlier created by a board
        /// play (NSSK); passes create nothing.
        NaturalSituational = "natural-situational",
        /// Natural situational superko together with the simple-ko ban: the immediate
        /// recapture of a single stone that just captured a single stone is refused even where
        /// a pass made the position it would restore (the reading of AGA Rule 6's commentary
        /// and the AGA summary's point 5; the BGA's 2009 rules reportedly say the same).
        NaturalSituationalBasicKo = "natural-situational-basic-ko",
        /// Simple ko, and a repetition ends the game as a draw: a board play that recreates a
        /// whole-board position that stood before with the same player to move (a long cycle
        /// such as a triple ko, played once round) is legal and ends the game with neither
        /// player winning (the Korean 2016 rules as their "draw by repetition" section is
        /// reported; the cycle's definition is our reading).
        SimpleCycleDraw = "simple-cycle-draw",
        /// As `simple-cycle-draw`, but the game ends void, without result, to be replayed or
        /// settled by the tournament (OGS's reading of the Korean rules: "annulled"; KataGo's
        /// simple-ko engines end such a cycle as no result).
        SimpleCycleVoid = "simple-cycle-void",
    }
);

/// How a game ended by a repetition (a long cycle under `simple-cycle-draw` or
/// `simple-cycle-void`) comes out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CycleOutcome {
    /// Neither player wins; the game counts as a draw (SGF `RE[0]`).
    Draw,
    /// The game has no result (SGF `RE[Void]`).
    Void,
}

impl CycleOutcome {
    /// The result in SGF `RE` form.
    pub fn result(self) -> &'static str {
        match self {
            CycleOutcome::Draw => "0",
            CycleOutcome::Void => "Void",
        }
    }
}

impl KoRule {
    /// Whether the immediate recapture of a single stone that just captured a single stone is
    /// refused as `ko` even where no superko would refuse it (simple ko, the cycle-ending
    /// variants of simple ko, and natural situational superko with the basic-ko ban).
    pub fn bans_basic_ko(self) -> bool {
        matches!(
            self,
            KoRule::Simple
                | KoRule::NaturalSituationalBasicKo
                | KoRule::SimpleCycleDraw
                | KoRule::SimpleCycleVoid
        )
    }

    /// Whether plays are judged against the positions of the game so far: true for every
    /// superko, false for simple ko and its cycle-ending variants (which ban only the
    /// immediate retake, or end the game on a repetition rather than refuse it).
    pub fn forbids_repetition(self) -> bool {
        !matches!(
            self,
            KoRule::Simple | KoRule::SimpleCycleDraw | KoRule::SimpleCycleVoid
        )
    }

    /// What a repetition does where it ends the game; `None` where a repetition either cannot
    /// happen (a superko forbids it) or goes on being played (plain simple ko).
    pub fn cycle_outcome(self) -> Option<CycleOutcome> {
        match self {
            KoRule::SimpleCycleDraw => Some(CycleOutcome::Draw),
            KoRule::SimpleCycleVoid => Some(CycleOutcome::Void),
            KoRule::Simple
            | KoRule::Positional
            | KoRule::Situational
            | KoRule::NaturalSituational
            | KoRule::NaturalSituationalBasicKo => None,
        }
    }
}

axis!(
    /// Whether a play may leave the mover's own stones without liberties.
    SuicideRule, "suicide" {
        /// Any self-capture is illegal.
        Forbidden = "forbidden",
        /// Self-capture of two or more stones is allowed; of the single played stone it is not.
        MultiStone = "multi-stone",
        /// Any self-capture is allowed; the stones become the opponent's prisoners.
        Allowed = "allowed",
    }
);

axis!(
    /// Whether a pass hands the opponent a stone as a prisoner.
    PassStones, "pass-stones" {
        /// Each pass gives the opponent one prisoner (AGA), so that area and territory
        /// counting give the same margin.
        On = "on",
        /// A pass costs nothing.
        Off = "off",
    }
);

axis!(
    /// What the score counts.
    Scoring, "scoring" {
        /// Territory plus prisoners (captures, agreed dead stones, pass stones) plus komi.
        Territory = "territory",
        /// Stones on the board plus territory plus komi; prisoners are ignored.
        Area = "area",
    }
);

axis!(
    /// Whether empty points inside a seki that only one colour borders count as territory.
    SekiEyes, "seki-eyes" {
        /// Such points are the bordering colour's territory (area rules and AGA).
        Count = "count",
        /// Such points count for nobody (Japanese 1989: no territory in seki).
        Neutral = "neutral",
    }
);

axis!(
    /// Extra points for White in handicap games under area counting.
    HandicapCompensation, "handicap-compensation" {
        /// Nothing.
        None = "none",
        /// One point for each handicap stone after the first (AGA, BGA).
        NMinusOne = "n-minus-one",
        /// One point for each handicap stone (Chinese).
        N = "n",
    }
);

axis!(
    /// Where handicap stones go.
    HandicapPlacement, "handicap-placement" {
        /// On the star points, in the traditional patterns.
        Fixed = "fixed",
        /// Wherever Black chooses.
        Free = "free",
    }
);

axis!(
    /// How the game ends.
    Ending, "ending" {
        /// Two passes pause play; agreement ends it; a dispute resumes play with the opponent
        /// of the last passer; two passes opening a resumption end it with every stone alive.
        PauseAgreeResume = "pause-agree-resume",
        /// Two passes end the game and the position is scored as it stands.
        TwoPasses = "two-passes",
        /// Two passes stop play; without agreement play goes on; if the players cannot agree
        /// who moves, every stone counts as alive (New Zealand).
        PlayOn = "play-on",
        /// Two passes stop play; dead stones by agreement; disputes go to a referee.
        Agreement = "agreement",
        /// Two passes stop play; agreement ends it; either player may ask to resume, and the
        /// other player moves first (Japanese 1989, Article 9(3)). Any number of
        /// resumptions; each ends again only by two passes and agreement.
        ResumeOnRequest = "resume-on-request",
        /// As `resume-on-request`, and during the stop the players may also confirm life and
        /// death by hypothetical play (`confirm`), under its own ko rule: a player whose stone
        /// was captured in a ko may retake in that ko only after passing once for it (Japanese
        /// 1989, Article 7(2)). The hypothetical moves are taken back before the agreement.
        ConfirmOrResume = "confirm-or-resume",
    }
);

impl Ending {
    /// Whether a dispute after two passes resumes play (where it does not, it is refused).
    pub fn resumes(self) -> bool {
        matches!(
            self,
            Ending::PauseAgreeResume
                | Ending::PlayOn
                | Ending::ResumeOnRequest
                | Ending::ConfirmOrResume
        )
    }

    /// Whether the players may confirm life and death by hypothetical play during the stop.
    pub fn confirms(self) -> bool {
        self == Ending::ConfirmOrResume
    }
}

axis!(
    /// Whether White must make the last pass (handing another pass stone if Black passed last).
    WhitePassesLast, "white-passes-last" {
        /// White's pass must end the passing (AGA), so both players handed over as many
        /// pass stones and the counts stay equal.
        Yes = "yes",
        /// Any two consecutive passes will do.
        No = "no",
        /// As `yes`, but White's extra pass comes as soon as play stops with Black's pass,
        /// before any dispute, so a resumption starts with Black (the AGA's "Summary of AGA
        /// Rules", point 3, against the BGA and London timing of `yes`).
        AtStop = "at-stop",
    }
);

axis!(
    /// Who wins a game whose margin is zero.
    Draws, "draws" {
        /// A draw (jigo) stands.
        Jigo = "jigo",
        /// White wins every draw (AGA Tournament Rules 1988).
        WhiteWins = "white-wins",
        /// White wins draws in handicap games only (London Open rule 1).
        WhiteWinsHandicap = "white-wins-handicap",
        /// Black wins every draw (the Ing rules and EGF option (a): komi 8, Black wins ties).
        BlackWins = "black-wins",
    }
);

axis!(
    /// What happens when an illegal move is found standing on the board.
    IllegalMoveProcedure, "illegal-move" {
        /// The ruleset names no procedure: an illegal move simply cannot be made.
        None = "none",
        /// BGA: unwind and pass if noticed at once; later, rewind only by agreement.
        Bga = "bga",
        /// EGF rule 4 / London Open rule 4: unwind if noticed within three moves.
        EgfRule4 = "egf-rule-4",
        /// AGA Rule 8: taken back and counted as a pass, if pointed out before the opponent moves.
        AgaRule8 = "aga-rule-8",
    }
);
