//! The main line of every game of an SGF collection, read in one pass over the bytes, as
//! `sgf-parse` would read it, or nothing when the text needs `sgf-parse` itself.
//!
//! `sgf-parse` turns the whole text into a vector of tokens, a character and a `String` at a
//! time, then builds every node of every variation; on real records that was most of the time
//! `judge` spent. A record's reading needs only the main line (the first variation at every
//! branch), so this reader walks the text once, checks the grammar exactly as `sgf-parse` does,
//! and builds only the main line's nodes, each property through `sgf-parse`'s own
//! [`SgfProp::new`], so that every value means what it meant.
//!
//! It answers `None`, and the caller runs `sgf-parse` (whose answer, or error, then stands),
//! for every text it does not read with certainty: any grammar error, an identifier with
//! anything but upper-case letters (FF\[3\]'s long names, which `sgf-parse` converts), a root
//! whose `GM` is not exactly `1`, anything before a game tree or between two. So a text it
//! reads is read as `sgf-parse` reads it, node for node on the main line; `tests/sgf_corpus.rs`
//! checks that on every record of the corpus and the `sgf_fast` fuzz target on arbitrary texts
//! (its corpus replayed by `tests/fuzz_corpus.rs`). The main line comes as a list of nodes,
//! not as `sgf-parse`'s chain of nodes (whose building and recursive dropping cost as much
//! again).

use sgf_parse::go::{Move, Point, Prop};
use sgf_parse::{SgfNode, SgfProp};

/// One list of nodes as `sgf-parse` builds them: a game's top level, or a node's children.
#[derive(Clone, Copy)]
struct List {
    /// The list belongs to the main line (the game's top level, or a main-line node's).
    main: bool,
    /// Nodes pushed so far.
    len: u32,
}

/// The main line of one game: its nodes in order (the root first), each with its properties.
pub type MainLine = Vec<Vec<Prop>>;

/// The main line of each game of the collection, or `None` when `sgf-parse` must read the
/// text.
pub fn main_lines(text: &str) -> Option<Vec<MainLine>> {
    // As sgf-parse: surrounding white space (Unicode's) is not part of the collection.
    let bytes = text.trim().as_bytes();
    let mut at = 0;
    let mut games = Vec::new();
    while at < bytes.len() {
        if bytes[at] != b'(' {
            return None;
        }
        let (root, next) = game(bytes, at)?;
        games.push(root);
        at = next;
    }
    if games.is_empty() {
        return None;
    }
    Some(games)
}

/// Skips ASCII white space, as sgf-parse does after every token.
fn skip_space(bytes: &[u8], mut at: usize) -> usize {
    while at < bytes.len() && bytes[at].is_ascii_whitespace() {
        at += 1;
    }
    at
}

/// One game tree starting at `bytes[at] == b'('`: its main line, and where the next token
/// starts.
fn game(bytes: &[u8], mut at: usize) -> Option<(MainLine, usize)> {
    // The main line's nodes in order, each with its properties.
    let mut line: MainLine = Vec::new();
    // Lists as sgf-parse keeps them: the current one, and those a `(` left to come back to.
    let mut lists: Vec<List> = vec![List { main: true, len: 0 }];
    let mut open: Vec<usize> = Vec::new();
    // The values of the property being read, as ranges of `bytes` (reused).
    let mut values: Vec<Value> = Vec::new();
    let mut current = 0usize;
    let mut first = true;
    loop {
        at = skip_space(bytes, at);
        let Some(&byte) = bytes.get(at) else {
            // The end of the text inside a game tree.
            return None;
        };
        match byte {
            b'(' => {
                // A game tree may not start before its parent's list has a node (and the
                // first `(` is the game's own).
                if let Some(&top) = open.last() {
                    if lists[top].len == 0 {
                        return None;
                    }
                }
                open.push(current);
                at += 1;
                if first {
                    // sgf-parse finds the game type in the properties right after `(;`.
                    if bytes.get(skip_space(bytes, at)) != Some(&b';') {
                        return None;
                    }
                    first = false;
                }
            }
            b')' => {
                current = open.pop()?;
                at += 1;
                if open.is_empty() {
                    // The end of the game tree; its top level must be one node.
                    if lists[0].len != 1 {
                        return None;
                    }
                    return Some((line, skip_space(bytes, at)));
                }
            }
            b';' => {
                at += 1;
                let list = lists[current];
                let main = list.main && list.len == 0;
                lists[current].len += 1;
                let root = main && line.is_empty();
                let mut properties = main.then(Vec::new);
                let mut game_types = 0;
                loop {
                    at = skip_space(bytes, at);
                    match bytes.get(at) {
                        Some(b'(' | b')' | b';') | None => break,
                        Some(_) => {
                            let (ident, next) = property(bytes, at, &mut values)?;
                            at = next;
                            let Some(props) = properties.as_mut() else {
                                continue;
                            };
                            let prop = make(bytes, ident, &values)?;
                            if root && ident == b"GM" {
                                // sgf-parse takes the game type from the text of the root's
                                // one `GM`: only `1` is Go (`01` is a number, but another
                                // game; two `GM`s are an error).
                                game_types += 1;
                                if game_types > 1 || text_of(bytes, &values) != ["1"] {
                                    return None;
                                }
                            }
                            props.push(prop);
                        }
                    }
                }
                if let Some(props) = properties {
                    line.push(props);
                }
                lists.push(List { main, len: 0 });
                current = lists.len() - 1;
            }
            // A property where a node must start.
            _ => return None,
        }
    }
}

