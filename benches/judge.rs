//! Speed of reading and judging real game records, with Python's sgfmill as a peer.
//!
//! Run with `cargo bench --bench judge` (a few minutes). The records are the corpus beside
//! the project (`../shared/corpus/sgf`, or `GOCONFORM_CORPUS`), read into memory once; without
//! it the benchmark says so and measures nothing.
//!
//! 1. `read`: SGF bytes to records (`sgf::read`), in records per second.
//! 2. `judge_one_ruleset`: read and judge every record under the ruleset its `RU` names (aga
//!    where it names none), one thread.
//! 3. `judge_every_ruleset`: read and judge every record under all eleven rulesets, one thread.
//! 4. `judge_one_ruleset_all_threads`: as 2 on a rayon pool of every core.
//!
//! Criterion times a slice of the corpus (the first `SLICE` records) so that a sample takes a
//! fraction of a second; after the groups, one timed pass over the whole corpus per
//! configuration prints records/s and moves/s, and the peer: `benches/peers/sgfmill_replay.py`
//! reads the same files and plays every move on sgfmill's board (its legality check: occupied
//! points, captures, suicide; simple ko is not its board's business), run in the same process
//! tree right after ours, and the ratio of the two rates is printed. Without `python3 -c
//! "import sgfmill"` the peer is skipped with the reason.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

use goconform::rules::Rules;
use goconform::sgf::{self, judge::judge, Record};
use goconform::spec::Spec;

/// Records in the slice criterion samples.
const SLICE: usize = 500;

fn corpus_dir() -> PathBuf {
    std::env::var_os("GOCONFORM_CORPUS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/sgf"))
}

/// Every record file's path and bytes, in name order.
fn corpus() -> Option<Vec<(PathBuf, Vec<u8>)>> {
    let dir = corpus_dir();
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| sgf::is_sgf(p))
        .collect();
    paths.sort();
    Some(
        paths
            .into_iter()
            .filter_map(|p| std::fs::read(&p).ok().map(|b| (p, b)))
            .collect(),
    )
}

fn read_all(files: &[(PathBuf, Vec<u8>)]) -> Vec<Record> {
    files
        .iter()
        .filter_map(|(p, b)| sgf::read(p, b, &Default::default()).ok())
        .flatten()
        .filter_map(Result::ok)
        .collect()
}

