//! The `goban` crate (a Rust library for Go move generation and rules, MIT) as a
//! [`Referee`], in this process: `--engine goban`.
//!
//! It sits in the engines layer behind the `goban` cargo feature (on by default), so the core
//! never depends on it; `cargo build --no-default-features` leaves it out.
//!
//! # What the crate does, and what the adapter claims
//!
//! `goban::rules::game::Game` plays for the side whose turn it is and judges a play with
//! `try_play`, which refuses an occupied point, a suicide (`IllegalRules::SUICIDE`), the
//! immediate recapture of a ko (`KO`) and a repetition of any earlier board (`SUPERKO`).
//! The adapter maps the rules axes onto those flags and claims only what they can express:
//!
//! - `ko`: `simple` (`KO`) and `positional` (`KO | SUPERKO`). The crate compares boards
//!   without the player to move, so situational superko is out of reach.
//! - `suicide`: `forbidden` (`SUICIDE`) and `allowed` (no flag: the crate then removes the
//!   mover's string, one stone or many). It has no middle value, so `multi-stone` is out.
//! - Reasons: `try_play` says `PointNotEmpty`, `Suicide` or `Ko`, and `Ko` covers both the ko
//!   and the superko refusal. The adapter tells them apart with the crate's own judgement:
//!   a play that `check_point_by` refuses under `KO` alone is `ko`, one refused only once
//!   `SUPERKO` is added is `superko`.
//! - Captures are the difference between the boards before and after the play (the crate
//!   reports none); the board is read point by point; the player to move is the crate's.
//! - Not claimed: prisoners (the crate has no pass stones), the phase (two passes make the
//!   crate refuse every further play, which is the pause of some rulesets and the end of
//!   others, and it has no agreement or resumption the adapter could drive), and the score
//!   (the crate counts every empty region one colour surrounds as territory and has no dead
//!   stones, so its count could be compared only in positions without either).
//! - Events: plays and passes. A play by the side that is not to move is not something the
//!   crate can be asked; the adapter reports it as a protocol error naming both colours.
//!
//! Set-ups go through `GameBuilder`: stones and handicap stones placed directly, then the
//! player to move. The crate records a board in its repetition history just before each play,
//! so the set-up position enters the history with the first move, which is
//! `setup_history = "played"`; `excluded` is not applicable under positional superko. Boards
//! above 19 by 19 are refused by the crate (an assertion), so they are not applicable.

use ::goban::pieces::stones::Color as GobanColor;
use ::goban::rules::game::Game;
use ::goban::rules::game_builder::GameBuilder;
use ::goban::rules::{IllegalRules, Move as GobanMove, PlayError, Rule, ScoreRules};

use crate::board::{Color, Move, Point};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, EventKind, Observable, Observation, Referee, Unsupported,
};
use crate::game::{Event, Reason, Setup, SetupHistory, Verdict};
use crate::rules::{KoRule, Rules, SuicideRule};
use crate::scenario::Stones;

/// The version of the crate this adapter is built against (checked against `Cargo.lock` by a
/// test, so a dependency update cannot leave reports naming the wrong version).
pub const GOBAN_VERSION: &str = "0.20.1";

/// The largest board the crate accepts.
const MAX_SIDE: u8 = 19;

/// The goban crate behind the trait. A fresh crate game is built for every trial.
#[derive(Default)]
pub struct GobanEngine {
    game: Option<Trial>,
}

/// One trial's state: the crate's game and the board height for coordinate conversion.
struct Trial {
    game: Game,
    height: u8,
    /// The crate's illegal-move flags in force (kept to tell ko from superko refusals).
    flags: IllegalRules,
}

impl GobanEngine {
    /// The adapter, before any trial.
    pub fn new() -> GobanEngine {
        GobanEngine::default()
    }

    /// What the adapter claims (see the module documentation for why).
    pub fn declared_capabilities() -> Capabilities {
        Capabilities::new()
            .observing([
                Observable::Reasons,
                Observable::Captures,
                Observable::Board,
                Observable::ToMove,
            ])
            .only("ko", [KoRule::Simple.word(), KoRule::Positional.word()])
            .only(
                "suicide",
                [SuicideRule::Forbidden.word(), SuicideRule::Allowed.word()],
            )
            .judging([
                Reason::Occupied,
                Reason::Suicide,
                Reason::Ko,
                Reason::Superko,
            ])
            .taking([EventKind::Play, EventKind::Pass])
    }
}

impl Trial {
    fn coord(&self, p: Point) -> (u8, u8) {
        coord(self.height, p)
    }

