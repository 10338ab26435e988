// Rule: under situational superko with self-capture allowed (New Zealand rules), a single
// stone played where it has no liberty is taken off at once; the board is as it was, but with
// the other player to move, which situational superko does not forbid. The play is legal.
// (Under positional superko, Tromp-Taylor, it is illegal, as a repetition of the whole board.)
//
// GobanEngine's ko check (place's checkForKo) compares the new board with the position one
// move back, and refuses any equal board as "illegal_ko_move", before and whatever its
// superko algorithm says: the self-capture is refused, and as ko.
//
// Run: node repro/self-capture-called-ko.js (from tests/engines/ogs-goban, after npm ci).
"use strict";
const GobanEngine = require("./load");

// 5x5, White stones at B5 and A4; Black plays A5, its only neighbours being White.
const engine = new GobanEngine({
  width: 5,
  height: 5,
  rules: "nz",
  initial_state: { black: "", white: "baab" },
  initial_player: "black",
  allow_self_capture: true,
  superko_algorithm: "ssk",
  throw_all_errors: true,
});
try {
  engine.place(0, 0, true, true, false, false);
  console.log("legal, as the rules say");
} catch (e) {
  console.log(`refused: ${e.message_id} (the rules say: legal, the stone is taken off)`);
}
