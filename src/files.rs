//! Writing a file whole or not at all, for every output goconform writes where a reader may
//! look at it while it is being written, where a run may be cut short, or where a link may
//! stand in its place: the book, the SVG diagrams of `show`, `export`, reports, expectations
//! files and fuzz findings.
//!
//! Each file is written to a temporary file in the same folder (so the rename stays on one
//! file system) and renamed into place. The rename replaces a link at the path itself, never
//! the file it points to.

use std::path::Path;

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, renamed into
/// place. A link at `path` is replaced, never followed. The file is readable by everyone (0644
/// on Unix, as a plain write under the usual umask would leave it), since a site is served by
/// another user and a project folder is shared; a temporary file alone would be the owner's
/// only.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    filled_beside(path, bytes)?
        .persist(path)
        .map_err(|e| e.error)?;
    Ok(())
}

/// Writes `bytes` to `path` as [`write_whole`] does, but only if nothing is at `path` yet (not
/// even a dangling link): `Ok(false)` if something is, and then nothing was written. For
/// outputs a person may have reviewed, such as a fuzz finding.
pub fn write_new(path: &Path, bytes: &[u8]) -> std::io::Result<bool> {
    match filled_beside(path, bytes)?.persist_noclobber(path) {
        Ok(_) => Ok(true),
        Err(e) if e.error.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(e.error),
    }
}

/// A temporary file in the folder of `path` holding `bytes`, removed if dropped.
fn filled_beside(path: &Path, bytes: &[u8]) -> std::io::Result<tempfile::NamedTempFile> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::Builder::new()
        .prefix(".goconform-")
        .suffix(".tmp")
        .tempfile_in(folder)?;
    std::io::Write::write_all(&mut temporary, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temporary
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    Ok(temporary)
}

/// The first link among the folders between `dir` and `relative` (a path under `dir` with `/`
/// between its parts; its last part is the file itself, not looked at), if any: writing there
/// would go through the link, possibly outside `dir`. `dir` itself may be a link: it was named.
pub fn link_on_the_way(dir: &Path, relative: &str) -> Option<std::path::PathBuf> {
    let mut parts: Vec<&str> = relative.split('/').collect();
    parts.pop();
    let mut at = dir.to_path_buf();
    for part in parts {
        at.push(part);
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => return Some(at),
            _ => {}
        }
    }
    None
}

/// Puts the folder `staged` at `dir`, whole: `dir` is never a part of the one and a part of
/// the other. Where nothing is at `dir` the staged folder is renamed there; where a folder is,
/// the two are exchanged in one step (Linux `renameat2` with `RENAME_EXCHANGE`; elsewhere, or
/// where the file system cannot, `dir` is first moved aside, a moment with nothing at `dir`),
/// and what was at `dir` is then at `staged`, for the caller to remove.
pub fn swap_in_folder(staged: &Path, dir: &Path) -> std::io::Result<()> {
    match std::fs::symlink_metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return std::fs::rename(staged, dir),
        Err(e) => return Err(e),
        Ok(_) => {}
    }
    #[cfg(target_os = "linux")]
    {
        if exchange(staged, dir).is_ok() {
            return Ok(());
        }
    }
    let aside = tempfile::Builder::new()
        .prefix(".goconform-old-")
        .tempdir_in(
            dir.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new(".")),
        )?;
    let old = aside.path().join("old");
    std::fs::rename(dir, &old)?;
    if let Err(e) = std::fs::rename(staged, dir) {
        let _ = std::fs::rename(&old, dir);
        return Err(e);
    }
    std::fs::rename(&old, staged)
}

#[cfg(target_os = "linux")]
fn exchange(a: &Path, b: &Path) -> std::io::Result<()> {
    use rustix::fs::{renameat_with, RenameFlags, CWD};
    // rustix makes the system call itself, so the exchange needs nothing of the C library
    // (the static musl build's has no renameat2) and no unsafe code.
    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).map_err(std::io::Error::from)
}
