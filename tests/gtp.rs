//! GTP sessions against the reference engine, over in-memory buffers.
//!
//! Each test feeds a script to `goconform::gtp::serve` and checks the answers exactly: GTP
//! controllers parse responses byte by byte, so the framing matters as much as the content.

use std::collections::BTreeSet;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use goconform::rules::Rules;
use goconform::spec::Spec;

/// The rulesets of this repository, loaded once.
fn spec() -> &'static Spec {
    static SPEC: OnceLock<Spec> = OnceLock::new();
    SPEC.get_or_init(|| {
        Spec::load(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the repository's spec loads")
    })
}

/// Resolves ruleset names as `goconform gtp` does (the rulesets in spec/rulesets), plus
/// `simple`: the AGA rules with simple ko.
fn resolve(name: &str) -> Result<Rules, String> {
    match name {
        "simple" => {
            let mut rules = spec().rules("aga")?;
            rules.set("ko", "simple").map_err(|e| e.to_string())?;
            Ok(rules)
        }
        _ => spec().rules(name),
    }
}

/// The whole output of a session over `script`.
fn session(script: &str) -> String {
    let mut out = Vec::new();
    goconform::gtp::serve(
        script.as_bytes(),
        &mut out,
        resolve("aga").expect("aga is a ruleset"),
        "aga".to_string(),
        &resolve,
    )
    .expect("in-memory I/O cannot fail");
    String::from_utf8(out).expect("responses are UTF-8")
}

/// The responses of a session, each without its terminating blank line. Every response must
/// end with exactly one blank line.
fn answers(script: &str) -> Vec<String> {
    let out = session(script);
    assert!(
        out.is_empty() || out.ends_with("\n\n"),
        "unterminated: {out:?}"
    );
    out.split_terminator("\n\n").map(str::to_string).collect()
}

/// The last response of a session.
fn last(script: &str) -> String {
    answers(script).pop().expect("at least one response")
}

/// Script lines putting stones of one colour on the given vertices.
fn stones(color: &str, vertices: &str) -> String {
    vertices
        .split_whitespace()
        .map(|v| format!("play {color} {v}\n"))
        .collect()
}

#[test]
fn ids_are_echoed_and_every_response_ends_with_a_blank_line() {
    let version = env!("CARGO_PKG_VERSION");
    let out = session(
        "1 protocol_version\r\nname\n\n   \n# a comment line\n3 version # trailing comment\n\
         known_command\tplay\nknown_command foo\n42 boardsize 26\n\x01na\x02me\n7 quit\nname\n",
    );
    assert_eq!(
        out,
        format!(
            "=1 2\n\n= goconform\n\n=3 {version}\n\n= true\n\n= false\n\n?42 unacceptable size\n\n\
             = goconform\n\n=7 \n\n"
        )
    );
}

#[test]
fn list_commands_names_everything_and_known_command_agrees() {
    let expected = [
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "undo",
        "showboard",
        "is_legal",
        "all_legal",
        "list_stones",
        "captures",
        "fixed_handicap",
        "set_free_handicap",
        "final_score",
        "final_status_list",
        "genmove",
        "goconform-rules",
        "goconform-why",
        "goconform-prisoners",
        "goconform-dead",
        "goconform-set",
        "goconform-phase",
        "goconform-dispute",
        "goconform-agree",
        "goconform-resign",
        "goconform-score",
    ];
    let listed = last("list_commands\n");
    let listed = listed.strip_prefix("= ").unwrap();
    let listed: BTreeSet<&str> = listed.lines().collect();
    for command in expected {
        assert!(
            listed.contains(command),
            "{command} missing from {listed:?}"
        );
    }
    let script: String = listed
        .iter()
        .map(|c| format!("known_command {c}\n"))
        .collect();
    for answer in answers(&script) {
        assert_eq!(answer, "= true");
    }
}

#[test]
fn board_sizes_outside_2_to_25_are_refused() {
    let got = answers("boardsize 26\nboardsize 1\nboardsize 0\nboardsize -3\nboardsize nine\nboardsize\nboardsize 2\nboardsize 25\nplay b z25\n");
    assert_eq!(got[0], "? unacceptable size");
    assert_eq!(got[1], "? unacceptable size");
    assert_eq!(got[2], "? unacceptable size");
    assert_eq!(got[3], "? unacceptable size");
    assert!(
        got[4].starts_with("? boardsize not an integer"),
        "{}",
        got[4]
    );
    assert!(got[5].starts_with("? syntax error"), "{}", got[5]);
    assert_eq!(&got[6..], ["= ", "= ", "= "]);
}

/// A 5x5 basic ko: after White's B2 takes C2, Black may not retake at once.
///
/// ```text
///  5 . . . X .
///  4 . . . . X
///  3 . X O . .
///  2 X O . O .
///  1 . X O . .
///    A B C D E
/// ```
///
/// White's stones go first so that Black makes the move before White's capture, as in a game
/// that alternates: under natural situational superko the retake is refused because Black
/// would recreate a position Black created. (Had White made that position, NSSK would allow
/// the retake: it bans only a player's own earlier positions.)
const KO: &str = "boardsize 5\nplay w c3\nplay w d2\nplay w c1\nplay b b3\nplay b a2\nplay b b1\n\
                  play b c2\nplay b d5\nplay b e4\nplay w b2\n";

#[test]
fn consecutive_plays_of_one_colour_are_accepted() {
    let got = answers(KO);
    assert!(got.iter().all(|a| a == "= "), "{got:?}");
    assert_eq!(
        last(&format!("{KO}list_stones black\n")),
        "= D5 E4 B3 A2 B1"
    );
    assert_eq!(last(&format!("{KO}list_stones white\n")), "= C3 B2 D2 C1");
}