/// Reads and judges one file under the rulesets `rulesets` gives for each record; answers how
/// many judgements were made (so nothing is optimised away).
fn judge_file(
    path: &Path,
    bytes: &[u8],
    spec: &Spec,
    rulesets: &dyn Fn(&Record) -> Vec<(&'static str, Rules)>,
) -> usize {
    let Ok(games) = sgf::read(path, bytes, &Default::default()) else {
        return 0;
    };
    let mut n = 0;
    for record in games.into_iter().flatten() {
        for (name, rules) in rulesets(&record) {
            black_box(judge(&record, name, rules, spec));
            n += 1;
        }
    }
    n
}

struct Setting {
    spec: Spec,
    aga: Rules,
    by_name: Vec<(&'static str, Rules)>,
}

impl Setting {
    fn new() -> Setting {
        let spec = Spec::load(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the spec loads");
        let names: Vec<&'static str> = spec
            .ruleset_names()
            .into_iter()
            .map(|n| &*Box::leak(n.to_string().into_boxed_str()))
            .collect();
        let by_name = names
            .iter()
            .map(|n| (*n, spec.rules(n).expect("a known ruleset")))
            .collect();
        let aga = spec.rules("aga").expect("aga");
        Setting { spec, aga, by_name }
    }

    fn as_recorded(&self, record: &Record) -> Vec<(&'static str, Rules)> {
        let name = record.ruleset().unwrap_or("aga");
        let rules = self
            .by_name
            .iter()
            .find(|(n, _)| *n == name)
            .map_or(self.aga, |(_, r)| *r);
        vec![(name, rules)]
    }

    fn every(&self, _: &Record) -> Vec<(&'static str, Rules)> {
        self.by_name.clone()
    }
}

fn benches(c: &mut Criterion) {
    let Some(files) = corpus() else {
        println!(
            "skipped: no corpus at {} (set GOCONFORM_CORPUS)",
            corpus_dir().display()
        );
        return;
    };
    let setting = Setting::new();
    let slice = &files[..SLICE.min(files.len())];

    let mut group = c.benchmark_group("sgf");
    group.throughput(Throughput::Elements(slice.len() as u64));
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("read", |b| b.iter(|| black_box(read_all(slice))));
    group.bench_function("judge_one_ruleset", |b| {
        b.iter(|| {
            slice
                .iter()
                .map(|(p, bytes)| judge_file(p, bytes, &setting.spec, &|r| setting.as_recorded(r)))
                .sum::<usize>()
        })
    });
    group.bench_function("judge_one_ruleset_all_threads", |b| {
        b.iter(|| {
            slice
                .par_iter()
                .map(|(p, bytes)| judge_file(p, bytes, &setting.spec, &|r| setting.as_recorded(r)))
                .sum::<usize>()
        })
    });
    group.bench_function("judge_every_ruleset", |b| {
        b.iter(|| {
            slice
                .iter()
                .map(|(p, bytes)| judge_file(p, bytes, &setting.spec, &|r| setting.every(r)))
                .sum::<usize>()
        })
    });
    group.finish();

    whole_corpus(&files, &setting);
}

/// One timed pass over the whole corpus per configuration, and the peer.
fn whole_corpus(files: &[(PathBuf, Vec<u8>)], setting: &Setting) {
    let records = read_all(files);
    let moves: usize = records.iter().map(|r| r.events.len()).sum();
    let count = records.len();
    println!();
    println!(
        "whole corpus: {} files, {count} records, {moves} moves",
        files.len()
    );
    let rate = |label: &str, seconds: f64| -> f64 {
        let per_second = count as f64 / seconds;
        println!(
            "  {label:<34} {seconds:>7.3} s  {per_second:>9.0} records/s  {:>11.0} moves/s",
            moves as f64 / seconds
        );
        per_second
    };
    let started = Instant::now();
    black_box(read_all(files));
    rate("read", started.elapsed().as_secs_f64());
    let started = Instant::now();
    for (p, b) in files {
        black_box(judge_file(p, b, &setting.spec, &|r| setting.as_recorded(r)));
    }
    let ours = rate(
        "read + judge, one ruleset, 1 thread",
        started.elapsed().as_secs_f64(),
    );
    let started = Instant::now();
    let n: usize = files
        .par_iter()
        .map(|(p, b)| judge_file(p, b, &setting.spec, &|r| setting.as_recorded(r)))
        .sum();
    black_box(n);
    rate(
        &format!(
            "read + judge, one ruleset, {} threads",
            rayon::current_num_threads()
        ),
        started.elapsed().as_secs_f64(),
    );
    let started = Instant::now();
    for (p, b) in files {
        black_box(judge_file(p, b, &setting.spec, &|r| setting.every(r)));
    }
    rate(
        "read + judge, 11 rulesets, 1 thread",
        started.elapsed().as_secs_f64(),
    );

    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/peers/sgfmill_replay.py");
    let peer = std::process::Command::new("python3")
        .arg(&script)
        .arg(corpus_dir())
        .output();
    match peer {
        Ok(out) if out.status.success() => {
            let line = String::from_utf8_lossy(&out.stdout);
            let value: serde_json::Value = match serde_json::from_str(line.trim()) {
                Ok(v) => v,
                Err(e) => {
                    println!("  peer: unreadable answer ({e}): {line}");
                    return;
                }
            };
            let theirs = value["records_per_second"].as_f64().unwrap_or(f64::NAN);
            println!(
                "  {:<34} {:>7.3} s  {theirs:>9.0} records/s  {:>11.0} moves/s",
                "peer: sgfmill read + replay",
                value["seconds"].as_f64().unwrap_or(f64::NAN),
                value["moves_per_second"].as_f64().unwrap_or(f64::NAN)
            );
            println!(
                "  ratio, goconform read + judge (one ruleset, 1 thread) over sgfmill: {:.1}x",
                ours / theirs
            );
        }
        Ok(out) => println!(
            "  peer skipped: {}",
            String::from_utf8_lossy(&out.stderr)
                .lines()
                .last()
                .unwrap_or("it failed")
        ),
        Err(e) => println!("  peer skipped: python3 did not start ({e})"),
    }
}

criterion_group!(judge_benches, benches);
criterion_main!(judge_benches);
