//! Speed of the rule book (`goconform book`), beside a run of the whole suite through the
//! reference (`goconform check`, the main job) as the peer: both play every scenario under
//! every run through the reference, and the book draws and writes as well.
//!
//! Run with `cargo bench --bench book`. Three measurements on the suite in this checkout:
//! 1. `build`: every page in memory (`Book::build`, scenario pages on rayon's pool);
//! 2. `build_and_write`: the same and written to a temporary folder, as the command does;
//! 3. `check_suite`: every trial through the reference (`Harness::run`, rayon's pool).
//!
//! After the groups it prints the book's size and the ratio of (2) to (3). The issue that
//! asked for the book set its goal as under 2 s for the whole book.

use std::path::Path;
use std::time::Instant;

use criterion::{criterion_group, criterion_main, Criterion};

use goconform::book::Book;
use goconform::conformance::harness::{select, Harness};
use goconform::scenario::Suite;
use goconform::spec::Spec;

fn load() -> (Spec, Suite) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(root).expect("the spec loads");
    let suite = Suite::load(&[root.join("conformance")], &spec).expect("the suite loads");
    (spec, suite)
}

fn bench(c: &mut Criterion) {
    let (spec, suite) = load();
    let trials = select(&suite, |_, _| true);
    let factory = goconform::cli::engine_factory("reference").expect("the reference");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let out = dir.path().join("book");

    let mut group = c.benchmark_group("book");
    group.sample_size(20);
    group.bench_function("build", |b| {
        b.iter(|| Book::build(&spec, &suite, None).expect("the book builds"))
    });
    group.bench_function("build_and_write", |b| {
        b.iter(|| {
            Book::build(&spec, &suite, None)
                .expect("the book builds")
                .write(&out)
                .expect("the book is written")
        })
    });
    group.bench_function("check_suite", |b| {
        b.iter(|| {
            Harness::default()
                .run(&suite, &trials, factory.as_ref())
                .expect("the suite runs")
        })
    });
    group.finish();

    // One timed pass of each, for the ratio and the size.
    let rounds = 10;
    let started = Instant::now();
    let mut book = None;
    for _ in 0..rounds {
        let b = Book::build(&spec, &suite, None).expect("the book builds");
        b.write(&out).expect("the book is written");
        book = Some(b);
    }
    let book_time = started.elapsed().as_secs_f64() / f64::from(rounds);
    let started = Instant::now();
    for _ in 0..rounds {
        Harness::default()
            .run(&suite, &trials, factory.as_ref())
            .expect("the suite runs");
    }
    let check_time = started.elapsed().as_secs_f64() / f64::from(rounds);
    let size = book.expect("built").size();
    println!(
        "book: {} pages, {} diagrams, {} files, {} KB, built and written in {:.1} ms; \
         the reference over the {} trials in {:.1} ms; the book costs {:.2}x a check",
        size.pages,
        size.diagrams,
        size.files,
        size.bytes.div_ceil(1024),
        book_time * 1e3,
        trials.len(),
        check_time * 1e3,
        book_time / check_time
    );
}

criterion_group!(benches, bench);
criterion_main!(benches);
