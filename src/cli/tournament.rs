//! Tournament rules on the command line: `goconform standings`, `goconform clock` and
//! `goconform handicap`, and the tournament scenarios' part of `goconform check`.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::{Args, ValueEnum};

use super::{relative, CommandResult, Project};
use crate::conformance::tournament::{run, CaseMismatch};
use crate::conformance::Tally;
use crate::scenario::tournament::{
    event_error, read_clock_file, read_crosstable, TournamentScenario,
};
use crate::scenario::Suite;
use crate::spec::location::Located;
use crate::tournament::clock::Clocks;
use crate::tournament::crosstable::{Crosstable, Entry, Half, Outcome};
use crate::tournament::handicap::{handicap, mcmahon_start, KomiRule, System};
use crate::tournament::rank::Rank;
use crate::tournament::tiebreak::{cents, standings, Tiebreak};

/// What `check` did with the selected tournament scenarios.
pub(super) struct TournamentRun {
    /// (index into `Suite::tournament`, mismatches); empty mismatches is a pass.
    results: Vec<(usize, Vec<CaseMismatch>)>,
    /// Selected but not run: the engine is not the reference.
    not_applicable: Vec<usize>,
}

/// Runs the selected tournament scenarios through the reference's tournament module, or, for
/// another engine, marks them not applicable (the `Referee` trait has no tournament rules).
/// The scenarios are independent, so they run on rayon's pool; results keep the suite's order.
pub(super) fn run_selected(
    suite: &Suite,
    selects: impl Fn(&TournamentScenario) -> bool,
    reference: bool,
) -> TournamentRun {
    use rayon::prelude::*;
    let chosen = suite
        .tournament
        .iter()
        .enumerate()
        .filter(|(_, t)| selects(t))
        .map(|(i, _)| i);
    if reference {
        let chosen: Vec<usize> = chosen.collect();
        TournamentRun {
            results: chosen
                .into_par_iter()
                .map(|i| (i, run(&suite.tournament[i])))
                .collect(),
            not_applicable: Vec::new(),
        }
    } else {
        TournamentRun {
            results: Vec::new(),
            not_applicable: chosen.collect(),
        }
    }
}

impl TournamentRun {
    /// How many tournament scenarios were selected.
    pub(super) fn len(&self) -> usize {
        self.results.len() + self.not_applicable.len()
    }

    /// One trial per scenario: it passes when every case does.
    pub(super) fn tally(&self) -> Tally {
        let mut t = Tally::default();
        self.add_to(&mut t);
        t
    }

    pub(super) fn add_to(&self, tally: &mut Tally) {
        for (_, mismatches) in &self.results {
            if mismatches.is_empty() {
                tally.pass += 1;
            } else {
                tally.fail += 1;
            }
        }
        tally.not_applicable += self.not_applicable.len();
    }

    /// Each selected scenario with its mismatches (`None`: not run), for the JUnit report.
    pub(super) fn trials<'a>(
        &'a self,
        scenarios: &'a [TournamentScenario],
    ) -> Vec<crate::conformance::junit::TournamentTrial<'a>> {
        let ran = self
            .results
            .iter()
            .map(|(i, m)| (&scenarios[*i], Some(m.as_slice())));
        let not_run = self.not_applicable.iter().map(|i| (&scenarios[*i], None));
        ran.chain(not_run).collect()
    }

    /// Tells every failing scenario on standard error, one line per differing value.
    pub(super) fn report_failures(&self, root: &Project, scenarios: &[TournamentScenario]) {
        for (i, mismatches) in &self.results {
            let s = &scenarios[*i];
            for m in mismatches {
                eprintln!(
                    "goconform: tournament scenario {} ({}) failed: {m}",
                    s.id,
                    relative(root, &s.path)
                );
            }
        }
    }

    /// Prints every failing scenario with its mismatches (and, verbose, those not applicable).
    pub(super) fn print(&self, root: &Project, scenarios: &[TournamentScenario], verbose: bool) {
        for (i, mismatches) in &self.results {
            if mismatches.is_empty() {
                continue;
            }
            let s = &scenarios[*i];
            let file = relative(root, &s.path);
            outln!();
            outln!("FAIL {} (tournament, {}) ({file})", s.id, s.kind);
            for m in mismatches {
                outln!("  {m}");
            }
            outln!("  reproduce: goconform check {file}");
        }
        if verbose {
            for i in &self.not_applicable {
                let s = &scenarios[*i];
                outln!();
                outln!("NOT APPLICABLE {} ({})", s.id, relative(root, &s.path));
                outln!("  tournament rules are run through the reference only: the Referee trait does not cover them");
            }
        }
    }
}

