//! Two implementations side by side: after every event, do they agree?
//!
//! The differential check is the other half of the suite. A scenario pins down what one
//! clause means in one position; a differential run plays positions nobody wrote down through
//! two implementations of [`Referee`] and stops at the first event after which they part.
//! This module is the one comparison: the naive executor's property tests (`tests/naive.rs`)
//! call it event by event, and [`mod@crate::fuzzing::differential`] (the fuzz targets, `goconform
//! fuzz`, the symmetry properties) plays whole games through it, so what "agree" means is
//! decided once, here.
//!
//! Each side is compared only on what both claim to observe ([`Capabilities::observes`]), as
//! the runner judges a trial: the verdict's kind (legal, illegal, breach, ruling) always, the
//! reason only if both report reasons, a breach's procedure class only if both keep the
//! referee's record, captured points only if both report captures, and likewise the board,
//! whose turn it is, prisoners, phase, warnings and the count. A declared observation that
//! shows nothing differs from one that shows something. The left side is the one trusted (the
//! reference): a set-up it refuses is not a case, while one only the right side refuses is
//! that side's choice ([`Unsupported`]), not a divergence; an event the left refuses for a
//! reason the right does not judge ([`Capabilities::judges`]) is not put to the right (a
//! refusal changes nothing, so both stay comparable).
//!
//! Panics are not caught here: a fuzzer wants them, and a test reports them as they are
//! (`fuzzing::differential` catches those of the side it judges).

use std::fmt;

use super::runner::stones_diagram;
use super::{Capabilities, EventKind, Observable, Observation, Referee, Unsupported};
use crate::board::{points_text, Color, Point};
use crate::game::counting::format_points;
use crate::game::{Event, Phase, Setup, Verdict};
use crate::rules::Rules;

/// Which part of the state two implementations disagree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// One started from the set-up and the other refused it.
    Start,
    /// One broke down (an [`EngineError`](super::EngineError), or a panic) where the other gave an answer.
    Error,
    /// Legal against illegal, a breach or ruling against something else, or two rulings.
    Verdict,
    /// Both refused, for different reasons (or a breach of another procedure class).
    Reason,
    /// Both accepted, capturing different stones.
    Captures,
    /// Both accepted, self-capturing different stones.
    SelfCaptures,
    /// The stones on the board.
    Board,
    /// Whose turn it is.
    ToMove,
    /// The prisoners each side holds.
    Prisoners,
    /// The phase of the game (playing, paused, ended, ...).
    Phase,
    /// The warnings of the referee's record.
    Warnings,
    /// The result of the position (SGF `RE` form).
    Result,
    /// The scores in half points.
    Score,
}

impl Aspect {
    /// The aspect as one word, for messages.
    pub fn word(self) -> &'static str {
        match self {
            Aspect::Start => "start",
            Aspect::Error => "error",
            Aspect::Verdict => "verdict",
            Aspect::Reason => "reason",
            Aspect::Captures => "captures",
            Aspect::SelfCaptures => "self-captures",
            Aspect::Board => "board",
            Aspect::ToMove => "to-move",
            Aspect::Prisoners => "prisoners",
            Aspect::Phase => "phase",
            Aspect::Warnings => "warnings",
            Aspect::Result => "result",
            Aspect::Score => "score",
        }
    }

    /// The scenario key that checks this aspect after an event whose trusted verdict is
    /// `verdict` (a verdict or reason is checked by the key of the verdict's kind: `legal`,
    /// `illegal`, `breach`, `ruling`), for writing a divergence down as a scenario.
    pub fn key(self, verdict: Option<&Verdict>) -> &'static str {
        match (self, verdict) {
            (Aspect::Verdict | Aspect::Reason, Some(v)) => verdict_key(v),
            (Aspect::SelfCaptures, _) => "self_captures",
            (Aspect::ToMove, _) => "to_move",
            (aspect, _) => aspect.word(),
        }
    }
}

