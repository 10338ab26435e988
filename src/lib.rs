//! goconform: a formal specification of the AGA-style rules of Go and a conformance suite.
//!
//! The crate is layered; each layer depends only on the ones listed before it:
//!
//! 1. [`board`]: points, stones, strings, captures, Zobrist hashes. No rules, no I/O.
//! 2. [`rules`]: the rules axes as plain enums and the [`rules::Rules`] value.
//! 3. [`game`]: the reference executor. Every event gets a verdict; nothing panics.
//! 4. [`spec`] and [`scenario`]: the clause registry, named rulesets and the scenario format.
//!    The only layer that reads TOML.
//! 5. [`conformance`]: the [`conformance::Referee`] trait and the runner that checks scenarios
//!    through any implementation of it, the reference included.
//! 6. [`gtp`] and [`cli`]: thin faces over the layers above.

pub mod board;
pub mod cli;
pub mod conformance;
pub mod game;
pub mod gtp;
pub mod rules;
pub mod scenario;
pub mod spec;
