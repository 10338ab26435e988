//! The reference executor as a GTP version 2 engine.
//!
//! [`serve`] reads commands from a controller and answers each one, never ending the session
//! on bad input: an unknown command, a missing argument, a bad vertex or colour gets a `?`
//! answer and the next line is read. Only `quit`, the end of input, or an I/O error end it.
//!
//! # What the engine is
//!
//! A thin face over [`crate::game::Game`]: every `play` is judged by the executor under the
//! current [`Rules`], and an illegal one is answered `? illegal move: REASON` with the reason
//! word of [`crate::game::Reason`] (`ko`, `superko`, `suicide`, `occupied`, `game-paused`,
//! `game-over`). It is a referee more than a player: `genmove` picks a uniformly random legal
//! board play from a fixed-seed generator, so sessions are reproducible.
//!
//! # Conventions worth knowing
//!
//! - `play` accepts consecutive moves of one colour, as GTP requires (controllers set up
//!   positions that way); see [`crate::game::Game::apply_out_of_turn`].
//! - After two consecutive passes the executor pauses play (or ends the game, under
//!   `ending=two-passes`). GTP has no notion of that, but this engine follows the executor:
//!   `play`, `genmove` and `is_legal` then report `game-paused` (or `game-over`), even for a
//!   pass. `undo` takes the last pass back and play resumes. `goconform-phase` tells where
//!   the game stands.
//! - Dead stones are never guessed: `final_score` and `final_status_list` use the stones set
//!   with `goconform-dead`, the players' agreement. A board play or an undo that changes the
//!   position clears that agreement.
//! - `komi` sets the komi of both even and handicap games (the axes `komi` and
//!   `handicap-komi`): a controller states the komi of the game it runs. `goconform-set`
//!   changes one axis at a time.
//! - Handicap stones (`fixed_handicap`, `set_free_handicap`) are a set-up position with White
//!   to move, not moves: `undo` never removes them. Their number chooses the handicap komi and
//!   White's compensation under area counting in `final_score`.
//! - Vertex lists (`list_stones`, `all_legal`) are in reading order, top row first and left
//!   to right, as GNU Go lists them. `final_status_list` gives one string per line.
//! - Changing the rules (`goconform-rules`, `goconform-set`, `komi`) replays the game under
//!   the new rules; if a move made so far would be illegal under them, the change is refused
//!   and nothing changes.

mod protocol;
mod rng;

use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

use crate::board::{Board, Color, Move, Point, MAX_SIDE, MIN_SIDE};
use crate::game::{counting, handicap};
use crate::game::{Event, Game, Phase, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{Komi, Rules};

use rng::SplitMix64;

/// Every command this engine knows, in the order `list_commands` gives them.
pub const COMMANDS: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "known_command",
    "list_commands",
    "quit",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "undo",
    "showboard",
    "is_legal",
    "all_legal",
    "list_stones",
    "captures",
    "fixed_handicap",
    "set_free_handicap",
    "final_score",
    "final_status_list",
    "genmove",
    "goconform-rules",
    "goconform-set",
    "goconform-why",
    "goconform-prisoners",
    "goconform-dead",
    "goconform-phase",
];

/// The board size before any `boardsize` command: the size most controllers assume.
const DEFAULT_SIZE: u8 = 19;

/// Runs a GTP session until `quit` or the end of `input`.
///
/// `rules` and `rules_name` are the rules to start with; `resolve` turns a ruleset name given
/// to `goconform-rules` into rules, or into a message saying why it cannot.
///
/// # Errors
///
/// Only I/O errors of `input` or `output` end a session with an error; bad commands are
/// answered on `output` and the session goes on.
pub fn serve(
    mut input: impl BufRead,
    mut output: impl Write,
    rules: Rules,
    rules_name: String,
    resolve: &dyn Fn(&str) -> Result<Rules, String>,
) -> io::Result<()> {
    let mut engine = Engine::new(rules, rules_name, resolve).map_err(io::Error::other)?;
    let mut raw = Vec::new();
    loop {
        raw.clear();
        if input.read_until(b'\n', &mut raw)? == 0 {
            return Ok(());
        }
        let line = protocol::clean(&raw);
        if line.is_empty() {
            continue;
        }
        let command = protocol::parse(&line);
        let id = command.id.as_deref();
        let answer = engine.execute(&command.name, &command.args);
        match answer {
            Ok(text) => protocol::respond(&mut output, true, id, &text)?,
            Err(text) => protocol::respond(&mut output, false, id, &text)?,
        }
        if command.name == "quit" && command.args.is_empty() {
            return Ok(());
        }
    }
}

