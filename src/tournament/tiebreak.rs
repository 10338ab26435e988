//! Breaking ties in the final standings (AGA Tournament Rules VI.F and the annex "Resolving
//! Ties").
//!
//! Players are ranked by score; players level on score are ordered by the tiebreaks in the
//! order the TD announced (VI.F.1), one place at a time: the procedure picks the winner of the
//! tied group, then starts again among the rest. Picking a winner follows the multi-player
//! procedure, which for two players is the two-player one: apply each method in turn, keeping
//! only the players level with the best value, until one is left.
//!
//! - `playoff` is only reported: whenever exactly two players are in contention, the standings
//!   note that a playoff may be considered (if time permits and both agree); it is never held
//!   among three or more (multi-player item 1), and since it is not played the next method
//!   decides.
//! - `sos` adds up the final scores of every opponent met (an opponent met twice counts
//!   twice); `sodos` only those of opponents beaten. Byes and absences bring no opponent and
//!   add nothing: the text does not say how they count.
//! - `h2h` with two players: the one who scored more in their games against each other wins.
//!   With three or more, a player who lost to any other player still in contention cannot be
//!   the winner (multi-player item 3): the rest stay in contention. If that rules out everyone
//!   (A beat B, B beat C, C beat A), head-to-head decides nothing and the next method goes on
//!   among all of them; the text does not say what happens then, and chance, the two-player
//!   last resort, is what we read.
//! - `chance` draws the winner with a seeded generator, so the same seed gives the same
//!   standings every time.
//! - `median` (Harkness) is SOS without the highest and lowest opponent scores (events of up
//!   to eight rounds) or the two highest and two lowest (more than eight); it is refused
//!   outright for events of fewer than five rounds, as the text demands.
//! - `saco` compares scores against the opponents that every player still in contention met.
//! - `cumulative` adds up the running score after each round.
//!
//! Cash prizes (VI.F.2) ignore all this: the prizes of the places a score group occupies are
//! added up and split evenly among its players.

use std::fmt;
use std::str::FromStr;

use super::crosstable::{Crosstable, Half, Outcome};
use crate::rng::SplitMix64;

/// One tiebreak method.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tiebreak {
    /// Two-player item 1: a playoff game, if time permits and both agree. Never played
    /// here: the standings note when one may be considered, and the next method decides.
    Playoff,
    /// Sum of Opponents' Scores (Solkoff), two-player item 2.
    Sos,
    /// Sum of Defeated Opponents' Scores (Sonneborn-Berger), two-player item 3.
    Sodos,
    /// The games between the tied players (two-player item 4; multi-player item 3 with
    /// three or more).
    HeadToHead,
    /// A draw by lot (two-player item 5), from a seeded generator so that it can be repeated.
    Chance,
    /// The median or Harkness score (alternate method 1): SOS without the extreme opponents;
    /// refused under five rounds.
    Median,
    /// Score Against Common Opponents (alternate method 2).
    Saco,
    /// The sum of the running scores after each round (alternate method 3): an early loss
    /// weighs more than a late one.
    Cumulative,
}

impl Tiebreak {
    /// Every method, in the annex's order: the two-player procedure, then the alternates.
    pub const ALL: [Tiebreak; 8] = [
        Tiebreak::Playoff,
        Tiebreak::Sos,
        Tiebreak::Sodos,
        Tiebreak::HeadToHead,
        Tiebreak::Chance,
        Tiebreak::Median,
        Tiebreak::Saco,
        Tiebreak::Cumulative,
    ];

    /// The order of the annex's two- and multi-player procedures.
    pub const AGA: [Tiebreak; 5] = [
        Tiebreak::Playoff,
        Tiebreak::Sos,
        Tiebreak::Sodos,
        Tiebreak::HeadToHead,
        Tiebreak::Chance,
    ];

    /// The word tiebreak orders use (`sos`, `h2h`, ...); reading an order also accepts the
    /// methods' other names (`solkoff`, `harkness`, ...).
    pub fn word(self) -> &'static str {
        match self {
            Tiebreak::Playoff => "playoff",
            Tiebreak::Sos => "sos",
            Tiebreak::Sodos => "sodos",
            Tiebreak::HeadToHead => "h2h",
            Tiebreak::Chance => "chance",
            Tiebreak::Median => "median",
            Tiebreak::Saco => "saco",
            Tiebreak::Cumulative => "cumulative",
        }
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for Tiebreak {
    type Err = TiebreakError;
    fn from_str(text: &str) -> Result<Tiebreak, TiebreakError> {
        let word = text.trim().to_ascii_lowercase();
        let alias = match word.as_str() {
            "head-to-head" => "h2h",
            "harkness" => "median",
            "solkoff" => "sos",
            "sonneborn-berger" | "sonnenborn-berger" => "sodos",
            w => w,
        };
        Tiebreak::ALL
            .into_iter()
            .find(|t| t.word() == alias)
            .ok_or(TiebreakError::Unknown(text.to_string()))
    }
}

/// Why standings cannot be computed.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TiebreakError {
    /// A word that names no method.
    #[error("`{0}` is not a tiebreak: expected one of playoff, sos, sodos, h2h, chance, median, saco, cumulative")]
    Unknown(String),
    /// A method named twice: the second time it could never decide anything.
    #[error("`{0}` is listed twice in the tiebreak order")]
    Repeated(Tiebreak),
    /// The annex: do not use the median in events of fewer than five rounds.
    #[error("the median (Harkness) tiebreak needs at least five rounds; this event has {0}")]
    MedianTooFewRounds(usize),
}

