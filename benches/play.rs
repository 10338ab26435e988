//! Speed of the reference executor in random play, beside a tight playout loop as a ceiling,
//! the `goban` crate and OpenSpiel's C++ go board as peers.
//!
//! Run with `cargo bench --bench play` (a few minutes; `-- --quick` is shorter, and a filter
//! such as `-- random_play_19x19` runs one group; the tables run when no filter is given or
//! the filter names `ratios`). `GOCONFORM_PLAY_SECONDS` sets the seconds each contender is
//! timed for under each method of the tables (default 0.5).
//!
//! # The yardstick
//!
//! Every contender plays a *stream* of fresh games: game `n` of a stream is seeded `SEED + n`,
//! a batch is a fixed number of moves (`MOVES_PER_BATCH`, passes counted) taken from wherever
//! the stream stands, and the next batch goes on from there, so no batch replays games an
//! earlier one played and throughput is counted from the moves actually made. A new game
//! starts in the storage of the last one (every contender can), so its start is timed too.
//!
//! The tables time every contender under four methods in the same run, and print each:
//! - `fresh/alone`: each contender by itself, batch after batch, for the set seconds;
//! - `fresh/interleaved`: the contenders take turns batch by batch for as long;
//! - `fixed/alone` and `fixed/interleaved`: the old method, where every batch replays the
//!   same four games (seeds `SEED .. SEED + 4`), kept to show what it flattered.
//!
//! Each method keeps every contender's fastest batch. The ceiling is the best the tight loop
//! does under any fresh method; ours is compared with it under each method and under the
//! strictest reading (ours under its worst fresh method against that best ceiling).
//!
//! # Why the two methods of the old bench disagreed
//!
//! Measured on the 2-core AMD EPYC development machine (the tables of one run, 0.3 s a
//! contender and method): under `fixed/alone`, the method of criterion's old groups, the
//! ceiling played 9x9 simple ko at 27.0 M moves/s against 12.4 M under `fresh/alone`, 2.2x
//! more for the same code on the same kind of games; ours gained 1.4x (18.7 against 13.0), so
//! ours/ceiling read 0.69x there and 1.06x under every other method. On 19x19 the four fixed
//! games gain little (ceiling 13.1 against 12.4 M), and under `fixed/interleaved`, the
//! method of the old ratio table, nothing (11.4 M). So the effect that made the methods
//! disagree is the replay of the same four games back to back: the data touched is the same
//! as in fresh games of that size (the same arrays, the same boards), and so are the
//! instructions a move executes: under `valgrind --tool=cachegrind --branch-sim=yes` (one
//! contender under one method, `GOCONFORM_PLAY_ONLY=ceiling,9,simple,fixed,300000` and the
//! like), 9x9 simple ko, the ceiling executes 794 instructions a move on the fixed games and
//! 809 on fresh ones, ours 888 and 890, with 0.04 first-level data-cache misses a move either
//! way (everything fits). So what the repetition buys is learned control flow: four short 9x9 games (about 500 moves) are a sequence the
//! processor's branch predictors learn, four 19x19 games (about 1,700) are not, and any other
//! code run between two batches (interleaving) overwrites what was learned. The ceiling,
//! whose judgement is a few data-dependent branches with little else, gains the most from
//! branches it stops missing: cachegrind's simple predictor (which learns no long history, so
//! fixed and fresh games look alike to it: 11.5 and 11.8) counts 11.8 mispredicted branches
//! a move for the ceiling against 5.9 for ours, whose judgement is branch-free where the
//! neighbours' contents are a coin toss. Hardware counters could not confirm this directly: `perf stat`
//! reports branch and cache events as not supported in this virtual machine, and the
//! accelerator machine the project may borrow (gVisor) exposes none; what is shown is the
//! controlled comparison, in every run: same code, same data, only the repetition differs.
//!
//! # The contenders
//!
//! 1. Ours (`goconform/<ko>`): `Game::judge_play` judges each candidate once and the judged
//!    play is made without a second look (`JudgedPlay::play_in_place`, which lends the removed
//!    stones and allocates nothing a move); a new game is `Game::new_reusing` the last one's
//!    storage. Every check of the rules is kept: the full repetition history with whole
//!    positions compared behind every hash match. Under simple ko a point with an empty
//!    neighbour is judged by one load of the board's neighbour counts, as OpenSpiel judges
//!    it; under superko such a play also needs no recorded position with one stone more of
//!    the mover's and at most as many of the opponent's (one more load, the counts any such
//!    play leaves whatever it captures), or else no opposing neighbour and no recorded
//!    position with exactly the counts it leaves; every other point gets the full judgement.
//! 2. The ceiling (`ceiling/<ko>`): a minimal board written here for speed alone, which trusts
//!    64-bit hashes where the reference compares whole positions. Before it is timed, 20 games
//!    per size and ko rule are played with it and the reference in step, every point judged by
//!    both before every move and the boards compared after it (`verify_ceiling`).
//! 3. `goban` 0.20 (`goban/...`), with its own legality check (`Game::check_point`), on the
//!    global allocator of this bench: mimalloc (with the default `mimalloc` feature), the one
//!    the binary ships and the one that suits `goban` best as measured both ways (built with
//!    `--no-default-features --features cli,goban,libtest` the bench runs on glibc's malloc:
//!    in one run each on the development machine, ours/goban 5.6-5.8x on 9x9 and 13.1-14.4x
//!    on 19x19 on mimalloc, 5.9-6.1x and 13.1-15.1x on glibc's, so `goban` is as fast or a
//!    little faster on mimalloc, within the noise of two runs); a playout of ours allocates
//!    nothing, so the choice moves only `goban`. Its `JAPANESE` preset is our `simple`; its
//!    `CHINESE` preset checks positional superko only for plays that capture.
//! 4. OpenSpiel's go board (`openspiel/simple`): its `go_board.cc` compiled unchanged with
//!    `-O3` from OpenSpiel's source distribution by `benches/peers/openspiel/build.sh`, with
//!    the same stream loop in C++ (`shim.cc`), loaded at run time from
//!    `target/peers/libopenspiel_go.so` or where `GOCONFORM_OPENSPIEL` names; skipped with a
//!    printed reason when absent. The library hides every symbol but the shim's entry points,
//!    so the board's calls inline and bind locally as in a program linked whole; a library
//!    built by the earlier recipe (every symbol exported, each of the board's small calls
//!    through the procedure linkage table, 0.58-0.83x of its rate) is refused with a reason
//!    (`osg_build`). It knows simple ko only (no superko). Before it is timed, its games are
//!    checked to be ours under simple ko, move count for move count, on 20 seeds per size
//!    and workload.
//!
//! Two workloads, the same games on every side: `random` (each turn a uniformly random
//! empty point is tried, an illegal one dropped for the turn, a pass when none is left) and
//! `uniform` (each turn the list of legal plays is made, row by row, and one drawn uniformly;
//! a pass when the list is empty). For the list, the peers and the ceiling judge each empty
//! point, visited in row order from a bit set the harness keeps (so none pays for occupied
//! points or a branch on them); ours asks `Game::each_legal_play`, the library's own way of
//! listing a turn's legal plays (GTP's `all_legal` and perft's leaves use it), which sorts most
//! points a word of the board at a time and gives the verdicts `check_play` gives, every rule
//! kept. Ours makes the drawn play from the turn's judgement (`Game::turn`, `Turn::play`), as
//! OpenSpiel's shim makes it without judging it again; `goban` and the ceiling judge it once
//! more. A game stops
//! after two consecutive passes or at three times the board area in moves. Suicide forbidden,
//! pass stones on.
//!
//! Also here: `check_play_19x19` (`Game::check_play` on every empty point of one mid-game
//! position, for each ko rule) and `suite` (the whole conformance suite through the reference,
//! and its loading).

