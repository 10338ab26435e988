//! A game clock as a state machine fed timestamped events (AGA Tournament Rules VI.C.3, VI.C.5,
//! VI.D.3.c, VI.E.5, VI.E.6, VI.E.8, VI.E.10, VI.E.11, VI.E.14).
//!
//! Each event carries the time since the announced start. Between events the running clock
//! (if any) loses the time that passed, and the machine finds the exact moment a flag fell.
//!
//! - `begin`: the announced start. The first player's clock is started by the TD or the second
//!   player (E.5, E.6), whether or not that player is present. If both players are absent,
//!   no clock runs until one arrives; then what is left of the two basic times together is
//!   split equally (E.5: "time remaining in the round", which we read as the players' basic
//!   time, not the hall's schedule) and the first player's clock starts.
//! - Without clocks (a machine built with no control), a player who has not arrived more than
//!   30 minutes after the start forfeits (E.5); at exactly 30 minutes they have not.
//! - `play`: the player whose clock runs plays a stone and presses the clock; `nopunch` leaves
//!   the clock running, and the time lost is never given back (E.8). `pass` is a move that is
//!   no stone: it presses the clock but does not count towards Canadian stones (VI.E.14.c
//!   speaks only of stones played; the text leaves passes open). `punch` presses the clock
//!   late.
//! - Running out of basic time (E.11) enters overtime if the control has one, else loses.
//!   Byo-yomi: a move inside one period costs nothing, each full period's worth used loses one
//!   period (a long move can lose several), and the end of the last period loses. Canadian: the
//!   stones are counted out and the clock reset each time the last one is played; a period
//!   ending with stones still to play loses. Second counting: a move taking longer than the
//!   allowance loses.
//! - `stop` stops both clocks, only for a reason E.10 allows (a capture of more than one
//!   stone, prisoners, the TD's direction, a protest, the end); `resume` restarts the clock
//!   that was running. `seal` is the adjournment (C.3): the player on move seals the move and
//!   stops both clocks; at `resume` the sealed stone is placed and the opponent's clock starts
//!   (C.5.d). `stop end` ends the game (D.1, E.10.e); `dispute` reopens it (D.3.c) with the
//!   clocks as they were, or with `reset` both players placed in overtime.
//!
//! An event that cannot happen in this state (a time before the previous event, a move by a
//! player whose clock is not running, anything after the game is decided) is refused with a
//! [`ClockError`] and changes nothing but the time, which passes anyway (a flag that fell
//! before it has fallen).
//!
//! The file runs a little past 900 lines on purpose: one state machine whose transitions read
//! best side by side, and its tests (about 150 lines) beside them.

use std::fmt;

use crate::board::Color;

use super::time_control::{Clock, Overtime, TimeControl};

/// Why both clocks may be stopped (E.10; the adjournment is [`Event::Seal`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// E.10.b.
    Director,
    /// E.10.c: taking off a capture of this many stones (more than one).
    Capture(u32),
    /// E.10.d.
    Prisoners,
    /// E.10.e: the game has ended (D.1).
    End,
    /// E.10.f.
    Protest,
    /// Sorting out a rule violation: the BGA summary requires the clocks stopped meanwhile
    /// (its 'Illegal and Irregular moves' section); E.10 lists no such reason, so under the
    /// Tournament Rules the players stop for the director or a protest instead.
    Violation,
}

/// Whose list of reasons for stopping both clocks applies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StopRules {
    /// AGA Tournament Rules E.10: only the reasons it lists.
    #[default]
    TournamentRules,
    /// The BGA summary: also while the players sort out a rule violation.
    Bga,
}

impl StopRules {
    /// The word clock files use (`stops = "bga"`).
    pub fn word(self) -> &'static str {
        match self {
            StopRules::TournamentRules => "aga-tournament",
            StopRules::Bga => "bga",
        }
    }

    /// The list a clock file names by its word (`aga-tournament` or `bga`); `None` for any
    /// other word.
    pub fn parse(word: &str) -> Option<StopRules> {
        [StopRules::TournamentRules, StopRules::Bga]
            .into_iter()
            .find(|r| r.word() == word)
    }
}