impl fmt::Display for Aspect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The first thing two implementations disagreed on, with what each said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// What differs.
    pub aspect: Aspect,
    /// The event after which they disagreed; `None` at the start or for the count.
    pub event: Option<Event>,
    /// What the left implementation (the trusted one) said or showed.
    pub left: String,
    /// What the right implementation said or showed.
    pub right: String,
    /// For boards: the first point (top row first, left to right) where they differ.
    pub first_difference: Option<Point>,
}

impl fmt::Display for Divergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.event {
            Some(event) => write!(f, "after `{event}`: ")?,
            None => f.write_str("at the start: ")?,
        }
        write!(f, "{} differs", self.aspect)?;
        if let Some(p) = self.first_difference {
            write!(f, " (first at {p})")?;
        }
        if self.left.contains('\n') || self.right.contains('\n') {
            write!(f, "\nleft:\n{}right:\n{}", self.left, self.right)
        } else {
            write!(f, ": left {}, right {}", self.left, self.right)
        }
    }
}

impl std::error::Error for Divergence {}

/// A divergence on `aspect` with both sides' texts, located after `event`.
pub fn diverge(aspect: Aspect, event: Option<&Event>, left: String, right: String) -> Divergence {
    Divergence {
        aspect,
        event: event.cloned(),
        left,
        right,
        first_difference: None,
    }
}

/// What two implementations are compared on: what both claim, on a board of one size.
#[derive(Clone, Debug)]
pub struct Compared {
    left: Capabilities,
    right: Capabilities,
    width: u8,
    height: u8,
}

impl Compared {
    /// The comparison of implementations with these capabilities over games from `setup`.
    pub fn new(left: Capabilities, right: Capabilities, setup: &Setup) -> Compared {
        Compared {
            left,
            right,
            width: setup.width,
            height: setup.height,
        }
    }

    /// Whether both observe `what`: only that is compared.
    pub fn both(&self, what: Observable) -> bool {
        self.left.observes(what) && self.right.observes(what)
    }

    /// Whether the right side is asked about an event the left answered with `verdict`: not
    /// when the left refuses it for a reason the right does not judge, as the runner does.
    pub fn put_to_right(&self, verdict: &Verdict) -> bool {
        match verdict {
            Verdict::Illegal(reason) => self.right.judges(*reason),
            _ => true,
        }
    }

    /// Whether an event can be put to both implementations: see [`comparable`].
    pub fn comparable(&self, event: &Event) -> bool {
        comparable(&self.left, &self.right, event)
    }

    /// A verdict as far as both sides are judged on it: the reason only if both report
    /// reasons, a breach's class only if both keep the referee's record.
    pub fn verdict_text(&self, verdict: &Verdict) -> String {
        let reasons = self.both(Observable::Reasons);
        let record = self.both(Observable::Procedures);
        match verdict {
            Verdict::Legal { .. } => "legal".to_string(),
            Verdict::Illegal(r) if reasons => format!("illegal: {r}"),
            Verdict::Illegal(_) => "illegal".to_string(),
            Verdict::Breach { reason, class } => match (reasons, record) {
                (true, true) => format!("breach: {reason} ({class})"),
                (true, false) => format!("breach: {reason}"),
                (false, true) => format!("breach ({class})"),
                (false, false) => "breach".to_string(),
            },
            Verdict::Ruled(r) => format!("ruling: {r}"),
        }
    }

    /// Compares two verdicts on the same event, and for two legal ones the stones each took
    /// off the board (as sets: the order they come off in is not a rule).
    pub fn verdicts(
        &self,
        event: &Event,
        left: &Verdict,
        right: &Verdict,
    ) -> Result<(), Divergence> {
        let (l, r) = (self.verdict_text(left), self.verdict_text(right));
        if l != r {
            let aspect =
                if verdict_key(left) == verdict_key(right) && !matches!(left, Verdict::Ruled(_)) {
                    Aspect::Reason
                } else {
                    Aspect::Verdict
                };
            return Err(diverge(aspect, Some(event), l, r));
        }
        if !self.both(Observable::Captures) {
            return Ok(());
        }
        if let (
            Verdict::Legal {
                captured: lc,
                self_captured: ls,
            },
            Verdict::Legal {
                captured: rc,
                self_captured: rs,
            },
        ) = (left, right)
        {
            for (aspect, l, r) in [(Aspect::Captures, lc, rc), (Aspect::SelfCaptures, ls, rs)] {
                let (l, r) = (sorted(l), sorted(r));
                if l != r {
                    return Err(diverge(
                        aspect,
                        Some(event),
                        points_text(&l),
                        points_text(&r),
                    ));
                }
            }
        }
        Ok(())
    }

