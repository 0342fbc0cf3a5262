//! Compile-time behaviour of the `component!` macro: each mistake in
//! `tests/ui` must be reported at the user's offending token with a clear
//! message (the expected compiler output is in the `.stderr` beside each
//! case), and the spec in `tests/ui-pass` uses every property and compiles.
//!
//! Regenerate the expected output with
//! `TRYBUILD=overwrite cargo test -p xsmith --test macro_errors`, then read
//! every changed `.stderr` before keeping it.

#[test]
fn macro_errors() {
    let cases = trybuild::TestCases::new();
    cases.compile_fail("tests/ui/*.rs");
    cases.pass("tests/ui-pass/*.rs");
}
