//! An engine as a child process: lines in on its standard input, lines out of its standard
//! output, and the tail of its standard error kept for error messages.
//!
//! Nothing an engine does can make this module panic or block forever: on Unix standard
//! output is read on the calling thread, each wait for more bytes bounded by `poll(2)` with the
//! time left to the read's deadline (elsewhere a reader thread feeds its lines into a channel
//! the caller waits on with a timeout), so every read can time out; another thread keeps the
//! last [`STDERR_TAIL`] bytes of standard error; a write to an engine that has gone
//! away is an error, never a SIGPIPE that ends the process (the `goconform` binary restores
//! the default action of that signal, see `src/main.rs`). Every [`EngineError`] carries the
//! tail of standard error, so a report says why an engine died.
//!
//! On Unix the engine runs in a process group of its own, and [`EngineProcess::kill`] kills
//! the whole group whatever the state of the engine's main process: an engine started through
//! a wrapper script (`sleep 600 & exec engine`) or one that forks and exits leaves no process
//! behind. A crash detected while reading or writing kills the group too. Every live group is
//! in a process-wide registry, so that [`kill_engines_on_termination`] can kill them all when
//! goconform is told to end; on Linux, [`adopt_orphans`] also catches descendants that left
//! the group with `setsid`. The binary calls both at its start; the library alone installs no
//! signal handler and changes nothing about the process.

mod groups;
mod output;

pub use groups::{adopt_orphans, kill_engines_on_termination};

