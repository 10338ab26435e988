//! The procedures a referee applies when a move that breaks the rules stands on the board.
//!
//! The plain [`Game`] refuses an illegal move and changes nothing. Over a real board the move
//! has been made, play may have gone on, and someone notices later. [`Refereed`] keeps that
//! record: [`Event::Breach`] makes a move physically (a ko retake, a self-capture, a move out
//! of turn, a stone on an occupied point, captures left on the board, stones taken off that
//! still had liberties, a stone of the wrong colour), [`Event::Ambiguous`] leaves a stone
//! between points, a set-up may misplace the handicap, and [`Event::Notice`] asks for a
//! ruling on the earliest violation still standing.
//!
//! The ruling depends on the ruleset's `illegal-move` axis, which also fixes how violations
//! are classed: the BGA (and London Open, which keeps the BGA's classes) call ko, superko,
//! self-capture and alternation failures illegal and everything else an irregularity; AGA
//! Rule 8 and Tournament Rule VI.B.7 add a play on an occupied point and taking off stones
//! that still had liberties to the illegal moves. A failure of alternation is one illegal
//! move made of the whole run of consecutive moves by the offender.
//!
//! What an unwind means: the record is replayed up to just before the violation, so the
//! position, whose turn it is, the repetition history (for every superko variant), the
//! prisoners and the pass stones are exactly what they were then. Positions that arose after
//! it are forgotten and cannot be repeated against anyone. A correction that is not an unwind
//! (stones taken off or put back) changes prisoners as the procedure says and records no new
//! position: only plays create positions. Warnings under AGA Tournament Rule VI.B.8 are a
//! tournament record, not game state, and survive unwinds.

use std::fmt;

use super::{Breach, Event, Game, Phase, Reason, Setup, SetupError, Verdict};
use crate::board::{points_text, Color, Move, Point};
use crate::rules::{IllegalMoveProcedure, Rules};

/// How a ruleset classes a violation; the class decides which procedure applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    /// An illegal move: the ruleset's `illegal-move` procedure applies.
    Illegal,
    /// An irregularity (BGA i-vi): the procedure the ruleset names for that irregularity.
    Irregular,
}

impl Class {
    /// Every class.
    pub const ALL: &'static [Class] = &[Class::Illegal, Class::Irregular];

    /// The word scenarios and reports use for the class.
    pub fn word(self) -> &'static str {
        match self {
            Class::Illegal => "illegal",
            Class::Irregular => "irregular",
        }
    }

    /// The class of `violation` under the procedure in force.
    pub fn of(violation: Reason, procedure: IllegalMoveProcedure) -> Class {
        match violation {
            Reason::Ko | Reason::Superko | Reason::Suicide | Reason::OutOfTurn => Class::Illegal,
            Reason::Occupied | Reason::RemovedWithLiberties
                if procedure == IllegalMoveProcedure::AgaRule8 =>
            {
                Class::Illegal
            }
            _ => Class::Irregular,
        }
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl std::str::FromStr for Class {
    type Err = String;
    fn from_str(text: &str) -> Result<Class, String> {
        super::from_word(Class::ALL, Class::word, "class", text)
    }
}

/// What the referee does about a violation that was noticed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ruling {
    /// Back to the position before the violation; the offender passes instead, handing over
    /// a pass stone (BGA noticed at once; AGA Rule 8 pointed out in time).
    UnwindPass,
    /// Back to the position before the violation; the offender makes a legal move instead,
    /// with no pass stone (EGF rule 4 within three moves; BGA and AGA later, by agreement).
    UnwindReplay,
    /// Play goes on from the position as it stands.
    Stands,
    /// Play goes on as it stands, but the self-captured stones are taken off and handed to
    /// the opponent as prisoners (BGA, without agreement to rewind).
    StandsSelfCaptureRemoved,
    /// Captured stones left on the board are taken off and handed to the capturer (BGA i).
    RemoveCaptures,
    /// Stones taken off although they had liberties go back; the capturing stone stays (BGA ii).
    RestoreStones,
    /// The handicap stones are moved to the fixed points before White's first move (BGA iii).
    SetHandicap,
    /// The stone put on an occupied point is taken away; it is the opponent's turn (BGA iv).
    RemoveStoneOpponentMoves,
    /// The stone put on an occupied point is taken away and play goes on (BGA iv, later).
    RemoveStone,
    /// The stone of the wrong colour is replaced and its captures completed (BGA vi).
    ReplaceColour,
    /// The players repair the position as best they can; a stone count settles doubt (BGA vi,
    /// noticed later). The executor reports the count and changes nothing.
    RepairByAgreement,
    /// The texts leave it to the tournament director: the executor changes nothing.
    Adjudicate,
}

