//! Structured game inputs: what a fuzzer's bytes (or a seeded generator's) become, and the
//! concrete game they are turned into for one implementation.
//!
//! [`GameInput`] is plain data any byte string decodes into ([`arbitrary::Arbitrary`]): a
//! board size, one choice per rules axis, set-up stones, a handicap and a list of event
//! choices. [`GameInput::realise`] turns it into a [`Case`] (rules, a set-up the reference
//! accepts, and events) restricted to what an implementation's [`Capabilities`] say it can
//! play: its axis values, the kinds of event it takes, the referee's record only where it keeps
//! one. Anything else would make every game diverge for a reason the engine never claimed, and
//! the findings would be noise.
//!
//! Events are chosen while the reference plays them, so a play mostly lands on an empty point
//! and an agreement names stones that are on the board: random bytes then make games with
//! captures, ko fights, suicides and endings rather than a run of refusals. Choices still
//! include a play on any point (occupied ones too), moves out of turn and passes.

use arbitrary::{Arbitrary, Unstructured};

use crate::board::{Color, Move, Point};
use crate::conformance::{Capabilities, EventKind, Observable};
use crate::game::handicap::{self, Pattern};
use crate::game::{Breach, Event, Game, Phase, Reason, Refereed, Setup, SetupHistory};
use crate::rules::{
    Draws, Ending, HandicapCompensation, HandicapPlacement, IllegalMoveProcedure, KoRule,
    PassStones, Rules, Scoring, SekiEyes, SuicideRule, WhitePassesLast, AXES,
};

/// The most events a realised game has: enough for ko fights and an ending on a small board,
/// few enough that one game through a GTP engine takes milliseconds.
pub const MAX_EVENTS: usize = 80;

/// The largest board side generated: small boards fill up, so captures, ko and suicide come
/// within a few dozen moves.
pub const MAX_SIDE: u8 = 9;

/// A game as a fuzzer's bytes describe it. Every field is a choice that
/// [`GameInput::realise`] reduces modulo what is allowed, so any value is meaningful.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameInput {
    /// A choice of the board's width.
    pub width: u8,
    /// A choice of the board's height.
    pub height: u8,
    /// Most engines (every GTP one) play only square boards: a square board unless this is
    /// 0 modulo 4.
    pub shape: u8,
    /// One choice per axis of [`AXES`], in that order.
    pub axes: [u8; 13],
    /// White moves first from the set-up.
    pub white_first: bool,
    /// The set-up position is left out of the repetition history.
    pub history_excluded: bool,
    /// Set-up stones: a point index and whether the stone is white.
    pub stones: Vec<(u8, bool)>,
    /// A handicap of `handicap % 5` stones where that is 2 or more.
    pub handicap: u8,
    /// The events, each a choice made concrete when it is played.
    pub events: Vec<EventChoice>,
}

/// One event as a choice; [`GameInput::realise`] makes it concrete against the reference's
/// state at that moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventChoice {
    /// The player to move plays on the n-th empty point (modulo their number).
    Play(u8),
    /// The player to move plays on the n-th point of the board, empty or not.
    PlayAnywhere(u8),
    /// The player not to move plays on the n-th empty point.
    OutOfTurn(u8),
    /// The player to move passes.
    Pass,
    /// A dispute; the colour named (`Some(true)`: white), or none.
    Dispute(Option<bool>),
    /// An agreement that the strings through the n-th stones on the board are dead (now and
    /// then a point of the board that may be empty).
    Agree(u8, u8),
    /// A resignation, by White if `true`, else by Black.
    Resign(bool),
    /// A referee's record: the player to move plays on the n-th point although the rules may
    /// forbid it.
    Forced(u8),
    /// Someone notices the earliest violation standing; `true`: by agreement.
    Notice(bool),
}

