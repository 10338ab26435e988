//! The clause registry: every numbered clause of every source document, as data.
//!
//! One file per document under spec/clauses/. A clause has a stable slug id that is never
//! renumbered, a locator back into its document, a summary in our own words, a level and a
//! topic. Scenarios cite clauses by id; rulesets adopt them by id.

use std::fmt;
use std::path::Path;

use serde::Deserialize;
use toml::Spanned;

use super::location::{Located, Source};

/// How binding a clause is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A requirement: an implementation that breaks it does not play these rules.
    Must,
    /// A recommendation the document expects to be followed, with room for exceptions.
    Should,
    /// A permission: the document allows it without requiring it.
    May,
    /// Conduct, organisation, commentary: listed for completeness, never tested.
    Informative,
}

impl Level {
    /// Every level, strongest first, the order of the reports' tables.
    pub const ALL: [Level; 4] = [Level::Must, Level::Should, Level::May, Level::Informative];

    /// The level as the clause files and reports write it.
    pub fn word(self) -> &'static str {
        match self {
            Level::Must => "must",
            Level::Should => "should",
            Level::May => "may",
            Level::Informative => "informative",
        }
    }

    /// Whether scenarios are owed for clauses of this level.
    pub fn is_testable(self) -> bool {
        self != Level::Informative
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

/// The closed list of clause topics.
pub const TOPICS: &[&str] = &[
    "board",
    "play",
    "capture",
    "suicide",
    "ko",
    "superko",
    "passes",
    "ending",
    "counting",
    "komi",
    "handicap",
    "illegal",
    "irregular",
    "tournament",
    "ranks",
    "colours",
    "clock",
    "adjournment",
    "tiebreak",
    "prizes",
    "conduct",
    "organisation",
    "computers",
    "penalties",
];

/// Topics whose clauses concern board play: the scope of the first scenarios and of the
/// lint rule that wants a permitting and a forbidding scenario for every must-level clause.
pub const BOARD_PLAY_TOPICS: &[&str] = &[
    "board", "play", "capture", "suicide", "ko", "superko", "passes",
];

/// A source document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Short name, which every clause of the document starts with (`aga-1991`).
    pub id: String,
    /// The document's full title.
    pub title: String,
    /// Where the text was read, so that a reader can check our paraphrase.
    pub source: String,
    /// What the document is and whom it binds, in our words.
    pub description: String,
}

/// One clause of one document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clause {
    /// Unique id, which scenarios and rulings cite (`aga-1991-r6`).
    pub id: String,
    /// The id of the [`Document`] it comes from.
    pub document: String,
    /// Where in the document it is (rule, section, paragraph), to find the original.
    pub locator: String,
    /// What it says, paraphrased in our own words: no text of the document is reproduced.
    pub summary: String,
    /// How binding it is; only `informative` clauses go untested.
    pub level: Level,
    /// One of [`TOPICS`]: groups clauses and scenarios in reports and the book.
    pub topic: String,
    /// Our remark on it (a doubt, how we read it, what we could not check).
    pub note: Option<String>,
    /// Ids of related clauses, in this document or others.
    pub see: Vec<String>,
    /// Line of the clause's id in its file, for messages.
    pub line: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    document: RawDocument,
    #[serde(default)]
    clause: Vec<RawClause>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawDocument {
    id: String,
    title: String,
    source: String,
    description: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClause {
    id: Spanned<String>,
    locator: String,
    summary: String,
    level: Level,
    topic: Spanned<String>,
    note: Option<String>,
    #[serde(default)]
    see: Vec<Spanned<String>>,
}

/// A clause with its `see` references, each paired with the error to report if it is unknown.
pub type ClauseWithRefs = (Clause, Vec<(String, Located)>);

/// Reads one clause file. Cross-file checks (unique ids, `see` references) are the registry's.
pub fn parse_file(
    path: &Path,
    text: &str,
) -> Result<(Document, Vec<ClauseWithRefs>), Vec<Located>> {
    let source = Source::new(path, text);
    let raw: RawFile = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
    let mut errors = Vec::new();
    let mut clauses = Vec::new();
    for (i, c) in raw.clause.into_iter().enumerate() {
        if !super::is_slug(c.id.get_ref()) {
            errors.push(source.error(
                &c.id.span(),
                format!("clause[{i}].id"),
                format!(
                    "clause id `{}` must be lowercase letters, digits and dashes",
                    c.id.get_ref()
                ),
            ));
        }
        if !TOPICS.contains(&c.topic.get_ref().as_str()) {
            errors.push(source.error(
                &c.topic.span(),
                format!("clause[{i}].topic"),
                format!(
                    "unknown topic `{}`; expected one of: {}",
                    c.topic.get_ref(),
                    TOPICS.join(", ")
                ),
            ));
        }
        let see = c
            .see
            .iter()
            .enumerate()
            .map(|(j, s)| {
                (
                    s.get_ref().clone(),
                    source.error(
                        &s.span(),
                        format!("clause[{i}].see[{j}]"),
                        format!("unknown clause `{}`", s.get_ref()),
                    ),
                )
            })
            .collect();
        let (line, _) = source.line_column(c.id.span().start);
        clauses.push((
            Clause {
                id: c.id.into_inner(),
                document: raw.document.id.clone(),
                locator: c.locator,
                summary: c.summary,
                level: c.level,
                topic: c.topic.into_inner(),
                note: c.note,
                see: c.see.into_iter().map(Spanned::into_inner).collect(),
                line,
            },
            see,
        ));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let document = Document {
        id: raw.document.id,
        title: raw.document.title,
        source: raw.document.source,
        description: raw.document.description,
    };
    Ok((document, clauses))
}
