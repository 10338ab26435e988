//! Shrinking a game that makes two implementations part to a small one that still does.
//!
//! Delta debugging (Zeller and Hildebrandt's ddmin) over the events, then over the set-up
//! stones and the handicap, then the events again: each candidate is kept if the same kind of
//! divergence (the same key) still shows. After events are removed, the ones that were made
//! by the player to move are recoloured to whoever is to move now, so a shorter game is still
//! played in turn rather than turning into a run of out-of-turn refusals.

use super::differential::Divergence;
use super::game::Case;
use crate::game::{Event, Refereed};
use crate::rules::{Rules, AXES};

/// The most candidate games one minimisation tries: each is a whole game through both
/// implementations, and a GTP engine answers in milliseconds, so this bounds a minimisation
/// to seconds.
pub const MAX_TRIES: usize = 3000;

/// A smaller game for which `diverges` still gives a divergence with the key of `found`, and
/// that divergence. `diverges` plays a candidate through both implementations. Last, every
/// rules axis that does not matter is set back to its value in `plain` (the ruleset the
/// scenario will be written against), so the scenario overrides only what the divergence
/// needs.
pub fn minimise(
    case: &Case,
    found: &Divergence,
    plain: &Rules,
    diverges: &mut dyn FnMut(&Case) -> Option<Divergence>,
) -> (Case, Divergence) {
    let mut best = truncated(case, found.after);
    let mut divergence = found.clone();
    let mut tries = 0usize;
    let mut test = |candidate: &Case, best_d: &mut Divergence| -> Option<Case> {
        if tries >= MAX_TRIES {
            return None;
        }
        tries += 1;
        let candidate = recoloured(candidate)?;
        let d = diverges(&candidate)?;
        (d.key == found.key).then(|| {
            let kept = truncated(&candidate, d.after);
            *best_d = d;
            kept
        })
    };
    for _ in 0..2 {
        let before = best.clone();
        // The events.
        let indices: Vec<usize> = (0..best.events.len()).collect();
        let base = best.clone();
        let mut last = None;
        let kept = ddmin(&indices, &mut |subset: &[usize]| {
            let candidate = with_events(&base, subset);
            match test(&candidate, &mut divergence) {
                Some(c) => {
                    last = Some(c);
                    true
                }
                None => false,
            }
        });
        if kept.len() < indices.len() {
            if let Some(c) = last.take() {
                best = c;
            }
        }
        // The set-up stones.
        let stones: Vec<usize> = (0..best.setup.stones.len()).collect();
        let base = best.clone();
        let kept = ddmin(&stones, &mut |subset: &[usize]| {
            let mut candidate = base.clone();
            candidate.setup.stones = subset.iter().map(|&i| base.setup.stones[i]).collect();
            match test(&candidate, &mut divergence) {
                Some(c) => {
                    last = Some(c);
                    true
                }
                None => false,
            }
        });
        if kept.len() < stones.len() {
            if let Some(c) = last.take() {
                best = c;
            }
        }
        // The handicap, all or nothing (a fixed placement has no smaller subset).
        if !best.setup.handicap.is_empty() {
            let mut candidate = best.clone();
            candidate.setup.handicap.clear();
            if let Some(c) = test(&candidate, &mut divergence) {
                best = c;
            }
        }
        if best == before {
            break;
        }
    }
    for axis in AXES {
        let (Some(now), Some(wanted)) = (best.rules.get(axis), plain.get(axis)) else {
            continue;
        };
        if now == wanted {
            continue;
        }
        let mut candidate = best.clone();
        if candidate.rules.set(axis, &wanted).is_ok() {
            if let Some(c) = test(&candidate, &mut divergence) {
                best = c;
            }
        }
    }
    (best, divergence)
}

/// The events up to and including the `after`-th.
fn truncated(case: &Case, after: usize) -> Case {
    let mut c = case.clone();
    let n = after.min(c.events.len());
    c.events.truncate(n);
    c.in_turn.truncate(n);
    c
}

fn with_events(case: &Case, indices: &[usize]) -> Case {
    let mut c = case.clone();
    c.events = indices.iter().map(|&i| case.events[i].clone()).collect();
    c.in_turn = indices.iter().map(|&i| case.in_turn[i]).collect();
    c
}

/// The case with every in-turn move given to the player to move as the reference replays
/// it; `None` if the reference refuses the set-up.
fn recoloured(case: &Case) -> Option<Case> {
    let mut referee = Refereed::new(case.rules, &case.setup).ok()?;
    let mut c = case.clone();
    for (event, &in_turn) in c.events.iter_mut().zip(&case.in_turn) {
        if in_turn {
            let mover = referee.game().to_move();
            match event {
                Event::Move(color, _) | Event::Breach(color, _, _) | Event::Sealed(color, _) => {
                    *color = mover
                }
                _ => {}
            }
        }
        referee.apply(event.clone());
    }
    Some(c)
}

/// The smallest subset of `items` found, in their order, for which `fails` holds, assuming it
/// holds for all of them: ddmin, with complements tried after subsets.
pub fn ddmin<T: Clone>(items: &[T], fails: &mut dyn FnMut(&[T]) -> bool) -> Vec<T> {
    let mut current = items.to_vec();
    let mut n = 2usize;
    while current.len() >= 2 {
        let chunk = current.len().div_ceil(n);
        let parts: Vec<Vec<T>> = current.chunks(chunk).map(<[T]>::to_vec).collect();
        let mut reduced = false;
        for part in &parts {
            if fails(part) {
                current = part.clone();
                n = 2;
                reduced = true;
                break;
            }
        }
        if !reduced && parts.len() > 2 {
            for i in 0..parts.len() {
                let complement: Vec<T> = parts
                    .iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .flat_map(|(_, p)| p.iter().cloned())
                    .collect();
                if fails(&complement) {
                    current = complement;
                    n = (n - 1).max(2);
                    reduced = true;
                    break;
                }
            }
        }
        if !reduced {
            if n >= current.len() {
                break;
            }
            n = (2 * n).min(current.len());
        }
    }
    if current.len() == 1 && fails(&[]) {
        current.clear();
    }
    current
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ddmin_finds_the_two_items_that_matter() {
        let items: Vec<u32> = (0..40).collect();
        let mut calls = 0;
        let kept = ddmin(&items, &mut |s: &[u32]| {
            calls += 1;
            s.contains(&7) && s.contains(&31)
        });
        assert_eq!(kept, [7, 31]);
        assert!(calls < 200, "{calls} calls");
    }

    #[test]
    fn ddmin_can_empty_a_list() {
        let kept = ddmin(&[1, 2, 3], &mut |_: &[i32]| true);
        assert!(kept.is_empty());
    }
}
