//! Tournament scenarios, crosstables and clock event files: reading them into the typed values
//! of [`crate::tournament`].
//!
//! A tournament scenario is a `[scenario]` header (id, title, kind, clauses, description,
//! checked, added) and `[[case]]` tables, each with its inputs and what must come out. The
//! `kind` says what every case of the file is about (`rank`, `handicap`, `komi`, `nigiri`,
//! `time-control`, `clock`, `round-start`, `standings`, `refereed-game`), so each case has a closed set of keys and a typo is an
//! error. Expectations are kept as (key, expected text) pairs in a canonical form (ranks as
//! `3k`, durations as `1:30`, half points as `2.5`), and the conformance layer compares them with
//! the same rendering of what the reference computed.
//!
//! The same readers take the command line's inputs: a crosstable in TOML or CSV
//! ([`read_crosstable`]) and a clock event file ([`read_clock_file`]). Every problem is reported
//! with file, line, column and key, all of them, not only the first.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::rules::Komi;
use crate::spec::location::{Located, Source};
use crate::spec::{is_slug, Spec};
use crate::tournament::handicap::{KomiRule, System};
use crate::tournament::rank::Rank;
use crate::tournament::time_control::TimeControl;

mod cases;
mod clock;
mod crosstable;
mod refereed;
mod values;

use cases::*;
use clock::*;
pub use clock::{event_error, parse_event, read_clock_file, ClockFile, TimedEvent};
use crosstable::*;
pub use crosstable::{read_crosstable, CrosstableFile};
use refereed::*;
pub use values::parse_money;
use values::*;

/// The kinds of tournament scenario, one per file.
pub const KINDS: [&str; 9] = [
    "rank",
    "handicap",
    "komi",
    "nigiri",
    "time-control",
    "clock",
    "round-start",
    "standings",
    "refereed-game",
];

/// The name of the built-in komi rule of the 1988 Tournament Rules (VI.A.3).
pub const AGA_1988: &str = "aga-tournament-1988";

/// A checked tournament scenario.
#[derive(Clone, Debug)]
pub struct TournamentScenario {
    /// The scenario's slug, which is also its file name without `.toml`.
    pub id: String,
    /// One line saying what the scenario pins down.
    pub title: String,
    /// What every case of the file is about: one of [`KINDS`].
    pub kind: String,
    /// The clauses the cases pin down, by id; at least one, each known to the spec.
    pub clauses: Vec<String>,
    /// The situation and the reasoning behind the expected values, for readers.
    pub description: String,
    /// What second source the expectations were checked against, and how (never empty).
    pub checked: String,
    /// The suite version the scenario was added in, where the file says.
    pub added: Option<String>,
    /// The file it was read from.
    pub path: PathBuf,
    /// The folder under conformance/ it lives in.
    pub topic: String,
    /// The `[[case]]` tables in file order, each of the file's kind; at least one.
    pub cases: Vec<Case>,
}

/// One case: inputs and expectations.
#[derive(Clone, Debug)]
pub struct Case {
    /// What the case shows, as reports and the book name it.
    pub name: String,
    /// The line of the file the case starts on (1-based), for reports.
    pub line: usize,
    /// A remark for readers, shown with the case.
    pub note: Option<String>,
    /// What the case feeds the tournament module.
    pub input: Input,
    /// What must come out; a case states at least one value.
    pub expect: Vec<Expect>,
}

