//! Speed of reading and judging real game records, with Python's sgfmill as a peer.
//!
//! Run with `cargo bench --bench judge` (a few minutes). The records are the corpus beside
//! the project (`../shared/corpus/sgf`, or `GOCONFORM_CORPUS`), read into memory once; without
//! it the benchmark says so and measures nothing.
//!
//! 1. `read`: SGF bytes to records (`sgf::read`), in records per second.
//! 2. `judge_one_ruleset`: read and judge every record under the ruleset its `RU` names (aga
//!    where it names none), one thread.
//! 3. `judge_every_ruleset`: read and judge every record under every ruleset, one thread.
//! 4. `judge_one_ruleset_all_threads`: as 2 on a rayon pool of every core.
//!
//! Criterion times a slice of the corpus (the first `SLICE` records) so that a sample takes a
//! fraction of a second; after the groups, the whole corpus, each configuration the least of
//! three passes, in records/s and moves/s: the floor (reading the files), parsing alone
//! (sgf-parse, and our main-line reader `sgf::fast`), reading records, judging alone, read and
//! judge on 1, 2 and every thread, and the peers with the ratios: sgf-parse plus the goban
//! crate's board replaying every move (in this process, with the same allocator as ours), and
//! `benches/peers/sgfmill_replay.py`, which reads the same files and plays every move on
//! sgfmill's board (its legality check: occupied points, captures, suicide; simple ko is not
//! its board's business), run right after ours. Without `python3 -c "import sgfmill"` that
//! peer is skipped with the reason. `judge -j 1` and `-j 2` over the corpus from the command
//! line: printed last, side by side with their ratio (and `cargo bench --bench allocator`
//! compares allocators on `-j 1`).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

mod common;
use common::children_cpu;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rayon::prelude::*;

use goconform::rules::Rules;

/// Ours with the allocator the binary ships (src/main.rs), and the goban peer with it too: the
/// one that suits both (with glibc's the goban crate's replay is several times slower).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
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
    command_line_threads(read_all(&files).len());
}

/// `goconform judge -j 1` and `-j 2` over the corpus, the binary this bench was built with
/// (its driver: files taken by the threads one at a time, reports written in order), side by
/// side: the least wall and CPU time of five runs each, the two taking turns, records a
/// second, CPU time a record, and the wall-time ratio (the goal is 1.8 on two idle cores; on
/// a machine busy with other work, the ratio says more about the others than about us, which
/// the CPU utilisation printed beside it shows).
fn command_line_threads(count: usize) {
    const RUNS: usize = 5;
    let binary = env!("CARGO_BIN_EXE_goconform");
    let root = env!("CARGO_MANIFEST_DIR");
    let corpus = corpus_dir();
    let mut best = [(f64::INFINITY, f64::INFINITY); 2];
    for _ in 0..RUNS {
        for (k, jobs) in ["1", "2"].iter().enumerate() {
            let cpu = children_cpu();
            let started = Instant::now();
            let status = std::process::Command::new(binary)
                .args([
                    "--root",
                    root,
                    "judge",
                    "-j",
                    jobs,
                    "--fallback-rules",
                    "aga",
                ])
                .arg(&corpus)
                .stdout(std::process::Stdio::null())
                .status();
            let wall = started.elapsed().as_secs_f64();
            match status {
                // 0-3: judged (a rule broken or a record unread is not a failure to run).
                Ok(s) if s.code().is_some_and(|c| (0..=3).contains(&c)) => {}
                other => {
                    println!("  judge -j {jobs}: skipped, the binary failed: {other:?}");
                    return;
                }
            }
            let cpu = children_cpu() - cpu;
            best[k] = (best[k].0.min(wall), best[k].1.min(cpu));
        }
    }
    println!();
    println!(
        "the command line over the corpus ({count} records), least of {RUNS} runs each, taking turns; {} cores here",
        std::thread::available_parallelism().map_or(0, |n| n.get())
    );
    for (k, (wall, cpu)) in best.iter().enumerate() {
        println!(
            "  judge -j {}  {wall:>7.3} s wall  {:>9.0} records/s  {cpu:>7.3} s CPU  {:>6.1} us CPU a record  {:.2} CPUs busy",
            k + 1,
            count as f64 / wall,
            cpu * 1e6 / count as f64,
            cpu / wall
        );
    }
    println!(
        "    judge -j 2 over -j 1 (wall): {:.2}x",
        best[0].0 / best[1].0
    );
}

