//! Running tournament scenarios through the reference's tournament module.
//!
//! The [`Referee`](super::Referee) trait covers the game on the board; ranks, handicaps, komi,
//! colours, clocks and tiebreaks are not part of it, so tournament scenarios run only through
//! the reference ([`crate::tournament`], and for games between scripted programs the match
//! referee, [`crate::referee`]) and are not applicable to any other implementation.
//! Every case renders what the reference computed under the same keys and in the same canonical
//! text as the scenario's expectations, and every difference is a mismatch. A clock event the
//! machine refuses is a mismatch unless the case expected that refusal.

use std::collections::BTreeMap;

use crate::board::Color;
use crate::scenario::tournament::{Case, ClockFile, CrosstableFile, Input, TournamentScenario};
use crate::tournament::clock::{Clocks, Phase};
use crate::tournament::colour::{nigiri, NigiriError};
use crate::tournament::crosstable::Half;
use crate::tournament::handicap::{handicap, HandicapError};
use crate::tournament::rank::Rank;
use crate::tournament::tiebreak::{cents, standings, TiebreakError};
use crate::tournament::time_control::{Clock, ControlError};

/// One expected value that differs from the reference's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaseMismatch {
    /// The case's name in the scenario's `[[case]]` tables.
    pub case: String,
    /// For clocks: the event after which the value was checked.
    pub after: Option<usize>,
    /// The key whose value differs.
    pub key: String,
    /// The line of the expected value in the scenario file.
    pub line: usize,
    /// The value the scenario expects, in canonical text.
    pub expected: String,
    /// The reference's value, in the same text.
    pub actual: String,
}

impl std::fmt::Display for CaseMismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "case `{}`", self.case)?;
        if let Some(a) = self.after {
            write!(f, ", after event {a}")?;
        }
        write!(
            f,
            ", line {}, key `{}`: expected {}, actual {}",
            self.line, self.key, self.expected, self.actual
        )
    }
}

/// A tournament scenario as a run left it, for the reports: the values that differ from the
/// reference's (empty for a pass), or `None` when it was not run (the engine is not the
/// reference, and the `Referee` trait has no tournament rules).
pub type TournamentTrial<'a> = (
    &'a crate::scenario::tournament::TournamentScenario,
    Option<&'a [CaseMismatch]>,
);

/// Runs every case of a scenario; an empty list is a pass.
pub fn run(scenario: &TournamentScenario) -> Vec<CaseMismatch> {
    scenario.cases.iter().flat_map(run_case).collect()
}

/// Runs one case.
pub fn run_case(case: &Case) -> Vec<CaseMismatch> {
    let actual: BTreeMap<(Option<usize>, String), String> = match &case.input {
        Input::Clock(file) => clock_values(file),
        other => values(other)
            .into_iter()
            .map(|(k, v)| ((None, k), v))
            .collect(),
    };
    let mut out = Vec::new();
    for e in &case.expect {
        let got = actual
            .get(&(e.after, e.key.clone()))
            .cloned()
            .unwrap_or_else(|| "(nothing)".to_string());
        if got != e.expected {
            out.push(CaseMismatch {
                case: case.name.clone(),
                after: e.after,
                key: e.key.clone(),
                line: e.line,
                expected: e.expected.clone(),
                actual: got,
            });
        }
    }
    if let Input::Clock(file) = &case.input {
        // A refusal nobody expected fails the case even if no value after it is checked.
        for (k, _) in file.events.iter().enumerate() {
            let after = Some(k + 1);
            let refused = actual.get(&(after, "refused".to_string()));
            let expected = case
                .expect
                .iter()
                .any(|e| e.after == after && e.key == "refused");
            if let Some(word) = refused.filter(|w| *w != "none") {
                if !expected {
                    out.push(CaseMismatch {
                        case: case.name.clone(),
                        after,
                        key: "refused".to_string(),
                        line: file.events[k].line,
                        expected: "none".to_string(),
                        actual: word.clone(),
                    });
                }
            }
        }
    }
    out
}

