#!/usr/bin/env python3
"""sgfmill's board (PyPI `sgfmill`, MIT) as a rules engine, the way a Python author would
make one: sgfmill plays a move and makes its captures (self-captures too), and reports the
point simple ko forbids next; the rules around it (whose turn it is, suicide forbidden or
allowed, simple ko, positional superko, two passes stopping play) are the few lines below.

Used two ways, so that both see the same engine:
- in process, by the vector runner (tests/vectors/run_vectors.py), through `Engine`;
- as a JSON-lines engine (docs/protocol.md) when run as a program, so that
  `goconform check --engine "jsonl:python3 tests/vectors/sgfmill_engine.py"` judges it too.

Claims: ko simple and positional, suicide forbidden and allowed, events play and pass, and it
shows the board, the captures and whose turn it is. Square boards of 2 to 19 only (sgfmill's).
"""
import json
import sys

from sgfmill import boards

KO = ["simple", "positional"]
SUICIDE = ["forbidden", "allowed"]
OBSERVES = ["captures", "board", "to-move"]
EVENTS = ["play", "pass"]
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


class Skip(Exception):
    """The engine cannot play this trial."""


class Engine:
    def __init__(self, rules, setup):
        if rules["ko"] not in KO or rules["suicide"] not in SUICIDE:
            raise Skip("ko=%s suicide=%s" % (rules["ko"], rules["suicide"]))
        if setup["width"] != setup["height"] or not 2 <= setup["width"] <= 19:
            raise Skip("sgfmill boards are square, 2 to 19")
        self.size, self.rules = setup["width"], rules
        self.board = boards.Board(self.size)
        black = [self.point(v) for v, c in setup["stones"] if c == "B"]
        black += [self.point(v) for v in setup["handicap"]]
        self.board.apply_setup(black, [self.point(v) for v, c in setup["stones"] if c == "W"], [])
        self.to_move = "W" if setup["handicap"] else setup["to_move"]
        self.passes, self.ko_point = 0, None
        self.seen = {self.key()} if setup["history"] == "played" else set()

    def point(self, vertex):
        return int(vertex[1:]) - 1, LETTERS.index(vertex[0])

    def vertex(self, point):
        return "%s%d" % (LETTERS[point[1]], point[0] + 1)

    def key(self):
        return tuple(tuple(row) for row in self.board.board)

    def stones(self):
        return sorted([self.vertex(p), c.upper()] for c, p in self.board.list_occupied_points())

    def observe(self):
        return {"board": self.stones(), "to_move": self.to_move}

    def apply(self, event):
        """(verdict, reason, captured, self_captured) for an event `B D4` or `W pass`."""
        colour, what = event.split()
        if self.passes >= 2:
            return "illegal", "game-paused", [], []
        if colour != self.to_move:
            return "illegal", "out-of-turn", [], []
        if what == "pass":
            self.to_move, self.passes, self.ko_point = other(colour), self.passes + 1, None
            return "legal", None, [], []
        row, col = self.point(what)
        if self.board.get(row, col) is not None:
            return "illegal", "occupied", [], []
        if self.rules["ko"] == "simple" and self.ko_point == (row, col):
            return "illegal", "ko", [], []
        before = self.board.copy()
        ko_point = self.board.play(row, col, colour.lower())
        removed = [p for c, p in before.list_occupied_points() if self.board.get(*p) is None]
        mine = [p for p in removed if before.get(*p) == colour.lower()]
        if self.board.get(row, col) is None:
            mine.append((row, col))
        if mine and self.rules["suicide"] == "forbidden":
            self.board = before
            return "illegal", "suicide", [], []
        if self.rules["ko"] == "positional":
            if self.key() in self.seen:
                self.board = before
                return "illegal", "superko", [], []
            self.seen.add(self.key())
        self.to_move, self.passes, self.ko_point = other(colour), 0, ko_point
        taken = sorted(self.vertex(p) for p in removed if p not in mine)
        return "legal", None, taken, sorted(self.vertex(p) for p in mine)


def other(colour):
    return "W" if colour == "B" else "B"


def serve():
    """The JSON-lines protocol (docs/protocol.md) on standard input and output."""
    for line in sys.stdin:
        request = json.loads(line)
        if request["type"] == "bye":
            break
        if request["type"] == "hello":
            answer = {"type": "hello", "protocol": 1,
                      "engine": {"name": "sgfmill-board", "version": "1"},
                      "capabilities": {"axes": {"ko": KO, "suicide": SUICIDE},
                                       "observes": OBSERVES, "judges": None, "events": EVENTS}}
        else:
            try:
                engine = Engine(request["rules"], request["setup"])
                steps = []
                initial = engine.observe()
                for event in request["events"]:
                    verdict, reason, taken, mine = engine.apply(event)
                    step = {"verdict": verdict, "observation": engine.observe()}
                    if verdict == "legal":
                        step.update(captured=taken, self_captured=mine)
                    else:
                        step["reason"] = reason
                    steps.append(step)
                answer = {"type": "result", "id": request["id"], "initial": initial,
                          "steps": steps}
            except Skip as why:
                answer = {"type": "skipped", "id": request["id"], "reason": str(why)}
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    serve()