/// A tiebreak order, checked: no method twice, the median only with five rounds or more.
pub fn check_order(order: &[Tiebreak], rounds: usize) -> Result<(), TiebreakError> {
    for (i, t) in order.iter().enumerate() {
        if order[..i].contains(t) {
            return Err(TiebreakError::Repeated(*t));
        }
    }
    if order.contains(&Tiebreak::Median) && rounds < 5 {
        return Err(TiebreakError::MedianTooFewRounds(rounds));
    }
    Ok(())
}

/// Sum of opponents' scores, in half points.
pub fn sos(table: &Crosstable, player: usize) -> u32 {
    table.played(player).map(|g| table.score(g.opponent)).sum()
}

/// Sum of defeated opponents' scores, in half points.
pub fn sodos(table: &Crosstable, player: usize) -> u32 {
    table
        .played(player)
        .filter(|g| g.outcome == Outcome::Win)
        .map(|g| table.score(g.opponent))
        .sum()
}

/// The median (Harkness) score, or `None` under five rounds.
pub fn median(table: &Crosstable, player: usize) -> Option<u32> {
    let rounds = table.rounds();
    if rounds < 5 {
        return None;
    }
    let cut = if rounds <= 8 { 1 } else { 2 };
    let mut scores: Vec<u32> = table
        .played(player)
        .map(|g| table.score(g.opponent))
        .collect();
    scores.sort_unstable();
    if scores.len() <= 2 * cut {
        return Some(0);
    }
    Some(scores[cut..scores.len() - cut].iter().sum())
}

/// The sum of the running scores after each round, in half points (a McMahon starting score
/// is part of the running score from the first round).
pub fn cumulative(table: &Crosstable, player: usize) -> u32 {
    let mut running = table.start[player];
    let mut total = 0;
    for entry in &table.entries[player] {
        running += table.points(*entry);
        total += running;
    }
    total
}

/// The opponents every player of `group` met, none of them in `group`, in the crosstable's
/// order. Only the first player's opponents can be common to all, so the search starts from
/// them and never walks the whole table (a large event has large score groups).
pub fn common_opponents(table: &Crosstable, group: &[usize]) -> Vec<usize> {
    let Some(&first) = group.first() else {
        return (0..table.players.len()).collect();
    };
    let members: std::collections::HashSet<usize> = group.iter().copied().collect();
    let mut common: Vec<usize> = table
        .played(first)
        .map(|g| g.opponent)
        .filter(|o| !members.contains(o))
        .filter(|o| {
            group
                .iter()
                .all(|p| table.played(*p).any(|g| g.opponent == *o))
        })
        .collect();
    common.sort_unstable();
    common.dedup();
    common
}

/// Score against common opponents: the half points `player` scored against `common`.
pub fn saco(table: &Crosstable, player: usize, common: &[usize]) -> u32 {
    table
        .played(player)
        .filter(|g| common.contains(&g.opponent))
        .map(|g| g.outcome.half_points())
        .sum()
}

/// Half points `player` scored against `other` over all their games.
fn against(table: &Crosstable, player: usize, other: usize) -> u32 {
    table
        .played(player)
        .filter(|g| g.opponent == other)
        .map(|g| g.outcome.half_points())
        .sum()
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The player's row in the crosstable.
    pub player: usize,
    /// 1-based; players the tiebreaks left level share a place.
    pub place: usize,
    /// Half points.
    pub score: u32,
    /// Sum of opponents' scores, in half points.
    pub sos: u32,
    /// Sum of defeated opponents' scores, in half points.
    pub sodos: u32,
    /// The median (Harkness) score in half points; `None` in an event of fewer than five
    /// rounds, where the annex says not to use it.
    pub median: Option<u32>,
    /// Against the opponents common to the player's whole score group (`None` alone on score).
    pub saco: Option<u32>,
    /// The sum of the running scores after each round, in half points.
    pub cumulative: u32,
    /// The method that gave this player the place over the rest of its score group.
    pub decided_by: Option<Tiebreak>,
    /// The share of the prize money, in cents, when prizes are given.
    pub prize: Option<u64>,
}

/// The final standings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standings {
    /// One row per player, best place first; players sharing a place are adjacent.
    pub rows: Vec<Row>,
    /// What the procedure could not settle by itself or left to people: playoffs that may be
    /// considered, circular head-to-head results, chance draws, prize remainders.
    pub notes: Vec<String>,
}

