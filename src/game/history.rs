//! The repetition history behind every superko rule.
//!
//! Each entry is one position that has stood on the board, with who was to move in it and
//! which player (if any) created it by a board play. Positional, situational and natural
//! situational superko are three different questions asked of the same entries. Hashes only
//! select candidates: a repetition is declared only after the whole position is compared, so no
//! verdict depends on the absence of hash collisions.

use crate::board::{Board, Color, MAX_SIDE};
use crate::rules::KoRule;

#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The Zobrist hash of the position.
    hash: u64,
    to_move: Color,
    created_by_play_of: Option<Color>,
    /// The end of this entry's changes in `History::changes`; they start where the previous
    /// entry's end.
    changes_end: u32,
    /// The previous entry with the same hash, or `NONE`.
    same_hash: u32,
    /// Black's and White's stones on the board.
    stones: [u32; 2],
    /// The previous entry whose stone counts share this one's slot of `History::by_stones`,
    /// or `NONE`.
    same_stones: u32,
    /// What `History::fewest` held, before this entry was recorded, at this entry's Black
    /// count (its fewest White stones) and at its White count (its fewest Black stones): put
    /// back when the entry is taken back.
    fewest_before: [u16; 2],
}

const NONE: u32 = u32::MAX;

/// Whether `rule` compares a play by `mover` with the recorded position `e` (before the
/// positions themselves are compared): every position under positional superko, one with the
/// mover's opponent to play under situational superko, one created by a play of the mover's
/// under the natural situational rules, none under the simple ko rules.
#[inline(always)]
fn compared_under(rule: KoRule, e: &Entry, mover: Color) -> bool {
    match rule {
        KoRule::Simple | KoRule::SimpleCycleDraw | KoRule::SimpleCycleVoid => false,
        KoRule::Positional => true,
        KoRule::Situational => e.to_move == mover.opponent(),
        KoRule::NaturalSituational | KoRule::NaturalSituationalBasicKo => {
            e.created_by_play_of == Some(mover)
        }
    }
}

/// Entries of each half of [`History`]'s `fewest`: one for every count of one colour's
/// stones a board can hold (none to the whole of the largest board), and one past it, which
/// is asked of (one stone more than now) when that colour fills the board.
const FEWEST_LEN: usize = (MAX_SIDE as usize) * (MAX_SIDE as usize) + 2;

/// `History::fewest` where no recorded position has that count.
const NO_COUNT: u16 = u16::MAX;

/// Where `History::fewest` keeps, for positions with `own` stones of `color`, the fewest
/// stones of the other colour.
#[inline(always)]
fn fewest_slot(color: Color, own: u32) -> usize {
    color.index() * FEWEST_LEN + own as usize
}

/// Slots of [`History`]'s `by_stones`: a power of two.
const STONE_SLOTS: usize = 4096;

/// The slot of `by_stones` that heads the chain of the positions with these numbers of stones
/// (Black's, White's); several pairs share a slot.
#[inline(always)]
fn stone_slot(stones: [u32; 2]) -> usize {
    let key = (stones[0] << 16) ^ stones[1];
    (key.wrapping_mul(0x9E37_79B1) >> (32 - STONE_SLOTS.trailing_zeros())) as usize
}

