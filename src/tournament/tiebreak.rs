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
        let placed = order_group(table, &fixed, &group, order, &mut rng, &mut notes);
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
            if total % count != 0 {
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
    let name = |p: usize| table.players[p].as_str();
    let mut contention = candidates.to_vec();
    let playoff = order.contains(&Tiebreak::Playoff);
    let mut noted_pair: Option<Vec<usize>> = None;
    let mut note_playoff = |contention: &Vec<usize>, notes: &mut Vec<String>| {
        if playoff && contention.len() == 2 && noted_pair.as_ref() != Some(contention) {
            notes.push(format!(
                "a playoff between {} and {} may be considered, if time permits and both agree (not played here)",
                name(contention[0]),
                name(contention[1])
            ));
            noted_pair = Some(contention.clone());
        }
    };
    note_playoff(&contention, notes);
    for &method in order {
        let before = contention.len();
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
                        let names: Vec<&str> = contention.iter().map(|p| name(*p)).collect();
                        notes.push(format!(
                            "head-to-head among {} is circular: each lost to another of them, so it names no winner",
                            names.join(", ")
                        ));
                    } else {
                        contention = unbeaten;
                    }
                }
            }
            Tiebreak::Chance => {
                let drawn = contention[rng.below(contention.len())];
                let names: Vec<&str> = contention.iter().map(|p| name(*p)).collect();
                notes.push(format!(
                    "chance: {} drawn among {}",
                    name(drawn),
                    names.join(", ")
                ));
                contention = vec![drawn];
            }
        }
        if contention.len() == 1 {
            return (contention, Some(method));
        }
        if contention.len() < before {
            note_playoff(&contention, notes);
        }
    }
    (contention, None)
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
