// The live rule book: every scenario's position, and a free board, played in the page under
// every ruleset at once. The verdicts come from the reference itself, compiled to WebAssembly
// (src/wasm.rs) and inlined in this script by `goconform book` (GOCONFORM_WASM, base64), so
// the book still opens from the disk with nothing fetched. This file decides no rule: it
// draws the board, sends each click to one game per ruleset as the same event, and shows
// what each game answers.
//
// A section to play is <section class="live" data-setup data-events data-clauses
// data-rulesets data-id>, written by src/book/pages.rs; GOCONFORM_LIVE has every ruleset
// and, per ruleset, the clauses a refusal for each reason links to (src/book/live.rs).
"use strict";

(function () {
  const DATA = window.GOCONFORM_LIVE;
  const LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ";
  const SVG = "http://www.w3.org/2000/svg";
  // The clauses `rules` (a ruleset of GOCONFORM_LIVE) links a refusal for `reason` to, as
  // [id, href] pairs (chosen by src/book/live.rs).
  function clausesFor(rules, reason) {
    return (rules && reason && rules.reasons[reason]) || [];
  }

  // Click-to-verdict times in milliseconds, for tests/book_browser.rs.
  window.goconformLiveTimings = [];

  function el(tag, attrs, ...children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") e.className = v;
      else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v);
    }
    for (const c of children) if (c !== null && c !== undefined) e.append(c);
    return e;
  }

  function svg(tag, attrs) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    return e;
  }

  function vertex(col, row) {
    return LETTERS[col] + String(row + 1);
  }

  class Live {
    constructor(section) {
      this.section = section;
      this.setup = JSON.parse(section.dataset.setup);
      this.scenarioEvents = JSON.parse(section.dataset.events || "[]");
      this.clauses = JSON.parse(section.dataset.clauses || "[]");
      this.id = section.dataset.id || "free-board";
      this.root = section.dataset.root || "";
      // The columns: the scenario's runs with their own rules, then every other ruleset of
      // the registry as it is (shown when ticked; on a free board all are).
      const runs = JSON.parse(section.dataset.runs || "[]");
      this.columns = runs.map((r) => ({ name: r.label, ruleset: r.ruleset, rules: r.rules }));
      for (const r of DATA.rulesets) {
        if (!this.columns.some((c) => c.name === r.name)) {
          this.columns.push({ name: r.name, ruleset: r.name, rules: r.rules });
        }
      }
      this.names = this.columns.map((c) => c.name);
      this.shown = new Set(runs.length ? runs.map((r) => r.label) : this.names);
      this.boardRules = this.names[0];
      this.dead = new Set();
      this.build();
      this.restart();
    }

    build() {
      const s = this.section;
      this.select = el("select", { class: "live-board-rules", onchange: () => {
        this.boardRules = this.select.value;
        this.render();
      } });
      for (const name of this.names) this.select.append(el("option", { value: name }, name));
      this.picker = el("div", { class: "live-picker" });
      for (const name of this.names) {
        const box = el("input", { type: "checkbox", value: name, onchange: () => {
          if (box.checked) this.shown.add(name);
          else this.shown.delete(name);
          this.render();
        } });
        box.checked = this.shown.has(name);
        this.picker.append(el("label", {}, box, " " + name));
      }
      this.status = el("p", { class: "live-status" });
      this.board = el("div", { class: "live-board" });
      this.table = el("div", { class: "live-verdicts" });
      this.output = el("textarea", { class: "live-toml", rows: "12", readonly: "" });
      this.output.hidden = true;
      const button = (label, cls, action) => el("button", { type: "button", class: cls, onclick: action }, label);
      const tools = el("div", { class: "live-tools" },
        button("Pass", "live-pass", () => this.apply(`${this.toMove()} pass`)),
        button("Undo", "live-undo", () => this.undo()),
        button("Start again", "live-restart", () => this.restart()),
        this.scenarioEvents.length ? button("Play the scenario's moves", "live-replay", () => this.replay()) : null,
        button("Agree: marked stones dead", "live-agree", () => this.agree()),
        button("Copy as scenario", "live-copy", () => this.copy()),
        el("label", {}, " Board under ", this.select));
      s.append(tools, this.picker, this.status,
        el("div", { class: "live-body" }, this.board, this.table), this.output);
    }

    restart() {
      if (this.games) for (const g of this.games.values()) g.free();
      this.games = new Map();
      // A column whose rules cannot start from this set-up (a free placement of handicap
      // stones under fixed placement, say) says why and takes no event.
      this.broken = new Map();
      for (const c of this.columns) {
        try {
          this.games.set(c.name, new wasm_bindgen.Game(JSON.stringify({ rules: c.rules, setup: this.setup })));
        } catch (e) {
          this.broken.set(c.name, String((e && e.message) || e));
        }
      }
      if (!this.games.has(this.boardRules)) this.boardRules = [...this.games.keys()][0];
      this.events = [];
      this.steps = [];
      this.dead.clear();
      this.select.value = this.boardRules;
      this.render();
    }

    replay() {
      this.restart();
      for (const e of this.scenarioEvents) this.apply(e, false);
      this.render();
    }

    game() {
      return this.games.get(this.boardRules);
    }

    observation() {
      const last = this.steps.length ? this.steps[this.steps.length - 1].get(this.boardRules) : null;
      return last ? last.observation : JSON.parse(this.game().observe());
    }

    toMove() {
      return this.observation().to_move || "B";
    }

    // One event to every ruleset's game; the verdicts kept for the table.
    apply(text, render = true) {
      const started = performance.now();
      const step = new Map();
      for (const [name, game] of this.games) {
        try {
          step.set(name, JSON.parse(game.event(text)));
        } catch (e) {
          step.set(name, { verdict: "error", reason: String(e && e.message), observation: JSON.parse(game.observe()) });
        }
      }
      this.events.push(text);
      this.steps.push(step);
      if (render) {
        this.render();
        requestAnimationFrame(() => {
          const took = performance.now() - started;
          window.goconformLiveTimings.push(took);
          this.section.dataset.lastClickMs = took.toFixed(2);
        });
      }
    }

    undo() {
      if (!this.events.length) return;
      for (const game of this.games.values()) game.undo();
      this.events.pop();
      this.steps.pop();
      this.render();
    }

    agree() {
      const text = ["agree", ...[...this.dead].sort()].join(" ");
      this.dead.clear();
      this.apply(text);
    }

    click(v) {
      const seen = this.observation();
      if (seen.phase === "paused") {
        if ((seen.board || []).some(([p]) => p === v)) {
          if (this.dead.has(v)) this.dead.delete(v);
          else this.dead.add(v);
          this.render();
        }
        return;
      }
      this.apply(`${this.toMove()} ${v}`);
    }

    render() {
      this.drawBoard();
      this.drawTable();
      const seen = this.observation();
      const who = seen.to_move === "W" ? "White" : "Black";
      const phase = seen.phase || "playing";
      let text = `Under ${this.boardRules}: ${phase}`;
      if (phase === "paused") text += "; click stones to mark them dead, then Agree";
      else if (phase !== "ended") text += `, ${who} to move`;
      if (seen.result) text += `; the count: ${seen.result}`;
      this.status.textContent = text;
    }

    // The grid, its coordinates and the points to click are drawn once; each move redraws
    // only the stones and marks (a click must reach the screen within a frame).
    drawBoard() {
      const { width, height } = this.setup;
      const cell = Math.max(22, Math.min(34, Math.floor(600 / Math.max(width, height))));
      const margin = cell;
      const x = (c) => margin + cell * c;
      const y = (r) => margin + cell * (height - 1 - r);
      if (!this.layer) {
        const w = margin * 2 + cell * (width - 1);
        const h = margin * 2 + cell * (height - 1);
        const root = svg("svg", { class: "board live", viewBox: `0 0 ${w} ${h}`, width: w, height: h, role: "img" });
        root.append(svg("rect", { x: 0, y: 0, width: w, height: h, fill: "#dcb35c" }));
        for (let c = 0; c < width; c++) {
          root.append(svg("line", { x1: x(c), y1: y(height - 1), x2: x(c), y2: y(0), stroke: "#000", "stroke-width": 0.8 }));
          const t = svg("text", { x: x(c), y: margin * 0.45, "text-anchor": "middle", "font-size": cell * 0.45 });
          t.textContent = LETTERS[c];
          root.append(t);
        }
        for (let r = 0; r < height; r++) {
          root.append(svg("line", { x1: x(0), y1: y(r), x2: x(width - 1), y2: y(r), stroke: "#000", "stroke-width": 0.8 }));
          const t = svg("text", { x: margin * 0.4, y: y(r) + cell * 0.15, "text-anchor": "middle", "font-size": cell * 0.45 });
          t.textContent = String(r + 1);
          root.append(t);
        }
        for (let c = 0; c < width; c++) {
          for (let r = 0; r < height; r++) {
            const v = vertex(c, r);
            const point = svg("rect", {
              class: "point", "data-vertex": v, x: x(c) - cell / 2, y: y(r) - cell / 2,
              width: cell, height: cell, fill: "transparent",
            });
            point.addEventListener("click", () => this.click(v));
            root.append(point);
          }
        }
        this.layer = svg("g", { class: "stones", "pointer-events": "none" });
        root.append(this.layer);
        this.board.replaceChildren(root);
      }
      const seen = this.observation();
      const lastStep = this.steps.length ? this.steps[this.steps.length - 1].get(this.boardRules) : null;
      const lastEvent = this.events.length ? this.events[this.events.length - 1].split(" ")[1] : null;
      const at = (v) => [x(LETTERS.indexOf(v[0])), y(Number(v.slice(1)) - 1)];
      const marks = [];
      for (const [v, colour] of seen.board || []) {
        const [cx, cy] = at(v);
        marks.push(svg("circle", {
          class: colour === "B" ? "stone black" : "stone white", cx, cy, r: cell * 0.47,
          fill: colour === "B" ? "#111" : "#f8f8f8", stroke: "#000", "stroke-width": 1,
        }));
        if (this.dead.has(v)) {
          const d = cell * 0.25;
          marks.push(svg("path", {
            class: "dead", d: `M${cx - d} ${cy - d}L${cx + d} ${cy + d}M${cx + d} ${cy - d}L${cx - d} ${cy + d}`,
            stroke: "#c00", "stroke-width": 3,
          }));
        }
      }
      if (lastStep && lastEvent && LETTERS.includes(lastEvent[0]) && /^\d+$/.test(lastEvent.slice(1))) {
        const [cx, cy] = at(lastEvent);
        const legal = lastStep.verdict === "legal";
        marks.push(svg("circle", {
          class: legal ? "last" : "last refused", cx, cy, r: cell * 0.2, fill: "none",
          stroke: legal ? "#d00" : "#c00", "stroke-width": 2.2, "stroke-dasharray": legal ? "" : "3 2",
        }));
      }
      this.layer.replaceChildren(...marks);
    }

    // A ruleset of the registry with no source document of its own (chinese, new-zealand,
    // tromp-taylor) adopts no clause: its entry on the rulesets page stands for them.
    links(name, reason) {
      const column = this.columns.find((c) => c.name === name);
      const rules = DATA.rulesets.find((r) => r.name === column.ruleset);
      const found = clausesFor(rules, reason);
      if (!found.length && reason && rules) {
        return [el("a", { href: this.root + rules.page, class: "clause ruleset" }, `${rules.name} (ruleset)`)];
      }
      return found.map(([id, href]) => el("a", { href: this.root + href, class: "clause" }, id));
    }

    verdictCell(name, step) {
      const td = el("td", { "data-rules": name });
      if (this.broken.has(name)) {
        td.className = "v-cannot-start";
        td.append(`cannot start here: ${this.broken.get(name)}`);
        return td;
      }
      if (!step) return td;
      const o = step.observation || {};
      if (step.verdict === "legal") {
        td.className = "v-legal";
        td.append("legal");
        const n = (step.captured || []).length + (step.self_captured || []).length;
        if (n) td.append(` (takes ${[...(step.captured || []), ...(step.self_captured || [])].join(" ")})`);
      } else {
        td.className = `v-${step.verdict}`;
        td.append(`${step.verdict}: `, el("strong", { class: "reason" }, step.reason || step.ruling || ""));
        for (const a of this.links(name, step.reason)) td.append(" ", a);
      }
      if (o.prisoners) td.append(el("span", { class: "facts" }, `prisoners B ${o.prisoners[0]} W ${o.prisoners[1]}; ${o.phase}`));
      return td;
    }

    // The verdicts table: a row per event, a column per ruleset shown. A move adds its row to
    // the table as it stands; undo, a new start or another choice of rulesets draws it anew.
    drawTable() {
      const names = this.names.filter((n) => this.shown.has(n));
      const key = names.join(" ");
      if (!this.tbody || this.tableKey !== key || this.rowsDrawn > this.steps.length) {
        const head = el("tr", {}, el("th", {}, "#"), el("th", {}, "event"), ...names.map((n) => el("th", {}, n)));
        this.tbody = el("tbody", {});
        this.tableKey = key;
        this.rowsDrawn = 0;
        this.countRow = null;
        this.table.replaceChildren(el("table", { class: "live-table" }, el("thead", {}, head), this.tbody));
      }
      if (this.countRow) this.countRow.remove();
      for (let k = this.rowsDrawn; k < this.steps.length; k++) {
        const step = this.steps[k];
        const words = new Set(names.map((n) => (step.get(n) || {}).verdict + (step.get(n) || {}).reason));
        this.tbody.append(el("tr", { class: words.size > 1 ? "parts" : "" }, el("td", {}, String(k + 1)),
          el("td", {}, el("code", {}, this.events[k])), ...names.map((n) => this.verdictCell(n, step.get(n)))));
      }
      this.rowsDrawn = this.steps.length;
      this.countRow = el("tr", { class: "count" }, el("td", {}, ""), el("td", {}, "count now"),
        ...names.map((n) => {
          if (this.broken.has(n)) return el("td", { "data-rules": n }, "");
          const last = this.steps.length ? this.steps[this.steps.length - 1].get(n) : null;
          const o = last ? last.observation : JSON.parse(this.games.get(n).observe());
          const score = o.score ? ` (B ${o.score[0]}, W ${o.score[1]})` : "";
          return el("td", { "data-rules": n }, `${o.result || ""}${score}`);
        }));
      this.tbody.append(this.countRow);
    }

    // The line as a scenario in the suite's format, with the reference's answers as its
    // expectations (grouped by run with `under` where the rulesets part): a draft that
    // `goconform check` accepts, to be checked against the clauses before it joins the suite.
    toml() {
      const names = this.names.filter((n) => this.shown.has(n) && !this.broken.has(n));
      const q = (s) => JSON.stringify(s);
      const list = (xs) => `[${xs.map(q).join(", ")}]`;
      const { width, height } = this.setup;
      const stones = new Map(this.setup.stones.map(([p, c]) => [p, c]));
      const rows = [];
      for (let r = height - 1; r >= 0; r--) {
        const row = [];
        for (let c = 0; c < width; c++) {
          const colour = stones.get(vertex(c, r));
          row.push(colour === "B" ? "X" : colour === "W" ? "O" : ".");
        }
        rows.push(row.join(" "));
      }
      let clauses = this.clauses.slice();
      for (const step of this.steps) {
        for (const n of names) {
          const s = step.get(n);
          const rules = DATA.rulesets.find((r) => r.name === this.columns.find((c) => c.name === n).ruleset);
          for (const [id] of clausesFor(rules, s && s.reason)) if (!clauses.includes(id)) clauses.push(id);
        }
      }
      if (!clauses.length) {
        // A line with no refusal on a free board: the clauses on a play, of the first ruleset
        // shown that adopts any.
        for (const n of names) {
          const ruleset = this.columns.find((c) => c.name === n).ruleset;
          const found = clausesFor(DATA.rulesets.find((r) => r.name === ruleset), "occupied");
          if (found.length) {
            clauses = found.map(([id]) => id);
            break;
          }
        }
      }
      const id = `${this.id}-line`.replace(/[^a-z0-9-]/g, "-");
      const value = (v) => (/^-?\d+(\.5)?$/.test(v) ? v : q(v));
      const plain = [];
      const custom = [];
      for (const n of names) {
        const c = this.columns.find((x) => x.name === n);
        const base = DATA.rulesets.find((r) => r.name === c.ruleset).rules;
        const set = Object.keys(c.rules).filter((axis) => c.rules[axis] !== base[axis]).sort();
        if (c.name === c.ruleset && !set.length) plain.push(n);
        else {
          custom.push("", "[[run]]", `name = ${q(c.name)}`, `rules = ${q(c.ruleset)}`);
          if (set.length) custom.push(`set = { ${set.map((a) => `${a} = ${value(c.rules[a])}`).join(", ")} }`);
        }
      }
      const out = [
        `id = ${q(id)}`,
        `title = ${q(`A line played in the rule book from ${this.id}`)}`,
        `clauses = ${list(clauses)}`,
        'checked = "Not checked yet: written by the live rule book from the reference\'s answers; check each expectation against its clause before the scenario joins the suite."',
        // A column that is a ruleset as it is: in `rules`; any other: a [[run]] with its
        // ruleset and the axes where its rules differ (below).
        ...(plain.length ? [`rules = ${list(plain)}`] : []),
        `size = ${width === height ? String(width) : q(`${width}x${height}`)}`,
        `to_move = ${q(this.setup.to_move)}`,
      ];
      if (this.setup.history === "excluded") out.push('setup_history = "excluded"');
      if (this.setup.handicap.length) out.push(`handicap = ${list(this.setup.handicap)}`);
      if (this.setup.handicap_as_placed) out.push("handicap_as_placed = true");
      out.push(`board = """\n${rows.join("\n")}\n"""`);
      out.push(`moves = ${list(this.events)}`);
      out.push(...custom);
      this.steps.forEach((step, k) => {
        const groups = new Map();
        for (const n of names) {
          const s = step.get(n);
          const lines = [];
          if (s.verdict === "legal") {
            lines.push("legal = true", `captures = ${list([...s.captured].sort())}`);
            if (s.self_captured.length) lines.push(`self_captures = ${list([...s.self_captured].sort())}`);
          } else if (s.verdict === "illegal") {
            lines.push(`illegal = ${q(s.reason)}`);
          } else if (s.verdict === "breach") {
            lines.push(`breach = ${q(s.reason)}`, `class = ${q(s.class)}`);
          } else if (s.verdict === "ruled") {
            lines.push(`ruling = ${q(s.ruling)}`);
          }
          const o = s.observation;
          if (o.prisoners) lines.push(`prisoners = { B = ${o.prisoners[0]}, W = ${o.prisoners[1]} }`);
          if (o.to_move) lines.push(`to_move = ${q(o.to_move)}`);
          if (o.phase) lines.push(`phase = ${q(o.phase)}`);
          if (k === this.steps.length - 1 && o.result) lines.push(`result = ${q(o.result)}`);
          const key = lines.join("\n");
          if (!groups.has(key)) groups.set(key, []);
          groups.get(key).push(n);
        }
        for (const [lines, runs] of groups) {
          out.push("", "[[expect]]", `after = ${k + 1}`);
          if (groups.size > 1) out.push(`under = ${list(runs)}`);
          out.push(lines);
        }
      });
      return out.join("\n") + "\n";
    }

    copy() {
      const text = this.toml();
      this.output.hidden = false;
      this.output.value = text;
      this.output.select();
      if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).catch(() => {});
    }
  }

  async function start() {
    const sections = document.querySelectorAll("section.live");
    if (!sections.length) return;
    const text = atob(window.GOCONFORM_WASM);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
    await wasm_bindgen({ module_or_path: bytes });
    window.goconformLive = [...sections].map((s) => new Live(s));
    document.documentElement.dataset.live = "ready";
  }

  start().catch((e) => {
    document.documentElement.dataset.live = "failed";
    for (const s of document.querySelectorAll("section.live")) {
      s.append(el("p", { class: "live-failed" }, `The live board could not start: ${e && e.message}`));
    }
    throw e;
  });
})();
