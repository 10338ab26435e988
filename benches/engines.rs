//! Fuzzing engines in other processes: one event per round trip against the whole game in one
//! exchange, in the same run.
//!
//! Run with `cargo bench --bench engines` (under a minute). The same seeded games as
//! `goconform fuzz` (seed 1, the first `GAMES` of them) go through the fuzzing differential
//! against each engine twice: once through a wrapper that hides [`Referee::announce`], so that
//! every event is its own exchange (GTP: `is_legal`, `play`, two `list_stones`, each waiting
//! for its answer; JSON lines: one request per prefix of the game), and once as the engine is,
//! announced games pipelined (GTP) or sent in one request (JSON lines). Both passes must agree
//! on every game; the rates and their ratio are printed.
//!
//! Engines: GNU Go 3.8 over GTP (skipped with the reason when it is not installed) and the
//! reference behind the JSON-lines protocol (`goconform serve`, this crate's binary), held to
//! the protocol's schema as `fuzz` and `check` hold it by default and leniently; then the
//! reference in this process on the same games, and the ratio of `serve`'s rates to it.

use std::time::Instant;

use goconform::conformance::{OneAtATime, Referee, Reference};
use goconform::engines::gtp::{gnugo_program, profile_by_name, GtpEngine};
use goconform::engines::jsonl::{JsonlEngine, JsonlOptions};
use goconform::fuzzing::{differential, game_bytes, GameInput, Played};

/// Games per pass.
const GAMES: u64 = 400;
const SEED: u64 = 1;

/// Plays the games through `engine`: how many agreed, the events compared, games a second.
fn pass(engine: &mut dyn Referee) -> (u64, usize, f64, Vec<String>) {
    let capabilities = engine.capabilities();
    let started = Instant::now();
    let (mut agreed, mut compared) = (0, 0);
    let mut outcomes = Vec::new();
    for game in 0..GAMES {
        let case = GameInput::from_bytes(&game_bytes(SEED, game)).realise(&capabilities);
        let played = differential(&mut Reference::new(), engine, &case);
        if let Played::Agreed { asked } = played {
            agreed += 1;
            compared += asked;
        }
        outcomes.push(format!("{played:?}"));
    }
    let rate = GAMES as f64 / started.elapsed().as_secs_f64();
    (agreed, compared, rate, outcomes)
}

/// Both passes through the engine `make` starts; answers the whole-game rate.
fn compare(name: &str, make: &dyn Fn() -> Box<dyn Referee>) -> f64 {
    let (a1, c1, slow, o1) = pass(&mut OneAtATime(make()));
    let (a2, c2, fast, o2) = pass(make().as_mut());
    assert_eq!(o1, o2, "{name}: the two passes disagree on some game");
    println!(
        "{name:<34} one event at a time {slow:>8.0} games/s | whole game at once {fast:>8.0} games/s | {:.1}x ({a2} of {GAMES} games agreed, {c2} events compared)",
        fast / slow
    );
    assert_eq!((a1, c1), (a2, c2));
    fast
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
        let rate = compare(name, &|| {
            Box::new(JsonlEngine::new(
                serve,
                &["serve".to_string()],
                JsonlOptions {
                    strict,
                    ..JsonlOptions::default()
                },
            ))
        });
        over_pipes.push((name, rate));
    }
    // The same games with the reference in this process: the rate `serve` is held to.
    let (_, _, in_process, _) = pass(&mut Reference::new());
    println!(
        "{:<34} {in_process:>8.0} games/s",
        "the reference in process"
    );
    for (name, rate) in over_pipes {
        println!(
            "{name:<34} {:.2}x of the reference in process",
            rate / in_process
        );
    }
}