use std::hint::black_box;
use std::time::{Duration, Instant};

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use goconform::board::{Color, Move, Point};

/// The bench's global allocator: mimalloc, the one the binary ships (src/main.rs) and the one
/// that suits the `goban` peer best, which allocates on every play (measured both ways: see
/// the opening comment). Ours allocates nothing a move and OpenSpiel's C++ board allocates
/// through its own runtime, so the choice moves only `goban`.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
use goconform::game::{Event, Game, Setup};
use goconform::rules::{KoRule, PassStones, Rules, SuicideRule};

/// Seed of the first game of every stream; game `n` uses `SEED + n`.
const SEED: u64 = 0x0060_C0F0_5EED_0001;
/// Games one batch of the old, fixed method replays.
const GAMES_PER_FIXED_BATCH: u64 = 4;
/// Moves in one batch of fresh play (and one criterion iteration).
const MOVES_PER_BATCH: u64 = 20_000;
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
/// The order changes as candidates are dropped, but deterministically. The same points again
/// as bits in row order, for the uniform workload, which lists legal plays row by row.
struct Empties {
    list: Vec<Coord>,
    slot: Vec<u16>,
    width: usize,
    bits: Vec<u64>,
}

impl Empties {
    fn full(width: u8, height: u8) -> Empties {
        let mut empties = Empties {
            list: Vec::with_capacity(usize::from(width) * usize::from(height)),
            slot: vec![u16::MAX; usize::from(width) * usize::from(height)],
            width: usize::from(width),
            bits: vec![0; (usize::from(width) * usize::from(height)).div_ceil(64)],
        };
        empties.fill(width, height);
        empties
    }

    /// Every point of the board, row by row, as at the start of a game.
    fn fill(&mut self, width: u8, height: u8) {
        for &c in &self.list {
            let index = self.index(c);
            self.slot[index] = u16::MAX;
        }
        self.list.clear();
        self.bits.fill(0);
        for row in 0..height {
            for col in 0..width {
                self.insert((col, row));
            }
        }
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

    /// Calls `visit` with every empty point in row order (row 0 first, each row's columns in
    /// turn): a walk over set bits, with no branch on whether a point is empty.
    fn each_in_row_order(&self, mut visit: impl FnMut(Coord)) {
        for (w, &word) in self.bits.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let index = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                visit(((index % self.width) as u8, (index / self.width) as u8));
            }
        }
    }

    fn insert(&mut self, c: Coord) {
        let index = self.index(c);
        self.bits[index / 64] |= 1 << (index % 64);
        debug_assert_eq!(self.slot[index], u16::MAX, "{c:?} is already empty");
        self.slot[index] = self.list.len() as u16;
        self.list.push(c);
    }

    fn remove(&mut self, c: Coord) {
        let index = self.index(c);
        self.bits[index / 64] &= !(1 << (index % 64));
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
}

