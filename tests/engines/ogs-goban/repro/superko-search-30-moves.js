// Rule: positional superko (Tromp-Taylor, the logical rules, Chinese) forbids a play that brings
// back any earlier whole-board position, however long ago; situational superko (New Zealand)
// too, when the same player is to move as then. No scenario of the suite has a cycle this long
// (the nearest is 6 moves); the rule has no bound.
//
// GobanEngine.isBoardRepeating looks back at most MAX_SUPERKO_SEARCH = 30 moves (from two moves
// back), so a repetition of a position made 33 or more moves earlier is accepted.
//
// The position: k separate kos on a 19x19 board, the first held by Black, the others by White.
// After a move each elsewhere, Black takes the next ko and White retakes the previous one, round
// the ring: the position only returns when every ko has gone round, after 2k moves, to the one
// White made with its move elsewhere. With 14 kos that is 28 moves back and the engine refuses
// the last play; with 17 kos, 34 moves back, it accepts it.
//
// Run from tests/engines/ogs-goban after `npm ci`: node repro/superko-search-30-moves.js
"use strict";
const GobanEngine = require("./load");

const SGF = "abcdefghijklmnopqrs";
const at = (x, y) => SGF[x] + SGF[y];

function ring(k, algorithm, rules) {
  // Each ko fills a 4x3 box, four boxes to a band of rows 0-2, 4-6, ...; [x, y] from the top-left.
  const boxes = [];
  for (let y = 0; y < 19 && boxes.length < k; y += 4) {
    for (let x = 0; x < 16 && boxes.length < k; x += 4) {
      boxes.push([x, y]);
    }
  }
  const state = { black: "", white: "" };
  boxes.forEach(([x, y], i) => {
    state.black += at(x + 1, y) + at(x, y + 1) + at(x + 1, y + 2);
    state.white += at(x + 2, y) + at(x + 3, y + 1) + at(x + 2, y + 2);
    // The ko stone: Black's on the right-hand point, or White's on the left-hand one.
    if (i === 0) state.black += at(x + 2, y + 1);
    else state.white += at(x + 1, y + 1);
  });
  const engine = new GobanEngine({
    width: 19,
    height: 19,
    rules,
    initial_state: state,
    initial_player: "black",
    superko_algorithm: algorithm,
  });
  const moves = [[18, 8], [18, 12]]; // Black and White elsewhere (T11, T7)
  for (let i = 0; i < k; i++) {
    const [bx, by] = boxes[(i + 1) % k];
    const [wx, wy] = boxes[i];
    moves.push([bx + 2, by + 1], [wx + 1, wy + 1]); // Black takes ko i+1, White retakes ko i
  }
  const last = moves.pop();
  for (const [x, y] of moves) {
    engine.place(x, y, true, true, false, false);
  }
  const back = moves.length + 1 - 2;
  try {
    engine.place(last[0], last[1], true, true, false, false);
    console.log(`${algorithm}, ${k} kos: White's play ${2 * k + 2}, the position of ${back} moves before, is legal (the rule says: illegal, superko)`);
  } catch (e) {
    console.log(`${algorithm}, ${k} kos: White's play ${2 * k + 2}, the position of ${back} moves before, is refused: ${e.message_id} (the rule says: illegal, superko)`);
  }
}

for (const k of [14, 17]) {
  ring(k, "psk", "chinese");
  ring(k, "ssk", "nz");
}