/// What the reference computes for a case that is not a clock.
pub fn values(input: &Input) -> BTreeMap<String, String> {
    let mut v = BTreeMap::new();
    let mut put = |k: &str, s: String| {
        v.insert(k.to_string(), s);
    };
    match input {
        Input::Rank { rating, entry } => match Rank::from_rating(*rating) {
            Ok(r) => {
                put("rank", r.to_string());
                if let Some(e) = entry {
                    put("allowed", r.may_enter_at(*e).to_string());
                }
                put("refused", "none".into());
            }
            Err(e) => {
                put("rank", format!("(refused: {e})"));
                put("allowed", format!("(refused: {e})"));
                put("refused", "digits".into());
            }
        },
        Input::Handicap { ranks, system } => match handicap(*ranks, *system) {
            Ok(h) => {
                put("stones", h.stones.to_string());
                put("placed", h.placed().to_string());
                put(
                    "black",
                    h.black.map_or("lot".to_string(), |i| ranks[i].to_string()),
                );
                put("refused", "none".into());
            }
            Err(e @ HandicapError::FloorAboveBar { .. }) => {
                put("stones", format!("(refused: {e})"));
                put("placed", format!("(refused: {e})"));
                put("refused", "floor-above-bar".into());
            }
        },
        Input::Komi {
            rule,
            stones,
            margin,
        } => {
            put("komi", rule.komi(*stones).to_string());
            put("result", rule.result(*stones, *margin));
        }
        Input::Nigiri { handful, shown } => match nigiri(*handful, *shown) {
            Ok(c) => {
                put("black", c.word().into());
                put("refused", "none".into());
            }
            Err(e) => {
                put("black", format!("(refused: {e})"));
                put(
                    "refused",
                    match e {
                        NigiriError::EmptyHand => "empty-hand",
                        NigiriError::NoCall(_) => "no-call",
                    }
                    .into(),
                );
            }
        },
        Input::TimeControl(c) => match c.validate() {
            Ok(()) => {
                put("rated", c.rated().is_ok().to_string());
                put("refused", "none".into());
            }
            Err(e) => {
                put("rated", format!("(refused: {e})"));
                put(
                    "refused",
                    match e {
                        ControlError::PeriodsExceedMain { .. } => "periods-exceed-main",
                        ControlError::EmptyOvertime => "empty-overtime",
                    }
                    .into(),
                );
            }
        },
        Input::Standings(file) => standings_values(file, &mut put),
        Input::RoundStart {
            announced,
            notice,
            start,
        } => put(
            "allowed",
            crate::tournament::round::may_start(*announced, *notice, *start)
                .is_ok()
                .to_string(),
        ),
        Input::RefereedGame {
            rules,
            size,
            illegal_moves,
            scripts,
            dead,
            ..
        } => {
            use crate::referee::scripted::Scripted;
            let options = crate::referee::GameOptions {
                rules: *rules,
                size: *size,
                handicap: Vec::new(),
                time_control: None,
                illegal_moves: *illegal_moves,
                move_timeout: std::time::Duration::from_secs(1),
            };
            let seats: [Box<dyn crate::referee::player::Seat>; 2] = [
                Box::new(Scripted::new(
                    Color::Black,
                    scripts[0].clone(),
                    dead[0].clone(),
                )),
                Box::new(Scripted::new(
                    Color::White,
                    scripts[1].clone(),
                    dead[1].clone(),
                )),
            ];
            let game = crate::referee::game::play_seats(seats, ["black", "white"], &options);
            put("result", game.result.clone());
            put("ending", crate::referee::ending_words(&game));
            put("moves", game.moves.to_string());
        }
        Input::Clock(_) => {}
    }
    v
}

