#!/usr/bin/env node
// OGS's rules engine, `GobanEngine` from the npm package `goban` (Apache-2.0), the engine
// behind online-go.com, behind goconform's JSON-lines engine protocol, version 1
// (docs/protocol.md): `goconform check --engine "jsonl:node tests/engines/ogs-goban/shim.js"`.
//
// Loading: the package is built for browsers; its renderers touch `self`, `window` and
// `document` when the module loads. The stubs below give them inert objects; the engine
// itself uses none of them.
//
// `place(x, y, checkForKo, errorOnSuperKo, dontCheckForSuperKo, dontCheckForSelfCapture)`:
// with its defaults it checks neither ko (checkForKo is off) nor superko as an error (a
// repetition only sets `board_is_repeating`), which is why an immediate ko retake goes
// through. The shim asks for both checks: `place(x, y, true, true, !superko, false)`.
//
// What the shim claims, and why (docs/engines.md has the results):
// - ko: simple (checkForKo: the play may not restore the position before the opponent's last
//   move), positional (superko_algorithm "psk") and situational ("ssk": only earlier
//   positions made by the same player, passes being moves). "csk" and "noresult" have no
//   word of the suite; no natural situational superko.
// - suicide: forbidden, or allowed (`allow_self_capture`: the string is taken off). Not
//   multi-stone.
// - reasons: the engine's `message_id`: stone_already_placed_here (occupied),
//   illegal_self_capture (suicide), illegal_ko_move (ko), illegal_board_repetition (superko).
// - captures and board: the board before and after each move, as the engine holds it.
// - to-move: the engine's `player`. It plays for the player to move and takes no colour, so
//   a move by the other colour is an error naming both, and whose turn it is is not judged.
// - events: plays and passes (`place(-1, -1)`).
// - not claimed: prisoners (no pass stones), phase and score (the engine's scoring needs
//   dead stones marked, which no event here carries).
//
// Set-ups: stones and handicap go in as the engine's `initial_state`, the first player as
// `initial_player`. The initial state is the root of the engine's move tree, which its
// superko search treats as an earlier position: `setup_history = "excluded"` under a superko
// rule is skipped.

"use strict";

const noop = () => {};
const element = () => ({
  getContext: () => null,
  style: {},
  addEventListener: noop,
  removeEventListener: noop,
  appendChild: noop,
  setAttribute: noop,
  classList: { add: noop, remove: noop },
});
globalThis.self = globalThis;
globalThis.window = globalThis;
globalThis.addEventListener = noop;
globalThis.removeEventListener = noop;
globalThis.document = {
  body: element(),
  createElement: element,
  createElementNS: element,
  addEventListener: noop,
  removeEventListener: noop,
  hasFocus: () => false,
};

const readline = require("readline");
const { GobanEngine } = require("goban/build/goban.js");

const PROTOCOL = 1;
const VERSION = require("goban/package.json").version;
const OBSERVES = ["reasons", "captures", "board", "to-move"];
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
const SGF = "abcdefghijklmnopqrstuvwxyz";
const SUPERKO = { positional: "psk", situational: "ssk" };
const REASONS = {
  stone_already_placed_here: "occupied",
  illegal_self_capture: "suicide",
  illegal_ko_move: "ko",
  illegal_board_repetition: "superko",
};

// goconform's vertex (`D4`, rows from the bottom) as the engine's x and y (rows from the top).
function parseVertex(text, width, height) {
  const x = LETTERS.indexOf(text[0]);
  const row = Number(text.slice(1));
  if (x < 0 || x >= width || !(row >= 1 && row <= height)) {
    throw new Error(`vertex ${text} is off the ${width}x${height} board`);
  }
  return [x, height - row];
}

const colour = (n) => (n === 1 ? "B" : "W");

function stones(engine) {
  const out = [];
  for (let y = 0; y < engine.height; y++) {
    for (let x = 0; x < engine.width; x++) {
      const n = engine.board[y][x];
      if (n !== 0) {
        out.push([LETTERS[x] + String(engine.height - y), colour(n)]);
      }
    }
  }
  return out;
}

class Skip extends Error {}

