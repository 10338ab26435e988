//! A trial replayed through an engine that keeps no game: the harness side of the JSON-lines
//! protocol's `run` request, shared by every way such an engine is reached (a child process,
//! [`super::jsonl`]; a JavaScript object in the same process, `crate::wasm`).
//!
//! The protocol plays a whole trial per request, and [`Referee`](crate::conformance::Referee)
//! asks for one event at a time. [`Replay::start`] sends the set-up with no event (which gives
//! the initial observation, or the engine's refusal). When the caller announces the game
//! ([`Replay::announce`]), one more request carries every event, and the `apply` calls are
//! answered from its steps: two requests a trial; one, where the caller announces it with the
//! start ([`Replay::start_announced`]: the fuzzing differential does). Otherwise,
//! or from the first `apply` of an event that was not announced, the engine is asked again for
//! each prefix: every `apply` sends the set-up with every event so far and takes the last step
//! (`n + 1` requests and `n (n + 1) / 2` replayed events for `n` events). Either way the engine
//! never keeps a game between requests (so the two sides cannot drift), and in the prefix mode
//! every answer is checked against the ones before it: an engine that answers the same events
//! differently is a protocol error naming the event and the fields that changed, not a flaky
//! test. A fault in the announced request is not reported there: the prefix mode takes over
//! and meets it at the event where it happens. A fault while starting a trial can only be
//! reported by the trait at the first event, so it is kept and returned there, worded as a
//! failure to start.
//!
//! How one request reaches the engine, and what a fault does to it (a process is killed and
//! restarted; a JavaScript object is simply asked again), is the [`Answerer`]'s business.

use std::collections::{BTreeSet, VecDeque};

use super::protocol::{
    BoardForm, ObservationView, ReadReply, Reply, Request, RunRequest, Skipped, StepView,
};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Observable, Observation, Unsupported,
};
use crate::game::{Event, Setup, Verdict};
use crate::rules::Rules;

/// One way of putting a protocol request to an engine and reading its reply.
pub(crate) trait Answerer {
    /// Makes the engine ready for a request: an engine that failed before is restarted, or its
    /// failure is returned.
    fn ready(&mut self) -> Result<(), EngineError>;
    /// Puts one request and reads the reply ([`super::protocol::read_reply`]). A fault is
    /// returned worded for the report, with whatever clean-up it calls for already done.
    fn exchange(&mut self, request: &Request) -> Result<ReadReply, EngineError>;
    /// A reply that breaks the protocol: worded with what the answerer knows of the engine
    /// (its command line, the tail of its standard error), cleaning up as after any fault.
    fn protocol_error(&mut self, message: String) -> EngineError;
    /// What the engine said when it shook hands, or why it could not.
    fn hello(&self) -> Result<&(EngineInfo, Capabilities), &EngineError>;
    /// Puts a request whose reply is read later, by [`Answerer::collect`] with the ticket
    /// returned, while the caller does other work: the engine answers it meanwhile. `None`
    /// where the request was not sent (the answerer cannot send ahead, has no room to, or its
    /// engine is not running); the caller then asks in the ordinary way. The default sends
    /// nothing ahead.
    fn post(&mut self, _request: &Request) -> Option<Ticket> {
        None
    }
    /// The reply to the request posted with `ticket`; replies to requests posted before it
    /// and not collected are read and dropped. `None` where that reply will never come (the
    /// engine was restarted since, or the ticket was already collected or passed): the
    /// caller asks again in the ordinary way. Every fault is handled as in
    /// [`Answerer::exchange`].
    fn collect(&mut self, _ticket: Ticket) -> Option<Result<ReadReply, EngineError>> {
        None
    }
    /// How the engine gives the board when asked for it: the protocol's own pairs unless it
    /// speaks the `board-rows` extension.
    fn board_form(&self) -> BoardForm {
        BoardForm::Pairs
    }
    /// The observations to ask for: what the engine declares, or every one where its
    /// handshake failed (so that the failure is met, not hidden as not applicable).
    fn observes(&self) -> BTreeSet<Observable> {
        match self.hello() {
            Ok((_, caps)) => caps.observes.clone(),
            Err(_) => Observable::ALL.iter().copied().collect(),
        }
    }
}

