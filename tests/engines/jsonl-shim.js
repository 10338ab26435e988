// The protocol side every shim in this folder shares: goconform's JSON-lines engine protocol,
// version 1 (docs/protocol.md), around one library. A shim gives its name, version and
// capabilities and three functions; everything else (the handshake, `run` with its set-up,
// steps, skips and errors, `bye`, and one reply line per request line) is here.
//
//   serve({ name, version, capabilities, start, observe, step })
//   engine({ name, version, capabilities, start, observe, step })
//
// serve answers on standard input and output; engine gives the same answers in process, as an
// object whose answer(request) returns the reply a shim would write for that request (the
// shape goconform's npm package takes: check(engine) in js/), with the shim itself beside it
// (`shim`: its start and step, which js/test/figures.test.js times).
//
// - start(rules, setup): a game at the set-up, or throws `Skip` for what the library cannot
//   take (the run is answered `skipped`);
// - observe(game): the observation of the game as it stands;
// - step(game, event): the step for one event (`verdict`, ..., `observation`), or throws for
//   what the library cannot be asked (the run is answered `error`, naming the event).

"use strict";

const readline = require("readline");

const PROTOCOL = 1;

// The protocol's optional extensions this side speaks: `board-rows`, each board as rows of
// cells where the request asks for it (docs/protocol.md, "Extensions"), made here from the
// pairs the shim observes, so that no shim need know of it.
const EXTENSIONS = ["board-rows"];
const COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

// The board of `observation` as rows, the top row first, if the request asks for rows. A
// board that is not one of stones on the set-up's points stays as pairs (the harness takes
// pairs either way), so that the harness, not this conversion, says what is wrong with it.
function inForm(request, observation) {
  if (request.board_form !== "rows" || !observation || !Array.isArray(observation.board)) {
    return observation;
  }
  const { width, height } = request.setup;
  const cells = Array.from({ length: height }, () => Array(width).fill("."));
  for (const stone of observation.board) {
    const [vertex, colour] = Array.isArray(stone) && stone.length === 2 ? stone : [];
    const parts = typeof vertex === "string" ? /^([A-HJ-Z])([1-9][0-9]?)$/.exec(vertex) : null;
    const column = parts ? COLUMNS.indexOf(parts[1]) : -1;
    const row = parts ? Number(parts[2]) : 0;
    if (column < 0 || column >= width || row < 1 || row > height
        || (colour !== "B" && colour !== "W") || cells[height - row][column] !== ".") {
      return observation;
    }
    cells[height - row][column] = colour;
  }
  const { board, ...rest } = observation;
  return { rows: cells.map((line) => line.join("")), ...rest };
}

class Skip extends Error {}

function run(shim, request) {
  let game;
  try {
    game = shim.start(request.rules, request.setup);
  } catch (e) {
    if (e instanceof Skip) {
      return { type: "skipped", id: request.id, reason: e.message };
    }
    throw e;
  }
  const initial = inForm(request, shim.observe(game));
  const steps = [];
  for (const [k, event] of request.events.entries()) {
    try {
      const step = shim.step(game, event);
      steps.push({ ...step, observation: inForm(request, step.observation) });
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

function answer(shim, request) {
  switch (request.type) {
    case "hello":
      return {
        type: "hello",
        protocol: PROTOCOL,
        engine: { name: shim.name, version: shim.version },
        capabilities: shim.capabilities,
        extensions: EXTENSIONS,
      };
    case "run":
      return run(shim, request);
    default:
      throw new Error(`unknown request type \`${request.type}\``);
  }
}

// The reply to one request, whatever the shim throws: an `error` naming the request's id.
function safeAnswer(shim, request) {
  try {
    return answer(shim, request);
  } catch (e) {
    const id = request && typeof request.id === "string" ? request.id : null;
    return { type: "error", id, message: String(e && e.message) };
  }
}

function engine(shim) {
  return { answer: (request) => safeAnswer(shim, request), shim };
}

function serve(shim) {
  const input = readline.createInterface({ input: process.stdin, terminal: false });
  input.on("line", (line) => {
    let request = null;
    let reply;
    try {
      request = JSON.parse(line);
    } catch (e) {
      reply = { type: "error", id: null, message: String(e && e.message) };
    }
    if (request !== null) {
      if (request.type === "bye") {
        process.exit(0);
      }
      reply = safeAnswer(shim, request);
    }
    process.stdout.write(JSON.stringify(reply) + "\n");
  });
  input.on("close", () => process.exit(0));
}

module.exports = { serve, engine, Skip };
