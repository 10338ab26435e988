#!/usr/bin/env node
// Opens every page of a goconform rule book in headless Chromium and checks what a reader
// would see: each scenario page draws a diagram (really rendered, not only present in the
// markup) for each checked event it is told of, every link and anchor resolves, nothing is
// wider than the window at 1280 px, the search finds things, and no script fails. Takes
// screenshots of a few pages at two widths.
//
//   node check-book.js BOOK_DIR MANIFEST.json SHOTS_DIR
//
// MANIFEST.json: {"scenarios": {"<id>": [0, 1, 2, ...]}, "shots": ["scenarios/basic-ko.html", ...]}
// Prints one JSON object on stdout: counts and the list of problems (empty when all is well).
// The browser is $CHROMIUM, else /usr/bin/chromium.
"use strict";

const fs = require("fs");
const path = require("path");
const { pathToFileURL, fileURLToPath } = require("url");
const { chromium } = require("playwright-core");

const WIDE = 1280;
const NARROW = 420;

function htmlFiles(dir, prefix = "") {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${entry.name}` : entry.name;
    if (entry.isDirectory()) out.push(...htmlFiles(path.join(dir, entry.name), rel));
    else if (entry.name.endsWith(".html")) out.push(rel);
  }
  return out.sort();
}

async function main() {
  const [bookDir, manifestPath, shotsDir] = process.argv.slice(2);
  if (!bookDir || !manifestPath || !shotsDir) {
    throw new Error("usage: check-book.js BOOK_DIR MANIFEST.json SHOTS_DIR");
  }
  const book = path.resolve(bookDir);
  const manifest = JSON.parse(fs.readFileSync(manifestPath, "utf8"));
  fs.mkdirSync(shotsDir, { recursive: true });

  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: [
      "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
  const problems = [];
  const ids = new Map(); // page (relative path) -> Set of element ids
  const links = []; // [from page, href as written, resolved absolute URL]
  let diagrams = 0;
  let pages = 0;
  const large = []; // the widths of 19x19 diagrams at 1280 px
  try {
    const context = await browser.newContext({ viewport: { width: WIDE, height: 900 } });
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`script error on ${page.url()}: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`request failed on ${page.url()}: ${r.url()}`));
    const files = htmlFiles(book);
    for (const rel of files) {
      const url = pathToFileURL(path.join(book, rel)).href;
      await page.goto(url, { waitUntil: "load" });
      pages += 1;
      const facts = await page.evaluate(() => {
        const figures = [...document.querySelectorAll("figure.diagram")].map((f) => {
          const svg = f.querySelector("svg");
          const box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
          return {
            event: Number(f.dataset.event),
            lines: svg && svg.viewBox ? Math.round((svg.viewBox.baseVal.width - 52) / 24) + 1 : 0,
            width: box.width,
            height: box.height,
            stones: svg ? svg.querySelectorAll("circle.stone").length : 0,
          };
        });
        const scrolling = [...document.querySelectorAll("table, pre, div, figure")]
          .filter((e) => e.scrollWidth > e.clientWidth + 1)
          .map((e) => `${e.tagName.toLowerCase()}${e.className ? "." + e.className : ""} (${e.scrollWidth} px in ${e.clientWidth})`);
        return {
          scrolling,
          scrollWidth: document.documentElement.scrollWidth,
          clientWidth: document.documentElement.clientWidth,
          ids: [...document.querySelectorAll("[id]")].map((e) => e.id),
          links: [...document.querySelectorAll("a[href], link[href], script[src], form[action]")].map((e) => {
            const written = e.getAttribute("href") || e.getAttribute("src") || e.getAttribute("action");
            return [written, new URL(written, document.baseURI).href];
          }),
          figures,
        };
      });
      ids.set(rel, new Set(facts.ids));
      for (const [written, resolved] of facts.links) links.push([rel, written, resolved]);
      if (facts.scrollWidth > facts.clientWidth) {
        problems.push(`${rel}: ${facts.scrollWidth} px wide at a ${facts.clientWidth} px window`);
      }
      for (const s of facts.scrolling) {
        problems.push(`${rel}: ${s} scrolls sideways at a ${WIDE} px window`);
      }
      for (const f of facts.figures) {
        if (f.width < 100 || f.height < 100) {
          problems.push(`${rel}: the diagram of event ${f.event} is drawn ${f.width}x${f.height} px`);
        }
        // A 19x19 diagram must read at 1280 px: at least 500 px wide (about 26 px a line).
        if (f.lines >= 19) {
          large.push(f.width);
          if (f.width < 500) {
            problems.push(`${rel}: the 19x19 diagram of event ${f.event} is only ${f.width} px wide`);
          }
        }
      }
      diagrams += facts.figures.length;
      const m = /^scenarios\/(.+)\.html$/.exec(rel);
      if (m && manifest.scenarios[m[1]]) {
        const drawn = new Set(facts.figures.map((f) => f.event));
        for (const k of manifest.scenarios[m[1]]) {
          if (!drawn.has(k)) problems.push(`${rel}: no diagram of event ${k}`);
        }
      }
    }
    for (const id of Object.keys(manifest.scenarios)) {
      if (!ids.has(`scenarios/${id}.html`)) problems.push(`no page for scenario ${id}`);
    }
    for (const [from, written, resolved] of links) {
      const url = new URL(resolved);
      if (url.protocol !== "file:") {
        problems.push(`${from}: ${written} leaves the book`);
        continue;
      }
      const target = path.relative(book, fileURLToPath(url));
      if (target.startsWith("..") || !fs.existsSync(path.join(book, target))) {
        problems.push(`${from}: ${written} does not resolve`);
        continue;
      }
      const fragment = decodeURIComponent(url.hash.slice(1));
      if (fragment && !(ids.get(target) || new Set()).has(fragment)) {
        problems.push(`${from}: ${written}: no element ${fragment} in ${target}`);
      }
    }

    // The search, as a reader uses it: a query in the address, results as links.
    await page.goto(pathToFileURL(path.join(book, "search.html")).href + "?q=superko");
    const hits = await page.locator("#results li a").count();
    if (hits < 5) problems.push(`search for superko found ${hits} results`);
    await page.fill("#q", "no-such-word-anywhere");
    if ((await page.locator("#results li").count()) !== 0) problems.push("search for nonsense found something");
    await page.fill("#q", "basic ko");
    const first = await page.locator("#results li a").allTextContents();
    if (!first.some((t) => t.startsWith("Basic ko"))) problems.push(`search for basic ko found ${first.slice(0, 3)}`);

    // Screenshots at two widths.
    const shots = [];
    for (const [width, height] of [[WIDE, 1400], [NARROW, 1400]]) {
      const ctx = await browser.newContext({ viewport: { width, height } });
      const p = await ctx.newPage();
      for (const rel of manifest.shots) {
        await p.goto(pathToFileURL(path.join(book, rel)).href, { waitUntil: "load" });
        const name = `${rel.replace(/[\/.]/g, "_")}-${width}.png`;
        await p.screenshot({ path: path.join(shotsDir, name), fullPage: false });
        shots.push(name);
      }
      await ctx.close();
    }
    const largest = { count: large.length, narrowest: large.length ? Math.min(...large) : null };
    console.log(JSON.stringify({ pages, diagrams, large: largest, links: links.length, shots, problems }));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.log(JSON.stringify({ fatal: String(e && e.stack ? e.stack : e) }));
  process.exit(1);
});