impl fmt::Display for StopReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StopReason::Director => f.write_str("td"),
            StopReason::Capture(n) => write!(f, "capture {n}"),
            StopReason::Prisoners => f.write_str("prisoners"),
            StopReason::End => f.write_str("end"),
            StopReason::Protest => f.write_str("protest"),
            StopReason::Violation => f.write_str("violation"),
        }
    }
}

/// What happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Event {
    /// The announced start, with who is absent.
    Begin {
        /// Per colour, indexed by [`Color::index`]: `true` for a player not at the board at
        /// the start. The first player's clock starts all the same (E.5) unless both are
        /// away; without clocks, more than 30 minutes away forfeits.
        absent: [bool; 2],
    },
    /// An absent player arrives. If both were absent and clocks are used, what is left of
    /// the two basic times is split equally and the first player's clock starts (E.5).
    Arrive(Color),
    /// A stone played; `punch`: the clock pressed with it.
    Play {
        /// Whose stone: only the player whose clock runs may play.
        color: Color,
        /// `false` (`nopunch`): the clock was not pressed and keeps running on this
        /// player's time, which is lost for good (E.8).
        punch: bool,
    },
    /// A pass: it presses the clock like a move, but it is no stone, so Canadian overtime
    /// does not count it (VI.E.14.c speaks only of stones played).
    Pass(Color),
    /// The clock pressed after a move made without pressing it.
    Punch(Color),
    /// Both clocks stopped for a reason the stop rules allow (E.10); [`StopReason::End`] also
    /// ends the game.
    Stop(StopReason),
    /// The stopped clocks start again: the one that ran before the stop or, after a sealed
    /// move, the opponent's, since the sealed stone is placed first (C.5.d).
    Resume,
    /// The player on move seals it at an adjournment (C.3).
    Seal(Color),
    /// Play resumed after a dispute about the end (D.3.c), `color` to move; `reset`: the
    /// clocks were reset, so both players go into overtime.
    Dispute {
        /// The player to move when play resumes.
        color: Color,
        /// The clocks were reset: both players go into overtime (refused when the control
        /// has none).
        reset: bool,
    },
    /// Nothing happens: look at the clocks.
    Look,
}

impl fmt::Display for Event {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Event::Begin { absent } => {
                f.write_str("begin")?;
                for c in [Color::Black, Color::White] {
                    if absent[c.index()] {
                        write!(f, " absent {}", c.letter())?;
                    }
                }
                Ok(())
            }
            Event::Arrive(c) => write!(f, "arrive {}", c.letter()),
            Event::Play { color, punch } => {
                write!(f, "play {}", color.letter())?;
                if !punch {
                    f.write_str(" nopunch")?;
                }
                Ok(())
            }
            Event::Pass(c) => write!(f, "pass {}", c.letter()),
            Event::Punch(c) => write!(f, "punch {}", c.letter()),
            Event::Stop(r) => write!(f, "stop {r}"),
            Event::Resume => f.write_str("resume"),
            Event::Seal(c) => write!(f, "seal {}", c.letter()),
            Event::Dispute { color, reset } => {
                write!(f, "dispute {}", color.letter())?;
                if *reset {
                    f.write_str(" reset")?;
                }
                Ok(())
            }
            Event::Look => f.write_str("look"),
        }
    }
}

