//! Time controls, and whether one is acceptable for a rated game (AGA Tournament Rules VI.E.1,
//! VI.E.14).
//!
//! Times are whole milliseconds. Japanese byo-yomi follows VI.E.14.b.(1) as written: the
//! periods are carved out of the basic time, so `main` 30:00 with ten periods of 0:30 enters
//! byo-yomi with 5:00 left on the clock. (Many clocks add the periods on top instead; such a
//! control is written here with the periods added to `main`.)
//!
//! E.1 asks for at least 30 minutes of basic time with overtime "no more than the equivalent of
//! 20 moves in five minutes", or at least 45 minutes without overtime. We read the overtime
//! bound as an average pace: a control may demand at most one move per 15 seconds. Canadian
//! overtime is judged by its period over its stones, byo-yomi and second counting by their
//! time per move. Whether ten periods of 15 seconds are truly "equivalent" to 20 moves in five
//! minutes (which lets one move take four minutes) the text leaves open; this reading accepts
//! them.

use std::fmt;

/// What follows the basic time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Overtime {
    /// Absolute time: the basic time is all there is.
    None,
    /// VI.E.14.b: `periods` periods of `period` ms each, carved out of the basic time.
    Byoyomi {
        /// How many periods (typically ten, VI.E.14.b.(1)); running out of the last one
        /// loses (b.(4)).
        periods: u32,
        /// The length of one period, in ms: a move within it costs nothing, each full
        /// period's worth used costs one period.
        period: u64,
    },
    /// VI.E.14.c: `stones` stones in `period` ms, counted out again and again.
    Canadian {
        /// Stones to play in each period.
        stones: u32,
        /// The time each period gives, in ms, reset when its stones are played.
        period: u64,
    },
    /// VI.E.14.a: every move within `per_move` ms.
    SecondCounting {
        /// The time each move may take, in ms; a move taking longer loses.
        per_move: u64,
    },
}

/// A time control for each player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The basic time, in ms.
    pub main: u64,
    /// What follows the basic time, if anything.
    pub overtime: Overtime,
}

/// Why a time control makes no sense at all.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ControlError {
    /// Byo-yomi periods longer together than the basic time they are carved out of.
    #[error("byo-yomi of {periods} period(s) of {} does not fit in basic time {}: VI.E.14.b.(1) takes the periods out of the basic time", Clock(*.period), Clock(*.main))]
    PeriodsExceedMain {
        /// The basic time, in ms.
        main: u64,
        /// The number of periods.
        periods: u32,
        /// The length of one period, in ms.
        period: u64,
    },
    /// Overtime of no periods, no stones or no time: no move could ever be made in it.
    #[error("an overtime period must last longer than zero and hold at least one move")]
    EmptyOvertime,
}

/// The E.1 floor for basic time with overtime: 30 minutes.
pub const MIN_MAIN_WITH_OVERTIME: u64 = 30 * 60 * 1000;
/// The E.1 floor for basic time without overtime: 45 minutes.
pub const MIN_MAIN_ABSOLUTE: u64 = 45 * 60 * 1000;
/// The E.1 pace: 20 moves in five minutes, one move per 15 seconds.
pub const MIN_MS_PER_MOVE: u64 = 5 * 60 * 1000 / 20;

impl TimeControl {
    /// Checks that the control can be played at all.
    pub fn validate(&self) -> Result<(), ControlError> {
        match self.overtime {
            Overtime::None => Ok(()),
            Overtime::Byoyomi { periods, period } => {
                if periods == 0 || period == 0 {
                    Err(ControlError::EmptyOvertime)
                } else if u64::from(periods).saturating_mul(period) > self.main {
                    Err(ControlError::PeriodsExceedMain {
                        main: self.main,
                        periods,
                        period,
                    })
                } else {
                    Ok(())
                }
            }
            Overtime::Canadian { stones, period } if stones == 0 || period == 0 => {
                Err(ControlError::EmptyOvertime)
            }
            Overtime::SecondCounting { per_move: 0 } => Err(ControlError::EmptyOvertime),
            _ => Ok(()),
        }
    }

    /// The basic time before overtime begins: under byo-yomi, the basic time less the periods.
    pub fn before_overtime(&self) -> u64 {
        match self.overtime {
            Overtime::Byoyomi { periods, period } => self
                .main
                .saturating_sub(u64::from(periods).saturating_mul(period)),
            _ => self.main,
        }
    }

