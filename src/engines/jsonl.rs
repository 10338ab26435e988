//! The harness side of the JSON-lines protocol: [`JsonlEngine`], a [`Referee`] over a child
//! process that speaks it (`docs/protocol.md`).
//!
//! Each trial is replayed through the engine as [`super::replay`] describes: the engine keeps
//! no game between requests, and every answer is checked against the ones before it.
//!
//! Faults: every read has a time limit ([`JsonlOptions::timeout`]); an exit is a crash with
//! the tail of standard error; a reply that is not a protocol message, is too long, has
//! another `id`, the wrong number of steps or a word the protocol does not know is a protocol
//! error; in [strict mode](JsonlOptions::strict) so is any reply the schema refuses. After
//! any of these the process is killed, and the next trial starts a new one: the run goes on.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::process::{split_command, EngineProcess};
use super::profile::Claims;
use super::protocol::{
    read_reply, BoardForm, ReadReply, Reply, Request, BOARD_ROWS, MAX_LINE_BYTES, PROTOCOL_VERSION,
};
use super::replay::{Answerer, Replay, Ticket};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Observation, Referee, Unsupported,
};
use crate::game::{Event, Setup, Verdict};
use crate::rules::Rules;

/// How the harness talks to the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JsonlOptions {
    /// How long to wait for each reply (the `hello` answer included).
    pub timeout: Duration,
    /// Refuse any reply the protocol's schema refuses (unknown fields, missing optional
    /// parts, a vertex in lower case), with every problem in the error. Otherwise unknown
    /// fields are ignored and only what cannot be understood is an error.
    pub strict: bool,
    /// What a profile or `--claim` says the engine does, which narrows what it declares in
    /// its `hello` (never widens it).
    pub claims: Option<Claims>,
}

impl Default for JsonlOptions {
    fn default() -> JsonlOptions {
        JsonlOptions {
            timeout: Duration::from_secs(10),
            strict: false,
            claims: None,
        }
    }
}

/// How long a dropped engine gets to exit after `bye` before it is killed.
const BYE_GRACE: Duration = Duration::from_millis(200);

/// An engine in another process, speaking the JSON-lines protocol, behind [`Referee`].
pub struct JsonlEngine {
    link: Link,
    replay: Replay,
}

/// The child process and what it said when it shook hands: how a request reaches the engine.
struct Link {
    program: String,
    args: Vec<String>,
    options: JsonlOptions,
    process: Option<EngineProcess>,
    /// What the first handshake said, or why it failed.
    hello: Result<(EngineInfo, Capabilities), EngineError>,
    /// How the engine is asked to give boards: as rows where its last `hello` listed the
    /// `board-rows` extension.
    board_form: BoardForm,
    /// Requests posted ahead of their replies ([`Answerer::post`]), written and their replies
    /// not yet read, oldest first: their tickets and lengths in bytes. Replies are read in this
    /// order, the ones nobody collects dropped.
    posted: VecDeque<(Ticket, usize)>,
    /// Replies to posted requests read before they were collected (an ordinary request was
    /// sent after them, so they had to be read first), oldest first: kept for their collect.
    early: VecDeque<(Ticket, Result<String, EngineError>)>,
    /// Requests posted after those, not yet written, with their tickets: they go out together,
    /// in one write, when a reply is next waited for, so that a batch of requests wakes the
    /// engine once.
    unsent: Vec<(Ticket, String)>,
    next_ticket: Ticket,
    /// How many bytes of posted requests may wait unread in the engine's input
    /// ([`EngineProcess::input_headroom`] of the running process).
    headroom: usize,
}

impl JsonlEngine {
    /// Starts the engine and shakes hands: an engine that does not start, does not answer
    /// `hello` in time or speaks another version is an error here. Use this to refuse a
    /// broken engine before a run.
    pub fn connect(
        program: &str,
        args: &[String],
        options: JsonlOptions,
    ) -> Result<JsonlEngine, EngineError> {
        let mut link = Link::unstarted(program, args, options);
        link.hello = Ok(link.handshake()?);
        Ok(JsonlEngine::over(link))
    }

