#!/bin/bash -eu
# Builds the fuzz targets for ClusterFuzzLite / OSS-Fuzz and ships each committed corpus as its
# seed corpus. differential_engine is left out: it needs an engine (GOCONFORM_FUZZ_ENGINE) that
# the fuzzing infrastructure does not have; run it locally or in .ci/run.
cd "$SRC/goconform"
cargo fuzz build -O
release=fuzz/target/x86_64-unknown-linux-gnu/release
for target in differential scenario_loader gtp_input jsonl_input; do
  cp "$release/$target" "$OUT/"
  (cd "fuzz/corpus/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
