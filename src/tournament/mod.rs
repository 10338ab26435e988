//! Tournament rules around the game: ranks, handicaps and komi, colours, clocks, tiebreaks
//! (AGA Tournament Rules VI.A, VI.E, VI.F and "Resolving Ties"; London Open rule 1).
//!
//! Pure logic: no files, no TOML, no printing. The scenario layer reads crosstables, clock
//! event files and tournament scenarios and hands this module typed values; errors are
//! `thiserror` enums that the reader turns into located messages.

pub mod clock;
pub mod colour;
pub mod crosstable;
pub mod handicap;
pub mod rank;
pub mod round;
pub mod tiebreak;
pub mod time_control;