/// The standings of a crosstable under a tiebreak order, with `seed` for chance draws and
/// `prizes` (cents, by place from first) to split.
pub fn standings(
    table: &Crosstable,
    order: &[Tiebreak],
    seed: u64,
    prizes: &[u64],
) -> Result<Standings, TiebreakError> {
    standings_by(table, order, seed, prizes, true)
}

/// [`standings`], with the O(n log n) ordering of a score group where the order allows it
/// (`fast`), or always one place at a time over everyone left (the definition, which the
/// tests compare it with).
fn standings_by(
    table: &Crosstable,
    order: &[Tiebreak],
    seed: u64,
    prizes: &[u64],
    fast: bool,
) -> Result<Standings, TiebreakError> {
    check_order(order, table.rounds())?;
    let n = table.players.len();
    let mut by_score: Vec<usize> = (0..n).collect();
    by_score.sort_by_key(|p| std::cmp::Reverse(table.score(*p)));
    let mut rng = SplitMix64::new(seed);
    let fixed = Fixed::new(table);
    let mut notes = Vec::new();
    let mut rows = Vec::new();
    let mut start = 0;
    while start < n {
        let score = table.score(by_score[start]);
        let group: Vec<usize> = by_score[start..]
            .iter()
            .copied()
            .take_while(|p| table.score(*p) == score)
            .collect();
        let common = (group.len() > 1).then(|| common_opponents(table, &group));
        let quick = fast
            .then(|| order_group_fast(table, &fixed, &group, order, &mut rng, &mut notes))
            .flatten();
        let placed = match quick {
            Some(placed) => placed,
            None => order_group(table, &fixed, &group, order, &mut rng, &mut notes),
        };
        let group_place = rows.len();
        let mut place = group_place;
        for (k, (level, decided_by)) in placed.iter().enumerate() {
            if k == 0 || placed[k - 1].0 != *level {
                place = group_place + k + 1;
            }
            for &player in &level.players {
                rows.push(Row {
                    player,
                    place,
                    score,
                    sos: sos(table, player),
                    sodos: sodos(table, player),
                    median: median(table, player),
                    saco: common.as_ref().map(|c| saco(table, player, c)),
                    cumulative: cumulative(table, player),
                    decided_by: *decided_by,
                    prize: None,
                });
            }
        }
        if !prizes.is_empty() {
            // In 128 bits: the prizes of a group may add up past what 64 bits hold, and the
            // share, never more than the largest of them, fits again.
            let total: u128 = (group_place..group_place + group.len())
                .map(|place| u128::from(prizes.get(place).copied().unwrap_or(0)))
                .sum();
            let count = group.len() as u128;
            let share = u64::try_from(total / count).unwrap_or(u64::MAX);
            for row in &mut rows[group_place..] {
                row.prize = Some(share);
            }
            if !total.is_multiple_of(count) {
                notes.push(format!(
                    "prizes: {} cent(s) of the {} split among the players on {} are left over",
                    total % count,
                    cents_wide(total),
                    Half(i64::from(score))
                ));
            }
        }
        start += group.len();
    }
    if prizes.len() > n {
        notes.push(format!(
            "prizes: {} prize(s) after place {n} go to no one: there are only {n} players",
            prizes.len() - n
        ));
    }
    Ok(Standings { rows, notes })
}

/// An amount of cents as `12.34`.
pub fn cents(amount: u64) -> String {
    cents_wide(u128::from(amount))
}

/// [`cents`] of a sum that may pass 64 bits.
fn cents_wide(amount: u128) -> String {
    format!("{}.{:02}", amount / 100, amount % 100)
}

/// Players sharing one place.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Level {
    players: Vec<usize>,
}

/// Orders a score group place by place: each step picks the winner among those left.
fn order_group(
    table: &Crosstable,
    fixed: &Fixed,
    group: &[usize],
    order: &[Tiebreak],
    rng: &mut SplitMix64,
    notes: &mut Vec<String>,
) -> Vec<(Level, Option<Tiebreak>)> {
    let mut left: Vec<usize> = group.to_vec();
    let mut out = Vec::new();
    while left.len() > 1 {
        let (winners, by) = pick(table, fixed, &left, order, rng, notes);
        if winners.len() == 1 {
            left.retain(|p| *p != winners[0]);
            out.push((Level { players: winners }, by));
        } else {
            out.push((Level { players: left }, None));
            return out;
        }
    }
    if let Some(&last) = left.first() {
        // The last of a group is placed by whatever placed the others; alone on its score, by
        // nothing.
        let by = out.last().and_then(|(_, by)| *by);
        out.push((
            Level {
                players: vec![last],
            },
            by,
        ));
    }
    out
}

/// The players still in contention after the whole order, and the method that reduced them
/// to one (if it did).
fn pick(
    table: &Crosstable,
    fixed: &Fixed,
    candidates: &[usize],
    order: &[Tiebreak],
    rng: &mut SplitMix64,
    notes: &mut Vec<String>,
) -> (Vec<usize>, Option<Tiebreak>) {
    let mut noted_pair: Option<Vec<usize>> = None;
    let playoff = order.contains(&Tiebreak::Playoff);
    note_playoff(table, playoff, candidates, &mut noted_pair, notes);
    pick_rest(
        table,
        fixed,
        candidates.to_vec(),
        order,
        playoff,
        &mut noted_pair,
        rng,
        notes,
    )
}

