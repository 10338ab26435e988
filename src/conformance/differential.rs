//! Two implementations side by side: after every event, do they agree?
//!
//! The differential check is the other half of the suite. A scenario pins down what one
//! clause means in one position; a differential run plays positions nobody wrote down through
//! two implementations of [`Referee`] and stops at the first event after which they part.
//! The naive executor is checked against the reference this way (`tests/naive.rs`), and the
//! fuzz targets and `goconform fuzz` call the same functions, so what "agree" means is
//! decided once, here.
//!
//! Each side is compared only on what both claim to observe ([`Capabilities::observes`]):
//! the verdict's kind (legal, illegal, breach, ruling) always, the reason only if both report
//! reasons, captured points only if both report captures, and likewise the board, whose turn
//! it is, prisoners, phase, warnings and the count. A declared observation that shows nothing
//! differs from one that shows something. The left side is the one trusted (the reference):
//! a set-up it refuses is not a case, while one only the right side refuses is that side's
//! choice ([`Unsupported`]), not a divergence.
//!
//! Panics are not caught: a fuzzer wants them, and a test reports them as they are.

use std::fmt;

use super::{Capabilities, EngineError, EventKind, Observable, Observation, Referee, Unsupported};
use crate::board::{points_text, Color, Point};
use crate::game::counting::format_points;
use crate::game::{Event, Setup, Verdict};
use crate::rules::Rules;

/// Which part of the state two implementations disagree on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Aspect {
    /// One started from the set-up and the other refused it.
    Start,
    /// One broke down (an [`EngineError`]) where the other gave a verdict.
    Error,
    /// Legal against illegal, or a breach or ruling against something else.
    Verdict,
    /// Both refused, for different reasons.
    Reason,
    /// Both accepted, capturing different stones.
    Captures,
    /// Both accepted, self-capturing different stones.
    SelfCaptures,
    Board,
    ToMove,
    Prisoners,
    Phase,
    Warnings,
    /// The result of the position (SGF `RE` form).
    Result,
    /// The scores in half points.
    Score,
}

impl Aspect {
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
}

impl fmt::Display for Aspect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The first thing two implementations disagreed on, with what each said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
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

fn diverge(aspect: Aspect, event: Option<&Event>, left: String, right: String) -> Divergence {
    Divergence {
        aspect,
        event: event.cloned(),
        left,
        right,
        first_difference: None,
    }
}

/// What both implementations claim to observe: only that is compared.
fn shared(a: &Capabilities, b: &Capabilities, what: Observable) -> bool {
    a.observes(what) && b.observes(what)
}

/// Starts both implementations from the same set-up and compares what they show.
///
/// `Ok(true)`: both started and agree. `Ok(false)`: not a case: the left side refused the
/// set-up (so it is not a game), or the right side does not support it ([`Unsupported`]).
/// A set-up the left refuses and the right accepts is a [`Aspect::Start`] divergence: an
/// implementation must not start from what the rules cannot start from.
pub fn start_agree(
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    rules: &Rules,
    setup: &Setup,
) -> Result<bool, Divergence> {
    let left = a.start(rules, setup);
    let right = b.start(rules, setup);
    match (left, right) {
        (Ok(()), Ok(())) => {
            observe_agree(a, b, None)?;
            Ok(true)
        }
        (Err(Unsupported(why)), Ok(())) => Err(diverge(
            Aspect::Start,
            None,
            format!("refused: {why}"),
            "started".to_string(),
        )),
        (_, Err(_)) => Ok(false),
    }
}

/// Whether an event can be put to both implementations: each takes its kind, and a
/// referee's record (a move standing although illegal, a notice) only goes to two that keep
/// one. Callers generating events skip the others, as the runner makes such a scenario not
/// applicable.
pub fn comparable(caps_a: &Capabilities, caps_b: &Capabilities, event: &Event) -> bool {
    match EventKind::of(event) {
        Some(kind) => caps_a.takes(kind) && caps_b.takes(kind),
        None => shared(caps_a, caps_b, Observable::Procedures),
    }
}

