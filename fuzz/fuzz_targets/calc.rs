//! libFuzzer's bytes as the choices of a `xsmith_calc` program: generation
//! succeeds and the program's choices regenerate it.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    xsmith_fuzz::generate(&xsmith_calc::FUZZER, bytes);
});