impl Ruling {
    /// Every ruling.
    pub const ALL: &'static [Ruling] = &[
        Ruling::UnwindPass,
        Ruling::UnwindReplay,
        Ruling::Stands,
        Ruling::StandsSelfCaptureRemoved,
        Ruling::RemoveCaptures,
        Ruling::RestoreStones,
        Ruling::SetHandicap,
        Ruling::RemoveStoneOpponentMoves,
        Ruling::RemoveStone,
        Ruling::ReplaceColour,
        Ruling::RepairByAgreement,
        Ruling::Adjudicate,
    ];

    /// The word scenarios and reports use for the ruling.
    pub fn word(self) -> &'static str {
        match self {
            Ruling::UnwindPass => "unwind-pass",
            Ruling::UnwindReplay => "unwind-replay",
            Ruling::Stands => "stands",
            Ruling::StandsSelfCaptureRemoved => "stands-self-capture-removed",
            Ruling::RemoveCaptures => "remove-captures",
            Ruling::RestoreStones => "restore-stones",
            Ruling::SetHandicap => "set-handicap",
            Ruling::RemoveStoneOpponentMoves => "remove-stone-opponent-moves",
            Ruling::RemoveStone => "remove-stone",
            Ruling::ReplaceColour => "replace-colour",
            Ruling::RepairByAgreement => "repair-by-agreement",
            Ruling::Adjudicate => "adjudicate",
        }
    }
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl std::str::FromStr for Ruling {
    type Err = String;
    fn from_str(text: &str) -> Result<Ruling, String> {
        super::from_word(Ruling::ALL, Ruling::word, "ruling", text)
    }
}

/// Every clause id a ruling can cite, so that a test can check each against the registry.
pub const CITED: &[&str] = &[
    "bga-violation-classes",
    "bga-illegal-alternation-run",
    "bga-illegal-noticed-immediately",
    "bga-illegal-noticed-later",
    "bga-illegal-no-agreement",
    "bga-irregular-general",
    "bga-irregular-i",
    "bga-irregular-ii",
    "bga-irregular-iii",
    "bga-irregular-iv",
    "bga-irregular-v",
    "bga-irregular-vi",
    "bga-call-referee",
    "london-preamble",
    "london-4",
    "london-4-after-three",
    "aga-1991-r8",
    "aga-1991-r8-penalty",
    "aga-1991-r8-noticed",
    "agatr-vi-b-1",
    "agatr-vi-b-5",
    "agatr-vi-b-6",
    "agatr-vi-b-7-suicide",
    "agatr-vi-b-7-two-stones",
    "agatr-vi-b-7-ko",
    "agatr-vi-b-7-early-removal",
    "agatr-vi-b-8",
    "agatr-vi-c-5-c",
];

/// A ruling with its grounds, written for a tournament director.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// What the referee rules.
    pub ruling: Ruling,
    /// The rule the move broke.
    pub violation: Reason,
    /// How the ruleset in force classes that violation.
    pub class: Class,
    /// The player who made the move.
    pub offender: Color,
    /// Moves made after the violation (after the whole run, for a failure of alternation)
    /// before it was noticed.
    pub moves_since: u32,
    /// Whether both players agreed to go back to the position before the violation.
    pub agreed: bool,
    /// The clauses that justify the ruling, in the order a director would cite them.
    pub clauses: Vec<&'static str>,
    /// Plain sentences: what the violation was, what the position becomes, who moves next
    /// and what changes hands.
    pub explanation: Vec<String>,
}