#[test]
fn a_basic_ko_retake_is_refused_with_its_reason() {
    let got = answers(&format!(
        "{KO}play b c2\nis_legal b c2\ngoconform-why b c2\ngoconform-why black C2\n\
         goconform-why w c2\ngoconform-why b b2\ngoconform-why w e5\ngoconform-why w pass\n\
         is_legal w e5\nis_legal b a1\ncaptures w\ngoconform-prisoners w\n"
    ));
    let tail = &got[got.len() - 12..];
    assert_eq!(
        tail,
        [
            "? illegal move: ko",
            "= 0",
            "= ko",
            "= ko",
            "= legal",
            "= occupied",
            "= suicide",
            "= legal",
            "= 0",
            "= 1",
            "= 1",
            "= 1",
        ]
    );
    // After an exchange elsewhere the retake is legal.
    let got = answers(&format!(
        "{KO}play b e1\nplay w d1\nplay b c2\ncaptures b\n"
    ));
    assert_eq!(&got[got.len() - 4..], ["= ", "= ", "= ", "= 1"]);
}

#[test]
fn undo_takes_back_moves_and_their_captures() {
    let script = format!(
        "{KO}play b e1\nplay w d1\nplay b c2\nundo\ncaptures b\nlist_stones white\n\
         undo\nundo\nundo\nlist_stones black\ncaptures w\n"
    );
    let got = answers(&script);
    let tail = &got[got.len() - 8..];
    assert_eq!(
        tail,
        [
            "= ",
            "= 0",
            "= C3 B2 D2 C1 D1",
            "= ",
            "= ",
            "= ",
            "= D5 E4 B3 A2 C2 B1",
            "= 0",
        ]
    );
    let got = answers("boardsize 5\nundo\nplay b a1\nundo\nundo\n");
    assert_eq!(got, ["= ", "? cannot undo", "= ", "= ", "? cannot undo"]);
}

#[test]
fn fixed_handicap_follows_the_rules_or_the_specification() {
    let got = answers("boardsize 19\nfixed_handicap 4\n");
    let vertices: BTreeSet<&str> = got[1].strip_prefix("= ").unwrap().split(' ').collect();
    assert_eq!(vertices, BTreeSet::from(["D4", "Q16", "D16", "Q4"]));
    // Three stones: AGA Rule 4 (handicap-placement = fixed) leaves the upper left open; the
    // GTP table, used where the rules let Black place freely, leaves the lower right open.
    assert_eq!(last("fixed_handicap 3\n"), "= D4 Q16 Q4");
    assert_eq!(
        last("fixed_handicap 3\nlist_stones b\n"),
        "= Q16 D4 Q4",
        "the stones are on the board"
    );
    assert_eq!(
        last("goconform-set handicap-placement=free\nfixed_handicap 3\n"),
        "= D4 Q16 D16"
    );
    // A placement from the GTP table is the players' choice: it survives a change to rules
    // that fix the placement.
    let got = answers(
        "goconform-rules new-zealand\nfixed_handicap 3\ngoconform-rules aga\nlist_stones b\n\
         showboard\n",
    );
    assert_eq!(got[1..4], ["= D4 Q16 D16", "= ", "= D16 Q16 D4"]);
    assert!(
        got[4].contains("rules aga; komi 0.5; handicap 3;"),
        "{}",
        got[4]
    );
    let got = answers(
        "boardsize 19\nfixed_handicap 4\nfixed_handicap 2\nundo\nlist_stones b\n\
         clear_board\nfixed_handicap 10\nfixed_handicap 1\nfixed_handicap x\n\
         boardsize 9\nfixed_handicap 9\nboardsize 8\nfixed_handicap 5\nboardsize 6\nfixed_handicap 2\n",
    );
    assert_eq!(got[2], "? board not empty");
    assert_eq!(got[3], "? cannot undo");
    assert_eq!(got[4], "= D16 Q16 D4 Q4");
    assert!(
        got[6].starts_with("? invalid number of stones"),
        "{}",
        got[6]
    );
    assert!(
        got[7].starts_with("? invalid number of stones"),
        "{}",
        got[7]
    );
    assert!(
        got[8].starts_with("? number of stones not an integer"),
        "{}",
        got[8]
    );
    // The traditional table, in its own order: the third stone goes to the lower right.
    assert_eq!(got[10], "= C3 G7 G3 C7 C5 G5 E3 E7 E5");
    assert!(
        got[12].starts_with("? invalid number of stones"),
        "{}",
        got[12]
    );
    assert_eq!(
        got[14],
        "? invalid number of stones: a 6x6 board has no fixed handicap points (they need a board of 7x7 or more)"
    );
}

#[test]
fn free_handicaps_are_agreed_placements_within_the_limits() {
    // Accepted under aga, whose fixed placement would refuse these points: the players agreed.
    let got = answers("boardsize 9\nset_free_handicap a1 j9 e5\nlist_stones b\ngoconform-phase\n");
    assert_eq!(got[1..], ["= ", "= J9 E5 A1", "= playing"]);
    let ten = "a1 b1 c1 d1 e1 f1 g1 h1 j1 a9";
    let got = answers(&format!(
        "boardsize 9\nset_free_handicap {ten}\nset_free_handicap\nset_free_handicap a1 pass\n\
         set_free_handicap a1 a1\nlist_stones b\nboardsize 2\nset_free_handicap a1 a2 b1 b2\n\
         set_free_handicap a1 b2\nset_free_handicap a2 b1\nfixed_handicap 2\n"
    ));
    assert_eq!(
        got[1],
        "? invalid number of stones: a free handicap is 2 to 9 stones, not 10"
    );
    assert!(
        got[2].starts_with("? invalid number of stones"),
        "{}",
        got[2]
    );
    assert!(got[3].starts_with("? `pass`"), "{}", got[3]);
    assert_eq!(got[4], "? repeated vertex: A1");
    assert_eq!(got[5], "= ", "nothing was placed");
    // Four stones fill a 2x2 board: no liberty is left, which no placement may do.
    assert!(
        got[7].starts_with("? bad vertex list: set-up position has a string without liberties"),
        "{}",
        got[7]
    );
    assert_eq!(got[8], "= ");
    assert_eq!(got[9], "? board not empty");
    assert_eq!(got[10], "? board not empty");
}

