//! Generation is total (issue 14, "no failing seed"): each fuzzer makes
//! 5,000 programs at default options and 250 at each `--max-depth` from
//! 1 to 16, and none fails (see `xsmith_tests::total`; the WebAssembly
//! fuzzer's are beside it, in `fuzzers/wasm/tests/total.rs`).

macro_rules! every_depth {
    ($fuzzer:expr) => {
        xsmith_tests::total_generation_tests! {
            fuzzer: $fuzzer,
            depths: [
                depth_01 = 1, depth_02 = 2, depth_03 = 3, depth_04 = 4, depth_05 = 5, depth_06 = 6,
                depth_07 = 7, depth_08 = 8, depth_09 = 9, depth_10 = 10, depth_11 = 11, depth_12 = 12,
                depth_13 = 13, depth_14 = 14, depth_15 = 15, depth_16 = 16,
            ],
        }
    };
}

mod calc {
    every_depth!(xsmith_calc::FUZZER);
}

mod lua {
    every_depth!(xsmith_lua::FUZZER);
}

mod javascript {
    every_depth!(xsmith_javascript::FUZZER);
}

mod python {
    every_depth!(xsmith_python::FUZZER);
}
