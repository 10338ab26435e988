//! The reference executor: a game as a sequence of events, each given a verdict.
//!
//! [`Game::apply`] accepts any event in any state and never panics: a play on an occupied
//! point, out of turn, after the end, or against a ko rule gets an illegal verdict with a
//! reason, and the state is left exactly as it was. Legal events change the state.

pub mod counting;
pub mod handicap;
mod history;
mod physical;
pub mod procedure;
pub mod status;

pub use history::History;
pub use procedure::{Class, Refereed, Report, Ruling};

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Color, Move, PlayPreview, Point, SizeError, VertexError};
use crate::rules::{
    Ending, HandicapPlacement, KoRule, PassStones, Rules, SuicideRule, WhitePassesLast,
};

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

/// Handicap stones the rules of play cannot start from.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum HandicapError {
    #[error("a handicap is 2 to 9 stones placed, not {0}: no ruleset places more than nine, and a one-stone handicap places none (Black moves first)")]
    Count(usize),
    #[error("handicap stone at {0}: the point already holds a stone")]
    Occupied(Point),
    #[error("handicap stone at {0}: the point is given twice")]
    Repeated(Point),
    #[error("handicap stone at {0}: the point is off the board")]
    OffBoard(Point),
    #[error("the rules place handicap stones on fixed points, and a {size} board has no fixed placement of {stones} stones")]
    NoFixedPlacement { size: String, stones: usize },
    #[error("the rules place {stones} handicap stones on the fixed points {expected}, not {given} (set handicap-placement = free for a free placement)")]
    NotFixed {
        stones: usize,
        expected: String,
        given: String,
    },
}

impl Reason {
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
        Reason::CapturesLeft,
        Reason::RemovedWithLiberties,
        Reason::HandicapMisplaced,
        Reason::WrongColour,
        Reason::Ambiguous,
        Reason::PlacementPending,
        Reason::NothingToNotice,
        Reason::NoProcedure,
    ];

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

/// Where the game stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// Moves are being made.
    Playing,
    /// Two consecutive passes paused play; the players try to agree on dead stones.
    Paused,
    /// Moves are being made again after a dispute (AGA-style endings): two passes opening
    /// the resumption end the game with every stone alive.
    Resumed,
    /// The game is over.
    Ended,
}

impl Phase {
    pub const ALL: &'static [Phase] =
        &[Phase::Playing, Phase::Paused, Phase::Resumed, Phase::Ended];

    pub fn word(self) -> &'static str {
        match self {
            Phase::Playing => "playing",
            Phase::Paused => "paused",
            Phase::Resumed => "resumed",
            Phase::Ended => "ended",
        }
    }

    /// Whether moves are being made (first play or a resumption).
    pub fn is_play(self) -> bool {
        matches!(self, Phase::Playing | Phase::Resumed)
    }
}

impl fmt::Display for Phase {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Phase {
    type Err = String;
    fn from_str(text: &str) -> Result<Phase, String> {
        from_word(Phase::ALL, Phase::word, "phase", text)
    }
}

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
    /// During a pause, the players agree that the strings through these points are dead (an
    /// empty list: nothing is dead). The stones are removed and become the capturer's
    /// prisoners, White passes last where the rules say so, and the game ends.
    Agree(Vec<Point>),
    /// A player resigns: allowed at any moment before the game ends, whoever is to move
    /// (AGA Tournament Rules VI.B.9). The opponent wins.
    Resign(Color),
    /// A move as a referee finds it on the board: made although it breaks a rule, so it
    /// stands until someone notices. Only a [`procedure::Refereed`] game records these; the
    /// plain executor refuses them as `no-procedure`.
    Breach(Color, Move, Breach),
    /// The player left a stone between these points (BGA irregularity v); it stands nowhere
    /// until its owner names the point with an ordinary play at one of them.
    Ambiguous(Color, Vec<Point>),
    /// Someone points out the earliest violation still standing, and the referee rules on it.
    /// `agreed`: both players agree to go back to the position before it.
    Notice { agreed: bool },
    /// The sealed move of an adjourned game, played when play restarts (AGA TR VI.C.5.c):
    /// played as sealed if legal, otherwise left to the director.
    Sealed(Color, Move),
}

