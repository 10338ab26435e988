#!/usr/bin/env node
// @sabaki/go-board (the npm package, MIT), the board of the Sabaki GUI, behind goconform's
// JSON-lines engine protocol, version 1 (docs/protocol.md):
// `goconform check --engine "jsonl:node tests/engines/sabaki-go-board/shim.js"`.
//
// The library is a board, not a game: `makeMove(sign, vertex, options)` returns the board
// after a move, or throws when one of the checks asked for in `options` refuses it. Every
// decision below is the library's; the shim only keeps the current board, whose turn the
// events say, and turns thrown errors into verdicts.
//
// What the shim claims, and why (docs/engines.md has the results):
// - ko: simple only. `makeMove` with `preventKo` refuses the immediate recapture of a single
//   stone that has just captured a single stone (the board remembers that point from the
//   previous move); it keeps no history, so no superko. A pass keeps that point, so a retake
//   after two passes is still refused (repro/ko-ban-survives-passes.js); two passes stop play
//   in every ruleset of the suite, so no claimed trial meets it.
// - suicide: forbidden (`preventSuicide`) or allowed (without it, the library takes the
//   played string off and counts it for the opponent). It cannot forbid a single-stone
//   suicide while allowing a larger one, so not `multi-stone`.
// - pass-stones: off. The library counts captured stones (`getCaptures`), never pass stones.
// - reasons: the error the library throws: `Overwrite prevented` (occupied),
//   `Ko prevented` (ko), `Suicide prevented` (suicide).
// - captures and board: the board before and after each move, as the library gives them.
// - prisoners: `getCaptures` for each colour.
// - events: plays and passes. A pass is the library's own: `makeMove` at a vertex off the
//   board, which returns the board unchanged.
// - not claimed: to-move (the library has no turn; the colour comes with each event, so
//   it does not judge whose turn it is either), phase and score (it neither ends games nor
//   counts).
//
// Set-ups: the library takes any rectangular board (`fromDimensions(width, height)`); the
// set-up and handicap stones are put with `set`, so the board starts with no ko point, which
// is all a set-up can say under simple ko.

"use strict";

const { serve, engine, Skip } = require("../jsonl-shim.js");
const GoBoard = require("@sabaki/go-board");

const VERSION = require("@sabaki/go-board/package.json").version;
const OBSERVES = ["reasons", "captures", "board", "prisoners"];
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// goconform's vertex (`D4`, rows counted from the bottom) as the library's [x, y] (rows
// counted from the top).
function parseVertex(text, board) {
  const x = LETTERS.indexOf(text[0]);
  const row = Number(text.slice(1));
  if (x < 0 || x >= board.width || !(row >= 1 && row <= board.height)) {
    throw new Error(`vertex ${text} is off the ${board.width}x${board.height} board`);
  }
  return [x, board.height - row];
}

function vertex([x, y], board) {
  return LETTERS[x] + String(board.height - y);
}

const sign = (c) => (c === "B" ? 1 : -1);
const letter = (s) => (s > 0 ? "B" : "W");

// The stones on the board, as [vertex, colour] pairs.
function stones(board) {
  const out = [];
  for (let y = 0; y < board.height; y++) {
    for (let x = 0; x < board.width; x++) {
      const s = board.get([x, y]);
      if (s !== 0) {
        out.push([vertex([x, y], board), letter(s)]);
      }
    }
  }
  return out;
}

function start(rules, setup) {
  if (rules.ko !== "simple") {
    throw new Skip(`the library has simple ko only (ko = ${rules.ko})`);
  }
  if (rules.suicide === "multi-stone") {
    throw new Skip("the library forbids every suicide or none (suicide = multi-stone)");
  }
  const board = GoBoard.fromDimensions(setup.width, setup.height);
  for (const [v, c] of setup.stones.concat(setup.handicap.map((v) => [v, "B"]))) {
    board.set(parseVertex(v, board), sign(c));
  }
  return board;
}

function observation(board) {
  return {
    board: stones(board),
    prisoners: [board.getCaptures(1), board.getCaptures(-1)],
  };
}

const REASONS = {
  "Overwrite prevented": "occupied",
  "Ko prevented": "ko",
  "Suicide prevented": "suicide",
};

// One event on `game.board`: the step the protocol wants.
function step(game, event, options) {
  const parts = event.split(" ");
  const [who, what] = parts;
  if ((who !== "B" && who !== "W") || parts.length !== 2) {
    throw new Error(`the shim takes plays and passes only, not \`${event}\``);
  }
  const before = game.board;
  const at = what === "pass" ? [-1, -1] : parseVertex(what, before);
  let after;
  try {
    after = before.makeMove(sign(who), at, options);
  } catch (e) {
    const reason = REASONS[e.message];
    if (reason === undefined) {
      throw e;
    }
    return { verdict: "illegal", reason, observation: observation(before) };
  }
  game.board = after;
  const kept = new Set(stones(after).map(([v, c]) => v + c));
  const gone = stones(before).filter(([v, c]) => !kept.has(v + c));
  const selfCaptured = gone.filter(([, c]) => c === who).map(([v]) => v);
  // A self-capture takes the played stone off too, which the board before never held.
  if (what !== "pass" && after.get(at) === 0) {
    selfCaptured.push(what);
  }
  return {
    verdict: "legal",
    captured: gone.filter(([, c]) => c !== who).map(([v]) => v),
    self_captured: selfCaptured,
    observation: observation(after),
  };
}

// On standard input and output when run (`node shim.js`); in process when required, as an
// object answering the protocol's requests (`engine` in ../jsonl-shim.js).
const shim = {
  name: "sabaki-go-board",
  version: VERSION,
  capabilities: {
    axes: {
      ko: ["simple"],
      suicide: ["forbidden", "allowed"],
      "pass-stones": ["off"],
    },
    observes: OBSERVES,
    judges: ["occupied", "suicide", "ko"],
    events: ["play", "pass"],
  },
  start: (rules, setup) => ({
    board: start(rules, setup),
    options: {
      preventOverwrite: true,
      preventKo: true,
      preventSuicide: rules.suicide === "forbidden",
    },
  }),
  observe: (game) => observation(game.board),
  step: (game, event) => step(game, event, game.options),
};

module.exports = engine(shim);
if (require.main === module) {
  serve(shim);
}
