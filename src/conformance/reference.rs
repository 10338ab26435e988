//! The reference executor behind the [`Referee`] trait, exactly as any other engine would be.

use super::{Capabilities, EngineError, EngineInfo, Observation, Referee, Unsupported};
use crate::game::{Event, Game, Refereed, Setup, Verdict};
use crate::rules::Rules;

/// The reference executor as a [`Referee`]: a [`Game`] inside the referee's record
/// ([`Refereed`]), so that violations standing on the board can be ruled on too.
#[derive(Default)]
pub struct Reference {
    game: Option<Refereed>,
}

impl Reference {
    /// The reference with no game yet; [`Referee::start`](super::Referee::start) begins one.
    pub fn new() -> Reference {
        Reference::default()
    }

    /// The game in progress, if one was started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref().map(Refereed::game)
    }

    /// The referee's record, with the grounds of the last ruling.
    pub fn refereed(&self) -> Option<&Refereed> {
        self.game.as_ref()
    }

    /// Forgets the standing bans of a confirmation's ko rule: for the mutant that breaks
    /// Japanese 1989 Article 7(2). No rule calls for it.
    #[doc(hidden)]
    pub fn forget_confirmation_bans(&mut self) {
        if let Some(game) = &mut self.game {
            game.forget_confirmation_bans();
        }
    }
}

impl Referee for Reference {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: "goconform-reference".to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        // The last trial's game lends its storage to the next one.
        let game = match self.game.take() {
            Some(spare) => Refereed::new_reusing(*rules, setup, spare),
            None => Refereed::new(*rules, setup),
        };
        self.game = Some(game.map_err(|e| Unsupported(e.to_string()))?);
        Ok(())
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| EngineError::protocol("apply before start"))?;
        Ok(game.apply(event.clone()))
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::everything()
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        let Some(game) = self.game() else {
            return (None, None);
        };
        if game.resigned().is_some() || game.cycled().is_some() {
            // No count: a resignation or a repetition decided the game.
            (Some(game.result()), None)
        } else {
            let count = game.count();
            (Some(count.result()), Some(count.total))
        }
    }

    fn observe(&self) -> Observation {
        let Some(refereed) = &self.game else {
            return Observation::default();
        };
        let game = refereed.game();
        let board = game.board();
        let stones = board.stones_by_point();
        Observation {
            stones: Some(stones),
            to_move: Some(game.to_move()),
            prisoners: Some([
                game.prisoners(crate::board::Color::Black),
                game.prisoners(crate::board::Color::White),
            ]),
            phase: Some(game.phase()),
            result: None,
            score: None,
            warnings: Some(refereed.warnings()),
        }
    }
}
