//! Tournament scenarios, crosstables and clock event files: reading them into the typed values
//! of [`crate::tournament`].
//!
//! A tournament scenario is a `[scenario]` header (id, title, kind, clauses, description,
//! checked, added) and `[[case]]` tables, each with its inputs and what must come out. The
//! `kind` says what every case of the file is about (`rank`, `handicap`, `komi`, `nigiri`,
//! `time-control`, `clock`, `standings`), so each case has a closed set of keys and a typo is an
//! error. Expectations are kept as (key, expected text) pairs in a canonical form (ranks as
//! `3k`, durations as `1:30`, half points as `2.5`), and the conformance layer compares them with
//! the same rendering of what the reference computed.
//!
//! The same readers take the command line's inputs: a crosstable in TOML or CSV
//! ([`read_crosstable`]) and a clock event file ([`read_clock_file`]). Every problem is reported
//! with file, line, column and key, all of them, not only the first.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::board::Color;
use crate::rules::Komi;
use crate::spec::location::{Located, Source};
use crate::spec::{is_slug, Spec};
use crate::tournament::clock::{Event, StopReason, StopRules};
use crate::tournament::crosstable::{Crosstable, CrosstableError, Game, Half, Outcome};
use crate::tournament::handicap::{KomiRule, System};
use crate::tournament::rank::Rank;
use crate::tournament::tiebreak::Tiebreak;
use crate::tournament::time_control::{parse_duration, Clock, Overtime, TimeControl};

/// The kinds of tournament scenario, one per file.
pub const KINDS: [&str; 8] = [
    "rank",
    "handicap",
    "komi",
    "nigiri",
    "time-control",
    "clock",
    "round-start",
    "standings",
];

/// The name of the built-in komi rule of the 1988 Tournament Rules (VI.A.3).
pub const AGA_1988: &str = "aga-tournament-1988";

/// A checked tournament scenario.
#[derive(Clone, Debug)]
pub struct TournamentScenario {
    pub id: String,
    pub title: String,
    pub kind: String,
    pub clauses: Vec<String>,
    pub description: String,
    pub checked: String,
    pub added: Option<String>,
    pub path: PathBuf,
    /// The folder under conformance/ it lives in.
    pub topic: String,
    pub cases: Vec<Case>,
}

/// One case: inputs and expectations.
#[derive(Clone, Debug)]
pub struct Case {
    pub name: String,
    pub line: usize,
    pub note: Option<String>,
    pub input: Input,
    pub expect: Vec<Expect>,
}

/// What a case feeds the tournament module.
#[derive(Clone, Debug)]
pub enum Input {
    Rank {
        rating: i64,
        /// The rank the player asks to enter at (VI.A.1.d).
        entry: Option<Rank>,
    },
    Handicap {
        ranks: [Rank; 2],
        system: System,
    },
    Komi {
        rule: KomiRule,
        stones: u8,
        margin: Komi,
    },
    Nigiri {
        handful: u32,
        shown: u32,
    },
    TimeControl(TimeControl),
    Clock(ClockFile),
    /// VI.E.3: times of the day in ms.
    RoundStart {
        announced: Option<u64>,
        notice: u64,
        start: u64,
    },
    Standings(CrosstableFile),
}

/// One expected value, in canonical text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expect {
    /// For clocks: the event after which it holds (1-based; 0 is before the first).
    pub after: Option<usize>,
    pub key: String,
    pub expected: String,
    pub line: usize,
}

/// A clock event file (or a clock case): the control and the events with their lines.
#[derive(Clone, Debug)]
pub struct ClockFile {
    /// `None`: a game without clocks.
    pub control: Option<TimeControl>,
    pub first: Color,
    /// Whose reasons to stop both clocks apply.
    pub stops: StopRules,
    pub events: Vec<TimedEvent>,
}

/// One clock event and where it is written.
#[derive(Clone, Debug)]
pub struct TimedEvent {
    /// Milliseconds since the announced start.
    pub at: u64,
    pub event: Event,
    pub line: usize,
    pub column: usize,
}