/// What random play needs of an implementation: judge a play by the player to move without
/// making it, make a play if it is legal judging it once (reporting the points its captures
/// emptied), pass, and start a new game on an empty board.
trait Player {
    fn is_legal(&self, c: Coord) -> bool;
    /// Every legal play of the player to move, row by row (row 0 first, each row's columns in
    /// turn), `empties` being the board's empty points: by default each empty point judged by
    /// `is_legal`, visited in row order from the harness's bits (OpenSpiel's shim does the
    /// same), so no contender pays for occupied points.
    fn legal_plays(&self, empties: &Empties, legal: &mut Vec<Coord>) {
        empties.each_in_row_order(|c| {
            if self.is_legal(c) {
                legal.push(c);
            }
        });
    }
    fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool;
    /// A move of the uniform workload: the legal plays listed into `legal` (as
    /// [`Player::legal_plays`] lists them), the one at the index `draw` picks from their
    /// number made (reporting the points its captures emptied), and its point returned; `None`
    /// if no play is legal. By default the drawn play is made by [`Player::try_play`], which
    /// judges it once more (as the peers' boards need).
    fn play_drawn(
        &mut self,
        empties: &Empties,
        legal: &mut Vec<Coord>,
        draw: impl FnOnce(usize) -> usize,
        captured: &mut Vec<Coord>,
    ) -> Option<Coord> {
        self.legal_plays(empties, legal);
        if legal.is_empty() {
            return None;
        }
        let c = legal[draw(legal.len())];
        assert!(self.try_play(c, captured), "{c:?} was judged legal");
        Some(c)
    }
    fn pass(&mut self);
    fn restart(&mut self);
}

/// How a move is chosen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// A random empty point is tried; an illegal one is dropped for the turn.
    Random,
    /// Every empty point is judged and a legal one drawn uniformly.
    Uniform,
}

/// A contender's stream of fresh games (see the opening comment).
struct Stream<P> {
    player: P,
    empties: Empties,
    rng: SplitMix64,
    policy: Policy,
    side: u8,
    cap: u64,
    next_seed: u64,
    moves: u64,
    passes: u8,
    captured: Vec<Coord>,
    legal: Vec<Coord>,
}

impl<P: Player> Stream<P> {
    fn new(player: P, side: u8, policy: Policy) -> Stream<P> {
        let mut stream = Stream {
            player,
            empties: Empties::full(side, side),
            rng: SplitMix64(0),
            policy,
            side,
            cap: 3 * u64::from(side) * u64::from(side),
            next_seed: SEED,
            moves: 0,
            passes: 0,
            captured: Vec::new(),
            legal: Vec::new(),
        };
        stream.start();
        stream
    }

    fn start(&mut self) {
        self.player.restart();
        self.empties.fill(self.side, self.side);
        self.rng = SplitMix64(self.next_seed);
        self.next_seed += 1;
        self.moves = 0;
        self.passes = 0;
    }

    /// The play at `c` if it is legal, with the list of empty points kept up to date.
    fn try_play(&mut self, c: Coord) -> bool {
        self.captured.clear();
        if !self.player.try_play(c, &mut self.captured) {
            return false;
        }
        self.played(c);
        true
    }

    /// The list of empty points brought up to date after a play at `c` that emptied
    /// `self.captured` (which go back in row-major order, as every contender puts them).
    fn played(&mut self, c: Coord) {
        self.empties.remove(c);
        if self.captured.len() > 1 {
            // Sorted by one integer a point, as OpenSpiel's shim sorts its point numbers: a
            // tuple as the key cost this side of the harness 25-35 more instructions and a
            // quarter of a mispredicted branch more a move (cachegrind, random play).
            self.captured
                .sort_unstable_by_key(|&(col, row)| u16::from(row) << 8 | u16::from(col));
        }
        for &p in &self.captured {
            self.empties.insert(p);
        }
    }

    /// One move; true when it ended the game (and the next one has started).
    fn step(&mut self) -> bool {
        let played = match self.policy {
            Policy::Random => {
                let mut live = self.empties.len();
                let mut played = false;
                while live > 0 {
                    let i = self.rng.below(live);
                    if self.try_play(self.empties.get(i)) {
                        played = true;
                        break;
                    }
                    live -= 1;
                    self.empties.swap(i, live);
                }
                played
            }
            Policy::Uniform => {
                self.legal.clear();
                self.captured.clear();
                let rng = &mut self.rng;
                let drawn = self.player.play_drawn(
                    &self.empties,
                    &mut self.legal,
                    |n| rng.below(n),
                    &mut self.captured,
                );
                match drawn {
                    Some(c) => {
                        self.played(c);
                        true
                    }
                    None => false,
                }
            }
        };
        if played {
            self.passes = 0;
        } else {
            self.player.pass();
            self.passes += 1;
        }
        self.moves += 1;
        if self.moves >= self.cap || self.passes >= 2 {
            self.start();
            return true;
        }
        false
    }

    /// The whole game of `seed`; returns its moves. The stream goes on with `seed + 1`.
    fn whole_game(&mut self, seed: u64) -> u64 {
        self.next_seed = seed;
        self.start();
        let mut moves = 1;
        while !self.step() {
            moves += 1;
        }
        moves
    }
}

/// What the tables time: a number of moves of fresh games, or the fixed games of the old
/// method.
trait Contender {
    fn run(&mut self, moves: u64);
    fn fixed_batch(&mut self) -> u64;
}

impl<P: Player> Contender for Stream<P> {
    fn run(&mut self, moves: u64) {
        for _ in 0..moves {
            self.step();
        }
    }