/// `goconform show` on a tournament scenario: every case, each expected value beside what the
/// reference computes.
pub(super) fn show(t: &TournamentScenario) -> ExitCode {
    outln!("{}: {}", t.id, t.title);
    outln!("kind: {}; clauses: {}", t.kind, t.clauses.join(", "));
    for case in &t.cases {
        outln!();
        outln!("case `{}` (line {})", case.name, case.line);
        if let Some(note) = &case.note {
            outln!("  note: {note}");
        }
        if let Some(inputs) = case.input.summary() {
            outln!("  {inputs}");
        }
        if let crate::scenario::tournament::Input::Clock(file) = &case.input {
            print_replay(file);
        }
        let mismatches = crate::conformance::tournament::run_case(case);
        let actual = |e: &crate::scenario::tournament::Expect| {
            mismatches
                .iter()
                .find(|m| m.after == e.after && m.key == e.key)
                .map_or(e.expected.clone(), |m| m.actual.clone())
        };
        for e in &case.expect {
            let at = e
                .after
                .map_or(String::new(), |a| format!("after event {a}: "));
            outln!("  {at}{} = {} (expected {})", e.key, actual(e), e.expected);
        }
        for m in mismatches.iter().filter(|m| {
            !case
                .expect
                .iter()
                .any(|e| e.after == m.after && e.key == m.key)
        }) {
            outln!("  unexpected: {m}");
        }
    }
    ExitCode::SUCCESS
}

fn located(errors: Vec<Located>) -> String {
    let lines: Vec<String> = errors.iter().map(|e| e.to_string()).collect();
    lines.join("\n")
}

/// `standings` and `clock` read a crosstable or a clock file; a tournament scenario of the
/// suite holds its inputs in `[[case]]` tables instead, and is pointed to the commands that
/// take it.
fn not_a_scenario(path: &Path, text: &str) -> Result<(), String> {
    if crate::scenario::tournament::is_tournament_text(text) {
        return Err(format!(
            "{} is a tournament scenario, not a crosstable or clock file: `goconform show {0}` prints its cases and the reference's answers, and `goconform check {0}` checks them",
            path.display()
        ));
    }
    Ok(())
}

/// The arguments of `goconform standings`.
#[derive(Args)]
pub(super) struct StandingsArgs {
    /// A crosstable: TOML (`[[player]]` with `name`, `results` and optionally `rank` or
    /// `start`; top-level `bye`, `mcmahon = { bar, floor }`, `tiebreak`, `seed`, `prizes`) or
    /// CSV (a `.csv` file: the name, optional `rank` and `start` columns, then one cell per
    /// round). A cell is the opponent with `+` won, `-` lost or `=` drew, then `!` if by
    /// forfeit (`Bob+!`); `bye`; or empty or `absent`.
    file: PathBuf,
    /// The tiebreak order, e.g. `sos,sodos,h2h,chance` (comma-separated, or repeated; default:
    /// the file's, else the AGA annex's playoff,sos,sodos,h2h,chance). Also: median, saco,
    /// cumulative.
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    tiebreak: Vec<String>,
    /// The seed of chance draws (default: the file's, else 0): the same seed, the same draw.
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
    /// Cash prizes by place, e.g. `300,100,50` (default: the file's).
    #[arg(long, value_name = "LIST", value_delimiter = ',')]
    prizes: Vec<String>,
    /// What a bye is worth: 0, 0.5 or 1 point (default: the file's, else 0; the 1988 text
    /// leaves it to the director).
    #[arg(long, value_name = "POINTS")]
    bye: Option<String>,
    /// A McMahon event: the bar (the lowest rank of the top band). Every player starts one
    /// point a band above the lowest band present; needs every player's rank (TOML `rank`, or
    /// a CSV `rank` column). Replaces the file's starting scores.
    #[arg(long, value_name = "RANK")]
    bar: Option<String>,
    /// With --bar: the McMahon floor (ranks at or below it form the bottom band).
    #[arg(long, value_name = "RANK", requires = "bar")]
    floor: Option<String>,
    /// `text`; `json` (the standings for other programs); or `results`, the games as CSV,
    /// one row a game with the round, both players, their ranks, the result and whether it was
    /// a forfeit: the results a director sends the ratings coordinator (III.B.4, VII.A).
    #[arg(long, value_enum, default_value_t = StandingsFormat::Text)]
    format: StandingsFormat,
}

