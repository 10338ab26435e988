//! How the input readers scale: each input is read at a size and at ten times that size, and
//! the ratio of the two times is printed. A reader that is linear shows a ratio near 10; the
//! quadratic readers an attack found (a line count from the top of the file for every event,
//! every pair of expectations compared, every crosstable cell looked up by a search of the
//! names) showed ratios near 100 and took 7 to 30 s at the larger sizes.
//!
//! Run with `cargo bench --bench inputs`. The inputs, each at N and 10 N:
//! 1. `expectations`: a scenario with N `[[expect]]` tables after the same move;
//! 2. `events`: a scenario with N moves;
//! 3. `clock`: a clock file with N events;
//! 4. `crosstable`: a four-round CSV crosstable of N players paired at random, read and
//!    ranked by the AGA annex's tiebreak order;
//! 5. `all tied`: the same with a field that ties on every value (N rounded up to a power of
//!    two), the worst case of the ranking, quadratic in the size of the tie by design.

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use goconform::scenario::tournament::{read_clock_file, read_crosstable};
use goconform::scenario::Scenario;
use goconform::spec::Spec;
use goconform::tournament::tiebreak::{standings, Tiebreak};

const HEAD: &str = r#"id = "big"
title = "generated"
added = "0.4.0"
clauses = ["aga-1991-r6-ko"]
description = "generated"
checked = "generated"
rules = ["aga"]
size = 5
"#;

fn expectations(n: usize) -> String {
    let mut text = format!("{HEAD}moves = [\"B C3\"]\n");
    for _ in 0..n {
        text.push_str("[[expect]]\nafter = 1\nlegal = true\n");
    }
    text
}

fn events(n: usize) -> String {
    let moves: Vec<&str> = (0..n)
        .map(|i| {
            if i % 2 == 0 {
                "\"B pass\""
            } else {
                "\"W pass\""
            }
        })
        .collect();
    format!(
        "{HEAD}moves = [\n{}\n]\n[[expect]]\nafter = 1\nlegal = true\n",
        moves.join(",\n")
    )
}

fn clock(n: usize) -> String {
    let mut text = String::from(
        "control = { main = \"100:00:00\", overtime = \"byo-yomi\", periods = 3, period = 10 }\nevents = [\n\"0 begin\",\n",
    );
    for i in 1..=n {
        let colour = if i % 2 == 1 { 'B' } else { 'W' };
        text.push_str(&format!(
            "\"{}:{:02}:{:02} play {colour}\",\n",
            i / 3600,
            i / 60 % 60,
            i % 60
        ));
    }
    text.push_str("]\n");
    text
}

/// Four rounds of N players (N even) paired at random, as in an event with many players:
/// each round shuffles the players with a fixed linear congruential generator and pairs them
/// off, the first of each pair winning when the generator's next bit says so.
fn crosstable(n: usize) -> String {
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = || {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        state >> 33
    };
    let mut cells = vec![Vec::new(); n];
    for _ in 0..4 {
        let mut order: Vec<usize> = (0..n).collect();
        for i in (1..n).rev() {
            order.swap(i, next() as usize % (i + 1));
        }
        for pair in order.chunks(2) {
            let (a, b) = (pair[0], pair[1]);
            let a_won = next() % 2 == 0;
            cells[a].push(format!("P{b}{}", if a_won { '+' } else { '-' }));
            cells[b].push(format!("P{a}{}", if a_won { '-' } else { '+' }));
        }
    }
    table(&cells)
}

/// Four rounds in which every player wins two and loses two against players with the same
/// record (player i meets the player whose index differs in bit r of i; the lower index wins
/// in even rounds): the whole field ties on every value, so head-to-head and chance place
/// them one by one. Each place is decided again among the players left, as the procedure
/// says, so this case is quadratic in the size of the tie by design.
fn tied_crosstable(n: usize) -> String {
    let n = n.next_power_of_two();
    let cells: Vec<Vec<String>> = (0..n)
        .map(|i| {
            (0..4)
                .map(|r| {
                    let j = i ^ (1 << r);
                    let won = (i < j) == (r % 2 == 0);
                    format!("P{j}{}", if won { '+' } else { '-' })
                })
                .collect()
        })
        .collect();
    table(&cells)
}

/// A CSV crosstable of the cells, player i named `Pi`.
fn table(cells: &[Vec<String>]) -> String {
    let mut text = String::from("name,1,2,3,4\n");
    for (i, row) in cells.iter().enumerate() {
        text.push_str(&format!("P{i},{}\n", row.join(",")));
    }
    text
}

/// A benchmark input: its name, the smaller size, how to make it and how to read it.
type Input<'a> = (&'static str, usize, fn(usize) -> String, &'a dyn Fn(&str));

/// The best of three runs of `read` on `text`.
fn time(text: &str, read: &dyn Fn(&str)) -> Duration {
    (0..3)
        .map(|_| {
            let start = Instant::now();
            read(black_box(text));
            start.elapsed()
        })
        .min()
        .expect("three runs")
}

fn main() {
    let spec = Spec::load(Path::new(env!("CARGO_MANIFEST_DIR"))).expect("the spec loads");
    let scenario = |text: &str| {
        Scenario::parse(Path::new("t/big.toml"), text, "t", &spec).expect("the scenario loads");
    };
    let clock_file = |text: &str| {
        read_clock_file(Path::new("clock.toml"), text).expect("the clock file loads");
    };
    let ranked = |text: &str| {
        let file = read_crosstable(Path::new("table.csv"), text).expect("the crosstable loads");
        let order = [
            Tiebreak::Playoff,
            Tiebreak::Sos,
            Tiebreak::Sodos,
            Tiebreak::HeadToHead,
            Tiebreak::Chance,
        ];
        standings(&file.table, &order, 0, &[]).expect("the standings");
    };
    let inputs: [Input; 5] = [
        ("expectations", 3_000, expectations, &scenario),
        ("events", 40_000, events, &scenario),
        ("clock", 10_000, clock, &clock_file),
        ("crosstable", 1_000, crosstable, &ranked),
        ("all tied", 1_000, tied_crosstable, &ranked),
    ];
    println!(
        "{:<13} {:>8} {:>11} {:>8} {:>11}  ratio",
        "input", "N", "time", "10 N", "time"
    );
    for (name, n, make, read) in inputs {
        let small = time(&make(n), read);
        let large = time(&make(10 * n), read);
        println!(
            "{name:<13} {n:>8} {:>9.1}ms {:>8} {:>9.1}ms  {:.1}x",
            small.as_secs_f64() * 1e3,
            10 * n,
            large.as_secs_f64() * 1e3,
            large.as_secs_f64() / small.as_secs_f64()
        );
    }
}
