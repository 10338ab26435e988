#!/usr/bin/env node
// OGS's rules engine, `GobanEngine` from the npm package `goban` (Apache-2.0, the engine of
// online-go.com), behind goconform's JSON-lines engine protocol, version 1 (docs/protocol.md):
// `goconform check --engine "jsonl:node tests/engines/ogs-goban/shim.js"`.
//
// Loading: the package is one browser bundle, renderers included, and three names are read
// while it loads: `self` (the bundle's wrapper names it), `window` (a focus tracker adds
// listeners to it; without `addEventListener` it logs a stack trace to standard error and goes
// on) and `document` (a renderer reads `document.body.attachShadow`). The stubs below are the
// smallest set that loads it quietly; the engine itself touches none of them.
//
// `place(x, y, checkForKo, errorOnSuperKo, dontCheckForSuperKo, dontCheckForSelfCapture,
// isTrunkMove, removed_stones)` throws a `GobanMoveError` with a `message_id` for an illegal
// play and puts the board back. Its defaults check no ko (checkForKo is off) and only note a
// superko repetition in `board_is_repeating` without refusing it, which is why an immediate ko
// retake goes through with no arguments. The shim calls
// `place(x, y, true, true, !superko, false, false, removed)`: ko checked, a repetition refused,
// the superko search skipped under simple ko, self-capture left to `allow_self_capture`, and
// the captured stones collected in `removed`. A pass is `place(-1, -1)`.
//
// What the shim claims, and why (docs/engines.md has the results):
// - ko: simple, positional and situational. Simple: checkForKo refuses a play whose board is
//   the one before the opponent's last move, with the superko search off. Positional:
//   `superko_algorithm = "psk"`. Situational: "ssk", which compares only positions left by
//   the same player, passes included. The engine's "csk" and "ing" search exactly as "psk"
//   does, and "noresult" (Japanese) comes with `allow_superko`; none of them is another
//   word of the suite. No natural situational superko.
// - suicide: forbidden or allowed (`allow_self_capture`; the whole string is taken off).
//   There is no setting for multi-stone only.
// - reasons: the `message_id` of the error: stone_already_placed_here (occupied),
//   illegal_self_capture (suicide), illegal_ko_move (ko), illegal_board_repetition (superko).
//   Whose turn it is is not judged: the engine plays for the player it has to move and takes
//   no colour, so a move by the other colour is an error naming both.
// - captures: the stones `place` reports in `removed_stones`; the self-captured stones (which
//   it does not list) are read from the board before and after.
// - board and to-move: the engine's `board` and `player`.
// - events: plays and passes.
// - not claimed: prisoners (`black_prisoners` and `white_prisoners` count captures,
//   self-captures included, but never pass stones), phase and score (the engine's scoring
//   needs dead stones marked, which no event here carries).
//
// Set-ups: stones and handicap stones go in as the engine's `initial_state`, the first player
// as `initial_player`. That position is the root of the engine's move tree, and its ko check
// compares the second move with it: the engine always counts the set-up position as played,
// so `setup_history = "excluded"` under a superko rule, where the first retake is legal, is
// skipped. Boards up to 25x25, as the protocol sends.

"use strict";

globalThis.self = globalThis;
globalThis.window = { addEventListener() {} };
globalThis.document = { body: {} };

const { serve, engine, Skip } = require("../jsonl-shim.js");
const { GobanEngine } = require("goban");

const VERSION = require("goban/package.json").version;
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
// The engine's initial_state spells a point as two SGF letters, column then row from the top.
const SGF_LETTERS = "abcdefghijklmnopqrstuvwxy";
const ALGORITHM = { positional: "psk", situational: "ssk" };
const REASONS = {
  stone_already_placed_here: "occupied",
  illegal_self_capture: "suicide",
  illegal_ko_move: "ko",
  illegal_board_repetition: "superko",
};

// A vertex such as `D4` (rows counted from the bottom) as the engine's [x, y] (y from the top).
function toPoint(text, width, height) {
  const x = LETTERS.indexOf(text[0]);
  const row = Number(text.slice(1));
  if (x < 0 || x >= width || !Number.isInteger(row) || row < 1 || row > height) {
    throw new Error(`vertex ${text} is off the ${width}x${height} board`);
  }
  return [x, height - row];
}

