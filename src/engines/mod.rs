//! Engines outside this process, each behind [`crate::conformance::Referee`].
//!
//! [`process`] is the child-process core every out-of-process engine shares: lines in and
//! out with time limits, the tail of standard error kept for error messages, and a kill that
//! never fails. [`gtp`] drives any GTP version 2 engine (with profiles for GNU Go 3.8);
//! [`jsonl`] drives an engine that speaks the JSON-lines protocol of [`protocol`], and
//! [`serve`] is that protocol's engine side.

#[cfg(feature = "goban")]
pub mod goban;
pub mod gtp;
pub mod jsonl;
pub mod lines;
pub mod process;
pub mod profile;
pub mod protocol;
pub(crate) mod replay;
pub mod serve;

pub use gtp::{gnugo_profiles, profile_by_name, GtpEngine, GtpProfile};
pub use process::EngineProcess;

use crate::board::{Color, Point};
use crate::game::Verdict;
use crate::scenario::Stones;

/// The verdict on a legal play by `color` at `p`, read from the boards before and after it:
/// for engines that show the board but not what a play removed (GTP, the goban crate). The
/// played stone was not on the board before, so if it is missing after, it went with its own
/// string.
pub(crate) fn play_verdict_from_boards(
    before: &Stones,
    after: &Stones,
    color: Color,
    p: Point,
) -> Verdict {
    let after: std::collections::BTreeSet<(Point, Color)> = after.iter().copied().collect();
    let removed = |owner: Color| -> Vec<Point> {
        let mut points: Vec<Point> = before
            .iter()
            .filter(|&&(q, c)| c == owner && !after.contains(&(q, c)))
            .map(|&(q, _)| q)
            .collect();
        points.sort();
        points
    };
    let captured = removed(color.opponent());
    let mut self_captured = removed(color);
    if !after.contains(&(p, color)) {
        self_captured.push(p);
        self_captured.sort();
    }
    Verdict::Legal {
        captured,
        self_captured,
    }
}
