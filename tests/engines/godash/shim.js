#!/usr/bin/env node
// godash (the npm package, ISC: permissive, like MIT), a library of immutable Go boards,
// behind goconform's JSON-lines engine protocol, version 1 (docs/protocol.md):
// `goconform check --engine "jsonl:node tests/engines/godash/shim.js"`.
//
// godash has boards and moves, no game: `addMove(board, move)` returns the board after a play
// or throws ("Not a valid position" for a play without liberties that captures nothing,
// "There is already a stone there" for an occupied point), and `followupKo(board, move)`
// names the point where the opponent may not answer a play straight away (the recapture that
// would bring the board back). The shim keeps the current board and the last play's
// `followupKo` point; every verdict is one of these two functions'.
//
// What the shim claims, and why (docs/engines.md has the results):
// - ko: simple only: the `followupKo` point of the previous play, for the opponent's next
//   move (a pass in between lifts it). No history, so no superko.
// - suicide: forbidden only: `addMove` throws for it; there is no option.
// - reasons: `addMove`'s errors (occupied, suicide) and the `followupKo` point (ko). `addMove`
//   tests liberties before occupancy, so a play on an occupied point where the new stone would
//   have no liberty is called suicide (repro/occupied-called-suicide.js, in the expectations).
// - captures and board: the board before and after each play, as godash gives them.
// - events: plays and passes (a pass leaves the board as it is).
// - not claimed: to-move (godash has no turn; the colour comes with each event, and whose
//   turn it is is not judged), prisoners, phase and score.
//
// Set-ups: godash boards are square (`Board(size)`); set-up and handicap stones are put with
// `placeStone`, so the game starts with no ko point.

"use strict";

const { serve, engine, Skip } = require("../jsonl-shim.js");
const godash = require("godash");

const VERSION = require("godash/package.json").version;
const OBSERVES = ["reasons", "captures", "board"];
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const REASONS = {
  "Not a valid position": "suicide",
  "There is already a stone there": "occupied",
};

// goconform's vertex (`D4`, rows from the bottom) as a godash Coordinate (rows from the top).
function parseVertex(text, size) {
  const x = LETTERS.indexOf(text[0]);
  const row = Number(text.slice(1));
  if (x < 0 || x >= size || !(row >= 1 && row <= size)) {
    throw new Error(`vertex ${text} is off the ${size}x${size} board`);
  }
  return godash.Coordinate(x, size - row);
}

const colour = (c) => (c === "B" ? godash.BLACK : godash.WHITE);

function stones(board) {
  const size = board.dimensions;
  return [...board.moves.entries()]
    .map(([c, v]) => [LETTERS[c.x] + String(size - c.y), v === godash.BLACK ? "B" : "W"])
    .sort();
}

function start(rules, setup) {
  if (setup.width !== setup.height) {
    throw new Skip(`godash boards are square, and this one is ${setup.width}x${setup.height}`);
  }
  if (rules.ko !== "simple") {
    throw new Skip(`godash has simple ko only (ko = ${rules.ko})`);
  }
  if (rules.suicide !== "forbidden") {
    throw new Skip(`godash forbids every suicide (suicide = ${rules.suicide})`);
  }
  let board = godash.Board(setup.width);
  for (const [v, c] of setup.stones.concat(setup.handicap.map((v) => [v, "B"]))) {
    board = godash.placeStone(board, parseVertex(v, setup.width), colour(c));
  }
  return { board, ko: null };
}

function step(game, event) {
  const parts = event.split(" ");
  const [who, what] = parts;
  if ((who !== "B" && who !== "W") || parts.length !== 2) {
    throw new Error(`the shim takes plays and passes only, not \`${event}\``);
  }
  const before = game.board;
  if (what === "pass") {
    game.ko = null;
    return { verdict: "legal", captured: [], self_captured: [], observation: { board: stones(before) } };
  }
  const move = godash.Move(parseVertex(what, before.dimensions), colour(who));
  if (game.ko && game.ko.color === move.color && game.ko.at.equals(move.coordinate)) {
    return { verdict: "illegal", reason: "ko", observation: { board: stones(before) } };
  }
  let after;
  try {
    after = godash.addMove(before, move);
  } catch (e) {
    const reason = REASONS[e.message];
    if (reason === undefined) {
      throw e;
    }
    return { verdict: "illegal", reason, observation: { board: stones(before) } };
  }
  const at = godash.followupKo(before, move);
  game.ko = at ? { at, color: godash.oppositeColor(move.color) } : null;
  game.board = after;
  const kept = new Set(stones(after).map(([v, c]) => v + c));
  const captured = stones(before)
    .filter(([v, c]) => c !== who && !kept.has(v + c))
    .map(([v]) => v);
  return { verdict: "legal", captured, self_captured: [], observation: { board: stones(after) } };
}

// On standard input and output when run (`node shim.js`); in process when required, as an
// object answering the protocol's requests (`engine` in ../jsonl-shim.js).
const shim = {
  name: "godash",
  version: VERSION,
  capabilities: {
    axes: { ko: ["simple"], suicide: ["forbidden"] },
    observes: OBSERVES,
    judges: ["occupied", "suicide", "ko"],
    events: ["play", "pass"],
  },
  start,
  observe: (game) => ({ board: stones(game.board) }),
  step,
};

module.exports = engine(shim);
if (require.main === module) {
  serve(shim);
}
