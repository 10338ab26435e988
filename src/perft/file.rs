//! `.perft` files: the line format chess move generators share (`id`, a position, then
//! `perft DEPTH NODES` lines), extended with the rules and the moves played before counting.
//!
//! ```text
//! id 3x3-empty
//! position 3x3 .../.../... b played
//! rules ko=situational suicide=forbidden
//! perft 1 10
//! perft 2 91
//! ```
//!
//! A record starts at `id`; `position WxH ROWS TO_MOVE HISTORY` gives the rows top first
//! separated by `/` (`X` black, `O` white, `.` empty), who moves (`b` or `w`) and whether the
//! set-up position is the first entry of the repetition history (`played`) or not
//! (`excluded`); `moves` (optional) lists moves played from it before counting, as
//! `B C3 W pass ...`; `rules` sets axes over the defaults (`AXIS=VALUE` words); each `perft`
//! line gives a depth and its count. `#` starts a comment line. The full description is in
//! `docs/perft.md`.

use std::fmt::Write as _;

use super::Start;
use crate::board::{Color, Move, Point};
use crate::game::{Event, Setup, SetupHistory};
use crate::rules::Rules;

/// One record of a `.perft` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// The record's name.
    pub id: String,
    /// Where counting starts.
    pub start: Start,
    /// The rules, as the `rules` line set them over the defaults.
    pub rules: Rules,
    /// The `AXIS=VALUE` words of the `rules` line, as written.
    pub rule_words: Vec<String>,
    /// `(depth, nodes)` in the order given.
    pub counts: Vec<(u32, u64)>,
}

/// A problem in a `.perft` file, with its line (from 1).
#[derive(Debug, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ParseError {
    /// The line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// The `position` words of a start: `WxH ROWS TO_MOVE HISTORY`.
pub fn position_words(setup: &Setup) -> String {
    let mut rows = Vec::new();
    for row in (0..setup.height).rev() {
        let mut text = String::new();
        for col in 0..setup.width {
            let p = Point::new(col, row);
            let stone = setup
                .stones
                .iter()
                .find(|(q, _)| *q == p)
                .map(|(_, c)| *c)
                .or_else(|| setup.handicap.contains(&p).then_some(Color::Black));
            text.push(stone.map_or('.', Color::stone_char));
        }
        rows.push(text);
    }
    let to_move = if setup.handicap.is_empty() {
        setup.to_move
    } else {
        Color::White
    };
    format!(
        "{}x{} {} {} {}",
        setup.width,
        setup.height,
        rows.join("/"),
        to_move.letter().to_ascii_lowercase(),
        setup.history.word()
    )
}

/// Writes records in the file format.
pub fn write(records: &[Record]) -> String {
    let mut out = String::new();
    for (n, r) in records.iter().enumerate() {
        if n > 0 {
            out.push('\n');
        }
        let _ = writeln!(out, "id {}", r.id);
        let _ = writeln!(out, "position {}", position_words(&r.start.setup));
        if !r.start.moves.is_empty() {
            let moves: Vec<String> = r.start.moves.iter().map(|e| e.to_string()).collect();
            let _ = writeln!(out, "moves {}", moves.join(" "));
        }
        let _ = writeln!(out, "rules {}", r.rule_words.join(" "));
        for (depth, nodes) in &r.counts {
            let _ = writeln!(out, "perft {depth} {nodes}");
        }
    }
    out
}

fn parse_position(words: &[&str]) -> Result<Setup, String> {
    let [size, rows, to_move, history] = words else {
        return Err(format!(
            "`position` takes four words, WxH ROWS TO_MOVE HISTORY (e.g. `position 3x3 .../.../... b played`), not {}",
            words.len()
        ));
    };
    let (w, h) = size
        .split_once('x')
        .and_then(|(w, h)| Some((w.parse::<u8>().ok()?, h.parse::<u8>().ok()?)))
        .ok_or_else(|| format!("`{size}` is not a size WxH"))?;
    let lines: Vec<&str> = rows.split('/').collect();
    if lines.len() != usize::from(h) || lines.iter().any(|l| l.chars().count() != usize::from(w)) {
        return Err(format!(
            "the rows `{rows}` are not {h} rows of {w} points each"
        ));
    }
    let mut stones = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let row = h - 1 - k as u8;
        for (col, ch) in line.chars().enumerate() {
            let color = match ch {
                'X' => Some(Color::Black),
                'O' => Some(Color::White),
                '.' => None,
                other => return Err(format!("`{other}` in the rows: expected X, O or .")),
            };
            if let Some(c) = color {
                stones.push((Point::new(col as u8, row), c));
            }
        }
    }
    let to_move = match *to_move {
        "b" => Color::Black,
        "w" => Color::White,
        other => return Err(format!("`{other}` is not who moves: expected b or w")),
    };
    let history = match *history {
        "played" => SetupHistory::Played,
        "excluded" => SetupHistory::Excluded,
        other => {
            return Err(format!(
                "`{other}` is not a history convention: expected played or excluded"
            ))
        }
    };
    Ok(Setup {
        width: w,
        height: h,
        stones,
        handicap: Vec::new(),
        to_move,
        history,
        handicap_as_placed: false,
    })
}

