//! The GTP bridge (`goconform::engines::gtp`) against GNU Go 3.8 and against engines that
//! misbehave on purpose.
//!
//! - Real scenarios through the GNU Go profiles: what GNU Go should pass passes, what a GTP
//!   engine cannot be asked is not applicable (for the reason we expect), and the whole suite
//!   through every profile gives no error, no timeout and no failure beyond the two known
//!   divergences of GNU Go (superko is not tested against suicides).
//! - Set-ups the suite does not exercise through GTP: handicap stones and set-up stones, by
//!   `loadsgf` (the GNU Go profiles) and by `play` (a custom `gtp:` profile).
//! - Faults (`tests/fixtures/fake_gtp.py` in front of GNU Go): a hang, a crash, garbage, an
//!   oversized answer, a wrong protocol version, a program that does not exist. Each is the
//!   trial's error or timeout, never a panic, and the run goes on with a new engine.
//!
//! GNU Go must be installed (`apt-get install gnugo`; `$GNUGO` names another binary), and the
//! fault tests need python3. Without them the tests fail when the environment variable CI is
//! set, and say they skipped otherwise, as `tests/gnugo_crosscheck.rs` does.

mod common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use goconform::conformance::harness::{select, Factory};
use goconform::conformance::{
    ErrorKind, Harness, OneAtATime, Outcome, Referee, Reference, RunReport, INTERPRETATION_VERSION,
};
use goconform::engines::gtp::{gnugo_profiles, profile_by_name, GtpEngine, GtpProfile};
use goconform::engines::EngineProcess;
use goconform::fuzzing::{differential, Case, Played};
use goconform::scenario::expectations::Expectations;
use goconform::scenario::Suite;
use goconform::spec::Spec;

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// The GNU Go binary, or `None` after saying why the test is skipped (a failure under CI).
fn gnugo() -> Option<PathBuf> {
    let path = std::env::var_os("GNUGO")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("/usr/games/gnugo"));
    if path.exists() {
        return Some(path);
    }
    common::skip(&format!(
        "GNU Go is not installed at {} (apt-get install gnugo)",
        path.display()
    ));
    None
}

/// python3, for the fake engine; `None` after saying why (a failure under CI).
fn python() -> Option<String> {
    let found = std::process::Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    if found {
        return Some("python3".to_string());
    }
    common::skip("python3 is not installed (the fake GTP engine needs it)");
    None
}

fn spec() -> Spec {
    Spec::load(root()).expect("the spec loads")
}

fn suite(files: &[&str]) -> Suite {
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|f| root().join("conformance").join(f))
        .collect();
    Suite::load(&paths, &spec()).expect("the suite loads")
}

/// A GNU Go profile by name, pointed at the binary the tests found.
fn gnugo_profile(name: &str, binary: &Path) -> GtpProfile {
    let mut profile = profile_by_name(name).unwrap_or_else(|| panic!("no profile {name}"));
    profile.program = binary.to_string_lossy().into_owned();
    profile
}

/// Runs the trials of `suite` whose run label `keep` accepts through `profile`, one worker
/// unless `jobs` says otherwise.
fn run(
    suite: &Suite,
    profile: &GtpProfile,
    jobs: usize,
    keep: impl Fn(&str, &str) -> bool,
) -> RunReport {
    let p = profile.clone();
    let factory: &Factory = &move || Box::new(GtpEngine::new(p.clone())) as Box<dyn Referee>;
    let harness = Harness {
        jobs,
        ..Harness::default()
    };
    let selection = select(suite, |s, r| keep(&s.id, &r.label));
    harness
        .run(suite, &selection, factory)
        .expect("the run starts")
}

