// Rule: a stone may be placed only on an empty point (AGA Rule 2; step 1 of Rule 7 of the
// logical rules). A play on an occupied point is refused because the point is occupied,
// whatever a stone there would have for liberties.
//
// godash's addMove asks isLegalMove first, and isLegalMove puts the new stone on the point
// (replacing the one there) and counts its liberties. Where Black stones stand at A1, B1 and
// A2, a White play on A1 has none and captures nothing, so addMove throws "Not a valid
// position" (suicide) before it gets to "There is already a stone there".
//
// Run: node repro/occupied-called-suicide.js (from tests/engines/godash, after npm ci).
"use strict";
const godash = require("godash");

// Coordinates are (x, y) with y = 0 the top row of a 5x5 board: A1 is (0, 4).
let board = godash.Board(5);
for (const [x, y] of [[0, 4], [1, 4], [0, 3]]) {
  board = godash.placeStone(board, godash.Coordinate(x, y), godash.BLACK);
}
try {
  godash.addMove(board, godash.Move(godash.Coordinate(0, 4), godash.WHITE));
  console.log("accepted (the rules say: refused, the point is occupied)");
} catch (e) {
  console.log(`refused: "${e.message}" (the rules say: refused because the point is occupied)`);
}
