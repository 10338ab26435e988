//! The reference against any engine `goconform engines` lists, named by the environment
//! variable GOCONFORM_FUZZ_ENGINE (`gnugo`, `jsonl:PROGRAM ARGS...`, ...), over structured
//! games restricted to the engine's capabilities. One engine serves the whole run; a new one is
//! made after a breakdown.
#![no_main]

use std::cell::RefCell;

use goconform::conformance::Referee;
use libfuzzer_sys::fuzz_target;

thread_local! {
    static ENGINE: RefCell<Option<Box<dyn Referee>>> = const { RefCell::new(None) };
}

fn engine() -> Box<dyn Referee> {
    let spec = std::env::var("GOCONFORM_FUZZ_ENGINE")
        .expect("set GOCONFORM_FUZZ_ENGINE to the engine to fuzz (goconform engines lists them)");
    let factory = goconform::cli::engine_factory(&spec).unwrap_or_else(|e| panic!("{e}"));
    factory()
}

fuzz_target!(|data: &[u8]| {
    ENGINE.with(|slot| {
        let mut slot = slot.borrow_mut();
        let referee = slot.get_or_insert_with(engine);
        if let Err(divergence) = goconform::fuzzing::check_against(data, referee.as_mut()) {
            *slot = None;
            panic!("{divergence}");
        }
    });
});
