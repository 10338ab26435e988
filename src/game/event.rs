//! Events: everything that can happen in a game, and their text form (`B D4`, `W pass`,
//! `dispute`, `agree C3`, and a referee's record such as `B D4!` or `notice`).

use std::fmt;

use crate::board::{Color, Move, Point, VertexError};

/// One thing that happens in a game.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// A player makes a move: a board play or a pass.
    Move(Color, Move),
    /// During a pause, the players cannot agree on the status of the stones, so play resumes.
    ///
    /// Under the AGA-style ending (`pause-agree-resume`) the rules fix who moves first: the
    /// opponent of the last player to pass. A named colour must be that player.
    /// Under `play-on` (New Zealand) the players must also agree who moves next: the colour
    /// names who they agreed on, and `None` means they could not agree, which ends the game
    /// with every stone on the board alive.
    Dispute(Option<Color>),
    /// During a pause, the players confirm life and death by hypothetical play (Japanese 1989,
    /// Article 7(2)): play goes on from the stopped position, this colour first, under the
    /// confirmation's own ko rule (a ko may be retaken only after a pass for that ko). The
    /// moves change nothing for good: an agreement or a dispute goes back to the stopped
    /// position first, and a new confirmation starts from it again.
    Confirm(Color),
    /// During a pause, the players agree that the strings through these points are dead (an
    /// empty list: nothing is dead). The stones are removed and become the capturer's
    /// prisoners, White passes last where the rules say so, and the game ends.
    Agree(Vec<Point>),
    /// A player resigns: allowed at any moment before the game ends, whoever is to move
    /// (AGA Tournament Rules VI.B.9). The opponent wins.
    Resign(Color),
    /// A move as a referee finds it on the board: made although it breaks a rule, so it
    /// stands until someone notices. Only a [`crate::game::Refereed`] game records these; the
    /// plain executor refuses them as `no-procedure`.
    Breach(Color, Move, Breach),
    /// The player left a stone between these points (BGA irregularity v); it stands nowhere
    /// until its owner names the point with an ordinary play at one of them.
    Ambiguous(Color, Vec<Point>),
    /// Someone points out the earliest violation still standing, and the referee rules on it.
    /// `agreed`: both players agree to go back to the position before it.
    Notice {
        /// Both players agree to go back to the position before the violation.
        agreed: bool,
    },
    /// The sealed move of an adjourned game, played when play restarts (AGA TR VI.C.5.c):
    /// played as sealed if legal, otherwise left to the director.
    Sealed(Color, Move),
}

impl Event {
    /// Whether the event belongs to a referee's record (a move standing although it breaks a
    /// rule, an ambiguous stone, a notice, a sealed move): only [`crate::game::Refereed`] takes
    /// these, and GTP engines cannot express them.
    pub fn is_referees_record(&self) -> bool {
        matches!(
            self,
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..)
        )
    }
}

/// How a move recorded by [`Event::Breach`] went wrong.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Breach {
    /// The move was made as written even though the rules forbid it (a ko or superko retake,
    /// a self-capture, a move out of turn, a stone on an occupied point): `B D4!`, `B pass!`.
    Forced,
    /// A legal play whose captured stones were left on the board: `B D4 leaves-captures`.
    CapturesLeft,
    /// A legal play after which the player also took off the strings through these points,
    /// which still had liberties: `B D4 removes E5 F5`.
    Removes(Vec<Point>),
    /// The player to move put down a stone of the opponent's colour: `B D4 wrong-colour`.
    WrongColour,
}

