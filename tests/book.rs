//! The rule book as files: every page the suite needs is there, every scenario page has a
//! diagram for the set-up and for each checked event, every link and anchor resolves, and
//! the command writes, rewrites and refuses as it says. (tests/book_browser.rs opens the same
//! book in Chromium.)

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::Command;

use goconform::book::scenario_page::checked_events;
use goconform::book::Book;
use goconform::scenario::Suite;
use goconform::spec::Spec;

fn load() -> (Spec, Suite) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(root).unwrap();
    let suite = Suite::load(&[root.join("conformance")], &spec).unwrap();
    (spec, suite)
}

fn files(book: &Book) -> BTreeMap<&str, &str> {
    book.files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect()
}

/// The values of `attribute="..."` in an HTML text.
fn attribute_values<'a>(text: &'a str, attribute: &str) -> Vec<&'a str> {
    let needle = format!(" {attribute}=\"");
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        rest = &rest[at + needle.len()..];
        let end = rest.find('"').unwrap_or(rest.len());
        out.push(&rest[..end]);
        rest = &rest[end..];
    }
    out
}

/// `target` (a relative link) seen from the page at `from`, as a path in the book.
fn resolve(from: &str, target: &str) -> String {
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop();
    for piece in target.split('/') {
        match piece {
            ".." => {
                parts.pop();
            }
            "." | "" => {}
            p => parts.push(p),
        }
    }
    parts.join("/")
}

#[test]
fn every_scenario_page_draws_the_set_up_and_each_checked_event() {
    let (spec, suite) = load();
    let book = Book::build(&spec, &suite, None).unwrap();
    let files = files(&book);
    for s in &suite.scenarios {
        let page = files[format!("scenarios/{}.html", s.id).as_str()];
        let mut events = checked_events(s);
        if !events.contains(&0) {
            events.insert(0, 0);
        }
        for k in &events {
            let figure = format!("<figure class=\"diagram\" data-event=\"{k}\"><svg ");
            assert!(
                page.contains(&figure),
                "{}: no diagram after event {k}",
                s.id
            );
        }
        let drawn: BTreeSet<&str> = attribute_values(page, "data-event").into_iter().collect();
        let wanted: BTreeSet<String> = events.iter().map(|k| k.to_string()).collect();
        let wanted: BTreeSet<&str> = wanted.iter().map(String::as_str).collect();
        assert_eq!(drawn, wanted, "{}: diagrams of unchecked events", s.id);
        // One verdict row per event, one column per run.
        for (k, event) in s.events.iter().enumerate() {
            let row = format!("<td>{}</td><td><code>{event}</code></td>", k + 1);
            assert!(page.contains(&row), "{}: no verdict row {row}", s.id);
        }
        for run in &s.runs {
            assert!(
                page.contains(&format!("<th>{}</th>", run.label)),
                "{}",
                s.id
            );
        }
    }
    for t in &suite.tournament {
        let page = files[format!("scenarios/{}.html", t.id).as_str()];
        for case in &t.cases {
            assert!(
                page.contains(&format!("<code>{}</code>", case.name)),
                "{}",
                t.id
            );
        }
    }
    for d in &spec.documents {
        let page = files[format!("documents/{}.html", d.id).as_str()];
        for c in spec.clauses.iter().filter(|c| c.document == d.id) {
            assert!(page.contains(&format!("id=\"{}\"", c.id)), "{}", c.id);
        }
    }
}

#[test]
fn every_link_and_anchor_in_the_book_resolves() {
    let (spec, suite) = load();
    let book = Book::build(&spec, &suite, None).unwrap();
    let files = files(&book);
    let mut checked = 0;
    let mut check = |from: &str, link: &str| {
        assert!(
            !link.contains("://") && !link.starts_with('/'),
            "{from}: {link} leaves the book"
        );
        let (path, fragment) = link.split_once('#').unwrap_or((link, ""));
        let path = path.split_once('?').map_or(path, |(p, _)| p);
        let target = if path.is_empty() {
            from.to_string()
        } else {
            resolve(from, path)
        };
        let Some(text) = files.get(target.as_str()) else {
            panic!("{from}: {link} names {target}, which the book does not hold");
        };
        if !fragment.is_empty() {
            assert!(
                text.contains(&format!("id=\"{fragment}\"")),
                "{from}: {link}: no id {fragment} in {target}"
            );
        }
        checked += 1;
    };
    for (path, text) in files.iter().filter(|(p, _)| p.ends_with(".html")) {
        for link in attribute_values(text, "href")
            .into_iter()
            .chain(attribute_values(text, "src"))
            .chain(attribute_values(text, "action"))
        {
            check(path, link);
        }
    }
    // The search index's links are followed from search.html.
    let index = files["search-index.js"];
    let json = index
        .trim()
        .strip_prefix("var BOOK_INDEX = ")
        .and_then(|j| j.strip_suffix(';'))
        .unwrap();
    let entries: Vec<serde_json::Value> = serde_json::from_str(json).unwrap();
    assert_eq!(
        entries.len(),
        spec.clauses.len() + suite.scenarios.len() + suite.tournament.len()
    );
    for e in &entries {
        check("search.html", e["url"].as_str().unwrap());
    }
    assert!(checked > 2000, "only {checked} links checked");
}

