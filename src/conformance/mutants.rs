//! Deliberately broken executors, to measure the suite rather than an engine.
//!
//! A suite that a wrong implementation passes is missing a scenario. Each mutant here claims
//! everything the reference claims (every axis value, every observation) and plays one thing
//! wrong: most are the reference started under rules with one axis quietly changed, the
//! others a thin wrapper that bends one answer. [`kill_table`] runs the suite through each and
//! lists the trials that fail: the scenarios that kill it. A mutant no trial kills survives,
//! and the remedy is a new scenario derived from the clause it breaks, never a weaker mutant.
//! `goconform mutants` prints the table and `tests/mutants.rs` fails on a survivor.

use super::harness::{select, Factory, Harness, HarnessError};
use super::{Capabilities, EngineError, EngineInfo, Observation, Referee, Reference, Unsupported};
use crate::board::{Color, Move, Point};
use crate::game::{counting, Event, Game, Phase, Prisoners, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{
    Draws, Ending, HandicapCompensation, IllegalMoveProcedure, KoRule, PassStones, Rules, Scoring,
    SekiEyes, SuicideRule, WhitePassesLast,
};
use crate::scenario::Suite;

/// How a mutant goes wrong.
#[derive(Clone, Copy)]
enum Flaw {
    /// It plays under these rules instead of the ones it was given.
    Rules(fn(Rules) -> Rules),
    /// It starts from this set-up instead of the one it was given.
    Setup(fn(&Setup) -> Setup),
    /// It refuses a resignation by the player not to move, as if resigning were a move.
    ResignOnlyOnTurn,
    /// It calls every ko refusal a superko refusal.
    KoCalledSuperko,
    /// Under simple ko, a pass does not lift the ban on retaking a single stone just captured.
    KoBanSurvivesPasses,
    /// Stones a player self-captures become that player's own prisoners.
    SelfCapturesToTheMover,
    /// Stones agreed dead leave the board without becoming anyone's prisoners.
    DeadStonesNotPrisoners,
    /// A dispute that names who moves first is taken as a plain dispute, whoever it names.
    DisputeNamesAnyone,
    /// An agreement naming empty points is taken for the stones it names.
    AgreeIgnoresEmptyPoints,
    /// A resignation after the end is accepted (and changes nothing).
    ResignAfterTheEnd,
    /// Moves out of turn are played (GTP's `play` convention) instead of refused.
    OutOfTurnPlayed,
    /// The count is made from the game with this change to what each side holds and the
    /// handicap (a scorer that forgets part of the prisoners, say).
    Count(fn(Prisoners, u32) -> (Prisoners, u32)),
    /// Under territory counting, White also gets the area-counting handicap compensation.
    CompensationUnderTerritory,
    /// In a confirmation of life and death (Japanese 1989, Article 7(2)), a ko ban lasts one
    /// move, as in play, instead of until the player passes for that ko.
    ConfirmationKoAsSimpleKo,
}

/// One broken executor: a name, the rule it breaks, and how.
#[derive(Clone, Copy)]
pub struct Mutant {
    /// Its name, as `--engine` and the kill table write it.
    pub name: &'static str,
    /// What it does wrong, in a sentence.
    pub about: &'static str,
    flaw: Flaw,
}

fn with(rules: Rules, change: impl FnOnce(&mut Rules)) -> Rules {
    let mut rules = rules;
    change(&mut rules);
    rules
}

impl Mutant {
    /// The control: the reference through the same wrapper with no flaw at all. It must pass
    /// the whole suite, or the kills say something about the wrapper instead of the flaws.
    pub fn control() -> Mutant {
        Mutant {
            name: "control",
            about: "plays the rules it is given (no flaw)",
            flaw: Flaw::Rules(|r| r),
        }
    }
}

/// Every mutant, in a stable order.
pub fn mutants() -> Vec<Mutant> {
    use Flaw::Rules as R;
    vec![
        Mutant {
            name: "no-superko",
            about: "plays simple ko where a superko rule is in force",
            flaw: R(|r| with(r, |r| r.ko = KoRule::Simple)),
        },
        Mutant {
            name: "positional-for-situational",
            about: "plays positional superko where situational superko is in force",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::Situational {
                        r.ko = KoRule::Positional;
                    }
                })
            }),
        },
        Mutant {
            name: "situational-for-natural-situational",
            about: "plays situational superko where natural situational superko is in force",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::NaturalSituational {
                        r.ko = KoRule::Situational;
                    }
                })
            }),
        },
        Mutant {
            name: "positional-for-natural-situational",
            about: "plays positional superko where natural situational superko is in force",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::NaturalSituational {
                        r.ko = KoRule::Positional;
                    }
                })
            }),
        },
        Mutant {
            name: "superko-for-simple-ko",
            about: "bans every repetition (positional superko) where only simple ko is in force",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::Simple {
                        r.ko = KoRule::Positional;
                    }
                })
            }),
        },
        Mutant {
            name: "ko-called-superko",
            about: "refuses a ko retake with the reason superko instead of ko",
            flaw: Flaw::KoCalledSuperko,
        },
        Mutant {
            name: "suicide-allowed",
            about: "allows every self-capture",
            flaw: R(|r| with(r, |r| r.suicide = SuicideRule::Allowed)),
        },
        Mutant {
            name: "suicide-forbidden",
            about: "forbids every self-capture, also where the rules allow it",
            flaw: R(|r| with(r, |r| r.suicide = SuicideRule::Forbidden)),
        },
        Mutant {
            name: "multi-stone-suicide-for-forbidden",
            about: "allows the self-capture of several stones where all self-capture is forbidden",
            flaw: R(|r| {
                with(r, |r| {
                    if r.suicide == SuicideRule::Forbidden {
                        r.suicide = SuicideRule::MultiStone;
                    }
                })
            }),
        },
        Mutant {
            name: "single-stone-suicide-refused",
            about: "refuses the self-capture of a single stone where every self-capture is allowed",
            flaw: R(|r| {
                with(r, |r| {
                    if r.suicide == SuicideRule::Allowed {
                        r.suicide = SuicideRule::MultiStone;
                    }
                })
            }),
        },
        Mutant {
            name: "seki-eyes-not-counted",
            about: "counts the eyes of groups in seki for nobody where they count",
            flaw: R(|r| with(r, |r| r.seki_eyes = SekiEyes::Neutral)),
        },
        Mutant {
            name: "seki-eyes-counted",
            about: "counts the eyes of groups in seki as territory where they are neutral",
            flaw: R(|r| with(r, |r| r.seki_eyes = SekiEyes::Count)),
        },
        Mutant {
            name: "no-pass-stone",
            about: "hands over no pass stone for a pass",
            flaw: R(|r| with(r, |r| r.pass_stones = PassStones::Off)),
        },
        Mutant {
            name: "pass-stones-always",
            about: "hands over a pass stone for a pass where the rules have none",
            flaw: R(|r| with(r, |r| r.pass_stones = PassStones::On)),
        },
        Mutant {
            name: "white-not-passing-last",
            about: "ends the game without White's extra pass when Black passed last",
            flaw: R(|r| with(r, |r| r.white_passes_last = WhitePassesLast::No)),
        },
        Mutant {
            name: "cycle-goes-on",
            about: "plays on through a repetition where the rules end the game there",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko.cycle_outcome().is_some() {
                        r.ko = KoRule::Simple;
                    }
                })
            }),
        },
        Mutant {
            name: "cycle-void-for-draw",
            about: "ends a game that a repetition makes a draw without result instead",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::SimpleCycleDraw {
                        r.ko = KoRule::SimpleCycleVoid;
                    }
                })
            }),
        },
        Mutant {
            name: "no-basic-ko-ban-with-nssk",
            about: "drops the simple-ko ban where the rules add it to natural situational superko",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ko == KoRule::NaturalSituationalBasicKo {
                        r.ko = KoRule::NaturalSituational;
                    }
                })
            }),
        },
        Mutant {
            name: "extra-pass-at-the-end-for-at-stop",
            about: "makes White's extra pass at the very end where the rules put it at the stop, before a dispute",
            flaw: R(|r| {
                with(r, |r| {
                    if r.white_passes_last == WhitePassesLast::AtStop {
                        r.white_passes_last = WhitePassesLast::Yes;
                    }
                })
            }),
        },
        Mutant {
            name: "area-compensation-n",
            about: "gives White N points for N handicap stones under area counting instead of N-1",
            flaw: R(|r| {
                with(r, |r| {
                    if r.handicap_compensation == HandicapCompensation::NMinusOne {
                        r.handicap_compensation = HandicapCompensation::N;
                    }
                })
            }),
        },
        Mutant {
            name: "area-compensation-n-minus-one-for-n",
            about: "gives White N-1 points for N handicap stones where the rules give N",
            flaw: R(|r| {
                with(r, |r| {
                    if r.handicap_compensation == HandicapCompensation::N {
                        r.handicap_compensation = HandicapCompensation::NMinusOne;
                    }
                })
            }),
        },
        Mutant {
            name: "no-handicap-compensation",
            about: "gives White no points for handicap stones under area counting",
            flaw: R(|r| with(r, |r| r.handicap_compensation = HandicapCompensation::None)),
        },
        Mutant {
            name: "territory-for-area",
            about: "counts by territory where the rules count by area",
            flaw: R(|r| with(r, |r| r.scoring = Scoring::Territory)),
        },
        Mutant {
            name: "area-for-territory",
            about: "counts by area where the rules count by territory",
            flaw: R(|r| with(r, |r| r.scoring = Scoring::Area)),
        },
        Mutant {
            name: "even-komi-in-handicap-games",
            about: "uses the even-game komi in handicap games",
            flaw: R(|r| with(r, |r| r.handicap_komi = r.komi)),
        },
        Mutant {
            name: "no-komi",
            about: "gives White no komi, in even and handicap games",
            flaw: R(|r| {
                with(r, |r| {
                    r.komi = crate::rules::Komi::ZERO;
                    r.handicap_komi = crate::rules::Komi::ZERO;
                })
            }),
        },
        Mutant {
            name: "handicap-komi-in-even-games",
            about: "uses the handicap-game komi in even games",
            flaw: R(|r| with(r, |r| r.komi = r.handicap_komi)),
        },
        Mutant {
            name: "white-wins-every-draw",
            about: "gives every draw to White, also where a draw stands",
            flaw: R(|r| with(r, |r| r.draws = Draws::WhiteWins)),
        },
        Mutant {
            name: "white-wins-even-game-draws",
            about: "gives White the draws of even games where it wins only those of handicap games",
            flaw: R(|r| {
                with(r, |r| {
                    if r.draws == Draws::WhiteWinsHandicap {
                        r.draws = Draws::WhiteWins;
                    }
                })
            }),
        },
        Mutant {
            name: "draws-stand",
            about: "lets a draw stand where the rules give it to White",
            flaw: R(|r| with(r, |r| r.draws = Draws::Jigo)),
        },
        Mutant {
            name: "two-passes-end-the-game",
            about: "ends the game on two passes instead of pausing it for agreement",
            flaw: R(|r| with(r, |r| r.ending = Ending::TwoPasses)),
        },
        Mutant {
            name: "no-resumption",
            about: "settles a dispute without resuming play where play resumes",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ending.resumes() {
                        r.ending = Ending::Agreement;
                    }
                })
            }),
        },
        Mutant {
            name: "aga-resumption-for-resume-on-request",
            about: "resumes Japanese 1989 play the AGA way: the last passer's opponent first, two passes opening it end the game",
            flaw: R(|r| {
                with(r, |r| {
                    if matches!(r.ending, Ending::ResumeOnRequest | Ending::ConfirmOrResume) {
                        r.ending = Ending::PauseAgreeResume;
                    }
                })
            }),
        },
        Mutant {
            name: "play-on-for-pause-agree-resume",
            about:
                "plays the New Zealand ending where two passes opening a resumption end the game",
            flaw: R(|r| {
                with(r, |r| {
                    if r.ending == Ending::PauseAgreeResume {
                        r.ending = Ending::PlayOn;
                    }
                })
            }),
        },
        Mutant {
            name: "wrong-illegal-move-procedure",
            about: "rules on violations standing on the board by another ruleset's procedure",
            flaw: R(|r| {
                with(r, |r| {
                    r.illegal_move = match r.illegal_move {
                        IllegalMoveProcedure::Bga => IllegalMoveProcedure::EgfRule4,
                        IllegalMoveProcedure::EgfRule4 => IllegalMoveProcedure::AgaRule8,
                        IllegalMoveProcedure::AgaRule8 => IllegalMoveProcedure::Bga,
                        IllegalMoveProcedure::None => IllegalMoveProcedure::Bga,
                    }
                })
            }),
        },
        Mutant {
            name: "setup-not-in-history",
            about: "leaves the set-up position out of the repetition history",
            flaw: Flaw::Setup(|s| Setup {
                history: SetupHistory::Excluded,
                ..s.clone()
            }),
        },
        Mutant {
            name: "handicap-as-plain-stones",
            about: "places handicap stones as ordinary stones: Black moves first, even-game komi",
            flaw: Flaw::Setup(|s| {
                let mut plain = s.clone();
                plain
                    .stones
                    .extend(s.handicap.iter().map(|&p| (p, crate::board::Color::Black)));
                plain.handicap.clear();
                plain
            }),
        },
        Mutant {
            name: "ko-ban-survives-passes",
            about: "under simple ko, keeps a ko ban until the banned player plays, across passes",
            flaw: Flaw::KoBanSurvivesPasses,
        },
        Mutant {
            name: "self-captures-to-the-mover",
            about: "counts self-captured stones as the mover's prisoners instead of the opponent's",
            flaw: Flaw::SelfCapturesToTheMover,
        },
        Mutant {
            name: "dead-stones-not-prisoners",
            about: "removes stones agreed dead without handing them to the capturer as prisoners",
            flaw: Flaw::DeadStonesNotPrisoners,
        },
        Mutant {
            name: "dispute-names-anyone",
            about: "lets a dispute name either player to move first where the rules fix who does",
            flaw: Flaw::DisputeNamesAnyone,
        },
        Mutant {
            name: "agree-ignores-empty-points",
            about: "accepts an agreement that names empty points",
            flaw: Flaw::AgreeIgnoresEmptyPoints,
        },
        Mutant {
            name: "resign-after-the-end",
            about: "accepts a resignation after the game has ended",
            flaw: Flaw::ResignAfterTheEnd,
        },
        Mutant {
            name: "out-of-turn-played",
            about: "plays a move out of turn (GTP's play convention) instead of refusing it",
            flaw: Flaw::OutOfTurnPlayed,
        },
        Mutant {
            name: "count-forgets-pass-stones",
            about: "shows pass stones among the prisoners but leaves them out of the count",
            flaw: Flaw::Count(|p, h| {
                (
                    Prisoners {
                        pass_stones: [0, 0],
                        ..p
                    },
                    h,
                )
            }),
        },
        Mutant {
            name: "count-forgets-dead-stones",
            about: "shows stones agreed dead among the prisoners but leaves them out of the count",
            flaw: Flaw::Count(|p, h| (Prisoners { dead: [0, 0], ..p }, h)),
        },
        Mutant {
            name: "count-forgets-captures",
            about: "shows captured stones among the prisoners but leaves them out of the count",
            flaw: Flaw::Count(|p, h| {
                (
                    Prisoners {
                        captures: [0, 0],
                        ..p
                    },
                    h,
                )
            }),
        },
        Mutant {
            name: "count-forgets-the-handicap",
            about: "counts a handicap game as an even game (even komi, no compensation, draws)",
            flaw: Flaw::Count(|p, _| (p, 0)),
        },
        Mutant {
            name: "compensation-under-territory",
            about: "gives White the handicap compensation under territory counting too",
            flaw: Flaw::CompensationUnderTerritory,
        },
        Mutant {
            name: "confirmation-ko-as-simple-ko",
            about: "in a Japanese 1989 confirmation, bans a ko retake for one move only, not until a pass for that ko",
            flaw: Flaw::ConfirmationKoAsSimpleKo,
        },
        Mutant {
            name: "resign-only-on-turn",
            about: "refuses a resignation by the player who is not to move",
            flaw: Flaw::ResignOnlyOnTurn,
        },
    ]
}

