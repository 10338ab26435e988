#!/usr/bin/env python3
"""Runs goconform's test vectors (`goconform export --vectors DIR`, docs/vectors.md) against an
engine in this process, as an engine author would in their own test suite: standard library
only, plus the engine under test (here sgfmill's board with a ko rule, sgfmill_engine.py).

    python3 tests/vectors/run_vectors.py DIR [--jsonl]

Prints `pass`, `fail` or `skip` for every vector with the reason, then the tally; exits 1 if
any vector fails. `--jsonl` prints one JSON object a vector instead ({"id", "outcome"}).
A vector is skipped when the engine cannot play it: a referee's record, an event kind it does
not take, rules it does not support (it raises Skip), or nothing it checks that the engine
shows. Verdicts are compared as legal or illegal (the engine does not claim reasons).
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from sgfmill_engine import EVENTS, OBSERVES, Engine, Skip  # noqa: E402

# Which observation each expectation field needs (absent: always compared).
NEEDS = {"captures": "captures", "self_captures": "captures", "board": "board",
         "to_move": "to-move", "prisoners": "prisoners", "phase": "phase",
         "result": "score", "score": "score", "class": "procedures",
         "warnings": "procedures", "note": None}


def checks(expectation):
    """The fields of an expectation the engine can be judged on."""
    out = {}
    for key, value in expectation.items():
        if key == "after":
            continue
        if key == "verdict":
            if value == "legal" or "illegal" in value:
                out[key] = value
        elif NEEDS[key] in OBSERVES:
            out[key] = value
    return out


def run(vector):
    """('pass' | 'fail' | 'skip', why)."""
    if vector["record"]:
        return "skip", "a referee's record"
    missing = set(vector["event_kinds"]) - set(EVENTS)
    if missing:
        return "skip", "takes no %s events" % ", ".join(sorted(missing))
    wanted = {e["after"]: checks(e) for e in vector["expect"]}
    if not any(wanted.values()):
        return "skip", "shows nothing the vector checks"
    try:
        engine = Engine(vector["rules"], vector["setup"])
    except Skip as why:
        return "skip", str(why)
    problems = []
    seen = dict(engine.observe(), captures=None, self_captures=None, verdict=None)
    for after in range(len(vector["events"]) + 1):
        if after > 0:
            verdict, _, taken, mine = engine.apply(vector["events"][after - 1])
            seen = dict(engine.observe(), captures=taken, self_captures=mine,
                        verdict="legal" if verdict == "legal" else {"illegal": None})
        for key, expected in wanted.get(after, {}).items():
            got = seen[key]
            if key == "verdict":
                same = (expected == "legal") == (got == "legal")
            elif key in ("captures", "self_captures"):
                same = got is not None and sorted(got) == sorted(expected)
            else:
                same = got == expected
            if not same:
                problems.append("after %d: %s expected %s, got %s" % (after, key, expected, got))
    return ("fail", "; ".join(problems)) if problems else ("pass", "")


def main(argv):
    folder = argv[0]
    as_jsonl = "--jsonl" in argv[1:]
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    if index["format"] != 1:
        sys.exit("vector format %s: this runner reads format 1" % index["format"])
    tally = {"pass": 0, "fail": 0, "skip": 0}
    for entry in index["vectors"]:
        with open(os.path.join(folder, entry["file"])) as f:
            outcome, why = run(json.load(f))
        tally[outcome] += 1
        if as_jsonl:
            print(json.dumps({"id": entry["id"], "outcome": outcome, "why": why}))
        else:
            print("%s %s%s" % (outcome, entry["id"], ": " + why if why else ""))
    if not as_jsonl:
        print("%(pass)d passed, %(fail)d failed, %(skip)d skipped" % tally)
    return 1 if tally["fail"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