/// Notes that a playoff may be considered when exactly two players are in contention (once
/// for the same pair).
fn note_playoff(
    table: &Crosstable,
    playoff: bool,
    contention: &[usize],
    noted_pair: &mut Option<Vec<usize>>,
    notes: &mut Vec<String>,
) {
    if playoff && contention.len() == 2 && noted_pair.as_deref() != Some(contention) {
        notes.push(format!(
            "a playoff between {} and {} may be considered, if time permits and both agree (not played here)",
            table.players[contention[0]],
            table.players[contention[1]]
        ));
        *noted_pair = Some(contention.to_vec());
    }
}

/// [`pick`] from `contention` (in crosstable order) with the methods `order`.
#[allow(clippy::too_many_arguments)]
fn pick_rest(
    table: &Crosstable,
    fixed: &Fixed,
    mut contention: Vec<usize>,
    order: &[Tiebreak],
    playoff: bool,
    noted_pair: &mut Option<Vec<usize>>,
    rng: &mut SplitMix64,
    notes: &mut Vec<String>,
) -> (Vec<usize>, Option<Tiebreak>) {
    for &method in order {
        let before = contention.len();
        work(before);
        match method {
            Tiebreak::Playoff => continue,
            Tiebreak::Sos => keep_best(&mut contention, |p| fixed.sos[p]),
            Tiebreak::Sodos => keep_best(&mut contention, |p| fixed.sodos[p]),
            Tiebreak::Median => keep_best(&mut contention, |p| fixed.median[p]),
            Tiebreak::Cumulative => keep_best(&mut contention, |p| fixed.cumulative[p]),
            Tiebreak::Saco => {
                let common = common_opponents(table, &contention);
                keep_best(&mut contention, |p| saco(table, p, &common));
            }
            Tiebreak::HeadToHead => {
                if contention.len() == 2 {
                    let (a, b) = (contention[0], contention[1]);
                    match against(table, a, b).cmp(&against(table, b, a)) {
                        std::cmp::Ordering::Greater => contention = vec![a],
                        std::cmp::Ordering::Less => contention = vec![b],
                        std::cmp::Ordering::Equal => {}
                    }
                } else {
                    // A set, not the list: a large score group would make each lookup a
                    // search of the whole group.
                    let members: std::collections::HashSet<usize> =
                        contention.iter().copied().collect();
                    let unbeaten: Vec<usize> = contention
                        .iter()
                        .copied()
                        .filter(|p| {
                            !table.played(*p).any(|g| {
                                g.outcome == Outcome::Loss && members.contains(&g.opponent)
                            })
                        })
                        .collect();
                    if unbeaten.is_empty() {
                        notes.push(circular_note(table, &contention, contention.len()));
                    } else {
                        contention = unbeaten;
                    }
                }
            }
            Tiebreak::Chance => {
                let drawn = contention[rng.below(contention.len())];
                notes.push(chance_note(table, drawn, &contention, contention.len()));
                contention = vec![drawn];
            }
        }
        if contention.len() == 1 {
            return (contention, Some(method));
        }
        if contention.len() < before {
            note_playoff(table, playoff, &contention, noted_pair, notes);
        }
    }
    (contention, None)
}

thread_local! {
    static WORK: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

fn work(amount: usize) {
    WORK.with(|w| w.set(w.get() + amount as u64));
}

/// The steps this thread has taken ordering score groups (a player looked at in contention,
/// a count updated or searched, a name written in a note): the work of [`standings`], for the
/// tests that check it grows as n log n with the number of tied players.
pub fn work_counted() -> u64 {
    WORK.with(std::cell::Cell::get)
}

/// Counts over positions `0..n`, with sums of a prefix and the position of the k-th one in
/// logarithmic time (a Fenwick tree): who is still in contention, in a given order.
struct Counts {
    tree: Vec<usize>,
}

impl Counts {
    fn new(n: usize) -> Counts {
        Counts {
            tree: vec![0; n + 1],
        }
    }

    fn add(&mut self, at: usize, one: bool) {
        work(1);
        let mut i = at + 1;
        while i < self.tree.len() {
            if one {
                self.tree[i] += 1;
            } else {
                self.tree[i] -= 1;
            }
            i += i & i.wrapping_neg();
        }
    }

    /// How many are counted at positions below `end`.
    fn before(&self, end: usize) -> usize {
        work(1);
        let mut i = end.min(self.tree.len() - 1);
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i];
            i -= i & i.wrapping_neg();
        }
        sum
    }

    /// The position of the `k`-th one counted (from 0); `k` must be below the total.
    fn kth(&self, mut k: usize) -> usize {
        work(1);
        let n = self.tree.len() - 1;
        let mut at = 0;
        let mut step = n.next_power_of_two();
        while step > 0 {
            let next = at + step;
            if next <= n && self.tree[next] <= k {
                at = next;
                k -= self.tree[next];
            }
            step /= 2;
        }
        at
    }
}