/// What a case feeds the tournament module.
#[derive(Clone, Debug)]
pub enum Input {
    /// The rank a rating gives (VI.A.1.c) and whether the player may enter at a rank
    /// (VI.A.1.d).
    Rank {
        /// The AGA rating, sign included: negative ratings give kyu ranks.
        rating: i64,
        /// The rank the player asks to enter at (VI.A.1.d).
        entry: Option<Rank>,
    },
    /// The handicap between two players (VI.A.2): the stones and who takes Black.
    Handicap {
        /// The two players' ranks, in the order the case lists them.
        ranks: [Rank; 2],
        /// By difference in rank, or in McMahon band with the case's bar and floor.
        system: System,
    },
    /// White's komi and the result of a count under one text's komi and draw rule (VI.A.3,
    /// London Open rule 1, a ruleset's values).
    Komi {
        /// The 1988 Tournament Rules' rule ([`AGA_1988`]) or a ruleset's.
        rule: KomiRule,
        /// Handicap stones: 0 for an even game; one stone already makes a handicap game.
        stones: u8,
        /// Black's lead on the board before komi (after any handicap compensation), in half
        /// points; negative when White leads.
        margin: Komi,
    },
    /// Colours by the players' own lot (VI.A.4.c).
    Nigiri {
        /// White stones in the holder's hand.
        handful: u32,
        /// Black stones the guesser shows: one calls odd, two even; any other number is
        /// refused.
        shown: u32,
    },
    /// A time control: whether it can be played at all, and whether it is rated (VI.E.1).
    TimeControl(TimeControl),
    /// The clocks of one game fed timed events, with expectations after given events (VI.E).
    Clock(ClockFile),
    /// VI.E.3: times of the day in ms.
    RoundStart {
        /// A start time announced earlier, if any: the round may not start before it.
        announced: Option<u64>,
        /// When the TD gave notice of the start.
        notice: u64,
        /// When the round is to start.
        start: u64,
    },
    /// A game between two scripted programs run through the match referee (VII.C.2 and the
    /// rulesets' procedures for an illegal move).
    RefereedGame {
        /// The ruleset's name, for readers.
        ruleset: String,
        /// The rules the referee judges by.
        rules: crate::rules::Rules,
        /// The side of the square board.
        size: u8,
        /// What an illegal move costs.
        illegal_moves: crate::referee::IllegalMoves,
        /// Each program's moves in the order it gives them, Black's first.
        scripts: [Vec<crate::referee::player::Generated>; 2],
        /// The stones each program calls dead whenever it is asked, Black's first.
        dead: [Vec<crate::board::Point>; 2],
    },
    /// Final standings of a crosstable under a tiebreak order, with prizes (VI.F and
    /// "Resolving Ties").
    Standings(CrosstableFile),
}

impl Input {
    /// The inputs in words, for the kinds whose inputs a reader cannot guess from the case's
    /// name (a refereed game's scripts); `None` for the others.
    pub fn summary(&self) -> Option<String> {
        let Input::RefereedGame {
            ruleset,
            size,
            illegal_moves,
            scripts,
            dead,
            ..
        } = self
        else {
            return None;
        };
        let moves = |script: &[crate::referee::player::Generated]| -> String {
            script
                .iter()
                .map(|g| match g {
                    crate::referee::player::Generated::Move(m) => m.to_string(),
                    crate::referee::player::Generated::Resign => "resign".to_string(),
                })
                .collect::<Vec<_>>()
                .join(" ")
        };
        let points = |ps: &[crate::board::Point]| -> String {
            if ps.is_empty() {
                "none".to_string()
            } else {
                ps.iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(" ")
            }
        };
        let policy = match illegal_moves {
            crate::referee::IllegalMoves::Lose => "an illegal move loses",
            crate::referee::IllegalMoves::Procedure => "illegal moves by the ruleset's procedure",
        };
        Some(format!(
            "Under {ruleset}, {size}x{size}, {policy}. Black's program plays {}; White's {}. Dead stones: Black's program calls {}, White's {}.",
            moves(&scripts[0]),
            moves(&scripts[1]),
            points(&dead[0]),
            points(&dead[1])
        ))
    }
}

/// One expected value, in canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// For clocks: the event after which it holds (1-based; 0 is before the first).
    pub after: Option<usize>,
    /// What is expected: the case's key (`stones`, `result`, `refused`), for a player's
    /// clock `black.phase`, `white.left` and the like.
    pub key: String,
    /// The value in canonical text, compared with the same rendering of what the reference
    /// computes.
    pub expected: String,
    /// The line of the file the value is written on (1-based), for reports.
    pub line: usize,
}

