//! The status of stones at the end of a game, as far as the position alone can tell: which
//! groups could be dead, and so need the players' agreement.
//!
//! A **group** is a set of strings of one colour joined directly or through an empty region
//! that only that colour borders (an **eye** of the group; a large territory is one eye too).
//! A group with two eyes or more is never in doubt. A group with fewer is **in doubt**: the
//! rules leave its status to the players (AGA Rules 9 and 10), so nothing here calls it dead.
//!
//! **Seki**, read from the position: groups in doubt of both colours, joined by the liberties
//! they share, such that every liberty any of them has outside its eyes is shared with the
//! other colour, every group has two liberties or more, and neither player can fill a shared
//! liberty without putting their own stones in atari (or committing suicide) and capturing
//! nothing: whoever moves first there loses, so neither does. This is narrower than
//! [`super::counting::seki_stones`], the Japanese 1989 reading used for counting (any live
//! group touching a dame is in seki there), and is what GTP's `final_status_list seki` lists.

use std::collections::BTreeSet;

use crate::board::{Board, Color, Point};

/// A group: its colour, stones, eyes (empty regions only it borders) and the liberties outside
/// those eyes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    /// The colour of its stones.
    pub color: Color,
    /// Its stones, sorted.
    pub stones: Vec<Point>,
    /// The empty regions only this group borders.
    pub eyes: usize,
    /// Its liberties outside those regions.
    pub outside_liberties: BTreeSet<Point>,
}

/// Every group of the position, in reading order of their first stone.
pub fn groups(board: &Board) -> Vec<Group> {
    let points: Vec<Point> = board.points().collect();
    let width = usize::from(board.width());
    let at = |p: Point| usize::from(p.row) * width + usize::from(p.col);
    // Empty regions and the colours that border each.
    let mut region_of: Vec<Option<usize>> = vec![None; points.len()];
    let mut borders: Vec<[bool; 2]> = Vec::new();
    let mut members: Vec<Vec<Point>> = Vec::new();
    for &start in &points {
        if board.get(start).is_some() || region_of[at(start)].is_some() {
            continue;
        }
        let id = borders.len();
        borders.push([false, false]);
        members.push(Vec::new());
        let mut stack = vec![start];
        region_of[at(start)] = Some(id);
        while let Some(p) = stack.pop() {
            members[id].push(p);
            for q in board.adjacent(p) {
                match board.get(q) {
                    Some(c) => borders[id][c.index()] = true,
                    None if region_of[at(q)].is_none() => {
                        region_of[at(q)] = Some(id);
                        stack.push(q);
                    }
                    None => {}
                }
            }
        }
    }
    let mut group_of: Vec<Option<usize>> = vec![None; points.len()];
    let mut groups: Vec<Group> = Vec::new();
    for &start in &points {
        let Some(color) = board.get(start) else {
            continue;
        };
        if group_of[at(start)].is_some() {
            continue;
        }
        let id = groups.len();
        let mut stones = Vec::new();
        let mut eyes = BTreeSet::new();
        let mut outside = BTreeSet::new();
        let mut stack = vec![start];
        group_of[at(start)] = Some(id);
        while let Some(p) = stack.pop() {
            stones.push(p);
            for q in board.adjacent(p) {
                match board.get(q) {
                    Some(c) if c == color && group_of[at(q)].is_none() => {
                        group_of[at(q)] = Some(id);
                        stack.push(q);
                    }
                    Some(_) => {}
                    None => {
                        let Some(region) = region_of[at(q)] else {
                            continue;
                        };
                        if borders[region][color.opponent().index()] {
                            outside.insert(q);
                            continue;
                        }
                        if !eyes.insert(region) {
                            continue;
                        }
                        // A region only this colour borders joins every stone around it.
                        for &r in &members[region] {
                            for s in board.adjacent(r) {
                                if board.get(s) == Some(color) && group_of[at(s)].is_none() {
                                    group_of[at(s)] = Some(id);
                                    stack.push(s);
                                }
                            }
                        }
                    }
                }
            }
        }
        stones.sort();
        groups.push(Group {
            color,
            stones,
            eyes: eyes.len(),
            outside_liberties: outside,
        });
    }
    groups
}

/// The groups that could be dead: fewer than two eyes. Their stones, group by group.
pub fn groups_in_doubt(board: &Board) -> Vec<Vec<Point>> {
    groups(board)
        .into_iter()
        .filter(|g| g.eyes < 2)
        .map(|g| g.stones)
        .collect()
}

