"""The protocol side of a JSON-lines engine, in Python with the standard library only: the
counterpart of jsonl-shim.js, and the starting point for an adapter (docs/protocol.md, "A
minimal engine"). An adapter gives its name, version and capabilities and three functions;
the handshake, `run` with its set-up, steps, skips and errors, `bye`, and one flushed reply
line per request line are here.

    serve(name, version, capabilities, start, observe, step)

- start(rules, setup): a game at the set-up, or raises Skip for what the engine cannot take
  (the run is answered `skipped`);
- observe(game): the observation of the game as it stands (a dict);
- step(game, event): the step for one event (`verdict`, ..., `observation`), or raises for
  what the engine cannot be asked (the run is answered `error`, naming the event).
"""

import json
import re
import sys

PROTOCOL = 1

# The protocol's optional extensions this side speaks: `board-rows`, each board as rows of
# cells where the request asks for it (docs/protocol.md, "Extensions"), made here from the
# pairs the adapter observes, so that no adapter need know of it.
EXTENSIONS = ["board-rows"]
COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
VERTEX = re.compile(r"([A-HJ-Z])([1-9][0-9]?)")


class Skip(Exception):
    """The engine cannot play this run's rules or set-up."""


def _in_form(request, observation):
    """The board of `observation` as rows, the top row first, if the request asks for rows. A
    board that is not one of stones on the set-up's points stays as pairs (the harness takes
    pairs either way), so that the harness, not this conversion, says what is wrong with it."""
    if request.get("board_form") != "rows" or not isinstance(observation, dict) \
            or not isinstance(observation.get("board"), list):
        return observation
    width, height = request["setup"]["width"], request["setup"]["height"]
    cells = [["."] * width for _ in range(height)]
    for stone in observation["board"]:
        vertex, colour = stone if isinstance(stone, list) and len(stone) == 2 else (None, None)
        parts = VERTEX.fullmatch(vertex) if isinstance(vertex, str) else None
        column = COLUMNS.index(parts.group(1)) if parts else -1
        row = int(parts.group(2)) if parts else 0
        if not (0 <= column < width and 1 <= row <= height) or colour not in ("B", "W") \
                or cells[height - row][column] != ".":
            return observation
        cells[height - row][column] = colour
    rows = {"rows": ["".join(line) for line in cells]}
    rows.update((k, v) for k, v in observation.items() if k != "board")
    return rows


def _run(start, observe, step, request):
    try:
        game = start(request["rules"], request["setup"])
    except Skip as why:
        return {"type": "skipped", "id": request["id"], "reason": str(why)}
    initial = _in_form(request, observe(game))
    steps = []
    for k, event in enumerate(request["events"]):
        try:
            made = step(game, event)
            if isinstance(made, dict) and "observation" in made:
                made = dict(made, observation=_in_form(request, made["observation"]))
            steps.append(made)
        except Exception as e:  # the engine cannot be asked this event
            return {"type": "error", "id": request["id"], "message": str(e),
                    "context": {"event": k + 1, "text": event}}
    return {"type": "result", "id": request["id"], "initial": initial, "steps": steps}


def serve(name, version, capabilities, start, observe, step):
    for line in sys.stdin:
        request = None
        try:
            request = json.loads(line)
            kind = request.get("type")
            if kind == "bye":
                return
            if kind == "hello":
                reply = {"type": "hello", "protocol": PROTOCOL,
                         "engine": {"name": name, "version": version},
                         "capabilities": capabilities, "extensions": EXTENSIONS}
            elif kind == "run":
                reply = _run(start, observe, step, request)
            else:
                raise ValueError("unknown request type `%s`" % kind)
        except Exception as e:
            ident = request.get("id") if isinstance(request, dict) else None
            reply = {"type": "error", "id": ident if isinstance(ident, str) else None,
                     "message": str(e)}
        # One line per request, flushed at once: an unflushed reply looks like a hang.
        print(json.dumps(reply), flush=True)
