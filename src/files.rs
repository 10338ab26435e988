//! Writing a file whole or not at all, for every output goconform writes where a reader may
//! look at it while it is being written, or where a link may stand in its place: the book, the
//! SVG diagrams of `show`, and `export`.

use std::path::Path;

/// Writes `bytes` to `path` whole or not at all: into a temporary file beside it, renamed into
/// place. A link at `path` is replaced, never followed. The file is readable by everyone (0644
/// on Unix, as a plain write under the usual umask would leave it), since a site is served by
/// another user and a project folder is shared; a temporary file alone would be the owner's
/// only.
pub fn write_whole(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let folder = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let mut temporary = tempfile::NamedTempFile::new_in(folder)?;
    std::io::Write::write_all(&mut temporary, bytes)?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        temporary
            .as_file()
            .set_permissions(std::fs::Permissions::from_mode(0o644))?;
    }
    temporary.persist(path).map_err(|e| e.error)?;
    Ok(())
}