/// Why an event cannot happen now. [`ClockError::word`] is the name scenarios use.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ClockError {
    /// Events out of order: time on the clocks never runs backwards.
    #[error("this event is at {}, before the previous one at {}", Clock(*.at), Clock(*.previous))]
    TimeBackwards {
        /// When the refused event says it happened, in ms.
        at: u64,
        /// When the latest event before it happened, in ms.
        previous: u64,
    },
    /// An event before `begin`: until the announced start no clock is set going.
    #[error("the game has not begun: the first event is `begin`")]
    NotBegun,
    /// A second `begin`.
    #[error("the game has already begun")]
    AlreadyBegun,
    /// The game is decided (on time, by absence, or ended by the players); the text is the
    /// decision as [`Decision::result`] writes it.
    #[error("the game is over ({0}); only `dispute` after a normal end can reopen it")]
    GameOver(String),
    /// A move, pass, press or seal by a player whose clock is not the one running
    /// (or while none runs because both are absent); the text names the player.
    #[error("{0}'s clock is not running")]
    NotRunning(&'static str),
    /// A move, pass, press or seal while both clocks are stopped, or a stop while no clock
    /// runs.
    #[error("the clocks are stopped; `resume` restarts them")]
    Stopped,
    /// `resume` while the clocks are not stopped.
    #[error("the clocks are not stopped")]
    NotStopped,
    /// `arrive` for a player who is already at the board; the text names the player.
    #[error("{0} is not absent")]
    NotAbsent(&'static str),
    /// `stop capture N` with N under two: E.10.c stops the clocks only to take off more than
    /// one stone.
    #[error(
        "E.10.c allows stopping the clocks to take off a capture of more than one stone, not {0}"
    )]
    SmallCapture(u32),
    /// `stop violation` under [`StopRules::TournamentRules`]: E.10 has no such reason.
    #[error("E.10 gives no stop for sorting out a rule violation: stop the clocks for the director (`stop td`) or to lodge a protest (`stop protest`); the BGA's rules (`stops = \"bga\"`) stop them for it")]
    ViolationStop,
    /// `dispute ... reset` under a control without overtime: D.3.c places the players in
    /// overtime only "if overtime is used".
    #[error("the time control has no overtime to place the players in")]
    NoOvertime,
    /// `dispute` when the game did not end by `stop end`: a game lost on time or by absence
    /// stays lost, and one still in play needs no reopening.
    #[error("a dispute reopens a game that ended normally (`stop end`)")]
    NotEnded,
    /// An event that needs clocks (a move, a press, a stop) in a game played without them.
    #[error("without clocks only `begin`, `arrive` and `look` apply")]
    NoClocks,
}

impl ClockError {
    /// A stable word for each kind of refusal, as scenarios name them.
    pub fn word(&self) -> &'static str {
        match self {
            ClockError::TimeBackwards { .. } => "time-backwards",
            ClockError::NotBegun => "not-begun",
            ClockError::AlreadyBegun => "already-begun",
            ClockError::GameOver(_) => "game-over",
            ClockError::NotRunning(_) => "not-running",
            ClockError::Stopped => "stopped",
            ClockError::NotStopped => "not-stopped",
            ClockError::NotAbsent(_) => "not-absent",
            ClockError::SmallCapture(_) | ClockError::ViolationStop => "stop-reason",
            ClockError::NoOvertime => "no-overtime",
            ClockError::NotEnded => "not-ended",
            ClockError::NoClocks => "no-clocks",
        }
    }
}

/// Where one player's time stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Basic time, with this much left before overtime (under byo-yomi, before the periods).
    Main {
        /// Basic time left before overtime begins, in ms.
        left: u64,
    },
    /// Byo-yomi: periods left, and the time used on the current move.
    Byoyomi {
        /// Periods not yet used up, the current one included; none left is [`Phase::Out`].
        periods: u32,
        /// Time spent on the current move, in ms, less the full periods it has already
        /// cost; a move ending under one period's worth costs nothing (VI.E.14.b.(2)).
        used: u64,
    },
    /// Canadian: stones still to play in this period, and the time left in it.
    Canadian {
        /// Stones still to play before the period ends; after the last, a new period begins.
        stones: u32,
        /// Time left in the period, in ms.
        left: u64,
    },
    /// Second counting: the time used on the current move.
    Seconds {
        /// Time spent on the current move, in ms; more than the allowance loses.
        used: u64,
    },
    /// Out of time: the flag fell at this time since the start.
    Out {
        /// The moment the flag fell, in ms on the events' time line, which may lie before the
        /// event that found it.
        at: u64,
    },
}

