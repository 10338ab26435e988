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
import sys

PROTOCOL = 1


class Skip(Exception):
    """The engine cannot play this run's rules or set-up."""


def _run(start, observe, step, request):
    try:
        game = start(request["rules"], request["setup"])
    except Skip as why:
        return {"type": "skipped", "id": request["id"], "reason": str(why)}
    initial = observe(game)
    steps = []
    for k, event in enumerate(request["events"]):
        try:
            steps.append(step(game, event))
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
                         "capabilities": capabilities}
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
