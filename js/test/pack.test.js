// The package as a user gets it: `npm pack`, installed from the tarball into a scratch
// project, then each example of js/README.md run there as it is written.
"use strict";

const test = require("node:test");
const assert = require("node:assert");
const fs = require("fs");
const os = require("os");
const path = require("path");
const { execFileSync } = require("child_process");

const JS = path.resolve(__dirname, "..");

test("the packed tarball installs and runs the README's examples", () => {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "goconform-npm-"));
  try {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", scratch], {
      cwd: JS,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop();
    const tarball = path.join(scratch, packed);
    assert.ok(fs.existsSync(tarball), tarball);
    const project = path.join(scratch, "project");
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, "package.json"), '{"name":"scratch","private":true}\n');
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--offline", tarball], {
      cwd: project,
      stdio: "pipe",
    });
    const installed = path.join(project, "node_modules", "goconform");
    for (const file of ["index.js", "index.d.ts", "pkg/goconform.js", "pkg/goconform_bg.wasm"]) {
      assert.ok(fs.existsSync(path.join(installed, file)), `the package lacks ${file}`);
    }
    const readme = fs.readFileSync(path.join(JS, "README.md"), "utf8");
    const examples = [...readme.matchAll(/```js\n([\s\S]*?)```/g)].map((m) => m[1]);
    assert.ok(examples.length >= 2, "the README has its examples");
    // The first is the ten-line example.
    assert.ok(examples[0].trim().split("\n").length <= 10, "the first example has ten lines");
    examples.forEach((code, k) => {
      const file = path.join(project, `example${k}.js`);
      fs.writeFileSync(file, code);
      const out = execFileSync("node", [file], { cwd: project, encoding: "utf8" });
      assert.ok(out.length > 0, `example ${k} printed nothing`);
    });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
});
