//! The readers every case kind shares: a case's context (its key prefix, its errors, its
//! expectations in canonical text) and the values written in several kinds (durations, half
//! points, counts, time controls, colours, money, ranks).

use super::*;
use crate::board::Color;
use crate::spec::location::{Located, Source};
use crate::tournament::rank::Rank;
use crate::tournament::time_control::{parse_duration, Overtime, TimeControl};
use serde::Deserialize;
use toml::Spanned;

/// Collects expectations and problems for one case.
pub(super) struct Ctx<'a> {
    pub(super) source: &'a Source<'a>,
    pub(super) errors: &'a mut Vec<Located>,
    pub(super) prefix: String,
    pub(super) expect: Vec<Expect>,
}

impl Ctx<'_> {
    pub(super) fn err(
        &mut self,
        span: &std::ops::Range<usize>,
        key: &str,
        message: impl Into<String>,
    ) {
        let key = self.key(key);
        self.errors.push(self.source.error(span, key, message));
    }

    pub(super) fn key(&self, key: &str) -> String {
        if self.prefix.is_empty() {
            key.to_string()
        } else if key.is_empty() {
            self.prefix.clone()
        } else {
            format!("{}.{key}", self.prefix)
        }
    }

    pub(super) fn line(&self, span: &std::ops::Range<usize>) -> usize {
        self.source.line_column(span.start).0
    }

    pub(super) fn push(
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
    pub(super) fn word(
        &mut self,
        value: &Spanned<String>,
        key: &str,
        allowed: &[&str],
    ) -> Option<String> {
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
pub(super) fn duration(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<u64> {
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
pub(super) fn half(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<i64> {
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

pub(super) fn count(ctx: &mut Ctx, value: &Spanned<i64>, key: &str, min: i64) -> Option<u32> {
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

/// `{ main = "30:00", overtime = "canadian", stones = 20, period = "5:00" }`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawControl {
    main: Spanned<toml::Value>,
    #[serde(default)]
    overtime: Option<Spanned<String>>,
    periods: Option<Spanned<i64>>,
    period: Option<Spanned<toml::Value>>,
    stones: Option<Spanned<i64>>,
    per_move: Option<Spanned<toml::Value>>,
}

pub(super) fn control(ctx: &mut Ctx, raw: &Spanned<RawControl>, key: &str) -> Option<TimeControl> {
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
pub(super) fn colour(ctx: &mut Ctx, value: &Spanned<String>, key: &str) -> Option<Color> {
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

/// An amount of money (`300`, `12.5`, `"99.99"`) in cents.
pub(super) fn money(ctx: &mut Ctx, value: &Spanned<toml::Value>, key: &str) -> Option<u64> {
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

pub(super) fn seed(ctx: &mut Ctx, raw: Option<&Spanned<i64>>) -> u64 {
    match raw {
        None => 0,
        Some(s) if *s.get_ref() < 0 => {
            ctx.err(&s.span(), "seed", "a seed is 0 or more");
            0
        }
        Some(s) => u64::try_from(*s.get_ref()).unwrap_or(0),
    }
}

/// Exactly one of an outcome and a refusal must be expected.
pub(super) fn one_of(
    ctx: &mut Ctx,
    span: &std::ops::Range<usize>,
    outcome: bool,
    refused: &str,
    what: &str,
) {
    if outcome && refused != "none" {
        ctx.err(
            span,
            "refused",
            format!("a case expects either {what} or `refused`, not both"),
        );
    }
}

pub(super) fn rank_of(ctx: &mut Ctx, value: &Spanned<String>, key: &str) -> Option<Rank> {
    match value.get_ref().parse::<Rank>() {
        Ok(r) => Some(r),
        Err(e) => {
            ctx.err(&value.span(), key, e.to_string());
            None
        }
    }
}
