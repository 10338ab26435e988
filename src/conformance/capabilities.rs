//! What an implementation says it can do: the rules values it plays under and what it can
//! show. The harness reads them before a trial, so that a missing feature makes a trial not
//! applicable, or a check not observed, instead of a failure: an engine is judged only on what
//! it claims.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use serde::{Serialize, Serializer};

use crate::board::Move;
use crate::game::{Event, Reason};
use crate::rules::{Rules, AXES};

/// Something an implementation can report. Each has one word, used in reports, the
/// JSON-lines header and the (future) out-of-process protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Observable {
    /// The reason of an illegal verdict (`ko`, `superko`, `suicide`, ...). Without it only
    /// legal against illegal is compared, and the strict tier cannot be chosen.
    Reasons,
    /// The points a legal play captured (and self-captured).
    Captures,
    /// The stones on the board.
    Board,
    /// Whose turn it is.
    ToMove,
    /// Prisoners held by each player, pass stones included.
    Prisoners,
    /// The phase of the game (playing, paused, resumed, ended).
    Phase,
    /// The result and the score of a position.
    Score,
    /// A referee's record: moves that stand on the board although they break a rule,
    /// notices, sealed moves, the rulings on them and the warnings they earn.
    Procedures,
}

impl Observable {
    /// Every observable, in the order reports list them.
    pub const ALL: &'static [Observable] = &[
        Observable::Reasons,
        Observable::Captures,
        Observable::Board,
        Observable::ToMove,
        Observable::Prisoners,
        Observable::Phase,
        Observable::Score,
        Observable::Procedures,
    ];

    /// The word capabilities files, reports and the JSON-lines protocol use.
    pub fn word(self) -> &'static str {
        match self {
            Observable::Reasons => "reasons",
            Observable::Captures => "captures",
            Observable::Board => "board",
            Observable::ToMove => "to-move",
            Observable::Prisoners => "prisoners",
            Observable::Phase => "phase",
            Observable::Score => "score",
            Observable::Procedures => "procedures",
        }
    }

    /// The observable a word names; `None` for a word that is not one.
    pub fn from_word(word: &str) -> Option<Observable> {
        Observable::ALL.iter().copied().find(|o| o.word() == word)
    }
}

impl fmt::Display for Observable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// A kind of ordinary event (the referee's record events go with
/// [`Observable::Procedures`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum EventKind {
    /// A play on a point.
    Play,
    /// A pass.
    Pass,
    /// A dispute about the dead stones during a pause.
    Dispute,
    /// A confirmation of life and death by hypothetical play during a pause (Japanese 1989,
    /// Article 7(2)).
    Confirm,
    /// An agreement on the dead stones during a pause.
    Agree,
    /// A resignation.
    Resign,
}

impl EventKind {
    /// Every kind, in the order reports list them.
    pub const ALL: &'static [EventKind] = &[
        EventKind::Play,
        EventKind::Pass,
        EventKind::Dispute,
        EventKind::Confirm,
        EventKind::Agree,
        EventKind::Resign,
    ];

    /// The word the JSON-lines protocol and reports use.
    pub fn word(self) -> &'static str {
        match self {
            EventKind::Play => "play",
            EventKind::Pass => "pass",
            EventKind::Dispute => "dispute",
            EventKind::Confirm => "confirm",
            EventKind::Agree => "agree",
            EventKind::Resign => "resign",
        }
    }

    /// The kind of an event; `None` for the referee's record events.
    pub fn of(event: &Event) -> Option<EventKind> {
        Some(match event {
            Event::Move(_, Move::Play(_)) => EventKind::Play,
            Event::Move(_, Move::Pass) => EventKind::Pass,
            Event::Dispute(_) => EventKind::Dispute,
            Event::Confirm(_) => EventKind::Confirm,
            Event::Agree(_) => EventKind::Agree,
            Event::Resign(_) => EventKind::Resign,
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..) => {
                return None
            }
        })
    }
}

/// The rules values an implementation plays under and the observations it offers.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Capabilities {
    /// For each axis listed, the only values supported (axis words as in `rules/axis.rs`).
    /// An axis not listed is supported in every value.
    pub axes: BTreeMap<String, Vec<String>>,
    /// What the implementation can report.
    pub observes: BTreeSet<Observable>,
    /// The reasons it refuses moves for; `None` for every reason. A move a scenario expects
    /// refused for another reason is not put to the implementation (a GTP engine does not
    /// judge whose turn it is, say): a refusal leaves the state unchanged, so the trial goes
    /// on without it, its verdict not observed, and the engine is not blamed for what it
    /// never claimed.
    #[serde(serialize_with = "reason_words")]
    pub judges: Option<BTreeSet<Reason>>,
    /// The kinds of event it takes; `None` for every kind. A scenario with another kind of
    /// event is not applicable.
    pub events: Option<BTreeSet<EventKind>>,
}

