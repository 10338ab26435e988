//! Checks over arbitrary bytes for every reader of outside input: the scenario loader, the
//! GTP engine and the JSON-lines server. Each returns `Err` with what went wrong for a
//! failure a fuzzer should report (a broken round trip, an answer out of protocol), and a
//! panic inside is the other kind of finding: the fuzz targets call these and nothing else,
//! and `tests/fuzz_corpus.rs` replays every committed input through them on stable.

use std::path::PathBuf;
use std::sync::OnceLock;

use crate::conformance::{run_scenario, Reference};
use crate::engines::protocol::{validate_reply, Request, RunRequest};
use crate::engines::serve::serve_referee;
use crate::scenario::{write, Scenario};
use crate::spec::{embedded, Spec};

/// The embedded specification, read once per process (a fuzzer calls a check many thousand
/// times a second).
fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| embedded::spec().expect("the embedded specification loads"))
}

/// The scenario loader on arbitrary bytes: it never panics, and a scenario it accepts is
/// written back out, read again into the same scenario, and run by the reference the same way
/// both times.
pub fn check_scenario(data: &[u8]) -> Result<(), String> {
    let text = String::from_utf8_lossy(data);
    // The loader wants a scenario in a file named after its id: name the file so, or no
    // input but one with the id `input` would get past that check to the round trip.
    let id = toml::from_str::<toml::Table>(&text)
        .ok()
        .and_then(|t| t.get("id").and_then(|v| v.as_str()).map(str::to_string))
        .filter(|id| crate::spec::is_slug(id))
        .unwrap_or_else(|| "input".to_string());
    let path = PathBuf::from(format!("conformance/fuzz/{id}.toml"));
    let path = path.as_path();
    let spec = spec();
    check_tournament_readers(path, &text, spec);
    let _ = Scenario::parse_record(path, &text, spec);
    let Ok(first) = Scenario::parse(path, &text, "fuzz", spec) else {
        return Ok(());
    };
    let written = write::to_toml(&first);
    let again = Scenario::parse(path, &written, "fuzz", spec).map_err(|e| {
        let problems: Vec<String> = e.iter().map(ToString::to_string).collect();
        format!(
            "a scenario written back out does not load:\n{}\n{written}",
            problems.join("\n")
        )
    })?;
    same_scenario(&first, &again).map_err(|what| format!("{what} changed in:\n{written}"))?;
    let all = |_: &str| true;
    let a = run_scenario(&first, 0, &mut Reference::new(), &all);
    let b = run_scenario(&again, 0, &mut Reference::new(), &all);
    let outcomes = |t: &[crate::conformance::Trial]| -> Vec<(String, Vec<crate::game::Verdict>)> {
        t.iter()
            .map(|t| (t.outcome.word().to_string(), t.verdicts.clone()))
            .collect()
    };
    if outcomes(&a) != outcomes(&b) {
        return Err(format!(
            "a scenario written back out runs differently:\n{written}"
        ));
    }
    Ok(())
}

/// The tournament readers on the same text: a tournament scenario (whose cases are then run
/// by the harness), a crosstable read as TOML and as CSV (then ranked under every tiebreak
/// method), and a clock file (then replayed). None may panic; what they refuse is refused
/// with located errors, which is all a fuzzer can ask of arbitrary text.
fn check_tournament_readers(path: &std::path::Path, text: &str, spec: &Spec) {
    use crate::scenario::tournament::{read_clock_file, read_crosstable, TournamentScenario};
    use crate::tournament::clock::Clocks;
    use crate::tournament::tiebreak::{standings, Tiebreak};
    if let Ok(scenario) = TournamentScenario::parse(path, text, "fuzz", spec) {
        let _ = crate::conformance::tournament::run(&scenario);
    }
    for name in ["table.toml", "table.csv"] {
        if let Ok(file) = read_crosstable(std::path::Path::new(name), text) {
            let _ = standings(&file.table, &file.tiebreak, file.seed, &file.prizes);
            let _ = standings(&file.table, &Tiebreak::ALL, file.seed, &file.prizes);
        }
    }
    if let Ok(file) = read_clock_file(std::path::Path::new("clock.toml"), text) {
        let mut clocks = Clocks::new(file.control, file.first).with_stops(file.stops);
        for event in &file.events {
            let _ = clocks.apply(event.at, event.event);
            let _ = clocks.to_string();
        }
    }
}