#[test]
fn white_moves_first_after_handicap_stones() {
    let got = answers(
        "boardsize 9\nset_free_handicap a1 b2\nshowboard\nset_free_handicap c3\n\
         set_free_handicap c3 c3\nset_free_handicap c3 z9\nlist_stones b\n",
    );
    assert_eq!(got[1], "= ");
    assert!(
        got[2].contains("handicap 2;") && got[2].contains("white to move"),
        "{}",
        got[2]
    );
    assert!(
        got[3].starts_with("? invalid number of stones"),
        "{}",
        got[3]
    );
    assert!(got[4].starts_with("? repeated vertex"), "{}", got[4]);
    assert!(got[5].starts_with("? `z9` is off"), "{}", got[5]);
    assert_eq!(got[6], "= B2 A1");
    assert!(last("boardsize 9\nshowboard\n").contains("black to move"));
}

/// The 5x5 position scored by hand in the tests below: a black wall on C, a white wall on D,
/// and a white stone at A3 inside Black's side.
const WALLS: &str =
    "boardsize 5\nkomi 0.5\nplay b c1\nplay b c2\nplay b c3\nplay b c4\nplay b c5\n\
                     play w d1\nplay w d2\nplay w d3\nplay w d4\nplay w d5\nplay w a3\n";

#[test]
fn final_score_of_a_settled_position() {
    // No agreement: A3 stands, and the nine empty points around it touch both colours.
    // Area: Black 5; White 6 stones + 5 (column E) + 0.5 = 11.5.
    assert_eq!(last(&format!("{WALLS}final_score\n")), "= W+6.5");
    // A3 agreed dead. Area: Black 5 stones + 10 points = 15; White 5 + 5 + 0.5.
    let dead = format!("{WALLS}goconform-dead a3\n");
    assert_eq!(last(&format!("{dead}final_score\n")), "= B+4.5");
    // Territory: Black 10 + 1 dead stone = 11; White 5 + 0.5.
    assert_eq!(
        last(&format!(
            "{dead}goconform-set scoring=territory\nfinal_score\n"
        )),
        "= B+5.5"
    );
    // Two passes hand one pass stone each way: the territory margin does not move.
    let passed = format!("{dead}play b pass\nplay w pass\ngoconform-set scoring=territory\n");
    let got = answers(&format!(
        "{passed}final_score\ngoconform-prisoners b\ncaptures b\ngoconform-phase\nplay b e5\n"
    ));
    let tail = &got[got.len() - 5..];
    assert_eq!(
        tail,
        [
            "= B+5.5",
            "= 1",
            "= 0",
            "= paused",
            "? illegal move: game-paused (play is paused after two passes: goconform-agree [VERTEX...] ends the game, goconform-dispute resumes play with black)"
        ]
    );
    let got = answers(&format!(
        "{dead}final_status_list dead\nfinal_status_list alive\nfinal_status_list seki\n\
         final_status_list unknown\n"
    ));
    let tail = &got[got.len() - 4..];
    assert_eq!(tail[0], "= A3");
    assert_eq!(tail[1], "= C5 C4 C3 C2 C1\nD5 D4 D3 D2 D1");
    assert_eq!(tail[2], "= ");
    assert!(tail[3].starts_with("? invalid status"), "{}", tail[3]);
}

#[test]
fn dead_stones_are_whole_strings_and_clear_when_the_position_changes() {
    let got = answers(&format!(
        "{WALLS}goconform-dead b2\ngoconform-dead c3\nfinal_status_list dead\n\
         goconform-dead\nfinal_status_list dead\ngoconform-dead a3\nplay b pass\n\
         final_status_list dead\nplay w e1\nfinal_status_list dead\n"
    ));
    let tail = &got[got.len() - 10..];
    assert_eq!(tail[0], "? no stone at B2");
    assert_eq!(tail[1], "= ");
    assert_eq!(tail[2], "= C5 C4 C3 C2 C1");
    assert_eq!(tail[4], "= ");
    assert_eq!(tail[7], "= A3");
    assert_eq!(tail[9], "= ");
}

/// RULES-FACTS item 21: the seki-with-eyes check position (9x9, komi 0.5).
#[test]
fn the_seki_check_position_scores_as_published() {
    let black = "B9 D9 D8 H8 J9 B7 C7 D7 E7 F7 G7 A6 G6 A5 G5 A4 G4 H4 J4 A3 B3 C3 B2 C2 D2 B1 D1";
    let white = "E9 G9 E8 F8 G8 H7 J7 B6 C6 D6 E6 F6 H6 B5 D5 F5 H5 J5 B4 C4 D4 E4 F4 \
                 D3 H3 J3 E2 F2 G2 H2 E1 G1 J1";
    let setup = format!(
        "boardsize 9\nkomi 0.5\n{}{}",
        stones("b", black),
        stones("w", white)
    );
    let got = answers(&format!(
        "{setup}final_score\ngoconform-set scoring=territory\nfinal_score\n\
         goconform-set seki-eyes=neutral\nfinal_score\nfinal_status_list dead\n"
    ));
    assert!(got[..got.len() - 6].iter().all(|a| a == "= "));
    let tail = &got[got.len() - 6..];
    assert_eq!(tail, ["= W+4.5", "= ", "= B+1.5", "= ", "= W+0.5", "= "]);
    let seki = last(&format!("{setup}final_status_list seki\n"));
    assert!(seki.contains("H8") && seki.contains("E9 G9"), "{seki}");
}

#[test]
fn passes_are_prisoners_but_not_captures() {
    let got = answers(
        "boardsize 9\nplay b pass\nplay w d4\nplay b pass\ncaptures w\ngoconform-prisoners w\n\
         goconform-prisoners b\n",
    );
    assert_eq!(&got[got.len() - 3..], ["= 0", "= 2", "= 0"]);
}

