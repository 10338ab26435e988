//! What the executor says: the verdict on an event and the reason a play is refused.
//!
//! Both are closed lists of words shared by scenarios, the CLI, GTP and the JSON-lines
//! protocol, so each value has exactly one word and reads back from it.

use std::fmt;
use std::str::FromStr;

use crate::board::Point;

use super::{Class, Ruling};

/// Why a play is illegal. The words are a closed list shared by scenarios, the CLI and GTP.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reason {
    /// The point already holds a stone.
    Occupied,
    /// The play would leave the mover's own stones without liberties, which the rules forbid.
    Suicide,
    /// The immediate recapture of a single stone that just captured a single stone.
    Ko,
    /// The play would recreate a position that the ko rule in force forbids repeating.
    Superko,
    /// It is the other player's turn (a failure of alternation).
    OutOfTurn,
    /// Play is paused after consecutive passes; only the ending procedure may continue.
    GamePaused,
    /// The game is over.
    GameOver,
    /// A dispute can only be raised while play is paused.
    NotPaused,
    /// The ending in force settles disputes some other way (a referee), not by resuming play.
    NoResumption,
    /// An agreement names a point that holds no stone.
    NoStone,
    /// The ending in force has no confirmation of life and death by hypothetical play.
    NoConfirmation,
    /// Irregularity (BGA i): a play that captured stones left them on the board.
    CapturesLeft,
    /// Irregularity (BGA ii; illegal under AGA TR VI.B.7): stones were taken off the board
    /// although they still had liberties.
    RemovedWithLiberties,
    /// Irregularity (BGA iii): handicap stones stand off the fixed points the rules name.
    HandicapMisplaced,
    /// Irregularity (BGA vi): the player to move put down a stone of the opponent's colour.
    WrongColour,
    /// Irregularity (BGA v, AGA TR VI.B.6): a stone was left between points.
    Ambiguous,
    /// A stone left between points waits for its owner to say where it stands.
    PlacementPending,
    /// A notice, but no violation stands on the board to be ruled on.
    NothingToNotice,
    /// The ruleset names no procedure for a violation that stands on the board.
    NoProcedure,
}

impl Reason {
    /// Every reason, in the order of the enum.
    pub const ALL: &'static [Reason] = &[
        Reason::Occupied,
        Reason::Suicide,
        Reason::Ko,
        Reason::Superko,
        Reason::OutOfTurn,
        Reason::GamePaused,
        Reason::GameOver,
        Reason::NotPaused,
        Reason::NoResumption,
        Reason::NoStone,
        Reason::NoConfirmation,
        Reason::CapturesLeft,
        Reason::RemovedWithLiberties,
        Reason::HandicapMisplaced,
        Reason::WrongColour,
        Reason::Ambiguous,
        Reason::PlacementPending,
        Reason::NothingToNotice,
        Reason::NoProcedure,
    ];

    /// The word scenarios, the CLI and GTP use for the reason.
    pub fn word(self) -> &'static str {
        match self {
            Reason::Occupied => "occupied",
            Reason::Suicide => "suicide",
            Reason::Ko => "ko",
            Reason::Superko => "superko",
            Reason::OutOfTurn => "out-of-turn",
            Reason::GamePaused => "game-paused",
            Reason::GameOver => "game-over",
            Reason::NotPaused => "not-paused",
            Reason::NoResumption => "no-resumption",
            Reason::NoStone => "no-stone",
            Reason::NoConfirmation => "no-confirmation",
            Reason::CapturesLeft => "captures-left",
            Reason::RemovedWithLiberties => "removed-with-liberties",
            Reason::HandicapMisplaced => "handicap-misplaced",
            Reason::WrongColour => "wrong-colour",
            Reason::Ambiguous => "ambiguous",
            Reason::PlacementPending => "placement-pending",
            Reason::NothingToNotice => "nothing-to-notice",
            Reason::NoProcedure => "no-procedure",
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// Reads one word of a closed list (reasons, phases, classes, rulings); the error names the
/// kind of word and lists every allowed one.
pub(crate) fn from_word<T: Copy>(
    all: &[T],
    word: impl Fn(T) -> &'static str,
    kind: &str,
    text: &str,
) -> Result<T, String> {
    all.iter()
        .copied()
        .find(|&v| word(v) == text)
        .ok_or_else(|| {
            let words: Vec<&str> = all.iter().map(|&v| word(v)).collect();
            format!(
                "unknown {kind} `{text}`; expected one of: {}",
                words.join(", ")
            )
        })
}

impl FromStr for Reason {
    type Err = String;
    fn from_str(text: &str) -> Result<Reason, String> {
        from_word(Reason::ALL, Reason::word, "reason", text)
    }
}

/// What the executor says of one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The event was legal and has been applied. `captured` are the opposing stones removed,
    /// `self_captured` the mover's own (only where the rules allow self-capture).
    Legal {
        /// The opposing stones removed.
        captured: Vec<Point>,
        /// The mover's own stones removed.
        self_captured: Vec<Point>,
    },
    /// The event was refused; the state is unchanged.
    Illegal(Reason),
    /// The move breaks the rules (`reason`) and stands on the board until someone notices:
    /// only a [`crate::game::Refereed`] game records such moves. `class` is how the ruleset in
    /// force classes the violation, which decides the procedure that applies to it.
    Breach {
        /// The rule the move breaks.
        reason: Reason,
        /// How the ruleset in force classes the violation.
        class: Class,
    },
    /// A referee's ruling on a notice (or on a sealed move that cannot be played).
    Ruled(Ruling),
}

impl Verdict {
    /// Whether the event was legal (and has been applied).
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }

    /// The reason of a refusal; `None` for any other verdict.
    pub fn reason(&self) -> Option<Reason> {
        match self {
            Verdict::Illegal(r) => Some(*r),
            Verdict::Legal { .. } | Verdict::Breach { .. } | Verdict::Ruled(_) => None,
        }
    }
}

impl fmt::Display for Verdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Verdict::Legal { captured, .. } if captured.is_empty() => f.write_str("legal"),
            Verdict::Legal { captured, .. } => {
                let points: Vec<String> = captured.iter().map(|p| p.to_string()).collect();
                write!(f, "legal, captures {}", points.join(" "))
            }
            Verdict::Illegal(r) => write!(f, "illegal: {r}"),
            Verdict::Breach { reason, class } => write!(f, "breach: {reason} ({class})"),
            Verdict::Ruled(ruling) => write!(f, "ruling: {ruling}"),
        }
    }
}
