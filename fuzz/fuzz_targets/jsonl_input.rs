//! The JSON-lines server with arbitrary bytes as its input: no panic, every reply valid, and run requests round-trip.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_jsonl(data) {
        panic!("{problem}");
    }
});