fn reason_words<S: Serializer>(
    reasons: &Option<BTreeSet<Reason>>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match reasons {
        None => serializer.serialize_none(),
        Some(set) => serializer.collect_seq(set.iter().map(|r| r.word())),
    }
}

impl Capabilities {
    /// Every axis value, every observation, every reason and event: what the reference
    /// offers.
    pub fn everything() -> Capabilities {
        Capabilities {
            observes: Observable::ALL.iter().copied().collect(),
            ..Capabilities::default()
        }
    }

    /// Every axis value, reason and event, and no observation yet: a start for the builder
    /// methods.
    pub fn new() -> Capabilities {
        Capabilities::default()
    }

    /// Adds observations.
    pub fn observing(mut self, what: impl IntoIterator<Item = Observable>) -> Capabilities {
        self.observes.extend(what);
        self
    }

    /// Restricts one axis to the given values.
    pub fn only<S: Into<String>>(
        mut self,
        axis: &str,
        values: impl IntoIterator<Item = S>,
    ) -> Capabilities {
        self.axes.insert(
            axis.to_string(),
            values.into_iter().map(Into::into).collect(),
        );
        self
    }

    /// Restricts the reasons it refuses moves for.
    pub fn judging(mut self, reasons: impl IntoIterator<Item = Reason>) -> Capabilities {
        self.judges = Some(reasons.into_iter().collect());
        self
    }

    /// Restricts the kinds of event it takes.
    pub fn taking(mut self, kinds: impl IntoIterator<Item = EventKind>) -> Capabilities {
        self.events = Some(kinds.into_iter().collect());
        self
    }

    /// Whether it refuses moves for this reason (all reasons unless [`Capabilities::judging`] restricted them): a move expected refused for another reason is not put to it.
    pub fn judges(&self, reason: Reason) -> bool {
        self.judges.as_ref().is_none_or(|set| set.contains(&reason))
    }

    /// Whether it takes events of this kind (all unless [`Capabilities::taking`] restricted them).
    pub fn takes(&self, kind: EventKind) -> bool {
        self.events.as_ref().is_none_or(|set| set.contains(&kind))
    }

    /// The first kind of event among `events` that it does not take, if any: a game with one
    /// is not a case for it (the runner's and the fuzzing differential's one test).
    pub fn untaken(&self, events: &[crate::game::Event]) -> Option<EventKind> {
        events
            .iter()
            .filter_map(EventKind::of)
            .find(|k| !self.takes(*k))
    }

    /// Whether it claims to show this; only what it claims is compared.
    pub fn observes(&self, what: Observable) -> bool {
        self.observes.contains(&what)
    }

    /// Whether the implementation can play under `rules`; if not, which axis values it
    /// lacks, in words a report can show.
    pub fn supports(&self, rules: &Rules) -> Result<(), String> {
        let missing: Vec<String> = AXES
            .iter()
            .filter_map(|axis| {
                let allowed = self.axes.get(*axis)?;
                let value = rules.get(axis)?;
                (!allowed.contains(&value))
                    .then(|| format!("{axis}={value} (it supports {})", allowed.join(", ")))
            })
            .collect();
        if missing.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "the implementation does not support {}",
                missing.join("; ")
            ))
        }
    }

    /// Axis names in the capabilities that are not axes of the rules: a mistake in an
    /// adapter, reported by the harness before any trial runs.
    pub fn unknown_axes(&self) -> Vec<&str> {
        self.axes
            .keys()
            .map(String::as_str)
            .filter(|a| !AXES.contains(a))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unlisted_axis_supports_every_value() {
        let caps = Capabilities::new().only("ko", ["simple"]);
        let mut rules = Rules::default();
        assert!(caps.supports(&rules).is_err());
        rules.set("ko", "simple").unwrap();
        assert_eq!(caps.supports(&rules), Ok(()));
        rules.set("scoring", "territory").unwrap();
        assert_eq!(caps.supports(&rules), Ok(()));
    }

    #[test]
    fn the_refusal_names_the_axis_value() {
        let caps = Capabilities::new().only("suicide", ["forbidden"]);
        let mut rules = Rules::default();
        rules.set("suicide", "allowed").unwrap();
        let why = caps.supports(&rules).unwrap_err();
        assert!(why.contains("suicide=allowed"), "{why}");
        assert!(why.contains("forbidden"), "{why}");
    }

    #[test]
    fn words_round_trip() {
        for o in Observable::ALL {
            assert_eq!(Observable::from_word(o.word()), Some(*o));
        }
        assert_eq!(
            Capabilities::new().only("kko", ["x"]).unknown_axes(),
            ["kko"]
        );
    }
}
