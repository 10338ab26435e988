//! Any GTP version 2 engine as a [`Referee`], with profiles for GNU Go 3.8.
//!
//! # What GTP can show, and what the bridge claims
//!
//! GTP judges a board play with `is_legal COLOR VERTEX` (1 or 0) and shows the board with
//! `list_stones COLOR`. So a [`GtpEngine`]:
//!
//! - asks `is_legal` before every board play; on 0 the verdict is illegal, on 1 it sends
//!   `play` and reads both colours' stones back: the captures (and self-captures) of the
//!   verdict are the difference between the boards before and after ([`Observable::Captures`](crate::conformance::Observable::Captures),
//!   [`Observable::Board`](crate::conformance::Observable::Board)). A pass is `play COLOR pass`. An engine that refuses a `play` it
//!   has just called legal breaks the protocol.
//! - cannot give a reason for an illegal play: the reason in [`Verdict::Illegal`] is the
//!   bridge's guess from the board (`occupied` if the point holds a stone, `suicide` if the
//!   play would leave its own string without liberties, else `ko` under simple ko and
//!   `superko` under a superko rule). Reasons are compared only in the strict tier, which needs
//!   [`Observable::Reasons`](crate::conformance::Observable::Reasons), and no GTP profile claims it: the guess is never compared.
//! - judges only what `is_legal` covers: occupied points, suicide and ko (superko where the
//!   profile's flags select it). Whose turn it is, pauses and the end of the game are not GTP
//!   notions (`play` names the colour and GTP engines play on after passes), so trials that
//!   expect a refusal for such a reason are not applicable.
//! - takes only plays and passes: GTP has no dispute, agreement, or referee's record, and
//!   the bridge never sends `resign`.
//! - does not observe whose turn it is (that would be the bridge's own bookkeeping of the
//!   event colours, not the engine's), the phase, or the score (GNU Go's `final_score` judges
//!   dead stones itself; the ending procedures are not GTP's).
//! - does not observe prisoners: GTP `captures` counts captured stones only, never pass
//!   stones. Claiming prisoners would force the `pass-stones` axis down to `off`, making every
//!   trial under a ruleset with pass stones not applicable although pass stones change nothing
//!   the bridge does observe (verdicts, captures, the board). Leaving prisoners out keeps every
//!   such legality trial.
//!
//! # Set-ups
//!
//! GTP has no command that sets up a position, and where the stones come from matters to
//! superko: the position after each `play` enters the engine's repetition history. So:
//!
//! - With [`SetupMethod::LoadSgf`] (GNU Go) a position or a handicap is written to a
//!   temporary SGF file (`AB`/`AW`, `HA`, `PL`) and loaded with `loadsgf`. GNU Go places such
//!   stones with `add_stone`, which resets the move history, and records the set-up position
//!   in the history when the first move is made, with the mover as the player to move: exactly
//!   `setup_history = "played"` for positional and situational superko.
//! - With [`SetupMethod::Play`] (any other engine) handicap stones go through
//!   `set_free_handicap` and the other set-up stones through `play`, in any colour order (no
//!   such play can capture or be suicide, since every string of the final position has a
//!   liberty). Under a superko rule that would put the intermediate positions in the history,
//!   so a set-up with stones is not applicable there.
//! - `setup_history = "excluded"` cannot be expressed to a GTP engine under a superko rule
//!   (its history always holds the position the first move is made from): not applicable.
//!   Under simple ko the history does not matter.
//! - Boards are square in GTP; a size the engine refuses (`boardsize`) is not applicable.
//!
//! # Faults
//!
//! Every command has the profile's time limit. A timeout, a crash (the error carries the tail
//! of the engine's standard error), garbage (an answer not starting with `=` or `?`), an
//! answer of the wrong id, an answer over the profile's size limit, or a
//! `protocol_version` other than 2 (checked once per process) is the trial's error or
//! timeout; the process is then killed and the next trial starts a new one. A process that is
//! still running is reused from trial to trial (`boardsize`, `clear_board`, `komi`).
//!
//! [`Referee::start`] can only say "unsupported", so an engine that breaks down while a trial
//! is being set up is reported by the first [`Referee::apply`] of that trial; until then
//! [`Referee::observe`] shows nothing.

use std::collections::VecDeque;
use std::fmt::Write as _;

