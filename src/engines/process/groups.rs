//! Which engine process groups are alive, so that none outlives goconform's handling of it.
//!
//! Every engine is spawned as the leader of a process group of its own, and entered in one
//! process-wide registry under a lock; it leaves the registry only once its whole group has
//! been sent SIGKILL and its leader has been reaped. The lock is held across both steps, so:
//!
//! - the termination handler ([`kill_engines_on_termination`]) sees every group that may
//!   still have members, and no engine can start between its sweep and goconform's end;
//! - a group is only ever signalled while its leader is unreaped (alive or a zombie), so its
//!   id cannot have been reused by an unrelated group.

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The registry: the pids of the leaders of the engine groups not yet killed and reaped.
struct Registry {
    leaders: Vec<u32>,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    leaders: Vec::new(),
});

/// The registry, locked. A panic elsewhere while it was held leaves it consistent (every
/// change is one push or one retain), so a poisoned lock is taken all the same: killing
/// engines must never fail.
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spawns `command` (already set to lead a process group of its own) and registers its group
/// before the termination handler can look: the lock is held from before the fork.
pub(super) fn spawn(command: &mut Command) -> io::Result<Child> {
    let mut registry = registry();
    let child = command.spawn()?;
    registry.leaders.push(child.id());
    Ok(child)
}

/// Kills the whole process group `child` leads, whatever the state of the leader, then reaps
/// the leader and forgets the group.
///
/// The group is signalled before the leader is reaped: while the leader is a zombie or alive,
/// its pid, which is the group's id, cannot be given to another process, so the signal can
/// only reach the engine's own group. (Once the leader is reaped, the id stays taken only
/// while some member of the group lives; signalling it then would be right as long as one
/// does, but could reach a stranger's new group once none does. Reaping last avoids the
/// question.) The members of the group that outlived the leader, such as `sleep` in a wrapper
/// `sleep 600 & exec engine` or the child of a forking engine, die with it.
pub(super) fn kill_and_reap(child: &mut Child) -> io::Result<ExitStatus> {
    let mut registry = registry();
    let pid = child.id();
    kill_group(pid);
    // The leader itself, should it have moved to another group.
    let _ = child.kill();
    let status = child.wait();
    registry.leaders.retain(|&p| p != pid);
    status
}

/// Sends SIGKILL to the process group led by `leader`.
#[cfg(unix)]
fn kill_group(leader: u32) {
    if let Ok(pid) = libc::pid_t::try_from(leader) {
        // SAFETY: sends a signal; no memory is involved. The callers hold the registry lock
        // and have not reaped the leader, so the group id is the engine's (see above).
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
}

#[cfg(not(unix))]
fn kill_group(_leader: u32) {}

/// Whether the child `pid` has exited (or is not a child of ours), without reaping it: the
/// zombie keeps its pid, and so its group id, reserved until the owner of its `Child` reaps it.
#[cfg(unix)]
pub(super) fn exited(pid: u32) -> bool {
    let pid = libc::id_t::from(pid);
    // SAFETY: `info` is a zeroed local that waitid writes; WNOWAIT leaves the child waitable.
    unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let options = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        if libc::waitid(libc::P_PID, pid, &mut info, options) == -1 {
            // ECHILD: not a child of ours (any more), so not running as our engine.
            return io::Error::last_os_error().kind() != io::ErrorKind::Interrupted;
        }
        // With WNOHANG and no exit to report, waitid leaves the zeroed fields alone.
        info.si_signo != 0
    }
}

/// Makes SIGTERM, SIGINT and SIGHUP kill every engine's process group before ending goconform
/// as the signal would have: its exit status says it was terminated by that signal.
///
/// Engines run in process groups of their own (so that each can be killed whole), which also
/// keeps the signals a terminal sends to its foreground group (Ctrl-C) from reaching them: without
/// this, ending goconform leaves its engines running. A signal that is ignored when this is
/// called (`nohup` ignores SIGHUP) stays ignored.
///
/// The signals are received by a thread of its own through `signal_hook::iterator::Signals`,
/// whose handler only writes to a pipe, so everything done about them runs outside the signal
/// handler. This is for the `goconform` binary, which calls it once at its start; a library
/// user whose program owns its signals should not call it (or call it only if these signals
/// should end the program). Calling it again does nothing. Does nothing on platforms other
/// than Unix.
pub fn kill_engines_on_termination() -> io::Result<()> {
    imp::kill_engines_on_termination()
}

#[cfg(unix)]
mod imp {
    use std::io;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;

    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use super::{kill_group, registry};

    pub(super) fn kill_engines_on_termination() -> io::Result<()> {
        static INSTALLED: AtomicBool = AtomicBool::new(false);
        if INSTALLED.swap(true, Ordering::SeqCst) {
            return Ok(());
        }
        let wanted: Vec<i32> = [SIGTERM, SIGINT, SIGHUP]
            .into_iter()
            .filter(|&signal| !ignored(signal))
            .collect();
        let mut signals = Signals::new(&wanted)?;
        thread::Builder::new()
            .name("engine-killer".to_string())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    terminate(signal);
                }
            })?;
        Ok(())
    }

    /// Kills every registered group, then ends the process by `signal`'s default action. The registry stays locked to the end, so no engine starts meanwhile.
    fn terminate(signal: i32) -> ! {
        let registry = registry();
        for &leader in &registry.leaders {
            kill_group(leader);
        }
        let _ = signal_hook::low_level::emulate_default_handler(signal);
        // Not reached for these signals, whose default action ends the process; the shell's
        // convention for a process ended by a signal all the same.
        std::process::exit(128 + signal)
    }

    /// Whether `signal` is ignored (inherited from the parent, as under `nohup`).
    fn ignored(signal: i32) -> bool {
        // SAFETY: with a null new action, sigaction only writes the current action into the
        // zeroed local.
        unsafe {
            let mut current: libc::sigaction = std::mem::zeroed();
            libc::sigaction(signal, std::ptr::null(), &mut current) == 0
                && current.sa_sigaction == libc::SIG_IGN
        }
    }
}

#[cfg(not(unix))]
mod imp {
    use std::io;

    pub(super) fn kill_engines_on_termination() -> io::Result<()> {
        Ok(())
    }
}