/// A violation standing on the board, not yet ruled on.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Open {
    violation: Reason,
    class: Class,
    offender: Color,
    /// How many events of the record to keep when unwinding: those before the violation
    /// (before the first move of a run of moves out of turn).
    start: usize,
    /// Moves made once the violation (its whole run) was complete.
    moves_at: u32,
    detail: Detail,
}

/// What a violation physically did, for its correction.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Detail {
    None,
    /// The stone a move put down (a self-capture's stone, or the played stone).
    Stone(Point),
    /// The stones a play should have captured and left on the board.
    CapturesLeft(Vec<Point>),
    /// The stones taken off that still had liberties, with their colour.
    Removed(Vec<(Point, Color)>),
    /// The handicap stones as placed and the fixed points they belong on.
    Handicap {
        fixed: Vec<Point>,
    },
}

/// A game as a referee sees it: the reference executor plus the record of violations that
/// stand on the board, the procedures that rule on them, and the warnings given.
#[derive(Clone)]
pub struct Refereed {
    rules: Rules,
    setup: Setup,
    game: Game,
    /// The events that made the present state, violations included; replaying a prefix of
    /// it from the set-up is how an unwind restores the past exactly.
    log: Vec<Event>,
    open: Vec<Open>,
    /// Moves made so far (plays and passes, legal or not).
    moves: u32,
    /// Warnings recorded against Black and White (AGA Tournament Rules VI.B.8).
    warnings: [u32; 2],
    /// Stones each player has put on the board in moves (a stone of the wrong colour counts
    /// for the player who put it down), for the stone count.
    stones_put: [u32; 2],
    /// A stone left between points, waiting for its owner to name one.
    pending: Option<(Color, Vec<Point>)>,
    report: Option<Report>,
}

impl Refereed {
    /// Starts a refereed game from a set-up, with an empty record.
    pub fn new(rules: Rules, setup: &Setup) -> Result<Refereed, SetupError> {
        Refereed::starting(rules, setup, Game::new(rules, setup)?)
    }

    /// [`Refereed::new`], built in the storage of a refereed game no longer wanted (see
    /// [`Game::new_reusing`]): the same game, started without allocating a board.
    pub fn new_reusing(
        rules: Rules,
        setup: &Setup,
        spare: Refereed,
    ) -> Result<Refereed, SetupError> {
        Refereed::starting(rules, setup, Game::new_reusing(rules, setup, spare.game)?)
    }

    /// A refereed game with an empty record, over a game just set up from `setup`.
    fn starting(rules: Rules, setup: &Setup, game: Game) -> Result<Refereed, SetupError> {
        let mut open = Vec::new();
        if let Some(fixed) = game.fixed_handicap() {
            open.push(Open {
                violation: Reason::HandicapMisplaced,
                class: Class::of(Reason::HandicapMisplaced, rules.illegal_move),
                offender: Color::Black,
                start: 0,
                moves_at: 0,
                detail: Detail::Handicap {
                    fixed: fixed.to_vec(),
                },
            });
        }
        Ok(Refereed {
            rules,
            setup: setup.clone(),
            game,
            log: Vec::new(),
            open,
            moves: 0,
            warnings: [0, 0],
            stones_put: [0, 0],
            pending: None,
            report: None,
        })
    }

    /// The game as it now stands on the board.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// [`Game::forget_confirmation_bans`] on the game inside: for the mutant that breaks
    /// Article 7(2). No rule calls for it.
    #[doc(hidden)]
    pub fn forget_confirmation_bans(&mut self) {
        self.game.forget_confirmation_bans();
    }

    /// Warnings recorded against Black and White under AGA Tournament Rules VI.B.8.
    pub fn warnings(&self) -> [u32; 2] {
        self.warnings
    }

    /// The grounds of the last ruling, or of the last violation recorded; cleared by the
    /// next event.
    pub fn report(&self) -> Option<&Report> {
        self.report.as_ref()
    }

    /// The violations standing on the board that nobody has noticed yet, earliest first.
    pub fn standing(&self) -> Vec<(Reason, Class, Color)> {
        self.open
            .iter()
            .map(|o| (o.violation, o.class, o.offender))
            .collect()
    }

