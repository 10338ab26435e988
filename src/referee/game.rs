//! One game between two GTP engines, refereed by the reference under a ruleset.
//!
//! The procedure is the reference's, not a copy: every move an engine generates goes to a
//! [`Refereed`] game, which judges it; passes, pass stones, the pause after two passes, the
//! dispute and resumption, the four-pass end and White passing last all happen there. The
//! referee only does what a tournament director does around the board:
//!
//! - **An illegal move**, noticed at once. With `--illegal-move lose` it loses the game (AGA
//!   Tournament Rules VII.C.2: an entered program must never make an illegal move). Otherwise
//!   the ruleset's procedure rules on it: under the BGA reading and AGA Rule 8 the move is
//!   taken back and counts as a pass (a pass stone; a warning under AGA); under the London
//!   Open rules (EGF rule 4) the offender moves again, and an engine that repeats an illegal
//!   move three times in a row loses; a ruleset with no procedure (`illegal-move = none`)
//!   has nothing to take the move back by, so the move loses.
//! - **The end of play.** When play pauses, each engine is asked `final_status_list dead`.
//!   The same strings on both lists are an agreement: they are removed and the game ends
//!   (White passing last where the rules say so). Different lists are a dispute: where the
//!   rules resume play, play resumes with the opponent of the last passer (AGA Rule 10), and
//!   two passes opening the resumption end the game with every stone alive; where they do not
//!   (`ending = agreement`), the stones both engines call dead are removed and the rest count
//!   as alive, which the record says. Under `ending = two-passes` nothing is asked.
//! - **Clocks**, when a time control is given: the tournament layer's clock runs while an
//!   engine thinks, each engine hears `time_left` before its move, and a flag that falls loses
//!   on time (`W+T`/`B+T`). Without a clock each move has a fixed time limit.
//! - **Faults.** An engine that crashes, hangs past its time limit without a clock, answers
//!   something that is not GTP, or refuses a legal move played against it, forfeits the game
//!   (`B+F`/`W+F`), and the fault is reported. A game that passes the move limit (four times
//!   the number of points) is void.

use std::time::Duration;

use web_time::Instant;

use crate::board::{Color, Move, Point};
use crate::game::counting::Count;
use crate::game::{Breach, Event, Phase, Reason, Refereed, Ruling, Setup, Verdict};
use crate::rules::{Ending, IllegalMoveProcedure, Rules};
use crate::tournament::clock::{self, Clocks, Decision};
use crate::tournament::time_control::TimeControl;

use super::player::{Fault, Generated, Player, Seat};

/// How many illegal moves in a row an engine may make under a procedure that lets it move
/// again before it loses.
pub const ILLEGAL_RETRIES: u32 = 3;

/// What to do with an illegal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IllegalMoves {
    /// The ruleset's own procedure (see the module documentation).
    Procedure,
    /// The move loses the game (AGA Tournament Rules VII.C.2).
    Lose,
}

/// Everything a game needs besides the two engines.
#[derive(Clone, Debug)]
pub struct GameOptions {
    /// The rules the referee judges by.
    pub rules: Rules,
    /// The board's size; GTP engines play square boards.
    pub size: u8,
    /// Black's handicap stones, placed before the first move.
    pub handicap: Vec<Point>,
    /// The clock, if the game has one: both engines are told it and their flags can fall.
    pub time_control: Option<TimeControl>,
    /// What an illegal move costs.
    pub illegal_moves: IllegalMoves,
    /// The time limit of a move without a clock, and of every other command.
    pub move_timeout: Duration,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// Counted: both agreed on the dead stones, four passes, or Tromp-Taylor's two passes.
    Counted,
    /// This colour resigned.
    Resignation(Color),
    /// This colour's flag fell.
    Time(Color),
    /// This colour made an illegal move that lost the game.
    IllegalMove(Color, Reason),
    /// This colour's engine broke down.
    Fault(Fault),
    /// The move limit passed.
    MoveLimit,
}