use super::process::EngineProcess;
use crate::board::{Board, Color, Move, Point};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Observable, Observation, Referee, Unsupported,
};
use crate::game::{Event, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{KoRule, Rules};
use crate::scenario::Stones;

mod profiles;
mod wire;

pub use profiles::{
    gnugo_profiles, gnugo_program, plain_gtp_capabilities, profile_by_name, GtpProfile,
    SetupMethod, DEFAULT_MAX_ANSWER, DEFAULT_TIMEOUT,
};
pub use wire::{exchange, Answer};
use wire::{list_stones, read_answer, with_tail};

/// A GTP engine behind [`Referee`]. See the module documentation.
pub struct GtpEngine {
    profile: GtpProfile,
    process: Option<EngineProcess>,
    /// The engine's own `name` and `version`, once a process has answered them.
    identity: Option<String>,
    /// A breakdown during `start`, reported by the next `apply`.
    failure: Option<EngineError>,
    next_id: u32,
    size: u8,
    ko: KoRule,
    /// The engine's stones after the last command, sorted by point; `None` when unknown.
    stones: Option<Stones>,
    /// The trial's rules and set-up, to set it up again when an `apply` leaves the
    /// announced events.
    trial: Option<(Rules, Setup)>,
    /// The events applied since the start.
    applied: Vec<Event>,
    /// The engine's answers to announced events not applied yet (the engine has already
    /// played them), in order.
    queue: VecDeque<Prefetched>,
    /// Events announced with the start ([`Referee::start_announced`]), pipelined at the first
    /// `apply`: after the start has been observed, as a separate announcement would be.
    announced: Option<Vec<Event>>,
    /// Whether the engine has `list_stones` (GNU Go's extension, which most GTP engines
    /// lack): asked once with `list_commands` when a process starts. Without it the board
    /// and the captures cannot be read, so the engine is judged on its verdicts alone.
    lists_stones: bool,
    /// Whether the engine has `is_legal` (also an extension, though a common one). Without
    /// it a play is sent as `play`, and a refusal is the illegal verdict.
    has_is_legal: bool,
}

/// The engine's answer to one announced event, read ahead of its `apply`.
struct Prefetched {
    event: Event,
    verdict: Result<Verdict, EngineError>,
    /// The board after it.
    stones: Stones,
}

/// Commands in flight at once when pipelining. What they take to write (a few kilobytes) fits
/// the engine's input pipe whatever the engine is doing, so writing a window never blocks;
/// its answers are then read in order, each within the time limit.
const PIPELINE_WINDOW: usize = 128;

impl GtpEngine {
    /// An engine for the profile, started at once so that [`Referee::info`] can give its
    /// name and version. A failure to start is kept and reported by the first trial.
    pub fn new(profile: GtpProfile) -> GtpEngine {
        let mut engine = GtpEngine::idle(profile);
        if let Err(e) = engine.ensure_running() {
            engine.failure = Some(e);
        }
        engine
    }

    /// An engine for the profile, or why it does not start (cannot be run, does not answer,
    /// speaks another protocol version).
    pub fn try_new(profile: GtpProfile) -> Result<GtpEngine, EngineError> {
        let mut engine = GtpEngine::idle(profile);
        engine.ensure_running()?;
        Ok(engine)
    }

    fn idle(profile: GtpProfile) -> GtpEngine {
        GtpEngine {
            profile,
            process: None,
            identity: None,
            failure: None,
            next_id: 1,
            size: 0,
            ko: KoRule::Simple,
            stones: None,
            trial: None,
            applied: Vec::new(),
            queue: VecDeque::new(),
            announced: None,
            lists_stones: true,
            has_is_legal: true,
        }
    }

    /// The profile the engine was started from.
    pub fn profile(&self) -> &GtpProfile {
        &self.profile
    }

    /// Whether a process is running now (false before a restart after a fault).
    pub fn is_running(&mut self) -> bool {
        self.process.as_mut().is_some_and(EngineProcess::is_running)
    }

    /// Starts a process if none is running, and checks that it speaks GTP version 2.
    fn ensure_running(&mut self) -> Result<(), EngineError> {
        if self.is_running() {
            return Ok(());
        }
        self.stop();
        let mut process = EngineProcess::spawn(&self.profile.program, &self.profile.args)?;
        process.set_write_limit(self.profile.timeout);
        self.process = Some(process);
        let version = self.expect("protocol_version")?;
        if version.trim() != "2" {
            return Err(self.fault(EngineError::protocol(format!(
                "the engine speaks GTP version `{}`, not 2",
                version.trim()
            ))));
        }
        let name = self.command("name")?.unwrap_or_default();
        let version = self.command("version")?.unwrap_or_default();
        let identity = format!("{} {}", name.trim(), version.trim());
        self.identity = Some(identity.trim().to_string()).filter(|s| !s.is_empty());
        // `list_commands` is in GTP version 2's required set; an engine that refuses it
        // anyway is taken to have `list_stones` and judged as before.
        if let Ok(commands) = self.command("list_commands")? {
            let has = |name: &str| commands.lines().any(|line| line.trim() == name);
            self.lists_stones = has("list_stones");
            self.has_is_legal = has("is_legal");
        }
        for command in self.profile.init.clone() {
            self.expect(&command)?;
        }
        Ok(())
    }

    /// Whether the running engine (or the last one) has `list_stones`. Without it the
    /// engine observes neither the board nor captures (see [`Referee::capabilities`]).
    pub fn lists_stones(&self) -> bool {
        self.lists_stones
    }

    /// Whether the running engine (or the last one) has `is_legal`. Without it, a refused
    /// `play` is taken as the illegal verdict (the play must then leave the board as it was).
    pub fn has_is_legal(&self) -> bool {
        self.has_is_legal
    }

    /// Kills the process, if any; the next trial starts another.
    fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
        self.stones = None;
    }

    /// Stops the engine after a breakdown and hands the error back, with the tail of the
    /// engine's standard error if the message does not carry it yet.
    fn fault(&mut self, mut error: EngineError) -> EngineError {
        if let Some(process) = self.process.as_ref() {
            if !error.message.contains(" (stderr: ") {
                error.message = with_tail(std::mem::take(&mut error.message), process);
            }
        }
        self.stop();
        error
    }

    /// Sends one command and reads its answer. Any breakdown stops the engine.
    fn command(&mut self, command: &str) -> Result<Answer, EngineError> {
        let result = self.exchange(command);
        result.map_err(|e| self.fault(e))
    }

    /// A command that must succeed: a `?` answer breaks the protocol.
    fn expect(&mut self, command: &str) -> Result<String, EngineError> {
        match self.command(command)? {
            Ok(text) => Ok(text),
            Err(text) => Err(self.fault(EngineError::protocol(format!(
                "the engine refused `{command}`: {text}"
            )))),
        }
    }

    fn exchange(&mut self, command: &str) -> Result<Answer, EngineError> {
        let id = self.next_id;
        self.next_id = self.next_id.wrapping_add(1).max(1);
        let Some(process) = self.process.as_mut() else {
            return Err(EngineError::crash(format!(
                "`{command}`: the engine is not running"
            )));
        };
        exchange(
            process,
            id,
            command,
            self.profile.timeout,
            self.profile.max_answer,
        )
    }

    /// Both colours' stones as the engine shows them, sorted by point; nothing for an engine
    /// without `list_stones`, whose board is not observed.
    fn read_board(&mut self) -> Result<Stones, EngineError> {
        if !self.lists_stones {
            return Ok(Stones::new());
        }
        let black = self.expect(&list_stones(Color::Black))?;
        let white = self.expect(&list_stones(Color::White))?;
        self.board_from(&black, &white)
            .map_err(|e| self.fault(EngineError::protocol(e)))
    }

    /// The board from the answers to `list_stones black` and `list_stones white`.
    fn board_from(&self, black: &str, white: &str) -> Result<Stones, String> {
        let mut stones = Vec::new();
        for (color, answer) in [(Color::Black, black), (Color::White, white)] {
            for vertex in answer.split_whitespace() {
                let p = Point::parse_gtp(vertex, self.size, self.size)
                    .map_err(|e| format!("`{}` lists `{vertex}`: {e}", list_stones(color)))?;
                stones.push((p, color));
            }
        }
        stones.sort();
        if stones.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err("`list_stones` lists a point as both black and white".to_string());
        }
        Ok(stones)
    }

    /// Sends the commands in windows of [`PIPELINE_WINDOW`], each window written at once and
    /// its answers then read in order, every answer within the time limit as one at a time.
    /// Returns the answers read, and the breakdown that stopped it (the engine then stopped).
    fn pipeline(&mut self, commands: &[String]) -> (Vec<Answer>, Option<EngineError>) {
        let mut answers = Vec::with_capacity(commands.len());
        for window in commands.chunks(PIPELINE_WINDOW) {
            let first_id = self.next_id;
            let ids: Vec<u32> = (0..window.len())
                .map(|k| first_id.wrapping_add(k as u32).max(1))
                .collect();
            self.next_id = ids.last().map_or(first_id, |id| id.wrapping_add(1).max(1));
            let Some(process) = self.process.as_mut() else {
                let e = EngineError::crash("the engine is not running");
                return (answers, Some(e));
            };
            let (timeout, max_answer) = (self.profile.timeout, self.profile.max_answer);
            let lines: Vec<String> = window
                .iter()
                .zip(&ids)
                .map(|(command, id)| format!("{id} {command}"))
                .collect();
            let sent = process
                .send_lines(lines.iter().map(String::as_str))
                .map_err(|e| EngineError {
                    kind: e.kind,
                    message: format!("`{}`: {}", window[0], e.message),
                });
            let read = sent.and_then(|()| {
                window.iter().zip(&ids).try_for_each(|(command, &id)| {
                    answers.push(read_answer(process, id, command, timeout, max_answer)?);
                    Ok(())
                })
            });
            if let Err(e) = read {
                return (answers, Some(self.fault(e)));
            }
        }
        (answers, None)
    }

    /// Plays every announced event in one pipelined exchange and keeps the answers, each
    /// judged exactly as [`GtpEngine::play`] and a pass are one at a time: a play is asked
    /// `is_legal`, then played, then both colours listed. Here the `play` is sent whatever
    /// `is_legal` says, so it must agree: refusing a play called legal, or taking one called
    /// illegal (or changing the board while refusing it), breaks the protocol.
    fn prefetch(&mut self, events: &[Event]) {
        let Some(mut before) = self.stones.clone() else {
            return;
        };
        let mut commands = Vec::new();
        for event in events {
            match event {
                Event::Move(color, Move::Pass) => {
                    commands.push(format!("play {} pass", color.name()))
                }
                Event::Move(color, Move::Play(p)) => {
                    if self.has_is_legal {
                        commands.push(format!("is_legal {} {p}", color.name()));
                    }
                    commands.push(format!("play {} {p}", color.name()));
                    if self.lists_stones {
                        commands.push(list_stones(Color::Black));
                        commands.push(list_stones(Color::White));
                    }
                }
                _ => return,
            }
        }
        let (answers, breakdown) = self.pipeline(&commands);
        let mut answers = answers.into_iter();
        for event in events {
            let needed = match event {
                Event::Move(_, Move::Pass) => 1,
                _ => 1 + usize::from(self.has_is_legal) + 2 * usize::from(self.lists_stones),
            };
            let got: Vec<Answer> = answers.by_ref().take(needed).collect();
            if got.len() < needed {
                let e = breakdown.unwrap_or_else(|| EngineError::crash("the engine stopped"));
                self.queue.push_back(Prefetched {
                    event: event.clone(),
                    verdict: Err(e),
                    stones: before,
                });
                return;
            }
            let judged = self.judge_answers(event, &before, &got);
            let (verdict, after) = match judged {
                Ok((verdict, after)) => (Ok(verdict), after),
                Err(why) => {
                    let e = self.fault(EngineError::protocol(why));
                    self.queue.push_back(Prefetched {
                        event: event.clone(),
                        verdict: Err(e),
                        stones: before,
                    });
                    return;
                }
            };
            self.queue.push_back(Prefetched {
                event: event.clone(),
                verdict,
                stones: after.clone(),
            });
            before = after;
        }
    }

    /// The verdict on one event and the board after it, from its pipelined answers.
    fn judge_answers(
        &self,
        event: &Event,
        before: &Stones,
        answers: &[Answer],
    ) -> Result<(Verdict, Stones), String> {
        let Event::Move(color, mv) = event else {
            return Err(format!("`{event}` is not a move"));
        };
        let name = color.name();
        let Move::Play(p) = mv else {
            return match &answers[0] {
                Ok(_) => Ok((
                    Verdict::Legal {
                        captured: Vec::new(),
                        self_captured: Vec::new(),
                    },
                    before.clone(),
                )),
                Err(why) => Err(format!("`play {name} pass` is refused: {why}")),
            };
        };
        // Without `is_legal` the answer to `play` is the verdict: the rest follows it.
        let (legal, answers) = if !self.has_is_legal {
            (answers[0].is_ok(), answers)
        } else {
            let legal = match &answers[0] {
                Ok(text) => match text.trim() {
                    "0" => false,
                    "1" => true,
                    other => {
                        return Err(format!(
                            "`is_legal {name} {p}` answers `{other}`, not 0 or 1"
                        ))
                    }
                },
                Err(why) => return Err(format!("the engine refused `is_legal {name} {p}`: {why}")),
            };
            (legal, &answers[1..])
        };
        let board = |answer: &Answer, color: Color| match answer {
            Ok(text) => Ok(text.clone()),
            Err(why) => Err(format!(
                "the engine refused `{}`: {why}",
                list_stones(color)
            )),
        };
        let after = if self.lists_stones {
            self.board_from(
                &board(&answers[1], Color::Black)?,
                &board(&answers[2], Color::White)?,
            )?
        } else {
            before.clone()
        };
        match (&answers[0], legal) {
            (Ok(_), true) if !self.lists_stones => Ok((
                Verdict::Legal {
                    captured: Vec::new(),
                    self_captured: Vec::new(),
                },
                after,
            )),
            (Ok(_), true) => Ok((
                super::play_verdict_from_boards(before, &after, *color, *p),
                after,
            )),
            (Err(why), true) => Err(format!(
                "`play {name} {p}` is refused ({why}) although `is_legal` called it legal"
            )),
            (Ok(_), false) => Err(format!(
                "`play {name} {p}` is accepted although `is_legal` called it illegal"
            )),
            (Err(_), false) if after != *before => Err(format!(
                "the board changed although `play {name} {p}` was refused"
            )),
            (Err(_), false) => Ok((
                Verdict::Illegal(self.guess_reason(before, *color, *p)),
                after,
            )),
        }
    }

    /// One event, asked on its own.
    fn apply_now(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        match event {
            Event::Move(color, Move::Pass) => {
                if self.stones.is_none() {
                    return Err(EngineError::crash("the engine has no game in progress"));
                }
                match self.command(&format!("play {} pass", color.name()))? {
                    Ok(_) => Ok(Verdict::Legal {
                        captured: Vec::new(),
                        self_captured: Vec::new(),
                    }),
                    Err(why) => Err(self.fault(EngineError::protocol(format!(
                        "`play {} pass` is refused: {why}",
                        color.name()
                    )))),
                }
            }
            Event::Move(color, Move::Play(p)) => self.play(*color, *p),
            other => Err(EngineError::protocol(format!(
                "a GTP engine takes plays and passes only, not `{other}` (its capabilities say so; the harness should not have sent it)"
            ))),
        }
    }

    /// Sets the trial up again and replays the events applied so far one at a time: the
    /// engine has played announced events that the caller did not apply.
    fn resynchronise(&mut self) -> Result<(), EngineError> {
        self.queue.clear();
        let Some((rules, setup)) = self.trial.clone() else {
            return Err(EngineError::crash("the engine has no game in progress"));
        };
        let applied = std::mem::take(&mut self.applied);
        if let Err(Unsupported(why)) = self.start(&rules, &setup) {
            return Err(EngineError::protocol(format!(
                "the engine refused the trial's set-up the second time: {why}"
            )));
        }
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        for event in &applied {
            self.apply_now(event)?;
        }
        self.applied = applied;
        Ok(())
    }

    /// Sets up a trial; the outer error is a breakdown, the inner one a set-up the engine
    /// cannot take.
    fn prepare(
        &mut self,
        rules: &Rules,
        setup: &Setup,
    ) -> Result<Result<(), Unsupported>, EngineError> {
        self.ensure_running()?;
        let size = setup.width;
        self.size = size;
        let positioned = !setup.stones.is_empty() || !setup.handicap.is_empty();
        if positioned {
            if let Err(why) = self.command(&format!("boardsize {size}"))? {
                return Ok(Err(Unsupported(format!(
                    "the engine refuses a {size}x{size} board: {why}"
                ))));
            }
            self.expect("clear_board")?;
            let placed = match self.profile.setup {
                SetupMethod::LoadSgf => self.load_sgf(rules, setup)?,
                SetupMethod::Play => self.play_setup(setup)?,
            };
            if let Err(why) = placed {
                return Ok(Err(why));
            }
            // Komi changes nothing the bridge observes; an engine that refuses it still plays.
            let _ = self.command(&format!("komi {}", komi_of(rules, setup)))?;
            self.stones = Some(self.read_board()?);
            return Ok(Ok(()));
        }
        // An empty board: the same commands, pipelined, each answer judged as above.
        let mut commands = vec![
            format!("boardsize {size}"),
            "clear_board".to_string(),
            format!("komi {}", komi_of(rules, setup)),
        ];
        if self.lists_stones {
            commands.push(list_stones(Color::Black));
            commands.push(list_stones(Color::White));
        }
        let (answers, breakdown) = self.pipeline(&commands);
        if let Some(e) = breakdown {
            return Err(e);
        }
        if let Err(why) = &answers[0] {
            return Ok(Err(Unsupported(format!(
                "the engine refuses a {size}x{size} board: {why}"
            ))));
        }
        if let Err(why) = &answers[1] {
            return Err(self.fault(EngineError::protocol(format!(
                "the engine refused `clear_board`: {why}"
            ))));
        }
        let listed = |k: usize| {
            answers[k]
                .clone()
                .map_err(|why| format!("the engine refused `{}`: {why}", commands[k]))
        };
        let board = if self.lists_stones {
            listed(3).and_then(|black| listed(4).and_then(|white| self.board_from(&black, &white)))
        } else {
            Ok(Stones::new())
        };
        match board {
            Ok(stones) => {
                self.stones = Some(stones);
                Ok(Ok(()))
            }
            Err(why) => Err(self.fault(EngineError::protocol(why))),
        }
    }

    fn play_setup(&mut self, setup: &Setup) -> Result<Result<(), Unsupported>, EngineError> {
        if !setup.handicap.is_empty() {
            let points: Vec<String> = setup.handicap.iter().map(|p| p.to_string()).collect();
            if let Err(why) = self.command(&format!("set_free_handicap {}", points.join(" ")))? {
                return Ok(Err(Unsupported(format!(
                    "the engine refuses the handicap {}: {why}",
                    points.join(" ")
                ))));
            }
        }
        for (p, c) in &setup.stones {
            if let Err(why) = self.command(&format!("play {} {p}", c.name()))? {
                return Ok(Err(Unsupported(format!(
                    "the engine refuses the set-up stone {} {p} (set-ups go through `play`): {why}",
                    c.name()
                ))));
            }
        }
        Ok(Ok(()))
    }

    fn load_sgf(
        &mut self,
        rules: &Rules,
        setup: &Setup,
    ) -> Result<Result<(), Unsupported>, EngineError> {
        // A fresh file of an unpredictable name, created exclusively (never through a link
        // someone planted under a name we would use), removed when dropped.
        let file = tempfile::Builder::new()
            .prefix("goconform-gtp-")
            .suffix(".sgf")
            .tempfile();
        let mut file = match file {
            Ok(f) => f,
            Err(e) => {
                return Ok(Err(Unsupported(format!(
                    "cannot create a set-up file in the temporary folder: {e}"
                ))))
            }
        };
        let shown = file.path().to_string_lossy().into_owned();
        if shown
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || c == '#')
        {
            return Ok(Err(Unsupported(format!(
                "the set-up file {shown} cannot be named in a GTP command"
            ))));
        }
        let written = std::io::Write::write_all(&mut file, setup_sgf(rules, setup).as_bytes())
            .and_then(|()| std::io::Write::flush(&mut file));
        if let Err(e) = written {
            return Ok(Err(Unsupported(format!(
                "cannot write the set-up file {shown}: {e}"
            ))));
        }
        let answer = self.command(&format!("loadsgf {shown}"));
        drop(file);
        Ok(answer?.map(|_| ()).map_err(|why| {
            Unsupported(format!(
                "the engine does not load the set-up (loadsgf): {why}"
            ))
        }))
    }

    fn play(&mut self, color: Color, p: Point) -> Result<Verdict, EngineError> {
        let Some(before) = self.stones.clone() else {
            return Err(self.fault(EngineError::crash("the engine has no game in progress")));
        };
        if !self.has_is_legal {
            return self.play_without_is_legal(before, color, p);
        }
        let legal = self.expect(&format!("is_legal {} {p}", color.name()))?;
        match legal.trim() {
            "0" => return Ok(Verdict::Illegal(self.guess_reason(&before, color, p))),
            "1" => {}
            other => {
                return Err(self.fault(EngineError::protocol(format!(
                    "`is_legal {} {p}` answers `{other}`, not 0 or 1",
                    color.name()
                ))))
            }
        }
        if let Err(why) = self.command(&format!("play {} {p}", color.name()))? {
            return Err(self.fault(EngineError::protocol(format!(
                "`play {} {p}` is refused ({why}) although `is_legal` called it legal",
                color.name()
            ))));
        }
        if !self.lists_stones {
            // Nothing to read the captures from: a legal play, its captures not observed.
            return Ok(Verdict::Legal {
                captured: Vec::new(),
                self_captured: Vec::new(),
            });
        }
        let after = self.read_board()?;
        self.stones = Some(after.clone());
        Ok(super::play_verdict_from_boards(&before, &after, color, p))
    }

    /// A play put to an engine without `is_legal`: its refusal is the illegal verdict, and a
    /// refused play must leave the board as it was.
    fn play_without_is_legal(
        &mut self,
        before: Stones,
        color: Color,
        p: Point,
    ) -> Result<Verdict, EngineError> {
        let refused = self
            .command(&format!("play {} {p}", color.name()))?
            .is_err();
        let after = self.read_board()?;
        if refused {
            if self.lists_stones && after != before {
                return Err(self.fault(EngineError::protocol(format!(
                    "the board changed although `play {} {p}` was refused",
                    color.name()
                ))));
            }
            return Ok(Verdict::Illegal(self.guess_reason(&before, color, p)));
        }
        if !self.lists_stones {
            return Ok(Verdict::Legal {
                captured: Vec::new(),
                self_captured: Vec::new(),
            });
        }
        self.stones = Some(after.clone());
        Ok(super::play_verdict_from_boards(&before, &after, color, p))
    }

    /// A reason for an illegal play, guessed from the board: never compared, since no GTP
    /// profile observes reasons (see the module documentation).
    fn guess_reason(&self, stones: &Stones, color: Color, p: Point) -> Reason {
        let Ok(mut board) = Board::new(self.size, self.size) else {
            return Reason::Occupied;
        };
        for &(q, c) in stones {
            board.set_stone(c, q);
        }
        match board.preview(color, p) {
            None => Reason::Occupied,
            Some(preview) if preview.self_captured > 0 => Reason::Suicide,
            Some(preview) if preview.ko_shape || self.ko == KoRule::Simple => Reason::Ko,
            Some(_) => Reason::Superko,
        }
    }
}