    fn fixed_batch(&mut self) -> u64 {
        (0..GAMES_PER_FIXED_BATCH)
            .map(|k| self.whole_game(SEED + k))
            .sum()
    }
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
struct Reference {
    game: Option<Game>,
    rules: Rules,
    setup: Setup,
}

impl Reference {
    fn new(ko: KoRule, side: u8) -> Reference {
        let setup = Setup::empty(side, side);
        Reference {
            game: Some(Game::new(rules(ko), &setup).expect("an empty board")),
            rules: rules(ko),
            setup,
        }
    }

    fn game(&self) -> &Game {
        self.game.as_ref().expect("a game")
    }
}

impl Player for Reference {
    fn is_legal(&self, (col, row): Coord) -> bool {
        let game = self.game();
        game.check_play(game.to_move(), Point::new(col, row))
            .is_ok()
    }

    /// The whole turn judged in one pass (`Game::each_legal_play`): the same verdicts as
    /// `check_play` at every point.
    fn legal_plays(&self, _: &Empties, legal: &mut Vec<Coord>) {
        let game = self.game();
        game.each_legal_play(game.to_move(), |p| legal.push((p.col, p.row)));
    }

    /// The turn judged once (`Game::turn`), and the drawn play made from that judgement
    /// (`Turn::play`), as OpenSpiel's shim makes it without judging it again.
    fn play_drawn(
        &mut self,
        _: &Empties,
        legal: &mut Vec<Coord>,
        draw: impl FnOnce(usize) -> usize,
        captured: &mut Vec<Coord>,
    ) -> Option<Coord> {
        let turn = self.game.as_mut().expect("a game").turn();
        turn.for_each(|p| legal.push((p.col, p.row)));
        if legal.is_empty() {
            return None;
        }
        let c = legal[draw(legal.len())];
        let removed = turn
            .play(Point::new(c.0, c.1))
            .unwrap_or_else(|reason| panic!("{c:?} was listed as legal: {reason}"));
        report_removed(removed, captured);
        Some(c)
    }

    /// One judgement: the play judged legal is made from that judgement.
    fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool {
        let game = self.game.as_mut().expect("a game");
        let color = game.to_move();
        let Ok(judged) = game.judge_play(color, Point::new(c.0, c.1)) else {
            return false;
        };
        let removed = judged.play_in_place();
        report_removed(removed, captured);
        true
    }

    fn pass(&mut self) {
        let game = self.game.as_mut().expect("a game");
        let color = game.to_move();
        assert!(game.apply(Event::Move(color, Move::Pass)).is_legal());
    }

    fn restart(&mut self) {
        let spare = self.game.take().expect("a game");
        self.game =
            Some(Game::new_reusing(self.rules, &self.setup, spare).expect("an empty board"));
    }
}

/// The points a play of the reference emptied, in the form the harness keeps.
fn report_removed(removed: goconform::game::Removed<'_>, captured: &mut Vec<Coord>) {
    for p in removed.captured.iter().chain(removed.self_captured) {
        captured.push((p.col, p.row));
    }
}

/// The peer: `goban` 0.20. Its `play` reports no captured points, so after a capture its
/// empty points are read back from its board and compared with a grid of the points it
/// holds stones on (a harness cost charged to the peer; captures are a small fraction of the
/// moves).
struct Peer {
    game: goban::rules::game::Game,
    rule: goban::rules::Rule,
    side: u8,
    stone: Vec<bool>,
}

impl Peer {
    fn new(rule: goban::rules::Rule, side: u8) -> Peer {
        Peer {
            game: Peer::fresh(rule, side),
            rule,
            side,
            stone: vec![false; usize::from(side) * usize::from(side)],
        }
    }

    fn fresh(rule: goban::rules::Rule, side: u8) -> goban::rules::game::Game {
        let size = match side {
            9 => goban::rules::GobanSizes::Nine,
            19 => goban::rules::GobanSizes::Nineteen,
            _ => goban::rules::GobanSizes::Custom(usize::from(side), usize::from(side)),
        };
        goban::rules::game::Game::new(size, rule)
    }
}

impl Player for Peer {
    fn is_legal(&self, c: Coord) -> bool {
        self.game.check_point(c).is_none()
    }

    fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool {
        if !self.is_legal(c) {
            return false;
        }
        let before = self.game.prisoners();
        self.game.play(goban::rules::Move::Play(c.0, c.1));
        let side = usize::from(self.side);
        self.stone[usize::from(c.1) * side + usize::from(c.0)] = true;
        if self.game.prisoners() != before {
            for (col, row) in self.game.goban().get_empty_coords() {
                let i = usize::from(row) * side + usize::from(col);
                if self.stone[i] {
                    self.stone[i] = false;
                    captured.push((col, row));
                }
            }
        }
        true
    }

    fn pass(&mut self) {
        self.game.play(goban::rules::Move::Pass);
    }