/// A finished game, as the record and the results table need it.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// The set-up the game started from, for the record.
    pub setup: Setup,
    /// Every event the referee's game took, in order (disputes, agreements, rulings on
    /// illegal moves included).
    pub events: Vec<Event>,
    /// What happened at procedure events, in words, by event index: for the record's comments.
    pub notes: Vec<(usize, String)>,
    /// The result in SGF `RE` form.
    pub result: String,
    /// How it ended.
    pub ending: GameEnd,
    /// The stones agreed dead and removed at the end.
    pub dead: Vec<Point>,
    /// The count, where the game was counted.
    pub count: Option<Count>,
    /// Moves (plays and passes) the engines made.
    pub moves: usize,
    /// The engines' names and versions, Black's first.
    pub names: [String; 2],
}

struct Table {
    players: [Box<dyn Seat>; 2],
    game: Refereed,
    events: Vec<Event>,
    notes: Vec<(usize, String)>,
    dead: Vec<Point>,
    clocks: Option<(Clocks, TimeControl)>,
    started: Instant,
}

impl Table {
    fn player(&mut self, color: Color) -> &mut dyn Seat {
        self.players[color.index()].as_mut()
    }

    fn apply(&mut self, event: Event) -> Verdict {
        let verdict = self.game.apply(event.clone());
        if !matches!(verdict, Verdict::Illegal(_)) {
            self.events.push(event);
        }
        verdict
    }

    fn note(&mut self, text: String) {
        let at = self.events.len().saturating_sub(1);
        self.notes.push((at, text));
    }

    fn now(&self) -> u64 {
        u64::try_from(self.started.elapsed().as_millis()).unwrap_or(u64::MAX)
    }

    /// Feeds the clock an event at the current time; the decision, if a flag fell.
    fn clock(&mut self, event: clock::Event) -> Option<Decision> {
        let at = self.now();
        let (clocks, _) = self.clocks.as_mut()?;
        let _ = clocks.apply(at, event);
        clocks.decision().filter(|d| matches!(d, Decision::Time(_)))
    }
}

/// Plays one game between `black` and `white` (engine command lines).
pub fn play(black: &str, white: &str, options: &GameOptions) -> PlayedGame {
    let mut seats: Vec<Box<dyn Seat>> = Vec::with_capacity(2);
    for (color, command) in [(Color::Black, black), (Color::White, white)] {
        match Player::start(color, command, options.move_timeout) {
            Ok(p) => seats.push(Box::new(p)),
            Err(fault) => {
                let winner = fault.color.opponent();
                let result = format!("{}+F", winner.letter());
                return unstarted(options, [black, white], GameEnd::Fault(fault), result);
            }
        }
    }
    match <[Box<dyn Seat>; 2]>::try_from(seats) {
        Ok(seats) => play_seats(seats, [black, white], options),
        Err(_) => unstarted(options, [black, white], GameEnd::MoveLimit, "Void".into()),
    }
}

/// The set-up a game starts from: the empty board with the handicap.
fn setup_of(options: &GameOptions) -> Setup {
    let mut setup = Setup::empty(options.size, options.size);
    setup.handicap = options.handicap.clone();
    setup
}

/// A game that ended before its first move.
fn unstarted(
    options: &GameOptions,
    names: [&str; 2],
    ending: GameEnd,
    result: String,
) -> PlayedGame {
    PlayedGame {
        setup: setup_of(options),
        events: Vec::new(),
        notes: Vec::new(),
        result,
        ending,
        dead: Vec::new(),
        count: None,
        moves: 0,
        names: names.map(str::to_string),
    }
}

