// Runs goconform's test vectors (`goconform export --vectors DIR`, docs/vectors.md) against
// Sabaki's board (@sabaki/go-board, MIT, installed by tests/engines/sabaki-go-board) in this
// process, with Node's own test runner, as an engine author would in their own test suite:
//
//   GOCONFORM_VECTORS=DIR node --test tests/vectors/
//
// One test a vector: skipped when the engine cannot play it (a referee's record, an event kind
// other than plays and passes, rules other than simple ko, suicide forbidden or allowed, and
// no pass stones, or nothing it shows that the vector checks). The library judges occupied
// points, suicide and ko, and shows reasons, captures, the board and prisoners; an event the
// vector expects refused for another reason (out of turn, play stopped) is not put to it.
// With GOCONFORM_VECTORS_OUT=FILE each outcome is also written there as a JSON line.
"use strict";

const { test } = require("node:test");
const assert = require("node:assert");
const fs = require("node:fs");
const path = require("node:path");
const GoBoard = require("../engines/sabaki-go-board/node_modules/@sabaki/go-board");

const DIR = process.env.GOCONFORM_VECTORS;
const OUT = process.env.GOCONFORM_VECTORS_OUT;
const OBSERVES = new Set(["reasons", "captures", "board", "prisoners"]);
const JUDGES = new Set(["occupied", "suicide", "ko"]);
const NEEDS = { captures: "captures", self_captures: "captures", board: "board",
  to_move: "to-move", prisoners: "prisoners", phase: "phase", result: "score",
  score: "score", class: "procedures", warnings: "procedures" };
const REASONS = { "Overwrite prevented": "occupied", "Ko prevented": "ko",
  "Suicide prevented": "suicide" };
const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

const at = (v, b) => [LETTERS.indexOf(v[0]), b.height - Number(v.slice(1))];
const name = ([x, y], b) => LETTERS[x] + String(b.height - y);
const sign = (c) => (c === "B" ? 1 : -1);

function stones(b) {
  const out = [];
  for (let y = 0; y < b.height; y++) {
    for (let x = 0; x < b.width; x++) {
      if (b.get([x, y]) !== 0) out.push([name([x, y], b), b.get([x, y]) > 0 ? "B" : "W"]);
    }
  }
  return out.sort((p, q) => (p[0] < q[0] ? -1 : 1));
}

// Why the vector cannot be run, or null.
function skipReason(v) {
  if (v.record) return "a referee's record";
  if (v.event_kinds.some((k) => k !== "play" && k !== "pass")) return "events it does not take";
  const r = v.rules;
  if (r.ko !== "simple" || r.suicide === "multi-stone" || r["pass-stones"] !== "off") {
    return `rules it lacks (ko=${r.ko} suicide=${r.suicide} pass-stones=${r["pass-stones"]})`;
  }
  const shown = v.expect.some((e) => Object.keys(e).some((k) =>
    k === "verdict" ? e.verdict === "legal" || "illegal" in e.verdict : OBSERVES.has(NEEDS[k])));
  return shown ? null : "it shows nothing the vector checks";
}

function play(v) {
  const options = { preventOverwrite: true, preventKo: true,
    preventSuicide: v.rules.suicide === "forbidden" };
  let board = GoBoard.fromDimensions(v.setup.width, v.setup.height);
  for (const [p, c] of v.setup.stones.concat(v.setup.handicap.map((p) => [p, "B"]))) {
    board.set(at(p, board), sign(c));
  }
  const expect = new Map(v.expect.map((e) => [e.after, e]));
  const check = (after, seen) => {
    for (const [key, want] of Object.entries(expect.get(after) || {})) {
      if (key === "after" || key === "note") continue;
      if (key === "verdict") {
        if (seen.verdict === undefined || want.breach || want.ruling) continue;
        assert.deepStrictEqual(seen.verdict, want, `after ${after}: verdict`);
      } else if (OBSERVES.has(NEEDS[key])) {
        const got = key.endsWith("captures") ? [...seen[key]].sort() : seen[key];
        assert.deepStrictEqual(got, want, `after ${after}: ${key}`);
      }
    }
  };
  const observe = (b) => ({ board: stones(b), prisoners: [b.getCaptures(1), b.getCaptures(-1)] });
  check(0, observe(board));
  v.events.forEach((event, k) => {
    const [who, what] = event.split(" ");
    const want = (expect.get(k + 1) || {}).verdict;
    if (want && want.illegal && !JUDGES.has(want.illegal)) {
      check(k + 1, { ...observe(board), verdict: undefined });
      return;
    }
    const before = board;
    const point = what === "pass" ? [-1, -1] : at(what, board);
    try {
      board = board.makeMove(sign(who), point, options);
    } catch (e) {
      check(k + 1, { ...observe(board), verdict: { illegal: REASONS[e.message] || e.message } });
      return;
    }
    const kept = new Set(stones(board).map(([p, c]) => p + c));
    const gone = stones(before).filter(([p, c]) => !kept.has(p + c));
    const self = gone.filter(([, c]) => c === who).map(([p]) => p);
    if (what !== "pass" && board.get(point) === 0) self.push(what);
    const captures = gone.filter(([, c]) => c !== who).map(([p]) => p);
    check(k + 1, { ...observe(board), verdict: "legal", captures, self_captures: self });
  });
}

const index = DIR ? JSON.parse(fs.readFileSync(path.join(DIR, "index.json"), "utf8")) : null;
if (index && index.format !== 1) throw new Error(`vector format ${index.format}: this reads 1`);
for (const entry of index ? index.vectors : []) {
  const v = JSON.parse(fs.readFileSync(path.join(DIR, entry.file), "utf8"));
  test(entry.id, (t) => {
    const why = skipReason(v);
    let outcome = why ? "skip" : "pass";
    try {
      if (why) t.skip(why);
      else play(v);
    } catch (e) {
      outcome = "fail";
      throw e;
    } finally {
      if (OUT) fs.appendFileSync(OUT, JSON.stringify({ id: entry.id, outcome }) + "\n");
    }
  });
}
test("the vectors folder is given", () => assert.ok(index, "set GOCONFORM_VECTORS=DIR"));