#[test]
fn rules_can_be_switched_unless_the_game_so_far_would_break_them() {
    // After White takes the ko, Black passes and retakes out of turn; White does the same
    // back. Simple ko allows both (each pass lifts the ban); every superko rule forbids
    // Black's retake, which recreates the position after Black's E4 with White to move.
    let cycle = "play b pass\nplay b c2\nplay w pass\nplay w b2\n";
    let got = answers(&format!(
        "goconform-rules simple\n{KO}{cycle}goconform-set ko=positional\n\
         goconform-set ko=superduper\ngoconform-rules nonesuch\ngoconform-rules\n\
         goconform-set\ngoconform-why b c2\n"
    ));
    let tail = &got[got.len() - 10..];
    assert_eq!(tail[..4], ["= ", "= ", "= ", "= "]);
    // Positional superko forbids Black's retake: the change is refused and names the move.
    assert!(
        tail[4].starts_with("? event 12 (B C2)") && tail[4].ends_with("superko"),
        "{}",
        tail[4]
    );
    assert!(tail[5].contains("natural-situational"), "{}", tail[5]);
    assert!(
        tail[6].starts_with("? unknown ruleset `nonesuch`; known rulesets: aga,"),
        "{}",
        tail[6]
    );
    assert!(tail[7].starts_with("? syntax error"), "{}", tail[7]);
    assert!(tail[8].starts_with("? expected AXIS=VALUE"), "{}", tail[8]);
    // Still simple ko: Black's immediate retake is a plain ko.
    assert_eq!(tail[9], "= ko");
    // Under the default natural situational superko the retake after the pass is refused.
    let got = answers(&format!("{KO}play b pass\nplay b c2\ngoconform-why b c2\n"));
    assert_eq!(
        &got[got.len() - 3..],
        ["= ", "? illegal move: superko", "= superko"]
    );
}

#[test]
fn genmove_plays_a_legal_move_and_is_reproducible() {
    let script =
        "boardsize 5\ngenmove b\ngenmove w\ngenmove b\ngenmove w\nlist_stones b\nlist_stones w\n";
    let first = answers(script);
    assert_eq!(first, answers(script));
    let moves: Vec<&str> = first[1..5]
        .iter()
        .map(|a| a.strip_prefix("= ").unwrap())
        .collect();
    assert!(moves.iter().all(|m| m.len() == 2), "{moves:?}");
    // White has no legal board play on this 2x2 board (both points are suicide), so genmove
    // passes; once play is paused it cannot move at all.
    let got = answers(
        "boardsize 2\nplay b a1\nplay b b2\ngenmove w\nplay b pass\ngoconform-phase\ngenmove w\n",
    );
    assert_eq!(
        got[3..],
        ["= pass", "= ", "= paused", "? cannot move: game-paused"]
    );
}

#[test]
fn malformed_lines_get_errors_and_the_session_goes_on() {
    let got = answers(
        "frobnicate\n5\nplay\nplay b\nplay x d4\nplay b i3\nplay b d4 d5\nis_legal b\n\
         list_stones purple\ncaptures\nkomi\nkomi seven\nkomi 7.25\nprotocol_version extra\n\
         final_status_list\ngoconform-why b\nplay b \u{e9}1\n\u{ff}\u{fe}\nname\n",
    );
    let errors = &got[..got.len() - 1];
    for (i, answer) in errors.iter().enumerate() {
        assert!(answer.starts_with('?'), "line {i}: {answer}");
    }
    assert_eq!(got[0], "? unknown command");
    assert_eq!(got[1], "?5 no command after the id");
    assert_eq!(got.last().unwrap(), "= goconform");
}

#[test]
fn quit_ends_the_session_and_end_of_input_ends_it_quietly() {
    assert_eq!(session("quit\nname\n"), "= \n\n");
    assert_eq!(session("name"), "= goconform\n\n");
    assert_eq!(session(""), "");
}

#[test]
fn showboard_draws_the_position_without_blank_lines() {
    let board = last("boardsize 3\nplay b a1\nplay w c3\nshowboard\n");
    let lines: Vec<&str> = board.lines().collect();
    assert_eq!(lines[0], "= ");
    assert_eq!(lines[1], "   A B C");
    assert_eq!(lines[2], " 3 . . O 3");
    assert_eq!(lines[4], " 1 X . . 1");
    assert_eq!(lines[5], "   A B C");
    assert!(lines
        .iter()
        .all(|l| !l.trim().is_empty() || l.starts_with('=')));
}

/// GNU Go, if installed, must agree with the reference on stones, captures and legal plays
/// after every move of a game under simple ko with suicide forbidden (its defaults).
#[test]
fn gnugo_agrees_on_stones_and_captures() {
    const GNUGO: &str = "/usr/games/gnugo";
    if !std::path::Path::new(GNUGO).exists() {
        if std::env::var_os("CI").is_some() {
            panic!("{GNUGO} is not installed, and CI is set: install gnugo (.ci/run does)");
        }
        eprintln!("note: {GNUGO} not installed; skipping the comparison with GNU Go");
        return;
    }
    // A random game from our own genmove, to be replayed into both engines.
    let mut script = String::from("goconform-rules simple\nboardsize 9\n");
    for i in 0..120 {
        script.push_str(if i % 2 == 0 {
            "genmove b\n"
        } else {
            "genmove w\n"
        });
    }
    let generated = answers(&script);
    let moves: Vec<(char, String)> = generated[2..]
        .iter()
        .enumerate()
        .map_while(|(i, a)| {
            let v = a.strip_prefix("= ")?;
            Some((if i % 2 == 0 { 'b' } else { 'w' }, v.to_string()))
        })
        .filter(|(_, v)| v != "pass")
        .collect();
    assert!(moves.len() > 50, "too few moves: {}", moves.len());

    let mut replay = String::from("boardsize 9\nclear_board\n");
    for (color, vertex) in &moves {
        let next = if *color == 'b' { 'w' } else { 'b' };
        replay.push_str(&format!(
            "play {color} {vertex}\nlist_stones black\nlist_stones white\ncaptures black\n\
             captures white\nall_legal {next}\n"
        ));
    }
    let ours = answers(&format!("goconform-rules simple\n{replay}"));
    let ours = &ours[1..];

    let mut child = Command::new(GNUGO)
        .args(["--mode", "gtp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gnugo starts");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(replay.as_bytes())
        .unwrap();
    let output = child.wait_with_output().expect("gnugo runs");
    let theirs = String::from_utf8_lossy(&output.stdout).to_string();
    let theirs: Vec<&str> = theirs.split_terminator("\n\n").collect();
    assert_eq!(ours.len(), theirs.len(), "different number of responses");

    let as_set = |a: &str| -> (char, BTreeSet<String>) {
        let marker = a.chars().next().unwrap_or(' ');
        let words = a[1..].split_whitespace().map(str::to_string).collect();
        (marker, words)
    };
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        let command = replay.lines().nth(i).unwrap_or("");
        assert_eq!(
            as_set(a),
            as_set(b),
            "after `{command}`: ours {a:?}, GNU Go {b:?}"
        );
    }
    let captured: u32 = ours
        .iter()
        .zip(replay.lines())
        .filter(|(_, c)| c.starts_with("captures"))
        .map(|(a, _)| a[2..].parse::<u32>().unwrap())
        .max()
        .unwrap_or(0);
    assert!(captured > 0, "the game should include captures");
}

