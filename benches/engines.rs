//! Fuzzing engines in other processes: one event per round trip against the whole game in one
//! exchange, in the same run.
//!
//! Run with `cargo bench --bench engines` (under a minute). The same seeded games as
//! `goconform fuzz` (seed 1, the first `GAMES` of them) go through the fuzzing differential
//! against each engine three times: once through a wrapper that hides [`Referee::announce`],
//! so that every event is its own exchange (GTP: `is_legal`, `play`, two `list_stones`, each
//! waiting for its answer; JSON lines: one request per prefix of the game); once as the engine
//! is, each game announced with its start and played before the next (pipelined GTP commands,
//! or one JSON-lines request a game); and once as `goconform fuzz` plays them, games prepared
//! in batches and told to the engine ahead of the one compared ([`Ahead`]: a JSON-lines engine
//! is sent a batch of requests in one write and answers them while this side compares; a GTP
//! engine keeps a game between commands and gains nothing). Every pass must agree on every
//! game; the rates and their ratios are printed.
//!
//! Engines: GNU Go 3.8 over GTP (skipped with the reason when it is not installed) and the
//! reference behind the JSON-lines protocol (`goconform serve`, this crate's binary), held to
//! the protocol's schema as `fuzz` and `check` hold it by default and leniently; and the
//! reference in this process on the same games, the rate `serve` is held to.
//!
//! A pass of a fast engine lasts tens of milliseconds, so on a shared machine one pass can
//! land on a moment another tenant holds a processor (sending ahead needs both: the engine
//! answers while this side compares). The two faster passes are therefore played `ROUNDS`
//! times, each round followed at once by a pass of the reference in process, and the bench
//! prints each contender's best round and the range of the ratios round by round: the best
//! is what the code does when the machine lets it, the range shows how much the machine
//! moved. The slow pass (one event per exchange, seconds long) is played once.

use std::time::Instant;

use goconform::conformance::{OneAtATime, Referee, Reference};
use goconform::engines::gtp::{gnugo_program, profile_by_name, GtpEngine};
use goconform::engines::jsonl::{JsonlEngine, JsonlOptions};
use goconform::fuzzing::{differential, game_bytes, Ahead, GameInput, Played};

/// Games per pass.
const GAMES: u64 = 400;
const SEED: u64 = 1;
/// Games prepared and told to the engine at a time, as `goconform fuzz` does.
const BATCH: usize = 8;
/// Rounds of the faster passes (see the opening comment).
const ROUNDS: usize = 5;

/// Plays the games through `engine`, each with `differential` before the next or, given a
/// batch, with [`Ahead`]: how many agreed, the events compared, games a second.
fn pass(engine: &mut dyn Referee, batch: Option<usize>) -> (u64, usize, f64, Vec<String>) {
    let capabilities = engine.capabilities();
    let mut games = (0..GAMES).map(|game| {
        (
            game,
            GameInput::from_bytes(&game_bytes(SEED, game)).realise(&capabilities),
        )
    });
    let started = Instant::now();
    let (mut agreed, mut compared) = (0, 0);
    let mut outcomes = Vec::new();
    let mut count = |played: Played| {
        if let Played::Agreed { asked } = played {
            agreed += 1;
            compared += asked;
        }
        outcomes.push(format!("{played:?}"));
    };
    let mut reference = Reference::new();
    match batch {
        None => {
            for (_, case) in games {
                count(differential(&mut reference, engine, &case));
            }
        }
        Some(batch) => {
            let mut ahead = Ahead::new(batch);
            while let Some((_, _, played)) =
                ahead.next(&mut reference, engine, &mut |_| games.next())
            {
                count(played);
            }
        }
    }
    let rate = GAMES as f64 / started.elapsed().as_secs_f64();
    (agreed, compared, rate, outcomes)
}

/// The rates of one engine: the slow pass, then each round's rates a game at a time and
/// sent ahead, with the rate of the reference in process played right after them.
struct Rates {
    whole: Vec<f64>,
    ahead: Vec<f64>,
    in_process: Vec<f64>,
}

fn best(rates: &[f64]) -> f64 {
    rates.iter().copied().fold(0.0, f64::max)
}

