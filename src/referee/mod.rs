//! The referee between engines: matches of GTP engines played under a ruleset exactly, the
//! way the rules' own procedure runs a game (see [`game`] for every rule the referee applies
//! around the board).
//!
//! A face like `fuzzing`: it drives two engines in other processes ([`player`]) and the
//! reference executor's referee ([`crate::game::Refereed`]), with the tournament layer's
//! clock. It holds no rule of its own: legality, passes, pauses, disputes, the four-pass end,
//! White passing last and the count are the executor's.

pub mod game;
pub mod player;
pub mod scripted;

pub use game::{GameEnd, GameOptions, IllegalMoves, PlayedGame};

/// Wins, losses and the rest over a match, from Black's engine's side and White's.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games played.
    pub games: usize,
    /// Games won by the engine playing Black, and by the engine playing White.
    pub wins: [usize; 2],
    /// Games drawn (`RE` of `0`).
    pub draws: usize,
    /// Games with neither a winner nor a draw (a result such as `Void`).
    pub void: usize,
    /// Games decided by a fault or an illegal move, by the colour at fault.
    pub faults: [usize; 2],
    /// Games ended by counting.
    pub counted: usize,
    /// Games ended by a resignation.
    pub resignations: usize,
    /// Games ended by a flag falling.
    pub on_time: usize,
}

impl Tally {
    /// Counts one finished game in every column it belongs to.
    pub fn add(&mut self, game: &PlayedGame) {
        self.games += 1;
        match game.result.as_bytes().first() {
            Some(b'B') => self.wins[0] += 1,
            Some(b'W') => self.wins[1] += 1,
            Some(b'0') => self.draws += 1,
            _ => self.void += 1,
        }
        match &game.ending {
            GameEnd::Counted => self.counted += 1,
            GameEnd::Resignation(_) => self.resignations += 1,
            GameEnd::Time(_) => self.on_time += 1,
            GameEnd::IllegalMove(c, _) => self.faults[c.index()] += 1,
            GameEnd::Fault(f) => self.faults[f.color.index()] += 1,
            GameEnd::MoveLimit => {}
        }
    }
}

/// What the results table says of how a game ended.
pub fn ending_words(game: &PlayedGame) -> String {
    match &game.ending {
        GameEnd::Counted if game.dead.is_empty() => "counted".to_string(),
        GameEnd::Counted => format!("counted, {} stones agreed dead", game.dead.len()),
        GameEnd::Resignation(c) => format!("{} resigned", c.name()),
        GameEnd::Time(c) => format!("{}'s flag fell", c.name()),
        GameEnd::IllegalMove(c, reason) => format!("{} made an illegal move ({reason})", c.name()),
        GameEnd::Fault(f) => format!(
            "{}'s engine failed ({}): {}",
            f.color.name(),
            f.kind,
            f.message
        ),
        GameEnd::MoveLimit => "move limit".to_string(),
    }
}

