//! The specification as data: the clause registry and the named rulesets under spec/.
//!
//! [`Spec::load`] reads both and checks everything that crosses files: clause ids are unique,
//! `see` references and ruleset clause lists name real clauses, `extends` names a real ruleset
//! and never loops. Every problem is reported with file, line, column and key.

pub mod clauses;
pub mod embedded;
pub mod location;
pub mod rulesets;

use std::collections::{BTreeMap, HashSet};
use std::fmt;
use std::path::{Path, PathBuf};

pub use clauses::{Clause, Document, Level, BOARD_PLAY_TOPICS, TOPICS};
pub use location::Located;
pub use rulesets::RulesetDef;

use crate::rules::Rules;

/// Why a set of files could not be loaded. Every problem found is listed, not just the first.
#[derive(Debug)]
pub enum LoadError {
    /// A file or folder could not be read at all, so nothing in it could be checked.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        error: std::io::Error,
    },
    /// The files were read but say something wrong: every problem, each with its place.
    Invalid(Vec<Located>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            LoadError::Invalid(errors) => {
                for (i, e) in errors.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{e}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Is `text` a stable id: lowercase ASCII letters, digits and dashes, not empty? Clause and
/// scenario ids both follow this rule.
pub fn is_slug(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Reads every `*.toml` file of a directory, sorted by name.
pub fn read_toml_dir(dir: &Path) -> Result<Vec<(PathBuf, String)>, LoadError> {
    let io = |path: &Path, error| LoadError::Io {
        path: path.to_path_buf(),
        error,
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .map(|p| {
            let text = location::read_text(&p)?;
            Ok((p, text))
        })
        .collect()
}

/// The clause registry and the rulesets.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The source documents, one per file of spec/clauses.
    pub documents: Vec<Document>,
    /// Every clause of every document, in file order; ids are unique across documents.
    pub clauses: Vec<Clause>,
    rulesets: BTreeMap<String, RulesetDef>,
    /// Where each clause id sits in `clauses`, as loaded: loading, the matrix and lint look
    /// up thousands of ids. A lookup checks the entry it finds, so a `clauses` list changed
    /// after loading is still searched correctly, only more slowly.
    clause_index: rustc_hash::FxHashMap<String, usize>,
}

impl Spec {
    /// Loads spec/clauses and spec/rulesets under `root`.
    pub fn load(root: &Path) -> Result<Spec, LoadError> {
        let clause_files = read_toml_dir(&root.join("spec").join("clauses"))?;
        let ruleset_files = read_toml_dir(&root.join("spec").join("rulesets"))?;
        Spec::from_texts(&clause_files, &ruleset_files)
    }

    /// Builds the spec from file texts (paths are used only in messages).
    pub fn from_texts(
        clause_files: &[(PathBuf, String)],
        ruleset_files: &[(PathBuf, String)],
    ) -> Result<Spec, LoadError> {
        let mut errors = Vec::new();
        let mut documents = Vec::new();
        let mut clauses: Vec<Clause> = Vec::new();
        let mut see_refs = Vec::new();
        let mut seen: BTreeMap<String, (PathBuf, usize)> = BTreeMap::new();
        for (path, text) in clause_files {
            match clauses::parse_file(path, text) {
                Err(mut e) => errors.append(&mut e),
                Ok((document, parsed)) => {
                    documents.push(document);
                    for (clause, refs) in parsed {
                        if let Some((first, line)) = seen.get(&clause.id) {
                            errors.push(Located {
                                file: path.clone(),
                                line: clause.line,
                                column: 1,
                                key: "clause.id".to_string(),
                                message: format!(
                                    "clause id `{}` is already used at {}:{}",
                                    clause.id,
                                    first.display(),
                                    line
                                ),
                            });
                        } else {
                            seen.insert(clause.id.clone(), (path.clone(), clause.line));
                        }
                        see_refs.extend(refs);
                        clauses.push(clause);
                    }
                }
            }
        }
        let ids: HashSet<&str> = clauses.iter().map(|c| c.id.as_str()).collect();
        for (target, at) in see_refs {
            if !ids.contains(target.as_str()) {
                errors.push(at);
            }
        }
        let mut rulesets = BTreeMap::new();
        for (path, text) in ruleset_files {
            match rulesets::parse_file(path, text) {
                Err(mut e) => errors.append(&mut e),
                Ok(def) => {
                    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
                    if def.name != stem {
                        let mut at = def.located.name.clone().expect("name located");
                        at.message = format!(
                            "ruleset `{}` must live in a file named {}.toml",
                            def.name, def.name
                        );
                        errors.push(at);
                    }
                    for (name, at) in def.clauses.iter().zip(&def.located.clauses) {
                        if !ids.contains(name.as_str()) {
                            let mut at = at.clone();
                            at.message = format!("unknown clause `{name}`");
                            errors.push(at);
                        }
                    }
                    rulesets.insert(def.name.clone(), def);
                }
            }
        }
        let clause_index = clauses
            .iter()
            .enumerate()
            .map(|(i, c)| (c.id.clone(), i))
            .collect();
        let spec = Spec {
            documents,
            clauses,
            rulesets,
            clause_index,
        };
        for def in spec.rulesets.values() {
            if let Err(message) = spec.rules(&def.name) {
                let mut at = def
                    .located
                    .extends
                    .clone()
                    .or_else(|| def.located.name.clone())
                    .expect("located");
                at.message = message;
                errors.push(at);
            }
        }
        if errors.is_empty() {
            Ok(spec)
        } else {
            Err(LoadError::Invalid(errors))
        }
    }

    /// The clause with this id, for the scenarios and rulings that cite it.
    pub fn clause(&self, id: &str) -> Option<&Clause> {
        match self.clause_index.get(id).and_then(|&i| self.clauses.get(i)) {
            Some(c) if c.id == id => Some(c),
            _ => self.clauses.iter().find(|c| c.id == id),
        }
    }

    /// The document with this id, which a clause names as its source.
    pub fn document(&self, id: &str) -> Option<&Document> {
        self.documents.iter().find(|d| d.id == id)
    }

    /// The ruleset as written, without following `extends` (see [`Spec::rules`] for that).
    pub fn ruleset(&self, name: &str) -> Option<&RulesetDef> {
        self.rulesets.get(name)
    }

    /// Every ruleset, sorted by name.
    pub fn rulesets(&self) -> impl Iterator<Item = &RulesetDef> {
        self.rulesets.values()
    }

    /// The rulesets' names, sorted, for listings and for messages about an unknown name.
    pub fn ruleset_names(&self) -> Vec<&str> {
        self.rulesets.keys().map(String::as_str).collect()
    }

    /// The rules of a named ruleset, following `extends`. Unknown names list the known ones.
    pub fn rules(&self, name: &str) -> Result<Rules, String> {
        let mut chain = Vec::new();
        let mut current = name;
        loop {
            let def = self.rulesets.get(current).ok_or_else(|| {
                format!(
                    "unknown ruleset `{current}`; known rulesets: {}",
                    self.ruleset_names().join(", ")
                )
            })?;
            if chain.iter().any(|d: &&RulesetDef| d.name == def.name) {
                return Err(format!(
                    "ruleset `{name}` extends itself through `{current}`"
                ));
            }
            chain.push(def);
            match &def.extends {
                Some(parent) => current = parent,
                None => break,
            }
        }
        let mut rules = Rules::default();
        for def in chain.iter().rev() {
            for (axis, value) in &def.axes {
                rules.set(axis, value).map_err(|e| e.to_string())?;
            }
        }
        Ok(rules)
    }

    /// The rulesets that adopt a clause, directly or through `extends`.
    pub fn adopters(&self, clause: &str) -> Vec<&str> {
        self.rulesets
            .values()
            .filter(|def| {
                let mut current = Some(*def);
                let mut steps = 0;
                while let Some(d) = current {
                    if d.clauses.iter().any(|c| c == clause) {
                        return true;
                    }
                    steps += 1;
                    current = d
                        .extends
                        .as_deref()
                        .and_then(|p| self.rulesets.get(p))
                        .filter(|_| steps < 64);
                }
                false
            })
            .map(|d| d.name.as_str())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn project_spec() -> Spec {
        Spec::load(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the project's spec loads")
    }

    #[test]
    fn every_clause_is_found_by_its_id_and_no_other() {
        let spec = project_spec();
        for c in &spec.clauses {
            assert_eq!(spec.clause(&c.id).map(|f| &f.id), Some(&c.id));
        }
        assert!(spec.clause("no-such-clause").is_none());
    }

    #[test]
    fn a_clause_list_changed_after_loading_is_still_searched_correctly() {
        let mut spec = project_spec();
        let first = spec.clauses[0].id.clone();
        let last = spec.clauses.last().expect("clauses").id.clone();
        // Reversed, every index the loader recorded points at another clause.
        spec.clauses.reverse();
        assert_eq!(spec.clause(&first).map(|c| &c.id), Some(&first));
        assert_eq!(spec.clause(&last).map(|c| &c.id), Some(&last));
        spec.clauses.retain(|c| c.id != first);
        assert!(spec.clause(&first).is_none());
    }
}
