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
