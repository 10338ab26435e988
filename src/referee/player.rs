//! One engine of a match: a GTP program asked to play, never trusted to judge.
//!
//! The referee asks a player for its move (`genmove`), tells it its opponent's moves (`play`),
//! takes back a move the rules refused (`undo`), asks which stones it thinks are dead
//! (`final_status_list dead`) and keeps it informed of its clock (`time_settings`,
//! `time_left`). Every exchange has a time limit; a player that hangs, dies or answers
//! something that is not GTP is a [`Fault`], and the game it was playing is lost by the rule
//! in [`super::game`].

use std::time::Duration;

use crate::board::{Color, Move, Point};
use crate::conformance::EngineError;
use crate::engines::gtp::{exchange, Answer};
use crate::engines::process::{split_command, EngineProcess};
use crate::tournament::clock::Phase;
use crate::tournament::time_control::{Overtime, TimeControl};

/// The longest answer a player may give (a `final_status_list` on 25x25 is a few kB).
const MAX_ANSWER: usize = 64 * 1024;

/// Why a player cannot go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    /// The colour whose engine failed.
    pub color: Color,
    /// `crash`, `timeout` or `protocol` (the [`crate::conformance::ErrorKind`] word).
    pub kind: &'static str,
    /// What went wrong, for the report.
    pub message: String,
}

/// What a player answers to `genmove`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Generated {
    /// A move (a pass included) to be judged by the referee.
    Move(Move),
    /// The engine gives up the game.
    Resign,
}

/// One side of the board as the referee sees it: asked for moves, told the opponent's, asked
/// which stones are dead. A GTP engine in another process ([`Player`]) in a match; a scripted
/// program ([`super::scripted::Scripted`]) in a tournament scenario, so that the referee's
/// procedure runs the same either way.
pub trait Seat {
    /// The colour it plays.
    fn color(&self) -> Color;
    /// Its name and version, as it gives them.
    fn identity(&mut self) -> String;
    /// A new game: board size, komi, the handicap stones.
    fn new_game(&mut self, size: u8, komi: f64, handicap: &[Point]) -> Result<(), Fault>;
    /// The time control of the game.
    fn time_settings(&mut self, control: &TimeControl) -> Result<(), Fault>;
    /// The time it has left, as the clock says.
    fn time_left(&mut self, phase: Phase, control: &TimeControl) -> Result<(), Fault>;
    /// Its move, within `timeout`.
    fn genmove(&mut self, timeout: Duration) -> Result<Generated, Fault>;
    /// A move of either colour, to keep its board.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Fault>;
    /// Play resumes after a dispute, `first` to move.
    fn resume(&mut self, first: Color) -> Result<(), Fault>;
    /// Takes back its last move (one the rules refused).
    fn undo(&mut self) -> Result<(), Fault>;
    /// The stones it calls dead.
    fn dead_stones(&mut self) -> Result<Vec<Point>, Fault>;
    /// The game is over: ends the session.
    fn quit(self: Box<Self>);
}

impl Seat for Player {
    fn color(&self) -> Color {
        self.color
    }
    fn identity(&mut self) -> String {
        Player::identity(self)
    }
    fn new_game(&mut self, size: u8, komi: f64, handicap: &[Point]) -> Result<(), Fault> {
        Player::new_game(self, size, komi, handicap)
    }
    fn time_settings(&mut self, control: &TimeControl) -> Result<(), Fault> {
        Player::time_settings(self, control)
    }
    fn time_left(&mut self, phase: Phase, control: &TimeControl) -> Result<(), Fault> {
        Player::time_left(self, phase, control)
    }
    fn genmove(&mut self, timeout: Duration) -> Result<Generated, Fault> {
        Player::genmove(self, timeout)
    }
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Fault> {
        Player::play(self, color, mv)
    }
    fn resume(&mut self, first: Color) -> Result<(), Fault> {
        Player::resume(self, first)
    }
    fn undo(&mut self) -> Result<(), Fault> {
        Player::undo(self)
    }
    fn dead_stones(&mut self) -> Result<Vec<Point>, Fault> {
        Player::dead_stones(self)
    }
    fn quit(self: Box<Self>) {
        Player::quit(*self);
    }
}