/// Every position of the game so far, indexed by board hash.
///
/// Positions are not copied whole: the history keeps the latest one (as the board's bit
/// planes) and, for each entry, the words of those planes that changed from the entry before
/// (one or two for most plays). A position further back is rebuilt exactly by undoing the
/// changes from the latest one back to it, so a hash match is still confirmed by comparing
/// the whole position, at a cost that grows with how far back the match lies (two entries for
/// a ko retake), while recording a move costs a few words instead of a copy of the board.
#[derive(Clone, Default)]
pub struct History {
    entries: Vec<Entry>,
    /// (word of the planes, xor of its old and new value), entry after entry.
    changes: Vec<(u32, u64)>,
    /// The position of the latest entry, as [`Board::snapshot`] gives it.
    latest: Vec<u64>,
    /// The latest entry with each hash, found by open addressing (`NONE` marks a free slot;
    /// the length is zero or a power of two, at most half full); earlier entries with that
    /// hash are chained through `Entry::same_hash`. Zobrist hashes are uniformly random
    /// already, so their low bits pick the slot.
    slots: Vec<u32>,
    /// For each pair of stone counts (Black's, White's), hashed to `STONE_SLOTS` slots, the
    /// latest entry with a pair of that slot (`NONE` if none), earlier ones chained through
    /// `Entry::same_stones`. A position can only repeat one with as many stones of each
    /// colour, so where a play's result has an empty slot no hash is looked up, and the
    /// positions a play that captures nothing could repeat are found by walking one chain
    /// ([`History::each_candidate`]). Empty until the first position is kept.
    by_stones: Vec<u32>,
    /// For each colour and each count of that colour's stones, the fewest stones of the other
    /// colour that a recorded position with that count has (`NO_COUNT` if none has it):
    /// Black's counts first, then White's (`fewest_slot`). A play that keeps its stone leaves
    /// the mover one stone more and the opponent at most as many as now, whatever it captures,
    /// so one load says whether any recorded position could be repeated by it
    /// ([`History::may_repeat_keeping`]); a play that captures, at most one fewer
    /// ([`History::may_repeat_after_capture`]). Empty until the first position is kept.
    fewest: Vec<u16>,
    /// Set by [`History::count_only`]: positions are counted, not kept.
    count_only: bool,
    /// Positions recorded while `count_only`.
    counted: usize,
}

impl History {
    /// An empty history.
    pub fn new() -> History {
        History::default()
    }

    /// A history for simple ko, which asks nothing of earlier positions (the ban on the
    /// immediate retake is the game's `ko_ban`): positions are counted, so that [`History::len`]
    /// is what a full history would say, and not kept. [`History::repeats`] finds no
    /// repetition in it under any rule, so only a game under simple ko may use one.
    pub fn count_only() -> History {
        History {
            count_only: true,
            ..History::default()
        }
    }

    /// This history emptied for a new game, keeping its storage (the reservation the first
    /// position makes, and the index): a [`History::new`] when `count_only` is false, else a
    /// [`History::count_only`].
    pub fn reused(mut self, count_only: bool) -> History {
        if !self.entries.is_empty() {
            self.slots.fill(NONE);
        }
        for e in &self.entries {
            self.by_stones[stone_slot(e.stones)] = NONE;
            self.fewest[fewest_slot(Color::Black, e.stones[0])] = NO_COUNT;
            self.fewest[fewest_slot(Color::White, e.stones[1])] = NO_COUNT;
        }
        self.entries.clear();
        self.changes.clear();
        self.latest.clear();
        self.count_only = count_only;
        self.counted = 0;
        self
    }

    /// Number of positions recorded.
    pub fn len(&self) -> usize {
        if self.count_only {
            self.counted
        } else {
            self.entries.len()
        }
    }

    /// Whether no position is recorded yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Records the position now on `board`, with `to_move` to play, created by a board play of
    /// `created_by_play_of` (None for a pass or a set-up position that counts as no play).
    /// `board` must be the board recorded last, changed since only through its own methods:
    /// the words it reports changed ([`Board::take_changed_words`]) are the only ones compared
    /// with the latest position.
    #[inline]
    pub fn record(&mut self, board: &mut Board, to_move: Color, created_by_play_of: Option<Color>) {
        let changed = board.take_changed_words();
        if self.count_only {
            self.counted += 1;
            return;
        }
        self.keep(board, changed, to_move, created_by_play_of);
    }

