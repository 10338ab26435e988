//! The GTP engine with arbitrary bytes as its input: no panic, and every answer is a GTP answer.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_gtp(data) {
        panic!("{problem}");
    }
});
