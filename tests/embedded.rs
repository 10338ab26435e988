//! The suite built into the binary: it runs without a checkout, and `goconform export` writes
//! it out as a project folder that runs the same.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;

use common::goconform;

fn text(out: &Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// A scratch folder of its own under the system's temporary folder (outside any checkout),
/// removed when dropped.
struct Scratch(PathBuf);

impl Scratch {
    fn new(test: &str) -> Scratch {
        let dir =
            std::env::temp_dir().join(format!("goconform-embedded-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs the binary in `cwd` with exactly `args` (no `--root`).
fn goconform_in(cwd: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_goconform"))
        .current_dir(cwd)
        .args(args)
        .output()
        .expect("the binary runs")
}

/// The scenario and trial counts of a passing `goconform check`, from its first line
/// (`goconform check: N scenarios, M trials, ...`).
fn counts(out: &Output) -> (usize, usize) {
    let t = text(out);
    assert!(out.status.success(), "{t}");
    let line = t
        .lines()
        .find(|l| l.starts_with("goconform check:"))
        .unwrap_or_else(|| panic!("no summary line in:\n{t}"));
    let number_before = |word: &str| -> usize {
        let words: Vec<&str> = line.split_whitespace().collect();
        let at = words
            .iter()
            .position(|w| {
                let w = w.trim_end_matches(',');
                w == word || w == word.trim_end_matches('s')
            })
            .unwrap_or_else(|| panic!("no `{word}` in {line}"));
        words[at - 1].parse().unwrap()
    };
    (number_before("scenarios"), number_before("trials"))
}

fn disk_counts() -> (usize, usize) {
    counts(&goconform(&["check"]))
}

#[test]
fn the_embedded_suite_runs_outside_any_checkout_like_the_one_on_disk() {
    let scratch = Scratch::new("run");
    let disk = disk_counts();
    assert!(disk.1 > 0);
    let embedded = counts(&goconform_in(scratch.path(), &["--embedded", "check"]));
    assert_eq!(embedded, disk);
    // Outside a checkout, the embedded copy is the default.
    let default = counts(&goconform_in(scratch.path(), &["check"]));
    assert_eq!(default, disk);
}

#[test]
fn embedded_scenarios_are_named_as_reports_print_them() {
    let scratch = Scratch::new("named");
    let out = goconform_in(
        scratch.path(),
        &["--embedded", "check", "conformance/ko/basic-ko.toml"],
    );
    let (scenarios, trials) = counts(&out);
    assert_eq!(scenarios, 1);
    assert!(trials > 0);
    let out = goconform_in(
        scratch.path(),
        &["--embedded", "show", "conformance/ko/basic-ko.toml"],
    );
    assert!(out.status.success(), "{}", text(&out));
    let out = goconform_in(
        scratch.path(),
        &["--embedded", "check", "conformance/no-such-topic"],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("no-such-topic"), "{}", text(&out));
}

#[test]
fn embedded_and_root_conflict() {
    let out = goconform_in(
        &std::env::temp_dir(),
        &[
            "--embedded",
            "--root",
            env!("CARGO_MANIFEST_DIR"),
            "rulesets",
        ],
    );
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
}

#[test]
fn an_exported_suite_runs_like_the_original() {
    let scratch = Scratch::new("export");
    let dir = scratch.path().join("project");
    let dir_text = dir.to_str().unwrap();
    let out = goconform_in(scratch.path(), &["export", dir_text]);
    let t = text(&out);
    assert!(out.status.success(), "{t}");
    assert!(t.contains("wrote ") && t.contains(" files to "), "{t}");
    assert!(dir.join("conformance").join("README.md").is_file());
    assert!(dir.join("spec").join("rulesets").join("aga.toml").is_file());
    // Both schemas and the protocol's description, exactly as committed.
    for doc in [
        "docs/protocol.md",
        "docs/protocol.schema.json",
        "docs/report.schema.json",
    ] {
        let committed = std::fs::read_to_string(common::root().join(doc)).unwrap();
        assert_eq!(
            std::fs::read_to_string(dir.join(doc)).unwrap(),
            committed,
            "{doc}"
        );
    }
    let exported = counts(&goconform_in(
        scratch.path(),
        &["--root", dir_text, "check"],
    ));
    assert_eq!(exported, disk_counts());
    // Found from the current folder, too.
    let found = counts(&goconform_in(&dir.join("conformance"), &["check"]));
    assert_eq!(found, exported);
}

#[test]
fn export_keeps_identical_files_and_refuses_to_overwrite_edited_ones_unless_forced() {
    let scratch = Scratch::new("overwrite");
    let dir = scratch.path().join("project");
    let dir_text = dir.to_str().unwrap();
    let first = goconform_in(scratch.path(), &["export", dir_text]);
    assert!(first.status.success(), "{}", text(&first));
    let again = goconform_in(scratch.path(), &["export", dir_text]);
    assert!(again.status.success(), "{}", text(&again));

    let edited = dir.join("spec").join("rulesets").join("aga.toml");
    let original = std::fs::read_to_string(&edited).unwrap();
    let changed = format!("{original}\n# a local note\n");
    std::fs::write(&edited, &changed).unwrap();
    let refused = goconform_in(scratch.path(), &["export", dir_text]);
    let t = text(&refused);
    assert_eq!(refused.status.code(), Some(2), "{t}");
    assert!(t.contains(edited.to_str().unwrap()), "{t}");
    assert_eq!(
        std::fs::read_to_string(&edited).unwrap(),
        changed,
        "nothing is written when export refuses"
    );

    let forced = goconform_in(scratch.path(), &["export", "--force", dir_text]);
    assert!(forced.status.success(), "{}", text(&forced));
    assert_eq!(std::fs::read_to_string(&edited).unwrap(), original);
}

#[test]
fn export_sgf_writes_every_scenario_as_a_record_with_its_expectations() {
    let scratch = Scratch::new("sgf");
    let dir = scratch.path().join("project");
    let dir_text = dir.to_str().unwrap();
    let out = goconform_in(scratch.path(), &["export", "--sgf", dir_text]);
    assert!(out.status.success(), "{}", text(&out));
    let mut records = Vec::new();
    for topic in std::fs::read_dir(dir.join("sgf")).unwrap() {
        for file in std::fs::read_dir(topic.unwrap().path()).unwrap() {
            records.push(file.unwrap().path());
        }
    }
    // One record per game scenario of the exported suite (tournament scenarios are not games).
    let spec = goconform::spec::Spec::load(&dir).unwrap();
    let suite = goconform::scenario::Suite::load(&[dir.join("conformance")], &spec).unwrap();
    let mut wanted: Vec<PathBuf> = suite
        .scenarios
        .iter()
        .map(|s| dir.join("sgf").join(&s.topic).join(format!("{}.sgf", s.id)))
        .collect();
    wanted.sort();
    records.sort();
    assert_eq!(records, wanted, "one record per scenario");
    for record in &records {
        let games = goconform::sgf::read_file(record, &Default::default()).unwrap();
        assert!(
            games.len() == 1 && games[0].is_ok(),
            "{}: {games:?}",
            record.display()
        );
    }

    // The last move of retake-after-passes is checked per run: legal where superko allows the
    // retake, a superko violation where the situational reading forbids it.
    let record = dir.join("sgf/superko/retake-after-passes.sgf");
    let written = std::fs::read_to_string(&record).unwrap();
    let trees = sgf_parse::go::parse(&written).unwrap();
    let last = trees[0].main_variation().last().unwrap();
    let Some(sgf_parse::go::Prop::C(comment)) = last.get_property("C") else {
        panic!("no comment on the last move:\n{written}");
    };
    assert!(
        comment
            .text
            .contains("aga-1991-text, aga-positional: illegal: superko"),
        "{}",
        comment.text
    );

    // The same suite is the same text, so a second export finds nothing changed; an edited
    // record is refused like any exported file.
    let again = goconform_in(scratch.path(), &["export", "--sgf", dir_text]);
    assert!(again.status.success(), "{}", text(&again));
    std::fs::write(&record, format!("{written}\n")).unwrap();
    let refused = goconform_in(scratch.path(), &["export", "--sgf", dir_text]);
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(text(&refused).contains("retake-after-passes.sgf"));
    let forced = goconform_in(scratch.path(), &["export", "--sgf", "--force", dir_text]);
    assert!(forced.status.success(), "{}", text(&forced));
    assert_eq!(std::fs::read_to_string(&record).unwrap(), written);
}

/// A link inside the target folder, even a dangling one, is never written through: without
/// `--force` it is a file that would be overwritten, and with it the link itself is replaced.
#[cfg(unix)]
#[test]
fn export_never_writes_through_a_link() {
    let scratch = Scratch::new("link");
    let dir = scratch.path().join("project");
    let outside = scratch.path().join("outside.toml");
    std::fs::create_dir_all(dir.join("spec").join("rulesets")).unwrap();
    let link = dir.join("spec").join("rulesets").join("aga.toml");
    std::os::unix::fs::symlink(&outside, &link).unwrap();
    let dir_text = dir.to_str().unwrap();

    let refused = goconform_in(scratch.path(), &["export", dir_text]);
    let t = text(&refused);
    assert_eq!(refused.status.code(), Some(2), "{t}");
    assert!(t.contains(link.to_str().unwrap()), "{t}");
    assert!(!outside.exists(), "export wrote through the dangling link");

    let forced = goconform_in(scratch.path(), &["export", "--force", dir_text]);
    assert!(forced.status.success(), "{}", text(&forced));
    assert!(!outside.exists(), "--force wrote through the link");
    let m = std::fs::symlink_metadata(&link).unwrap();
    assert!(m.file_type().is_file(), "the link is replaced by the file");
}
