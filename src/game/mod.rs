//! The reference executor: a game as a sequence of events, each given a verdict.
//!
//! [`Game::apply`] accepts any event in any state and never panics: a play on an occupied
//! point, out of turn, after the end, or against a ko rule gets an illegal verdict with a
//! reason, and the state is left exactly as it was. Legal events change the state.

pub mod counting;
mod event;
pub mod handicap;
mod history;
mod physical;
pub mod procedure;
mod setup;
pub mod status;
mod verdict;

pub use event::{Breach, Event, EventError};
pub use history::History;
pub use procedure::{Class, Refereed, Report, Ruling};
pub use setup::{HandicapError, Setup, SetupError, SetupHistory};
pub(crate) use verdict::from_word;
pub use verdict::{Reason, Verdict};

use std::fmt;
use std::str::FromStr;

use crate::board::{Board, Color, Move, Point, PointSet, QuietPlay, TurnPlays};
use crate::rules::{CycleOutcome, Ending, KoRule, PassStones, Rules, SuicideRule, WhitePassesLast};

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
    /// Play is stopped and the players confirm life and death by hypothetical play
    /// (`confirm-or-resume`, Japanese 1989 Article 7(2)): moves are made, under the
    /// confirmation's ko rule, and taken back when the players agree or dispute.
    Confirming,
    /// The game is over.
    Ended,
}

impl Phase {
    /// Every phase, in the order a game goes through them.
    pub const ALL: &'static [Phase] = &[
        Phase::Playing,
        Phase::Paused,
        Phase::Resumed,
        Phase::Confirming,
        Phase::Ended,
    ];

    /// The word scenarios and reports use for the phase.
    pub fn word(self) -> &'static str {
        match self {
            Phase::Playing => "playing",
            Phase::Paused => "paused",
            Phase::Resumed => "resumed",
            Phase::Confirming => "confirming",
            Phase::Ended => "ended",
        }
    }

    /// Whether moves are being made (first play, a resumption, or the hypothetical play of a
    /// confirmation).
    pub fn is_play(self) -> bool {
        matches!(self, Phase::Playing | Phase::Resumed | Phase::Confirming)
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
    /// How the game came out if a repetition ended it (`ko = simple-cycle-draw` or
    /// `simple-cycle-void`).
    cycled: Option<CycleOutcome>,
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
    /// During a confirmation (Article 7(2)): the stopped game it started from, put back when
    /// the confirmation ends, and the ko bans it has built up.
    confirmation: Option<Box<Confirmation>>,
    /// Where the fixed placement puts the handicap stones, when a set-up with
    /// `handicap_as_placed` put them elsewhere.
    fixed_handicap: Option<Vec<Point>>,
}

/// The state of a confirmation of life and death by hypothetical play (Japanese 1989,
/// Article 7(2)).
#[derive(Clone)]
struct Confirmation {
    /// The game as play stopped, to go back to.
    stopped: Box<Game>,
    /// The bans of the confirmation's ko rule, oldest first: `(player, retake, stone)`: the
    /// player may not retake at `retake` by capturing the single stone at `stone` that captured
    /// there, until the player passes for that ko. A pass lifts the passer's latest ban (the
    /// event cannot name a ko; a reading where several bans stand).
    bans: Vec<(Color, Point, Point)>,
}

impl fmt::Debug for Confirmation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Confirmation")
            .field("bans", &self.bans)
            .finish_non_exhaustive()
    }
}

/// A board play [`Game::judge_play`] found legal, waiting to be made. It holds the game
/// mutably, so the judgement still holds when [`JudgedPlay::play`] makes the play; dropping
/// it changes nothing.
#[must_use = "a judged play changes nothing until it is played"]
pub struct JudgedPlay<'g> {
    game: &'g mut Game,
    color: Color,
    point: Point,
}

impl<'g> JudgedPlay<'g> {
    /// The player making the play.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Where the stone goes.
    pub fn point(&self) -> Point {
        self.point
    }

    /// Makes the play: the verdict and the change of state are those of [`Game::apply`] with
    /// the same move.
    pub fn play(self) -> Verdict {
        let Removed {
            captured,
            self_captured,
        } = self.play_in_place();
        Verdict::Legal {
            captured: captured.to_vec(),
            self_captured: self_captured.to_vec(),
        }
    }

