//! `goconform referee`: a match between two GTP engines under a ruleset, refereed by the
//! reference (the procedure is in `referee::game`).

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::{load_spec, rules_with, CommandResult, Project};
use crate::game::handicap::{fixed_points, Pattern};
use crate::referee::{self, GameOptions, IllegalMoves, PlayedGame, Tally};
use crate::rules::Komi;

/// The arguments of `goconform referee`.
#[derive(Args)]
pub(super) struct RefereeArgs {
    /// The engine playing Black: a GTP command line, e.g. "gnugo --mode gtp --level 1".
    #[arg(long, value_name = "CMD")]
    black: String,
    /// The engine playing White.
    #[arg(long, value_name = "CMD")]
    white: String,
    /// The ruleset the games are played under.
    #[arg(long, value_name = "NAME", default_value = "aga")]
    rules: String,
    /// Change one axis, e.g. --set ko=situational (repeatable, or comma-separated).
    #[arg(long = "set", value_name = "AXIS=VALUE", value_delimiter = ',')]
    set: Vec<String>,
    /// The board size.
    #[arg(long, value_name = "N", default_value_t = 19)]
    size: u8,
    /// The komi (default: the ruleset's, for even or handicap games).
    #[arg(long, value_name = "K", allow_hyphen_values = true)]
    komi: Option<String>,
    /// Handicap stones for Black, on the fixed points (2 to 9).
    #[arg(long, value_name = "N", default_value_t = 0)]
    handicap: u32,
    /// How many games (Black and White keep their engines).
    #[arg(long, value_name = "N", default_value_t = 1)]
    games: usize,
    /// A clock file's time control (`control = { main = "5:00", ... }`, as `goconform clock`
    /// reads; its events, if any, are not used): the engines hear time_settings and time_left,
    /// and a flag that falls loses.
    #[arg(long, value_name = "FILE")]
    time_control: Option<PathBuf>,
    /// What an illegal move does: the ruleset's procedure, or lose the game (AGA Tournament
    /// Rules VII.C.2: a program must never make an illegal move).
    #[arg(long, value_enum, default_value_t = IllegalArg::Procedure)]
    illegal_move: IllegalArg,
    /// Write each game as an SGF record, DIR/game-NNN.sgf (RU, KM, RE, the agreed dead stones
    /// as TB/TW, the procedure events in comments). An existing record is never replaced.
    #[arg(long, value_name = "DIR")]
    sgf_out: Option<PathBuf>,
    /// The time limit of a move without a clock, and of every other command, in seconds.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    move_timeout: f64,
}

