//! An implementation with its announcements hidden, so that every event is its own exchange:
//! the baseline the pipelined and batched engines are measured and checked against.

use super::{Capabilities, EngineError, EngineInfo, Observation, Referee, Unsupported};
use crate::game::{Event, Setup, Verdict};
use crate::rules::Rules;

/// Forwards everything to the implementation inside except [`Referee::announce`].
pub struct OneAtATime(pub Box<dyn Referee>);

impl Referee for OneAtATime {
    fn info(&self) -> EngineInfo {
        self.0.info()
    }
    fn capabilities(&self) -> Capabilities {
        self.0.capabilities()
    }
    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.0.start(rules, setup)
    }
    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        self.0.apply(event)
    }
    fn observe(&self) -> Observation {
        self.0.observe()
    }
    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.0.count()
    }
}
