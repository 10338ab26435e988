//! Writing game records as SGF (FF\[4\]), with the `sgf-parse` crate's nodes and serializer.
//!
//! Three writers share [`write_record`]: a scenario (`show --format sgf`, `export --sgf`; its
//! expectations become comments on the moves they check), a referee's game (`referee
//! --sgf-out`: the game as it went, procedure events as comments) and a fuzz finding. A record
//! is a set-up, then one node per move; what SGF has no property for (a dispute, an agreement,
//! a ruling, a pass stone) is written in words in the comment of the node where it happened.

use sgf_parse::go::{Move as SgfMove, Point as SgfPoint, Prop};
use sgf_parse::{SgfNode, SgfProp, SimpleText, Text};

use crate::board::{Color, Move, Point};
use crate::game::{Event, Setup};
use crate::rules::Komi;
use crate::scenario::{Check, Scenario};

/// One move of a record, with what its comment says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveNode {
    /// Who moves.
    pub color: Color,
    /// The move.
    pub mv: Move,
    /// The comment's lines (`C`), empty for none.
    pub comment: Vec<String>,
}

/// The game information of a record.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Info {
    /// `RU`: a ruleset name.
    pub rules: Option<String>,
    /// `KM`.
    pub komi: Option<Komi>,
    /// `RE`, in SGF form.
    pub result: Option<String>,
    /// `PB`: Black's name.
    pub black: Option<String>,
    /// `PW`: White's name.
    pub white: Option<String>,
    /// `GN`.
    pub name: Option<String>,
    /// The root node's comment.
    pub comment: Vec<String>,
    /// Stones agreed dead at the end: written as territory marks (`TB` holds White's dead
    /// stones, `TW` Black's), which is how readers, ours included, learn them.
    pub dead: Vec<(Point, Color)>,
    /// Root properties of a record this game was loaded from ([`root_properties`]): each
    /// written as it was, after the writer's own, unless the writer wrote that property itself.
    pub kept: Vec<(String, String)>,
}

fn sgf_point(p: Point, height: u8) -> SgfPoint {
    SgfPoint {
        x: p.col,
        y: height - 1 - p.row,
    }
}

fn text(lines: &[String]) -> Prop {
    Prop::C(Text {
        text: lines.join("\n"),
    })
}

fn simple(value: &str) -> SimpleText {
    SimpleText {
        text: value.to_string(),
    }
}

/// A record: the set-up and game information in the root, then one node per move.
pub fn write_record(setup: &Setup, moves: &[MoveNode], info: &Info) -> String {
    write_record_laid_out(setup, moves, info, false)
}

