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
pub mod process;
pub mod protocol;
pub mod serve;

pub use gtp::{gnugo_profiles, profile_by_name, GtpEngine, GtpProfile};
pub use process::EngineProcess;