/// A mutant as an engine: the reference, with its flaw.
pub struct MutantEngine {
    mutant: Mutant,
    inner: Reference,
    /// The rules it was given (a wrapper flaw may depend on them).
    rules: Rules,
    /// For [`Flaw::KoBanSurvivesPasses`]: who may not retake where, and whether that player
    /// has passed since (the reference has lifted its ban then; this one keeps it).
    ko_ban: Option<(Color, Point, bool)>,
    /// What the flaw moved between the prisoners of Black and White (added to what the
    /// reference shows).
    prisoners_shift: [i64; 2],
    /// For [`Flaw::OutOfTurnPlayed`]: the plain game, whose GTP convention plays a move
    /// by either colour.
    plain: Option<Game>,
}

impl MutantEngine {
    /// The mutant as a `Referee`, ready to be run through the suite.
    pub fn new(mutant: Mutant) -> MutantEngine {
        MutantEngine {
            mutant,
            inner: Reference::new(),
            rules: Rules::default(),
            ko_ban: None,
            prisoners_shift: [0, 0],
            plain: None,
        }
    }
}

impl Referee for MutantEngine {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: format!("mutant-{}", self.mutant.name),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    /// What the reference claims: a mutant does not own up to its flaw.
    fn capabilities(&self) -> Capabilities {
        self.inner.capabilities()
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.rules = *rules;
        self.ko_ban = None;
        self.prisoners_shift = [0, 0];
        self.plain = None;
        match self.mutant.flaw {
            Flaw::Rules(change) => self.inner.start(&change(*rules), setup),
            Flaw::Setup(change) => self.inner.start(rules, &change(setup)),
            Flaw::OutOfTurnPlayed => {
                let game = Game::new(*rules, setup).map_err(|e| Unsupported(e.to_string()))?;
                self.plain = Some(game);
                self.inner.start(rules, setup)
            }
            _ => self.inner.start(rules, setup),
        }
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        if let Some(plain) = &mut self.plain {
            return Ok(plain.apply_out_of_turn(event.clone()));
        }
        let phase = self.inner.game().map(|g| g.phase());
        let to_move = self.inner.game().map(|g| g.to_move());
        match (self.mutant.flaw, event) {
            (Flaw::ResignOnlyOnTurn, Event::Resign(color))
                if to_move != Some(*color) && phase.is_some_and(Phase::is_play) =>
            {
                Ok(Verdict::Illegal(Reason::OutOfTurn))
            }
            (Flaw::ResignAfterTheEnd, Event::Resign(_)) if phase == Some(Phase::Ended) => {
                Ok(Verdict::Legal {
                    captured: Vec::new(),
                    self_captured: Vec::new(),
                })
            }
            (Flaw::KoCalledSuperko, Event::Move(_, Move::Play(_))) => {
                match self.inner.apply(event)? {
                    Verdict::Illegal(Reason::Ko) => Ok(Verdict::Illegal(Reason::Superko)),
                    other => Ok(other),
                }
            }
            (Flaw::DisputeNamesAnyone, Event::Dispute(Some(_)))
                if self.rules.ending == Ending::PauseAgreeResume =>
            {
                self.inner.apply(&Event::Dispute(None))
            }
            (Flaw::AgreeIgnoresEmptyPoints, Event::Agree(dead)) => {
                let board = self.inner.observe().stones.unwrap_or_default();
                let stones: Vec<Point> = dead
                    .iter()
                    .copied()
                    .filter(|p| board.iter().any(|(q, _)| q == p))
                    .collect();
                self.inner.apply(&Event::Agree(stones))
            }
            (Flaw::KoBanSurvivesPasses, Event::Move(color, mv))
                if self.rules.ko == KoRule::Simple =>
            {
                if let (Some((banned, at, true)), Move::Play(p)) = (self.ko_ban, mv) {
                    if banned == *color && at == *p && to_move == Some(*color) {
                        return Ok(Verdict::Illegal(Reason::Ko));
                    }
                }
                let verdict = self.inner.apply(event)?;
                // The ban lasts until the banned player plays on the board: its pass does
                // not lift it, nor does the other player's play elsewhere.
                match (&verdict, mv) {
                    (Verdict::Legal { captured, .. }, Move::Play(_)) if captured.len() == 1 => {
                        self.ko_ban = Some((color.opponent(), captured[0], false));
                    }
                    (Verdict::Legal { .. }, Move::Play(_))
                        if self.ko_ban.is_some_and(|(banned, _, _)| banned == *color) =>
                    {
                        self.ko_ban = None;
                    }
                    (Verdict::Legal { .. }, Move::Pass) => {
                        if let Some((banned, at, passed)) = self.ko_ban {
                            self.ko_ban = Some((banned, at, passed || banned == *color));
                        }
                    }
                    _ => {}
                }
                Ok(verdict)
            }
            (Flaw::ConfirmationKoAsSimpleKo, _) => {
                let verdict = self.inner.apply(event)?;
                self.inner.forget_confirmation_bans();
                Ok(verdict)
            }
            (Flaw::SelfCapturesToTheMover, Event::Move(color, Move::Play(_))) => {
                let verdict = self.inner.apply(event)?;
                if let Verdict::Legal { self_captured, .. } = &verdict {
                    let n = self_captured.len() as i64;
                    self.prisoners_shift[color.index()] += n;
                    self.prisoners_shift[color.opponent().index()] -= n;
                }
                Ok(verdict)
            }
            (Flaw::DeadStonesNotPrisoners, Event::Agree(_)) => {
                let before = self.inner.observe().stones.unwrap_or_default();
                let verdict = self.inner.apply(event)?;
                if let Verdict::Legal { captured, .. } = &verdict {
                    for p in captured {
                        if let Some((_, c)) = before.iter().find(|(q, _)| q == p) {
                            self.prisoners_shift[c.opponent().index()] -= 1;
                        }
                    }
                }
                Ok(verdict)
            }
            _ => self.inner.apply(event),
        }
    }

