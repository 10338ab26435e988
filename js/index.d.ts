// Types of goconform's npm package (index.js). The shapes are those of the JSON-lines
// protocol (docs/protocol.md in the goconform repository; its schema, protocol.schema.json).

/** A vertex: a column letter A-Z without I, then the row from 1 at the bottom ("D4"). */
export type Vertex = string;
export type Colour = "B" | "W";
export type Phase = "playing" | "paused" | "resumed" | "confirming" | "ended";

/** Every rules axis with its word ("ko": "simple", "komi": "7.5", ...). */
export type Rules = Record<string, string>;

/** The starting point of a game, as a `run` request gives it. */
export interface Setup {
  width: number;
  height: number;
  stones: [Vertex, Colour][];
  handicap: Vertex[];
  to_move: Colour;
  history: "played" | "excluded";
  handicap_as_placed: boolean;
}

/** What a game shows after a step. */
export interface Observation {
  board?: [Vertex, Colour][];
  to_move?: Colour;
  /** [black, white]: captures, agreed dead stones and pass stones each player holds. */
  prisoners?: [number, number];
  phase?: Phase;
  /** The count as it stands in SGF form: "B+3.5", "W+R", "0". */
  result?: string;
  /** [black, white] in points. */
  score?: [number, number];
  warnings?: [number, number];
}

/** The verdict on one event and the observation after it. */
export type Step =
  | { verdict: "legal"; captured: Vertex[]; self_captured: Vertex[]; observation: Observation }
  | { verdict: "illegal"; reason: string; observation: Observation }
  | { verdict: "breach"; reason: string; class: "illegal" | "irregular"; observation: Observation }
  | { verdict: "ruled"; ruling: string; observation: Observation };

export interface GameOptions {
  /** A ruleset's name (see rulesets()); the default rules otherwise. */
  ruleset?: string;
  /** Axis words laid over the ruleset's: { ko: "positional", komi: "6.5" }. */
  rules?: Record<string, string | number>;
  /** An empty square board of this size (19 by default). */
  size?: number;
  width?: number;
  height?: number;
  /** The protocol's set-up instead of an empty board. */
  setup?: Setup;
  /**
   * What each step shows, the protocol's words ("board", "to-move", "prisoners", "phase",
   * "score", "procedures"); everything by default. "score" counts the board at every event.
   */
  observe?: string[];
}

export class Game {
  constructor(options?: GameOptions);
  play(vertex: Vertex): Step;
  pass(): Step;
  /** Any event in the scenario format's text: "B D4", "W pass", "B resign", "agree C3 D4", "dispute". */
  event(text: string): Step;
  undo(): boolean;
  observe(): Observation;
  history(): ({ event: string; verdict: Step["verdict"]; reason?: string; captured?: Vertex[] })[];
  readonly rules: Rules;
  readonly setup: Setup;
  free(): void;
}

export interface Ruleset {
  name: string;
  title: string;
  description: string;
  extends: string | null;
  clauses: string[];
  rules: Rules;
}

export interface Clause {
  id: string;
  document: string;
  locator: string;
  summary: string;
  level: string;
  topic: string;
  note: string | null;
  see: string[];
}

export interface Scenario {
  id: string;
  file: string;
  topic: string;
  title: string;
  description: string;
  clauses: string[];
  checked: string;
  runs: { label: string; ruleset: string; rules: Rules }[];
  setup: Setup;
  events: string[];
  /** The scenario file's TOML text. */
  toml: string | null;
}

/** A request of the protocol, as check() hands it to the engine. */
export type Request =
  | { type: "hello"; protocol: number }
  | {
      type: "run";
      id: string;
      rules: Rules;
      setup: Setup;
      events: string[];
      observe: string[];
    };

/** A reply of the protocol. */
export type Reply =
  | {
      type: "hello";
      protocol: number;
      engine: { name: string; version: string };
      capabilities: {
        axes?: Record<string, string[]>;
        observes: string[];
        judges?: string[] | null;
        events?: string[] | null;
      };
    }
  | { type: "result"; id: string; initial: Observation; steps: Step[] }
  | { type: "skipped"; id: string; reason: string }
  | { type: "error"; id: string | null; message: string; context?: unknown };

/** An engine check() can run: it answers each request synchronously. */
export interface Engine {
  answer(request: Request): Reply;
}

export interface CheckOptions {
  /** The text of the engine's expectations file (TOML). */
  expectations?: string;
  tier?: "basic" | "strict" | "auto";
  /** Do not hold replies to the protocol's schema. */
  lenient?: boolean;
  /** Filters, as `goconform check` takes them. */
  rules?: string;
  id?: string;
  clause?: string;
  topic?: string;
}

/** Counts of outcomes. */
export interface Tally {
  pass: number;
  fail: number;
  expected_failure: number;
  unexpected_pass: number;
  not_applicable: number;
  error: number;
  timeout: number;
  harness_error: number;
}

export interface CheckResult {
  engine: { name: string; version: string };
  tier: "basic" | "strict";
  /** As `goconform check` counts: board trials and tournament scenarios. */
  tally: Tally;
  /** The board trials alone, as `goconform compare` counts them. */
  board: Tally;
  /** The lines `goconform check --format jsonl` writes (header, one per trial, ..., summary). */
  report: ({ type: string } & Record<string, unknown>)[];
}

export function check(engine: Engine, options?: CheckOptions): CheckResult;
export function rulesets(): Ruleset[];
export function clauses(): Clause[];
export function scenarios(): Scenario[];
/** The language-neutral test vectors: the index and every vector. */
export function vectors(): { index: Record<string, unknown>; vectors: Record<string, unknown>[] };
export function version(): { version: string; interpretation: number; protocol: number };