/// Seconds one call of `f` takes, the least of `RUNS` calls (the machine is shared).
fn best_of(mut f: impl FnMut()) -> f64 {
    const RUNS: usize = 3;
    (0..RUNS)
        .map(|_| {
            let started = Instant::now();
            f();
            started.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// The peer in Rust: sgf-parse's reading, then every move of each main line played on the
/// goban crate's board (its legality check: occupied points, suicide, ko) until a move it
/// refuses. Set-up stones are not placed (the cost of reading and playing, less than
/// judging). Answers the moves played.
fn goban_replay(text: &str) -> usize {
    use goban::rules::{game::Game, GobanSizes, Move as GobanMove, CHINESE};
    use sgf_parse::go::{Move, Prop};
    let Ok(trees) = sgf_parse::parse(text) else {
        return 0;
    };
    let mut played = 0;
    for tree in &trees {
        let Ok(root) = tree.as_go_node() else {
            continue;
        };
        let (w, h) = match root.get_property("SZ") {
            None => (19, 19),
            Some(Prop::SZ((w, h))) => (*w, *h),
            Some(_) => continue,
        };
        let size = match (w, h) {
            (19, 19) => GobanSizes::Nineteen,
            (9, 9) => GobanSizes::Nine,
            _ => GobanSizes::Custom(usize::from(h), usize::from(w)),
        };
        let mut game = Game::new(size, CHINESE);
        'line: for node in root.main_variation() {
            for prop in node.properties() {
                let (Prop::B(mv) | Prop::W(mv)) = prop else {
                    continue;
                };
                match mv {
                    Move::Move(p) if p.x < w && p.y < h => {
                        let coord = (p.y, p.x);
                        if game.check_point(coord).is_some() {
                            break 'line;
                        }
                        game.play(GobanMove::Play(coord.0, coord.1));
                    }
                    _ => {
                        game.play(GobanMove::Pass);
                    }
                }
                played += 1;
            }
        }
    }
    played
}

/// One timed pass over the whole corpus per configuration (the least of three), and the
/// peers, in the same run; ratios of ours over each.
fn whole_corpus(files: &[(PathBuf, Vec<u8>)], setting: &Setting) {
    let records = read_all(files);
    let moves: usize = records.iter().map(|r| r.events.len()).sum();
    let count = records.len();
    println!();
    println!(
        "whole corpus: {} files, {count} records, {moves} moves; allocator: {}",
        files.len(),
        if cfg!(feature = "mimalloc") {
            "mimalloc (as the binary ships)"
        } else {
            "the C library's"
        }
    );
    let rate = |label: &str, seconds: f64| -> f64 {
        let per_second = count as f64 / seconds;
        println!(
            "  {label:<44} {seconds:>7.3} s  {per_second:>9.0} records/s  {:>11.0} moves/s",
            moves as f64 / seconds
        );
        per_second
    };
    let paths: Vec<&PathBuf> = files.iter().map(|(p, _)| p).collect();
    rate(
        "floor: reading the files",
        best_of(|| {
            for p in &paths {
                black_box(std::fs::read(p).ok());
            }
        }),
    );
    let texts: Vec<String> = files
        .iter()
        .filter_map(|(_, b)| sgf::text::decode(b).ok().map(|(t, _)| t.into_owned()))
        .collect();
    let sgf_parse_alone = rate(
        "parsing alone: sgf-parse",
        best_of(|| {
            for t in &texts {
                black_box(sgf_parse::parse(t).ok());
            }
        }),
    );
    let fast_alone = rate(
        "parsing alone: our main-line reader",
        best_of(|| {
            for t in &texts {
                black_box(sgf::fast::main_lines(t));
            }
        }),
    );
    rate(
        "reading records (sgf::read: decode, parse, read)",
        best_of(|| {
            black_box(read_all(files));
        }),
    );
    rate(
        "judging alone (records read beforehand), 1 thread",
        best_of(|| {
            for r in &records {
                for (name, rules) in setting.as_recorded(r) {
                    black_box(judge(r, name, rules, &setting.spec));
                }
            }
        }),
    );
    let judge_all = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .expect("a thread pool");
        best_of(|| {
            let n: usize = pool.install(|| {
                files
                    .par_iter()
                    .map(|(p, b)| judge_file(p, b, &setting.spec, &|r| setting.as_recorded(r)))
                    .sum()
            });
            black_box(n);
        })
    };
    let ours = rate("read + judge, one ruleset, 1 thread", judge_all(1));
    let two = rate("read + judge, one ruleset, 2 threads", judge_all(2));
    let cores = rayon::current_num_threads();
    rate(
        &format!("read + judge, one ruleset, {cores} threads"),
        judge_all(cores),
    );
    rate(
        &format!("read + judge, {} rulesets, 1 thread", setting.by_name.len()),
        best_of(|| {
            for (p, b) in files {
                black_box(judge_file(p, b, &setting.spec, &|r| setting.every(r)));
            }
        }),
    );
    let goban = rate(
        "peer: sgf-parse + goban crate replay",
        best_of(|| {
            for t in &texts {
                black_box(goban_replay(t));
            }
        }),
    );
    println!("  ratios:");
    println!(
        "    our reader over sgf-parse, parsing alone: {:.1}x",
        fast_alone / sgf_parse_alone
    );
    println!("    read + judge, 2 threads over 1: {:.2}x", two / ours);
    println!(
        "    read + judge (1 thread) over sgf-parse + goban replay: {:.1}x",
        ours / goban
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
                "  {:<44} {:>7.3} s  {theirs:>9.0} records/s  {:>11.0} moves/s",
                "peer: sgfmill read + replay",
                value["seconds"].as_f64().unwrap_or(f64::NAN),
                value["moves_per_second"].as_f64().unwrap_or(f64::NAN)
            );
            println!(
                "    read + judge (1 thread) over sgfmill: {:.1}x",
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
