#!/usr/bin/env node
// Plays the live rule book in headless Chromium as a reader would, by clicking: the basic ko
// (the immediate retake refused under every ruleset, with its reason and clause links), the
// natural situational superko retake after a pass (where the rulesets part), a line copied as
// a scenario, and the free board. Times each click until every ruleset's verdict is on
// screen, and takes screenshots.
//
//   node check-live.js BOOK_DIR SHOTS_DIR
//
// Prints one JSON object on stdout (tests/book_browser.rs reads it). The browser is
// $CHROMIUM, else /usr/bin/chromium.
"use strict";

const path = require("path");
const { pathToFileURL } = require("url");
const { chromium } = require("playwright-core");

// The click-to-verdict times of every page played so far (live.js keeps a page's own).
const timings = [];

async function open(page, book, rel) {
  if (page.url().startsWith("file:")) timings.push(...(await page.evaluate(() => window.goconformLiveTimings || [])));
  await page.goto(pathToFileURL(path.join(book, rel)).href, { waitUntil: "load" });
  await page.waitForFunction(() => document.documentElement.dataset.live, null, { timeout: 30000 });
  const state = await page.evaluate(() => document.documentElement.dataset.live);
  if (state !== "ready") throw new Error(`${rel}: the live board did not start (${state})`);
}

// Clicks a point of the first live board, or a button.
async function click(page, what) {
  const section = page.locator("section.live").first();
  if (what === "pass") await section.locator("button.live-pass").click();
  else await section.locator(`rect.point[data-vertex="${what}"]`).click();
}

// The last row of the verdicts table: each ruleset's verdict word, reason and links.
async function lastRow(page) {
  return page.evaluate(() => {
    const section = document.querySelector("section.live");
    const rows = section.querySelectorAll("table.live-table tbody tr:not(.count)");
    const row = rows[rows.length - 1];
    const cells = {};
    for (const td of row.querySelectorAll("td[data-rules]")) {
      cells[td.dataset.rules] = {
        class: td.className,
        reason: (td.querySelector(".reason") || { textContent: "" }).textContent,
        links: [...td.querySelectorAll("a.clause")].map((a) => a.getAttribute("href")),
        text: td.textContent,
      };
    }
    return { event: row.querySelectorAll("td")[1].textContent, cells, rows: rows.length };
  });
}

async function main() {
  const [bookDir, shotsDir] = process.argv.slice(2);
  if (!bookDir || !shotsDir) throw new Error("usage: check-live.js BOOK_DIR SHOTS_DIR");
  const book = path.resolve(bookDir);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const problems = [];
  const out = { problems };
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    const page = await context.newPage();
    page.on("pageerror", (e) => problems.push(`script error on ${page.url()}: ${e.message}`));
    page.on("requestfailed", (r) => problems.push(`request failed on ${page.url()}: ${r.url()}`));
    page.on("request", (r) => {
      if (!r.url().startsWith("file:")) problems.push(`fetched ${r.url()}`);
    });

    // Basic ko: Black takes at C3, White's immediate retake at B3 is refused everywhere.
    const loading = Date.now();
    await open(page, book, "scenarios/basic-ko.html");
    out.startMs = Date.now() - loading;
    await page.evaluate(() => {
      for (const box of document.querySelectorAll("section.live .live-picker input")) {
        if (!box.checked) box.click();
      }
    });
    await click(page, "C3");
    await click(page, "B3");
    out.ko = await lastRow(page);
    await page.screenshot({ path: path.join(shotsDir, "live-basic-ko-1280.png"), fullPage: false });
    await page.locator("section.live").first().screenshot({ path: path.join(shotsDir, "live-basic-ko-board.png") });

    // Natural situational superko, from the empty 3x3 board: the retake after a pass.
    await open(page, book, "scenarios/nssk-retake-after-a-pass.html");
    await page.evaluate(() => {
      for (const box of document.querySelectorAll("section.live .live-picker input")) {
        if (!box.checked) box.click();
      }
    });
    for (const m of ["B3", "A3", "C2", "B2", "pass", "C3", "B3"]) await click(page, m);
    out.nssk = await lastRow(page);
    await page.locator("section.live").first().screenshot({ path: path.join(shotsDir, "live-nssk-board.png") });
    // The line copied as a scenario.
    await page.locator("section.live button.live-copy").first().click();
    out.toml = await page.locator("section.live textarea.live-toml").first().inputValue();

    // The free board: a few moves on 19x19, then undo, for the click timings.
    await open(page, book, "play.html");
    for (const m of ["D4", "Q16", "D16", "Q4", "K10", "C3", "R17", "K11"]) await click(page, m);
    await page.locator("section.live button.live-undo").first().click();
    out.freeRows = (await lastRow(page)).rows;
    // Two passes stop play; under aga (pause-agree-resume) a click then marks a string dead
    // instead of playing, and agreeing ends the game with the count.
    await click(page, "pass");
    await click(page, "pass");
    await click(page, "D4");
    await page.locator("section.live button.live-agree").first().click();
    out.agree = await lastRow(page);
    out.count = await page.evaluate(() => {
      const row = document.querySelector("section.live table.live-table tr.count");
      return Object.fromEntries([...row.querySelectorAll("td[data-rules]")].map((td) => [td.dataset.rules, td.textContent]));
    });
    out.status = await page.locator("section.live .live-status").first().textContent();
    await page.screenshot({ path: path.join(shotsDir, "live-free-board-1280.png"), fullPage: false });
    await page.waitForTimeout(100);
    timings.push(...(await page.evaluate(() => window.goconformLiveTimings)));
    out.timings = timings;
    out.shots = ["live-basic-ko-1280.png", "live-basic-ko-board.png", "live-nssk-board.png", "live-free-board-1280.png"];
    console.log(JSON.stringify(out));
  } finally {
    await browser.close();
  }
}

main().catch((e) => {
  console.log(JSON.stringify({ fatal: String(e && e.stack ? e.stack : e) }));
  process.exit(1);
});
