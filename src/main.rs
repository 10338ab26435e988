//! The `goconform` command: see `goconform --help`.

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    goconform::cli::main()
}

/// Rust programs start with SIGPIPE ignored, so writing to a closed pipe is an error, and
/// `println!` turns that error into a panic: `goconform explain ID | head` would end with a
/// panic message. A command-line tool should instead stop quietly when its reader goes away,
/// which is what the default action of the signal does.
#[cfg(unix)]
fn restore_default_sigpipe() {
    // SAFETY: called once at start-up, before any other thread exists; setting the default
    // disposition of a signal has no other effect on the process state.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[cfg(not(unix))]
fn restore_default_sigpipe() {}