/// A property value: the bytes between its brackets, and whether a backslash escapes a
/// character in them.
#[derive(Clone, Copy)]
struct Value {
    start: usize,
    end: usize,
    escaped: bool,
}

/// One property at `at`: its identifier (upper-case letters only, else `None`), its values
/// into `values`, and where the next token starts.
fn property<'b>(
    bytes: &'b [u8],
    mut at: usize,
    values: &mut Vec<Value>,
) -> Option<(&'b [u8], usize)> {
    let start = at;
    while at < bytes.len() && bytes[at].is_ascii_uppercase() {
        at += 1;
    }
    // An empty identifier, a lower-case letter or anything else in it: sgf-parse's business.
    if at == start || bytes.get(at) != Some(&b'[') {
        return None;
    }
    let ident = &bytes[start..at];
    values.clear();
    loop {
        at = skip_space(bytes, at);
        if bytes.get(at) != Some(&b'[') {
            break;
        }
        at += 1;
        let mut value = Value {
            start: at,
            end: at,
            escaped: false,
        };
        loop {
            // The next `]` or `\`; a backslash makes the character after it part of the value
            // (a byte at a time is the same, since `]` and `\` never occur inside a UTF-8
            // sequence).
            let i = memchr::memchr2(b']', b'\\', bytes.get(at..)?)?;
            at += i;
            if bytes[at] == b']' {
                value.end = at;
                at += 1;
                break;
            }
            value.escaped = true;
            at += 2;
        }
        values.push(value);
    }
    Some((ident, at))
}

/// The values as sgf-parse's lexer gives them: escapes removed.
fn text_of(bytes: &[u8], values: &[Value]) -> Vec<String> {
    values
        .iter()
        .map(|v| {
            let raw = &bytes[v.start..v.end];
            let text = if v.escaped {
                let mut out = Vec::with_capacity(raw.len());
                let mut escape = false;
                for &b in raw {
                    if b == b'\\' && !escape {
                        escape = true;
                    } else {
                        escape = false;
                        out.push(b);
                    }
                }
                out
            } else {
                raw.to_vec()
            };
            // Bytes of a `&str` with only ASCII backslashes taken out: still UTF-8.
            String::from_utf8(text).unwrap_or_default()
        })
        .collect()
}

/// The property sgf-parse's `Prop::new` makes of `ident` and `values`; a move (`B`, `W`) of
/// one plain value is made directly (a pass, or two letters: the point), as sgf-parse reads
/// it, without the strings.
fn make(bytes: &[u8], ident: &[u8], values: &[Value]) -> Option<Prop> {
    if let ([b'B' | b'W'], [v]) = (ident, values) {
        if !v.escaped {
            let mv = match &bytes[v.start..v.end] {
                [] => Some(Move::Pass),
                &[x, y] => coordinate(x)
                    .zip(coordinate(y))
                    .map(|(x, y)| Move::Move(Point { x, y })),
                _ => None,
            };
            if let Some(mv) = mv {
                return Some(if ident == b"B" {
                    Prop::B(mv)
                } else {
                    Prop::W(mv)
                });
            }
        }
    }
    // Upper-case ASCII letters: valid UTF-8.
    let ident = String::from_utf8(ident.to_vec()).ok()?;
    Some(Prop::new(ident, text_of(bytes, values)))
}