/// A request put ahead of its reply ([`Answerer::post`]): the posts of one answerer are
/// numbered in order.
pub(crate) type Ticket = u64;

/// The trials replayed through one engine: the [`Referee`](crate::conformance::Referee)
/// methods of an engine that keeps no game, given the [`Answerer`] to ask.
#[derive(Default)]
pub(crate) struct Replay {
    /// Trials started or foreseen, for request ids.
    trials: u64,
    trial: Option<Trial>,
    /// Trials told ahead whose requests are posted, in the order they are to start.
    foreseen: VecDeque<Foreseen>,
}

/// The most trials foreseen at once: enough for batches of requests that keep the engine busy
/// while this side compares, and few enough that a run that stops early wastes little.
const MOST_FORESEEN: usize = 32;

/// A trial told ahead ([`Replay::foresee`]): its request is posted, and its reply is read
/// when a trial starts with exactly its rules, set-up and events.
struct Foreseen {
    number: u64,
    rules: Rules,
    setup: Setup,
    events: Vec<Event>,
    ticket: Ticket,
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

impl Trial {
    /// Keeps the engine's answers to the announced `events`, for the `apply` calls to come.
    fn prefetch(&mut self, events: &[Event], steps: Vec<(Verdict, Observation)>) {
        self.prefetched = events
            .iter()
            .cloned()
            .zip(steps)
            .map(|(e, (v, o))| (e, v, o))
            .collect();
    }

    /// Trial `number` with nothing asked yet.
    fn new(number: u64, rules: &Rules, setup: &Setup) -> Trial {
        Trial {
            number,
            rules: *rules,
            setup: setup.clone(),
            events: Vec::new(),
            initial: Observation::default(),
            steps: Vec::new(),
            pending: None,
            prefetched: VecDeque::new(),
        }
    }
}

/// What the engine made of one request.
enum Answer {
    Played {
        initial: Observation,
        steps: Vec<(Verdict, Observation)>,
    },
    Skipped(String),
}

impl Replay {
    /// Starts a trial: the set-up with no event. A refusal is the trial's [`Unsupported`]; any
    /// other fault is kept for the first event.
    pub(crate) fn start(
        &mut self,
        engine: &mut impl Answerer,
        rules: &Rules,
        setup: &Setup,
    ) -> Result<(), Unsupported> {
        self.trials += 1;
        let mut trial = Trial::new(self.trials, rules, setup);
        self.trial = None;
        match play(engine, &trial, &[]) {
            Ok(Answer::Played { initial, .. }) => trial.initial = initial,
            Ok(Answer::Skipped(why)) => return Err(Unsupported(why)),
            Err(e) => trial.pending = Some(e),
        }
        self.trial = Some(trial);
        Ok(())
    }