/// Applies one event to both implementations and compares the verdicts, then everything both
/// observe. This is the check the fuzz targets and `goconform fuzz` call after every event.
///
/// The left side is asked first. If it refuses the event for a reason the right side does
/// not judge ([`Capabilities::judges`]: a GTP engine and whose turn it is), the right side is
/// not asked, as the runner does: a refusal leaves the state unchanged, so both are still
/// comparable afterwards, and the right side is not blamed for what it never claimed.
pub fn step_agree(
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    event: &Event,
) -> Result<(), Divergence> {
    let left = a.apply(event);
    if let Ok(Verdict::Illegal(reason)) = &left {
        if !b.capabilities().judges(*reason) {
            return observe_agree(a, b, Some(event));
        }
    }
    let right = b.apply(event);
    let (left, right) = match (left, right) {
        (Ok(l), Ok(r)) => (l, r),
        (l, r) => {
            let text = |v: Result<Verdict, EngineError>| match v {
                Ok(v) => v.to_string(),
                Err(e) => format!("error: {e}"),
            };
            return Err(diverge(Aspect::Error, Some(event), text(l), text(r)));
        }
    };
    verdicts_agree(&a.capabilities(), &b.capabilities(), event, &left, &right)?;
    observe_agree(a, b, Some(event))
}

/// Compares two verdicts on the same event, as far as both capabilities allow.
pub fn verdicts_agree(
    caps_a: &Capabilities,
    caps_b: &Capabilities,
    event: &Event,
    left: &Verdict,
    right: &Verdict,
) -> Result<(), Divergence> {
    let kind = |v: &Verdict| match v {
        Verdict::Legal { .. } => "legal",
        Verdict::Illegal(_) => "illegal",
        Verdict::Breach { .. } => "breach",
        Verdict::Ruled(_) => "ruling",
    };
    if kind(left) != kind(right) {
        return Err(diverge(
            Aspect::Verdict,
            Some(event),
            left.to_string(),
            right.to_string(),
        ));
    }
    match (left, right) {
        (Verdict::Illegal(l), Verdict::Illegal(r))
            if l != r && shared(caps_a, caps_b, Observable::Reasons) =>
        {
            Err(diverge(
                Aspect::Reason,
                Some(event),
                l.to_string(),
                r.to_string(),
            ))
        }
        (
            Verdict::Breach {
                reason: l,
                class: lc,
            },
            Verdict::Breach {
                reason: r,
                class: rc,
            },
        ) if (l != r || lc != rc) && shared(caps_a, caps_b, Observable::Reasons) => Err(diverge(
            Aspect::Reason,
            Some(event),
            left.to_string(),
            right.to_string(),
        )),
        (Verdict::Ruled(l), Verdict::Ruled(r)) if l != r => Err(diverge(
            Aspect::Verdict,
            Some(event),
            l.to_string(),
            r.to_string(),
        )),
        (
            Verdict::Legal {
                captured: lc,
                self_captured: ls,
            },
            Verdict::Legal {
                captured: rc,
                self_captured: rs,
            },
        ) if shared(caps_a, caps_b, Observable::Captures) => {
            // The order stones come off the board in is not a rule: compare as sets.
            let sorted = |v: &Vec<Point>| {
                let mut v = v.clone();
                v.sort();
                v
            };
            for (aspect, l, r) in [
                (Aspect::Captures, sorted(lc), sorted(rc)),
                (Aspect::SelfCaptures, sorted(ls), sorted(rs)),
            ] {
                if l != r {
                    return Err(diverge(
                        aspect,
                        Some(event),
                        points_text(&l),
                        points_text(&r),
                    ));
                }
            }
            Ok(())
        }
        _ => Ok(()),
    }
}