    /// Compares what both show of the state: board, turn, prisoners, phase and warnings, each
    /// only if both observe it.
    pub fn observations(
        &self,
        event: Option<&Event>,
        left: &Observation,
        right: &Observation,
    ) -> Result<(), Divergence> {
        if self.both(Observable::Board) {
            let sorted = |s: &Option<Vec<(Point, Color)>>| {
                s.clone().map(|mut v| {
                    v.sort();
                    v
                })
            };
            let (l, r) = (sorted(&left.stones), sorted(&right.stones));
            if l != r {
                let board = |s: &Option<Vec<(Point, Color)>>| {
                    shown(
                        s.as_ref()
                            .map(|s| stones_diagram(s, self.width, self.height)),
                    )
                };
                let mut d = diverge(Aspect::Board, event, board(&l), board(&r));
                d.first_difference = first_difference(&l, &r);
                return Err(d);
            }
        }
        let differ = |what: Observable, aspect: Aspect, l: String, r: String| {
            if self.both(what) && l != r {
                Err(diverge(aspect, event, l, r))
            } else {
                Ok(())
            }
        };
        let colour = |c: Option<Color>| shown(c.map(|c| c.to_string()));
        let phase = |p: Option<Phase>| shown(p.map(|p| p.to_string()));
        differ(
            Observable::ToMove,
            Aspect::ToMove,
            colour(left.to_move),
            colour(right.to_move),
        )?;
        differ(
            Observable::Prisoners,
            Aspect::Prisoners,
            pair(left.prisoners),
            pair(right.prisoners),
        )?;
        differ(
            Observable::Phase,
            Aspect::Phase,
            phase(left.phase),
            phase(right.phase),
        )?;
        differ(
            Observable::Procedures,
            Aspect::Warnings,
            pair(left.warnings),
            pair(right.warnings),
        )
    }

    /// Compares two counts of the position (result and scores in half points), if both
    /// observe the count.
    pub fn counts(&self, left: &Count, right: &Count) -> Result<(), Divergence> {
        if !self.both(Observable::Score) {
            return Ok(());
        }
        let score = |s: Option<[i32; 2]>| {
            shown(s.map(|[b, w]| format!("B {}, W {}", format_points(b), format_points(w))))
        };
        if left.0 != right.0 {
            return Err(diverge(
                Aspect::Result,
                None,
                shown(left.0.clone()),
                shown(right.0.clone()),
            ));
        }
        if left.1 != right.1 {
            return Err(diverge(Aspect::Score, None, score(left.1), score(right.1)));
        }
        Ok(())
    }
}

/// A count as [`Referee::count`] gives it: the result (SGF `RE` form) and the scores in half
/// points.
pub type Count = (Option<String>, Option<[i32; 2]>);

/// The count an implementation shows: from the observation `seen` if it gave one there, else
/// from [`Referee::count`].
pub fn counted(referee: &dyn Referee, seen: &Observation) -> Count {
    if seen.result.is_some() || seen.score.is_some() {
        (seen.result.clone(), seen.score)
    } else {
        referee.count()
    }
}

/// Starts both implementations from the same set-up and compares what they show.
///
/// `Ok(Some(compared))`: both started and agree, to be compared on `compared` from here.
/// `Ok(None)`: not a case: the left side refused the set-up (so it is not a game), or the
/// right side does not support it ([`Unsupported`]). A set-up the left refuses and the right
/// accepts is a [`Aspect::Start`] divergence: an implementation must not start from what the
/// rules cannot start from.
pub fn start_agree(
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    rules: &Rules,
    setup: &Setup,
) -> Result<Option<Compared>, Divergence> {
    let left = a.start(rules, setup);
    let right = b.start(rules, setup);
    match (left, right) {
        (Ok(()), Ok(())) => {
            let compared = Compared::new(a.capabilities(), b.capabilities(), setup);
            compared.observations(None, &a.observe(), &b.observe())?;
            Ok(Some(compared))
        }
        (Err(Unsupported(why)), Ok(())) => Err(diverge(
            Aspect::Start,
            None,
            format!("refused: {why}"),
            "started".to_string(),
        )),
        (_, Err(_)) => Ok(None),
    }
}