impl Phase {
    /// The word clock expectations use for the phase (`phase = "byo-yomi"`).
    pub fn word(&self) -> &'static str {
        match self {
            Phase::Main { .. } => "main",
            Phase::Byoyomi { .. } => "byo-yomi",
            Phase::Canadian { .. } => "canadian",
            Phase::Seconds { .. } => "seconds",
            Phase::Out { .. } => "out",
        }
    }
}

/// How the game was decided off the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// This player lost on time (E.11).
    Time(Color),
    /// This player forfeited by absence (E.5, without clocks).
    Absence(Color),
    /// Both players forfeited by absence.
    BothAbsent,
    /// The players ended the game (`stop end`); the board decides.
    Ended,
}

impl Decision {
    /// In SGF `RE` form where there is one: `W+T` (Black lost on time), `B+F` (White
    /// forfeited); `none` when both forfeit, `board` when the count decides.
    pub fn result(&self) -> String {
        match self {
            Decision::Time(c) => format!("{}+T", c.opponent().letter()),
            Decision::Absence(c) => format!("{}+F", c.opponent().letter()),
            Decision::BothAbsent => "none".to_string(),
            Decision::Ended => "board".to_string(),
        }
    }
}

/// Who may press or play: which clock runs, or why none does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Running {
    /// Before `begin`.
    NotBegun,
    /// Both players absent: no clock runs until one arrives.
    Waiting,
    Clock(Color),
    /// Both stopped; `resume` starts this colour's clock.
    Stopped {
        resume: Color,
        sealed: bool,
    },
}

/// The clocks of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// `None`: a game without clocks (E.5's last sentence).
    control: Option<TimeControl>,
    first: Color,
    now: u64,
    /// The announced start (`begin`), from which absences are measured.
    begun_at: u64,
    running: Running,
    phases: [Phase; 2],
    absent: [bool; 2],
    decision: Option<Decision>,
    stops: StopRules,
}

/// The E.5 grace without clocks: more than 30 minutes late forfeits.
pub const ABSENCE_FORFEIT: u64 = 30 * 60 * 1000;

impl Clocks {
    /// The same clocks under another list of reasons to stop them.
    pub fn with_stops(mut self, stops: StopRules) -> Clocks {
        self.stops = stops;
        self
    }

    /// Clocks set to `control` (or a game without clocks), `first` to move first.
    pub fn new(control: Option<TimeControl>, first: Color) -> Clocks {
        let start = control.map_or(Phase::Main { left: 0 }, |c| Phase::Main {
            left: c.before_overtime(),
        });
        Clocks {
            control,
            first,
            now: 0,
            begun_at: 0,
            running: Running::NotBegun,
            phases: [start; 2],
            absent: [false; 2],
            decision: None,
            stops: StopRules::default(),
        }
    }

    /// The time the clocks show, in ms: that of the latest event applied, refused ones
    /// included.
    pub fn now(&self) -> u64 {
        self.now
    }

    /// Where `color`'s time stands now.
    pub fn phase(&self, color: Color) -> Phase {
        self.phases[color.index()]
    }

    /// The colour whose clock runs, if one does.
    pub fn running(&self) -> Option<Color> {
        match self.running {
            Running::Clock(c) => Some(c),
            _ => None,
        }
    }

    /// How the game was decided off the board; `None` while it goes on (a `dispute` makes an
    /// ended game go on again).
    pub fn decision(&self) -> Option<Decision> {
        self.decision
    }

    /// Whether `color` was absent at `begin` and has not arrived since.
    pub fn is_absent(&self, color: Color) -> bool {
        self.absent[color.index()]
    }

    /// Applies an event at `at` ms after the announced start. A refused event changes nothing.
    /// Time passes even when the event is refused: a flag that fell before a refused event
    /// has fallen.
    pub fn apply(&mut self, at: u64, event: Event) -> Result<(), ClockError> {
        if at < self.now {
            return Err(ClockError::TimeBackwards {
                at,
                previous: self.now,
            });
        }
        if self.running != Running::NotBegun {
            self.advance(at);
        }
        let mut next = self.clone();
        next.apply_inner(at, event)?;
        *self = next;
        Ok(())
    }

