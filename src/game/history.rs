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
    /// The previous entry with the same hash, or `NONE`.
    same_hash: u32,
}

const NONE: u32 = u32::MAX;

/// Every position of the game so far, indexed by board hash.
#[derive(Clone, Default)]
pub struct History {
    entries: Vec<Entry>,
    snapshots: Vec<u8>,
    /// Bytes in each snapshot.
    snapshot_len: usize,
    /// The latest entry with each hash; earlier ones are chained through `Entry::same_hash`.
    by_hash: HashMap<u64, u32, BuildHasherDefault<PassThrough>>,
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
        self.snapshot_len = board.snapshot_len();
        if self.entries.is_empty() {
            // A game usually runs to a few times the board area: reserve for that up front.
            let expected = 2 * board.area();
            self.entries.reserve(expected);
            self.snapshots.reserve(expected * self.snapshot_len);
            self.by_hash.reserve(expected);
        }
        let snapshot = match self.entries.last() {
            Some(last) if unchanged => last.snapshot,
            _ => {
                let offset = self.snapshots.len();
                board.write_snapshot(&mut self.snapshots);
                offset
            }
        };
        let same_hash = self
            .by_hash
            .insert(board.hash(), self.entries.len() as u32)
            .unwrap_or(NONE);
        self.entries.push(Entry {
            to_move,
            created_by_play_of,
            snapshot,
            same_hash,
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
        let Some(&latest) = self.by_hash.get(&hash_after) else {
            return false;
        };
        let candidates = std::iter::successors(Some(latest), |&i| {
            Some(self.entries[i as usize].same_hash).filter(|&j| j != NONE)
        });
        let relevant = |e: &Entry| match rule {
            KoRule::Simple => false,
            KoRule::Positional => true,
            KoRule::Situational => e.to_move == mover.opponent(),
            KoRule::NaturalSituational => e.created_by_play_of == Some(mover),
        };
        let mut matching = candidates
            .map(|i| self.entries[i as usize])
            .filter(relevant)
            .peekable();
        if matching.peek().is_none() {
            return false;
        }
        let after = board_after();
        matching.any(|e| {
            after.matches_snapshot(&self.snapshots[e.snapshot..e.snapshot + self.snapshot_len])
        })
    }
}