    /// [`Replay::start`] and [`Replay::announce`] in one request: the set-up with every
    /// announced event, whose answer gives the start and the steps the `apply` calls take (the
    /// request posted when the trial was foreseen, if it was: its reply is read now).
    /// Anything but a played answer (a fault, a refusal) is left to the two calls it stands
    /// for, which meet it again exactly as they would have: the start asked alone, and no
    /// announcement, so that the events are asked one at a time.
    pub(crate) fn start_announced(
        &mut self,
        engine: &mut impl Answerer,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Result<(), Unsupported> {
        self.trial = None;
        let collected = self
            .take_foreseen(rules, setup, events)
            .and_then(|foreseen| {
                let reply = engine.collect(foreseen.ticket)?;
                Some((foreseen.number, reply))
            });
        let (mut trial, answer) = match collected {
            Some((number, reply)) => {
                let trial = Trial::new(number, rules, setup);
                let answer = reply.and_then(|reply| answer(engine, &trial, events, reply));
                (trial, answer)
            }
            None if events.is_empty() => return self.start(engine, rules, setup),
            None => {
                self.trials += 1;
                let trial = Trial::new(self.trials, rules, setup);
                let answer = play(engine, &trial, events);
                (trial, answer)
            }
        };
        match answer {
            Ok(Answer::Played { initial, steps }) => {
                trial.initial = initial;
                trial.prefetch(events, steps);
                self.trial = Some(trial);
                Ok(())
            }
            Ok(Answer::Skipped(_)) | Err(_) => self.start(engine, rules, setup),
        }
    }

    /// Posts the request of a trial that will start later, after the ones foreseen before it,
    /// through [`Replay::start_announced`] with exactly these arguments, so that the engine
    /// answers it while the caller works. Nothing is sent where the answerer cannot send
    /// ahead or has no room to, or [`MOST_FORESEEN`] trials are already waiting; the trial is
    /// then asked when it starts, as if it had not been foreseen.
    pub(crate) fn foresee(
        &mut self,
        engine: &mut impl Answerer,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) {
        if self.foreseen.len() >= MOST_FORESEEN {
            return;
        }
        let trial = Trial::new(self.trials + 1, rules, setup);
        if let Some(ticket) = engine.post(&run_request(engine, &trial, events)) {
            self.trials += 1;
            self.foreseen.push_back(Foreseen {
                number: trial.number,
                rules: *rules,
                setup: setup.clone(),
                events: events.to_vec(),
                ticket,
            });
        }
    }

    /// The foreseen trial that starts now, if it is one: foreseen trials before it are
    /// dropped (their replies are read and dropped by the answerer). If it is none of them,
    /// they are kept for later: a trial the caller did not foresee may come between.
    fn take_foreseen(
        &mut self,
        rules: &Rules,
        setup: &Setup,
        events: &[Event],
    ) -> Option<Foreseen> {
        let at = self
            .foreseen
            .iter()
            .position(|f| f.rules == *rules && f.setup == *setup && f.events == events)?;
        self.foreseen.drain(..at);
        self.foreseen.pop_front()
    }

    /// Asks for the whole announced game in one request. Its steps answer the `apply` calls
    /// that follow, as long as they bring the announced events; any fault here is left for
    /// those calls to meet again one request at a time, so that it is reported at the event
    /// where it happens, exactly as without the announcement.
    pub(crate) fn announce(&mut self, engine: &mut impl Answerer, events: &[Event]) {
        let Some(mut trial) = self.trial.take() else {
            return;
        };
        let fresh = trial.pending.is_none() && trial.events.is_empty();
        if fresh && !events.is_empty() {
            if let Ok(Answer::Played { initial, steps }) = play(engine, &trial, events) {
                if initial == trial.initial {
                    trial.prefetch(events, steps);
                }
            }
        }
        self.trial = Some(trial);
    }

    /// The verdict on the next event: from the announced answer when the event is the one
    /// announced, otherwise by asking for the whole prefix and checking it against the
    /// answers before.
    pub(crate) fn apply(
        &mut self,
        engine: &mut impl Answerer,
        event: &Event,
    ) -> Result<Verdict, EngineError> {
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
        let result = match play(engine, &trial, &events) {
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
                    Err(engine.protocol_error(format!(
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
            Ok(Answer::Skipped(why)) => Err(engine.protocol_error(format!(
                "the engine skipped the trial at event {} ({why}) after it had played its start: a trial may be skipped only for its rules and set-up",
                events.len()
            ))),
            Err(e) => Err(e),
        };
        self.trial = Some(trial);
        result
    }

    /// What the engine said of the last moment of the trial.
    pub(crate) fn observe(&self) -> Observation {
        self.trial.as_ref().map_or_else(Observation::default, |t| {
            t.steps
                .last()
                .map_or_else(|| t.initial.clone(), |(_, o)| o.clone())
        })
    }

    /// The result and score the engine last observed.
    pub(crate) fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        let seen = self.observe();
        (seen.result, seen.score)
    }
}

/// Plays the trial's set-up and `events` through the engine: one `run` request, its reply
/// checked for the id, the number of steps and every word.
fn play(
    engine: &mut impl Answerer,
    trial: &Trial,
    events: &[Event],
) -> Result<Answer, EngineError> {
    engine.ready()?;
    let reply = engine.exchange(&run_request(engine, trial, events))?;
    answer(engine, trial, events, reply)
}

/// The `run` request of the trial's set-up and `events`.
fn run_request(engine: &impl Answerer, trial: &Trial, events: &[Event]) -> Request {
    let id = run_id(trial, events);
    let observes = engine.observes();
    let mut request = RunRequest::new(&id, &trial.rules, &trial.setup, events, &observes);
    if observes.contains(&Observable::Board) {
        request.board_form = engine.board_form();
    }
    Request::Run(request)
}

/// The id of the `run` request of the trial's set-up and `events`: the trial's number and how
/// many events the request carries.
fn run_id(trial: &Trial, events: &[Event]) -> String {
    format!("t{}.{}", trial.number, events.len())
}

/// What the engine made of the trial's set-up and `events` from its reply to their `run`
/// request: checked for the id, the number of steps and every word.
fn answer(
    engine: &mut impl Answerer,
    trial: &Trial,
    events: &[Event],
    reply: ReadReply,
) -> Result<Answer, EngineError> {
    let id = run_id(trial, events);
    let (width, height) = (trial.setup.width, trial.setup.height);
    let reply = match reply {
        ReadReply::Strict(run) => {
            return played(
                engine,
                &id,
                events,
                &run.id,
                run.initial(),
                run.steps(),
                width,
                height,
            )
        }
        ReadReply::Reply(reply) => reply,
    };
    match reply {
        Reply::Result(result) => played(
            engine,
            &id,
            events,
            &result.id,
            result.initial.view(),
            result.steps.iter().map(|s| s.view()),
            width,
            height,
        ),
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
            Err(engine.protocol_error(format!("the answer to run `{id}` is for `{other}`")))
        }
        other => Err(engine.protocol_error(format!(
            "the engine answered run `{id}` with `{}`",
            other.kind()
        ))),
    }
}

/// The answer to run `id` of `events` from a `result` reply, however it was read: checked for
/// the id and the number of steps, and every step decoded on the trial's board.
#[allow(clippy::too_many_arguments)]
fn played<'a, V: AsRef<str> + 'a, C: AsRef<str> + 'a, R: AsRef<str> + 'a>(
    engine: &mut impl Answerer,
    id: &str,
    events: &[Event],
    answered: &str,
    initial: ObservationView<'a, V, C, R>,
    steps: impl ExactSizeIterator<Item = StepView<'a, V, C, R>>,
    width: u8,
    height: u8,
) -> Result<Answer, EngineError> {
    if answered != id {
        return Err(engine.protocol_error(format!("the answer to run `{id}` is for `{answered}`")));
    }
    if steps.len() != events.len() {
        return Err(engine.protocol_error(format!(
            "run `{id}` had {} events, and the answer has {} steps",
            events.len(),
            steps.len()
        )));
    }
    let initial = initial
        .decode(width, height)
        .map_err(|e| format!("initial: {e}"));
    let steps = steps
        .enumerate()
        .map(|(k, step)| {
            step.decode(width, height)
                .map_err(|e| format!("steps[{k}] (`{}`): {e}", events[k]))
        })
        .collect::<Result<Vec<_>, _>>();
    match (initial, steps) {
        (Ok(initial), Ok(steps)) => Ok(Answer::Played { initial, steps }),
        (Err(e), _) | (_, Err(e)) => Err(engine.protocol_error(e)),
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
