//! How to start a GTP engine and what it can do: [`GtpProfile`], the GNU Go 3.8 profiles (one
//! per combination of its ko and suicide flags, each with the capabilities the flags really
//! give) and custom engines from a command line (`gtp:PROGRAM ARGS...`).

use std::path::Path;
use std::time::Duration;

use crate::conformance::{Capabilities, EventKind, Observable};
use crate::engines::process::split_command;
use crate::engines::profile::{Claims, EngineProfile};
use crate::game::Reason;
use crate::rules::{KoRule, SuicideRule};

/// The time limit of every command unless a profile says otherwise.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);

/// The largest answer (all its lines together) a profile accepts unless it says otherwise.
pub const DEFAULT_MAX_ANSWER: usize = 1024 * 1024;

/// How the bridge puts a set-up position on the engine's board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupMethod {
    /// `set_free_handicap` for handicap stones, `play` for the others (any GTP engine).
    Play,
    /// `loadsgf` of a temporary file with `AB`/`AW` stones (GNU Go): no moves, no history.
    LoadSgf,
}

/// How to start a GTP engine and what it can do.
#[derive(Clone, Debug)]
pub struct GtpProfile {
    /// The name reports and `--engine` use (`gnugo-positional`, `gtp:...`).
    pub name: String,
    /// One line for people: what the profile is.
    pub about: String,
    /// The program to start (a path, or a name looked up on the `PATH`).
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
    /// What the engine started this way really does (see the module documentation).
    pub capabilities: Capabilities,
    /// The time limit of every command.
    pub timeout: Duration,
    /// How set-up positions reach the engine's board.
    pub setup: SetupMethod,
    /// The largest answer accepted, in bytes.
    pub max_answer: usize,
    /// Commands sent after every start, each of which must succeed (KataGo's
    /// `kata-set-rules`, say): how an engine is put under the rules its profile claims.
    pub init: Vec<String>,
}

/// The capabilities of a GTP engine playing under one ko rule and one suicide rule (GNU Go
/// with its flags).
fn gtp_capabilities(ko: KoRule, suicide: SuicideRule) -> Capabilities {
    let mut judges = vec![Reason::Occupied, Reason::Suicide, Reason::Ko];
    if matches!(ko, KoRule::Positional | KoRule::Situational) {
        judges.push(Reason::Superko);
    }
    Capabilities::new()
        .observing([Observable::Board, Observable::Captures])
        .only("ko", [ko.word()])
        .only("suicide", [suicide.word()])
        .judging(judges)
        .taking([EventKind::Play, EventKind::Pass])
}

/// The GNU Go program: `$GNUGO` if set, else `gnugo` on the `PATH`, else
/// `/usr/games/gnugo` (Debian's place, often missing from `PATH`), else plain `gnugo`.
pub fn gnugo_program() -> String {
    if let Some(path) = std::env::var_os("GNUGO") {
        return path.to_string_lossy().into_owned();
    }
    let on_path = std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| dir.join("gnugo").is_file()));
    if !on_path && Path::new("/usr/games/gnugo").is_file() {
        return "/usr/games/gnugo".to_string();
    }
    "gnugo".to_string()
}

/// GNU Go 3.8, one profile per combination of its ko and suicide flags.
///
/// What GNU Go 3.8 has (`gnugo --help`, `engine/board.c: is_allowed_move`, which both
/// `is_legal` and `play` use), and how each flag maps onto our axes:
///
/// - ko: `--simple-ko` (the default) forbids only the immediate recapture of a single stone
///   that just captured a single stone, and any move (a pass included) clears the ban: our
///   `simple`. `--positional-superko` forbids recreating any earlier board (and the current
///   one, by a single-stone suicide): `positional`. `--situational-superko` forbids
///   recreating an earlier board with the same player to move, positions before passes
///   included (GNU Go records a pass in its move history like a move): `situational`.
///   GNU Go has no natural situational superko, and `--no-ko` (no ko rule at all) is none of
///   our values, so neither has a profile. Repetitions are found by comparing board hashes.
/// - suicide: `--forbid-suicide` (the default): `forbidden`. `--allow-suicide` allows
///   suicide "except single-stone suicide": a suicidal play is refused when the played stone
///   has no neighbour of its own colour, i.e. when it would remove only itself: our
///   `multi-stone`. `--allow-all-suicide`: `allowed`.
///
/// Verified through GTP on 5x5 boards (see `tests/gtp_bridge.rs`, which also runs the
/// suite's ko, superko and suicide scenarios through every profile): with White on A2 and B1,
/// `is_legal b A1` (a single-stone suicide) is 0 by default and with `--forbid-suicide` and
/// `--allow-suicide`, 1 with `--allow-all-suicide`; with White on A3, B2, B1 and Black on A2,
/// `is_legal b A1` (a two-stone suicide) is 0 by default and with `--forbid-suicide`, 1 with
/// `--allow-suicide` and `--allow-all-suicide`, and after `play b A1` both black stones are
/// gone and `captures white` is 2.
///
/// A known divergence, which the suite's scenarios document and the profiles keep (it is
/// GNU Go's, not a limit of GTP): with `--allow-all-suicide`, GNU Go does not test a
/// single-stone suicide for repetition, so under `--positional-superko` it allows the
/// suicide that leaves the board as it was, and under `--situational-superko` the one that
/// recreates a board with the same player to move (`single-stone-suicide`,
/// `single-stone-suicide-after-pass`, `last-liberty-only`, `pass-always-legal` fail under the
/// `tromp-taylor`, `logical-rules` and `new-zealand` runs). `goconform fuzz` found that the
/// same holds for a self-capture of several stones under `--allow-suicide` as well
/// (`multi-stone-suicide-empties-board`, `multi-stone-suicide-repeats-position`).
pub fn gnugo_profiles() -> Vec<GtpProfile> {
    let program = gnugo_program();
    let kos = [
        (KoRule::Simple, None, ""),
        (
            KoRule::Positional,
            Some("--positional-superko"),
            "-positional",
        ),
        (
            KoRule::Situational,
            Some("--situational-superko"),
            "-situational",
        ),
    ];
    let suicides = [
        (SuicideRule::Forbidden, None, ""),
        (
            SuicideRule::MultiStone,
            Some("--allow-suicide"),
            "-allow-suicide",
        ),
        (
            SuicideRule::Allowed,
            Some("--allow-all-suicide"),
            "-allow-all-suicide",
        ),
    ];
    let mut profiles = Vec::new();
    for (ko, ko_flag, ko_suffix) in kos {
        for (suicide, suicide_flag, suicide_suffix) in suicides {
            let mut args = vec!["--mode".to_string(), "gtp".to_string()];
            args.extend(ko_flag.map(str::to_string));
            args.extend(suicide_flag.map(str::to_string));
            profiles.push(GtpProfile {
                name: format!("gnugo{ko_suffix}{suicide_suffix}"),
                about: format!(
                    "GNU Go 3.8 over GTP ({}): ko={ko}, suicide={suicide}",
                    args.join(" ")
                ),
                program: program.clone(),
                args,
                capabilities: gtp_capabilities(ko, suicide),
                timeout: DEFAULT_TIMEOUT,
                setup: SetupMethod::LoadSgf,
                max_answer: DEFAULT_MAX_ANSWER,
                init: Vec::new(),
            });
        }
    }
    profiles
}