impl Drop for GtpEngine {
    fn drop(&mut self) {
        if let Some(process) = self.process.as_mut() {
            let _ = process.send_line("quit");
        }
        self.stop();
    }
}

impl std::fmt::Debug for GtpEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GtpEngine")
            .field("profile", &self.profile.name)
            .field("process", &self.process)
            .finish_non_exhaustive()
    }
}

impl Referee for GtpEngine {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: self.profile.name.clone(),
            version: self
                .identity
                .clone()
                .unwrap_or_else(|| "(not started)".to_string()),
        }
    }

    fn capabilities(&self) -> Capabilities {
        let mut caps = self.profile.capabilities.clone();
        if !self.lists_stones {
            caps.observes.remove(&Observable::Board);
            caps.observes.remove(&Observable::Captures);
        }
        caps
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.failure = None;
        self.stones = None;
        self.queue.clear();
        self.announced = None;
        self.applied.clear();
        self.trial = Some((*rules, setup.clone()));
        self.ko = rules.ko;
        self.profile
            .capabilities
            .supports(rules)
            .map_err(Unsupported)?;
        if setup.width != setup.height {
            return Err(Unsupported(format!(
                "GTP boards are square, and this one is {}x{}",
                setup.width, setup.height
            )));
        }
        // Every superko rule reads the history, natural situational superko included.
        if rules.ko != KoRule::Simple {
            if setup.history == SetupHistory::Excluded {
                return Err(Unsupported(
                    "a GTP engine cannot leave the set-up position out of its superko history (setup_history = excluded)".to_string(),
                ));
            }
            if !setup.stones.is_empty() && self.profile.setup == SetupMethod::Play {
                return Err(Unsupported(
                    "set-up stones placed with `play` would put positions that never arose into the engine's superko history".to_string(),
                ));
            }
        }
        match self.prepare(rules, setup) {
            Ok(ready) => ready,
            Err(e) => {
                self.stop();
                self.failure = Some(EngineError {
                    kind: e.kind,
                    message: format!("while setting up the trial: {}", e.message),
                });
                Ok(())
            }
        }
    }

    /// Pipelines the announced plays and passes (see `GtpEngine::prefetch`); nothing is
    /// sent if the trial did not start well, or if any event is of another kind.
    fn announce(&mut self, events: &[Event]) {
        self.queue.clear();
        self.announced = None;
        if self.failure.is_none() && self.applied.is_empty() {
            self.prefetch(events);
        }
    }

    /// Starts at once and keeps the events to pipeline at the first `apply`, so that the
    /// start is observed before any of them is sent, exactly as with `start`, then
    /// `announce` after the observation.
    fn start_announced(
        &mut self,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Result<(), Unsupported> {
        self.start(rules, setup)?;
        self.announced = Some(events.to_vec());
        Ok(())
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        if let Some(events) = self.announced.take() {
            self.announce(&events);
        }
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        if let Some(next) = self.queue.pop_front() {
            if next.event == *event {
                if next.verdict.is_ok() {
                    self.stones = Some(next.stones);
                    self.applied.push(next.event);
                }
                return next.verdict;
            }
            self.resynchronise()?;
        }
        let verdict = self.apply_now(event)?;
        self.applied.push(event.clone());
        Ok(verdict)
    }

    fn observe(&self) -> Observation {
        Observation {
            stones: self.stones.clone(),
            ..Observation::default()
        }
    }
}

