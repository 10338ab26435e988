//! The reference against the independent second executor over structured games
//! (goconform::fuzzing::check_differential): any divergence is a bug in one of them.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(divergence) = goconform::fuzzing::check_differential(data) {
        panic!("{divergence}");
    }
});
