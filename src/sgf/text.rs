//! The text of an SGF file: decoding its bytes, and finding where things are in it.
//!
//! The parse itself is the `sgf-parse` crate's; it keeps no positions. Errors must still name
//! a line, a column and a property, so this module maps "game g, main-line node k, property P"
//! back to a byte offset. It needs only the structure SGF's grammar fixes (game trees in
//! parentheses, nodes after `;`, property values in brackets with `\` escapes), and one fact
//! about trees: the main line (the first child at every branch) is a prefix of the nodes in
//! the order they are written, so the k-th main-line node of a game is its k-th node in the
//! text.

use std::borrow::Cow;
use std::ops::Range;

/// The bytes of a record decoded to text by its `CA` property: UTF-8 when `CA` names it or is
/// absent and the bytes are valid UTF-8; the named character set otherwise (`GB2312`, `GBK`,
/// `Shift_JIS`, `EUC-KR`, `ISO-8859-1`, ... as the WHATWG Encoding Standard labels them);
/// ISO-8859-1, SGF's own default, when there is no `CA` and the bytes are not UTF-8.
/// Returns the text and the name of the character set it was decoded from, or an error naming
/// an unknown `CA` value with its byte offset.
pub fn decode(bytes: &[u8]) -> Result<(Cow<'_, str>, &'static str), (usize, String)> {
    let label = charset_label(bytes);
    let encoding = match &label {
        Some((offset, name)) => match encoding_rs::Encoding::for_label(name.trim_ascii()) {
            Some(encoding) => encoding,
            None => {
                return Err((
                    *offset,
                    format!("unknown character set `{}`", String::from_utf8_lossy(name)),
                ))
            }
        },
        None if std::str::from_utf8(bytes).is_ok() => encoding_rs::UTF_8,
        None => encoding_rs::WINDOWS_1252,
    };
    // The Encoding Standard maps the ISO-8859-1 label to windows-1252, a superset.
    let (text, used, _had_errors) = encoding.decode(bytes);
    Ok((text, used.name()))
}

/// The value of the first `CA` property in the raw bytes, with its offset: the property is
/// ASCII in every character set SGF files use, so it can be read before decoding.
fn charset_label(bytes: &[u8]) -> Option<(usize, Vec<u8>)> {
    let mut scan = Scanner::first_values(bytes);
    while let Some(item) = scan.next_item() {
        if let Item::Property { ident, first, .. } = item {
            if ident == b"CA" {
                return Some((first.start, bytes[first].to_vec()));
            }
        }
    }
    None
}

/// Where one property is written: its identifier (FF\[4\] form: lower-case letters of FF\[3\]
/// long names dropped, as the parser does) and the byte ranges of its values.
#[derive(Clone, Debug)]
pub struct PropertySpan {
    /// The identifier, in FF\[4\] form (`AB`, not `AddBlack`).
    pub ident: String,
    /// Byte offset of the identifier.
    pub start: usize,
    /// Byte range of each value, brackets excluded.
    pub values: Vec<Range<usize>>,
}

/// Where one node is written: the offset of its `;` and its properties in order.
#[derive(Clone, Debug, Default)]
pub struct NodeSpan {
    /// Byte offset of the node's `;`.
    pub start: usize,
    /// Its properties, in written order.
    pub properties: Vec<PropertySpan>,
}

/// Where each game tree of a collection starts, and its nodes in written order.
#[derive(Clone, Debug, Default)]
pub struct GameSpan {
    /// Byte offset of the tree's `(`.
    pub start: usize,
    /// Its nodes in written order; the main line is a prefix of them.
    pub nodes: Vec<NodeSpan>,
}

