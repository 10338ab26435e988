//! The case kinds with a handful of inputs each: rank, handicap, komi, nigiri, time control and
//! round start.

use super::values::*;
use super::*;
use crate::rules::Komi;
use crate::spec::Spec;
use crate::tournament::handicap::{KomiRule, System};
use crate::tournament::rank::Rank;
use serde::Deserialize;
use toml::Spanned;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RankCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    rating: i64,
    rank: Option<Spanned<String>>,
    entry: Option<Spanned<String>>,
    allowed: Option<Spanned<bool>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HandicapCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    players: Spanned<Vec<Spanned<String>>>,
    system: Option<Spanned<String>>,
    bar: Option<Spanned<String>>,
    floor: Option<Spanned<String>>,
    stones: Option<Spanned<i64>>,
    placed: Option<Spanned<i64>>,
    black: Option<Spanned<String>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct KomiCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    rules: Spanned<String>,
    stones: Spanned<i64>,
    margin: Spanned<toml::Value>,
    komi: Option<Spanned<toml::Value>>,
    result: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct NigiriCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    handful: Spanned<i64>,
    shown: Spanned<i64>,
    black: Option<Spanned<String>>,
    refused: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RoundStartCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    announced: Option<Spanned<toml::Value>>,
    notice: Spanned<toml::Value>,
    start: Spanned<toml::Value>,
    allowed: Option<Spanned<bool>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TimeControlCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    control: Spanned<RawControl>,
    rated: Option<Spanned<bool>>,
    refused: Option<Spanned<String>>,
}

pub(super) fn rank_case(c: &RankCase, ctx: &mut Ctx) -> Option<Input> {
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

pub(super) fn handicap_case(c: &HandicapCase, ctx: &mut Ctx) -> Option<Input> {
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
    if let Some(s) = &c.placed {
        if (0..=9).contains(s.get_ref()) {
            ctx.push(None, "placed".into(), s.get_ref().to_string(), &s.span());
        } else {
            ctx.err(
                &s.span(),
                "placed",
                "the stones put on the board before White's first move: 0 to 9",
            );
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
            c.stones.is_some() || c.placed.is_some() || c.black.is_some(),
            r.get_ref(),
            "`stones`/`placed`/`black`",
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

pub(super) fn komi_case(c: &KomiCase, ctx: &mut Ctx, spec: &Spec) -> Option<Input> {
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
        match crate::scenario::parse_result(r.get_ref()) {
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
pub(super) fn small_komi(
    ctx: &mut Ctx,
    value: &Spanned<toml::Value>,
    key: &str,
    half: i64,
) -> Option<Komi> {
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

pub(super) fn nigiri_case(c: &NigiriCase, ctx: &mut Ctx) -> Option<Input> {
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

pub(super) fn time_control_case(c: &TimeControlCase, ctx: &mut Ctx) -> Option<Input> {
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

pub(super) fn round_start_case(c: &RoundStartCase, ctx: &mut Ctx) -> Option<Input> {
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
