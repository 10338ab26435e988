//! The SGF reader's consistency with the judge on arbitrary bytes: a record `judge` calls
//! legal replays from its set-up with every move accepted (`check_sgf_judge`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_sgf_judge(data) {
        panic!("{problem}");
    }
});
