//! Judging a game record under a ruleset: the first move that breaks a rule, the count, and
//! whether the recorded result agrees with it.
//!
//! The record's moves go through the reference executor exactly as a scenario's do. Two things
//! a record leaves implicit are made explicit here, and reported:
//! - play that goes on after two passes: under rules whose ending resumes play after a
//!   dispute, the players evidently disputed, so a dispute is applied before the next move
//!   (and the move must then be the one the rules give the first turn to);
//! - the end: where play stopped with two passes, the record's territory marks (`TB`/`TW`)
//!   are the agreement on dead stones, applied as an agreement (so White passes last where
//!   the rules say so). Where play stopped otherwise, the position is counted as it stands.
//!
//! A counted `RE` is then classified: it **agrees** when the count with the recorded dead
//! stones (none, without marks) gives it; it is **consistent** when some other choice of dead
//! stones among the groups that could be dead gives it (the choice is reported) and no choice
//! gives the other winner, every choice counted; it **disagrees** when no such choice does; it
//! is **not checkable** when there is nothing to count (a resignation, time, an illegal move,
//! a game that did not end on the board), when choices give either winner, or when there are
//! too many groups to count every choice. Where dead stones are in doubt, the judgement holds
//! a [`Doubt`]: the groups, the choices that give `RE`, and what the plausible choice
//! ([`plausibly_dead`]) gives, so that a verdict can be checked by hand.
//! Under rules that end on two passes (Tromp-Taylor) nothing is ever removed, and after the
//! four-pass end of the AGA-style procedure every stone is alive, so there the count is the
//! position as it stands and no other choice exists.
//! "Could be dead" is a group (strings of one colour joined by empty regions only they
//! border) without two such regions: a group with two eyes is never offered as dead.

use std::collections::BTreeSet;

use crate::board::{Board, Color, Move, Point};
use crate::game::counting::{self, Count};
use crate::game::{Event, Game, Phase, Reason, Verdict};
use crate::rules::{Ending, HandicapPlacement, Rules};
use crate::spec::Spec;

use super::{Record, RecordedResult};

/// At most this many groups that could be dead are tried in every combination (2^n counts).
pub const MAX_SEARCHED_GROUPS: usize = 10;

/// What a move that breaks a rule most likely is, when it is an artifact of how the record was
/// written rather than a move anyone played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Artifact {
    /// A second move in a row by one colour: a pass went unrecorded.
    MissingPass,
    /// A play on a point holding the mover's own stone: a pass written as a play.
    OwnStone,
    /// White moves first in an even game (no `PL`, no handicap): the record starts with
    /// White's reply, or the colours are swapped.
    WhiteOpens,
    /// Black moves in a row before White's first in a handicap game: the handicap stones
    /// written as moves.
    OpeningStones,
}

impl Artifact {
    /// One word for tables and machines.
    pub fn word(self) -> &'static str {
        match self {
            Artifact::MissingPass => "missing-pass",
            Artifact::OwnStone => "own-stone",
            Artifact::WhiteOpens => "white-opens",
            Artifact::OpeningStones => "opening-stones",
        }
    }

    /// The repair the artifact implies.
    pub fn repair(self) -> &'static str {
        match self {
            Artifact::MissingPass | Artifact::WhiteOpens | Artifact::OpeningStones => {
                "a pass by the other player inserted before it"
            }
            Artifact::OwnStone => "read as a pass",
        }
    }
}

/// What `--repair` does to a record, in the words `judge` and `score` both report it with.
pub const REPAIRS: &str = "a missing pass inserted, a play on one's own stone read as a pass";

/// A move of a record that breaks a rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// 1-based move number in the record.
    pub move_number: usize,
    /// Who made the move.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// Why the rules refuse it.
    pub reason: Reason,
    /// Where the move is written (line, column).
    pub position: super::Position,
    /// The clauses of the ruleset's documents behind the reason.
    pub clauses: Vec<String>,
    /// What the move most likely is if it is an artifact of the record, not a move played.
    pub artifact: Option<Artifact>,
    /// How the replay went on past it.
    pub went_on: &'static str,
}

/// How to judge: what the command line adds to the record.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JudgeOptions {
    /// Apply the repair each record artifact implies ([`Artifact::repair`]) and judge the count
    /// of a record whose only violations are artifacts.
    pub repair: bool,
    /// The komi to judge under, whatever `KM` says (or where the record has none).
    pub komi: Option<crate::rules::Komi>,
}

/// How a recorded result compares with the count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ResultCheck {
    /// The count with the recorded dead stones (none without territory marks) gives `RE`.
    Agrees,
    /// Another choice of dead stones gives `RE`: these.
    Consistent {
        /// The dead stones that give it.
        dead: Vec<Point>,
    },
    /// No choice of dead stones among the groups that could be dead gives `RE`.
    Disagrees,
    /// Nothing to compare, and why.
    NotCheckable(String),
}

impl ResultCheck {
    /// One word for tables and machines.
    pub fn word(&self) -> &'static str {
        match self {
            ResultCheck::Agrees => "agrees",
            ResultCheck::Consistent { .. } => "consistent",
            ResultCheck::Disagrees => "disagrees",
            ResultCheck::NotCheckable(_) => "not-checkable",
        }
    }
}