const toVertex = (x, y, height) => LETTERS[x] + String(height - y);
const colourOf = (n) => (n === 1 ? "B" : "W");

function boardStones(engine) {
  const found = [];
  engine.board.forEach((row, y) =>
    row.forEach((n, x) => {
      if (n !== 0) {
        found.push([toVertex(x, y, engine.height), colourOf(n)]);
      }
    }),
  );
  return found;
}

function newEngine(rules, setup) {
  if (rules.ko === "natural-situational") {
    throw new Skip("the engine has no natural situational superko");
  }
  if (rules.suicide === "multi-stone") {
    throw new Skip("the engine forbids every self-capture or allows every one (suicide = multi-stone)");
  }
  if (rules.ko !== "simple" && setup.history === "excluded") {
    throw new Skip("the engine always counts the set-up position as played (its ko check compares the second move with it)");
  }
  const state = { black: "", white: "" };
  for (const [v, c] of setup.stones.concat(setup.handicap.map((h) => [h, "B"]))) {
    const [x, y] = toPoint(v, setup.width, setup.height);
    state[c === "B" ? "black" : "white"] += SGF_LETTERS[x] + SGF_LETTERS[y];
  }
  const first = setup.handicap.length > 0 ? "W" : setup.to_move;
  return new GobanEngine({
    width: setup.width,
    height: setup.height,
    rules: "chinese",
    initial_state: state,
    initial_player: first === "B" ? "black" : "white",
    allow_self_capture: rules.suicide === "allowed",
    superko_algorithm: ALGORITHM[rules.ko] || "psk",
  });
}

const observe = (engine) => ({ board: boardStones(engine), to_move: colourOf(engine.player) });

// One event, as the protocol's step; an Error for what the engine cannot be asked.
function play(engine, event, superko) {
  const words = event.split(" ");
  if (words.length !== 2 || (words[0] !== "B" && words[0] !== "W")) {
    throw new Error(`the shim takes plays and passes only, not \`${event}\``);
  }
  const [who, where] = words;
  const turn = colourOf(engine.player);
  if (who !== turn) {
    throw new Error(`the engine has ${turn} to move and cannot be asked for a ${who} move`);
  }
  const [x, y] = where === "pass" ? [-1, -1] : toPoint(where, engine.width, engine.height);
  const before = boardStones(engine);
  const removed = [];
  try {
    engine.place(x, y, true, true, !superko, false, false, removed);
  } catch (e) {
    const reason = e && REASONS[e.message_id];
    if (reason === undefined) {
      throw e;
    }
    return { verdict: "illegal", reason, observation: observe(engine) };
  }
  const captured = removed.map((p) => toVertex(p.x, p.y, engine.height));
  // A self-capture: the mover's stones gone from the board, the one just played included.
  const standing = new Set(boardStones(engine).map(([v, c]) => v + c));
  const selfCaptured = before.filter(([v, c]) => c === who && !standing.has(v + c)).map(([v]) => v);
  if (where !== "pass" && engine.board[y][x] === 0) {
    selfCaptured.push(where);
  }
  return { verdict: "legal", captured, self_captured: selfCaptured, observation: observe(engine) };
}

// On standard input and output when run (`node shim.js`); in process when required, as an
// object answering the protocol's requests (`engine` in ../jsonl-shim.js).
const shim = {
  name: "ogs-goban",
  version: VERSION,
  capabilities: {
    axes: { ko: ["simple", "positional", "situational"], suicide: ["forbidden", "allowed"] },
    observes: ["reasons", "captures", "board", "to-move"],
    judges: ["occupied", "suicide", "ko", "superko"],
    events: ["play", "pass"],
  },
  start: (rules, setup) => ({ engine: newEngine(rules, setup), superko: rules.ko !== "simple" }),
  observe: (game) => observe(game.engine),
  step: (game, event) => play(game.engine, event, game.superko),
};

module.exports = engine(shim);
if (require.main === module) {
  serve(shim);
}