    fn point(&self, (row, col): (u8, u8)) -> Point {
        Point::new(col, self.height - 1 - row)
    }

    fn stones(&self) -> Stones {
        let mut stones: Stones = self
            .game
            .goban()
            .get_stones()
            .map(|s| (self.point(s.coord), ours(s.color)))
            .collect();
        stones.sort();
        stones
    }

    /// The reason the crate refuses a play at `coord`, told apart as the module says.
    fn reason(&self, coord: (u8, u8), error: PlayError) -> Result<Reason, EngineError> {
        match error {
            PlayError::PointNotEmpty => Ok(Reason::Occupied),
            PlayError::Suicide => Ok(Reason::Suicide),
            PlayError::Ko => {
                let without_superko = self.flags - IllegalRules::SUPERKO;
                if self.game.check_point_by(coord, without_superko) == Some(PlayError::Ko) {
                    Ok(Reason::Ko)
                } else {
                    Ok(Reason::Superko)
                }
            }
            PlayError::GamePaused => Ok(Reason::GamePaused),
            PlayError::FillEye => Err(EngineError::protocol(
                "the crate refused a play as filling an eye, a rule the adapter never asks for",
            )),
        }
    }
}

/// The crate's (row, column) of a point on a board `height` rows high: rows from the top,
/// columns from the left.
fn coord(height: u8, p: Point) -> (u8, u8) {
    (height - 1 - p.row, p.col)
}

fn ours(color: GobanColor) -> Color {
    match color {
        GobanColor::Black => Color::Black,
        GobanColor::White => Color::White,
    }
}

fn theirs(color: Color) -> GobanColor {
    match color {
        Color::Black => GobanColor::Black,
        Color::White => GobanColor::White,
    }
}

impl Referee for GobanEngine {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "goban".to_string(),
            version: GOBAN_VERSION.to_string(),
        }
    }

    fn capabilities(&self) -> Capabilities {
        GobanEngine::declared_capabilities()
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.game = None;
        self.capabilities().supports(rules).map_err(Unsupported)?;
        if setup.width > MAX_SIDE || setup.height > MAX_SIDE {
            return Err(Unsupported(format!(
                "the goban crate plays on boards up to {MAX_SIDE}x{MAX_SIDE}, and this one is {}x{}",
                setup.width, setup.height
            )));
        }
        if rules.ko == KoRule::Positional && setup.history == SetupHistory::Excluded {
            return Err(Unsupported(
                "the goban crate always records the set-up position in its superko history (setup_history = excluded)".to_string(),
            ));
        }
        let mut flags = IllegalRules::KO;
        if rules.ko == KoRule::Positional {
            flags |= IllegalRules::SUPERKO;
        }
        if rules.suicide == SuicideRule::Forbidden {
            flags |= IllegalRules::SUICIDE;
        }
        let height = setup.height;
        let mut builder = GameBuilder::default();
        builder
            .size((setup.height, setup.width))
            .rule(plain_rule(flags))
            .put_handicap(
                &setup
                    .handicap
                    .iter()
                    .map(|&p| coord(height, p))
                    .collect::<Vec<_>>(),
            );
        for &(p, color) in &setup.stones {
            builder.add(::goban::pieces::stones::Stone {
                coord: coord(height, p),
                color: theirs(color),
            });
        }
        let to_move = if setup.handicap.is_empty() {
            setup.to_move
        } else {
            Color::White
        };
        builder.turn(theirs(to_move));
        let game = builder
            .build()
            .map_err(|e| Unsupported(format!("the goban crate refuses the set-up: {e}")))?;
        let trial = Trial {
            game,
            height,
            flags,
        };
        self.game = Some(trial);
        Ok(())
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let trial = self
            .game
            .as_mut()
            .ok_or_else(|| EngineError::crash("the adapter has no game in progress"))?;
        let (color, mv) = match event {
            Event::Move(color, mv) => (*color, *mv),
            other => {
                return Err(EngineError::protocol(format!(
                    "the goban adapter takes plays and passes only, not {other}"
                )))
            }
        };
        let turn = ours(trial.game.turn());
        if color != turn {
            return Err(EngineError::protocol(format!(
                "the crate has {} to move and cannot be asked for a {} move",
                turn.name(),
                color.name()
            )));
        }
        match mv {
            Move::Pass => match trial.game.try_play(GobanMove::Pass) {
                Ok(_) => Ok(Verdict::Legal {
                    captured: Vec::new(),
                    self_captured: Vec::new(),
                }),
                Err(e) => Ok(Verdict::Illegal(trial.reason((0, 0), e)?)),
            },
            Move::Play(p) => {
                let coord = trial.coord(p);
                let before = trial.stones();
                match trial.game.try_play(GobanMove::Play(coord.0, coord.1)) {
                    Ok(_) => Ok(super::play_verdict_from_boards(
                        &before,
                        &trial.stones(),
                        color,
                        p,
                    )),
                    Err(e) => Ok(Verdict::Illegal(trial.reason(coord, e)?)),
                }
            }
        }
    }

    fn observe(&self) -> Observation {
        match &self.game {
            Some(trial) => Observation {
                stones: Some(trial.stones()),
                to_move: Some(ours(trial.game.turn())),
                ..Observation::default()
            },
            None => Observation::default(),
        }
    }
}