    /// VI.E.1: whether the AGA accepts this control for rated games; `Err` says why not.
    pub fn rated(&self) -> Result<(), String> {
        let pace = |ms_per_move_times_moves: u64, moves: u64, what: &str| {
            if ms_per_move_times_moves >= MIN_MS_PER_MOVE.saturating_mul(moves) {
                Ok(())
            } else {
                Err(format!(
                    "{what} demands more than 20 moves in five minutes (one move per 0:15)"
                ))
            }
        };
        match self.overtime {
            Overtime::None => {
                if self.main >= MIN_MAIN_ABSOLUTE {
                    Ok(())
                } else {
                    Err(format!(
                        "basic time {} without overtime is under 45:00",
                        Clock(self.main)
                    ))
                }
            }
            overtime => {
                if self.main < MIN_MAIN_WITH_OVERTIME {
                    return Err(format!(
                        "basic time {} with overtime is under 30:00",
                        Clock(self.main)
                    ));
                }
                match overtime {
                    Overtime::Canadian { stones, period } => pace(
                        period,
                        u64::from(stones),
                        &format!("{stones} stones in {}", Clock(period)),
                    ),
                    Overtime::Byoyomi { period, .. } => {
                        pace(period, 1, &format!("byo-yomi of {}", Clock(period)))
                    }
                    Overtime::SecondCounting { per_move } => pace(
                        per_move,
                        1,
                        &format!("second counting of {}", Clock(per_move)),
                    ),
                    Overtime::None => Ok(()),
                }
            }
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} basic", Clock(self.main))?;
        match self.overtime {
            Overtime::None => write!(f, ", no overtime"),
            Overtime::Byoyomi { periods, period } => {
                write!(f, " including byo-yomi of {periods} x {}", Clock(period))
            }
            Overtime::Canadian { stones, period } => {
                write!(f, ", then Canadian {stones} stones in {}", Clock(period))
            }
            Overtime::SecondCounting { per_move } => {
                write!(f, ", then {} per move", Clock(per_move))
            }
        }
    }
}

/// A duration in ms shown as a clock face: `m:ss`, `h:mm:ss`, with `.mmm` when not whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock(pub u64);

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = self.0 % 1000;
        let s = self.0 / 1000;
        let (h, m, s) = (s / 3600, s / 60 % 60, s % 60);
        if h > 0 {
            write!(f, "{h}:{m:02}:{s:02}")?;
        } else {
            write!(f, "{m}:{s:02}")?;
        }
        if ms != 0 {
            write!(f, ".{ms:03}")?;
        }
        Ok(())
    }
}

/// Reads `90`, `1:30`, `1:02:03` and `1:30.5` as milliseconds; `None` for anything else
/// (negative times and times beyond [`MAX_DURATION`] included).
pub fn parse_duration(text: &str) -> Option<u64> {
    let text = text.trim();
    let (whole, fraction) = match text.split_once('.') {
        Some((w, f)) => (w, f),
        None => (text, ""),
    };
    if fraction.len() > 3 || !fraction.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let ms_part: u64 = if fraction.is_empty() {
        0
    } else {
        format!("{fraction:0<3}").parse().ok()?
    };
    let parts: Vec<&str> = whole.split(':').collect();
    if parts.is_empty() || parts.len() > 3 {
        return None;
    }
    let mut seconds: u64 = 0;
    for (i, part) in parts.iter().enumerate() {
        if part.is_empty() || !part.chars().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let n: u64 = part.parse().ok()?;
        if i > 0 && n >= 60 {
            return None;
        }
        seconds = seconds.checked_mul(60)?.checked_add(n)?;
    }
    seconds
        .checked_mul(1000)?
        .checked_add(ms_part)
        .filter(|ms| *ms <= MAX_DURATION)
}

/// The longest time read: ten thousand hours, far beyond any game, and small enough that no
/// sum of a few of them overflows.
pub const MAX_DURATION: u64 = 10_000 * 3600 * 1000;

#[cfg(test)]
mod tests {
    use super::*;

    const MIN: u64 = 60_000;

    #[test]
    fn durations_read_and_print() {
        assert_eq!(parse_duration("90"), Some(90_000));
        assert_eq!(parse_duration("1:30"), Some(90_000));
        assert_eq!(parse_duration("1:02:03"), Some(3_723_000));
        assert_eq!(parse_duration("0:01.5"), Some(1_500));
        for bad in [
            "", "-5", "1:60", "a", "1::2", "1.2345", "1:2:3:4", "36000001",
        ] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
        assert_eq!(Clock(3_723_000).to_string(), "1:02:03");
        assert_eq!(Clock(90_500).to_string(), "1:30.500");
    }

    #[test]
    fn e1_floors_and_pace() {
        let c = |main: u64, overtime| TimeControl { main, overtime };
        assert!(c(45 * MIN, Overtime::None).rated().is_ok());
        assert!(c(44 * MIN, Overtime::None).rated().is_err());
        let canadian = |stones, period| Overtime::Canadian { stones, period };
        assert!(c(30 * MIN, canadian(20, 5 * MIN)).rated().is_ok());
        assert!(c(30 * MIN, canadian(21, 5 * MIN)).rated().is_err());
        assert!(c(29 * MIN, canadian(20, 5 * MIN)).rated().is_err());
        assert!(c(30 * MIN, canadian(10, 3 * MIN)).rated().is_ok());
    }
}