/// The SGF reader's fast path against `sgf-parse` on arbitrary bytes (decoded as the reader
/// decodes them): wherever [`crate::sgf::fast::main_lines`] reads a text, `sgf-parse` reads
/// the same games with the same main lines (the `sgf_fast` fuzz target).
pub fn check_sgf_fast(data: &[u8]) -> Result<(), String> {
    let Ok((text, _)) = crate::sgf::text::decode(data) else {
        return Ok(());
    };
    match crate::sgf::fast::disagreement(&text) {
        Some(problem) => Err(problem),
        None => Ok(()),
    }
}

/// An SGF file on arbitrary bytes: reading never panics, and every game it accepts is played
/// through the reference under the ruleset its `RU` names (else `aga`) without a panic, as
/// `show`, `score` and `ruling` play it.
pub fn check_sgf(data: &[u8]) -> Result<(), String> {
    use crate::sgf::{convert, read, ReadOptions};
    let path = std::path::Path::new("input.sgf");
    let Ok(games) = read(path, data, &ReadOptions::default()) else {
        return Ok(());
    };
    for record in games.into_iter().flatten() {
        let rulesets =
            convert::rulesets_for(&record, &[]).unwrap_or_else(|_| vec!["aga".to_string()]);
        let Ok(scenario) = convert::to_scenario(&record, &rulesets, spec()) else {
            continue;
        };
        let all = |_: &str| true;
        for trial in run_scenario(&scenario, 0, &mut Reference::new(), &all) {
            if trial.outcome.word() == "error" {
                return Err(format!(
                    "the reference could not play an accepted record under {}: {:?}",
                    trial.run, trial.outcome
                ));
            }
        }
    }
    Ok(())
}

/// Which part of two loaded scenarios differs, if any (line numbers aside).
pub fn same_scenario(a: &Scenario, b: &Scenario) -> Result<(), &'static str> {
    let parts: [(&str, bool); 12] = [
        ("the id", a.id == b.id),
        ("the title", a.title == b.title),
        ("the description", a.description == b.description),
        ("the clauses", a.clauses == b.clauses),
        ("checked", a.checked == b.checked),
        ("added", a.added == b.added),
        ("the set-up", a.setup == b.setup),
        ("the overrides", a.set == b.set && a.komi == b.komi),
        ("the runs", a.runs == b.runs),
        ("the events", a.events == b.events),
        ("the cross-checks", a.crosschecks == b.crosschecks),
        (
            "the expectations",
            a.expectations.len() == b.expectations.len()
                && a.expectations.iter().zip(&b.expectations).all(|(x, y)| {
                    (x.after, &x.runs, &x.checks, &x.note) == (y.after, &y.runs, &y.checks, &y.note)
                }),
        ),
    ];
    match parts.iter().find(|(_, same)| !same) {
        Some((what, _)) => Err(what),
        None => Ok(()),
    }
}

/// The GTP engine on arbitrary bytes as its input, with file access off: the session never
/// fails or panics, every answer starts with `=` or `?`, and no file is read or written.
pub fn check_gtp(data: &[u8]) -> Result<(), String> {
    let spec = spec();
    let resolve = |name: &str| spec.rules(name);
    let rules = spec.rules("aga").unwrap_or_default();
    let mut output = Vec::new();
    // File access is off: the input names files at random, and a fuzzer must not read or
    // write them (`printsgf FILE` once left files in the working folder).
    crate::gtp::serve_with(
        data,
        &mut output,
        rules,
        "aga".to_string(),
        &resolve,
        crate::gtp::FileAccess::Refused,
    )
    .map_err(|e| format!("the GTP session failed: {e}"))?;
    let text = String::from_utf8_lossy(&output);
    // Answers are separated by an empty line; an answer's first line holds its status.
    let mut starts = true;
    for line in text.split('\n') {
        if starts && !line.is_empty() && !line.starts_with('=') && !line.starts_with('?') {
            return Err(format!("an answer does not start with = or ?: `{line}`"));
        }
        starts = line.is_empty();
    }
    Ok(())
}

/// The JSON-lines server on arbitrary bytes as its input: it never fails or panics, every
/// reply is a valid protocol message, and every `run` request it can read encodes back to
/// itself.
pub fn check_jsonl(data: &[u8]) -> Result<(), String> {
    let mut output = Vec::new();
    serve_referee(&mut Reference::new(), data, &mut output)
        .map_err(|e| format!("the server failed: {e}"))?;
    for line in String::from_utf8_lossy(&output).lines() {
        validate_reply(line).map_err(|problems| {
            format!(
                "the reply `{line}` breaks the protocol: {}",
                problems.join("; ")
            )
        })?;
    }
    for line in String::from_utf8_lossy(data).lines() {
        let Ok(Request::Run(run)) = serde_json::from_str::<Request>(line.trim()) else {
            continue;
        };
        let Ok((rules, setup, events, observe)) = run.decode() else {
            continue;
        };
        let again = RunRequest::new(run.id.clone(), &rules, &setup, &events, &observe);
        let decoded = again.decode().map_err(|e| {
            format!("a run request encoded from a decoded one does not decode: {e}")
        })?;
        if decoded != (rules, setup, events, observe) {
            return Err(format!("a run request does not round-trip: `{line}`"));
        }
    }
    Ok(())
}

