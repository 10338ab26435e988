// Rule: a single stone played on its last liberty, where self-capture is allowed, is taken off
// at once and leaves the board as it was. Under positional superko (Tromp-Taylor, the logical
// rules) that is a repetition of the whole board: illegal, and for superko, not ko (no stone
// is retaken). Under situational superko (New Zealand) it is legal unless that board has
// already stood with the other player to move.
//
// GobanEngine.place with checkForKo compares the new board with `cur_move.index(-1).state`,
// meant as the position before the opponent's last move. `index` stops at the root of the move
// tree, and a pass leaves the board alone, so on the first move of a game, or right after the
// opponent passes, that is the current board itself, and the unchanged board of a one-stone
// self-capture matches it: the play is refused as `illegal_ko_move` before the superko
// algorithm is asked, and under "ssk" whoever is to move.
//
// Run from tests/engines/ogs-goban after `npm ci`: node repro/self-capture-called-ko.js
"use strict";
const GobanEngine = require("./load");

// 5x5, White stones on B5 and A4 ("ba", "ab": x then y from the top), Black to move; A5 is (0, 0).
function game(algorithm, rules) {
  return new GobanEngine({
    width: 5,
    height: 5,
    rules,
    initial_state: { black: "", white: "baab" },
    initial_player: "black",
    allow_self_capture: true,
    superko_algorithm: algorithm,
  });
}

function attempt(engine, label, expected) {
  try {
    engine.place(0, 0, true, true, false, false);
    console.log(`${label}: legal (the rule says: ${expected})`);
  } catch (e) {
    console.log(`${label}: refused, ${e.message_id} (the rule says: ${expected})`);
  }
}

attempt(game("psk", "chinese"), "psk, Black A5 as the first move", "illegal, superko");
attempt(game("ssk", "nz"), "ssk, Black A5 as the first move", "legal, A5 taken off");

const afterPass = game("psk", "chinese");
afterPass.place(4, 4, true, true, false, false); // Black E1
afterPass.place(-1, -1, true, true, false, false); // White passes
attempt(afterPass, "psk, Black A5 after Black E1 and a White pass", "illegal, superko");