/// A crate rule with the given illegal-move flags. Its komi and scoring flags are never
/// read: the adapter does not claim the score.
fn plain_rule(flags: IllegalRules) -> Rule {
    Rule {
        komi: 0.0,
        flag_illegal: flags,
        flag_score: ScoreRules::STONES,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(ko: KoRule, suicide: SuicideRule) -> Rules {
        Rules {
            ko,
            suicide,
            ..Rules::default()
        }
    }

    fn point(v: &str) -> Point {
        Point::parse_gtp(v, 5, 5).unwrap()
    }

    fn play(engine: &mut GobanEngine, color: Color, v: &str) -> Verdict {
        engine
            .apply(&Event::Move(color, Move::Play(point(v))))
            .unwrap()
    }

    /// Black B3 A2 C2 B1 and White C3 D2 C1 around the empty B2, White to move: White B2
    /// takes C2, and Black's immediate retake at C2 is the ko.
    fn ko_setup() -> Setup {
        let mut setup = Setup::empty(5, 5);
        for v in ["B3", "A2", "C2", "B1"] {
            setup.stones.push((point(v), Color::Black));
        }
        for v in ["C3", "D2", "C1"] {
            setup.stones.push((point(v), Color::White));
        }
        setup.to_move = Color::White;
        setup
    }

    #[test]
    fn the_version_constant_matches_the_lock_file() {
        let lock = include_str!("../../Cargo.lock");
        let entry = format!("name = \"goban\"\nversion = \"{GOBAN_VERSION}\"");
        assert!(
            lock.contains(&entry),
            "Cargo.lock has another goban version"
        );
    }

    #[test]
    fn a_capture_is_reported_and_the_retake_is_refused_as_ko() {
        let mut engine = GobanEngine::new();
        engine
            .start(&rules(KoRule::Simple, SuicideRule::Forbidden), &ko_setup())
            .unwrap();
        assert_eq!(
            play(&mut engine, Color::White, "B2"),
            Verdict::Legal {
                captured: vec![point("C2")],
                self_captured: vec![]
            }
        );
        assert_eq!(
            play(&mut engine, Color::Black, "C2"),
            Verdict::Illegal(Reason::Ko)
        );
        assert_eq!(
            play(&mut engine, Color::Black, "B3"),
            Verdict::Illegal(Reason::Occupied)
        );
        assert_eq!(engine.observe().to_move, Some(Color::Black));
    }

    #[test]
    fn suicide_follows_the_axis() {
        // Black A2 B1 around the corner: White A1 has no liberty and captures nothing.
        // Where self-capture is allowed, the played stone itself is what goes.
        let mut setup = Setup::empty(5, 5);
        setup.stones = vec![(point("A2"), Color::Black), (point("B1"), Color::Black)];
        setup.to_move = Color::White;
        let mut engine = GobanEngine::new();
        engine
            .start(&rules(KoRule::Simple, SuicideRule::Forbidden), &setup)
            .unwrap();
        assert_eq!(
            play(&mut engine, Color::White, "A1"),
            Verdict::Illegal(Reason::Suicide)
        );
        engine
            .start(&rules(KoRule::Simple, SuicideRule::Allowed), &setup)
            .unwrap();
        assert_eq!(
            play(&mut engine, Color::White, "A1"),
            Verdict::Legal {
                captured: vec![],
                self_captured: vec![point("A1")]
            }
        );
    }

    #[test]
    fn what_the_crate_cannot_express_is_unsupported() {
        let mut engine = GobanEngine::new();
        let setup = Setup::empty(5, 5);
        assert!(engine
            .start(&rules(KoRule::Situational, SuicideRule::Forbidden), &setup)
            .is_err());
        assert!(engine
            .start(&rules(KoRule::Simple, SuicideRule::MultiStone), &setup)
            .is_err());
        assert!(engine
            .start(
                &rules(KoRule::Simple, SuicideRule::Forbidden),
                &Setup::empty(21, 21)
            )
            .is_err());
    }
}
