//! A WebAssembly module is its choice sequence (see `xsmith_tests::choices`):
//! 500 recorded sequences replay to the same module, 2,000 random and
//! 2,000 mutated sequences generate, and 100 of those modules run clean on
//! wasmtime and wasm-interp (not wasmi: its known bug, in about 1% of
//! modules, is checked for in `conformance.rs`).

use xsmith_tests::choices::{check_choice_sequences, Counts};

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn modules_are_their_choice_sequences() {
    let counts = Counts {
        replays: 500,
        random: 2_000,
        mutated: 2_000,
        run: 100,
    };
    let fuzzer = &xsmith_wasm::FUZZER;
    let implementations: Vec<xsmith::Implementation> = fuzzer
        .implementations
        .iter()
        .filter(|implementation| implementation.name() != "wasmi")
        .cloned()
        .collect();
    assert_eq!(
        implementations.len() + 1,
        fuzzer.implementations.len(),
        "wasmi is one of the engines"
    );
    check_choice_sequences(fuzzer, &implementations, counts);
}