impl<'a> Arbitrary<'a> for GameInput {
    /// Lists are read with a length up front (the derived form ends a list at each element
    /// with even odds, which makes games of two or three events): set-up stones up to a
    /// third of the largest board, events up to [`MAX_EVENTS`]. Bytes running out end the
    /// lists early; nothing fails.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<GameInput> {
        let mut input = GameInput {
            width: u8::arbitrary(u)?,
            height: u8::arbitrary(u)?,
            shape: u8::arbitrary(u)?,
            axes: <[u8; 13]>::arbitrary(u)?,
            white_first: bool::arbitrary(u)?,
            history_excluded: u8::arbitrary(u)? % 8 == 0,
            stones: Vec::new(),
            handicap: u8::arbitrary(u)?,
            events: Vec::new(),
        };
        // Most games start from an empty board or a few stones.
        let stones = match u.int_in_range(0..=3u8)? {
            0 | 1 => 0,
            2 => u.int_in_range(1..=6usize)?,
            _ => u.int_in_range(1..=27usize)?,
        };
        for _ in 0..stones {
            if u.is_empty() {
                break;
            }
            input.stones.push(<(u8, bool)>::arbitrary(u)?);
        }
        let events = u.int_in_range(0..=MAX_EVENTS)?;
        for _ in 0..events {
            if u.is_empty() {
                break;
            }
            input.events.push(EventChoice::arbitrary(u)?);
        }
        Ok(input)
    }
}

impl<'a> Arbitrary<'a> for EventChoice {
    /// Plays are most of a game; the rest are spread so that a game of a few dozen events
    /// usually holds some of each.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<EventChoice> {
        let n = u8::arbitrary(u)?;
        Ok(match u.int_in_range(0..=99u8)? {
            0..=61 => EventChoice::Play(n),
            62..=69 => EventChoice::PlayAnywhere(n),
            70..=73 => EventChoice::OutOfTurn(n),
            74..=85 => EventChoice::Pass,
            86..=88 => EventChoice::Dispute(Option::<bool>::arbitrary(u)?),
            89..=91 => EventChoice::Agree(n, u8::arbitrary(u)?),
            92 => EventChoice::Resign(n % 2 == 1),
            93..=96 => EventChoice::Forced(n),
            _ => EventChoice::Notice(n % 2 == 1),
        })
    }

    fn size_hint(_depth: usize) -> (usize, Option<usize>) {
        (2, Some(4))
    }
}

/// A concrete game: rules, a set-up the reference starts from, and events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The rules the game is played under.
    pub rules: Rules,
    /// The position it starts from.
    pub setup: Setup,
    /// The events, in order.
    pub events: Vec<Event>,
    /// For each event, whether its colour was "the player to move" when it was generated:
    /// minimising recolours these after removing events, so that a shorter game is still
    /// played in turn instead of becoming a run of refusals.
    pub in_turn: Vec<bool>,
}

impl Case {
    /// The game of run `run` of a scenario: its rules, set-up and events, every event taken
    /// as played in turn (a scenario's colours are written, not generated).
    pub fn from_run(scenario: &crate::scenario::Scenario, run: usize) -> Case {
        Case {
            rules: scenario.runs[run].rules,
            setup: scenario.setup.clone(),
            events: scenario.events.clone(),
            in_turn: vec![true; scenario.events.len()],
        }
    }
}

/// Every word of one axis, in documentation order; komi gets a small range of values.
pub(crate) fn axis_words(axis: &str) -> Vec<String> {
    fn words<T: Copy>(all: &[T], word: impl Fn(T) -> &'static str) -> Vec<String> {
        all.iter().map(|&v| word(v).to_string()).collect()
    }
    match axis {
        KoRule::AXIS => words(KoRule::ALL, KoRule::word),
        SuicideRule::AXIS => words(SuicideRule::ALL, SuicideRule::word),
        PassStones::AXIS => words(PassStones::ALL, PassStones::word),
        Scoring::AXIS => words(Scoring::ALL, Scoring::word),
        SekiEyes::AXIS => words(SekiEyes::ALL, SekiEyes::word),
        HandicapCompensation::AXIS => words(HandicapCompensation::ALL, HandicapCompensation::word),
        HandicapPlacement::AXIS => words(HandicapPlacement::ALL, HandicapPlacement::word),
        Ending::AXIS => words(Ending::ALL, Ending::word),
        WhitePassesLast::AXIS => words(WhitePassesLast::ALL, WhitePassesLast::word),
        Draws::AXIS => words(Draws::ALL, Draws::word),
        IllegalMoveProcedure::AXIS => words(IllegalMoveProcedure::ALL, IllegalMoveProcedure::word),
        // Komi from -2 to 8 in half points: whole values give draws, halves never do.
        _ => (-4..=16)
            .map(|h| crate::rules::Komi::from_half_points(h).to_string())
            .collect(),
    }
}

