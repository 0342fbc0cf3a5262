//! wasm-smith's modules, made from libFuzzer's bytes, run alike on
//! wasmtime and wasmi: the peer of the `wasm` target.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    xsmith_fuzz::smith::agree(bytes);
});