/// The first `NAMED_IN_A_NOTE` positions counted, and how many there are.
fn first_counted(counts: &Counts, total: usize) -> Vec<usize> {
    (0..total.min(NAMED_IN_A_NOTE))
        .map(|k| counts.kth(k))
        .collect()
}

/// A score group whose contention is at most this large is decided by [`pick_rest`] on a list
/// (at least 2: head-to-head between two players is their own games, which only `pick_rest`
/// plays). Small under test, so that the counts are exercised on small random events too.
const SMALL_CONTENTION: usize = if cfg!(test) { 3 } else { 64 };

/// [`order_group`] in O(n log n) for the orders it covers: methods with fixed values, then at
/// most head-to-head, then at most chance (a playoff anywhere). The same places, methods and
/// notes, draw for draw: the contention is the best run of the group sorted by the fixed
/// values, found with counts instead of a pass over everyone left, and head-to-head's
/// unbeaten players are kept up to date as winners leave. `None` for other orders.
fn order_group_fast(
    table: &Crosstable,
    fixed: &Fixed,
    group: &[usize],
    order: &[Tiebreak],
    rng: &mut SplitMix64,
    notes: &mut Vec<String>,
) -> Option<Vec<(Level, Option<Tiebreak>)>> {
    let mut methods = Vec::new();
    let (mut h2h, mut chance) = (false, false);
    for &m in order {
        match m {
            Tiebreak::Playoff => {}
            Tiebreak::Sos | Tiebreak::Sodos | Tiebreak::Median | Tiebreak::Cumulative
                if !h2h && !chance =>
            {
                methods.push(m)
            }
            Tiebreak::HeadToHead if !h2h && !chance => h2h = true,
            Tiebreak::Chance if !chance => chance = true,
            _ => return None,
        }
    }
    let tail: Vec<Tiebreak> = order
        .iter()
        .copied()
        .filter(|m| matches!(m, Tiebreak::HeadToHead | Tiebreak::Chance))
        .collect();
    let playoff = order.contains(&Tiebreak::Playoff);
    let value = |m: Tiebreak, p: usize| match m {
        Tiebreak::Sos => fixed.sos[p],
        Tiebreak::Sodos => fixed.sodos[p],
        Tiebreak::Median => fixed.median[p],
        _ => fixed.cumulative[p],
    };
    let n = group.len();
    // Local numbers 0..n follow the group's (crosstable) order.
    let mut sorted: Vec<usize> = (0..n).collect();
    sorted.sort_by(|&a, &b| {
        methods
            .iter()
            .map(|&m| value(m, group[b]).cmp(&value(m, group[a])))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
            .then(a.cmp(&b))
    });
    let mut place_of = vec![0; n];
    for (at, &l) in sorted.iter().enumerate() {
        place_of[l] = at;
    }
    // run_end[i][at]: where the run of players level with sorted[at] on the first i + 1
    // methods ends.
    let mut run_end = vec![vec![n; n]; methods.len()];
    for (i, ends) in run_end.iter_mut().enumerate() {
        for at in (0..n).rev() {
            let level = at + 1 < n
                && methods[..=i]
                    .iter()
                    .all(|&m| value(m, group[sorted[at]]) == value(m, group[sorted[at + 1]]));
            ends[at] = if level { ends[at + 1] } else { at + 1 };
        }
    }
    let local: std::collections::HashMap<usize, usize> =
        group.iter().enumerate().map(|(l, &p)| (p, l)).collect();
    let mut alive_sorted = Counts::new(n);
    let mut alive = Counts::new(n);
    for l in 0..n {
        alive_sorted.add(l, true);
        alive.add(l, true);
    }
    let mut left = n;
    // The block (the best run on every fixed method) being kept up to date for head-to-head.
    let mut block: Option<usize> = None;
    let mut in_block = vec![false; n];
    let mut block_counts = Counts::new(n);
    let mut unbeaten_counts = Counts::new(n);
    let mut unbeaten = 0usize;
    let mut losses = vec![0usize; n];
    let losses_to = |p: usize, o: usize| {
        table
            .played(p)
            .filter(|g| g.outcome == Outcome::Loss && g.opponent == o)
            .count()
    };
    let mut out = Vec::new();
    while left > 1 {
        let first = alive_sorted.kth(0);
        let mut noted_pair: Option<Vec<usize>> = None;
        let players_of = |locals: &mut Vec<usize>| {
            locals.sort_unstable();
            locals.iter().map(|&l| group[l]).collect::<Vec<usize>>()
        };
        if playoff && left == 2 {
            let pair = players_of(&mut vec![alive.kth(0), alive.kth(1)]);
            note_playoff(table, playoff, &pair, &mut noted_pair, notes);
        }
        let mut size = left;
        let mut decided = None;
        for (i, &m) in methods.iter().enumerate() {
            let before = size;
            size = alive_sorted.before(run_end[i][first]);
            if size == 1 {
                decided = Some(m);
                break;
            }
            if size < before && size == 2 {
                let pair = players_of(&mut vec![
                    sorted[alive_sorted.kth(0)],
                    sorted[alive_sorted.kth(1)],
                ]);
                note_playoff(table, playoff, &pair, &mut noted_pair, notes);
            }
        }
        let winner: Option<(usize, Option<Tiebreak>)> = if let Some(m) = decided {
            Some((sorted[first], Some(m)))
        } else if size <= SMALL_CONTENTION {
            let mut members: Vec<usize> = (0..size).map(|k| sorted[alive_sorted.kth(k)]).collect();
            let contention = players_of(&mut members);
            let (winners, by) = pick_rest(
                table,
                fixed,
                contention,
                &tail,
                playoff,
                &mut noted_pair,
                rng,
                notes,
            );
            match winners.as_slice() {
                [one] => Some((local[one], by)),
                _ => None,
            }
        } else {
            let end = methods
                .last()
                .map_or(n, |_| run_end[methods.len() - 1][first]);
            if block != Some(end) {
                block = Some(end);
                let members: Vec<usize> = (0..size).map(|k| sorted[alive_sorted.kth(k)]).collect();
                for &l in &members {
                    in_block[l] = true;
                    block_counts.add(l, true);
                }
                for &l in &members {
                    losses[l] = table
                        .played(group[l])
                        .filter(|g| {
                            g.outcome == Outcome::Loss
                                && local.get(&g.opponent).is_some_and(|&o| in_block[o])
                        })
                        .count();
                    if losses[l] == 0 {
                        unbeaten_counts.add(l, true);
                        unbeaten += 1;
                    }
                }
            }
            let mut contention = (&block_counts, size);
            let mut by = None;
            let mut winner = None;
            if h2h {
                if unbeaten == 0 {
                    let first: Vec<usize> = first_counted(&block_counts, size)
                        .into_iter()
                        .map(|l| group[l])
                        .collect();
                    notes.push(circular_note(table, &first, size));
                } else {
                    contention = (&unbeaten_counts, unbeaten);
                    if unbeaten == 1 {
                        winner = Some(unbeaten_counts.kth(0));
                        by = Some(Tiebreak::HeadToHead);
                    } else if unbeaten == 2 && unbeaten < size {
                        let pair =
                            players_of(&mut vec![unbeaten_counts.kth(0), unbeaten_counts.kth(1)]);
                        note_playoff(table, playoff, &pair, &mut noted_pair, notes);
                    }
                }
            }
            if winner.is_none() && chance {
                let (counts, total) = contention;
                let drawn = counts.kth(rng.below(total));
                let first: Vec<usize> = first_counted(counts, total)
                    .into_iter()
                    .map(|l| group[l])
                    .collect();
                notes.push(chance_note(table, group[drawn], &first, total));
                winner = Some(drawn);
                by = Some(Tiebreak::Chance);
            }
            winner.map(|w| (w, by))
        };
        let Some((w, by)) = winner else {
            let everyone: Vec<usize> = (0..left).map(|k| group[alive.kth(k)]).collect();
            out.push((Level { players: everyone }, None));
            return Some(out);
        };
        out.push((
            Level {
                players: vec![group[w]],
            },
            by,
        ));
        // The winner leaves: the counts, and the losses of those it beat in the block.
        alive_sorted.add(place_of[w], false);
        alive.add(w, false);
        left -= 1;
        if in_block[w] {
            in_block[w] = false;
            block_counts.add(w, false);
            if losses[w] == 0 {
                unbeaten_counts.add(w, false);
                unbeaten -= 1;
            }
            let mut beaten: Vec<usize> = table
                .played(group[w])
                .filter_map(|g| local.get(&g.opponent).copied())
                .filter(|&o| in_block[o])
                .collect();
            beaten.sort_unstable();
            beaten.dedup();
            for o in beaten {
                let lost = losses_to(group[o], group[w]);
                if lost > 0 {
                    losses[o] -= lost;
                    if losses[o] == 0 {
                        unbeaten_counts.add(o, true);
                        unbeaten += 1;
                    }
                }
            }
        }
    }
    if left == 1 {
        let last = group[alive.kth(0)];
        let by = out.last().and_then(|(_, by)| *by);
        out.push((
            Level {
                players: vec![last],
            },
            by,
        ));
    }
    Some(out)
}

