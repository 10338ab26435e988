// Rule: positional superko (Tromp-Taylor, the logical rules, Chinese) forbids any play that
// brings back an earlier whole-board position, the position the game started from included.
//
// On a 2x2 board White starts, Black captures two White stones, and Black then fills the last
// point: the four Black stones have no liberty, self-capture of several stones is allowed, and
// the board is empty again, as at the start. The play is illegal under positional superko.
//
// GobanEngine's superko search (isBoardRepeating) starts two moves back and looks at
// `move_number - 2` positions, so it never reaches the root of the move tree: the starting
// position is never compared, and the play is accepted. (Nor does it compare the current
// position, which a self-capture of one stone brings back: with the ko check one move back,
// that case is caught only right after a pass.)
//
// Run: node repro/initial-position-never-checked.js (from tests/engines/ogs-goban, after npm ci).
"use strict";
const GobanEngine = require("./load");

const engine = new GobanEngine({
  width: 2,
  height: 2,
  rules: "chinese",
  initial_player: "white",
  allow_self_capture: true,
  superko_algorithm: "psk",
  throw_all_errors: true,
});
// x, y with y = 0 the top row: A1 is (0, 1), B2 is (1, 0), A2 is (0, 0), B1 is (1, 1).
const moves = [[0, 1], [1, 0], [0, 0], [1, 1], [-1, -1], [0, 0], [-1, -1]];
for (const [x, y] of moves) {
  engine.place(x, y, true, true, false, false);
}
try {
  engine.place(0, 1, true, true, false, false); // Black A1 empties the board
  const empty = engine.board.every((row) => row.every((s) => s === 0));
  console.log(`accepted; the board is ${empty ? "empty, as at the start" : "not empty"} (the rules say: illegal, superko)`);
} catch (e) {
  console.log(`refused: ${e.message_id}, as the rules say`);
}
