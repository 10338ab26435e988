"""Turns goconform's JSON-lines report into what a CI job page shows: an annotation per failing
trial (`::error file=...,line=...::`, which GitHub puts on the scenario's line) on standard
output, and a Markdown summary (tallies, the failing trials, the fuzz outcome) appended to a
file (GitHub's $GITHUB_STEP_SUMMARY). Standard library only.

Usage: summarise.py REPORT.jsonl SUMMARY.md ENGINE [FUZZ.log]
"""

import json
import sys

FAILING = ("fail", "unexpected-pass", "error", "timeout", "harness-error")


def escape(text):
    # The workflow command syntax: %, CR and LF in the message, plus , and : in properties.
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def prop(text):
    return escape(text).replace(",", "%2C").replace(":", "%3A")


def main():
    report, summary, engine = sys.argv[1], sys.argv[2], sys.argv[3]
    fuzz_log = sys.argv[4] if len(sys.argv) > 4 and sys.argv[4] else None
    footer, failing = {}, []
    with open(report, encoding="utf-8") as lines:
        for line in lines:
            record = json.loads(line)
            if record.get("type") == "footer":
                footer = record
            elif record.get("type") == "trial" and record.get("outcome") in FAILING:
                failing.append(record)
    for trial in failing:
        mismatches = trial.get("mismatches") or [{}]
        line = mismatches[0].get("line", 1)
        title = "%s [%s]: %s" % (trial["scenario"], trial["run"], trial["outcome"])
        print("::error file=%s,line=%s,title=%s::%s" % (
            prop(trial["file"]), line, prop(title), escape(trial.get("summary", ""))))
    out = ["## goconform: %s" % engine, ""]
    names = ["pass", "fail", "expected_failure", "unexpected_pass", "not_applicable",
             "error", "timeout", "harness_error"]
    out.append("| " + " | ".join(n.replace("_", " ") for n in names) + " |")
    out.append("|" + "---|" * len(names))
    out.append("| " + " | ".join(str(footer.get(n, 0)) for n in names) + " |")
    out.append("")
    if failing:
        out.append("### Failing trials (%d)" % len(failing))
        out.append("")
        for trial in failing[:100]:
            mismatches = trial.get("mismatches") or [{}]
            out.append("- `%s:%s` %s [%s] %s: %s" % (
                trial["file"], mismatches[0].get("line", 1), trial["scenario"], trial["run"],
                trial["outcome"], trial.get("summary", "").replace("\n", " ")))
        if len(failing) > 100:
            out.append("- ... and %d more (check.jsonl)" % (len(failing) - 100))
        out.append("")
    else:
        out.append("Every trial that applied passed.")
        out.append("")
    if fuzz_log:
        with open(fuzz_log, encoding="utf-8") as log:
            last = [l.strip() for l in log if l.strip()]
        out.append("### Fuzz")
        out.append("")
        out.append(last[-1] if last else "(no output)")
        out.append("")
    with open(summary, "a", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


if __name__ == "__main__":
    main()