impl Event {
    /// Whether the event belongs to a referee's record (a move standing although it breaks a
    /// rule, an ambiguous stone, a notice, a sealed move): only [`procedure::Refereed`] takes
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
    #[error("`{0}` is not an event: expected a colour and a vertex, pass or resign, like `B D4`, `W pass` or `B resign`; `dispute` with an optional colour to move; `agree` with the dead stones; or a referee's record: `B D4!` (made although forbidden), `B D4 leaves-captures`, `B D4 removes E5`, `B D4 wrong-colour`, `B between D4 D5`, `B D4 sealed`, `notice` or `notice agreed`")]
    Malformed(String),
    #[error(transparent)]
    Vertex(#[from] VertexError),
    #[error("`{0}`: a stone between points touches two to four distinct points next to one another (a pair on a line, or the corners of one square), not these")]
    NotBetween(String),
}

/// What the executor says of one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The event was legal and has been applied. `captured` are the opposing stones removed,
    /// `self_captured` the mover's own (only where the rules allow self-capture).
    Legal {
        captured: Vec<Point>,
        self_captured: Vec<Point>,
    },
    /// The event was refused; the state is unchanged.
    Illegal(Reason),
    /// The move breaks the rules (`reason`) and stands on the board until someone notices:
    /// only a [`procedure::Refereed`] game records such moves. `class` is how the ruleset in
    /// force classes the violation, which decides the procedure that applies to it.
    Breach { reason: Reason, class: Class },
    /// A referee's ruling on a notice (or on a sealed move that cannot be played).
    Ruled(Ruling),
}

impl Verdict {
    pub fn is_legal(&self) -> bool {
        matches!(self, Verdict::Legal { .. })
    }

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

/// Whether the set-up position is part of the repetition history.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum SetupHistory {
    /// The set-up position is the first entry of the history, with the given player to move,
    /// and counts as created by a board play of the other player, as if that player had just
    /// made the last move of a game that reached it.
    #[default]
    Played,
    /// The set-up position is not in the history: only positions that arise afterwards count.
    Excluded,
}

impl SetupHistory {
    pub fn word(self) -> &'static str {
        match self {
            SetupHistory::Played => "played",
            SetupHistory::Excluded => "excluded",
        }
    }
}

/// Everything needed to start a game: size, position, who moves, history convention.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub width: u8,
    pub height: u8,
    pub stones: Vec<(Point, Color)>,
    /// Black's handicap stones, placed on top of `stones`. With any, White moves first
    /// whatever `to_move` says, and the game is a handicap game for komi and counting.
    pub handicap: Vec<Point>,
    pub to_move: Color,
    pub history: SetupHistory,
    /// The handicap stones stand where they were put even if the fixed placement in force
    /// names other points: a misplacement (BGA irregularity iii) for a referee to rule on.
    /// Without it such a placement is refused.
    pub handicap_as_placed: bool,
}

impl Setup {
    /// An empty board of the given size with Black to move.
    pub fn empty(width: u8, height: u8) -> Setup {
        Setup {
            width,
            height,
            stones: Vec::new(),
            handicap: Vec::new(),
            to_move: Color::Black,
            history: SetupHistory::Played,
            handicap_as_placed: false,
        }
    }
}

/// A set-up that describes no legal starting position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    #[error(transparent)]
    Size(#[from] SizeError),
    #[error("set-up stone at {0} is off the board or on a point given twice")]
    BadStone(Point),
    #[error("set-up position has a string without liberties at {0}")]
    NoLiberty(Point),
    #[error(transparent)]
    Handicap(#[from] HandicapError),
}

/// Prisoners each colour holds, by where they came from. Arrays are indexed by
/// [`Color::index`]. Territory counting adds all three; area counting ignores them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Prisoners {
    /// Opposing stones captured in play, and the opponent's own stones it removed by
    /// self-capture (they are handed over like captures).
    pub captures: [u32; 2],
    /// Pass stones received from the opponent.
    pub pass_stones: [u32; 2],
    /// Opposing stones removed as dead by agreement at the end.
    pub dead: [u32; 2],
}

impl Prisoners {
    /// Everything `color` holds.
    pub fn total(&self, color: Color) -> u32 {
        let c = color.index();
        self.captures[c] + self.pass_stones[c] + self.dead[c]
    }
}

/// A game in progress under one set of rules.
#[derive(Clone)]
pub struct Game {
    rules: Rules,
    board: Board,
    to_move: Color,
    phase: Phase,
    prisoners: Prisoners,
    /// The number of handicap stones (0 in an even game).
    handicap: u32,
    /// Who resigned, if anyone.
    resigned: Option<Color>,
    consecutive_passes: u32,
    /// Moves made since play last resumed after a dispute (None before any dispute): two
    /// passes opening a resumption end the game with every stone alive.
    moves_since_resumption: Option<u32>,
    /// The player who made the last pass.
    last_passer: Option<Color>,
    /// The simple-ko ban: this player may not play at this point on this turn.
    ko_ban: Option<(Color, Point)>,
    history: History,
    removed: Vec<Point>,
    /// Where the fixed placement puts the handicap stones, when a set-up with
    /// `handicap_as_placed` put them elsewhere.
    fixed_handicap: Option<Vec<Point>>,
}