/// Whether a scenario file's text is a tournament scenario (it has a `[scenario]` table).
pub fn is_tournament_text(text: &str) -> bool {
    // Read off the lines, not by parsing: a tournament file with a value TOML cannot hold must
    // still go to the tournament reader, which locates it (a failed parse here sent it to the
    // board reader, which said only "unknown field `case`"), and a parse only to classify
    // doubled the cost of loading the suite.
    text.lines().map(str::trim_start).any(|line| {
        line.strip_prefix("[scenario")
            .is_some_and(|rest| rest.trim_start().starts_with([']', '.']))
    })
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawHeader {
    id: Spanned<String>,
    title: String,
    /// Read first through a peek (it decides the type of the cases); kept here so that the
    /// header refuses unknown keys.
    #[allow(dead_code)]
    kind: Spanned<String>,
    clauses: Spanned<Vec<Spanned<String>>>,
    #[serde(default)]
    description: String,
    checked: Spanned<String>,
    added: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile<C> {
    scenario: RawHeader,
    #[serde(default = "Vec::new")]
    case: Vec<Spanned<C>>,
}

impl TournamentScenario {
    /// Reads one tournament scenario file.
    pub fn parse(
        path: &Path,
        text: &str,
        topic: &str,
        spec: &Spec,
    ) -> Result<TournamentScenario, Vec<Located>> {
        let source = Source::new(path, text);
        #[derive(Deserialize)]
        struct Peek {
            scenario: PeekHeader,
        }
        #[derive(Deserialize)]
        struct PeekHeader {
            kind: Option<Spanned<String>>,
        }
        // One parse serves both the peek at the kind and the reading of the cases.
        let document = toml::de::DeTable::parse(text).map_err(|e| vec![source.from_toml(&e)])?;
        let header_only = {
            let mut table = toml::de::DeTable::new();
            if let Some((key, value)) = document
                .get_ref()
                .iter()
                .find(|(k, _)| *k.get_ref() == "scenario")
            {
                table.insert(key.clone(), value.clone());
            }
            Spanned::new(document.span(), table)
        };
        let peek = Peek::deserialize(toml::de::Deserializer::from(header_only))
            .map_err(|e| vec![source.from_toml(&e)])?;
        let kind = match peek.scenario.kind {
            Some(k) if KINDS.contains(&k.get_ref().as_str()) => k.get_ref().clone(),
            Some(k) => {
                return Err(vec![source.error(
                    &k.span(),
                    "scenario.kind",
                    format!(
                        "`{}` is not a kind of tournament scenario: {}",
                        k.get_ref(),
                        KINDS.join(", ")
                    ),
                )])
            }
            None => {
                return Err(vec![source.error_at(
                    0,
                    "scenario.kind",
                    format!("missing `kind`: one of {}", KINDS.join(", ")),
                )])
            }
        };
        let mut errors = Vec::new();
        let parsed = match kind.as_str() {
            "rank" => read::<RankCase>(&source, document, &mut errors, rank_case),
            "handicap" => read::<HandicapCase>(&source, document, &mut errors, handicap_case),
            "komi" => {
                read::<KomiCase>(&source, document, &mut errors, |c, r| komi_case(c, r, spec))
            }
            "nigiri" => read::<NigiriCase>(&source, document, &mut errors, nigiri_case),
            "time-control" => {
                read::<TimeControlCase>(&source, document, &mut errors, time_control_case)
            }
            "clock" => read::<ClockCase>(&source, document, &mut errors, clock_case),
            "round-start" => {
                read::<RoundStartCase>(&source, document, &mut errors, round_start_case)
            }
            "refereed-game" => read::<RefereedGameCase>(&source, document, &mut errors, |c, r| {
                refereed_game_case(c, r, spec)
            }),
            _ => read::<StandingsCase>(&source, document, &mut errors, standings_case),
        };
        let Some((header, cases)) = parsed else {
            return Err(never_empty(&source, errors));
        };
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let id = header.id.get_ref().clone();
        if !is_slug(&id) {
            errors.push(source.error(
                &header.id.span(),
                "scenario.id",
                "a scenario id is lowercase letters, digits and dashes",
            ));
        } else if id != stem {
            errors.push(source.error(
                &header.id.span(),
                "scenario.id",
                format!("scenario `{id}` must live in a file named {id}.toml (found {stem}.toml)"),
            ));
        }
        if header.clauses.get_ref().is_empty() {
            errors.push(source.error(
                &header.clauses.span(),
                "scenario.clauses",
                "a scenario cites at least one clause",
            ));
        }
        for (i, c) in header.clauses.get_ref().iter().enumerate() {
            if spec.clause(c.get_ref()).is_none() {
                errors.push(source.error(
                    &c.span(),
                    format!("scenario.clauses[{i}]"),
                    format!("unknown clause `{}`", c.get_ref()),
                ));
            }
        }
        if header.checked.get_ref().trim().is_empty() {
            errors.push(source.error(
                &header.checked.span(),
                "scenario.checked",
                "say what second source the expectations were checked against",
            ));
        }
        if cases.is_empty() && errors.is_empty() {
            errors.push(source.error_at(
                0,
                "case",
                "a tournament scenario has at least one `[[case]]`",
            ));
        }
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(TournamentScenario {
            id,
            title: header.title,
            kind,
            clauses: header
                .clauses
                .into_inner()
                .into_iter()
                .map(Spanned::into_inner)
                .collect(),
            description: header.description,
            checked: header.checked.into_inner(),
            added: header.added,
            path: path.to_path_buf(),
            topic: topic.to_string(),
            cases,
        })
    }
}

/// Reads the parsed file as cases of type `C`, converting each with `convert`.
fn read<C: serde::de::DeserializeOwned + Named>(
    source: &Source,
    document: Spanned<toml::de::DeTable<'_>>,
    errors: &mut Vec<Located>,
    convert: impl Fn(&C, &mut Ctx) -> Option<Input>,
) -> Option<(RawHeader, Vec<Case>)> {
    let raw = RawFile::<C>::deserialize(toml::de::Deserializer::from(document));
    let raw: RawFile<C> = match raw {
        Ok(raw) => raw,
        Err(e) => {
            errors.push(source.from_toml(&e));
            return None;
        }
    };
    let mut cases = Vec::new();
    for (i, case) in raw.case.iter().enumerate() {
        let mut ctx = Ctx {
            source,
            errors,
            prefix: format!("case[{i}]"),
            expect: Vec::new(),
        };
        let before = ctx.errors.len();
        let input = convert(case.get_ref(), &mut ctx);
        if input.is_none() && ctx.errors.len() == before {
            // A case is never dropped without saying why: the file would report fewer
            // cases, all passed.
            ctx.err(
                &case.span(),
                "",
                "this case cannot be read (and no reason was found: a bug in goconform)",
            );
        }
        let (name, note) = case.get_ref().named();
        let line = ctx.line(&case.span());
        if ctx.expect.is_empty() {
            ctx.err(
                &case.span(),
                "",
                "a case states at least one expected value",
            );
        }
        let expect = std::mem::take(&mut ctx.expect);
        if let Some(input) = input {
            cases.push(Case {
                name,
                line,
                note,
                input,
                expect,
            });
        }
    }
    Some((raw.scenario, cases))
}

/// The name and note every case kind has.
trait Named {
    fn named(&self) -> (String, Option<String>);
}

macro_rules! named {
    ($($t:ty),*) => {
        $(impl Named for $t {
            fn named(&self) -> (String, Option<String>) {
                (self.name.clone(), self.note.clone())
            }
        })*
    };
}

named!(
    RankCase,
    HandicapCase,
    KomiCase,
    NigiriCase,
    TimeControlCase,
    ClockCase,
    RoundStartCase,
    StandingsCase,
    RefereedGameCase
);

/// `errors`, or if there are none (a reader that failed without saying why), one saying so:
/// a failure is never an empty message.
fn never_empty(source: &Source, mut errors: Vec<Located>) -> Vec<Located> {
    if errors.is_empty() {
        errors.push(source.error_at(
            0,
            "",
            "the file cannot be read (and no reason was found: a bug in goconform)",
        ));
    }
    errors
}