use std::collections::VecDeque;
use std::io::{self, Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::conformance::EngineError;

/// How many bytes of standard error are kept: the last ones.
pub const STDERR_TAIL: usize = 8 * 1024;

/// The longest line kept whatever `max_len` a read asks for; the rest of a longer line is
/// skipped and the line is reported as too long.
pub const HARD_LINE_LIMIT: usize = 4 * 1024 * 1024;

/// How long a write may wait for the engine to read its input, unless
/// [`EngineProcess::set_write_limit`] says otherwise.
pub const WRITE_LIMIT: Duration = Duration::from_secs(10);

/// How long to wait, once standard output has closed, for the exit status and the last words
/// on standard error.
const EXIT_GRACE: Duration = Duration::from_millis(300);

/// What a read of standard output hands over.
enum Item {
    Line(Vec<u8>),
    /// A line longer than [`HARD_LINE_LIMIT`]; its length so far.
    TooLong(usize),
    /// Standard output could not be read.
    Failed(String),
    /// The end of output, after every line before it.
    Closed,
    /// No line by the deadline.
    TimedOut,
}

/// The last bytes of standard error, and whether it has closed.
#[derive(Default)]
struct Tail {
    bytes: VecDeque<u8>,
    closed: bool,
}

/// A running engine. Killed when dropped.
pub struct EngineProcess {
    program: String,
    child: Child,
    stdin: Option<ChildStdin>,
    /// Standard output, read line by line.
    lines: output::Output,
    stderr: Arc<Mutex<Tail>>,
    /// Standard output has ended (or failed): every later read is a crash.
    ended: Option<String>,
    /// The leader has been reaped (after its group was killed); how it ended, if known.
    reaped: Option<Option<ExitStatus>>,
    /// How long a write may wait for the engine to read its input.
    write_limit: Duration,
}

impl EngineProcess {
    /// Spawns `program` with `args`, stdin/stdout piped, stderr captured by a thread into a
    /// bounded buffer (keep the last 8 KiB).
    pub fn spawn(program: &str, args: &[String]) -> Result<EngineProcess, EngineError> {
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            command.process_group(0);
        }
        let mut child = groups::spawn(&mut command)
            .map_err(|e| EngineError::crash(format!("cannot start the engine `{program}`: {e}")))?;
        let (stdin, stdout, stderr_pipe) =
            match (child.stdin.take(), child.stdout.take(), child.stderr.take()) {
                (Some(i), Some(o), Some(e)) => (i, o, e),
                _ => {
                    let _ = groups::kill_and_reap(&mut child);
                    return Err(EngineError::crash(format!(
                        "cannot start the engine `{program}`: its pipes are missing"
                    )));
                }
            };
        widen(&stdin);
        #[cfg(unix)]
        {
            // Writes wait for room in the pipe with poll(2) and a deadline, so that an engine
            // that stops reading its input is a timeout, not a harness blocked for ever.
            use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
            if let Ok(flags) = fcntl_getfl(&stdin) {
                let _ = fcntl_setfl(&stdin, flags | OFlags::NONBLOCK);
            }
        }
        let stderr = Arc::new(Mutex::new(Tail::default()));
        let tail = Arc::clone(&stderr);
        let spawned = output::Output::new(stdout).and_then(|lines| {
            thread::Builder::new()
                .name("engine-stderr".to_string())
                .spawn(move || keep_tail(stderr_pipe, &tail))
                .map(|_| lines)
        });
        let lines = match spawned {
            Ok(lines) => lines,
            Err(e) => {
                let _ = groups::kill_and_reap(&mut child);
                return Err(EngineError::crash(format!(
                    "cannot start the engine `{program}`: no thread to read it: {e}"
                )));
            }
        };
        let process = EngineProcess {
            program: program.to_string(),
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            ended: None,
            reaped: None,
            write_limit: WRITE_LIMIT,
        };
        Ok(process)
    }

    /// The program this process runs, as given to [`EngineProcess::spawn`].
    pub fn program(&self) -> &str {
        &self.program
    }

    /// How long a write may wait for the engine to read its input before it is a timeout
    /// (on Unix; elsewhere a write waits as long as it takes). [`WRITE_LIMIT`] until set.
    pub fn set_write_limit(&mut self, limit: Duration) {
        self.write_limit = limit;
    }

    /// Sends one line (a newline is added) and flushes it.
    pub fn send_line(&mut self, line: &str) -> Result<(), EngineError> {
        self.send_lines(std::iter::once(line))
    }

    /// Sends several lines (a newline added to each) in one write, and flushes them: a
    /// pipelined batch costs one system call, not one per line.
    pub fn send_lines<'a>(
        &mut self,
        lines: impl IntoIterator<Item = &'a str>,
    ) -> Result<(), EngineError> {
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(self.crash("the engine's input is closed"));
        };
        let mut bytes = Vec::new();
        for line in lines {
            bytes.extend_from_slice(line.as_bytes());
            bytes.push(b'\n');
        }
        let deadline = Instant::now() + self.write_limit;
        match write_without_sigpipe(stdin, &bytes, deadline) {
            Ok(()) => Ok(()),
            Err(e) if e.kind() == io::ErrorKind::TimedOut => {
                Err(EngineError::timeout(self.with_stderr(format!(
                    "the engine `{}` did not read its input within {} ({} bytes waiting to be \
                     written)",
                    self.program,
                    show_duration(self.write_limit),
                    bytes.len()
                ))))
            }
            Err(e) => {
                self.stdin = None;
                let why = if e.kind() == io::ErrorKind::BrokenPipe {
                    "the engine closed its input".to_string()
                } else {
                    format!("cannot write to the engine: {e}")
                };
                Err(self.crash(&why))
            }
        }
    }

    /// How many bytes may be written ahead, unread by the engine, with no write blocking: a
    /// quarter of what the pipe to its standard input holds (on Linux, as the kernel says;
    /// elsewhere the 4 KiB every pipe holds), so that lines spread over partly filled pages
    /// still fit. Sending no more than this before reading the answers cannot deadlock,
    /// however long the answers are and whether or not the engine reads on while they wait.
    pub fn input_headroom(&self) -> usize {
        #[cfg(any(target_os = "linux", target_os = "android"))]
        if let Some(stdin) = self.stdin.as_ref() {
            use std::os::fd::AsRawFd;
            // SAFETY: F_GETPIPE_SZ only reads the size of the pipe behind a descriptor this
            // process owns.
            let size = unsafe { libc::fcntl(stdin.as_raw_fd(), libc::F_GETPIPE_SZ) };
            if let Ok(size) = usize::try_from(size) {
                return size.max(4096) / 4;
            }
        }
        4096 / 4
    }

    /// Reads one line (without the newline, and without a carriage return before it), waiting
    /// at most `timeout` for it.
    ///
    /// Errors: [`ErrorKind::Timeout`](crate::conformance::ErrorKind::Timeout) if no line
    /// comes within `timeout`, unless the main process has exited by then (`Crash`, although
    /// a child still holds the output open); `Crash` at the end of output (the engine exited
    /// or closed it);
    /// `Protocol` for a line longer than `max_len` bytes (at most [`HARD_LINE_LIMIT`]) or not
    /// UTF-8.
    pub fn read_line(&mut self, timeout: Duration, max_len: usize) -> Result<String, EngineError> {
        if let Some(why) = self.ended.clone() {
            return Err(self.crash(&why));
        }
        match self.lines.next(Instant::now() + timeout) {
            Item::TimedOut => {
                // A child of the engine may hold standard output open after the main process
                // died (a forking engine, a wrapper's background job): the output never ends,
                // but the engine is gone, which is a crash and not a slow answer.
                if self.leader_exited() {
                    let why = format!(
                        "no answer within {}, and the main process had exited while another \
                         process kept its output open",
                        show_duration(timeout)
                    );
                    self.ended = Some(why.clone());
                    return Err(self.crash(&why));
                }
                let written = match self.lines.partial() {
                    0 => "it wrote nothing since its last line".to_string(),
                    n => format!("it wrote {n} bytes of a line without ending it"),
                };
                Err(EngineError::timeout(self.with_stderr(format!(
                    "the engine `{}` did not answer within {} ({written}; if it did answer, \
                     its reply may still sit in its output buffer: end every reply with a \
                     newline and flush standard output after it, e.g. print(..., flush=True) \
                     in Python)",
                    self.program,
                    show_duration(timeout)
                ))))
            }
            Item::Closed => {
                let why = "the engine closed its output".to_string();
                self.ended = Some(why.clone());
                Err(self.crash(&why))
            }
            Item::Line(mut bytes) => {
                if bytes.last() == Some(&b'\r') {
                    bytes.pop();
                }
                if bytes.len() > max_len {
                    return Err(EngineError::protocol(self.with_stderr(format!(
                        "the engine `{}` sent a line of {} bytes (at most {max_len} allowed)",
                        self.program,
                        bytes.len()
                    ))));
                }
                String::from_utf8(bytes).map_err(|_| {
                    EngineError::protocol(self.with_stderr(format!(
                        "the engine `{}` sent a line that is not UTF-8",
                        self.program
                    )))
                })
            }
            Item::TooLong(len) => Err(EngineError::protocol(self.with_stderr(format!(
                "the engine `{}` sent a line of more than {len} bytes (at most {} allowed)",
                self.program,
                max_len.min(HARD_LINE_LIMIT)
            )))),
            Item::Failed(e) => {
                let why = format!("cannot read from the engine: {e}");
                self.ended = Some(why.clone());
                Err(self.crash(&why))
            }
        }
    }

    /// The last bytes (at most [`STDERR_TAIL`]) the engine wrote on standard error, as text
    /// (invalid UTF-8 replaced), without surrounding white space.
    pub fn stderr_tail(&self) -> String {
        let Ok(tail) = self.stderr.lock() else {
            return String::new();
        };
        let (a, b) = tail.bytes.as_slices();
        let mut bytes = Vec::with_capacity(a.len() + b.len());
        bytes.extend_from_slice(a);
        bytes.extend_from_slice(b);
        String::from_utf8_lossy(&bytes).trim().to_string()
    }

    /// Whether the process has not exited yet. Does not reap it: its process group is killed
    /// before it is reaped (see [`EngineProcess::kill`]).
    pub fn is_running(&mut self) -> bool {
        self.reaped.is_none() && !self.leader_exited()
    }

    /// Kills the process and its whole process group on Unix, and reaps it. Also done on drop
    /// and after a crash; never panics, and does nothing to a process already reaped.
    ///
    /// The group is killed whether or not the main process is still running: the other
    /// members of the group (a wrapper's background job, a forking engine's child) outlive it
    /// otherwise.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.reap();
    }

    /// Kills the group and reaps the leader, once; how the leader ended.
    fn reap(&mut self) -> Option<ExitStatus> {
        if let Some(status) = self.reaped {
            return status;
        }
        let status = groups::kill_and_reap(&mut self.child).ok();
        self.reaped = Some(status);
        status
    }

    /// Whether the main process has exited, without reaping it (so that its pid, the id of
    /// its group, stays reserved until the group is killed).
    #[cfg(unix)]
    fn leader_exited(&mut self) -> bool {
        groups::exited(self.child.id())
    }

    #[cfg(not(unix))]
    fn leader_exited(&mut self) -> bool {
        !matches!(self.child.try_wait(), Ok(None))
    }

    /// A crash error: the message, the exit status if the engine has exited, and the tail of
    /// standard error. Waits a moment for both, since they come after the output closes. An
    /// engine whose main process has exited has its group killed and is reaped here.
    fn crash(&mut self, why: &str) -> EngineError {
        let deadline = Instant::now() + EXIT_GRACE;
        let exited = loop {
            if self.reaped.is_some() || self.leader_exited() {
                break true;
            }
            if Instant::now() >= deadline {
                break false;
            }
            thread::sleep(Duration::from_millis(5));
        };
        let status = if exited { self.reap() } else { None };
        while Instant::now() < deadline && !self.stderr.lock().map_or(true, |t| t.closed) {
            thread::sleep(Duration::from_millis(5));
        }
        let message = match status {
            Some(status) => format!("{why}: the engine `{}` exited ({status})", self.program),
            None => format!("{why} (the engine `{}`)", self.program),
        };
        EngineError::crash(self.with_stderr(message))
    }

    /// The message with the tail of standard error appended, if there is one.
    fn with_stderr(&self, message: String) -> String {
        let tail = self.stderr_tail();
        if tail.is_empty() {
            message
        } else {
            format!("{message} (stderr: {tail})")
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
}

impl std::fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineProcess")
            .field("program", &self.program)
            .field("pid", &self.child.id())
            .finish_non_exhaustive()
    }
}