/// At most this many names in a note about the players in contention; a larger group is
/// named by its first ones and its size, so that notes grow with the number of places, not
/// with its square (16,000 players tied made 3.5 GB of notes).
pub const NAMED_IN_A_NOTE: usize = 12;

/// The names of a group of `total` players whose first ones (in crosstable order) are
/// `first`, for a note: all of them up to [`NAMED_IN_A_NOTE`], else the first ones and how
/// many more there are.
fn named(table: &Crosstable, first: &[usize], total: usize) -> String {
    work(first.len().min(NAMED_IN_A_NOTE));
    let shown: Vec<&str> = first
        .iter()
        .take(NAMED_IN_A_NOTE)
        .map(|p| table.players[*p].as_str())
        .collect();
    if total > NAMED_IN_A_NOTE {
        format!(
            "{total} players ({}, and {} more)",
            shown.join(", "),
            total - shown.len()
        )
    } else {
        shown.join(", ")
    }
}

fn chance_note(table: &Crosstable, drawn: usize, first: &[usize], total: usize) -> String {
    format!(
        "chance: {} drawn among {}",
        table.players[drawn],
        named(table, first, total)
    )
}

fn circular_note(table: &Crosstable, first: &[usize], total: usize) -> String {
    format!(
        "head-to-head among {} is circular: each lost to another of them, so it names no winner",
        named(table, first, total)
    )
}