    /// Makes the play as [`JudgedPlay::play`] does, but lends what it removed from the game
    /// instead of building a verdict: a caller playing many moves (a playout, a fuzzer)
    /// allocates nothing a move.
    pub fn play_in_place(self) -> Removed<'g> {
        self.game.play(self.color, self.point)
    }
}

/// The stones a legal play removed, lent by the game until its next change: the verdict's
/// `captured` and `self_captured` without the copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removed<'g> {
    /// Opposing stones removed, in the order the board removed them.
    pub captured: &'g [Point],
    /// The mover's own stones removed (only where the rules allow self-capture).
    pub self_captured: &'g [Point],
}

/// The turn of the player to move, judged whole by [`Game::turn`]: its legal board plays,
/// one of which can be made without being judged again. It holds the game mutably, so the
/// judgement still holds when [`Turn::play`] makes a play; dropping it changes nothing.
#[must_use = "a judged turn changes nothing until a play is made"]
pub struct Turn<'g> {
    game: &'g mut Game,
    color: Color,
    legal: PointSet,
}

impl<'g> Turn<'g> {
    /// The player to move.
    pub fn color(&self) -> Color {
        self.color
    }

    /// Number of legal board plays.
    pub fn len(&self) -> usize {
        self.legal.len()
    }

    /// Whether no board play is legal (a pass always is while play goes on).
    pub fn is_empty(&self) -> bool {
        self.legal.is_empty()
    }

    /// Whether a board play at `point` is legal.
    pub fn contains(&self, point: Point) -> bool {
        self.game.board.contains(point) && self.legal.contains(point)
    }

    /// Calls `visit` with every legal board play, in the order of
    /// [`Game::each_legal_play`]: row 0 first, each row's columns in turn.
    pub fn for_each(&self, visit: impl FnMut(Point)) {
        self.legal.for_each(visit);
    }

    /// Makes the board play at `point` if it is one of the turn's legal plays, without judging
    /// it again: the change of state is that of [`Game::apply`] with the same move, and what
    /// it removed is lent as [`JudgedPlay::play_in_place`] lends it. Any other point is judged
    /// as [`Game::judge_play`] judges it, and its refusal given.
    pub fn play(self, point: Point) -> Result<Removed<'g>, Reason> {
        let Turn { game, color, legal } = self;
        if game.board.contains(point) && legal.contains(point) {
            return Ok(game.play(color, point));
        }
        let judged = game.judge_play(color, point)?;
        debug_assert!(false, "{point} is legal but was not listed");
        Ok(judged.play_in_place())
    }
}

/// A game's state saved by [`Game::mark`], for [`Game::rewind`] to put back: the undo record
/// of a search that makes a move, looks below it and takes it back (perft), instead of
/// copying the game for every move. Its buffers are reused from one mark to the next.
#[derive(Clone, Debug, Default)]
pub struct Mark {
    board: crate::board::BoardMark,
    to_move: Option<Color>,
    phase: Option<Phase>,
    prisoners: Prisoners,
    resigned: Option<Color>,
    consecutive_passes: u32,
    moves_since_resumption: Option<u32>,
    last_passer: Option<Color>,
    ko_ban: Option<(Color, Point)>,
    history_len: usize,
    confirmation: Option<Box<Confirmation>>,
}

impl Game {
    /// Starts a game from a set-up.
    pub fn new(rules: Rules, setup: &Setup) -> Result<Game, SetupError> {
        Game::new_in(rules, setup, None)
    }

    /// [`Game::new`], built in the board and history of a game no longer wanted, so that a
    /// new game takes no allocation and fills no array it does not need: a harness starts a
    /// game for every trial. The game is the same as [`Game::new`] makes in every respect.
    pub fn new_reusing(rules: Rules, setup: &Setup, spare: Game) -> Result<Game, SetupError> {
        Game::new_in(rules, setup, Some(spare))
    }

