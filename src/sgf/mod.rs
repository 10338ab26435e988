//! Game records in SGF: reading them into the set-up and events a scenario holds, judging
//! them under our rulesets, and writing scenarios back out as records.
//!
//! SGF is a file format like TOML, so this module sits beside `scenario` and above `game`:
//! a record becomes a [`Setup`] and a list of [`Event`]s, and everything after that is the
//! reference executor's. The grammar is parsed as the `sgf-parse` crate parses it (FF\[4\],
//! with its conversion of FF\[3\] long property names): [`fast`] reads the main lines of a
//! well-formed FF\[4\] text in one pass, node for node as `sgf-parse` would, and hands every
//! other text to `sgf-parse` itself; [`text`] decodes the bytes by `CA` and maps
//! errors back to a line, a column and a property; [`values`] reads the game-information
//! values the way real records spell them.
//!
//! What a record means here:
//! - the main line (the first variation at every branch) is the game;
//! - `SZ` gives the board (`19`, or `13:9` width by height), 2 to 25 points a side;
//! - `AB`/`AW`/`AE` before the first move are the set-up; with `HA[n]`, n of 2 or more, and
//!   exactly n black set-up stones and no others, those stones are the handicap and White
//!   moves first; `PL` says who moves first otherwise; without `PL`, Black moves first in an
//!   even game (White after a handicap, and in a position set up with other stones the colour
//!   of the first move), never taken from a first move by White in an even game, which the
//!   judge then reports;
//! - `AB`/`AW`/`AE` after a move are set-up events ([`SetupChange`]): stones added or taken
//!   away between two moves, with `PL` in the same node saying who moves next;
//! - property identifiers are read as SGF says: lower-case letters are ignored (FF\[3\]'s
//!   `AddBlack` and `aB` are `AB`); an identifier with no upper-case letter at all (`ab`,
//!   `w`) is refused with a located error, never dropped;
//! - `B`/`W` are the moves; `B[]` is a pass, and so is `B[tt]` on boards up to 19x19;
//! - `KM` is read by [`values::parse_komi`], `RE` by [`values::RecordedResult::parse`], `RU`
//!   by [`values::rules_tag`];
//! - `TB`/`TW` mark each side's territory at the end: the stones of the other colour on those
//!   points are the stones the players agreed were dead.
//!
//! A record that cannot be read is one located error: file, line, column and property.

pub mod convert;
pub mod fast;
pub mod judge;
pub mod text;
pub mod values;
pub mod write;

use std::collections::HashSet;
use std::path::{Path, PathBuf};

use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::SgfProp;

use crate::board::{Color, Move, Point};
use crate::game::{Event, Setup, SetupHistory};
use crate::spec::location::{Cursor, Located, Source};

pub use values::{KomiUnits, RecordKomi, RecordedResult, RulesTag};

/// How to read records.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOptions {
    /// How to take `KM` values, which servers write in points, hundredths or stones.
    pub komi_units: KomiUnits,
}

/// Where a move is written in its file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Position {
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
}

/// Set-up properties after a move: stones placed or taken away between two moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupChange {
    /// How many of the record's moves come before it.
    pub before: usize,
    /// The points changed, each with the stone now on it (`None`: emptied by `AE`), in
    /// board order, each point once.
    pub stones: Vec<(Point, Option<Color>)>,
    /// `PL` in the same node: who moves next.
    pub to_move: Option<Color>,
}

