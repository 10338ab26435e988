//! GoPerft's published counts (docs/perft/*.perft, the tables of docs/perft.md) checked three
//! ways: recounted by the reference's counter, by the naive executor through the `Referee`
//! trait, and by the independent Python counter (tests/perft/perft.py) at small depths; the
//! tables in the docs are the files' numbers, and every separating line they state parts its
//! rules as said. The slow test (`--ignored`, run by CI in release) regenerates everything with
//! the binary and diffs it with what is committed.

use std::path::PathBuf;
use std::process::Command;

use goconform::board::Move;
use goconform::conformance::Naive;
use goconform::game::Event;
use goconform::perft::{self, file, replay, Start};
use goconform::rules::Rules;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

const FILES: [&str; 2] = ["docs/perft/boards.perft", "docs/perft/positions.perft"];

fn records() -> Vec<(String, file::Record)> {
    let mut all = Vec::new();
    for name in FILES {
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        for r in file::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}")) {
            all.push((name.to_string(), r));
        }
    }
    assert!(all.len() >= 8 * 9, "every start under eight rule sets");
    all
}

#[test]
fn the_reference_recounts_the_small_entries() {
    let mut checked = 0;
    for (name, r) in records() {
        let game = r.start.game(&r.rules).unwrap();
        for &(depth, expected) in &r.counts {
            if expected <= 30_000 {
                assert_eq!(
                    perft::perft(&game, depth),
                    expected,
                    "{name} {} {:?} depth {depth}",
                    r.id,
                    r.rule_words
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "{checked}");
}

#[test]
fn the_naive_executor_recounts_the_small_entries() {
    let mut naive = Naive::new();
    let mut checked = 0;
    for (name, r) in records() {
        for &(depth, expected) in &r.counts {
            if expected <= 2_000 {
                let got = replay::perft(&mut naive, &r.rules, &r.start, depth).unwrap();
                assert_eq!(
                    got, expected,
                    "{name} {} {:?} depth {depth}",
                    r.id, r.rule_words
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 150, "{checked}");
}

#[test]
fn the_independent_python_counter_recounts_the_small_entries() {
    if Command::new("python3").arg("--version").output().is_err() {
        println!("skipped: python3 is not installed");
        return;
    }
    let mut command = Command::new("python3");
    command
        .current_dir(root())
        .args(["tests/perft/perft.py", "--max-nodes", "20000"])
        .args(FILES);
    let out = command.output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let last = text.lines().last().unwrap_or_default();
    let checked: usize = last.split_whitespace().next().unwrap().parse().unwrap();
    assert!(checked > 200 && last.ends_with(" 0 differ"), "{last}");
}

/// The generated part of docs/perft.md.
fn generated_docs() -> String {
    let text = std::fs::read_to_string(root().join("docs/perft.md")).unwrap();
    let marker = "<!-- goconform perft --tables: generated below -->\n";
    let at = text.find(marker).expect("the marker line in docs/perft.md");
    text[at + marker.len()..].to_string()
}

#[test]
fn the_tables_in_the_docs_are_the_files() {
    let docs = generated_docs();
    let records = records();
    let mut compared = 0;
    for section in docs.split("\n### ").skip(1) {
        let name = section.lines().next().unwrap().trim();
        if name == "First separating lines" {
            continue;
        }
        let columns: Vec<&file::Record> = records
            .iter()
            .map(|(_, r)| r)
            .filter(|r| r.id == name)
            .collect();
        assert_eq!(columns.len(), 8, "{name}: eight rule sets");
        let header = section
            .lines()
            .find(|l| l.starts_with("| depth |"))
            .unwrap();
        for (k, cell) in header
            .split('|')
            .skip(2)
            .filter(|c| !c.trim().is_empty())
            .enumerate()
        {
            let words: Vec<String> = cell.trim().split("<br>").map(str::to_string).collect();
            assert_eq!(
                words,
                vec![
                    columns[k].rules.ko.word().to_string(),
                    columns[k].rules.suicide.word().to_string()
                ],
                "{name}: column {k}"
            );
        }
        let rows: Vec<&str> = section
            .lines()
            .filter(|l| l.starts_with("| ") && !l.starts_with("| depth"))
            .collect();
        let deepest = columns.iter().map(|c| c.counts.len()).max().unwrap();
        assert_eq!(rows.len(), deepest, "{name}: one row a depth");
        for row in rows {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let depth: u32 = cells[1].parse().unwrap();
            for (k, column) in columns.iter().enumerate() {
                let given = cells[2 + k];
                let expected = column
                    .counts
                    .iter()
                    .find(|(d, _)| *d == depth)
                    .map(|(_, n)| n.to_string())
                    .unwrap_or_default();
                assert_eq!(given, expected, "{name} depth {depth} column {k}");
                compared += 1;
            }
        }
    }
    assert!(compared > 300, "{compared}");
}

fn rules(ko: &str, suicide: &str) -> Rules {
    let mut r = Rules::default();
    r.set_assignment(&format!("ko={ko}")).unwrap();
    r.set_assignment(&format!("suicide={suicide}")).unwrap();
    r
}

#[test]
fn every_separating_line_in_the_docs_parts_its_rules() {
    let docs = generated_docs();
    let section = docs
        .split("\n### First separating lines")
        .nth(1)
        .expect("the separating lines");
    let mut checked = 0;
    for row in section
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(" / "))
    {
        let cells: Vec<&str> = row.split('|').map(str::trim).collect();
        let (board, suicide, pair, depth, line) =
            (cells[1], cells[2], cells[3], cells[4], cells[6]);
        let n: u8 = board.split('x').next().unwrap().parse().unwrap();
        let (first, second) = pair.split_once(" / ").unwrap();
        let (a, b) = (rules(first, suicide), rules(second, suicide));
        if depth.starts_with("none") {
            let limit: u32 = depth.trim_start_matches("none to ").parse().unwrap();
            if limit <= 6 && n <= 3 {
                let found = perft::separation(&Start::empty(n, n), &a, &b, limit).unwrap();
                assert_eq!(found, None, "{row}");
            }
            continue;
        }
        let words: Vec<&str> = line.trim_matches('`').split_whitespace().collect();
        assert_eq!(words.len() / 2, depth.parse::<usize>().unwrap(), "{row}");
        let mut game_a = Start::empty(n, n).game(&a).unwrap();
        let mut game_b = Start::empty(n, n).game(&b).unwrap();
        let events: Vec<Event> = words
            .chunks(2)
            .map(|p| Event::parse(&format!("{} {}", p[0], p[1]), n, n).unwrap())
            .collect();
        let (last, before) = events.split_last().unwrap();
        for e in before {
            assert!(game_a.apply(e.clone()).is_legal(), "{row}: {e}");
            assert!(game_b.apply(e.clone()).is_legal(), "{row}: {e}");
        }
        let Event::Move(_, mv @ Move::Play(_)) = last else {
            panic!("{row}: the parting move is a play");
        };
        assert!(perft::legal_moves(&game_a).contains(mv), "{row}");
        assert!(!perft::legal_moves(&game_b).contains(mv), "{row}");
        // The shortest: the trees agree one move less deep (checked up to seven moves here,
        // in a debug build; the slow test regenerates every line).
        if before.len() > 6 {
            checked += 1;
            continue;
        }
        let shorter = perft::separation(&Start::empty(n, n), &a, &b, before.len() as u32).unwrap();
        assert_eq!(shorter, None, "{row}");
        checked += 1;
    }
    assert!(checked >= 12, "{checked}");
}

/// Regenerates the tables with the binary and diffs them with the committed files. Minutes in
/// a release build: `cargo test --release --test perft -- --ignored` (CI runs it).
#[test]
#[ignore = "minutes: run by CI in release"]
fn the_published_tables_regenerate_identically() {
    let out = tempfile::tempdir().unwrap();
    let budget = budget_of_docs();
    let status = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(root())
        .args(["perft", "--tables"])
        .arg(out.path())
        .args(&budget)
        .status()
        .unwrap();
    assert!(status.success());
    for name in ["boards.perft", "positions.perft"] {
        let fresh = std::fs::read_to_string(out.path().join(name)).unwrap();
        let committed = std::fs::read_to_string(root().join("docs/perft").join(name)).unwrap();
        assert!(fresh == committed, "docs/perft/{name} is stale");
    }
    let fresh = std::fs::read_to_string(out.path().join("tables.md")).unwrap();
    assert!(
        fresh == generated_docs(),
        "docs/perft.md's tables are stale"
    );
}

/// The budget flags the docs say the tables were generated with (`--max-nodes N`, and
/// `--board-max-nodes N` when the largest boards had their own).
fn budget_of_docs() -> Vec<String> {
    let docs = generated_docs();
    let at = docs.find("--tables DIR ").unwrap() + "--tables DIR ".len();
    let flags = &docs[at..at + docs[at..].find('`').unwrap()];
    let words: Vec<String> = flags.split_whitespace().map(str::to_string).collect();
    assert!(
        words.len().is_multiple_of(2) && words.iter().step_by(2).all(|w| w.ends_with("max-nodes")),
        "{flags}"
    );
    words
}

/// Every `$ goconform perft ...` transcript in the README and docs/perft.md (lines continued
/// with `\\`) is what the binary prints today, line for line.
#[test]
fn the_transcripts_in_the_docs_are_what_perft_prints() {
    let mut checked = 0;
    for name in ["README.md", "docs/perft.md"] {
        let text = std::fs::read_to_string(root().join(name)).unwrap();
        let mut lines = text.lines().peekable();
        while let Some(line) = lines.next() {
            let Some(command) = line.strip_prefix("$ goconform perft ") else {
                continue;
            };
            let mut command = command.to_string();
            while command.ends_with('\\') {
                command.pop();
                command.push(' ');
                command.push_str(lines.next().unwrap().trim());
            }
            let mut expected = Vec::new();
            while let Some(next) = lines.peek() {
                if next.starts_with("$ ") || next.starts_with("```") {
                    break;
                }
                expected.push(lines.next().unwrap().to_string());
            }
            let args = shlex::split(&command).unwrap();
            let out = Command::new(env!("CARGO_BIN_EXE_goconform"))
                .current_dir(root())
                .arg("perft")
                .args(&args)
                .output()
                .unwrap();
            assert!(out.status.success(), "{name}: {command}");
            let got = String::from_utf8_lossy(&out.stdout);
            let got: Vec<&str> = got.lines().collect();
            assert_eq!(got, expected, "{name}: goconform perft {command}");
            checked += 1;
        }
    }
    assert!(checked >= 6, "{checked}");
}
