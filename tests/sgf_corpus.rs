//! Every record of the real corpus (`../shared/corpus/sgf/`, 5,502 games between programs,
//! beside the project and never copied into it) read and judged under the rules its `RU`
//! names, as `goconform judge` does.
//!
//! What must hold:
//! - every record is read, or refused with one located error (file, line, column, property);
//!   the refusals are listed and must be exactly the known ones;
//! - no move of any record breaks the rules its `RU` names (aga for records that name none),
//!   except where the record itself has two moves in a row by one player, which the test
//!   confirms from the raw text independently of the reader: those are the records', not ours;
//! - every counted `RE` is classified (agrees, consistent, disagrees, not checkable).
//!
//! Skipped, with the reason printed, where the corpus folder is absent.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use goconform::sgf::judge::{judge, ResultCheck};
use goconform::sgf::{self, RecordedResult};
use goconform::spec::Spec;

fn corpus() -> Option<PathBuf> {
    let dir = std::env::var_os("GOCONFORM_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/sgf"));
    dir.is_dir().then_some(dir)
}

/// The colours of the moves of a record's (only) line, read straight from the text: each
/// `B[` or `W[` that starts a property after `;` or whitespace. The corpus has no variations
/// and no comments with brackets in them, which the test checks by counting parentheses.
fn raw_move_colours(text: &str) -> Vec<char> {
    let bytes = text.as_bytes();
    let mut colours = Vec::new();
    let mut in_value = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if in_value {
            if b == b'\\' {
                i += 1;
            } else if b == b']' {
                in_value = false;
            }
        } else if b == b'[' {
            in_value = true;
        } else if (b == b'B' || b == b'W')
            && bytes.get(i + 1) == Some(&b'[')
            && (i == 0 || !bytes[i - 1].is_ascii_alphabetic())
        {
            colours.push(char::from(b));
        }
        i += 1;
    }
    colours
}

#[test]
fn every_record_of_the_corpus_is_read_and_judged() {
    let Some(dir) = corpus() else {
        println!("skipped: the corpus folder ../shared/corpus/sgf is not beside the project");
        return;
    };
    let spec = Spec::load(Path::new(env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| sgf::is_sgf(p))
        .collect();
    files.sort();
    assert!(files.len() > 5000, "{} records", files.len());

    let mut refused: Vec<String> = Vec::new();
    let mut curiosities: Vec<String> = Vec::new();
    let mut checks: BTreeMap<String, usize> = BTreeMap::new();
    let mut counted = 0;
    let mut disagree_komi_zero = 0;
    let mut games = 0;
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let read = match sgf::read(path, &bytes, &Default::default()) {
            Ok(games) => games,
            Err(e) => {
                refused.push(e.to_string());
                continue;
            }
        };
        for game in read {
            games += 1;
            let record = match game {
                Ok(record) => record,
                Err(e) => {
                    assert!(e.line >= 1 && !e.key.is_empty(), "not located: {e}");
                    refused.push(format!(
                        "{}: {}",
                        path.file_name().unwrap().to_string_lossy(),
                        e.to_string().split_once(": ").map_or("", |x| x.1)
                    ));
                    continue;
                }
            };
            let ruleset = record.ruleset().unwrap_or("aga");
            let j = judge(&record, ruleset, spec.rules(ruleset).unwrap(), &spec);
            if let Some(v) = &j.violation {
                // The record itself must show the failure of alternation: the move before
                // the violation (counting any handicap written as moves) is the same colour.
                let text = String::from_utf8_lossy(&bytes);
                assert_eq!(
                    text.matches('(').count(),
                    1,
                    "{}: variations",
                    path.display()
                );
                let colours = raw_move_colours(&text);
                let offset = if record.handicap_from_moves {
                    record.setup.handicap.len()
                } else {
                    0
                };
                let at = offset + v.move_number - 1;
                assert_eq!(
                    v.reason.to_string(),
                    "out-of-turn",
                    "{}: move {} breaks {ruleset} for another reason",
                    path.display(),
                    v.move_number
                );
                assert!(
                    at >= 1 && colours[at] == colours[at - 1],
                    "{}: move {} is not a repeated colour in the text",
                    path.display(),
                    v.move_number
                );
                curiosities.push(format!(
                    "{} move {} ({} twice in a row)",
                    path.file_name().unwrap().to_string_lossy(),
                    v.move_number,
                    colours[at]
                ));
            }
            if matches!(
                record.result,
                Some(RecordedResult::Score(..) | RecordedResult::Draw)
            ) {
                counted += 1;
                let key = match &j.check {
                    ResultCheck::NotCheckable(why) if why.contains("groups without two eyes") => {
                        "not-checkable (too many groups)".to_string()
                    }
                    ResultCheck::NotCheckable(why) if why.contains("breaks a rule") => {
                        "not-checkable (a move breaks a rule)".to_string()
                    }
                    other => other.word().to_string(),
                };
                if matches!(j.check, ResultCheck::Disagrees)
                    && record
                        .komi
                        .as_ref()
                        .is_some_and(|k| k.komi.half_points() == 0)
                {
                    disagree_komi_zero += 1;
                }
                *checks.entry(key).or_default() += 1;
            }
        }
    }
    println!("{} files, {games} games", files.len());
    println!("refused ({}):", refused.len());
    for r in &refused {
        println!("  {r}");
    }
    println!(
        "moves that break the rules RU names ({}):",
        curiosities.len()
    );
    for c in &curiosities {
        println!("  {c}");
    }
    println!("counted results ({counted}): {checks:?}");

    // The one refusal: a komi written into HA.
    assert_eq!(
        refused,
        vec!["05001.sgf: key `HA`: `7.5` is not a number of handicap stones".to_string()]
    );
    assert_eq!(checks.values().sum::<usize>(), counted);

    // The figures README.md gives, regenerated here so they cannot go stale.
    let n = |key: &str| checks.get(key).copied().unwrap_or(0);
    let figures = format!(
        "- {files} records: {read} read, {refused} refused (`05001.sgf`: `HA[7.5]`, a komi written \
         as the handicap).\n\
         - {broken} records break the rules their `RU` names, every one by two moves in a row by \
         one player in the record itself (no pass recorded between them); no ko, superko, \
         suicide or occupied point.\n\
         - {counted} counted results: {agree} agree, {consistent} consistent, {disagree} disagree \
         ({disagree_komi_zero} of them recorded with `KM[0]`, where the server kept the komi \
         elsewhere), {unchecked} not checkable ({groups} with too many groups, {broken_count} \
         after a move that breaks a rule).\n",
        files = files.len(),
        read = games - refused.len(),
        refused = refused.len(),
        broken = curiosities.len(),
        agree = n("agrees"),
        consistent = n("consistent"),
        disagree = n("disagrees"),
        unchecked = n("not-checkable (too many groups)") + n("not-checkable (a move breaks a rule)"),
        groups = n("not-checkable (too many groups)"),
        broken_count = n("not-checkable (a move breaks a rule)"),
    );
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")).unwrap();
    assert!(
        readme.contains(&figures),
        "README.md's corpus figures are stale; they are now:\n{figures}"
    );
    assert!(counted > 500, "{counted} counted results");
    assert!(checks.get("agrees").copied().unwrap_or(0) > 0, "{checks:?}");
    assert!(
        checks.get("consistent").copied().unwrap_or(0) > 0,
        "{checks:?}"
    );
}