/// An SGF coordinate letter as sgf-parse reads it: `a`-`z` 0-25, `A`-`Z` 26-51.
fn coordinate(letter: u8) -> Option<u8> {
    match letter {
        b'a'..=b'z' => Some(letter - b'a'),
        b'A'..=b'Z' => Some(letter - b'A' + 26),
        _ => None,
    }
}

/// Where [`main_lines`] and `sgf-parse` disagree on `text`, said in words; `None` when they
/// agree: the fast reader declines the text, or both read the same games with the same main
/// lines, property for property (equal, or written the same where a value is not equal to
/// itself, as a komi of NaN). The check behind the `sgf_fast` fuzz target and
/// the corpus test.
pub fn disagreement(text: &str) -> Option<String> {
    let fast = main_lines(text)?;
    let slow = match sgf_parse::parse(text) {
        Ok(trees) => trees,
        Err(e) => return Some(format!("sgf-parse refuses a text read fast: {e}")),
    };
    if fast.len() != slow.len() {
        return Some(format!(
            "{} games read fast, {} by sgf-parse",
            fast.len(),
            slow.len()
        ));
    }
    for (game, (ours, tree)) in fast.iter().zip(&slow).enumerate() {
        let Ok(theirs) = tree.as_go_node() else {
            return Some(format!("game {game}: not a game of Go to sgf-parse"));
        };
        let theirs: Vec<&SgfNode<Prop>> = theirs.main_variation().collect();
        if ours.len() != theirs.len() {
            return Some(format!(
                "game {game}: a main line of {} nodes read fast, {} by sgf-parse",
                ours.len(),
                theirs.len()
            ));
        }
        for (node, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            // Property for property: equal values (sets of points in any order), or the same
            // text where a value is not equal to itself (a komi of NaN).
            let same = a.len() == b.properties.len()
                && a.iter()
                    .zip(&b.properties)
                    .all(|(p, q)| p == q || format!("{p:?}") == format!("{q:?}"));
            if !same {
                return Some(format!(
                    "game {game}, node {node}: {a:?} read fast, {:?} by sgf-parse",
                    b.properties
                ));
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The main line's properties, as sgf-parse shows them, node by node.
    fn line(text: &str) -> Option<Vec<String>> {
        let games = main_lines(text)?;
        assert_eq!(disagreement(text), None, "{text}");
        Some(games[0].iter().map(|n| format!("{n:?}")).collect())
    }

    #[test]
    fn the_main_line_is_the_first_variation_at_every_branch() {
        // A node after the variations joins its parent's children: a third variation.
        let nodes = line("(;SZ[9];B[ee](;W[cc];B[dd])(;W[gg]);W[ff])").unwrap();
        assert_eq!(nodes.len(), 4, "{nodes:?}");
        assert!(
            nodes[2].contains("W(Move(Point { x: 2, y: 2 }))"),
            "{nodes:?}"
        );
        assert!(
            nodes[3].contains("B(Move(Point { x: 3, y: 3 }))"),
            "{nodes:?}"
        );
    }

    #[test]
    fn values_lose_their_escapes_and_keep_everything_else() {
        let nodes = line("(;SZ[9]PB[a\\]b]PW[caf\u{e9} \\\u{e9}]AB[aa]\n [bb];W[])").unwrap();
        assert!(nodes[0].contains("\"a]b\""), "{nodes:?}");
        assert!(nodes[0].contains("caf\u{e9} \u{e9}"), "{nodes:?}");
        assert!(nodes[1].contains("W(Pass)"), "{nodes:?}");
        let games = main_lines("  (;SZ[9];B[aa])\n(;SZ[5];W[bb]) \n").unwrap();
        assert_eq!(games.len(), 2);
    }

    #[test]
    fn texts_only_sgf_parse_reads_as_it_does_are_left_to_it() {
        for text in [
            "(;GM[01];B[aa])",       // another game to sgf-parse
            "(;GM[1]GM[1];B[aa])",   // an error to sgf-parse
            "(;FF[3]SiZe[9];B[aa])", // a long name sgf-parse converts
            "(;SZ[9];B[aa]);",       // a node after the game, which sgf-parse drops
            "((;SZ[9]))",            // a game tree before any node
            "(;SZ[9];B[aa]",         // unclosed
            "(;SZ[9];B[a\\",         // a value never closed
            "(;SZ[9]B [aa])",        // a space in an identifier
            "(;SZ[9];[aa])",         // no identifier
            "(B[aa])",               // a property outside a node
            "",
        ] {
            assert!(main_lines(text).is_none(), "{text}");
        }
        assert!(main_lines("(;GM[1]SZ[9];B[aa])").is_some());
    }
}