/// The komi of the trial: the handicap komi in a handicap game, as the GTP face does.
fn komi_of(rules: &Rules, setup: &Setup) -> crate::rules::Komi {
    if setup.handicap.len() >= 2 {
        rules.handicap_komi
    } else {
        rules.komi
    }
}

/// The set-up as an SGF game with no moves: size, komi, handicap and stones as `AB`/`AW`,
/// and the player to move (White in a handicap game).
fn setup_sgf(rules: &Rules, setup: &Setup) -> String {
    let size = setup.width;
    let coordinate = |p: Point| {
        let letter = |n: u8| char::from(b'a' + n);
        format!(
            "[{}{}]",
            letter(p.col),
            letter(size.saturating_sub(1).saturating_sub(p.row))
        )
    };
    let mut sgf = format!("(;FF[4]GM[1]SZ[{size}]KM[{}]", komi_of(rules, setup));
    if setup.handicap.len() >= 2 {
        let _ = write!(sgf, "HA[{}]", setup.handicap.len());
    }
    let black: Vec<Point> = setup
        .handicap
        .iter()
        .copied()
        .chain(setup.stones_of(Color::Black))
        .collect();
    let white: Vec<Point> = setup.stones_of(Color::White).collect();
    for (property, points) in [("AB", black), ("AW", white)] {
        if !points.is_empty() {
            sgf.push_str(property);
            for p in points {
                sgf.push_str(&coordinate(p));
            }
        }
    }
    let to_move = if setup.handicap.is_empty() {
        setup.to_move
    } else {
        Color::White
    };
    let _ = write!(sgf, "PL[{}])", to_move.letter());
    sgf
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_setup_file_places_stones_from_the_top_left() {
        let mut setup = Setup::empty(5, 5);
        setup.stones = vec![
            (Point::new(0, 0), Color::Black),
            (Point::new(4, 4), Color::White),
        ];
        setup.to_move = Color::White;
        let sgf = setup_sgf(&Rules::default(), &setup);
        assert_eq!(sgf, "(;FF[4]GM[1]SZ[5]KM[7.5]AB[ae]AW[ea]PL[W])");
    }
}