/// A GTP engine playing one colour.
pub struct Player {
    /// The colour it plays.
    pub color: Color,
    /// The command line it was started with, for reports.
    pub command: String,
    process: EngineProcess,
    next_id: u32,
    size: u8,
    /// The time limit of every command but `genmove`, which the clock may set.
    pub timeout: Duration,
    /// The commands the engine says it knows (`list_commands`).
    known: Vec<String>,
}

impl Player {
    /// Starts `command` and checks that it speaks GTP version 2.
    pub fn start(color: Color, command: &str, timeout: Duration) -> Result<Player, Fault> {
        let fault = |e: EngineError| Fault {
            color,
            kind: e.kind.word(),
            message: e.message,
        };
        let (program, args) = split_command(command).map_err(|message| Fault {
            color,
            kind: "crash",
            message,
        })?;
        // GNU Go named plainly is found where `check --engine gnugo` finds it (Debian puts it
        // in /usr/games, off the PATH of root and of many services).
        let program = if program == "gnugo" {
            crate::engines::gtp::gnugo_program()
        } else {
            program
        };
        let mut process = EngineProcess::spawn(&program, &args).map_err(fault)?;
        process.set_write_limit(timeout);
        let mut player = Player {
            color,
            command: command.to_string(),
            process,
            next_id: 1,
            size: 19,
            timeout,
            known: Vec::new(),
        };
        let version = player.expect("protocol_version")?;
        if version.trim() != "2" {
            return Err(player.fault(
                "protocol error",
                format!("speaks GTP version `{}`, not 2", version.trim()),
            ));
        }
        player.known = player
            .expect("list_commands")?
            .lines()
            .map(|l| l.trim().to_string())
            .collect();
        Ok(player)
    }

    /// Whether the engine lists `command` among those it knows.
    pub fn knows(&self, command: &str) -> bool {
        self.known.iter().any(|k| k == command)
    }

    /// The engine's name and version, as it gives them.
    pub fn identity(&mut self) -> String {
        let name = self
            .ask("name")
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        let version = self
            .ask("version")
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default();
        format!("{} {}", name.trim(), version.trim())
            .trim()
            .to_string()
    }

    fn fault(&self, kind: &'static str, message: String) -> Fault {
        let tail = self.process.stderr_tail();
        Fault {
            color: self.color,
            kind,
            message: if tail.is_empty() {
                message
            } else {
                format!("{message} (stderr: {tail})")
            },
        }
    }