/// Plays one game between two seats, Black's first (`names` for a game that ends before the
/// seats say who they are).
pub fn play_seats(
    mut players: [Box<dyn Seat>; 2],
    names: [&str; 2],
    options: &GameOptions,
) -> PlayedGame {
    let setup = setup_of(options);
    let game = match Refereed::new(options.rules, &setup) {
        Ok(game) => game,
        Err(e) => {
            let fault = Fault {
                color: Color::Black,
                kind: "set-up",
                message: format!("the set-up is refused: {e}"),
            };
            return unstarted(options, names, GameEnd::Fault(fault), "Void".into());
        }
    };
    let komi = if setup.handicap.len() >= 2 {
        options.rules.handicap_komi
    } else {
        options.rules.komi
    };
    for p in &mut players {
        let started = p
            .new_game(options.size, komi.as_f64(), &setup.handicap)
            .and_then(|()| match &options.time_control {
                Some(control) => p.time_settings(control),
                None => Ok(()),
            });
        if let Err(fault) = started {
            let winner = fault.color.opponent();
            let result = format!("{}+F", winner.letter());
            return unstarted(options, names, GameEnd::Fault(fault), result);
        }
    }
    let names = [players[0].identity(), players[1].identity()];
    let first = game.game().to_move();
    let mut table = Table {
        players,
        game,
        events: Vec::new(),
        notes: Vec::new(),
        dead: Vec::new(),
        clocks: options
            .time_control
            .map(|control| (Clocks::new(Some(control), first), control)),
        started: Instant::now(),
    };
    table.clock(clock::Event::Begin {
        absent: [false, false],
    });
    let ending = run(&mut table, options);
    table.clock(clock::Event::Stop(clock::StopReason::End));
    let game = table.game.game();
    let (result, count) = match &ending {
        GameEnd::Counted => (game.result(), Some(game.count())),
        GameEnd::Resignation(loser) => (format!("{}+R", loser.opponent().letter()), None),
        GameEnd::Time(loser) => (format!("{}+T", loser.opponent().letter()), None),
        GameEnd::IllegalMove(loser, _) => (format!("{}+F", loser.opponent().letter()), None),
        GameEnd::Fault(fault) => (format!("{}+F", fault.color.opponent().letter()), None),
        GameEnd::MoveLimit => ("Void".to_string(), None),
    };
    let moves = table
        .events
        .iter()
        .filter(|e| matches!(e, Event::Move(..)))
        .count();
    let Table {
        players,
        events,
        notes,
        dead,
        ..
    } = table;
    for p in players {
        p.quit();
    }
    PlayedGame {
        setup,
        events,
        notes,
        result,
        ending,
        dead,
        count,
        moves,
        names,
    }
}

