//! The SGF reader's fast path (`goconform::sgf::fast`) against sgf-parse on every record of
//! the real corpus (`../shared/corpus/sgf/`, beside the project and never copied into it):
//! wherever the fast reader reads a file, sgf-parse reads the same games with the same main
//! lines, property for property; the fast reader reads nearly every file (so the speed it
//! brings is real); and `sgf::read` gives the same records and the same errors either way.
//!
//! Skipped, with the reason printed, where the corpus folder is absent. The fuzz target
//! `sgf_fast` checks the same on arbitrary texts; `tests/fuzz_corpus.rs` replays its inputs.

use std::path::{Path, PathBuf};

use goconform::sgf::{self, fast, text};

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("GOCONFORM_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/sgf"));
    dir.is_dir().then_some(dir)
}

#[test]
fn the_fast_reader_agrees_with_sgf_parse_on_every_record_of_the_corpus() {
    let Some(dir) = corpus() else {
        println!("skipped: the corpus folder ../shared/corpus/sgf is not beside the project");
        return;
    };
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| sgf::is_sgf(p))
        .collect();
    files.sort();
    assert!(files.len() > 5000, "{} files", files.len());
    let (mut read_fast, mut declined) = (0, Vec::new());
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let Ok((text, _)) = text::decode(&bytes) else {
            declined.push(path.clone());
            continue;
        };
        if let Some(problem) = fast::disagreement(&text) {
            panic!("{}: {problem}", path.display());
        }
        if fast::main_lines(&text).is_some() {
            read_fast += 1;
        } else {
            declined.push(path.clone());
        }
    }
    println!(
        "{read_fast} of {} files read by the fast reader; declined: {:?}",
        files.len(),
        declined.iter().take(10).collect::<Vec<_>>()
    );
    assert!(
        read_fast * 100 >= files.len() * 99,
        "only {read_fast} of {} files read fast",
        files.len()
    );
}