/// How `standings` prints.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum StandingsFormat {
    Text,
    Json,
    Results,
}

/// `goconform standings FILE`.
pub(super) fn standings_command(args: &StandingsArgs) -> CommandResult {
    let text = super::read_input(&args.file)?;
    not_a_scenario(&args.file, &text)?;
    let file = read_crosstable(&args.file, &text).map_err(located)?;
    let order: Vec<Tiebreak> = if args.tiebreak.is_empty() {
        if file.tiebreak.is_empty() {
            Tiebreak::AGA.to_vec()
        } else {
            file.tiebreak.clone()
        }
    } else {
        args.tiebreak
            .iter()
            .map(|t| t.parse::<Tiebreak>().map_err(|e| e.to_string()))
            .collect::<Result<_, _>>()?
    };
    let prizes: Vec<u64> = if args.prizes.is_empty() {
        file.prizes.clone()
    } else {
        args.prizes
            .iter()
            .map(|p| {
                crate::scenario::tournament::parse_money(p).ok_or_else(|| {
                    format!("`{p}` is not an amount of money (0 or more, at most two decimals)")
                })
            })
            .collect::<Result<_, _>>()?
    };
    let seed = args.seed.unwrap_or(file.seed);
    let mut table = file.table.clone();
    if let Some(bye) = &args.bye {
        let half = match bye.trim() {
            "0" => 0,
            "0.5" | ".5" => 1,
            "1" => 2,
            _ => return Err(format!("--bye {bye}: a bye is worth 0, 0.5 or 1 point")),
        };
        table = table.with_bye(half);
    }
    if let Some(bar) = &args.bar {
        table = mcmahon(table, &file.ranks, bar, args.floor.as_deref())?;
    }
    let t = &table;
    let s = standings(t, &order, seed, &prizes).map_err(|e| e.to_string())?;
    match args.format {
        StandingsFormat::Json => return print_standings_json(t, &order, seed, &file.ranks, &s),
        StandingsFormat::Results => return print_results(t, &file.ranks),
        StandingsFormat::Text => {}
    }
    let words: Vec<&str> = order.iter().map(|t| t.word()).collect();
    outln!(
        "{} players, {} rounds; tiebreaks in order: {}; seed {seed}",
        t.players.len(),
        t.rounds(),
        words.join(", ")
    );
    let width = t
        .players
        .iter()
        .map(|p| p.chars().count())
        .max()
        .unwrap_or(4)
        .max(6);
    let mcmahon = t.start.iter().any(|s| *s > 0);
    let mut header = format!(
        "{:>5}  {}  {}{:>5}  {:>5}  {:>5}  {:>6}  {:>4}  {:>4}  {:<10}",
        "place",
        padded("player", width),
        if mcmahon { "start  " } else { "" },
        "score",
        "sos",
        "sodos",
        "median",
        "saco",
        "cum",
        "decided by"
    );
    if !prizes.is_empty() {
        header.push_str("  prize");
    }
    outln!("{}", header.trim_end());
    for r in &s.rows {
        let opt = |v: Option<u32>| v.map_or("-".to_string(), |v| Half(i64::from(v)).to_string());
        let h = |v: u32| Half(i64::from(v)).to_string();
        let start = if mcmahon {
            format!("{:>5}  ", h(t.start[r.player]))
        } else {
            String::new()
        };
        let mut line = format!(
            "{:>5}  {}  {start}{:>5}  {:>5}  {:>5}  {:>6}  {:>4}  {:>4}  {:<10}",
            r.place,
            padded(&t.players[r.player], width),
            h(r.score),
            h(r.sos),
            h(r.sodos),
            opt(r.median),
            opt(r.saco),
            h(r.cumulative),
            r.decided_by.map_or("-", |d| d.word()),
        );
        if let Some(p) = r.prize {
            line.push_str(&format!("  {}", cents(p)));
        }
        outln!("{}", line.trim_end());
    }
    for n in s.notes.iter().chain(&event_notes(t)) {
        outln!("note: {n}");
    }
    Ok(ExitCode::SUCCESS)
}