/// The game loop: asks for moves until the game ends one way or another.
fn run(table: &mut Table, options: &GameOptions) -> GameEnd {
    let limit = 4 * usize::from(options.size) * usize::from(options.size);
    let mut illegal_in_a_row = 0u32;
    loop {
        match table.game.game().phase() {
            Phase::Ended => {
                return match table.game.game().resigned() {
                    Some(loser) => GameEnd::Resignation(loser),
                    None => GameEnd::Counted,
                }
            }
            Phase::Paused => {
                if let Err(fault) = settle(table, options.rules) {
                    return GameEnd::Fault(fault);
                }
                continue;
            }
            // The referee settles a stop by agreement or dispute and never starts a
            // confirmation, so the hypothetical play of one is asked like any other move.
            Phase::Playing | Phase::Resumed | Phase::Confirming => {}
        }
        if table.events.len() > limit {
            table.note(format!(
                "the move limit ({limit} events) passed: the game is void"
            ));
            return GameEnd::MoveLimit;
        }
        let color = table.game.game().to_move();
        let timeout = match &table.clocks {
            Some((clocks, control)) => {
                let phase = clocks.phase(color);
                let control = *control;
                if let Err(fault) = table.player(color).time_left(phase, &control) {
                    return GameEnd::Fault(fault);
                }
                thinking_allowance(phase, &control)
            }
            None => options.move_timeout,
        };
        let generated = table.player(color).genmove(timeout);
        let generated = match generated {
            Ok(g) => g,
            Err(fault) if fault.kind == "timeout" && table.clocks.is_some() => {
                table.clock(clock::Event::Look);
                table.note(format!(
                    "{} did not move before its flag fell",
                    color.name()
                ));
                return GameEnd::Time(color);
            }
            Err(fault) => return GameEnd::Fault(fault),
        };
        let mv = match generated {
            Generated::Resign => {
                table.apply(Event::Resign(color));
                return GameEnd::Resignation(color);
            }
            Generated::Move(mv) => mv,
        };
        let clock_event = match mv {
            Move::Pass => clock::Event::Pass(color),
            Move::Play(_) => clock::Event::Play { color, punch: true },
        };
        match table.apply(Event::Move(color, mv)) {
            Verdict::Illegal(reason) => {
                illegal_in_a_row += 1;
                let ruled = illegal(table, options, color, mv, reason, illegal_in_a_row);
                // The clock: a move taken back as a pass hands the turn over; a move to be
                // made again leaves the offender's clock running.
                let passed = matches!(
                    table.game.report().map(|r| r.ruling),
                    Some(Ruling::UnwindPass)
                );
                let event = if passed {
                    clock::Event::Pass(color)
                } else {
                    clock::Event::Look
                };
                if let Some(Decision::Time(loser)) = table.clock(event) {
                    table.note(format!("{}'s flag fell", loser.name()));
                    return GameEnd::Time(loser);
                }
                match ruled {
                    Ok(None) => {}
                    Ok(Some(ending)) => return ending,
                    Err(fault) => return GameEnd::Fault(fault),
                }
            }
            _ => {
                if let Some(Decision::Time(loser)) = table.clock(clock_event) {
                    table.note(format!("{}'s flag fell", loser.name()));
                    return GameEnd::Time(loser);
                }
                illegal_in_a_row = 0;
                if let Err(fault) = table.player(color.opponent()).play(color, mv) {
                    return GameEnd::Fault(Fault {
                        message: format!(
                            "refused the legal move {}: {}",
                            move_words(color, mv),
                            fault.message
                        ),
                        ..fault
                    });
                }
            }
        }
    }
}

/// How long an engine may think on this move before its flag falls, with a second of grace
/// for the pipe.
fn thinking_allowance(phase: clock::Phase, control: &TimeControl) -> Duration {
    use crate::tournament::time_control::Overtime;
    let left = match (phase, control.overtime) {
        (clock::Phase::Main { left }, Overtime::None) => left,
        // In basic time with overtime to come, the engine may run into the overtime.
        (clock::Phase::Main { left }, Overtime::Canadian { period, .. }) => left + period,
        (clock::Phase::Main { left }, Overtime::Byoyomi { periods, period }) => {
            left + u64::from(periods) * period
        }
        (clock::Phase::Main { left }, Overtime::SecondCounting { per_move }) => left + per_move,
        (clock::Phase::Canadian { left, .. }, _) => left,
        (clock::Phase::Byoyomi { periods, used }, Overtime::Byoyomi { period, .. }) => {
            (u64::from(periods) * period).saturating_sub(used)
        }
        (clock::Phase::Seconds { used }, Overtime::SecondCounting { per_move }) => {
            per_move.saturating_sub(used)
        }
        _ => 0,
    };
    Duration::from_millis(left.saturating_add(1000))
}

fn move_words(color: Color, mv: Move) -> String {
    match mv {
        Move::Pass => format!("{} pass", color.letter()),
        Move::Play(p) => format!("{} {p}", color.letter()),
    }
}

