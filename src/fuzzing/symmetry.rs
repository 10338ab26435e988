//! The reference seen through a symmetry of the board: a second implementation whose answers
//! must equal the reference's, because the rules of Go do not depend on which corner is which.
//!
//! [`Symmetric`] maps the set-up and every event through one of the eight symmetries of the
//! square (four on an oblong board) before the reference inside sees them, and maps the
//! points of its answers back. It is a metamorphic check, not the reference compared with
//! itself: every point the reference reads or reports goes through a different path (other
//! string shapes in memory, other Zobrist keys, other edge cases), so a verdict that depends on
//! orientation shows up as a divergence. The property tests run it too.

use crate::board::{Move, Point};
use crate::conformance::{
    Capabilities, EngineError, EngineInfo, Observation, Referee, Reference, Unsupported,
};
use crate::game::{Breach, Event, Setup, Verdict};
use crate::rules::Rules;

/// One of the eight symmetries of a square: a rotation by `quarter` quarter turns after an
/// optional mirror image. On an oblong board only those that keep width and height apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Symmetry {
    /// Mirror the board left to right first.
    pub mirror: bool,
    /// Then turn it this many quarter turns (0 to 3).
    pub quarter: u8,
}

impl Symmetry {
    /// The eight symmetries, the identity first.
    pub fn all() -> Vec<Symmetry> {
        (0..8)
            .map(|i| Symmetry {
                mirror: i >= 4,
                quarter: i % 4,
            })
            .collect()
    }

    /// Whether the symmetry turns the board a quarter (swapping width and height).
    pub fn swaps_sides(self) -> bool {
        self.quarter % 2 == 1
    }

    /// The image of `p` on a `width` x `height` board (the image board is `height` x `width`
    /// when the symmetry swaps sides).
    pub fn apply(self, p: Point, width: u8, height: u8) -> Point {
        let (w, h) = (width, height);
        let x = if self.mirror { w - 1 - p.col } else { p.col };
        let y = p.row;
        // A quarter turn takes (x, y) on w x h to (y, w - 1 - x) on h x w.
        let (x, y) = match self.quarter % 4 {
            0 => (x, y),
            1 => (y, w - 1 - x),
            2 => (w - 1 - x, h - 1 - y),
            _ => (h - 1 - y, x),
        };
        Point::new(x, y)
    }

    /// The inverse symmetry's image of a point of the transformed board back on the original
    /// `width` x `height` board.
    pub fn unapply(self, q: Point, width: u8, height: u8) -> Point {
        // The symmetry is a mirror image then a rotation; its inverse turns back first (on the
        // transformed board) and mirrors after.
        let (tw, th) = self.size(width, height);
        let back = Symmetry {
            mirror: false,
            quarter: (4 - self.quarter % 4) % 4,
        };
        let p = back.apply(q, tw, th);
        if self.mirror {
            Point::new(width - 1 - p.col, p.row)
        } else {
            p
        }
    }

    /// The size of the transformed board.
    pub fn size(self, width: u8, height: u8) -> (u8, u8) {
        if self.swaps_sides() {
            (height, width)
        } else {
            (width, height)
        }
    }

    /// The set-up as it stands on the transformed board.
    pub fn setup(self, setup: &Setup) -> Setup {
        let (w, h) = (setup.width, setup.height);
        let (tw, th) = self.size(w, h);
        Setup {
            width: tw,
            height: th,
            stones: setup
                .stones
                .iter()
                .map(|&(p, c)| (self.apply(p, w, h), c))
                .collect(),
            handicap: setup
                .handicap
                .iter()
                .map(|&p| self.apply(p, w, h))
                .collect(),
            ..setup.clone()
        }
    }