impl Game {
    /// Starts a game from a set-up.
    pub fn new(rules: Rules, setup: &Setup) -> Result<Game, SetupError> {
        let mut board = Board::new(setup.width, setup.height)?;
        for &(p, c) in &setup.stones {
            if !board.set_stone(c, p) {
                return Err(SetupError::BadStone(p));
            }
        }
        let fixed_handicap = place_handicap(&mut board, &rules, setup)?;
        if let Some(p) = board.string_without_liberty() {
            return Err(SetupError::NoLiberty(p));
        }
        let to_move = if setup.handicap.is_empty() {
            setup.to_move
        } else {
            Color::White
        };
        let mut history = History::new();
        if setup.history == SetupHistory::Played {
            history.record(&board, to_move, Some(to_move.opponent()), false);
        }
        Ok(Game {
            rules,
            board,
            to_move,
            phase: Phase::Playing,
            prisoners: Prisoners::default(),
            handicap: u32::try_from(setup.handicap.len()).unwrap_or(u32::MAX),
            resigned: None,
            consecutive_passes: 0,
            moves_since_resumption: None,
            last_passer: None,
            ko_ban: None,
            history,
            removed: Vec::new(),
            fixed_handicap,
        })
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    pub fn to_move(&self) -> Color {
        self.to_move
    }

    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Prisoners held by `color`: opposing stones it captured, pass stones handed to it,
    /// stones the opponent removed by self-capture, and opposing stones agreed dead.
    pub fn prisoners(&self, color: Color) -> u32 {
        self.prisoners.total(color)
    }

    /// Prisoners of both colours, by where they came from.
    pub fn prisoner_breakdown(&self) -> Prisoners {
        self.prisoners
    }

    /// The number of handicap stones the game started with.
    pub fn handicap(&self) -> u32 {
        self.handicap
    }

    /// Who resigned, if the game ended that way.
    pub fn resigned(&self) -> Option<Color> {
        self.resigned
    }

    /// The count of the position as it stands: stones agreed dead have already left the
    /// board, and nothing else is removed. Meaningful as a final score once the game has
    /// ended by passes or agreement; a resigned game has no count (see [`Game::result`]).
    pub fn count(&self) -> counting::Count {
        counting::count(&self.board, &self.rules, self.prisoners, &[], self.handicap)
    }

    /// The result in SGF `RE` form: `B+R`/`W+R` after a resignation, otherwise the result of
    /// [`Game::count`].
    pub fn result(&self) -> String {
        match self.resigned {
            Some(loser) => format!("{}+R", loser.opponent().letter()),
            None => self.count().result(),
        }
    }

    /// Number of positions in the repetition history.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Judges a board play by `color` at `point` as if it were `color`'s turn, without
    /// changing anything. This is the question GTP's `is_legal` asks.
    pub fn check_play(&self, color: Color, point: Point) -> Result<(), Reason> {
        self.judge(color, point).map(|_| ())
    }

    /// [`Game::check_play`], handing back the preview of a legal play so that
    /// [`Game::play`] need not compute it again.
    #[inline(always)]
    fn judge(&self, color: Color, point: Point) -> Result<PlayPreview, Reason> {
        match self.phase {
            Phase::Playing | Phase::Resumed => {}
            Phase::Paused => return Err(Reason::GamePaused),
            Phase::Ended => return Err(Reason::GameOver),
        }
        let Some(preview) = self.board.preview(color, point) else {
            return Err(Reason::Occupied);
        };
        let suicide_banned = match self.rules.suicide {
            SuicideRule::Forbidden => preview.self_captured > 0,
            SuicideRule::MultiStone => preview.self_captured == 1,
            SuicideRule::Allowed => false,
        };
        if suicide_banned {
            return Err(Reason::Suicide);
        }
        let is_ko_retake = self.ko_ban == Some((color, point));
        if is_ko_retake && self.rules.ko == KoRule::Simple {
            return Err(Reason::Ko);
        }
        let repeats = self
            .history
            .repeats(self.rules.ko, color, preview.hash_after, || {
                let mut after = self.board.clone();
                after.play(color, point, &mut Vec::new());
                after
            });
        if repeats {
            return Err(if is_ko_retake {
                Reason::Ko
            } else {
                Reason::Superko
            });
        }
        Ok(preview)
    }

    /// Judges an event and, if it is legal, applies it.
    pub fn apply(&mut self, event: Event) -> Verdict {
        let (color, mv) = match event {
            Event::Move(color, mv) => (color, mv),
            Event::Dispute(mover) => return self.dispute(mover),
            Event::Agree(dead) => return self.agree(&dead),
            Event::Resign(color) => return self.resign(color),
            // The plain executor keeps no record to rule on: see procedure::Refereed.
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..) => {
                return Verdict::Illegal(Reason::NoProcedure)
            }
        };
        match self.phase {
            Phase::Playing | Phase::Resumed => {}
            Phase::Paused => return Verdict::Illegal(Reason::GamePaused),
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
        }
        if color != self.to_move {
            return Verdict::Illegal(Reason::OutOfTurn);
        }
        match mv {
            Move::Pass => {
                self.pass(color);
                Verdict::Legal {
                    captured: Vec::new(),
                    self_captured: Vec::new(),
                }
            }
            Move::Play(point) => match self.judge(color, point) {
                Err(reason) => Verdict::Illegal(reason),
                Ok(preview) => self.play(color, point, preview.ko_shape),
            },
        }
    }