fn standings_values(file: &CrosstableFile, put: &mut impl FnMut(&str, String)) {
    let t = &file.table;
    match standings(t, &file.tiebreak, file.seed, &file.prizes) {
        Err(e) => {
            put("standings", format!("(refused: {e})"));
            put(
                "refused",
                match e {
                    TiebreakError::MedianTooFewRounds(_) => "median-rounds",
                    TiebreakError::Repeated(_) => "repeated",
                    TiebreakError::Unknown(_) => "unknown",
                }
                .into(),
            );
        }
        Ok(s) => {
            put("refused", "none".into());
            let names: Vec<&str> = s
                .rows
                .iter()
                .map(|r| t.players[r.player].as_str())
                .collect();
            put("standings", names.join(", "));
            for r in &s.rows {
                let n = &t.players[r.player];
                put(&format!("places.{n}"), r.place.to_string());
                put(&format!("score.{n}"), Half(i64::from(r.score)).to_string());
                put(&format!("sos.{n}"), Half(i64::from(r.sos)).to_string());
                put(&format!("sodos.{n}"), Half(i64::from(r.sodos)).to_string());
                put(
                    &format!("median.{n}"),
                    r.median.map_or("(under five rounds)".to_string(), |m| {
                        Half(i64::from(m)).to_string()
                    }),
                );
                put(
                    &format!("saco.{n}"),
                    r.saco.map_or("(alone on its score)".to_string(), |m| {
                        Half(i64::from(m)).to_string()
                    }),
                );
                put(
                    &format!("cumulative.{n}"),
                    Half(i64::from(r.cumulative)).to_string(),
                );
                put(
                    &format!("decided_by.{n}"),
                    r.decided_by
                        .map_or("none".to_string(), |d| d.word().to_string()),
                );
                put(
                    &format!("prize.{n}"),
                    r.prize.map_or("(no prizes)".to_string(), cents),
                );
            }
            let playoffs: Vec<String> = s
                .notes
                .iter()
                .filter_map(|n| {
                    let rest = n.strip_prefix("a playoff between ")?;
                    let (a, rest) = rest.split_once(" and ")?;
                    let (b, _) = rest.split_once(" may be considered")?;
                    Some(format!("{a} v {b}"))
                })
                .collect();
            put("playoffs", playoffs.join("; "));
            put(
                "circular",
                s.notes
                    .iter()
                    .any(|n| n.contains("is circular"))
                    .to_string(),
            );
        }
    }
}

/// The clock values after each event (0: after `begin` is not yet applied, i.e. the set-up).
pub fn clock_values(file: &ClockFile) -> BTreeMap<(Option<usize>, String), String> {
    let mut clocks = Clocks::new(file.control, file.first).with_stops(file.stops);
    let mut out = BTreeMap::new();
    snapshot(&clocks, 0, &mut out);
    for (k, e) in file.events.iter().enumerate() {
        let refused = match clocks.apply(e.at, e.event) {
            Ok(()) => "none".to_string(),
            Err(err) => err.word().to_string(),
        };
        out.insert((Some(k + 1), "refused".to_string()), refused);
        snapshot(&clocks, k + 1, &mut out);
    }
    out
}

fn snapshot(c: &Clocks, after: usize, out: &mut BTreeMap<(Option<usize>, String), String>) {
    let mut put = |k: String, v: String| {
        out.insert((Some(after), k), v);
    };
    put(
        "running".into(),
        c.running()
            .map_or("none".to_string(), |c| c.letter().to_string()),
    );
    put(
        "result".into(),
        c.decision().map_or("undecided".to_string(), |d| d.result()),
    );
    let absent: Vec<String> = [Color::Black, Color::White]
        .into_iter()
        .filter(|col| c.is_absent(*col))
        .map(|col| col.letter().to_string())
        .collect();
    put("absent".into(), absent.join(" "));
    for (color, name) in [(Color::Black, "black"), (Color::White, "white")] {
        let p = c.phase(color);
        put(format!("{name}.phase"), p.word().to_string());
        let not = |what: &str| format!("(not in {what})");
        let (left, periods, used, stones, out_at) = match p {
            Phase::Main { left } => (
                Clock(left).to_string(),
                not("byo-yomi"),
                not("overtime"),
                not("canadian"),
                not("out"),
            ),
            Phase::Byoyomi { periods, used } => (
                not("main or canadian"),
                periods.to_string(),
                Clock(used).to_string(),
                not("canadian"),
                not("out"),
            ),
            Phase::Canadian { stones, left } => (
                Clock(left).to_string(),
                not("byo-yomi"),
                not("byo-yomi or seconds"),
                stones.to_string(),
                not("out"),
            ),
            Phase::Seconds { used } => (
                not("main or canadian"),
                not("byo-yomi"),
                Clock(used).to_string(),
                not("canadian"),
                not("out"),
            ),
            Phase::Out { at } => (
                Clock(0).to_string(),
                "0".into(),
                not("play"),
                not("play"),
                Clock(at).to_string(),
            ),
        };
        put(format!("{name}.left"), left);
        put(format!("{name}.periods"), periods);
        put(format!("{name}.used"), used);
        put(format!("{name}.stones"), stones);
        put(format!("{name}.out_at"), out_at);
    }
}
