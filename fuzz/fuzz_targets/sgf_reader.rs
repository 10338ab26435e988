//! The SGF reader on arbitrary bytes: no panic, no stack overflow, and every game it accepts
//! is played by the reference without a harness error.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_sgf(data) {
        panic!("{problem}");
    }
});
