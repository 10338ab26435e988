//! The native side of the WebAssembly figures (issue 35): random playouts
//! (`goconform::wasm_playout`, the code the npm package's `playouts` runs inside its module)
//! timed natively. `js/test/figures.test.js` prints the same workload in Node, through the
//! package and through the JavaScript engines. The figure means something only in a release
//! build: `cargo test --release --test wasm_playouts -- --nocapture`.

use std::time::{Duration, Instant};

use goconform::wasm_playout::random_playouts;

#[test]
fn random_playouts_natively() {
    let spec = goconform::spec::embedded::spec().unwrap();
    let rules = spec.rules("japanese-1989").unwrap();
    // The same seed plays the same games.
    assert_eq!(
        random_playouts(rules, 9, 3, 7),
        random_playouts(rules, 9, 3, 7)
    );
    assert!(random_playouts(rules, 40, 1, 7).is_none());
    let budget = if cfg!(debug_assertions) {
        Duration::from_millis(200)
    } else {
        Duration::from_secs(1)
    };
    let started = Instant::now();
    let (mut games, mut moves, mut judged) = (0, 0, 0);
    let mut seed = 1;
    while started.elapsed() < budget {
        let done = random_playouts(rules, 19, 10, seed).unwrap();
        games += done.games;
        moves += done.moves;
        judged += done.judged;
        seed += 1;
    }
    let seconds = started.elapsed().as_secs_f64();
    assert!(moves > 0 && judged >= moves);
    eprintln!(
        "native ({}): 19x19 random playouts under japanese-1989: {games} games, {:.0} moves/s, {:.0} judgements/s",
        if cfg!(debug_assertions) { "debug build: not a figure" } else { "release" },
        moves as f64 / seconds,
        judged as f64 / seconds
    );
}
