//! GoPerft speed: nodes per second of the reference's counter (`perft::perft`), beside the
//! same count by the naive executor through the `Referee` trait (`perft::replay`, a replay of
//! the line for every legal move) and by the independent Python counter
//! (`tests/perft/perft.py`, timed as a process, skipped without python3).
//!
//! `cargo bench --bench perft` (a minute or two). Groups: `perft/reference` on 4x4 under
//! situational superko (the goal is 20 M nodes/s on one core), and 3x3 and 5x5 under
//! each ko rule; `perft/naive` and `perft/python` on 3x3 at a depth each finishes in well under
//! a second. Throughput is in nodes (the count itself), so criterion prints nodes per second.

use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use goconform::conformance::Naive;
use goconform::perft::{self, replay, Start};
use goconform::rules::{KoRule, Rules, SuicideRule};

fn rules(ko: KoRule) -> Rules {
    Rules {
        ko,
        suicide: SuicideRule::Forbidden,
        ..Rules::default()
    }
}

const KO: [KoRule; 4] = [
    KoRule::Simple,
    KoRule::Positional,
    KoRule::Situational,
    KoRule::NaturalSituational,
];

fn reference(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/reference");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    let mut cases = vec![(4u8, 6u32, KoRule::Situational)];
    for ko in KO {
        cases.push((3, 7, ko));
        cases.push((5, 4, ko));
    }
    for (n, depth, ko) in cases {
        let game = Start::empty(n, n).game(&rules(ko)).unwrap();
        let nodes = perft::perft(&game, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_with_input(
            BenchmarkId::new(format!("{n}x{n}-depth{depth}"), ko.word()),
            &game,
            |b, game| b.iter(|| black_box(perft::perft(game, depth))),
        );
    }
    group.finish();
}

fn naive(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/naive");
    group.sample_size(10);
    let start = Start::empty(3, 3);
    for ko in [KoRule::Simple, KoRule::Situational] {
        let r = rules(ko);
        let depth = 4;
        let nodes = perft::perft(&start.game(&r).unwrap(), depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(BenchmarkId::new("3x3-depth4", ko.word()), |b| {
            b.iter(|| {
                let mut engine = Naive::new();
                let n = replay::perft(&mut engine, &r, &start, depth).unwrap();
                assert_eq!(n, nodes);
                black_box(n)
            })
        });
    }
    group.finish();
}

fn python(c: &mut Criterion) {
    let root = env!("CARGO_MANIFEST_DIR");
    if Command::new("python3").arg("--version").output().is_err() {
        eprintln!("perft/python skipped: python3 is not installed");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("bench.perft");
    let depth = 5;
    let r = rules(KoRule::Situational);
    let nodes = perft::perft(&Start::empty(3, 3).game(&r).unwrap(), depth);
    std::fs::write(
        &file,
        format!(
            "id 3x3\nposition 3x3 .../.../... b played\nrules ko=situational suicide=forbidden\nperft {depth} {nodes}\n"
        ),
    )
    .unwrap();
    let mut group = c.benchmark_group("perft/python");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(
        BenchmarkId::new(format!("3x3-depth{depth}"), "situational"),
        |b| {
            b.iter(|| {
                let out = Command::new("python3")
                    .arg(format!("{root}/tests/perft/perft.py"))
                    .args(["--max-nodes", "100000000"])
                    .arg(&file)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stdout)
                );
            })
        },
    );
    group.finish();
}

/// What bounds the reference's counter: every played move of an interior node is a clone of
/// the game (its board's arrays have a fixed capacity of 1,024 points whatever the size, about
/// 17 KB, and the history), and a leaf is one `check_play`. Both are timed on the 4x4 board
/// under situational superko after four moves, the middle of the depth-6 count.
fn bounds(c: &mut Criterion) {
    use goconform::board::{Color, Point};
    let mut group = c.benchmark_group("perft/bounds");
    let start = Start::empty(4, 4);
    let mut game = start.game(&rules(KoRule::Situational)).unwrap();
    for (col, row) in [(1, 1), (2, 2), (1, 2), (2, 1)] {
        let color = game.to_move();
        let _ = game.apply(goconform::game::Event::Move(
            color,
            goconform::board::Move::Play(Point::new(col, row)),
        ));
    }
    group.bench_function("game-clone-4x4", |b| b.iter(|| black_box(game.clone())));
    let points: Vec<Point> = perft::points(4, 4);
    group.throughput(Throughput::Elements(points.len() as u64));
    group.bench_function("check-play-4x4-every-point", |b| {
        b.iter(|| {
            points
                .iter()
                .filter(|&&p| game.check_play(Color::Black, p).is_ok())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, reference, naive, python, bounds);
criterion_main!(benches);