    /// [`History::record`] in a history that keeps positions, given the words `board` reported
    /// changed.
    fn keep(
        &mut self,
        board: &Board,
        changed: u32,
        to_move: Color,
        created_by_play_of: Option<Color>,
    ) {
        let position = board.snapshot();
        if self.entries.is_empty() {
            // Reserve up front for the longest games that really happen, so that no normal
            // game copies the history or rehashes its index as it grows: games between people
            // end well within the board area in moves, and random play (the fuzzers, the
            // benchmarks) stops within three times the area.
            let expected = 3 * board.area() + 16;
            self.entries.reserve(expected);
            self.changes.reserve(expected + expected / 4);
            self.grow_slots(2 * expected);
            if self.by_stones.is_empty() {
                self.by_stones = vec![NONE; STONE_SLOTS];
                self.fewest = vec![NO_COUNT; 2 * FEWEST_LEN];
            }
            self.latest.clear();
            self.latest.extend_from_slice(position);
        } else {
            let mut words = changed;
            while words != 0 {
                let word = words.trailing_zeros() as usize;
                words &= words - 1;
                let (Some(old), Some(&new)) = (self.latest.get_mut(word), position.get(word))
                else {
                    break;
                };
                if *old != new {
                    self.changes.push((word as u32, *old ^ new));
                    *old = new;
                }
            }
            debug_assert!(
                self.latest[..] == position[..],
                "a change the board did not report"
            );
        }
        let hash = board.hash();
        let stones = board.stone_counts();
        let same_stones = std::mem::replace(
            &mut self.by_stones[stone_slot(stones)],
            self.entries.len() as u32,
        );
        // Counts stay within the board's area, so within u16.
        let (at_black, at_white) = (
            fewest_slot(Color::Black, stones[0]),
            fewest_slot(Color::White, stones[1]),
        );
        let fewest_before = [self.fewest[at_black], self.fewest[at_white]];
        self.fewest[at_black] = fewest_before[0].min(stones[1] as u16);
        self.fewest[at_white] = fewest_before[1].min(stones[0] as u16);
        if 2 * (self.entries.len() + 1) > self.slots.len() {
            self.grow_slots(2 * self.slots.len());
        }
        let slot = self.slot_of(hash);
        let same_hash = std::mem::replace(&mut self.slots[slot], self.entries.len() as u32);
        self.entries.push(Entry {
            hash,
            to_move,
            created_by_play_of,
            changes_end: self.changes.len() as u32,
            same_hash,
            stones,
            same_stones,
            fewest_before,
        });
    }

    /// Takes back the positions recorded after the first `len`, as if they had never been
    /// recorded: the entries, their changes, the index and the latest position are those the
    /// history had when it held `len` positions. Positions go back last first, so the index's
    /// open addressing stays exact: a slot an entry claimed is freed only once every entry
    /// recorded after it, which alone could have probed past it, is gone.
    pub fn truncate(&mut self, len: usize) {
        if self.count_only {
            self.counted = self.counted.min(len);
            return;
        }
        while self.entries.len() > len {
            let index = self.entries.len() - 1;
            let entry = self.entries[index];
            let slot = self.slot_of(entry.hash);
            debug_assert_eq!(
                self.slots[slot], index as u32,
                "the latest entry of its hash"
            );
            self.slots[slot] = entry.same_hash;
            debug_assert_eq!(
                self.by_stones[stone_slot(entry.stones)],
                index as u32,
                "the latest entry of its stone counts"
            );
            self.by_stones[stone_slot(entry.stones)] = entry.same_stones;
            self.fewest[fewest_slot(Color::Black, entry.stones[0])] = entry.fewest_before[0];
            self.fewest[fewest_slot(Color::White, entry.stones[1])] = entry.fewest_before[1];
            self.entries.pop();
            let start = self.entries.last().map_or(0, |e| e.changes_end as usize);
            for &(word, change) in &self.changes[start..] {
                if let Some(w) = self.latest.get_mut(word as usize) {
                    *w ^= change;
                }
            }
            self.changes.truncate(start);
        }
    }

    /// Whether some recorded position may have `stones_after` stones (Black's, White's): false
    /// promises that none has, so that no position with these counts repeats one of the
    /// history under any rule. One load, for a caller's fast path; [`History::repeats`] asks
    /// it first too.
    #[inline(always)]
    pub fn may_repeat(&self, stones_after: [u32; 2]) -> bool {
        self.by_stones
            .get(stone_slot(stones_after))
            .is_some_and(|&n| n != NONE)
    }

    /// Whether some recorded position may have `own` stones of `color`'s and at most
    /// `other_at_most` of the other colour's: false promises that none has. One load.
    #[inline(always)]
    fn may_have(&self, color: Color, own: u32, other_at_most: u32) -> bool {
        self.fewest
            .get(fewest_slot(color, own))
            .is_some_and(|&fewest| u32::from(fewest) <= other_at_most)
    }

