//! The rule book: the specification and the suite as a static web site, with board diagrams.
//!
//! A report over `spec`, `scenario` and the reference's answers, like `compare`: nothing here
//! decides a rule. A page per source document (its clauses in order, each with the rulesets
//! that adopt it and the scenarios that cite it), a page per scenario (an SVG diagram of the
//! set-up and of every checked event, the verdicts of every run side by side), the rulesets
//! side by side, the engines page of a comparison, and a search that runs in the page. Every
//! link is relative and nothing is fetched, so the folder opens from the disk.
//!
//! `diagram.rs` draws boards as SVG, `walk.rs` plays a scenario through the reference,
//! `scenario_page.rs` chooses what a scenario page shows, `pages.rs` and `engines.rs` are the
//! HTML templates (maud).

pub mod diagram;
pub mod engines;
pub mod live;
pub mod markdown;
pub mod pages;
pub mod scenario_page;
pub mod walk;

use std::path::{Path, PathBuf};

use crate::conformance::compare::Comparison;
use crate::scenario::Suite;
use crate::spec::Spec;

/// The style sheet every page links (and `compare --html` inlines).
pub const STYLE: &str = include_str!("style.css");
/// The search page's script.
const SEARCH_SCRIPT: &str = include_str!("search.js");
/// The `generator` of every page: how `write` recognises a folder it wrote before.
pub const GENERATOR: &str = "goconform book";

#[derive(Debug, thiserror::Error)]
/// Why the book could not be made or written.
pub enum BookError {
    #[error("{0}")]
    /// The suite or the spec says something the book cannot draw (a scenario the reference cannot start, say).
    Model(String),
    #[error("{} is a folder that is not a goconform book and is not empty; nothing was written (choose another folder or empty it)", .0.display())]
    /// The target folder holds something else: writing would mix the book with files it does not own.
    NotABook(PathBuf),
    #[error("cannot write {}: {source}", path.display())]
    /// A page could not be written; the folder is as it was.
    Io {
        /// The file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
}

/// The site as files: paths relative to its top folder, and their text.
#[derive(Clone, Debug)]
pub struct Book {
    /// Each file's path relative to the top folder (`/` separators) and its text.
    pub files: Vec<(String, String)>,
}

/// The numbers `goconform book` reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// HTML pages.
    pub pages: usize,
    /// Files of any kind: pages, the style sheet and the search script.
    pub files: usize,
    /// Their total size in bytes.
    pub bytes: usize,
    /// SVG board diagrams drawn inline in the pages.
    pub diagrams: usize,
}

impl Book {
    /// Builds every page. `comparison` is the engines page's content, if engines were run.
    pub fn build(
        spec: &Spec,
        suite: &Suite,
        comparison: Option<&Comparison>,
    ) -> Result<Book, BookError> {
        Book::build_live(spec, suite, comparison, None)
    }

    /// Builds every page, and with `live` the live book: every scenario's position and a
    /// free board (`play.html`) played in the page through the WebAssembly module
    /// (`live.rs`).
    pub fn build_live(
        spec: &Spec,
        suite: &Suite,
        comparison: Option<&Comparison>,
        live: Option<&live::LiveModule>,
    ) -> Result<Book, BookError> {
        let mut files = vec![
            ("style.css".to_string(), STYLE.to_string()),
            ("search.js".to_string(), SEARCH_SCRIPT.to_string()),
            (
                "search-index.js".to_string(),
                pages::search_index(spec, suite),
            ),
            (
                "index.html".to_string(),
                pages::index(spec, suite, comparison.is_some(), live.is_some()),
            ),
            ("search.html".to_string(), pages::search()),
            ("rulesets.html".to_string(), pages::rulesets(spec)?),
            (
                "engines.html".to_string(),
                match comparison {
                    Some(c) => engines::book_page(c, suite, spec),
                    None => engines::book_page_without_engines(),
                },
            ),
        ];
        for d in &spec.documents {
            files.push((
                pages::document_path(&d.id),
                pages::document(spec, suite, &d.id)?,
            ));
        }
        let scenario_pages = rayon_map(&suite.scenarios, |s| {
            scenario_page::Played::new(s)
                .map(|played| pages::scenario(spec, &played, live.is_some()))
        })
        .map_err(BookError::Model)?;
        for (s, page) in suite.scenarios.iter().zip(scenario_pages) {
            files.push((pages::scenario_path(&s.id), page));
        }
        for t in &suite.tournament {
            files.push((pages::scenario_path(&t.id), pages::tournament(spec, t)));
        }
        if let Some(module) = live {
            files.push(("live.js".to_string(), module.script(spec)));
            files.push(("play.html".to_string(), pages::play()));
        }
        Ok(Book { files })
    }

