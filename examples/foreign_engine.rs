//! The `tests/conformance.rs` of `docs/implementing.md` ("In your own `cargo test`"), built and
//! run so that the guide's code cannot go stale: `tests/docs_figures.rs` checks that the guide
//! shows, word for word, the lines between the `guide:` markers below, and runs this example
//! on a few trials.
//!
//! In an engine author's crate, `my_engine` is the engine's own crate and the test file another
//! crate, so neither `Referee` nor `my_engine::Rules` belongs to the test: Rust's orphan rule
//! refuses `impl Referee for my_engine::Rules` there (error E0117), and the test implements the
//! trait on a wrapper of its own. Here `my_engine` is a module standing in for that crate (a
//! module of the same crate would not need the wrapper, but the code the guide shows is the same
//! either way); its engine is goconform's reference, so every trial passes.
//!
//! `cargo run --example foreign_engine -- basic-ko` runs the trials whose name contains
//! `basic-ko`.

/// Stands in for the engine author's crate: an engine with methods of its own, which the test
/// file turns into a `Referee`.
mod my_engine {
    use goconform::conformance::{
        Capabilities, EngineError, EngineInfo, Observation, Referee, Reference, Unsupported,
    };
    use goconform::game::{Event, Setup, Verdict};

    /// The engine. Its methods already take goconform's types, as an engine written against
    /// the guide would; an engine with types of its own converts in the wrapper's methods.
    pub struct Rules(Reference);

    impl Rules {
        pub fn new() -> Rules {
            Rules(Reference::new())
        }

        pub fn info(&self) -> EngineInfo {
            EngineInfo {
                name: "my-engine".to_string(),
                version: "0.1.0".to_string(),
            }
        }

        pub fn capabilities(&self) -> Capabilities {
            self.0.capabilities()
        }

        pub fn start(
            &mut self,
            rules: &goconform::rules::Rules,
            setup: &Setup,
        ) -> Result<(), Unsupported> {
            self.0.start(rules, setup)
        }

        pub fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
            self.0.apply(event)
        }

        pub fn observe(&self) -> Observation {
            self.0.observe()
        }
    }
}

// guide: begin
use std::sync::Arc;

use goconform::conformance::libtest::{self, Options};
use goconform::conformance::{
    Capabilities, EngineError, EngineInfo, Observation, Referee, Unsupported,
};
use goconform::game::{Event, Setup, Verdict};
use goconform::rules::Rules;

/// `Referee` is goconform's and `my_engine::Rules` is your crate's, so this test (a crate of
/// its own) may not implement one for the other (error E0117): it wraps the engine in a type
/// of its own and implements the trait on that.
struct Checked(my_engine::Rules);

impl Referee for Checked {
    fn info(&self) -> EngineInfo {
        self.0.info()
    }
    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.0.start(rules, setup)
    }
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        self.0.apply(event)
    }
    fn observe(&self) -> Observation {
        self.0.observe()
    }
}

fn main() {
    libtest::main(
        // Called once per test: every trial gets a fresh engine, and tests run on
        // several threads.
        Arc::new(|| Box::new(Checked(my_engine::Rules::new())) as Box<dyn Referee>),
        Options::default(),
    )
}
// guide: end
