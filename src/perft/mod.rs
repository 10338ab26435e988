//! GoPerft: the number of lines of legal moves of a given length from a position, the way
//! chess move generators are checked (perft), with the per-move split ("divide") that bisects
//! a difference between two implementations.
//!
//! The precise definition is in `docs/perft.md`; in short: a move is a board play at an empty
//! point or a pass by the player to move, judged by the full rules (occupied, suicide, the ko
//! rule against the whole repetition history); `perft(0) = 1`; a position where play has
//! stopped (two consecutive passes, or the ruleset's own ending) has no moves, so a line that
//! stops before depth `d` adds nothing to `perft(d)`.
//!
//! [`perft`] counts with the reference executor ([`Game`]); [`replay`] counts through any
//! [`Referee`](crate::conformance::Referee) by replaying lines, so that the naive executor and
//! engines from elsewhere can be compared with it; [`file`] reads and writes the `.perft`
//! lines.

pub mod file;
pub mod replay;

use crate::board::{Color, Move, Point};
use crate::game::{Event, Game, Mark, Setup, SetupHistory};
use crate::rules::{KoRule, Rules, SuicideRule};

/// A start position: a set-up, and the events played from it before counting (their
/// positions are in the repetition history the count starts with).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Start {
    /// The set-up: size, stones, who moves, whether the set-up position is in the history.
    pub setup: Setup,
    /// Moves played from the set-up before counting, each legal.
    pub moves: Vec<Event>,
}

impl Start {
    /// The empty board of `width` x `height`, Black to move, the empty board the first
    /// position of the history (created, by the set-up convention, by White).
    pub fn empty(width: u8, height: u8) -> Start {
        Start {
            setup: Setup {
                width,
                height,
                stones: Vec::new(),
                handicap: Vec::new(),
                to_move: Color::Black,
                history: SetupHistory::Played,
                handicap_as_placed: false,
            },
            moves: Vec::new(),
        }
    }

    /// The game at this start under `rules`: the set-up with its moves played. An error names
    /// a set-up the rules refuse or the first move that is illegal.
    pub fn game(&self, rules: &Rules) -> Result<Game, String> {
        let mut game =
            Game::new(*rules, &self.setup).map_err(|e| format!("the set-up is refused: {e}"))?;
        for (n, event) in self.moves.iter().enumerate() {
            let verdict = game.apply(event.clone());
            if !verdict.is_legal() {
                return Err(format!(
                    "move {} of the start, `{event}`, is illegal: {verdict}",
                    n + 1
                ));
            }
        }
        Ok(game)
    }
}

/// Every point of a `width` x `height` board in the order perft lists moves: row 1 first,
/// columns A onwards within a row (A1, B1, ..., A2, ...).
pub fn points(width: u8, height: u8) -> Vec<Point> {
    (0..height)
        .flat_map(|row| (0..width).map(move |col| Point::new(col, row)))
        .collect()
}

/// The legal moves of the player to move, board plays in [`points`] order then the pass;
/// none where play has stopped.
pub fn legal_moves(game: &Game) -> Vec<Move> {
    if !game.phase().is_play() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    game.each_legal_play(game.to_move(), |p| moves.push(Move::Play(p)));
    moves.push(Move::Pass);
    moves
}

/// The game after `mv` by the player to move (which must be legal).
fn child(game: &Game, mv: Move) -> Game {
    let mut next = game.clone();
    let verdict = next.apply(Event::Move(game.to_move(), mv));
    debug_assert!(verdict.is_legal(), "{mv} listed as legal");
    next
}

/// The number of lines of exactly `depth` legal moves from `game`, counted with the
/// reference executor. Leaves are counted without being played (each candidate is judged,
/// with every check of the rules, as [`Game::check_play`] judges it); a move above the
/// leaves is judged once, made, counted below and taken back ([`Game::mark`] and
/// [`Game::rewind`], the game's undo record) rather than made in a copy of the game.
pub fn perft(game: &Game, depth: u32) -> u64 {
    let mut game = game.clone();
    let mut marks = vec![Mark::default(); depth.saturating_sub(1) as usize];
    count(&mut game, depth, &mut marks)
}

/// [`perft`] in place: `game` is left as it was found; `marks` holds one undo record for
/// each level above the leaves.
fn count(game: &mut Game, depth: u32, marks: &mut [Mark]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if !game.phase().is_play() {
        return 0;
    }
    let color = game.to_move();
    let (width, height) = (game.board().width(), game.board().height());
    if depth == 1 {
        let mut total = 1; // the pass, always legal while play goes on
        game.each_legal_play(color, |_| total += 1);
        return total;
    }
    let (mark, below) = marks
        .split_first_mut()
        .expect("one mark for each level above the leaves");
    game.mark(mark);
    let mut total = 0;
    for row in 0..height {
        for col in 0..width {
            if let Ok(judged) = game.judge_play(color, Point::new(col, row)) {
                judged.play_in_place();
                total += count(game, depth - 1, below);
                game.rewind(mark);
            }
        }
    }
    let verdict = game.apply(Event::Move(color, Move::Pass));
    debug_assert!(verdict.is_legal(), "a pass while play goes on");
    total += count(game, depth - 1, below);
    game.rewind(mark);
    total
}

