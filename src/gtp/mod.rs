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
//! `game-over`, ...). It is a referee more than a player: `genmove` picks a uniformly random
//! legal board play from a fixed-seed generator, so sessions are reproducible.
//!
//! # The ending procedure
//!
//! The engine follows the ending of the selected ruleset (the `ending` axis) and lets the
//! controller act for the players:
//!
//! - Two consecutive passes pause play (`goconform-phase` answers `paused`), or end the game
//!   under `ending=two-passes`. While play is paused, `play`, `genmove` and `is_legal` report
//!   `game-paused`, even for a pass.
//! - `goconform-dispute [COLOR]`: the players cannot agree on the status of the stones. Where
//!   the rules resume play, play resumes (`resumed`). Under `pause-agree-resume` the opponent
//!   of the last player to pass moves first (a colour, if given, must be that player, or the
//!   answer is `out-of-turn`), and two passes opening the resumption end the game with every
//!   stone alive (White passing last where the rules say so). Under `play-on` the colour is
//!   the player the players agreed moves first; without one they could not agree, and the
//!   game ends with every stone alive; under `resume-on-request` the colour named (the
//!   requester's opponent), else the player to move. Refused with `? illegal move: not-paused` when play is
//!   not paused, `no-resumption` when the rules settle disputes otherwise (`agreement`,
//!   `two-passes`), `game-over` after the end.
//! - `goconform-agree [VERTEX ...]`: during a pause the players agree that the strings through
//!   the vertices are dead (no vertices: the stones set with `goconform-dead`, possibly none).
//!   The executor removes them (they become the capturer's prisoners), White passes last where
//!   the rules say so (another pass stone), and the game ends. The answer lists the removed
//!   stones in reading order. Refused with `not-paused`, `game-over`, or `no-stone` (a vertex
//!   without a stone).
//! - `goconform-resign COLOR`: that player resigns, at any moment before the end, whoever is
//!   to move. `final_score` is then `B+R` or `W+R`, and play is `game-over`.
//! - `final_score` follows the procedure too: once the game has ended it is the executor's
//!   result; while play is paused it is the result of agreeing now on the `goconform-dead`
//!   stones (on a copy of the game, so White's extra pass stone is included where the rules
//!   require it), and nothing is removed under `ending=two-passes`; while play goes on it is
//!   the count of the position as it stands with the `goconform-dead` stones counted dead.
//!   While paused, until `goconform-dead` (or a loaded record's marks) has said which stones
//!   are dead, it refuses whenever some group could be dead (`game::status`), naming them:
//!   dead stones are the players' agreement, never the referee's guess.
//! - `kgs-rules`, `time_settings`, `kgs-time_settings` and `time_left` are what match runners
//!   send: KGS's rules names map to our rulesets; the time control is kept (and checked), and
//!   under absolute time a `time_left` of zero is a fallen flag (`final_score` `B+T`/`W+T`).
//!   `final_status_list` calls dead exactly the stones that scoring removes: none after the end.
//! - `goconform-score` breaks the same count down, on one line:
//!
//!   ```text
//!   scoring area; B territory 9 stones 27 captures 0 dead 0 pass-stones 1 komi 0 compensation 0 total 36; W territory 7 stones 33 captures 0 dead 0 pass-stones 1 komi 0.5 compensation 0 total 40.5; result W+4.5
//!   ```
//!
//!   `scoring` is `area` or `territory`; then for Black and White, in this order and always
//!   all present: empty points counted (`territory`), stones on the board after the removal
//!   of dead stones, prisoners by origin (`captures` in play, `dead` stones removed at the
//!   end, `pass-stones` received), `komi`, handicap `compensation` and the `total` that the
//!   scoring method makes of them, in points (halves written `.5`, komi possibly negative);
//!   last the result as `final_score` gives it (`B+R`/`W+R` after a resignation, the fields
//!   then being the count of the position as it stands).
//! - `undo` takes back the last event of any kind: a move, a pass, a dispute, an agreement
//!   (play is paused again and the dead stones are back) or a resignation.
//!
//! # Conventions worth knowing
//!
//! - `play` accepts consecutive moves of one colour, as GTP requires (controllers set up
//!   positions that way); see [`crate::game::Game::apply_out_of_turn`].
//! - The session keeps the record of accepted events, and the game is always the replay of
//!   that record from the set-up under the current rules: `undo` and rule changes are exact.
//! - Dead stones are never guessed: `final_score` and `final_status_list` use the stones set
//!   with `goconform-dead`, the players' agreement in waiting. A board play, or an undo of
//!   one, clears it. After the end it has no effect (the agreement has been made).
//! - `komi` sets the komi of both even and handicap games (the axes `komi` and
//!   `handicap-komi`): a controller states the komi of the game it runs. `goconform-set`
//!   changes one axis at a time.
//! - Handicap stones (`fixed_handicap`, `set_free_handicap`) are the set-up of a handicap game
//!   with White to move, not moves: `undo` never removes them. Their number chooses the
//!   handicap komi and White's compensation under area counting.
//! - `fixed_handicap N` uses the placement of the rules where they fix it
//!   (`handicap-placement=fixed`: AGA Rule 4, traditional) and the table of the GTP
//!   specification otherwise. The two differ only for three stones: D4 Q16 Q4 (lower right)
//!   under fixed placement, D4 Q16 D16 (upper left) in the GTP table. The answer lists the
//!   stones in the order of the table used.
//! - `set_free_handicap` is the players' agreement on a free placement and is accepted under
//!   any rules: 2 to 9 distinct vertices on an empty board, leaving every stone a liberty.
//!   Such a placement (and a `fixed_handicap` from the GTP table) stays a free placement when
//!   the rules change.
//! - Vertex lists (`list_stones`, `all_legal`, `goconform-agree`) are in reading order, top
//!   row first and left to right, as GNU Go lists them. `final_status_list` gives one string
//!   per line.
//! - Changing the rules (`goconform-rules`, `goconform-set`, `komi`) replays the game under
//!   the new rules; if an event so far would be illegal under them, the change is refused and
//!   nothing changes.

