// The figures of issue 35, printed: the module's size raw and gzipped, and random playouts in
// this Node process through the package's Game, inside the module (the Rust loop of
// src/wasm_playout.rs, which tests/wasm_playouts.rs times natively) and through the shimmed
// JavaScript engines (@sabaki/go-board, tenuki, OGS goban, godash) by their shims' own start
// and step. One algorithm throughout: up to eight random points tried (each judged), else a
// pass; two passes in a row or 3 x 361 events end a 19x19 game; japanese-1989's rules
// (simple ko, suicide forbidden), which every engine here takes.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const zlib = require("zlib");
const { performance } = require("perf_hooks");
const goconform = require("..");
const raw = require("../pkg/goconform.js");
const { ENGINES, SHIMS, skipUnlessCI, shimInstalled } = require("./common.js");

const SIZE = 19;
const TRIES = 8;
const BUDGET_MS = Number(process.env.GOCONFORM_FIGURE_MS || 1000);
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

test("the module's size", () => {
  const wasm = fs.readFileSync(path.join(__dirname, "..", "pkg", "goconform_bg.wasm"));
  const gzipped = zlib.gzipSync(wasm, { level: 9 }).length;
  process.stderr.write(`figure: goconform_bg.wasm ${wasm.length} bytes raw, ${gzipped} gzipped\n`);
  assert.ok(gzipped < 1.5e6, `the goal is under 1.5 MB gzipped: ${gzipped}`);
});

// xorshift32: the JavaScript side's random points (any uniform source does for a throughput).
function random(seed) {
  let x = seed >>> 0 || 1;
  return (n) => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x % n;
  };
}

// Playouts for BUDGET_MS through `play(colour, vertex)` and `pass(colour)` on a game made by
// `start()`; each returns whether the event was legal.
function time(start, play, pass) {
  const below = random(12345);
  let games = 0;
  let moves = 0;
  let judged = 0;
  const started = performance.now();
  while (performance.now() - started < BUDGET_MS) {
    const game = start();
    let colour = "B";
    let passes = 0;
    let events = 0;
    while (passes < 2 && events < 3 * SIZE * SIZE) {
      let played = false;
      for (let t = 0; t < TRIES && !played; t++) {
        const k = below(SIZE * SIZE);
        const v = LETTERS[k % SIZE] + String(Math.floor(k / SIZE) + 1);
        judged += 1;
        events += 1;
        played = play(game, colour, v);
      }
      if (played) passes = 0;
      else {
        judged += 1;
        events += 1;
        pass(game, colour);
        passes += 1;
      }
      moves += 1;
      colour = colour === "B" ? "W" : "B";
    }
    if (game.free) game.free();
    games += 1;
  }
  const seconds = (performance.now() - started) / 1000;
  return { games, movesPerSecond: moves / seconds, judgedPerSecond: judged / seconds };
}

function report(name, f) {
  process.stderr.write(
    `figure: ${name}: ${f.games} games, ${Math.round(f.movesPerSecond)} moves/s, ${Math.round(f.judgedPerSecond)} judgements/s\n`,
  );
}

test("random playouts in Node: the package, its module, and the JavaScript engines", (t) => {
  const rules = new goconform.Game({ ruleset: "japanese-1989", size: SIZE }).rules;
  const setup = new goconform.Game({ size: SIZE }).setup;
  const figures = {};

  // Inside the module: the Rust loop, no boundary crossed per move.
  const started = performance.now();
  let inside = { games: 0, moves: 0, judged: 0 };
  for (let seed = 1; performance.now() - started < BUDGET_MS; seed++) {
    const done = JSON.parse(raw.playouts("japanese-1989", SIZE, 10, seed));
    inside = { games: inside.games + done.games, moves: inside.moves + done.moves, judged: inside.judged + done.judged };
  }
  const seconds = (performance.now() - started) / 1000;
  figures.module = { games: inside.games, movesPerSecond: inside.moves / seconds, judgedPerSecond: inside.judged / seconds };
  report("goconform inside its module (wasm, Rust loop)", figures.module);

  // Through the package's Game from JavaScript: one call and one JSON answer per event,
  // observing what the shims below observe (board, player to move; the count, which a step
  // observes by default, is left out: it counts the whole board each event), then nothing.
  const observed = ["reasons", "captures", "board", "to-move"];
  figures.game = time(
    () => new goconform.Game({ ruleset: "japanese-1989", size: SIZE, observe: observed }),
    (game, colour, v) => game.event(`${colour} ${v}`).verdict === "legal",
    (game, colour) => game.event(`${colour} pass`),
  );
  report("goconform through the package's Game (board and turn observed)", figures.game);
  figures.verdicts = time(
    () => new goconform.Game({ ruleset: "japanese-1989", size: SIZE, observe: [] }),
    (game, colour, v) => game.event(`${colour} ${v}`).verdict === "legal",
    (game, colour) => game.event(`${colour} pass`),
  );
  report("goconform through the package's Game (verdicts alone)", figures.verdicts);

  for (const name of SHIMS) {
    if (!shimInstalled(name)) {
      skipUnlessCI(t, `tests/engines/${name} has no node_modules`);
      continue;
    }
    const { shim } = require(path.join(ENGINES, name, "shim.js"));
    figures[name] = time(
      () => shim.start(rules, setup),
      (game, colour, v) => shim.step(game, `${colour} ${v}`).verdict === "legal",
      (game, colour) => shim.step(game, `${colour} pass`),
    );
    report(`${name} through its shim's start and step`, figures[name]);
  }
  for (const f of Object.values(figures)) assert.ok(f.movesPerSecond > 0);
});
