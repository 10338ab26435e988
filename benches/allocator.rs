//! Which global allocator the `goconform` binary ships with, measured over the commands users
//! run, each allocator's binary run as a child process, side by side in the same run.
//!
//! Run with `cargo bench --bench allocator` (a few minutes: it builds the binary twice). The
//! binary is built with the release profile twice into this target folder: with the default
//! features (mimalloc, `src/main.rs`) and with `--no-default-features --features
//! cli,goban,libtest` (the C library's malloc: glibc's, or musl's in a static build). Each
//! build is copied under `allocator-bench/`. Set `GOCONFORM_ALLOCATOR_BINS=A,B` (two binaries,
//! mimalloc's first) to measure binaries built elsewhere instead.
//!
//! The paths, each run `RUNS` times per binary, the two binaries taking turns:
//! 1. `judge`: `judge -j 1 --fallback-rules aga` over the corpus beside the project
//!    (`../shared/corpus/sgf`, or `GOCONFORM_CORPUS`; skipped with the reason without it);
//! 2. `check`: the whole suite through the reference;
//! 3. `check serve`: the whole suite through `jsonl:<binary> serve` (both processes);
//! 4. `fuzz serve`: `fuzz --engine jsonl:<binary> serve --games 2000 --seed 1`;
//! 5. `fuzz in process`: the same games through the reference, 20,000 of them;
//! 6. `book`: the rule book written into a fresh folder.
//!
//! Printed for each path and allocator: the least CPU time (user and system, the binary and
//! the engines it starts) and the least wall time over the runs, and the ratio C library over
//! mimalloc (above 1: mimalloc is faster).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

mod common;
use common::children_cpu;

const RUNS: usize = 5;

fn target_dir() -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target"))
}

/// Builds the binary with `features` and copies it to `allocator-bench/NAME/goconform`.
fn build(name: &str, features: &[&str]) -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let status = Command::new(cargo)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["build", "--release", "--bin", "goconform"])
        .args(features)
        .status()
        .map_err(|e| format!("cargo did not start: {e}"))?;
    if !status.success() {
        return Err(format!("cargo build {features:?} failed"));
    }
    let built = target_dir().join("release/goconform");
    let dir = target_dir().join("allocator-bench").join(name);
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let copy = dir.join("goconform");
    std::fs::copy(&built, &copy).map_err(|e| format!("{}: {e}", built.display()))?;
    Ok(copy)
}

/// Runs `binary args`, answering (CPU seconds, wall seconds); a failure to run is an error.
fn time(binary: &Path, args: &[String], ok: &[i32]) -> Result<(f64, f64), String> {
    let cpu = children_cpu();
    let started = Instant::now();
    let status = Command::new(binary)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| e.to_string())?;
    let wall = started.elapsed().as_secs_f64();
    match status.code() {
        Some(code) if ok.contains(&code) => Ok((children_cpu() - cpu, wall)),
        _ => Err(format!("{} {args:?}: {status}", binary.display())),
    }
}

fn main() {
    let bins: Vec<PathBuf> = match std::env::var("GOCONFORM_ALLOCATOR_BINS") {
        Ok(list) => list.split(',').map(PathBuf::from).collect(),
        Err(_) => {
            let built = build("mimalloc", &[]).and_then(|m| {
                build(
                    "libc",
                    &["--no-default-features", "--features", "cli,goban,libtest"],
                )
                .map(|s| vec![m, s])
            });
            match built {
                Ok(bins) => bins,
                Err(e) => {
                    println!("skipped: {e}");
                    return;
                }
            }
        }
    };
    let [mimalloc, libc_malloc] = &bins[..] else {
        println!(
            "skipped: GOCONFORM_ALLOCATOR_BINS names {} binaries, not 2",
            bins.len()
        );
        return;
    };
    let root = env!("CARGO_MANIFEST_DIR").to_string();
    let scratch = tempfile::tempdir().expect("a temporary folder");
    let out = |name: &str| scratch.path().join(name).display().to_string();
    let corpus = std::env::var_os("GOCONFORM_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(&root).join("../shared/corpus/sgf"));

    let words = |s: &str| -> Vec<String> { s.split(' ').map(String::from).collect() };
    // A path: its name, and its arguments for a given binary (the engine is the binary itself).
    type Args = Box<dyn Fn(&Path) -> Vec<String>>;
    let mut paths: Vec<(&str, Args, Vec<i32>)> = Vec::new();
    if corpus.is_dir() {
        let corpus = corpus.display().to_string();
        let root = root.clone();
        paths.push((
            "judge -j 1 (corpus)",
            Box::new(move |_| {
                let mut a = words(&format!("--root {root} judge -j 1 --fallback-rules aga"));
                a.push(corpus.clone());
                a
            }),
            // Its exit status says what it found in the records (the corpus has results that
            // disagree), which is not this measure's business.
            vec![0, 1, 2, 3],
        ));
    } else {
        println!(
            "judge: skipped, no corpus at {} (set GOCONFORM_CORPUS)",
            corpus.display()
        );
    }
    let r = root.clone();
    paths.push((
        "check (reference)",
        Box::new(move |_| words(&format!("--root {r} check"))),
        vec![0],
    ));
    let r = root.clone();
    paths.push((
        "check --engine jsonl:serve",
        Box::new(move |b| {
            let mut a = words(&format!("--root {r} check --engine"));
            a.push(format!("jsonl:{} serve", b.display()));
            a
        }),
        vec![0],
    ));
    let (r, o) = (root.clone(), out("findings"));
    paths.push((
        "fuzz jsonl:serve, 2000 games",
        Box::new(move |b| {
            let mut a = words(&format!(
                "--root {r} fuzz --games 2000 --seed 1 --out {o} --engine"
            ));
            a.push(format!("jsonl:{} serve", b.display()));
            a
        }),
        vec![0],
    ));
    let (r, o) = (root.clone(), out("findings"));
    paths.push((
        "fuzz reference, 20000 games",
        Box::new(move |_| {
            words(&format!(
                "--root {r} fuzz --games 20000 --seed 1 --out {o} --engine reference"
            ))
        }),
        vec![0],
    ));
    let (r, o) = (root.clone(), out("book"));
    paths.push((
        "book",
        Box::new(move |_| {
            let _ = std::fs::remove_dir_all(&o);
            words(&format!("--root {r} book {o}"))
        }),
        vec![0],
    ));

    println!(
        "least of {RUNS} runs each, CPU s (user + system, with child engines) / wall s; ratio libc over mimalloc"
    );
    println!(
        "{:<30} {:>19} {:>19} {:>11}",
        "path", "mimalloc", "libc malloc", "ratio CPU"
    );
    for (name, args, ok) in &paths {
        let mut best = [(f64::INFINITY, f64::INFINITY); 2];
        let mut failed = None;
        for _ in 0..RUNS {
            for (k, bin) in [mimalloc, libc_malloc].iter().enumerate() {
                match time(bin, &args(bin), ok) {
                    Ok((cpu, wall)) => {
                        best[k].0 = best[k].0.min(cpu);
                        best[k].1 = best[k].1.min(wall);
                    }
                    Err(e) => failed = Some(e),
                }
            }
        }
        if let Some(e) = failed {
            println!("{name:<30} failed: {e}");
            continue;
        }
        let [(mc, mw), (sc, sw)] = best;
        println!(
            "{name:<30} {mc:>8.3} / {mw:>8.3} {sc:>8.3} / {sw:>8.3} {:>10.2}x",
            sc / mc
        );
    }
}