    /// Applies an event once the time has been moved on to `at`.
    fn apply_inner(&mut self, at: u64, event: Event) -> Result<(), ClockError> {
        if self.running == Running::NotBegun {
            let Event::Begin { absent } = event else {
                return Err(ClockError::NotBegun);
            };
            self.now = at;
            self.begun_at = at;
            self.absent = absent;
            self.running = if self.control.is_some() && absent == [true, true] {
                Running::Waiting
            } else {
                Running::Clock(self.first)
            };
            return Ok(());
        }
        if let Some(decision) = self.decision {
            // Looking and arriving change nothing that was decided; only a dispute reopens a
            // game that ended normally.
            let harmless = matches!(event, Event::Look | Event::Arrive(_));
            let reopen = matches!(event, Event::Dispute { .. }) && decision == Decision::Ended;
            if harmless {
                if let Event::Arrive(c) = event {
                    self.absent[c.index()] = false;
                }
                return Ok(());
            }
            if !reopen {
                return Err(ClockError::GameOver(decision.result()));
            }
        }
        if self.control.is_none() {
            return match event {
                Event::Arrive(c) => self.arrive(c),
                Event::Look => Ok(()),
                Event::Begin { .. } => Err(ClockError::AlreadyBegun),
                _ => Err(ClockError::NoClocks),
            };
        }
        match event {
            Event::Begin { .. } => Err(ClockError::AlreadyBegun),
            Event::Look => Ok(()),
            Event::Arrive(c) => self.arrive(c),
            Event::Play { color, punch } => {
                self.require_running(color)?;
                self.count_stone(color);
                if punch {
                    self.press(color);
                }
                Ok(())
            }
            Event::Pass(color) => {
                self.require_running(color)?;
                self.press(color);
                Ok(())
            }
            Event::Punch(color) => {
                self.require_running(color)?;
                self.press(color);
                Ok(())
            }
            Event::Seal(color) => {
                self.require_running(color)?;
                // The sealed move is this player's move, made on their time (C.3.c).
                self.count_stone(color);
                self.end_move(color);
                self.running = Running::Stopped {
                    resume: color.opponent(),
                    sealed: true,
                };
                Ok(())
            }
            Event::Stop(reason) => {
                let Running::Clock(c) = self.running else {
                    return Err(ClockError::Stopped);
                };
                if let StopReason::Capture(n) = reason {
                    if n < 2 {
                        return Err(ClockError::SmallCapture(n));
                    }
                }
                if reason == StopReason::Violation && self.stops == StopRules::TournamentRules {
                    return Err(ClockError::ViolationStop);
                }
                self.running = Running::Stopped {
                    resume: c,
                    sealed: false,
                };
                if reason == StopReason::End {
                    self.decision = Some(Decision::Ended);
                }
                Ok(())
            }
            Event::Resume => match self.running {
                Running::Stopped { resume, .. } => {
                    self.running = Running::Clock(resume);
                    Ok(())
                }
                _ => Err(ClockError::NotStopped),
            },
            Event::Dispute { color, reset } => {
                if self.decision != Some(Decision::Ended) {
                    return Err(ClockError::NotEnded);
                }
                if reset {
                    let control = self.control.expect("clocks");
                    let fresh = overtime_start(control).ok_or(ClockError::NoOvertime)?;
                    self.phases = [fresh; 2];
                }
                self.decision = None;
                self.running = Running::Clock(color);
                Ok(())
            }
        }
    }

    fn require_running(&self, color: Color) -> Result<(), ClockError> {
        match self.running {
            Running::Clock(c) if c == color => Ok(()),
            Running::Stopped { .. } => Err(ClockError::Stopped),
            _ => Err(ClockError::NotRunning(color.name())),
        }
    }

    fn arrive(&mut self, color: Color) -> Result<(), ClockError> {
        if !self.absent[color.index()] {
            return Err(ClockError::NotAbsent(color.name()));
        }
        if self.running == Running::Waiting {
            // E.5: what is left of both basic times is split equally, then the clock starts.
            let control = self.control.expect("waiting only with clocks");
            let absence = self.now - self.begun_at;
            let total = (2 * control.before_overtime()).saturating_sub(absence);
            let each = total / 2;
            self.phases = [Phase::Main { left: each }; 2];
            self.running = Running::Clock(self.first);
            if each == 0 {
                self.enter_overtime(self.first, self.now);
            }
        }
        self.absent[color.index()] = false;
        Ok(())
    }