/// The lowest and highest of `rates[k] / base[k]`, round by round.
fn ratio_range(rates: &[f64], base: &[f64]) -> (f64, f64) {
    let ratios = rates.iter().zip(base).map(|(r, b)| r / b);
    let low = ratios.clone().fold(f64::INFINITY, f64::min);
    (low, ratios.fold(0.0, f64::max))
}

/// The passes through the engine `make` starts (see the opening comment); every pass must
/// agree with the first on every game.
fn compare(name: &str, make: &dyn Fn() -> Box<dyn Referee>) -> Rates {
    let (a1, c1, slow, o1) = pass(&mut OneAtATime(make()), None);
    let mut rates = Rates {
        whole: Vec::new(),
        ahead: Vec::new(),
        in_process: Vec::new(),
    };
    for _ in 0..ROUNDS {
        let (a2, c2, whole, o2) = pass(make().as_mut(), None);
        let (a3, c3, ahead, o3) = pass(make().as_mut(), Some(BATCH));
        let (_, _, in_process, _) = pass(&mut Reference::new(), None);
        assert_eq!(o1, o2, "{name}: the first two passes disagree on some game");
        assert_eq!(o2, o3, "{name}: the games sent ahead disagree on some game");
        assert_eq!((a1, c1), (a2, c2));
        assert_eq!((a2, c2), (a3, c3));
        rates.whole.push(whole);
        rates.ahead.push(ahead);
        rates.in_process.push(in_process);
    }
    let (whole, ahead) = (best(&rates.whole), best(&rates.ahead));
    println!(
        "{name:<34} one event at a time {slow:>8.0} games/s | whole game at once {whole:>8.0} games/s ({:.1}x) | sent ahead {ahead:>8.0} games/s ({:.1}x) ({a1} of {GAMES} games agreed, {c1} events compared)",
        whole / slow,
        ahead / slow
    );
    rates
}

fn main() {
    // `cargo bench` passes `--bench`; nothing else to parse.
    println!("fuzzing differential, seed {SEED}, {GAMES} games per pass");
    let gnugo = gnugo_program();
    if std::process::Command::new(&gnugo)
        .arg("--version")
        .output()
        .is_ok()
    {
        let profile = profile_by_name("gnugo").expect("the profile exists");
        compare("GNU Go 3.8 over GTP (gnugo)", &|| {
            Box::new(GtpEngine::new(profile.clone()))
        });
    } else {
        println!("GNU Go: skipped, `{gnugo}` does not run (apt-get install gnugo)");
    }
    let serve = env!("CARGO_BIN_EXE_goconform");
    // Strict, as `goconform fuzz` and `check` hold an engine by default (every reply to the
    // protocol's schema), and lenient (`--lenient`).
    let mut over_pipes = Vec::new();
    for (strict, name) in [
        (true, "goconform serve, strict (the default)"),
        (false, "goconform serve, lenient"),
    ] {
        let rates = compare(name, &|| {
            Box::new(JsonlEngine::new(
                serve,
                &["serve".to_string()],
                JsonlOptions {
                    strict,
                    ..JsonlOptions::default()
                },
            ))
        });
        over_pipes.push((name, rates));
    }
    // The same games with the reference in this process, played in every round: the rate
    // `serve` is held to.
    let in_process: Vec<f64> = over_pipes
        .iter()
        .flat_map(|(_, rates)| rates.in_process.iter().copied())
        .collect();
    let in_process_best = best(&in_process);
    println!(
        "{:<34} {in_process_best:>8.0} games/s (best of {} rounds)",
        "the reference in process",
        in_process.len()
    );
    for (name, rates) in over_pipes {
        let (whole_low, whole_high) = ratio_range(&rates.whole, &rates.in_process);
        let (ahead_low, ahead_high) = ratio_range(&rates.ahead, &rates.in_process);
        println!(
            "{name:<34} {:.2}x of the reference in process a game at a time, {:.2}x sent ahead (best against best; round by round {whole_low:.2}-{whole_high:.2}x and {ahead_low:.2}-{ahead_high:.2}x)",
            best(&rates.whole) / in_process_best,
            best(&rates.ahead) / in_process_best,
        );
    }
}
