// Game: the reference through the package, against the suite's own expectations (every
// language-neutral vector played event by event through Game), and its API's edges.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const { Game, rulesets, scenarios, clauses, vectors, version } = require("..");

const STEP_KEYS = ["class"];
// A step's verdict in the vectors' spelling: "legal", {illegal: REASON}, {breach: REASON},
// {ruling: RULING}.
function verdictOf(step) {
  switch (step.verdict) {
    case "legal":
      return "legal";
    case "illegal":
      return { illegal: step.reason };
    case "breach":
      return { breach: step.reason };
    default:
      return { ruling: step.ruling };
  }
}
const OBSERVED = ["board", "to_move", "prisoners", "phase", "result", "score", "warnings"];
const sorted = (pairs) => [...pairs].map((p) => p.join(" ")).sort();

test("every vector of the suite, played through Game, meets its expectations", () => {
  const { index, vectors: all } = vectors();
  assert.strictEqual(all.length, index.count);
  assert.ok(all.length > 700);
  let checked = 0;
  for (const v of all) {
    const game = new Game({ rules: v.rules, setup: v.setup });
    const steps = [{ observation: game.observe() }];
    for (const e of v.events) steps.push(game.event(e));
    for (const expect of v.expect) {
      const where = `${v.id}, after ${expect.after}`;
      const step = steps[expect.after];
      for (const [key, want] of Object.entries(expect)) {
        if (key === "after") continue;
        let got;
        if (key === "note") continue;
        if (key === "verdict") got = verdictOf(step);
        else if (STEP_KEYS.includes(key)) got = step[key];
        else if (key === "captures") got = [...step.captured].sort();
        else if (key === "self_captures") got = [...step.self_captured].sort();
        else if (OBSERVED.includes(key)) got = step.observation[key];
        else assert.fail(`${where}: an expectation this test does not know: ${key}`);
        if (key === "board") {
          assert.deepStrictEqual(sorted(got), sorted(want), `${where}: ${key}`);
        } else if (key === "captures" || key === "self_captures") {
          assert.deepStrictEqual(got, [...want].sort(), `${where}: ${key}`);
        } else {
          assert.deepStrictEqual(got, want, `${where}: ${key}`);
        }
        checked += 1;
      }
    }
    game.free();
  }
  assert.ok(checked > 1000, `${checked} checks`);
});

test("a basic ko retake is refused under every ruleset, as a ko", () => {
  for (const { name } of rulesets()) {
    const game = new Game({ ruleset: name, size: 5 });
    for (const v of ["C4", "B4", "B3", "A3", "C2", "B2", "D3"]) {
      assert.strictEqual(game.play(v).verdict, "legal", `${name} ${v}`);
    }
    const take = game.play("C3");
    assert.deepStrictEqual(take.captured, ["B3"], name);
    const retake = game.play("B3");
    assert.deepStrictEqual([retake.verdict, retake.reason], ["illegal", "ko"], name);
    assert.strictEqual(retake.observation.to_move, "B", `${name}: the refusal changes nothing`);
    assert.strictEqual(game.undo(), true);
    assert.strictEqual(game.history().length, 8);
  }
});

test("rules by axis words, events in the scenario format, the count", () => {
  const game = new Game({ rules: { scoring: "area", komi: "7.5", ending: "two-passes" }, size: 3 });
  assert.strictEqual(game.rules.komi, "7.5");
  game.play("B2");
  game.pass();
  const end = game.pass();
  assert.strictEqual(end.observation.phase, "ended");
  assert.strictEqual(end.observation.result, "B+1.5");
  assert.deepStrictEqual(end.observation.score, [9, 7.5]);
  const refused = game.event("W A1");
  assert.deepStrictEqual([refused.verdict, refused.reason], ["illegal", "game-over"]);
});

test("bad input is an error that says what is wrong", () => {
  assert.throws(() => new Game({ ruleset: "no-such-rules" }), /no-such-rules/);
  assert.throws(() => new Game({ rules: { ko: "sometimes" } }), /ko/);
  assert.throws(() => new Game({ size: 40 }), /size/);
  const game = new Game({ size: 9 });
  assert.throws(() => game.play("Z99"), /Z99/);
  assert.throws(() => game.event("B nowhere"), /nowhere/);
  assert.strictEqual(game.undo(), false);
});

test("the specification and the suite", () => {
  const names = rulesets().map((r) => r.name);
  assert.ok(names.includes("aga") && names.includes("japanese-1989"), names.join(" "));
  const ids = new Set(clauses().map((c) => c.id));
  const all = scenarios();
  assert.ok(all.length > 100);
  for (const s of all) {
    assert.ok(s.toml && s.toml.includes(s.id), s.id);
    for (const c of s.clauses) assert.ok(ids.has(c), `${s.id} cites ${c}`);
  }
  assert.strictEqual(version().protocol, 1);
});
