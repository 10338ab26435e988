//! The repetition history behind every superko rule.
//!
//! Each entry is one position that has stood on the board, with who was to move in it and
//! which player (if any) created it by a board play. Positional, situational and natural
//! situational superko are three different questions asked of the same entries. Hashes only
//! select candidates: a repetition is declared only after the whole position is compared, so no
//! verdict depends on the absence of hash collisions.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::board::{Board, Color};
use crate::rules::KoRule;

/// Zobrist hashes are already uniformly random: hashing them again would only cost time.
#[derive(Default)]
struct PassThrough(u64);

impl Hasher for PassThrough {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }
    fn write_u64(&mut self, value: u64) {
        self.0 = value;
    }
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    to_move: Color,
    created_by_play_of: Option<Color>,
    snapshot: usize,
}

/// Every position of the game so far, indexed by board hash.
#[derive(Clone, Default)]
pub struct History {
    entries: Vec<Entry>,
    snapshots: Vec<u8>,
    area: usize,
    by_hash: HashMap<u64, Vec<u32>, BuildHasherDefault<PassThrough>>,
}

impl History {
    pub fn new() -> History {
        History::default()
    }

    /// Number of positions recorded.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Records the position now on `board`, with `to_move` to play, created by a board play of
    /// `created_by_play_of` (None for a pass or a set-up position that counts as no play).
    /// `unchanged` says the board is the one recorded last (after a pass), so its snapshot is
    /// shared instead of copied.
    pub fn record(
        &mut self,
        board: &Board,
        to_move: Color,
        created_by_play_of: Option<Color>,
        unchanged: bool,
    ) {
        self.area = board.area();
        let snapshot = match self.entries.last() {
            Some(last) if unchanged => last.snapshot,
            _ => {
                let offset = self.snapshots.len();
                board.write_snapshot(&mut self.snapshots);
                offset
            }
        };
        self.by_hash
            .entry(board.hash())
            .or_default()
            .push(self.entries.len() as u32);
        self.entries.push(Entry {
            to_move,
            created_by_play_of,
            snapshot,
        });
    }

    /// Would a board play by `mover`, producing `hash_after`, repeat the history in the sense
    /// of `rule`? `board_after` builds the resulting board; it is called only when a candidate
    /// with the same hash and the right metadata exists, to compare whole positions.
    pub fn repeats(
        &self,
        rule: KoRule,
        mover: Color,
        hash_after: u64,
        board_after: impl FnOnce() -> Board,
    ) -> bool {
        if rule == KoRule::Simple {
            return false;
        }
        let Some(candidates) = self.by_hash.get(&hash_after) else {
            return false;
        };
        let relevant = |e: &Entry| match rule {
            KoRule::Simple => false,
            KoRule::Positional => true,
            KoRule::Situational => e.to_move == mover.opponent(),
            KoRule::NaturalSituational => e.created_by_play_of == Some(mover),
        };
        let mut matching = candidates
            .iter()
            .map(|&i| self.entries[i as usize])
            .filter(relevant)
            .peekable();
        if matching.peek().is_none() {
            return false;
        }
        let after = board_after();
        matching
            .any(|e| after.matches_snapshot(&self.snapshots[e.snapshot..e.snapshot + self.area]))
    }
}