/// Each player's value under the methods that do not depend on who else is in contention,
/// worked out once: a score group of thousands is ordered one place at a time, and each place
/// would otherwise recompute them for everyone left.
struct Fixed {
    sos: Vec<u32>,
    sodos: Vec<u32>,
    median: Vec<u32>,
    cumulative: Vec<u32>,
}

impl Fixed {
    fn new(table: &Crosstable) -> Fixed {
        let all = 0..table.players.len();
        Fixed {
            sos: all.clone().map(|p| sos(table, p)).collect(),
            sodos: all.clone().map(|p| sodos(table, p)).collect(),
            median: all.clone().map(|p| median(table, p).unwrap_or(0)).collect(),
            cumulative: all.map(|p| cumulative(table, p)).collect(),
        }
    }
}

/// Keeps the players with the highest value.
fn keep_best(contention: &mut Vec<usize>, value: impl Fn(usize) -> u32) {
    let best = contention.iter().map(|p| value(*p)).max().unwrap_or(0);
    contention.retain(|p| value(*p) == best);
}

#[cfg(test)]
mod tests {
    use super::super::crosstable::{Entry, Game};
    use super::*;

    /// Builds a table from rows of cells such as `B+`, `C-`, `` (bye).
    fn table(rows: &[(&str, &[&str])]) -> Crosstable {
        let players: Vec<String> = rows.iter().map(|(n, _)| n.to_string()).collect();
        let games = rows
            .iter()
            .map(|(_, cells)| {
                cells
                    .iter()
                    .map(|c| {
                        if c.is_empty() {
                            return Entry::Absent;
                        }
                        let (name, mark) = c.split_at(c.len() - 1);
                        Entry::Played(Game {
                            opponent: players.iter().position(|p| p == name).unwrap(),
                            outcome: match mark {
                                "+" => Outcome::Win,
                                "-" => Outcome::Loss,
                                _ => Outcome::Draw,
                            },
                            forfeit: false,
                        })
                    })
                    .collect()
            })
            .collect();
        Crosstable::new(players, games).unwrap()
    }

    /// A random event: `n` players, `rounds` rounds of random pairings (one player sits out
    /// when odd), results won, lost or drawn, so score groups are large and tied on much.
    #[allow(clippy::needless_range_loop)] // a round indexes both players' rows
    fn random_event(rng: &mut SplitMix64, n: usize, rounds: usize) -> Crosstable {
        let players: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let mut games = vec![vec![Entry::Absent; rounds]; n];
        for round in 0..rounds {
            let mut order: Vec<usize> = (0..n).collect();
            for i in (1..n).rev() {
                order.swap(i, rng.below(i + 1));
            }
            for pair in order.chunks(2) {
                let [a, b] = pair else { continue };
                let (oa, ob) = match rng.below(3) {
                    0 => (Outcome::Win, Outcome::Loss),
                    1 => (Outcome::Loss, Outcome::Win),
                    _ => (Outcome::Draw, Outcome::Draw),
                };
                let game = |opponent, outcome| {
                    Entry::Played(Game {
                        opponent,
                        outcome,
                        forfeit: false,
                    })
                };
                games[*a][round] = game(*b, oa);
                games[*b][round] = game(*a, ob);
            }
        }
        Crosstable::new(players, games).unwrap()
    }

    #[test]
    fn the_fast_ordering_places_and_notes_exactly_as_the_definition() {
        use Tiebreak::*;
        let orders: [&[Tiebreak]; 9] = [
            &[Playoff, Sos, Sodos, HeadToHead, Chance],
            &[HeadToHead, Chance],
            &[Playoff, HeadToHead],
            &[Sos, Chance],
            &[Sos, Sodos],
            &[Chance],
            &[Cumulative, Median, HeadToHead, Chance],
            &[Sodos, Playoff, Cumulative, HeadToHead],
            &[Saco, HeadToHead, Chance],
        ];
        let mut rng = SplitMix64::new(7);
        for trial in 0..60 {
            // Every other event large, with large score groups.
            let (n, rounds) = if trial % 2 == 0 {
                (50 + rng.below(200), 2 + rng.below(3))
            } else {
                (2 + rng.below(40), 1 + rng.below(6))
            };
            let table = random_event(&mut rng, n, rounds);
            for order in orders {
                let fast = standings_by(&table, order, trial, &[300, 100, 50], true);
                let slow = standings_by(&table, order, trial, &[300, 100, 50], false);
                assert_eq!(fast, slow, "{n} players, {rounds} rounds, {order:?}");
            }
        }
    }