    /// Judges and applies one event of a referee's record.
    pub fn apply(&mut self, event: Event) -> Verdict {
        self.report = None;
        if let Some((owner, points)) = self.pending.clone() {
            return match event {
                Event::Move(c, Move::Play(p)) if c == owner && points.contains(&p) => {
                    let verdict = self.record(event);
                    if verdict.is_legal() {
                        self.pending = None;
                    }
                    verdict
                }
                _ => Verdict::Illegal(Reason::PlacementPending),
            };
        }
        match event {
            Event::Move(..)
            | Event::Dispute(_)
            | Event::Confirm(_)
            | Event::Agree(_)
            | Event::Resign(_) => self.record(event),
            Event::Sealed(color, mv) => self.sealed(color, mv),
            _ if self.rules.illegal_move == IllegalMoveProcedure::None => {
                Verdict::Illegal(Reason::NoProcedure)
            }
            Event::Breach(color, mv, breach) => self.breach(color, mv, breach),
            Event::Ambiguous(color, points) => self.ambiguous(color, points),
            Event::Notice { agreed } => self.notice(agreed),
        }
    }

    /// An ordinary event, applied by the executor and kept in the record if legal.
    fn record(&mut self, event: Event) -> Verdict {
        let is_move = matches!(event, Event::Move(..));
        let verdict = self.game.apply(event.clone());
        if verdict.is_legal() {
            self.moves += u32::from(is_move);
            if let Event::Move(c, Move::Play(_)) = event {
                self.stones_put[c.index()] += 1;
            }
            self.log.push(event);
        }
        verdict
    }

    fn sealed(&mut self, color: Color, mv: Move) -> Verdict {
        let verdict = self.record(Event::Move(color, mv));
        let Verdict::Illegal(reason) = verdict else {
            return verdict;
        };
        self.report = Some(Report {
            ruling: Ruling::Adjudicate,
            violation: reason,
            class: Class::of(reason, self.rules.illegal_move),
            offender: color,
            moves_since: 0,
            agreed: false,
            clauses: vec!["agatr-vi-c-5-c"],
            explanation: vec![
                format!("The sealed move {color} {mv} cannot be played as sealed ({reason})."),
                "A sealed move that is impossible or illegal goes to the tournament director, who rules on it as on a disputed end of game; the board is left as it was.".to_string(),
            ],
        });
        Verdict::Ruled(Ruling::Adjudicate)
    }

    fn breach(&mut self, color: Color, mv: Move, breach: Breach) -> Verdict {
        let violation = match self.game.breach_of(color, mv) {
            Err(refused) => return Verdict::Illegal(refused),
            Ok(violation) => violation,
        };
        let start = self.log.len();
        let event = Event::Breach(color, mv, breach.clone());
        let (violation, detail) = match (breach, mv) {
            (Breach::Forced, _) => {
                let Some(violation) = violation else {
                    // Nothing was broken: an ordinary move.
                    return self.record(Event::Move(color, mv));
                };
                self.game.force(color, mv);
                let detail = match mv {
                    Move::Play(p) => Detail::Stone(p),
                    Move::Pass => Detail::None,
                };
                (violation, detail)
            }
            (_, Move::Pass) => return Verdict::Illegal(Reason::NoStone),
            (_, Move::Play(_)) if violation.is_some() => {
                // An irregular play must otherwise be legal; a play that is also illegal is
                // written as `B D4!` so that one violation is ruled at a time.
                return Verdict::Illegal(violation.unwrap_or(Reason::OutOfTurn));
            }
            (Breach::CapturesLeft, Move::Play(p)) => {
                let captured = self.game.captures_of(color, p);
                if captured.is_empty() {
                    return self.record(Event::Move(color, mv));
                }
                self.game.play_leaving_captures(color, p);
                (Reason::CapturesLeft, Detail::CapturesLeft(captured))
            }
            (Breach::Removes(taken), Move::Play(p)) => {
                let board = self.game.board();
                if taken
                    .iter()
                    .any(|&q| board.get(q) != Some(color.opponent()) || q == p)
                {
                    return Verdict::Illegal(Reason::NoStone);
                }
                let removed = self.game.play_removing(color, p, &taken);
                let stones = removed.iter().map(|&q| (q, color.opponent())).collect();
                (Reason::RemovedWithLiberties, Detail::Removed(stones))
            }
            (Breach::WrongColour, Move::Play(p)) => {
                self.game.play_wrong_colour(color, p);
                (Reason::WrongColour, Detail::Stone(p))
            }
        };
        self.moves += 1;
        if mv != Move::Pass && violation != Reason::Occupied {
            // A stone on an occupied point lies on top of another and never reaches the board.
            self.stones_put[color.index()] += 1;
        }
        self.log.push(event);
        let class = Class::of(violation, self.rules.illegal_move);
        let run = self.open.last_mut().filter(|o| {
            violation == Reason::OutOfTurn
                && o.violation == Reason::OutOfTurn
                && o.offender == color
                && o.moves_at + 1 == self.moves
        });
        if let Some(run) = run {
            // One more move of the same run: the run is one illegal move.
            run.moves_at = self.moves;
        } else {
            let start = match violation {
                Reason::OutOfTurn => self.run_start(start, color),
                _ => start,
            };
            self.open.push(Open {
                violation,
                class,
                offender: color,
                start,
                moves_at: self.moves,
                detail,
            });
        }
        Verdict::Breach {
            reason: violation,
            class,
        }
    }