    fn new_in(rules: Rules, setup: &Setup, spare: Option<Game>) -> Result<Game, SetupError> {
        // Simple ko looks back one position only, through `ko_ban`: its history just counts.
        let count_only = rules.ko == KoRule::Simple;
        let (mut board, mut history) = match spare {
            None => (
                Board::new(setup.width, setup.height)?,
                if count_only {
                    History::count_only()
                } else {
                    History::new()
                },
            ),
            Some(spare) => {
                let mut board = spare.board;
                board.reset(setup.width, setup.height)?;
                (board, spare.history.reused(count_only))
            }
        };
        for &(p, c) in &setup.stones {
            if !board.set_stone(c, p) {
                return Err(SetupError::BadStone(p));
            }
        }
        let fixed_handicap = setup::place_handicap(&mut board, &rules, setup)?;
        if let Some(p) = board.string_without_liberty() {
            return Err(SetupError::NoLiberty(p));
        }
        let to_move = if setup.handicap.is_empty() {
            setup.to_move
        } else {
            Color::White
        };
        if setup.history == SetupHistory::Played {
            history.record(&mut board, to_move, Some(to_move.opponent()));
        }
        Ok(Game {
            rules,
            board,
            to_move,
            phase: Phase::Playing,
            prisoners: Prisoners::default(),
            handicap: u32::try_from(setup.handicap.len()).unwrap_or(u32::MAX),
            resigned: None,
            cycled: None,
            consecutive_passes: 0,
            moves_since_resumption: None,
            last_passer: None,
            ko_ban: None,
            history,
            removed: Vec::new(),
            confirmation: None,
            fixed_handicap,
        })
    }

    /// Saves the state of the game into `mark`, for [`Game::rewind`].
    pub fn mark(&self, mark: &mut Mark) {
        self.board.save(&mut mark.board);
        mark.to_move = Some(self.to_move);
        mark.phase = Some(self.phase);
        mark.prisoners = self.prisoners;
        mark.resigned = self.resigned;
        mark.consecutive_passes = self.consecutive_passes;
        mark.moves_since_resumption = self.moves_since_resumption;
        mark.last_passer = self.last_passer;
        mark.ko_ban = self.ko_ban;
        mark.history_len = self.history.len();
        mark.confirmation.clone_from(&self.confirmation);
    }

    /// Takes back every event applied since `mark` was saved from this game: the game is then
    /// what it was, its repetition history included, and judges every event as it did.
    ///
    /// # Panics
    /// If `mark` was never filled by [`Game::mark`] or comes from a game of another size.
    pub fn rewind(&mut self, mark: &Mark) {
        self.board.restore(&mark.board);
        self.to_move = mark.to_move.expect("a mark filled by Game::mark");
        self.phase = mark.phase.expect("a mark filled by Game::mark");
        self.prisoners = mark.prisoners;
        self.resigned = mark.resigned;
        self.consecutive_passes = mark.consecutive_passes;
        self.moves_since_resumption = mark.moves_since_resumption;
        self.last_passer = mark.last_passer;
        self.ko_ban = mark.ko_ban;
        self.history.truncate(mark.history_len);
        self.removed.clear();
        self.confirmation.clone_from(&mark.confirmation);
    }

    /// The rules the game is played under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The position on the board.
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The player whose turn it is.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Who passed last, White's extra pass at the end included (AGA Rule 11): how a record
    /// writer knows that White passed once more than the players' own moves show.
    pub fn last_passer(&self) -> Option<Color> {
        self.last_passer
    }

    /// Where the game stands.
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

    /// How the game came out if a repetition ended it: a play that recreated a position that
    /// stood before with the same player to move, under a ko rule that ends the game there.
    pub fn cycled(&self) -> Option<CycleOutcome> {
        self.cycled
    }

    /// The count of the position as it stands: stones agreed dead have already left the
    /// board, and nothing else is removed. Meaningful as a final score once the game has
    /// ended by passes or agreement; a resigned game has no count (see [`Game::result`]).
    pub fn count(&self) -> counting::Count {
        counting::count(&self.board, &self.rules, self.prisoners, &[], self.handicap)
    }

