//! The reference against any engine `goconform engines` lists, named by the environment
//! variable GOCONFORM_FUZZ_ENGINE (`gnugo`, `jsonl:PROGRAM ARGS...`, `profile:FILE`, ...),
//! over structured games restricted to the engine's capabilities. As `goconform fuzz` does,
//! games are played under the named rulesets the engine claims, or those listed in
//! GOCONFORM_FUZZ_RULES (comma-separated; `any` for every mix of axis values it claims);
//! GOCONFORM_FUZZ_CLAIMS holds `--claim` settings separated by spaces (`ko=simple
//! suicide=forbidden`) for an engine that cannot say its rules. One engine serves the whole
//! run; a new one is made after a breakdown.
#![no_main]

use std::cell::RefCell;

use goconform::conformance::Referee;
use goconform::rules::Rules;
use libfuzzer_sys::fuzz_target;

thread_local! {
    static ENGINE: RefCell<Option<(Box<dyn Referee>, Vec<Rules>)>> = const { RefCell::new(None) };
}

fn engine() -> (Box<dyn Referee>, Vec<Rules>) {
    let spec = std::env::var("GOCONFORM_FUZZ_ENGINE")
        .expect("set GOCONFORM_FUZZ_ENGINE to the engine to fuzz (goconform engines lists them)");
    let claims: Vec<String> = std::env::var("GOCONFORM_FUZZ_CLAIMS")
        .unwrap_or_default()
        .split_whitespace()
        .map(str::to_string)
        .collect();
    let names: Vec<String> = std::env::var("GOCONFORM_FUZZ_RULES")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|n| !n.is_empty())
        .map(str::to_string)
        .collect();
    let factory =
        goconform::cli::engine_factory_claiming(&spec, &claims).unwrap_or_else(|e| panic!("{e}"));
    let engine = factory();
    let rulesets = goconform::cli::fuzz_rulesets(&names, &engine.capabilities())
        .unwrap_or_else(|e| panic!("{e}"));
    (engine, rulesets)
}

fuzz_target!(|data: &[u8]| {
    ENGINE.with(|slot| {
        let mut slot = slot.borrow_mut();
        let (referee, rulesets) = slot.get_or_insert_with(engine);
        if let Err(divergence) =
            goconform::fuzzing::check_against_under(data, referee.as_mut(), rulesets)
        {
            *slot = None;
            panic!("{divergence}");
        }
    });
});
