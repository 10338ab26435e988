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
//! stones among the groups that could be dead gives it (the choice is reported); it
//! **disagrees** when no such choice does; it is **not checkable** when there is nothing to
//! count (a resignation, time, an illegal move), or too many groups to try every choice and
//! none found by adding up what each group alone is worth.
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

/// The first move of a record that breaks a rule.
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
    /// The first move that breaks a rule, if any; the moves after it are not played.
    pub violation: Option<Violation>,
    /// Move numbers before which play resumed after two passes (an implied dispute).
    pub resumptions: Vec<usize>,
    /// Whether play stopped with two passes in a row.
    pub ended_by_passes: bool,
    /// The count with the recorded dead stones, where the record marks them or play ended in
    /// a way that needs none to be named (the count of the position as it stands otherwise
    /// would guess): `None` where the dead stones are not known.
    pub count: Option<Count>,
    /// The dead stones the count used.
    pub dead: Vec<Point>,
    /// How `RE` compares with the count.
    pub check: ResultCheck,
}

/// The rules a record is judged under: the ruleset with the record's komi (even and handicap
/// komi both), and a free handicap placement when the record places its own stones (the
/// record shows where they went, which the players agreed to).
pub fn rules_for(record: &Record, mut rules: Rules) -> Rules {
    if let Some(komi) = &record.komi {
        rules.komi = komi.komi;
        rules.handicap_komi = komi.komi;
    }
    if !record.setup.handicap.is_empty() {
        rules.handicap_placement = HandicapPlacement::Free;
    }
    rules
}

/// The game after a record's moves, with what happened on the way.
pub struct Replay {
    /// The game after the moves played.
    pub game: Game,
    /// How many moves were played before the first violation (all of them when there is none).
    pub moves_played: usize,
    /// The first violation: its move number (from 1), who made it, the move and the reason.
    pub violation: Option<(usize, Color, Move, Reason)>,
    /// Move numbers before which play resumed after two passes (an implied dispute).
    pub resumptions: Vec<usize>,
}

/// Plays a record's moves under `rules` (already adjusted by [`rules_for`]) until the first
/// that breaks a rule, with a dispute before each move that follows two passes
/// ([`super::convert::events_with_disputes`]): where the dispute itself is refused (the rules
/// do not resume play, or give the first turn to the other player), the move after it is the
/// violation, for the dispute's reason. `Err` is a set-up the rules cannot start from.
pub fn replay(record: &Record, rules: Rules) -> Result<Replay, String> {
    let mut game = Game::new(rules, &record.setup).map_err(|e| e.to_string())?;
    let mut resumptions = Vec::new();
    for (event, number) in super::convert::with_disputes(record) {
        let is_dispute = matches!(event, Event::Dispute(_));
        let verdict = game.apply(event);
        if let Verdict::Illegal(reason) = verdict {
            let (color, mv) = match record.events.get(number - 1) {
                Some(Event::Move(color, mv)) => (*color, *mv),
                _ => (game.to_move(), Move::Pass),
            };
            return Ok(Replay {
                game,
                moves_played: number - 1,
                violation: Some((number, color, mv, reason)),
                resumptions,
            });
        }
        if is_dispute {
            resumptions.push(number);
        }
    }
    Ok(Replay {
        game,
        moves_played: record.events.len(),
        violation: None,
        resumptions,
    })
}

