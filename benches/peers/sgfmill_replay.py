#!/usr/bin/env python3
"""The peer of benches/judge.rs: Python's sgfmill reading the same records and playing every
move of each main line on its board.

Usage: sgfmill_replay.py DIR

Prints one JSON line: records, moves, seconds, records_per_second, moves_per_second. sgfmill's
board checks what a board can (a play on an occupied point, captures, suicide); it knows no ko
rule and keeps no history, so this is the cost of reading and replaying, less than judging.
Records sgfmill cannot read are counted under `refused`.
"""

import json
import os
import sys
import time

try:
    from sgfmill import boards, sgf, sgf_moves
except ImportError:
    sys.exit("sgfmill is not installed (pip install sgfmill)")


def main():
    directory = sys.argv[1]
    names = sorted(n for n in os.listdir(directory) if n.lower().endswith(".sgf"))
    data = []
    for name in names:
        with open(os.path.join(directory, name), "rb") as f:
            data.append(f.read())
    records = moves = refused = 0
    started = time.perf_counter()
    for raw in data:
        try:
            game = sgf.Sgf_game.from_bytes(raw)
            board, plays = sgf_moves.get_setup_and_moves(game)
        except ValueError:
            refused += 1
            continue
        for colour, move in plays:
            if move is None:
                continue
            row, col = move
            try:
                board.play(row, col, colour)
            except ValueError:
                break
            moves += 1
        records += 1
    seconds = time.perf_counter() - started
    print(json.dumps({
        "records": records,
        "refused": refused,
        "moves": moves,
        "seconds": seconds,
        "records_per_second": records / seconds,
        "moves_per_second": moves / seconds,
    }))


if __name__ == "__main__":
    main()
