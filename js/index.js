// goconform in JavaScript: the reference executor, the specification and the suite, compiled
// from the Rust library to WebAssembly (src/wasm.rs); this file only turns the JSON text the
// module answers with into objects. Types: index.d.ts.
"use strict";

const raw = require("./pkg/goconform.js");

/** A game judged by the reference: every event answered with the JSON-lines protocol's step. */
class Game {
  /**
   * @param {object} [options] `ruleset` (a name, see rulesets()), `rules` (axis words laid over
   *   it), and `size` (or `width` and `height`) or `setup` (the protocol's set-up).
   */
  constructor(options = {}) {
    this._raw = new raw.Game(JSON.stringify(options));
  }

  /** The player to move plays at `vertex` ("D4"). */
  play(vertex) {
    return JSON.parse(this._raw.play(vertex));
  }

  /** The player to move passes. */
  pass() {
    return JSON.parse(this._raw.pass());
  }

  /** Any event in the scenario format's text: "B D4", "W pass", "agree C3", "dispute", ... */
  event(text) {
    return JSON.parse(this._raw.event(text));
  }

  /** Takes back the last event; false when there was none. */
  undo() {
    return this._raw.undo();
  }

  /** What the game shows now (board, to_move, prisoners, phase, result, score, warnings). */
  observe() {
    return JSON.parse(this._raw.observe());
  }

  /** Every event so far with its verdict. */
  history() {
    return JSON.parse(this._raw.history());
  }

  /** The rules: every axis with its word. */
  get rules() {
    return JSON.parse(this._raw.rules());
  }

  /** The set-up, in the protocol's form. */
  get setup() {
    return JSON.parse(this._raw.setup());
  }

  /** Frees the game's memory now rather than when it is collected. */
  free() {
    this._raw.free();
  }
}

/**
 * Runs the embedded suite against `engine`, an object whose `answer(request)` returns the
 * protocol's reply to a request (the objects a JSON-lines shim reads and writes).
 */
function check(engine, options = {}) {
  return JSON.parse(raw.check(engine, JSON.stringify(options)));
}

module.exports = {
  Game,
  check,
  rulesets: () => JSON.parse(raw.rulesets()),
  clauses: () => JSON.parse(raw.clauses()),
  scenarios: () => JSON.parse(raw.scenarios()),
  vectors: () => JSON.parse(raw.vectors()),
  version: () => JSON.parse(raw.version()),
};