/// The table with McMahon starting scores from the bar, the floor and the players' ranks.
fn mcmahon(
    table: Crosstable,
    ranks: &[Option<Rank>],
    bar: &str,
    floor: Option<&str>,
) -> Result<Crosstable, String> {
    let bar: Rank = bar.parse().map_err(|e| format!("--bar {bar}: {e}"))?;
    let floor: Option<Rank> = floor
        .map(|f| f.parse().map_err(|e| format!("--floor {f}: {e}")))
        .transpose()?;
    let missing: Vec<&str> = table
        .players
        .iter()
        .zip(ranks)
        .filter(|(_, r)| r.is_none())
        .map(|(p, _)| p.as_str())
        .collect();
    if !missing.is_empty() {
        return Err(format!(
            "--bar: McMahon starting scores come from the players' ranks, and the crosstable gives none for {} (a TOML `rank` key, or a CSV `rank` column)",
            missing.join(", ")
        ));
    }
    let known: Vec<Rank> = ranks.iter().flatten().copied().collect();
    let start = mcmahon_start(&known, bar, floor).map_err(|e| e.to_string())?;
    Ok(table.with_start(start))
}

/// What the standings alone do not show: byes and their worth, forfeits, withdrawals.
fn event_notes(t: &Crosstable) -> Vec<String> {
    let mut notes = Vec::new();
    let byes = t
        .entries
        .iter()
        .flatten()
        .filter(|e| **e == Entry::Bye)
        .count();
    if byes > 0 {
        notes.push(format!(
            "{byes} bye(s), each worth {} point(s)",
            Half(i64::from(t.bye))
        ));
    }
    for (p, row) in t.entries.iter().enumerate() {
        for (r, e) in row.iter().enumerate() {
            if let Entry::Played(g) = e {
                if g.forfeit && g.outcome == Outcome::Win {
                    notes.push(format!(
                        "round {}: {} won by forfeit against {}; it counts as a win (VIII.B)",
                        r + 1,
                        t.players[p],
                        t.players[g.opponent]
                    ));
                }
            }
        }
        if let Some(k) = t.withdrew_after(p) {
            notes.push(match k {
                0 => format!("{} played no round", t.players[p]),
                k => format!("{} withdrew after round {k}", t.players[p]),
            });
        }
    }
    notes
}

/// The standings as one JSON document.
fn print_standings_json(
    t: &Crosstable,
    order: &[Tiebreak],
    seed: u64,
    ranks: &[Option<Rank>],
    s: &crate::tournament::tiebreak::Standings,
) -> CommandResult {
    // Whole points as integers, half points as decimals: 3 and 2.5.
    let points = |h: u32| {
        if h.is_multiple_of(2) {
            serde_json::json!(h / 2)
        } else {
            serde_json::json!(f64::from(h) / 2.0)
        }
    };
    let rows: Vec<serde_json::Value> = s
        .rows
        .iter()
        .map(|r| {
            serde_json::json!({
                "place": r.place,
                "player": t.players[r.player],
                "rank": ranks.get(r.player).copied().flatten().map(|r| r.to_string()),
                "start": points(t.start[r.player]),
                "score": points(r.score),
                "sos": points(r.sos),
                "sodos": points(r.sodos),
                "median": r.median.map(points),
                "saco": r.saco.map(points),
                "cumulative": points(r.cumulative),
                "decided_by": r.decided_by.map(|d| d.word()),
                "prize": r.prize.map(cents),
                "withdrew_after": t.withdrew_after(r.player),
            })
        })
        .collect();
    let doc = serde_json::json!({
        "players": t.players.len(),
        "rounds": t.rounds(),
        "tiebreaks": order.iter().map(|o| o.word()).collect::<Vec<_>>(),
        "seed": seed,
        "bye": points(t.bye),
        "standings": rows,
        "notes": s.notes.iter().chain(&event_notes(t)).collect::<Vec<_>>(),
    });
    let text = serde_json::to_string_pretty(&doc).map_err(|e| e.to_string())?;
    outln!("{text}");
    Ok(ExitCode::SUCCESS)
}