/// [`perft`] split by the first move: each legal move with the count of `depth - 1` below it
/// (for `depth` 0, nothing).
pub fn divide(game: &Game, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(game)
        .into_iter()
        .map(|mv| (mv, perft(&child(game, mv), depth - 1)))
        .collect()
}

/// The first line on which two rule sets part: the shortest sequence of moves legal under
/// both, after which some move is legal under one and not the other.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Separation {
    /// The moves legal under both rule sets, from the start.
    pub line: Vec<Move>,
    /// The move then legal under exactly one of them.
    pub mv: Move,
    /// Whether it is the first rule set that allows it.
    pub legal_under_first: bool,
}

impl Separation {
    /// The number of moves up to and including the one that parts the rules: the smallest
    /// depth whose trees differ.
    pub fn depth(&self) -> u32 {
        self.line.len() as u32 + 1
    }

    /// The line and the move as GTP moves with colours, e.g. `B A1 W B1 B pass W A1`.
    pub fn describe(&self, first_to_move: Color) -> String {
        let mut color = first_to_move;
        let mut words = Vec::new();
        for mv in self.line.iter().chain(std::iter::once(&self.mv)) {
            words.push(format!("{} {mv}", color.letter()));
            color = color.opponent();
        }
        words.join(" ")
    }
}

/// The first separating line of two rule sets from `start`, searching depths up to
/// `max_depth` (iterative deepening, moves in [`legal_moves`] order, so the line found is the
/// first of the shortest); `None` if the trees agree to that depth. An error names a start
/// either rule set refuses.
pub fn separation(
    start: &Start,
    first: &Rules,
    second: &Rules,
    max_depth: u32,
) -> Result<Option<Separation>, String> {
    let a = start.game(first)?;
    let b = start.game(second)?;
    for depth in 1..=max_depth {
        let mut line = Vec::new();
        if let Some(found) = separate(&a, &b, depth, &mut line) {
            return Ok(Some(found));
        }
    }
    Ok(None)
}

fn separate(a: &Game, b: &Game, depth: u32, line: &mut Vec<Move>) -> Option<Separation> {
    let (moves_a, moves_b) = (legal_moves(a), legal_moves(b));
    if depth == 1 {
        if let Some(&mv) = moves_a.iter().find(|m| !moves_b.contains(m)) {
            return Some(Separation {
                line: line.clone(),
                mv,
                legal_under_first: true,
            });
        }
        return moves_b
            .iter()
            .find(|m| !moves_a.contains(m))
            .map(|&mv| Separation {
                line: line.clone(),
                mv,
                legal_under_first: false,
            });
    }
    for mv in moves_a.into_iter().filter(|m| moves_b.contains(m)) {
        line.push(mv);
        let found = separate(&child(a, mv), &child(b, mv), depth - 1, line);
        line.pop();
        if found.is_some() {
            return found;
        }
    }
    None
}

/// A named start position of the published tables: a scenario of the suite, with the first
/// `after` of its moves played (so their positions are in the history the count starts with).
#[derive(Clone, Copy, Debug)]
pub struct Named {
    /// The name the tables use.
    pub name: &'static str,
    /// The scenario's id.
    pub scenario: &'static str,
    /// How many of the scenario's moves are played before counting.
    pub after: usize,
    /// What the position is about, in a few words.
    pub about: &'static str,
}

/// The named positions of the published tables.
pub const NAMED: &[Named] = &[
    Named {
        name: "ko",
        scenario: "basic-ko",
        after: 1,
        about: "Black has just taken the ko at C3; White may not retake at B3 at once",
    },
    Named {
        name: "send-two-return-one",
        scenario: "send-two-return-one",
        after: 6,
        about: "White to send two stones at A1; Black takes two, White takes one back at B1, and the board repeats with the other player to move",
    },
    Named {
        name: "eternal-life",
        scenario: "eternal-life-cycle",
        after: 10,
        about: "the four-move cycle B A1, W C1, B B1, W D1 that every superko ends",
    },
    Named {
        name: "nssk-after-a-pass",
        scenario: "retake-after-one-pass",
        after: 8,
        about: "Black passes, White takes the ko back, and Black's retake recreates a position White's pass made",
    },
    Named {
        name: "triple-ko",
        scenario: "triple-ko",
        after: 25,
        about: "three kos on a 7x7 board: the six-move cycle repeats the position",
    },
];