function start(rules, setup) {
  if (rules.ko === "natural-situational") {
    throw new Skip("the engine has no natural situational superko");
  }
  if (rules.suicide === "multi-stone") {
    throw new Skip("the engine allows every self-capture or none (suicide = multi-stone)");
  }
  if (rules.ko !== "simple" && setup.history === "excluded") {
    throw new Skip("the engine's superko search always holds the initial position");
  }
  if (setup.width > 25 || setup.height > 25) {
    throw new Skip("boards up to 25x25");
  }
  const initial = { black: "", white: "" };
  for (const [v, c] of setup.stones.concat(setup.handicap.map((v) => [v, "B"]))) {
    const [x, y] = parseVertex(v, setup.width, setup.height);
    initial[c === "B" ? "black" : "white"] += SGF[x] + SGF[y];
  }
  const toMove = setup.handicap.length > 0 ? "W" : setup.to_move;
  return new GobanEngine({
    width: setup.width,
    height: setup.height,
    rules: "chinese",
    initial_state: initial,
    initial_player: toMove === "B" ? "black" : "white",
    allow_self_capture: rules.suicide === "allowed",
    superko_algorithm: SUPERKO[rules.ko] || "psk",
    throw_all_errors: true,
  });
}

function observation(engine) {
  return { board: stones(engine), to_move: colour(engine.player) };
}

function step(engine, event, superko) {
  const parts = event.split(" ");
  const [who, what] = parts;
  if ((who !== "B" && who !== "W") || parts.length !== 2) {
    throw new Error(`the shim takes plays and passes only, not \`${event}\``);
  }
  if (who !== colour(engine.player)) {
    throw new Error(`the engine has ${colour(engine.player)} to move and cannot be asked for a ${who} move`);
  }
  const before = stones(engine);
  const [x, y] = what === "pass" ? [-1, -1] : parseVertex(what, engine.width, engine.height);
  try {
    engine.place(x, y, true, true, !superko, false);
  } catch (e) {
    const reason = REASONS[e && e.message_id];
    if (reason === undefined) {
      throw e;
    }
    return { verdict: "illegal", reason, observation: observation(engine) };
  }
  const after = stones(engine);
  const kept = new Set(after.map(([v, c]) => v + c));
  const gone = before.filter(([v, c]) => !kept.has(v + c));
  const selfCaptured = gone.filter(([, c]) => c === who).map(([v]) => v);
  // A self-capture takes the played stone off too, which the board before never held.
  if (what !== "pass" && engine.board[y][x] === 0) {
    selfCaptured.push(what);
  }
  return {
    verdict: "legal",
    captured: gone.filter(([, c]) => c !== who).map(([v]) => v),
    self_captured: selfCaptured,
    observation: observation(engine),
  };
}

function answer(request) {
  switch (request.type) {
    case "hello":
      return {
        type: "hello",
        protocol: PROTOCOL,
        engine: { name: "ogs-goban", version: VERSION },
        capabilities: {
          axes: {
            ko: ["simple", "positional", "situational"],
            suicide: ["forbidden", "allowed"],
          },
          observes: OBSERVES,
          judges: ["occupied", "suicide", "ko", "superko"],
          events: ["play", "pass"],
        },
      };
    case "run": {
      let engine;
      try {
        engine = start(request.rules, request.setup);
      } catch (e) {
        if (e instanceof Skip) {
          return { type: "skipped", id: request.id, reason: e.message };
        }
        throw e;
      }
      const superko = request.rules.ko !== "simple";
      const initial = observation(engine);
      const steps = [];
      for (const [k, event] of request.events.entries()) {
        try {
          steps.push(step(engine, event, superko));
        } catch (e) {
          return {
            type: "error",
            id: request.id,
            message: String(e && e.message),
            context: { event: k + 1, text: event },
          };
        }
      }
      return { type: "result", id: request.id, initial, steps };
    }
    default:
      throw new Error(`unknown request type \`${request.type}\``);
  }
}

const input = readline.createInterface({ input: process.stdin, terminal: false });
input.on("line", (line) => {
  let request = null;
  let reply;
  try {
    request = JSON.parse(line);
    if (request.type === "bye") {
      process.exit(0);
    }
    reply = answer(request);
  } catch (e) {
    reply = { type: "error", id: request && request.id ? request.id : null, message: String(e && e.message) };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
});
input.on("close", () => process.exit(0));
