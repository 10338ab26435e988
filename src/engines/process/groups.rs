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
//!
//! On Linux the binary can also make goconform a child subreaper ([`adopt_orphans`]): a
//! descendant of an engine that left the engine's group (`setsid`, `setpgid`) and lost its
//! parent is reparented to goconform instead of to init, and is killed and reaped as soon as
//! no engine is running (see [`sweep_orphans`] for why not sooner).

use std::io;
use std::process::{Child, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};

#[cfg(unix)]
use rustix::io::Errno;
#[cfg(unix)]
use rustix::process::{self, Pid, Signal, WaitId, WaitIdOptions};

/// The registry: the pids of the leaders of the engine groups not yet killed and reaped, and
/// whether goconform adopts orphans (and so must reap them).
struct Registry {
    leaders: Vec<u32>,
    adopting: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    leaders: Vec::new(),
    adopting: false,
});

/// The registry, locked. A panic elsewhere while it was held leaves it consistent (every
/// change is one push or one retain), so a poisoned lock is taken all the same: killing
/// engines must never fail.
fn registry() -> MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Spawns `command` (already set to lead a process group of its own) and registers its group
/// before any other engine can be killed or swept: the lock is held from before the fork, so
/// a sweep never mistakes a newborn engine for an orphan.
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
    if registry.adopting && registry.leaders.is_empty() {
        sweep_orphans(&[]);
    }
    status
}

/// The pid `pid` as the system calls take it (`None` for 0 or one past `i32::MAX`, which no
/// child has).
#[cfg(unix)]
fn pid_of(pid: u32) -> Option<Pid> {
    i32::try_from(pid).ok().and_then(Pid::from_raw)
}