/// Like [`answers`], in a session that starts by switching to the ruleset `rules`; the answer
/// to that switch is checked and dropped.
fn answers_under(rules: &str, script: &str) -> Vec<String> {
    let mut got = answers(&format!("goconform-rules {rules}\n{script}"));
    assert_eq!(got.remove(0), "= ", "switching to {rules}");
    got
}

/// The answers to the last `n` commands of a session under `rules`.
fn tail_under(rules: &str, script: &str, n: usize) -> Vec<String> {
    let got = answers_under(rules, script);
    got[got.len() - n..].to_vec()
}

/// The whole ending procedure under aga, on the [`WALLS`] position (Black to move). Black
/// thinks White's A3 is dead; White disputes, and Black proves it by capturing A3 in the
/// resumption. The second pause is ended by Black's pass, so at the agreement White passes
/// once more and hands over another pass stone.
///
/// Pass stones: first pause B pass (W +1), W pass (B +1); resumption B B3, W pass (B +1),
/// B A4, W pass (B +1), B A2 capturing A3, W pass (B +1), B pass (W +1); White's pass at the
/// agreement (B +1). Black holds 5 pass stones and 1 capture, White 2 pass stones.
/// Area: Black 8 stones + 7 empty points on the A and B columns = 15; White 5 stones + 5
/// points on column E + 0.5 = 10.5: B+4.5.
/// Territory (bga, the same events): Black 7 + 1 capture + 5 pass stones = 13; White 5 + 2 +
/// 0.5 = 7.5: B+5.5. Without White's extra pass stone it would be B+4.5.
const RESUMPTION: &str = "play b pass\nplay w pass\n";
const RESUMED_PLAY: &str =
    "play b b3\nplay w pass\nplay b a4\nplay w pass\nplay b a2\nplay w pass\nplay b pass\n";

#[test]
fn pause_dispute_resumption_and_agreement_with_white_passing_last() {
    let script = format!(
        "{WALLS}{RESUMPTION}goconform-phase\ngoconform-dead a3\nfinal_score\nplay b b3\n\
         goconform-dispute\ngoconform-phase\nshowboard\ngoconform-dispute\n{RESUMED_PLAY}\
         goconform-phase\ngoconform-prisoners b\nfinal_score\ngoconform-dead\nfinal_score\n\
         goconform-score\ngoconform-agree\ngoconform-phase\ngoconform-prisoners b\ngoconform-prisoners w\n\
         captures b\nfinal_score\nplay w pass\ngoconform-agree\ngoconform-dispute\n"
    );
    let got = answers(&script);
    let walls = WALLS.lines().count();
    assert!(got[..walls + 2].iter().all(|a| a == "= "), "{got:?}");
    let got = &got[walls + 2..];
    assert_eq!(got[0], "= paused");
    assert_eq!(got[1], "= ");
    // Agreeing now that A3 is dead: Black 15, White 10.5.
    assert_eq!(got[2], "= B+4.5");
    // A play during the pause is not taken as a dispute: the refusal names both ways on.
    assert_eq!(got[3], "? illegal move: game-paused (play is paused after two passes: goconform-agree [VERTEX...] ends the game, goconform-dispute resumes play with black)");
    assert_eq!(got[4], "= ", "the dispute is accepted");
    assert_eq!(got[5], "= resumed");
    // White passed last, so Black resumes.
    assert!(
        got[6].contains("phase resumed; black to move"),
        "{}",
        got[6]
    );
    assert_eq!(got[7], "? illegal move: not-paused");
    assert!(got[8..15].iter().all(|a| a == "= "), "{:?}", &got[8..15]);
    // B B3 ... B pass: the resumption did not open with two passes, so play pauses again.
    assert_eq!(got[15], "= paused");
    assert_eq!(
        got[16], "= 5",
        "1 capture and 4 pass stones before the agreement"
    );
    // Paused with nothing agreed: the white wall could be dead as far as the position says
    // (one eye), so the referee names it instead of counting it alive.
    assert!(
        got[17].starts_with("? dead stones not agreed: 1 group(s) could be dead (at D1)"),
        "{}",
        got[17]
    );
    assert_eq!(got[18], "= ");
    // The score of agreeing now (nothing dead) already has White's extra pass stone in it.
    assert_eq!(got[19], "= B+4.5");
    assert_eq!(
        got[20],
        "= scoring area; B territory 7 stones 8 captures 1 dead 0 pass-stones 5 komi 0 \
         compensation 0 total 15; W territory 5 stones 5 captures 0 dead 0 pass-stones 2 \
         komi 0.5 compensation 0 total 10.5; result B+4.5"
    );
    assert_eq!(got[21], "= ", "nothing left to remove: A3 was captured");
    assert_eq!(got[22], "= ended");
    assert_eq!(got[23], "= 6", "White passed last at the agreement");
    assert_eq!(got[24], "= 2");
    assert_eq!(got[25], "= 1", "GTP captures leave pass stones out");
    assert_eq!(got[26], "= B+4.5");
    assert_eq!(got[27], "? illegal move: game-over");
    assert_eq!(got[28], "? illegal move: game-over");
    assert_eq!(got[29], "? illegal move: game-over");

    // Under territory counting White's extra pass stone matters: B+5.5, not B+4.5.
    let tail = tail_under(
        "bga",
        &format!("{WALLS}{RESUMPTION}goconform-dispute\n{RESUMED_PLAY}goconform-dead\nfinal_score\ngoconform-agree\nfinal_score\n"),
        3,
    );
    assert_eq!(tail, ["= B+5.5", "= ", "= B+5.5"]);
    // Where White does not pass last (japanese-1989 has no pass stones; a dispute resumes
    // play, Article 9(3), and two passes stop it again, with no end on four passes).
    let tail = tail_under(
        "japanese-1989",
        &format!("{WALLS}{RESUMPTION}goconform-dispute\n{RESUMPTION}goconform-phase\ngoconform-agree a3\nfinal_score\n"),
        3,
    );
    // Territory: Black 10 + 1 dead stone = 11; White 5 + 0.5: B+5.5.
    assert_eq!(tail, ["= paused", "= A3", "= B+5.5"]);
}