/// An answer: the text of a success or of a failure.
type Answer = Result<String, String>;

/// The state of one session: the rules, the set-up, the accepted moves and the game they give.
///
/// The game is always the result of replaying `moves` from the set-up under `rules`, which is
/// what makes `undo` and rule changes exact: there is no second copy of the state to drift.
struct Engine<'r> {
    rules: Rules,
    rules_name: String,
    resolve: &'r dyn Fn(&str) -> Result<Rules, String>,
    size: u8,
    handicap: Vec<Point>,
    /// The accepted moves since the set-up, in order.
    moves: Vec<(Color, Move)>,
    game: Game,
    /// Opposing stones each colour removed from the board: GTP's `captures`, which unlike
    /// [`Game::prisoners`] leaves out pass stones.
    captures: [u32; 2],
    /// The agreed dead stones (whole strings).
    dead: Vec<Point>,
    rng: SplitMix64,
}

impl<'r> Engine<'r> {
    fn new(
        rules: Rules,
        rules_name: String,
        resolve: &'r dyn Fn(&str) -> Result<Rules, String>,
    ) -> Result<Engine<'r>, String> {
        let (game, captures) = replay(rules, DEFAULT_SIZE, &[], &[])?;
        Ok(Engine {
            rules,
            rules_name,
            resolve,
            size: DEFAULT_SIZE,
            handicap: Vec::new(),
            moves: Vec::new(),
            game,
            captures,
            dead: Vec::new(),
            rng: SplitMix64::new(SplitMix64::SEED),
        })
    }

    fn execute(&mut self, name: &str, args: &[String]) -> Answer {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        match name {
            "" => Err("no command after the id".to_string()),
            "protocol_version" => none(&args).map(|()| "2".to_string()),
            "name" => none(&args).map(|()| "goconform".to_string()),
            "version" => none(&args).map(|()| env!("CARGO_PKG_VERSION").to_string()),
            "known_command" => {
                let [command] = exactly::<1>(&args)?;
                Ok(COMMANDS.contains(&command).to_string())
            }
            "list_commands" => none(&args).map(|()| COMMANDS.join("\n")),
            "quit" => none(&args).map(|()| String::new()),
            "boardsize" => self.boardsize(&args),
            "clear_board" => {
                none(&args)?;
                self.reset(self.size, Vec::new());
                Ok(String::new())
            }
            "komi" => self.komi(&args),
            "play" => self.play_command(&args),
            "undo" => self.undo(&args),
            "showboard" => none(&args).map(|()| self.showboard()),
            "is_legal" => {
                let (color, mv) = self.color_and_move(&args)?;
                Ok(if self.judge(color, mv).is_ok() {
                    "1"
                } else {
                    "0"
                }
                .to_string())
            }
            "all_legal" => {
                let color = one_color(&args)?;
                let legal: Vec<String> = self
                    .legal_plays(color)
                    .iter()
                    .map(Point::to_string)
                    .collect();
                Ok(legal.join(" "))
            }
            "list_stones" => {
                let color = one_color(&args)?;
                let board = self.game.board();
                let stones: Vec<String> = reading_order(board)
                    .filter(|&p| board.get(p) == Some(color))
                    .map(|p| p.to_string())
                    .collect();
                Ok(stones.join(" "))
            }
            "captures" => one_color(&args).map(|c| self.captures[c.index()].to_string()),
            "fixed_handicap" => self.fixed_handicap(&args),
            "set_free_handicap" => self.set_free_handicap(&args),
            "final_score" => none(&args).map(|()| self.count().result()),
            "final_status_list" => self.final_status_list(&args),
            "genmove" => self.genmove(&args),
            "goconform-rules" => self.switch_rules(&args),
            "goconform-set" => self.set_axes(&args),
            "goconform-why" => {
                let (color, mv) = self.color_and_move(&args)?;
                Ok(match self.judge(color, mv) {
                    Ok(()) => "legal".to_string(),
                    Err(reason) => reason.word().to_string(),
                })
            }
            "goconform-prisoners" => one_color(&args).map(|c| self.game.prisoners(c).to_string()),
            "goconform-dead" => self.set_dead(&args),
            "goconform-phase" => none(&args).map(|()| self.game.phase().word().to_string()),
            _ => Err("unknown command".to_string()),
        }
    }

    /// Starts a new game on an empty board of `size` with the given handicap stones.
    fn reset(&mut self, size: u8, handicap: Vec<Point>) {
        // An empty board of a checked size with distinct handicap stones of one colour is
        // always a valid set-up; should that ever fail, keep the old game rather than panic.
        if let Ok((game, captures)) = replay(self.rules, size, &handicap, &[]) {
            self.size = size;
            self.handicap = handicap;
            self.moves.clear();
            self.game = game;
            self.captures = captures;
            self.dead.clear();
        }
    }

    /// Replays the game under `rules` and keeps them if every move is still legal.
    fn change_rules(&mut self, rules: Rules, name: String) -> Answer {
        let (game, captures) = replay(rules, self.size, &self.handicap, &self.moves)?;
        self.rules = rules;
        self.rules_name = name;
        self.game = game;
        self.captures = captures;
        Ok(String::new())
    }

    fn boardsize(&mut self, args: &[&str]) -> Answer {
        let [text] = exactly::<1>(args)?;
        let size: i64 = text
            .parse()
            .map_err(|_| format!("boardsize not an integer: `{text}`"))?;
        let size = u8::try_from(size)
            .ok()
            .filter(|s| (MIN_SIDE..=MAX_SIDE).contains(s))
            .ok_or_else(|| "unacceptable size".to_string())?;
        self.reset(size, Vec::new());
        Ok(String::new())
    }

    fn komi(&mut self, args: &[&str]) -> Answer {
        let [text] = exactly::<1>(args)?;
        let value: f64 = text
            .parse()
            .map_err(|_| format!("komi not a float: `{text}`"))?;
        let komi = Komi::from_f64(value)
            .ok_or_else(|| format!("komi must be a whole or half number: `{text}`"))?;
        let mut rules = self.rules;
        rules.komi = komi;
        rules.handicap_komi = komi;
        let name = self.rules_name.clone();
        self.change_rules(rules, name)
    }

    fn play_command(&mut self, args: &[&str]) -> Answer {
        let (color, mv) = self.color_and_move(args)?;
        self.play(color, mv)
            .map(|()| String::new())
            .map_err(|reason| format!("illegal move: {reason}"))
    }

    /// Plays a move through the executor, out of turn if need be, and records it.
    fn play(&mut self, color: Color, mv: Move) -> Result<(), Reason> {
        match self.game.apply_out_of_turn(Event::Move(color, mv)) {
            Verdict::Legal {
                captured,
                self_captured,
            } => {
                tally(&mut self.captures, color, &captured, &self_captured);
                self.moves.push((color, mv));
                if matches!(mv, Move::Play(_)) {
                    self.dead.clear();
                }
                Ok(())
            }
            Verdict::Illegal(reason) => Err(reason),
        }
    }

    fn undo(&mut self, args: &[&str]) -> Answer {
        none(args)?;
        let Some(last) = self.moves.last().copied() else {
            return Err("cannot undo".to_string());
        };
        let kept = &self.moves[..self.moves.len() - 1];
        let (game, captures) = replay(self.rules, self.size, &self.handicap, kept)?;
        self.moves.pop();
        self.game = game;
        self.captures = captures;
        if matches!(last, (_, Move::Play(_))) {
            self.dead.clear();
        }
        Ok(String::new())
    }

    /// Judges a move by `color` as if it were `color`'s turn. A pass is legal whenever play
    /// is going on.
    fn judge(&self, color: Color, mv: Move) -> Result<(), Reason> {
        match mv {
            Move::Play(point) => self.game.check_play(color, point),
            Move::Pass => match self.game.phase() {
                Phase::Playing | Phase::Resumed => Ok(()),
                Phase::Paused => Err(Reason::GamePaused),
                Phase::Ended => Err(Reason::GameOver),
            },
        }
    }

    /// The legal board plays of `color`, in reading order.
    fn legal_plays(&self, color: Color) -> Vec<Point> {
        reading_order(self.game.board())
            .filter(|&p| self.game.check_play(color, p).is_ok())
            .collect()
    }

    fn genmove(&mut self, args: &[&str]) -> Answer {
        let color = one_color(args)?;
        let legal = self.legal_plays(color);
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Play(legal[self.rng.below(legal.len())])
        };
        self.play(color, mv)
            .map(|()| mv.to_string())
            .map_err(|reason| format!("cannot move: {reason}"))
    }

    fn fixed_handicap(&mut self, args: &[&str]) -> Answer {
        let [text] = exactly::<1>(args)?;
        let stones: u32 = text
            .parse()
            .map_err(|_| format!("number of stones not an integer: `{text}`"))?;
        self.require_empty_board()?;
        let points = handicap::fixed_points(handicap::Pattern::Gtp, self.size, stones).ok_or_else(|| {
            format!(
                "invalid number of stones: a {0}x{0} board takes 2 to {1} fixed handicap stones",
                self.size,
                handicap::max_fixed(self.size)
            )
        })?;
        let answer: Vec<String> = points.iter().map(Point::to_string).collect();
        self.reset(self.size, points);
        Ok(answer.join(" "))
    }

    fn set_free_handicap(&mut self, args: &[&str]) -> Answer {
        let area = usize::from(self.size) * usize::from(self.size);
        if args.len() < 2 || args.len() >= area {
            return Err(format!(
                "invalid number of stones: from 2 to {} on this board",
                area - 1
            ));
        }
        let mut points = Vec::with_capacity(args.len());
        for text in args {
            let point = self.point(text)?;
            if points.contains(&point) {
                return Err(format!("repeated vertex: {point}"));
            }
            points.push(point);
        }
        self.require_empty_board()?;
        self.reset(self.size, points);
        Ok(String::new())
    }

    /// Handicap stones go on an empty board before any move.
    fn require_empty_board(&self) -> Result<(), String> {
        if self.moves.is_empty() && self.handicap.is_empty() {
            Ok(())
        } else {
            Err("board not empty".to_string())
        }
    }

    fn count(&self) -> counting::Count {
        let prisoners = self.game.prisoner_breakdown();
        let handicap = u32::try_from(self.handicap.len()).unwrap_or(u32::MAX);
        counting::count(
            self.game.board(),
            &self.rules,
            prisoners,
            &self.dead,
            handicap,
        )
    }

    fn final_status_list(&self, args: &[&str]) -> Answer {
        let [status] = exactly::<1>(args)?;
        let board = self.game.board();
        let dead: HashSet<Point> = self.dead.iter().copied().collect();
        let seki: HashSet<Point> = counting::seki_stones(board, &self.dead)
            .into_iter()
            .collect();
        let wanted: HashSet<Point> = match status {
            "dead" => dead,
            "seki" => seki,
            "alive" => board
                .points()
                .filter(|p| board.get(*p).is_some() && !dead.contains(p) && !seki.contains(p))
                .collect(),
            _ => return Err(format!("invalid status `{status}`: alive, dead or seki")),
        };
        Ok(strings_by_line(board, &wanted))
    }

    fn set_dead(&mut self, args: &[&str]) -> Answer {
        let board = self.game.board();
        let mut dead: Vec<Point> = Vec::new();
        for text in args {
            let point = self.point(text)?;
            if board.get(point).is_none() {
                return Err(format!("no stone at {point}"));
            }
            if !dead.contains(&point) {
                dead.extend(board.string(point));
            }
        }
        self.dead = dead;
        Ok(String::new())
    }

    fn switch_rules(&mut self, args: &[&str]) -> Answer {
        let [name] = exactly::<1>(args)?;
        let rules = (self.resolve)(name)?;
        self.change_rules(rules, name.to_string())
    }

    fn set_axes(&mut self, args: &[&str]) -> Answer {
        if args.is_empty() {
            return Err("expected AXIS=VALUE, e.g. ko=situational".to_string());
        }
        let mut rules = self.rules;
        for assignment in args {
            rules
                .set_assignment(assignment)
                .map_err(|e| e.to_string())?;
        }
        let name = format!("{} {}", self.rules_name, args.join(" "));
        self.change_rules(rules, name)
    }

    /// The board with coordinates, as GNU Go draws it, then one line of game state and one of
    /// counts. The komi shown is the one that applies: the handicap komi after handicap stones.
    fn showboard(&self) -> String {
        let board = self.game.board();
        let letters: String = (0..board.width())
            .filter_map(|col| Point::new(col, 0).to_string().chars().next())
            .flat_map(|letter| [' ', letter])
            .collect();
        // Writing to a String cannot fail, so the results of write! are ignored.
        let mut out = String::new();
        let _ = writeln!(out, "\n  {letters}");
        for row in (0..board.height()).rev() {
            let number = u32::from(row) + 1;
            let _ = write!(out, "{number:>2}");
            for col in 0..board.width() {
                let stone = board.get(Point::new(col, row));
                let _ = write!(out, " {}", stone.map_or('.', Color::stone_char));
            }
            let _ = writeln!(out, " {number}");
        }
        let komi = if self.handicap.len() >= 2 {
            self.rules.handicap_komi
        } else {
            self.rules.komi
        };
        let _ = writeln!(out, "  {letters}");
        let _ = writeln!(
            out,
            "rules {}; komi {komi}; handicap {}; phase {}; {} to move",
            self.rules_name,
            self.handicap.len(),
            self.game.phase(),
            self.game.to_move().name()
        );
        let _ = write!(
            out,
            "captures: black {} white {}; prisoners: black {} white {}",
            self.captures[Color::Black.index()],
            self.captures[Color::White.index()],
            self.game.prisoners(Color::Black),
            self.game.prisoners(Color::White)
        );
        out
    }

    fn color_and_move(&self, args: &[&str]) -> Result<(Color, Move), String> {
        let [color, vertex] = exactly::<2>(args)?;
        let color = parse_color(color)?;
        let mv = Move::parse_gtp(vertex, self.size, self.size).map_err(|e| e.to_string())?;
        Ok((color, mv))
    }

    fn point(&self, text: &str) -> Result<Point, String> {
        Point::parse_gtp(text, self.size, self.size).map_err(|e| e.to_string())
    }
}