/// The positions of every game, node and property of a text, as far as its structure can be
/// followed (a text the parser refuses is indexed up to the problem).
#[derive(Clone, Debug, Default)]
pub struct Index {
    /// One entry per game tree of the collection.
    pub games: Vec<GameSpan>,
    /// Where the structure could not be followed, with what was wrong, if anywhere.
    pub problem: Option<(usize, &'static str)>,
}

impl Index {
    /// Scans `text` once; never fails, since a broken text is indexed as far as it goes.
    pub fn new(text: &str) -> Index {
        let mut index = Index::default();
        let mut scan = Scanner::new(text.as_bytes());
        let mut depth = 0usize;
        loop {
            let before = scan.pos;
            let Some(item) = scan.next_item() else {
                if let Some(problem) = scan.problem {
                    index.problem = Some(problem);
                } else if depth > 0 {
                    index.problem = Some((text.len(), "a game tree is not closed with `)`"));
                }
                break;
            };
            match item {
                Item::Open => {
                    if depth == 0 {
                        index.games.push(GameSpan {
                            start: before + scan.skipped_space(before),
                            nodes: Vec::new(),
                        });
                    }
                    depth += 1;
                }
                Item::Close => {
                    if depth == 0 {
                        index.problem = Some((scan.pos - 1, "`)` closes no game tree"));
                        break;
                    }
                    depth -= 1;
                }
                Item::Node(at) => match index.games.last_mut() {
                    Some(game) if depth > 0 => game.nodes.push(NodeSpan {
                        start: at,
                        properties: Vec::new(),
                    }),
                    _ => {
                        index.problem = Some((at, "a node outside any game tree"));
                        break;
                    }
                },
                Item::Property { ident, values, .. } => {
                    let node = index.games.last_mut().and_then(|g| g.nodes.last_mut());
                    let Some(node) = node.filter(|_| depth > 0) else {
                        index.problem = Some((before, "a property outside any node"));
                        break;
                    };
                    let ident: String = ident
                        .iter()
                        .filter(|b| b.is_ascii_uppercase())
                        .map(|&b| char::from(b))
                        .collect();
                    let start = values.first().map_or(before, |v| v.start.saturating_sub(1));
                    let start = ident_start(text.as_bytes(), start);
                    node.properties.push(PropertySpan {
                        ident,
                        start,
                        values,
                    });
                }
            }
        }
        index
    }

    /// The offset of property `ident` in main-line node `node` of game `game` (its value
    /// number `value` if given), else of the node, else of the game, else 0.
    pub fn locate(&self, game: usize, node: usize, ident: &str, value: Option<usize>) -> usize {
        let Some(g) = self.games.get(game) else {
            return 0;
        };
        let Some(n) = g.nodes.get(node) else {
            return g.start;
        };
        match n.properties.iter().find(|p| p.ident == ident) {
            Some(p) => value
                .and_then(|v| p.values.get(v))
                .map_or(p.start, |range| range.start),
            None => n.start,
        }
    }
}

/// Where each node of each game is written, and the move in it: for every game, for every node
/// in written order, the offset of its `B` or `W` property (else of the node's `;`). The
/// cheap index a record keeps for its moves: one pass, no allocation per property (the full
/// [`Index`] is built only to locate an error).
pub fn move_offsets(text: &str) -> Vec<Vec<usize>> {
    let mut games: Vec<Vec<usize>> = Vec::new();
    let mut scan = Scanner::first_values(text.as_bytes());
    let mut depth = 0usize;
    let mut node_has_move = false;
    loop {
        let Some(item) = scan.next_item() else {
            return games;
        };
        match item {
            Item::Open => {
                if depth == 0 {
                    games.push(Vec::new());
                }
                depth += 1;
            }
            Item::Close => depth = depth.saturating_sub(1),
            Item::Node(at) => {
                if let Some(game) = games.last_mut() {
                    game.push(at);
                    node_has_move = false;
                }
            }
            Item::Property { ident, first, .. } => {
                if !node_has_move && (ident == b"B" || ident == b"W") {
                    if let Some(node) = games.last_mut().and_then(|g| g.last_mut()) {
                        let bracket = first.start.saturating_sub(1);
                        *node = ident_start(text.as_bytes(), bracket);
                        node_has_move = true;
                    }
                }
            }
        }
    }
}

/// The most nodes a line of play from the root may hold. The SGF parser builds and drops a
/// game tree by recursion, one frame per node along a line, so a record of some hundreds of
/// thousands of nodes in one line overflowed the stack and aborted the process; the longest
/// real games have well under a thousand.
pub const MAX_LINE_NODES: usize = 10_000;

/// The offset of the first node that makes some line of play from a root longer than
/// `limit` nodes, if one does: variations start from the node count of the line they branch
/// from.
pub fn node_past_depth(text: &str, limit: usize) -> Option<usize> {
    let mut scan = Scanner::first_values(text.as_bytes());
    // The node count of the line at each open parenthesis, and of the current line.
    let mut branches: Vec<usize> = Vec::new();
    let mut depth = 0usize;
    while let Some(item) = scan.next_item() {
        match item {
            Item::Open => branches.push(depth),
            Item::Close => depth = branches.pop().unwrap_or(0),
            Item::Node(at) => {
                depth += 1;
                if depth > limit {
                    return Some(at);
                }
            }
            Item::Property { .. } => {}
        }
    }
    None
}

/// Walks back from the `[` before a property's first value to the start of its identifier.
fn ident_start(bytes: &[u8], bracket: usize) -> usize {
    let mut at = bracket.min(bytes.len());
    while at > 0 && bytes[at - 1].is_ascii_whitespace() {
        at -= 1;
    }
    while at > 0 && bytes[at - 1].is_ascii_alphabetic() {
        at -= 1;
    }
    at
}

enum Item<'a> {
    Open,
    Close,
    Node(usize),
    Property {
        ident: &'a [u8],
        /// The first value (a property has at least one).
        first: Range<usize>,
        /// Every value, when the scanner lists them all; else empty.
        values: Vec<Range<usize>>,
    },
}

