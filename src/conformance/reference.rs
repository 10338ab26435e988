//! The reference executor behind the [`Referee`] trait, exactly as any other engine would be.

use super::{EngineError, EngineInfo, Observation, Referee, Unsupported};
use crate::game::{Event, Game, Setup, Verdict};
use crate::rules::Rules;

/// The reference executor ([`Game`]) as a [`Referee`].
#[derive(Default)]
pub struct Reference {
    game: Option<Game>,
}

impl Reference {
    pub fn new() -> Reference {
        Reference::default()
    }

    /// The game in progress, if one was started.
    pub fn game(&self) -> Option<&Game> {
        self.game.as_ref()
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
        let game = Game::new(*rules, setup).map_err(|e| Unsupported(e.to_string()))?;
        self.game = Some(game);
        Ok(())
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let game = self
            .game
            .as_mut()
            .ok_or_else(|| EngineError("apply before start".to_string()))?;
        Ok(game.apply(event.clone()))
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        let Some(game) = &self.game else {
            return (None, None);
        };
        match game.resigned() {
            Some(_) => (Some(game.result()), None),
            None => {
                let count = game.count();
                (Some(count.result()), Some(count.total))
            }
        }
    }

    fn observe(&self) -> Observation {
        let Some(game) = &self.game else {
            return Observation::default();
        };
        let board = game.board();
        let mut stones = board.stones();
        stones.sort();
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
        }
    }
}
