//! An engine's standard output, line by line, every wait bounded by a deadline.
//!
//! On Unix the caller's own thread reads: bytes gather in a buffer until a newline, and each
//! wait for more is `poll(2)` on the pipe with the time left. A reply costs the system calls
//! that carry it (a poll and a read), where a reader thread handing each line over a channel
//! cost a thread wake-up and a futex call per line on both sides; the engine's output is read
//! only while the caller waits for it, so an engine that floods its output blocks on its full
//! pipe instead of filling our memory. Elsewhere a reader thread feeds the lines into a bounded
//! channel the caller waits on with a timeout.
//!
//! Either way a line longer than [`HARD_LINE_LIMIT`] is skipped to its end and reported as too
//! long, and a last line without a newline at the end of output still counts.

use std::process::ChildStdout;
use std::time::Instant;

use super::{Item, HARD_LINE_LIMIT};

/// Read at most this many bytes a system call.
#[cfg(unix)]
const CHUNK: usize = 64 * 1024;

/// Standard output, read on the calling thread.
#[cfg(unix)]
pub(super) struct Output {
    stdout: ChildStdout,
    /// What one read fills (zeroed once, not at every read), copied into `buffer`.
    chunk: Vec<u8>,
    /// Bytes read and not handed out yet: `buffer[start..]`.
    buffer: Vec<u8>,
    start: usize,
    /// How far from `start` the buffer is known to hold no newline.
    scanned: usize,
    /// A line past [`HARD_LINE_LIMIT`] being skipped: its length so far.
    too_long: Option<usize>,
    /// The end of output (or a failed read) has been met.
    closed: bool,
}

#[cfg(unix)]
impl Output {
    pub(super) fn new(stdout: ChildStdout) -> std::io::Result<Output> {
        super::widen(&stdout);
        Ok(Output {
            stdout,
            chunk: vec![0; CHUNK],
            buffer: Vec::new(),
            start: 0,
            scanned: 0,
            too_long: None,
            closed: false,
        })
    }

    /// How many bytes of a line the engine has written without ending it, for the hint on a
    /// timeout.
    pub(super) fn partial(&self) -> usize {
        self.too_long.unwrap_or(self.buffer.len() - self.start)
    }

    /// The next line, or why there is none by `deadline`.
    pub(super) fn next(&mut self, deadline: Instant) -> Item {
        use std::io::Read;
        loop {
            let pending = &self.buffer[self.start..];
            if let Some(i) = memchr::memchr(b'\n', &pending[self.scanned..]) {
                let end = self.scanned + i;
                let line = pending[..end].to_vec();
                self.start += end + 1;
                self.scanned = 0;
                return match self.too_long.take() {
                    Some(len) => Item::TooLong(len + line.len()),
                    None => Item::Line(line),
                };
            }
            let len = pending.len();
            self.scanned = len;
            match self.too_long.as_mut() {
                Some(skipped) => {
                    *skipped += len;
                    self.drop_pending();
                }
                None if len > HARD_LINE_LIMIT => {
                    self.too_long = Some(len);
                    self.drop_pending();
                }
                None => {}
            }
            if self.closed {
                // What is left is a last line without a newline (a line being skipped has
                // been counted and dropped above).
                let rest = self.buffer.len() - self.start;
                return match self.too_long.take() {
                    Some(skipped) => Item::TooLong(skipped),
                    None if rest > 0 => Item::Line(self.buffer_take(rest)),
                    None => Item::Closed,
                };
            }
            if let Err(item) = self.wait(deadline) {
                return item;
            }
            // Readable (or at its end): one read, which does not block now.
            if self.start > 0 {
                self.buffer.drain(..self.start);
                self.start = 0;
            }
            match self.stdout.read(&mut self.chunk) {
                Ok(0) => self.closed = true,
                Ok(n) => self.buffer.extend_from_slice(&self.chunk[..n]),
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    self.closed = true;
                    return Item::Failed(e.to_string());
                }
            }
        }
    }

    /// Waits until standard output is readable (or at its end), or `deadline` passes.
    fn wait(&mut self, deadline: Instant) -> Result<(), Item> {
        use rustix::event::{poll, PollFd, PollFlags};
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let timeout = super::poll_timeout(left);
            let mut fds = [PollFd::new(&self.stdout, PollFlags::IN)];
            match poll(&mut fds, Some(&timeout)) {
                Ok(0) if left.is_zero() => return Err(Item::TimedOut),
                // Woken early (a timer's rounding): wait for the rest.
                Ok(0) => {}
                Ok(_) => return Ok(()),
                Err(rustix::io::Errno::INTR) => {}
                Err(e) => {
                    self.closed = true;
                    return Err(Item::Failed(std::io::Error::from(e).to_string()));
                }
            }
            if Instant::now() >= deadline {
                return Err(Item::TimedOut);
            }
        }
    }

    /// Forgets the bytes not handed out (counted in `too_long` by the caller).
    fn drop_pending(&mut self) {
        self.buffer.clear();
        self.start = 0;
        self.scanned = 0;
    }

    /// The last `len` bytes of the buffer, at the end of output.
    fn buffer_take(&mut self, len: usize) -> Vec<u8> {
        let line = self.buffer[self.buffer.len() - len..].to_vec();
        self.buffer.clear();
        self.start = 0;
        self.scanned = 0;
        line
    }
}