/// One game of an SGF file, read.
#[derive(Clone, Debug)]
pub struct Record {
    /// The file the record was read from, for messages and reports.
    pub path: PathBuf,
    /// Which game of the file's collection (0 for the first).
    pub game: usize,
    /// The character set the file was decoded from.
    pub charset: &'static str,
    /// The position before the first move: size, set-up stones, handicap stones, who moves.
    pub setup: Setup,
    /// The moves of the main line, in order.
    pub events: Vec<Event>,
    /// Where each move is written.
    pub positions: Vec<Position>,
    /// `KM`, with how it was read; `None` when the record has none.
    pub komi: Option<RecordKomi>,
    /// `HA` as written, when it is a number.
    pub handicap: Option<u32>,
    /// The handicap stones were written as a run of black moves before White's first (as
    /// some servers record a free placement), and have been read as placed stones.
    pub handicap_from_moves: bool,
    /// `RU` as written, and what it names.
    pub rules: Option<(String, RulesTag)>,
    /// `RE`, read.
    pub result: Option<RecordedResult>,
    /// The points `TB` and `TW` mark (Black's territory, White's), when the record has them.
    pub territory: Option<[Vec<Point>; 2]>,
    /// `PB`: Black's name.
    pub black: Option<String>,
    /// `PW`: White's name.
    pub white: Option<String>,
    /// `DT`: when the game was played, as written.
    pub date: Option<String>,
    /// Set-up properties after the first move, in order.
    pub setup_changes: Vec<SetupChange>,
}

impl Record {
    /// The record's name in reports: the path, and the game's number in a collection of
    /// several.
    pub fn name(&self) -> String {
        if self.game == 0 {
            self.path.display().to_string()
        } else {
            format!("{}#{}", self.path.display(), self.game + 1)
        }
    }

    /// The ruleset `RU` names, if it names one of ours.
    pub fn ruleset(&self) -> Option<&'static str> {
        match &self.rules {
            Some((_, RulesTag::Ruleset(name))) => Some(name),
            _ => None,
        }
    }

    /// The dead stones the record's territory marks name on `board` (the final position):
    /// stones of the other colour on each side's marked points. `None` without marks.
    pub fn dead_stones(&self, board: &crate::board::Board) -> Option<Vec<Point>> {
        let territory = self.territory.as_ref()?;
        let mut dead = Vec::new();
        for (owner, points) in [Color::Black, Color::White].iter().zip(territory) {
            for &p in points {
                if board.get(p) == Some(owner.opponent()) {
                    dead.push(p);
                }
            }
        }
        dead.sort();
        Some(dead)
    }
}

/// Reads an SGF file's bytes: every game of its collection, each read or refused on its own.
/// A file that cannot be parsed at all is one error.
pub fn read(
    path: &Path,
    bytes: &[u8],
    options: &ReadOptions,
) -> Result<Vec<Result<Record, Located>>, Located> {
    let mut games = Vec::new();
    read_each(path, bytes, options, |game| games.push(game))?;
    Ok(games)
}