    fn observe(&self) -> Observation {
        let Some(plain) = &self.plain else {
            let mut seen = self.inner.observe();
            let shift = self.prisoners_shift;
            seen.prisoners = seen
                .prisoners
                .map(|p| [0, 1].map(|i| u32::try_from(i64::from(p[i]) + shift[i]).unwrap_or(0)));
            return seen;
        };
        let stones = plain.board().stones_by_point();
        Observation {
            stones: Some(stones),
            to_move: Some(plain.to_move()),
            prisoners: Some([plain.prisoners(Color::Black), plain.prisoners(Color::White)]),
            phase: Some(plain.phase()),
            result: None,
            score: None,
            warnings: Some([0, 0]),
        }
    }

    /// The count of the reference's position: flaws that only move prisoners show in
    /// `prisoners`, not here.
    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        let flawed = match (self.mutant.flaw, self.inner.game()) {
            (Flaw::Count(change), Some(game))
                if game.resigned().is_none() && game.cycled().is_none() =>
            {
                let (prisoners, handicap) = change(game.prisoner_breakdown(), game.handicap());
                Some(counting::count(
                    game.board(),
                    game.rules(),
                    prisoners,
                    &[],
                    handicap,
                ))
            }
            (Flaw::CompensationUnderTerritory, Some(game))
                if game.resigned().is_none() && game.cycled().is_none() =>
            {
                let mut count = game.count();
                let handicap = i32::try_from(game.handicap()).unwrap_or(0);
                if count.scoring == Scoring::Territory && handicap >= 2 {
                    let extra = match game.rules().handicap_compensation {
                        HandicapCompensation::None => 0,
                        HandicapCompensation::NMinusOne => handicap - 1,
                        HandicapCompensation::N => handicap,
                    };
                    count.total[Color::White.index()] += 2 * extra;
                    count.margin -= 2 * extra;
                }
                Some(count)
            }
            _ => None,
        };
        if let Some(count) = flawed {
            return (Some(count.result()), Some(count.total));
        }
        match &self.plain {
            Some(plain) if plain.resigned().is_some() => (Some(plain.result()), None),
            Some(plain) => {
                let count = plain.count();
                (Some(count.result()), Some(count.total))
            }
            None => self.inner.count(),
        }
    }
}