/// The rule sets the published tables use: every ko rule, with suicide forbidden and
/// allowed, the other axes at their defaults (which change no count: see `docs/perft.md`).
pub fn table_rules() -> Vec<Rules> {
    let mut all = Vec::new();
    for suicide in [SuicideRule::Forbidden, SuicideRule::Allowed] {
        for ko in [
            KoRule::Simple,
            KoRule::Positional,
            KoRule::Situational,
            KoRule::NaturalSituational,
        ] {
            all.push(Rules {
                ko,
                suicide,
                ..Rules::default()
            });
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_smallest_counts_by_hand() {
        let rules = Rules::default();
        let game = Start::empty(2, 2).game(&rules).unwrap();
        // Four plays and the pass.
        assert_eq!(perft(&game, 1), 5);
        // After a play, three plays and the pass (no capture is possible yet), four times;
        // after the pass, four plays and the pass that stops play.
        assert_eq!(perft(&game, 2), 4 * 4 + 5);
        // Two passes stop play: the line B pass W pass has no continuation.
        let d3: u64 = divide(&game, 3).iter().map(|&(_, n)| n).sum();
        assert_eq!(d3, perft(&game, 3));
        assert_eq!(divide(&game, 3).last().unwrap().0, Move::Pass);
    }

    /// Everything a rule judges, for comparing a rewound game with a copy of what it was.
    #[derive(Debug, PartialEq)]
    struct State {
        diagram: String,
        to_move: Color,
        phase: crate::game::Phase,
        history_len: usize,
        prisoners: [u32; 2],
        legal: Vec<bool>,
    }

    fn state(game: &Game) -> State {
        let b = game.board();
        let mut legal = Vec::new();
        for c in [Color::Black, Color::White] {
            for p in points(b.width(), b.height()) {
                legal.push(game.check_play(c, p).is_ok());
            }
        }
        State {
            diagram: b.diagram(),
            to_move: game.to_move(),
            phase: game.phase(),
            history_len: game.history_len(),
            prisoners: [game.prisoners(Color::Black), game.prisoners(Color::White)],
            legal,
        }
    }

    #[test]
    fn a_rewound_game_is_the_game_it_was() {
        // Random lines of moves (passes among them, so that play also pauses) on small boards
        // under every ko rule: after each line is taken back, the game judges every play as a
        // copy kept from before does, and plays on identically.
        let mut seed = 0x5EED_u64;
        for &ko in KoRule::ALL {
            for suicide in [SuicideRule::Forbidden, SuicideRule::Allowed] {
                let rules = Rules {
                    ko,
                    suicide,
                    ..Rules::default()
                };
                let mut game = Start::empty(3, 3).game(&rules).unwrap();
                let mut mark = Mark::default();
                for _ in 0..60 {
                    if !game.phase().is_play() {
                        game = Start::empty(3, 3).game(&rules).unwrap();
                    }
                    let before = game.clone();
                    game.mark(&mut mark);
                    for _ in 0..6 {
                        let moves = legal_moves(&game);
                        if moves.is_empty() {
                            break;
                        }
                        seed = crate::rng::mix(seed);
                        let mv = moves[(seed % moves.len() as u64) as usize];
                        assert!(game.apply(Event::Move(game.to_move(), mv)).is_legal());
                    }
                    game.rewind(&mark);
                    assert_eq!(state(&game), state(&before), "{ko} {suicide:?}");
                    // One move on: the history it judges against is the one it had.
                    let moves = legal_moves(&game);
                    assert_eq!(moves, legal_moves(&before));
                    if let Some(&mv) = moves.first() {
                        assert!(game.apply(Event::Move(game.to_move(), mv)).is_legal());
                    }
                }
            }
        }
    }

    #[test]
    fn ko_rules_part_on_small_boards() {
        let start = Start::empty(2, 2);
        let simple = Rules {
            ko: KoRule::Simple,
            ..Rules::default()
        };
        let positional = Rules {
            ko: KoRule::Positional,
            ..Rules::default()
        };
        let found = separation(&start, &simple, &positional, 8)
            .unwrap()
            .unwrap();
        // Simple ko allows more: superko forbids a repetition that simple ko lets through.
        assert!(found.legal_under_first);
        let mut a = start.game(&simple).unwrap();
        let mut b = start.game(&positional).unwrap();
        for &mv in &found.line {
            assert!(a.apply(Event::Move(a.to_move(), mv)).is_legal());
            assert!(b.apply(Event::Move(b.to_move(), mv)).is_legal());
        }
        assert!(legal_moves(&a).contains(&found.mv));
        assert!(!legal_moves(&b).contains(&found.mv));
    }
}