/// Standard output, read by a thread of its own into a bounded channel.
#[cfg(not(unix))]
pub(super) struct Output {
    lines: std::sync::mpsc::Receiver<Item>,
    /// How many bytes of a line the engine has written without ending it yet (kept by the
    /// reader thread).
    partial: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

#[cfg(not(unix))]
impl Output {
    pub(super) fn new(stdout: ChildStdout) -> std::io::Result<Output> {
        use std::sync::{atomic::AtomicUsize, mpsc, Arc};
        /// Lines read ahead of the caller before the reader thread waits.
        const READ_AHEAD: usize = 64;
        let (sender, lines) = mpsc::sync_channel(READ_AHEAD);
        let partial = Arc::new(AtomicUsize::new(0));
        let pending = Arc::clone(&partial);
        std::thread::Builder::new()
            .name("engine-stdout".to_string())
            .spawn(move || read_lines(stdout, &sender, &pending))?;
        Ok(Output { lines, partial })
    }

    pub(super) fn partial(&self) -> usize {
        self.partial.load(std::sync::atomic::Ordering::Relaxed)
    }

    pub(super) fn next(&mut self, deadline: Instant) -> Item {
        use std::sync::mpsc::RecvTimeoutError;
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(item) => item,
            Err(RecvTimeoutError::Timeout) => Item::TimedOut,
            Err(RecvTimeoutError::Disconnected) => Item::Closed,
        }
    }
}

/// The reader thread: standard output line by line into the channel, until the end of output,
/// a read error, or the receiver going away.
#[cfg(not(unix))]
fn read_lines(
    stdout: impl std::io::Read,
    sender: &std::sync::mpsc::SyncSender<Item>,
    partial: &std::sync::atomic::AtomicUsize,
) {
    use std::io::{BufRead, BufReader};
    use std::sync::atomic::Ordering;
    let mut reader = BufReader::new(stdout);
    let mut line = Vec::new();
    let mut too_long: Option<usize> = None;
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) => break,
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = sender.send(Item::Failed(e.to_string()));
                return;
            }
        };
        let (taken, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = &chunk[..if complete { taken - 1 } else { taken }];
        match too_long.as_mut() {
            Some(len) => *len += body.len(),
            None if line.len() + body.len() > HARD_LINE_LIMIT => {
                too_long = Some(line.len() + body.len());
                line = Vec::new();
            }
            None => line.extend_from_slice(body),
        }
        reader.consume(taken);
        partial.store(
            if complete {
                0
            } else {
                too_long.unwrap_or(line.len())
            },
            Ordering::Relaxed,
        );
        if complete {
            let item = match too_long.take() {
                Some(len) => Item::TooLong(len),
                None => Item::Line(std::mem::take(&mut line)),
            };
            if sender.send(item).is_err() {
                return;
            }
        }
    }
    let last = match too_long {
        Some(len) => Some(Item::TooLong(len)),
        None => (!line.is_empty()).then_some(Item::Line(line)),
    };
    if let Some(item) = last {
        let _ = sender.send(item);
    }
}