    /// Where a run of moves by `color` out of turn begins: at the move by `color` that came
    /// just before (which was in turn), if the last move was `color`'s.
    fn run_start(&self, here: usize, color: Color) -> usize {
        let last_move = self.log[..here]
            .iter()
            .enumerate()
            .rev()
            .find_map(|(i, e)| {
                let mover = match e {
                    Event::Move(c, _) | Event::Breach(c, _, _) => *c,
                    _ => return None,
                };
                Some((i, mover))
            });
        match last_move {
            Some((i, mover)) if mover == color => i,
            _ => here,
        }
    }

    fn ambiguous(&mut self, color: Color, points: Vec<Point>) -> Verdict {
        if let Err(refused) = self.game.breach_of(color, Move::Pass) {
            return Verdict::Illegal(refused);
        }
        if color != self.game.to_move() {
            return Verdict::Illegal(Reason::OutOfTurn);
        }
        let aga = self.rules.illegal_move == IllegalMoveProcedure::AgaRule8;
        let clause = if aga {
            "agatr-vi-b-6"
        } else {
            "bga-irregular-v"
        };
        let named: Vec<String> = points.iter().map(|p| p.to_string()).collect();
        self.report = Some(Report {
            ruling: Ruling::Adjudicate,
            violation: Reason::Ambiguous,
            class: Class::Irregular,
            offender: color,
            moves_since: 0,
            agreed: false,
            clauses: vec![clause],
            explanation: vec![format!(
                "{} left a stone between {}; nothing else may happen until {} says which point it stands on, by playing there.",
                who(color),
                named.join(" and "),
                who(color)
            )],
        });
        self.pending = Some((color, points));
        Verdict::Breach {
            reason: Reason::Ambiguous,
            class: Class::Irregular,
        }
    }

