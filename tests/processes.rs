//! No stray process (issue 20): every process an engine starts is gone once goconform is done
//! with the engine, or once goconform is ended by a signal.
//!
//! Each test runs the `goconform` binary with a GTP engine that is a shell script: the script
//! starts the processes that used to outlive goconform (a background job of a wrapper, the
//! child of an engine whose main process exits, a process that left the engine's group with
//! `setsid`), writes their pids to files, and then becomes (or starts) `goconform gtp`, the
//! reference as a GTP engine, or a silent `sleep`. The tests then wait, with generous
//! deadlines, for those pids to be gone.

#![cfg(unix)]

mod common;

use std::fs;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::thread;
use std::time::{Duration, Instant};

/// How long a process may take to go, or a file to appear, on a loaded machine.
const PATIENCE: Duration = Duration::from_secs(60);

/// The binary under test.
fn goconform() -> &'static str {
    env!("CARGO_BIN_EXE_goconform")
}

/// Quotes `text` for the shell and for `--engine` command lines (no single quote inside).
fn quoted(text: &Path) -> String {
    let text = text.to_str().expect("a UTF-8 path");
    assert!(!text.contains('\''), "{text}");
    format!("'{text}'")
}

/// Writes an executable shell script `name` into `dir` with `body` after the `#!` line; the
/// body may use `$DIR` (the folder, for pid files) and `$GOCONFORM` (the binary).
fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    let text = format!(
        "#!/bin/sh\nDIR={}\nGOCONFORM={}\n{body}",
        quoted(dir),
        quoted(Path::new(goconform()))
    );
    fs::write(&path, text).expect("the script is written");
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).expect("it is executable");
    path
}

/// `goconform check` of the basic ko scenarios through the GTP engine `engine`.
fn check(engine: &Path) -> Command {
    let mut command = Command::new(goconform());
    command
        .arg("--root")
        .arg(common::root())
        .args(["check", "--id", "basic-ko", "--jobs", "1", "--engine"])
        .arg(format!("gtp:{}", quoted(engine)));
    command
}