/// A record judged under one ruleset.
#[derive(Clone, Debug)]
pub struct Judgement {
    /// The ruleset's name.
    pub ruleset: String,
    /// How many of the record's moves were played before the first violation (all of them
    /// when there is none).
    pub moves_played: usize,
    /// The first move that breaks a rule, if any.
    pub violation: Option<Violation>,
    /// Every move that breaks a rule, in order: the replay goes on past each (see
    /// [`Violation::went_on`]).
    pub violations: Vec<Violation>,
    /// Where the replay could not go on (a move after the game ended, or after a pause the
    /// rules do not resume): the move number; the moves from there are not judged.
    pub stopped_at: Option<usize>,
    /// Why the record was not judged at all (its set-up, or a set-up after a move, is one the
    /// rules cannot start from); `None` when it was judged.
    pub not_judged: Option<String>,
    /// Move numbers before which play resumed after two passes (an implied dispute).
    pub resumptions: Vec<usize>,
    /// Whether play stopped with two passes in a row.
    pub ended_by_passes: bool,
    /// The count with the recorded dead stones (none where the record marks none); for a game
    /// stopped without two passes, the position as it stands (as `score` counts it), which no
    /// verdict is given on. `None` after a resignation, a replay that stopped early, or a
    /// set-up after a move.
    pub count: Option<Count>,
    /// The dead stones the count used.
    pub dead: Vec<Point>,
    /// How `RE` compares with the count.
    pub check: ResultCheck,
    /// What the reader of the report should know about how the record was taken (komi, repairs).
    pub notes: Vec<String>,
    /// Where the count was judged with stones whose status the position leaves in doubt and
    /// the recorded dead stones do not give `RE`: the groups in doubt, the choices of them
    /// that give `RE`, and what the plausible choice gives.
    pub doubt: Option<Doubt>,
}

/// The dead stones in doubt behind a count: every group that could be dead, which choices of
/// them give the recorded result, and the result of the one plausible choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doubt {
    /// The groups in doubt (fewer than two eyes), in reading order of their first stone:
    /// colour and stones (sorted). Choices name them by index, from 0.
    pub groups: Vec<(Color, Vec<Point>)>,
    /// Whether every choice (2^n) was counted; otherwise only the additive search ran.
    pub every_choice: bool,
    /// How many choices were counted (2^n, or 0 where not every one was).
    pub choices: u64,
    /// How many of them give the recorded result (every choice counted), or how many were
    /// found (0 or 1) by the additive search.
    pub giving_recorded: u64,
    /// The first of them, fewest groups first (at most [`LISTED_CHOICES`]).
    pub listed: Vec<Vec<usize>>,
    /// How many give the same margin to the other winner (every choice counted only).
    pub giving_other: u64,
    /// The plausible choice ([`plausibly_dead`]) and the result it gives.
    pub plausible: Vec<usize>,
    /// The result the plausible choice gives.
    pub plausible_result: String,
}

/// How many of the choices that give the recorded result a report lists.
pub const LISTED_CHOICES: usize = 5;

impl Judgement {
    /// Whether a move breaks a rule that is not a record artifact.
    pub fn has_rule_violation(&self) -> bool {
        self.violations.iter().any(|v| v.artifact.is_none())
    }
}

/// The rules a record is judged under: the ruleset with the record's komi (even and handicap
/// komi both), and a free handicap placement when the record places its own stones (the
/// record shows where they went, which the players agreed to).
pub fn rules_for(record: &Record, rules: Rules) -> Rules {
    rules_with_komi(record, rules, None)
}

/// [`rules_for`] with the komi given on the command line, if any, in place of `KM`.
pub fn rules_with_komi(
    record: &Record,
    mut rules: Rules,
    komi: Option<crate::rules::Komi>,
) -> Rules {
    if let Some(komi) = komi.or(record.komi.as_ref().map(|k| k.komi)) {
        rules.komi = komi;
        rules.handicap_komi = komi;
    }
    if !record.setup.handicap.is_empty() {
        rules.handicap_placement = HandicapPlacement::Free;
    }
    rules
}

