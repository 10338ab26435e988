#!/usr/bin/env node
// tenuki (the npm package, MIT) behind goconform's JSON-lines engine protocol, version 1
// (docs/protocol.md): `goconform check --engine "jsonl:node tests/engines/tenuki/shim.js"`.
//
// What the shim claims, and why (docs/engines.md has the results):
// - ko: simple, positional, situational and natural situational superko, the four values
//   tenuki's `koRule` has (natural-situational-basic-ko is not one: it is projected); it
//   compares whole boards against every earlier state it keeps.
// - suicide: forbidden only. tenuki refuses every self-capture and has no option for it.
// - reasons: tenuki's `playAt` only says true or false, so the shim asks tenuki's own
//   ruleset why: an occupied point, `_wouldBeSuicide`, else a repetition, which is `ko` when
//   the point is tenuki's simple-ko point and `superko` otherwise.
// - captures and board: read from tenuki's board state before and after each play.
// - to-move: tenuki's `currentPlayer()`.
// - events: plays and passes. tenuki plays for the side whose turn it is, so an event by the
//   other side is an error naming both colours. A pass after two passes is refused by tenuki
//   (the game is over for it); the shim reports that as `game-over`.
// - not claimed: prisoners (tenuki keeps pass stones only under its equivalence scoring),
//   phase, score (dead stones need marking, which no event here carries).
//
// Set-ups: tenuki starts from an empty board or its own fixed handicap points. The shim
// builds the set-up position with tenuki's own board-state constructor (the way tenuki builds
// a handicap position). With `history = "played"` that state is put into tenuki's list of
// states, created by the player not to move, so that every superko rule sees it; with
// `"excluded"` it is tenuki's initial state, which tenuki keeps out of its repetition checks.
// Boards must be square, at most 19x19 (tenuki's limit): others are skipped.

"use strict";

const { serve, engine, Skip } = require("../jsonl-shim.js");
const Game = require("tenuki").Game;
const BoardState = require("tenuki/lib/board-state").default;
const Intersection = require("tenuki/lib/intersection").default;

const VERSION = require("tenuki/package.json").version;
const KO_RULES = {
  simple: "simple",
  positional: "positional-superko",
  situational: "situational-superko",
  "natural-situational": "natural-situational-superko",
};
const OBSERVES = ["reasons", "captures", "board", "to-move"];

const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

function parseVertex(text, size) {
  const col = LETTERS.indexOf(text[0]);
  const row = Number(text.slice(1));
  if (col < 0 || col >= size || !(row >= 1 && row <= size)) {
    throw new Error(`vertex ${text} is off the ${size}x${size} board`);
  }
  return { y: size - row, x: col };
}

function vertex(y, x, size) {
  return LETTERS[x] + String(size - y);
}

const colourName = (c) => (c === "B" ? "black" : "white");
const colourLetter = (name) => (name === "black" ? "B" : "W");

// The stones on the board, as [vertex, colour] pairs.
function stones(state) {
  const size = state.boardSize;
  return state.intersections
    .filter((i) => !i.isEmpty())
    .map((i) => [vertex(i.y, i.x, size), colourLetter(i.value)]);
}

// A tenuki game at the set-up of a run.
function start(rules, setup) {
  if (setup.width !== setup.height) {
    throw new Skip(`tenuki boards are square, and this one is ${setup.width}x${setup.height}`);
  }
  const size = setup.width;
  if (size > 19) {
    throw new Skip(`tenuki plays on boards up to 19x19, and this one is ${size}x${size}`);
  }
  if (rules.suicide !== "forbidden") {
    throw new Skip(`tenuki always forbids suicide (suicide = ${rules.suicide})`);
  }
  const game = new Game({ boardSize: size, koRule: KO_RULES[rules.ko] });
  const toMove = setup.handicap.length > 0 ? "W" : setup.to_move;
  const placed = setup.stones.concat(setup.handicap.map((v) => [v, "B"]));
  if (placed.length === 0 && toMove === "B") {
    return game;
  }
  const points = [];
  for (let i = 0; i < size * size; i++) {
    points.push(new Intersection(Math.floor(i / size), i % size));
  }
  for (const [v, c] of placed) {
    const p = parseVertex(v, size);
    points[p.y * size + p.x] = new Intersection(p.y, p.x, colourName(c));
  }
  const state = new BoardState({
    moveNumber: 0,
    // The colour of a state is the player who made it: the one not to move.
    color: toMove === "B" ? "white" : "black",
    pass: false,
    intersections: Object.freeze(points),
    blackStonesCaptured: 0,
    whiteStonesCaptured: 0,
    blackPassStones: 0,
    whitePassStones: 0,
    capturedPositions: [],
    koPoint: null,
    boardSize: size,
  });
  if (setup.history === "played") {
    game._moves.push(state);
  } else {
    game._initialState = state;
  }
  return game;
}

// Why tenuki refuses a play at p, in the suite's words.
function reason(game, p) {
  const state = game.currentState();
  if (!state.intersectionAt(p.y, p.x).isEmpty()) {
    return "occupied";
  }
  if (game._ruleset._wouldBeSuicide(p.y, p.x, state)) {
    return "suicide";
  }
  const ko = state._simpleKoPoint();
  return ko && ko.y === p.y && ko.x === p.x ? "ko" : "superko";
}

function observation(game) {
  return {
    board: stones(game.currentState()),
    to_move: colourLetter(game.currentPlayer()),
  };
}

// One event: the step the protocol wants, or an Error for what tenuki cannot be asked.
function step(game, event) {
  const [who, what] = event.split(" ");
  if ((who !== "B" && who !== "W") || what === undefined || event.split(" ").length !== 2) {
    throw new Error(`the shim takes plays and passes only, not \`${event}\``);
  }
  const turn = colourLetter(game.currentPlayer());
  if (who !== turn) {
    throw new Error(`tenuki has ${turn} to move and cannot be asked for a ${who} move`);
  }
  if (what === "pass") {
    if (!game.pass({ render: false })) {
      return { verdict: "illegal", reason: "game-over", observation: observation(game) };
    }
    return { verdict: "legal", captured: [], self_captured: [], observation: observation(game) };
  }
  const size = game.currentState().boardSize;
  const p = parseVertex(what, size);
  const before = stones(game.currentState());
  if (!game.playAt(p.y, p.x, { render: false })) {
    return { verdict: "illegal", reason: reason(game, p), observation: observation(game) };
  }
  const after = new Set(stones(game.currentState()).map(([v, c]) => v + c));
  const captured = before.filter(([v, c]) => c !== who && !after.has(v + c)).map(([v]) => v);
  return { verdict: "legal", captured, self_captured: [], observation: observation(game) };
}

// On standard input and output when run (`node shim.js`); in process when required, as an
// object answering the protocol's requests (`engine` in ../jsonl-shim.js).
const shim = {
  name: "tenuki",
  version: VERSION,
  capabilities: {
    axes: {
      ko: ["simple", "positional", "situational", "natural-situational"],
      suicide: ["forbidden"],
    },
    observes: OBSERVES,
    judges: ["occupied", "suicide", "ko", "superko"],
    events: ["play", "pass"],
  },
  start,
  observe: observation,
  step,
};

module.exports = engine(shim);
if (require.main === module) {
  serve(shim);
}