    fn notice(&mut self, agreed: bool) -> Verdict {
        let Some(open) = self.open.first().cloned() else {
            return Verdict::Illegal(Reason::NothingToNotice);
        };
        let moves_since = self.moves - open.moves_at;
        let (mut ruling, mut clauses) = decide(self.rules.illegal_move, &open, moves_since, agreed);
        if ruling == Ruling::RestoreStones {
            let Detail::Removed(stones) = &open.detail else {
                return Verdict::Illegal(Reason::NothingToNotice);
            };
            if stones
                .iter()
                .any(|&(q, _)| self.game.board().get(q).is_some())
            {
                ruling = Ruling::Adjudicate;
                clauses.push("bga-call-referee");
            }
        }
        let mut explanation = vec![describe(&open, moves_since, agreed)];
        if agreed && moves_since > 3 && self.rules.illegal_move == IllegalMoveProcedure::EgfRule4 {
            explanation.push(
                "Rule 4 lets an illegal move noticed after three moves stand whatever the players agree."
                    .to_string(),
            );
        }
        let before = self.game.prisoner_breakdown();
        match ruling {
            Ruling::UnwindPass => {
                self.unwind(open.start);
                let pass = self.game.apply(Event::Move(open.offender, Move::Pass));
                if pass.is_legal() {
                    self.moves += 1;
                    self.log.push(Event::Move(open.offender, Move::Pass));
                }
                explanation.push(format!(
                    "The position goes back to just before it, and {} passes instead, handing {} a pass stone.",
                    who(open.offender),
                    who(open.offender.opponent())
                ));
                if self.rules.illegal_move == IllegalMoveProcedure::AgaRule8 {
                    self.warnings[open.offender.index()] += 1;
                    let count = self.warnings[open.offender.index()];
                    explanation.push(format!(
                        "A warning is recorded against {} ({count} so far).",
                        who(open.offender)
                    ));
                    if count >= 2 {
                        explanation.push("Repeated offences: the director may treat them as grounds for awarding the game to the opponent; that decision is the director's, not the executor's.".to_string());
                    }
                }
            }
            Ruling::UnwindReplay => {
                self.unwind(open.start);
                explanation.push(format!(
                    "The position goes back to just before it; {} makes a legal move instead, and no pass stone changes hands.",
                    who(open.offender)
                ));
            }
            _ => {
                self.open.remove(0);
                self.log.push(Event::Notice { agreed });
                explanation.extend(self.correct(ruling, &open));
            }
        }
        let after = self.game.prisoner_breakdown();
        for color in [Color::Black, Color::White] {
            let (was, now) = (before.total(color), after.total(color));
            if was != now {
                explanation.push(format!(
                    "{} now holds {now} prisoners (was {was}).",
                    who(color)
                ));
            }
        }
        // Who moves means something else once play has stopped: after two passes the players
        // are agreeing on the dead stones, and a dispute resumes play.
        explanation.push(match self.game.phase() {
            Phase::Playing | Phase::Resumed => format!("{} to move.", who(self.game.to_move())),
            Phase::Confirming => format!(
                "The players go on confirming life and death by hypothetical play: {} to move.",
                who(self.game.to_move())
            ),
            Phase::Paused => "Play stays paused after the two passes: the players go on agreeing on the dead stones, and a dispute resumes play.".to_string(),
            Phase::Ended => "The game is over.".to_string(),
        });
        self.report = Some(Report {
            ruling,
            violation: open.violation,
            class: open.class,
            offender: open.offender,
            moves_since,
            agreed,
            clauses,
            explanation,
        });
        Verdict::Ruled(ruling)
    }

    /// Applies a ruling that keeps the game going from where it stands; returns what it did.
    fn correct(&mut self, ruling: Ruling, open: &Open) -> Vec<String> {
        let offender = who(open.offender);
        let opponent = who(open.offender.opponent());
        match (ruling, &open.detail) {
            (Ruling::StandsSelfCaptureRemoved, Detail::Stone(p)) => {
                let taken = self.game.take_off_without_liberties(&[*p], open.offender.opponent());
                vec![format!(
                    "Play goes on as it stands, except that the self-captured stones ({}) are taken off and handed to {opponent}.",
                    points_text(&taken)
                )]
            }
            (Ruling::RemoveCaptures, Detail::CapturesLeft(points)) => {
                let taken = self.game.take_off_without_liberties(points, open.offender);
                vec![format!(
                    "The captured stones ({}) are taken off and handed to {offender}.",
                    points_text(&taken)
                )]
            }
            (Ruling::RestoreStones, Detail::Removed(stones)) => {
                self.game.put_back(stones, open.offender);
                let points: Vec<Point> = stones.iter().map(|&(q, _)| q).collect();
                vec![format!(
                    "The stones taken off ({}) go back on the board and {offender} returns them; the stone that 'captured' them stays.",
                    points_text(&points)
                )]
            }
            (Ruling::SetHandicap, Detail::Handicap { fixed }) => {
                self.setup.handicap = fixed.clone();
                self.setup.handicap_as_placed = false;
                self.unwind(0);
                vec![format!(
                    "The handicap stones are moved to the fixed points ({}).",
                    points_text(fixed)
                )]
            }
            (Ruling::ReplaceColour, Detail::Stone(p)) => {
                match self.game.replace_colour(*p, open.offender) {
                    Ok(captured) if captured.is_empty() => vec![format!(
                        "The stone at {p} is replaced by a {offender} stone."
                    )],
                    Ok(captured) => vec![format!(
                        "The stone at {p} is replaced by a {offender} stone, which captures {}.",
                        points_text(&captured)
                    )],
                    Err(reason) => vec![format!(
                        "A {offender} stone at {p} would be {reason}, so the director must decide."
                    )],
                }
            }
            (Ruling::RepairByAgreement, _) => vec![
                "The players repair the position as best they can; where they doubt, a count of the stones shows whether a stone of the wrong colour was played.".to_string(),
                self.stone_count(),
            ],
            (Ruling::RemoveStoneOpponentMoves, _) => vec![format!(
                "The stone on the occupied point is taken away; {offender} has used the turn, and no pass stone changes hands."
            )],
            (Ruling::RemoveStone, _) => vec![format!(
                "The stone on the occupied point is taken away and returned to {offender}'s bowl."
            )],
            (Ruling::Adjudicate, _) => vec![
                "The texts leave this to the tournament director; the executor changes nothing.".to_string(),
            ],
            _ => vec!["Play goes on from the position as it stands.".to_string()],
        }
    }

