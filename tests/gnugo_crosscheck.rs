//! Replays every `[[crosscheck]]` claim of the suite against GNU Go 3.8 over GTP.
//!
//! A scenario that says "GNU Go agrees" must keep agreeing: for each claimed run, GNU Go is
//! started with the claimed flags, given the same set-up and moves, and asked `is_legal` before
//! every board play; after every legal move both engines' stones are compared. Disputes are
//! skipped (GNU Go has no pause), and plays the reference refuses for turn or phase reasons are
//! not asked (GNU Go has no such notion). A claim with `score = true` also compares GNU Go's
//! `final_score` at the end with the reference's result (GNU Go judges dead stones itself, so
//! such claims suit settled positions).
//!
//! GNU Go must be installed (`apt-get install gnugo`). Without it the test fails when the
//! environment variable CI is set, and says it skipped otherwise.

mod common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use goconform::board::{Color, Move, Point};
use goconform::game::{Event, Game, Reason, Verdict};
use goconform::scenario::{Crosscheck, Scenario, Suite};
use goconform::spec::Spec;

struct Gtp {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Gtp {
    fn start(binary: &Path, flags: &[String]) -> Gtp {
        let mut child = Command::new(binary)
            .arg("--mode")
            .arg("gtp")
            .args(flags)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("GNU Go starts");
        let input = child.stdin.take().expect("piped stdin");
        let output = BufReader::new(child.stdout.take().expect("piped stdout"));
        Gtp {
            child,
            input,
            output,
        }
    }

    /// Sends one command; returns Ok(answer) for `=`, Err(answer) for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        writeln!(self.input, "{command}").expect("write to GNU Go");
        self.input.flush().expect("flush to GNU Go");
        let mut answer = String::new();
        loop {
            let mut line = String::new();
            let n = self.output.read_line(&mut line).expect("read from GNU Go");
            assert!(n > 0, "GNU Go closed its output after `{command}`");
            if line.trim().is_empty() && !answer.is_empty() {
                break;
            }
            answer.push_str(&line);
        }
        let answer = answer.trim();
        match answer.strip_prefix('=') {
            Some(rest) => Ok(rest.trim().to_string()),
            None => Err(answer.trim_start_matches('?').trim().to_string()),
        }
    }
}

impl Drop for Gtp {
    fn drop(&mut self) {
        let _ = writeln!(self.input, "quit");
        let _ = self.child.wait();
    }
}

fn gnugo() -> Option<PathBuf> {
    let path = std::env::var_os("GNUGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/games/gnugo"));
    path.exists().then_some(path)
}

fn stones_of(game: &Game, color: Color) -> Vec<String> {
    let board = game.board();
    let mut v: Vec<String> = board
        .points()
        .filter(|&p| board.get(p) == Some(color))
        .map(|p| p.to_string())
        .collect();
    v.sort();
    v
}

fn gnugo_stones(gtp: &mut Gtp, color: Color) -> Vec<String> {
    let answer = gtp
        .send(&format!("list_stones {}", color.name()))
        .expect("list_stones answers");
    let mut v: Vec<String> = answer
        .split_whitespace()
        .map(|s| s.to_uppercase())
        .collect();
    v.sort();
    v
}

