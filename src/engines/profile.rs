//! Engine profiles: how to start an engine in another process and what it claims to do.
//!
//! A GTP engine cannot say which rules it plays (GTP has no such command), and a JSON-lines
//! engine may declare more than it does under the settings it was started with. A profile
//! file, or `--claim AXIS=VALUES` settings on the command line, says it for them: the
//! harness, the fuzzer and the referee then put to the engine only what it claims, so that
//! every failure is one it can be held to.
//!
//! ```toml
//! # docs/profiles/gnugo.toml
//! protocol = "gtp"
//! command = ["gnugo", "--mode", "gtp", "--positional-superko"]
//! setup = "loadsgf"            # gtp only: how set-up stones reach the engine
//! init = []                    # gtp only: commands sent after every start (must succeed)
//! timeout = 10                 # seconds an answer may take
//! observes = ["board", "captures"]
//! judges = ["occupied", "suicide", "ko", "superko"]
//! events = ["play", "pass"]
//!
//! [rules]                      # per axis, the only values the engine plays; others: all
//! ko = ["positional"]
//! suicide = ["forbidden"]
//! ```
//!
//! Everything is checked against the project's own words (axes, values, observations,
//! reasons, event kinds); a mistake is an error with the file, line, column and key.

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;
use toml::Spanned;

use crate::conformance::{Capabilities, EventKind, Observable};
use crate::engines::process::split_command;
use crate::game::Reason;
use crate::rules::{Rules, AXES};
use crate::spec::location::{Located, Source};

/// The protocol an engine of a profile speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// GTP version 2.
    Gtp,
    /// The JSON-lines protocol of `docs/protocol.md`.
    Jsonl,
}

/// What an engine claims beyond what its protocol can say: restrictions of the axes, and the
/// observations, reasons and events it offers. A field left out keeps what the protocol
/// gives (for GTP the bridge's conservative defaults, for JSON lines the engine's own
/// `hello`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Claims {
    /// Per axis, the only values the engine plays.
    pub axes: BTreeMap<String, Vec<String>>,
    /// What it shows, if said.
    pub observes: Option<BTreeSet<Observable>>,
    /// The reasons it refuses moves for, if said.
    pub judges: Option<BTreeSet<Reason>>,
    /// The kinds of event it takes, if said.
    pub events: Option<BTreeSet<EventKind>>,
}

