//! What a scenario's page shows, worked out from the reference's walks: the checked events,
//! one diagram per distinct position at each, and the verdicts of every run side by side.
//!
//! This is the book's model of a scenario, apart from its HTML: `show --format svg` draws the
//! same diagrams, and the browser test counts them against [`checked_events`].

use crate::board::{Board, Color, Point};
use crate::game::Verdict;
use crate::scenario::Scenario;

use super::diagram::{Diagram, Marks};
use super::walk::{walk, Walk};

/// The events a scenario states expectations after (0 is the set-up), in order, each once.
pub fn checked_events(scenario: &Scenario) -> Vec<usize> {
    let mut events: Vec<usize> = scenario.expectations.iter().map(|e| e.after).collect();
    events.sort_unstable();
    events.dedup();
    events
}

/// A scenario with the reference's walk under each of its runs.
pub struct Played<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// One per run, in the scenario's order.
    pub walks: Vec<Walk>,
}

/// One picture of the position after an event, shared by the runs that reach it.
pub struct Figure<'a> {
    /// Labels of the runs it shows.
    pub runs: Vec<String>,
    /// The position after the event.
    pub diagram: Diagram<'a>,
    /// The verdict under these runs, in words.
    pub verdict: String,
}

/// The position after one checked event.
pub struct Moment<'a> {
    /// The event number (0: the set-up).
    pub after: usize,
    /// The event as written (`B C3`, `agree C3 D4`); empty for the set-up.
    pub event: String,
    /// One figure per distinct position (and verdict) among the runs.
    pub figures: Vec<Figure<'a>>,
    /// The notes of the expectations stated after this event, with the runs they apply to
    /// (empty when they apply to every run).
    pub notes: Vec<(Vec<String>, String)>,
}

impl<'a> Played<'a> {
    /// Plays every run of `scenario` through the reference.
    pub fn new(scenario: &'a Scenario) -> Result<Played<'a>, String> {
        let walks = (0..scenario.runs.len())
            .map(|run| walk(scenario, run))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Played { scenario, walks })
    }

    /// The set-up and every checked event, with their figures.
    ///
    /// A scenario that checks nothing (a game record read from SGF) shows its set-up and
    /// its last position.
    pub fn moments(&self) -> Vec<Moment<'_>> {
        let mut checked = checked_events(self.scenario);
        if checked.is_empty() && !self.scenario.events.is_empty() {
            checked.push(self.scenario.events.len());
        }
        let mut previous = 0;
        let mut out = Vec::new();
        if !checked.contains(&0) {
            out.push(self.moment(0, 0));
        }
        for after in checked {
            out.push(self.moment(after, previous));
            previous = after;
        }
        out
    }

    /// The position after event `after` under each run, grouped by what the picture shows;
    /// stones played since event `since` carry their numbers when there is more than one.
    pub fn moment(&self, after: usize, since: usize) -> Moment<'_> {
        let scenario = self.scenario;
        let mut figures: Vec<Figure<'_>> = Vec::new();
        for walk in &self.walks {
            let label = scenario.runs[walk.run].label.clone();
            let Some((diagram, verdict)) = picture(walk, after, since) else {
                continue;
            };
            match figures
                .iter_mut()
                .find(|f| same_picture(&f.diagram, &diagram) && f.verdict == verdict)
            {
                Some(f) => f.runs.push(label),
                None => figures.push(Figure {
                    runs: vec![label],
                    diagram,
                    verdict,
                }),
            }
        }
        let notes = scenario
            .expectations
            .iter()
            .filter(|e| e.after == after)
            .filter_map(|e| {
                let note = e.note.clone()?;
                let runs = if e.runs.len() == scenario.runs.len() {
                    Vec::new()
                } else {
                    e.runs
                        .iter()
                        .map(|&r| scenario.runs[r].label.clone())
                        .collect()
                };
                Some((runs, note))
            })
            .collect();
        Moment {
            after,
            event: if after == 0 {
                String::new()
            } else {
                scenario
                    .events
                    .get(after - 1)
                    .map_or(String::new(), |e| e.to_string())
            },
            figures,
            notes,
        }
    }
}

/// The diagram of the position after event `after` of `walk` (0: the set-up) and the verdict
/// in words; stones played since event `since` carry their numbers when there is more than
/// one. `None` past the last event.
pub fn picture(walk: &Walk, after: usize, since: usize) -> Option<(Diagram<'_>, String)> {
    if after == 0 {
        return Some((
            Diagram {
                board: &walk.start,
                marks: Marks::default(),
                caption: format!("The set-up, {} to move", walk.start_to_move.name()),
            },
            String::new(),
        ));
    }
    let step = walk.steps.get(after - 1)?;
    let before = walk.board_before(after);
    let mut marks = Marks {
        numbers: numbers(walk, since, after),
        ..Marks::default()
    };
    match (step.played(), &step.verdict) {
        (Some(played), Verdict::Illegal(_)) => marks.refused = Some(played),
        (Some((p, _)), _) if step.board.get(p).is_some() => marks.last = Some(p),
        _ => {}
    }
    marks.removed = step.removed(before);
    let verdict = verdict_text(&step.verdict);
    Some((
        Diagram {
            board: &step.board,
            marks,
            caption: format!("After event {after}, {}: {verdict}", step.event),
        },
        verdict,
    ))
}

/// Whether two diagrams draw the same thing.
fn same_picture(a: &Diagram<'_>, b: &Diagram<'_>) -> bool {
    a.marks == b.marks && a.board.stones() == b.board.stones()
}

/// The moves played in events `since+1 ..= after` whose stones still stand after `after`,
/// numbered by event; none when there is only the last move to show (its ring says it).
fn numbers(walk: &Walk, since: usize, after: usize) -> Vec<(Point, usize)> {
    let Some(last) = walk.steps.get(after.saturating_sub(1)) else {
        return Vec::new();
    };
    let board: &Board = &last.board;
    let mut out: Vec<(Point, usize)> = Vec::new();
    for step in walk.steps.iter().take(after).skip(since) {
        let Some((p, c)) = step.played() else {
            continue;
        };
        if step.refused() || board.get(p) != Some(c) {
            continue;
        }
        out.retain(|(q, _)| *q != p);
        out.push((p, step.number));
    }
    if out.len() <= 1 {
        out.clear();
    }
    out
}

/// A verdict in a few words, as tables show it.
pub fn verdict_text(verdict: &Verdict) -> String {
    match verdict {
        Verdict::Legal {
            captured,
            self_captured,
        } if !self_captured.is_empty() => {
            let points: Vec<String> = self_captured.iter().map(|p| p.to_string()).collect();
            let mut text = verdict.to_string();
            if !captured.is_empty() {
                text.push(',');
            }
            text.push_str(&format!(" self-captures {}", points.join(" ")));
            text
        }
        _ => verdict.to_string(),
    }
}

/// Black's and White's prisoners as `B n, W m`.
pub fn prisoners_text(prisoners: [u32; 2]) -> String {
    format!(
        "{} {}, {} {}",
        Color::Black.letter(),
        prisoners[0],
        Color::White.letter(),
        prisoners[1]
    )
}
