// Rule: under positional superko (Tromp-Taylor, the logical rules) no play may bring back a
// whole-board position that has stood before, the current one included. A single stone played
// on its last liberty, where self-capture is allowed, is taken off at once and leaves the board
// exactly as it is: illegal, superko.
//
// GobanEngine.isBoardRepeating starts its search at `cur_move.index(-2)`, two moves back, and
// checkForKo looks one move back: nothing compares the new board with the current one. After
// an ordinary move of the opponent (no pass, not the first move, where self-capture-called-ko.js
// shows the ko check catching it) the self-capture is accepted.
//
// Run from tests/engines/ogs-goban after `npm ci`: node repro/suicide-repeats-current-position.js
"use strict";
const GobanEngine = require("./load");

// 5x5, White stones on B5 and A4, Black to move; A5 is (0, 0), E1 is (4, 4), D1 is (3, 4).
const engine = new GobanEngine({
  width: 5,
  height: 5,
  rules: "chinese",
  initial_state: { black: "", white: "baab" },
  initial_player: "black",
  allow_self_capture: true,
  superko_algorithm: "psk",
});
engine.place(4, 4, true, true, false, false); // Black E1
engine.place(3, 4, true, true, false, false); // White D1
const before = JSON.stringify(engine.board);
try {
  engine.place(0, 0, true, true, false, false); // Black A5, no liberty
  const same = JSON.stringify(engine.board) === before;
  console.log(`Black A5: legal, the board ${same ? "is exactly as before" : "changed"} (the rule says: illegal, superko)`);
} catch (e) {
  console.log(`Black A5: refused, ${e.message_id} (the rule says: illegal, superko)`);
}
