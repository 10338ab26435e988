//! The SGF reader's fast path against sgf-parse on arbitrary bytes: wherever the fast reader
//! reads a text, sgf-parse reads the same games with the same main lines, property for
//! property.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(problem) = goconform::fuzzing::inputs::check_sgf_fast(data) {
        panic!("{problem}");
    }
});
