//! Writing a scenario out in the format the loader reads.
//!
//! Two users: `goconform fuzz`, which turns a divergence into a file a person can review and
//! commit, and the round-trip property (a scenario written out and loaded again runs
//! identically), which is what keeps this writer and the loader in step. The text is laid out
//! the way the hand-written scenarios are: scenario-wide keys first, then `[[run]]`,
//! `[[expect]]` and `[[crosscheck]]` tables.

use std::fmt::Write as _;

use super::{Check, ExpectedVerdict, Scenario};
use crate::board::{Color, Point};
use crate::game::SetupHistory;
use crate::rules::Komi;

/// The scenario as TOML text that [`Scenario::parse`] reads back into the same scenario (the
/// same set-up, runs, events and expectations; line numbers are the new file's).
pub fn to_toml(scenario: &Scenario) -> String {
    let mut out = String::new();
    let s = scenario;
    line(&mut out, "id", &quote(&s.id));
    line(&mut out, "title", &quote(&s.title));
    if let Some(added) = &s.added {
        line(&mut out, "added", &quote(added));
    }
    line(
        &mut out,
        "clauses",
        &list(s.clauses.iter().map(|c| quote(c))),
    );
    if !s.description.is_empty() {
        line(&mut out, "description", &quote(&s.description));
    }
    line(&mut out, "checked", &quote(&s.checked));
    // The loader puts the runs of `rules` before the `[[run]]` tables, so the leading runs
    // that are a ruleset under its own name with only the scenario-wide overrides go in
    // `rules`, and every run from the first other one on is a `[[run]]` table: the order of
    // the runs (which `under` and reports follow) is kept.
    let plain = |r: &super::Run| r.label == r.ruleset && r.overrides == s.set;
    let leading = s.runs.iter().take_while(|r| plain(r)).count();
    let named: Vec<String> = s.runs[..leading]
        .iter()
        .map(|r| quote(&r.ruleset))
        .collect();
    if !named.is_empty() {
        line(&mut out, "rules", &list(named.into_iter()));
    }
    if !s.set.is_empty() {
        line(&mut out, "set", &inline_table(&s.set));
    }
    let (w, h) = (s.setup.width, s.setup.height);
    if w == h {
        line(&mut out, "size", &w.to_string());
    } else {
        line(&mut out, "size", &quote(&format!("{w}x{h}")));
    }
    if let Some(komi) = s.komi {
        line(&mut out, "komi", &number(komi.half_points()));
    }
    if s.one_stone_handicap {
        line(&mut out, "handicap", "1");
    } else if s.setup.handicap.is_empty() {
        line(&mut out, "to_move", &quote(&s.setup.to_move.to_string()));
    } else {
        line(&mut out, "handicap", &points(&s.setup.handicap));
        if s.setup.handicap_as_placed {
            line(&mut out, "handicap_as_placed", "true");
        }
    }
    if s.setup.history == SetupHistory::Excluded {
        line(&mut out, "setup_history", &quote("excluded"));
    }
    if !s.setup.stones.is_empty() {
        let _ = writeln!(
            out,
            "board = \"\"\"\n{}\"\"\"",
            diagram(&s.setup.stones, w, h)
        );
    }
    line(
        &mut out,
        "moves",
        &list(s.events.iter().map(|e| quote(&e.to_string()))),
    );
    for run in &s.runs[leading..] {
        out.push_str("\n[[run]]\n");
        line(&mut out, "name", &quote(&run.label));
        line(&mut out, "rules", &quote(&run.ruleset));
        // The scenario-wide overrides come first in every run's list; the rest are the run's.
        let own = run
            .overrides
            .strip_prefix(&s.set[..])
            .unwrap_or(&run.overrides);
        if !own.is_empty() {
            line(&mut out, "set", &inline_table(own));
        }
    }
    for e in &s.expectations {
        out.push_str("\n[[expect]]\n");
        line(&mut out, "after", &e.after.to_string());
        if e.runs.len() != s.runs.len() {
            let under = e.runs.iter().map(|&r| quote(&s.runs[r].label));
            line(&mut out, "under", &list(under));
        }
        for check in &e.checks {
            write_check(&mut out, check, w, h);
        }
        if let Some(note) = &e.note {
            line(&mut out, "note", &quote(note));
        }
    }
    for c in &s.crosschecks {
        out.push_str("\n[[crosscheck]]\n");
        line(&mut out, "engine", &quote(&c.engine));
        line(&mut out, "run", &quote(&s.runs[c.run].label));
        line(&mut out, "flags", &list(c.flags.iter().map(|f| quote(f))));
        if c.score {
            line(&mut out, "score", "true");
        }
    }
    out
}

