//! Errors that point into a file: path, line, column and the TOML key they concern.
//!
//! Every file this project reads (clauses, rulesets, scenarios) reports problems the same way,
//! ``path:line:column: key `a.b[2].c`: message``, so an editor can jump to them and a person sees
//! at once which key is wrong. Serde errors carry a byte span but not always the key; the key
//! is recovered here by walking the document's spans with toml_edit.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A problem in a file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    /// The file, as it was named when loaded.
    pub file: PathBuf,
    /// Line, from 1.
    pub line: usize,
    /// Column in characters, from 1.
    pub column: usize,
    /// The dotted key path, e.g. `expect[2].board`; empty when the problem is the whole file.
    pub key: String,
    /// What is wrong, and where it helps, what would be right.
    pub message: String,
}

impl fmt::Display for Located {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}: ", self.file.display(), self.line, self.column)?;
        if !self.key.is_empty() {
            write!(f, "key `{}`: ", self.key)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Located {}

/// The largest text file goconform reads (a scenario, a tournament file, an expectations
/// file): 64 MiB, far beyond any real one (the suite's largest scenario is a few kilobytes), so
/// that a mistaken path to a huge file is refused at once rather than read into memory.
pub const MAX_TEXT_BYTES: u64 = 64 << 20;

/// Reads a file this project reads as text (clauses, rulesets, scenarios, tournament files,
/// expectations files). A file that is not UTF-8 is a located error at its first bad byte,
/// where `read_to_string` would name no place at all.
pub fn read_text(path: &Path) -> Result<String, super::LoadError> {
    let bytes = read_bounded(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let valid = e.utf8_error().valid_up_to();
        let bytes = e.as_bytes();
        let prefix = std::str::from_utf8(&bytes[..valid]).unwrap_or_default();
        let located = Source::new(path, prefix).error_at(
            valid,
            "",
            format!(
                "the file is not UTF-8 text: byte 0x{:02x} cannot start or continue a character here",
                bytes[valid]
            ),
        );
        super::LoadError::Invalid(vec![located])
    })
}

/// Reads a whole input file of at most [`MAX_TEXT_BYTES`] (text, or an SGF record whose
/// encoding is decided later): a larger one is refused, located at its start, without being
/// read whole.
pub fn read_bounded(path: &Path) -> Result<Vec<u8>, super::LoadError> {
    let io = |error| super::LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    // Read one byte past the limit, so a larger file is refused without being read whole.
    // The buffer starts at the size the file says it has (a pipe says 0), so a whole file
    // takes one allocation and no probing reads.
    let file = std::fs::File::open(path).map_err(io)?;
    let said = file.metadata().map_or(0, |m| m.len()).min(MAX_TEXT_BYTES) as usize;
    let mut bytes = Vec::with_capacity(said + 1);
    std::io::Read::read_to_end(
        &mut std::io::Read::take(file, MAX_TEXT_BYTES + 1),
        &mut bytes,
    )
    .map_err(io)?;
    if bytes.len() as u64 > MAX_TEXT_BYTES {
        return Err(super::LoadError::Invalid(vec![Located {
            file: path.to_path_buf(),
            line: 1,
            column: 1,
            key: String::new(),
            message: format!(
                "the file is larger than {} MiB, the most goconform reads as an input",
                MAX_TEXT_BYTES >> 20
            ),
        }]));
    }
    Ok(bytes)
}

/// Characters counted ahead at every [`Columns::STEP`] bytes of a text, so that the column of
/// an offset costs at most two short scans however long its line: counting the characters
/// from the start of the line for every located item made a long line quadratic (a 4.9 MB
/// collection on one line took 90 s to judge).
#[derive(Debug, Default)]
pub struct Columns {
    /// `before[k]`: the characters in the first `k * STEP` bytes.
    before: Vec<usize>,
}

