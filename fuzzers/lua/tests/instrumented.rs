//! The in-process Lua 5.4 with its C compiled with SanitizerCoverage
//! (`XSMITH_SANCOV=lua fuzz/build [--edges] --fuzzer lua`, which `test.sh`
//! runs first): `corpus --coverage engines` and `guided` on the
//! interpreter's own edges. The binaries are in `$XSMITH_LUA_FUZZ_BIN` or
//! the workspace's `target/fuzz-lua/<host>/release`.

use std::path::{Path, PathBuf};

use xsmith_tests::instrumented::{check_engine_corpus, check_guided_grows};

fn instrumented(name: &str) -> PathBuf {
    xsmith_tests::instrumented::binary("XSMITH_LUA_FUZZ_BIN", "fuzz-lua", name)
}

const PLAIN: &str = env!("CARGO_BIN_EXE_xsmith-lua");

/// Both methods, on the interpreter's edges (7,574 instrumented; a few
/// seconds of programs reach about 2,000).
#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn a_corpus_covers_the_edges_of_the_interpreter_both_ways() {
    check_engine_corpus(&instrumented("xsmith-lua-edges"), Path::new(PLAIN), "lua", 1000);
}

/// Guided generation: the corpus grows, and the interpreter agrees with
/// itself on every program (the only implementation in the process).
#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn guided_grows_a_corpus_from_seeds() {
    let tally = check_guided_grows(&instrumented("xsmith-lua"), Path::new(PLAIN));
    assert!(tally.contains("differ 0, rejected 0, crashed 0, timeout 0"), "{tally}");
}