/// A time limit for messages: `10 s`, `500 ms`, `1.5 s`.
pub(crate) fn show_duration(d: Duration) -> String {
    if d.as_millis().is_multiple_of(1000) {
        format!("{} s", d.as_secs())
    } else if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

/// How many bytes the pipes to and from an engine are asked to hold (Linux: the most an
/// unprivileged process may ask for by default).
#[cfg(any(target_os = "linux", target_os = "android"))]
const PIPE_BYTES: libc::c_int = 1024 * 1024;

/// Asks the kernel for a wider pipe than its 64 KiB, where it allows one: requests sent ahead
/// of their replies ([`crate::engines::jsonl`]) then go out in larger batches
/// ([`EngineProcess::input_headroom`]), and the engine writes a batch of replies without
/// waiting for each to be read, where a full pipe made it sleep and be woken at nearly every
/// reply. A refusal only leaves the pipe as it was.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn widen(pipe: &impl std::os::fd::AsRawFd) {
    // SAFETY: F_SETPIPE_SZ only resizes the buffer of a pipe this process owns an end of.
    unsafe {
        libc::fcntl(pipe.as_raw_fd(), libc::F_SETPIPE_SZ, PIPE_BYTES);
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn widen<T>(_pipe: &T) {}

/// The standard error thread: keeps the last [`STDERR_TAIL`] bytes.
fn keep_tail(mut stderr: impl Read, tail: &Mutex<Tail>) {
    let mut buffer = [0u8; 4096];
    loop {
        let n = match stderr.read(&mut buffer) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        };
        let Ok(mut tail) = tail.lock() else {
            return;
        };
        tail.bytes.extend(&buffer[..n]);
        let excess = tail.bytes.len().saturating_sub(STDERR_TAIL);
        tail.bytes.drain(..excess);
    }
    if let Ok(mut tail) = tail.lock() {
        tail.closed = true;
    }
}

/// Writes and flushes; on Linux with SIGPIPE blocked for the calling thread during the write,
/// and a SIGPIPE the write raised taken off the pending set, so a closed pipe is only an
/// `EPIPE` error even in a process that keeps the default action of the signal.
#[cfg(any(target_os = "linux", target_os = "android"))]
fn write_without_sigpipe(
    stdin: &mut ChildStdin,
    bytes: &[u8],
    deadline: Instant,
) -> io::Result<()> {
    // SAFETY: the signal sets are initialised by sigemptyset before use; pthread_sigmask,
    // sigpending and sigtimedwait only read and write those local sets, and the old mask is
    // restored before returning.
    unsafe {
        let mut pipe_only: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pipe_only);
        libc::sigaddset(&mut pipe_only, libc::SIGPIPE);
        let mut pending: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut pending);
        libc::sigpending(&mut pending);
        let already_pending = libc::sigismember(&pending, libc::SIGPIPE) == 1;
        let mut old: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut old);
        let blocked = libc::pthread_sigmask(libc::SIG_BLOCK, &pipe_only, &mut old) == 0;
        let result = write_all_by(stdin, bytes, deadline);
        if blocked {
            let broken = matches!(&result, Err(e) if e.kind() == io::ErrorKind::BrokenPipe);
            if broken && !already_pending {
                let now = libc::timespec {
                    tv_sec: 0,
                    tv_nsec: 0,
                };
                while libc::sigtimedwait(&pipe_only, std::ptr::null_mut(), &now) == -1
                    && io::Error::last_os_error().kind() == io::ErrorKind::Interrupted
                {
                }
            }
            libc::pthread_sigmask(libc::SIG_SETMASK, &old, std::ptr::null_mut());
        }
        result
    }
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
fn write_without_sigpipe(
    stdin: &mut ChildStdin,
    bytes: &[u8],
    deadline: Instant,
) -> io::Result<()> {
    write_all_by(stdin, bytes, deadline)
}

