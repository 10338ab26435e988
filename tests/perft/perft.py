#!/usr/bin/env python3
"""An independent GoPerft counter (docs/perft.md), written from the definition alone.

Reads .perft files and recounts every entry whose count is at most --max-nodes, printing
one line per entry checked and exiting 1 on any difference. Standard library only; shares
nothing with goconform but the file format: the board is a dict, strings are found by flood
fill, and a repetition is a whole-position comparison against every earlier entry.

    python3 tests/perft/perft.py --max-nodes 20000 docs/perft/boards.perft
"""
import sys

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


def neighbours(p, w, h):
    c, r = p
    for q in ((c - 1, r), (c + 1, r), (c, r - 1), (c, r + 1)):
        if 0 <= q[0] < w and 0 <= q[1] < h:
            yield q


def string_and_liberties(board, p, w, h):
    colour, seen, libs, todo = board[p], {p}, set(), [p]
    while todo:
        for q in neighbours(todo.pop(), w, h):
            if board.get(q) is None:
                libs.add(q)
            elif board[q] == colour and q not in seen:
                seen.add(q)
                todo.append(q)
    return seen, libs


class Game:
    def __init__(self, w, h, stones, to_move, history_played, ko, suicide):
        self.w, self.h, self.ko, self.suicide = w, h, ko, suicide
        self.board, self.to_move = dict(stones), to_move
        self.passes, self.ko_ban = 0, None
        # (position, who is to move, who made it by a board play or None)
        self.history = []
        if history_played:
            self.history.append((self.key(), to_move, other(to_move)))

    def key(self):
        return frozenset(self.board.items())

    def copy(self):
        g = Game.__new__(Game)
        g.__dict__.update(self.__dict__)
        g.board, g.history = dict(self.board), list(self.history)
        return g

    def after_play(self, colour, p):
        """(board, captured, self-captured) after colour plays at p; None if occupied."""
        if p in self.board:
            return None
        board = dict(self.board)
        board[p] = colour
        captured = set()
        for q in neighbours(p, self.w, self.h):
            if board.get(q) == other(colour) and q not in captured:
                string, libs = string_and_liberties(board, q, self.w, self.h)
                if not libs:
                    captured |= string
        for q in captured:
            del board[q]
        own, libs = string_and_liberties(board, p, self.w, self.h)
        self_captured = set()
        if not libs:
            self_captured = own
            for q in own:
                del board[q]
        return board, captured, self_captured

    def legal_play(self, p):
        colour = self.to_move
        result = self.after_play(colour, p)
        if result is None:
            return None
        board, captured, self_captured = result
        if self_captured and (self.suicide == "forbidden" or
                              (self.suicide == "multi-stone" and len(self_captured) == 1)):
            return None
        if self.ko == "simple":
            if self.ko_ban == (colour, p):
                return None
        else:
            key = frozenset(board.items())
            for position, to_move, made_by in self.history:
                if position != key:
                    continue
                if (self.ko == "positional"
                        or (self.ko == "situational" and to_move == other(colour))
                        or (self.ko == "natural-situational" and made_by == colour)):
                    return None
        return board, captured

    def play(self, p, judged):
        board, captured = judged
        colour = self.to_move
        # A basic ko: one stone taken by a lone stone whose only liberty is that point.
        lone = not any(board.get(q) == colour for q in neighbours(p, self.w, self.h))
        libs = [q for q in neighbours(p, self.w, self.h) if q not in board]
        self.ko_ban = (other(colour), next(iter(captured))) if (
            len(captured) == 1 and lone and len(libs) == 1) else None
        self.board, self.to_move, self.passes = board, other(colour), 0
        self.history.append((self.key(), self.to_move, colour))

    def pass_(self):
        self.to_move, self.ko_ban = other(self.to_move), None
        self.passes += 1
        self.history.append((self.key(), self.to_move, None))

    def moves(self):
        """[(move, judged)] in perft order: A1, B1, ..., A2, ..., then pass."""
        if self.passes >= 2:
            return []
        out = []
        for r in range(self.h):
            for c in range(self.w):
                judged = self.legal_play((c, r))
                if judged is not None:
                    out.append(((c, r), judged))
        return out + [("pass", None)]

    def apply(self, move, judged):
        if move == "pass":
            self.pass_()
        else:
            self.play(move, judged)


def other(colour):
    return "W" if colour == "B" else "B"


def perft(game, depth):
    if depth == 0:
        return 1
    moves = game.moves()
    if depth == 1:
        return len(moves)
    total = 0
    for move, judged in moves:
        child = game.copy()
        child.apply(move, judged)
        total += perft(child, depth - 1)
    return total


def vertex(text):
    if text.lower() == "pass":
        return "pass"
    return (COLUMNS.index(text[0].upper()), int(text[1:]) - 1)


def start(record):
    size, rows, to_move, history = record["position"]
    w, h = (int(x) for x in size.split("x"))
    stones = {}
    for k, row in enumerate(rows.split("/")):
        for c, ch in enumerate(row):
            if ch in "XO":
                stones[(c, h - 1 - k)] = "B" if ch == "X" else "W"
    rules = dict(word.split("=") for word in record["rules"])
    game = Game(w, h, stones, to_move.upper(), history == "played",
                rules.get("ko", "natural-situational"), rules.get("suicide", "forbidden"))
    words = record.get("moves", [])
    for colour, text in zip(words[::2], words[1::2]):
        move = vertex(text)
        assert colour == game.to_move, "moves alternate from the player to move"
        judged = dict(game.moves()).get(move, False) if move != "pass" else None
        assert judged is not False, "an illegal move in the start: %s %s" % (colour, text)
        game.apply(move, judged)
    return game


def records(path):
    current = None
    with open(path) as f:
        for line in f:
            words = line.split()
            if not words or words[0].startswith("#"):
                continue
            if words[0] == "id":
                current = {"id": words[1], "counts": []}
                yield current
            elif words[0] == "perft":
                current["counts"].append((int(words[1]), int(words[2])))
            else:
                current[words[0]] = words[1:]


def main(argv):
    limit = 20000
    if argv[:1] == ["--max-nodes"]:
        limit, argv = int(argv[1]), argv[2:]
    failed = checked = 0
    for path in argv:
        for record in list(records(path)):
            game = start(record)
            for depth, expected in record["counts"]:
                if expected > limit:
                    continue
                got = perft(game, depth)
                checked += 1
                status = "ok" if got == expected else "DIFFERS"
                failed += got != expected
                print("%s %s %s perft %d %d %s" % (path, record["id"], " ".join(record["rules"]),
                                                   depth, got, status))
    print("%d counts checked, %d differ" % (checked, failed))
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
