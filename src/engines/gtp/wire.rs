//! The GTP wire: one command out with its id, its answer read back within a time limit and a
//! size limit, and every way an engine can break the exchange (a hang, a crash, garbage, an
//! answer of another id) turned into an [`EngineError`]. Shared by every GTP client here: the
//! bridge behind `Referee` ([`super::GtpEngine`]) and the referee's players.

use std::time::{Duration, Instant};

use crate::board::Color;
use crate::conformance::{EngineError, ErrorKind};
use crate::engines::process::{show_duration, EngineProcess};

/// A GTP answer: the text of `=` or of `?`.
pub type Answer = Result<String, String>;

/// Sends one GTP command with id `id` and reads its answer within `timeout`: `Ok(Ok(text))`
/// for `=`, `Ok(Err(text))` for `?`, an error for a process that hangs, dies, answers more
/// than `max_answer` bytes, or answers something that is not GTP (no `=`/`?`, another id).
/// Shared by every GTP client here: the bridge behind `Referee` and the referee's players.
pub fn exchange(
    process: &mut EngineProcess,
    id: u32,
    command: &str,
    timeout: Duration,
    max_answer: usize,
) -> Result<Answer, EngineError> {
    send(process, id, command)?;
    read_answer(process, id, command, timeout, max_answer)
}

/// Sends one GTP command with id `id`, without waiting for its answer.
pub(super) fn send(process: &mut EngineProcess, id: u32, command: &str) -> Result<(), EngineError> {
    process
        .send_line(&format!("{id} {command}"))
        .map_err(|e| EngineError {
            kind: e.kind,
            message: format!("`{command}`: {}", e.message),
        })
}

/// Reads the answer to the command sent with id `id`, within `timeout`; see [`exchange`].
pub(super) fn read_answer(
    process: &mut EngineProcess,
    id: u32,
    command: &str,
    timeout: Duration,
    max_answer: usize,
) -> Result<Answer, EngineError> {
    let context = |e: EngineError| match e.kind {
        ErrorKind::Timeout => {
            let tail = process_tail(&e.message);
            EngineError::timeout(format!(
                "the engine did not answer `{command}` within {}{tail}",
                show_duration(timeout)
            ))
        }
        _ => EngineError {
            kind: e.kind,
            message: format!("`{command}`: {}", e.message),
        },
    };
    // No deadline for a time limit too large to add to the clock.
    let deadline = Instant::now().checked_add(timeout);
    let mut total = 0usize;
    let mut lines: Vec<String> = Vec::new();
    loop {
        let left = deadline.map_or(timeout, |d| d.saturating_duration_since(Instant::now()));
        let budget = max_answer.saturating_sub(total);
        let line = match process.read_line(left, budget) {
            Ok(line) => line,
            Err(e) => return Err(context(e)),
        };
        total += line.len() + 1;
        if total > max_answer {
            return Err(EngineError::protocol(with_tail(
                format!("`{command}`: the answer is longer than {max_answer} bytes"),
                process,
            )));
        }
        if line.trim().is_empty() {
            if lines.is_empty() {
                continue; // blank lines before an answer are tolerated
            }
            break;
        }
        lines.push(line);
    }
    let first = &lines[0];
    let (success, rest) = match first.chars().next() {
        Some('=') => (true, &first[1..]),
        Some('?') => (false, &first[1..]),
        _ => {
            let shown: String = first.chars().take(80).collect();
            return Err(EngineError::protocol(with_tail(
                format!("`{command}`: the answer does not start with `=` or `?`: `{shown}`"),
                process,
            )));
        }
    };
    let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits > 0 && rest[..digits].parse::<u64>().ok() != Some(u64::from(id)) {
        return Err(EngineError::protocol(with_tail(
            format!(
                "`{command}`: the answer carries the id {} instead of {id}",
                &rest[..digits]
            ),
            process,
        )));
    }
    let mut text = rest[digits..].trim().to_string();
    for line in &lines[1..] {
        text.push('\n');
        text.push_str(line);
    }
    Ok(if success { Ok(text) } else { Err(text) })
}

/// The GTP command that lists one colour's stones.
pub(super) fn list_stones(color: Color) -> String {
    format!("list_stones {}", color.name())
}

/// ` (stderr: ...)` from a process error message, to keep on a rewritten one.
pub(super) fn process_tail(message: &str) -> String {
    message
        .find(" (stderr: ")
        .map_or(String::new(), |i| message[i..].to_string())
}

pub(super) fn with_tail(message: String, process: &EngineProcess) -> String {
    let tail = process.stderr_tail();
    if tail.is_empty() {
        message
    } else {
        format!("{message} (stderr: {tail})")
    }
}
