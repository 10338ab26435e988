//! An engine's expectations file: the trials it is known to fail, each with a reason.
//!
//! ```toml
//! engine = "tiny-example"
//! interpretation = 1
//!
//! [[expected-failure]]
//! scenario = "superko-triple-ko"
//! run = "aga"                 # optional: every run of the scenario when left out
//! reason = "no superko"
//! link = "https://..."        # optional: an issue in the engine's tracker
//! ```
//!
//! A listed trial that fails is an expected failure; one that passes is an unexpected pass,
//! which fails the run, so the list cannot rot. Entries naming scenarios or runs the suite
//! does not have are errors for the same reason, and so is a file recorded under another
//! interpretation of the rules.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use toml::Spanned;

use super::Suite;
use crate::spec::location::{Located, Source};

/// One trial (or every run of one scenario) an engine is known to fail.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedFailure {
    /// The id of the scenario; the suite must have it.
    pub scenario: String,
    /// The run label; `None` for every run of the scenario.
    pub run: Option<String>,
    /// Why the engine fails the trial, in its maintainers' words; never empty, so that no
    /// failure is silenced without a word.
    pub reason: String,
    /// An issue in the engine's tracker about the failure, if there is one.
    pub link: Option<String>,
    /// The line of the entry (0 for entries made in code).
    pub line: usize,
}

/// A parsed expectations file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Expectations {
    /// The file read, named by errors about its entries (empty when not read from one).
    pub path: PathBuf,
    /// The engine the file was recorded for, as the file names it; only informative.
    pub engine: Option<String>,
    /// The listed failures in file order, no trial listed twice.
    pub entries: Vec<ExpectedFailure>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    engine: Option<String>,
    interpretation: Option<Spanned<u32>>,
    #[serde(default, rename = "expected-failure")]
    expected_failure: Vec<Spanned<RawEntry>>,
}

#[derive(Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
struct RawEntry {
    scenario: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    run: Option<String>,
    reason: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    link: Option<String>,
}

#[derive(Serialize)]
struct WrittenFile<'a> {
    engine: &'a str,
    interpretation: u32,
    #[serde(rename = "expected-failure")]
    expected_failure: Vec<RawEntry>,
}

impl Expectations {
    /// Reads an expectations file, reporting every problem with its line, column and key.
    /// `interpretation` is the suite's interpretation version, which the file must match.
    pub fn parse(
        path: &Path,
        text: &str,
        interpretation: u32,
    ) -> Result<Expectations, Vec<Located>> {
        let source = Source::new(path, text);
        let raw: RawFile = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
        let mut errors = Vec::new();
        if let Some(v) = &raw.interpretation {
            if *v.get_ref() != interpretation {
                errors.push(source.error(
                    &v.span(),
                    "interpretation",
                    format!(
                        "the file was recorded under interpretation {} of the suite, and this suite is interpretation {interpretation}: check the listed failures again and record the file anew (--write-expectations)",
                        v.get_ref()
                    ),
                ));
            }
        }
        let mut seen: HashMap<(String, Option<String>), usize> = HashMap::new();
        let mut entries = Vec::new();
        for (i, entry) in raw.expected_failure.iter().enumerate() {
            let span = entry.span();
            let (line, _) = source.line_column(span.start);
            let e = entry.get_ref();
            let key = format!("expected-failure[{i}]");
            if e.reason.trim().is_empty() {
                errors.push(source.error(&span, format!("{key}.reason"), "give a reason"));
            }
            let id = (e.scenario.clone(), e.run.clone());
            if let Some(first) = seen.insert(id, line) {
                errors.push(source.error(
                    &span,
                    key,
                    format!(
                        "`{}` is already listed at line {first}",
                        entry_name(&e.scenario, e.run.as_deref())
                    ),
                ));
            }
            entries.push(ExpectedFailure {
                scenario: e.scenario.clone(),
                run: e.run.clone(),
                reason: e.reason.clone(),
                link: e.link.clone(),
                line,
            });
        }
        if errors.is_empty() {
            Ok(Expectations {
                path: path.to_path_buf(),
                engine: raw.engine,
                entries,
            })
        } else {
            Err(errors)
        }
    }

