//! The status of stones at the end of a game, as far as the position alone can tell: which
//! groups could be dead, and so need the players' agreement.
//!
//! A **group** is a set of strings of one colour joined directly or through an empty region
//! that only that colour borders (an **eye** of the group; a large territory is one eye too).
//! A group with two eyes or more is never in doubt. A group with fewer is **in doubt**: the
//! rules leave its status to the players (AGA Rules 9 and 10), so nothing here calls it dead.

use std::collections::BTreeSet;

use crate::board::{Board, Color, Point};

/// A group: its colour, stones, eyes (empty regions only it borders) and the liberties outside
/// those eyes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub color: Color,
    pub stones: Vec<Point>,
    pub eyes: usize,
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
