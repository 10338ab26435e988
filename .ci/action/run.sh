#!/usr/bin/env bash
# The steps of the goconform action (action.yml beside this file), runnable anywhere:
#
#   GOCONFORM=goconform ENGINE=gnugo OUT=reports bash .ci/action/run.sh
#
# Inputs (environment): GOCONFORM (the binary, default `goconform`), ENGINE (required), CLAIMS
# (`--claim` settings separated by spaces), EXPECTATIONS (a file), FUZZ_SECONDS (0: no fuzz),
# FUZZ_RULES, KNOWN (a folder of triaged findings), OUT (the reports' folder, default
# goconform-reports), GITHUB_STEP_SUMMARY (where the Markdown summary goes; GitHub sets it).
# Writes OUT/check.jsonl, OUT/check.xml and, when fuzzing, OUT/fuzz.xml and OUT/findings/;
# prints an `::error file=...,line=...::` annotation per failing trial. Exit status: 0 when the
# check passed and the fuzz found nothing new, 1 otherwise, 2 for bad input.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
goconform="${GOCONFORM:-goconform}"
out="${OUT:-goconform-reports}"
summary="${GITHUB_STEP_SUMMARY:-$out/summary.md}"
if [ -z "${ENGINE:-}" ]; then
  echo "::error::the action needs an engine (the input \`engine\`)"
  exit 2
fi
mkdir -p "$out"
claims=()
for claim in ${CLAIMS:-}; do
  claims+=(--claim "$claim")
done
expectations=()
if [ -n "${EXPECTATIONS:-}" ]; then
  expectations=(--expectations "$EXPECTATIONS")
fi

"$goconform" check --engine "$ENGINE" "${claims[@]}" "${expectations[@]}" \
  --format jsonl --junit "$out/check.xml" >"$out/check.jsonl"
check=$?
if [ "$check" -ge 2 ]; then
  echo "::error::goconform check could not run the engine (exit $check); see the log above"
  exit 2
fi

fuzz=0
if [ "${FUZZ_SECONDS:-0}" != 0 ]; then
  rules=()
  if [ -n "${FUZZ_RULES:-}" ]; then
    rules=(--rules "$FUZZ_RULES")
  fi
  known=()
  if [ -n "${KNOWN:-}" ]; then
    known=(--known "$KNOWN")
  fi
  "$goconform" fuzz --engine "$ENGINE" "${claims[@]}" "${rules[@]}" "${known[@]}" \
    --seconds "$FUZZ_SECONDS" --findings 5 --out "$out/findings" --junit "$out/fuzz.xml" \
    | tee "$out/fuzz.log"
  fuzz=${PIPESTATUS[0]}
  if [ "$fuzz" -ge 2 ]; then
    echo "::error::goconform fuzz could not run the engine (exit $fuzz)"
    exit 2
  fi
fi

python3 "$here/summarise.py" "$out/check.jsonl" "$summary" "${ENGINE}" \
  "$([ "${FUZZ_SECONDS:-0}" != 0 ] && echo "$out/fuzz.log")"
if [ "$check" -ne 0 ] || [ "$fuzz" -ne 0 ]; then
  exit 1
fi