    /// The event as made on the transformed board.
    pub fn event(self, event: &Event, width: u8, height: u8) -> Event {
        let p = |p: &Point| self.apply(*p, width, height);
        let m = |m: &Move| match m {
            Move::Play(q) => Move::Play(p(q)),
            Move::Pass => Move::Pass,
        };
        match event {
            Event::Move(c, mv) => Event::Move(*c, m(mv)),
            Event::Agree(dead) => Event::Agree(dead.iter().map(p).collect()),
            Event::Breach(c, mv, b) => {
                let b = match b {
                    Breach::Removes(taken) => Breach::Removes(taken.iter().map(p).collect()),
                    other => other.clone(),
                };
                Event::Breach(*c, m(mv), b)
            }
            Event::Ambiguous(c, points) => Event::Ambiguous(*c, points.iter().map(p).collect()),
            Event::Sealed(c, mv) => Event::Sealed(*c, m(mv)),
            other => other.clone(),
        }
    }
}

/// The reference playing on the transformed board, answering in the original coordinates.
pub struct Symmetric {
    symmetry: Symmetry,
    inner: Reference,
    /// The original board's size, once started.
    size: (u8, u8),
}

impl Symmetric {
    /// The reference seen through `symmetry`, before any trial.
    pub fn new(symmetry: Symmetry) -> Symmetric {
        Symmetric {
            symmetry,
            inner: Reference::new(),
            size: (0, 0),
        }
    }

    fn back(&self, points: &[Point]) -> Vec<Point> {
        let mut v: Vec<Point> = points
            .iter()
            .map(|&q| self.symmetry.unapply(q, self.size.0, self.size.1))
            .collect();
        v.sort();
        v
    }
}

impl Referee for Symmetric {
    fn info(&self) -> EngineInfo {
        EngineInfo {
            name: format!("goconform-reference-through-{:?}", self.symmetry),
            version: env!("CARGO_PKG_VERSION").to_string(),
        }
    }

    fn capabilities(&self) -> Capabilities {
        Capabilities::everything()
    }

    fn start(&mut self, rules: &Rules, setup: &Setup) -> Result<(), Unsupported> {
        self.size = (setup.width, setup.height);
        self.inner.start(rules, &self.symmetry.setup(setup))
    }

    fn apply(&mut self, event: &Event) -> Result<Verdict, EngineError> {
        let (w, h) = self.size;
        let verdict = self.inner.apply(&self.symmetry.event(event, w, h))?;
        Ok(match verdict {
            Verdict::Legal {
                captured,
                self_captured,
            } => Verdict::Legal {
                captured: self.back(&captured),
                self_captured: self.back(&self_captured),
            },
            other => other,
        })
    }

    fn observe(&self) -> Observation {
        let mut seen = self.inner.observe();
        if let Some(stones) = seen.stones.as_mut() {
            for (p, _) in stones.iter_mut() {
                *p = self.symmetry.unapply(*p, self.size.0, self.size.1);
            }
            stones.sort();
        }
        seen
    }

    fn count(&self) -> (Option<String>, Option<[i32; 2]>) {
        self.inner.count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_eight_symmetries_are_distinct_and_invertible() {
        for (w, h) in [(5u8, 3u8), (2, 7), (4, 4)] {
            for s in Symmetry::all() {
                for row in 0..h {
                    for col in 0..w {
                        let q = Point::new(col, row);
                        assert_eq!(s.unapply(s.apply(q, w, h), w, h), q, "{s:?} {w}x{h}");
                    }
                }
            }
        }
        let (w, h) = (5u8, 5u8);
        let p = Point::new(1, 0);
        let mut images: Vec<Point> = Symmetry::all().iter().map(|s| s.apply(p, w, h)).collect();
        for s in Symmetry::all() {
            for row in 0..h {
                for col in 0..w {
                    let q = Point::new(col, row);
                    assert_eq!(s.unapply(s.apply(q, w, h), w, h), q, "{s:?}");
                }
            }
        }
        images.sort();
        images.dedup();
        assert_eq!(images.len(), 8);
    }

    #[test]
    fn a_quarter_turn_swaps_the_sides_of_an_oblong_board() {
        let s = Symmetry {
            mirror: false,
            quarter: 1,
        };
        let (w, h) = (4u8, 2u8);
        assert_eq!(s.size(w, h), (2, 4));
        for row in 0..h {
            for col in 0..w {
                let q = s.apply(Point::new(col, row), w, h);
                assert!(q.col < 2 && q.row < 4, "{q:?}");
            }
        }
    }
}