    /// The stone count a referee would make: for each colour, the stones it has put down
    /// against the stones of that colour on the board or held as prisoners.
    pub fn stone_count(&self) -> String {
        let mut put_down = [0u32; 2];
        for &(_, c) in &self.setup.stones {
            put_down[c.index()] += 1;
        }
        put_down[Color::Black.index()] += self.setup.handicap.len() as u32;
        put_down[0] += self.stones_put[0];
        put_down[1] += self.stones_put[1];
        let prisoners = self.game.prisoner_breakdown();
        let parts: Vec<String> = [Color::Black, Color::White]
            .iter()
            .map(|&c| {
                let held =
                    prisoners.captures[c.opponent().index()] + prisoners.dead[c.opponent().index()];
                let found = self.game.board().stone_count(c) + held;
                format!(
                    "{} put down {}, and {found} are on the board or held as prisoners",
                    who(c),
                    put_down[c.index()]
                )
            })
            .collect();
        format!("Stone count: {}.", parts.join("; "))
    }

    /// Replays the first `keep` events of the record from the set-up.
    fn unwind(&mut self, keep: usize) {
        let Ok(mut fresh) = Refereed::new(self.rules, &self.setup) else {
            return;
        };
        for event in self.log[..keep].iter().cloned() {
            fresh.apply(event);
        }
        fresh.warnings = self.warnings;
        *self = fresh;
    }
}