/// Whether an event can be put to both implementations: each takes its kind, and a
/// referee's record (a move standing although illegal, a notice) only goes to two that keep
/// one. Callers generating events skip the others, as the runner makes such a scenario not
/// applicable.
pub fn comparable(caps_a: &Capabilities, caps_b: &Capabilities, event: &Event) -> bool {
    match EventKind::of(event) {
        Some(kind) => caps_a.takes(kind) && caps_b.takes(kind),
        None => caps_a.observes(Observable::Procedures) && caps_b.observes(Observable::Procedures),
    }
}

/// What one event did to both sides, when they agree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The trusted side's verdict.
    pub verdict: Verdict,
    /// Whether the event was put to the right side (see [`Compared::put_to_right`]).
    pub asked: bool,
}

/// Applies one event to both implementations and compares the verdicts, then everything both
/// observe, and the count if `count` or where play stops (a pause, the end): a count is a
/// flood fill of the whole board on both sides, so a whole game compares it there and after
/// its last event, not after every move.
///
/// The left side is asked first; an event it refuses for a reason the right side does not
/// judge is not put to the right side, and nothing is compared (a refusal changes nothing).
/// A breakdown of either side ([`EngineError`](super::EngineError)) is an [`Aspect::Error`] divergence with its
/// message (`not asked` on the right when the left broke down).
pub fn step_agree(
    compared: &Compared,
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    event: &Event,
    count: bool,
) -> Result<Step, Divergence> {
    let left = a.apply(event).map_err(|e| {
        diverge(
            Aspect::Error,
            Some(event),
            e.message,
            "not asked".to_string(),
        )
    })?;
    if !compared.put_to_right(&left) {
        return Ok(Step {
            verdict: left,
            asked: false,
        });
    }
    let right = b.apply(event).map_err(|e| {
        diverge(
            Aspect::Error,
            Some(event),
            compared.verdict_text(&left),
            e.message,
        )
    })?;
    compared.verdicts(event, &left, &right)?;
    state_agree(compared, a, b, Some(event), count)?;
    Ok(Step {
        verdict: left,
        asked: true,
    })
}

/// Compares what both implementations show now (see [`Compared::observations`]), and their
/// counts if `count` or where play stops.
pub fn state_agree(
    compared: &Compared,
    a: &dyn Referee,
    b: &dyn Referee,
    event: Option<&Event>,
    count: bool,
) -> Result<(), Divergence> {
    let (seen_a, seen_b) = (a.observe(), b.observe());
    compared.observations(event, &seen_a, &seen_b)?;
    let stopped = !seen_a.phase.is_some_and(Phase::is_play);
    if count || stopped {
        compared.counts(&counted(a, &seen_a), &counted(b, &seen_b))?;
    }
    Ok(())
}

/// Compares the count of the position as it stands (result and scores), if both observe it.
pub fn count_agree(
    compared: &Compared,
    a: &dyn Referee,
    b: &dyn Referee,
) -> Result<(), Divergence> {
    if !compared.both(Observable::Score) {
        return Ok(());
    }
    compared.counts(&a.count(), &b.count())
}

/// The scenario key that checks a verdict of this kind.
fn verdict_key(verdict: &Verdict) -> &'static str {
    match verdict {
        Verdict::Legal { .. } => "legal",
        Verdict::Illegal(_) => "illegal",
        Verdict::Breach { .. } => "breach",
        Verdict::Ruled(_) => "ruling",
    }
}

fn sorted(points: &[Point]) -> Vec<Point> {
    let mut v = points.to_vec();
    v.sort();
    v
}

/// What an implementation shows for an observation it declared but did not give.
const NOTHING: &str = "(nothing shown)";