    /// Like [`JsonlEngine::connect`], but never fails, for a harness factory: an engine whose
    /// handshake fails claims every capability (so that no trial hides the failure as not
    /// applicable) and every trial reports the failure as its error.
    pub fn new(program: &str, args: &[String], options: JsonlOptions) -> JsonlEngine {
        let mut link = Link::unstarted(program, args, options);
        link.hello = link.handshake();
        JsonlEngine::over(link)
    }

    /// [`JsonlEngine::new`] for a command line such as `python3 my_engine.py --fast`
    /// (split by [`super::process::split_command`]).
    pub fn from_command(command: &str, options: JsonlOptions) -> Result<JsonlEngine, String> {
        let (program, args) = split_command(command)?;
        Ok(JsonlEngine::new(&program, &args, options))
    }

    fn over(link: Link) -> JsonlEngine {
        JsonlEngine {
            link,
            replay: Replay::default(),
        }
    }

    /// What the first handshake said: the engine and its capabilities, or why it failed.
    pub fn hello(&self) -> Result<&(EngineInfo, Capabilities), &EngineError> {
        self.link.hello.as_ref()
    }
}

impl Link {
    fn unstarted(program: &str, args: &[String], options: JsonlOptions) -> Link {
        Link {
            program: program.to_string(),
            args: args.to_vec(),
            options,
            process: None,
            hello: Err(EngineError::crash("not started")),
            board_form: BoardForm::Pairs,
            posted: VecDeque::new(),
            early: VecDeque::new(),
            unsent: Vec::new(),
            next_ticket: 0,
            headroom: 0,
        }
    }

    /// The command line, for messages.
    fn command(&self) -> String {
        std::iter::once(self.program.as_str())
            .chain(self.args.iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// Starts the process and exchanges `hello`. On failure no process is left running.
    fn handshake(&mut self) -> Result<(EngineInfo, Capabilities), EngineError> {
        self.stop();
        let mut process = EngineProcess::spawn(&self.program, &self.args)?;
        process.set_write_limit(self.options.timeout);
        self.headroom = process.input_headroom();
        self.process = Some(process);
        let request = Request::Hello {
            protocol: PROTOCOL_VERSION,
        };
        match self.send(&request)? {
            Reply::Hello(hello) => {
                self.board_form = if hello.speaks(BOARD_ROWS) {
                    BoardForm::Rows
                } else {
                    BoardForm::Pairs
                };
                hello.decode().map_err(|e| self.protocol_error(e))
            }
            Reply::Error(e) => {
                self.stop();
                Err(EngineError::crash(format!(
                    "the engine refused the handshake: {}",
                    e.message
                )))
            }
            other => Err(self.protocol_error(format!(
                "the engine answered `hello` with `{}`",
                other.kind()
            ))),
        }
    }

    /// Ready for an ordinary request: the replies to the posted requests already written read
    /// and kept for their collect (a fault while reading one is kept as its reply, and the
    /// process is killed: the requests after it are lost and will be asked again), and an
    /// engine running. The posted requests not yet written stay posted: the ordinary request
    /// goes before them.
    fn settle(&mut self) -> Result<(), EngineError> {
        let timeout = self.options.timeout;
        while let Some((ticket, _)) = self.posted.pop_front() {
            let line = self.read_line(timeout);
            let failed = line.is_err();
            self.early.push_back((ticket, line));
            if failed {
                break;
            }
        }
        self.ensure_running()
    }

    /// Reads and drops the replies to the posted requests already written, each by `deadline`
    /// (a fault stops the reading and kills the process).
    fn drop_sent(&mut self, deadline: Instant) {
        while self.posted.pop_front().is_some() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() || self.read_line(left).is_err() {
                self.stop();
                break;
            }
        }
    }

    /// A running engine that has shaken hands: the one there is, or a new one after a fault.
    fn ensure_running(&mut self) -> Result<(), EngineError> {
        if let Some(process) = self.process.as_mut() {
            if process.is_running() {
                return Ok(());
            }
        }
        let hello = self.handshake()?;
        if self.hello.is_err() {
            self.hello = Ok(hello);
        }
        Ok(())
    }

    /// Sends a request and reads the reply; any fault kills the process.
    fn send(&mut self, request: &Request) -> Result<Reply, EngineError> {
        let line = self.round_trip(request)?;
        Reply::from_line(&line, self.options.strict).map_err(|e| self.protocol_error(e))
    }

    /// Sends a request and reads the reply's line; a fault kills the process.
    fn round_trip(&mut self, request: &Request) -> Result<String, EngineError> {
        let timeout = self.options.timeout;
        let Some(process) = self.process.as_mut() else {
            return Err(EngineError::crash("the engine is not running"));
        };
        let line = process
            .send_line(&request.to_line())
            .and_then(|()| process.read_line(timeout, MAX_LINE_BYTES));
        line.inspect_err(|_| self.stop())
    }

    /// Reads the next line of the engine's output within `timeout`; a fault kills the process.
    fn read_line(&mut self, timeout: Duration) -> Result<String, EngineError> {
        let Some(process) = self.process.as_mut() else {
            return Err(EngineError::crash("the engine is not running"));
        };
        let line = process.read_line(timeout, MAX_LINE_BYTES);
        line.inspect_err(|_| self.stop())
    }

    /// Writes the posted requests not yet written, in one write; a fault kills the process
    /// (and so drops every posted request).
    fn send_unsent(&mut self) {
        let Some(process) = self.process.as_mut() else {
            return;
        };
        if self.unsent.is_empty() {
            return;
        }
        let sent = process.send_lines(self.unsent.iter().map(|(_, line)| line.as_str()));
        if sent.is_err() {
            self.stop();
            return;
        }
        let written = self.unsent.drain(..);
        self.posted
            .extend(written.map(|(ticket, line)| (ticket, line.len() + 1)));
    }

    /// The reply a line holds, read as the options say; a line that is none kills the process.
    fn reply(&mut self, line: Result<String, EngineError>) -> Result<ReadReply, EngineError> {
        let line = line?;
        read_reply(&line, self.options.strict).map_err(|e| self.protocol_error(e))
    }

    /// A protocol error with the tail of standard error; the process is killed.
    fn protocol_error(&mut self, message: String) -> EngineError {
        let tail = self
            .process
            .as_ref()
            .map(EngineProcess::stderr_tail)
            .unwrap_or_default();
        self.stop();
        let message = format!(
            "the engine `{}` broke the protocol: {message}",
            self.command()
        );
        EngineError::protocol(if tail.is_empty() {
            message
        } else {
            format!("{message} (stderr: {tail})")
        })
    }

    /// Kills the process, if any. The replies to posted requests will never come.
    fn stop(&mut self) {
        self.posted.clear();
        self.unsent.clear();
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }
}

impl Answerer for Link {
    fn ready(&mut self) -> Result<(), EngineError> {
        self.settle()
    }