    /// Applies an event by `color` even if it is the other player's turn: GTP's `play`
    /// convention, which controllers use to set up positions with consecutive moves of one
    /// colour. Every other rule still applies.
    pub fn apply_out_of_turn(&mut self, event: Event) -> Verdict {
        let Event::Move(color, _) = event else {
            return self.apply(event);
        };
        if self.phase.is_play() && color != self.to_move {
            let saved = (self.to_move, self.ko_ban);
            self.to_move = color;
            self.ko_ban = None;
            let verdict = self.apply(event);
            if !verdict.is_legal() {
                (self.to_move, self.ko_ban) = saved;
            }
            verdict
        } else {
            self.apply(event)
        }
    }

    fn hand_pass_stone(&mut self, passer: Color) {
        if self.rules.pass_stones == PassStones::On {
            self.prisoners.pass_stones[passer.opponent().index()] += 1;
        }
    }

    fn pass(&mut self, color: Color) {
        self.hand_pass_stone(color);
        self.ko_ban = None;
        self.to_move = color.opponent();
        self.last_passer = Some(color);
        self.history.record(&self.board, self.to_move, None, true);
        self.consecutive_passes += 1;
        let opening = self.moves_since_resumption.map(|m| m + 1);
        self.moves_since_resumption = opening;
        if self.consecutive_passes < 2 {
            return;
        }
        if opening == Some(2) && self.rules.ending == Ending::PauseAgreeResume {
            // Both opening moves of a resumption were passes: the game ends with every stone
            // on the board alive, and White makes the last pass.
            self.phase = Phase::Ended;
            self.white_passes_last();
            return;
        }
        self.phase = match self.rules.ending {
            Ending::TwoPasses => Phase::Ended,
            Ending::PauseAgreeResume | Ending::PlayOn | Ending::Agreement => Phase::Paused,
        };
        if self.phase == Phase::Ended {
            // Play stops here for good: White passes last where the rules say so, as after
            // an agreement (AGA Rule 11: whenever play stops with Black's pass).
            self.white_passes_last();
        }
    }

    /// Where the rules say White passes last and Black made the last pass, White passes once
    /// more, handing over another pass stone.
    fn white_passes_last(&mut self) {
        if self.rules.white_passes_last == WhitePassesLast::Yes
            && self.last_passer == Some(Color::Black)
        {
            self.hand_pass_stone(Color::White);
            self.last_passer = Some(Color::White);
        }
    }