/// The pid written (whole, by a rename) to `dir/name`, once it is there.
fn pid_file(dir: &Path, name: &str) -> u32 {
    let path = dir.join(name);
    let deadline = Instant::now() + PATIENCE;
    loop {
        if let Some(pid) = fs::read_to_string(&path)
            .ok()
            .and_then(|text| text.trim().parse().ok())
        {
            return pid;
        }
        assert!(
            Instant::now() < deadline,
            "{} never appeared",
            path.display()
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` is a live process whose command line contains `what` (a zombie or another
/// program under a reused pid is not).
fn alive(pid: u32, what: &str) -> bool {
    if !Path::new("/proc/self").exists() {
        // No /proc to read: whether the pid exists at all.
        // SAFETY: signal 0 only checks that the process exists.
        return unsafe { libc::kill(pid_t(pid), 0) } == 0;
    }
    let proc = PathBuf::from(format!("/proc/{pid}"));
    let zombie = fs::read_to_string(proc.join("stat")).is_ok_and(|stat| {
        // The state follows the command name in parentheses, which may hold spaces.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state == "Z" || state == "X")
    });
    let cmdline = fs::read(proc.join("cmdline")).unwrap_or_default();
    // The arguments are separated by NUL bytes.
    let cmdline = String::from_utf8_lossy(&cmdline).replace('\0', " ");
    !zombie && cmdline.contains(what)
}

/// Waits (with [`PATIENCE`]) until `pid` is no longer a live `what`; fails the test if it
/// stays, after killing it so that the test leaves nothing behind either.
fn assert_gone(pid: u32, what: &str, role: &str) {
    let deadline = Instant::now() + PATIENCE;
    while alive(pid, what) {
        if Instant::now() >= deadline {
            // SAFETY: sends a signal; no memory is involved.
            unsafe {
                libc::kill(pid_t(pid), libc::SIGKILL);
            }
            panic!("{role} (pid {pid}, `{what}`) outlived goconform's handling of the engine");
        }
        thread::sleep(Duration::from_millis(50));
    }
}

/// Runs `command` to its end (with [`PATIENCE`]); its exit status and what it printed.
fn run(mut command: Command) -> (ExitStatus, String) {
    let output = command
        .stdin(Stdio::null())
        .output()
        .expect("goconform runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status, text)
}

#[test]
fn a_wrappers_background_job_dies_with_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let engine = script(
        dir.path(),
        "wrapper.sh",
        "sleep 600 &\necho $! > \"$DIR/job.tmp\" && mv \"$DIR/job.tmp\" \"$DIR/job.pid\"\n\
         exec \"$GOCONFORM\" gtp\n",
    );
    let (status, text) = run(check(&engine));
    assert!(status.success(), "{status}: {text}");
    assert!(text.contains("passed"), "{text}");
    assert_gone(
        pid_file(dir.path(), "job.pid"),
        "sleep",
        "the wrapper's `sleep 600 &`",
    );
}

/// The wrapper's engine exits on the first command while the wrapper's `sleep` holds its
/// output open: the engine's main process has exited (and is reported as not answering) by
/// the time goconform kills it, and the group must be killed all the same.
#[test]
fn a_wrappers_background_job_dies_when_the_engine_has_exited_first() {
    let dir = tempfile::tempdir().unwrap();
    let engine = script(
        dir.path(),
        "wrapper.sh",
        "sleep 600 &
echo $! > \"$DIR/job.tmp\" && mv \"$DIR/job.tmp\" \"$DIR/job.pid\"\n\
         exec sh -c 'read command; echo dying >&2; exit 3'\n",
    );
    let mut command = check(&engine);
    command.args(["--engine-timeout", "2"]);
    let (status, text) = run(command);
    assert!(!status.success(), "{status}: {text}");
    assert_gone(
        pid_file(dir.path(), "job.pid"),
        "sleep",
        "the wrapper's `sleep 600 &`",
    );
}

/// The engine's main process exits in the middle of a trial while its background job holds
/// both pipes open: no answer ever comes and the output never ends, but the engine is gone,
/// which is a crash (an error naming the exit), not a timeout (issue 20).
#[test]
fn an_engine_whose_main_process_exited_is_a_crash_not_a_timeout() {
    let dir = tempfile::tempdir().unwrap();
    // The background `sleep` gets the pipes (through descriptor 3, see below); the main
    // process relays commands to the reference until the trial's `komi`, then exits.
    let engine = script(
        dir.path(),
        "leader-exits.sh",
        "exec 3<&0\nsleep 600 <&3 &\n\
         echo $! > \"$DIR/job.tmp\" && mv \"$DIR/job.tmp\" \"$DIR/job.pid\"\n\
         while read -r line; do case \"$line\" in *komi*) break;; esac; echo \"$line\"; done \
         | \"$GOCONFORM\" gtp\n\
         echo leaving >&2\nexit 3\n",
    );
    let mut command = check(&engine);
    // Under simple ko: a GTP engine takes set-up stones through `play`, which superko rules
    // (aga's natural situational superko among them) cannot take without a false history.
    command.args(["--rules", "japanese-1989", "--engine-timeout", "2"]);
    let (status, text) = run(command);
    assert!(!status.success(), "{status}: {text}");
    assert!(text.contains("ERROR basic-ko"), "{text}");
    assert!(!text.contains("TIMEOUT"), "{text}");
    assert!(
        text.contains("the main process had exited") && text.contains("exit status: 3"),
        "{text}"
    );
    assert_gone(
        pid_file(dir.path(), "job.pid"),
        "sleep",
        "the engine's `sleep 600 &`",
    );
}

#[test]
fn the_child_of_an_engine_whose_main_process_exits_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    // The main process starts the real engine in the background, on its own standard input
    // (a non-interactive shell gives a background job /dev/null, and dash does so even for
    // `<&0`, hence descriptor 3), and exits: the child holds the pipes and answers.
    let engine = script(
        dir.path(),
        "forking.sh",
        "sleep 600 &\necho $! > \"$DIR/job.tmp\" && mv \"$DIR/job.tmp\" \"$DIR/job.pid\"\n\
         exec 3<&0\n\"$GOCONFORM\" gtp <&3 3<&- &\n\
         echo $! > \"$DIR/child.tmp\" && mv \"$DIR/child.tmp\" \"$DIR/child.pid\"\n\
         exit 0\n",
    );
    let (status, text) = run(check(&engine));
    assert!(
        !text.contains("did not answer"),
        "the engine was reported as a timeout: {text}"
    );
    assert!(status.success(), "{status}: {text}");
    assert_gone(
        pid_file(dir.path(), "job.pid"),
        "sleep",
        "the engine's `sleep 600 &`",
    );
    assert_gone(
        pid_file(dir.path(), "child.pid"),
        "gtp",
        "the forked engine (`goconform gtp &`)",
    );
}

/// A process that left the engine's group (`setsid`) is adopted by goconform once the
/// engine is killed, and killed in turn.
#[cfg(target_os = "linux")]
#[test]
fn a_process_that_left_the_group_with_setsid_is_killed() {
    let dir = tempfile::tempdir().unwrap();
    let engine = script(
        dir.path(),
        "setsid.sh",
        "setsid sleep 600 &\n\
         echo $! > \"$DIR/escaped.tmp\" && mv \"$DIR/escaped.tmp\" \"$DIR/escaped.pid\"\n\
         exec \"$GOCONFORM\" gtp\n",
    );
    let (status, text) = run(check(&engine));
    assert!(status.success(), "{status}: {text}");
    assert_gone(
        pid_file(dir.path(), "escaped.pid"),
        "sleep",
        "the engine's `setsid sleep 600 &`",
    );
}

/// Sends `signal` to a `goconform check` whose engine never answers, once the engine has
/// started its processes; goconform must end by that signal, and the engine's processes
/// must be gone.
fn a_signal_kills_the_engines(signal: i32) {
    let dir = tempfile::tempdir().unwrap();
    let setsid = if cfg!(target_os = "linux") {
        "setsid sleep 600 &\n\
         echo $! > \"$DIR/escaped.tmp\" && mv \"$DIR/escaped.tmp\" \"$DIR/escaped.pid\"\n"
    } else {
        ""
    };
    let engine = script(
        dir.path(),
        "silent.sh",
        &format!(
            "sleep 600 &\necho $! > \"$DIR/job.tmp\" && mv \"$DIR/job.tmp\" \"$DIR/job.pid\"\n\
             {setsid}\
             echo $$ > \"$DIR/leader.tmp\" && mv \"$DIR/leader.tmp\" \"$DIR/leader.pid\"\n\
             exec sleep 601\n"
        ),
    );
    let mut command = check(&engine);
    command
        .args(["--engine-timeout", "600"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // A test run started under `nohup` hands SIGHUP down ignored, and goconform rightly leaves
    // an ignored signal alone: give goconform the default action, which is what this test is
    // about, however the tests were started.
    // SAFETY: between fork and exec the closure calls only sigaction, which is
    // async-signal-safe, with a zeroed action whose handler is SIG_DFL.
    unsafe {
        command.pre_exec(move || {
            let mut default: libc::sigaction = std::mem::zeroed();
            default.sa_sigaction = libc::SIG_DFL;
            if libc::sigaction(signal, &default, std::ptr::null_mut()) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().expect("goconform runs");
    let leader = pid_file(dir.path(), "leader.pid");
    let job = pid_file(dir.path(), "job.pid");
    let escaped = cfg!(target_os = "linux").then(|| pid_file(dir.path(), "escaped.pid"));
    // The leader has written its pid just before becoming `sleep 601`: wait for that.
    let deadline = Instant::now() + PATIENCE;
    while !alive(leader, "601") && Instant::now() < deadline {
        thread::sleep(Duration::from_millis(20));
    }
    // SAFETY: sends a signal to the child this test started and has not reaped.
    assert_eq!(unsafe { libc::kill(pid_t(child.id()), signal) }, 0);
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = child.try_wait().expect("goconform can be waited for") {
            break status;
        }
        if Instant::now() >= deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("goconform did not end on signal {signal}");
        }
        thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.signal(), Some(signal), "{status}");
    assert_gone(leader, "sleep 601", "the engine");
    assert_gone(job, "sleep", "the engine's `sleep 600 &`");
    if let Some(escaped) = escaped {
        assert_gone(escaped, "sleep", "the engine's `setsid sleep 600 &`");
    }
}

fn pid_t(pid: u32) -> libc::pid_t {
    libc::pid_t::try_from(pid).expect("a pid fits in pid_t")
}

#[test]
fn sigterm_kills_the_engines_and_ends_goconform_by_sigterm() {
    a_signal_kills_the_engines(libc::SIGTERM);
}

#[test]
fn sigint_kills_the_engines_and_ends_goconform_by_sigint() {
    a_signal_kills_the_engines(libc::SIGINT);
}

#[test]
fn sighup_kills_the_engines_and_ends_goconform_by_sighup() {
    a_signal_kills_the_engines(libc::SIGHUP);
}
