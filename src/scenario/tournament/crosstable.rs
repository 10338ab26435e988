//! Crosstables: the `[[player]]` tables of a standings case or a crosstable file, CSV
//! crosstables, tiebreak lists, seeds and prizes.

use super::values::*;
use super::*;
use crate::spec::location::{Located, Source};
use crate::tournament::crosstable::{Crosstable, CrosstableError, Entry, Game, Half, Outcome};
use crate::tournament::rank::Rank;
use crate::tournament::tiebreak::Tiebreak;
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;
use toml::Spanned;

/// A crosstable file (or a standings case): the table and how to break its ties.
#[derive(Clone, Debug)]
pub struct CrosstableFile {
    /// The games, byes and absences, checked consistent, with starting scores and the
    /// worth of a bye.
    pub table: Crosstable,
    /// Empty when the file names none (the caller's default applies).
    pub tiebreak: Vec<Tiebreak>,
    /// The seed of the chance tiebreak's draws (0 when the file gives none): the same seed,
    /// the same standings.
    pub seed: u64,
    /// Prizes by place, in cents.
    pub prizes: Vec<u64>,
    /// Each player's rank where the file gives one (McMahon bands are drawn from them).
    pub ranks: Vec<Option<Rank>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPlayer {
    name: Spanned<String>,
    /// The rank the player plays at: McMahon bands are drawn from it.
    rank: Option<Spanned<String>>,
    /// A McMahon starting score given outright, in points.
    start: Option<Spanned<toml::Value>>,
    results: Vec<Spanned<String>>,
}

/// `mcmahon = { bar = "2d", floor = "10k" }`: starting scores from the players' bands.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawMcMahon {
    bar: Spanned<String>,
    floor: Option<Spanned<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawCrosstable {
    tiebreak: Option<Vec<Spanned<String>>>,
    seed: Option<Spanned<i64>>,
    prizes: Option<Vec<Spanned<toml::Value>>>,
    bye: Option<Spanned<toml::Value>>,
    mcmahon: Option<Spanned<RawMcMahon>>,
    player: Vec<RawPlayer>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StandingsCase {
    pub(super) name: String,
    pub(super) note: Option<String>,
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
    bye: Option<Spanned<toml::Value>>,
    mcmahon: Option<Spanned<RawMcMahon>>,
    player: Vec<RawPlayer>,
}

pub(super) fn standings_case(c: &StandingsCase, ctx: &mut Ctx) -> Option<Input> {
    let event = EventKeys {
        bye: c.bye.as_ref(),
        mcmahon: c.mcmahon.as_ref(),
    };
    let table = players_table(ctx, &c.player, "player", &event);
    let tiebreak = c
        .tiebreak
        .as_deref()
        .map(|t| tiebreaks(ctx, t))
        .unwrap_or_else(|| Tiebreak::AGA.to_vec());
    let seed = seed(ctx, c.seed.as_ref());
    let prizes = prizes(ctx, c.prizes.as_ref());
    let (table, ranks) = table?;
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
        ranks,
    }))
}

/// A crosstable cell: `NAME+` won, `NAME-` lost, `NAME=` drew, each with `!` after the mark
/// when decided by forfeit (`NAME+!`); `bye` a bye; empty or `absent` an absence.
pub(super) fn cell(
    text: &str,
    players: &std::collections::HashMap<&str, usize>,
) -> Result<Entry, String> {
    let t = text.trim();
    if t.is_empty() || t.eq_ignore_ascii_case("absent") {
        return Ok(Entry::Absent);
    }
    if t.eq_ignore_ascii_case("bye") {
        return Ok(Entry::Bye);
    }
    let (t, forfeit) = match t.strip_suffix('!') {
        Some(rest) if rest.ends_with(['+', '-', '=']) => (rest, true),
        _ => (t, false),
    };
    let outcome = match t.chars().last() {
        Some('+') => Outcome::Win,
        Some('-') => Outcome::Loss,
        Some('=') => Outcome::Draw,
        _ => {
            return Err(format!(
                "`{t}` is not a result: the opponent's name followed by + (won), - (lost) or = (drew) (and ! if by forfeit), `bye`, or empty or `absent`"
            ))
        }
    };
    let name = t[..t.len() - 1].trim();
    match players.get(name) {
        Some(&opponent) => Ok(Entry::Played(Game {
            opponent,
            outcome,
            forfeit,
        })),
        None => Err(format!("unknown player `{name}`: not in the crosstable")),
    }
}