fn write_check(out: &mut String, check: &Check, w: u8, h: u8) {
    let key = check.key();
    let value = match check {
        Check::Verdict(ExpectedVerdict::Legal) => "true".to_string(),
        Check::Verdict(ExpectedVerdict::Illegal(r))
        | Check::Verdict(ExpectedVerdict::Breach(r)) => quote(r.word()),
        Check::Verdict(ExpectedVerdict::Ruled(r)) => quote(r.word()),
        Check::Class(c) => quote(c.word()),
        Check::Captures(ps) | Check::SelfCaptures(ps) => points(ps),
        Check::Board(stones) => {
            let _ = writeln!(out, "board = \"\"\"\n{}\"\"\"", diagram(stones, w, h));
            return;
        }
        Check::Prisoners([b, wt]) | Check::Warnings([b, wt]) => format!("{{ B = {b}, W = {wt} }}"),
        Check::ToMove(c) => quote(&c.to_string()),
        Check::Phase(p) => quote(p.word()),
        Check::Result(r) => quote(r),
        Check::Score([b, wt]) => format!("{{ B = {}, W = {} }}", number(*b), number(*wt)),
    };
    line(out, key, &value);
}

fn line(out: &mut String, key: &str, value: &str) {
    let _ = writeln!(out, "{key} = {value}");
}

/// A TOML basic string. JSON's string escapes are a subset of TOML's, so serde_json quotes it.
fn quote(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_else(|_| "\"\"".to_string())
}

fn list(items: impl Iterator<Item = String>) -> String {
    format!("[{}]", items.collect::<Vec<_>>().join(", "))
}

fn points(ps: &[Point]) -> String {
    list(ps.iter().map(|p| quote(&p.to_string())))
}

/// `{ ko = "simple", komi = "6.5" }`: axis words as strings, which `set` accepts for every
/// axis, komi included.
fn inline_table(pairs: &[(String, String)]) -> String {
    let items: Vec<String> = pairs
        .iter()
        .map(|(k, v)| format!("{} = {}", bare_or_quoted(k), quote(v)))
        .collect();
    format!("{{ {} }}", items.join(", "))
}

fn bare_or_quoted(key: &str) -> String {
    if !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    {
        key.to_string()
    } else {
        quote(key)
    }
}

/// Half points as a TOML number: `7`, `7.5`, `-0.5`.
fn number(half_points: i32) -> String {
    Komi::from_half_points(half_points).to_string()
}

/// A board diagram, top row first, each row ending in a newline.
fn diagram(stones: &[(Point, Color)], width: u8, height: u8) -> String {
    let mut out = String::new();
    for row in (0..height).rev() {
        let cells: Vec<char> = (0..width)
            .map(|col| {
                let p = Point::new(col, row);
                stones
                    .iter()
                    .find(|(q, _)| *q == p)
                    .map_or('.', |(_, c)| c.stone_char())
            })
            .collect();
        let text: Vec<String> = cells.iter().map(char::to_string).collect();
        out.push_str(&text.join(" "));
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;
    use crate::spec::embedded;

    /// Every game scenario of the suite, written out and read back, is the same scenario.
    /// (Tournament scenarios are another format, which this writer does not produce.)
    #[test]
    fn the_suite_round_trips() {
        let spec = embedded::spec().unwrap();
        for (path, text) in embedded::scenario_texts() {
            if crate::scenario::tournament::is_tournament_text(&text) {
                continue;
            }
            let topic = crate::scenario::topic_of(&path);
            let first = Scenario::parse(&path, &text, &topic, &spec).unwrap();
            let written = to_toml(&first);
            let again = Scenario::parse(Path::new(&path), &written, &topic, &spec)
                .unwrap_or_else(|e| panic!("{}: {e:?}\n{written}", path.display()));
            assert_same(&first, &again, &written);
        }
    }

    pub(crate) fn assert_same(a: &Scenario, b: &Scenario, written: &str) {
        assert_eq!(a.id, b.id);
        assert_eq!(a.title, b.title);
        assert_eq!(a.description, b.description);
        assert_eq!(a.clauses, b.clauses);
        assert_eq!(a.checked, b.checked);
        assert_eq!(a.added, b.added);
        assert_eq!(a.setup, b.setup, "{written}");
        assert_eq!(a.set, b.set, "{written}");
        assert_eq!(a.komi, b.komi);
        assert_eq!(a.runs, b.runs, "{written}");
        assert_eq!(a.events, b.events);
        assert_eq!(a.crosschecks, b.crosschecks);
        assert_eq!(a.expectations.len(), b.expectations.len());
        for (x, y) in a.expectations.iter().zip(&b.expectations) {
            assert_eq!(
                (x.after, &x.runs, &x.checks, &x.note),
                (y.after, &y.runs, &y.checks, &y.note),
                "{written}"
            );
        }
    }
}
