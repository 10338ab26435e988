#!/usr/bin/env bash
# Builds the npm package's WebAssembly: the library with the `wasm` feature for
# wasm32-unknown-unknown, as a cdylib in the `wasm` profile (release with LTO), then
# wasm-bindgen's JavaScript side for Node into js/pkg/ (generated, not committed). Needs the target (`rustup target add
# wasm32-unknown-unknown`) and wasm-bindgen-cli at the version of wasm-bindgen in Cargo.lock.
# Prints the .wasm's path.
set -euo pipefail
cd "$(dirname "$0")/.."
target_dir="${CARGO_TARGET_DIR:-target}"
cargo rustc --quiet --locked --profile wasm --target wasm32-unknown-unknown \
  --no-default-features --features wasm --lib --crate-type cdylib
wasm="$target_dir/wasm32-unknown-unknown/wasm/goconform.wasm"
wasm-bindgen --target nodejs --out-dir js/pkg "$wasm"
# The same module for a page with no server and nothing fetched (the live rule book): no
# modules, the .wasm given as bytes by the page itself.
wasm-bindgen --target no-modules --no-typescript --out-dir js/pkg/web "$wasm"
echo js/pkg/goconform_bg.wasm
