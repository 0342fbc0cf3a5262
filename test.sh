#!/usr/bin/env bash
# The test command: installs the language implementations the tests run
# programs on (Debian packages, only those missing), builds the libFuzzer
# targets, `xsmith-wasm guided` and `xsmith-wasm-edges` (`corpus --coverage
# engines`) with SanitizerCoverage (`fuzz/build`, `fuzz/build --edges`:
# fuzzers/wasm/tests/libfuzzer.rs runs them), and the same two of
# `xsmith-lua` with its in-process Lua 5.4 (`--fuzzer lua`:
# fuzzers/lua/tests/instrumented.rs), then runs every test of the
# workspace, doctests included, and the heavy sweeps that plain `cargo test`
# skips (the fast tier: they are `#[ignore]`d, and run here with
# `--include-ignored`).
#
#   ./test.sh            # as root, or with sudo available
#   ./test.sh -- --nocapture   # extra arguments go to `cargo test`
set -euo pipefail
cd "$(dirname "$0")"

# command -> Debian package that provides it
declare -A PACKAGES=(
    [python3]=python3
    [node]=nodejs
    [lua5.1]=lua5.1
    [lua5.4]=lua5.4
    [luajit]=luajit
    [wasm-interp]=wabt
    [duk]=duktape
    [pypy3]=pypy3
    [gcc]=gcc
    [clang]=clang
    [tcc]=tcc
    [c++]=g++
    [racket]=racket
    [guile-3.0]=guile-3.0
    [chezscheme]=chezscheme
    [csi]=chicken-bin
    [csc]=chicken-bin
    [mount]=mount         # the full-disk test's tmpfs (fuzzers/calc/tests/journal.rs)
    [chromium]=chromium   # loads the findings report (fuzzers/calc/tests/findings.rs)
    [zip]=zip             # seed corpora of fuzz/oss-fuzz/build.sh
    [sml]=smlnj
    [poly]=polyml
    [polyc]=polyml
)

# library (a path glob) -> Debian package that provides it
declare -A LIBRARIES=(
    ['/usr/lib/*/libpolyml.a']=libpolyml-dev
)

missing=()
for command in "${!PACKAGES[@]}"; do
    command -v "$command" >/dev/null 2>&1 || missing+=("${PACKAGES[$command]}")
done
for library in "${!LIBRARIES[@]}"; do
    compgen -G "$library" >/dev/null || missing+=("${LIBRARIES[$library]}")
done
if ((${#missing[@]})); then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "test.sh: installing ${missing[*]}" >&2
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
fi

# The WebAssembly builds instrument xsmith's crates (what the fuzz
# targets' coverage is), wasmi and wasm-smith, and leave wasmtime and
# Cranelift plain: instrumented, they took most of the tests' build time,
# and the tests of fuzzers/wasm/tests/libfuzzer.rs need coverage, not
# theirs. The edges build goes first, the libFuzzer build after it
# compiles only xsmith and xsmith-wasm again.
wasm_sancov=xsmith,wasmi,wasm_smith
wasm_bin=$(XSMITH_SANCOV=$wasm_sancov fuzz/build --edges)
XSMITH_SANCOV=$wasm_sancov fuzz/build >/dev/null
export XSMITH_FUZZ_BIN="$PWD/$wasm_bin"
XSMITH_SANCOV=lua fuzz/build --edges --fuzzer lua
XSMITH_SANCOV=lua fuzz/build --fuzzer lua

if [ "${1:-}" = "--" ]; then shift; fi
# Lua 5.4 in-process (a feature of its own, so that the workspace's
# xsmith-lua stays the one of the installed interpreters alone) and its
# instrumented builds (fuzzers/lua/tests/instrumented.rs): the tests that
# need the feature, and the doctests (the in_process module's are among
# them); then the rest.
cargo test -p xsmith-lua --features in-process --lib --test in_process --test instrumented "$@" -- --include-ignored
cargo test -p xsmith-lua --features in-process --doc "$@"
exec cargo test --workspace "$@" -- --include-ignored
