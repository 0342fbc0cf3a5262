//! libFuzzer's bytes as the choices of an `xsmith-wasm` module: it
//! generates, regenerates from its choices, and runs alike on wasmtime and
//! wasmi (up to the known bugs of `fuzzers/wasm/known-bugs`).
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    xsmith_fuzz::generate(&xsmith_wasm::FUZZER, bytes);
    xsmith_fuzz::agree(&xsmith_wasm::FUZZER, xsmith_wasm::KNOWN_BUGS, bytes);
});