/// `id [run]: word: summary` for every trial, for assertion messages.
fn listing(suite: &Suite, report: &RunReport) -> String {
    report
        .trials
        .iter()
        .map(|t| {
            let s = &suite.scenarios[t.scenario];
            format!(
                "{} [{}]: {}: {}",
                s.id,
                s.runs[t.run].label,
                t.outcome.word(),
                t.outcome.summary()
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The outcome of one trial, by scenario id and run label.
fn outcome<'a>(suite: &Suite, report: &'a RunReport, id: &str, label: &str) -> &'a Outcome {
    &report
        .trials
        .iter()
        .find(|t| {
            suite.scenarios[t.scenario].id == id
                && suite.scenarios[t.scenario].runs[t.run].label == label
        })
        .unwrap_or_else(|| panic!("no trial {id} [{label}]"))
        .outcome
}

/// A move the scenario expects refused for a reason GTP does not judge is not put to the
/// engine: the trial runs on without it, and that verdict is listed as not observed.
fn assert_refusal_skipped(suite: &Suite, report: &RunReport, id: &str, label: &str) {
    let trial = report
        .trials
        .iter()
        .find(|t| {
            let s = &suite.scenarios[t.scenario];
            s.id == id && s.runs[t.run].label == label
        })
        .unwrap_or_else(|| panic!("no trial {id} [{label}]"));
    assert_eq!(trial.outcome, Outcome::Pass, "{id} [{label}]");
    assert!(
        trial.unobserved.contains(&"illegal"),
        "{id} [{label}]: {:?}",
        trial.unobserved
    );
}

fn assert_not_applicable(suite: &Suite, report: &RunReport, id: &str, label: &str, why: &str) {
    match outcome(suite, report, id, label) {
        Outcome::NotApplicable(text) => assert!(text.contains(why), "{id} [{label}]: {text}"),
        other => panic!("{id} [{label}]: expected not applicable ({why}), got {other:?}"),
    }
}

#[test]
fn gnu_go_passes_captures_ko_and_suicide_under_its_own_rules() {
    let Some(binary) = gnugo() else { return };
    let suite = suite(&[
        "capture",
        "ko/basic-ko.toml",
        "play/occupied-point.toml",
        "play/empty-initial-position.toml",
        "suicide",
        "superko/triple-ko.toml",
        "superko/send-two-return-one.toml",
        "superko/eternal-life-cycle.toml",
        "superko/setup-position-in-history.toml",
    ]);
    // One profile per ko value GNU Go has, each with the runs of a ruleset it plays under.
    for (profile, label) in [
        ("gnugo", "japanese-1989"),
        ("gnugo-positional", "chinese"),
        ("gnugo-positional", "logical-rules-7a"),
        ("gnugo-situational", "aga-1991-text"),
    ] {
        let started = Instant::now();
        let report = run(&suite, &gnugo_profile(profile, &binary), 0, |_, l| {
            l == label
        });
        let listing = listing(&suite, &report);
        assert!(report.trials.len() >= 14, "{profile} {label}:\n{listing}");
        assert!(
            report.trials.iter().all(|t| t.outcome == Outcome::Pass),
            "{profile} under {label}:\n{listing}"
        );
        // Prisoners are not observed (GTP counts no pass stones): left out, never failed.
        let ko = report
            .trials
            .iter()
            .find(|t| suite.scenarios[t.scenario].id == "basic-ko")
            .expect("basic-ko ran");
        assert!(ko.unobserved.contains(&"prisoners"), "{:?}", ko.unobserved);
        assert!(ko.unobserved.contains(&"to_move"), "{:?}", ko.unobserved);
        eprintln!(
            "{profile} under {label}: {} in {:?}",
            report.tally(),
            started.elapsed()
        );
    }
    // The multi-stone value: --allow-suicide forbids only the single-stone suicide.
    let report = run(
        &suite,
        &gnugo_profile("gnugo-allow-suicide", &binary),
        0,
        |_, l| l == "simple-ko-multi-stone",
    );
    let listing = listing(&suite, &report);
    assert_eq!(report.trials.len(), 2, "{listing}");
    assert!(
        report.trials.iter().all(|t| t.outcome == Outcome::Pass),
        "{listing}"
    );
}

#[test]
fn what_gtp_cannot_express_is_not_applicable() {
    let Some(binary) = gnugo() else { return };
    let suite = suite(&[
        "ko/basic-ko.toml",
        "play/no-two-moves-in-a-row.toml",
        "ending/resign-during-play.toml",
        "passes/pass-stones.toml",
        "counting/captures-and-pass-stones.toml",
        "superko/setup-position-excluded-from-history.toml",
        "incidents/stone-on-occupied-point.toml",
    ]);
    let gnugo = run(&suite, &gnugo_profile("gnugo", &binary), 0, |_, _| true);
    let positional = run(
        &suite,
        &gnugo_profile("gnugo-positional", &binary),
        0,
        |_, _| true,
    );
    for (report, label) in [(&gnugo, "japanese-1989"), (&positional, "chinese")] {
        assert_eq!(report.tally().failing(), 0, "{}", listing(&suite, report));
        // Natural situational superko: GNU Go has none, but a basic ko is judged the same
        // under its ko rule, so the trial is projected onto it, every check kept.
        let ko = report
            .trials
            .iter()
            .find(|t| {
                let s = &suite.scenarios[t.scenario];
                s.id == "basic-ko" && s.runs[t.run].label == "aga"
            })
            .expect("basic-ko [aga] ran");
        assert_eq!(ko.outcome, Outcome::Pass, "{label}");
        let projection = ko.projection.as_ref().expect("projected");
        assert_eq!(projection.axes.len(), 1, "{projection:?}");
        assert_eq!(projection.axes[0].from, "natural-situational");
        assert!(projection.left_out.is_empty(), "{projection:?}");
        // Alternation is not GTP's: `play` names the colour.
        assert_refusal_skipped(&suite, report, "no-two-moves-in-a-row", label);
        // The bridge takes plays and passes only.
        assert_not_applicable(&suite, report, "resign-during-play", label, "resign");
        assert_not_applicable(&suite, report, "captures-and-pass-stones", label, "agree");
        assert_not_applicable(
            &suite,
            report,
            "stone-on-occupied-point",
            "bga",
            "referee's record",
        );
    }
    assert_refusal_skipped(&suite, &gnugo, "pass-stones", "japanese-1989");
    // A cycle only superko forbids cannot be projected onto simple ko (the game would go
    // differently), so it does not apply.
    assert_not_applicable(
        &suite,
        &gnugo,
        "setup-position-excluded-from-history",
        "chinese",
        "goes differently",
    );
    // The set-up position cannot be kept out of a GTP engine's history under superko.
    assert_not_applicable(
        &suite,
        &positional,
        "setup-position-excluded-from-history",
        "chinese",
        "setup_history = excluded",
    );
}

/// Every scenario through every GNU Go profile: no error, no timeout, no harness error, and
/// the only failures are GNU Go's known divergences, which the profiles' expectations files in
/// `tests/engines/` list and triage: under
/// `--positional-superko --allow-all-suicide` a single-stone suicide that leaves the board
/// as it was is allowed (GNU Go does not test suicides against the history), and under
/// `--situational-superko --allow-all-suicide` the same after a pass; and under either
/// superko with `--allow-suicide` or `--allow-all-suicide`, a self-capture of several stones
/// that recreates an earlier position (found by `goconform fuzz`).
#[test]
fn the_whole_suite_through_every_gnu_go_profile() {
    let Some(binary) = gnugo() else { return };
    let suite = Suite::load(&[root().join("conformance")], &spec()).expect("the suite loads");
    // The divergences are those the profiles' expectations files list (and triage).
    let mut known: Vec<(String, String, String)> = Vec::new();
    for profile in gnugo_profiles() {
        let path = root()
            .join("tests/engines")
            .join(format!("{}.expectations.toml", profile.name));
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let listed = Expectations::parse(&path, &text, INTERPRETATION_VERSION)
            .expect("the expectations file reads");
        for e in listed.entries {
            let run = e.run.expect("every GNU Go entry names its run");
            known.push((profile.name.clone(), e.scenario, run));
        }
    }
    assert!(known.len() >= 20, "{known:?}");
    let started = Instant::now();
    let mut passed = 0;
    let mut unexpected = Vec::new();
    let mut seen_known = 0;
    for profile in gnugo_profiles() {
        let name = profile.name.clone();
        let report = run(&suite, &gnugo_profile(&name, &binary), 0, |_, _| true);
        assert!(
            report.engine.version.contains("GNU Go"),
            "{}",
            report.engine
        );
        for t in &report.trials {
            let s = &suite.scenarios[t.scenario];
            let label = &s.runs[t.run].label;
            let is_known = known.contains(&(name.clone(), s.id.clone(), label.clone()));
            match &t.outcome {
                Outcome::Pass => passed += 1,
                Outcome::NotApplicable(_) => {}
                Outcome::Fail(m)
                    if is_known
                        && m[0].key == "illegal"
                        && m[0].expected.starts_with("illegal")
                        && m[0].actual == "legal" =>
                {
                    seen_known += 1
                }
                other => unexpected.push(format!(
                    "{name}: {} [{label}]: {}: {}",
                    s.id,
                    other.word(),
                    other.summary()
                )),
            }
        }
    }
    assert!(unexpected.is_empty(), "{}", unexpected.join("\n"));
    assert_eq!(seen_known, known.len(), "a known divergence went away");
    assert!(passed >= 100, "only {passed} trials passed");
    eprintln!(
        "{passed} trials passed through the {} GNU Go profiles, {seen_known} known divergences, in {:?}",
        gnugo_profiles().len(),
        started.elapsed()
    );
}

/// A scenario the suite does not have: handicap stones and set-up stones of both colours,
/// with a capture and a ko, White moving first.
const HANDICAP_SETUP: &str = r#"
id = "gtp-handicap-and-setup"
title = "Handicap and set-up stones reach a GTP engine"
added = "0.3.0"
clauses = ["aga-1991-r4"]
description = "Handicap stones on C7 and G7, set-up stones of both colours, then a capture and a ko."
checked = "tests/gtp_bridge.rs"
size = 9
handicap = ["C7", "G7"]
board = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
"""
moves = ["W H2", "B C2", "W B2"]

[[run]]
name = "simple"
rules = "japanese-1989"
set = { handicap-placement = "free" }

[[run]]
name = "positional"
rules = "chinese"
set = { handicap-placement = "free" }

[[expect]]
after = 0
board = """
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X O . O . . . . .
. X O . . . . . .
"""

[[expect]]
after = 2
legal = true
captures = ["B2"]
board = """
. . . . . . . . .
. . . . . . . . .
. . X . . . X . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X . X O . . . O .
. X O . . . . . .
"""

[[expect]]
after = 3
illegal = "ko"
"#;

/// [`HANDICAP_SETUP`] as a suite of one scenario.
fn handicap_setup_suite() -> Suite {
    Suite::from_texts(
        &[(
            root().join("conformance/handicap/gtp-handicap-and-setup.toml"),
            HANDICAP_SETUP.to_string(),
        )],
        &spec(),
    )
    .expect("the test scenario loads")
}

#[test]
fn handicap_and_setup_stones_by_loadsgf_and_by_play() {
    let Some(binary) = gnugo() else { return };
    let suite = handicap_setup_suite();
    // GNU Go by loadsgf: both ko rules.
    for (profile, label) in [("gnugo", "simple"), ("gnugo-positional", "positional")] {
        let report = run(&suite, &gnugo_profile(profile, &binary), 1, |_, l| {
            l == label
        });
        assert_eq!(
            report.trials.len(),
            1,
            "{profile}: {}",
            listing(&suite, &report)
        );
        assert_eq!(
            report.trials[0].outcome,
            Outcome::Pass,
            "{profile}: {}",
            listing(&suite, &report)
        );
    }
    // Any GTP engine by set_free_handicap and play: fine under simple ko; under superko the
    // plays would put positions that never arose into the history.
    let custom =
        profile_by_name(&format!("gtp:{} --mode gtp", binary.display())).expect("a custom profile");
    let report = run(&suite, &custom, 1, |_, _| true);
    assert_eq!(
        outcome(&suite, &report, "gtp-handicap-and-setup", "simple"),
        &Outcome::Pass,
        "{}",
        listing(&suite, &report)
    );
    assert_not_applicable(
        &suite,
        &report,
        "gtp-handicap-and-setup",
        "positional",
        "superko history",
    );
    assert_eq!(report.tier.word(), "basic");
    assert!(report.engine.name.starts_with("gtp:"), "{}", report.engine);
}

/// The fault tests' selection: three scenarios under japanese-1989 (simple ko, which the
/// fake's GNU Go plays). The fake strikes at the second `is_legal` of its life: the second
/// move of the first trial (capture/single-stone has two moves).
fn fault_suite() -> Suite {
    suite(&[
        "capture/single-stone.toml",
        "ko/basic-ko.toml",
        "play/occupied-point.toml",
    ])
}

fn fake_profile(python: &str, binary: &Path, mode: &str, marker: &Path) -> GtpProfile {
    let mut profile = gnugo_profile("gnugo", binary);
    profile.name = format!("fake-{mode}");
    profile.program = python.to_string();
    profile.args = vec![
        root()
            .join("tests/fixtures/fake_gtp.py")
            .to_string_lossy()
            .into_owned(),
        mode.to_string(),
        marker.to_string_lossy().into_owned(),
        binary.to_string_lossy().into_owned(),
        "--mode".to_string(),
        "gtp".to_string(),
    ];
    // Long enough for GNU Go to start behind the Python relay on a loaded machine (tests run
    // in parallel), short enough for the hang to cost little.
    profile.timeout = Duration::from_secs(2);
    profile
}

fn marker(mode: &str) -> PathBuf {
    // One name per call: tests run in parallel in one process, and two that used the same
    // mode once removed each other's marker, so a fake engine struck twice.
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let path = std::env::temp_dir().join(format!(
        "goconform-fake-gtp-{}-{n}-{mode}.struck",
        std::process::id()
    ));
    let _ = std::fs::remove_file(&path);
    path
}

/// The default action of SIGPIPE, as the `goconform` binary has it (`src/main.rs`): a write to
/// a dead engine must then still be an error, not the end of the process.
fn default_sigpipe() {
    #[cfg(unix)]
    // SAFETY: sets the disposition of one signal to its default; no memory is involved.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
}

#[test]
fn faults_are_errors_or_timeouts_and_the_next_trial_restarts_the_engine() {
    let (Some(binary), Some(python)) = (gnugo(), python()) else {
        return;
    };
    default_sigpipe();
    let suite = fault_suite();
    let japanese = |_: &str, label: &str| label == "japanese-1989";
    for (mode, word, text) in [
        (
            "hang",
            "timeout",
            "did not answer `is_legal white E5` within 2 s",
        ),
        (
            "crash",
            "error",
            "fake engine: deliberate crash in the middle of a game",
        ),
        ("garbage", "error", "does not start with `=` or `?`"),
        ("oversized", "error", "bytes"),
    ] {
        let marker = marker(mode);
        let started = Instant::now();
        let report = run(
            &suite,
            &fake_profile(&python, &binary, mode, &marker),
            1,
            japanese,
        );
        let listing = listing(&suite, &report);
        let _ = std::fs::remove_file(&marker);
        assert_eq!(report.trials.len(), 3, "{mode}:\n{listing}");
        let first = &report.trials[0].outcome;
        assert_eq!(first.word(), word, "{mode}:\n{listing}");
        assert!(
            first.summary().starts_with("at move 2: "),
            "{mode}:\n{listing}"
        );
        assert!(first.summary().contains(text), "{mode}:\n{listing}");
        if mode == "crash" {
            assert!(first.summary().contains("exit status: 3"), "{listing}");
        }
        // The run went on, with a new engine (the old one is dead or was killed).
        for t in &report.trials[1..] {
            assert_eq!(t.outcome, Outcome::Pass, "{mode}:\n{listing}");
        }
        eprintln!("{mode}: {}", first.summary());
        let each: Vec<Duration> = report.trials.iter().map(|t| t.elapsed).collect();
        eprintln!(
            "{mode}: {} in {:?} (trials {each:?})",
            report.tally(),
            started.elapsed()
        );
    }
}

#[test]
fn a_wrong_protocol_version_or_a_missing_program_fails_every_trial_without_a_panic() {
    let (Some(binary), Some(python)) = (gnugo(), python()) else {
        return;
    };
    default_sigpipe();
    let suite = fault_suite();
    let marker = marker("wrong-version");
    let fake = fake_profile(&python, &binary, "wrong-version", &marker);
    let mut missing = gnugo_profile("gnugo", &binary);
    missing.program = "/nonexistent/gtp-engine".to_string();
    for (profile, text) in [
        (&fake, "GTP version `1`, not 2"),
        (
            &missing,
            "cannot start the engine `/nonexistent/gtp-engine`",
        ),
    ] {
        let report = run(&suite, profile, 2, |_, label| label == "japanese-1989");
        let listing = listing(&suite, &report);
        assert_eq!(report.trials.len(), 3, "{listing}");
        for t in &report.trials {
            assert_eq!(t.outcome.word(), "error", "{listing}");
            assert!(t.outcome.summary().contains(text), "{listing}");
            assert!(
                t.outcome.summary().contains("while setting up the trial"),
                "{listing}"
            );
        }
        assert_eq!(report.engine.version, "(not started)");
    }
    assert!(GtpEngine::try_new(fake)
        .is_err_and(|e| e.kind == ErrorKind::Protocol && e.message.contains("version")));
}

#[cfg(unix)]
#[test]
fn writing_to_an_engine_that_closed_its_input_is_an_error_not_a_signal() {
    default_sigpipe();
    let mut process = EngineProcess::spawn(
        "sh",
        &[
            "-c".to_string(),
            "exec 0<&-; echo 'closed my input' >&2; sleep 5".to_string(),
        ],
    )
    .expect("sh starts");
    std::thread::sleep(Duration::from_millis(200));
    let mut error = None;
    for _ in 0..100 {
        if let Err(e) = process.send_line("play black D4") {
            error = Some(e);
            break;
        }
    }
    let error = error.expect("the write fails");
    assert_eq!(error.kind, ErrorKind::Crash);
    assert!(
        error.message.contains("closed my input"),
        "{}",
        error.message
    );
    process.kill();
    assert!(!process.is_running());
}

/// A game announced to a GTP engine is pipelined; each fault must still be met at the event
/// where it strikes, with the same kind and words as when every event is its own exchange.
#[test]
fn a_pipelined_game_meets_each_fault_at_the_same_event() {
    let (Some(binary), Some(python)) = (gnugo(), python()) else {
        return;
    };
    default_sigpipe();
    let suite = suite(&["ko/basic-ko.toml"]);
    let scenario = &suite.scenarios[0];
    let run = scenario
        .runs
        .iter()
        .position(|r| r.label == "japanese-1989")
        .expect("the run exists");
    let case = Case::from_run(scenario, run);
    for (mode, text) in [
        ("hang", "did not answer `is_legal white B3` within 2 s"),
        ("crash", "deliberate crash in the middle of a game"),
        ("garbage", "does not start with `=` or `?`"),
        ("oversized", "bytes"),
    ] {
        let mut seen = Vec::new();
        for pipelined in [false, true] {
            let marker = marker(mode);
            let engine = GtpEngine::new(fake_profile(&python, &binary, mode, &marker));
            let mut engine: Box<dyn Referee> = if pipelined {
                Box::new(engine)
            } else {
                Box::new(OneAtATime(Box::new(engine)))
            };
            let played = differential(&mut Reference::new(), engine.as_mut(), &case);
            let _ = std::fs::remove_file(&marker);
            let Played::Diverged(d) = played else {
                panic!("{mode} (pipelined: {pipelined}): {played:?}")
            };
            assert_eq!((d.after, d.key), (2, "error"), "{mode}: {d:?}");
            assert!(d.actual.contains(text), "{mode}: {d:?}");
            seen.push(d);
        }
        assert_eq!(seen[0].expected, seen[1].expected, "{mode}");
    }
    // Without a fault the pipelined game agrees, event for event.
    let mut engine = GtpEngine::new(gnugo_profile("gnugo", &binary));
    assert_eq!(
        differential(&mut Reference::new(), &mut engine, &case),
        Played::Agreed {
            asked: case.events.len()
        }
    );
}

/// The set-up file GNU Go loads is created afresh under an unpredictable name: a link planted
/// at the name the bridge once used (`goconform-gtp-<pid>-<n>.sgf` in the temporary folder)
/// is never followed, so nothing outside is overwritten.
#[cfg(unix)]
#[test]
fn the_set_up_file_never_follows_a_planted_link() {
    let Some(binary) = gnugo() else { return };
    let target = tempfile::tempdir().expect("a folder");
    let victim = target.path().join("victim.txt");
    std::fs::write(&victim, "mine").unwrap();
    let mut planted = Vec::new();
    for n in 0..8 {
        let link =
            std::env::temp_dir().join(format!("goconform-gtp-{}-{n}.sgf", std::process::id()));
        if std::os::unix::fs::symlink(&victim, &link).is_ok() {
            planted.push(link);
        }
    }
    let suite = handicap_setup_suite();
    let report = run(&suite, &gnugo_profile("gnugo", &binary), 1, |_, l| {
        l == "simple"
    });
    for link in &planted {
        let _ = std::fs::remove_file(link);
    }
    assert_eq!(
        report.trials[0].outcome,
        Outcome::Pass,
        "{}",
        listing(&suite, &report)
    );
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "mine");
}
