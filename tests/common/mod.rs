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

/// Says that the running test is skipped, and why, where a person running `cargo test` sees
/// it: written straight to the process's standard error, which the test harness does not
/// capture (it captures only `print!` and `eprint!`), so the line shows beside the test's
/// `ok`, named by the test's thread. Under CI (the environment variable `CI` set, as `.ci/run`
/// runs) a skip would hide a missing install, so it fails the test instead.
#[allow(dead_code)] // not every test binary skips
pub fn skip(reason: &str) {
    let thread = std::thread::current();
    let test = thread.name().unwrap_or("a test");
    if std::env::var_os("CI").is_some() {
        panic!("{test} would be skipped under CI, which must install what it needs: {reason}");
    }
    let line = format!("SKIPPED {test}: {reason}\n");
    let _ = std::io::Write::write_all(&mut std::io::stderr(), line.as_bytes());
}

/// GNU Go 3.8: `$GNUGO`, else Debian's `/usr/games/gnugo`; `None` where it is not installed.
#[allow(dead_code)]
pub fn gnugo() -> Option<std::path::PathBuf> {
    let path = std::env::var_os("GNUGO")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| std::path::PathBuf::from("/usr/games/gnugo"));
    path.exists().then_some(path)
}
