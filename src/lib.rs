//! goconform: a formal specification of the AGA-style rules of Go and a conformance suite.
//!
//! The crate is layered; each layer depends only on the ones listed before it:
//!
//! 1. [`board`]: points, stones, strings, captures, Zobrist hashes. No rules, no I/O.
//! 2. [`rules`]: the rules axes as plain enums and the [`rules::Rules`] value.
//! 3. [`game`]: the reference executor. Every event gets a verdict; nothing panics.
//!    [`tournament`]: the rules around the game (ranks, handicap and komi, colours, clocks,
//!    tiebreaks), pure logic beside the executor.
//! 4. [`spec`] and [`scenario`]: the clause registry, named rulesets and the scenario format.
//!    The only layer that reads TOML. [`sgf`]: game records in SGF, read into the same set-up
//!    and events, judged under a ruleset, written back out.
//! 5. [`conformance`]: the [`conformance::Referee`] trait and the runner that checks scenarios
//!    through any implementation of it, the reference included.
//!    [`engines`]: engines in other processes (GTP, ...) behind that trait.
//! 6. [`gtp`]: the reference as a GTP engine. [`fuzzing`]: structured games, the differential
//!    runner, minimisation and the checks behind the fuzz targets and `goconform fuzz`.
//!    [`book`]: the specification and the suite as a static web site with SVG board
//!    diagrams, and the engines page of a comparison; rendering only.
//! 7. [`cli`]: the command line, a thin face over the layers above.
//!
//! # Cargo features
//!
//! An engine author depends on the library alone, `default-features = false`, and adds what
//! they use:
//!
//! - `cli` (default): the faces, [`cli`] and [`book`], and the `goconform` binary, with
//!   their dependencies (clap, maud, and `progress`). The match referee ([`referee`]) is
//!   always built: tournament scenarios of the `refereed-game` kind run through it.
//! - `libtest` (default): [`conformance::libtest`], one `cargo test` test per trial (through
//!   libtest-mimic, which brings clap).
//! - `progress`: a progress bar while [`conformance::Harness`] runs (indicatif).
//! - `goban` (default): the goban crate as an engine to check (`--engine goban`).
//! - `arbitrary`, `proptest`, `quickcheck`: generators of the public types for property tests,
//!   in `fuzzing::generators`.
//! - `wasm`: the JavaScript bindings (`wasm`), for `wasm32-unknown-unknown` and the npm
//!   package in `js/`.
//!
//! # Judging moves with the reference executor
//!
//! ```
//! use goconform::board::{Color, Move, Point};
//! use goconform::game::{Event, Game, Reason, Setup, Verdict};
//! use goconform::rules::{KoRule, Rules};
//!
//! // A ko on a 5x5 board, built with moves from the empty board, White first.
//! let rules = Rules { ko: KoRule::NaturalSituational, ..Rules::default() };
//! let mut setup = Setup::empty(5, 5);
//! setup.to_move = Color::White;
//! let mut game = Game::new(rules, &setup).unwrap();
//! let at = |v: &str| Point::parse_gtp(v, 5, 5).unwrap();
//! for (color, vertex) in [
//!     (Color::White, "C4"), (Color::Black, "B4"), (Color::White, "B3"), (Color::Black, "A3"),
//!     (Color::White, "C2"), (Color::Black, "B2"), (Color::White, "D3"),
//! ] {
//!     assert!(game.apply(Event::Move(color, Move::Play(at(vertex)))).is_legal());
//! }
//! // Black takes the ko...
//! let take = game.apply(Event::Move(Color::Black, Move::Play(at("C3"))));
//! assert_eq!(take, Verdict::Legal { captured: vec![at("B3")], self_captured: vec![] });
//! // ...and White may not take it straight back.
//! let retake = game.apply(Event::Move(Color::White, Move::Play(at("B3"))));
//! assert_eq!(retake, Verdict::Illegal(Reason::Ko));
//! // A pass is always legal and hands Black a pass stone under these rules.
//! assert!(game.apply(Event::Move(Color::White, Move::Pass)).is_legal());
//! assert_eq!(game.prisoners(Color::Black), 2);
//! ```

// Every public item is documented, and `cargo clippy -- -D warnings` keeps it so.
#![warn(missing_docs)]

pub mod board;
#[cfg(feature = "cli")]
pub mod book;
#[cfg(feature = "cli")]
pub mod cli;
pub mod conformance;
pub mod engines;
pub mod files;
pub mod fuzzing;
pub mod game;
pub mod gtp;
pub mod perft;
pub mod referee;
pub(crate) mod rng;
pub mod rules;
pub mod scenario;
pub mod scoring;
pub mod sgf;
pub mod spec;
pub mod tournament;
#[cfg(feature = "wasm")]
pub mod wasm;
pub mod wasm_playout;
