// Rule: positional superko (Tromp-Taylor, the logical rules, Chinese) forbids a play that
// brings back any earlier whole-board position, the one the game started from included;
// situational superko (New Zealand) forbids it when the same player is to move as then.
//
// On a 2x2 board that starts empty with White to move, Black captures two White stones, fills
// three points, and then plays the fourth: no Black stone has a liberty, self-capture is
// allowed, and the four are taken off. The board is empty again, with White to move, as at the
// start: illegal under both superko rules.
//
// GobanEngine.isBoardRepeating walks back from `cur_move.index(-2)` for `move_number - 2`
// moves, which ends at move 1: the root of the move tree, the starting position, is never
// compared, so the play is accepted.
//
// Run from tests/engines/ogs-goban after `npm ci`: node repro/initial-position-never-checked.js
"use strict";
const GobanEngine = require("./load");

for (const [algorithm, rules] of [["psk", "chinese"], ["ssk", "nz"]]) {
  const engine = new GobanEngine({
    width: 2,
    height: 2,
    rules,
    initial_player: "white",
    allow_self_capture: true,
    superko_algorithm: algorithm,
  });
  // x, y from the top-left: A2 (0, 0), B2 (1, 0), A1 (0, 1), B1 (1, 1); (-1, -1) is a pass.
  // W A1, B B2, W A2, B B1 (takes A1 and A2), W pass, B A2, W pass.
  for (const [x, y] of [[0, 1], [1, 0], [0, 0], [1, 1], [-1, -1], [0, 0], [-1, -1]]) {
    engine.place(x, y, true, true, false, false);
  }
  try {
    engine.place(0, 1, true, true, false, false); // Black A1
    const empty = engine.board.every((row) => row.every((s) => s === 0));
    console.log(`${algorithm}: Black A1 legal, the board ${empty ? "empty as at the start" : "not empty"} (the rule says: illegal, superko)`);
  } catch (e) {
    console.log(`${algorithm}: Black A1 refused, ${e.message_id} (the rule says: illegal, superko)`);
  }
}