impl GameInput {
    /// Decodes a game from raw bytes (a fuzzer's input). Short inputs give short games;
    /// nothing fails.
    pub fn from_bytes(data: &[u8]) -> GameInput {
        GameInput::arbitrary(&mut Unstructured::new(data)).unwrap_or_else(|_| GameInput::empty())
    }

    /// A game on a 2x2 board with no event, the decoding of no bytes at all.
    fn empty() -> GameInput {
        GameInput {
            width: 0,
            height: 0,
            shape: 1,
            axes: [0; 13],
            white_first: false,
            history_excluded: false,
            stones: Vec::new(),
            handicap: 0,
            events: Vec::new(),
        }
    }

    /// The concrete game for an implementation with these capabilities: rules from its axis
    /// values, a valid set-up, and events of the kinds it takes.
    pub fn realise(&self, caps: &Capabilities) -> Case {
        self.game_under(caps, self.rules(caps))
    }

    /// The concrete game under one of the named `rulesets` (picked by the input, so every
    /// ruleset gets games): for fuzzing within real rulesets rather than arbitrary mixes of
    /// axis values. With no ruleset it is [`GameInput::realise`].
    pub fn realise_under(&self, caps: &Capabilities, rulesets: &[Rules]) -> Case {
        if rulesets.is_empty() {
            return self.realise(caps);
        }
        let pick = self.axes.iter().fold(0usize, |n, &b| {
            n.wrapping_mul(31).wrapping_add(usize::from(b))
        });
        self.game_under(caps, rulesets[pick % rulesets.len()])
    }

    /// The board, a set-up the reference accepts and the events, under `rules`.
    fn game_under(&self, caps: &Capabilities, rules: Rules) -> Case {
        let (width, height) = self.dimensions();
        let setup = self.setup(&rules, width, height);
        let mut case = Case {
            rules,
            setup,
            events: Vec::new(),
            in_turn: Vec::new(),
        };
        self.events_for(&mut case, caps);
        case
    }

    /// The board's width and height: square unless the input asks for another shape.
    fn dimensions(&self) -> (u8, u8) {
        let width = 2 + self.width % (MAX_SIDE - 1);
        let height = if self.shape.is_multiple_of(4) {
            2 + self.height % (MAX_SIDE - 1)
        } else {
            width
        };
        (width, height)
    }

    fn rules(&self, caps: &Capabilities) -> Rules {
        let mut rules = Rules::default();
        for (i, axis) in AXES.iter().enumerate() {
            let words = caps
                .axes
                .get(*axis)
                .cloned()
                .unwrap_or_else(|| axis_words(axis));
            if words.is_empty() {
                continue;
            }
            let word = &words[usize::from(self.axes[i]) % words.len()];
            // A capability word that is not a value of the axis is the adapter's mistake; the
            // default stays and the harness reports the axis.
            let _ = rules.set(axis, word);
        }
        rules
    }