    fn exchange(&mut self, request: &Request) -> Result<ReadReply, EngineError> {
        self.settle()?;
        let line = self.round_trip(request);
        self.reply(line)
    }

    fn protocol_error(&mut self, message: String) -> EngineError {
        Link::protocol_error(self, message)
    }

    fn hello(&self) -> Result<&(EngineInfo, Capabilities), &EngineError> {
        self.hello.as_ref()
    }

    fn board_form(&self) -> BoardForm {
        self.board_form
    }

    /// Taken when the engine is running and the requests already waiting leave room for it
    /// in the engine's input ([`Link::headroom`]; one request is always allowed, as an
    /// ordinary exchange sends it): writing never blocks, so the engine can never be left
    /// waiting to write a reply while this side waits to write a request. It is written with
    /// the others posted since the last wait, when a reply is next waited for.
    fn post(&mut self, request: &Request) -> Option<Ticket> {
        self.process.as_ref()?;
        let line = request.to_line();
        let written: usize = self.posted.iter().map(|(_, bytes)| bytes).sum();
        let unsent: usize = self.unsent.iter().map(|(_, line)| line.len() + 1).sum();
        let first = self.posted.is_empty() && self.unsent.is_empty();
        if !first && written + unsent + line.len() + 1 > self.headroom {
            return None;
        }
        let ticket = self.next_ticket;
        self.next_ticket += 1;
        self.unsent.push((ticket, line));
        Some(ticket)
    }

