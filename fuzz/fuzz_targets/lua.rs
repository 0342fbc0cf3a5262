//! libFuzzer's bytes as the choices of a `xsmith_lua` program: generation
//! succeeds and the program's choices regenerate it.
#![no_main]

libfuzzer_sys::fuzz_target!(|bytes: &[u8]| {
    xsmith_fuzz::generate(&xsmith_lua::FUZZER, bytes);
});