/// Writes all of `bytes` to the engine's input (non-blocking on Unix), waiting for room with
/// poll(2) until `deadline`, past which it is a `TimedOut` error.
#[cfg(unix)]
fn write_all_by(stdin: &mut ChildStdin, bytes: &[u8], deadline: Instant) -> io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags};
    let mut rest = bytes;
    while !rest.is_empty() {
        match stdin.write(rest) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            Ok(n) => rest = &rest[n..],
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                let left = deadline.saturating_duration_since(Instant::now());
                if left.is_zero() {
                    return Err(io::ErrorKind::TimedOut.into());
                }
                let timeout = poll_timeout(left);
                let mut fds = [PollFd::new(&*stdin, PollFlags::OUT)];
                match poll(&mut fds, Some(&timeout)) {
                    Ok(_) | Err(rustix::io::Errno::INTR) => {}
                    Err(e) => return Err(e.into()),
                }
            }
            Err(e) => return Err(e),
        }
    }
    Ok(())
}

/// A wait of `left` as poll(2) takes it.
#[cfg(unix)]
fn poll_timeout(left: Duration) -> rustix::event::Timespec {
    rustix::event::Timespec {
        tv_sec: left.as_secs().min(i64::MAX as u64) as i64,
        tv_nsec: left.subsec_nanos().into(),
    }
}

