//! Generation is total (issue 14, "no failing seed"): the WebAssembly
//! fuzzer makes 5,000 modules at default options and 250 at each
//! `--max-depth` from 1 to 16, and none fails (see `xsmith_tests::total`;
//! the other fuzzers' test is `tests/tests/total.rs`; this one is beside
//! the fuzzer so that the cross-crate tests need not build wasmtime).
//! Deep modules stay near `--size` (default 250 nodes) at every depth.

xsmith_tests::total_generation_tests! {
    fuzzer: xsmith_wasm::FUZZER,
    depths: [
        depth_01 = 1, depth_02 = 2, depth_03 = 3, depth_04 = 4, depth_05 = 5, depth_06 = 6,
        depth_07 = 7, depth_08 = 8, depth_09 = 9, depth_10 = 10, depth_11 = 11,
        depth_12 = 12, depth_13 = 13, depth_14 = 14, depth_15 = 15, depth_16 = 16,
    ],
}
