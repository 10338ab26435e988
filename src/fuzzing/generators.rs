//! Generators of the public types for engine authors' own tests, behind cargo features:
//! `arbitrary` ([`arbitrary::Arbitrary`] for [`Color`], [`Point`], [`Move`], [`Komi`],
//! [`Rules`], [`Event`] and [`Case`]), `proptest` ([`proptest::arbitrary::Arbitrary`], so
//! `any::<Rules>()` works) and `quickcheck` ([`quickcheck::Arbitrary`]).
//!
//! One definition serves all three: the `arbitrary` impls say what a value is made of, and the
//! proptest and quickcheck impls feed them bytes. Points lie on the largest board (25x25);
//! map them onto a smaller one as the test needs. A [`Case`] is a whole game realised for the
//! reference's capabilities (every axis, a valid set-up, events of every kind): play it
//! through your engine with [`mod@crate::fuzzing::differential`].

use arbitrary::{Arbitrary, Unstructured};

use super::game::{Case, GameInput};
use crate::board::{Color, Move, Point};
use crate::conformance::Capabilities;
use crate::game::Event;
use crate::rules::{Komi, Rules, AXES};

/// The largest board side any rules value allows.
const SIDE: u8 = 25;

impl<'a> Arbitrary<'a> for Color {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Color> {
        Ok(if bool::arbitrary(u)? {
            Color::White
        } else {
            Color::Black
        })
    }
}

impl<'a> Arbitrary<'a> for Point {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Point> {
        Ok(Point::new(
            u.int_in_range(0..=SIDE - 1)?,
            u.int_in_range(0..=SIDE - 1)?,
        ))
    }
}

impl<'a> Arbitrary<'a> for Move {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Move> {
        Ok(if u.ratio(1, 8)? {
            Move::Pass
        } else {
            Move::Play(Point::arbitrary(u)?)
        })
    }
}

impl<'a> Arbitrary<'a> for Komi {
    /// From -10 to 20 points, in half points.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Komi> {
        Ok(Komi::from_half_points(u.int_in_range(-20..=40)?))
    }
}

impl<'a> Arbitrary<'a> for Rules {
    /// Every axis independently, each value as likely as the others.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Rules> {
        let mut rules = Rules::default();
        for axis in AXES {
            let word = match *axis {
                "komi" | "handicap-komi" => Komi::arbitrary(u)?.to_string(),
                _ => {
                    let words = super::game::axis_words(axis);
                    u.choose(&words)?.clone()
                }
            };
            // Every word comes from the axis's own list.
            let _ = rules.set(axis, &word);
        }
        Ok(rules)
    }
}

impl<'a> Arbitrary<'a> for Event {
    /// An ordinary event: a move (mostly), a dispute, an agreement or a resignation.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Event> {
        Ok(match u.int_in_range(0..=19u8)? {
            0..=15 => Event::Move(Color::arbitrary(u)?, Move::arbitrary(u)?),
            16 => Event::Dispute(Option::<Color>::arbitrary(u)?),
            17 | 18 => {
                let n = u.int_in_range(0..=3usize)?;
                let dead = (0..n)
                    .map(|_| Point::arbitrary(u))
                    .collect::<arbitrary::Result<Vec<_>>>()?;
                Event::Agree(dead)
            }
            _ => Event::Resign(Color::arbitrary(u)?),
        })
    }
}

impl<'a> Arbitrary<'a> for Case {
    /// A whole game: board 2x2 to 9x9, every axis, a set-up the reference accepts, up to
    /// [`super::game::MAX_EVENTS`] events of every kind.
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Case> {
        Ok(GameInput::arbitrary(u)?.realise(&Capabilities::everything()))
    }
}

/// A value of `T` from bytes, for the proptest and quickcheck bridges: running out of bytes
/// gives the smallest value, never an error.
#[cfg(any(feature = "proptest", feature = "quickcheck"))]
fn from_bytes<T: for<'a> Arbitrary<'a>>(bytes: &[u8]) -> T {
    let mut u = Unstructured::new(bytes);
    T::arbitrary(&mut u)
        .or_else(|_| T::arbitrary(&mut Unstructured::new(&[0; 4096])))
        .expect("every generator accepts zero bytes")
}

/// How many bytes a bridged value is made from: enough for a long game.
#[cfg(any(feature = "proptest", feature = "quickcheck"))]
const BYTES: usize = 1200;

#[cfg(feature = "proptest")]
mod with_proptest {
    use proptest::prelude::*;

    use super::{from_bytes, BYTES};
    use crate::board::{Color, Move, Point};
    use crate::game::Event;
    use crate::rules::{Komi, Rules};

    use super::Case;

    macro_rules! bridged {
        ($($t:ty),*) => {$(
            impl proptest::arbitrary::Arbitrary for $t {
                type Parameters = ();
                type Strategy = BoxedStrategy<$t>;
                /// Made from a byte string, which proptest shrinks.
                fn arbitrary_with(_: ()) -> BoxedStrategy<$t> {
                    proptest::collection::vec(any::<u8>(), 0..BYTES)
                        .prop_map(|bytes| from_bytes::<$t>(&bytes))
                        .boxed()
                }
            }
        )*};
    }

    bridged!(Color, Point, Move, Komi, Rules, Event, Case);
}

#[cfg(feature = "quickcheck")]
mod with_quickcheck {
    use quickcheck::{Arbitrary, Gen};

    use super::{from_bytes, BYTES};
    use crate::board::{Color, Move, Point};
    use crate::game::Event;
    use crate::rules::{Komi, Rules};

    use super::Case;

    macro_rules! bridged {
        ($($t:ty),*) => {$(
            impl Arbitrary for $t {
                fn arbitrary(g: &mut Gen) -> $t {
                    let n = usize::arbitrary(g) % BYTES;
                    let bytes: Vec<u8> = (0..n).map(|_| u8::arbitrary(g)).collect();
                    from_bytes::<$t>(&bytes)
                }
            }
        )*};
    }

    bridged!(Color, Point, Move, Komi, Rules, Event, Case);
}