/// The SGF reader's consistency with `judge`, on arbitrary bytes: every game of a file that
/// `judge` calls legal under the ruleset its `RU` names (else `aga`) is replayed afresh
/// through the referee (`Refereed`, as `ruling` plays a record), from its set-up, and every
/// move (with the disputes a record implies) must be accepted; `judge` must also count every
/// move of the record as played. A record whose set-up is refused, or that judge tallies as
/// legal without replaying it, is a finding.
pub fn check_sgf_judge(data: &[u8]) -> Result<(), String> {
    use crate::game::{Refereed, Verdict};
    use crate::sgf::{convert, judge, read, ReadOptions};
    let path = std::path::Path::new("input.sgf");
    let Ok(games) = read(path, data, &ReadOptions::default()) else {
        return Ok(());
    };
    for (game, record) in games.into_iter().enumerate() {
        let Ok(record) = record else { continue };
        let names = convert::rulesets_for(&record, &[]).unwrap_or_else(|_| vec!["aga".to_string()]);
        for name in names {
            let Ok(rules) = spec().rules(&name) else {
                continue;
            };
            let judgement = judge::judge(&record, &name, rules, spec());
            // Only a record judge replayed and found legal is held to it: one it did not judge
            // (a set-up the rules cannot start from) or that breaks a rule is not. One with
            // set-up after a move restarts from the new position, which this plain replay from
            // the first set-up cannot follow.
            if judgement.violation.is_some()
                || judgement.not_judged.is_some()
                || !record.setup_changes.is_empty()
            {
                continue;
            }
            let at = |what: String| {
                format!(
                    "game {} under {name}: judge calls it legal, {what}",
                    game + 1
                )
            };
            if judgement.moves_played != record.events.len() {
                return Err(at(format!(
                    "but played {} of its {} moves",
                    judgement.moves_played,
                    record.events.len()
                )));
            }
            let rules = judge::rules_for(&record, rules);
            let mut referee = Refereed::new(rules, &record.setup)
                .map_err(|e| at(format!("but its set-up is refused: {e}")))?;
            for (event, number) in convert::with_disputes(&record) {
                let shown = event.to_string();
                match referee.apply(event) {
                    Verdict::Legal { .. } => {}
                    other => {
                        return Err(at(format!(
                            "but move {number} ({shown}) is not accepted: {other:?}"
                        )))
                    }
                }
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_scenario_of_the_suite_passes_the_loader_check() {
        for (_, text) in embedded::scenario_texts() {
            check_scenario(text.as_bytes()).unwrap();
        }
    }

    #[test]
    fn garbage_is_harmless_everywhere() {
        for input in [
            &b""[..],
            b"\xff\xfe\x00",
            b"id = 3\nsize = [",
            b"boardsize 99\nplay b z99\ngenmove w\nundo\nundo\n",
            b"{\"type\":\"run\"}\n{}\nnot json\n",
        ] {
            check_scenario(input).unwrap();
            check_gtp(input).unwrap();
            check_jsonl(input).unwrap();
        }
    }

    #[test]
    fn the_gtp_check_reads_and_writes_no_file() {
        // The reproduction: the gtp_input target once left a file named `p` (and others) in
        // the folder it ran from. A name no test uses, in the current folder.
        let name = format!("goconform-fuzz-probe-{}", std::process::id());
        let session = format!("play b a1\nprintsgf {name}\nloadsgf {name}\n");
        check_gtp(session.as_bytes()).unwrap();
        assert!(
            !std::path::Path::new(&name).exists(),
            "printsgf wrote {name}"
        );
    }

    #[test]
    fn a_run_request_round_trips() {
        let line = br#"{"type":"run","id":"t1","rules":{"draws":"jigo","ending":"agreement","handicap-compensation":"none","handicap-komi":"0","handicap-placement":"fixed","illegal-move":"none","ko":"simple","komi":"6.5","pass-stones":"off","scoring":"territory","seki-eyes":"neutral","suicide":"forbidden","white-passes-last":"no"},"setup":{"width":5,"height":5,"stones":[["A3","B"],["B3","W"]],"handicap":[],"to_move":"B","history":"played","handicap_as_placed":false},"events":["B C3","W B2"],"observe":["board"]}"#;
        check_jsonl(line).unwrap();
    }
}
