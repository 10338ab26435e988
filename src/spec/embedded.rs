//! The specification and the conformance suite as built into the binary.
//!
//! `build.rs` embeds every `*.toml` file under `spec/` and `conformance/` (and
//! `conformance/README.md`), so that the suite runs without a checkout. The files keep their
//! paths relative to the project root (`conformance/ko/basic-ko.toml`), which is also how
//! messages name them. [`export`] writes them back out as a project folder to read, edit and
//! run with `--root`.

use std::path::{Path, PathBuf};

use super::{LoadError, Spec};

/// Every embedded file as (path relative to the project root with `/` separators, contents),
/// sorted by path.
pub fn files() -> &'static [(&'static str, &'static str)] {
    include!(concat!(env!("OUT_DIR"), "/embedded_files.rs"))
}

/// The `*.toml` files directly in `folder` (e.g. `spec/clauses`), as the loaders take them.
fn toml_files_in(folder: &str) -> Vec<(PathBuf, String)> {
    files()
        .iter()
        .filter(|(path, _)| {
            path.strip_prefix(folder)
                .and_then(|rest| rest.strip_prefix('/'))
                .is_some_and(|name| !name.contains('/') && name.ends_with(".toml"))
        })
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect()
}

/// The embedded specification: the clauses of `spec/clauses` and the rulesets of
/// `spec/rulesets`.
pub fn spec() -> Result<Spec, LoadError> {
    let clause_files = toml_files_in("spec/clauses");
    let ruleset_files = toml_files_in("spec/rulesets");
    Spec::from_texts(&clause_files, &ruleset_files)
}

/// The embedded scenario files: every `*.toml` file under `conformance/`, with its path
/// relative to the project root.
pub fn scenario_texts() -> Vec<(PathBuf, String)> {
    files()
        .iter()
        .filter(|(path, _)| path.starts_with("conformance/") && path.ends_with(".toml"))
        .map(|(path, text)| (PathBuf::from(path), text.to_string()))
        .collect()
}

/// Why the embedded files could not be written out.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Files already under the target folder differ from the embedded copy, and overwriting
    /// was not asked for. Nothing was written.
    #[error(
        "{}: {} existing file(s) differ from the embedded copy and would be overwritten: {}",
        .dir.display(),
        .paths.len(),
        .paths.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
    )]
    WouldOverwrite {
        /// The folder written to.
        dir: PathBuf,
        /// The files that differ, which are left as they are.
        paths: Vec<PathBuf>,
    },
    /// A folder on the way to a file under the target folder is a link: writing through it
    /// could write outside the folder, with `--force` too. Nothing was written.
    #[error(
        "{}: {} is a link; export never writes through a link inside the folder it writes (remove it, or export elsewhere); nothing was written",
        .dir.display(),
        .link.display()
    )]
    ThroughLink {
        /// The folder written to.
        dir: PathBuf,
        /// The link.
        link: PathBuf,
    },
    /// Reading, creating or writing a file or folder failed.
    #[error("{}: {source}", .path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

/// Writes every embedded file under `dir`, creating folders as needed, and returns how many
/// files were written. Existing files with the same contents are fine. Unless `overwrite`, if
/// any existing file differs, nothing is written and the error lists them all.
pub fn export(dir: &Path, overwrite: bool) -> Result<usize, ExportError> {
    let files: Vec<(String, String)> = files()
        .iter()
        .map(|(relative, text)| (relative.to_string(), text.to_string()))
        .collect();
    write_files(dir, &files, overwrite)
}

/// Writes `files` (paths relative to `dir`, with `/`) under `dir`: nothing at all if a file
/// there already differs and `overwrite` is not set. Returns how many were written.
pub fn write_files(
    dir: &Path,
    files: &[(String, String)],
    overwrite: bool,
) -> Result<usize, ExportError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ExportError::Io { path, source }
    };
    let targets: Vec<(PathBuf, &str)> = files
        .iter()
        .map(|(relative, text)| {
            let target = relative
                .split('/')
                .fold(dir.to_path_buf(), |p, c| p.join(c));
            (target, text.as_str())
        })
        .collect();
    for (relative, _) in files {
        if let Some(link) = crate::files::link_on_the_way(dir, relative) {
            return Err(ExportError::ThroughLink {
                dir: dir.to_path_buf(),
                link,
            });
        }
    }
    if !overwrite {
        let mut differing = Vec::new();
        for (target, text) in &targets {
            // A link counts as a file that differs, even one pointing at a file with the same
            // text or at nothing: writing through it would write outside the folder.
            match std::fs::symlink_metadata(target) {
                Ok(m) if m.file_type().is_symlink() => {
                    differing.push(target.clone());
                    continue;
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
                _ => {}
            }
            match std::fs::read(target) {
                Ok(existing) if existing == text.as_bytes() => {}
                Ok(_) => differing.push(target.clone()),
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io(target)(e)),
            }
        }
        if !differing.is_empty() {
            return Err(ExportError::WouldOverwrite {
                dir: dir.to_path_buf(),
                paths: differing,
            });
        }
    }
    for (target, text) in &targets {
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(io(parent))?;
        }
        // Renamed into place: a link standing there (with --force) is replaced, not followed.
        crate::files::write_whole(target, text.as_bytes()).map_err(io(target))?;
    }
    Ok(targets.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_files_are_sorted_relative_and_complete() {
        let paths: Vec<&str> = files().iter().map(|(p, _)| *p).collect();
        let mut sorted: Vec<PathBuf> = paths.iter().map(PathBuf::from).collect();
        sorted.sort();
        assert_eq!(
            sorted,
            paths.iter().map(PathBuf::from).collect::<Vec<_>>(),
            "sorted by path"
        );
        for p in &paths {
            assert!(
                !p.starts_with('/') && !p.contains('\\') && !p.contains(".."),
                "{p}"
            );
            assert!(
                p.starts_with("spec/") || p.starts_with("conformance/"),
                "{p}"
            );
        }
        assert!(paths.contains(&"conformance/README.md"));
        assert!(paths.iter().any(|p| p.starts_with("spec/rulesets/")));
        assert!(paths.iter().any(|p| p.starts_with("spec/clauses/")));
    }

    #[test]
    fn the_embedded_spec_and_suite_load() {
        let spec = spec().expect("the embedded spec loads");
        assert!(spec.ruleset("aga").is_some());
        let texts = scenario_texts();
        assert!(!texts.is_empty());
        assert!(texts
            .iter()
            .all(|(p, _)| p.extension().is_some_and(|x| x == "toml")));
    }
}