    fn restart(&mut self) {
        self.game = Peer::fresh(self.rule, self.side);
        self.stone.fill(false);
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

    fn play(&mut self, i: usize, captured_points: &mut Vec<Coord>) {
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
                    captured_points.push(((s % stride - 1) as u8, (s / stride - 1) as u8));
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

    fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool {
        let i = self.index(c);
        if !self.judge(i) {
            return false;
        }
        self.play(i, captured);
        true
    }

    fn pass(&mut self) {
        self.ko = 0;
        self.to_move = 3 - self.to_move;
        if self.superko {
            self.remember();
        }
    }

    fn restart(&mut self) {
        for cell in &mut self.cells {
            if *cell != T_BORDER {
                *cell = T_EMPTY;
            }
        }
        self.hash = 0;
        self.to_move = 1;
        self.ko = 0;
        if self.superko {
            self.seen.fill(0);
            self.remember();
        }
    }
}

/// The reference and the ceiling in step: before each move, every empty point is judged by
/// both and must get the same answer; after it, both boards must hold the same stones and
/// report the same captures.
struct Lockstep {
    reference: Reference,
    ceiling: Tight,
    side: u8,
    judged_this_turn: bool,
    scratch: Vec<Coord>,
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
                    self.reference.game().history_len()
                );
            }
        }
    }

    fn agree_on_the_board(&self) {
        for row in 0..self.side {
            for col in 0..self.side {
                let ours = match self.reference.game().board().get(Point::new(col, row)) {
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

    /// Ours in one pass, checked against the ceiling's list (its point-by-point default).
    fn legal_plays(&self, empties: &Empties, legal: &mut Vec<Coord>) {
        self.reference.legal_plays(empties, legal);
        let mut theirs = Vec::new();
        self.ceiling.legal_plays(empties, &mut theirs);
        assert_eq!(
            *legal, theirs,
            "the legal plays of the reference and the ceiling"
        );
    }

    fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool {
        self.agree_on_every_point();
        let ours = self.reference.try_play(c, captured);
        self.scratch.clear();
        assert_eq!(ours, self.ceiling.try_play(c, &mut self.scratch));
        if ours {
            self.judged_this_turn = false;
            self.agree_on_the_board();
            let mut theirs = self.scratch.clone();
            let mut mine = captured.clone();
            theirs.sort_unstable();
            mine.sort_unstable();
            assert_eq!(mine, theirs, "the captures of {c:?}");
        }
        ours
    }

    fn pass(&mut self) {
        self.agree_on_every_point();
        self.reference.pass();
        self.ceiling.pass();
        self.judged_this_turn = false;
    }

    fn restart(&mut self) {
        self.reference.restart();
        self.ceiling.restart();
        self.judged_this_turn = false;
    }
}

/// Games checked in step with the reference (and against OpenSpiel's) for each size, ko rule
/// and workload before anything is timed.
const VERIFIED_GAMES: u64 = 20;

/// Plays `VERIFIED_GAMES` random games with the reference and the ceiling in step (see
/// [`Lockstep`]); panics at the first disagreement, so no ratio is printed against a ceiling
/// that plays another game. The games are those the first timed batches play (the same
/// seeds), after a restart as the timed streams make them.
fn verify_ceiling(side: u8, ko: KoRule, policy: Policy) {
    let lockstep = Lockstep {
        reference: Reference::new(ko, side),
        ceiling: Tight::new(ko, side),
        side,
        judged_this_turn: false,
        scratch: Vec::new(),
    };
    let mut stream = Stream::new(lockstep, side, policy);
    for k in 0..VERIFIED_GAMES {
        stream.whole_game(SEED + k);
    }
}

// ---------------------------------------------------------------------------------------------
// OpenSpiel's go board, loaded at run time (see benches/peers/openspiel)
// ---------------------------------------------------------------------------------------------

mod openspiel {
    use std::ffi::{c_int, c_void, CString};

    type New = unsafe extern "C" fn(c_int, c_int, u64) -> *mut c_void;
    type Free = unsafe extern "C" fn(*mut c_void);
    type Run = unsafe extern "C" fn(*mut c_void, u64);
    type WholeGame = unsafe extern "C" fn(*mut c_void, u64) -> u64;
    type Build = unsafe extern "C" fn() -> c_int;

    /// The oldest recipe of build.sh whose library is timed (`osg_build` in the shim): before
    /// 2 the library exported every symbol, so OpenSpiel's own calls were not inlined.
    const BUILD: c_int = 2;

    /// The shim's entry points (benches/peers/openspiel/shim.cc).
    pub struct Lib {
        new: New,
        free: Free,
        run: Run,
        game: WholeGame,
    }

    /// Where the library is looked for.
    pub fn path() -> std::path::PathBuf {
        match std::env::var_os("GOCONFORM_OPENSPIEL") {
            Some(p) => p.into(),
            None => std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("target/peers/libopenspiel_go.so"),
        }
    }

    /// The library, or why there is none.
    pub fn load() -> Result<&'static Lib, String> {
        let path = path();
        if !path.exists() {
            return Err(format!(
                "{} is absent (build it with benches/peers/openspiel/build.sh)",
                path.display()
            ));
        }
        let name = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
        // SAFETY: dlopen and dlsym with NUL-terminated names; the symbols are the shim's
        // `extern "C"` functions, whose signatures the types above restate.
        unsafe {
            let handle = libc::dlopen(name.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
            if handle.is_null() {
                return Err(format!("{} could not be loaded", path.display()));
            }
            let sym = |s: &str| {
                let s = CString::new(s).expect("a symbol name");
                let p = libc::dlsym(handle, s.as_ptr());
                if p.is_null() {
                    Err(format!("{} has no {s:?}", path.display()))
                } else {
                    Ok(p)
                }
            };
            let stale = || {
                format!(
                    "{} was built by an older benches/peers/openspiel/build.sh, which left \
                     OpenSpiel's calls interposable and held it back; build it again",
                    path.display()
                )
            };
            let build =
                std::mem::transmute::<*mut c_void, Build>(sym("osg_build").map_err(|_| stale())?);
            if build() < BUILD {
                return Err(stale());
            }
            let lib = Lib {
                new: std::mem::transmute::<*mut c_void, New>(sym("osg_new")?),
                free: std::mem::transmute::<*mut c_void, Free>(sym("osg_free")?),
                run: std::mem::transmute::<*mut c_void, Run>(sym("osg_run")?),
                game: std::mem::transmute::<*mut c_void, WholeGame>(sym("osg_game")?),
            };
            Ok(Box::leak(Box::new(lib)))
        }
    }

    /// A stream of OpenSpiel's games, as `Stream` makes ours.
    pub struct Stream {
        lib: &'static Lib,
        handle: *mut c_void,
    }

    impl Stream {
        pub fn new(lib: &'static Lib, side: u8, uniform: bool, seed: u64) -> Stream {
            // SAFETY: the shim allocates a stream it frees in `drop`.
            let handle = unsafe { (lib.new)(c_int::from(side), c_int::from(uniform), seed) };
            Stream { lib, handle }
        }

        pub fn run(&mut self, moves: u64) {
            // SAFETY: a live stream of the shim.
            unsafe { (self.lib.run)(self.handle, moves) }
        }

        pub fn whole_game(&mut self, seed: u64) -> u64 {
            // SAFETY: a live stream of the shim.
            unsafe { (self.lib.game)(self.handle, seed) }
        }
    }

    impl Drop for Stream {
        fn drop(&mut self) {
            // SAFETY: the stream was made by the shim and is freed once.
            unsafe { (self.lib.free)(self.handle) }
        }
    }
}

impl Contender for openspiel::Stream {
    fn run(&mut self, moves: u64) {
        openspiel::Stream::run(self, moves);
    }

    fn fixed_batch(&mut self) -> u64 {
        (0..GAMES_PER_FIXED_BATCH)
            .map(|k| self.whole_game(SEED + k))
            .sum()
    }
}

/// OpenSpiel's board if it is there and plays ours under simple ko move for move (the same
/// length on `VERIFIED_GAMES` seeds per size and workload); otherwise why it is skipped.
fn openspiel_checked() -> Result<&'static openspiel::Lib, String> {
    use std::sync::OnceLock;
    static CHECKED: OnceLock<Result<&'static openspiel::Lib, String>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let lib = openspiel::load()?;
            for side in [9u8, 19] {
                for policy in [Policy::Random, Policy::Uniform] {
                    let mut ours = Stream::new(Reference::new(KoRule::Simple, side), side, policy);
                    let mut theirs =
                        openspiel::Stream::new(lib, side, policy == Policy::Uniform, SEED);
                    for k in 0..VERIFIED_GAMES {
                        let (a, b) = (ours.whole_game(SEED + k), theirs.whole_game(SEED + k));
                        assert_eq!(
                            a, b,
                            "OpenSpiel's game {k} on {side}x{side} ({policy:?}) has {b} moves, ours {a}"
                        );
                    }
                }
            }
            Ok(lib)
        })
        .clone()
}