#[test]
fn the_book_names_no_path_of_the_machine_that_built_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("book");
    let run = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["book", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let said = String::from_utf8_lossy(&run.stdout);
    assert!(said.starts_with("wrote "), "{said}");
    let page = std::fs::read_to_string(out.join("scenarios/basic-ko.html")).unwrap();
    // Readable by the user a web server runs as, not only by its owner.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(out.join("index.html"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o044, 0o044, "index.html has mode {mode:o}");
    }
    assert!(page.contains("<code>conformance/ko/basic-ko.toml</code>"));
    assert!(!page.contains(env!("CARGO_MANIFEST_DIR")));
    // The same command again rewrites the same files.
    let again = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["book", out.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(again.status.success(), "{again:?}");
    assert_eq!(
        std::fs::read_to_string(out.join("scenarios/basic-ko.html")).unwrap(),
        page
    );
}

#[test]
fn a_folder_that_is_not_a_book_is_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.txt"), "mine").unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .args(["--embedded", "book", dir.path().to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let said = String::from_utf8_lossy(&run.stderr);
    assert!(said.contains("is not a goconform book"), "{said}");
    let left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
    assert_eq!(left.len(), 1);
}

/// Runs `show FILE --format svg` into a fresh folder; the folder and the file names, sorted.
fn show_svg(file: &str) -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().unwrap();
    let run = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["show", file, "--format", "svg", "--out"])
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    (dir, names)
}

#[test]
fn show_writes_one_svg_per_diagram() {
    let (dir, names) = show_svg("conformance/ko/basic-ko.toml");
    // The set-up and the nine checked moves, every run in the same position at each.
    let wanted: Vec<String> = (0..=9).map(|k| format!("basic-ko-{k:03}.svg")).collect();
    assert_eq!(names, wanted);
    let refused = std::fs::read_to_string(dir.path().join("basic-ko-002.svg")).unwrap();
    assert!(refused.starts_with("<?xml"));
    assert!(refused.contains("xmlns=\"http://www.w3.org/2000/svg\""));
    assert!(refused.contains("class=\"refused\""), "{refused}");
    assert!(refused.contains("illegal: ko"), "{refused}");
    let take = std::fs::read_to_string(dir.path().join("basic-ko-001.svg")).unwrap();
    assert_eq!(take.matches("class=\"removed\"").count(), 1, "{take}");
    assert_eq!(take.matches("class=\"last\"").count(), 1, "{take}");

    // Without --out, svg says what it needs.
    let run = Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["show", "conformance/ko/basic-ko.toml", "--format", "svg"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("--out DIR"));
}

#[test]
fn where_runs_part_the_diagrams_part_too() {
    // Under simple ko the retake of a long cycle is legal; under superko it is not: the
    // scenario page draws the two positions apart, each naming its runs.
    let (spec, suite) = load();
    let parted = suite
        .scenarios
        .iter()
        .filter_map(|s| {
            let played = goconform::book::scenario_page::Played::new(s).unwrap();
            played
                .moments()
                .into_iter()
                .find(|m| m.figures.len() > 1)
                .map(|m| (s.id.clone(), m.figures.len()))
        })
        .count();
    assert!(parted > 5, "only {parted} scenarios part");
    let book = Book::build(&spec, &suite, None).unwrap();
    assert!(book.size().diagrams > suite.scenarios.len());
}

#[test]
fn a_game_record_shows_its_set_up_and_its_last_position() {
    let (dir, names) = show_svg("tests/fixtures/sgf/counted-5x5.sgf");
    assert_eq!(names, ["counted-5x5-000.svg", "counted-5x5-013.svg"]);
    // The last position numbers the moves that still stand.
    let last = std::fs::read_to_string(dir.path().join("counted-5x5-013.svg")).unwrap();
    assert!(last.contains("class=\"number\""), "{last}");
}