thread_local! {
    static BYTES_COUNTED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many bytes this thread has scanned to count characters for columns: the work a
/// column costs, for the tests that check it grows linearly with the input.
pub fn column_bytes_counted() -> u64 {
    BYTES_COUNTED.with(std::cell::Cell::get)
}

fn count_chars(bytes: &[u8]) -> usize {
    BYTES_COUNTED.with(|c| c.set(c.get() + bytes.len() as u64));
    // A character starts at every byte that is not a UTF-8 continuation byte.
    bytes.iter().filter(|&&b| (b as i8) >= -0x40).count()
}

impl Columns {
    /// Bytes between two counts.
    pub const STEP: usize = 256;

    /// The counts of `text`, one pass over it.
    pub fn new(text: &str) -> Columns {
        let bytes = text.as_bytes();
        let mut before = Vec::with_capacity(bytes.len() / Self::STEP + 1);
        let mut total = 0;
        before.push(0);
        for chunk in bytes.chunks(Self::STEP) {
            total += count_chars(chunk);
            before.push(total);
        }
        Columns { before }
    }

    /// The characters of `text` (the text these counts were made of) before byte `offset`.
    fn chars_before(&self, text: &str, offset: usize) -> usize {
        let k = offset / Self::STEP;
        let from = k * Self::STEP;
        self.before.get(k).copied().unwrap_or(0) + count_chars(&text.as_bytes()[from..offset])
    }

    /// The 1-based column of `offset` on the line starting at byte `line_start`.
    pub fn column(&self, text: &str, line_start: usize, offset: usize) -> usize {
        let offset = offset.min(text.len());
        let line_start = line_start.min(offset);
        if offset - line_start <= Self::STEP {
            return count_chars(&text.as_bytes()[line_start..offset]) + 1;
        }
        self.chars_before(text, offset) - self.chars_before(text, line_start) + 1
    }
}

/// Source text with its path, able to turn byte offsets into lines and columns.
pub struct Source<'a> {
    /// The file the text was read from, named in every error.
    pub path: &'a Path,
    /// The whole text, which the byte offsets index.
    pub text: &'a str,
    /// Byte offset of the start of each line, built at the first lookup: a scenario with tens
    /// of thousands of events asks for a line per event, and rescanning the text from the
    /// start each time made loading quadratic.
    line_starts: std::cell::OnceCell<Vec<usize>>,
    /// Character counts for columns, built at the first lookup with the line starts.
    columns: std::cell::OnceCell<Columns>,
}

impl<'a> Source<'a> {
    /// The text of `path`; lines are found only when a first error needs them.
    pub fn new(path: &'a Path, text: &'a str) -> Source<'a> {
        Source {
            path,
            text,
            line_starts: std::cell::OnceCell::new(),
            columns: std::cell::OnceCell::new(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset: the line by a binary search
    /// of the line starts, the column from the character counts ([`Columns`]), in time that
    /// does not grow with the length of the line.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(memchr::memchr_iter(b'\n', self.text.as_bytes()).map(|i| i + 1))
                .collect()
        });
        // The last line starting at or before the offset; `starts[0] == 0`, so one exists.
        let line = starts.partition_point(|&start| start <= offset);
        let column = self.columns.get_or_init(|| Columns::new(self.text)).column(
            self.text,
            starts[line - 1],
            offset,
        );
        (line, column)
    }

    /// A cursor at the start of the text, for offsets asked for mostly in increasing order.
    pub fn cursor(&self) -> Cursor<'_, 'a> {
        Cursor {
            source: self,
            offset: 0,
            line: 1,
            column: 1,
        }
    }

    /// An error at a byte offset about a key.
    pub fn error_at(
        &self,
        offset: usize,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Located {
        let (line, column) = self.line_column(offset);
        Located {
            file: self.path.to_path_buf(),
            line,
            column,
            key: key.into(),
            message: message.into(),
        }
    }

    /// An error about a spanned value whose key path the caller knows.
    pub fn error(
        &self,
        span: &Range<usize>,
        key: impl Into<String>,
        message: impl Into<String>,
    ) -> Located {
        self.error_at(span.start, key, message)
    }

    /// Turns a deserialisation error into a located one, recovering the key from the span.
    pub fn from_toml(&self, error: &toml::de::Error) -> Located {
        let span = error.span().unwrap_or(0..0);
        let key = key_at(self.text, span.start)
            .or_else(|| key_on_line(self.text, span.start))
            .unwrap_or_default();
        let message = error.message().trim();
        // toml reads integers as i128 first, and its message then says so; say what is wrong.
        let message = match message
            .strip_prefix("invalid type: integer `")
            .and_then(|rest| rest.split_once("` as i128"))
        {
            Some((number, _)) => format!(
                "the integer {number} is too large: TOML holds integers from {} to {}",
                i64::MIN,
                i64::MAX
            ),
            None => message.to_string(),
        };
        self.error_at(span.start, key, message)
    }

    /// Where a multi-line or single-line TOML string's content starts, given the span of the
    /// whole string token: the offset of the character at index 0 of the value. Exact for
    /// strings without escapes, which is what diagrams are.
    pub fn string_content_start(&self, span: &Range<usize>) -> usize {
        let raw = self.text.get(span.clone()).unwrap_or("");
        let mut skip = if raw.starts_with("\"\"\"") || raw.starts_with("'''") {
            3
        } else {
            1
        };
        if raw[skip.min(raw.len())..].starts_with("\r\n") {
            skip += 2;
        } else if raw[skip.min(raw.len())..].starts_with('\n') {
            skip += 1;
        }
        span.start + skip.min(raw.len())
    }
}

fn floor_char_boundary(text: &str, mut offset: usize) -> usize {
    while offset > 0 && !text.is_char_boundary(offset) {
        offset -= 1;
    }
    offset
}