/// The games as CSV, each once (from the side that comes first in the table), in round
/// order: byes and absences are not games and are left out; forfeits are marked, and count
/// as the win they give (VIII.B: entered for ratings as such).
fn print_results(t: &Crosstable, ranks: &[Option<Rank>]) -> CommandResult {
    let mut out = csv::Writer::from_writer(Vec::new());
    let rank = |p: usize| {
        ranks
            .get(p)
            .copied()
            .flatten()
            .map_or(String::new(), |r| r.to_string())
    };
    let io = |e: csv::Error| e.to_string();
    out.write_record([
        "round",
        "player",
        "rank",
        "opponent",
        "opponent_rank",
        "result",
        "forfeit",
    ])
    .map_err(io)?;
    for r in 0..t.rounds() {
        for (p, row) in t.entries.iter().enumerate() {
            let Entry::Played(g) = row[r] else { continue };
            if g.opponent < p {
                continue;
            }
            let result = match g.outcome {
                Outcome::Win => "1-0",
                Outcome::Loss => "0-1",
                Outcome::Draw => "draw",
            };
            out.write_record([
                (r + 1).to_string(),
                t.players[p].clone(),
                rank(p),
                t.players[g.opponent].clone(),
                rank(g.opponent),
                result.to_string(),
                if g.forfeit { "yes" } else { "no" }.to_string(),
            ])
            .map_err(io)?;
        }
    }
    let bytes = out.into_inner().map_err(|e| e.to_string())?;
    out!("{}", String::from_utf8_lossy(&bytes));
    Ok(ExitCode::SUCCESS)
}

/// `goconform clock FILE`: replays the events and prints the clocks after each.
pub(super) fn clock_command(path: &Path) -> CommandResult {
    let text = super::read_input(path)?;
    not_a_scenario(path, &text)?;
    let file = read_clock_file(path, &text).map_err(located)?;
    match file.control {
        Some(c) => {
            let rated = match c.rated() {
                Ok(()) => "acceptable for rated games (VI.E.1)".to_string(),
                Err(why) => format!("not acceptable for rated games (VI.E.1): {why}"),
            };
            outln!("control: {c}; {rated}");
        }
        None => outln!("control: no clocks (VI.E.5: more than 30 minutes absent forfeits)"),
    }
    let mut clocks = Clocks::new(file.control, file.first).with_stops(file.stops);
    for (k, e) in file.events.iter().enumerate() {
        clocks
            .apply(e.at, e.event)
            .map_err(|err| event_error(path, e, k, format!("`{}`: {err}", e.event)).to_string())?;
        outln!("{:>3}. {:<24} {clocks}", k + 1, e.event.to_string());
    }
    Ok(ExitCode::SUCCESS)
}

/// A scenario's clock case event by event; refused events are shown as such and change
/// nothing but the time.
fn print_replay(file: &crate::scenario::tournament::ClockFile) {
    let mut clocks = Clocks::new(file.control, file.first).with_stops(file.stops);
    for (k, e) in file.events.iter().enumerate() {
        match clocks.apply(e.at, e.event) {
            Ok(()) => outln!("  {:>3}. {:<24} {clocks}", k + 1, e.event.to_string()),
            Err(err) => outln!(
                "  {:>3}. {:<24} refused ({}): {err}",
                k + 1,
                e.event.to_string(),
                err.word()
            ),
        }
    }
}