    /// Whether a board play by `mover` that keeps its stone could leave a position with as
    /// many stones of each colour as some recorded position, whatever it captures: `stones`
    /// are the counts before the play (Black's, White's); the play adds one of the mover's and
    /// leaves the opponent at most as many. False promises that it repeats nothing, under any
    /// rule. One load, for a caller's fast path.
    #[inline(always)]
    pub fn may_repeat_keeping(&self, mover: Color, stones: [u32; 2]) -> bool {
        let (own, foe) = (stones[mover.index()], stones[mover.opponent().index()]);
        self.may_have(mover, own + 1, foe)
    }

    /// Whether a board play by `mover` that captures could leave a position with as many stones
    /// of each colour as some recorded position: `stones` are the counts before the play
    /// (Black's, White's); the play adds one of the mover's and takes at least one of the
    /// opponent's. False promises that no capture this turn repeats anything, under any rule.
    /// One load.
    #[inline(always)]
    pub fn may_repeat_after_capture(&self, mover: Color, stones: [u32; 2]) -> bool {
        let (own, foe) = (stones[mover.index()], stones[mover.opponent().index()]);
        foe > 0 && self.may_have(mover, own + 1, foe - 1)
    }

    /// Calls `visit` with the hash of every recorded position that a board play by `mover`
    /// leaving `stones_after` stones (Black's, White's) on the board could repeat in the sense
    /// of `rule`: the positions with exactly those counts that `rule` compares with (none
    /// under the simple ko rules), latest first. A play whose resulting hash is none of these
    /// repeats nothing; one whose hash is among them still needs [`History::repeats`], which
    /// compares whole positions. This is how every play of a turn is judged at once
    /// ([`crate::game::Game::each_legal_play`]): the few positions with the counts a play
    /// that captures nothing would make, rather than a look-up for each point.
    pub fn each_candidate(
        &self,
        rule: KoRule,
        mover: Color,
        stones_after: [u32; 2],
        mut visit: impl FnMut(u64),
    ) {
        if !rule.forbids_repetition() {
            return;
        }
        let Some(&latest) = self.by_stones.get(stone_slot(stones_after)) else {
            return;
        };
        let mut at = latest;
        while at != NONE {
            let e = &self.entries[at as usize];
            if e.stones == stones_after && compared_under(rule, e, mover) {
                visit(e.hash);
            }
            at = e.same_stones;
        }
    }

    /// Would a board play by `mover`, producing `hash_after` with `stones_after` stones
    /// (Black's, White's) on the board, repeat the history in the sense of `rule`?
    /// `board_after` builds the resulting board; it is called only when a candidate with the
    /// same hash and the right metadata exists, to compare whole positions.
    #[inline(always)]
    pub fn repeats(
        &self,
        rule: KoRule,
        mover: Color,
        hash_after: u64,
        stones_after: [u32; 2],
        board_after: impl FnOnce() -> Board,
    ) -> bool {
        if !rule.forbids_repetition() {
            // Simple ko forbids no repetition (its ban on the immediate retake is the game's),
            // and neither do its variants in which a repetition ends the game.
            return false;
        }
        debug_assert!(!self.count_only, "a count-only history asked about {rule}");
        if self.slots.is_empty() || !self.may_repeat(stones_after) {
            // Nothing recorded, or no position with as many stones of each colour: settled
            // inline, without a call.
            return false;
        }
        self.repeats_by_hash(rule, mover, hash_after, board_after)
    }

    /// [`History::repeats`] past its quick refusals, out of line: the entries with the hash,
    /// then whole positions compared.
    #[inline(never)]
    fn repeats_by_hash(
        &self,
        rule: KoRule,
        mover: Color,
        hash_after: u64,
        board_after: impl FnOnce() -> Board,
    ) -> bool {
        let latest = self.slots[self.slot_of(hash_after)];
        if latest == NONE {
            return false;
        }
        // Latest first: each candidate lies further back than the one before.
        let candidates = std::iter::successors(Some(latest), |&i| {
            Some(self.entries[i as usize].same_hash).filter(|&j| j != NONE)
        });
        let relevant = |&i: &u32| compared_under(rule, &self.entries[i as usize], mover);
        let mut matching = candidates.filter(relevant).peekable();
        if matching.peek().is_none() {
            return false;
        }
        let after = board_after();
        let mut position = self.latest.clone();
        let mut at = self.entries.len() - 1;
        matching.any(|e| {
            let e = e as usize;
            while at > e {
                let start = self.entries[at - 1].changes_end as usize;
                let end = self.entries[at].changes_end as usize;
                for &(word, change) in &self.changes[start..end] {
                    position[word as usize] ^= change;
                }
                at -= 1;
            }
            after.matches_snapshot(&position)
        })
    }