/// A profile read from a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineProfile {
    /// The name reports use: the `name` key, else `profile:` and the file's stem.
    pub name: String,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// The program to start.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// The time limit of one answer, if the profile sets one.
    pub timeout: Option<Duration>,
    /// GTP only: whether set-up stones go through `loadsgf` (else `play`).
    pub setup_loadsgf: bool,
    /// GTP only: commands sent after every start, each of which must succeed.
    pub init: Vec<String>,
    /// What it claims.
    pub claims: Claims,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawProfile {
    name: Option<Spanned<String>>,
    protocol: Spanned<String>,
    command: Spanned<RawCommand>,
    timeout: Option<Spanned<f64>>,
    setup: Option<Spanned<String>>,
    #[serde(default)]
    init: Vec<Spanned<String>>,
    #[serde(default)]
    rules: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    observes: Option<Vec<Spanned<String>>>,
    judges: Option<Vec<Spanned<String>>>,
    events: Option<Vec<Spanned<String>>>,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum RawCommand {
    Line(String),
    Words(Vec<String>),
}

impl Claims {
    /// Reads `AXIS=V1,V2` settings (`ko=simple`, `observes=board,captures`,
    /// `judges=occupied,suicide,ko`, `events=play,pass`), as `--claim` takes them.
    pub fn from_settings<S: AsRef<str>>(settings: &[S]) -> Result<Claims, String> {
        let mut claims = Claims::default();
        for setting in settings {
            let setting = setting.as_ref();
            let (key, values) = setting.split_once('=').ok_or_else(|| {
                format!("--claim `{setting}`: write AXIS=VALUE[,VALUE...], e.g. ko=simple")
            })?;
            let words: Vec<&str> = values
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .collect();
            claims.add(key.trim(), &words).map_err(|(i, why)| match i {
                Some(i) => format!("--claim `{setting}`: `{}`: {why}", words[i]),
                None => format!("--claim `{setting}`: {why}"),
            })?;
        }
        Ok(claims)
    }

    /// Adds one key's words; the error says which word (by index) or the key is wrong.
    fn add(&mut self, key: &str, words: &[&str]) -> Result<(), (Option<usize>, String)> {
        if words.is_empty() {
            return Err((None, "no value given".to_string()));
        }
        match key {
            "observes" => {
                let mut set = BTreeSet::new();
                for (i, w) in words.iter().enumerate() {
                    set.insert(Observable::from_word(w).ok_or_else(|| {
                        (
                            Some(i),
                            format!("not an observation; known: {}", observation_words()),
                        )
                    })?);
                }
                self.observes = Some(set);
            }
            "judges" => {
                let mut set = BTreeSet::new();
                for (i, w) in words.iter().enumerate() {
                    set.insert(reason_of(w).ok_or_else(|| {
                        (Some(i), format!("not a reason; known: {}", reason_words()))
                    })?);
                }
                self.judges = Some(set);
            }
            "events" => {
                let mut set = BTreeSet::new();
                for (i, w) in words.iter().enumerate() {
                    set.insert(event_of(w).ok_or_else(|| {
                        (
                            Some(i),
                            format!("not an event kind; known: {}", event_words()),
                        )
                    })?);
                }
                self.events = Some(set);
            }
            axis if AXES.contains(&axis) => {
                for (i, w) in words.iter().enumerate() {
                    Rules::default()
                        .set(axis, w)
                        .map_err(|e| (Some(i), e.to_string()))?;
                }
                self.axes.insert(
                    axis.to_string(),
                    words.iter().map(|w| (*w).to_string()).collect(),
                );
            }
            other => {
                return Err((
                    None,
                    format!(
                        "`{other}` is neither a rules axis ({}) nor observes, judges or events",
                        AXES.join(", ")
                    ),
                ))
            }
        }
        Ok(())
    }

    /// Whether nothing is claimed.
    pub fn is_empty(&self) -> bool {
        *self == Claims::default()
    }

    /// These claims laid over a GTP engine's capabilities: every field given replaces the
    /// bridge's default for it, axes are restricted, and an engine without `list_stones`
    /// still observes neither the board nor captures.
    pub fn over(&self, base: &Capabilities) -> Capabilities {
        let mut caps = base.clone();
        for (axis, values) in &self.axes {
            caps.axes.insert(axis.clone(), values.clone());
        }
        if let Some(observes) = &self.observes {
            caps.observes = observes.clone();
        }
        if let Some(judges) = &self.judges {
            caps.judges = Some(judges.clone());
        }
        if let Some(events) = &self.events {
            caps.events = Some(events.clone());
        }
        caps
    }

    /// These claims as a narrowing of what an engine declared itself (JSON lines): an axis
    /// keeps only the values both allow, and observations, reasons and events only those in
    /// both. A profile can take away; it cannot add what the engine does not declare.
    pub fn narrow(&self, declared: &Capabilities) -> Capabilities {
        let mut caps = declared.clone();
        for (axis, values) in &self.axes {
            let kept: Vec<String> = match declared.axes.get(axis) {
                Some(theirs) => values
                    .iter()
                    .filter(|v| theirs.contains(v))
                    .cloned()
                    .collect(),
                None => values.clone(),
            };
            caps.axes.insert(axis.clone(), kept);
        }
        if let Some(observes) = &self.observes {
            caps.observes = caps.observes.intersection(observes).copied().collect();
        }
        if let Some(judges) = &self.judges {
            caps.judges = Some(match &declared.judges {
                Some(theirs) => theirs.intersection(judges).copied().collect(),
                None => judges.clone(),
            });
        }
        if let Some(events) = &self.events {
            caps.events = Some(match &declared.events {
                Some(theirs) => theirs.intersection(events).copied().collect(),
                None => events.clone(),
            });
        }
        caps
    }

    /// The claims laid over other claims: a key given here wins.
    pub fn then(&self, later: &Claims) -> Claims {
        let mut merged = self.clone();
        merged.axes.extend(later.axes.clone());
        if later.observes.is_some() {
            merged.observes.clone_from(&later.observes);
        }
        if later.judges.is_some() {
            merged.judges.clone_from(&later.judges);
        }
        if later.events.is_some() {
            merged.events.clone_from(&later.events);
        }
        merged
    }
}

fn reason_of(word: &str) -> Option<Reason> {
    Reason::ALL.iter().copied().find(|r| r.word() == word)
}

fn event_of(word: &str) -> Option<EventKind> {
    EventKind::ALL.iter().copied().find(|e| e.word() == word)
}

fn observation_words() -> String {
    Observable::ALL
        .iter()
        .map(|o| o.word())
        .collect::<Vec<_>>()
        .join(", ")
}

fn reason_words() -> String {
    Reason::ALL
        .iter()
        .map(|r| r.word())
        .collect::<Vec<_>>()
        .join(", ")
}

fn event_words() -> String {
    EventKind::ALL
        .iter()
        .map(|e| e.word())
        .collect::<Vec<_>>()
        .join(", ")
}

impl EngineProfile {
    /// Reads a profile from its text; every problem found, each located.
    pub fn parse(path: &Path, text: &str) -> Result<EngineProfile, Vec<Located>> {
        let source = Source::new(path, text);
        let raw: RawProfile = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
        let mut problems = Vec::new();
        let mut error = |span: Range<usize>, key: &str, message: String| {
            problems.push(source.error(&span, key, message));
        };
        let protocol = match raw.protocol.get_ref().as_str() {
            "gtp" => Protocol::Gtp,
            "jsonl" => Protocol::Jsonl,
            other => {
                error(
                    raw.protocol.span(),
                    "protocol",
                    format!("`{other}` is not a protocol: gtp or jsonl"),
                );
                Protocol::Gtp
            }
        };
        let command = match raw.command.get_ref() {
            RawCommand::Line(line) => split_command(line),
            RawCommand::Words(words) => match words.split_first() {
                Some((program, args)) if !program.trim().is_empty() => {
                    Ok((program.clone(), args.to_vec()))
                }
                _ => Err("the command names no program".to_string()),
            },
        };
        let (program, args) = command.unwrap_or_else(|why| {
            error(raw.command.span(), "command", why);
            (String::new(), Vec::new())
        });
        let timeout = raw.timeout.as_ref().and_then(|t| {
            let seconds = *t.get_ref();
            let limit = (seconds.is_finite() && seconds > 0.0)
                .then(|| Duration::try_from_secs_f64(seconds).ok())
                .flatten();
            if limit.is_none() {
                error(
                    t.span(),
                    "timeout",
                    format!("{seconds} is not a positive number of seconds"),
                );
            }
            limit
        });
        let setup_loadsgf = match raw.setup.as_ref().map(|s| (s.get_ref().as_str(), s)) {
            None | Some(("play", _)) => false,
            Some(("loadsgf", _)) => true,
            Some((other, s)) => {
                error(
                    s.span(),
                    "setup",
                    format!("`{other}` is not a set-up method: play or loadsgf"),
                );
                false
            }
        };
        if protocol == Protocol::Jsonl {
            if let Some(s) = &raw.setup {
                error(
                    s.span(),
                    "setup",
                    "only a GTP engine takes a set-up method".to_string(),
                );
            }
            if let Some(first) = raw.init.first() {
                error(
                    first.span(),
                    "init",
                    "only a GTP engine takes start-up commands".to_string(),
                );
            }
        }
        let mut claims = Claims::default();
        let mut claim =
            |key: &str, label: String, values: &[Spanned<String>], span: Range<usize>| {
                let words: Vec<&str> = values.iter().map(|v| v.get_ref().as_str()).collect();
                match claims.add(key, &words) {
                    Ok(()) => None,
                    Err((Some(i), why)) => Some((values[i].span(), format!("{label}[{i}]"), why)),
                    Err((None, why)) => Some((span, label, why)),
                }
            };
        let mut claim_problems = Vec::new();
        for (axis, values) in &raw.rules {
            let label = format!("rules.{}", axis.get_ref());
            if !AXES.contains(&axis.get_ref().as_str()) {
                claim_problems.push((
                    axis.span(),
                    label,
                    format!(
                        "`{}` is not a rules axis; known: {}",
                        axis.get_ref(),
                        AXES.join(", ")
                    ),
                ));
                continue;
            }
            claim_problems.extend(claim(axis.get_ref(), label, values, axis.span()));
        }
        for (key, values) in [
            ("observes", &raw.observes),
            ("judges", &raw.judges),
            ("events", &raw.events),
        ] {
            if let Some(values) = values {
                let span = values.first().map_or(0..0, Spanned::span);
                claim_problems.extend(claim(key, key.to_string(), values, span));
            }
        }
        for (span, key, why) in claim_problems {
            error(span, &key, why);
        }
        let name = match &raw.name {
            Some(name) if !name.get_ref().trim().is_empty() => name.get_ref().trim().to_string(),
            Some(name) => {
                error(name.span(), "name", "the name is empty".to_string());
                String::new()
            }
            None => format!(
                "profile:{}",
                path.file_stem().map_or_else(
                    || path.display().to_string(),
                    |s| s.to_string_lossy().into_owned()
                )
            ),
        };
        if !problems.is_empty() {
            problems.sort_by_key(|p| (p.line, p.column));
            return Err(problems);
        }
        Ok(EngineProfile {
            name,
            protocol,
            program,
            args,
            timeout,
            setup_loadsgf,
            init: raw.init.into_iter().map(Spanned::into_inner).collect(),
            claims,
        })
    }

    /// Reads a profile file.
    pub fn read(path: &Path) -> Result<EngineProfile, String> {
        let text = crate::spec::location::read_text(path).map_err(|e| e.to_string())?;
        EngineProfile::parse(path, &text).map_err(|problems| {
            problems
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<EngineProfile, Vec<String>> {
        EngineProfile::parse(Path::new("p.toml"), text)
            .map_err(|e| e.iter().map(ToString::to_string).collect())
    }

    #[test]
    fn a_gtp_profile_reads_whole() {
        let p = parse(
            "protocol = \"gtp\"\ncommand = \"gnugo --mode gtp\"\nsetup = \"loadsgf\"\ntimeout = 2.5\ninit = [\"komi 0\"]\nobserves = [\"board\"]\n[rules]\nko = [\"simple\"]\nsuicide = [\"forbidden\"]\n",
        )
        .unwrap();
        assert_eq!(p.name, "profile:p");
        assert_eq!(p.protocol, Protocol::Gtp);
        assert_eq!(p.program, "gnugo");
        assert_eq!(p.args, ["--mode", "gtp"]);
        assert_eq!(p.timeout, Some(Duration::from_millis(2500)));
        assert!(p.setup_loadsgf);
        assert_eq!(p.init, ["komi 0"]);
        assert_eq!(p.claims.axes["ko"], ["simple"]);
        assert_eq!(
            p.claims.observes,
            Some([Observable::Board].into_iter().collect())
        );
    }

    #[test]
    fn every_mistake_is_located_with_its_key() {
        let errors = parse(
            "protocol = \"gtp\"\ncommand = [\"x\"]\n[rules]\nko = [\"simple\", \"super\"]\nkko = [\"simple\"]\n",
        )
        .unwrap_err();
        assert_eq!(errors.len(), 2, "{errors:?}");
        assert!(
            errors[0].starts_with("p.toml:4:17: key `rules.ko[1]`:"),
            "{errors:?}"
        );
        assert!(
            errors[1].starts_with("p.toml:5:1: key `rules.kko`:"),
            "{errors:?}"
        );
        assert!(errors[1].contains("not a rules axis"), "{errors:?}");
        let errors =
            parse("protocol = \"gtp\"\ncommand = \"x\"\nobserve = [\"board\"]\n").unwrap_err();
        assert!(errors[0].starts_with("p.toml:3:1:"), "{errors:?}");
        assert!(errors[0].contains("unknown field `observe`"), "{errors:?}");
        let errors = parse("protocol = \"jsonl\"\ncommand = \"x\"\ninit = [\"a\"]\n").unwrap_err();
        assert!(errors[0].contains("key `init`"), "{errors:?}");
        let errors = parse("protocol = \"gtp\"\ncommand = \"x 'y\"\n").unwrap_err();
        assert!(errors[0].contains("key `command`"), "{errors:?}");
    }

    #[test]
    fn settings_read_as_the_file_does() {
        let c = Claims::from_settings(&["ko=simple,positional", "judges=occupied,ko"]).unwrap();
        assert_eq!(c.axes["ko"], ["simple", "positional"]);
        assert_eq!(
            c.judges,
            Some([Reason::Occupied, Reason::Ko].into_iter().collect())
        );
        let why = Claims::from_settings(&["ko=simpel"]).unwrap_err();
        assert!(why.contains("`simpel`"), "{why}");
        assert!(Claims::from_settings(&["ko"]).is_err());
        assert!(Claims::from_settings(&["colour=black"]).is_err());
    }

    #[test]
    fn a_profile_narrows_what_an_engine_declares_and_never_widens_it() {
        let declared = Capabilities::new()
            .observing([Observable::Board, Observable::Reasons])
            .only("ko", ["simple", "positional"]);
        let claims =
            Claims::from_settings(&["ko=positional,situational", "observes=board,phase"]).unwrap();
        let caps = claims.narrow(&declared);
        assert_eq!(caps.axes["ko"], ["positional"]);
        assert_eq!(caps.observes, [Observable::Board].into_iter().collect());
        let over = claims.over(&declared);
        assert_eq!(over.axes["ko"], ["positional", "situational"]);
        assert!(over.observes(Observable::Phase));
    }
}
