//! GoPerft speed: nodes per second of the reference's counter (`perft::perft`), beside the
//! same count by the naive executor through the `Referee` trait (`perft::replay`, a replay of
//! the line for every legal move) and by the independent Python counter
//! (`tests/perft/perft.py`, timed as a process, skipped without python3).
//!
//! `cargo bench --bench perft` (a minute or two). Groups: `perft/reference` on 4x4 under
//! situational superko (the goal is 20 M nodes/s on one core), and 3x3 and 5x5 under
//! each ko rule; `perft/by-copy`, the same 4x4 count made as the counter made it before the
//! game had an undo record (a copy of the game for every move), so the two rates are of one
//! run; `perft/naive` and `perft/python` on 3x3 at a depth each finishes in well under
//! a second. Throughput is in nodes (the count itself), so criterion prints nodes per second.

use std::hint::black_box;
use std::process::Command;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use goconform::board::{Move, Point};
use goconform::conformance::Naive;
use goconform::game::{Event, Game};
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

/// The counter as it was before the game had an undo record: every move above the leaves
/// made in a copy of the whole game (`Game::clone`, then `Game::apply`), the leaves judged as
/// now. Timed beside `perft/reference` on the same count, so the gain is a ratio of one run.
fn perft_by_copy(game: &Game, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if !game.phase().is_play() {
        return 0;
    }
    let color = game.to_move();
    let (width, height) = (game.board().width(), game.board().height());
    let mut total = 0;
    let child = |mv: Move| {
        let mut next = game.clone();
        assert!(next.apply(Event::Move(color, mv)).is_legal());
        next
    };
    for row in 0..height {
        for col in 0..width {
            let p = Point::new(col, row);
            if game.check_play(color, p).is_ok() {
                total += if depth == 1 {
                    1
                } else {
                    perft_by_copy(&child(Move::Play(p)), depth - 1)
                };
            }
        }
    }
    total
        + if depth == 1 {
            1
        } else {
            perft_by_copy(&child(Move::Pass), depth - 1)
        }
}

fn by_copy(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft/by-copy");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(8));
    let (n, depth) = (4u8, 6u32);
    let game = Start::empty(n, n)
        .game(&rules(KoRule::Situational))
        .unwrap();
    let nodes = perft::perft(&game, depth);
    assert_eq!(perft_by_copy(&game, depth), nodes);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function(
        BenchmarkId::new(format!("{n}x{n}-depth{depth}"), "situational"),
        |b| b.iter(|| black_box(perft_by_copy(&game, depth))),
    );
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

/// What bounds the reference's counter: a move above the leaves is judged, made and taken
/// back (`Game::mark` once a node, `Game::rewind` after every move below it), and a leaf is
/// one `check_play`. Each is timed on the 4x4 board under situational superko after four
/// moves, the middle of the depth-6 count, beside the copy of the whole game that the
/// counter made for every move before it had an undo record.
fn bounds(c: &mut Criterion) {
    use goconform::board::Color;
    use goconform::game::Mark;
    let mut group = c.benchmark_group("perft/bounds");
    let start = Start::empty(4, 4);
    let mut game = start.game(&rules(KoRule::Situational)).unwrap();
    for (col, row) in [(1, 1), (2, 2), (1, 2), (2, 1)] {
        let color = game.to_move();
        let _ = game.apply(Event::Move(color, Move::Play(Point::new(col, row))));
    }
    group.bench_function("game-clone-4x4", |b| b.iter(|| black_box(game.clone())));
    let mut mark = Mark::default();
    group.bench_function("mark-4x4", |b| b.iter(|| game.mark(black_box(&mut mark))));
    let mut scratch = game.clone();
    scratch.mark(&mut mark);
    group.bench_function("play-and-rewind-4x4", |b| {
        b.iter(|| {
            let color = scratch.to_move();
            let judged = scratch.judge_play(color, Point::new(0, 0));
            let _ = judged.map(|j| j.play_in_place().captured.len());
            scratch.rewind(black_box(&mark));
        })
    });
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

criterion_group!(benches, reference, by_copy, naive, python, bounds);
criterion_main!(benches);