    /// The slot holding the latest entry with `hash`, or the free slot where it goes.
    fn slot_of(&self, hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let mut slot = hash as usize & mask;
        loop {
            let entry = self.slots[slot];
            if entry == NONE || self.entries[entry as usize].hash == hash {
                return slot;
            }
            slot = (slot + 1) & mask;
        }
    }

    /// Makes room for at least `wanted` slots (a power of two, 16 at least) and places the
    /// latest entry of every hash again.
    fn grow_slots(&mut self, wanted: usize) {
        let len = wanted.max(16).next_power_of_two();
        if len <= self.slots.len() {
            return;
        }
        self.slots = vec![NONE; len];
        for i in 0..self.entries.len() {
            // Entries in order, so the last one placed for a hash is its latest.
            let slot = self.slot_of(self.entries[i].hash);
            self.slots[slot] = i as u32;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Point;

    fn board_with(stones: &[(Color, u8, u8)]) -> Board {
        let mut b = Board::new(9, 9).unwrap();
        for &(c, col, row) in stones {
            b.set_stone(c, Point::new(col, row));
        }
        b
    }

    #[test]
    fn positions_far_back_are_rebuilt_from_the_changes() {
        // Every prefix of a sequence of placements spread over the board (so that the
        // changes touch several words of the planes), then a pass.
        let moves: Vec<(Color, u8, u8)> = (0..27u8)
            .map(|k| {
                let c = if k % 2 == 0 {
                    Color::Black
                } else {
                    Color::White
                };
                (c, k % 9, (k / 9) * 4)
            })
            .collect();
        let mut history = History::new();
        let mut boards = Vec::new();
        for n in 0..=moves.len() {
            let mut b = board_with(&moves[..n]);
            let to_move = if n % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            history.record(&mut b, to_move, Some(to_move.opponent()));
            boards.push(b);
        }
        let mut last = boards.last().unwrap().clone();
        history.record(&mut last, Color::Black, None);
        for (n, b) in boards.iter().enumerate() {
            // Positional superko: any earlier position, however far back, is found.
            assert!(
                history.repeats(
                    KoRule::Positional,
                    Color::Black,
                    b.hash(),
                    stones(b),
                    || { b.clone() }
                ),
                "position {n}"
            );
            // A position that never stood, given the same hash, is not a repetition: the
            // whole position is compared.
            let mut other = b.clone();
            // White never played at I9 (the last stone there is Black's).
            other.set_stone(Color::White, Point::new(8, 8));
            if other != *b {
                assert!(!history.repeats(
                    KoRule::Positional,
                    Color::Black,
                    b.hash(),
                    stones(b),
                    || { other.clone() }
                ));
            }
        }
        // Situational superko asks who was to move: position 2 had Black to move, so a play
        // by White recreating it repeats and one by Black does not (position 2 is never
        // reached with White to move).
        let b = &boards[2];
        let (h, n) = (b.hash(), stones(b));
        assert!(history.repeats(KoRule::Situational, Color::White, h, n, || b.clone()));
        assert!(!history.repeats(KoRule::Situational, Color::Black, h, n, || b.clone()));
        assert!(!history.repeats(KoRule::Simple, Color::White, h, n, || b.clone()));
    }

    #[test]
    fn a_count_only_history_counts_what_a_full_one_keeps() {
        let mut full = History::new();
        let mut counted = History::count_only();
        assert!(counted.is_empty());
        let mut b = Board::new(5, 5).unwrap();
        for k in 0..6u8 {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.set_stone(c, Point::new(k % 5, k / 5));
            full.record(&mut b.clone(), c.opponent(), Some(c));
            counted.record(&mut b, c.opponent(), Some(c));
            assert_eq!(counted.len(), full.len());
        }
        let hash = b.hash();
        assert!(
            full.repeats(KoRule::Positional, Color::Black, hash, stones(&b), || b
                .clone())
        );
        assert!(!counted.repeats(KoRule::Simple, Color::Black, hash, stones(&b), || b.clone()));
    }

    #[test]
    fn the_stone_count_filter_follows_truncation_and_reuse() {
        // Twelve placements, each position recorded; then the history is cut back to five
        // positions. The positions kept are found (the counters of their stone counts still
        // count them) and the ones taken back are not (their counters went back down), and a
        // reused history finds none of them.
        let mut history = History::new();
        let mut boards = Vec::new();
        let mut b = Board::new(9, 9).unwrap();
        for k in 0..12u8 {
            let c = if k % 2 == 0 {
                Color::Black
            } else {
                Color::White
            };
            b.set_stone(c, Point::new(k % 9, k / 9 * 3));
            history.record(&mut b, c.opponent(), Some(c));
            boards.push(b.clone());
        }
        history.truncate(5);
        for (n, b) in boards.iter().enumerate() {
            let found = history.repeats(
                KoRule::Positional,
                Color::Black,
                b.hash(),
                stones(b),
                || b.clone(),
            );
            assert_eq!(found, n < 5, "position {n}");
        }
        let history = history.reused(false);
        for b in &boards {
            assert!(!history.repeats(
                KoRule::Positional,
                Color::Black,
                b.hash(),
                stones(b),
                || { b.clone() }
            ));
        }
    }

    #[test]
    fn the_fewest_counts_follow_recording_truncation_and_reuse() {
        // Positions with (Black, White) stones (0, 0), (1, 0), (1, 1), (2, 1), then (1, 2)
        // after a capture is simulated by a fresh board.
        let mut history = History::new();
        let counts = [(0u8, 0u8), (1, 0), (1, 1), (2, 1), (1, 2)];
        for &(black, white) in &counts {
            let mut b = Board::new(9, 9).unwrap();
            for k in 0..black {
                b.set_stone(Color::Black, Point::new(k, 0));
            }
            for k in 0..white {
                b.set_stone(Color::White, Point::new(k, 4));
            }
            history.record(&mut b, Color::Black, None);
        }
        // Black to play from (0, 2): a play keeping its stone leaves (1, <=2); (1, 0), (1, 1)
        // and (1, 2) were recorded. From (1, 0): (2, <=0) never stood.
        assert!(history.may_repeat_keeping(Color::Black, [0, 2]));
        assert!(!history.may_repeat_keeping(Color::Black, [1, 0]));
        // A capture by Black from (0, 1) leaves (1, 0): recorded. By White from (2, 0) leaves
        // (<=1, 1): (1, 1) recorded; from (0, 0) White captures nothing.
        assert!(history.may_repeat_after_capture(Color::Black, [0, 1]));
        assert!(history.may_repeat_after_capture(Color::White, [2, 0]));
        assert!(!history.may_repeat_after_capture(Color::White, [0, 0]));
        // White to play from (2, 0): keeping its stone leaves (<=2, 1): (1, 1), (2, 1) stood.
        assert!(history.may_repeat_keeping(Color::White, [2, 0]));
        // Taken back to the first three positions: (2, 1) and (1, 2) are gone.
        history.truncate(3);
        assert!(!history.may_repeat_keeping(Color::Black, [1, 1]));
        assert!(history.may_repeat_keeping(Color::Black, [0, 1]));
        assert!(!history.may_repeat_keeping(Color::White, [1, 1]));
        // One stone more than a full board of Black's asks past Black's counts, not into
        // White's (where the empty position's count of none stands).
        assert!(!history.may_repeat_keeping(Color::Black, [625, 0]));
        let history = history.reused(false);
        assert!(!history.may_repeat_keeping(Color::Black, [0, 1]));
        assert!(!history.may_repeat_after_capture(Color::Black, [0, 1]));
    }

    fn stones(b: &Board) -> [u32; 2] {
        b.stone_counts()
    }
}