mod clock;
mod ending;
mod protocol;
mod records;

use std::cmp::Reverse;
use std::collections::HashSet;
use std::fmt::Write as _;
use std::io::{self, BufRead, Write};

use crate::board::{Board, Color, Move, Point, MAX_SIDE, MIN_SIDE};
use crate::engines::lines::{read_bounded_line, BoundedLine};
use crate::game::counting::{self, format_points};
use crate::game::handicap;
use crate::game::{Event, Game, Phase, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{Ending, HandicapPlacement, Komi, Rules};

use crate::rng::SplitMix64;

/// The seed every GTP engine's `genmove` starts from, so that equal sessions choose equal
/// moves: `genmove` here drives controllers and fuzzes other engines, it does not play well.
const GENMOVE_SEED: u64 = 0x676f_636f_6e66_6f72; // "goconfor"

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
    "loadsgf",
    "printsgf",
    "goconform-rules",
    "goconform-set",
    "goconform-why",
    "goconform-prisoners",
    "goconform-dead",
    "goconform-phase",
    "goconform-dispute",
    "goconform-agree",
    "goconform-resign",
    "goconform-score",
    "kgs-rules",
    "time_settings",
    "kgs-time_settings",
    "time_left",
    "gogui-analyze_commands",
];

/// What GoGui's analyze menu offers (`gogui-analyze_commands`): type/label/command, with `%c`
/// a colour and `%p` a point the user picks.
const ANALYZE_COMMANDS: &[&str] = &[
    "string/Why is this move illegal?/goconform-why %c %p",
    "string/Phase of the game/goconform-phase",
    "string/Count, itemised/goconform-score",
    "string/Prisoners/goconform-prisoners %c",
    "plist/Dead stones (agreed)/final_status_list dead",
    "plist/Stones in seki/final_status_list seki",
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
    input: impl BufRead,
    output: impl Write,
    rules: Rules,
    rules_name: String,
    resolve: &dyn Fn(&str) -> Result<Rules, String>,
) -> io::Result<()> {
    serve_with(
        input,
        output,
        rules,
        rules_name,
        resolve,
        FileAccess::Allowed,
    )
}

/// Whether `loadsgf FILE` and `printsgf FILE` may touch the file system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileAccess {
    /// They read and write the files named.
    Allowed,
    /// They answer a failure: for sessions on input nobody vetted (the fuzz target), which
    /// must not read or write files named by their input.
    Refused,
}