// ---------------------------------------------------------------------------------------------
// The tables: every contender under every method, in one run
// ---------------------------------------------------------------------------------------------

/// A contender as the tables make it: a name and a fresh stream of its games.
struct Entry<'a> {
    name: String,
    make: Box<dyn Fn() -> Box<dyn Contender> + 'a>,
}

fn entry<'a, C: Contender + 'static>(
    name: impl Into<String>,
    make: impl Fn() -> C + 'a,
) -> Entry<'a> {
    Entry {
        name: name.into(),
        make: Box::new(move || Box::new(make()) as Box<dyn Contender>),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    FreshAlone,
    FreshInterleaved,
    FixedAlone,
    FixedInterleaved,
}

impl Method {
    const ALL: [Method; 4] = [
        Method::FreshAlone,
        Method::FreshInterleaved,
        Method::FixedAlone,
        Method::FixedInterleaved,
    ];

    fn word(self) -> &'static str {
        match self {
            Method::FreshAlone => "fresh/alone",
            Method::FreshInterleaved => "fresh/interleaved",
            Method::FixedAlone => "fixed/alone",
            Method::FixedInterleaved => "fixed/interleaved",
        }
    }

    fn fresh(self) -> bool {
        matches!(self, Method::FreshAlone | Method::FreshInterleaved)
    }
}

/// One batch of `contender` under `method`; its moves per second.
fn timed_batch(contender: &mut dyn Contender, method: Method) -> f64 {
    let start = Instant::now();
    let moves = if method.fresh() {
        contender.run(MOVES_PER_BATCH);
        MOVES_PER_BATCH
    } else {
        contender.fixed_batch()
    };
    black_box(moves) as f64 / start.elapsed().as_secs_f64()
}

