//! Scoring a final position under one set of rules or many: the library side of
//! `goconform score`.
//!
//! A position is a scenario (or an SGF record made one), replayed by the reference executor
//! under each set of rules, or a diagram taken as it stands. Dead stones are an input, never
//! guessed: whole strings through the points given are removed, except under
//! `ending=two-passes`, where dead stones must be captured in play and nothing is removed.
//! Each outcome keeps the itemised count and notes saying what was refused, ignored or left
//! unfinished; [`parting`] says where several rulesets part. Printing is the command line's.

use std::collections::BTreeSet;
use std::path::PathBuf;

use crate::board::{Board, Color, Point};
use crate::game::counting::{self, Count};
use crate::game::{Event, Phase, Prisoners, Reason, Refereed};
use crate::rules::{CycleOutcome, Ending, Rules, SekiEyes};
use crate::scenario::Scenario;

/// Where the position comes from.
pub enum Position {
    /// A game to replay: its events under each set of rules asked for.
    Scenario {
        /// The scenario (for an SGF record, the record made one), boxed so that the enum is
        /// not the size of its largest variant.
        scenario: Box<Scenario>,
        /// For an SGF record: the record itself (its territory marks name the dead stones).
        record: Option<Box<crate::sgf::Record>>,
    },
    /// A position taken as it stands, with what a diagram cannot show given beside it.
    Diagram {
        /// The diagram file, for headings.
        path: PathBuf,
        /// The stones as drawn.
        board: Board,
        /// The prisoners each side holds.
        prisoners: Prisoners,
        /// Handicap stones (0 for an even game), for the compensation some rulesets give.
        handicap: u32,
    },
}

impl Position {
    /// The board's width and height.
    pub fn size(&self) -> (u8, u8) {
        match self {
            Position::Scenario { scenario, .. } => (scenario.setup.width, scenario.setup.height),
            Position::Diagram { board, .. } => (board.width(), board.height()),
        }
    }
}

/// An event the executor refused while replaying a scenario.
pub struct Refused {
    /// 1-based, as `after` counts in scenarios.
    pub number: usize,
    /// The event as written.
    pub event: Event,
    /// Why the executor refused it.
    pub reason: Reason,
}

/// The final state of a game (or the diagram), before any `--dead` stone is removed.
pub struct Final {
    /// The stones on the board at the end.
    pub board: Board,
    /// The prisoners by origin (captures, pass stones), before dead stones are added.
    pub prisoners: Prisoners,
    /// Handicap stones placed.
    pub handicap: u32,
    /// `None` for a diagram.
    pub phase: Option<Phase>,
    /// Who resigned, if anyone: the result is then theirs to lose whatever the count.
    pub resigned: Option<Color>,
    /// How the game came out if a repetition ended it (`ko = simple-cycle-draw` or
    /// `simple-cycle-void`): the result is then a draw or no result whatever the count.
    pub cycled: Option<CycleOutcome>,
    /// The events refused along the way, which the outcome's notes report.
    pub refused: Vec<Refused>,
}

/// A position scored under one set of rules.
pub struct Scored {
    /// The ruleset's name, or the scenario's run.
    pub label: String,
    /// The rules counted under, overrides applied.
    pub rules: Rules,
    /// Where the rules came from, for the heading (e.g. "komi 0.5 from the scenario").
    pub origin: String,
    /// The count, or why the position could not be reached (a refused set-up).
    pub outcome: Result<Outcome, String>,
}

/// The count of one final position and what was done to reach it.
pub struct Outcome {
    /// The final state counted.
    pub fin: Final,
    /// The count, itemised.
    pub count: Count,
    /// The stones `--dead` removed (whole strings), sorted.
    pub removed: Vec<Point>,
    /// What a reader should know: refused events, an unfinished game, a resignation, dead
    /// stones ignored.
    pub notes: Vec<String>,
}

impl Outcome {
    /// The result as SGF writes it (`B+3.5`, `W+R`, `0`): a resignation decides over the count.
    pub fn result(&self) -> String {
        match (self.fin.resigned, self.fin.cycled) {
            (Some(loser), _) => format!("{}+R", loser.opponent().letter()),
            (None, Some(outcome)) => outcome.result().to_string(),
            (None, None) => self.count.result(),
        }
    }

    /// The winner, `None` for a draw; a resignation decides over the count.
    pub fn winner(&self) -> Option<Color> {
        match (self.fin.resigned, self.fin.cycled) {
            (Some(loser), _) => Some(loser.opponent()),
            (None, Some(_)) => None,
            (None, None) => self.count.winner(),
        }
    }
}