#[cfg(not(unix))]
fn write_all_by(stdin: &mut ChildStdin, bytes: &[u8], _deadline: Instant) -> io::Result<()> {
    stdin.write_all(bytes).and_then(|()| stdin.flush())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;
    use crate::conformance::ErrorKind;

    fn sh(script: &str) -> EngineProcess {
        EngineProcess::spawn("sh", &["-c".to_string(), script.to_string()]).unwrap()
    }

    #[test]
    fn lines_round_trip() {
        let mut p = sh("while read l; do echo \"got $l\"; done");
        p.send_line("one").unwrap();
        assert_eq!(p.read_line(Duration::from_secs(5), 100).unwrap(), "got one");
        assert!(p.is_running());
        p.kill();
        assert!(!p.is_running());
    }

    /// Whether `pid` names a live (not zombie) process, by signal 0 and `/proc` where there is
    /// one. Only for pids of processes these tests started.
    fn alive(pid: libc::pid_t) -> bool {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, rest)| rest.trim_start().starts_with('Z'));
        // SAFETY: signal 0 only checks that the process exists.
        unsafe { libc::kill(pid, 0) == 0 && !zombie }
    }

    #[test]
    fn the_group_is_killed_even_after_the_main_process_exited() {
        let mut p = sh("sleep 600 & echo $!; exit 0");
        let job: libc::pid_t = p
            .read_line(Duration::from_secs(30), 100)
            .unwrap()
            .parse()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(30);
        while p.is_running() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        // Asking did not reap the main process, so its group id is still the engine's.
        assert!(!p.is_running());
        assert!(alive(job));
        p.kill();
        let deadline = Instant::now() + Duration::from_secs(30);
        while alive(job) && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        assert!(!alive(job), "the background job {job} outlived the engine");
    }

    #[test]
    fn a_missing_program_is_a_crash() {
        let e = EngineProcess::spawn("/nonexistent/engine", &[]).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Crash);
        assert!(e.message.contains("/nonexistent/engine"), "{}", e.message);
    }

    #[test]
    fn silence_is_a_timeout_and_an_exit_a_crash_with_stderr() {
        let mut p = sh("read l; echo 'dying now' >&2; exit 3");
        let e = p.read_line(Duration::from_millis(100), 100).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Timeout);
        p.send_line("x").unwrap();
        let e = p.read_line(Duration::from_secs(5), 100).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Crash, "{}", e.message);
        assert!(e.message.contains("dying now"), "{}", e.message);
        assert!(e.message.contains('3'), "{}", e.message);
        // Writing to the dead engine is an error, not a signal.
        let mut failed = false;
        for _ in 0..50 {
            if p.send_line("more").is_err() {
                failed = true;
                break;
            }
        }
        assert!(failed);
    }

    /// An engine that stops reading its input while more is written to it is a timeout at
    /// the write, not a caller blocked for ever.
    #[test]
    fn an_engine_that_does_not_read_is_a_timeout_at_the_write() {
        let mut p = sh("sleep 30");
        p.set_write_limit(Duration::from_millis(300));
        let line = "x".repeat(64 * 1024);
        let started = Instant::now();
        let e = loop {
            match p.send_line(&line) {
                Ok(()) => assert!(started.elapsed() < Duration::from_secs(20), "never full"),
                Err(e) => break e,
            }
        };
        assert_eq!(e.kind, ErrorKind::Timeout, "{}", e.message);
        assert!(
            e.message.contains("did not read its input within 300 ms"),
            "{}",
            e.message
        );
        assert!(started.elapsed() < Duration::from_secs(20));
    }

    #[test]
    fn long_lines_and_bad_bytes_are_protocol_errors() {
        let mut p = sh("printf 'abcdefghij\\n\\377\\376\\nok\\r\\n'; sleep 5");
        let e = p.read_line(Duration::from_secs(5), 5).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol);
        let e = p.read_line(Duration::from_secs(5), 5).unwrap_err();
        assert_eq!(e.kind, ErrorKind::Protocol);
        assert_eq!(p.read_line(Duration::from_secs(5), 5).unwrap(), "ok");
    }

    #[test]
    fn the_stderr_tail_is_bounded() {
        let mut p = sh("head -c 20000 /dev/zero | tr '\\0' x >&2; echo done >&2; echo out");
        assert_eq!(p.read_line(Duration::from_secs(5), 10).unwrap(), "out");
        let deadline = Instant::now() + Duration::from_secs(5);
        while !p.stderr_tail().ends_with("done") && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        let tail = p.stderr_tail();
        assert!(tail.ends_with("done"), "{tail}");
        assert!(tail.len() <= STDERR_TAIL);
    }
}

/// Splits an engine's command line (`--engine gtp:...`, `jsonl:...`) into the program and its
/// arguments, as a POSIX shell would without variables or globbing (the `shlex` crate's
/// reading: quotes, backslashes and `#` comments).
pub fn split_command(line: &str) -> Result<(String, Vec<String>), String> {
    let mut words = shlex::split(line)
        .ok_or_else(|| {
            "a quote is not closed, or the command line ends with a backslash".to_string()
        })?
        .into_iter();
    let program = words
        .next()
        .ok_or_else(|| "the command line is empty".to_string())?;
    Ok((program, words.collect()))
}
