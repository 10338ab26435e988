//! Time in a GTP session: `time_settings` and `kgs-time_settings` (controls checked by the
//! tournament layer's validator) and `time_left` (the controller's clock: under a control
//! without overtime, a flag that falls loses the game on time).

use super::*;

impl Engine<'_> {
    /// `time_settings MAIN BYO_YOMI STONES` (seconds, GTP's Canadian form: no overtime when
    /// BYO_YOMI is 0).
    pub(super) fn time_settings(&mut self, args: &[&str]) -> Answer {
        use crate::tournament::time_control::{Overtime, TimeControl};
        let [main, period, stones] = exactly::<3>(args)?;
        let number = |t: &str| {
            t.parse::<u64>()
                .map_err(|_| format!("not a number of seconds: `{t}`"))
        };
        let (main, period) = (number(main)?, number(period)?);
        let stones: u32 = stones
            .parse()
            .map_err(|_| format!("not a number of stones: `{stones}`"))?;
        let overtime = if period == 0 {
            Overtime::None
        } else if stones == 0 {
            return Err("a byo-yomi period needs at least one stone".to_string());
        } else {
            Overtime::Canadian {
                stones,
                period: period.saturating_mul(1000),
            }
        };
        self.set_time_control(TimeControl {
            main: main.saturating_mul(1000),
            overtime,
        })
    }

    /// `kgs-time_settings none|absolute MAIN|byoyomi MAIN PERIOD PERIODS|canadian MAIN PERIOD
    /// STONES` (seconds).
    pub(super) fn kgs_time_settings(&mut self, args: &[&str]) -> Answer {
        use crate::tournament::time_control::{Overtime, TimeControl};
        let number = |t: &str| t.parse::<u64>().map_err(|_| format!("not a number: `{t}`"));
        let control = match args {
            ["none"] => {
                self.time_control = None;
                return Ok(String::new());
            }
            ["absolute", main] => TimeControl {
                main: number(main)?.saturating_mul(1000),
                overtime: Overtime::None,
            },
            ["byoyomi", main, period, periods] => {
                let periods = u32::try_from(number(periods)?).map_err(|_| "too many periods".to_string())?;
                let period = number(period)?.saturating_mul(1000);
                // Our byo-yomi periods are carved out of the basic time (VI.E.14.b.(1)).
                TimeControl {
                    main: number(main)?
                        .saturating_mul(1000)
                        .saturating_add(u64::from(periods).saturating_mul(period)),
                    overtime: Overtime::Byoyomi { periods, period },
                }
            }
            ["canadian", main, period, stones] => TimeControl {
                main: number(main)?.saturating_mul(1000),
                overtime: Overtime::Canadian {
                    stones: u32::try_from(number(stones)?).map_err(|_| "too many stones".to_string())?,
                    period: number(period)?.saturating_mul(1000),
                },
            },
            _ => {
                return Err(
                    "syntax error: none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES"
                        .to_string(),
                )
            }
        };
        self.set_time_control(control)
    }

    pub(super) fn set_time_control(
        &mut self,
        control: crate::tournament::time_control::TimeControl,
    ) -> Answer {
        control.validate().map_err(|e| e.to_string())?;
        self.time_control = Some(control);
        self.time_left = [None, None];
        self.flagged = None;
        Ok(String::new())
    }

    /// `time_left COLOR SECONDS STONES`: the controller's clock. Under a control with no
    /// overtime, no time left means the flag has fallen: the game is lost on time and
    /// `final_score` says so (VI.E.11).
    pub(super) fn time_left_command(&mut self, args: &[&str]) -> Answer {
        use crate::tournament::time_control::Overtime;
        let [color, seconds, stones] = exactly::<3>(args)?;
        let color = parse_color(color)?;
        let seconds: u64 = seconds
            .parse()
            .map_err(|_| format!("not a number of seconds: `{seconds}`"))?;
        let stones: u32 = stones
            .parse()
            .map_err(|_| format!("not a number of stones: `{stones}`"))?;
        self.time_left[color.index()] = Some((seconds, stones));
        let absolute = self
            .time_control
            .is_some_and(|c| c.overtime == Overtime::None);
        if absolute && seconds == 0 && self.flagged.is_none() && self.game.phase() != Phase::Ended {
            self.flagged = Some(color);
        }
        Ok(String::new())
    }
}