/// A crosstable file (or a standings case): the table and how to break its ties.
#[derive(Clone, Debug)]
pub struct CrosstableFile {
    pub table: Crosstable,
    /// Empty when the file names none (the caller's default applies).
    pub tiebreak: Vec<Tiebreak>,
    pub seed: u64,
    /// Prizes by place, in cents.
    pub prizes: Vec<u64>,
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RankCase {
    name: String,
    note: Option<String>,
    rating: i64,
    rank: Option<Spanned<String>>,
    entry: Option<Spanned<String>>,
    allowed: Option<Spanned<bool>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HandicapCase {
    name: String,
    note: Option<String>,
    players: Spanned<Vec<Spanned<String>>>,
    system: Option<Spanned<String>>,
    bar: Option<Spanned<String>>,
    floor: Option<Spanned<String>>,
    stones: Option<Spanned<i64>>,
    black: Option<Spanned<String>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct KomiCase {
    name: String,
    note: Option<String>,
    rules: Spanned<String>,
    stones: Spanned<i64>,
    margin: Spanned<toml::Value>,
    komi: Option<Spanned<toml::Value>>,
    result: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct NigiriCase {
    name: String,
    note: Option<String>,
    handful: Spanned<i64>,
    shown: Spanned<i64>,
    black: Option<Spanned<String>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RoundStartCase {
    name: String,
    note: Option<String>,
    announced: Option<Spanned<toml::Value>>,
    notice: Spanned<toml::Value>,
    start: Spanned<toml::Value>,
    allowed: Option<Spanned<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeControlCase {
    name: String,
    note: Option<String>,
    control: Spanned<RawControl>,
    rated: Option<Spanned<bool>>,
    refused: Option<Spanned<String>>,
}

/// `{ main = "30:00", overtime = "canadian", stones = 20, period = "5:00" }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawControl {
    main: Spanned<toml::Value>,
    #[serde(default)]
    overtime: Option<Spanned<String>>,
    periods: Option<Spanned<i64>>,
    period: Option<Spanned<toml::Value>>,
    stones: Option<Spanned<i64>>,
    per_move: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawClock {
    control: Option<Spanned<RawControl>>,
    clocks: Option<Spanned<bool>>,
    first: Option<Spanned<String>>,
    /// Whose reasons to stop both clocks apply: `aga-tournament` (default) or `bga`.
    stops: Option<Spanned<String>>,
    /// Absent in a file that only gives a time control (`goconform referee --time-control`).
    #[serde(default)]
    events: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockCase {
    name: String,
    note: Option<String>,
    control: Option<Spanned<RawControl>>,
    clocks: Option<Spanned<bool>>,
    first: Option<Spanned<String>>,
    stops: Option<Spanned<String>>,
    events: Vec<Spanned<String>>,
    #[serde(default)]
    expect: Vec<Spanned<ClockExpect>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ClockExpect {
    after: Spanned<i64>,
    running: Option<Spanned<String>>,
    result: Option<Spanned<String>>,
    refused: Option<Spanned<String>>,
    absent: Option<Spanned<Vec<String>>>,
    black: Option<Spanned<SideExpect>>,
    white: Option<Spanned<SideExpect>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideExpect {
    phase: Option<Spanned<String>>,
    left: Option<Spanned<toml::Value>>,
    periods: Option<Spanned<i64>>,
    used: Option<Spanned<toml::Value>>,
    stones: Option<Spanned<i64>>,
    out_at: Option<Spanned<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPlayer {
    name: Spanned<String>,
    results: Vec<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawCrosstable {
    tiebreak: Option<Vec<Spanned<String>>>,
    seed: Option<Spanned<i64>>,
    prizes: Option<Vec<Spanned<toml::Value>>>,
    player: Vec<RawPlayer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StandingsCase {
    name: String,
    note: Option<String>,
    tiebreak: Option<Vec<Spanned<String>>>,
    seed: Option<Spanned<i64>>,
    prizes: Option<Vec<Spanned<toml::Value>>>,
    standings: Option<Spanned<Vec<String>>>,
    places: Option<BTreeMap<String, Spanned<i64>>>,
    score: Option<BTreeMap<String, Spanned<toml::Value>>>,
    sos: Option<BTreeMap<String, Spanned<toml::Value>>>,
    sodos: Option<BTreeMap<String, Spanned<toml::Value>>>,
    median: Option<BTreeMap<String, Spanned<toml::Value>>>,
    saco: Option<BTreeMap<String, Spanned<toml::Value>>>,
    cumulative: Option<BTreeMap<String, Spanned<toml::Value>>>,
    decided_by: Option<BTreeMap<String, Spanned<String>>>,
    prize: Option<BTreeMap<String, Spanned<toml::Value>>>,
    playoffs: Option<Spanned<Vec<Vec<String>>>>,
    circular: Option<Spanned<bool>>,
    refused: Option<Spanned<String>>,
    player: Vec<RawPlayer>,
}

/// Collects expectations and problems for one case.
struct Ctx<'a> {
    source: &'a Source<'a>,
    errors: &'a mut Vec<Located>,
    prefix: String,
    expect: Vec<Expect>,
}

impl Ctx<'_> {
    fn err(&mut self, span: &std::ops::Range<usize>, key: &str, message: impl Into<String>) {
        let key = self.key(key);
        self.errors.push(self.source.error(span, key, message));
    }

    fn key(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else if key.is_empty() {
            self.prefix.clone()
        } else {
            format!("{}.{key}", self.prefix)
        }
    }

    fn line(&self, span: &std::ops::Range<usize>) -> usize {
        self.source.line_column(span.start).0
    }

    fn push(
        &mut self,
        after: Option<usize>,
        key: String,
        expected: String,
        span: &std::ops::Range<usize>,
    ) {
        let line = self.line(span);
        self.expect.push(Expect {
            after,
            key,
            expected,
            line,
        });
    }

    /// A word from a closed list, or an error listing it.
    fn word(&mut self, value: &Spanned<String>, key: &str, allowed: &[&str]) -> Option<String> {
        let w = value.get_ref().as_str();
        if allowed.contains(&w) {
            Some(w.to_string())
        } else {
            self.err(
                &value.span(),
                key,
                format!("`{w}` is not one of: {}", allowed.join(", ")),
            );
            None
        }
    }
}

/// Reads a duration: whole seconds as an integer, or `m:ss`, `h:mm:ss`, `1:30.5` as a string.
fn duration(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<u64> {
    let parsed = match value.get_ref() {
        toml::Value::Integer(n) if *n < 0 => {
            ctx.err(
                &value.span(),
                key,
                format!("negative time {n}: a time is 0 or more"),
            );
            return None;
        }
        toml::Value::Integer(n) => u64::try_from(*n).ok().and_then(|s| s.checked_mul(1000)),
        toml::Value::String(s) if s.trim_start().starts_with('-') => {
            ctx.err(
                &value.span(),
                key,
                format!("negative time `{s}`: a time is 0 or more"),
            );
            return None;
        }
        toml::Value::String(s) => parse_duration(s),
        _ => None,
    };
    if parsed.is_none() {
        ctx.err(
            &value.span(),
            key,
            "expected a time: whole seconds (90) or a clock reading such as \"1:30\", \"1:02:03\" or \"0:01.5\"",
        );
    }
    parsed
}

/// A whole or half number, as half points.
fn half(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<i64> {
    let v = match value.get_ref() {
        toml::Value::Integer(n) => n.checked_mul(2),
        toml::Value::Float(f) if (f * 2.0).fract() == 0.0 && f.abs() < 1e9 => {
            Some((f * 2.0) as i64)
        }
        _ => None,
    };
    if v.is_none() {
        ctx.err(
            &value.span(),
            key,
            "expected a whole or half number such as 3 or 2.5",
        );
    }
    v
}

fn count(ctx: &mut Ctx, value: &Spanned<i64>, key: &str, min: i64) -> Option<u32> {
    let n = *value.get_ref();
    if n < min {
        ctx.err(
            &value.span(),
            key,
            format!("expected a number of at least {min}, not {n}"),
        );
        return None;
    }
    // Every count goes into a u32; one past it is an error of its own, never a case that
    // quietly goes missing (the file would report fewer cases, all passed).
    match u32::try_from(n) {
        Ok(n) => Some(n),
        Err(_) => {
            ctx.err(
                &value.span(),
                key,
                format!("expected a number of at most {}, not {n}", u32::MAX),
            );
            None
        }
    }
}

fn control(ctx: &mut Ctx, raw: &Spanned<RawControl>, key: &str) -> Option<TimeControl> {
    let c = raw.get_ref();
    let main = duration(ctx, &c.main, &format!("{key}.main"));
    let word = c.overtime.as_ref().map_or(Some("none".to_string()), |o| {
        ctx.word(
            o,
            &format!("{key}.overtime"),
            &["none", "byo-yomi", "canadian", "seconds"],
        )
    })?;
    // The optional fields, what each is for, and which kinds of overtime take which: a kind
    // needs its own fields and refuses the others.
    let fields = [
        ("periods", "how many byo-yomi periods", c.periods.is_some()),
        ("period", "the length of one period", c.period.is_some()),
        ("stones", "how many stones each period", c.stones.is_some()),
        (
            "per_move",
            "the time allowed for each move",
            c.per_move.is_some(),
        ),
    ];
    let wanted: &[&str] = match word.as_str() {
        "none" => &[],
        "byo-yomi" => &["periods", "period"],
        "canadian" => &["stones", "period"],
        _ => &["per_move"],
    };
    for (name, why, present) in fields {
        if wanted.contains(&name) && !present {
            ctx.err(&raw.span(), key, format!("missing `{name}`: {why}"));
        } else if !wanted.contains(&name) && present {
            ctx.err(
                &raw.span(),
                key,
                format!("`{name}` does not belong to overtime `{word}`"),
            );
        }
    }
    let period = |ctx: &mut Ctx| {
        c.period
            .as_ref()
            .and_then(|p| duration(ctx, p, &format!("{key}.period")))
    };
    let overtime = match word.as_str() {
        "none" => Overtime::None,
        "byo-yomi" => {
            let periods = c
                .periods
                .as_ref()
                .and_then(|p| count(ctx, p, &format!("{key}.periods"), 1));
            Overtime::Byoyomi {
                periods: periods?,
                period: period(ctx)?,
            }
        }
        "canadian" => {
            let stones = c
                .stones
                .as_ref()
                .and_then(|p| count(ctx, p, &format!("{key}.stones"), 1));
            Overtime::Canadian {
                stones: stones?,
                period: period(ctx)?,
            }
        }
        _ => {
            let per_move = c
                .per_move
                .as_ref()
                .and_then(|p| duration(ctx, p, &format!("{key}.per_move")));
            Overtime::SecondCounting {
                per_move: per_move?,
            }
        }
    };
    Some(TimeControl {
        main: main?,
        overtime,
    })
}

/// `B`/`W` (or `black`/`white`).
fn colour(ctx: &mut Ctx, value: &Spanned<String>, key: &str) -> Option<Color> {
    let c = Color::parse(value.get_ref());
    if c.is_none() {
        ctx.err(
            &value.span(),
            key,
            format!("`{}` is not a colour: B or W", value.get_ref()),
        );
    }
    c
}

/// One clock event: `TIME WORDS...`, e.g. `1:30 play B`, `0 begin absent W`, `5:00 stop capture 3`.
pub fn parse_event(text: &str) -> Result<(u64, Event), String> {
    let mut words = text.split_whitespace();
    let time = words
        .next()
        .ok_or("an event is a time and what happened, e.g. `1:30 play B`")?;
    if time.starts_with('-') {
        return Err(format!(
            "negative time `{time}`: times count from the announced start"
        ));
    }
    let at = parse_duration(time).ok_or_else(|| {
        format!("`{time}` is not a time: whole seconds or a clock reading such as 1:30")
    })?;
    let rest: Vec<&str> = words.collect();
    let colour_at = |i: usize| -> Result<Color, String> {
        rest.get(i)
            .and_then(|w| Color::parse(w))
            .ok_or_else(|| format!("`{}` needs a colour, B or W", rest.join(" ")))
    };
    let exact = |n: usize| -> Result<(), String> {
        if rest.len() == n {
            Ok(())
        } else {
            Err(format!("unexpected words in `{}`", rest.join(" ")))
        }
    };
    let event = match rest.first().copied().unwrap_or("") {
        "begin" => {
            let mut absent = [false; 2];
            match rest.get(1).copied() {
                None => {}
                Some("absent") if rest.len() > 2 => {
                    for w in &rest[2..] {
                        let c = Color::parse(w)
                            .ok_or_else(|| format!("`{w}` is not a colour, B or W"))?;
                        absent[c.index()] = true;
                    }
                }
                Some(_) => return Err("`begin` or `begin absent B [W]`".to_string()),
            }
            Event::Begin { absent }
        }
        "arrive" => {
            exact(2)?;
            Event::Arrive(colour_at(1)?)
        }
        "play" => {
            let color = colour_at(1)?;
            match rest.get(2).copied() {
                None => Event::Play { color, punch: true },
                Some("nopunch") if rest.len() == 3 => Event::Play {
                    color,
                    punch: false,
                },
                _ => return Err("`play B` or `play B nopunch`".to_string()),
            }
        }
        "pass" => {
            exact(2)?;
            Event::Pass(colour_at(1)?)
        }
        "punch" => {
            exact(2)?;
            Event::Punch(colour_at(1)?)
        }
        "seal" => {
            exact(2)?;
            Event::Seal(colour_at(1)?)
        }
        "resume" => {
            exact(1)?;
            Event::Resume
        }
        "look" => {
            exact(1)?;
            Event::Look
        }
        "dispute" => {
            let color = colour_at(1)?;
            match rest.get(2).copied() {
                None => Event::Dispute {
                    color,
                    reset: false,
                },
                Some("reset") if rest.len() == 3 => Event::Dispute { color, reset: true },
                _ => return Err("`dispute B` or `dispute B reset`".to_string()),
            }
        }
        "stop" => {
            let reason = match (rest.get(1).copied(), rest.len()) {
                (Some("td"), 2) => StopReason::Director,
                (Some("prisoners"), 2) => StopReason::Prisoners,
                (Some("end"), 2) => StopReason::End,
                (Some("protest"), 2) => StopReason::Protest,
                (Some("violation"), 2) => StopReason::Violation,
                (Some("capture"), 3) => StopReason::Capture(
                    rest[2]
                        .parse()
                        .map_err(|_| format!("`{}` is not a number of stones", rest[2]))?,
                ),
                (Some("adjournment"), _) => {
                    return Err("an adjournment stops the clocks by sealing the move (C.3.c): `seal B`".to_string())
                }
                _ => {
                    return Err("E.10 lets both clocks stop only for: td, capture N (more than one stone), prisoners, end, protest; the BGA's rules also for a violation (`stop violation`)".to_string())
                }
            };
            Event::Stop(reason)
        }
        other => {
            return Err(format!(
                "unknown event `{other}`: begin, arrive, play, pass, punch, stop, resume, seal, dispute, look"
            ))
        }
    };
    Ok((at, event))
}

fn clock_file(
    ctx: &mut Ctx,
    control_raw: Option<&Spanned<RawControl>>,
    clocks: Option<&Spanned<bool>>,
    first: Option<&Spanned<String>>,
    stops: Option<&Spanned<String>>,
    events: &[Spanned<String>],
) -> Option<ClockFile> {
    let without = clocks.is_some_and(|c| !*c.get_ref());
    // `None` when the control is wrong: the events are still read, so that every problem of
    // the file is reported at once.
    let control: Option<Option<TimeControl>> = match (control_raw, without) {
        (Some(c), false) => control(ctx, c, "control").map(Some),
        (None, true) => Some(None),
        (Some(c), true) => {
            ctx.err(
                &c.span(),
                "control",
                "a game without clocks (`clocks = false`) has no time control",
            );
            None
        }
        (None, false) => {
            ctx.errors.push(ctx.source.error_at(
                0,
                ctx.key("control"),
                "missing `control` (the time control), or `clocks = false` for a game without clocks",
            ));
            None
        }
    };
    if let Some(Some(c)) = control {
        if let Err(e) = c.validate() {
            let span = control_raw.map(Spanned::span).unwrap_or(0..0);
            ctx.err(&span, "control", e.to_string());
        }
    }
    let first = match first {
        Some(f) => colour(ctx, f, "first"),
        None => Some(Color::Black),
    };
    let stops = match stops {
        None => Some(StopRules::default()),
        Some(w) => {
            let parsed = StopRules::parse(w.get_ref());
            if parsed.is_none() {
                ctx.err(
                    &w.span(),
                    "stops",
                    "expected `aga-tournament` (E.10's reasons) or `bga` (also while sorting out a violation)",
                );
            }
            parsed
        }
    };
    let mut out = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match parse_event(e.get_ref()) {
            Ok((at, event)) => {
                let (line, column) = ctx.source.line_column(e.span().start);
                out.push(TimedEvent {
                    at,
                    event,
                    line,
                    column,
                });
            }
            Err(message) => ctx.err(&e.span(), &format!("events[{i}]"), message),
        }
    }
    Some(ClockFile {
        control: control?,
        first: first?,
        stops: stops?,
        events: out,
    })
}

/// A crosstable cell: `NAME+` won, `NAME-` lost, `NAME=` drew, empty or `bye`: no game.
fn cell(
    text: &str,
    players: &std::collections::HashMap<&str, usize>,
) -> Result<Option<Game>, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("bye") {
        return Ok(None);
    }
    let outcome = match t.chars().last() {
        Some('+') => Outcome::Win,
        Some('-') => Outcome::Loss,
        Some('=') => Outcome::Draw,
        _ => {
            return Err(format!(
                "`{t}` is not a result: the opponent's name followed by + (won), - (lost) or = (drew), or `bye`"
            ))
        }
    };
    let name = t[..t.len() - 1].trim();
    match players.get(name) {
        Some(&opponent) => Ok(Some(Game { opponent, outcome })),
        None => Err(format!("unknown player `{name}`: not in the crosstable")),
    }
}

/// Where each cell of a crosstable is, for messages: (line, column, key).
type CellPlace = (usize, usize, String);

/// Builds and checks a crosstable from names and cells with their places.
fn build_table(
    path: &Path,
    names: Vec<(String, CellPlace)>,
    cells: Vec<Vec<(String, CellPlace)>>,
    errors: &mut Vec<Located>,
) -> Option<Crosstable> {
    let at = |place: &CellPlace, message: String| Located {
        file: path.to_path_buf(),
        line: place.0,
        column: place.1,
        key: place.2.clone(),
        message,
    };
    let players: Vec<String> = names.iter().map(|(n, _)| n.clone()).collect();
    // Each name's first row: one lookup per cell, where a search of the names made a large
    // crosstable quadratic.
    let mut index: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let before = errors.len();
    for (i, (name, place)) in names.iter().enumerate() {
        if name.is_empty() || name.ends_with(['+', '-', '=']) || name.eq_ignore_ascii_case("bye") {
            errors.push(at(
                place,
                format!(
                    "`{name}` cannot be a player's name: it is empty, `bye`, or ends in +, - or ="
                ),
            ));
        }
        if index.entry(name.as_str()).or_insert(i) != &i {
            errors.push(at(place, format!("player `{name}` is listed twice")));
        }
    }
    let mut games = Vec::new();
    for row in &cells {
        let mut out = Vec::new();
        for (text, place) in row {
            match cell(text, &index) {
                Ok(g) => out.push(g),
                Err(message) => {
                    errors.push(at(place, message));
                    out.push(None);
                }
            }
        }
        games.push(out);
    }
    if errors.len() > before {
        return None;
    }
    match Crosstable::new(players, games) {
        Ok(t) => Some(t),
        Err(problems) => {
            for p in problems {
                let place = match &p {
                    CrosstableError::SelfGame { player, round }
                    | CrosstableError::Mismatch { player, round, .. } => cells[*player]
                        .get(*round)
                        .map(|c| c.1.clone())
                        .unwrap_or_else(|| names[*player].1.clone()),
                    CrosstableError::RoundCount { player, .. }
                    | CrosstableError::DuplicatePlayer(player) => names
                        .iter()
                        .find(|(n, _)| n == player)
                        .map(|n| n.1.clone())
                        .unwrap_or((1, 1, String::new())),
                };
                errors.push(at(&place, p.to_string()));
            }
            None
        }
    }
}

fn players_table(ctx: &mut Ctx, players: &[RawPlayer], prefix: &str) -> Option<Crosstable> {
    let place = |ctx: &Ctx, span: &std::ops::Range<usize>, key: String| {
        let (l, c) = ctx.source.line_column(span.start);
        (l, c, ctx.key(&key))
    };
    let names = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                p.name.get_ref().trim().to_string(),
                place(ctx, &p.name.span(), format!("{prefix}[{i}].name")),
            )
        })
        .collect();
    let cells = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.results
                .iter()
                .enumerate()
                .map(|(r, c)| {
                    (
                        c.get_ref().clone(),
                        place(ctx, &c.span(), format!("{prefix}[{i}].results[{r}]")),
                    )
                })
                .collect()
        })
        .collect();
    if players.is_empty() {
        ctx.errors.push(ctx.source.error_at(
            0,
            ctx.key(prefix),
            "a crosstable needs at least one `[[player]]`",
        ));
        return None;
    }
    build_table(ctx.source.path, names, cells, ctx.errors)
}

fn tiebreaks(ctx: &mut Ctx, raw: &[Spanned<String>]) -> Vec<Tiebreak> {
    let mut out = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        match t.get_ref().parse::<Tiebreak>() {
            Ok(t) => out.push(t),
            Err(e) => ctx.err(&t.span(), &format!("tiebreak[{i}]"), e.to_string()),
        }
    }
    out
}

/// An amount of money (`300`, `12.5`, `"99.99"`) in cents.
fn money(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<u64> {
    let cents = match value.get_ref() {
        toml::Value::Integer(n) if *n >= 0 => {
            u64::try_from(*n).ok().and_then(|n| n.checked_mul(100))
        }
        toml::Value::Float(f) if *f >= 0.0 && (f * 100.0).fract().abs() < 1e-6 && *f < 1e12 => {
            Some((f * 100.0).round() as u64)
        }
        toml::Value::String(s) => parse_money(s),
        _ => None,
    };
    if cents.is_none() {
        ctx.err(
            &value.span(),
            key,
            "expected an amount of money of 0 or more, with at most two decimals",
        );
    }
    cents
}

/// `300`, `12.5`, `99.99` as cents.
pub fn parse_money(text: &str) -> Option<u64> {
    let t = text.trim();
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    if whole.is_empty()
        || !whole.chars().all(|c| c.is_ascii_digit())
        || frac.len() > 2
        || !frac.chars().all(|c| c.is_ascii_digit())
    {
        return None;
    }
    let w: u64 = whole.parse().ok()?;
    let f: u64 = if frac.is_empty() {
        0
    } else {
        format!("{frac:0<2}").parse().ok()?
    };
    w.checked_mul(100)?.checked_add(f)
}

fn prizes(ctx: &mut Ctx, raw: Option<&Vec<Spanned<toml::Value>>>) -> Vec<u64> {
    raw.map(|list| {
        list.iter()
            .enumerate()
            .filter_map(|(i, p)| money(ctx, p, &format!("prizes[{i}]")))
            .collect()
    })
    .unwrap_or_default()
}

fn seed(ctx: &mut Ctx, raw: Option<&Spanned<i64>>) -> u64 {
    match raw {
        None => 0,
        Some(s) if *s.get_ref() < 0 => {
            ctx.err(&s.span(), "seed", "a seed is 0 or more");
            0
        }
        Some(s) => u64::try_from(*s.get_ref()).unwrap_or(0),
    }
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
        let peek: Peek = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
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
            "rank" => read::<RankCase>(&source, &mut errors, rank_case),
            "handicap" => read::<HandicapCase>(&source, &mut errors, handicap_case),
            "komi" => read::<KomiCase>(&source, &mut errors, |c, r| komi_case(c, r, spec)),
            "nigiri" => read::<NigiriCase>(&source, &mut errors, nigiri_case),
            "time-control" => read::<TimeControlCase>(&source, &mut errors, time_control_case),
            "clock" => read::<ClockCase>(&source, &mut errors, clock_case),
            "round-start" => read::<RoundStartCase>(&source, &mut errors, round_start_case),
            _ => read::<StandingsCase>(&source, &mut errors, standings_case),
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

/// Reads the file as cases of type `C`, converting each with `convert`.
fn read<C: serde::de::DeserializeOwned + Named>(
    source: &Source,
    errors: &mut Vec<Located>,
    convert: impl Fn(&C, &mut Ctx) -> Option<Input>,
) -> Option<(RawHeader, Vec<Case>)> {
    let raw: RawFile<C> = match toml::from_str(source.text) {
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
    StandingsCase
);

/// Exactly one of an outcome and a refusal must be expected.
fn one_of(ctx: &mut Ctx, span: &std::ops::Range<usize>, outcome: bool, refused: &str, what: &str) {
    if outcome && refused != "none" {
        ctx.err(
            span,
            "refused",
            format!("a case expects either {what} or `refused`, not both"),
        );
    }
}

fn rank_case(c: &RankCase, ctx: &mut Ctx) -> Option<Input> {
    if let Some(r) = &c.rank {
        match r.get_ref().parse::<Rank>() {
            Ok(rank) => ctx.push(None, "rank".into(), rank.to_string(), &r.span()),
            Err(e) => ctx.err(&r.span(), "rank", e.to_string()),
        }
    }
    if let Some(r) = &c.refused {
        if let Some(w) = ctx.word(r, "refused", &["digits", "none"]) {
            ctx.push(None, "refused".into(), w, &r.span());
        }
    }
    if let Some(r) = &c.refused {
        one_of(ctx, &r.span(), c.rank.is_some(), r.get_ref(), "`rank`");
    }
    let entry = match &c.entry {
        Some(e) => Some(rank_of(ctx, e, "entry")?),
        None => None,
    };
    match (&c.allowed, &c.entry) {
        (Some(a), Some(_)) => ctx.push(None, "allowed".into(), a.get_ref().to_string(), &a.span()),
        (Some(a), None) => ctx.err(
            &a.span(),
            "allowed",
            "`allowed` says whether the `entry` rank may be taken: give `entry`",
        ),
        _ => {}
    }
    Some(Input::Rank {
        rating: c.rating,
        entry,
    })
}

fn rank_of(ctx: &mut Ctx, value: &Spanned<String>, key: &str) -> Option<Rank> {
    match value.get_ref().parse::<Rank>() {
        Ok(r) => Some(r),
        Err(e) => {
            ctx.err(&value.span(), key, e.to_string());
            None
        }
    }
}

fn handicap_case(c: &HandicapCase, ctx: &mut Ctx) -> Option<Input> {
    let players = c.players.get_ref();
    if players.len() != 2 {
        ctx.err(
            &c.players.span(),
            "players",
            "a handicap is between two players: give two ranks",
        );
        return None;
    }
    let a = rank_of(ctx, &players[0], "players[0]");
    let b = rank_of(ctx, &players[1], "players[1]");
    let system_word = match &c.system {
        Some(s) => ctx.word(s, "system", &["aga", "mcmahon"])?,
        None => "aga".to_string(),
    };
    let system = if system_word == "mcmahon" {
        let Some(bar) = &c.bar else {
            ctx.err(
                &c.players.span(),
                "bar",
                "a McMahon handicap needs the `bar` (the lowest rank of the top band)",
            );
            return None;
        };
        let bar = rank_of(ctx, bar, "bar")?;
        let floor = match &c.floor {
            Some(f) => Some(rank_of(ctx, f, "floor")?),
            None => None,
        };
        System::McMahon { bar, floor }
    } else {
        for (v, k) in [(&c.bar, "bar"), (&c.floor, "floor")] {
            if let Some(v) = v {
                ctx.err(
                    &v.span(),
                    k,
                    format!("`{k}` belongs to `system = \"mcmahon\"`"),
                );
            }
        }
        System::Rank
    };
    if let Some(s) = &c.stones {
        if (0..=99).contains(s.get_ref()) {
            ctx.push(None, "stones".into(), s.get_ref().to_string(), &s.span());
        } else {
            ctx.err(&s.span(), "stones", "a number of stones, 0 or more");
        }
    }
    if let Some(bk) = &c.black {
        let w = bk.get_ref().trim();
        let canonical = if w == "lot" {
            Some("lot".to_string())
        } else {
            w.parse::<Rank>().ok().map(|r| r.to_string())
        };
        match canonical {
            Some(v) => ctx.push(None, "black".into(), v, &bk.span()),
            None => ctx.err(&bk.span(), "black", "the rank of the player who takes Black, or `lot` for an even game (colours by VI.A.4)"),
        }
    }
    if let Some(r) = &c.refused {
        one_of(
            ctx,
            &r.span(),
            c.stones.is_some() || c.black.is_some(),
            r.get_ref(),
            "`stones`/`black`",
        );
        if let Some(w) = ctx.word(r, "refused", &["floor-above-bar", "none"]) {
            ctx.push(None, "refused".into(), w, &r.span());
        }
    }
    Some(Input::Handicap {
        ranks: [a?, b?],
        system,
    })
}

fn komi_case(c: &KomiCase, ctx: &mut Ctx, spec: &Spec) -> Option<Input> {
    let rule = if c.rules.get_ref() == AGA_1988 {
        Some(KomiRule::AGA_1988)
    } else {
        match spec.rules(c.rules.get_ref()) {
            Ok(r) => Some(KomiRule::of(&r)),
            Err(message) => {
                ctx.err(
                    &c.rules.span(),
                    "rules",
                    format!("{message} (or `{AGA_1988}` for VI.A.3 of the 1988 Tournament Rules)"),
                );
                None
            }
        }
    };
    let stones = match u8::try_from(*c.stones.get_ref()) {
        Ok(s) if s <= 9 => Some(s),
        _ => {
            ctx.err(&c.stones.span(), "stones", "handicap stones: 0 (even) to 9");
            None
        }
    };
    let margin =
        half(ctx, &c.margin, "margin").and_then(|h| small_komi(ctx, &c.margin, "margin", h));
    if let Some(k) = &c.komi {
        if let Some(komi) = half(ctx, k, "komi").and_then(|h| small_komi(ctx, k, "komi", h)) {
            ctx.push(None, "komi".into(), komi.to_string(), &k.span());
        }
    }
    if let Some(r) = &c.result {
        match super::parse_result(r.get_ref()) {
            Ok(v) if !v.ends_with('R') => ctx.push(None, "result".into(), v, &r.span()),
            Ok(_) => ctx.err(
                &r.span(),
                "result",
                "a count decides here: B+N, W+N, W+0 or 0, not a resignation",
            ),
            Err(e) => ctx.err(&r.span(), "result", e),
        }
    }
    Some(Input::Komi {
        rule: rule?,
        stones: stones?,
        margin: margin?,
    })
}

/// Half points as a komi or a margin, if they are of a size a board can give.
fn small_komi(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str, half: i64) -> Option<Komi> {
    match i32::try_from(half) {
        Ok(h) if h.abs() <= 2 * 1000 => Some(Komi::from_half_points(h)),
        _ => {
            ctx.err(
                &value.span(),
                key,
                "a number of points between -1000 and 1000",
            );
            None
        }
    }
}

fn nigiri_case(c: &NigiriCase, ctx: &mut Ctx) -> Option<Input> {
    let handful = count(ctx, &c.handful, "handful", 0);
    let shown = count(ctx, &c.shown, "shown", 0);
    if let Some(b) = &c.black {
        if let Some(w) = ctx.word(b, "black", &["guesser", "holder"]) {
            ctx.push(None, "black".into(), w, &b.span());
        }
    }
    if let Some(r) = &c.refused {
        one_of(ctx, &r.span(), c.black.is_some(), r.get_ref(), "`black`");
        if let Some(w) = ctx.word(r, "refused", &["empty-hand", "no-call", "none"]) {
            ctx.push(None, "refused".into(), w, &r.span());
        }
    }
    Some(Input::Nigiri {
        handful: handful?,
        shown: shown?,
    })
}

fn time_control_case(c: &TimeControlCase, ctx: &mut Ctx) -> Option<Input> {
    let control = control(ctx, &c.control, "control");
    if let Some(r) = &c.rated {
        ctx.push(None, "rated".into(), r.get_ref().to_string(), &r.span());
    }
    if let Some(r) = &c.refused {
        one_of(ctx, &r.span(), c.rated.is_some(), r.get_ref(), "`rated`");
        if let Some(w) = ctx.word(
            r,
            "refused",
            &["periods-exceed-main", "empty-overtime", "none"],
        ) {
            ctx.push(None, "refused".into(), w, &r.span());
        }
    }
    Some(Input::TimeControl(control?))
}

fn round_start_case(c: &RoundStartCase, ctx: &mut Ctx) -> Option<Input> {
    let announced = match &c.announced {
        Some(a) => Some(duration(ctx, a, "announced")?),
        None => None,
    };
    let notice = duration(ctx, &c.notice, "notice");
    let start = duration(ctx, &c.start, "start");
    if let Some(a) = &c.allowed {
        ctx.push(None, "allowed".into(), a.get_ref().to_string(), &a.span());
    }
    Some(Input::RoundStart {
        announced,
        notice: notice?,
        start: start?,
    })
}

fn clock_case(c: &ClockCase, ctx: &mut Ctx) -> Option<Input> {
    let file = clock_file(
        ctx,
        c.control.as_ref(),
        c.clocks.as_ref(),
        c.first.as_ref(),
        c.stops.as_ref(),
        &c.events,
    );
    for (k, e) in c.expect.iter().enumerate() {
        let e_ref = e.get_ref();
        let outer = std::mem::take(&mut ctx.prefix);
        ctx.prefix = format!("{outer}.expect[{k}]");
        let after = *e_ref.after.get_ref();
        let after = match usize::try_from(after) {
            Ok(a) if a <= c.events.len() => Some(a),
            _ => {
                ctx.err(
                    &e_ref.after.span(),
                    "after",
                    format!("`after` counts events, 0 to {}", c.events.len()),
                );
                None
            }
        };
        let mut stated = false;
        if let Some(after) = after {
            if let Some(r) = &e_ref.running {
                if let Some(w) = ctx.word(r, "running", &["B", "W", "none"]) {
                    ctx.push(Some(after), "running".into(), w, &r.span());
                    stated = true;
                }
            }
            if let Some(r) = &e_ref.result {
                let ok = ["B+T", "W+T", "B+F", "W+F", "none", "board", "undecided"];
                if let Some(w) = ctx.word(r, "result", &ok) {
                    ctx.push(Some(after), "result".into(), w, &r.span());
                    stated = true;
                }
            }
            if let Some(r) = &e_ref.refused {
                let ok = [
                    "time-backwards",
                    "not-begun",
                    "already-begun",
                    "game-over",
                    "not-running",
                    "stopped",
                    "not-stopped",
                    "not-absent",
                    "stop-reason",
                    "no-overtime",
                    "not-ended",
                    "no-clocks",
                ];
                if after == 0 {
                    ctx.err(
                        &r.span(),
                        "refused",
                        "`refused` is about an event: `after` must be 1 or more",
                    );
                } else if let Some(w) = ctx.word(r, "refused", &ok) {
                    ctx.push(Some(after), "refused".into(), w, &r.span());
                    stated = true;
                }
            }
            if let Some(a) = &e_ref.absent {
                let mut list: Vec<String> = Vec::new();
                for w in a.get_ref() {
                    match Color::parse(w) {
                        Some(c) => list.push(c.letter().to_string()),
                        None => ctx.err(
                            &a.span(),
                            "absent",
                            format!("`{w}` is not a colour, B or W"),
                        ),
                    }
                }
                list.sort();
                ctx.push(Some(after), "absent".into(), list.join(" "), &a.span());
                stated = true;
            }
            for (side, name) in [(&e_ref.black, "black"), (&e_ref.white, "white")] {
                let Some(side) = side else { continue };
                let s = side.get_ref();
                if let Some(p) = &s.phase {
                    if let Some(w) = ctx.word(
                        p,
                        &format!("{name}.phase"),
                        &["main", "byo-yomi", "canadian", "seconds", "out"],
                    ) {
                        ctx.push(Some(after), format!("{name}.phase"), w, &p.span());
                        stated = true;
                    }
                }
                for (value, key) in [(&s.left, "left"), (&s.used, "used"), (&s.out_at, "out_at")] {
                    if let Some(v) = value {
                        if let Some(ms) = duration(ctx, v, &format!("{name}.{key}")) {
                            ctx.push(
                                Some(after),
                                format!("{name}.{key}"),
                                Clock(ms).to_string(),
                                &v.span(),
                            );
                            stated = true;
                        }
                    }
                }
                for (value, key) in [(&s.periods, "periods"), (&s.stones, "stones")] {
                    if let Some(v) = value {
                        if let Some(n) = count(ctx, v, &format!("{name}.{key}"), 0) {
                            ctx.push(
                                Some(after),
                                format!("{name}.{key}"),
                                n.to_string(),
                                &v.span(),
                            );
                            stated = true;
                        }
                    }
                }
            }
        }
        if !stated && after.is_some() {
            ctx.err(&e.span(), "", "an expectation states at least one value");
        }
        ctx.prefix = outer;
    }
    Some(Input::Clock(file?))
}

fn standings_case(c: &StandingsCase, ctx: &mut Ctx) -> Option<Input> {
    let table = players_table(ctx, &c.player, "player");
    let tiebreak = c
        .tiebreak
        .as_deref()
        .map(|t| tiebreaks(ctx, t))
        .unwrap_or_else(|| Tiebreak::AGA.to_vec());
    let seed = seed(ctx, c.seed.as_ref());
    let prizes = prizes(ctx, c.prizes.as_ref());
    let table = table?;
    let known = |ctx: &mut Ctx, name: &str, span: &std::ops::Range<usize>, key: &str| -> bool {
        if table.index(name).is_some() {
            true
        } else {
            ctx.err(
                span,
                key,
                format!("unknown player `{name}`: not in the crosstable"),
            );
            false
        }
    };
    if let Some(s) = &c.standings {
        let mut ok = true;
        for n in s.get_ref() {
            ok &= known(ctx, n, &s.span(), "standings");
        }
        if ok {
            ctx.push(None, "standings".into(), s.get_ref().join(", "), &s.span());
        }
    }
    if let Some(places) = &c.places {
        for (name, v) in places {
            if known(ctx, name, &v.span(), &format!("places.{name}")) {
                ctx.push(
                    None,
                    format!("places.{name}"),
                    v.get_ref().to_string(),
                    &v.span(),
                );
            }
        }
    }
    for (map, key) in [
        (&c.score, "score"),
        (&c.sos, "sos"),
        (&c.sodos, "sodos"),
        (&c.median, "median"),
        (&c.saco, "saco"),
        (&c.cumulative, "cumulative"),
    ] {
        for (name, v) in map.iter().flatten() {
            let k = format!("{key}.{name}");
            if known(ctx, name, &v.span(), &k) {
                if let Some(h) = half(ctx, v, &k) {
                    ctx.push(None, k, Half(h).to_string(), &v.span());
                }
            }
        }
    }
    for (name, v) in c.decided_by.iter().flatten() {
        let k = format!("decided_by.{name}");
        if known(ctx, name, &v.span(), &k) {
            let word = if v.get_ref() == "none" {
                Some("none".to_string())
            } else {
                match v.get_ref().parse::<Tiebreak>() {
                    Ok(t) => Some(t.word().to_string()),
                    Err(e) => {
                        ctx.err(&v.span(), &k, format!("{e}, or none"));
                        None
                    }
                }
            };
            if let Some(w) = word {
                ctx.push(None, k, w, &v.span());
            }
        }
    }
    for (name, v) in c.prize.iter().flatten() {
        let k = format!("prize.{name}");
        if known(ctx, name, &v.span(), &k) {
            if let Some(cents) = money(ctx, v, &k) {
                ctx.push(
                    None,
                    k,
                    crate::tournament::tiebreak::cents(cents),
                    &v.span(),
                );
            }
        }
    }
    if let Some(p) = &c.playoffs {
        let mut pairs = Vec::new();
        for pair in p.get_ref() {
            if pair.len() != 2 {
                ctx.err(&p.span(), "playoffs", "each playoff is a pair of names");
            }
            for n in pair {
                known(ctx, n, &p.span(), "playoffs");
            }
            pairs.push(pair.join(" v "));
        }
        ctx.push(None, "playoffs".into(), pairs.join("; "), &p.span());
    }
    if let Some(v) = &c.circular {
        ctx.push(None, "circular".into(), v.get_ref().to_string(), &v.span());
    }
    if let Some(r) = &c.refused {
        if let Some(w) = ctx.word(r, "refused", &["median-rounds", "repeated", "none"]) {
            ctx.push(None, "refused".into(), w, &r.span());
        }
    }
    Some(Input::Standings(CrosstableFile {
        table,
        tiebreak,
        seed,
        prizes,
    }))
}

/// Reads a crosstable file: TOML (`[[player]]` tables with `name` and `results`, optional
/// `tiebreak`, `seed` and `prizes`) or, for a `.csv` file, a header row and one row per player
/// (the name, then one cell per round).
pub fn read_crosstable(path: &Path, text: &str) -> Result<CrosstableFile, Vec<Located>> {
    if path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("csv"))
    {
        return read_csv(path, text);
    }
    let source = Source::new(path, text);
    let raw: RawCrosstable = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
    let mut errors = Vec::new();
    let mut ctx = Ctx {
        source: &source,
        errors: &mut errors,
        prefix: String::new(),
        expect: Vec::new(),
    };
    let table = players_table(&mut ctx, &raw.player, "player");
    let tiebreak = raw
        .tiebreak
        .as_deref()
        .map(|t| tiebreaks(&mut ctx, t))
        .unwrap_or_default();
    let seed = seed(&mut ctx, raw.seed.as_ref());
    let prizes = prizes(&mut ctx, raw.prizes.as_ref());
    match table {
        Some(table) if errors.is_empty() => Ok(CrosstableFile {
            table,
            tiebreak,
            seed,
            prizes,
        }),
        _ => Err(never_empty(&source, errors)),
    }
}

fn read_csv(path: &Path, text: &str) -> Result<CrosstableFile, Vec<Located>> {
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let whole = |line: usize, message: String| Located {
        file: path.to_path_buf(),
        line,
        column: 1,
        key: String::new(),
        message,
    };
    let headers = reader
        .headers()
        .map_err(|e| vec![whole(1, format!("cannot read the header row: {e}"))])?
        .clone();
    if headers.len() < 2 {
        return Err(vec![whole(
            1,
            "the header row names the player column and at least one round".to_string(),
        )]);
    }
    let rounds = headers.len() - 1;
    let mut names = Vec::new();
    let mut cells = Vec::new();
    let mut errors = Vec::new();
    for record in reader.records() {
        let record = match record {
            Ok(r) => r,
            Err(e) => {
                let line = e.position().map_or(1, |p| p.line() as usize);
                errors.push(whole(line, format!("cannot read this row: {e}")));
                continue;
            }
        };
        let line = record.position().map_or(1, |p| p.line() as usize);
        // Columns by the start of each field in the line (exact for unquoted fields). The
        // record's byte offset finds its line at once; counting lines from the top for every
        // row made a large crosstable quadratic.
        let offset = record
            .position()
            .map_or(0, |p| usize::try_from(p.byte()).unwrap_or(0))
            .min(text.len());
        let raw_line = text
            .get(offset..)
            .and_then(|rest| rest.lines().next())
            .unwrap_or("");
        let starts: Vec<usize> = std::iter::once(0)
            .chain(
                raw_line
                    .chars()
                    .enumerate()
                    .filter(|(_, c)| *c == ',')
                    .map(|(k, _)| k + 1),
            )
            .collect();
        let column = |i: usize| starts.get(i).map_or(1, |s| s + 1);
        let key = |i: usize| {
            if i == 0 {
                headers.get(0).unwrap_or("name").to_string()
            } else {
                format!("round {}", headers.get(i).unwrap_or(""))
            }
        };
        if record.len() != headers.len() {
            errors.push(Located {
                file: path.to_path_buf(),
                line,
                column: 1,
                key: String::new(),
                message: format!(
                    "this row has {} cells; the header has {} (the name and {rounds} round(s))",
                    record.len(),
                    headers.len()
                ),
            });
            continue;
        }
        names.push((record[0].to_string(), (line, column(0), key(0))));
        cells.push(
            (1..record.len())
                .map(|i| (record[i].to_string(), (line, column(i), key(i))))
                .collect(),
        );
    }
    if names.is_empty() && errors.is_empty() {
        errors.push(whole(1, "the crosstable has no player rows".to_string()));
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let table = build_table(path, names, cells, &mut errors);
    match table {
        Some(table) if errors.is_empty() => Ok(CrosstableFile {
            table,
            tiebreak: Vec::new(),
            seed: 0,
            prizes: Vec::new(),
        }),
        _ => Err(never_empty(&Source::new(path, text), errors)),
    }
}

/// Reads a clock event file: `control = { ... }` (or `clocks = false`), optional `first`, and
/// `events = ["0 begin", "0:12 play B", ...]`.
pub fn read_clock_file(path: &Path, text: &str) -> Result<ClockFile, Vec<Located>> {
    let source = Source::new(path, text);
    let raw: RawClock = toml::from_str(text).map_err(|e| vec![source.from_toml(&e)])?;
    let mut errors = Vec::new();
    let mut ctx = Ctx {
        source: &source,
        errors: &mut errors,
        prefix: String::new(),
        expect: Vec::new(),
    };
    let file = clock_file(
        &mut ctx,
        raw.control.as_ref(),
        raw.clocks.as_ref(),
        raw.first.as_ref(),
        raw.stops.as_ref(),
        &raw.events,
    );
    match file {
        Some(f) if errors.is_empty() => Ok(f),
        _ => Err(never_empty(&source, errors)),
    }
}

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

/// The located error for a clock event the machine refused (an impossible order).
pub fn event_error(path: &Path, event: &TimedEvent, index: usize, message: String) -> Located {
    Located {
        file: path.to_path_buf(),
        line: event.line,
        column: event.column,
        key: format!("events[{index}]"),
        message,
    }
}