    /// Entries that name a scenario, or a run of a scenario, that the suite does not have.
    pub fn unknown_in(&self, suite: &Suite) -> Vec<Located> {
        self.entries
            .iter()
            .enumerate()
            .filter_map(|(i, e)| {
                let problem = match suite.scenarios.iter().find(|s| s.id == e.scenario) {
                    None => format!("the suite has no scenario `{}`", e.scenario),
                    Some(s) => match &e.run {
                        Some(run) if !s.runs.iter().any(|r| &r.label == run) => {
                            let labels: Vec<&str> =
                                s.runs.iter().map(|r| r.label.as_str()).collect();
                            format!(
                                "scenario `{}` has no run `{run}` (its runs: {})",
                                e.scenario,
                                labels.join(", ")
                            )
                        }
                        _ => return None,
                    },
                };
                Some(Located {
                    file: self.path.clone(),
                    line: e.line,
                    column: 1,
                    key: format!("expected-failure[{i}]"),
                    message: problem,
                })
            })
            .collect()
    }

    /// The entry that lists a trial, if any: one for its run, else one for the scenario.
    pub fn lookup(&self, scenario: &str, run: &str) -> Option<&ExpectedFailure> {
        let for_run = self
            .entries
            .iter()
            .find(|e| e.scenario == scenario && e.run.as_deref() == Some(run));
        for_run.or_else(|| {
            self.entries
                .iter()
                .find(|e| e.scenario == scenario && e.run.is_none())
        })
    }

    /// The text of an expectations file listing `entries`, for `--write-expectations`.
    pub fn render(engine: &str, interpretation: u32, entries: &[ExpectedFailure]) -> String {
        let file = WrittenFile {
            engine,
            interpretation,
            expected_failure: entries
                .iter()
                .map(|e| RawEntry {
                    scenario: e.scenario.clone(),
                    run: e.run.clone(),
                    reason: e.reason.clone(),
                    link: e.link.clone(),
                })
                .collect(),
        };
        let body = toml::to_string(&file).unwrap_or_default();
        format!(
            "# Trials {engine} is known to fail. A listed trial that passes fails the run:\n# remove its entry then. Written by goconform --write-expectations.\n\n{body}"
        )
    }
}

/// How reports name a trial: `scenario` or `scenario[run]`.
pub fn entry_name(scenario: &str, run: Option<&str>) -> String {
    match run {
        Some(run) => format!("{scenario}[{run}]"),
        None => scenario.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Expectations, Vec<Located>> {
        Expectations::parse(Path::new("x.toml"), text, 1)
    }

    #[test]
    fn a_run_entry_wins_over_a_scenario_entry() {
        let e = parse(
            "engine = \"e\"\n[[expected-failure]]\nscenario = \"a\"\nreason = \"all\"\n\n[[expected-failure]]\nscenario = \"a\"\nrun = \"bga\"\nreason = \"one\"\n",
        )
        .unwrap();
        assert_eq!(e.lookup("a", "bga").unwrap().reason, "one");
        assert_eq!(e.lookup("a", "aga").unwrap().reason, "all");
        assert!(e.lookup("b", "aga").is_none());
        assert_eq!(e.entries[1].line, 6);
    }

    #[test]
    fn problems_are_located() {
        let errors = parse("[[expected-failure]]\nscenario = \"a\"\nreason = \"\"\n").unwrap_err();
        assert_eq!(errors[0].key, "expected-failure[0].reason");
        assert_eq!(errors[0].line, 1);
        let errors = parse("[[expected-failure]]\nscenario = \"a\"\nreasn = \"x\"\n").unwrap_err();
        assert_eq!(errors[0].line, 3, "{errors:?}");
        let errors = parse("interpretation = 7\n").unwrap_err();
        assert_eq!(errors[0].key, "interpretation");
        assert!(errors[0].message.contains("interpretation 7"));
    }

    #[test]
    fn duplicates_are_refused() {
        let text = "[[expected-failure]]\nscenario = \"a\"\nreason = \"x\"\n[[expected-failure]]\nscenario = \"a\"\nreason = \"y\"\n";
        let errors = parse(text).unwrap_err();
        assert!(
            errors[0].message.contains("already listed at line 1"),
            "{errors:?}"
        );
    }

    #[test]
    fn rendered_files_read_back() {
        let entries = vec![
            ExpectedFailure {
                scenario: "a".into(),
                run: Some("bga".into()),
                reason: "after move 2: verdict expected illegal ko, got legal".into(),
                link: None,
                line: 0,
            },
            ExpectedFailure {
                scenario: "b".into(),
                run: None,
                reason: "quote \" and newline\n".into(),
                link: Some("https://example.org/1".into()),
                line: 0,
            },
        ];
        let text = Expectations::render("eng", 1, &entries);
        let back = parse(&text).unwrap();
        assert_eq!(back.engine.as_deref(), Some("eng"));
        let strip = |v: &[ExpectedFailure]| {
            v.iter()
                .map(|e| {
                    (
                        e.scenario.clone(),
                        e.run.clone(),
                        e.reason.clone(),
                        e.link.clone(),
                    )
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&back.entries), strip(&entries));
    }
}