/// Two passes opening the resumption end the game with every stone alive. Here Black made
/// the last pass of the first pause (White passed out of turn first), so White resumes; the
/// resumption opens W pass, B pass, and White passes once more at the end.
///
/// A3 stays on the board, so the nine empty points on the A and B columns touch both colours.
/// Area: Black 5; White 6 stones + 5 + 0.5 = 11.5: W+6.5. Territory (bga): pass stones B 3
/// (W's three passes), W 2; Black 0 + 3 = 3, White 5 + 2 + 0.5 = 7.5: W+4.5.
#[test]
fn four_passes_end_the_game_with_every_stone_alive() {
    let script = format!(
        "{WALLS}play w pass\nplay b pass\ngoconform-dead a3\nfinal_score\ngoconform-dispute b\n\
         goconform-dispute w\nshowboard\nplay w pass\ngoconform-phase\nplay b pass\n\
         goconform-phase\nfinal_score\nfinal_status_list dead\nfinal_status_list seki\n\
         goconform-prisoners b\ngoconform-prisoners w\nplay b a1\ngoconform-dead a3\n\
         final_score\ngoconform-agree a3\n"
    );
    let got = answers(&script);
    let got = &got[WALLS.lines().count() + 2..];
    assert_eq!(got[0], "= ");
    assert_eq!(got[1], "= B+4.5", "agreeing now that A3 is dead");
    assert_eq!(got[2], "? illegal move: out-of-turn", "Black passed last");
    assert_eq!(got[3], "= ");
    assert!(
        got[4].contains("phase resumed; white to move"),
        "{}",
        got[4]
    );
    assert_eq!(got[5..9], ["= ", "= resumed", "= ", "= ended"]);
    assert_eq!(
        got[9], "= W+6.5",
        "A3 is alive whatever goconform-dead said"
    );
    assert_eq!(got[10], "= ");
    // Unfilled dame are not seki: Black can fill B3 beside A3 without putting anything in
    // atari, so final_status_list seki lists nothing (game::status::seki_stones).
    assert_eq!(got[11], "= ");
    assert_eq!(got[12], "= 3");
    assert_eq!(got[13], "= 2");
    assert_eq!(got[14], "? illegal move: game-over");
    assert_eq!(got[15], "= ");
    assert_eq!(got[16], "= W+6.5");
    assert_eq!(got[17], "? illegal move: game-over");
    let tail = tail_under(
        "bga",
        &format!(
            "{WALLS}play w pass\nplay b pass\ngoconform-dispute\nplay w pass\nplay b pass\n\
             final_score\n"
        ),
        1,
    );
    assert_eq!(tail, ["= W+4.5"]);
}

#[test]
fn disputes_follow_the_ending_of_the_rules() {
    let paused = format!("{WALLS}{RESUMPTION}");
    // Not paused yet, and after the end.
    let got = answers(&format!(
        "{WALLS}goconform-dispute\ngoconform-dispute b w\ngoconform-dispute purple\n\
         goconform-agree\ngoconform-agree a3\n"
    ));
    let tail = &got[got.len() - 5..];
    assert_eq!(tail[0], "? illegal move: not-paused");
    assert!(tail[1].starts_with("? syntax error"), "{}", tail[1]);
    assert!(tail[2].starts_with("? invalid color"), "{}", tail[2]);
    assert_eq!(
        tail[3..],
        ["? illegal move: not-paused", "? illegal move: not-paused"]
    );
    // The agreement-only ending has no resumption; two-passes ends at once; Japanese 1989
    // resumes on request (Article 9(3)).
    let tail = tail_under(
        "chinese",
        &format!("{paused}goconform-phase\ngoconform-dispute\n"),
        2,
    );
    assert_eq!(tail, ["= paused", "? illegal move: no-resumption"]);
    let tail = tail_under(
        "japanese-1989",
        &format!("{paused}goconform-phase\ngoconform-dispute\ngoconform-phase\n"),
        3,
    );
    assert_eq!(tail, ["= paused", "= ", "= resumed"]);
    let tail = tail_under(
        "tromp-taylor",
        &format!("{paused}goconform-phase\ngoconform-dispute\ngoconform-agree\nfinal_score\n"),
        4,
    );
    // Tromp-Taylor at the komi 0.5 of WALLS: A3 alive, Black 5, White 6 + 5 + 0.5 = 11.5.
    assert_eq!(
        tail,
        [
            "= ended",
            "? illegal move: game-over",
            "? illegal move: game-over",
            "= W+6.5"
        ]
    );
    // New Zealand: the players name who moves first; if they cannot agree, the game ends with
    // every stone alive.
    let tail = tail_under(
        "new-zealand",
        &format!("{paused}goconform-dispute w\ngoconform-phase\nshowboard\n"),
        3,
    );
    assert_eq!(tail[..2], ["= ", "= resumed"]);
    assert!(tail[2].contains("white to move"), "{}", tail[2]);
    let tail = tail_under(
        "new-zealand",
        &format!("{paused}goconform-dead a3\ngoconform-dispute\ngoconform-phase\nfinal_score\n"),
        3,
    );
    assert_eq!(tail, ["= ", "= ended", "= W+6.5"]);
}

