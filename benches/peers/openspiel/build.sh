#!/bin/sh
# Builds the OpenSpiel peer of benches/play.rs: OpenSpiel's go board (go_board.cc, unchanged)
# and shim.cc into one shared library the bench loads at run time. Nothing of OpenSpiel is in
# this repository; the source comes from its source distribution on PyPI:
#
#   pip download --no-binary open_spiel --no-deps open_spiel -d DIR
#   sh benches/peers/openspiel/build.sh DIR/open_spiel-*.tar.gz [OUT]
#
# OUT defaults to target/peers/libopenspiel_go.so; the bench looks there, or where
# GOCONFORM_OPENSPIEL names, and skips the peer with a printed reason when it finds nothing.
# Compiled with -O3 and link-time optimisation (the Rust side is built with fat LTO) for the
# same x86-64 baseline as the Rust side (no -march). Symbols are hidden but for the shim's entry
# points: with the default visibility every function of go_board.cc is interposable in
# a shared library, so GCC neither inlined nor bound locally the board's small calls (an
# `add_liberty@plt` in the profile), which held OpenSpiel at 0.58-0.83x of its rate built this
# way (one run each in turns, best of five, 2-core development machine: random play 7.0 against
# 8.5-8.6 M moves/s, uniform 2.30 and 0.91 against 3.33 and 1.57 on 9x9 and 19x19), as a
# program linked whole would not be. Needs a C++17 compiler (c++, g++ or clang++) and tar. CI
# does not build or need it.
set -eu
src=${1:?usage: build.sh OPEN_SPIEL_SDIST_OR_DIR [OUT]}
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$here/../../../target/peers/libopenspiel_go.so}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ -d "$src" ]; then
  root=$src
else
  tar -xzf "$src" -C "$work" --wildcards '*/open_spiel/games/go/go_board.*' \
    '*/open_spiel/games/chess/chess_common.h' '*/open_spiel/spiel_utils.h' \
    '*/open_spiel/abseil-cpp/absl/*' '*/open_spiel/json/include/*'
  root=$(echo "$work"/open_spiel-*)
fi
cxx=${CXX:-c++}
# The abseil sources behind the string helpers go_board.cc formats its error messages with.
absl="strings/str_cat strings/str_split strings/numbers strings/ascii strings/internal/memutil
  strings/match strings/charconv strings/internal/charconv_bigint strings/internal/charconv_parse
  base/internal/raw_logging numeric/int128"
mkdir -p "$(dirname "$out")"
"$cxx" -std=c++17 -O3 -flto -DNDEBUG -fPIC -fvisibility=hidden -fvisibility-inlines-hidden \
  -shared -w \
  -I"$root" -I"$root/open_spiel/abseil-cpp" -I"$root/open_spiel/json/include" \
  "$root/open_spiel/games/go/go_board.cc" "$here/shim.cc" \
  $(for f in $absl; do echo "$root/open_spiel/abseil-cpp/absl/$f.cc"; done) \
  -Wl,--no-undefined -o "$out"
echo "built $out"