    /// The result in SGF `RE` form: `B+R`/`W+R` after a resignation, `0` or `Void` after a
    /// repetition that ended the game, otherwise the result of [`Game::count`].
    pub fn result(&self) -> String {
        match (self.resigned, self.cycled) {
            (Some(loser), _) => format!("{}+R", loser.opponent().letter()),
            (None, Some(outcome)) => outcome.result().to_string(),
            (None, None) => self.count().result(),
        }
    }

    /// Number of positions in the repetition history.
    pub fn history_len(&self) -> usize {
        self.history.len()
    }

    /// Judges a board play by `color` at `point` as if it were `color`'s turn, without
    /// changing anything. This is the question GTP's `is_legal` asks.
    #[inline]
    pub fn check_play(&self, color: Color, point: Point) -> Result<(), Reason> {
        self.judge(color, point)
    }

    /// Every point where a board play by `color` is legal (judged as [`Game::check_play`]
    /// judges it), in the order of rows: row 0 first, each row's columns in turn. The same
    /// verdicts as a call of `check_play` for each point, found in one pass over the board:
    /// a play that captures nothing and keeps its stone is legal unless it is the banned ko
    /// retake or makes a position with the hash of one the ko rule compares it with, and the
    /// few such positions are found from the history's positions with the stone counts it
    /// would make ([`History::each_candidate`]), not by a look-up for each point; most points
    /// are sorted a word of the board at a time ([`Board::turn_plays`]). Such a point, a play
    /// that captures where some recorded position has the stone counts a capture could leave
    /// ([`History::may_repeat_after_capture`]), and one whose stone would be lost are judged
    /// by `check_play` itself; so is every point outside plain play (a paused or ended game,
    /// the confirmation of the end).
    #[inline]
    pub fn each_legal_play(&self, color: Color, visit: impl FnMut(Point)) {
        self.legal_set(color).for_each(visit);
    }

    /// The points of [`Game::each_legal_play`], as a set.
    #[inline]
    fn legal_set(&self, color: Color) -> PointSet {
        let (width, height) = (self.board.width(), self.board.height());
        if !matches!(self.phase, Phase::Playing | Phase::Resumed) || self.confirmation.is_some() {
            let mut legal = self.board.point_set();
            for row in 0..height {
                for col in 0..width {
                    let point = Point::new(col, row);
                    if self.check_play(color, point).is_ok() {
                        legal.insert(point);
                    }
                }
            }
            return legal;
        }
        let stones = self.board.stone_counts();
        // Plays that capture are kept apart only where one could repeat a recorded position:
        // under a superko, and only if some recorded position has one stone more of the
        // mover's and fewer of the opponent's (one load). Otherwise a capture, which keeps its
        // stone, is judged as any play that keeps its stone. Sorted in place, without copying
        // the sets.
        let captures_apart = self.rules.ko.forbids_repetition()
            && self.history.may_repeat_after_capture(color, stones);
        let mut plays = self.board.turn_plays(color, captures_apart);
        let TurnPlays {
            keeps: legal,
            captures,
            lost: whole,
        } = &mut plays;
        // `whole`: the points `check_play` judges. Where the stone would be lost, unless that
        // settles it (self-capture forbidden: suicide), and those added below.
        if self.rules.suicide == SuicideRule::Forbidden {
            whole.clear();
        }
        // Under the simple ko rules, a play that keeps its stone is legal unless the game bans
        // it as a ko retake. Under a superko, a play that also captures nothing is legal unless
        // it is that retake or makes a position with the hash of one the history holds with
        // the stone counts it would make; a play that captures is legal unless it is that
        // retake or some recorded position has the stone counts a capture could leave.
        if let Some((banned, point)) = self.ko_ban {
            if banned == color && (legal.remove(point) | captures.remove(point)) {
                whole.insert(point);
            }
        }
        let mut stones_after = stones;
        stones_after[color.index()] += 1;
        self.history
            .each_candidate(self.rules.ko, color, stones_after, |hash| {
                if let Some(point) = self.board.point_hashing_to(hash, color) {
                    if legal.remove(point) {
                        whole.insert(point);
                    }
                }
            });
        // Kept apart only where some capture could repeat a recorded position.
        whole.extend(captures);
        whole.for_each(|point| {
            if self.check_play(color, point).is_ok() {
                legal.insert(point);
            }
        });
        plays.keeps
    }

