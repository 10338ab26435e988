// Rule: simple ko forbids only the immediate recapture; once another move has been made in
// between, a pass included, the ko may be retaken (Japanese 1989 rules, and every simple-ko
// ruleset in which play resumes after passes). Not in goconform's table: in the suite's
// rulesets two passes in a row stop play, and the resumption needs a `dispute` event, which a
// board library does not take.
//
// @sabaki/go-board keeps the ko point of the last move in the board (`_koInfo`); a pass is
// `makeMove` at a vertex off the board, which returns a clone of the board, ko point and all.
// So after Black takes a ko, White passes and Black passes, White's retake is still refused
// with preventKo.
//
// Run: node repro/ko-ban-survives-passes.js (from tests/engines/sabaki-go-board, after npm ci).
"use strict";
const GoBoard = require("@sabaki/go-board");

// 5x5 signMap, rows from the top (1 Black, -1 White): the ko of goconform's basic-ko.
let board = new GoBoard([
  [0, 0, 0, 0, 0],
  [0, 1, -1, 0, 0],
  [1, -1, 0, -1, 0],
  [0, 1, -1, 0, 0],
  [0, 0, 0, 0, 0],
]);
const options = { preventKo: true, preventSuicide: true, preventOverwrite: true };
board = board.makeMove(1, [2, 2], options); // Black C3 takes the White stone at B3
board = board.makeMove(-1, [-1, -1], options); // White passes
board = board.makeMove(1, [-1, -1], options); // Black passes
try {
  board.makeMove(-1, [1, 2], options); // White B3 retakes
  console.log("retake accepted, as simple ko allows after the passes");
} catch (e) {
  console.log(`retake refused: "${e.message}" (simple ko allows it: two passes came in between)`);
}
