//! GTP version 2 framing: reading command lines and writing responses.
//!
//! Kept apart from the engine so that the byte-level rules of the protocol (section 2 of the
//! GTP 2 specification) live in one place: which characters are dropped, how an id is read,
//! and how a response is framed so that a controller can always find its end.

use std::io::{self, Write};

/// One command as a controller sent it, after preprocessing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// The numeric id, kept as the digits given so it is echoed exactly.
    pub id: Option<String>,
    /// The command name; GTP names are case sensitive.
    pub name: String,
    pub args: Vec<String>,
}

/// Applies the GTP preprocessing to one raw line: control characters other than tab are
/// dropped (this takes care of CR from Windows controllers), tabs become spaces, and
/// everything from `#` on is a comment. Returns the trimmed text, empty if nothing is left.
///
/// Bytes that are not UTF-8 are replaced rather than refused, so that a stray byte gives an
/// error answer for that command instead of ending the session.
pub fn clean(raw: &[u8]) -> String {
    let text = String::from_utf8_lossy(raw);
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '#' => break,
            '\t' => out.push(' '),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out.trim().to_string()
}

/// Splits a cleaned, non-empty line into id, name and arguments. A line holding only an id
/// has an empty name, which the engine answers as an error under that id.
pub fn parse(line: &str) -> Command {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let (id, name) = if !first.is_empty() && first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or(""))
    } else {
        (None, first)
    };
    Command {
        id,
        name: name.to_string(),
        args: words.map(str::to_string).collect(),
    }
}

/// Writes one response: `=id text` or `?id text`, then the blank line that ends it.
///
/// The space after the marker (and id) is always written, as GNU Go does, so an empty
/// success is `= ` followed by the blank line. Empty lines inside the text would end the
/// response early, so they are dropped; a leading line break (used by `showboard` to start
/// the diagram on its own line) is kept.
pub fn respond(
    out: &mut impl Write,
    success: bool,
    id: Option<&str>,
    text: &str,
) -> io::Result<()> {
    let marker = if success { '=' } else { '?' };
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or("");
    let mut body = first.trim_end().to_string();
    for line in lines {
        if !line.trim().is_empty() {
            body.push('\n');
            body.push_str(line.trim_end());
        }
    }
    write!(out, "{marker}{} {body}\n\n", id.unwrap_or(""))?;
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn preprocessing_drops_controls_comments_and_tabs() {
        assert_eq!(clean(b"  play\tb d4 # a comment\r\n"), "play b d4");
        assert_eq!(clean(b"\x01na\x7fme\n"), "name");
        assert_eq!(clean(b"# only a comment"), "");
        assert_eq!(clean(b"name \xff"), "name \u{fffd}");
    }

    #[test]
    fn ids_are_leading_digits() {
        let c = parse("12 play b d4");
        assert_eq!(c.id.as_deref(), Some("12"));
        assert_eq!(c.name, "play");
        assert_eq!(c.args, ["b", "d4"]);
        let c = parse("play1 b");
        assert_eq!(c.id, None);
        assert_eq!(c.name, "play1");
        let c = parse("7");
        assert_eq!(c.id.as_deref(), Some("7"));
        assert_eq!(c.name, "");
    }

    #[test]
    fn responses_end_with_one_blank_line() {
        let mut out = Vec::new();
        respond(&mut out, true, Some("3"), "").unwrap();
        respond(&mut out, false, None, "bad\n\nthing").unwrap();
        respond(&mut out, true, None, "\n  A B\n2 . .\n").unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "=3 \n\n? bad\nthing\n\n= \n  A B\n2 . .\n\n"
        );
    }
}