#[test]
fn agreements_name_dead_strings_and_answer_what_they_removed() {
    // The walls with two strings to agree on: White's A3 on Black's side and a lone black E2
    // on White's.
    let position = format!("{WALLS}play b e2\n{RESUMPTION}");
    let got = answers(&format!(
        "{position}goconform-agree b2\ngoconform-agree z9\ngoconform-agree e2 a3 a3\n\
         list_stones b\nlist_stones w\ngoconform-prisoners w\ncaptures w\nfinal_status_list dead\n\
         final_score\n"
    ));
    let tail = &got[got.len() - 9..];
    assert_eq!(tail[0], "? illegal move: no-stone");
    assert!(tail[1].starts_with("? `z9` is off"), "{}", tail[1]);
    // Reading order: A3 (row 3) before E2 (row 2).
    assert_eq!(tail[2], "= A3 E2");
    assert_eq!(tail[3], "= C5 C4 C3 C2 C1");
    assert_eq!(tail[4], "= D5 D4 D3 D2 D1");
    // White: 1 dead stone and 1 pass stone (Black passed first); White passed last already.
    assert_eq!(tail[5], "= 2");
    assert_eq!(tail[6], "= 0", "stones agreed dead are not GTP captures");
    assert_eq!(tail[7], "= ", "after the end nothing on the board is dead");
    // Area: Black 5 + 10 = 15; White 5 + 5 + 0.5 = 10.5.
    assert_eq!(tail[8], "= B+4.5");
    // Without vertices the goconform-dead stones are the agreement; a whole string goes.
    let tail = &answers(&format!(
        "{position}goconform-dead c3\ngoconform-agree\nlist_stones b\n"
    ));
    assert_eq!(tail[tail.len() - 2..], ["= C5 C4 C3 C2 C1", "= E2"]);
}

#[test]
fn undo_takes_back_disputes_agreements_and_resignations() {
    let got = answers(&format!(
        "{WALLS}{RESUMPTION}goconform-dispute\nundo\ngoconform-phase\ngoconform-dead a3\n\
         goconform-agree\ngoconform-phase\nlist_stones w\nfinal_status_list dead\nundo\n\
         goconform-phase\nlist_stones w\nfinal_status_list dead\ngoconform-prisoners b\n\
         goconform-agree\nundo\nundo\ngoconform-phase\nshowboard\n"
    ));
    let tail = &got[got.len() - 18..];
    assert_eq!(tail[..3], ["= ", "= ", "= paused"]);
    assert_eq!(tail[4], "= A3");
    assert_eq!(tail[5], "= ended");
    assert_eq!(tail[6], "= D5 D4 D3 D2 D1");
    assert_eq!(tail[7], "= ");
    assert_eq!(tail[8], "= ", "undo of the agreement");
    assert_eq!(tail[9], "= paused");
    assert_eq!(tail[10], "= D5 D4 A3 D3 D2 D1");
    assert_eq!(
        tail[11], "= A3",
        "the pending dead stones are back in force"
    );
    assert_eq!(tail[12], "= 1", "the dead stone is no longer a prisoner");
    assert_eq!(tail[13], "= A3");
    // Undo the agreement, then White's pass: play is on again with White to move.
    assert_eq!(tail[14..17], ["= ", "= ", "= playing"]);
    assert!(
        tail[17].contains("phase playing; white to move"),
        "{}",
        tail[17]
    );

    let got = answers(&format!(
        "{WALLS}goconform-resign w\nundo\ngoconform-phase\nfinal_score\n"
    ));
    assert_eq!(got[got.len() - 4..], ["= ", "= ", "= playing", "= W+6.5"]);
    // Rule changes replay every kind of event: the dispute is refused by agreement-only rules.
    let got = answers(&format!(
        "{WALLS}{RESUMPTION}goconform-dispute\ngoconform-rules chinese\ngoconform-phase\n\
         undo\ngoconform-rules chinese\ngoconform-agree a3\ngoconform-rules tromp-taylor\n\
         goconform-rules bga\nkomi 0.5\nfinal_score\n"
    ));
    let tail = &got[got.len() - 9..];
    assert!(
        tail[0]
            .starts_with("? event 14 (dispute) would be illegal under these rules: no-resumption"),
        "{}",
        tail[0]
    );
    assert_eq!(tail[1], "= resumed");
    assert_eq!(tail[2..5], ["= ", "= ", "= A3"]);
    assert!(tail[5].ends_with("game-over"), "{}", tail[5]);
    // Under bga after the agreement: Black 10 + 1 dead + 1 pass stone = 12, White 5 + 1 + 0.5.
    assert_eq!(tail[6..], ["= ", "= ", "= B+5.5"]);
}

#[test]
fn resignation_ends_the_game_at_any_moment() {
    let tail = &answers(&format!(
        "{WALLS}goconform-resign b\nfinal_score\ngoconform-phase\nplay w e5\ngenmove w\n\
         goconform-resign w\ngoconform-resign\ngoconform-score\n"
    ));
    let tail = &tail[tail.len() - 8..];
    assert_eq!(tail[..3], ["= ", "= W+R", "= ended"]);
    assert_eq!(tail[3], "? illegal move: game-over");
    assert_eq!(tail[4], "? cannot move: game-over");
    assert_eq!(tail[5], "? illegal move: game-over");
    assert!(tail[6].starts_with("? syntax error"), "{}", tail[6]);
    assert!(
        tail[7].starts_with("= scoring area; B territory 0 stones 5 ")
            && tail[7].ends_with("; result W+R"),
        "{}",
        tail[7]
    );
    // During a pause, and whoever is to move.
    let tail = &answers(&format!(
        "{WALLS}{RESUMPTION}goconform-resign white\nfinal_score\nplay b pass\n"
    ));
    assert_eq!(
        tail[tail.len() - 3..],
        ["= ", "= B+R", "? illegal move: game-over"]
    );
}