/// Reads a `.perft` file.
pub fn parse(text: &str) -> Result<Vec<Record>, ParseError> {
    let mut records: Vec<Record> = Vec::new();
    for (n, raw) in text.lines().enumerate() {
        let line = n + 1;
        let fail = |message: String| ParseError { line, message };
        let trimmed = raw.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (key, rest) = trimmed.split_once(' ').unwrap_or((trimmed, ""));
        let words: Vec<&str> = rest.split_whitespace().collect();
        if key == "id" {
            if words.len() != 1 {
                return Err(fail("`id` takes one word".to_string()));
            }
            records.push(Record {
                id: words[0].to_string(),
                start: Start::empty(1, 1),
                rules: Rules::default(),
                rule_words: Vec::new(),
                counts: Vec::new(),
            });
            continue;
        }
        let Some(record) = records.last_mut() else {
            return Err(fail(format!("`{key}` before the first `id`")));
        };
        match key {
            "position" => {
                record.start.setup = parse_position(&words).map_err(fail)?;
            }
            "moves" => {
                let setup = &record.start.setup;
                if !words.len().is_multiple_of(2) {
                    return Err(fail(
                        "`moves` takes colour and vertex pairs, e.g. `B C3 W pass`".to_string(),
                    ));
                }
                let mut moves = Vec::new();
                for pair in words.chunks(2) {
                    let color = Color::parse(pair[0])
                        .ok_or_else(|| fail(format!("`{}` is not a colour", pair[0])))?;
                    let mv = Move::parse_gtp(pair[1], setup.width, setup.height)
                        .map_err(|e| fail(e.to_string()))?;
                    moves.push(Event::Move(color, mv));
                }
                record.start.moves = moves;
            }
            "rules" => {
                let mut rules = Rules::default();
                for word in &words {
                    rules
                        .set_assignment(word)
                        .map_err(|e| fail(e.to_string()))?;
                }
                record.rules = rules;
                record.rule_words = words.iter().map(|w| w.to_string()).collect();
            }
            "perft" => {
                let parsed = match words[..] {
                    [d, n] => d.parse::<u32>().ok().zip(n.parse::<u64>().ok()),
                    _ => None,
                };
                let Some(count) = parsed else {
                    return Err(fail("`perft` takes a depth and a count".to_string()));
                };
                record.counts.push(count);
            }
            other => {
                return Err(fail(format!(
                    "unknown key `{other}`: expected id, position, moves, rules or perft"
                )))
            }
        }
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_read_back_as_written() {
        let text = "# a comment\nid ko\nposition 3x2 XO./.X. w played\nmoves W C1 B pass\nrules ko=situational suicide=allowed\nperft 1 4\nperft 2 12\n";
        let records = parse(text).unwrap();
        assert_eq!(records.len(), 1);
        let r = &records[0];
        assert_eq!(r.start.setup.stones.len(), 3);
        assert_eq!(r.start.moves.len(), 2);
        assert_eq!(r.counts, vec![(1, 4), (2, 12)]);
        assert_eq!(parse(&write(&records)).unwrap(), records);
    }

    #[test]
    fn problems_name_their_line() {
        let e = parse("id a\nposition 2x2 ../.. b played\nperft one 2\n").unwrap_err();
        assert_eq!(e.line, 3);
        let e = parse("id a\nrules ko=sometimes\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(e.message.contains("sometimes"), "{}", e.message);
        let e = parse("position 2x2 ../.. b played\n").unwrap_err();
        assert_eq!(e.line, 1);
    }
}