/// A named GNU Go profile (`gnugo`, `gnugo-positional-allow-all-suicide`, ...) or a custom
/// engine (`gtp:PROGRAM ARGS...`, see [`GtpProfile::command`]).
pub fn profile_by_name(name: &str) -> Option<GtpProfile> {
    if let Some(line) = name.strip_prefix("gtp:") {
        return GtpProfile::command(line).ok();
    }
    gnugo_profiles().into_iter().find(|p| p.name == name)
}

impl GtpProfile {
    /// A custom GTP engine from a command line (`PROGRAM ARGS...`, split into words as a POSIX
    /// shell would: quotes keep white space in an argument, a backslash escapes), with conservative capabilities: every axis value (the bridge cannot know
    /// the engine's rules), the basic tier, refusals for occupied points, suicide and ko only,
    /// plays and passes, and the board as its only observation. Its set-up stones go through
    /// `play`.
    pub fn command(line: &str) -> Result<GtpProfile, String> {
        let (program, args) = split_command(line)
            .map_err(|e| format!("a GTP engine needs a command, gtp:PROGRAM ARGS...: {e}"))?;
        Ok(GtpProfile {
            name: format!("gtp:{}", line.trim()),
            about: format!("a GTP engine: {}", line.trim()),
            program,
            args,
            capabilities: plain_gtp_capabilities(),
            timeout: DEFAULT_TIMEOUT,
            setup: SetupMethod::Play,
            max_answer: DEFAULT_MAX_ANSWER,
            init: Vec::new(),
        })
    }

    /// A GTP engine from a profile file: its command, set-up method, start-up commands and
    /// time limit, and the bridge's defaults with the profile's claims laid over them.
    pub fn from_profile(profile: &EngineProfile) -> GtpProfile {
        let words: Vec<&str> = std::iter::once(profile.program.as_str())
            .chain(profile.args.iter().map(String::as_str))
            .collect();
        GtpProfile {
            name: profile.name.clone(),
            about: format!("a GTP engine from a profile: {}", words.join(" ")),
            program: profile.program.clone(),
            args: profile.args.clone(),
            capabilities: profile.claims.over(&plain_gtp_capabilities()),
            timeout: profile.timeout.unwrap_or(DEFAULT_TIMEOUT),
            setup: if profile.setup_loadsgf {
                SetupMethod::LoadSgf
            } else {
                SetupMethod::Play
            },
            max_answer: DEFAULT_MAX_ANSWER,
            init: profile.init.clone(),
        }
    }

    /// The profile with claims laid over its capabilities (`--claim` settings).
    pub fn claiming(mut self, claims: &Claims) -> GtpProfile {
        self.capabilities = claims.over(&self.capabilities);
        self
    }
}

/// What the bridge assumes of a GTP engine nobody described: every axis value (GTP cannot
/// say which rules the engine plays), the board as the only observation, refusals for
/// occupied points, suicide and ko, plays and passes.
pub fn plain_gtp_capabilities() -> Capabilities {
    Capabilities::new()
        .observing([Observable::Board])
        .judging([Reason::Occupied, Reason::Suicide, Reason::Ko])
        .taking([EventKind::Play, EventKind::Pass])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_have_distinct_names_and_known_axes() {
        let profiles = gnugo_profiles();
        assert_eq!(profiles.len(), 9);
        let mut names: Vec<&str> = profiles.iter().map(|p| p.name.as_str()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), 9);
        for p in &profiles {
            assert!(p.capabilities.unknown_axes().is_empty(), "{}", p.name);
            assert!(!p.capabilities.observes(Observable::Reasons));
            assert_eq!(
                profile_by_name(&p.name).map(|q| q.args),
                Some(p.args.clone())
            );
        }
        let custom = profile_by_name("gtp:my-engine --level 3").unwrap();
        assert_eq!(custom.program, "my-engine");
        assert_eq!(custom.args, ["--level", "3"]);
        assert!(profile_by_name("gtp:").is_none());
        assert!(profile_by_name("gnugo-natural").is_none());
    }
}
