//! Engines that say what rules they play (docs/engine-profiles.md): profile files, `--claim`,
//! and GTP engines without GNU Go's extensions, checked against GNU Go 3.8 (skipped, saying
//! so, where it is not installed; a failure under CI).

mod common;

use common::{gnugo, goconform, skip};

fn text(out: &std::process::Output) -> String {
    format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// The tally line `check` ends with.
fn tally(out: &std::process::Output) -> String {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .rev()
        .find(|l| l.contains("passed"))
        .unwrap_or_default()
        .to_string()
}

/// `goconform check` of `engine` claiming the rules GNU Go plays by default (simple ko,
/// suicide forbidden), with `extra` arguments.
fn check_claiming_gnu_gos_rules(engine: &str, extra: &[&str]) -> std::process::Output {
    let mut args = vec![
        "check",
        "--engine",
        engine,
        "--claim",
        "ko=simple",
        "--claim",
        "suicide=forbidden",
    ];
    args.extend_from_slice(extra);
    goconform(&args)
}

#[test]
fn gnu_go_through_its_profile_file_is_judged_as_the_built_in_profile() {
    let Some(_) = gnugo() else {
        return skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let built_in = goconform(&["check", "--engine", "gnugo"]);
    let profile = goconform(&["check", "--engine", "profile:docs/profiles/gnugo.toml"]);
    assert_eq!(built_in.status.code(), Some(0), "{}", text(&built_in));
    assert_eq!(profile.status.code(), Some(0), "{}", text(&profile));
    assert_eq!(tally(&built_in), tally(&profile));
    assert!(tally(&profile).contains(" passed"), "{}", text(&profile));
    assert!(!tally(&profile).contains("failed"), "{}", text(&profile));
}

#[test]
fn a_plain_gtp_engine_is_held_only_to_the_rules_it_claims() {
    let Some(gnugo) = gnugo() else {
        return skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let engine = format!("gtp:{} --mode gtp", gnugo.display());
    // Unclaimed, it is put trials under superko and suicide rules GNU Go does not play.
    let unclaimed = goconform(&["check", "--engine", &engine]);
    assert_eq!(unclaimed.status.code(), Some(1), "{}", text(&unclaimed));
    assert!(
        tally(&unclaimed).contains(" failed"),
        "{}",
        text(&unclaimed)
    );
    // Claiming its rules, it fails none.
    let claimed = check_claiming_gnu_gos_rules(&engine, &[]);
    assert_eq!(claimed.status.code(), Some(0), "{}", text(&claimed));
    assert!(tally(&claimed).contains(" passed"), "{}", text(&claimed));
    assert!(!tally(&claimed).contains("failed"), "{}", text(&claimed));
}

#[test]
fn a_gtp_engine_without_list_stones_or_is_legal_is_judged_on_its_verdicts_said_once() {
    let Some(gnugo) = gnugo() else {
        return skip("GNU Go is not installed (apt-get install gnugo)");
    };
    let engine = format!(
        "gtp:python3 tests/fixtures/plain_gtp.py {} --mode gtp",
        gnugo.display()
    );
    let out = check_claiming_gnu_gos_rules(&engine, &[]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(0), "{shown}");
    assert_eq!(
        shown.matches("has no `list_stones`").count(),
        1,
        "said once: {shown}"
    );
    assert!(!shown.contains("refused 'list_stones"), "{shown}");
    assert!(!shown.contains("refused `list_stones"), "{shown}");
    assert!(tally(&out).contains(" passed"), "{shown}");
    // Verdicts are still compared: the same engine started with --allow-all-suicide but
    // claiming suicide=forbidden takes the suicides the suite expects refused, and fails.
    let lying = format!(
        "gtp:python3 tests/fixtures/plain_gtp.py {} --mode gtp --allow-all-suicide",
        gnugo.display()
    );
    let out = check_claiming_gnu_gos_rules(&lying, &["--topic", "suicide"]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out));
    assert!(tally(&out).contains(" failed"), "{}", text(&out));
}

#[test]
fn a_broken_profile_is_refused_with_its_place_and_key() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("broken.toml");
    std::fs::write(
        &path,
        "protocol = \"gtp\"\ncommand = \"gnugo --mode gtp\"\n[rules]\nko = [\"simpel\"]\n",
    )
    .unwrap();
    let spec = format!("profile:{}", path.display());
    let out = goconform(&["check", "--engine", &spec]);
    let shown = text(&out);
    assert_eq!(out.status.code(), Some(2), "{shown}");
    assert!(
        shown.contains("broken.toml:4:7: key `rules.ko[0]`"),
        "{shown}"
    );
    assert!(shown.contains("simple"), "{shown}");
    let out = goconform(&["check", "--claim", "kko=simple", "--engine", "gtp:x"]);
    assert_eq!(out.status.code(), Some(2), "{}", text(&out));
    assert!(text(&out).contains("kko"), "{}", text(&out));
}

/// A skipped test says so in the ordinary `cargo test` output, past libtest's capture, and
/// fails under CI: this test binary run again on one of its GNU Go tests with GNU Go hidden.
#[test]
fn a_skip_is_shown_as_skipped_and_fails_under_ci() {
    let test = "gnu_go_through_its_profile_file_is_judged_as_the_built_in_profile";
    let run = |ci: bool| {
        let mut command = std::process::Command::new(std::env::current_exe().unwrap());
        command
            .args(["--exact", test, "--test-threads", "1"])
            .env("GNUGO", "/nonexistent/gnugo");
        if ci {
            command.env("CI", "true");
        } else {
            command.env_remove("CI");
        }
        command.output().unwrap()
    };
    let local = run(false);
    assert!(local.status.success(), "{}", text(&local));
    let stderr = String::from_utf8_lossy(&local.stderr);
    assert!(
        stderr.contains(&format!("SKIPPED {test}: GNU Go is not installed")),
        "{}",
        text(&local)
    );
    let ci = run(true);
    assert!(!ci.status.success(), "{}", text(&ci));
}