fn shown(text: Option<String>) -> String {
    text.unwrap_or_else(|| NOTHING.to_string())
}

fn pair(p: Option<[u32; 2]>) -> String {
    shown(p.map(|[b, w]| format!("B {b}, W {w}")))
}

/// The first point where two observed boards differ, when both sides showed one.
fn first_difference(
    l: &Option<Vec<(Point, Color)>>,
    r: &Option<Vec<(Point, Color)>>,
) -> Option<Point> {
    super::runner::first_difference(l.as_ref()?, r.as_ref()?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::conformance::{EngineError, EngineInfo, Reference};

    /// The reference, but claiming to see less, or lying about whose turn it is.
    struct Blinkered {
        inner: Reference,
        observes: Vec<Observable>,
        wrong_turn: bool,
        /// The reasons it judges (`None`: every one), and how many events it was asked.
        judges: Option<Vec<crate::game::Reason>>,
        asked: usize,
    }

    impl Referee for Blinkered {
        fn info(&self) -> EngineInfo {
            self.inner.info()
        }
        fn capabilities(&self) -> Capabilities {
            let caps = Capabilities::new().observing(self.observes.iter().copied());
            match &self.judges {
                Some(reasons) => caps.judging(reasons.iter().copied()),
                None => caps,
            }
        }
        fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
            self.inner.start(rules, setup)
        }
        fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
            self.asked += 1;
            self.inner.apply(event)
        }
        fn observe(&self) -> Observation {
            let mut seen = self.inner.observe();
            if self.wrong_turn {
                seen.to_move = seen.to_move.map(Color::opponent);
            }
            seen
        }
        fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
            self.inner.count()
        }
    }

    fn events(texts: &[&str]) -> Vec<Event> {
        texts
            .iter()
            .map(|t| Event::parse(t, 5, 5).unwrap())
            .collect()
    }

    #[test]
    fn the_reference_agrees_with_itself() {
        let (mut a, mut b) = (Reference::new(), Reference::new());
        let game = events(&["B C3", "W C3", "B pass", "W pass", "agree"]);
        assert_eq!(played(&mut a, &mut b, &game), Ok(5));
    }

    /// Plays `game` from an empty 5x5 board through both, counting at the end; the number
    /// of events put to the right side.
    fn played(
        a: &mut dyn Referee,
        b: &mut dyn Referee,
        game: &[Event],
    ) -> Result<usize, Divergence> {
        let compared = start_agree(a, b, &Rules::default(), &Setup::empty(5, 5))?
            .expect("the empty board is a case");
        let mut asked = 0;
        for (i, event) in game.iter().enumerate() {
            asked += usize::from(step_agree(&compared, a, b, event, i + 1 == game.len())?.asked);
        }
        Ok(asked)
    }

    #[test]
    fn a_wrong_turn_is_found_only_where_both_observe_it() {
        let mut a = Reference::new();
        let mut lying = Blinkered {
            inner: Reference::new(),
            observes: vec![Observable::Board, Observable::ToMove],
            wrong_turn: true,
            judges: None,
            asked: 0,
        };
        let d =
            start_agree(&mut a, &mut lying, &Rules::default(), &Setup::empty(5, 5)).unwrap_err();
        assert_eq!(d.aspect, Aspect::ToMove);
        assert_eq!((d.left.as_str(), d.right.as_str()), ("B", "W"));
        lying.observes = vec![Observable::Board];
        let game = events(&["B C3", "W D3"]);
        assert_eq!(played(&mut a, &mut lying, &game), Ok(2));
    }

    #[test]
    fn a_divergence_names_the_event_and_what_each_said() {
        let mut a = Reference::new();
        let mut b = Reference::new();
        let other = Rules {
            ko: crate::rules::KoRule::Simple,
            ..Rules::default()
        };
        a.start(&Rules::default(), &Setup::empty(5, 5)).unwrap();
        b.start(&other, &Setup::empty(5, 5)).unwrap();
        let everything = || Capabilities::everything();
        let compared = Compared::new(everything(), everything(), &Setup::empty(5, 5));
        // Same first move, then an out-of-turn move refused by both for the same reason.
        step_agree(
            &compared,
            &mut a,
            &mut b,
            &Event::Move(Color::Black, Move::Pass),
            false,
        )
        .unwrap();
        let refused = Event::Move(Color::Black, Move::Pass);
        step_agree(&compared, &mut a, &mut b, &refused, false).unwrap();
        // Two refusals of the same event for different reasons.
        let d = compared
            .verdicts(
                &refused,
                &Verdict::Illegal(crate::game::Reason::OutOfTurn),
                &Verdict::Illegal(crate::game::Reason::GameOver),
            )
            .unwrap_err();
        assert_eq!(d.aspect, Aspect::Reason);
        let text = d.to_string();
        assert!(text.contains("after `B pass`"), "{text}");
        assert!(
            text.contains("out-of-turn") && text.contains("game-over"),
            "{text}"
        );
        // Without reasons on one side, the same verdicts agree.
        let blind = Compared::new(everything(), Capabilities::new(), &Setup::empty(5, 5));
        assert!(blind
            .verdicts(
                &refused,
                &Verdict::Illegal(crate::game::Reason::OutOfTurn),
                &Verdict::Illegal(crate::game::Reason::GameOver),
            )
            .is_ok());
    }

    #[test]
    fn an_unjudged_refusal_is_not_put_to_the_other_side() {
        use crate::game::Reason;
        let mut a = Reference::new();
        let mut gtp_like = Blinkered {
            inner: Reference::new(),
            observes: vec![Observable::Board],
            wrong_turn: false,
            judges: Some(vec![Reason::Occupied, Reason::Suicide, Reason::Ko]),
            asked: 0,
        };
        let rules = Rules::default();
        let compared = start_agree(&mut a, &mut gtp_like, &rules, &Setup::empty(5, 5))
            .unwrap()
            .unwrap();
        // White out of turn: the reference refuses for a reason the other does not judge.
        let out_of_turn = Event::parse("W C3", 5, 5).unwrap();
        let step = step_agree(&compared, &mut a, &mut gtp_like, &out_of_turn, false).unwrap();
        assert!(!step.asked);
        assert_eq!(gtp_like.asked, 0);
        // A legal move and an occupied point are put to both.
        for text in ["B C3", "W C3"] {
            let event = Event::parse(text, 5, 5).unwrap();
            step_agree(&compared, &mut a, &mut gtp_like, &event, false).unwrap();
        }
        assert_eq!(gtp_like.asked, 2);

        let caps = gtp_like.capabilities();
        let everything = Capabilities::everything();
        assert!(comparable(&caps, &everything, &Event::Resign(Color::White)));
        let notice = Event::Notice { agreed: false };
        assert!(!comparable(&caps, &everything, &notice));
        assert!(comparable(&everything, &everything, &notice));
        let takes_moves = Capabilities::new().taking([EventKind::Play, EventKind::Pass]);
        assert!(!comparable(
            &everything,
            &takes_moves,
            &Event::Dispute(None)
        ));
    }

    #[test]
    fn boards_name_their_first_difference() {
        let p = |c, r| Point::new(c, r);
        let l = Some(vec![(p(0, 0), Color::Black), (p(2, 4), Color::White)]);
        let r = Some(vec![(p(0, 0), Color::Black), (p(1, 1), Color::White)]);
        assert_eq!(first_difference(&l, &r), Some(p(2, 4)));
        let mut a = Reference::new();
        let mut b = Blinkered {
            inner: Reference::new(),
            observes: vec![Observable::Board],
            wrong_turn: false,
            judges: None,
            asked: 0,
        };
        let compared = start_agree(&mut a, &mut b, &Rules::default(), &Setup::empty(5, 5))
            .unwrap()
            .unwrap();
        let (mut left, mut right) = (a.observe(), b.observe());
        left.stones = l;
        right.stones = r;
        let d = compared.observations(None, &left, &right).unwrap_err();
        assert_eq!(d.aspect, Aspect::Board);
        assert!(d.to_string().contains("(first at C5)"), "{d}");
        assert!(d.left.starts_with(". . O . .\n"), "{}", d.left);
    }
}
