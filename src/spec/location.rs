//! Errors that point into a file: path, line, column and the TOML key they concern.
//!
//! Every file this project reads (clauses, rulesets, scenarios) reports problems the same way,
//! `path:line:column: key `a.b[2].c`: message`, so an editor can jump to them and a person sees
//! at once which key is wrong. Serde errors carry a byte span but not always the key; the key
//! is recovered here by walking the document's spans with toml_edit.

use std::fmt;
use std::ops::Range;
use std::path::{Path, PathBuf};

/// A problem in a file, with where it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Located {
    pub file: PathBuf,
    pub line: usize,
    pub column: usize,
    /// The dotted key path, e.g. `expect[2].board`; empty when the problem is the whole file.
    pub key: String,
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

/// Source text with its path, able to turn byte offsets into lines and columns.
pub struct Source<'a> {
    pub path: &'a Path,
    pub text: &'a str,
    /// Byte offset of the start of each line, built at the first lookup: a scenario with tens
    /// of thousands of events asks for a line per event, and rescanning the text from the
    /// start each time made loading quadratic.
    line_starts: std::cell::OnceCell<Vec<usize>>,
}

impl<'a> Source<'a> {
    pub fn new(path: &'a Path, text: &'a str) -> Source<'a> {
        Source {
            path,
            text,
            line_starts: std::cell::OnceCell::new(),
        }
    }

    /// 1-based line and column (in characters) of a byte offset: the line by a binary search
    /// of the line starts, the column by counting the characters of that line before it.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let offset = floor_char_boundary(self.text, offset.min(self.text.len()));
        let starts = self.line_starts.get_or_init(|| {
            std::iter::once(0)
                .chain(self.text.match_indices('\n').map(|(i, _)| i + 1))
                .collect()
        });
        // The last line starting at or before the offset; `starts[0] == 0`, so one exists.
        let line = starts.partition_point(|&start| start <= offset);
        let column = self.text[starts[line - 1]..offset].chars().count() + 1;
        (line, column)
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
        let key = key_at(self.text, span.start).unwrap_or_default();
        self.error_at(span.start, key, error.message().trim().to_string())
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
}