/// An illegal move, noticed at once: `Ok(Some(ending))` if it ends the game.
fn illegal(
    table: &mut Table,
    options: &GameOptions,
    color: Color,
    mv: Move,
    reason: Reason,
    in_a_row: u32,
) -> Result<Option<GameEnd>, Fault> {
    let words = move_words(color, mv);
    let procedure = options.rules.illegal_move;
    if options.illegal_moves == IllegalMoves::Lose || procedure == IllegalMoveProcedure::None {
        table.apply(Event::Breach(color, mv, Breach::Forced));
        let why = if options.illegal_moves == IllegalMoves::Lose {
            "it loses the game (--illegal-move lose; AGA Tournament Rules VII.C.2)"
        } else {
            "the ruleset has no procedure to take it back, so it loses the game"
        };
        table.note(format!("illegal move {words} ({reason}): {why}"));
        return Ok(Some(GameEnd::IllegalMove(color, reason)));
    }
    // The engine played the move on its own board when it generated it.
    table.player(color).undo()?;
    table.apply(Event::Breach(color, mv, Breach::Forced));
    table.apply(Event::Notice { agreed: false });
    let ruling = table.game.report().map(|r| r.ruling);
    match ruling {
        Some(Ruling::UnwindPass) => {
            table.note(format!(
                "illegal move {words} ({reason}), noticed at once: taken back, and {} passes instead",
                color.name()
            ));
            table.player(color).play(color, Move::Pass)?;
            table.player(color.opponent()).play(color, Move::Pass)?;
            Ok(None)
        }
        Some(Ruling::UnwindReplay) if in_a_row < ILLEGAL_RETRIES => {
            table.note(format!(
                "illegal move {words} ({reason}), noticed at once: taken back, and {} moves again",
                color.name()
            ));
            Ok(None)
        }
        Some(Ruling::UnwindReplay) => {
            table.note(format!(
                "illegal move {words} ({reason}): the {ILLEGAL_RETRIES}th illegal move in a row loses the game"
            ));
            Ok(Some(GameEnd::IllegalMove(color, reason)))
        }
        other => {
            table.note(format!(
                "illegal move {words} ({reason}): the procedure gave no way back ({}), so it loses the game",
                other.map_or("no ruling".to_string(), |r| r.to_string())
            ));
            Ok(Some(GameEnd::IllegalMove(color, reason)))
        }
    }
}

/// Play has paused after two passes: ask both engines which stones are dead, and agree or
/// dispute.
fn settle(table: &mut Table, rules: Rules) -> Result<(), Fault> {
    let black = table.player(Color::Black).dead_stones()?;
    let white = table.player(Color::White).dead_stones()?;
    let board = table.game.game().board().clone();
    let strings = |points: &[Point]| -> Vec<Point> {
        let mut all: Vec<Point> = points
            .iter()
            .filter(|&&p| board.get(p).is_some())
            .flat_map(|&p| board.string(p))
            .collect();
        all.sort();
        all.dedup();
        all
    };
    let (black, white) = (strings(&black), strings(&white));
    let list = |points: &[Point]| -> String {
        if points.is_empty() {
            "none".to_string()
        } else {
            points
                .iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    if black == white {
        table.apply(Event::Agree(black.clone()));
        table.note(format!(
            "both engines call dead: {}; agreed, the game ends",
            list(&black)
        ));
        table.dead = black;
        return Ok(());
    }
    let resumes = rules.ending.resumes();
    if resumes {
        let mover = table.game.game().to_move();
        let next = match rules.ending {
            Ending::PlayOn => Some(mover),
            _ => None,
        };
        if let Verdict::Illegal(reason) = table.apply(Event::Dispute(next)) {
            return Err(Fault {
                color: mover,
                kind: "referee",
                message: format!("the dispute was refused ({reason})"),
            });
        }
        let first = table.game.game().to_move();
        table.note(format!(
            "dispute: Black's engine calls dead {}, White's {}; play resumes with {}",
            list(&black),
            list(&white),
            first.name()
        ));
        // Engines that pause as the rules do hear that play resumes.
        table.player(Color::Black).resume(first)?;
        table.player(Color::White).resume(first)?;
        // A flag that falls here is found at the next move.
        table.clock(clock::Event::Dispute {
            color: first,
            reset: false,
        });
        return Ok(());
    }
    let both: Vec<Point> = black
        .iter()
        .filter(|p| white.contains(p))
        .copied()
        .collect();
    table.apply(Event::Agree(both.clone()));
    table.note(format!(
        "the engines disagree (Black's calls dead {}, White's {}) and these rules do not resume play: the stones both call dead ({}) are removed, the rest count as alive",
        list(&black),
        list(&white),
        list(&both)
    ));
    table.dead = both;
    Ok(())
}