/// [`write_record`], with the set-up stones (`AB`/`AW`) in a node of their own after the root
/// where `setup_node` says so, as a record that had them there was written.
pub fn write_record_laid_out(
    setup: &Setup,
    moves: &[MoveNode],
    info: &Info,
    setup_node: bool,
) -> String {
    let (w, h) = (setup.width, setup.height);
    let mut root: Vec<Prop> = vec![
        Prop::FF(4),
        Prop::GM(1),
        Prop::CA(simple("UTF-8")),
        Prop::AP((simple("goconform"), simple(env!("CARGO_PKG_VERSION")))),
    ];
    // SZ[19] for a square board: the crate's own SZ value always writes the w:h form.
    let size = if w == h {
        w.to_string()
    } else {
        format!("{w}:{h}")
    };
    root.push(Prop::Unknown("SZ".to_string(), vec![size]));
    if let Some(rules) = &info.rules {
        root.push(Prop::RU(simple(rules)));
    }
    if let Some(komi) = info.komi {
        root.push(Prop::KM(komi.as_f64()));
    }
    // Point lists are written sorted, so the same record is always the same text (the
    // crate's own list values are hash sets, whose order changes from run to run).
    let list = |ident: &str, points: &mut dyn Iterator<Item = Point>| -> Prop {
        let mut values: Vec<String> = points
            .map(|p| {
                let q = sgf_point(p, h);
                format!("{}{}", super::letter(q.x), super::letter(q.y))
            })
            .collect();
        values.sort();
        Prop::Unknown(ident.to_string(), values)
    };
    let mut black: Vec<Point> = setup.stones_of(Color::Black).collect();
    let white: Vec<Point> = setup.stones_of(Color::White).collect();
    if !setup.handicap.is_empty() {
        root.push(Prop::HA(setup.handicap.len() as i64));
        black.extend(&setup.handicap);
    }
    let mut setup_props = Vec::new();
    if !black.is_empty() {
        setup_props.push(list("AB", &mut black.iter().copied()));
    }
    if !white.is_empty() {
        setup_props.push(list("AW", &mut white.iter().copied()));
    }
    let setup_node = setup_node && !setup_props.is_empty();
    if !setup_node {
        root.append(&mut setup_props);
    }
    let first = if setup.handicap.is_empty() {
        setup.to_move
    } else {
        Color::White
    };
    // Who the reader takes to move first without PL: White after a handicap, the first
    // move's colour in a position set up with other stones, else Black.
    let implied = if !setup.handicap.is_empty() {
        Color::White
    } else if !setup.stones.is_empty() {
        moves.first().map(|m| m.color).unwrap_or(Color::Black)
    } else {
        Color::Black
    };
    if first != implied || (moves.is_empty() && first == Color::White) {
        root.push(Prop::PL(match first {
            Color::Black => sgf_parse::Color::Black,
            Color::White => sgf_parse::Color::White,
        }));
    }
    if let Some(name) = &info.black {
        root.push(Prop::PB(simple(name)));
    }
    if let Some(name) = &info.white {
        root.push(Prop::PW(simple(name)));
    }
    if let Some(name) = &info.name {
        root.push(Prop::GN(simple(name)));
    }
    if let Some(result) = &info.result {
        root.push(Prop::RE(simple(result)));
    }
    if !info.comment.is_empty() {
        root.push(text(&info.comment));
    }
    for (ident, values) in &info.kept {
        if !root.iter().any(|p| p.identifier() == *ident) {
            root.push(Prop::Unknown(ident.clone(), vec![values.clone()]));
        }
    }

    let mut nodes: Vec<Vec<Prop>> = moves
        .iter()
        .map(|m| {
            let mv = match m.mv {
                Move::Pass => SgfMove::Pass,
                Move::Play(p) => SgfMove::Move(sgf_point(p, h)),
            };
            let mut props = vec![match m.color {
                Color::Black => Prop::B(mv),
                Color::White => Prop::W(mv),
            }];
            if !m.comment.is_empty() {
                props.push(text(&m.comment));
            }
            props
        })
        .collect();
    if setup_node {
        nodes.insert(0, setup_props);
    }
    if !info.dead.is_empty() {
        // Dead white stones lie in Black's territory and dead black ones in White's.
        let marks = |owner: Color| -> Vec<Point> {
            info.dead
                .iter()
                .filter(|(_, c)| *c == owner.opponent())
                .map(|(p, _)| *p)
                .collect()
        };
        let last = nodes.last_mut().unwrap_or(&mut root);
        for (ident, owner) in [("TB", Color::Black), ("TW", Color::White)] {
            let points = marks(owner);
            if !points.is_empty() {
                last.push(list(ident, &mut points.into_iter()));
            }
        }
    }
    let mut child: Option<SgfNode<Prop>> = None;
    while let Some(props) = nodes.pop() {
        child = Some(SgfNode::new(props, child.into_iter().collect(), false));
    }
    SgfNode::new(root, child.into_iter().collect(), true).serialize()
}