/// The longest command line read: 64 KiB, far beyond any command of the protocol (a
/// `set_free_handicap` of 361 points is under 2 KiB), so that an endless line cannot take all
/// the memory and an error never echoes megabytes back.
pub const MAX_COMMAND_BYTES: usize = 64 * 1024;

/// [`serve`], with file access as given.
pub fn serve_with(
    mut input: impl BufRead,
    mut output: impl Write,
    rules: Rules,
    rules_name: String,
    resolve: &dyn Fn(&str) -> Result<Rules, String>,
    files: FileAccess,
) -> io::Result<()> {
    let mut engine = Engine::new(rules, rules_name, resolve).map_err(io::Error::other)?;
    engine.files = files;
    let mut raw = Vec::new();
    loop {
        match read_bounded_line(&mut input, &mut raw, MAX_COMMAND_BYTES)? {
            BoundedLine::End => return Ok(()),
            BoundedLine::TooLong => {
                // Nothing of it is echoed back: the id cannot be read either.
                let text = format!("command longer than {MAX_COMMAND_BYTES} bytes");
                protocol::respond(&mut output, false, None, &text)?;
                continue;
            }
            BoundedLine::Line => {}
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

/// Where a game starts: the board size and Black's handicap stones.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Start {
    size: u8,
    /// Set-up stones of a loaded record (`loadsgf`).
    stones: Vec<(Point, Color)>,
    /// Who moves first (a loaded record may say White).
    to_move: Color,
    handicap: Vec<Point>,
    /// The handicap is a free placement the players agreed on (`set_free_handicap`, or
    /// `fixed_handicap` from the GTP table): the executor checks it as a free placement
    /// whatever the rules in force say.
    agreed_placement: bool,
}

impl Start {
    fn empty(size: u8) -> Start {
        Start {
            size,
            stones: Vec::new(),
            to_move: Color::Black,
            handicap: Vec::new(),
            agreed_placement: false,
        }
    }
}

/// The state of one session: the rules, the start, the accepted events and the game they give.
///
/// The game is always the result of replaying `record` from `start` under `rules`, which is
/// what makes `undo` and rule changes exact: there is no second copy of the state to drift.
struct Engine<'r> {
    rules: Rules,
    rules_name: String,
    resolve: &'r dyn Fn(&str) -> Result<Rules, String>,
    start: Start,
    /// The accepted events since the start, in order.
    record: Vec<Event>,
    game: Game,
    /// Opposing stones each colour removed from the board in play: GTP's `captures`, which
    /// unlike [`Game::prisoners`] leaves out pass stones and stones agreed dead.
    captures: [u32; 2],
    /// The dead stones set with `goconform-dead` (whole strings).
    dead: Vec<Point>,
    /// Whether the players have said which stones are dead (`goconform-dead`, possibly none,
    /// or the territory marks of a loaded record): until then `final_score` does not count
    /// groups whose status is in doubt.
    dead_agreed: bool,
    /// The time control given with `time_settings` or `kgs-time_settings`.
    time_control: Option<crate::tournament::time_control::TimeControl>,
    /// What the controller last said of each clock (`time_left`): seconds and stones.
    time_left: [Option<(u64, u32)>; 2],
    /// The player whose flag fell (time left 0 without overtime): the game is lost on time.
    flagged: Option<Color>,
    rng: SplitMix64,
    /// Whether commands may read and write the files they name.
    files: FileAccess,
    /// The root properties of the record `loadsgf` loaded, which `printsgf` writes back.
    kept: Vec<(String, String)>,
    /// The events of a loaded record the rules refused, kept as played for `printsgf` (never
    /// on the board): how many accepted events of `record` came before each, the event and
    /// the reason.
    refused: Vec<(usize, Event, Reason)>,
    /// The ruleset's name and the komi `loadsgf` set, while the game is the loaded record's,
    /// unchanged: `printsgf` then writes the record's own `RU`, `KM` and `RE`.
    loaded: Option<(String, Komi)>,
    /// How the loaded record wrote its start, which `printsgf` follows: the handicap stones
    /// as Black's first moves (some servers write them so), and the set-up stones in a node of
    /// their own after the root.
    layout: Layout,
}

/// How a loaded record wrote its start (see [`Engine::layout`]).
#[derive(Clone, Copy, Debug, Default)]
struct Layout {
    handicap_as_moves: bool,
    setup_node: bool,
}

impl<'r> Engine<'r> {
    fn new(
        rules: Rules,
        rules_name: String,
        resolve: &'r dyn Fn(&str) -> Result<Rules, String>,
    ) -> Result<Engine<'r>, String> {
        let start = Start::empty(DEFAULT_SIZE);
        let (game, captures) = replay(rules, &start, &[])?;
        Ok(Engine {
            rules,
            rules_name,
            resolve,
            start,
            record: Vec::new(),
            game,
            captures,
            dead: Vec::new(),
            dead_agreed: false,
            time_control: None,
            time_left: [None, None],
            flagged: None,
            rng: SplitMix64::new(GENMOVE_SEED),
            files: FileAccess::Allowed,
            kept: Vec::new(),
            refused: Vec::new(),
            loaded: None,
            layout: Layout::default(),
        })
    }

    /// Refuses a command that names a file when file access is off.
    fn may_use_files(&self, command: &str) -> Result<(), String> {
        match self.files {
            FileAccess::Allowed => Ok(()),
            FileAccess::Refused => Err(format!(
                "{command} FILE: file access is off in this session"
            )),
        }
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
                self.restart(Start::empty(self.start.size))?;
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
            "final_score" => none(&args).and_then(|()| self.final_score()),
            "final_status_list" => self.final_status_list(&args),
            "genmove" => self.genmove(&args),
            "loadsgf" => self.loadsgf(&args),
            "printsgf" => self.printsgf(&args),
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
            "goconform-dispute" => {
                let first = match args.as_slice() {
                    [] => None,
                    [color] => Some(parse_color(color)?),
                    _ => {
                        return Err(format!(
                            "syntax error: expected at most 1 argument, got {}",
                            args.len()
                        ))
                    }
                };
                self.apply(Event::Dispute(first)).map_err(illegal)?;
                Ok(String::new())
            }
            "goconform-agree" => self.agree(&args),
            "goconform-resign" => {
                let color = one_color(&args)?;
                self.apply(Event::Resign(color)).map_err(illegal)?;
                Ok(String::new())
            }
            "goconform-score" => none(&args).and_then(|()| {
                self.count_is_settled()?;
                Ok(self.score_line())
            }),
            "kgs-rules" => self.kgs_rules(&args),
            "time_settings" => self.time_settings(&args),
            "kgs-time_settings" => self.kgs_time_settings(&args),
            "time_left" => self.time_left_command(&args),
            "gogui-analyze_commands" => none(&args).map(|()| ANALYZE_COMMANDS.join("\n")),
            _ => Err("unknown command".to_string()),
        }
    }

    /// Starts a new game from `start`, forgetting the record and the dead stones.
    fn restart(&mut self, start: Start) -> Result<(), String> {
        let (game, captures) = replay(self.rules, &start, &[])?;
        self.start = start;
        self.record.clear();
        self.game = game;
        self.captures = captures;
        self.dead.clear();
        self.dead_agreed = false;
        self.flagged = None;
        self.time_left = [None, None];
        self.kept.clear();
        self.refused.clear();
        self.loaded = None;
        self.layout = Layout::default();
        Ok(())
    }

    /// Replays the game under `rules` and keeps them if every event is still legal.
    fn change_rules(&mut self, rules: Rules, name: String) -> Answer {
        let (game, captures) = replay(rules, &self.start, &self.record)?;
        self.rules = rules;
        self.rules_name = name;
        self.game = game;
        self.captures = captures;
        Ok(String::new())
    }

    /// Applies an event through the executor (a move out of turn if need be) and records it.
    /// Answers the stones removed: captures of a move, dead stones of an agreement.
    fn apply(&mut self, event: Event) -> Result<Vec<Point>, Reason> {
        let removed = apply_event(&mut self.game, &mut self.captures, &event)?;
        if matches!(event, Event::Move(_, Move::Play(_))) {
            self.dead.clear();
            self.dead_agreed = false;
        }
        self.record.push(event);
        self.loaded = None;
        Ok(removed)
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
        self.restart(Start::empty(size))?;
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
        self.apply(Event::Move(color, mv))
            .map_err(|reason| self.refusal(reason))?;
        Ok(String::new())
    }

    /// The answer to a move the rules refuse. During a pause it also names the commands that
    /// end it: AGA Rules 9 and 10 leave the choice to the players (agree on the dead stones,
    /// or dispute and resume with the opponent of the last passer), and a `play` says neither,
    /// so it is not taken as a dispute. (A loaded record that goes on after two passes is
    /// different: it shows that play resumed, and `loadsgf` applies the dispute.)
    fn refusal(&self, reason: Reason) -> String {
        if reason != Reason::GamePaused {
            return illegal(reason);
        }
        let resumes = self.rules.ending.resumes();
        if resumes {
            format!(
                "{} (play is paused after two passes: goconform-agree [VERTEX...] ends the game, goconform-dispute resumes play with {})",
                illegal(reason),
                self.game.to_move().name()
            )
        } else {
            format!(
                "{} (play is paused after two passes: goconform-agree [VERTEX...] ends the game; these rules do not resume play)",
                illegal(reason)
            )
        }
    }

    fn undo(&mut self, args: &[&str]) -> Answer {
        none(args)?;
        let Some(last) = self.record.last() else {
            return Err("cannot undo".to_string());
        };
        let board_play = matches!(last, Event::Move(_, Move::Play(_)));
        let kept = &self.record[..self.record.len() - 1];
        let (game, captures) = replay(self.rules, &self.start, kept)?;
        self.record.pop();
        let len = self.record.len();
        self.refused.retain(|r| r.0 <= len);
        self.loaded = None;
        self.game = game;
        self.captures = captures;
        if board_play {
            self.dead.clear();
            self.dead_agreed = false;
        }
        Ok(String::new())
    }

    /// Judges a move by `color` as if it were `color`'s turn. A pass is legal whenever play
    /// is going on.
    fn judge(&self, color: Color, mv: Move) -> Result<(), Reason> {
        match mv {
            Move::Play(point) => self.game.check_play(color, point),
            Move::Pass => match self.game.phase() {
                Phase::Playing | Phase::Resumed | Phase::Confirming => Ok(()),
                Phase::Paused => Err(Reason::GamePaused),
                Phase::Ended => Err(Reason::GameOver),
            },
        }
    }

    /// The legal board plays of `color`, in reading order.
    fn legal_plays(&self, color: Color) -> Vec<Point> {
        // Found row 1 first; reading order is the top row first (a stable sort keeps each
        // row's columns in order).
        let mut legal = self.game.legal_plays(color);
        legal.sort_by_key(|p| std::cmp::Reverse(p.row));
        legal
    }

    fn genmove(&mut self, args: &[&str]) -> Answer {
        let color = one_color(args)?;
        let legal = self.legal_plays(color);
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Play(legal[self.rng.below(legal.len())])
        };
        self.apply(Event::Move(color, mv))
            .map(|_| mv.to_string())
            .map_err(|reason| format!("cannot move: {reason}"))
    }

    fn fixed_handicap(&mut self, args: &[&str]) -> Answer {
        let [text] = exactly::<1>(args)?;
        let stones: u32 = text
            .parse()
            .map_err(|_| format!("number of stones not an integer: `{text}`"))?;
        self.require_empty_board()?;
        let fixed = self.rules.handicap_placement == HandicapPlacement::Fixed;
        let pattern = if fixed {
            handicap::Pattern::Traditional
        } else {
            handicap::Pattern::Gtp
        };
        let size = self.start.size;
        let points = handicap::fixed_points(pattern, size, stones).ok_or_else(|| {
            match handicap::max_fixed(size) {
                most if most < 2 => format!(
                    "invalid number of stones: a {size}x{size} board has no fixed handicap points (they need a board of 7x7 or more)"
                ),
                most => format!(
                    "invalid number of stones: a {size}x{size} board takes 2 to {most} fixed handicap stones"
                ),
            }
        })?;
        let answer: Vec<String> = points.iter().map(Point::to_string).collect();
        self.restart(Start {
            handicap: points,
            agreed_placement: !fixed,
            ..Start::empty(size)
        })?;
        Ok(answer.join(" "))
    }

    fn set_free_handicap(&mut self, args: &[&str]) -> Answer {
        if args.len() < 2 || args.len() > handicap::MAX_HANDICAP {
            return Err(format!(
                "invalid number of stones: a free handicap is 2 to {} stones, not {}",
                handicap::MAX_HANDICAP,
                args.len()
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
        self.restart(Start {
            handicap: points,
            agreed_placement: true,
            ..Start::empty(self.start.size)
        })
        .map_err(|e| format!("bad vertex list: {e}"))?;
        Ok(String::new())
    }

    /// Handicap stones go on an empty board before any event.
    fn require_empty_board(&self) -> Result<(), String> {
        if self.record.is_empty() && self.start.handicap.is_empty() && self.start.stones.is_empty()
        {
            Ok(())
        } else {
            Err("board not empty".to_string())
        }
    }

    /// `kgs-rules NAME`: KGS's rules names, as controllers send them (`japanese`, `chinese`,
    /// `aga`, `new_zealand`), switching to the ruleset of that name here.
    fn kgs_rules(&mut self, args: &[&str]) -> Answer {
        let [name] = exactly::<1>(args)?;
        let ours = match name.to_ascii_lowercase().as_str() {
            "japanese" => "japanese-1989",
            "chinese" => "chinese",
            "aga" => "aga",
            "new_zealand" | "new-zealand" => "new-zealand",
            other => {
                return Err(format!(
                    "unknown rules `{other}`: japanese, chinese, aga or new_zealand"
                ))
            }
        };
        let rules = (self.resolve)(ours)?;
        let mut rules = rules;
        rules.komi = self.rules.komi;
        rules.handicap_komi = self.rules.handicap_komi;
        self.change_rules(rules, ours.to_string())
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
        let komi = if self.game.handicap() >= 2 {
            self.rules.handicap_komi
        } else {
            self.rules.komi
        };
        let _ = writeln!(out, "  {letters}");
        let _ = writeln!(
            out,
            "rules {}; komi {komi}; handicap {}; phase {}; {} to move",
            self.rules_name,
            self.game.handicap(),
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
        let size = self.start.size;
        let mv = Move::parse_gtp(vertex, size, size).map_err(|e| e.to_string())?;
        Ok((color, mv))
    }

    fn point(&self, text: &str) -> Result<Point, String> {
        let size = self.start.size;
        Point::parse_gtp(text, size, size).map_err(|e| e.to_string())
    }
}

/// Builds the game from `start` and replays `events`, tallying GTP captures on the way.
/// Fails with a message naming the first event the rules refuse.
fn replay(rules: Rules, start: &Start, events: &[Event]) -> Result<(Game, [u32; 2]), String> {
    let mut game_rules = rules;
    if start.agreed_placement {
        game_rules.handicap_placement = HandicapPlacement::Free;
    }
    let setup = Setup {
        width: start.size,
        height: start.size,
        stones: start.stones.clone(),
        handicap: start.handicap.clone(),
        to_move: start.to_move,
        history: SetupHistory::Played,
        handicap_as_placed: false,
    };
    let mut game = Game::new(game_rules, &setup).map_err(|e| e.to_string())?;
    let mut captures = [0u32; 2];
    for (number, event) in events.iter().enumerate() {
        if let Err(reason) = apply_event(&mut game, &mut captures, event) {
            return Err(format!(
                "event {} ({event}) would be illegal under these rules: {reason}",
                number + 1
            ));
        }
    }
    Ok((game, captures))
}

/// Applies one event to `game`, a move out of turn if need be, tallying GTP captures for
/// moves. Answers the stones removed (captures of a move, dead stones of an agreement).
fn apply_event(
    game: &mut Game,
    captures: &mut [u32; 2],
    event: &Event,
) -> Result<Vec<Point>, Reason> {
    match game.apply_out_of_turn(event.clone()) {
        Verdict::Legal {
            captured,
            self_captured,
        } => {
            if let Event::Move(color, _) = event {
                tally(captures, *color, &captured, &self_captured);
            }
            Ok(captured)
        }
        Verdict::Illegal(reason) => Err(reason),
        // GTP events are never a referee's record, so the executor cannot answer these.
        Verdict::Breach { reason, .. } => Err(reason),
        Verdict::Ruled(_) => Err(Reason::NoProcedure),
    }
}

/// The answer to an event the executor refused.
fn illegal(reason: Reason) -> String {
    format!("illegal move: {reason}")
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
