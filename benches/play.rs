//! Speed of the reference executor, beside the `goban` crate as a peer and a tight playout
//! loop as a ceiling.
//!
//! Run with `cargo bench --bench play` (a few minutes; `-- --quick` is shorter, and a filter
//! such as `-- random_play_19x19` runs one group; the ratio table runs when no filter is
//! given or the filter names `ratios`).
//!
//! 0. `ratios`: a table of moves per second of ours, the ceiling and `goban`, with the ratios
//!    ours/goban and ours/ceiling, for 9x9 and 19x19 under simple ko and situational
//!    superko. The three take turns batch by batch and each keeps its fastest batch, so the
//!    ratios hold on a machine whose load changes during the run.
//! 1. `random_play_9x9` and `random_play_19x19`: random legal play from an empty board under
//!    each ko rule, suicide forbidden, pass stones on. Each turn a uniformly random candidate
//!    is drawn from the empty points with a fixed-seed PRNG; a candidate found illegal is
//!    dropped for that turn; with no candidate left the player passes. A game stops after two
//!    consecutive passes or at a cap of three times the board area (passes count as moves).
//!    Throughput is in moves: the games are the same on every iteration, so their length is
//!    counted once up front. Ours judges each candidate once (`Game::judge_play`, whose
//!    judgement is played without a second look) and reads the stones a play removed from the
//!    game (`JudgedPlay::play_in_place`) rather than from a verdict that copies them.
//! 2. `check_play_19x19`: `Game::check_play` on every empty point of one mid-game 19x19
//!    position, for each ko rule. Throughput is in checks, so the time of one check is the
//!    reciprocal of the rate criterion prints.
//! 3. The peer, next to ours in both random-play groups: the same random play through
//!    `goban` 0.20 with its own legality check (`Game::check_point`). Its `JAPANESE` preset
//!    forbids suicide and the immediate recapture of one stone (our `simple`); its `CHINESE`
//!    preset adds a positional superko check that `goban` makes only for plays that capture
//!    (it never consults the history for a non-capturing play), so it is weaker than our
//!    `positional`, which it resembles most.
//! 4. The ceiling (`Tight`), next to ours in both random-play groups under simple ko and
//!    situational superko: a minimal board written for speed here, which trusts 64-bit hashes
//!    where the reference compares whole positions. Before it is timed, 20 games per size and
//!    ko rule are played with it and the reference in step, every point judged by both before
//!    every move and the boards compared after it (`verify_ceiling`), so it is known to allow
//!    exactly the plays the reference allows on those games.
//! 5. The whole conformance suite through the reference, in trials per second, and its loading
//!    (`suite/load`: specification and scenario files, as `goconform check` loads them), in
//!    files per second.

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use goconform::board::{Color, Move, Point};
use goconform::game::{Event, Game, Setup};
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

/// What random play needs of an implementation: judge a play by the player to move without
/// making it (for the agreement checks), make a play if it is legal judging it once (keeping
/// the empty points up to date), pass.
trait Player {
    fn is_legal(&self, c: Coord) -> bool;
    fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool;
    fn pass(&mut self);
}