    fn collect(&mut self, ticket: Ticket) -> Option<Result<ReadReply, EngineError>> {
        // The batch posted since the last wait goes out now, to be answered while this side
        // works on the reply waited for.
        self.send_unsent();
        while self.early.front().is_some_and(|(next, _)| *next < ticket) {
            self.early.pop_front();
        }
        if self.early.front().is_some_and(|(next, _)| *next == ticket) {
            let (_, line) = self.early.pop_front()?;
            return Some(self.reply(line));
        }
        let timeout = self.options.timeout;
        while let Some(&(next, _)) = self.posted.front() {
            if next > ticket {
                break;
            }
            self.posted.pop_front();
            let line = self.read_line(timeout);
            if next == ticket {
                return Some(self.reply(line));
            }
            if line.is_err() {
                break;
            }
        }
        None
    }
}

impl Referee for JsonlEngine {
    fn info(&self) -> EngineInfo {
        match &self.link.hello {
            Ok((info, _)) => info.clone(),
            Err(_) => EngineInfo {
                name: self.link.command(),
                version: "unknown (no handshake)".to_string(),
            },
        }
    }

    fn capabilities(&self) -> Capabilities {
        let declared = match &self.link.hello {
            Ok((_, caps)) => caps.clone(),
            Err(_) => Capabilities::everything(),
        };
        match &self.link.options.claims {
            Some(claims) => claims.narrow(&declared),
            None => declared,
        }
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.replay.start(&mut self.link, rules, setup)
    }

    fn announce(&mut self, events: &[Event]) {
        self.replay.announce(&mut self.link, events);
    }

    fn start_announced(
        &mut self,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Result<(), Unsupported> {
        self.replay
            .start_announced(&mut self.link, rules, setup, events)
    }

    fn foresee(&mut self, rules: &Rules, setup: &Setup, events: &[Event]) {
        self.replay.foresee(&mut self.link, rules, setup, events);
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        self.replay.apply(&mut self.link, event)
    }

    fn observe(&self) -> Observation {
        self.replay.observe()
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.replay.count()
    }
}

impl Drop for JsonlEngine {
    /// Says `bye`, gives the engine a moment to exit, and kills it if it has not.
    fn drop(&mut self) {
        // The replies to requests posted and never collected are read first, within the
        // grace, so that the engine is not left blocked writing them when `bye` comes.
        self.link.unsent.clear();
        self.link.drop_sent(Instant::now() + BYE_GRACE);
        let Some(mut process) = self.link.process.take() else {
            return;
        };
        if process.send_line(&Request::Bye.to_line()).is_ok() {
            let deadline = Instant::now() + BYE_GRACE;
            while process.is_running() && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        process.kill();
    }
}

impl std::fmt::Debug for JsonlEngine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonlEngine")
            .field("command", &self.link.command())
            .field("options", &self.link.options)
            .field("running", &self.link.process.is_some())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::conformance::ErrorKind;

    #[test]
    fn commands_split_like_a_shell_would() {
        assert_eq!(
            split_command("python3  engine.py --size 'a b' \"c \\\" d\" e\\ f"),
            Ok((
                "python3".to_string(),
                vec![
                    "engine.py".to_string(),
                    "--size".to_string(),
                    "a b".to_string(),
                    "c \" d".to_string(),
                    "e f".to_string()
                ]
            ))
        );
        assert_eq!(split_command("x ''").unwrap().1, vec![String::new()]);
        assert!(split_command("  ").is_err());
        assert!(split_command("a 'b").is_err());
    }

    #[test]
    fn a_missing_program_fails_to_connect_and_every_trial_says_so() {
        let options = JsonlOptions::default();
        let e = JsonlEngine::connect("/nonexistent/engine", &[], options.clone()).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Crash);
        let mut engine = JsonlEngine::new("/nonexistent/engine", &[], options);
        assert_eq!(engine.capabilities(), Capabilities::everything());
        assert!(engine.info().version.contains("no handshake"));
        assert_eq!(engine.start(&Rules::default(), &Setup::empty(5, 5)), Ok(()));
        let e = engine
            .apply(&Event::Move(
                crate::board::Color::Black,
                crate::board::Move::Pass,
            ))
            .unwrap_err();
        assert!(e.message.contains("did not start"), "{}", e.message);
        assert!(e.message.contains("/nonexistent/engine"), "{}", e.message);
    }
}
