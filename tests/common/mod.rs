//! What the tests that run the binary share: the project root and a way to run a command.

use std::path::Path;
use std::process::{Command, Output};

/// The project folder: spec/ and conformance/ are read from here.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// Runs `goconform --root ROOT ARGS...` and returns what it printed and its exit status.
#[allow(dead_code)] // not every test binary runs the command line
pub fn goconform(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_goconform"))
        .arg("--root")
        .arg(root())
        .args(args)
        .output()
        .expect("the binary runs")
}