/// The ruling for `open`, noticed after `moves_since` further moves, and the clauses behind it.
fn decide(
    procedure: IllegalMoveProcedure,
    open: &Open,
    moves_since: u32,
    agreed: bool,
) -> (Ruling, Vec<&'static str>) {
    use IllegalMoveProcedure as P;
    let at_once = moves_since == 0;
    let mut clauses: Vec<&'static str> = Vec::new();
    if open.class == Class::Illegal {
        clauses.extend(classification(procedure, open.violation));
        let ruling = match procedure {
            P::Bga if at_once => {
                clauses.push("bga-illegal-noticed-immediately");
                Ruling::UnwindPass
            }
            P::Bga if agreed => {
                clauses.push("bga-illegal-noticed-later");
                Ruling::UnwindReplay
            }
            P::Bga => {
                clauses.extend(["bga-illegal-noticed-later", "bga-illegal-no-agreement"]);
                if open.violation == Reason::Suicide {
                    Ruling::StandsSelfCaptureRemoved
                } else {
                    Ruling::Stands
                }
            }
            P::EgfRule4 if moves_since <= 3 => {
                clauses.extend(["london-preamble", "london-4"]);
                Ruling::UnwindReplay
            }
            P::EgfRule4 => {
                clauses.extend(["london-preamble", "london-4-after-three"]);
                Ruling::Stands
            }
            P::AgaRule8 if at_once => {
                clauses.extend(["aga-1991-r8-penalty", "agatr-vi-b-8"]);
                Ruling::UnwindPass
            }
            P::AgaRule8 if agreed => {
                clauses.push("aga-1991-r8-noticed");
                Ruling::UnwindReplay
            }
            P::AgaRule8 if open.violation == Reason::Occupied => {
                clauses.extend(["aga-1991-r8-noticed", "agatr-vi-b-1"]);
                Ruling::RemoveStone
            }
            P::AgaRule8 => {
                clauses.push("aga-1991-r8-noticed");
                Ruling::Stands
            }
            P::None => Ruling::Adjudicate,
        };
        return (ruling, clauses);
    }
    if procedure == P::AgaRule8 || procedure == P::None {
        // The AGA texts list no fixes for irregularities that are not illegal moves.
        clauses.extend(["agatr-vi-b-1", "agatr-vi-b-5"]);
        return (Ruling::Adjudicate, clauses);
    }
    clauses.extend(["bga-violation-classes", "bga-irregular-general"]);
    // Each irregularity: its item in the BGA list, the fix when noticed at once, and later.
    let (item, at_once_fix, later_fix) = match open.violation {
        Reason::CapturesLeft => (
            "bga-irregular-i",
            Ruling::RemoveCaptures,
            Ruling::RemoveCaptures,
        ),
        Reason::RemovedWithLiberties => (
            "bga-irregular-ii",
            Ruling::RestoreStones,
            Ruling::RestoreStones,
        ),
        Reason::HandicapMisplaced => ("bga-irregular-iii", Ruling::SetHandicap, Ruling::Stands),
        Reason::Occupied => (
            "bga-irregular-iv",
            Ruling::RemoveStoneOpponentMoves,
            Ruling::RemoveStone,
        ),
        Reason::WrongColour => (
            "bga-irregular-vi",
            Ruling::ReplaceColour,
            Ruling::RepairByAgreement,
        ),
        _ => return (Ruling::Adjudicate, clauses),
    };
    clauses.push(item);
    let ruling = if at_once { at_once_fix } else { later_fix };
    (ruling, clauses)
}

/// The clauses that make `violation` an illegal move under `procedure`.
fn classification(procedure: IllegalMoveProcedure, violation: Reason) -> Vec<&'static str> {
    if procedure != IllegalMoveProcedure::AgaRule8 {
        let mut out = vec!["bga-violation-classes"];
        if violation == Reason::OutOfTurn {
            out.push("bga-illegal-alternation-run");
        }
        return out;
    }
    let listed = match violation {
        Reason::Suicide => Some("agatr-vi-b-7-suicide"),
        Reason::OutOfTurn => Some("agatr-vi-b-7-two-stones"),
        Reason::Ko => Some("agatr-vi-b-7-ko"),
        Reason::RemovedWithLiberties => Some("agatr-vi-b-7-early-removal"),
        _ => None,
    };
    let mut out = vec!["aga-1991-r8"];
    out.extend(listed);
    out
}

/// One sentence on the violation and when it was noticed.
fn describe(open: &Open, moves_since: u32, agreed: bool) -> String {
    let what = match open.violation {
        Reason::Ko => "retook a ko at once",
        Reason::Superko => "repeated an earlier position",
        Reason::Suicide => "made a self-capture",
        Reason::OutOfTurn => {
            "moved out of turn (the whole run of consecutive moves is one illegal move)"
        }
        Reason::Occupied => "put a stone on an occupied point",
        Reason::CapturesLeft => "left captured stones on the board",
        Reason::RemovedWithLiberties => "took off stones that still had liberties",
        Reason::HandicapMisplaced => "placed the handicap stones off the fixed points",
        Reason::WrongColour => "put down a stone of the wrong colour",
        _ => "broke a rule",
    };
    let when = match moves_since {
        0 => "noticed at once".to_string(),
        1 => "noticed after 1 further move".to_string(),
        n => format!("noticed after {n} further moves"),
    };
    let agreement = if agreed && moves_since > 0 {
        ", and both players agree to go back"
    } else {
        ""
    };
    format!(
        "{} {what}: an {} move, {when}{agreement}.",
        who(open.offender),
        open.class
    )
}

/// A colour as a director says it.
fn who(color: Color) -> &'static str {
    match color {
        Color::Black => "Black",
        Color::White => "White",
    }
}