impl Event {
    /// Reads `B D4`, `W pass`, `black c3` (GTP colour and vertex).
    pub fn parse(text: &str, width: u8, height: u8) -> Result<Event, EventError> {
        let malformed = || EventError::Malformed(text.to_string());
        let mut words = text.split_whitespace();
        let first = words.next();
        if first == Some("notice") {
            return match (words.next(), words.next()) {
                (None, _) => Ok(Event::Notice { agreed: false }),
                (Some("agreed"), None) => Ok(Event::Notice { agreed: true }),
                _ => Err(malformed()),
            };
        }
        if first == Some("dispute") {
            return match (words.next(), words.next()) {
                (None, _) => Ok(Event::Dispute(None)),
                (Some(c), None) => Color::parse(c)
                    .map(|c| Event::Dispute(Some(c)))
                    .ok_or_else(|| EventError::Malformed(text.to_string())),
                _ => Err(EventError::Malformed(text.to_string())),
            };
        }
        if first == Some("confirm") {
            return match (words.next(), words.next()) {
                (Some(c), None) => Color::parse(c)
                    .map(Event::Confirm)
                    .ok_or_else(|| EventError::Malformed(text.to_string())),
                _ => Err(EventError::Malformed(text.to_string())),
            };
        }
        if let Some(rest) = text.trim().strip_prefix("agree") {
            if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                let dead = rest
                    .split_whitespace()
                    .map(|v| Point::parse_gtp(v, width, height))
                    .collect::<Result<Vec<_>, _>>()?;
                return Ok(Event::Agree(dead));
            }
        }
        let words: Vec<&str> = text.split_whitespace().collect();
        let (Some(color), Some(&vertex)) = (words.first(), words.get(1)) else {
            return Err(malformed());
        };
        let color = Color::parse(color).ok_or_else(malformed)?;
        let rest = &words[2..];
        let points = |vs: &[&str]| {
            vs.iter()
                .map(|v| Point::parse_gtp(v, width, height))
                .collect::<Result<Vec<_>, _>>()
        };
        if vertex == "between" {
            return match rest.len() {
                2..=4 => {
                    let touched = points(rest)?;
                    // Every pair distinct and at most one line apart each way: the points a
                    // stone can rest between, two on a line or up to four around a square.
                    let close = touched.iter().enumerate().all(|(i, a)| {
                        touched[i + 1..].iter().all(|b| {
                            a != b && a.col.abs_diff(b.col) <= 1 && a.row.abs_diff(b.row) <= 1
                        })
                    });
                    if close {
                        Ok(Event::Ambiguous(color, touched))
                    } else {
                        Err(EventError::NotBetween(text.trim().to_string()))
                    }
                }
                _ => Err(malformed()),
            };
        }
        if vertex.eq_ignore_ascii_case("resign") {
            return match rest {
                [] => Ok(Event::Resign(color)),
                _ => Err(malformed()),
            };
        }
        if let Some(forced) = vertex.strip_suffix('!') {
            let mv = Move::parse_gtp(forced, width, height)?;
            return match rest {
                [] => Ok(Event::Breach(color, mv, Breach::Forced)),
                _ => Err(malformed()),
            };
        }
        let mv = Move::parse_gtp(vertex, width, height)?;
        let play = || match mv {
            Move::Play(_) => Ok(mv),
            Move::Pass => Err(malformed()),
        };
        match rest {
            [] => Ok(Event::Move(color, mv)),
            ["sealed"] => Ok(Event::Sealed(color, mv)),
            ["leaves-captures"] => Ok(Event::Breach(color, play()?, Breach::CapturesLeft)),
            ["wrong-colour"] => Ok(Event::Breach(color, play()?, Breach::WrongColour)),
            ["removes", taken @ ..] if !taken.is_empty() => Ok(Event::Breach(
                color,
                play()?,
                Breach::Removes(points(taken)?),
            )),
            _ => Err(malformed()),
        }
    }
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Move(c, m) => write!(f, "{c} {m}"),
            Event::Dispute(None) => f.write_str("dispute"),
            Event::Dispute(Some(c)) => write!(f, "dispute {c}"),
            Event::Confirm(c) => write!(f, "confirm {c}"),
            Event::Resign(c) => write!(f, "{c} resign"),
            Event::Agree(dead) => {
                f.write_str("agree")?;
                for p in dead {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Event::Breach(c, m, Breach::Forced) => write!(f, "{c} {m}!"),
            Event::Breach(c, m, Breach::CapturesLeft) => write!(f, "{c} {m} leaves-captures"),
            Event::Breach(c, m, Breach::WrongColour) => write!(f, "{c} {m} wrong-colour"),
            Event::Breach(c, m, Breach::Removes(taken)) => {
                write!(f, "{c} {m} removes")?;
                for p in taken {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Event::Ambiguous(c, points) => {
                write!(f, "{c} between")?;
                for p in points {
                    write!(f, " {p}")?;
                }
                Ok(())
            }
            Event::Notice { agreed: false } => f.write_str("notice"),
            Event::Notice { agreed: true } => f.write_str("notice agreed"),
            Event::Sealed(c, m) => write!(f, "{c} {m} sealed"),
        }
    }
}

/// An event that could not be read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum EventError {
    /// Not an event in any of its forms.
    #[error("`{0}` is not an event: expected a colour and a vertex, pass or resign, like `B D4`, `W pass` or `B resign`; `dispute` with an optional colour to move; `confirm` with the colour to move first; `agree` with the dead stones; or a referee's record: `B D4!` (made although forbidden), `B D4 leaves-captures`, `B D4 removes E5`, `B D4 wrong-colour`, `B between D4 D5`, `B D4 sealed`, `notice` or `notice agreed`")]
    Malformed(String),
    /// A vertex that is not one of the board.
    #[error(transparent)]
    Vertex(#[from] VertexError),
    /// A stone between points that are not next to one another.
    #[error("`{0}`: a stone between points touches two to four distinct points next to one another (a pair on a line, or the corners of one square), not these")]
    NotBetween(String),
}
