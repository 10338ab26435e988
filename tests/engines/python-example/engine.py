"""A complete engine in about a hundred lines of Python, standard library only, on top of
tests/engines/jsonl_shim.py: the rules of play under simple ko with suicide forbidden. It is
the worked example for authors of engines in Python (docs/protocol.md); tests/engines_cli.rs
runs the suite through it, where it passes every trial it is given.

    goconform check --engine "jsonl:python3 tests/engines/python-example/engine.py"
"""

import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from jsonl_shim import Skip, serve  # noqa: E402

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
OTHER = {"B": "W", "W": "B"}


class Game:
    def __init__(self, setup):
        self.width, self.height = setup["width"], setup["height"]
        self.stones = {vertex: colour for vertex, colour in setup["stones"]}
        for vertex in setup["handicap"]:
            self.stones[vertex] = "B"
        self.to_move = "W" if setup["handicap"] else setup["to_move"]
        self.ko = None  # the point the player to move may not take back at once

    def neighbours(self, vertex):
        x, y = COLUMNS.index(vertex[0]), int(vertex[1:]) - 1
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= x + dx < self.width and 0 <= y + dy < self.height:
                yield "%s%d" % (COLUMNS[x + dx], y + dy + 1)

    def string(self, vertex):
        colour, seen, todo, liberties = self.stones[vertex], {vertex}, [vertex], set()
        while todo:
            for n in self.neighbours(todo.pop()):
                if n not in self.stones:
                    liberties.add(n)
                elif self.stones[n] == colour and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen, liberties

    def play(self, colour, vertex):
        """The step for a play; the game is left as it was when the play is illegal."""
        if vertex in self.stones:
            return {"verdict": "illegal", "reason": "occupied"}
        if vertex == self.ko:
            return {"verdict": "illegal", "reason": "ko"}
        self.stones[vertex] = colour
        captured = set()
        for n in self.neighbours(vertex):
            if self.stones.get(n) == OTHER[colour]:
                group, liberties = self.string(n)
                if not liberties:
                    captured |= group
        for p in captured:
            del self.stones[p]
        if not self.string(vertex)[1]:
            del self.stones[vertex]
            return {"verdict": "illegal", "reason": "suicide"}
        # A single stone that took a single stone and stands alone with one liberty: the
        # immediate retake is the ko.
        group, liberties = self.string(vertex)
        self.ko = captured.copy().pop() if len(captured) == 1 and len(group) == 1 and len(liberties) == 1 else None
        self.to_move = OTHER[colour]
        return {"verdict": "legal", "captured": sorted(captured), "self_captured": []}


def start(rules, setup):
    if rules["ko"] != "simple" or rules["suicide"] != "forbidden":
        raise Skip("only simple ko with suicide forbidden")
    return Game(setup)


def observe(game):
    return {"board": sorted([v, c] for v, c in game.stones.items())}


def step(game, event):
    colour, move = event.split()
    if move == "pass":
        game.ko, game.to_move = None, OTHER[colour]
        result = {"verdict": "legal", "captured": [], "self_captured": []}
    else:
        result = game.play(colour, move)
    result["observation"] = observe(game)
    return result


serve(
    "python-example",
    "1",
    {"axes": {"ko": ["simple"], "suicide": ["forbidden"]},
     "observes": ["reasons", "captures", "board"],
     "judges": ["occupied", "suicide", "ko"],
     "events": ["play", "pass"]},
    start, observe, step,
)