/// One random game from the position `player` holds; returns the number of moves made.
fn random_game(player: &mut impl Player, empties: &mut Empties, seed: u64, cap: usize) -> usize {
    let mut rng = SplitMix64(seed);
    let mut moves = 0;
    let mut passes = 0;
    while moves < cap && passes < 2 {
        let mut live = empties.len();
        let mut played = false;
        while live > 0 {
            let i = rng.below(live);
            let c = empties.get(i);
            if player.try_play(c, empties) {
                played = true;
                break;
            }
            live -= 1;
            empties.swap(i, live);
        }
        if played {
            passes = 0;
        } else {
            player.pass();
            passes += 1;
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

    /// One judgement: the play judged legal is made from that judgement.
    fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool {
        let color = self.0.to_move();
        let Ok(judged) = self.0.judge_play(color, Point::new(c.0, c.1)) else {
            return false;
        };
        let removed = judged.play_in_place();
        empties.remove(c);
        for p in removed.captured.iter().chain(removed.self_captured) {
            empties.insert((p.col, p.row));
        }
        true
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
    fn new(rule: goban::rules::Rule, side: u8) -> Peer {
        let size = match side {
            9 => goban::rules::GobanSizes::Nine,
            19 => goban::rules::GobanSizes::Nineteen,
            _ => goban::rules::GobanSizes::Custom(usize::from(side), usize::from(side)),
        };
        Peer(goban::rules::game::Game::new(size, rule))
    }
}

impl Player for Peer {
    fn is_legal(&self, c: Coord) -> bool {
        self.0.check_point(c).is_none()
    }

    fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool {
        if !self.is_legal(c) {
            return false;
        }
        let before = self.0.prisoners();
        self.0.play(goban::rules::Move::Play(c.0, c.1));
        empties.remove(c);
        if self.0.prisoners() != before {
            empties.rebuild(self.0.goban().get_empty_coords());
        }
        true
    }

    fn pass(&mut self) {
        self.0.play(goban::rules::Move::Pass);
    }
}

// ---------------------------------------------------------------------------------------------
// The ceiling: a minimal board written for speed and nothing else
// ---------------------------------------------------------------------------------------------

const T_EMPTY: u8 = 0;
const T_BORDER: u8 = 3;
/// Xored into the hash of a position with White to move, so that one table holds situations.
const WHITE_TO_MOVE: u64 = 0x7A3C_51E9_D2B4_8F61;

/// A tight playout board: a padded cell array, strings as circular lists under a head with a
/// pseudo-liberty count, a simple-ko point, and for situational superko an open-addressing
/// table of the 64-bit hashes of the situations seen, trusted without comparing positions (the
/// shortcut a playout engine takes and the reference does not). Suicide is always forbidden.
/// It exists to say how fast random play can go; `verify_ceiling` checks on whole games that
/// it allows exactly the plays the reference allows.
struct Tight {
    stride: usize,
    cells: Vec<u8>,
    head: Vec<u16>,
    next: Vec<u16>,
    libs: Vec<u16>,
    size: Vec<u16>,
    keys: Vec<[u64; 3]>,
    hash: u64,
    /// 1 Black, 2 White.
    to_move: u8,
    /// The point the player to move may not retake (simple ko), or 0.
    ko: usize,
    superko: bool,
    /// Situation hashes (0 marks a free slot; a zero hash is stored as 1).
    seen: Vec<u64>,
    mask: usize,
}

impl Tight {
    fn new(ko: KoRule, side: u8) -> Tight {
        let superko = match ko {
            KoRule::Simple => false,
            KoRule::Situational => true,
            other => panic!("the ceiling plays simple ko and situational superko, not {other}"),
        };
        let stride = usize::from(side) + 2;
        let len = stride * stride;
        let mut cells = vec![T_BORDER; len];
        for row in 1..=usize::from(side) {
            for col in 1..=usize::from(side) {
                cells[row * stride + col] = T_EMPTY;
            }
        }
        let mut rng = SplitMix64(0x7167_4700_0000_0001);
        let keys = (0..len)
            .map(|_| [0, rng.next_u64(), rng.next_u64()])
            .collect();
        // Every move of a game capped at three times the area, at most half full.
        let slots = (6 * usize::from(side) * usize::from(side) + 1).next_power_of_two();
        let mut tight = Tight {
            stride,
            cells,
            head: vec![0; len],
            next: vec![0; len],
            libs: vec![0; len],
            size: vec![0; len],
            keys,
            hash: 0,
            to_move: 1,
            ko: 0,
            superko,
            seen: vec![0; slots],
            mask: slots - 1,
        };
        if superko {
            tight.remember();
        }
        tight
    }

    fn index(&self, (col, row): Coord) -> usize {
        (usize::from(row) + 1) * self.stride + usize::from(col) + 1
    }

    fn situation(&self, hash: u64, to_move: u8) -> u64 {
        let h = if to_move == 2 {
            hash ^ WHITE_TO_MOVE
        } else {
            hash
        };
        h.max(1)
    }

    fn slot(&self, h: u64) -> usize {
        (h ^ (h >> 29)) as usize & self.mask
    }

    fn seen(&self, h: u64) -> bool {
        let mut i = self.slot(h);
        loop {
            match self.seen[i] {
                0 => return false,
                x if x == h => return true,
                _ => i = (i + 1) & self.mask,
            }
        }
    }

    fn remember(&mut self) {
        let h = self.situation(self.hash, self.to_move);
        let mut i = self.slot(h);
        while self.seen[i] != 0 && self.seen[i] != h {
            i = (i + 1) & self.mask;
        }
        self.seen[i] = h;
    }

    fn neighbours(&self, i: usize) -> [usize; 4] {
        [i - self.stride, i - 1, i + 1, i + self.stride]
    }

    /// How many of the points in `n` hold a stone of the string headed by `h`.
    fn touches(&self, n: &[usize; 4], h: u16) -> u16 {
        n.iter()
            .filter(|&&j| {
                self.cells[j] != T_EMPTY && self.cells[j] != T_BORDER && self.head[j] == h
            })
            .count() as u16
    }

    fn judge(&self, i: usize) -> bool {
        let me = self.to_move;
        let n = self.neighbours(i);
        if !self.superko {
            if i == self.ko {
                return false;
            }
            if n.iter().any(|&j| self.cells[j] == T_EMPTY) {
                return true;
            }
            return n.iter().any(|&j| {
                let c = self.cells[j];
                if c == T_BORDER {
                    return false;
                }
                let h = self.head[j];
                let t = self.touches(&n, h);
                if c == me {
                    self.libs[usize::from(h)] > t
                } else {
                    self.libs[usize::from(h)] == t
                }
            });
        }
        let mut hash = self.hash ^ self.keys[i][usize::from(me)];
        let mut alive = false;
        let mut captured = [u16::MAX; 4];
        for (k, &j) in n.iter().enumerate() {
            let c = self.cells[j];
            if c == T_EMPTY {
                alive = true;
            } else if c != T_BORDER {
                let h = self.head[j];
                let t = self.touches(&n, h);
                if c == me {
                    alive |= self.libs[usize::from(h)] > t;
                } else if self.libs[usize::from(h)] == t && !captured.contains(&h) {
                    captured[k] = h;
                    alive = true;
                    let start = usize::from(h);
                    let mut s = start;
                    loop {
                        hash ^= self.keys[s][usize::from(c)];
                        s = usize::from(self.next[s]);
                        if s == start {
                            break;
                        }
                    }
                }
            }
        }
        alive && !self.seen(self.situation(hash, 3 - me))
    }

    fn play(&mut self, i: usize, empties: &mut Empties) {
        let me = self.to_move;
        let opp = 3 - me;
        let stride = self.stride;
        self.cells[i] = me;
        self.head[i] = i as u16;
        self.next[i] = i as u16;
        self.size[i] = 1;
        self.hash ^= self.keys[i][usize::from(me)];
        let n = self.neighbours(i);
        let mut libs = 0;
        for &j in &n {
            match self.cells[j] {
                T_EMPTY => libs += 1,
                T_BORDER => {}
                _ => {
                    let h = usize::from(self.head[j]);
                    self.libs[h] -= 1;
                }
            }
        }
        self.libs[i] = libs;
        for &j in &n {
            if self.cells[j] == me && self.head[j] != self.head[i] {
                let (a, b) = (usize::from(self.head[i]), usize::from(self.head[j]));
                let (keep, gone) = if self.size[a] >= self.size[b] {
                    (a, b)
                } else {
                    (b, a)
                };
                let mut s = gone;
                loop {
                    self.head[s] = keep as u16;
                    s = usize::from(self.next[s]);
                    if s == gone {
                        break;
                    }
                }
                self.next.swap(keep, gone);
                self.libs[keep] += self.libs[gone];
                self.size[keep] += self.size[gone];
            }
        }
        let mut captured = 0;
        let mut last_captured = 0;
        for &j in &n {
            if self.cells[j] == opp && self.libs[usize::from(self.head[j])] == 0 {
                let start = usize::from(self.head[j]);
                let mut s = start;
                loop {
                    self.cells[s] = T_EMPTY;
                    self.hash ^= self.keys[s][usize::from(opp)];
                    empties.insert(((s % stride - 1) as u8, (s / stride - 1) as u8));
                    for k in self.neighbours(s) {
                        let c = self.cells[k];
                        if c != T_EMPTY && c != T_BORDER {
                            let h = usize::from(self.head[k]);
                            self.libs[h] += 1;
                        }
                    }
                    captured += 1;
                    last_captured = s;
                    s = usize::from(self.next[s]);
                    if s == start {
                        break;
                    }
                }
            }
        }
        let own = usize::from(self.head[i]);
        self.ko = if captured == 1 && self.size[own] == 1 && self.libs[own] == 1 {
            last_captured
        } else {
            0
        };
        self.to_move = opp;
        if self.superko {
            self.remember();
        }
    }
}

impl Player for Tight {
    fn is_legal(&self, c: Coord) -> bool {
        let i = self.index(c);
        self.cells[i] == T_EMPTY && self.judge(i)
    }

    fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool {
        let i = self.index(c);
        if !self.judge(i) {
            return false;
        }
        empties.remove(c);
        self.play(i, empties);
        true
    }

    fn pass(&mut self) {
        self.ko = 0;
        self.to_move = 3 - self.to_move;
        if self.superko {
            self.remember();
        }
    }
}

/// The reference and the ceiling in step: before each move, every empty point is judged by
/// both and must get the same answer; after it, both boards must hold the same stones.
struct Lockstep {
    reference: Reference,
    ceiling: Tight,
    /// The ceiling's own list of empty points (the reference keeps the one the game draws from).
    scratch: Empties,
    side: u8,
    judged_this_turn: bool,
}

impl Lockstep {
    fn agree_on_every_point(&mut self) {
        if self.judged_this_turn {
            return;
        }
        self.judged_this_turn = true;
        for row in 0..self.side {
            for col in 0..self.side {
                let c = (col, row);
                let ours = self.reference.is_legal(c);
                assert_eq!(
                    ours,
                    self.ceiling.is_legal(c),
                    "the ceiling and the reference disagree on {c:?} after {} positions",
                    self.reference.0.history_len()
                );
            }
        }
    }

    fn agree_on_the_board(&self) {
        for row in 0..self.side {
            for col in 0..self.side {
                let ours = match self.reference.0.board().get(Point::new(col, row)) {
                    None => T_EMPTY,
                    Some(Color::Black) => 1,
                    Some(Color::White) => 2,
                };
                assert_eq!(ours, self.ceiling.cells[self.ceiling.index((col, row))]);
            }
        }
    }
}

impl Player for Lockstep {
    fn is_legal(&self, c: Coord) -> bool {
        self.reference.is_legal(c)
    }

    fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool {
        self.agree_on_every_point();
        let ours = self.reference.try_play(c, empties);
        assert_eq!(ours, self.ceiling.try_play(c, &mut self.scratch));
        if ours {
            self.judged_this_turn = false;
            self.agree_on_the_board();
        }
        ours
    }

    fn pass(&mut self) {
        self.agree_on_every_point();
        self.reference.pass();
        self.ceiling.pass();
        self.judged_this_turn = false;
    }
}

/// Games checked in step with the reference for each size and ko rule before the ceiling is
/// timed.
const VERIFIED_GAMES: u64 = 20;

/// Plays `VERIFIED_GAMES` random games with the reference and the ceiling in step (see
/// [`Lockstep`]); panics at the first disagreement, so no ratio is printed against a ceiling
/// that plays another game.
fn verify_ceiling(side: u8, ko: KoRule) {
    let cap = 3 * usize::from(side) * usize::from(side);
    for k in 0..VERIFIED_GAMES {
        let mut lockstep = Lockstep {
            reference: Reference::new(ko, side),
            ceiling: Tight::new(ko, side),
            scratch: Empties::full(side, side),
            side,
            judged_this_turn: false,
        };
        let mut empties = Empties::full(side, side);
        random_game(&mut lockstep, &mut empties, SEED + 1000 + k, cap);
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

/// The ko rules the ceiling plays, each with the `goban` preset it is compared with.
fn compared() -> [(KoRule, &'static str, goban::rules::Rule); 2] {
    [
        (
            KoRule::Simple,
            "goban/japanese(simple-ko)",
            goban::rules::JAPANESE,
        ),
        (
            KoRule::Situational,
            "goban/chinese(psk-on-captures)",
            goban::rules::CHINESE,
        ),
    ]
}

fn random_play(c: &mut Criterion) {
    for side in [9u8, 19] {
        for (ko, _, _) in compared() {
            verify_ceiling(side, ko);
        }
        let mut group = c.benchmark_group(format!("random_play_{side}x{side}"));
        for &ko in KoRule::ALL {
            bench_batch(&mut group, &format!("goconform/{ko}"), side, || {
                Reference::new(ko, side)
            });
        }
        for (ko, peer, rule) in compared() {
            bench_batch(&mut group, &format!("ceiling/{ko}"), side, || {
                Tight::new(ko, side)
            });
            bench_batch(&mut group, peer, side, || Peer::new(rule, side));
        }
        group.finish();
    }
}

/// Rounds of the ratio table; each times one batch of every contender in turn.
const RATIO_ROUNDS: usize = 15;

/// The ratios every run prints: moves per second of the reference over the `goban` peer and
/// over the ceiling, for each size and ko rule the ceiling plays. The contenders take turns
/// batch by batch and each keeps its fastest batch, so load from other processes on the
/// machine (which comes and goes) weighs on all of them alike instead of on whoever ran
/// while it lasted, as separate criterion groups would let it.
fn ratios(_: &mut Criterion) {
    // Criterion's filter is not ours to read: take the words of the command line that are
    // neither flags nor numbers, and skip the table when some are given and none names it.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-') && a.parse::<f64>().is_err())
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "ratios".contains(f.as_str())) {
        return;
    }
    fn fastest<P: Player>(side: u8, new_player: &impl Fn() -> P, best: &mut f64) -> u64 {
        let start = std::time::Instant::now();
        let moves = black_box(batch(side, new_player));
        let rate = moves as f64 / start.elapsed().as_secs_f64();
        *best = best.max(rate);
        moves
    }
    println!("ratios (moves per second, the fastest of {RATIO_ROUNDS} interleaved batches each):");
    println!(
        "{:<8} {:<12} {:>10} {:>10} {:>10} {:>12} {:>14}",
        "board", "ko", "ours M/s", "ceiling", "goban", "ours/goban", "ours/ceiling"
    );
    for side in [9u8, 19] {
        for (ko, _, rule) in compared() {
            verify_ceiling(side, ko);
            let (mut ours, mut ceiling, mut peer) = (0f64, 0f64, 0f64);
            for _ in 0..RATIO_ROUNDS {
                fastest(side, &|| Reference::new(ko, side), &mut ours);
                fastest(side, &|| Tight::new(ko, side), &mut ceiling);
                fastest(side, &|| Peer::new(rule, side), &mut peer);
            }
            println!(
                "{:<8} {:<12} {:>10.2} {:>10.2} {:>10.3} {:>11.1}x {:>13.2}x",
                format!("{side}x{side}"),
                ko.to_string(),
                ours / 1e6,
                ceiling / 1e6,
                peer / 1e6,
                ours / peer,
                ours / ceiling
            );
        }
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
        fn try_play(&mut self, c: Coord, empties: &mut Empties) -> bool {
            let played = self.0.try_play(c, empties);
            if played {
                self.1.push(Some(c));
            }
            played
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
    // Loading as `goconform check` loads: the scenario files read and deserialized while the
    // specification loads, then checked against it. Throughput is in scenario files.
    let files = goconform::scenario::Suite::read(&[root.join("conformance")])
        .expect("the suite reads")
        .len();
    group.throughput(Throughput::Elements(files as u64));
    group.bench_function("load", |b| {
        b.iter(|| {
            let (spec, files) = rayon::join(
                || goconform::spec::Spec::load(root).expect("the spec loads"),
                || {
                    goconform::scenario::SuiteFiles::new(
                        goconform::scenario::Suite::read(&[root.join("conformance")])
                            .expect("the suite reads"),
                    )
                },
            );
            let suite = files.check(&spec).expect("the suite loads");
            black_box(suite.scenarios.len() + suite.tournament.len())
        })
    });
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
    targets = ratios, random_play, check_play, suite
}
criterion_main!(benches);