    fn order_names(t: &Crosstable, s: &Standings) -> Vec<String> {
        s.rows.iter().map(|r| t.players[r.player].clone()).collect()
    }

    #[test]
    fn the_triangle_names_no_winner_by_head_to_head() {
        // A beat B, B beat C, C beat A: everyone lost to another tied player.
        let tri = table(&[
            ("A", &["B+", "", "C-"]),
            ("B", &["A-", "C+", ""]),
            ("C", &["", "B-", "A+"]),
        ]);
        let s = standings(&tri, &[Tiebreak::HeadToHead], 0, &[]).unwrap();
        assert!(s.rows.iter().all(|r| r.place == 1));
        assert!(s.notes[0].contains("circular"));
        let s = standings(&tri, &[Tiebreak::HeadToHead, Tiebreak::Chance], 7, &[]).unwrap();
        let again = standings(&tri, &[Tiebreak::HeadToHead, Tiebreak::Chance], 7, &[]).unwrap();
        assert_eq!(s, again, "a seeded draw is reproducible");
        assert_eq!(s.rows[0].place, 1);
        assert_eq!(s.rows[0].decided_by, Some(Tiebreak::Chance));
        assert_eq!(s.rows[2].place, 3);
    }

    #[test]
    fn head_to_head_never_names_a_player_who_lost_to_another_tied_player() {
        // A beat B, B beat C, A and C never met: only A lost to nobody in the group.
        let t = table(&[("A", &["B+", ""]), ("B", &["A-", "C+"]), ("C", &["", "B-"])]);
        let group = [0, 1, 2];
        let mut rng = SplitMix64::new(0);
        let mut notes = Vec::new();
        let fixed = Fixed::new(&t);
        let (winners, by) = pick(
            &t,
            &fixed,
            &group,
            &[Tiebreak::HeadToHead],
            &mut rng,
            &mut notes,
        );
        assert_eq!((winners, by), (vec![0], Some(Tiebreak::HeadToHead)));
    }

    #[test]
    fn median_is_refused_under_five_rounds() {
        let t = table(&[("A", &["B+"]), ("B", &["A-"])]);
        assert_eq!(
            standings(&t, &[Tiebreak::Median], 0, &[]),
            Err(TiebreakError::MedianTooFewRounds(1))
        );
    }

    #[test]
    fn median_leaves_out_two_at_each_end_beyond_eight_rounds() {
        // Nine rounds: P beats O1..O9, one a round, and O(k) beats k-1 players met only once
        // each (fillers), so P's opponents score 0 to 8.
        let mut rows: Vec<(String, Vec<String>)> = Vec::new();
        let opponents: Vec<String> = (1..=9).map(|k| format!("O{k}")).collect();
        rows.push((
            "P".into(),
            opponents.iter().map(|o| format!("{o}+")).collect(),
        ));
        for (k, o) in opponents.iter().enumerate() {
            let mut cells = vec![String::new(); 9];
            cells[k] = "P-".to_string();
            let mut r = 0;
            for f in 0..k {
                if r == k {
                    r += 1;
                }
                cells[r] = format!("F{k}x{f}+");
                r += 1;
            }
            rows.push((o.clone(), cells));
        }
        for k in 0..9 {
            for f in 0..k {
                let mut cells = vec![String::new(); 9];
                // The opponent's rounds before its game with P hold its fillers in order.
                cells[f] = format!("O{}-", k + 1);
                rows.push((format!("F{k}x{f}"), cells));
            }
        }
        let borrowed: Vec<(&str, Vec<&str>)> = rows
            .iter()
            .map(|(n, c)| (n.as_str(), c.iter().map(String::as_str).collect()))
            .collect();
        let refs: Vec<(&str, &[&str])> = borrowed.iter().map(|(n, c)| (*n, c.as_slice())).collect();
        let t = table(&refs);
        let p = t.index("P").unwrap();
        // Opponents score 0, 1, ..., 8 (in points); SOS 36; beyond eight rounds the median
        // drops 0, 1 and 7, 8: 2 + 3 + 4 + 5 + 6 = 20 points.
        assert_eq!(sos(&t, p), 72);
        assert_eq!(median(&t, p), Some(40));
    }

    #[test]
    fn prizes_of_tied_places_are_pooled() {
        let t = table(&[
            ("A", &["C+", "B-"]),
            ("B", &["D+", "A+"]),
            ("C", &["A-", "D+"]),
            ("D", &["B-", "C-"]),
        ]);
        // A, B... scores: A 1, B 2, C 1, D 0.
        let s = standings(&t, &Tiebreak::AGA, 1, &[30000, 10000, 5000]).unwrap();
        assert_eq!(order_names(&t, &s)[0], "B");
        assert_eq!(s.rows[0].prize, Some(30000));
        assert_eq!(s.rows[1].prize, Some(7500));
        assert_eq!(s.rows[2].prize, Some(7500));
        assert_eq!(s.rows[3].prize, Some(0));
    }
}
