//! The scenario loader and the tournament readers (scenarios, crosstables as TOML and CSV,
//! clock files) on arbitrary bytes: no panic, and an accepted scenario round-trips through the
//! writer and runs the same.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_scenario(data) {
        panic!("{problem}");
    }
});
