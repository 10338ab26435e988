//! The harness side of the JSON-lines protocol: [`JsonlEngine`], a [`Referee`] over a child
//! process that speaks it (`docs/protocol.md`).
//!
//! The protocol plays a whole trial per request, and the trait asks for one event at a time.
//! `start` sends the set-up with no event (which gives the initial observation, or the
//! engine's refusal). When the caller announces the game ([`Referee::announce`]: the fuzzing
//! differential does), one more request carries every event, and the `apply`
//! calls are answered from its steps: two requests a trial. Otherwise, or from the first
//! `apply` of an event that was not announced, the engine is asked again for each prefix:
//! every `apply` sends the set-up with every event so far and takes the last step (`n + 1`
//! requests and `n (n + 1) / 2` replayed events for `n` events). Either way the engine never
//! keeps a game between requests (so the two sides cannot drift), and in the prefix mode
//! every answer is checked against the ones before it: an engine that answers the same events
//! differently is a protocol error, not a flaky test. A fault in the announced request is not
//! reported there: the prefix mode takes over and meets it at the event where it happens.
//!
//! Faults: every read has a time limit ([`JsonlOptions::timeout`]); an exit is a crash with
//! the tail of standard error; a reply that is not a protocol message, is too long, has
//! another `id`, the wrong number of steps or a word the protocol does not know is a protocol
//! error; in [strict mode](JsonlOptions::strict) so is any reply the schema refuses. After
//! any of these the process is killed, and the next trial starts a new one: the run goes on.
//! A fault while starting a trial can only be reported by the trait at the first event, so it
//! is kept and returned there, worded as a failure to start.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::process::{split_command, EngineProcess};
use super::profile::Claims;
use super::protocol::{
    strict_result, validate_reply, Reply, Request, RunRequest, Skipped, MAX_LINE_BYTES,
    PROTOCOL_VERSION,
};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Observable, Observation, Referee, Unsupported,
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
    program: String,
    args: Vec<String>,
    options: JsonlOptions,
    process: Option<EngineProcess>,
    /// What the first handshake said, or why it failed.
    hello: Result<(EngineInfo, Capabilities), EngineError>,
    /// Trials started, for request ids.
    trials: u64,
    trial: Option<Trial>,
}

/// The trial in progress: what was asked, and what the engine answered so far.
struct Trial {
    number: u64,
    rules: Rules,
    setup: Setup,
    events: Vec<Event>,
    initial: Observation,
    steps: Vec<(Verdict, Observation)>,
    /// A fault while starting, reported at the first event.
    pending: Option<EngineError>,
    /// The engine's answers to the announced events not yet applied, in order.
    prefetched: VecDeque<(Event, Verdict, Observation)>,
}