/// Judges a record under the ruleset `name` with `rules` (the ruleset's axes; the record's
/// komi and handicap are applied here).
pub fn judge(record: &Record, name: &str, rules: Rules, spec: &Spec) -> Judgement {
    let rules = rules_for(record, rules);
    let replay = match replay(record, rules) {
        Ok(replay) => replay,
        Err(message) => {
            return Judgement {
                ruleset: name.to_string(),
                moves_played: 0,
                violation: None,
                resumptions: Vec::new(),
                ended_by_passes: false,
                count: None,
                dead: Vec::new(),
                check: ResultCheck::NotCheckable(format!("the set-up is refused: {message}")),
            }
        }
    };
    let violation = replay
        .violation
        .map(|(number, color, mv, reason)| Violation {
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
        });
    let game = &replay.game;
    let ended_by_passes = game.phase() == Phase::Paused
        || (game.phase() == Phase::Ended && game.resigned().is_none());
    let counter = Counter {
        game,
        agreement_shift: std::cell::OnceCell::new(),
    };
    // Marks name dead stones only where the game still lets stones be removed: not after an
    // end that settled them (four passes: all alive) nor under rules that never remove any.
    let recorded_dead = record.dead_stones(game.board()).map(|dead| {
        if counter.removable() {
            dead
        } else {
            Vec::new()
        }
    });
    let (count, dead) = if violation.is_some() || game.resigned().is_some() {
        (None, Vec::new())
    } else {
        match &recorded_dead {
            Some(dead) => (Some(counter.count(dead)), dead.clone()),
            None if !counter.removable() => (Some(counter.count(&[])), Vec::new()),
            None => (None, Vec::new()),
        }
    };
    let check = match (&violation, &record.result) {
        (Some(v), _) => ResultCheck::NotCheckable(format!(
            "move {} breaks a rule ({})",
            v.move_number, v.reason
        )),
        (None, None) => ResultCheck::NotCheckable("no result recorded".to_string()),
        (None, Some(result)) => match result.counted() {
            None => ResultCheck::NotCheckable(match result {
                RecordedResult::Resignation(_) => "a resignation".to_string(),
                RecordedResult::Time(_) => "a win on time".to_string(),
                RecordedResult::Forfeit(_) => "a forfeit".to_string(),
                RecordedResult::Win(_) => "a win with no margin".to_string(),
                RecordedResult::Void => "no result (void)".to_string(),
                RecordedResult::Unknown => "the result is unknown".to_string(),
                other => format!("`{other}` is not a result SGF defines"),
            }),
            Some(wanted) => {
                let as_recorded = recorded_dead.clone().unwrap_or_default();
                if counter.count(&as_recorded).result() == wanted
                    || draw_matches(&counter.count(&as_recorded), result)
                {
                    ResultCheck::Agrees
                } else {
                    counter.search(result)
                }
            }
        },
    };
    Judgement {
        ruleset: name.to_string(),
        moves_played: replay.moves_played,
        violation,
        resumptions: replay.resumptions,
        ended_by_passes,
        count,
        dead,
        check,
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
}

impl Counter<'_> {
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
        if !self.removable() {
            return self.game.count();
        }
        if self.game.phase() == Phase::Paused {
            let mut ended = self.game.clone();
            if ended.apply(Event::Agree(dead.to_vec())).is_legal() {
                return ended.count();
            }
        }
        counting::count(
            self.game.board(),
            self.game.rules(),
            self.game.prisoner_breakdown(),
            &expand(self.game.board(), dead),
            self.game.handicap(),
        )
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
        let groups = crate::game::status::groups_in_doubt(self.game.board());
        // Adding up what each group is worth alone finds most choices with one count per
        // group; every combination is tried only to find the rest, or to show there is none.
        let found = self.additive_search(&groups, wanted, &text);
        if matches!(found, ResultCheck::Consistent { .. }) || groups.len() > MAX_SEARCHED_GROUPS {
            return found;
        }
        let mut masks: Vec<u32> = (1..(1u32 << groups.len())).collect();
        masks.sort_by_key(|m| m.count_ones());
        for mask in masks {
            let dead: Vec<Point> = groups
                .iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .flat_map(|(_, g)| g.iter().copied())
                .collect();
            let (result, drawn) = self.result_of(&dead);
            if result == text || (drawn && matches!(wanted, RecordedResult::Draw)) {
                let mut dead = dead;
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
    fn additive_search(
        &self,
        groups: &[Vec<Point>],
        wanted: &RecordedResult,
        text: &str,
    ) -> ResultCheck {
        let target = match wanted {
            RecordedResult::Score(Color::Black, half) => *half,
            RecordedResult::Score(Color::White, half) => -*half,
            _ => 0,
        };
        let base = self.count(&[]).margin;
        let plain = self.plain(&[]).margin;
        let deltas: Vec<i32> = groups
            .iter()
            .map(|g| self.plain(g).margin - plain)
            .collect();
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
        Reason::Occupied => &["aga-1991-r2-move", "agatr-vi-b-7-two-stones", "logic-r6"],
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