/// Where game `number` of a match is recorded under `--sgf-out DIR`.
fn record_path(dir: &std::path::Path, number: usize) -> PathBuf {
    dir.join(format!("game-{number:03}.sgf"))
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum IllegalArg {
    Procedure,
    Lose,
}

pub(super) fn referee_command(root: &Project, args: &RefereeArgs) -> CommandResult {
    let spec = load_spec(root)?;
    let mut rules = rules_with(&spec, &args.rules, &args.set)?;
    if let Some(k) = &args.komi {
        let komi: Komi = k.parse().map_err(|e| format!("--komi: {e}"))?;
        rules.komi = komi;
        rules.handicap_komi = komi;
    }
    crate::board::Board::new(args.size, args.size).map_err(|e| format!("--size: {e}"))?;
    let handicap = match args.handicap {
        0 => Vec::new(),
        n => fixed_points(Pattern::Traditional, args.size, n).ok_or_else(|| {
            format!(
                "--handicap {n}: a {0}x{0} board has no fixed placement of {n} stones",
                args.size
            )
        })?,
    };
    if !(args.move_timeout.is_finite() && args.move_timeout > 0.0 && args.move_timeout <= 86_400.0)
    {
        return Err("--move-timeout: a number of seconds above 0, at most a day".to_string());
    }
    let time_control = match &args.time_control {
        None => None,
        Some(path) => {
            let text = super::read_input(path)?;
            let file =
                crate::scenario::tournament::read_clock_file(path, &text).map_err(|errors| {
                    errors
                        .iter()
                        .map(|e| e.to_string())
                        .collect::<Vec<_>>()
                        .join("\n")
                })?;
            if !file.events.is_empty() {
                eprintln!(
                    "note: {}: the referee takes the file's control; its {} event{} are not played (the match feeds the clock)",
                    path.display(),
                    file.events.len(),
                    if file.events.len() == 1 { "" } else { "s" }
                );
            }
            file.control
        }
    };
    if args.games == 0 {
        return Err("--games: at least one".to_string());
    }
    if let Some(dir) = &args.sgf_out {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("--sgf-out: cannot create {}: {e}", dir.display()))?;
        // Records are never replaced (an earlier match's, or one annotated by hand): refused
        // before any game is played, and again at each write.
        for number in 1..=args.games {
            let path = record_path(dir, number);
            if std::fs::symlink_metadata(&path).is_ok() {
                return Err(format!(
                    "--sgf-out: {} already exists; the referee never replaces a record (choose another folder, or move it away)",
                    path.display()
                ));
            }
        }
    }
    // An engine that cannot start at all is the command's error, not a forfeit a game: each
    // is started once, asked its protocol version and commands, and stopped.
    for (color, flag, command) in [
        (crate::board::Color::Black, "--black", &args.black),
        (crate::board::Color::White, "--white", &args.white),
    ] {
        let player = referee::player::Player::start(
            color,
            command,
            Duration::from_secs_f64(args.move_timeout),
        )
        .map_err(|fault| {
            format!(
                "{flag} `{command}`: the engine cannot start ({}): {}",
                fault.kind, fault.message
            )
        })?;
        player.quit();
    }
    let options = GameOptions {
        rules,
        size: args.size,
        handicap,
        time_control,
        illegal_moves: match args.illegal_move {
            IllegalArg::Procedure => IllegalMoves::Procedure,
            IllegalArg::Lose => IllegalMoves::Lose,
        },
        move_timeout: Duration::from_secs_f64(args.move_timeout),
    };

    let bar = if crate::conformance::harness::progress_wanted() {
        let bar =
            ProgressBar::with_draw_target(Some(args.games as u64), ProgressDrawTarget::stderr());
        if let Ok(style) = ProgressStyle::with_template("{bar:40} {pos}/{len} games {msg}") {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    outln!(
        "match under {} on {}x{}: Black `{}`, White `{}`",
        args.rules,
        args.size,
        args.size,
        args.black,
        args.white
    );
    outln!(
        "{:>4}  {:<10}  {:>5}  how it ended",
        "game",
        "result",
        "moves"
    );
    let mut tally = Tally::default();
    let mut played: Vec<PlayedGame> = Vec::with_capacity(args.games);
    for number in 1..=args.games {
        let game = referee::game::play(&args.black, &args.white, &options);
        let written = match &args.sgf_out {
            Some(dir) => {
                let path = record_path(dir, number);
                let text = referee::record(&game, &options.rules, &args.rules);
                let written = crate::files::write_new(&path, text.as_bytes())
                    .map_err(|e| format!("--sgf-out: cannot write {}: {e}", path.display()))?;
                if !written {
                    return Err(format!(
                        "--sgf-out: {} appeared during the match; the referee never replaces a record",
                        path.display()
                    ));
                }
                format!("  ({})", path.display())
            }
            None => String::new(),
        };
        bar.suspend(|| {
            outln!(
                "{number:>4}  {:<10}  {:>5}  {}{written}",
                game.result,
                game.moves,
                referee::ending_words(&game)
            )
        });
        bar.inc(1);
        tally.add(&game);
        played.push(game);
    }
    bar.finish_and_clear();
    outln!();
    outln!(
        "{} games: Black's engine won {}, White's engine won {}, {} drawn, {} void; {} counted, {} by resignation, {} on time; faults and illegal moves: Black {}, White {}",
        tally.games,
        tally.wins[0],
        tally.wins[1],
        tally.draws,
        tally.void,
        tally.counted,
        tally.resignations,
        tally.on_time,
        tally.faults[0],
        tally.faults[1]
    );
    Ok(ExitCode::SUCCESS)
}