/// Reads an SGF file's bytes game by game, handing each game to `each` as soon as it is read,
/// so that one game's tree is in memory at a time (a collection's trees all at once took about
/// a hundred times the file's size). Returns how many games were handed over. A file that
/// cannot be parsed is one error; where the syntax breaks in a later game of a collection, the
/// games before it have already been handed over ([`read`] then drops them).
pub fn read_each(
    path: &Path,
    bytes: &[u8],
    options: &ReadOptions,
    mut each: impl FnMut(Result<Record, Located>),
) -> Result<usize, Located> {
    let (text, charset) = match text::decode(bytes) {
        Ok(decoded) => decoded,
        Err((offset, message)) => {
            let lossy = String::from_utf8_lossy(bytes);
            return Err(Source::new(path, &lossy).error_at(offset, "CA", message));
        }
    };
    let source = Source::new(path, &text);
    if let Some(offset) = text::node_past_depth(&text, text::MAX_LINE_NODES) {
        return Err(source.error_at(
            offset,
            "",
            format!(
                "a line of play is longer than {} nodes, the most a record may hold",
                text::MAX_LINE_NODES
            ),
        ));
    }
    let syntax_error = |e: sgf_parse::SgfParseError| {
        let index = text::Index::new(&text);
        let (offset, what) = index.problem.unwrap_or((0, "not an SGF collection"));
        source.error_at(offset, "", format!("{what} ({e})"))
    };
    // Each game tree read on its own where the collection splits plainly into trees;
    // otherwise the whole text at once, which is what gives a broken file its error.
    let ranges = game_ranges(&text).unwrap_or_else(|| std::iter::once(0..text.len()).collect());
    let mut game = 0;
    for range in ranges {
        let part = &text[range.clone()];
        // The main lines read in one pass where that reader is sure of its reading (every
        // well-formed FF[4] record), else sgf-parse's reading of this part.
        let fast = fast::main_lines(part);
        let trees = match &fast {
            Some(_) => Vec::new(),
            None => sgf_parse::parse(part).map_err(syntax_error)?,
        };
        // Each game's main line, node by node (`None`: not a game of Go).
        let games: Vec<Option<Vec<&[Prop]>>> = match &fast {
            Some(lines) => lines
                .iter()
                .map(|line| Some(line.iter().map(Vec::as_slice).collect()))
                .collect(),
            None => trees
                .iter()
                .map(|tree| {
                    let root = tree.as_go_node().ok()?;
                    Some(root.main_variation().map(|n| &n.properties[..]).collect())
                })
                .collect(),
        };
        let moves = text::move_offsets(part);
        // The index that locates an error, built only when one needs locating, and over this
        // part of the text only (one game, where the collection splits plainly).
        let index = std::cell::OnceCell::new();
        let empty = Vec::new();
        for (part_game, line) in games.into_iter().enumerate() {
            let offsets: Vec<usize> = moves
                .get(part_game)
                .unwrap_or(&empty)
                .iter()
                .map(|o| o + range.start)
                .collect();
            let reader = Reader {
                source: &source,
                index: &index,
                part,
                base: range.start,
                part_game,
                moves: &offsets,
                game,
            };
            each(match line {
                Some(line) => reader.record(&line, charset, options),
                None => Err(reader.error(0, "GM", None, "not a game of Go (GM is not 1)")),
            });
            game += 1;
        }
    }
    Ok(game)
}

/// The byte ranges of a collection's game trees, found by a scan that skips property values;
/// `None` where the text is anything but balanced trees with white space around them.
pub(crate) fn game_ranges(text: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let bytes = text.as_bytes();
    let mut ranges = Vec::new();
    let mut depth = 0usize;
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'[' if depth > 0 => {
                i += 1;
                while i < bytes.len() && bytes[i] != b']' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                if i >= bytes.len() {
                    return None;
                }
            }
            b'(' => {
                if depth == 0 {
                    start = i;
                }
                depth += 1;
            }
            b')' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    ranges.push(start..i + 1);
                }
            }
            b if depth == 0 && !b.is_ascii_whitespace() => return None,
            _ => {}
        }
        i += 1;
    }
    (depth == 0 && !ranges.is_empty()).then_some(ranges)
}

/// Reads a file from disk: [`read`], with an unreadable file as one error.
pub fn read_file(
    path: &Path,
    options: &ReadOptions,
) -> Result<Vec<Result<Record, Located>>, Located> {
    let bytes = crate::spec::location::read_bounded(path).map_err(|e| match e {
        crate::spec::LoadError::Invalid(mut located) if !located.is_empty() => located.remove(0),
        other => Located {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            key: String::new(),
            message: match other {
                crate::spec::LoadError::Io { error, .. } => format!("cannot read: {error}"),
                other => other.to_string(),
            },
        },
    })?;
    read(path, &bytes, options)
}

/// Whether a path names an SGF file by its extension.
pub fn is_sgf(path: &Path) -> bool {
    path.extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("sgf"))
}

struct Reader<'a> {
    source: &'a Source<'a>,
    /// The index of `part`, built only when an error needs locating.
    index: &'a std::cell::OnceCell<text::Index>,
    /// The part of the text parsed with this game: the game alone, or the whole collection.
    part: &'a str,
    /// Where `part` starts in the text.
    base: usize,
    /// Which game of `part` this is.
    part_game: usize,
    /// Where each main-line node's move is written in the file, for this game.
    moves: &'a [usize],
    game: usize,
}