    /// How big the site is, counted from its files without writing them.
    pub fn size(&self) -> Size {
        Size {
            pages: self
                .files
                .iter()
                .filter(|(p, _)| p.ends_with(".html"))
                .count(),
            files: self.files.len(),
            bytes: self.files.iter().map(|(_, t)| t.len()).sum(),
            diagrams: self
                .files
                .iter()
                .map(|(_, t)| t.matches("<svg ").count())
                .sum(),
        }
    }

    /// Writes the files under `dir`, creating it. A folder that is not empty must hold a
    /// book written before (its `index.html` names the generator), so a wrong path never
    /// scatters pages among someone's files.
    ///
    /// The site is written whole or not at all: into a hidden folder beside `dir`, then put in
    /// its place in one step ([`crate::files::swap_in_folder`]), so a reader, or a run cut
    /// short, never finds an `index.html` beside part of the pages, and no temporary file is
    /// ever inside `dir`. What the old folder held besides the book's own files and folders
    /// (a `CNAME`, a `.git`) is moved into the new one first. A run killed while it writes
    /// leaves at most the hidden `.goconform-book-*` folder beside `dir`. Since the folder is
    /// new, no page is ever written through a link that stood in `dir`; a link named as `dir`
    /// itself is followed, to the folder it names.
    pub fn write(&self, dir: &Path) -> Result<(), BookError> {
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| BookError::Io { path, source }
        };
        let dir = match std::fs::symlink_metadata(dir) {
            Ok(m) if m.file_type().is_symlink() => std::fs::canonicalize(dir).map_err(io(dir))?,
            _ => dir.to_path_buf(),
        };
        let dir = dir.as_path();
        let exists = dir.exists();
        if exists {
            let empty = std::fs::read_dir(dir).map_err(io(dir))?.next().is_none();
            let ours = std::fs::read_to_string(dir.join("index.html"))
                .is_ok_and(|t| t.contains(&format!("content=\"{GENERATOR}\"")));
            if !empty && !ours {
                return Err(BookError::NotABook(dir.to_path_buf()));
            }
        }
        let parent = match dir.parent() {
            Some(p) if !p.as_os_str().is_empty() => p,
            _ => Path::new("."),
        };
        std::fs::create_dir_all(parent).map_err(io(parent))?;
        let staged = tempfile::Builder::new()
            .prefix(".goconform-book-")
            .tempdir_in(parent)
            .map_err(io(parent))?;
        let mode = if exists {
            std::fs::metadata(dir).map_err(io(dir))?.permissions()
        } else {
            let mut p = std::fs::metadata(parent).map_err(io(parent))?.permissions();
            #[cfg(unix)]
            {
                use std::os::unix::fs::PermissionsExt;
                p.set_mode(0o755);
            }
            p
        };
        std::fs::set_permissions(staged.path(), mode).map_err(io(staged.path()))?;
        for (relative, text) in &self.files {
            let path = relative
                .split('/')
                .fold(staged.path().to_path_buf(), |p, c| p.join(c));
            let folder = path.parent().unwrap_or(staged.path());
            std::fs::create_dir_all(folder).map_err(io(folder))?;
            crate::files::write_whole(&path, text.as_bytes()).map_err(io(&path))?;
        }
        let mut carried = Vec::new();
        if exists {
            let own: std::collections::BTreeSet<&str> = self
                .files
                .iter()
                .filter_map(|(relative, _)| relative.split('/').next())
                .collect();
            for entry in std::fs::read_dir(dir).map_err(io(dir))? {
                let entry = entry.map_err(io(dir))?;
                let name = entry.file_name();
                if !name.to_str().is_some_and(|n| own.contains(n)) {
                    let to = staged.path().join(&name);
                    if let Err(e) = std::fs::rename(entry.path(), &to) {
                        put_back(&carried, staged.path(), dir);
                        return Err(io(&entry.path())(e));
                    }
                    carried.push(name);
                }
            }
        }
        if let Err(e) = crate::files::swap_in_folder(staged.path(), dir) {
            put_back(&carried, staged.path(), dir);
            return Err(io(dir)(e));
        }
        // The old site, if any, is now at the staged path, removed with it.
        drop(staged);
        Ok(())
    }
}

/// Moves the entries named `names` from `staged` back to `dir`, where a write that failed
/// had carried them from, so that dropping the staged folder does not remove them.
fn put_back(names: &[std::ffi::OsString], staged: &Path, dir: &Path) {
    for name in names {
        let _ = std::fs::rename(staged.join(name), dir.join(name));
    }
}

/// `f` over `items` on rayon's pool, in order; the first error wins.
fn rayon_map<T: Sync, U: Send>(
    items: &[T],
    f: impl Fn(&T) -> Result<U, String> + Sync,
) -> Result<Vec<U>, String> {
    use rayon::prelude::*;
    items.par_iter().map(&f).collect()
}