/// Builds the game from the set-up and replays `moves`, tallying GTP captures on the way.
/// Fails with a message naming the first move the rules refuse.
fn replay(
    rules: Rules,
    size: u8,
    handicap: &[Point],
    moves: &[(Color, Move)],
) -> Result<(Game, [u32; 2]), String> {
    let setup = Setup {
        width: size,
        height: size,
        stones: handicap.iter().map(|&p| (p, Color::Black)).collect(),
        handicap: Vec::new(),
        to_move: if handicap.is_empty() {
            Color::Black
        } else {
            Color::White
        },
        history: SetupHistory::Played,
    };
    let mut game = Game::new(rules, &setup).map_err(|e| e.to_string())?;
    let mut captures = [0u32; 2];
    for (number, &(color, mv)) in moves.iter().enumerate() {
        let event = Event::Move(color, mv);
        match game.apply_out_of_turn(event.clone()) {
            Verdict::Legal {
                captured,
                self_captured,
            } => tally(&mut captures, color, &captured, &self_captured),
            Verdict::Illegal(reason) => {
                return Err(format!(
                    "move {} ({event}) would be illegal under these rules: {reason}",
                    number + 1
                ))
            }
        }
    }
    Ok((game, captures))
}

/// Credits removed stones as GTP counts them: captures to the mover, self-captured stones to
/// the opponent (they are the opponent's stones' gain, as GNU Go counts them).
fn tally(captures: &mut [u32; 2], mover: Color, captured: &[Point], self_captured: &[Point]) {
    let count = |points: &[Point]| u32::try_from(points.len()).unwrap_or(u32::MAX);
    let mine = &mut captures[mover.index()];
    *mine = mine.saturating_add(count(captured));
    let theirs = &mut captures[mover.opponent().index()];
    *theirs = theirs.saturating_add(count(self_captured));
}