    /// Moves time on to `at`: the running clock loses the time, and a flag may fall; without
    /// clocks, an absence may pass 30 minutes.
    fn advance(&mut self, at: u64) {
        let from = self.now;
        self.now = at;
        if self.decision.is_some() {
            return;
        }
        if self.control.is_none() {
            let late: Vec<Color> = [Color::Black, Color::White]
                .into_iter()
                .filter(|c| self.absent[c.index()])
                .collect();
            if at - self.begun_at > ABSENCE_FORFEIT && !late.is_empty() {
                self.decision = Some(if late.len() == 2 {
                    Decision::BothAbsent
                } else {
                    Decision::Absence(late[0])
                });
            }
            return;
        }
        let Running::Clock(color) = self.running else {
            return;
        };
        let mut elapsed = at - from;
        let mut clock_at = from;
        loop {
            let i = color.index();
            match self.phases[i] {
                Phase::Main { left } => {
                    if elapsed < left {
                        self.phases[i] = Phase::Main {
                            left: left - elapsed,
                        };
                        return;
                    }
                    elapsed -= left;
                    clock_at += left;
                    self.enter_overtime(color, clock_at);
                    if self.decision.is_some() {
                        return;
                    }
                }
                Phase::Byoyomi { periods, used } => {
                    let period = match self.control.map(|c| c.overtime) {
                        Some(Overtime::Byoyomi { period, .. }) => period,
                        _ => unreachable!("byo-yomi phase under a byo-yomi control"),
                    };
                    let total = used + elapsed;
                    let lost = total / period;
                    if lost >= u64::from(periods) {
                        let out_at = clock_at.saturating_add(
                            u64::from(periods)
                                .saturating_mul(period)
                                .saturating_sub(used),
                        );
                        self.flag(color, out_at);
                    } else {
                        self.phases[i] = Phase::Byoyomi {
                            periods: periods - u32::try_from(lost).unwrap_or(u32::MAX),
                            used: total % period,
                        };
                    }
                    return;
                }
                Phase::Canadian { stones, left } => {
                    if elapsed < left {
                        self.phases[i] = Phase::Canadian {
                            stones,
                            left: left - elapsed,
                        };
                    } else {
                        self.flag(color, clock_at + left);
                    }
                    return;
                }
                Phase::Seconds { used } => {
                    let per_move = match self.control.map(|c| c.overtime) {
                        Some(Overtime::SecondCounting { per_move }) => per_move,
                        _ => unreachable!("seconds phase under second counting"),
                    };
                    if used + elapsed > per_move {
                        self.flag(color, clock_at + (per_move - used) + 1);
                    } else {
                        self.phases[i] = Phase::Seconds {
                            used: used + elapsed,
                        };
                    }
                    return;
                }
                Phase::Out { .. } => return,
            }
        }
    }

    /// E.11: out of basic time, into overtime if there is one, else out.
    fn enter_overtime(&mut self, color: Color, at: u64) {
        let control = self.control.expect("clocks");
        match overtime_start(control) {
            Some(phase) => self.phases[color.index()] = phase,
            None => self.flag(color, at),
        }
    }

    fn flag(&mut self, color: Color, at: u64) {
        self.phases[color.index()] = Phase::Out { at };
        self.decision = Some(Decision::Time(color));
    }

    /// A stone played: Canadian overtime counts it, and a new period starts after the last.
    fn count_stone(&mut self, color: Color) {
        let i = color.index();
        if let Phase::Canadian { stones, left } = self.phases[i] {
            self.phases[i] = if stones <= 1 {
                overtime_start(self.control.expect("clocks")).unwrap_or(Phase::Out { at: 0 })
            } else {
                Phase::Canadian {
                    stones: stones - 1,
                    left,
                }
            };
        }
    }