/// Where each cell of a crosstable is, for messages: (line, column, key).
pub(super) type CellPlace = (usize, usize, String);

/// Builds and checks a crosstable from names and cells with their places.
pub(super) fn build_table(
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
        let mark_and_bang = ["+!", "-!", "=!"].iter().any(|m| name.ends_with(m));
        if name.is_empty()
            || name.ends_with(['+', '-', '='])
            || mark_and_bang
            || name.eq_ignore_ascii_case("bye")
            || name.eq_ignore_ascii_case("absent")
        {
            errors.push(at(
                place,
                format!(
                    "`{name}` cannot be a player's name: it is empty, `bye` or `absent`, or ends in +, - or = (with or without !)"
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
                    out.push(Entry::Absent);
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

/// The keys about the event as a whole that shape the scores.
pub(super) struct EventKeys<'a> {
    pub(super) bye: Option<&'a Spanned<toml::Value>>,
    pub(super) mcmahon: Option<&'a Spanned<RawMcMahon>>,
}

/// Builds the table of `[[player]]` tables, with the starting scores and the worth of a bye,
/// and the ranks given.
pub(super) fn players_table(
    ctx: &mut Ctx,
    players: &[RawPlayer],
    prefix: &str,
    event: &EventKeys,
) -> Option<(Crosstable, Vec<Option<Rank>>)> {
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
    let ranks: Vec<Option<Rank>> = players
        .iter()
        .enumerate()
        .map(|(i, p)| {
            p.rank
                .as_ref()
                .and_then(|r| rank_of(ctx, r, &format!("{prefix}[{i}].rank")))
        })
        .collect();
    let bye = match event.bye {
        None => Some(0),
        Some(v) => half(ctx, v, "bye").and_then(|h| match u32::try_from(h) {
            Ok(h @ 0..=2) => Some(h),
            _ => {
                ctx.err(&v.span(), "bye", "a bye is worth 0, 0.5 or 1 point");
                None
            }
        }),
    };
    let start = match event.mcmahon {
        Some(m) => mcmahon_start(ctx, m, players, &ranks, prefix),
        None => {
            let mut start = Vec::new();
            for (i, p) in players.iter().enumerate() {
                let key = format!("{prefix}[{i}].start");
                let value = match &p.start {
                    None => Some(0),
                    Some(v) => half(ctx, v, &key).and_then(|h| match u32::try_from(h) {
                        Ok(h) => Some(h),
                        Err(_) => {
                            ctx.err(&v.span(), &key, "a starting score is 0 or more");
                            None
                        }
                    }),
                };
                start.push(value.unwrap_or(0));
            }
            Some(start)
        }
    };
    let table = build_table(ctx.source.path, names, cells, ctx.errors)?;
    Some((table.with_start(start?).with_bye(bye?), ranks))
}

/// Starting scores from the McMahon bar and floor and every player's rank.
fn mcmahon_start(
    ctx: &mut Ctx,
    raw: &Spanned<RawMcMahon>,
    players: &[RawPlayer],
    ranks: &[Option<Rank>],
    prefix: &str,
) -> Option<Vec<u32>> {
    let m = raw.get_ref();
    let bar = rank_of(ctx, &m.bar, "mcmahon.bar");
    let floor = match &m.floor {
        Some(f) => Some(rank_of(ctx, f, "mcmahon.floor")?),
        None => None,
    };
    let mut known = Vec::new();
    for (i, p) in players.iter().enumerate() {
        if let Some(s) = &p.start {
            ctx.err(
                &s.span(),
                &format!("{prefix}[{i}].start"),
                "give either `mcmahon` (starting scores from the ranks) or each player's `start`, not both",
            );
        }
        match (ranks[i], &p.rank) {
            (Some(r), _) => known.push(r),
            (None, Some(_)) => {} // already reported
            (None, None) => ctx.err(
                &p.name.span(),
                &format!("{prefix}[{i}].rank"),
                "`mcmahon` draws starting scores from the players' ranks: give this player's `rank`",
            ),
        }
    }
    if known.len() != players.len() {
        return None;
    }
    match crate::tournament::handicap::mcmahon_start(&known, bar?, floor) {
        Ok(start) => Some(start),
        Err(e) => {
            ctx.err(&raw.span(), "mcmahon", e.to_string());
            None
        }
    }
}

pub(super) fn tiebreaks(ctx: &mut Ctx, raw: &[Spanned<String>]) -> Vec<Tiebreak> {
    let mut out = Vec::new();
    for (i, t) in raw.iter().enumerate() {
        match t.get_ref().parse::<Tiebreak>() {
            Ok(t) => out.push(t),
            Err(e) => ctx.err(&t.span(), &format!("tiebreak[{i}]"), e.to_string()),
        }
    }
    out
}

pub(super) fn prizes(ctx: &mut Ctx, raw: Option<&Vec<Spanned<toml::Value>>>) -> Vec<u64> {
    raw.map(|list| {
        list.iter()
            .enumerate()
            .filter_map(|(i, p)| money(ctx, p, &format!("prizes[{i}]")))
            .collect()
    })
    .unwrap_or_default()
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
    let event = EventKeys {
        bye: raw.bye.as_ref(),
        mcmahon: raw.mcmahon.as_ref(),
    };
    let table = players_table(&mut ctx, &raw.player, "player", &event);
    let tiebreak = raw
        .tiebreak
        .as_deref()
        .map(|t| tiebreaks(&mut ctx, t))
        .unwrap_or_default();
    let seed = seed(&mut ctx, raw.seed.as_ref());
    let prizes = prizes(&mut ctx, raw.prizes.as_ref());
    match table {
        Some((table, ranks)) if errors.is_empty() => Ok(CrosstableFile {
            table,
            tiebreak,
            seed,
            prizes,
            ranks,
        }),
        _ => Err(never_empty(&source, errors)),
    }
}

pub(super) fn read_csv(path: &Path, text: &str) -> Result<CrosstableFile, Vec<Located>> {
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
    // `rank` and `start` columns may stand between the name and the rounds.
    let column_of = |word: &str| {
        (1..headers.len())
            .take_while(|&i| {
                let h = headers.get(i).unwrap_or("");
                h.eq_ignore_ascii_case("rank") || h.eq_ignore_ascii_case("start")
            })
            .find(|&i| headers.get(i).is_some_and(|h| h.eq_ignore_ascii_case(word)))
    };
    let (rank_column, start_column) = (column_of("rank"), column_of("start"));
    let first_round = 1 + usize::from(rank_column.is_some()) + usize::from(start_column.is_some());
    if headers.len() <= first_round {
        return Err(vec![whole(
            1,
            "the header row names the player column and at least one round".to_string(),
        )]);
    }
    let rounds = headers.len() - first_round;
    let mut ranks = Vec::new();
    let mut start_scores: Vec<u32> = Vec::new();
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
            if i < first_round {
                headers.get(i).unwrap_or("name").to_string()
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
                    "this row has {} cells; the header has {} (the name{} and {rounds} round(s))",
                    record.len(),
                    headers.len(),
                    match first_round {
                        1 => "",
                        2 if rank_column.is_some() => ", the rank",
                        2 => ", the starting score",
                        _ => ", the rank, the starting score",
                    }
                ),
            });
            continue;
        }
        let mut located = |i: usize, message: String| {
            errors.push(Located {
                file: path.to_path_buf(),
                line,
                column: column(i),
                key: key(i),
                message,
            })
        };
        ranks.push(rank_column.and_then(|i| match record[i].parse::<Rank>() {
            Ok(r) => Some(r),
            Err(_) if record[i].is_empty() => None,
            Err(e) => {
                located(i, e.to_string());
                None
            }
        }));
        start_scores.push(
            start_column.map_or(0, |i| match starting_points(&record[i]) {
                Some(h) => h,
                None => {
                    located(
                        i,
                        format!(
                        "`{}` is not a starting score: a whole or half number of points, 0 or more",
                        &record[i]
                    ),
                    );
                    0
                }
            }),
        );
        names.push((record[0].to_string(), (line, column(0), key(0))));
        cells.push(
            (first_round..record.len())
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
            table: table.with_start(start_scores),
            tiebreak: Vec::new(),
            seed: 0,
            prizes: Vec::new(),
            ranks,
        }),
        _ => Err(never_empty(&Source::new(path, text), errors)),
    }
}

/// `2`, `1.5` points as half points (`None` for anything else, negative included).
fn starting_points(text: &str) -> Option<u32> {
    let t = text.trim();
    if t.is_empty() {
        return Some(0);
    }
    let (whole, frac) = t.split_once('.').unwrap_or((t, ""));
    let w: u32 = whole.parse().ok()?;
    let half = match frac.trim_end_matches('0') {
        "" => 0,
        "5" => 1,
        _ => return None,
    };
    w.checked_mul(2)?.checked_add(half)
}