/// `--system`.
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum SystemChoice {
    /// VI.A.2: the difference in rank.
    Aga,
    /// VI.A.2.b: the difference in McMahon band (needs --bar).
    Mcmahon,
}

/// The arguments of `goconform handicap`.
#[derive(Args)]
pub(super) struct HandicapArgs {
    /// One player's rank, e.g. 3k or 2d.
    first: String,
    /// The other player's rank.
    second: String,
    #[arg(long, value_enum, default_value_t = SystemChoice::Aga)]
    system: SystemChoice,
    /// McMahon: the lowest rank of the top band; nobody at or above it receives a handicap.
    #[arg(long, value_name = "RANK")]
    bar: Option<String>,
    /// McMahon: ranks at or below this one form one bottom band.
    #[arg(long, value_name = "RANK")]
    floor: Option<String>,
}

/// `goconform handicap RANK RANK`.
pub(super) fn handicap_command(root: &Project, args: &HandicapArgs) -> CommandResult {
    let rank = |s: &str| s.parse::<Rank>().map_err(|e| e.to_string());
    let ranks = [rank(&args.first)?, rank(&args.second)?];
    let system = match args.system {
        SystemChoice::Aga => {
            if args.bar.is_some() || args.floor.is_some() {
                return Err("--bar and --floor belong to --system mcmahon".to_string());
            }
            System::Rank
        }
        SystemChoice::Mcmahon => {
            let bar = args
                .bar
                .as_deref()
                .ok_or("--system mcmahon needs --bar RANK (the lowest rank of the top band)")?;
            System::McMahon {
                bar: rank(bar)?,
                floor: args.floor.as_deref().map(rank).transpose()?,
            }
        }
    };
    let h = handicap(ranks, system).map_err(|e| e.to_string())?;
    let what = match system {
        System::Rank => "ranks",
        System::McMahon { .. } => "McMahon bands",
    };
    match h.black {
        None => outln!(
            "{} v {}: even game ({what} equal); colours by lot (VI.A.4)",
            ranks[0],
            ranks[1]
        ),
        Some(i) => {
            let capped = if u32::from(h.stones) < h.difference {
                format!(" (difference {}, capped at nine by VI.A.2.a)", h.difference)
            } else {
                String::new()
            };
            if h.placed() == 0 {
                outln!(
                    "{} v {}: {} takes Black with a one-stone handicap: no stone placed, Black moves first (AGA Rule 4)",
                    ranks[0],
                    ranks[1],
                    ranks[i],
                );
            } else {
                outln!(
                    "{} v {}: {} takes Black with {} stone(s){capped}",
                    ranks[0],
                    ranks[1],
                    ranks[i],
                    h.stones
                );
            }
        }
    }
    let spec = super::load_spec(root)?;
    let mut rows = vec![("aga-tournament-1988".to_string(), KomiRule::AGA_1988)];
    for name in ["aga", "london-open"] {
        if let Ok(r) = spec.rules(name) {
            rows.push((name.to_string(), KomiRule::of(&r)));
        }
    }
    for (name, rule) in rows {
        let komi = rule.komi(h.stones);
        // Counts are whole points, so only a whole komi can leave a tie.
        let draw = if komi.half_points() % 2 != 0 {
            "no tie can occur".to_string()
        } else {
            match rule.settle(h.stones, komi) {
                Some((c, _)) => format!("a tie goes to {}", c.name()),
                None => "a tie stands as a draw".to_string(),
            }
        };
        outln!("  komi under {name:<20} {}; {draw}", rule.komi(h.stones));
    }
    Ok(ExitCode::SUCCESS)
}

/// `text` followed by spaces up to `width` characters. Not `{:<width$}`: a format width is at
/// most 65,535, and a player's name may be longer.
fn padded(text: &str, width: usize) -> String {
    format!(
        "{text}{}",
        " ".repeat(width.saturating_sub(text.chars().count()))
    )
}