    /// The end of a move: byo-yomi and second counting start the next move afresh.
    fn end_move(&mut self, color: Color) {
        let i = color.index();
        match self.phases[i] {
            Phase::Byoyomi { periods, .. } => self.phases[i] = Phase::Byoyomi { periods, used: 0 },
            Phase::Seconds { .. } => self.phases[i] = Phase::Seconds { used: 0 },
            _ => {}
        }
    }

    /// The clock pressed: this player's move is over, the opponent's clock runs.
    fn press(&mut self, color: Color) {
        self.end_move(color);
        self.running = Running::Clock(color.opponent());
    }
}

/// The phase a player enters at the start of overtime, if the control has any.
fn overtime_start(control: TimeControl) -> Option<Phase> {
    match control.overtime {
        Overtime::None => None,
        Overtime::Byoyomi { periods, .. } => Some(Phase::Byoyomi { periods, used: 0 }),
        Overtime::Canadian { stones, period } => Some(Phase::Canadian {
            stones,
            left: period,
        }),
        Overtime::SecondCounting { .. } => Some(Phase::Seconds { used: 0 }),
    }
}

impl fmt::Display for Clocks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "at {}:", Clock(self.now))?;
        if self.control.is_some() {
            for c in [Color::Black, Color::White] {
                let side = match self.phases[c.index()] {
                    Phase::Main { left } => match self.control.map(|c| c.overtime) {
                        // The periods come out of the basic time: say that this is before them.
                        Some(Overtime::Byoyomi { .. }) => {
                            format!("{} main before byo-yomi", Clock(left))
                        }
                        _ => format!("{} main", Clock(left)),
                    },
                    Phase::Byoyomi { periods, used } => {
                        format!("byo-yomi {periods} period(s), {} used", Clock(used))
                    }
                    Phase::Canadian { stones, left } => {
                        format!("canadian {stones} stone(s) in {}", Clock(left))
                    }
                    Phase::Seconds { used } => format!("seconds, {} used", Clock(used)),
                    Phase::Out { at } => format!("out of time at {}", Clock(at)),
                };
                write!(f, " {} {side};", c.letter())?;
            }
            let running = match self.running {
                Running::NotBegun => "not begun".to_string(),
                Running::Waiting => "none (both absent)".to_string(),
                Running::Clock(c) => format!("{}'s clock runs", c.name()),
                Running::Stopped { sealed: true, .. } => "stopped (sealed move)".to_string(),
                Running::Stopped { .. } => "stopped".to_string(),
            };
            write!(f, " {running}")?;
        } else {
            write!(f, " no clocks")?;
        }
        for c in [Color::Black, Color::White] {
            if self.absent[c.index()] {
                write!(f, "; {} absent", c.name())?;
            }
        }
        if let Some(d) = self.decision {
            let text = match d {
                Decision::Time(c) => format!("{} loses on time ({})", c.name(), d.result()),
                Decision::Absence(c) => {
                    format!("{} forfeits by absence ({})", c.name(), d.result())
                }
                Decision::BothAbsent => "both forfeit by absence".to_string(),
                Decision::Ended => "game ended; the count decides".to_string(),
            };
            write!(f, "; {text}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: u64 = 1000;

    fn byoyomi() -> Clocks {
        Clocks::new(
            Some(TimeControl {
                main: 60 * S,
                overtime: Overtime::Byoyomi {
                    periods: 3,
                    period: 10 * S,
                },
            }),
            Color::Black,
        )
    }

    #[test]
    fn byoyomi_periods_are_carved_out_and_lost_by_full_periods() {
        let mut c = byoyomi();
        c.apply(0, Event::Begin { absent: [false; 2] }).unwrap();
        assert_eq!(c.phase(Color::Black), Phase::Main { left: 30 * S });
        let play = |color| Event::Play { color, punch: true };
        c.apply(35 * S, play(Color::Black)).unwrap();
        assert_eq!(
            c.phase(Color::Black),
            Phase::Byoyomi {
                periods: 3,
                used: 0
            }
        );
        c.apply(36 * S, play(Color::White)).unwrap();
        c.apply(45 * S, play(Color::Black)).unwrap();
        assert_eq!(
            c.phase(Color::Black),
            Phase::Byoyomi {
                periods: 3,
                used: 0
            }
        );
        c.apply(46 * S, play(Color::White)).unwrap();
        c.apply(56 * S, play(Color::Black)).unwrap();
        assert_eq!(
            c.phase(Color::Black),
            Phase::Byoyomi {
                periods: 2,
                used: 0
            }
        );
        c.apply(57 * S, play(Color::White)).unwrap();
        c.apply(77 * S, Event::Look).unwrap();
        assert_eq!(c.phase(Color::Black), Phase::Out { at: 77 * S });
        assert_eq!(c.decision(), Some(Decision::Time(Color::Black)));
        let before = c.clone();
        assert_eq!(
            c.apply(78 * S, play(Color::Black)).map_err(|e| e.word()),
            Err("game-over")
        );
        assert_eq!(c.phase(Color::Black), before.phase(Color::Black));
        assert_eq!(c.now(), 78 * S, "time passes even for a refused event");
    }

    proptest::proptest! {
        /// Any control and any events, in any order and at any times: no panic, time never
        /// runs backwards, and once decided off the board (a flag, a forfeit) a game stays
        /// decided.
        #[test]
        fn any_events_are_judged_without_panic(
            kind in 0u8..5,
            main in 0u64..200_000,
            count in 1u32..5,
            period in 1u64..20_000,
            events in proptest::collection::vec((0u64..30_000, 0u8..12, proptest::bool::ANY), 0..40),
        ) {
            let overtime = match kind {
                0 => Overtime::None,
                1 => Overtime::Byoyomi { periods: count, period },
                2 => Overtime::Canadian { stones: count, period },
                _ => Overtime::SecondCounting { per_move: period },
            };
            let control = TimeControl { main: main + u64::from(count) * period, overtime };
            let mut c = Clocks::new((kind != 4).then_some(control), Color::Black);
            let mut at = 0;
            let mut begun = false;
            for (step, what, black) in events {
                at += step;
                let color = if black { Color::Black } else { Color::White };
                let event = match what {
                    0 => Event::Begin { absent: [black, !black] },
                    1 => Event::Arrive(color),
                    2 | 3 => Event::Play { color, punch: what == 2 },
                    4 => Event::Pass(color),
                    5 => Event::Punch(color),
                    6 => Event::Stop(StopReason::Capture(u32::from(black) + 1)),
                    7 => Event::Stop(StopReason::End),
                    8 => Event::Resume,
                    9 => Event::Seal(color),
                    10 => Event::Dispute { color, reset: black },
                    _ => Event::Look,
                };
                let before = c.decision();
                let applied = c.apply(at, event).is_ok();
                begun |= applied && matches!(event, Event::Begin { .. });
                // Once begun, time moves on to every event, refused or not.
                if begun {
                    proptest::prop_assert_eq!(c.now(), at);
                }
                if let Some(d @ (Decision::Time(_) | Decision::Absence(_) | Decision::BothAbsent)) = before {
                    proptest::prop_assert_eq!(c.decision(), Some(d));
                }
            }
        }
    }

    #[test]
    fn refusals_name_their_kind() {
        let mut c = byoyomi();
        assert_eq!(
            c.apply(0, Event::Look).map_err(|e| e.word()),
            Err("not-begun")
        );
        c.apply(10 * S, Event::Begin { absent: [false; 2] })
            .unwrap();
        assert_eq!(
            c.apply(5 * S, Event::Look).map_err(|e| e.word()),
            Err("time-backwards")
        );
        assert_eq!(
            c.apply(
                11 * S,
                Event::Play {
                    color: Color::White,
                    punch: true
                }
            )
            .map_err(|e| e.word()),
            Err("not-running")
        );
        assert_eq!(
            c.apply(11 * S, Event::Stop(StopReason::Capture(1)))
                .map_err(|e| e.word()),
            Err("stop-reason")
        );
    }
}