/// Sends SIGKILL to the process group led by `leader`. The callers hold the registry lock
/// and have not reaped the leader, so the group id is the engine's (see above).
#[cfg(unix)]
fn kill_group(leader: u32) {
    if let Some(pid) = pid_of(leader) {
        let _ = process::kill_process_group(pid, Signal::KILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_leader: u32) {}

/// Whether the child `pid` has exited (or is not a child of ours), without reaping it: the
/// zombie keeps its pid, and so its group id, reserved until the owner of its `Child` reaps it.
#[cfg(unix)]
pub(super) fn exited(pid: u32) -> bool {
    let Some(pid) = pid_of(pid) else {
        return true;
    };
    // WNOWAIT leaves the child waitable; WNOHANG answers `None` while it runs.
    let options = WaitIdOptions::EXITED | WaitIdOptions::NOHANG | WaitIdOptions::NOWAIT;
    match process::waitid(WaitId::Pid(pid), options) {
        Ok(status) => status.is_some(),
        // ECHILD: not a child of ours (any more), so not running as our engine.
        Err(e) => e != Errno::INTR,
    }
}

/// Makes SIGTERM, SIGINT and SIGHUP kill every engine's process group (and, if goconform
/// adopts orphans, every orphan it adopted) before ending goconform as the signal would have:
/// its exit status says it was terminated by that signal.
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

/// On Linux, makes goconform a child subreaper (`prctl(PR_SET_CHILD_SUBREAPER)`): a process
/// started by an engine that left the engine's process group (with `setsid` or `setpgid`)
/// and whose parent died is reparented to goconform instead of to init. Such orphans are then
/// killed and reaped whenever no engine is running (at the latest when the last engine of a
/// run is killed) and on a termination signal (see [`kill_engines_on_termination`]).
///
/// For a process whose only children are engines started by this module: every other child
/// of the process counts as an orphan when no engine runs, and is killed. The `goconform`
/// binary starts no other process, and calls this once at its start; the library never calls
/// it. A process that left the group is found once it is an orphan: its parent is either in
/// the engine's group, killed with it, or itself such a process, found and killed first, so
/// every descendant is reached in turn. Not covered: orphans while some engine still runs
/// (they wait for the next sweep); kernels that do not list a thread's children in
/// `/proc/self/task/TID/children` (built without `CONFIG_PROC_CHILDREN`), where this does
/// nothing rather than keep orphans it cannot find; and platforms other than Linux, where it
/// does nothing either.
pub fn adopt_orphans() -> io::Result<()> {
    imp::adopt_orphans()
}

/// Kills (SIGKILL) and reaps every child of this process that is not the leader of a
/// registered engine group, until none is left: with goconform a child subreaper, these are
/// the orphaned descendants of engines. Each round kills one generation; their children are
/// reparented to goconform in turn and go in the next round (bounded, for a process that
/// forks faster than it is killed).
///
/// This runs only when no engine is running, or when goconform is ending: an orphan cannot
/// be told apart from the helper of an engine that still runs (it left the engine's group,
/// which is what made it an orphan to look for), so killing it while other engines run could
/// break one of them.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn sweep_orphans(leaders: &[u32]) {
    use rustix::process::WaitOptions;
    const ROUNDS: usize = 64;
    for _ in 0..ROUNDS {
        let strays: Vec<i32> = children()
            .into_iter()
            .filter(|pid| !u32::try_from(*pid).is_ok_and(|p| leaders.contains(&p)))
            .collect();
        if strays.is_empty() {
            return;
        }
        let strays: Vec<Pid> = strays.into_iter().filter_map(Pid::from_raw).collect();
        // Each is a child of this process that no one else waits for (it is not an engine
        // leader, and the registry lock keeps engines from being spawned), so it is not
        // reaped and its pid is still its own.
        for &pid in &strays {
            if process::getpgid(Some(pid)) == Ok(pid) {
                let _ = process::kill_process_group(pid, Signal::KILL);
            }
            let _ = process::kill_process(pid, Signal::KILL);
        }
        for &pid in &strays {
            while matches!(
                process::waitpid(Some(pid), WaitOptions::empty()),
                Err(Errno::INTR)
            ) {}
        }
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn sweep_orphans(_leaders: &[u32]) {}

/// Whether the kernel lists each thread's children (`/proc/self/task/TID/children`).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn children_listed() -> bool {
    std::fs::read_dir("/proc/self/task").is_ok_and(|tasks| {
        tasks
            .flatten()
            .any(|task| task.path().join("children").exists())
    })
}

/// The children of this process: each thread's own list in `/proc/self/task/*/children`
/// (children belong to the thread that forked them, and adopted orphans to one of them).
#[cfg(any(target_os = "linux", target_os = "android"))]
fn children() -> Vec<i32> {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return Vec::new();
    };
    let mut pids = Vec::new();
    for task in tasks.flatten() {
        if let Ok(list) = std::fs::read_to_string(task.path().join("children")) {
            pids.extend(
                list.split_whitespace()
                    .filter_map(|p| p.parse::<i32>().ok()),
            );
        }
    }
    pids.sort_unstable();
    pids.dedup();
    pids
}

#[cfg(unix)]
mod imp {
    use std::io;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::thread;
    use std::time::{Duration, Instant};

    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    use signal_hook::iterator::Signals;

    use super::{exited, kill_group, registry, sweep_orphans};

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

    /// Kills every registered group and adopted orphan, then ends the process by `signal`'s
    /// default action. The registry stays locked to the end, so no engine starts meanwhile.
    fn terminate(signal: i32) -> ! {
        let registry = registry();
        for &leader in &registry.leaders {
            kill_group(leader);
        }
        if registry.adopting {
            // A descendant that left an engine's group is an orphan, ours, only once its
            // parent is dead: wait (a little) for the killed leaders to exit. They are not
            // reaped (the process ends anyway), so they are left out of the sweep: reaping
            // one here could let its pid be reused while it is still registered.
            let deadline = Instant::now() + Duration::from_secs(5);
            for &leader in &registry.leaders {
                while !exited(leader) && Instant::now() < deadline {
                    thread::sleep(Duration::from_millis(5));
                }
            }
            sweep_orphans(&registry.leaders);
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

    #[cfg(any(target_os = "linux", target_os = "android"))]
    pub(super) fn adopt_orphans() -> io::Result<()> {
        // Without a list of children to sweep (a kernel built without CONFIG_PROC_CHILDREN),
        // adopted orphans would only be kept alive under goconform until it ends: better not
        // to adopt them at all.
        if !super::children_listed() {
            return Ok(());
        }
        // The flag is any pid that is not 0; ours is at hand.
        rustix::process::set_child_subreaper(Some(rustix::process::getpid()))?;
        registry().adopting = true;
        Ok(())
    }

    #[cfg(not(any(target_os = "linux", target_os = "android")))]
    pub(super) fn adopt_orphans() -> io::Result<()> {
        Ok(())
    }
}

#[cfg(not(unix))]
mod imp {
    use std::io;

    pub(super) fn kill_engines_on_termination() -> io::Result<()> {
        Ok(())
    }

    pub(super) fn adopt_orphans() -> io::Result<()> {
        Ok(())
    }
}
