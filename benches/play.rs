//! Speed of the reference executor, and of the `goban` crate as a peer.
//!
//! Run with `cargo bench --bench play` (about a minute; `-- --quick` is shorter still, and a
//! filter such as `-- random_play_19x19` runs one group).
//!
//! 1. `random_play_9x9` and `random_play_19x19`: random legal play from an empty board under
//!    each ko rule, suicide forbidden, pass stones on. Each turn a uniformly random candidate
//!    is drawn from the empty points with a fixed-seed PRNG; a candidate found illegal is
//!    dropped for that turn; with no candidate left the player passes. A game stops after two
//!    consecutive passes or at a cap of three times the board area (passes count as moves).
//!    Throughput is in moves: the games are the same on every iteration, so their length is
//!    counted once up front.
//! 2. `check_play_19x19`: `Game::check_play` on every empty point of one mid-game 19x19
//!    position, for each ko rule. Throughput is in checks, so the time of one check is the
//!    reciprocal of the rate criterion prints.
//! 3. The peer, in `random_play_19x19` next to ours: the same random play through
//!    `goban` 0.20 with its own legality check (`Game::check_point`). Its `JAPANESE` preset
//!    forbids suicide and the immediate recapture of one stone (our `simple`); its `CHINESE`
//!    preset adds a positional superko check that `goban` makes only for plays that capture
//!    (it never consults the history for a non-capturing play), so it is weaker than our
//!    `positional`, which it resembles most.
//! 4. The whole conformance suite through the reference, in trials per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use goconform::board::{Color, Move, Point};
use goconform::game::{Event, Game, Setup, Verdict};
use goconform::rules::{KoRule, PassStones, Rules, SuicideRule};

/// Seed of the first game; game `k` of a batch uses `SEED + k`.
const SEED: u64 = 0x0060_C0F0_5EED_0001;
/// Games played in one benchmark iteration, so that one unusual game does not decide a rate.
const GAMES_PER_ITERATION: u64 = 4;
/// Moves into the game the legality-check position is taken from.
const MIDGAME_MOVES: usize = 200;

/// splitmix64: small, fast, and fixed for all time, so the games never change.
struct SplitMix64(u64);