/// Replays one claim; returns the disagreements found.
fn replay(binary: &Path, scenario: &Scenario, claim: &Crosscheck) -> Vec<String> {
    let (run, flags) = (claim.run, &claim.flags);
    let label = &scenario.runs[run].label;
    let at = |k: usize, event: &Event| {
        format!(
            "{} under {label} with {flags:?}, move {k} ({event})",
            scenario.id
        )
    };
    let mut problems = Vec::new();
    if scenario.setup.width != scenario.setup.height {
        return vec![format!(
            "{}: GNU Go plays only on square boards",
            scenario.id
        )];
    }
    let mut gtp = Gtp::start(binary, flags);
    gtp.send(&format!("boardsize {}", scenario.setup.width))
        .expect("boardsize");
    gtp.send("clear_board").expect("clear_board");
    let rules = scenario.runs[run].rules;
    let komi = if scenario.setup.handicap.len() >= 2 {
        rules.handicap_komi
    } else {
        rules.komi
    };
    gtp.send(&format!("komi {komi}")).expect("komi");
    if !scenario.setup.handicap.is_empty() {
        let points: Vec<String> = scenario
            .setup
            .handicap
            .iter()
            .map(|p| p.to_string())
            .collect();
        if let Err(e) = gtp.send(&format!("set_free_handicap {}", points.join(" "))) {
            return vec![format!("{}: GNU Go refused the handicap: {e}", scenario.id)];
        }
    }
    for (p, c) in &scenario.setup.stones {
        if let Err(e) = gtp.send(&format!("play {} {p}", c.name())) {
            return vec![format!(
                "{}: GNU Go refused set-up stone {c} {p}: {e}",
                scenario.id
            )];
        }
    }
    let mut game =
        Game::new(scenario.runs[run].rules, &scenario.setup).expect("scenario set-ups are valid");
    for (k, event) in scenario.events.iter().enumerate() {
        let k = k + 1;
        let verdict = game.apply(event.clone());
        let (color, point) = match event {
            Event::Dispute(_) | Event::Agree(_) | Event::Resign(_) => continue,
            // GNU Go has no confirmation of life and death (Japanese 1989, Article 7(2)): its
            // moves are hypothetical and taken back, so the claim covers the events before it.
            Event::Confirm(_) => break,
            Event::Move(c, Move::Pass) => {
                if verdict.is_legal() {
                    gtp.send(&format!("play {} pass", c.name()))
                        .expect("GNU Go accepts a pass");
                }
                continue;
            }
            Event::Move(c, Move::Play(p)) => (*c, *p),
            Event::Breach(..) | Event::Ambiguous(..) | Event::Notice { .. } | Event::Sealed(..) => {
                problems.push(format!(
                    "{}: a referee's record ({event}) has no GTP equivalent; the loader should have refused this claim",
                    at(k, event)
                ));
                return problems;
            }
        };
        let refused_for_turn_or_phase = matches!(
            verdict,
            Verdict::Illegal(
                Reason::OutOfTurn | Reason::GamePaused | Reason::GameOver | Reason::NotPaused
            )
        );
        if refused_for_turn_or_phase {
            continue;
        }
        let theirs = gtp.send(&format!("is_legal {} {}", color.name(), point_text(point)));
        let theirs_legal = theirs.as_deref() == Ok("1");
        if theirs_legal != verdict.is_legal() {
            problems.push(format!(
                "{}: reference says {verdict}, GNU Go is_legal answers {theirs:?}",
                at(k, event)
            ));
            break;
        }
        if verdict.is_legal() {
            gtp.send(&format!("play {} {}", color.name(), point_text(point)))
                .expect("GNU Go plays a move it called legal");
            for c in Color::BOTH {
                let (ours, theirs) = (stones_of(&game, c), gnugo_stones(&mut gtp, c));
                if ours != theirs {
                    problems.push(format!(
                        "{}: {} stones differ: reference {ours:?}, GNU Go {theirs:?}",
                        at(k, event),
                        c.name()
                    ));
                }
            }
        }
    }
    if claim.score && problems.is_empty() {
        let theirs = gtp.send("final_score");
        if theirs.as_deref() != Ok(game.result().as_str()) {
            problems.push(format!(
                "{} under {label} with {flags:?}: reference result {}, GNU Go final_score {theirs:?}",
                scenario.id,
                game.result()
            ));
        }
    }
    problems
}

fn point_text(p: Point) -> String {
    p.to_string()
}

#[test]
fn every_crosscheck_claim_holds_against_gnu_go() {
    let Some(binary) = gnugo() else {
        return common::skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(root).expect("the spec loads");
    let suite = Suite::load(&[root.join("conformance")], &spec).expect("the suite loads");
    let mut claims = 0;
    let mut problems = Vec::new();
    for scenario in &suite.scenarios {
        for claim in &scenario.crosschecks {
            claims += 1;
            problems.extend(replay(&binary, scenario, claim));
        }
    }
    assert!(claims > 0, "the suite makes no cross-check claims");
    assert!(
        problems.is_empty(),
        "{} of {claims} claims broke:\n{}",
        problems.len(),
        problems.join("\n")
    );
    eprintln!("{claims} cross-check claims hold against GNU Go");
}
