// check() in process against the npm engines shimmed under tests/engines/, whose stdio shims
// `goconform compare` runs in CI: the in-process run must give what compare recorded for
// each (docs/engines.md's summary, generated and checked by `compare --check`, and the
// engine's expectations file), and, where the native binary is built, exactly what
// `goconform check --engine jsonl:...` gives trial for trial, tally for tally.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");
const goconform = require("..");
const { REPO, ENGINES, SHIMS, skipUnlessCI, shimInstalled, nativeBinary } = require("./common.js");

// The summary row of an engine in docs/engines.md: "| tenuki 0.3.1 | ... | 384 passed, 353
// not applicable |", read into counts.
function recorded(name, version) {
  const text = fs.readFileSync(path.join(REPO, "docs", "engines.md"), "utf8");
  const row = text.split("\n").find((l) => l.startsWith(`| ${name} ${version} |`));
  assert.ok(row, `docs/engines.md has no summary row for ${name} ${version}`);
  const cells = row.split("|").map((c) => c.trim());
  const counts = { passed: 0, "expected failures": 0, "not applicable": 0, failed: 0 };
  for (const part of cells[cells.length - 2].split(",")) {
    const m = part.trim().match(/^(\d+) (.+)$/);
    assert.ok(m, `unreadable summary cell: ${part}`);
    counts[m[2]] = Number(m[1]);
  }
  return counts;
}

function expectationsOf(name) {
  const file = path.join(ENGINES, `${name}.expectations.toml`);
  return fs.existsSync(file) ? { file, text: fs.readFileSync(file, "utf8") } : null;
}

// The (scenario, run) pairs an expectations file lists.
function listed(text) {
  const pairs = [];
  let scenario = null;
  for (const line of text.split("\n")) {
    let m = line.match(/^scenario = "(.*)"$/);
    if (m) scenario = m[1];
    m = line.match(/^run = "(.*)"$/);
    if (m) pairs.push(`${scenario} ${m[1]}`);
  }
  return pairs.sort();
}

const outcomes = (report) =>
  report.filter((l) => l.type === "trial").map((l) => `${l.scenario} ${l.run} ${l.outcome}`);

for (const name of SHIMS) {
  test(`check() in process against ${name} gives what compare records`, (t) => {
    if (!shimInstalled(name)) {
      return skipUnlessCI(t, `tests/engines/${name} has no node_modules (npm ci there)`);
    }
    const engine = require(path.join(ENGINES, name, "shim.js"));
    const expectations = expectationsOf(name);
    const result = goconform.check(engine, { expectations: expectations && expectations.text });
    assert.strictEqual(result.engine.name, name);
    const board = result.board;
    // Nothing failing, nothing erroring, no listed failure that passes.
    assert.deepStrictEqual(
      [board.fail, board.error, board.timeout, board.harness_error, board.unexpected_pass],
      [0, 0, 0, 0, 0],
      JSON.stringify(board),
    );
    const docs = recorded(name, result.engine.version);
    assert.deepStrictEqual(
      {
        passed: board.pass,
        "expected failures": board.expected_failure,
        "not applicable": board.not_applicable,
      },
      {
        passed: docs.passed,
        "expected failures": docs["expected failures"],
        "not applicable": docs["not applicable"],
      },
    );
    // The failures are exactly the ones listed.
    const failing = result.report
      .filter((l) => l.type === "trial" && l.outcome === "expected-failure")
      .map((l) => `${l.scenario} ${l.run}`)
      .sort();
    assert.deepStrictEqual(failing, expectations ? listed(expectations.text) : []);
    // check's tally adds the tournament scenarios, each not applicable to an engine.
    const tournament = result.report.filter((l) => l.type === "tournament").length;
    assert.ok(tournament > 0);
    assert.strictEqual(result.tally.not_applicable, board.not_applicable + tournament);
    const footer = result.report[result.report.length - 1];
    assert.strictEqual(footer.type, "footer");
    assert.strictEqual(footer.pass, result.tally.pass);
  });

  test(`check() in process against ${name} equals goconform check through the stdio shim`, (t) => {
    if (!shimInstalled(name)) {
      return skipUnlessCI(t, `tests/engines/${name} has no node_modules (npm ci there)`);
    }
    const binary = nativeBinary();
    if (!binary) {
      return skipUnlessCI(t, "no native goconform binary (set GOCONFORM_BIN or cargo build --release)");
    }
    const expectations = expectationsOf(name);
    const args = ["check", "--engine", `jsonl:node ${path.join(ENGINES, name, "shim.js")}`, "--format", "jsonl"];
    if (expectations) args.push("--expectations", expectations.file);
    let out;
    try {
      out = execFileSync(binary, args, { cwd: REPO, encoding: "utf8", maxBuffer: 1 << 28 });
    } catch (e) {
      out = e.stdout; // a failing run exits 1 and still writes its report
    }
    const native = out.trim().split("\n").map((l) => JSON.parse(l));
    const result = goconform.check(require(path.join(ENGINES, name, "shim.js")), {
      expectations: expectations && expectations.text,
    });
    assert.deepStrictEqual(outcomes(result.report), outcomes(native));
    const footer = (r) => {
      const f = { ...r[r.length - 1] };
      return f;
    };
    assert.deepStrictEqual(footer(result.report), footer(native));
  });
}

// check() replays each trial through the library's own replaying harness, as the stdio path
// does: an engine that answers the same events differently the second time is a protocol
// error naming the event and what changed, not a pass or a flaky failure.
test("check() in process reports an engine that answers a replayed run differently", (t) => {
  const name = "sabaki-go-board";
  if (!shimInstalled(name)) {
    return skipUnlessCI(t, `tests/engines/${name} has no node_modules (npm ci there)`);
  }
  const honest = require(path.join(ENGINES, name, "shim.js"));
  // Honest for the first event of a run; from the second event on, it claims the first
  // move was on an occupied point (a reply the schema allows).
  const fickle = {
    answer(request) {
      const reply = honest.answer(request);
      if (request.type === "run" && reply.type === "result" && reply.steps.length >= 2) {
        const { captured, self_captured, ...rest } = reply.steps[0];
        reply.steps[0] = { ...rest, verdict: "illegal", reason: "occupied" };
      }
      return reply;
    },
  };
  const result = goconform.check(fickle, { id: "basic-ko", rules: "aga" });
  const trials = result.report.filter((l) => l.type === "trial");
  assert.ok(trials.length > 0);
  for (const trial of trials) {
    assert.strictEqual(trial.outcome, "error", JSON.stringify(trial));
    const text = JSON.stringify(trial);
    assert.match(text, /answered differently for the same events at event 1/);
    assert.match(text, /verdict `legal[^`]*`, now `illegal: occupied`/);
  }
});