/// The final state under `rules`: the scenario's events replayed, or the diagram as it is.
pub fn final_state(position: &Position, rules: Rules) -> Result<Final, String> {
    match position {
        Position::Diagram {
            board,
            prisoners,
            handicap,
            ..
        } => Ok(Final {
            board: board.clone(),
            prisoners: *prisoners,
            handicap: *handicap,
            phase: None,
            resigned: None,
            cycled: None,
            refused: Vec::new(),
        }),
        Position::Scenario { scenario, .. } => {
            let mut referee = Refereed::new(rules, &scenario.setup)
                .map_err(|e| format!("the set-up is refused: {e}"))?;
            let mut refused = Vec::new();
            for (k, event) in scenario.events.iter().enumerate() {
                if let Some(reason) = referee.apply(event.clone()).reason() {
                    refused.push(Refused {
                        number: k + 1,
                        event: event.clone(),
                        reason,
                    });
                }
            }
            let game = referee.game();
            Ok(Final {
                board: game.board().clone(),
                prisoners: game.prisoner_breakdown(),
                handicap: game.handicap(),
                phase: Some(game.phase()),
                resigned: game.resigned(),
                cycled: game.cycled(),
                refused,
            })
        }
    }
}

/// Scores `position` under `rules`, labelled `label`: the final state with the strings through
/// `dead` removed (unless the rules end the game at two passes), counted, with notes.
pub fn score_under(
    position: &Position,
    label: String,
    rules: Rules,
    origin: String,
    dead: &[Point],
) -> Scored {
    let outcome = final_state(position, rules).map(|fin| {
        let mut notes = Vec::new();
        for r in &fin.refused {
            let mut note = format!("event {} ({}) refused: {}", r.number, r.event, r.reason);
            if r.reason == Reason::GameOver && rules.ending == Ending::TwoPasses {
                note.push_str(" (two passes ended the game)");
            }
            if let (Event::Agree(points), Reason::GameOver) = (&r.event, r.reason) {
                let standing: Vec<String> = points
                    .iter()
                    .filter(|&&p| fin.board.get(p).is_some())
                    .map(|p| p.to_string())
                    .collect();
                if !standing.is_empty() {
                    note.push_str(&format!(
                        "; {} stay on the board and count as alive",
                        standing.join(" ")
                    ));
                }
            }
            notes.push(note);
        }
        let removed = if dead_notes(&fin, &rules, dead, &mut notes) {
            fin.board.strings_through(dead)
        } else {
            Vec::new()
        };
        let count = counting::count(&fin.board, &rules, fin.prisoners, &removed, fin.handicap);
        Outcome {
            fin,
            count,
            removed,
            notes,
        }
    });
    Scored {
        label,
        rules,
        origin,
        outcome,
    }
}

/// Scores an SGF record under `rules` (the record's komi applied), labelled `label`: the board
/// and the count [`crate::sgf::judge::count_record`] gives, the one `judge` gives too (a move
/// out of turn played as written, or with `repair` the record's artifacts repaired; the
/// players' agreement where play stopped with two passes), with `dead` (`--dead`) in place of
/// the record's territory marks where given.
pub fn score_record(
    record: &crate::sgf::Record,
    label: String,
    rules: Rules,
    origin: String,
    dead: &[Point],
    repair: bool,
) -> Scored {
    let given = (!dead.is_empty()).then_some(dead);
    let outcome = crate::sgf::judge::count_record(record, rules, repair, given).map(|counted| {
        let end = counted.end();
        let board = counted.replay.game.board().clone();
        let fin = Final {
            prisoners: end.prisoner_breakdown(),
            handicap: end.handicap(),
            phase: Some(end.phase()),
            resigned: end.resigned(),
            cycled: end.cycled(),
            refused: Vec::new(),
            board,
        };
        let mut notes: Vec<String> = counted
            .replay
            .violations
            .iter()
            .map(|&(n, color, mv, reason, artifact, went_on)| {
                let class = artifact.map_or(String::new(), |a| {
                    format!(" (record artifact: {})", a.word())
                });
                format!(
                    "move {n} ({} {mv}) refused: {reason}{class}; {went_on}",
                    color.letter()
                )
            })
            .collect();
        if let Some(n) = counted.replay.stopped_at {
            notes.push(format!("the replay stopped at move {n}: the moves from there are not played"));
        }
        notes.extend(counted.board_note(repair));
        let named = given.map(<[Point]>::to_vec).or_else(|| counted.marked.clone());
        if let Some(named) = named.filter(|d| !d.is_empty() && counted.dead.is_empty()) {
            let names: Vec<String> = named.iter().map(|p| p.to_string()).collect();
            notes.push(format!(
                "the dead stones named ({}) stay on the board and count as alive: the game ended on its own terms or the rules remove none",
                names.join(" ")
            ));
        }
        if repair {
            notes.push(format!(
                "counted with --repair: {}",
                crate::sgf::judge::REPAIRS
            ));
        }
        dead_notes(&fin, &rules, dead, &mut notes);
        let removed = fin.board.strings_through(&counted.dead);
        Outcome {
            fin,
            count: counted.count,
            removed,
            notes,
        }
    });
    Scored {
        label,
        rules,
        origin,
        outcome,
    }
}

