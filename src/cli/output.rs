//! Standard output for the commands, with write failures kept rather than panicked on.
//!
//! `println!` panics when standard output cannot be written (a full disk, `> /dev/full`), and
//! a panic is the wrong answer to an ordinary I/O condition. The commands print through
//! [`out!`] and [`outln!`] instead: the first write error is kept, later output is dropped
//! (nothing after a failed write could be trusted to be complete), and [`finish`] turns the
//! kept error into the command's error once the command is done. A closed pipe never gets
//! here: the binary restores the default SIGPIPE action, so the process ends quietly at the
//! first write, as a command-line tool should.

use std::io::Write;
use std::sync::OnceLock;

/// The first error met writing to standard output, as text.
static FAILED: OnceLock<String> = OnceLock::new();

/// Writes to standard output, keeping the first error (see the module's note).
pub(crate) fn print(args: std::fmt::Arguments<'_>) {
    if FAILED.get().is_some() {
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        fail(&e);
    }
}

/// Keeps `error` as the write failure if none was kept before. For writers of standard
/// output other than the macros (a JSON-lines report written through a lock of stdout).
pub(crate) fn fail(error: &std::io::Error) {
    let _ = FAILED.set(error.to_string());
}

/// Flushes standard output and returns the first write error of the run, if any, as the
/// message the command line prints.
pub(crate) fn finish() -> Result<(), String> {
    if FAILED.get().is_none() {
        if let Err(e) = std::io::stdout().lock().flush() {
            fail(&e);
        }
    }
    match FAILED.get() {
        Some(e) => Err(format!("cannot write to standard output: {e}")),
        None => Ok(()),
    }
}

/// `print!` that never panics: see [`print`].
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!($($arg)*))
    };
}

/// `println!` that never panics: see [`print`].
macro_rules! outln {
    () => {
        $crate::cli::output::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::cli::output::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}