    fn agree(&mut self, dead: &[Point]) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused => {}
        }
        if dead.iter().any(|&p| self.board.get(p).is_none()) {
            return Verdict::Illegal(Reason::NoStone);
        }
        let removed = self.board.strings_through(dead);
        for &q in &removed {
            if let Some(color) = self.board.clear_point(q) {
                self.prisoners.dead[color.opponent().index()] += 1;
            }
        }
        self.phase = Phase::Ended;
        self.white_passes_last();
        Verdict::Legal {
            captured: removed,
            self_captured: Vec::new(),
        }
    }

    fn dispute(&mut self, mover: Option<Color>) -> Verdict {
        let resumes = matches!(self.rules.ending, Ending::PauseAgreeResume | Ending::PlayOn);
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused if !resumes => return Verdict::Illegal(Reason::NoResumption),
            Phase::Paused => {}
        }
        let by_rule = self.last_passer.map_or(self.to_move, Color::opponent);
        let first = match (self.rules.ending, mover) {
            (Ending::PlayOn, None) => {
                // No agreement on who moves: every stone on the board stays and is counted.
                // Play stops, so White passes last where the rules say so (AGA Rule 11).
                self.phase = Phase::Ended;
                self.white_passes_last();
                return Verdict::Legal {
                    captured: Vec::new(),
                    self_captured: Vec::new(),
                };
            }
            (Ending::PlayOn, Some(agreed)) => agreed,
            (_, Some(named)) if named != by_rule => return Verdict::Illegal(Reason::OutOfTurn),
            _ => by_rule,
        };
        self.phase = Phase::Resumed;
        self.consecutive_passes = 0;
        self.moves_since_resumption = Some(0);
        self.ko_ban = None;
        self.to_move = first;
        Verdict::Legal {
            captured: Vec::new(),
            self_captured: Vec::new(),
        }
    }

    /// Resignation ends the game at once, in any phase before the end and whoever is to move.
    fn resign(&mut self, color: Color) -> Verdict {
        if self.phase == Phase::Ended {
            return Verdict::Illegal(Reason::GameOver);
        }
        self.phase = Phase::Ended;
        self.resigned = Some(color);
        Verdict::Legal {
            captured: Vec::new(),
            self_captured: Vec::new(),
        }
    }

    fn play(&mut self, color: Color, point: Point, ko_shape: bool) -> Verdict {
        self.removed.clear();
        let removal = self.board.play(color, point, &mut self.removed);
        let captured_count = removal.captured as usize;
        let captured = self.removed[..captured_count].to_vec();
        let self_captured = self.removed[captured_count..].to_vec();
        self.prisoners.captures[color.index()] += removal.captured;
        self.prisoners.captures[color.opponent().index()] += removal.self_captured;
        self.ko_ban = if ko_shape {
            Some((color.opponent(), captured[0]))
        } else {
            None
        };
        self.consecutive_passes = 0;
        self.moves_since_resumption = self.moves_since_resumption.map(|m| m + 1);
        self.to_move = color.opponent();
        self.history
            .record(&self.board, self.to_move, Some(color), false);
        Verdict::Legal {
            captured,
            self_captured,
        }
    }
}

/// Places Black's handicap stones on a set-up board, checking what the rules require: at most
/// nine stones (and not exactly one), each on an empty point, and under fixed placement
/// exactly the fixed points for that number (in any order). A set-up with
/// `handicap_as_placed` may miss the fixed points; the fixed points are then returned.
fn place_handicap(
    board: &mut Board,
    rules: &Rules,
    setup: &Setup,
) -> Result<Option<Vec<Point>>, HandicapError> {
    let points = &setup.handicap[..];
    let mut misplaced = None;
    if points.is_empty() {
        return Ok(None);
    }
    if points.len() == 1 || points.len() > handicap::MAX_HANDICAP {
        return Err(HandicapError::Count(points.len()));
    }
    if rules.handicap_placement == HandicapPlacement::Fixed {
        let stones = u32::try_from(points.len()).unwrap_or(u32::MAX);
        let fixed = (board.width() == board.height())
            .then(|| handicap::fixed_points(handicap::Pattern::Traditional, board.width(), stones))
            .flatten();
        let Some(mut expected) = fixed else {
            return Err(HandicapError::NoFixedPlacement {
                size: format!("{}x{}", board.width(), board.height()),
                stones: points.len(),
            });
        };
        let mut given = points.to_vec();
        expected.sort();
        given.sort();
        if expected != given && setup.handicap_as_placed {
            misplaced = Some(expected);
        } else if expected != given {
            let names = |ps: &[Point]| {
                ps.iter()
                    .map(|p| p.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            return Err(HandicapError::NotFixed {
                stones: points.len(),
                expected: names(&expected),
                given: names(&given),
            });
        }
    }
    for (i, &p) in points.iter().enumerate() {
        if !board.contains(p) {
            return Err(HandicapError::OffBoard(p));
        }
        if points[..i].contains(&p) {
            return Err(HandicapError::Repeated(p));
        }
        if !board.set_stone(Color::Black, p) {
            return Err(HandicapError::Occupied(p));
        }
    }
    Ok(misplaced)
}