/// The points of a board top row first, left to right: the order GNU Go lists vertices in.
fn reading_order(board: &Board) -> impl Iterator<Item = Point> {
    let (width, height) = (board.width(), board.height());
    (0..height)
        .rev()
        .flat_map(move |row| (0..width).map(move |col| Point::new(col, row)))
}

/// The stones of `wanted`, one string per line, strings in reading order of their first stone.
fn strings_by_line(board: &Board, wanted: &HashSet<Point>) -> String {
    let mut done: HashSet<Point> = HashSet::new();
    let mut lines = Vec::new();
    for p in reading_order(board) {
        if !wanted.contains(&p) || done.contains(&p) {
            continue;
        }
        let members: HashSet<Point> = board
            .string(p)
            .into_iter()
            .filter(|q| wanted.contains(q))
            .collect();
        let line: Vec<String> = reading_order(board)
            .filter(|q| members.contains(q))
            .map(|q| q.to_string())
            .collect();
        done.extend(members);
        lines.push(line.join(" "));
    }
    lines.join("\n")
}

fn parse_color(text: &str) -> Result<Color, String> {
    Color::parse(text)
        .ok_or_else(|| format!("invalid color `{text}`: expected b, w, black or white"))
}

fn one_color(args: &[&str]) -> Result<Color, String> {
    let [color] = exactly::<1>(args)?;
    parse_color(color)
}

fn none(args: &[&str]) -> Result<(), String> {
    exactly::<0>(args).map(|_| ())
}

/// The arguments as an array of exactly `N`, or the syntax error a controller should see.
fn exactly<'a, const N: usize>(args: &[&'a str]) -> Result<[&'a str; N], String> {
    <[&str; N]>::try_from(args).map_err(|_| match N {
        0 => "syntax error: this command takes no arguments".to_string(),
        1 => format!("syntax error: expected 1 argument, got {}", args.len()),
        _ => format!("syntax error: expected {N} arguments, got {}", args.len()),
    })
}