/// The seki check position of conformance/counting/seki-with-eyes.toml (9x9, komi 0.5),
/// scored through the whole ending procedure: two passes, then `final_score` while paused,
/// which agrees that nothing is dead.
///
/// By hand: Black has 27 stones and White 33. Of the 21 empty points, 9 are bordered by Black
/// alone (A9 C9 A8 B8 C8 A7, A2 A1, C1), 7 by White alone (F9, C5, E5, J6, J2, F1, H1) and 5
/// by both (H9 J8, E3 F3 G3).
/// - aga (area, pass stones that do not count in area): Black 27 + 9 = 36, White 33 + 7 + 0.5
///   = 40.5: W+4.5.
/// - bga (territory, seki eye points count, pass stones): Black 9 + 1 pass stone = 10, White
///   7 + 1 + 0.5 = 8.5: B+1.5 (White passed last, so no extra pass stone).
/// - japanese-1989 (territory, the eye points of a seki are nobody's, no pass stones): every
///   group borders H9 J8 or E3 F3 G3, shared with the other colour, so every group is in seki
///   (the black strings are one group through their eyes, as are the white ones) and no point
///   counts: 0 against 0.5: W+0.5.
#[test]
fn final_score_follows_the_ruleset_on_the_seki_position() {
    let black = "B9 D9 D8 H8 J9 B7 C7 D7 E7 F7 G7 A6 G6 A5 G5 A4 G4 H4 J4 A3 B3 C3 B2 C2 D2 B1 D1";
    let white = "E9 G9 E8 F8 G8 H7 J7 B6 C6 D6 E6 F6 H6 B5 D5 F5 H5 J5 B4 C4 D4 E4 F4 \
                 D3 H3 J3 E2 F2 G2 H2 E1 G1 J1";
    let script = format!(
        "boardsize 9\nkomi 0.5\n{}{}play b pass\nplay w pass\ngoconform-phase\ngoconform-dead\n\
         final_score\ngoconform-score\nfinal_status_list dead\ngoconform-agree\nfinal_score\n",
        stones("b", black),
        stones("w", white)
    );
    let expected = [
        (
            "aga",
            "W+4.5",
            "scoring area; B territory 9 stones 27 captures 0 dead 0 pass-stones 1 komi 0 \
             compensation 0 total 36; W territory 7 stones 33 captures 0 dead 0 pass-stones 1 \
             komi 0.5 compensation 0 total 40.5; result W+4.5",
        ),
        (
            "bga",
            "B+1.5",
            "scoring territory; B territory 9 stones 27 captures 0 dead 0 pass-stones 1 komi 0 \
             compensation 0 total 10; W territory 7 stones 33 captures 0 dead 0 pass-stones 1 \
             komi 0.5 compensation 0 total 8.5; result B+1.5",
        ),
        (
            "japanese-1989",
            "W+0.5",
            "scoring territory; B territory 0 stones 27 captures 0 dead 0 pass-stones 0 komi 0 \
             compensation 0 total 0; W territory 0 stones 33 captures 0 dead 0 pass-stones 0 \
             komi 0.5 compensation 0 total 0.5; result W+0.5",
        ),
    ];
    for (rules, result, score) in expected {
        let got = answers_under(rules, &script);
        let (setup, tail) = got.split_at(got.len() - 7);
        assert!(setup.iter().all(|a| a == "= "), "{rules}: {setup:?}");
        assert_eq!(
            tail,
            [
                "= paused".to_string(),
                "= ".to_string(),
                format!("= {result}"),
                format!("= {score}"),
                "= ".to_string(),
                "= ".to_string(),
                format!("= {result}"),
            ],
            "{rules}"
        );
    }
}

/// A handicap game on 5x5: three agreed free handicap stones C1 C2 C3, White to move. Black
/// completes the wall on C, White builds one on D.
///
/// aga, area counting: Black 5 stones + 10 points = 15; White 5 + 5 points + handicap komi
/// 0.5 + compensation of N-1 = 2 points = 12.5: B+2.5. (The even-game komi 7.5 would give
/// W+4.5; no compensation B+4.5; N stones of compensation B+1.5.)
/// bga, territory counting, no compensation: Black 10, White 5 + 0.5: B+4.5.
#[test]
fn a_handicap_game_scores_with_handicap_komi_and_compensation() {
    let script = "boardsize 5\nset_free_handicap c1 c2 c3\nplay w d1\nplay b c4\nplay w d2\n\
                  play b c5\nplay w d3\nplay w d4\nplay w d5\nfinal_score\ngoconform-score\n";
    let tail = tail_under("aga", script, 2);
    assert_eq!(
        tail,
        [
            "= B+2.5",
            "= scoring area; B territory 10 stones 5 captures 0 dead 0 pass-stones 0 komi 0 \
             compensation 0 total 15; W territory 5 stones 5 captures 0 dead 0 pass-stones 0 \
             komi 0.5 compensation 2 total 12.5; result B+2.5"
        ]
    );
    assert_eq!(tail_under("bga", script, 2)[0], "= B+4.5");
    // The komi command sets the handicap komi too: komi 7.5 makes it W+4.5.
    let tail = tail_under("aga", &format!("komi 7.5\n{script}"), 2);
    assert_eq!(tail[0], "= W+4.5");
    // White moves first after the handicap stones.
    let board = last("boardsize 5\nset_free_handicap c1 c2 c3\nshowboard\n");
    assert!(
        board.contains("handicap 3; phase playing; white to move"),
        "{board}"
    );
}

#[test]
fn an_overlong_command_is_refused_without_echo_and_the_session_goes_on() {
    let long = format!(
        "7 play B {}\n",
        "A".repeat(goconform::gtp::MAX_COMMAND_BYTES)
    );
    let script = format!("1 boardsize 9\n{long}2 play B D4\n");
    let got = answers(&script);
    assert_eq!(got.len(), 3, "{got:?}");
    assert_eq!(got[0].trim_end(), "=1");
    assert_eq!(
        got[1],
        format!(
            "? command longer than {} bytes",
            goconform::gtp::MAX_COMMAND_BYTES
        )
    );
    assert_eq!(got[2].trim_end(), "=2");
}

/// `all_legal` lists vertices in reading order (the top row first, each row left to right),
/// the order the GTP module promises, whatever order the legal plays are found in.
#[test]
fn all_legal_is_in_reading_order() {
    // 3 . . .
    // 2 . X .    White to play: every empty point is legal.
    // 1 . . .
    //   A B C
    let got = last("boardsize 3\nclear_board\nplay b B2\nall_legal w\n");
    assert_eq!(got, "= A3 B3 C3 A2 C2 A1 B1 C1");
}
