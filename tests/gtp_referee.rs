//! The reference as the GTP referee a match runner talks to: what gogui-twogtp sends (every
//! move, then `final_score` after two passes), KGS's rules and time commands, and GoGui's
//! analyze commands.

use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

mod common;

use common::root;

/// A GTP engine in another process, asked one command at a time.
struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(program: &str, args: &[&str]) -> Gtp {
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the engine starts");
        let input = child.stdin.take().unwrap();
        let output = BufReader::new(child.stdout.take().unwrap());
        Gtp {
            child,
            input,
            output,
        }
    }

    fn goconform() -> Gtp {
        let root = root().display().to_string();
        Gtp::start(
            env!("CARGO_BIN_EXE_goconform"),
            &["--root", &root, "gtp", "--rules", "aga"],
        )
    }

    /// The answer with its `=` or `?`.
    fn ask(&mut self, command: &str) -> String {
        writeln!(self.input, "{command}").unwrap();
        self.input.flush().unwrap();
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line).unwrap() == 0 {
                break;
            }
            if line.trim().is_empty() {
                if answer.is_empty() {
                    continue;
                }
                break;
            }
            answer.push_str(&line);
        }
        answer.trim().to_string()
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn gnugo() -> Option<PathBuf> {
    let path = std::env::var_os("GNUGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/games/gnugo"));
    if path.exists() {
        return Some(path);
    }
    common::skip("GNU Go is not installed (apt-get install gnugo)");
    None
}

/// The winner's letter of a result (`B+3.5` is B), `None` for a draw.
fn winner(result: &str) -> Option<char> {
    result
        .trim_start_matches("= ")
        .chars()
        .next()
        .filter(|c| *c == 'B' || *c == 'W')
}

#[test]
fn as_gogui_twogtp_referee_it_never_names_a_winner_the_agreed_count_contradicts() {
    let Some(gnugo) = gnugo() else { return };
    let gnugo = gnugo.to_str().unwrap();
    let mut refused = 0;
    for seed in 1..=6 {
        let seed = seed.to_string();
        let mut black = Gtp::start(gnugo, &["--mode", "gtp", "--level", "1", "--seed", &seed]);
        let mut white = Gtp::start(gnugo, &["--mode", "gtp", "--level", "2", "--seed", &seed]);
        let mut referee = Gtp::goconform();
        for engine in [&mut black, &mut white, &mut referee] {
            assert_eq!(engine.ask("boardsize 9"), "=");
            assert_eq!(engine.ask("clear_board"), "=");
            assert_eq!(engine.ask("komi 7.5"), "=");
        }
        let mut passes = 0;
        let mut color = "black";
        for _ in 0..300 {
            let (mover, other) = if color == "black" {
                (&mut black, &mut white)
            } else {
                (&mut white, &mut black)
            };
            let answer = mover.ask(&format!("genmove {color}"));
            let vertex = answer.trim_start_matches('=').trim().to_string();
            assert_eq!(
                referee.ask(&format!("play {color} {vertex}")),
                "=",
                "seed {seed}: the referee refused {color} {vertex}"
            );
            assert_eq!(other.ask(&format!("play {color} {vertex}")), "=");
            passes = if vertex.eq_ignore_ascii_case("pass") {
                passes + 1
            } else {
                0
            };
            if passes == 2 {
                break;
            }
            color = if color == "black" { "white" } else { "black" };
        }
        assert_eq!(passes, 2, "seed {seed}: the game did not end");
        let first = referee.ask("final_score");
        let black_dead = black.ask("final_status_list dead");
        let white_dead = white.ask("final_status_list dead");
        let vertices = |answer: &str| -> Vec<String> {
            let mut v: Vec<String> = answer
                .trim_start_matches('=')
                .split_whitespace()
                .map(str::to_string)
                .collect();
            v.sort();
            v
        };
        if vertices(&black_dead) != vertices(&white_dead) {
            // No agreement: a result, if the referee gave one, stands only where nothing is
            // in doubt, so there is nothing to contradict.
            continue;
        }
        let dead = vertices(&black_dead).join(" ");
        assert_eq!(referee.ask(&format!("goconform-dead {dead}")), "=");
        let agreed = referee.ask("final_score");
        assert!(agreed.starts_with("= "), "seed {seed}: {agreed}");
        if first.starts_with('?') {
            refused += 1;
            assert!(
                first.contains("dead stones not agreed"),
                "seed {seed}: {first}"
            );
        } else {
            assert_eq!(
                winner(&first),
                winner(&agreed),
                "seed {seed}: {first} before the agreement on `{dead}`, {agreed} after"
            );
        }
    }
    println!("{refused} of 6 games: final_score waited for the agreement on dead stones");
}

#[test]
fn kgs_rules_and_time_commands_feed_the_referee() {
    let mut referee = Gtp::goconform();
    assert_eq!(referee.ask("kgs-rules japanese"), "=");
    assert!(referee.ask("showboard").contains("rules japanese-1989"));
    assert_eq!(referee.ask("kgs-rules new_zealand"), "=");
    assert!(referee.ask("showboard").contains("rules new-zealand"));
    assert!(referee.ask("kgs-rules ing").starts_with("? unknown rules"));
    // Absolute time: no time left is a fallen flag, and the result says so (VI.E.11).
    assert_eq!(referee.ask("time_settings 600 0 0"), "=");
    assert_eq!(referee.ask("play b d4"), "=");
    assert_eq!(referee.ask("time_left w 0 0"), "=");
    assert_eq!(referee.ask("final_score"), "= B+T");
    // With overtime to come, no basic time left is no flag.
    assert_eq!(referee.ask("clear_board"), "=");
    assert_eq!(referee.ask("kgs-time_settings byoyomi 600 30 5"), "=");
    assert_eq!(referee.ask("time_left b 0 0"), "=");
    assert!(!referee.ask("final_score").contains("+T"));
    assert_eq!(referee.ask("kgs-time_settings canadian 600 300 25"), "=");
    assert_eq!(referee.ask("kgs-time_settings none"), "=");
    assert!(referee
        .ask("kgs-time_settings hourglass 5")
        .starts_with("? syntax error"));
    assert!(referee.ask("time_settings 600 30 0").starts_with("? "));
}

#[test]
fn gogui_finds_the_analyze_commands() {
    let mut referee = Gtp::goconform();
    let listed = referee.ask("gogui-analyze_commands");
    let lines: Vec<&str> = listed.trim_start_matches("= ").lines().collect();
    assert!(lines.len() >= 5, "{listed}");
    for line in &lines {
        let command = line.rsplit('/').next().unwrap();
        let name = command.split_whitespace().next().unwrap();
        assert_eq!(
            referee.ask(&format!("known_command {name}")),
            "= true",
            "{line}"
        );
    }
    assert!(listed.contains("goconform-why %c %p"), "{listed}");
}