impl Reader<'_> {
    fn error(&self, node: usize, ident: &str, value: Option<usize>, message: &str) -> Located {
        let index = self.index.get_or_init(|| text::Index::new(self.part));
        let offset = self.base + index.locate(self.part_game, node, ident, value);
        self.source.error_at(offset, ident, message)
    }

    /// Where the move of a main-line node is written, found by `cursor` (the moves are
    /// located in the order they are written).
    fn position(&self, cursor: &mut Cursor, node: usize) -> Position {
        let offset = self.moves.get(node).copied().unwrap_or(0);
        let (line, column) = cursor.at(offset);
        Position { line, column }
    }

    /// Reads a game from its main line: the root's properties, then each node's.
    fn record(
        &self,
        line: &[&[Prop]],
        charset: &'static str,
        options: &ReadOptions,
    ) -> Result<Record, Located> {
        let root: &[Prop] = line.first().copied().unwrap_or_default();
        let size = root.iter().find(|p| p.identifier() == "SZ");
        let (width, height) = match size {
            None => (19, 19),
            Some(Prop::SZ((w, h))) => (*w, *h),
            Some(_) => return Err(self.error(0, "SZ", Some(0), "not a board size")),
        };
        let sizes = crate::board::MIN_SIDE..=crate::board::MAX_SIDE;
        if !sizes.contains(&width) || !sizes.contains(&height) {
            return Err(self.error(
                0,
                "SZ",
                Some(0),
                &format!(
                    "a {width}x{height} board: boards are {} to {} points a side",
                    crate::board::MIN_SIDE,
                    crate::board::MAX_SIDE
                ),
            ));
        }
        let to_point = |node: usize, ident: &str, p: &SgfPoint| -> Result<Point, Located> {
            if p.x < width && p.y < height {
                Ok(Point::new(p.x, height - 1 - p.y))
            } else {
                Err(self.error(
                    node,
                    ident,
                    None,
                    &format!(
                        "point `{}{}` is off the {width}x{height} board",
                        letter(p.x),
                        letter(p.y)
                    ),
                ))
            }
        };

        let mut record = Record {
            path: self.source.path.to_path_buf(),
            game: self.game,
            charset,
            setup: Setup::empty(width, height),
            // About one move a node: the lists are sized once, not regrown as they fill.
            events: Vec::with_capacity(line.len()),
            positions: Vec::with_capacity(line.len()),
            komi: None,
            handicap: None,
            handicap_from_moves: false,
            rules: None,
            result: None,
            territory: None,
            black: None,
            white: None,
            date: None,
            setup_changes: Vec::new(),
        };
        // The set-up before the first move, each point once with its colour (a map, so that
        // repeated set-up nodes cost one look-up a point, never a scan of the list).
        let mut initial: SetupPoints = SetupPoints::default();
        let mut territory: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        let mut marked = false;
        let mut first_player: Option<Color> = None;
        let mut cursor = self.source.cursor();

        for (node_index, node) in line.iter().enumerate() {
            let mut moves_here = 0;
            let mut change: Option<SetupPoints> = None;
            let mut change_to_move: Option<Color> = None;
            for prop in node.iter() {
                // Only a property sgf-parse does not know can have an empty identifier (the
                // others' are fixed); asked without building every identifier's string.
                let unnamed =
                    matches!(prop, Prop::Unknown(i, _) | Prop::Invalid(i, _) if i.is_empty());
                if unnamed {
                    return Err(self.error(
                        node_index,
                        "",
                        None,
                        "a property identifier with no upper-case letter: SGF ignores the \
                         lower-case letters of an identifier, which leaves nothing here",
                    ));
                }
                match prop {
                    Prop::B(mv) | Prop::W(mv) => {
                        let color = if matches!(prop, Prop::B(_)) {
                            Color::Black
                        } else {
                            Color::White
                        };
                        // Named only in an error; no string built for every move.
                        let ident = match color {
                            Color::Black => "B",
                            Color::White => "W",
                        };
                        moves_here += 1;
                        if moves_here > 1 {
                            return Err(self.error(
                                node_index,
                                ident,
                                None,
                                "a node with two moves: SGF allows one move per node",
                            ));
                        }
                        let mv = match mv {
                            SgfMove::Pass => Move::Pass,
                            SgfMove::Move(p)
                                if p.x == 19 && p.y == 19 && width.max(height) <= 19 =>
                            {
                                Move::Pass
                            }
                            SgfMove::Move(p) => Move::Play(to_point(node_index, ident, p)?),
                        };
                        record.events.push(Event::Move(color, mv));
                        record
                            .positions
                            .push(self.position(&mut cursor, node_index));
                    }
                    Prop::AB(points) | Prop::AW(points) | Prop::AE(points) => {
                        let ident = prop.identifier();
                        let stone = match prop {
                            Prop::AB(_) => Some(Color::Black),
                            Prop::AW(_) => Some(Color::White),
                            _ => None,
                        };
                        let target = if record.events.is_empty() {
                            &mut initial
                        } else {
                            change.get_or_insert_with(SetupPoints::default)
                        };
                        for p in sorted(points) {
                            let point = to_point(node_index, &ident, &p)?;
                            if let Err(other) = target.set(point, stone, record.events.is_empty()) {
                                return Err(self.error(
                                    node_index,
                                    &ident,
                                    None,
                                    &format!(
                                        "{point} is given both a {} and a {} set-up stone",
                                        other.name(),
                                        other.opponent().name()
                                    ),
                                ));
                            }
                        }
                    }
                    Prop::PL(color) if !record.events.is_empty() => {
                        change_to_move = Some(match color {
                            sgf_parse::Color::Black => Color::Black,
                            sgf_parse::Color::White => Color::White,
                        });
                    }
                    Prop::PL(color) if record.events.is_empty() => {
                        first_player = Some(match color {
                            sgf_parse::Color::Black => Color::Black,
                            sgf_parse::Color::White => Color::White,
                        });
                    }
                    Prop::KM(value) => {
                        // The crate has read the number; its shortest form is all the komi
                        // rules need (`7.50` is 7.5, `750` stays 750).
                        let komi = values::parse_komi(&value.to_string(), options.komi_units)
                            .map_err(|m| self.error(node_index, "KM", Some(0), &m))?;
                        record.komi = Some(komi);
                    }
                    Prop::HA(n) => record.handicap = Some(u32::try_from(*n).unwrap_or(u32::MAX)),
                    Prop::TB(points) | Prop::TW(points) => {
                        let ident = prop.identifier();
                        let side = usize::from(matches!(prop, Prop::TW(_)));
                        for p in sorted(points) {
                            territory[side].push(to_point(node_index, &ident, &p)?);
                        }
                        marked = true;
                    }
                    Prop::RE(text) => record.result = Some(RecordedResult::parse(&text.text)),
                    Prop::RU(text) => {
                        record.rules = Some((text.text.clone(), values::rules_tag(&text.text)))
                    }
                    Prop::PB(text) => record.black = Some(text.text.clone()),
                    Prop::PW(text) => record.white = Some(text.text.clone()),
                    Prop::DT(text) => record.date = Some(text.text.clone()),
                    Prop::Invalid(ident, raw) => match ident.as_str() {
                        // sgf-parse refuses HA below 2; 0 and 1 both mean an even game.
                        "HA" => match raw.first().map(|v| v.trim().parse::<u32>()) {
                            Some(Ok(n)) if raw.len() == 1 => record.handicap = Some(n),
                            _ => {
                                return Err(self.error(
                                    node_index,
                                    "HA",
                                    Some(0),
                                    &format!(
                                        "`{}` is not a number of handicap stones",
                                        raw.join("][")
                                    ),
                                ))
                            }
                        },
                        "KM" => {
                            let raw = raw.join("][");
                            let komi = values::parse_komi(&raw, options.komi_units)
                                .map_err(|m| self.error(node_index, "KM", Some(0), &m))?;
                            record.komi = Some(komi);
                        }
                        "B" | "W" | "AB" | "AW" | "AE" | "TB" | "TW" | "PL" | "SZ" => {
                            return Err(self.error(
                                node_index,
                                ident,
                                Some(0),
                                &format!("`{}` is not a valid {ident} value", raw.join("][")),
                            ))
                        }
                        // Other properties do not change the game.
                        _ => {}
                    },
                    _ => {}
                }
            }
            if let Some(change) = change {
                // A node with a move and set-up both: SGF forbids mixing them; the set-up is
                // read as coming before the move, as a viewer shows it.
                let before = record.events.len() - moves_here;
                record.setup_changes.push(SetupChange {
                    before,
                    stones: change.into_sorted(),
                    to_move: change_to_move,
                });
            } else if let Some(color) = change_to_move {
                record.setup_changes.push(SetupChange {
                    before: record.events.len() - moves_here,
                    stones: Vec::new(),
                    to_move: Some(color),
                });
            }
        }

        let (mut black_setup, white_setup) = initial.by_colour();
        let handicap = record.handicap.unwrap_or(0);
        let leading_black = record
            .events
            .iter()
            .take_while(|e| matches!(e, Event::Move(Color::Black, Move::Play(_))))
            .count();
        if black_setup.is_empty()
            && white_setup.is_empty()
            && leading_black >= 2
            && (handicap < 2 || leading_black == handicap as usize)
            && on_star_points(&record.events[..leading_black], width, height)
        {
            // Some servers write a handicap as a run of black moves on the star points before
            // White's first: those stones were placed, not played. Anywhere else two black
            // moves in a row are what they say, a failure of alternation.
            for event in record.events.drain(..leading_black) {
                if let Event::Move(_, Move::Play(p)) = event {
                    record.setup.handicap.push(p);
                }
            }
            record.positions.drain(..leading_black);
            record.handicap_from_moves = true;
        } else if handicap >= 2 && black_setup.len() == handicap as usize {
            // As many black stones as the handicap: they are the handicap, wherever they stand;
            // white set-up stones beside them are ordinary set-up.
            record.setup.handicap = black_setup;
            record.setup.stones = white_setup.into_iter().map(|p| (p, Color::White)).collect();
        } else if let Some(fixed) = fixed_handicap_among(handicap, width, height, &black_setup) {
            // More set-up stones than the handicap: the handicap is the fixed placement, when
            // the black stones include it (the only reading that is not a guess).
            black_setup.retain(|p| !fixed.contains(p));
            record.setup.handicap = fixed;
            record.setup.stones = black_setup
                .into_iter()
                .map(|p| (p, Color::Black))
                .chain(white_setup.into_iter().map(|p| (p, Color::White)))
                .collect();
        } else {
            if handicap >= 2 && !black_setup.is_empty() {
                return Err(self.error(
                    0,
                    "HA",
                    Some(0),
                    &format!(
                        "HA[{handicap}] but the first node places {} black and {} white stones",
                        black_setup.len(),
                        white_setup.len()
                    ),
                ));
            }
            record.setup.stones = black_setup
                .into_iter()
                .map(|p| (p, Color::Black))
                .chain(white_setup.into_iter().map(|p| (p, Color::White)))
                .collect();
        }
        // Who moves first: PL, else White after a handicap, else, in a position set up with
        // other stones, the colour of the first move; else Black (an even game: a first move
        // by White is then out of turn, which the judge reports).
        record.setup.to_move = first_player.unwrap_or(if !record.setup.handicap.is_empty() {
            Color::White
        } else if !record.setup.stones.is_empty() {
            match record.events.first() {
                Some(Event::Move(color, _)) => *color,
                _ => Color::Black,
            }
        } else {
            Color::Black
        });
        record.setup.history = SetupHistory::Played;
        if marked {
            record.territory = Some(territory);
        }
        Ok(record)
    }
}