    /// One command with a time limit; a breakdown is a fault.
    pub fn ask_within(&mut self, command: &str, timeout: Duration) -> Result<Answer, Fault> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        exchange(&mut self.process, id, command, timeout, MAX_ANSWER).map_err(|e| Fault {
            color: self.color,
            kind: e.kind.word(),
            message: e.message,
        })
    }

    fn ask(&mut self, command: &str) -> Result<Answer, Fault> {
        self.ask_within(command, self.timeout)
    }

    /// A command that must succeed: a `?` answer is a fault.
    pub fn expect(&mut self, command: &str) -> Result<String, Fault> {
        match self.ask(command)? {
            Ok(text) => Ok(text),
            Err(text) => Err(self.fault(
                "protocol error",
                format!("refused `{command}`: {}", text.trim()),
            )),
        }
    }

    /// A new game: board size, empty board, komi, the handicap stones.
    pub fn new_game(&mut self, size: u8, komi: f64, handicap: &[Point]) -> Result<(), Fault> {
        self.size = size;
        self.expect(&format!("boardsize {size}"))?;
        self.expect("clear_board")?;
        self.expect(&format!("komi {komi}"))?;
        if !handicap.is_empty() {
            let vertices: Vec<String> = handicap.iter().map(|p| p.to_string()).collect();
            self.expect(&format!("set_free_handicap {}", vertices.join(" ")))?;
        }
        Ok(())
    }

    /// Tells the engine the time control, in whole seconds as GTP counts: absolute time and
    /// Canadian overtime with `time_settings`; byo-yomi with `kgs-time_settings` where the
    /// engine knows it, else as Canadian periods of one stone; second counting as periods of
    /// one stone with no basic time.
    pub fn time_settings(&mut self, control: &TimeControl) -> Result<(), Fault> {
        let secs = |ms: u64| ms.div_ceil(1000);
        let command = match control.overtime {
            Overtime::None => format!("time_settings {} 0 0", secs(control.main)),
            Overtime::Canadian { stones, period } => {
                format!(
                    "time_settings {} {} {stones}",
                    secs(control.main),
                    secs(period)
                )
            }
            Overtime::Byoyomi { periods, period } if self.knows("kgs-time_settings") => format!(
                "kgs-time_settings byoyomi {} {} {periods}",
                secs(control.before_overtime()),
                secs(period)
            ),
            Overtime::Byoyomi { period, .. } => {
                format!(
                    "time_settings {} {} 1",
                    secs(control.before_overtime()),
                    secs(period)
                )
            }
            Overtime::SecondCounting { per_move } => {
                format!("time_settings 0 {} 1", secs(per_move))
            }
        };
        self.expect(&command).map(|_| ())
    }

    /// Tells the engine how much time it has left, as the clock says (`time_left COLOR
    /// SECONDS STONES`; stones 0 in basic time).
    pub fn time_left(&mut self, phase: Phase, control: &TimeControl) -> Result<(), Fault> {
        let (left, stones) = match (phase, control.overtime) {
            (Phase::Main { left }, _) => (left, 0),
            (Phase::Canadian { stones, left }, _) => (left, stones),
            (Phase::Byoyomi { used, .. }, Overtime::Byoyomi { period, .. }) => {
                (period.saturating_sub(used), 1)
            }
            (Phase::Seconds { used }, Overtime::SecondCounting { per_move }) => {
                (per_move.saturating_sub(used), 1)
            }
            _ => (0, 0),
        };
        let command = format!("time_left {} {} {stones}", self.color.name(), left / 1000);
        self.expect(&command).map(|_| ())
    }

    /// Asks for this player's move within `timeout`.
    pub fn genmove(&mut self, timeout: Duration) -> Result<Generated, Fault> {
        let command = format!("genmove {}", self.color.name());
        let answer = match self.ask_within(&command, timeout)? {
            Ok(text) => text,
            Err(text) => {
                return Err(self.fault(
                    "protocol error",
                    format!("refused `{command}`: {}", text.trim()),
                ))
            }
        };
        let word = answer.trim();
        if word.eq_ignore_ascii_case("resign") {
            return Ok(Generated::Resign);
        }
        Move::parse_gtp(word, self.size, self.size)
            .map(Generated::Move)
            .map_err(|e| {
                self.fault(
                    "protocol error",
                    format!("`{command}` answered `{word}`: {e}"),
                )
            })
    }

    /// Tells the engine a move of either colour.
    pub fn play(&mut self, color: Color, mv: Move) -> Result<(), Fault> {
        let vertex = match mv {
            Move::Pass => "pass".to_string(),
            Move::Play(p) => p.to_string(),
        };
        self.expect(&format!("play {} {vertex}", color.name()))
            .map(|_| ())
    }

    /// Tells the engine that play resumes after a dispute, `first` to move: `goconform-dispute
    /// COLOR` where the engine lists it (goconform's own `gtp` face, which otherwise stays
    /// paused and refuses every move). An engine without it is told nothing: a standard GTP
    /// engine has no pause, so its board is already the board play resumes on.
    pub fn resume(&mut self, first: Color) -> Result<(), Fault> {
        if self.knows("goconform-dispute") {
            self.expect(&format!("goconform-dispute {}", first.name()))?;
        }
        Ok(())
    }

    /// Takes back the engine's last move (one the rules refused).
    pub fn undo(&mut self) -> Result<(), Fault> {
        self.expect("undo").map(|_| ())
    }

    /// The stones the engine calls dead, as points.
    pub fn dead_stones(&mut self) -> Result<Vec<Point>, Fault> {
        let answer = self.expect("final_status_list dead")?;
        let mut points = Vec::new();
        for vertex in answer.split_whitespace() {
            match Point::parse_gtp(vertex, self.size, self.size) {
                Ok(p) => points.push(p),
                Err(e) => {
                    return Err(self.fault(
                        "protocol error",
                        format!("`final_status_list dead` lists `{vertex}`: {e}"),
                    ))
                }
            }
        }
        points.sort();
        points.dedup();
        Ok(points)
    }

    /// Ends the session politely; the process is killed when the player is dropped anyway.
    pub fn quit(mut self) {
        let _ = self.ask_within("quit", Duration::from_millis(500));
        self.process.kill();
    }
}
