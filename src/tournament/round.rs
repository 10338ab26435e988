//! Starting a round (AGA Tournament Rules VI.E.3).
//!
//! The TD may start a round after giving at least ten minutes' notice, and never before a start
//! time already announced. Times are milliseconds on one clock of the day; exactly ten minutes'
//! notice is enough ("at least").

/// Ten minutes, the least notice E.3 allows.
pub const MIN_NOTICE: u64 = 10 * 60 * 1000;

/// Why a round may not start then.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RoundStartError {
    /// Less than [`MIN_NOTICE`] between the notice and the start.
    #[error("the notice came less than ten minutes before the start")]
    ShortNotice,
    /// The start is before a time already announced: E.3 lets a round start late with
    /// notice, never early.
    #[error("the start is earlier than the time already announced")]
    BeforeAnnounced,
    /// The notice is dated after the start it announces.
    #[error("the notice comes after the start")]
    NoticeAfterStart,
}

/// Whether a round may start at `start`, notice given at `notice`, with a start time already
/// announced (`announced`) or not.
pub fn may_start(announced: Option<u64>, notice: u64, start: u64) -> Result<(), RoundStartError> {
    if notice > start {
        return Err(RoundStartError::NoticeAfterStart);
    }
    if announced.is_some_and(|a| start < a) {
        return Err(RoundStartError::BeforeAnnounced);
    }
    if start - notice < MIN_NOTICE {
        return Err(RoundStartError::ShortNotice);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    #[test]
    fn ten_minutes_notice_and_not_before_the_announced_time() {
        assert_eq!(may_start(None, 0, 10 * MIN), Ok(()));
        assert_eq!(
            may_start(None, 0, 9 * MIN),
            Err(RoundStartError::ShortNotice)
        );
        assert_eq!(
            may_start(Some(30 * MIN), 0, 20 * MIN),
            Err(RoundStartError::BeforeAnnounced)
        );
        assert_eq!(may_start(Some(30 * MIN), 0, 30 * MIN), Ok(()));
    }
}