/// One mutant and the trials that kill it (`scenario-id under run`), in the suite's order.
#[derive(Clone, Debug)]
pub struct Kills {
    /// The mutant's name.
    pub mutant: &'static str,
    /// What it does wrong, in a sentence.
    pub about: &'static str,
    /// The trials that catch it; empty for a survivor.
    pub killed_by: Vec<String>,
}

impl Kills {
    /// No trial catches it: the suite needs a new scenario for the rule it breaks.
    pub fn survived(&self) -> bool {
        self.killed_by.is_empty()
    }
}

/// Runs the whole suite through every mutant. A trial kills a mutant when the mutant fails
/// it (a failure, an error): what would fail an honest engine's check. A harness error is our
/// fault and kills nothing.
pub fn kill_table(suite: &Suite, jobs: usize) -> Result<Vec<Kills>, HarnessError> {
    kills(suite, jobs, mutants())
}

/// [`kill_table`] for the given mutants.
pub fn kills(suite: &Suite, jobs: usize, mutants: Vec<Mutant>) -> Result<Vec<Kills>, HarnessError> {
    let selection = select(suite, |_, _| true);
    let harness = Harness {
        jobs,
        ..Harness::default()
    };
    mutants
        .into_iter()
        .map(|mutant| {
            let factory: &Factory =
                &move || Box::new(MutantEngine::new(mutant)) as Box<dyn Referee>;
            let report = harness.run(suite, &selection, factory)?;
            let killed_by = report
                .trials
                .iter()
                .filter(|t| t.outcome.is_failure())
                .map(|t| {
                    let scenario = &suite.scenarios[t.scenario];
                    format!("{} under {}", scenario.id, scenario.runs[t.run].label)
                })
                .collect();
            Ok(Kills {
                mutant: mutant.name,
                about: mutant.about,
                killed_by,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique_and_every_mutant_changes_something() {
        let all = mutants();
        let mut names: Vec<&str> = all.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all.len());
        assert!(all.iter().all(|m| !m.about.is_empty()));
    }
}
