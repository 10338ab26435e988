//! The `goconform` command: see `goconform --help`.

/// The allocator is the binary's choice, not the library's: mimalloc, which measured faster
/// than glibc's malloc on every command users run (`cargo bench --bench allocator`). Without
/// the `mimalloc` feature the C library's malloc serves.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    restore_default_sigpipe();
    own_engine_processes();
    goconform::cli::main()
}

/// Engines run in process groups of their own, out of reach of the signals a terminal sends
/// to goconform's group: on SIGTERM, SIGINT or SIGHUP their groups are killed before
/// goconform ends. On Linux goconform also adopts the orphaned descendants of engines (those
/// that left an engine's group with `setsid`), to kill them too; it starts no process other
/// than engines, which is what that needs. If either cannot be set up, goconform runs all the
/// same, as it did before, and says so.
fn own_engine_processes() {
    use goconform::engines::process;
    if let Err(e) = process::kill_engines_on_termination() {
        eprintln!("warning: engines will not be killed if goconform is killed by a signal: {e}");
    }
    if let Err(e) = process::adopt_orphans() {
        eprintln!(
            "warning: processes started by engines outside their group may outlive them: {e}"
        );
    }
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
