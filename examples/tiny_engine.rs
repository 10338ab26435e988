//! A tiny Go rules engine checked against the goconform suite: the worked example of
//! `docs/implementing.md`.
//!
//! The rules here are written from scratch, the way the author of another engine would write
//! them: a flat board of optional stones, captures found by flood fill, simple ko, no suicide,
//! strict alternation, and the Japanese-style ending (two passes stop play, the players agree
//! on the dead stones). goconform's types appear only where the `Referee` trait needs them.
//!
//! `cargo run --example tiny_engine` runs the whole embedded suite through it, one test per
//! trial, like a `cargo test` binary; `cargo run --example tiny_engine -- ko` keeps only the
//! trials whose name contains `ko`.

use std::path::PathBuf;
use std::sync::Arc;

use goconform::board::{Color, Move, Point};
use goconform::conformance::libtest::{self, Options};
use goconform::conformance::{
    Capabilities, EngineError, EngineInfo, Observable, Observation, Referee, Unsupported,
};
use goconform::game::{Event, Phase, Reason, Setup, Verdict};
use goconform::rules::{Rules, WhitePassesLast};

/// One game in progress. Points are indices `row * width + col` into `board`.
struct Game {
    width: usize,
    height: usize,
    board: Vec<Option<Color>>,
    to_move: Color,
    /// The point the player to move may not play on: the simple ko ban. Any other legal move
    /// (a pass included) lifts it.
    ko: Option<usize>,
    /// Consecutive passes: two of them stop play.
    passes: u8,
    phase: Phase,
    /// Stones taken by Black and by White (captures and agreed dead stones).
    prisoners: [u32; 2],
    /// Whether White makes the last move: at the end, after Black's pass, White passes once
    /// more, and Black is then the one to move.
    white_passes_last: bool,
}

/// The engine the harness drives. It holds no game until `start`.
#[derive(Default)]
struct TinyEngine {
    game: Option<Game>,
}

impl Game {
    fn new(rules: &Rules, setup: &Setup) -> Game {
        let (width, height) = (usize::from(setup.width), usize::from(setup.height));
        // With handicap stones White moves first, whatever the set-up says.
        let to_move = if setup.handicap.is_empty() {
            setup.to_move
        } else {
            Color::White
        };
        let mut game = Game {
            width,
            height,
            board: vec![None; width * height],
            to_move,
            ko: None,
            passes: 0,
            phase: Phase::Playing,
            prisoners: [0, 0],
            white_passes_last: rules.white_passes_last != WhitePassesLast::No,
        };
        let handicap = setup.handicap.iter().map(|&p| (p, Color::Black));
        for (p, color) in setup.stones.iter().copied().chain(handicap) {
            let i = game.index(p);
            game.board[i] = Some(color);
        }
        game
    }

    fn index(&self, p: Point) -> usize {
        usize::from(p.row) * self.width + usize::from(p.col)
    }

    fn point(&self, i: usize) -> Point {
        Point::new((i % self.width) as u8, (i / self.width) as u8)
    }

    fn neighbours(&self, i: usize) -> impl Iterator<Item = usize> {
        let (w, h, col, row) = (self.width, self.height, i % self.width, i / self.width);
        [
            (col > 0).then(|| i - 1),
            (col + 1 < w).then(|| i + 1),
            (row > 0).then(|| i - w),
            (row + 1 < h).then(|| i + w),
        ]
        .into_iter()
        .flatten()
    }

    /// The string through the stone at `i` (flood fill) and whether it has a liberty.
    fn string(&self, i: usize) -> (Vec<usize>, bool) {
        let color = self.board[i];
        let (mut string, mut stack, mut free) = (vec![i], vec![i], false);
        while let Some(j) = stack.pop() {
            for n in self.neighbours(j) {
                if self.board[n].is_none() {
                    free = true;
                } else if self.board[n] == color && !string.contains(&n) {
                    string.push(n);
                    stack.push(n);
                }
            }
        }
        (string, free)
    }

    /// A board play: the captured points, or why it is illegal (the board is then unchanged).
    fn play(&mut self, color: Color, i: usize) -> Result<Vec<Point>, Reason> {
        if self.board[i].is_some() {
            return Err(Reason::Occupied);
        }
        if self.ko == Some(i) {
            return Err(Reason::Ko);
        }
        self.board[i] = Some(color);
        let mut captured = Vec::new();
        for n in self.neighbours(i).collect::<Vec<_>>() {
            if self.board[n] == Some(color.opponent()) {
                let (string, free) = self.string(n);
                if !free {
                    for s in string {
                        self.board[s] = None;
                        captured.push(s);
                    }
                }
            }
        }
        let (own, free) = self.string(i);
        if !free {
            // Nothing was captured (a capture would have given a liberty): suicide.
            self.board[i] = None;
            return Err(Reason::Suicide);
        }
        // Simple ko: a single stone that captured a single stone and now has that point as
        // its only liberty may be taken back at once; the ban is on that point.
        let liberties = self
            .neighbours(i)
            .filter(|&n| self.board[n].is_none())
            .count();
        self.ko = (captured.len() == 1 && own.len() == 1 && liberties == 1).then(|| captured[0]);
        self.prisoners[color.index()] += captured.len() as u32;
        Ok(captured.into_iter().map(|c| self.point(c)).collect())
    }