    /// Set-up stones that the reference accepts (each is kept only if the position with it
    /// still has a liberty for every string), then the handicap if it fits.
    fn setup(&self, rules: &Rules, width: u8, height: u8) -> Setup {
        let mut setup = Setup::empty(width, height);
        setup.to_move = if self.white_first {
            Color::White
        } else {
            Color::Black
        };
        if self.history_excluded {
            setup.history = SetupHistory::Excluded;
        }
        let area = usize::from(width) * usize::from(height);
        for &(index, white) in self.stones.iter().take(area / 3) {
            let p = point_at(usize::from(index), width, height);
            if setup.stones.iter().any(|(q, _)| *q == p) {
                continue;
            }
            let color = if white { Color::White } else { Color::Black };
            setup.stones.push((p, color));
            if Game::new(*rules, &setup).is_err() {
                setup.stones.pop();
            }
        }
        let count = u32::from(self.handicap % 5);
        if count >= 2 {
            let points = match rules.handicap_placement {
                HandicapPlacement::Fixed if width == height => {
                    handicap::fixed_points(Pattern::Traditional, width, count)
                }
                HandicapPlacement::Fixed => None,
                HandicapPlacement::Free => {
                    let mut free: Vec<Point> = Vec::new();
                    for &(index, _) in self.stones.iter().rev() {
                        let p = point_at(usize::from(index), width, height);
                        if !free.contains(&p) && free.len() < count as usize {
                            free.push(p);
                        }
                    }
                    (free.len() == count as usize).then_some(free)
                }
            };
            if let Some(points) = points {
                let mut with = setup.clone();
                with.handicap = points;
                with.to_move = Color::White;
                if Game::new(*rules, &with).is_ok() {
                    setup = with;
                }
            }
        }
        setup
    }

    fn events_for(&self, case: &mut Case, caps: &Capabilities) {
        let Ok(mut referee) = Refereed::new(case.rules, &case.setup) else {
            return;
        };
        let record = caps.observes(Observable::Procedures);
        let out_of_turn = caps.judges(Reason::OutOfTurn);
        // Events after the end are all refused (game over): two of them are enough to check
        // that an implementation refuses them.
        let mut after_end = 0;
        for choice in &self.events {
            if case.events.len() >= MAX_EVENTS {
                break;
            }
            let game = referee.game();
            let phase = game.phase();
            if phase == Phase::Ended {
                after_end += 1;
                if after_end > 2 {
                    break;
                }
            }
            let ending_events = caps.takes(EventKind::Dispute) || caps.takes(EventKind::Agree);
            if phase == Phase::Paused && !ending_events && !record {
                // Nothing the implementation takes can go on from a pause: every further
                // event would be refused for a reason it does not judge.
                break;
            }
            let Some((event, in_turn)) = concrete(*choice, &referee, caps, record, out_of_turn)
            else {
                continue;
            };
            referee.apply(event.clone());
            case.events.push(event);
            case.in_turn.push(in_turn);
        }
    }
}

