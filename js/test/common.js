// Shared by the package's tests: the repository's paths, and skips that fail under CI.
"use strict";

const fs = require("fs");
const path = require("path");

const REPO = path.resolve(__dirname, "..", "..");
const ENGINES = path.join(REPO, "tests", "engines");
const SHIMS = ["tenuki", "ogs-goban", "sabaki-go-board", "godash"];

// A test that cannot run here (a tool or a dependency missing) says why; under CI, where
// everything must be installed, that is a failure instead.
function skipUnlessCI(t, reason) {
  if (process.env.CI || process.env.GOCONFORM_REQUIRE_JS) {
    throw new Error(`cannot run under CI: ${reason}`);
  }
  process.stderr.write(`SKIPPED: ${reason}\n`);
  t.skip(reason);
}

function shimInstalled(name) {
  return fs.existsSync(path.join(ENGINES, name, "node_modules"));
}

// The native binary: $GOCONFORM_BIN, else the release build under target/.
function nativeBinary() {
  const candidates = [
    process.env.GOCONFORM_BIN,
    process.env.CARGO_TARGET_DIR && path.join(process.env.CARGO_TARGET_DIR, "release", "goconform"),
    path.join(REPO, "target", "release", "goconform"),
  ];
  return candidates.find((c) => c && fs.existsSync(c));
}

module.exports = { REPO, ENGINES, SHIMS, skipUnlessCI, shimInstalled, nativeBinary };
