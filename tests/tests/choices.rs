//! A program is its choice sequence, for every fuzzer of this crate's
//! dependencies (see `xsmith_tests::choices`): 500 recorded sequences
//! replay to the same program, 2,000 random and 2,000 mutated sequences
//! generate, and 100 of those programs run clean on the fuzzer's
//! implementations.

use xsmith_tests::choices::{check_choice_sequences, Counts};

const COUNTS: Counts = Counts {
    replays: 500,
    random: 2_000,
    mutated: 2_000,
    run: 100,
};

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn calc_programs_are_their_choice_sequences() {
    let fuzzer = &xsmith_calc::FUZZER;
    check_choice_sequences(fuzzer, fuzzer.implementations, COUNTS);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn lua_programs_are_their_choice_sequences() {
    let fuzzer = &xsmith_lua::FUZZER;
    check_choice_sequences(fuzzer, fuzzer.implementations, COUNTS);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn javascript_programs_are_their_choice_sequences() {
    let fuzzer = &xsmith_javascript::FUZZER;
    check_choice_sequences(fuzzer, fuzzer.implementations, COUNTS);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn python_programs_are_their_choice_sequences() {
    let fuzzer = &xsmith_python::FUZZER;
    check_choice_sequences(fuzzer, fuzzer.implementations, COUNTS);
}