/// The stones in seki (see the module documentation), sorted.
pub fn seki_stones(board: &Board) -> Vec<Point> {
    let all = groups(board);
    let width = usize::from(board.width());
    let at = |p: Point| usize::from(p.row) * width + usize::from(p.col);
    let mut group_of: Vec<Option<usize>> = vec![None; width * usize::from(board.height())];
    for (i, g) in all.iter().enumerate() {
        for &p in &g.stones {
            group_of[at(p)] = Some(i);
        }
    }
    let doubtful = |i: usize| all[i].eyes < 2;
    // Shared liberties: empty points next to doubtful groups of both colours.
    let mut shared: Vec<(Point, Vec<usize>)> = Vec::new();
    for p in board.points().filter(|&p| board.get(p).is_none()) {
        let mut around: Vec<usize> = board.adjacent(p).filter_map(|q| group_of[at(q)]).collect();
        around.sort_unstable();
        around.dedup();
        let colours = |c: Color| around.iter().any(|&g| all[g].color == c && doubtful(g));
        if colours(Color::Black) && colours(Color::White) {
            shared.push((p, around));
        }
    }
    // Clusters of groups joined by shared liberties (union-find over group indices).
    let mut parent: Vec<usize> = (0..all.len()).collect();
    fn find(parent: &mut [usize], i: usize) -> usize {
        let mut r = i;
        while parent[r] != r {
            r = parent[r];
        }
        parent[i] = r;
        r
    }
    for (_, around) in &shared {
        for pair in around.windows(2) {
            let (a, b) = (find(&mut parent, pair[0]), find(&mut parent, pair[1]));
            parent[a] = b;
        }
    }
    let shared_points: BTreeSet<Point> = shared.iter().map(|(p, _)| *p).collect();
    // A play at `p` by `c` that captures nothing and leaves its string one liberty or none.
    let self_atari = |p: Point, c: Color| -> bool {
        let Some(preview) = board.preview(c, p) else {
            return true;
        };
        if preview.captured > 0 {
            return false;
        }
        if preview.self_captured > 0 {
            return true;
        }
        let mut after = board.clone();
        after.play(c, p, &mut Vec::new());
        after.liberties(p) <= 1
    };
    let mut seki_cluster: Vec<Option<bool>> = vec![None; all.len()];
    for i in 0..all.len() {
        if !doubtful(i) {
            continue;
        }
        let root = find(&mut parent, i);
        if seki_cluster[root].is_some() {
            continue;
        }
        let members: Vec<usize> = (0..all.len())
            .filter(|&j| find(&mut parent, j) == root)
            .collect();
        let both = [Color::Black, Color::White]
            .iter()
            .all(|&c| members.iter().any(|&j| all[j].color == c));
        let closed = members.iter().all(|&j| {
            doubtful(j)
                && !all[j].outside_liberties.is_empty()
                && all[j].outside_liberties.is_subset(&shared_points)
                && all[j].outside_liberties.len() + all[j].eyes >= 2
        });
        let stalemate = shared
            .iter()
            .filter(|(_, around)| around.iter().any(|g| members.contains(g)))
            .all(|(p, _)| self_atari(*p, Color::Black) && self_atari(*p, Color::White));
        seki_cluster[root] = Some(both && closed && stalemate);
    }
    let mut stones: Vec<Point> = (0..all.len())
        .filter(|&i| seki_cluster[find(&mut parent, i)] == Some(true))
        .flat_map(|i| all[i].stones.iter().copied())
        .collect();
    stones.sort();
    stones
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(rows: &[&str]) -> Board {
        let height = rows.len() as u8;
        let width = rows[0].split_whitespace().count() as u8;
        let mut board = Board::new(width, height).unwrap();
        for (i, row) in rows.iter().enumerate() {
            for (col, cell) in row.split_whitespace().enumerate() {
                let p = Point::new(col as u8, height - 1 - i as u8);
                match cell {
                    "X" => {
                        board.set_stone(Color::Black, p);
                    }
                    "O" => {
                        board.set_stone(Color::White, p);
                    }
                    _ => {}
                }
            }
        }
        board
    }

    #[test]
    fn lone_stones_on_an_open_board_are_in_doubt() {
        let b = board(&[
            ". . . . .",
            ". X . . .",
            ". . . . .",
            ". . . O .",
            ". . . . .",
        ]);
        assert_eq!(groups_in_doubt(&b).len(), 2);
    }

    #[test]
    fn a_seki_with_one_eye_each() {
        // Black has the eye A1, White the eye E1, and they share C1 and nothing else:
        // whoever fills C1 leaves their own group one liberty, inside the other's reach.
        let b = board(&["X X X O O O", ". X . O . O"]);
        assert_eq!(seki_stones(&b).len(), 9);
        // Give White an outside liberty (F2 open): White can now fill C1 safely: no seki.
        let open = board(&["X X X O O .", ". X . O . O"]);
        assert!(seki_stones(&open).is_empty());
    }

    #[test]
    fn lone_stones_and_walls_beside_dame_are_not_in_seki() {
        let b = board(&[
            ". . . . .",
            ". X . . .",
            ". . . . .",
            ". . . O .",
            ". . . . .",
        ]);
        assert!(seki_stones(&b).is_empty());
        // A black wall, a white wall, and a white stone inside Black's side.
        let walls = board(&[
            ". . X O .",
            ". . X O .",
            "O . X O .",
            ". . X O .",
            ". . X O .",
        ]);
        assert!(seki_stones(&walls).is_empty());
    }

    #[test]
    fn two_eyed_groups_are_never_in_doubt() {
        let b = board(&[
            ". X . X O . O . O",
            "X X X X O O O O O",
            ". . . . . . . . .",
        ]);
        let in_doubt = groups_in_doubt(&b);
        assert!(in_doubt.is_empty(), "{in_doubt:?}");
    }
}