/// A violation met in a replay: move number, who, the move, the reason, the artifact it most
/// likely is, and how the replay went on past it.
pub type ReplayedViolation = (usize, Color, Move, Reason, Option<Artifact>, &'static str);

/// The game after a record's moves, with what happened on the way.
pub struct Replay {
    /// The game after the moves played.
    pub game: Game,
    /// How many moves were played before the first violation (all of them when there is none).
    pub moves_played: usize,
    /// The first violation: its move number (from 1), who made it, the move and the reason.
    pub violation: Option<(usize, Color, Move, Reason)>,
    /// Every violation, in order: move number, who, the move, the reason, the artifact it
    /// most likely is, and how the replay went on past it.
    pub violations: Vec<ReplayedViolation>,
    /// The move number where the replay could not go on, if it stopped early.
    pub stopped_at: Option<usize>,
    /// Move numbers before which play resumed after two passes (an implied dispute).
    pub resumptions: Vec<usize>,
    /// Whether a set-up after a move restarted the game from a new position (prisoners
    /// taken before it are then not in the game's count).
    pub restarted: bool,
}

/// Plays a record's moves under `rules` (already adjusted by [`rules_for`]), going on past
/// every move that breaks a rule as [`replay_with`] does without repairs.
pub fn replay(record: &Record, rules: Rules) -> Result<Replay, String> {
    replay_with(record, rules, false)
}

/// Plays a record's moves under `rules`, with a dispute before a move that follows two
/// passes (play resumed, so the players did not agree): where the dispute itself is refused
/// (the rules do not resume play, or the game is over), the move after it is a violation, for
/// the dispute's reason, and the replay stops there. A set-up after a move
/// ([`super::SetupChange`]) restarts the game from the position with the change applied.
///
/// The replay goes on past any other move that breaks a rule, so that every violation is
/// listed: a move out of turn is played as written (with `repair`, a pass by the other player
/// is inserted before it, where that pass does not pause play), a play on the mover's own
/// stone is read as a pass (with `repair`) or left off the board, and any other refused move
/// is left off the board with the next move taken whoever makes it.
/// `Err` is a set-up the rules cannot start from.
pub fn replay_with(record: &Record, rules: Rules, repair: bool) -> Result<Replay, String> {
    let mut game =
        Game::new(rules, &record.setup).map_err(|e| format!("the set-up is refused: {e}"))?;
    let mut resumptions = Vec::new();
    let mut violations = Vec::new();
    let mut changes = record.setup_changes.iter().peekable();
    let mut restarted = false;
    let mut turn_free = false;
    let mut stopped_at = None;
    let even = record.setup.handicap.is_empty() && record.setup.stones.is_empty();
    let handicap = record.handicap.unwrap_or(0) as usize;
    for (index, event) in record.events.iter().enumerate() {
        let number = index + 1;
        while let Some(change) = changes.next_if(|c| c.before <= index) {
            game = apply_change(&game, change, &rules)
                .map_err(|e| format!("the set-up before move {number} is refused: {e}"))?;
            restarted = true;
            turn_free = false;
        }
        let Event::Move(color, mv) = *event else {
            continue;
        };
        if matches!(game.phase(), Phase::Paused | Phase::Ended)
            && super::convert::is_whites_extra_pass(&record.events, index)
        {
            // White's extra pass, written down (goconform referee does): the rules make it
            // when the game ends (AGA Rule 11), so it is no resumption. Read the same way as
            // `show` and `score` read it (`convert::with_disputes`), under every ruleset.
            continue;
        }
        if game.phase() == Phase::Paused {
            let verdict = game.apply(Event::Dispute(Some(color)));
            if let Verdict::Illegal(reason) = verdict {
                violations.push((number, color, mv, reason, None, "not judged past it"));
                stopped_at = Some(number);
                break;
            }
            resumptions.push(number);
        }
        if game.phase() == Phase::Ended {
            violations.push((
                number,
                color,
                mv,
                Reason::GameOver,
                None,
                "not judged past it",
            ));
            stopped_at = Some(number);
            break;
        }
        let free = std::mem::take(&mut turn_free);
        let verdict = if free {
            game.apply_out_of_turn(event.clone())
        } else {
            game.apply(event.clone())
        };
        let Verdict::Illegal(reason) = verdict else {
            continue;
        };
        let own_stone = matches!(mv, Move::Play(p) if game.board().get(p) == Some(color));
        let artifact = match reason {
            Reason::OutOfTurn if number == 1 && color == Color::White && even => {
                Some(Artifact::WhiteOpens)
            }
            Reason::OutOfTurn
                if color == Color::Black
                    && handicap >= 2
                    && number <= handicap
                    && record.events[..index]
                        .iter()
                        .all(|e| matches!(e, Event::Move(Color::Black, Move::Play(_)))) =>
            {
                Some(Artifact::OpeningStones)
            }
            Reason::OutOfTurn => Some(Artifact::MissingPass),
            Reason::Occupied if own_stone => Some(Artifact::OwnStone),
            _ => None,
        };
        let went_on = match (reason, artifact) {
            (Reason::OutOfTurn, _) => {
                let mut inserted = false;
                if repair {
                    let mut tried = game.clone();
                    if tried
                        .apply(Event::Move(color.opponent(), Move::Pass))
                        .is_legal()
                        && tried.phase().is_play()
                        && tried.apply(event.clone()).is_legal()
                    {
                        game = tried;
                        inserted = true;
                    }
                }
                if inserted {
                    "repaired: a pass by the other player inserted before it"
                } else if game.apply_out_of_turn(event.clone()).is_legal() {
                    "played as written"
                } else {
                    turn_free = true;
                    "left off the board"
                }
            }
            (_, Some(Artifact::OwnStone))
                if repair && game.apply(Event::Move(color, Move::Pass)).is_legal() =>
            {
                "repaired: read as a pass"
            }
            _ => {
                turn_free = true;
                "left off the board"
            }
        };
        violations.push((number, color, mv, reason, artifact, went_on));
    }
    if stopped_at.is_none() {
        for change in changes {
            game = apply_change(&game, change, &rules)
                .map_err(|e| format!("the set-up after the last move is refused: {e}"))?;
            restarted = true;
        }
    }
    let first = violations.first().map(|v| (v.0, v.1, v.2, v.3));
    Ok(Replay {
        game,
        moves_played: first.map_or(record.events.len(), |v| v.0 - 1),
        violation: first,
        violations,
        stopped_at,
        resumptions,
        restarted,
    })
}

/// The board a record is counted on, and its count: one path for `judge` and `score`.
///
/// The record's moves are replayed by [`replay_with`]: without `repair` a move out of turn is
/// played as written (the stone the record shows is on the board) and any other refused move
/// is left off it; with `repair` the repairs its artifacts imply are applied (a pass by the
/// other player inserted before a second move in a row, a play on one's own stone read as a
/// pass). Then, where play stopped with two passes, the players' agreement ends the game with
/// the dead stones (`dead` where given, else the record's `TB`/`TW` marks, else none), White
/// passing last where the rules say so; where play stopped otherwise the position is counted
/// as it stands with those stones removed. Where nothing can be removed any more (an end that
/// settled every stone, or rules that never remove any), every stone counts as alive.
pub struct RecordCount {
    /// The replay of the record's moves (the game before any agreement).
    pub replay: Replay,
    /// The dead stones the record's territory marks name on the final board; `None` without
    /// marks.
    pub marked: Option<Vec<Point>>,
    /// The stones counted dead (whole strings are removed): none where nothing can be removed.
    pub dead: Vec<Point>,
    /// The game after the agreement, where play paused and the rules accepted it.
    pub agreed: Option<Game>,
    /// The count.
    pub count: Count,
}

impl RecordCount {
    /// The game the count is of: after the agreement where there was one.
    pub fn end(&self) -> &Game {
        self.agreed.as_ref().unwrap_or(&self.replay.game)
    }

    /// Which board was counted, for reports, where the record has a refused move: `None`
    /// where every move was played as the rules allow.
    pub fn board_note(&self, repair: bool) -> Option<String> {
        let v = &self.replay.violations;
        if v.is_empty() {
            return None;
        }
        let said: Vec<String> = v
            .iter()
            .map(|&(n, _, _, _, _, went_on)| format!("move {n} {went_on}"))
            .collect();
        Some(format!(
            "counted on the board {}: {}{}",
            if repair {
                "with the record's artifacts repaired"
            } else {
                "the record's moves make as written"
            },
            said.join(", "),
            if repair || v.iter().all(|x| x.4.is_none()) {
                ""
            } else {
                " (--repair counts it with the repairs the artifacts imply)"
            }
        ))
    }
}

/// Replays a record under `rules` (already adjusted by [`rules_for`]) and counts the board it
/// ends on, as [`RecordCount`] says; `dead` replaces the record's marks where given.
/// `Err` is a set-up the rules cannot start from.
pub fn count_record(
    record: &Record,
    rules: Rules,
    repair: bool,
    dead: Option<&[Point]>,
) -> Result<RecordCount, String> {
    let replay = replay_with(record, rules, repair)?;
    let marked = record.dead_stones(replay.game.board());
    let counter = Counter::new(&replay.game);
    let dead = if counter.removable() {
        dead.map(<[Point]>::to_vec)
            .or_else(|| marked.clone())
            .unwrap_or_default()
    } else {
        Vec::new()
    };
    let (agreed, count) = counter.settle(&dead);
    Ok(RecordCount {
        replay,
        marked,
        dead,
        agreed,
        count,
    })
}

/// The game restarted from `game`'s position with a set-up change applied.
fn apply_change(game: &Game, change: &super::SetupChange, rules: &Rules) -> Result<Game, String> {
    let board = game.board();
    let mut stones: std::collections::BTreeMap<Point, Color> = board.stones().into_iter().collect();
    for &(p, stone) in &change.stones {
        match stone {
            Some(color) => stones.insert(p, color),
            None => stones.remove(&p),
        };
    }
    let setup = crate::game::Setup {
        width: board.width(),
        height: board.height(),
        stones: stones.into_iter().collect(),
        handicap: Vec::new(),
        to_move: change.to_move.unwrap_or(game.to_move()),
        history: crate::game::SetupHistory::Excluded,
        handicap_as_placed: false,
    };
    Game::new(*rules, &setup).map_err(|e| e.to_string())
}

/// Judges a record under the ruleset `name` with `rules` (the ruleset's axes; the record's
/// komi and handicap are applied here), without repairs.
pub fn judge(record: &Record, name: &str, rules: Rules, spec: &Spec) -> Judgement {
    judge_with(record, name, rules, spec, &JudgeOptions::default())
}

/// Judges a record under the ruleset `name` with `rules` and the command line's `options`.
pub fn judge_with(
    record: &Record,
    name: &str,
    rules: Rules,
    spec: &Spec,
    options: &JudgeOptions,
) -> Judgement {
    let rules = rules_with_komi(record, rules, options.komi);
    let mut notes = Vec::new();
    if options.repair {
        notes.push(format!("judged with --repair: {REPAIRS}"));
    }
    let counted = match count_record(record, rules, options.repair, None) {
        Ok(counted) => counted,
        Err(message) => {
            return Judgement {
                ruleset: name.to_string(),
                moves_played: 0,
                violation: None,
                violations: Vec::new(),
                stopped_at: None,
                not_judged: Some(message.clone()),
                resumptions: Vec::new(),
                ended_by_passes: false,
                count: None,
                dead: Vec::new(),
                check: ResultCheck::NotCheckable(format!("not judged: {message}")),
                notes,
                doubt: None,
            }
        }
    };
    if !options.repair {
        notes.extend(counted.board_note(false));
    }
    let replay = &counted.replay;
    let violations: Vec<Violation> = replay
        .violations
        .iter()
        .map(
            |&(number, color, mv, reason, artifact, went_on)| Violation {
                move_number: number,
                color,
                mv,
                reason,
                position: record
                    .positions
                    .get(number - 1)
                    .copied()
                    .unwrap_or_default(),
                clauses: clauses_for(reason, name, spec),
                artifact,
                went_on,
            },
        )
        .collect();
    let violation = violations.first().cloned();
    let game = &replay.game;
    let ended_by_passes = game.phase() == Phase::Paused
        || (game.phase() == Phase::Ended && game.resigned().is_none());
    let counter = Counter::new(game);
    // The count is the one `score` gives ([`count_record`]): the recorded dead stones (none
    // without marks) removed where the game still lets stones be removed, by the players'
    // agreement where play stopped with two passes, else from the position as it stands; no
    // verdict is given on the count of a game stopped without two passes.
    let komi_known = options.komi.is_some() || record.komi.is_some();
    let mut doubt = None;
    let (count, dead) =
        if replay.stopped_at.is_some() || game.resigned().is_some() || replay.restarted {
            (None, Vec::new())
        } else {
            (Some(counted.count.clone()), counted.dead.clone())
        };
    if !komi_known {
        notes.push(format!(
            "no KM: the komi is not recorded (counted with the ruleset's {}; --komi gives it)",
            crate::game::counting::format_points(rules.komi.half_points())
        ));
    }
    let half_point_result =
        matches!(&record.result, Some(RecordedResult::Score(_, half)) if half % 2 != 0);
    let komi_zero = options.komi.is_none()
        && record
            .komi
            .as_ref()
            .is_some_and(|k| k.komi.half_points() == 0);
    let blocking = violations
        .iter()
        .find(|v| !(options.repair && v.artifact.is_some()));
    let check = match (blocking, &record.result) {
        (Some(v), _) => ResultCheck::NotCheckable(format!(
            "move {} breaks a rule ({}){}",
            v.move_number,
            v.reason,
            if v.artifact.is_some() && !options.repair {
                "; --repair judges the count with the record's artifacts repaired"
            } else {
                ""
            }
        )),
        (None, None) => ResultCheck::NotCheckable("no result recorded".to_string()),
        (None, Some(_)) if replay.stopped_at.is_some() => ResultCheck::NotCheckable(
            "the replay stopped before the last move".to_string(),
        ),
        (None, Some(_)) if replay.restarted => ResultCheck::NotCheckable(
            "a set-up after a move changed the board: the prisoners before it are not known"
                .to_string(),
        ),
        (None, Some(result)) => match result.counted() {
            None => ResultCheck::NotCheckable(match result {
                RecordedResult::Resignation(_) => "a resignation".to_string(),
                RecordedResult::Time(_) => "a win on time".to_string(),
                RecordedResult::Forfeit(_) => "a forfeit".to_string(),
                RecordedResult::Win(_) => "a win with no margin".to_string(),
                RecordedResult::Margin(_, margin) => format!(
                    "a margin of {margin}, not a whole or half number of points (a count in stones, as the Fox server writes, is not compared with a count in points)"
                ),
                RecordedResult::Void => "no result (void)".to_string(),
                RecordedResult::Unknown => "the result is unknown".to_string(),
                other => format!("`{other}` is not a result SGF defines"),
            }),
            Some(_) if !komi_known => ResultCheck::NotCheckable(
                "no KM: the komi is not recorded (--komi gives it)".to_string(),
            ),
            Some(_) if komi_zero && half_point_result => ResultCheck::NotCheckable(
                "KM[0] with a half-point result, which no count gives: komi likely not recorded (--komi gives it)"
                    .to_string(),
            ),
            Some(_) if !ended_by_passes => ResultCheck::NotCheckable(
                "play did not end on the board (no two passes at the end): the game was stopped, and the count of an unfinished board is not judged"
                    .to_string(),
            ),
            Some(wanted) => {
                if counted.count.result() == wanted || draw_matches(&counted.count, result) {
                    ResultCheck::Agrees
                } else {
                    doubt = counter.doubt(result);
                    match counter.search(result) {
                        ResultCheck::Consistent { dead } => match swapped(result) {
                            Some(other)
                                if matches!(
                                    counter.search(&other),
                                    ResultCheck::Consistent { .. }
                                ) =>
                            {
                                ResultCheck::NotCheckable(format!(
                                    "the dead stones decide: some choice of them gives {result} and another gives {other}"
                                ))
                            }
                            // Where not every choice was counted, a choice giving the other
                            // winner cannot be ruled out: never "consistent" on a search
                            // that could have missed it.
                            _ if doubt.as_ref().is_some_and(|d| !d.every_choice) => {
                                ResultCheck::NotCheckable(format!(
                                    "{} groups without two eyes: a choice of them gives {result}, but too many to count every choice and rule out one that gives the other winner",
                                    doubt.as_ref().map_or(0, |d| d.groups.len())
                                ))
                            }
                            _ => ResultCheck::Consistent { dead },
                        },
                        other => other,
                    }
                }
            }
        },
    };
    Judgement {
        ruleset: name.to_string(),
        moves_played: replay.moves_played,
        violation,
        violations,
        stopped_at: replay.stopped_at,
        not_judged: None,
        resumptions: replay.resumptions.clone(),
        ended_by_passes,
        count,
        dead,
        check,
        notes,
        doubt,
    }
}

/// The same result with the other winner (`B+3.5` for `W+3.5`); `None` for a draw.
fn swapped(result: &RecordedResult) -> Option<RecordedResult> {
    match result {
        RecordedResult::Score(color, half) => Some(RecordedResult::Score(color.opponent(), *half)),
        _ => None,
    }
}

/// A zero margin the rules give to one side is still a drawn board: `RE[0]` agrees with it.
fn draw_matches(count: &Count, result: &RecordedResult) -> bool {
    matches!(result, RecordedResult::Draw) && count.margin == 0
}

/// Counts the final position of a replay with a choice of dead stones.
struct Counter<'a> {
    game: &'a Game,
    /// What agreeing changes besides removing the dead stones (White's last pass stone), as
    /// a shift of the margin: the same for every choice of dead stones, so the search counts
    /// each choice on the board as it stands instead of replaying an agreement.
    agreement_shift: std::cell::OnceCell<i32>,
    /// The groups that could be dead ([`crate::game::status::groups_in_doubt`]), found once:
    /// a choice of dead stones is a mask over them.
    groups: std::cell::OnceCell<Vec<Vec<Point>>>,
    /// [`Counter::result_of`] for each mask counted so far. A record whose count disagrees
    /// has every choice counted for its doubt report, then searched for the recorded result
    /// and for the other winner's: the same masks three times over, each a count of the
    /// whole board, without this.
    results: std::cell::RefCell<rustc_hash::FxHashMap<u64, (String, bool)>>,
    /// For the additive search: the margin with no stone removed, and what removing each
    /// group alone changes in it; found once, for the recorded result and the other winner's.
    worth: std::cell::OnceCell<(i32, Vec<i32>)>,
}