    /// The turn of the player to move, judged whole: its legal board plays, found as
    /// [`Game::each_legal_play`] finds them, any one of which [`Turn::play`] makes without
    /// judging it again. What a player drawing among all the legal plays needs (a uniform
    /// random playout): one judgement of the turn, where listing it and then making the drawn
    /// play through [`Game::judge_play`] judges that play twice.
    pub fn turn(&mut self) -> Turn<'_> {
        let color = self.to_move;
        let legal = self.legal_set(color);
        Turn {
            game: self,
            color,
            legal,
        }
    }

    /// [`Game::each_legal_play`] collected.
    pub fn legal_plays(&self, color: Color) -> Vec<Point> {
        let mut plays = Vec::new();
        self.each_legal_play(color, |p| plays.push(p));
        plays
    }

    /// Judges a board play by `color` at `point` exactly as [`Game::apply`] would (the phase,
    /// the turn, then the board and the ko rule) and, if it is legal, hands back the judgement
    /// so that the play can be made without judging it again. The judgement borrows the game,
    /// so nothing can change between the judgement and the play it allows.
    #[inline]
    pub fn judge_play(&mut self, color: Color, point: Point) -> Result<JudgedPlay<'_>, Reason> {
        self.may_move(color)?;
        self.judge(color, point)?;
        Ok(JudgedPlay {
            game: self,
            color,
            point,
        })
    }

    /// Whether moves are being made: not paused and not over.
    fn in_play(&self) -> Result<(), Reason> {
        match self.phase {
            Phase::Playing | Phase::Resumed | Phase::Confirming => Ok(()),
            Phase::Paused => Err(Reason::GamePaused),
            Phase::Ended => Err(Reason::GameOver),
        }
    }

    /// Whether `color` may make a move now: play goes on and it is `color`'s turn.
    fn may_move(&self, color: Color) -> Result<(), Reason> {
        self.in_play()?;
        if color != self.to_move {
            return Err(Reason::OutOfTurn);
        }
        Ok(())
    }

    /// [`Game::check_play`] without the turn: the open point's short judgement inline where
    /// it settles the play, the whole judgement out of line where it does not.
    #[inline(always)]
    fn judge(&self, color: Color, point: Point) -> Result<(), Reason> {
        match self.judge_open(color, point) {
            Some(verdict) => verdict,
            None => self.judge_fully(color, point),
        }
    }

    /// The judgement of the commonest play, small enough to inline into a caller's loop: the
    /// game in play, and a point on the board, empty, with an empty neighbour. Such a play
    /// keeps its stone, so suicide is out, and under simple ko the ko ban settles it (one load:
    /// [`Board::is_next_to_empty`]). Under the other rules a play that is not a basic ko's
    /// retake repeats nothing if no recorded position has one stone more of the mover's and
    /// at most as many of the opponent's, the counts any such play leaves whatever it
    /// captures (one load: [`History::may_repeat_keeping`]); failing that, if the point also
    /// has no opposing neighbour (one load: [`Board::is_open`]), the play captures nothing
    /// and repeats nothing when no recorded position has exactly the counts it leaves
    /// ([`History::may_repeat`]). `None` where the full judgement ([`Game::judge_fully`]) must
    /// decide; its verdict is always that one.
    #[inline(always)]
    fn judge_open(&self, color: Color, point: Point) -> Option<Result<(), Reason>> {
        if !matches!(self.phase, Phase::Playing | Phase::Resumed) {
            return None;
        }
        let is_ko_retake = self.ko_ban == Some((color, point));
        if self.rules.ko == KoRule::Simple {
            if !self.board.is_next_to_empty(point) {
                return None;
            }
            return Some(if is_ko_retake {
                Err(Reason::Ko)
            } else {
                Ok(())
            });
        }
        if is_ko_retake || !self.board.is_next_to_empty(point) {
            return None;
        }
        let stones = self.board.stone_counts();
        // Whatever it captures, the play leaves the mover one stone more and the opponent no
        // more than now: if no recorded position has such counts, it repeats nothing.
        if !self.history.may_repeat_keeping(color, stones) {
            return Some(Ok(()));
        }
        if !self.board.is_open(color, point) {
            return None;
        }
        let mut stones_after = stones;
        stones_after[color.index()] += 1;
        if self.history.may_repeat(stones_after) {
            return None;
        }
        Some(Ok(()))
    }

    /// The whole judgement of [`Game::judge`], out of line.
    #[inline(never)]
    fn judge_fully(&self, color: Color, point: Point) -> Result<(), Reason> {
        self.in_play()?;
        if self.confirmation.is_some() && self.confirmation_bans(color, point) {
            return Err(Reason::Ko);
        }
        if self.rules.ko == KoRule::Simple {
            // No repetition to look up, so no hash is needed: whether the stone stays on the
            // board settles suicide, then the ban settles ko (the order of the full judgement
            // below). Self-capture where the rules allow some goes through the preview, which
            // counts the stones it would remove.
            match self.board.keeps_stone(color, point) {
                None => return Err(Reason::Occupied),
                Some(true) if self.ko_ban == Some((color, point)) => return Err(Reason::Ko),
                Some(true) => return Ok(()),
                Some(false) if self.rules.suicide == SuicideRule::Forbidden => {
                    return Err(Reason::Suicide)
                }
                Some(false) => {}
            }
        } else {
            // A play that captures nothing (most plays) needs no preview: its hash is the
            // board's with its stone's key, and the checks below, in their order, reduce to
            // these (no stone is removed, so no self-capture rule is met).
            match self.board.quiet_play(color, point) {
                None => return Err(Reason::Occupied),
                Some(QuietPlay::Keeps { hash_after }) => {
                    return self.judge_repetition(color, point, hash_after, 1, 0)
                }
                Some(QuietPlay::Lost) if self.rules.suicide == SuicideRule::Forbidden => {
                    return Err(Reason::Suicide)
                }
                // A play that captures keeps its stone; if no recorded position has the counts
                // a capture could leave, it repeats nothing, and only the ban on a basic ko's
                // retake is left to judge (the first check of `judge_repetition`), without a
                // preview.
                Some(QuietPlay::Captures)
                    if !self
                        .history
                        .may_repeat_after_capture(color, self.board.stone_counts()) =>
                {
                    return self.judge_basic_ko(color, point);
                }
                Some(QuietPlay::Lost | QuietPlay::Captures) => {}
            }
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
        self.judge_repetition(
            color,
            point,
            preview.hash_after,
            1 - i64::from(preview.self_captured),
            -i64::from(preview.captured),
        )
    }

    /// The ban on a basic ko's retake, where the ko rule has one: the first check of
    /// [`Game::judge_repetition`], and all that is left to judge of a play that keeps its
    /// stone when no recorded position could be repeated.
    #[inline(always)]
    fn judge_basic_ko(&self, color: Color, point: Point) -> Result<(), Reason> {
        if self.ko_ban == Some((color, point)) && self.rules.ko.bans_basic_ko() {
            return Err(Reason::Ko);
        }
        Ok(())
    }

    /// The end of [`Game::judge`] for a play that keeps a stone on the board (or removes only
    /// what the self-capture rule allows) and makes a position of hash `hash_after`, changing
    /// the mover's stones by `own_change` and the opponent's by `foe_change`: the ban on a
    /// basic ko's retake, then the repetition the ko rule forbids.
    #[inline(always)]
    fn judge_repetition(
        &self,
        color: Color,
        point: Point,
        hash_after: u64,
        own_change: i64,
        foe_change: i64,
    ) -> Result<(), Reason> {
        self.judge_basic_ko(color, point)?;
        let is_ko_retake = self.ko_ban == Some((color, point));
        let mut stones_after = [0; 2];
        for (c, change) in [(color, own_change), (color.opponent(), foe_change)] {
            // Stone counts stay within the board's area, so neither sum leaves u32.
            stones_after[c.index()] = (i64::from(self.board.stone_count(c)) + change) as u32;
        }
        let repeats = self
            .history
            .repeats(self.rules.ko, color, hash_after, stones_after, || {
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
        Ok(())
    }

    /// Judges an event and, if it is legal, applies it.
    pub fn apply(&mut self, event: Event) -> Verdict {
        let (color, mv) = match event {
            Event::Move(color, mv) => (color, mv),
            Event::Dispute(mover) => return self.dispute(mover),
            Event::Confirm(first) => return self.confirm(first),
            Event::Agree(dead) => return self.agree(&dead),
            Event::Resign(color) => return self.resign(color),
            // The plain executor keeps no record to rule on: see procedure::Refereed.
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..) => {
                return Verdict::Illegal(Reason::NoProcedure)
            }
        };
        match mv {
            Move::Pass => match self.may_move(color) {
                Err(reason) => Verdict::Illegal(reason),
                Ok(()) => {
                    self.pass(color);
                    Verdict::Legal {
                        captured: Vec::new(),
                        self_captured: Vec::new(),
                    }
                }
            },
            Move::Play(point) => match self.judge_play(color, point) {
                Err(reason) => Verdict::Illegal(reason),
                Ok(judged) => judged.play(),
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
        if let Some(confirmation) = &mut self.confirmation {
            // A pass in the confirmation is a pass for a ko: it lifts the passer's latest ban
            // (Article 7(2)) and nothing else; passes stop nothing here.
            if let Some(i) = confirmation.bans.iter().rposition(|b| b.0 == color) {
                confirmation.bans.remove(i);
            }
            self.ko_ban = None;
            self.to_move = color.opponent();
            self.last_passer = Some(color);
            self.history.record(&mut self.board, self.to_move, None);
            return;
        }
        self.hand_pass_stone(color);
        self.ko_ban = None;
        self.to_move = color.opponent();
        self.last_passer = Some(color);
        self.history.record(&mut self.board, self.to_move, None);
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
            Ending::PauseAgreeResume
            | Ending::PlayOn
            | Ending::Agreement
            | Ending::ResumeOnRequest
            | Ending::ConfirmOrResume => Phase::Paused,
        };
        if self.phase == Phase::Ended {
            // Play stops here for good: White passes last where the rules say so, as after
            // an agreement (AGA Rule 11: whenever play stops with Black's pass).
            self.white_passes_last();
        } else if self.rules.white_passes_last == WhitePassesLast::AtStop
            && self.last_passer == Some(Color::Black)
        {
            // The AGA summary's timing: White's extra pass at the stop itself, before any
            // dispute, so Black has the move if play resumes.
            self.white_passes_last();
            self.to_move = Color::Black;
            self.history.record(&mut self.board, Color::Black, None);
        }
    }

    /// Where the rules say White passes last and Black made the last pass, White passes once
    /// more, handing over another pass stone. That pass is a move of White's like any other, so
    /// the turn goes to Black: under these rules a stopped game always has Black to move (the
    /// question an engine author met in the fuzzer, pinned by the scenario
    /// `whites-extra-pass-hands-the-turn-to-black`).
    fn white_passes_last(&mut self) {
        if self.rules.white_passes_last != WhitePassesLast::No
            && self.last_passer == Some(Color::Black)
        {
            self.hand_pass_stone(Color::White);
            self.last_passer = Some(Color::White);
            self.to_move = Color::Black;
        }
    }

    /// Whether the confirmation's ko rule forbids `color`'s play at `point`: a ban stands on
    /// retaking there, and the play would retake, capturing the single stone that captured
    /// there, in a ko shape.
    fn confirmation_bans(&self, color: Color, point: Point) -> bool {
        let Some(confirmation) = &self.confirmation else {
            return false;
        };
        confirmation.bans.iter().any(|&(banned, retake, stone)| {
            banned == color
                && retake == point
                && self.board.get(stone) == Some(color.opponent())
                && self.board.string(stone).len() == 1
                && self.board.liberties(stone) == 1
                && self
                    .board
                    .preview(color, point)
                    .is_some_and(|preview| preview.ko_shape)
        })
    }

    /// Japanese 1989, Article 7(2): during the stop, the players confirm life and death by
    /// hypothetical play from the stopped position, `first` moving first. A confirmation under
    /// way is taken back and a new one starts.
    fn confirm(&mut self, first: Color) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming if !self.rules.ending.confirms() => {
                return Verdict::Illegal(Reason::NoConfirmation)
            }
            Phase::Paused | Phase::Confirming => {}
        }
        self.back_to_the_stop();
        let stopped = Box::new(self.clone());
        self.confirmation = Some(Box::new(Confirmation {
            stopped,
            bans: Vec::new(),
        }));
        self.phase = Phase::Confirming;
        self.ko_ban = None;
        self.to_move = first;
        Verdict::Legal {
            captured: Vec::new(),
            self_captured: Vec::new(),
        }
    }

    /// Forgets the standing bans of a confirmation's ko rule (Article 7(2)), leaving only the
    /// simple-ko ban of the last move: what a broken executor does (the mutant
    /// `confirmation-ko-as-simple-ko`). No rule calls for it.
    #[doc(hidden)]
    pub fn forget_confirmation_bans(&mut self) {
        if let Some(confirmation) = &mut self.confirmation {
            confirmation.bans.clear();
        }
    }

    /// Ends a confirmation, if one is under way: the game is put back as play stopped.
    fn back_to_the_stop(&mut self) {
        if let Some(confirmation) = self.confirmation.take() {
            *self = *confirmation.stopped;
        }
    }

    fn agree(&mut self, dead: &[Point]) -> Verdict {
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming => {}
        }
        // The confirmation's moves were hypothetical: the dead stones are those of the
        // position where play stopped.
        let stopped = self
            .confirmation
            .as_ref()
            .map_or(&self.board, |c| &c.stopped.board);
        if dead.iter().any(|&p| stopped.get(p).is_none()) {
            return Verdict::Illegal(Reason::NoStone);
        }
        self.back_to_the_stop();
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
        let resumes = self.rules.ending.resumes();
        match self.phase {
            Phase::Ended => return Verdict::Illegal(Reason::GameOver),
            Phase::Playing | Phase::Resumed => return Verdict::Illegal(Reason::NotPaused),
            Phase::Paused | Phase::Confirming if !resumes => {
                return Verdict::Illegal(Reason::NoResumption)
            }
            Phase::Paused | Phase::Confirming => {}
        }
        // A resumption starts from the position where play stopped, not from a confirmation's
        // hypothetical moves.
        self.back_to_the_stop();
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
            // Japanese 1989, Article 9(3): either player may ask, and the other moves first,
            // so a dispute may name either player; a plain dispute keeps the turn.
            (Ending::ResumeOnRequest | Ending::ConfirmOrResume, Some(first)) => first,
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

    fn play(&mut self, color: Color, point: Point) -> Removed<'_> {
        self.removed.clear();
        let removal = self.board.play(color, point, &mut self.removed);
        self.prisoners.captures[color.index()] += removal.captured;
        self.prisoners.captures[color.opponent().index()] += removal.self_captured;
        self.ko_ban = if removal.ko_shape {
            Some((color.opponent(), self.removed[0]))
        } else {
            None
        };
        if let (Some(confirmation), true) = (&mut self.confirmation, removal.ko_shape) {
            // Article 7(2): the ban on retaking this ko lasts until the player passes for it.
            confirmation
                .bans
                .push((color.opponent(), self.removed[0], point));
        }
        self.consecutive_passes = 0;
        self.moves_since_resumption = self.moves_since_resumption.map(|m| m + 1);
        self.to_move = color.opponent();
        if let Some(outcome) = self.rules.ko.cycle_outcome() {
            // A repetition: this play recreates a position that stood before with the same
            // player to move, so the players have gone once round a cycle, which ends the
            // game under this ko rule.
            let board = &self.board;
            let stones = board.stone_counts();
            if self
                .history
                .repeats(KoRule::Situational, color, board.hash(), stones, || {
                    board.clone()
                })
            {
                self.cycled = Some(outcome);
                self.phase = Phase::Ended;
            }
        }
        self.history
            .record(&mut self.board, self.to_move, Some(color));
        let (captured, self_captured) = self.removed.split_at(removal.captured as usize);
        Removed {
            captured,
            self_captured,
        }
    }
}
