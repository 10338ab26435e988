//! Reading SGF game records for the commands that take a game (`score`, `ruling`, `judge`):
//! one place that turns the reader's located errors into the command line's messages.

use std::path::Path;

use crate::sgf::{self, ReadOptions, Record};

/// The `game`-th game (0-based) of the SGF file at `path`. Problems come back located
/// (`file:line:column: key `KM`: ...`), with the number of games when `game` is out of range.
pub(super) fn load_record(
    path: &Path,
    game: usize,
    options: &ReadOptions,
) -> Result<Record, String> {
    load_record_counted(path, game, options).map(|(record, _)| record)
}

/// [`load_record`], with how many games the file holds, so a command showing one game of a
/// collection can say there are others.
pub(super) fn load_record_counted(
    path: &Path,
    game: usize,
    options: &ReadOptions,
) -> Result<(Record, usize), String> {
    if path.is_dir() {
        return Err(format!("{} is a folder, not a game record", path.display()));
    }
    let bytes = match crate::spec::location::read_bounded(path) {
        Ok(bytes) => bytes,
        // The reader's own located words for a file it cannot read.
        Err(_) => {
            return Err(match sgf::read_file(path, options) {
                Err(e) => format!("cannot read the game record:\n{e}"),
                Ok(_) => format!("cannot read {}", path.display()),
            })
        }
    };
    // The games read one at a time, only the one asked for kept.
    let mut wanted = None;
    let mut index = 0;
    let count = sgf::read_each(path, &bytes, options, |read| {
        if index == game {
            wanted = Some(read);
        }
        index += 1;
    })
    .map_err(|e| format!("cannot read the game record:\n{e}"))?;
    match wanted {
        Some(Ok(record)) => Ok((record, count)),
        Some(Err(e)) => Err(format!("cannot read the game record:\n{e}")),
        None => Err(format!(
            "{}: --game {}: the file holds {count} game{}",
            path.display(),
            game + 1,
            if count == 1 { "" } else { "s" }
        )),
    }
}

/// `--game N` as the user counts (from 1) to an index.
pub(super) fn game_index(game: Option<usize>) -> Result<usize, String> {
    match game {
        None => Ok(0),
        Some(0) => Err("--game counts from 1".to_string()),
        Some(n) => Ok(n - 1),
    }
}