impl<'a> Counter<'a> {
    fn new(game: &'a Game) -> Counter<'a> {
        Counter {
            game,
            agreement_shift: std::cell::OnceCell::new(),
            groups: std::cell::OnceCell::new(),
            results: std::cell::RefCell::default(),
            worth: std::cell::OnceCell::new(),
        }
    }

    fn groups(&self) -> &[Vec<Point>] {
        self.groups
            .get_or_init(|| crate::game::status::groups_in_doubt(self.game.board()))
    }

    /// The stones of the groups in `mask` (bit `i` for group `i`).
    fn dead_of(&self, mask: u64) -> Vec<Point> {
        self.groups()
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .flat_map(|(_, g)| g.iter().copied())
            .collect()
    }

    /// [`Counter::result_of`] with the groups of `mask` dead, counted once per mask.
    fn result_of_mask(&self, mask: u64) -> (String, bool) {
        if let Some(known) = self.results.borrow().get(&mask) {
            return known.clone();
        }
        let result = self.result_of(&self.dead_of(mask));
        self.results.borrow_mut().insert(mask, result.clone());
        result
    }

    /// Whether stones can still be removed as dead: not once the game has ended on its own
    /// terms (four passes under the AGA-style ending: every stone alive), nor under rules that
    /// end on two passes (Tromp-Taylor: dead stones are captured in play).
    fn removable(&self) -> bool {
        self.game.phase() != Phase::Ended && self.game.rules().ending != Ending::TwoPasses
    }

    /// The count with `dead` removed: as an agreement where play is paused (so White passes
    /// last where the rules say so), otherwise the position as it stands; where nothing can be
    /// removed any more ([`Counter::removable`]) the dead stones are ignored.
    /// The result [`Counter::count`] gives, computed faster for the search: the position as
    /// it stands with `dead` removed, shifted by what an agreement adds.
    fn result_of(&self, dead: &[Point]) -> (String, bool) {
        if !self.removable() || self.game.phase() != Phase::Paused {
            let count = self.count(dead);
            return (count.result(), count.margin == 0);
        }
        let shift = *self
            .agreement_shift
            .get_or_init(|| self.count(&[]).margin - self.plain(&[]).margin);
        let mut count = self.plain(dead);
        count.margin += shift;
        (count.result(), count.margin == 0)
    }

    fn plain(&self, dead: &[Point]) -> Count {
        counting::count(
            self.game.board(),
            self.game.rules(),
            self.game.prisoner_breakdown(),
            &expand(self.game.board(), dead),
            self.game.handicap(),
        )
    }

    fn count(&self, dead: &[Point]) -> Count {
        self.settle(dead).1
    }

    /// [`Counter::count`], with the game after the agreement where play paused and the rules
    /// accepted it.
    fn settle(&self, dead: &[Point]) -> (Option<Game>, Count) {
        if !self.removable() {
            return (None, self.game.count());
        }
        if self.game.phase() == Phase::Paused {
            let mut ended = self.game.clone();
            if ended.apply(Event::Agree(dead.to_vec())).is_legal() {
                let count = ended.count();
                return (Some(ended), count);
            }
        }
        (None, self.plain(dead))
    }

    /// The groups in doubt, the choices of them that give `wanted` (every choice counted where
    /// there are at most [`MAX_SEARCHED_GROUPS`], else the additive search's), and the result
    /// of the plausible choice. `None` where nothing can be removed or nothing is in doubt.
    fn doubt(&self, wanted: &RecordedResult) -> Option<Doubt> {
        let text = wanted.counted()?;
        if !self.removable() {
            return None;
        }
        let board = self.game.board();
        let stones = self.groups();
        if stones.is_empty() {
            return None;
        }
        let groups: Vec<(Color, Vec<Point>)> = stones
            .iter()
            .map(|g| (board.get(g[0]).unwrap_or(Color::Black), g.clone()))
            .collect();
        let other = swapped(wanted).and_then(|r| r.counted());
        let indices = |mask: u64| -> Vec<usize> {
            (0..stones.len()).filter(|i| mask & (1 << i) != 0).collect()
        };
        let mut doubt = Doubt {
            groups,
            every_choice: stones.len() <= MAX_SEARCHED_GROUPS,
            choices: 0,
            giving_recorded: 0,
            listed: Vec::new(),
            giving_other: 0,
            plausible: Vec::new(),
            plausible_result: String::new(),
        };
        if doubt.every_choice {
            let mut masks: Vec<u64> = (0..(1u64 << stones.len())).collect();
            masks.sort_by_key(|m| m.count_ones());
            doubt.choices = masks.len() as u64;
            for mask in masks {
                let (result, drawn) = self.result_of_mask(mask);
                if result == text || (drawn && matches!(wanted, RecordedResult::Draw)) {
                    doubt.giving_recorded += 1;
                    if doubt.listed.len() < LISTED_CHOICES {
                        doubt.listed.push(indices(mask));
                    }
                } else if other.as_deref() == Some(result.as_str()) {
                    doubt.giving_other += 1;
                }
            }
        } else if let ResultCheck::Consistent { dead } = self.additive_search(wanted, &text) {
            doubt.giving_recorded = 1;
            doubt.listed.push(
                (0..stones.len())
                    .filter(|&i| stones[i].iter().all(|p| dead.binary_search(p).is_ok()))
                    .collect(),
            );
        }
        doubt.plausible = plausibly_dead(board);
        let dead: Vec<Point> = doubt
            .plausible
            .iter()
            .flat_map(|&i| stones[i].iter().copied())
            .collect();
        doubt.plausible_result = self.count(&dead).result();
        Some(doubt)
    }

    /// Every choice of dead groups among those that could be dead, smallest first, until one
    /// gives `wanted`.
    fn search(&self, wanted: &RecordedResult) -> ResultCheck {
        let Some(text) = wanted.counted() else {
            return ResultCheck::NotCheckable("no counted result".to_string());
        };
        if !self.removable() {
            return ResultCheck::Disagrees;
        }
        let groups = self.groups();
        // Adding up what each group is worth alone finds most choices with one count per
        // group; every combination is tried only to find the rest, or to show there is none.
        let found = self.additive_search(wanted, &text);
        if matches!(found, ResultCheck::Consistent { .. }) || groups.len() > MAX_SEARCHED_GROUPS {
            return found;
        }
        let mut masks: Vec<u64> = (1..(1u64 << groups.len())).collect();
        masks.sort_by_key(|m| m.count_ones());
        for mask in masks {
            let (result, drawn) = self.result_of_mask(mask);
            if result == text || (drawn && matches!(wanted, RecordedResult::Draw)) {
                let mut dead = self.dead_of(mask);
                dead.sort();
                return ResultCheck::Consistent { dead };
            }
        }
        ResultCheck::Disagrees
    }

    /// What each group alone changes in the margin, a choice whose changes add up to the recorded margin (subset sum), and that
    /// choice counted for real. Removing one group rarely changes what another is worth, so
    /// this finds most choices there are; what it does not find stays not checkable, never
    /// "disagrees".
    fn additive_search(&self, wanted: &RecordedResult, text: &str) -> ResultCheck {
        let groups = self.groups();
        let target = match wanted {
            RecordedResult::Score(Color::Black, half) => *half,
            RecordedResult::Score(Color::White, half) => -*half,
            _ => 0,
        };
        let (base, deltas) = self.worth.get_or_init(|| {
            let plain = self.plain(&[]).margin;
            let deltas = groups
                .iter()
                .map(|g| self.plain(g).margin - plain)
                .collect();
            (self.count(&[]).margin, deltas)
        });
        let (base, deltas) = (*base, deltas.as_slice());
        // reached[sum] = (the group added last, the sum before it), for sums reached by
        // groups of lower index only, so that a walk back names distinct groups.
        let mut reached: std::collections::HashMap<i32, Option<(usize, i32)>> =
            std::collections::HashMap::from([(0, None)]);
        for (i, &d) in deltas.iter().enumerate() {
            if d == 0 {
                continue;
            }
            let sums: Vec<i32> = reached.keys().copied().collect();
            for s in sums {
                reached.entry(s + d).or_insert(Some((i, s)));
            }
        }
        let not_found = || {
            ResultCheck::NotCheckable(format!(
                "{} groups without two eyes: too many to try every choice of dead stones, and \
                 no choice found by adding up what each is worth",
                groups.len()
            ))
        };
        let wanted_change = target - base;
        if !reached.contains_key(&wanted_change) {
            return not_found();
        }
        let mut chosen = Vec::new();
        let mut at = wanted_change;
        while let Some(Some((i, before))) = reached.get(&at) {
            chosen.push(*i);
            at = *before;
        }
        let mut dead: Vec<Point> = chosen
            .iter()
            .flat_map(|&i| groups[i].iter().copied())
            .collect();
        dead.sort();
        let count = self.count(&dead);
        if count.result() == text || draw_matches(&count, wanted) {
            ResultCheck::Consistent { dead }
        } else {
            not_found()
        }
    }
}

/// The plausible choice of dead stones among the groups in doubt
/// ([`crate::game::status::groups_in_doubt`], whose indices it returns): a group with no eye,
/// not in seki, whose **region** (its stones and every point reachable from them through empty
/// points and stones of its colour) holds no stone of a group of its colour that has an eye,
/// and is smaller than the region of each such group of the other colour that it borders.
/// That is, stones that cannot live on their own nor join a live group of theirs without
/// crossing the other colour, and that stand inside the other colour's stones rather than
/// around them. A reading of the position, not a verdict: reports give what it counts beside
/// the choices that give the recorded result, and never call a result agreeing because of it.
pub fn plausibly_dead(board: &Board) -> Vec<usize> {
    use crate::game::status;
    let all = status::groups(board);
    let width = usize::from(board.width());
    let at = |p: Point| usize::from(p.row) * width + usize::from(p.col);
    let mut group_of: Vec<Option<usize>> = vec![None; width * usize::from(board.height())];
    for (i, g) in all.iter().enumerate() {
        for &p in &g.stones {
            group_of[at(p)] = Some(i);
        }
    }
    let seki: BTreeSet<Point> = status::seki_stones(board).into_iter().collect();
    // For each eyeless group outside seki: whether its region holds a group of its colour
    // with an eye, the region's size, and the groups of the other colour bordering it.
    let mut candidate: Vec<Option<(usize, BTreeSet<usize>)>> = vec![None; all.len()];
    for (i, g) in all.iter().enumerate() {
        if g.eyes > 0 || g.stones.iter().any(|p| seki.contains(p)) {
            continue;
        }
        let mut seen = vec![false; group_of.len()];
        let mut stack: Vec<Point> = g.stones.clone();
        for &p in &stack {
            seen[at(p)] = true;
        }
        let mut size = 0;
        let mut borders = BTreeSet::new();
        let mut lives = false;
        while let Some(p) = stack.pop() {
            size += 1;
            if let Some(j) = group_of[at(p)] {
                lives |= all[j].eyes > 0;
            }
            for q in board.adjacent(p) {
                match board.get(q) {
                    Some(c) if c != g.color => {
                        if let Some(j) = group_of[at(q)] {
                            borders.insert(j);
                        }
                    }
                    _ if !seen[at(q)] => {
                        seen[at(q)] = true;
                        stack.push(q);
                    }
                    _ => {}
                }
            }
        }
        if !lives {
            candidate[i] = Some((size, borders));
        }
    }
    let in_doubt: Vec<usize> = (0..all.len()).filter(|&i| all[i].eyes < 2).collect();
    in_doubt
        .iter()
        .enumerate()
        .filter(|&(_, &i)| match &candidate[i] {
            None => false,
            Some((size, borders)) => borders.iter().all(|&j| match &candidate[j] {
                Some((other, _)) => size < other,
                None => true,
            }),
        })
        .map(|(k, _)| k)
        .collect()
}

/// Every stone of the strings through `points`.
fn expand(board: &Board, points: &[Point]) -> Vec<Point> {
    let mut all: BTreeSet<Point> = BTreeSet::new();
    for &p in points {
        if board.get(p).is_some() && !all.contains(&p) {
            all.extend(board.string(p));
        }
    }
    all.into_iter().collect()
}

/// The clauses behind a reason, as the ruleset's documents state them: the candidates that
/// the ruleset adopts, else the logical rules' clause; empty where no registered document of
/// the ruleset speaks of it (reports then say so rather than cite another ruleset's text).
pub fn clauses_for(reason: Reason, ruleset: &str, spec: &Spec) -> Vec<String> {
    let candidates: &[&str] = match reason {
        Reason::Occupied => &[
            "aga-1991-r2-move",
            "agatr-vi-b-7-two-stones",
            "logic-r7-step1",
        ],
        // Where the rules allow suicide, the only suicide they refuse is one stone's, which
        // leaves the board as it was: the repetition ban is the clause.
        Reason::Suicide
            if spec
                .rules(ruleset)
                .is_ok_and(|r| r.suicide != crate::rules::SuicideRule::Forbidden) =>
        {
            &["logic-r8"]
        }
        Reason::Suicide => &[
            "aga-1991-r5-suicide",
            "agatr-vi-b-7-suicide",
            "logic-r7a",
            "logic-r7-step3",
        ],
        Reason::Ko => &[
            "aga-1991-r6-ko",
            "agatr-vi-b-7-ko",
            "bga-ko-superko",
            "london-3",
            "logic-r8",
        ],
        Reason::Superko => &["aga-1991-r6", "bga-ko-superko", "london-3", "logic-r8"],
        Reason::OutOfTurn => &[
            "aga-1991-r2",
            "agatr-vi-b-1",
            "bga-illegal-alternation-run",
            "logic-r6",
        ],
        Reason::GamePaused => &["aga-1991-r9", "bga-game-end-pause", "london-5"],
        Reason::GameOver | Reason::NoResumption => &["aga-1991-r10", "bga-resumption", "london-6"],
        _ => &[],
    };
    let adopted: Vec<String> = candidates
        .iter()
        .filter(|id| spec.adopters(id).contains(&ruleset))
        .map(|id| id.to_string())
        .collect();
    if !adopted.is_empty() {
        return adopted;
    }
    // Rules outside the AGA family: the logical rules' clause where they have one.
    candidates
        .iter()
        .filter(|id| id.starts_with("logic-"))
        .take(1)
        .map(|id| id.to_string())
        .collect()
}
