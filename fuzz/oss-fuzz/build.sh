#!/usr/bin/env bash
# OSS-Fuzz and ClusterFuzzLite build script: builds every libFuzzer target
# of fuzz/ with fuzz/build (SanitizerCoverage on stable or nightly Rust)
# and copies each into $OUT, with a seed corpus of programs.
#
# OSS-Fuzz runs it in $SRC/xsmith-rs with SRC, OUT, WORK, CC, CXX, CFLAGS,
# CXXFLAGS, RUSTFLAGS and SANITIZER set. libFuzzer itself is C++, built by
# the libfuzzer-sys crate with $CC/$CXX and these flags; the Rust side links
# a sanitizer's runtime only on a nightly toolchain (-Zsanitizer), so on
# stable the sanitizer flags are taken out of the C and C++ flags (the Rust
# code is then checked by its own run-time checks: debug assertions and
# overflow checks, which OSS-Fuzz's RUSTFLAGS turn on).
#
#   SRC=/src OUT=/out WORK=/work fuzz/oss-fuzz/build.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
: "${OUT:?set OUT to the directory the fuzz targets go to}"
: "${WORK:=${TMPDIR:-/tmp}}"
cd "$repo"

strip_sanitizers() {
    local flags=() flag
    for flag in $1; do
        case "$flag" in
            -fsanitize=* | -fsanitize-* | -fno-sanitize* | -stdlib=libc++) ;;
            *) flags+=("$flag") ;;
        esac
    done
    echo "${flags[*]:-}"
}

if rustc --version | grep -q nightly && [ "${SANITIZER:-none}" = address ]; then
    # cargo-fuzz's way: the Rust code is compiled with AddressSanitizer too.
    export RUSTFLAGS="${RUSTFLAGS:-} -Zsanitizer=address"
else
    export CFLAGS=$(strip_sanitizers "${CFLAGS:-}")
    export CXXFLAGS=$(strip_sanitizers "${CXXFLAGS:-}")
fi
# `--cfg fuzzing` and the run-time checks OSS-Fuzz asks for stay in RUSTFLAGS;
# fuzz/build adds SanitizerCoverage to the crates built for the target and
# prints the directory of the binaries last.
mkdir -p "$OUT"
bin=$(fuzz/build | tail -n 1)

targets=$(sed -n 's/^name = "\(.*\)"$/\1/p' fuzz/Cargo.toml | grep -v '^xsmith-fuzz$')
for target in $targets; do
    cp "$bin/$target" "$OUT/$target"
    # A seed corpus: eight-byte inputs are the programs of those seeds.
    corpus="$WORK/corpus-$target"
    rm -rf "$corpus"
    mkdir -p "$corpus"
    for seed in 1 2 3 4 5 6 7 8; do
        printf "\\x0$seed\\x00\\x00\\x00\\x00\\x00\\x00\\x00" >"$corpus/seed-$seed"
    done
    rm -f "$OUT/${target}_seed_corpus.zip"
    (cd "$corpus" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
echo "built: $targets"