/// Compares what both implementations show now: board, turn, prisoners, phase and warnings,
/// each only if both observe it.
pub fn observe_agree(
    a: &dyn Referee,
    b: &dyn Referee,
    event: Option<&Event>,
) -> Result<(), Divergence> {
    let (caps_a, caps_b) = (a.capabilities(), b.capabilities());
    let (left, right) = (a.observe(), b.observe());
    observations_agree(&caps_a, &caps_b, event, &left, &right)
}

/// [`observe_agree`] on observations already taken.
pub fn observations_agree(
    caps_a: &Capabilities,
    caps_b: &Capabilities,
    event: Option<&Event>,
    left: &Observation,
    right: &Observation,
) -> Result<(), Divergence> {
    let both = |what| shared(caps_a, caps_b, what);
    if both(Observable::Board) {
        let sorted = |s: &Option<Vec<(Point, Color)>>| {
            s.clone().map(|mut v| {
                v.sort();
                v
            })
        };
        let (l, r) = (sorted(&left.stones), sorted(&right.stones));
        if l != r {
            let mut d = diverge(Aspect::Board, event, board_text(&l), board_text(&r));
            d.first_difference = first_difference(&l, &r);
            return Err(d);
        }
    }
    let color = |c: Option<Color>| c.map_or(NOTHING.to_string(), |c| c.letter().to_string());
    if both(Observable::ToMove) && left.to_move != right.to_move {
        return Err(diverge(
            Aspect::ToMove,
            event,
            color(left.to_move),
            color(right.to_move),
        ));
    }
    if both(Observable::Prisoners) && left.prisoners != right.prisoners {
        return Err(diverge(
            Aspect::Prisoners,
            event,
            pair(left.prisoners),
            pair(right.prisoners),
        ));
    }
    if both(Observable::Phase) && left.phase != right.phase {
        let phase =
            |p: Option<crate::game::Phase>| p.map_or(NOTHING.to_string(), |p| p.to_string());
        return Err(diverge(
            Aspect::Phase,
            event,
            phase(left.phase),
            phase(right.phase),
        ));
    }
    if both(Observable::Procedures) && left.warnings != right.warnings {
        return Err(diverge(
            Aspect::Warnings,
            event,
            pair(left.warnings),
            pair(right.warnings),
        ));
    }
    Ok(())
}

/// Compares the count of the position as it stands (result and scores), if both observe it.
pub fn count_agree(a: &dyn Referee, b: &dyn Referee) -> Result<(), Divergence> {
    if !shared(&a.capabilities(), &b.capabilities(), Observable::Score) {
        return Ok(());
    }
    let (left_result, left_score) = a.count();
    let (right_result, right_score) = b.count();
    let text = |r: Option<String>| r.unwrap_or_else(|| NOTHING.to_string());
    if left_result != right_result {
        return Err(diverge(
            Aspect::Result,
            None,
            text(left_result),
            text(right_result),
        ));
    }
    if left_score != right_score {
        let score = |s: Option<[i32; 2]>| {
            s.map_or(NOTHING.to_string(), |[b, w]| {
                format!("B {}, W {}", format_points(b), format_points(w))
            })
        };
        return Err(diverge(
            Aspect::Score,
            None,
            score(left_score),
            score(right_score),
        ));
    }
    Ok(())
}

/// Where a whole game parted: the index of the event (0-based) after which the two
/// disagreed, `None` at the start or at the final count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameDivergence {
    pub at: Option<usize>,
    pub divergence: Divergence,
}

impl fmt::Display for GameDivergence {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.at {
            Some(i) => write!(f, "event {}: {}", i + 1, self.divergence),
            None => write!(f, "{}", self.divergence),
        }
    }
}