/// A scenario as a record of the game under its first run (`RU` names that run's ruleset):
/// its set-up, then the moves that run plays (a move made although forbidden is written as
/// the move, since it stood on the board; a move the run refuses is not, since it changed
/// nothing, and its comment says so). Each move's comment gives the expectations the scenario
/// checks there, for every run, and what else happened (disputes, agreements, notices).
pub fn write_scenario(scenario: &Scenario) -> String {
    let mut moves: Vec<MoveNode> = Vec::new();
    let mut root_comment = vec![scenario.title.clone()];
    if !scenario.description.is_empty() {
        root_comment.push(scenario.description.trim().to_string());
    }
    if !scenario.clauses.is_empty() {
        root_comment.push(format!("Clauses: {}", scenario.clauses.join(", ")));
    }
    let labels: Vec<&str> = scenario.runs.iter().map(|r| r.label.as_str()).collect();
    if let Some(first) = labels.first() {
        root_comment.push(format!(
            "The moves are the game under {first}; expectations are given for every run: {}.",
            labels.join(", ")
        ));
    }
    let mut referee = scenario
        .runs
        .first()
        .and_then(|run| crate::game::Refereed::new(run.rules, &scenario.setup).ok());
    let mut pending: Vec<String> = Vec::new();
    for (index, event) in scenario.events.iter().enumerate() {
        let number = index + 1;
        // A move of a confirmation of life and death (Japanese 1989, Article 7(2)) is
        // hypothetical and taken back: the record gives it in words, not as a move.
        let hypothetical = referee
            .as_ref()
            .is_some_and(|r| r.game().phase() == crate::game::Phase::Confirming);
        let verdict = referee.as_mut().map(|r| r.apply(event.clone()));
        let mut lines = Vec::new();
        for expectation in scenario.expectations.iter().filter(|e| e.after == number) {
            let under = if expectation.runs.len() == scenario.runs.len() {
                "every run".to_string()
            } else {
                expectation
                    .runs
                    .iter()
                    .filter_map(|&r| scenario.runs.get(r).map(|run| run.label.as_str()))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            let checks: Vec<String> = expectation.checks.iter().map(check_words).collect();
            lines.push(format!("{under}: {}", checks.join("; ")));
        }
        let refused = matches!(verdict, Some(crate::game::Verdict::Illegal(_)));
        let played = match event {
            _ if hypothetical => None,
            Event::Move(color, mv) if !refused => Some((*color, *mv)),
            Event::Breach(color, mv, _) | Event::Sealed(color, mv) if !refused => {
                lines.insert(0, format!("event {number}: {event}"));
                Some((*color, *mv))
            }
            _ => None,
        };
        match played {
            Some((color, mv)) => {
                let mut comment = std::mem::take(&mut pending);
                comment.extend(lines);
                moves.push(MoveNode { color, mv, comment });
            }
            None => {
                // No move on the board: the words go on the move before, or the next if none.
                let mut words = vec![match &verdict {
                    Some(crate::game::Verdict::Illegal(reason)) => format!(
                        "event {number}: {event}, refused under {} ({reason}): not played",
                        labels.first().unwrap_or(&"")
                    ),
                    _ => format!("event {number}: {event}"),
                }];
                words.extend(lines);
                match moves.last_mut() {
                    Some(last) => last.comment.extend(words),
                    None => pending.extend(words),
                }
            }
        }
    }
    root_comment.extend(pending);
    let info = Info {
        rules: scenario.runs.first().map(|r| r.ruleset.clone()),
        komi: scenario.komi.or_else(|| {
            scenario.runs.first().map(|r| {
                if scenario.setup.handicap.len() >= 2 {
                    r.rules.handicap_komi
                } else {
                    r.rules.komi
                }
            })
        }),
        result: referee
            .as_ref()
            .filter(|r| r.game().phase() == crate::game::Phase::Ended)
            .map(|r| r.game().result()),
        name: Some(scenario.id.clone()),
        comment: root_comment,
        ..Info::default()
    };
    write_record(&scenario.setup, &moves, &info)
}

/// An expectation in the words of the scenario format (`illegal = superko`, `captures = C3`).
fn check_words(check: &Check) -> String {
    let points = |ps: &[Point]| -> String {
        if ps.is_empty() {
            "none".to_string()
        } else {
            ps.iter()
                .map(|p| p.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        }
    };
    match check {
        Check::Verdict(v) => v.to_string(),
        Check::Captures(ps) => format!("captures {}", points(ps)),
        Check::SelfCaptures(ps) => format!("self-captures {}", points(ps)),
        Check::Board(_) => "board as given in the scenario".to_string(),
        Check::Prisoners([b, w]) => format!("prisoners B {b} W {w}"),
        Check::ToMove(c) => format!("{} to move", c.name()),
        Check::Phase(p) => format!("phase {}", p.word()),
        Check::Result(r) => format!("result {r}"),
        Check::Score([b, w]) => format!(
            "score B {} W {}",
            crate::game::counting::format_points(*b),
            crate::game::counting::format_points(*w)
        ),
        Check::Class(c) => format!("class {c}"),
        Check::Warnings([b, w]) => format!("warnings B {b} W {w}"),
    }
}

/// A game of an SGF file as `sgf-parse` reads it: the text decoded by `CA`, and the tree.
fn parsed_game(bytes: &[u8], game: usize) -> Result<(SgfNode<Prop>, &'static str), String> {
    let (text, charset) = super::text::decode(bytes).map_err(|(_, message)| message)?;
    // Only the game asked for is parsed, where the collection splits plainly into games.
    let (part, game) = match super::game_ranges(&text) {
        Some(ranges) if game < ranges.len() => (&text[ranges[game].clone()], 0),
        _ => (&text[..], game),
    };
    let mut trees = sgf_parse::parse(part).map_err(|e| e.to_string())?;
    if game >= trees.len() {
        return Err(format!("the file holds {} games", trees.len()));
    }
    let tree = trees.swap_remove(game);
    match tree {
        sgf_parse::GameTree::GoGame(node) => Ok((node, charset)),
        _ => Err("not a game of Go (GM is not 1)".to_string()),
    }
}

/// A property as SGF writes it, point lists sorted (the crate keeps them unordered, so the
/// same record would otherwise not always be the same text).
fn property_text(prop: &Prop) -> String {
    let points = match prop {
        // The crate writes SZ as width:height always; a square board is one number.
        Prop::SZ((w, h)) if w == h => return format!("SZ[{w}]"),
        Prop::AB(set) | Prop::AW(set) | Prop::AE(set) | Prop::TB(set) | Prop::TW(set) => set,
        _ => return prop.to_string(),
    };
    let mut values: Vec<String> = points
        .iter()
        .map(|p| format!("[{}{}]", super::letter(p.x), super::letter(p.y)))
        .collect();
    values.sort();
    format!("{}{}", prop.identifier(), values.concat())
}

/// The root properties of game `game` of an SGF file's bytes, each as its identifier and its
/// values as SGF writes them (escaped, joined by `][`), in the file's order: what `printsgf`
/// keeps of a record `loadsgf` read. `CA` is left out (what is written is UTF-8).
pub fn root_properties(bytes: &[u8], game: usize) -> Result<Vec<(String, String)>, String> {
    let (root, _) = parsed_game(bytes, game)?;
    Ok(root
        .properties()
        .filter(|p| p.identifier() != "CA")
        .map(|p| {
            let ident = p.identifier();
            let whole = property_text(p);
            let values = whole
                .strip_prefix(ident.as_str())
                .and_then(|v| v.strip_prefix('['))
                .and_then(|v| v.strip_suffix(']'))
                .unwrap_or("")
                .to_string();
            (ident, values)
        })
        .collect())
}

/// Game `game` of an SGF file's bytes written back as the game it is: the main line's nodes,
/// each with every property it holds (root properties, set-up, moves as written, passes,
/// comments), in order; variations are left out, the text is written in UTF-8 (`CA[UTF-8]`),
/// and `notes[n]` is added to the comment of the node holding move `n` (from 1): `show` says
/// there which rule a move breaks, and keeps the move.
pub fn game_as_is(
    bytes: &[u8],
    game: usize,
    notes: &std::collections::BTreeMap<usize, String>,
) -> Result<String, String> {
    let (root, charset) = parsed_game(bytes, game)?;
    let mut out = String::from("(");
    let mut moves = 0;
    for (index, node) in root.main_variation().enumerate() {
        let mut props: Vec<Prop> = node.properties().cloned().collect();
        if index == 0 {
            let had = props.iter().any(|p| p.identifier() == "CA");
            props.retain(|p| p.identifier() != "CA");
            if had || charset != "UTF-8" {
                props.insert(0, Prop::CA(simple("UTF-8")));
            }
        }
        if props.iter().any(|p| matches!(p, Prop::B(_) | Prop::W(_))) {
            moves += 1;
            if let Some(note) = notes.get(&moves) {
                match props.iter_mut().find(|p| matches!(p, Prop::C(_))) {
                    Some(Prop::C(comment)) => {
                        comment.text = format!("{}\n{note}", comment.text);
                    }
                    _ => props.push(Prop::C(Text { text: note.clone() })),
                }
            }
        }
        out.push(';');
        for prop in &props {
            out.push_str(&property_text(prop));
        }
        out.push('\n');
    }
    out.push_str(")\n");
    Ok(out)
}

/// Game `index` of the SGF file `path`, `record` as read, written back as the game it is
/// ([`game_as_is`]), each move the first of `rulesets` refuses named in its comment with the
/// reason, the clauses and how the judge went on past it (the move is kept as written).
pub fn record_as_is(
    path: &std::path::Path,
    index: usize,
    record: &super::Record,
    rulesets: &[String],
    spec: &crate::spec::Spec,
) -> Result<String, String> {
    let bytes = crate::spec::location::read_bounded(path).map_err(|e| e.to_string())?;
    let mut notes = std::collections::BTreeMap::new();
    if let Some(name) = rulesets.first() {
        let judged = super::judge::judge(record, name, spec.rules(name)?, spec);
        if let Some(why) = &judged.not_judged {
            notes.insert(1, format!("goconform: not judged under {name}: {why}"));
        }
        // Moves read as placed handicap stones are not nodes of their own moves' count.
        let offset = if record.handicap_from_moves {
            record.setup.handicap.len()
        } else {
            0
        };
        for v in &judged.violations {
            let clauses = if v.clauses.is_empty() {
                String::new()
            } else {
                format!(" ({})", v.clauses.join(", "))
            };
            let artifact = v
                .artifact
                .map(|a| format!(", likely a record artifact ({})", a.word()))
                .unwrap_or_default();
            notes.insert(
                v.move_number + offset,
                format!(
                    "goconform: move {} breaks a rule under {name}: {}{clauses}{artifact}; {}",
                    v.move_number, v.reason, v.went_on
                ),
            );
        }
    }
    game_as_is(&bytes, index, &notes).map_err(|e| format!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> super::super::Record {
        super::super::read(
            std::path::Path::new("t.sgf"),
            text.as_bytes(),
            &Default::default(),
        )
        .unwrap()
        .remove(0)
        .unwrap()
    }

    #[test]
    fn moves_passes_and_set_up_come_back() {
        let mut setup = Setup::empty(9, 9);
        setup.stones = vec![(Point::new(0, 0), Color::White)];
        setup.handicap = vec![Point::new(2, 2), Point::new(6, 6)];
        let moves = vec![
            MoveNode {
                color: Color::White,
                mv: Move::Play(Point::new(4, 4)),
                comment: vec!["a ] bracket and a \\ backslash".to_string()],
            },
            MoveNode {
                color: Color::Black,
                mv: Move::Pass,
                comment: Vec::new(),
            },
        ];
        let info = Info {
            rules: Some("aga".to_string()),
            komi: Some(Komi::from_half_points(1)),
            result: Some("W+0.5".to_string()),
            ..Info::default()
        };
        let text = write_record(&setup, &moves, &info);
        assert!(text.contains("SZ[9]"), "{text}");
        let record = read(&text);
        assert_eq!(record.setup.stones, setup.stones);
        assert_eq!(record.setup.handicap.len(), 2);
        assert_eq!(
            record.events,
            vec![
                Event::Move(Color::White, Move::Play(Point::new(4, 4))),
                Event::Move(Color::Black, Move::Pass)
            ]
        );
        assert_eq!(
            record.komi.as_ref().unwrap().komi,
            Komi::from_half_points(1)
        );
        assert_eq!(record.ruleset(), Some("aga"));
        let parsed = sgf_parse::go::parse(&text).unwrap();
        let comment = parsed[0]
            .main_variation()
            .nth(1)
            .and_then(|n| n.get_property("C").cloned());
        assert_eq!(
            comment,
            Some(Prop::C(Text {
                text: "a ] bracket and a \\ backslash".to_string()
            }))
        );
    }

    #[test]
    fn rectangular_and_large_boards_and_dead_stones() {
        let setup = Setup::empty(25, 7);
        let corner = Point::new(24, 6);
        let moves = vec![MoveNode {
            color: Color::Black,
            mv: Move::Play(corner),
            comment: Vec::new(),
        }];
        let info = Info {
            dead: vec![(corner, Color::Black)],
            ..Info::default()
        };
        let text = write_record(&setup, &moves, &info);
        assert!(
            text.contains("SZ[25:7]") && text.contains("B[ya]"),
            "{text}"
        );
        let record = read(&text);
        assert_eq!(
            record.events,
            vec![Event::Move(Color::Black, Move::Play(corner))]
        );
        let mut board = crate::board::Board::new(25, 7).unwrap();
        board.set_stone(Color::Black, corner);
        assert_eq!(record.dead_stones(&board), Some(vec![corner]));
    }
}
