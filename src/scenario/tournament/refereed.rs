//! The `refereed-game` kind: a game between two scripted programs run through the match
//! referee (`goconform referee`'s procedure around the board), for the tournament rules that
//! govern programs and directors rather than positions: AGA Tournament Rules VII.C.2 (an
//! entered program must never make an illegal move) and the rulesets' own procedures for an
//! illegal move noticed at once.

use serde::Deserialize;
use toml::Spanned;

use super::values::*;
use super::*;
use crate::board::{Move, Point};
use crate::referee::player::Generated;
use crate::referee::IllegalMoves;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RefereedGameCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
    /// The ruleset the referee judges by.
    rules: Spanned<String>,
    /// The side of the square board.
    size: Spanned<i64>,
    /// `procedure` (the ruleset's own; the default) or `lose` (`--illegal-move lose`).
    illegal_move: Option<Spanned<String>>,
    /// Each program's answers to `genmove`, in order: a vertex, `pass` or `resign`.
    black: Spanned<Vec<Spanned<String>>>,
    white: Spanned<Vec<Spanned<String>>>,
    /// Each program's answer whenever it is asked which stones are dead.
    black_dead: Option<Spanned<Vec<Spanned<String>>>>,
    white_dead: Option<Spanned<Vec<Spanned<String>>>>,
    result: Option<Spanned<String>>,
    ending: Option<Spanned<String>>,
    moves: Option<Spanned<i64>>,
}

pub(super) fn refereed_game_case(
    c: &RefereedGameCase,
    ctx: &mut Ctx,
    spec: &Spec,
) -> Option<Input> {
    let rules = match spec.rules(c.rules.get_ref()) {
        Ok(r) => Some(r),
        Err(message) => {
            ctx.err(&c.rules.span(), "rules", message);
            None
        }
    };
    let size = match u8::try_from(*c.size.get_ref()) {
        Ok(s) if (2..=19).contains(&s) => Some(s),
        _ => {
            ctx.err(&c.size.span(), "size", "a square board of 2 to 19 lines");
            None
        }
    };
    let illegal_moves = match &c.illegal_move {
        None => Some(IllegalMoves::Procedure),
        Some(w) => ctx
            .word(w, "illegal_move", &["procedure", "lose"])
            .map(|w| match w.as_str() {
                "lose" => IllegalMoves::Lose,
                _ => IllegalMoves::Procedure,
            }),
    };
    if let Some(r) = &c.result {
        match result_words(r.get_ref()) {
            Ok(v) => ctx.push(None, "result".into(), v, &r.span()),
            Err(e) => ctx.err(&r.span(), "result", e),
        }
    }
    if let Some(e) = &c.ending {
        ctx.push(None, "ending".into(), e.get_ref().clone(), &e.span());
    }
    if let Some(m) = &c.moves {
        ctx.push(None, "moves".into(), m.get_ref().to_string(), &m.span());
    }
    let size = size?;
    let black = script(ctx, &c.black, "black", size);
    let white = script(ctx, &c.white, "white", size);
    let black_dead = points(ctx, c.black_dead.as_ref(), "black_dead", size);
    let white_dead = points(ctx, c.white_dead.as_ref(), "white_dead", size);
    Some(Input::RefereedGame {
        ruleset: c.rules.get_ref().clone(),
        rules: rules?,
        size,
        illegal_moves: illegal_moves?,
        scripts: [black?, white?],
        dead: [black_dead?, white_dead?],
    })
}

/// A result as the referee writes it: any result a board scenario may expect
/// ([`crate::scenario::parse_result`]), or a loss on time or by forfeit (`W+T`, `B+F`), which
/// only a game with clocks and programs can end in.
fn result_words(text: &str) -> Result<String, String> {
    match text {
        "B+T" | "W+T" | "B+F" | "W+F" => Ok(text.to_string()),
        _ => crate::scenario::parse_result(text)
            .map_err(|e| format!("{e}; or B+T, W+T (time) or B+F, W+F (forfeit)")),
    }
}

fn script(
    ctx: &mut Ctx,
    words: &Spanned<Vec<Spanned<String>>>,
    key: &str,
    size: u8,
) -> Option<Vec<Generated>> {
    let mut out = Vec::new();
    let mut ok = true;
    for (i, w) in words.get_ref().iter().enumerate() {
        let word = w.get_ref().trim();
        if word.eq_ignore_ascii_case("resign") {
            out.push(Generated::Resign);
            continue;
        }
        match Move::parse_gtp(word, size, size) {
            Ok(mv) => out.push(Generated::Move(mv)),
            Err(e) => {
                ctx.err(&w.span(), &format!("{key}[{i}]"), e.to_string());
                ok = false;
            }
        }
    }
    ok.then_some(out)
}

fn points(
    ctx: &mut Ctx,
    words: Option<&Spanned<Vec<Spanned<String>>>>,
    key: &str,
    size: u8,
) -> Option<Vec<Point>> {
    let Some(words) = words else {
        return Some(Vec::new());
    };
    let mut out = Vec::new();
    let mut ok = true;
    for (i, w) in words.get_ref().iter().enumerate() {
        match Point::parse_gtp(w.get_ref().trim(), size, size) {
            Ok(p) => out.push(p),
            Err(e) => {
                ctx.err(&w.span(), &format!("{key}[{i}]"), e.to_string());
                ok = false;
            }
        }
    }
    ok.then_some(out)
}