    /// The end of the game under the agreement ending: the strings through `dead` go to the
    /// opponent as prisoners.
    fn agree(&mut self, dead: &[Point]) -> Result<Vec<Point>, Reason> {
        if dead.iter().any(|&p| self.board[self.index(p)].is_none()) {
            return Err(Reason::NoStone);
        }
        let mut removed = Vec::new();
        for &p in dead {
            let i = self.index(p);
            let Some(color) = self.board[i] else { continue }; // already removed
            for s in self.string(i).0 {
                self.board[s] = None;
                self.prisoners[color.opponent().index()] += 1;
                removed.push(self.point(s));
            }
        }
        self.phase = Phase::Ended;
        // Play stopped on Black's pass when White is to move: White's extra pass (a move with
        // no stone, since we keep no pass stones) leaves Black to move.
        if self.white_passes_last && self.to_move == Color::White {
            self.to_move = Color::Black;
        }
        Ok(removed)
    }
}

fn legal(captured: Vec<Point>) -> Verdict {
    Verdict::Legal {
        captured,
        self_captured: Vec::new(),
    }
}

impl Referee for TinyEngine {
    /// Name and version, shown in reports.
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "tiny-engine".to_string(),
            version: "0.1.0".to_string(),
        }
    }

    /// What we claim. The harness keeps every trial outside these claims away from us (not
    /// applicable), and never checks what we do not say we observe: an honest, narrow claim
    /// is better than a wide one that fails.
    fn capabilities(&self) -> Capabilities {
        Capabilities::new()
            // The only repetition rule we know is the immediate retake of a single stone.
            .only("ko", ["simple"])
            // A play without liberties after captures is always refused.
            .only("suicide", ["forbidden"])
            // A pass hands over no stone here.
            .only("pass-stones", ["off"])
            // Two passes stop play and an agreement ends it: no resumption, no play-on.
            .only("ending", ["agreement"])
            // Left unrestricted on purpose: scoring, seki-eyes, komi, handicap-komi,
            // handicap-compensation and draws only change the count, which we do not show;
            // white-passes-last is honoured in `agree` (the turn after White's extra pass); handicap stones
            // come in the set-up wherever the placement rule put them; and illegal-move only
            // matters to a referee's record, which we do not keep (no `procedures`).
            .observing([
                Observable::Reasons,
                Observable::Captures,
                Observable::Board,
                Observable::ToMove,
                Observable::Prisoners,
                Observable::Phase,
            ])
    }

    /// A fresh game for each trial. Refusing (`Unsupported`) makes the trial not applicable;
    /// the harness has already checked our capabilities, so this is only a second line.
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.capabilities().supports(rules).map_err(Unsupported)?;
        self.game = Some(Game::new(rules, setup));
        Ok(())
    }

    /// One event. A move against the rules is an `Illegal` verdict with its reason, never an
    /// error: errors are for an engine that cannot answer.
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| EngineError::protocol("an event before start"))?;
        let verdict = match (event, game.phase) {
            (Event::Move(..) | Event::Agree(_) | Event::Dispute(_), Phase::Ended) => {
                Verdict::Illegal(Reason::GameOver)
            }
            (Event::Move(..), Phase::Paused) => Verdict::Illegal(Reason::GamePaused),
            (Event::Move(color, _), _) if *color != game.to_move => {
                Verdict::Illegal(Reason::OutOfTurn)
            }
            (Event::Move(color, Move::Pass), _) => {
                game.ko = None;
                game.to_move = color.opponent();
                game.passes += 1;
                if game.passes == 2 {
                    game.phase = Phase::Paused;
                }
                legal(Vec::new())
            }
            (Event::Move(color, Move::Play(p)), _) => match game.play(*color, game.index(*p)) {
                Ok(captured) => {
                    game.to_move = color.opponent();
                    game.passes = 0;
                    legal(captured)
                }
                Err(reason) => Verdict::Illegal(reason),
            },
            (Event::Agree(_) | Event::Dispute(_), Phase::Playing) => {
                Verdict::Illegal(Reason::NotPaused)
            }
            (Event::Agree(dead), _) => match game.agree(dead) {
                Ok(removed) => legal(removed),
                Err(reason) => Verdict::Illegal(reason),
            },
            // Under the agreement ending a dispute goes to a referee: play never resumes.
            (Event::Dispute(_), _) => Verdict::Illegal(Reason::NoResumption),
            // Resignations and a referee's record are not implemented. Saying so is honest:
            // the harness reports an error, never a pass.
            (other, _) => {
                return Err(EngineError::protocol(format!(
                    "tiny-engine does not implement `{other}`"
                )))
            }
        };
        Ok(verdict)
    }

    /// What we show after the start and after every event. Fill in everything
    /// `capabilities` declares: a declared observation left `None` counts as wrong.
    fn observe(&self) -> Observation {
        let Some(game) = &self.game else {
            return Observation::default();
        };
        let mut stones: Vec<(Point, Color)> = (0..game.board.len())
            .filter_map(|i| game.board[i].map(|c| (game.point(i), c)))
            .collect();
        stones.sort();
        Observation {
            stones: Some(stones),
            to_move: Some(game.to_move),
            prisoners: Some(game.prisoners),
            phase: Some(game.phase),
            ..Observation::default()
        }
    }
    // `count` keeps its default (nothing): we do not score, and do not claim `score`.
}

fn main() {
    let expectations =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("examples/tiny_engine.expectations.toml");
    libtest::main(
        Arc::new(|| Box::new(TinyEngine::default()) as Box<dyn Referee>),
        Options {
            expectations: Some(expectations),
            ..Options::default()
        },
    )
}
