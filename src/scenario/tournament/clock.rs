//! Clock cases and clock event files: a time control, who moves first, whose reasons stop
//! both clocks, and timestamped events (`"0:12 play B"`).

use super::values::*;
use super::*;
use crate::board::Color;
use crate::spec::location::{Located, Source};
use crate::tournament::clock::{Event, StopReason, StopRules};
use crate::tournament::time_control::{parse_duration, Clock, TimeControl};
use serde::Deserialize;
use std::path::Path;
use toml::Spanned;

/// A clock event file (or a clock case): the control and the events with their lines.
#[derive(Clone, Debug)]
pub struct ClockFile {
    /// `None`: a game without clocks.
    pub control: Option<TimeControl>,
    /// Who moves first, and so whose clock starts at `begin` (Black unless the file says).
    pub first: Color,
    /// Whose reasons to stop both clocks apply.
    pub stops: StopRules,
    /// The events in the order written; empty in a file that only gives a time control.
    pub events: Vec<TimedEvent>,
}

/// One clock event and where it is written.
#[derive(Clone, Debug)]
pub struct TimedEvent {
    /// Milliseconds since the announced start.
    pub at: u64,
    /// What happened.
    pub event: Event,
    /// The line of the file the event is written on (1-based), so that a refusal by the
    /// clocks can point at it.
    pub line: usize,
    /// The column the event's text starts at (1-based, in characters).
    pub column: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawClock {
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
pub(super) struct ClockCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
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
pub(super) struct ClockExpect {
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
pub(super) struct SideExpect {
    phase: Option<Spanned<String>>,
    left: Option<Spanned<toml::Value>>,
    periods: Option<Spanned<i64>>,
    used: Option<Spanned<toml::Value>>,
    stones: Option<Spanned<i64>>,
    out_at: Option<Spanned<toml::Value>>,
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

pub(super) fn clock_file(
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

pub(super) fn clock_case(c: &ClockCase, ctx: &mut Ctx) -> Option<Input> {
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