/// A played game as an SGF record: the moves as they stood (an illegal move taken back as a
/// pass is the pass), every procedure event in words in the comment where it happened, the
/// agreed dead stones as territory marks, `RU`, `KM` and `RE`.
pub fn record(game: &PlayedGame, rules: &crate::rules::Rules, rules_name: &str) -> String {
    use crate::board::{Color, Move};
    use crate::game::{Event, Refereed, Ruling, Verdict};
    use crate::sgf::write::{write_record, Info, MoveNode};

    let mut nodes: Vec<MoveNode> = Vec::new();
    let mut root_comment: Vec<String> = Vec::new();
    let mut referee = Refereed::new(*rules, &game.setup).ok();
    for (index, event) in game.events.iter().enumerate() {
        let passed_before = referee.as_ref().and_then(|r| r.game().last_passer());
        let verdict = referee.as_mut().map(|r| r.apply(event.clone()));
        let passed_after = referee.as_ref().and_then(|r| r.game().last_passer());
        match event {
            Event::Move(color, mv) => nodes.push(MoveNode {
                color: *color,
                mv: *mv,
                comment: Vec::new(),
            }),
            Event::Notice { .. } => {
                let ruling = referee.as_ref().and_then(|r| r.report()).map(|r| r.ruling);
                if let (Some(Ruling::UnwindPass), Some(Verdict::Ruled(_))) = (ruling, &verdict) {
                    // The offender of the move just taken back passes instead.
                    let offender = game.events[..index].iter().rev().find_map(|e| match e {
                        Event::Breach(c, ..) => Some(*c),
                        _ => None,
                    });
                    if let Some(color) = offender {
                        nodes.push(MoveNode {
                            color,
                            mv: Move::Pass,
                            comment: Vec::new(),
                        });
                    }
                }
            }
            _ => {}
        }
        // White's extra pass (AGA Rule 11): the rules made it, not an engine, so no event
        // shows it; the record does, or a territory count from it is a pass stone short.
        let black_passed = matches!(event, Event::Move(Color::Black, Move::Pass))
            || passed_before == Some(Color::Black);
        if passed_after == Some(Color::White)
            && black_passed
            && !matches!(event, Event::Move(Color::White, Move::Pass))
        {
            nodes.push(MoveNode {
                color: Color::White,
                mv: Move::Pass,
                comment: vec![
                    "White's extra pass: White passes last when play stops with Black's pass (AGA Rule 11)".to_string(),
                ],
            });
        }
        for (_, text) in game.notes.iter().filter(|(at, _)| *at == index) {
            match nodes.last_mut() {
                Some(node) => node.comment.push(text.clone()),
                None => root_comment.push(text.clone()),
            }
        }
    }
    if let GameEnd::Fault(fault) = &game.ending {
        let words = format!(
            "{}'s engine failed ({}): {}; it forfeits the game",
            fault.color.name(),
            fault.kind,
            fault.message
        );
        match nodes.last_mut() {
            Some(node) => node.comment.push(words),
            None => root_comment.push(words),
        }
    }
    let komi = if game.setup.handicap.len() >= 2 {
        rules.handicap_komi
    } else {
        rules.komi
    };
    let before_agreement = {
        // The colours of the dead stones: from the board before they were removed.
        let mut replay = Refereed::new(*rules, &game.setup).ok();
        let mut colours = Vec::new();
        for event in &game.events {
            if let (Event::Agree(_), Some(r)) = (event, replay.as_ref()) {
                colours = game
                    .dead
                    .iter()
                    .filter_map(|p| r.game().board().get(*p).map(|c| (*p, c)))
                    .collect();
            }
            if let Some(r) = replay.as_mut() {
                r.apply(event.clone());
            }
        }
        colours
    };
    let info = Info {
        rules: Some(rules_name.to_string()),
        komi: Some(komi),
        result: Some(game.result.clone()),
        black: Some(game.names[0].clone()),
        white: Some(game.names[1].clone()),
        name: None,
        comment: root_comment,
        dead: before_agreement,
        kept: Vec::new(),
    };
    write_record(&game.setup, &nodes, &info)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::{Color, Move, Point};
    use crate::game::{Event, Setup};

    fn played(events: Vec<Event>) -> PlayedGame {
        PlayedGame {
            setup: Setup::empty(5, 5),
            events,
            notes: Vec::new(),
            result: "B+1.5".to_string(),
            ending: GameEnd::Counted,
            dead: Vec::new(),
            count: None,
            moves: 3,
            names: ["b".to_string(), "w".to_string()],
        }
    }

    fn passes(sgf: &str) -> Vec<&str> {
        sgf.match_indices("[]")
            .map(|(i, _)| &sgf[i - 1..i])
            .collect()
    }

    #[test]
    fn the_record_writes_whites_extra_pass_where_the_rules_make_it() {
        let p = Point::parse_gtp("C3", 5, 5).unwrap();
        let events = vec![
            Event::Move(Color::Black, Move::Play(p)),
            Event::Move(Color::White, Move::Pass),
            Event::Move(Color::Black, Move::Pass),
            Event::Agree(Vec::new()),
        ];
        let spec = crate::spec::embedded::spec().unwrap();
        // AGA: Black passed last, so White passes once more when play stops.
        let aga = record(&played(events.clone()), &spec.rules("aga").unwrap(), "aga");
        assert_eq!(passes(&aga), ["W", "B", "W"], "{aga}");
        assert!(aga.contains("White's extra pass"), "{aga}");
        // Japanese 1989 has no such pass.
        let j89 = spec.rules("japanese-1989").unwrap();
        let japanese = record(&played(events), &j89, "japanese-1989");
        assert_eq!(passes(&japanese), ["W", "B"], "{japanese}");
        // White passing last already (Black passed first): nothing added.
        let q = Point::parse_gtp("D4", 5, 5).unwrap();
        let events = vec![
            Event::Move(Color::Black, Move::Play(p)),
            Event::Move(Color::White, Move::Play(q)),
            Event::Move(Color::Black, Move::Pass),
            Event::Move(Color::White, Move::Pass),
            Event::Agree(Vec::new()),
        ];
        let aga = record(&played(events), &spec.rules("aga").unwrap(), "aga");
        assert!(!aga.contains("extra pass"), "{aga}");
    }
}