/// The fastest batch of each entry under `method`, each timed for about `seconds`.
fn measure(entries: &[Entry<'_>], method: Method, seconds: f64) -> Vec<f64> {
    let mut best = vec![0f64; entries.len()];
    let mut streams: Vec<Box<dyn Contender>> = entries.iter().map(|e| (e.make)()).collect();
    let budget = Duration::from_secs_f64(seconds);
    match method {
        Method::FreshAlone | Method::FixedAlone => {
            for (k, stream) in streams.iter_mut().enumerate() {
                let start = Instant::now();
                while start.elapsed() < budget {
                    best[k] = best[k].max(timed_batch(stream.as_mut(), method));
                }
            }
        }
        Method::FreshInterleaved | Method::FixedInterleaved => {
            let start = Instant::now();
            while start.elapsed() < budget * entries.len() as u32 {
                for (k, stream) in streams.iter_mut().enumerate() {
                    best[k] = best[k].max(timed_batch(stream.as_mut(), method));
                }
            }
        }
    }
    best
}

fn table_seconds() -> f64 {
    std::env::var("GOCONFORM_PLAY_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.5)
}

/// Prints one table: every entry's moves per second under every method, ours/ceiling and
/// ours/peer ratios. Entry 0 is ours and entry 1 the ceiling (when `ceiling`). Returns, for
/// every other entry by name, ours at its worst fresh method against that entry's best.
fn table(title: &str, entries: &[Entry<'_>], ceiling: bool) -> Vec<(String, f64)> {
    let seconds = table_seconds();
    println!("{title} (M moves/s, fastest batch of {MOVES_PER_BATCH} moves or of the {GAMES_PER_FIXED_BATCH} fixed games):");
    print!("  {:<18}", "method");
    for e in entries {
        print!(" {:>24}", e.name);
    }
    println!();
    let mut rates = Vec::new();
    for method in Method::ALL {
        let best = measure(entries, method, seconds);
        print!("  {:<18}", method.word());
        for r in &best {
            print!(" {:>24.2}", r / 1e6);
        }
        if ceiling {
            print!("   ours/ceiling {:.2}x", best[0] / best[1]);
        }
        println!();
        rates.push((method, best));
    }
    let fresh = || rates.iter().filter(|(m, _)| m.fresh());
    let ours_worst = fresh().map(|(_, b)| b[0]).fold(f64::INFINITY, f64::min);
    let ours_best = fresh().map(|(_, b)| b[0]).fold(0f64, f64::max);
    let mut worst = Vec::new();
    for (k, e) in entries.iter().enumerate().skip(1) {
        let best = fresh().map(|(_, b)| b[k]).fold(0f64, f64::max);
        println!(
            "  ours/{}: {:.2}x at ours' worst fresh method, {:.2}x at its best (against {}'s best fresh method)",
            e.name,
            ours_worst / best,
            ours_best / best,
            e.name
        );
        worst.push((e.name.clone(), ours_worst / best));
    }
    worst
}

/// One row of the README's table of play ratios (README "Performance"), as the run measured
/// it: ours at its worst fresh method against the ceiling's, OpenSpiel's and `goban`'s best
/// (a cell is empty where the table has no such contender).
fn readme_row(label: &str, ratios: &[(String, f64)]) -> String {
    let cell = |prefix: &str, digits: usize| {
        ratios
            .iter()
            .find(|(name, _)| name.starts_with(prefix))
            .map_or(String::new(), |(_, r)| format!("{r:.digits$}x"))
    };
    format!(
        "| {label} | {} | {} | {} |",
        cell("ceiling/", 2),
        cell("openspiel/", 2),
        cell("goban/", 1)
    )
}

/// The tables every run prints when asked (see the opening comment).
fn ratios(_: &mut Criterion) {
    if let Ok(only) = std::env::var("GOCONFORM_PLAY_ONLY") {
        return play_only(&only);
    }
    // Criterion's filter is not ours to read: take the words of the command line that are
    // neither flags nor numbers, and skip the tables when some are given and none names them.
    let filters: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-') && a.parse::<f64>().is_err())
        .collect();
    if !filters.is_empty() && !filters.iter().any(|f| "ratios".contains(f.as_str())) {
        return;
    }
    let openspiel = openspiel_checked();
    if let Err(why) = &openspiel {
        println!("openspiel skipped: {why}");
    }
    let mut rows = Vec::new();
    for side in [9u8, 19] {
        for (ko, peer, rule) in compared() {
            verify_ceiling(side, ko, Policy::Random);
            let mut entries = vec![
                entry(format!("goconform/{ko}"), move || {
                    Stream::new(Reference::new(ko, side), side, Policy::Random)
                }),
                entry(format!("ceiling/{ko}"), move || {
                    Stream::new(Tight::new(ko, side), side, Policy::Random)
                }),
                entry(peer, move || {
                    Stream::new(Peer::new(rule, side), side, Policy::Random)
                }),
            ];
            if let Ok(lib) = openspiel {
                entries.push(entry("openspiel/simple", move || {
                    openspiel::Stream::new(lib, side, false, SEED)
                }));
            }
            let ratios = table(
                &format!("random play {side}x{side}, ours {ko}"),
                &entries,
                true,
            );
            let ko_words = match ko {
                KoRule::Simple => "simple ko",
                _ => "situational superko",
            };
            rows.push(readme_row(
                &format!("random, {side}x{side}, ours {ko_words}"),
                &ratios,
            ));
        }
    }
    for side in [9u8, 19] {
        for ko in [KoRule::Simple, KoRule::Situational] {
            verify_ceiling(side, ko, Policy::Uniform);
        }
        let mut entries = vec![
            entry("goconform/situational", move || {
                Stream::new(
                    Reference::new(KoRule::Situational, side),
                    side,
                    Policy::Uniform,
                )
            }),
            entry("goconform/simple", move || {
                Stream::new(Reference::new(KoRule::Simple, side), side, Policy::Uniform)
            }),
            entry("ceiling/situational", move || {
                Stream::new(Tight::new(KoRule::Situational, side), side, Policy::Uniform)
            }),
        ];
        if let Ok(lib) = openspiel {
            entries.push(entry("openspiel/simple", move || {
                openspiel::Stream::new(lib, side, true, SEED)
            }));
        }
        let ratios = table(
            &format!("uniform play {side}x{side}, ours situational"),
            &entries,
            false,
        );
        rows.push(readme_row(
            &format!("uniform, {side}x{side}, ours situational superko"),
            &ratios,
        ));
    }
    println!(
        "README rows (ours at its worst fresh method against each other's best fresh method):"
    );
    println!("| workload, board | ours / ceiling | ours / OpenSpiel (simple ko) | ours / goban |");
    println!("|---|---|---|---|");
    for row in rows {
        println!("{row}");
    }
}

/// `GOCONFORM_PLAY_ONLY=WHO,SIDE,KO,METHOD,MOVES` (e.g. `ceiling,9,simple,fixed,200000`):
/// one contender (`ours`, `ceiling` or `openspiel`, the last under its own ko rule whatever KO
/// says) alone, fresh or fixed games, for at least MOVES moves,
/// and nothing else, so that a profiler or a simulator (`valgrind --tool=cachegrind
/// --branch-sim=yes`) sees that loop alone. Prints the moves played and their rate over the
/// loop alone (the set-up and the checks before it, OpenSpiel's especially, are not counted:
/// timing the whole process understates the contenders that are checked first).
fn play_only(spec: &str) {
    let words: Vec<&str> = spec.split(',').collect();
    let (who, side, ko, method, moves, policy) = match words[..] {
        [who, side, ko, method, moves] => (who, side, ko, method, moves, Policy::Random),
        [who, side, ko, method, moves, "random"] => (who, side, ko, method, moves, Policy::Random),
        [who, side, ko, method, moves, "uniform"] => {
            (who, side, ko, method, moves, Policy::Uniform)
        }
        _ => {
            panic!("GOCONFORM_PLAY_ONLY={spec}: expected WHO,SIDE,KO,METHOD,MOVES[,random|uniform]")
        }
    };
    let side: u8 = side.parse().expect("SIDE is a number");
    let ko: KoRule = ko.parse().expect("KO is a ko rule");
    let target: u64 = moves.parse().expect("MOVES is a number");
    let mut contender: Box<dyn Contender> = match who {
        "ours" => Box::new(Stream::new(Reference::new(ko, side), side, policy)),
        "ceiling" => Box::new(Stream::new(Tight::new(ko, side), side, policy)),
        "openspiel" => match openspiel_checked() {
            Ok(lib) => Box::new(openspiel::Stream::new(
                lib,
                side,
                policy == Policy::Uniform,
                SEED,
            )),
            Err(why) => panic!("GOCONFORM_PLAY_ONLY: no OpenSpiel peer: {why}"),
        },
        other => panic!("GOCONFORM_PLAY_ONLY: no contender {other:?} (ours, ceiling or openspiel)"),
    };
    let mut played = 0;
    let start = Instant::now();
    while played < target {
        played += match method {
            "fresh" => {
                contender.run(MOVES_PER_BATCH);
                MOVES_PER_BATCH
            }
            "fixed" => contender.fixed_batch(),
            other => panic!("GOCONFORM_PLAY_ONLY: no method {other:?} (fresh or fixed)"),
        };
    }
    let seconds = start.elapsed().as_secs_f64();
    println!(
        "{who} {side}x{side} {ko} {method} {policy:?}: {played} moves in {seconds:.3} s ({:.2} M moves/s, set-up and checks not counted)",
        played as f64 / seconds / 1e6
    );
    // Nothing else: criterion's other groups would set up (and verify) far more than this.
    std::process::exit(0);
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

/// Criterion's view: one benchmark per contender, each iteration `MOVES_PER_BATCH` moves of
/// its stream, which goes on from iteration to iteration.
fn bench_stream(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    id: &str,
    mut contender: Box<dyn Contender>,
) {
    group.throughput(Throughput::Elements(MOVES_PER_BATCH));
    group.bench_function(id, |b| b.iter(|| contender.run(MOVES_PER_BATCH)));
}

fn random_play(c: &mut Criterion) {
    let openspiel = openspiel_checked();
    for (policy, word) in [(Policy::Random, "random"), (Policy::Uniform, "uniform")] {
        for side in [9u8, 19] {
            for (ko, _, _) in compared() {
                verify_ceiling(side, ko, policy);
            }
            let mut group = c.benchmark_group(format!("{word}_play_{side}x{side}"));
            for &ko in KoRule::ALL {
                let ours = Stream::new(Reference::new(ko, side), side, policy);
                bench_stream(&mut group, &format!("goconform/{ko}"), Box::new(ours));
            }
            for (ko, peer, rule) in compared() {
                let ceiling = Stream::new(Tight::new(ko, side), side, policy);
                bench_stream(&mut group, &format!("ceiling/{ko}"), Box::new(ceiling));
                let peer_stream = Stream::new(Peer::new(rule, side), side, policy);
                bench_stream(&mut group, peer, Box::new(peer_stream));
            }
            match openspiel {
                Ok(lib) => {
                    let theirs = openspiel::Stream::new(lib, side, policy == Policy::Uniform, SEED);
                    bench_stream(&mut group, "openspiel/simple", Box::new(theirs));
                }
                Err(ref why) => println!("openspiel skipped: {why}"),
            }
            group.finish();
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
        fn try_play(&mut self, c: Coord, captured: &mut Vec<Coord>) -> bool {
            let played = self.0.try_play(c, captured);
            if played {
                self.1.push(Some(c));
            }
            played
        }
        fn pass(&mut self) {
            self.1.push(None);
            self.0.pass();
        }
        fn restart(&mut self) {
            self.1.clear();
            self.0.restart();
        }
    }
    let recorder = Recorder(Reference::new(KoRule::Positional, side), Vec::new());
    let mut stream = Stream::new(recorder, side, Policy::Random);
    for _ in 0..count {
        assert!(!stream.step(), "the game ended before move {count}");
    }
    stream.player.1
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