/// Lines and columns of offsets asked for in increasing order (every move of an SGF record is
/// located, in the order the moves are written), each found by reading on from the one before:
/// what [`Source::line_column`] answers, without its two scans of up to [`Columns::STEP`]
/// bytes for every item of a long line. An offset before the last, or more than two steps
/// after it (the first move of a later game in a collection), is looked up afresh, and the
/// walk goes on from there, so the work stays linear in the length of the text.
pub struct Cursor<'s, 'a> {
    source: &'s Source<'a>,
    offset: usize,
    line: usize,
    column: usize,
}

impl Cursor<'_, '_> {
    /// 1-based line and column (in characters) of a byte offset.
    pub fn at(&mut self, offset: usize) -> (usize, usize) {
        let text = self.source.text;
        let offset = floor_char_boundary(text, offset.min(text.len()));
        if offset < self.offset || offset - self.offset > 2 * Columns::STEP {
            (self.line, self.column) = self.source.line_column(offset);
        } else {
            let gap = &text.as_bytes()[self.offset..offset];
            match memchr::memrchr(b'\n', gap) {
                Some(last) => {
                    self.line += memchr::memchr_iter(b'\n', gap).count();
                    self.column = count_chars(&gap[last + 1..]) + 1;
                }
                None => self.column += count_chars(gap),
            }
        }
        self.offset = offset;
        (self.line, self.column)
    }
}

/// The key written on the line holding `offset`, under the table header above it
/// (`expect[2].after`, `size`, `run[0]`): the fallback for a document toml_edit cannot parse
/// either, such as one with a duplicate key or a number too large for TOML. A line holding a
/// table header names that table; a line with no `key =` on it names nothing.
fn key_on_line(text: &str, offset: usize) -> Option<String> {
    let offset = floor_char_boundary(text, offset.min(text.len()));
    let start = text[..offset].rfind('\n').map_or(0, |i| i + 1);
    let end = text[start..].find('\n').map_or(text.len(), |i| start + i);
    let line = text[start..end].trim();
    // The last `[name]` or `[[name]]` header up to this line (this one included), an array
    // table with its index: how often its header was seen before.
    let mut header: Option<String> = None;
    let mut counts: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for above in text[..end].lines().map(str::trim) {
        if let Some(name) = above.strip_prefix("[[").and_then(|h| h.split("]]").next()) {
            let name = name.trim();
            let k = counts.entry(name).or_insert(0);
            header = Some(format!("{name}[{k}]"));
            *k += 1;
        } else if let Some(name) = above.strip_prefix('[').and_then(|h| h.split(']').next()) {
            header = Some(name.trim().to_string());
        }
    }
    if line.starts_with('[') {
        return header;
    }
    let (key, _) = line.split_once('=')?;
    let key = key.trim();
    if key.is_empty() || key.contains(char::is_whitespace) && !key.starts_with('"') {
        return None;
    }
    Some(match header {
        Some(h) => format!("{h}.{key}"),
        None => key.to_string(),
    })
}

/// The dotted path of the innermost key whose key or value covers `offset`.
pub fn key_at(text: &str, offset: usize) -> Option<String> {
    let doc = toml_edit::Document::parse(text).ok()?;
    let mut path = String::new();
    find_in_table(doc.as_table(), offset, &mut path).then_some(path)
}

fn covers(span: Option<Range<usize>>, offset: usize) -> bool {
    span.is_some_and(|s| s.start <= offset && offset < s.end.max(s.start + 1))
}

fn push_key(path: &mut String, key: &str) {
    if !path.is_empty() {
        path.push('.');
    }
    path.push_str(key);
}

fn find_in_table(table: &toml_edit::Table, offset: usize, path: &mut String) -> bool {
    for (name, item) in table.iter() {
        let key_span = table.key(name).and_then(|k| k.span());
        let len = path.len();
        push_key(path, name);
        if covers(key_span.clone(), offset) {
            return true;
        }
        if find_in_item(item, offset, path) {
            return true;
        }
        path.truncate(len);
    }
    false
}

fn find_in_item(item: &toml_edit::Item, offset: usize, path: &mut String) -> bool {
    match item {
        toml_edit::Item::Table(t) => find_in_table(t, offset, path) || covers(t.span(), offset),
        toml_edit::Item::ArrayOfTables(array) => {
            for (i, t) in array.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if find_in_table(t, offset, path) || covers(t.span(), offset) {
                    return true;
                }
                path.truncate(len);
            }
            false
        }
        toml_edit::Item::Value(v) => find_in_value(v, offset, path),
        toml_edit::Item::None => false,
    }
}