/// What ended the game, or that it has not ended, for the notes.
fn state_notes(fin: &Final, rules: &Rules, notes: &mut Vec<String>) {
    if let Some(phase) = fin.phase {
        if phase != Phase::Ended {
            notes.push(format!(
                "the game has not ended (phase: {phase}); the position is counted as it stands"
            ));
        }
    }
    if let Some(loser) = fin.resigned {
        notes.push(format!(
            "{} resigned: the result is {}+R; the count is of the position as it stands",
            capitalised(loser.name()),
            loser.opponent().letter()
        ));
    }
    if let Some(outcome) = fin.cycled {
        notes.push(format!(
            "a repetition ended the game (ko={}): the result is {}; the count is of the position as it stands",
            rules.ko,
            outcome.result()
        ));
    }
}

/// The notes on the final state ([`state_notes`]) and on the `--dead` stones: none removed
/// under `ending=two-passes`, and a vertex with no stone ignored. Whether stones may be
/// removed as dead.
fn dead_notes(fin: &Final, rules: &Rules, dead: &[Point], notes: &mut Vec<String>) -> bool {
    state_notes(fin, rules, notes);
    if rules.ending == Ending::TwoPasses {
        let mut note = "ending=two-passes: the game ends at two passes and dead stones must be captured in play, so nothing is removed as dead; the position is scored as it stands".to_string();
        if !dead.is_empty() {
            note.push_str(" (--dead is ignored)");
        }
        notes.push(note);
        return false;
    }
    for &p in dead.iter().filter(|&&p| fin.board.get(p).is_none()) {
        notes.push(format!("--dead {p}: no stone there; ignored"));
    }
    true
}

/// A ruleset that scored the position, with its outcome.
type Pair<'a> = (&'a Scored, &'a Outcome);

/// Sentences saying where the rulesets part: who wins under which, and the results.
pub fn parting(scored: &[Scored]) -> Vec<String> {
    let ok: Vec<Pair> = scored
        .iter()
        .filter_map(|s| s.outcome.as_ref().ok().map(|o| (s, o)))
        .collect();
    if ok.is_empty() {
        return vec!["no ruleset could score the position".to_string()];
    }
    let winners = [Some(Color::Black), Some(Color::White), None];
    let groups: Vec<(Option<Color>, Vec<Pair>)> = winners
        .iter()
        .map(|&w| {
            (
                w,
                ok.iter()
                    .copied()
                    .filter(|(_, o)| o.winner() == w)
                    .collect(),
            )
        })
        .filter(|(_, members): &(Option<Color>, Vec<Pair>)| !members.is_empty())
        .collect();
    let names = |members: &[Pair]| {
        members
            .iter()
            .map(|(s, _)| s.label.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut results: Vec<(String, Vec<&str>)> = Vec::new();
    for (s, o) in &ok {
        let r = o.result();
        match results.iter_mut().find(|(x, _)| *x == r) {
            Some((_, labels)) => labels.push(s.label.as_str()),
            None => results.push((r, vec![s.label.as_str()])),
        }
    }
    let mut out = Vec::new();
    if groups.len() > 1 {
        let parts: Vec<String> = groups
            .iter()
            .map(|(winner, members)| {
                let mut methods: Vec<String> = Vec::new();
                for (s, _) in members {
                    let seki = match s.rules.seki_eyes {
                        SekiEyes::Count => "counted",
                        SekiEyes::Neutral => "neutral",
                    };
                    let m = format!("{} counting, seki eyes {seki}", s.rules.scoring);
                    if !methods.contains(&m) {
                        methods.push(m);
                    }
                }
                let who = match winner {
                    Some(c) => format!("{} wins", capitalised(c.name())),
                    None => "a draw".to_string(),
                };
                format!("{who} under {} ({})", names(members), methods.join("; "))
            })
            .collect();
        out.push(format!("where they part: {}.", parts.join("; ")));
    } else if results.len() > 1 {
        let who = match groups[0].0 {
            Some(c) => format!("{} wins", capitalised(c.name())),
            None => "it is a draw".to_string(),
        };
        out.push(format!(
            "where they part: {who} under every ruleset, by different margins."
        ));
    } else {
        out.push(format!(
            "the rulesets do not part here: every ruleset gives {}.",
            results[0].0
        ));
    }
    if results.len() > 1 {
        let parts: Vec<String> = results
            .iter()
            .map(|(r, labels)| format!("{r} under {}", labels.join(", ")))
            .collect();
        out.push(format!("results: {}.", parts.join("; ")));
    }
    let failed: BTreeSet<&str> = scored
        .iter()
        .filter(|s| s.outcome.is_err())
        .map(|s| s.label.as_str())
        .collect();
    if !failed.is_empty() {
        out.push(format!(
            "not scored (the set-up is refused): {}.",
            failed.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    out
}

/// The word with its first letter in upper case ("black" to "Black").
pub fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