/// The event a choice makes in the reference's current state, and whether its colour is the
/// player to move; `None` where the implementation cannot take it.
fn concrete(
    choice: EventChoice,
    referee: &Refereed,
    caps: &Capabilities,
    record: bool,
    out_of_turn: bool,
) -> Option<(Event, bool)> {
    let game = referee.game();
    let board = game.board();
    let (w, h) = (board.width(), board.height());
    let mover = game.to_move();
    let empties: Vec<Point> = board.points().filter(|&p| board.get(p).is_none()).collect();
    let nth_empty = |n: u8| (!empties.is_empty()).then(|| empties[usize::from(n) % empties.len()]);
    let play =
        |color: Color, p: Option<Point>| Some(Event::Move(color, p.map_or(Move::Pass, Move::Play)));
    let (event, in_turn) = match choice {
        EventChoice::Play(n) => (play(mover, nth_empty(n))?, true),
        EventChoice::PlayAnywhere(n) => (play(mover, Some(point_at(usize::from(n), w, h)))?, true),
        EventChoice::OutOfTurn(n) if out_of_turn => (play(mover.opponent(), nth_empty(n))?, false),
        EventChoice::OutOfTurn(n) => (play(mover, nth_empty(n))?, true),
        EventChoice::Pass => (Event::Move(mover, Move::Pass), true),
        EventChoice::Dispute(c) => (
            Event::Dispute(c.map(|w| if w { Color::White } else { Color::Black })),
            false,
        ),
        EventChoice::Agree(a, b) => {
            let stones = board.stones();
            let dead: Vec<Point> = if a % 7 == 0 {
                // Now and then a point that may be empty: an agreement naming no stone.
                vec![point_at(usize::from(b), w, h)]
            } else if stones.is_empty() || a % 3 == 0 {
                Vec::new()
            } else {
                let mut dead = vec![stones[usize::from(a) % stones.len()].0];
                if b % 2 == 0 {
                    let q = stones[usize::from(b) % stones.len()].0;
                    if !dead.contains(&q) {
                        dead.push(q);
                    }
                }
                dead
            };
            (Event::Agree(dead), false)
        }
        EventChoice::Resign(white) => (
            Event::Resign(if white { Color::White } else { Color::Black }),
            false,
        ),
        EventChoice::Forced(n) if record => (
            Event::Breach(
                mover,
                Move::Play(point_at(usize::from(n), w, h)),
                Breach::Forced,
            ),
            true,
        ),
        EventChoice::Forced(n) => (play(mover, nth_empty(n))?, true),
        EventChoice::Notice(agreed) if record => (Event::Notice { agreed }, false),
        EventChoice::Notice(_) => (Event::Move(mover, Move::Pass), true),
    };
    let taken = EventKind::of(&event).is_none_or(|k| caps.takes(k));
    taken.then_some((event, in_turn))
}

/// The n-th point of the board, modulo its area, in reading order from the bottom left.
fn point_at(index: usize, width: u8, height: u8) -> Point {
    let area = usize::from(width) * usize::from(height);
    let i = index % area;
    Point::new(
        (i % usize::from(width)) as u8,
        (i / usize::from(width)) as u8,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::SplitMix64;

    fn bytes(seed: u64, n: usize) -> Vec<u8> {
        let mut rng = SplitMix64::new(seed);
        (0..n).map(|_| rng.next_u64() as u8).collect()
    }

    #[test]
    fn every_realised_setup_is_accepted_and_games_are_varied() {
        let caps = Capabilities::everything();
        let mut captures = 0;
        let mut illegal = 0;
        for seed in 0..200 {
            let case = GameInput::from_bytes(&bytes(seed, 600)).realise(&caps);
            let mut referee = Refereed::new(case.rules, &case.setup).expect("valid set-up");
            assert_eq!(case.events.len(), case.in_turn.len());
            for e in &case.events {
                match referee.apply(e.clone()) {
                    crate::game::Verdict::Legal { captured, .. } if !captured.is_empty() => {
                        captures += 1
                    }
                    crate::game::Verdict::Illegal(_) => illegal += 1,
                    _ => {}
                }
            }
        }
        assert!(captures > 50, "{captures} captures");
        assert!(illegal > 50, "{illegal} refusals");
    }

    #[test]
    fn a_gtp_like_engine_gets_only_its_axes_and_events() {
        let caps = Capabilities::new()
            .only("ko", ["simple"])
            .only("suicide", ["forbidden"])
            .judging([Reason::Occupied, Reason::Suicide, Reason::Ko])
            .taking([EventKind::Play, EventKind::Pass]);
        for seed in 0..100 {
            let case = GameInput::from_bytes(&bytes(seed, 400)).realise(&caps);
            assert_eq!(case.rules.ko, KoRule::Simple);
            assert_eq!(case.rules.suicide, SuicideRule::Forbidden);
            assert!(case.events.iter().all(|e| matches!(e, Event::Move(..))));
            assert!(case.in_turn.iter().all(|&t| t), "no move out of turn");
        }
    }

    #[test]
    fn no_bytes_still_make_a_game() {
        let case = GameInput::from_bytes(&[]).realise(&Capabilities::everything());
        assert!(Refereed::new(case.rules, &case.setup).is_ok());
    }
}