fn find_in_value(value: &toml_edit::Value, offset: usize, path: &mut String) -> bool {
    match value {
        toml_edit::Value::Array(array) => {
            for (i, v) in array.iter().enumerate() {
                let len = path.len();
                path.push_str(&format!("[{i}]"));
                if find_in_value(v, offset, path) {
                    return true;
                }
                path.truncate(len);
            }
            covers(array.span(), offset)
        }
        toml_edit::Value::InlineTable(t) => {
            for (name, v) in t.iter() {
                let key_span = t.key(name).and_then(|k| k.span());
                let len = path.len();
                push_key(path, name);
                if covers(key_span, offset) || find_in_value(v, offset, path) {
                    return true;
                }
                path.truncate(len);
            }
            covers(t.span(), offset)
        }
        other => covers(other.span(), offset),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cursor answers what a lookup answers, walking forward or sent back, on short lines
    /// and on a line longer than the counts' step, with characters of more than one byte
    /// (offsets inside them included).
    #[test]
    fn a_cursor_agrees_with_lookups() {
        let long = format!(
            "(;C[{}]\n;B[aa]{};W[bb]\n\n;B[cc])",
            "é".repeat(300),
            "x".repeat(700)
        );
        for text in ["(;SZ[9]\n;C[x]B[aa]\n;W[bb] (;B[cc]))", long.as_str()] {
            let source = Source::new(Path::new("t"), text);
            let mut cursor = source.cursor();
            let forward: Vec<usize> = (0..=text.len()).step_by(7).collect();
            let back_and_forth = [40, 3, 500, 499, 1200, 0, text.len(), 20];
            for &offset in forward.iter().chain(&back_and_forth) {
                assert_eq!(cursor.at(offset), source.line_column(offset), "{offset}");
            }
        }
    }

    #[test]
    fn keys_are_found_in_nested_tables_and_arrays() {
        let text = "id = 1\n[[expect]]\nafter = 1\n[[expect]]\nafter = 2\nboard = \"x\"\nset = { ko = \"y\" }\n";
        let at = |needle: &str| key_at(text, text.find(needle).unwrap());
        assert_eq!(at("1\n[").as_deref(), Some("id"));
        assert_eq!(at("\"x\"").as_deref(), Some("expect[1].board"));
        assert_eq!(at("\"y\"").as_deref(), Some("expect[1].set.ko"));
        assert_eq!(at("after = 2").as_deref(), Some("expect[1].after"));
    }

    #[test]
    fn lines_and_columns_are_one_based() {
        let path = Path::new("f.toml");
        let src = Source::new(path, "a = 1\nbé = 2\n");
        assert_eq!(src.line_column(0), (1, 1));
        assert_eq!(src.line_column(src.text.find('=').unwrap()), (1, 3));
        assert_eq!(src.line_column(src.text.find("2").unwrap()), (2, 6));
    }

    #[test]
    fn every_offset_gets_the_line_and_column_a_rescan_from_the_start_gives() {
        let text = "\nab\r\n\u{e9}\u{1f600}x\n\n  = \"\u{4e2d}\"\n";
        let src = Source::new(Path::new("f.toml"), text);
        for offset in 0..=text.len() + 2 {
            let before = &text[..floor_char_boundary(text, offset.min(text.len()))];
            let line = before.matches('\n').count() + 1;
            let start = before.rfind('\n').map_or(0, |i| i + 1);
            let column = before[start..].chars().count() + 1;
            assert_eq!(src.line_column(offset), (line, column), "offset {offset}");
        }
    }

    #[test]
    fn keys_toml_edit_cannot_find_are_read_off_the_line() {
        let text = "id = 1\nsize = 5\nsize = 6\n[[expect]]\nafter = 1\n[[expect]]\nafter = 99999999999999999999\n[set]\nko = 1\n";
        let at = |needle: &str| key_on_line(text, text.find(needle).unwrap());
        assert_eq!(at("size = 6").as_deref(), Some("size"));
        assert_eq!(at("9999").as_deref(), Some("expect[1].after"));
        assert_eq!(at("ko =").as_deref(), Some("set.ko"));
        assert_eq!(at("[set]").as_deref(), Some("set"));
        let path = Path::new("f.toml");
        let source = Source::new(path, text);
        let error = toml::from_str::<toml::Value>(text).unwrap_err();
        let located = source.from_toml(&error);
        assert_eq!(
            (located.line, located.key.as_str()),
            (3, "size"),
            "{located}"
        );
    }

    #[test]
    fn text_that_is_not_utf8_is_located_at_its_first_bad_byte() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.toml");
        std::fs::write(&path, b"id = 1\ntitle = \"ab\xffc\"\n").unwrap();
        let Err(super::super::LoadError::Invalid(errors)) = read_text(&path) else {
            panic!("an invalid file");
        };
        assert_eq!((errors[0].line, errors[0].column), (2, 12), "{}", errors[0]);
        assert!(errors[0].message.contains("0xff"), "{}", errors[0]);
    }
}