/// Plays a whole game through both: the start, every event, and the count at the end.
/// `Ok(false)` when the set-up is not a case (see [`start_agree`]).
pub fn game_agree(
    a: &mut dyn Referee,
    b: &mut dyn Referee,
    rules: &Rules,
    setup: &Setup,
    events: &[Event],
) -> Result<bool, GameDivergence> {
    let wrap = |at| move |divergence| GameDivergence { at, divergence };
    if !start_agree(a, b, rules, setup).map_err(wrap(None))? {
        return Ok(false);
    }
    for (i, event) in events.iter().enumerate() {
        step_agree(a, b, event).map_err(wrap(Some(i)))?;
    }
    count_agree(a, b).map_err(wrap(None))?;
    Ok(true)
}

/// What an implementation shows for an observation it declared but did not give.
const NOTHING: &str = "(nothing shown)";

fn pair(p: Option<[u32; 2]>) -> String {
    p.map_or(NOTHING.to_string(), |[b, w]| format!("B {b}, W {w}"))
}

/// A board as a list of stones (`B: A1 C3; W: B2`): the size is not known here, and a list is
/// what a reader compares anyway.
fn board_text(stones: &Option<Vec<(Point, Color)>>) -> String {
    let Some(stones) = stones else {
        return NOTHING.to_string();
    };
    let of = |c: Color| -> Vec<Point> {
        stones
            .iter()
            .filter(|(_, s)| *s == c)
            .map(|(p, _)| *p)
            .collect()
    };
    format!(
        "B: {}; W: {}",
        points_text(&of(Color::Black)),
        points_text(&of(Color::White))
    )
}

fn first_difference(
    l: &Option<Vec<(Point, Color)>>,
    r: &Option<Vec<(Point, Color)>>,
) -> Option<Point> {
    let (l, r) = (l.as_ref()?, r.as_ref()?);
    let at = |s: &Vec<(Point, Color)>, p: Point| s.iter().find(|(q, _)| *q == p).map(|(_, c)| *c);
    let mut points: Vec<Point> = l.iter().chain(r).map(|(p, _)| *p).collect();
    points.sort_by_key(|p| (std::cmp::Reverse(p.row), p.col));
    points.into_iter().find(|&p| at(l, p) != at(r, p))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Move;
    use crate::conformance::{EngineInfo, Reference};

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
        let played = game_agree(
            &mut a,
            &mut b,
            &Rules::default(),
            &Setup::empty(5, 5),
            &game,
        );
        assert_eq!(played, Ok(true));
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
        let played = game_agree(
            &mut a,
            &mut lying,
            &Rules::default(),
            &Setup::empty(5, 5),
            &game,
        );
        assert_eq!(played, Ok(true));
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
        // Same first move, then an out-of-turn move refused by both for the same reason.
        step_agree(&mut a, &mut b, &Event::Move(Color::Black, Move::Pass)).unwrap();
        let refused = Event::Move(Color::Black, Move::Pass);
        step_agree(&mut a, &mut b, &refused).unwrap();
        // Two refusals of the same event for different reasons.
        let d = verdicts_agree(
            &Capabilities::everything(),
            &Capabilities::everything(),
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
        assert!(verdicts_agree(
            &Capabilities::everything(),
            &Capabilities::new(),
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
        start_agree(&mut a, &mut gtp_like, &rules, &Setup::empty(5, 5)).unwrap();
        // White out of turn: the reference refuses for a reason the other does not judge.
        let out_of_turn = Event::parse("W C3", 5, 5).unwrap();
        step_agree(&mut a, &mut gtp_like, &out_of_turn).unwrap();
        assert_eq!(gtp_like.asked, 0);
        // A legal move and an occupied point are put to both.
        step_agree(&mut a, &mut gtp_like, &Event::parse("B C3", 5, 5).unwrap()).unwrap();
        step_agree(&mut a, &mut gtp_like, &Event::parse("W C3", 5, 5).unwrap()).unwrap();
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
        assert_eq!(board_text(&l), "B: A1; W: C5");
    }
}