/// What the engine made of one request.
enum Answer {
    Played {
        initial: Observation,
        steps: Vec<(Verdict, Observation)>,
    },
    Skipped(String),
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
        let mut engine = JsonlEngine::unstarted(program, args, options);
        engine.hello = Ok(engine.handshake()?);
        Ok(engine)
    }

    /// Like [`JsonlEngine::connect`], but never fails, for a harness factory: an engine whose
    /// handshake fails claims every capability (so that no trial hides the failure as not
    /// applicable) and every trial reports the failure as its error.
    pub fn new(program: &str, args: &[String], options: JsonlOptions) -> JsonlEngine {
        let mut engine = JsonlEngine::unstarted(program, args, options);
        engine.hello = engine.handshake();
        engine
    }

    /// [`JsonlEngine::new`] for a command line such as `python3 my_engine.py --fast`
    /// (split by [`super::process::split_command`]).
    pub fn from_command(command: &str, options: JsonlOptions) -> Result<JsonlEngine, String> {
        let (program, args) = split_command(command)?;
        Ok(JsonlEngine::new(&program, &args, options))
    }

    fn unstarted(program: &str, args: &[String], options: JsonlOptions) -> JsonlEngine {
        JsonlEngine {
            program: program.to_string(),
            args: args.to_vec(),
            options,
            process: None,
            hello: Err(EngineError::crash("not started")),
            trials: 0,
            trial: None,
        }
    }

    /// What the first handshake said: the engine and its capabilities, or why it failed.
    pub fn hello(&self) -> Result<&(EngineInfo, Capabilities), &EngineError> {
        self.hello.as_ref()
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
        self.process = Some(EngineProcess::spawn(&self.program, &self.args)?);
        let request = Request::Hello {
            protocol: PROTOCOL_VERSION,
        };
        match self.exchange(&request)? {
            Reply::Hello(hello) => hello.decode().map_err(|e| self.protocol_error(e)),
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
    fn exchange(&mut self, request: &Request) -> Result<Reply, EngineError> {
        let timeout = self.options.timeout;
        let Some(process) = self.process.as_mut() else {
            return Err(EngineError::crash("the engine is not running"));
        };
        let line = process
            .send_line(&request.to_line())
            .and_then(|()| process.read_line(timeout, MAX_LINE_BYTES));
        let line = match line {
            Ok(line) => line,
            Err(e) => {
                self.stop();
                return Err(e);
            }
        };
        if self.options.strict {
            // The typed strict reading first: what it accepts the schema accepts (see
            // protocol/strict.rs), and the validator reads only what it refuses, to judge it
            // and word its problems.
            if let Some(result) = strict_result(&line) {
                return Ok(Reply::Result(result));
            }
            if let Err(problems) = validate_reply(&line) {
                return Err(self.protocol_error(format!(
                    "the reply breaks the protocol's schema: {}; the reply: {}",
                    problems.join("; "),
                    excerpt(&line)
                )));
            }
        }
        serde_json::from_str::<Reply>(&line).map_err(|e| {
            self.protocol_error(format!(
                "the reply is not a protocol message ({e}): {}",
                excerpt(&line)
            ))
        })
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

    /// Kills the process, if any.
    fn stop(&mut self) {
        if let Some(mut process) = self.process.take() {
            process.kill();
        }
    }

    /// The observations to ask for: what the engine claims.
    fn observes(&self) -> std::collections::BTreeSet<Observable> {
        match &self.hello {
            Ok((_, caps)) => caps.observes.clone(),
            Err(_) => Observable::ALL.iter().copied().collect(),
        }
    }

    /// Plays the trial's set-up and `events` through the engine.
    fn play(&mut self, trial: &Trial, events: &[Event]) -> Result<Answer, EngineError> {
        self.ensure_running()?;
        let id = format!("t{}.{}", trial.number, events.len());
        let request = RunRequest::new(&id, &trial.rules, &trial.setup, events, &self.observes());
        let (width, height) = (trial.setup.width, trial.setup.height);
        match self.exchange(&Request::Run(request))? {
            Reply::Result(result) => {
                if result.id != id {
                    return Err(self.protocol_error(format!(
                        "the answer to run `{id}` is for `{}`",
                        result.id
                    )));
                }
                if result.steps.len() != events.len() {
                    return Err(self.protocol_error(format!(
                        "run `{id}` had {} events, and the answer has {} steps",
                        events.len(),
                        result.steps.len()
                    )));
                }
                let initial = result
                    .initial
                    .decode(width, height)
                    .map_err(|e| format!("initial: {e}"));
                let steps = result
                    .steps
                    .iter()
                    .enumerate()
                    .map(|(k, step)| {
                        step.decode(width, height)
                            .map_err(|e| format!("steps[{k}] (`{}`): {e}", events[k]))
                    })
                    .collect::<Result<Vec<_>, _>>();
                match (initial, steps) {
                    (Ok(initial), Ok(steps)) => Ok(Answer::Played { initial, steps }),
                    (Err(e), _) | (_, Err(e)) => Err(self.protocol_error(e)),
                }
            }
            Reply::Skipped(skipped) if skipped.id == id => Ok(Answer::Skipped(skipped.reason)),
            Reply::Error(e) if e.id.as_deref().is_none_or(|i| i == id) => {
                let context = e
                    .context
                    .map_or(String::new(), |c| format!(" (context: {c})"));
                Err(EngineError::crash(format!(
                    "the engine reported an error: {}{context}",
                    e.message
                )))
            }
            Reply::Skipped(Skipped { id: other, .. }) => {
                Err(self.protocol_error(format!("the answer to run `{id}` is for `{other}`")))
            }
            other => Err(self.protocol_error(format!(
                "the engine answered run `{id}` with `{}`",
                other.kind()
            ))),
        }
    }
}

/// The start of a long line, for messages.
fn excerpt(line: &str) -> String {
    const KEEP: usize = 200;
    if line.len() <= KEEP {
        format!("`{line}`")
    } else {
        let cut = (0..=KEEP)
            .rev()
            .find(|&i| line.is_char_boundary(i))
            .unwrap_or(0);
        format!("`{}...` ({} bytes)", &line[..cut], line.len())
    }
}

impl Referee for JsonlEngine {
    fn info(&self) -> EngineInfo {
        match &self.hello {
            Ok((info, _)) => info.clone(),
            Err(_) => EngineInfo {
                name: self.command(),
                version: "unknown (no handshake)".to_string(),
            },
        }
    }

    fn capabilities(&self) -> Capabilities {
        let declared = match &self.hello {
            Ok((_, caps)) => caps.clone(),
            Err(_) => Capabilities::everything(),
        };
        match &self.options.claims {
            Some(claims) => claims.narrow(&declared),
            None => declared,
        }
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.trials += 1;
        let mut trial = Trial {
            number: self.trials,
            rules: *rules,
            setup: setup.clone(),
            events: Vec::new(),
            initial: Observation::default(),
            steps: Vec::new(),
            pending: None,
            prefetched: VecDeque::new(),
        };
        self.trial = None;
        match self.play(&trial, &[]) {
            Ok(Answer::Played { initial, .. }) => trial.initial = initial,
            Ok(Answer::Skipped(why)) => return Err(Unsupported(why)),
            Err(e) => trial.pending = Some(e),
        }
        self.trial = Some(trial);
        Ok(())
    }

    /// Asks for the whole announced game in one request. Its steps answer the `apply` calls
    /// that follow, as long as they bring the announced events; any fault here is left for
    /// those calls to meet again one request at a time, so that it is reported at the event
    /// where it happens, exactly as without the announcement.
    fn announce(&mut self, events: &[Event]) {
        let Some(trial) = self.trial.take() else {
            return;
        };
        let fresh = trial.pending.is_none() && trial.events.is_empty();
        if fresh && !events.is_empty() {
            if let Ok(Answer::Played { initial, steps }) = self.play(&trial, events) {
                if initial == trial.initial {
                    let mut trial = trial;
                    trial.prefetched = events
                        .iter()
                        .cloned()
                        .zip(steps)
                        .map(|(e, (v, o))| (e, v, o))
                        .collect();
                    self.trial = Some(trial);
                    return;
                }
            }
        }
        self.trial = Some(trial);
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let Some(mut trial) = self.trial.take() else {
            return Err(EngineError::protocol("apply before start"));
        };
        if let Some(e) = trial.pending.take() {
            return Err(EngineError {
                kind: e.kind,
                message: format!("the trial did not start: {}", e.message),
            });
        }
        if trial.prefetched.front().is_some_and(|(e, _, _)| e == event) {
            if let Some((event, verdict, observation)) = trial.prefetched.pop_front() {
                trial.events.push(event);
                trial.steps.push((verdict.clone(), observation));
                self.trial = Some(trial);
                return Ok(verdict);
            }
        }
        // Another event than announced: the rest of the answer is for another game.
        trial.prefetched.clear();
        let mut events = trial.events.clone();
        events.push(event.clone());
        let answer = self.play(&trial, &events);
        let result = match answer {
            Ok(Answer::Played { initial, mut steps }) => {
                let k = trial.steps.len();
                if initial != trial.initial || steps[..k] != trial.steps[..] {
                    let (at, fields) = if initial != trial.initial {
                        ("the start".to_string(), observation_changes(&trial.initial, &initial))
                    } else {
                        let i = (0..k).find(|&i| steps[i] != trial.steps[i]).unwrap_or(0);
                        let (was, now) = (&trial.steps[i], &steps[i]);
                        let mut fields = Vec::new();
                        if was.0 != now.0 {
                            fields.push(format!("verdict `{}`, now `{}`", was.0, now.0));
                        }
                        fields.extend(observation_changes(&was.1, &now.1));
                        (format!("event {} (`{}`)", i + 1, events[i]), fields)
                    };
                    Err(self.protocol_error(format!(
                        "the engine answered differently for the same events at {at} ({}): an engine must answer a run from the run alone",
                        fields.join("; ")
                    )))
                } else {
                    let (verdict, observation) = steps.swap_remove(k);
                    trial.steps.push((verdict.clone(), observation));
                    trial.events = events;
                    Ok(verdict)
                }
            }
            Ok(Answer::Skipped(why)) => Err(self.protocol_error(format!(
                "the engine skipped the trial at event {} ({why}) after it had played its start: a trial may be skipped only for its rules and set-up",
                events.len()
            ))),
            Err(e) => Err(e),
        };
        self.trial = Some(trial);
        result
    }

    fn observe(&self) -> Observation {
        self.trial.as_ref().map_or_else(Observation::default, |t| {
            t.steps
                .last()
                .map_or_else(|| t.initial.clone(), |(_, o)| o.clone())
        })
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        let seen = self.observe();
        (seen.result, seen.score)
    }
}

impl Drop for JsonlEngine {
    /// Says `bye`, gives the engine a moment to exit, and kills it if it has not.
    fn drop(&mut self) {
        let Some(mut process) = self.process.take() else {
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
            .field("command", &self.command())
            .field("options", &self.options)
            .field("running", &self.process.is_some())
            .finish_non_exhaustive()
    }
}

/// The fields of two observations of the same moment that differ, each with both answers.
fn observation_changes(was: &Observation, now: &Observation) -> Vec<String> {
    fn field<T: PartialEq + std::fmt::Debug>(
        out: &mut Vec<String>,
        name: &str,
        was: &Option<T>,
        now: &Option<T>,
    ) {
        if was != now {
            let show = |v: &Option<T>| {
                v.as_ref()
                    .map_or("nothing".to_string(), |v| format!("{v:?}"))
            };
            out.push(format!("{name} {}, now {}", show(was), show(now)));
        }
    }
    let mut out = Vec::new();
    field(&mut out, "board", &was.stones, &now.stones);
    field(&mut out, "to_move", &was.to_move, &now.to_move);
    field(&mut out, "prisoners", &was.prisoners, &now.prisoners);
    field(&mut out, "phase", &was.phase, &now.phase);
    field(&mut out, "result", &was.result, &now.result);
    field(&mut out, "score", &was.score, &now.score);
    field(&mut out, "warnings", &was.warnings, &now.warnings);
    out
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