thread_local! {
    static SETUP_LOOKUPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many set-up points this thread's reader has looked up so far: the work that reading
/// set-up properties costs, which a test checks grows in proportion to the set-up written
/// (a list searched at every point would grow with its square).
pub fn setup_lookups() -> u64 {
    SETUP_LOOKUPS.with(|c| c.get())
}

/// Set-up points, each once with its stone (`None`: emptied), found by hashing.
#[derive(Default)]
struct SetupPoints {
    points: std::collections::HashMap<Point, Option<Color>>,
}

impl SetupPoints {
    /// Sets a point. Before the first move, a point given both colours is refused: the
    /// colour already there is the error.
    fn set(&mut self, point: Point, stone: Option<Color>, initial: bool) -> Result<(), Color> {
        SETUP_LOOKUPS.with(|c| c.set(c.get() + 1));
        match (self.points.get(&point), stone) {
            (Some(Some(old)), Some(new)) if initial && *old != new => Err(*old),
            _ => {
                if initial && stone.is_none() {
                    self.points.remove(&point);
                } else {
                    self.points.insert(point, stone);
                }
                Ok(())
            }
        }
    }

    /// The points in board order (row by row from the top, as SGF lists them).
    fn into_sorted(self) -> Vec<(Point, Option<Color>)> {
        let mut list: Vec<(Point, Option<Color>)> = self.points.into_iter().collect();
        list.sort_by_key(|(p, _)| (std::cmp::Reverse(p.row), p.col));
        list
    }

    /// Black's points and White's, in board order.
    fn by_colour(self) -> (Vec<Point>, Vec<Point>) {
        let mut black = Vec::new();
        let mut white = Vec::new();
        for (p, stone) in self.into_sorted() {
            match stone {
                Some(Color::Black) => black.push(p),
                Some(Color::White) => white.push(p),
                None => {}
            }
        }
        (black, white)
    }
}

/// Whether every move is a black play on a star point (a point of the nine-stone fixed
/// placement, or of the four-stone one on boards without a centre line).
fn on_star_points(moves: &[Event], width: u8, height: u8) -> bool {
    use crate::game::handicap::{fixed_points, max_fixed, Pattern};
    if width != height {
        return false;
    }
    let Some(stars) = fixed_points(Pattern::Traditional, width, max_fixed(width)) else {
        return false;
    };
    moves
        .iter()
        .all(|e| matches!(e, Event::Move(_, Move::Play(p)) if stars.contains(p)))
}

/// The fixed placement of `handicap` stones (AGA's, else GTP's table) if every one of its
/// points holds a black set-up stone.
fn fixed_handicap_among(
    handicap: u32,
    width: u8,
    height: u8,
    black: &[Point],
) -> Option<Vec<Point>> {
    use crate::game::handicap::{fixed_points, Pattern};
    if handicap < 2 || width != height {
        return None;
    }
    [Pattern::Traditional, Pattern::Gtp]
        .into_iter()
        .filter_map(|pattern| fixed_points(pattern, width, handicap))
        .find(|points| points.iter().all(|p| black.contains(p)))
}

/// Points of a set in a stable order (the crate keeps sets unordered).
fn sorted(points: &HashSet<SgfPoint>) -> Vec<SgfPoint> {
    let mut list: Vec<SgfPoint> = points.iter().copied().collect();
    list.sort_by_key(|p| (p.y, p.x));
    list
}

/// The SGF letter of a coordinate: `a`-`z`, then `A`-`Z`.
pub fn letter(coordinate: u8) -> char {
    match coordinate {
        0..=25 => char::from(b'a' + coordinate),
        26..=51 => char::from(b'A' + coordinate - 26),
        _ => '?',
    }
}