/// Steps through SGF structure: parentheses, `;`, identifiers and bracketed values.
struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
    problem: Option<(usize, &'static str)>,
    /// Whether a property's values are all listed, or only its first (what the passes that
    /// find moves and depths need: a vector a property cost them more than the scan).
    all_values: bool,
}

impl<'a> Scanner<'a> {
    fn new(bytes: &'a [u8]) -> Scanner<'a> {
        Scanner {
            bytes,
            pos: 0,
            problem: None,
            all_values: true,
        }
    }

    /// A scanner whose properties list their first value only.
    fn first_values(bytes: &'a [u8]) -> Scanner<'a> {
        Scanner {
            all_values: false,
            ..Scanner::new(bytes)
        }
    }

    fn skipped_space(&self, from: usize) -> usize {
        self.bytes[from..]
            .iter()
            .take_while(|b| b.is_ascii_whitespace())
            .count()
    }

    fn next_item(&mut self) -> Option<Item<'a>> {
        let bytes = self.bytes;
        while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        let at = self.pos;
        let &b = bytes.get(at)?;
        self.pos += 1;
        match b {
            b'(' => Some(Item::Open),
            b')' => Some(Item::Close),
            b';' => Some(Item::Node(at)),
            b if b.is_ascii_alphabetic() => {
                while self.pos < bytes.len() && bytes[self.pos].is_ascii_alphabetic() {
                    self.pos += 1;
                }
                let ident = &bytes[at..self.pos];
                let mut values = Vec::new();
                let mut first = None;
                loop {
                    while self.pos < bytes.len() && bytes[self.pos].is_ascii_whitespace() {
                        self.pos += 1;
                    }
                    if bytes.get(self.pos) != Some(&b'[') {
                        break;
                    }
                    let open = self.pos;
                    self.pos += 1;
                    let start = self.pos;
                    loop {
                        // The next `]` or `\`; a backslash skips the byte after it.
                        let found = bytes
                            .get(self.pos..)
                            .and_then(|rest| memchr::memchr2(b']', b'\\', rest));
                        let Some(i) = found else {
                            self.problem = Some((open, "a property value is not closed with `]`"));
                            return None;
                        };
                        self.pos += i;
                        if bytes[self.pos] == b']' {
                            break;
                        }
                        self.pos += 2;
                    }
                    let value = start..self.pos.min(bytes.len());
                    if first.is_none() {
                        first = Some(value.clone());
                    }
                    if self.all_values {
                        values.push(value);
                    }
                    self.pos += 1;
                }
                let Some(first) = first else {
                    self.problem = Some((at, "a property identifier has no value"));
                    return None;
                };
                Some(Item::Property {
                    ident,
                    first,
                    values,
                })
            }
            _ => {
                self.problem = Some((at, "unexpected character"));
                None
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_of_a_tree_is_its_longest_line() {
        // Root, then two variations of 2 and 3 nodes: the longest line has 4 nodes.
        let text = "(;SZ[9](;B[aa];W[bb])(;B[cc];W[dd];B[ee]))";
        assert_eq!(node_past_depth(text, 4), None);
        assert_eq!(node_past_depth(text, 3), text.find(";B[ee]"));
        // Nodes inside values are no nodes; a second game starts again from zero.
        let text = "(;C[;;;;(;;])(;B[aa])";
        assert_eq!(node_past_depth(text, 1), None);
    }

    #[test]
    fn main_line_nodes_are_the_first_nodes_written() {
        let text = "(;SZ[9]KM[6.5];B[aa]\n(;W[bb];B[cc])(;W[dd]))";
        let index = Index::new(text);
        assert_eq!(index.games.len(), 1);
        let nodes = &index.games[0].nodes;
        assert_eq!(nodes.len(), 5);
        assert_eq!(&text[index.locate(0, 2, "W", None)..][..5], "W[bb]");
        assert_eq!(&text[index.locate(0, 0, "KM", Some(0))..][..3], "6.5");
        assert!(index.problem.is_none());
    }

    #[test]
    fn escapes_and_long_names_are_followed() {
        let text = "(;C[a \\] b];AddBlack[aa][bb])(;B[cc])";
        let index = Index::new(text);
        assert_eq!(index.games.len(), 2);
        assert_eq!(index.games[0].nodes[1].properties[0].ident, "AB");
        assert_eq!(index.locate(1, 0, "B", None), text.rfind("B[cc]").unwrap());
    }

    #[test]
    fn move_offsets_and_lines_agree_with_the_full_index() {
        let text = "(;SZ[9]\n;C[x]B[aa]\n;W[bb] (;B[cc]))";
        let index = Index::new(text);
        let moves = move_offsets(text);
        for (node, &offset) in moves[0].iter().enumerate().skip(1) {
            let ident = if node == 2 { "W" } else { "B" };
            assert_eq!(offset, index.locate(0, node, ident, None));
        }
        // Lines and columns as the reader finds them, a cursor walking forward through the
        // text, are the lookups' at every offset.
        let source = crate::spec::location::Source::new(std::path::Path::new("t"), text);
        let mut cursor = source.cursor();
        for offset in 0..text.len() {
            assert_eq!(cursor.at(offset), source.line_column(offset));
        }
    }

    #[test]
    fn unclosed_values_and_trees_are_located() {
        assert_eq!(Index::new("(;B[aa").problem.map(|p| p.0), Some(3));
        assert_eq!(Index::new("(;B[aa]").problem.map(|p| p.0), Some(7));
    }

    #[test]
    fn character_sets_follow_ca() {
        let gb = encoding_rs::GBK
            .encode("(;CA[GB2312]PB[\u{67ef}\u{6d01}])")
            .0;
        let (text, name) = decode(&gb).unwrap();
        assert!(text.contains("\u{67ef}\u{6d01}"), "{text}");
        assert_eq!(name, "GBK");
        let latin = b"(;PB[Jos\xe9])";
        assert!(decode(latin).unwrap().0.contains("Jos\u{e9}"));
        assert_eq!(decode(b"(;CA[klingon])").unwrap_err().0, 5);
    }
}