impl SplitMix64 {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform-enough integer in `0..n` (multiply-shift; the bias is below 2^-50 here).
    fn below(&mut self, n: usize) -> usize {
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

/// A point as (column, row) from the bottom-left, the form both crates can take.
type Coord = (u8, u8);

/// The empty points of a board in some order, with constant-time insertion and removal.
/// The order changes as candidates are dropped, but deterministically.
struct Empties {
    list: Vec<Coord>,
    slot: Vec<u16>,
    width: usize,
}

impl Empties {
    fn full(width: u8, height: u8) -> Empties {
        let mut empties = Empties {
            list: Vec::with_capacity(usize::from(width) * usize::from(height)),
            slot: vec![u16::MAX; usize::from(width) * usize::from(height)],
            width: usize::from(width),
        };
        for row in 0..height {
            for col in 0..width {
                empties.insert((col, row));
            }
        }
        empties
    }

    fn index(&self, (col, row): Coord) -> usize {
        usize::from(row) * self.width + usize::from(col)
    }

    fn len(&self) -> usize {
        self.list.len()
    }

    fn get(&self, i: usize) -> Coord {
        self.list[i]
    }

    fn insert(&mut self, c: Coord) {
        let index = self.index(c);
        debug_assert_eq!(self.slot[index], u16::MAX, "{c:?} is already empty");
        self.slot[index] = self.list.len() as u16;
        self.list.push(c);
    }

    fn remove(&mut self, c: Coord) {
        let index = self.index(c);
        let i = usize::from(self.slot[index]);
        self.slot[index] = u16::MAX;
        let last = self.list.pop().expect("removing from an empty list");
        if last != c {
            self.list[i] = last;
            let last_index = self.index(last);
            self.slot[last_index] = i as u16;
        }
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.list.swap(i, j);
        let (a, b) = (self.index(self.list[i]), self.index(self.list[j]));
        self.slot[a] = i as u16;
        self.slot[b] = j as u16;
    }

    fn rebuild(&mut self, points: impl Iterator<Item = Coord>) {
        for &c in &self.list {
            let index = self.index(c);
            self.slot[index] = u16::MAX;
        }
        self.list.clear();
        for c in points {
            self.insert(c);
        }
    }
}

/// What random play needs of an implementation: judge a play by the player to move, make a
/// legal play (keeping the empty points up to date), pass.
trait Player {
    fn is_legal(&self, c: Coord) -> bool;
    fn play(&mut self, c: Coord, empties: &mut Empties);
    fn pass(&mut self);
}

/// One random game from the position `player` holds; returns the number of moves made.
fn random_game(player: &mut impl Player, empties: &mut Empties, seed: u64, cap: usize) -> usize {
    let mut rng = SplitMix64(seed);
    let mut moves = 0;
    let mut passes = 0;
    while moves < cap && passes < 2 {
        let mut live = empties.len();
        let mut chosen = None;
        while live > 0 {
            let i = rng.below(live);
            let c = empties.get(i);
            if player.is_legal(c) {
                chosen = Some(c);
                break;
            }
            live -= 1;
            empties.swap(i, live);
        }
        match chosen {
            Some(c) => {
                player.play(c, empties);
                passes = 0;
            }
            None => {
                player.pass();
                passes += 1;
            }
        }
        moves += 1;
    }
    moves
}

fn rules(ko: KoRule) -> Rules {
    Rules {
        ko,
        suicide: SuicideRule::Forbidden,
        pass_stones: PassStones::On,
        ..Rules::default()
    }
}

/// The reference executor.
struct Reference(Game);

impl Reference {
    fn new(ko: KoRule, side: u8) -> Reference {
        Reference(Game::new(rules(ko), &Setup::empty(side, side)).expect("an empty board"))
    }
}

impl Player for Reference {
    fn is_legal(&self, (col, row): Coord) -> bool {
        self.0
            .check_play(self.0.to_move(), Point::new(col, row))
            .is_ok()
    }

    fn play(&mut self, c: Coord, empties: &mut Empties) {
        let color = self.0.to_move();
        match self
            .0
            .apply(Event::Move(color, Move::Play(Point::new(c.0, c.1))))
        {
            Verdict::Legal {
                captured,
                self_captured,
            } => {
                empties.remove(c);
                for p in captured.iter().chain(&self_captured) {
                    empties.insert((p.col, p.row));
                }
            }
            other => panic!("check_play passed {c:?} but apply says {other}"),
        }
    }

    fn pass(&mut self) {
        let color = self.0.to_move();
        assert!(self.0.apply(Event::Move(color, Move::Pass)).is_legal());
    }
}

/// The peer: `goban` 0.20. Its `play` reports no captured points, so after a capture the
/// empty points are read back from its board (a harness cost charged to the peer; captures
/// are a small fraction of the moves).
struct Peer(goban::rules::game::Game);

impl Peer {
    fn new(rule: goban::rules::Rule) -> Peer {
        Peer(goban::rules::game::Game::new(
            goban::rules::GobanSizes::Nineteen,
            rule,
        ))
    }
}

impl Player for Peer {
    fn is_legal(&self, c: Coord) -> bool {
        self.0.check_point(c).is_none()
    }

    fn play(&mut self, c: Coord, empties: &mut Empties) {
        let before = self.0.prisoners();
        self.0.play(goban::rules::Move::Play(c.0, c.1));
        empties.remove(c);
        if self.0.prisoners() != before {
            empties.rebuild(self.0.goban().get_empty_coords());
        }
    }

    fn pass(&mut self) {
        self.0.play(goban::rules::Move::Pass);
    }
}

/// One benchmark iteration: `GAMES_PER_ITERATION` games from an empty board, each with its
/// own seed. Returns the total number of moves.
fn batch<P: Player>(side: u8, new_player: &impl Fn() -> P) -> u64 {
    let cap = 3 * usize::from(side) * usize::from(side);
    (0..GAMES_PER_ITERATION)
        .map(|k| {
            let mut player = new_player();
            let mut empties = Empties::full(side, side);
            random_game(&mut player, &mut empties, SEED + k, cap) as u64
        })
        .sum()
}

fn bench_batch<P: Player>(
    c: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    side: u8,
    new_player: impl Fn() -> P,
) {
    let moves = batch(side, &new_player);
    c.throughput(Throughput::Elements(moves));
    c.bench_function(BenchmarkId::new(id, format!("{moves}-moves")), |b| {
        b.iter(|| black_box(batch(side, &new_player)))
    });
}

fn random_play(c: &mut Criterion) {
    for side in [9u8, 19] {
        let mut group = c.benchmark_group(format!("random_play_{side}x{side}"));
        for &ko in KoRule::ALL {
            bench_batch(&mut group, &format!("goconform/{ko}"), side, || {
                Reference::new(ko, side)
            });
        }
        if side == 19 {
            bench_batch(&mut group, "goban/japanese(simple-ko)", side, || {
                Peer::new(goban::rules::JAPANESE)
            });
            bench_batch(&mut group, "goban/chinese(psk-on-captures)", side, || {
                Peer::new(goban::rules::CHINESE)
            });
        }
        group.finish();
    }
}

/// The moves of a random positional-superko game: legal under every ko rule here, since each
/// of them forbids only repetitions that positional superko forbids too.
fn midgame_moves(side: u8, count: usize) -> Vec<Option<Coord>> {
    struct Recorder(Reference, Vec<Option<Coord>>);
    impl Player for Recorder {
        fn is_legal(&self, c: Coord) -> bool {
            self.0.is_legal(c)
        }
        fn play(&mut self, c: Coord, empties: &mut Empties) {
            self.1.push(Some(c));
            self.0.play(c, empties);
        }
        fn pass(&mut self) {
            self.1.push(None);
            self.0.pass();
        }
    }
    let mut recorder = Recorder(Reference::new(KoRule::Positional, side), Vec::new());
    let mut empties = Empties::full(side, side);
    random_game(&mut recorder, &mut empties, SEED, count);
    assert_eq!(
        recorder.1.len(),
        count,
        "the game ended before move {count}"
    );
    recorder.1
}

fn check_play(c: &mut Criterion) {
    let side = 19;
    let moves = midgame_moves(side, MIDGAME_MOVES);
    let mut group = c.benchmark_group(format!("check_play_{side}x{side}"));
    for &ko in KoRule::ALL {
        let mut game = Game::new(rules(ko), &Setup::empty(side, side)).expect("an empty board");
        for (n, m) in moves.iter().enumerate() {
            let color = game.to_move();
            let mv = match *m {
                Some((col, row)) => Move::Play(Point::new(col, row)),
                None => Move::Pass,
            };
            let verdict = game.apply(Event::Move(color, mv));
            assert!(
                verdict.is_legal(),
                "move {n} ({mv}) under ko={ko}: {verdict}"
            );
        }
        let color: Color = game.to_move();
        let points: Vec<Point> = game
            .board()
            .points()
            .filter(|&p| game.board().get(p).is_none())
            .collect();
        group.throughput(Throughput::Elements(points.len() as u64));
        let id = BenchmarkId::new(
            format!("goconform/{ko}"),
            format!("{}-empty-points-after-{MIDGAME_MOVES}-moves", points.len()),
        );
        group.bench_function(id, |b| {
            b.iter(|| {
                points
                    .iter()
                    .filter(|&&p| black_box(&game).check_play(color, p).is_ok())
                    .count()
            })
        });
    }
    group.finish();
}

// ---------------------------------------------------------------------------------------------
// 4. The whole conformance suite through the reference
// ---------------------------------------------------------------------------------------------

/// Every scenario under every one of its runs, through the `Referee` trait exactly as
/// `goconform check` runs them. Loading (TOML parsing) happens once, outside the timed loop;
/// throughput is in trials (one scenario under one run).
fn suite(c: &mut Criterion) {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = goconform::spec::Spec::load(root).expect("the spec loads");
    let suite = goconform::scenario::Suite::load(&[root.join("conformance")], &spec)
        .expect("the suite loads");
    let trials: usize = suite.scenarios.iter().map(|s| s.runs.len()).sum();
    let mut group = c.benchmark_group("suite");
    group.throughput(Throughput::Elements(trials as u64));
    group.bench_function("reference", |b| {
        let mut reference = goconform::conformance::Reference::new();
        b.iter(|| {
            let mut passed = 0;
            for (i, s) in suite.scenarios.iter().enumerate() {
                for trial in goconform::conformance::run_scenario(s, i, &mut reference, &|_| true) {
                    passed += usize::from(trial.outcome == goconform::conformance::Outcome::Pass);
                }
            }
            assert_eq!(passed, trials, "every trial passes under the reference");
            black_box(passed)
        })
    });
    // The harness as `goconform check` uses it: engine per worker, expectations, ordering.
    // One worker against two measures what the pool costs and gains on the same trials.
    let selection = goconform::conformance::harness::select(&suite, |_, _| true);
    let factory: &goconform::conformance::harness::Factory = &|| {
        Box::new(goconform::conformance::Reference::new())
            as Box<dyn goconform::conformance::Referee>
    };
    for jobs in [1, 2] {
        group.bench_function(BenchmarkId::new("harness_jobs", jobs), |b| {
            let harness = goconform::conformance::Harness {
                jobs,
                ..Default::default()
            };
            b.iter(|| {
                let report = harness
                    .run(&suite, &selection, factory)
                    .expect("the run starts");
                assert_eq!(report.tally().pass, trials, "every trial passes");
                black_box(report.trials.len())
            })
        });
    }
    group.finish();
}

fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .sample_size(10)
}

criterion_group! {
    name = benches;
    config = config();
    targets = random_play, check_play, suite
}
criterion_main!(benches);
