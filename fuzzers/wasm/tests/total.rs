//! Generation is total (issue 14, "no failing seed"): the WebAssembly
//! fuzzer makes 5,000 modules at default options and 250 at each
//! `--max-depth` from 1 to 16, and none fails. (The other fuzzers' test is
//! `tests/tests/total.rs`; this one is beside the fuzzer so that the
//! cross-crate tests need not build wasmtime.)

use std::ops::Range;

use xsmith::{Generator, Options, Source};
use xsmith_wasm::FUZZER;

/// Generates (and renders) the modules of `seeds` at default options but
/// `max_depth` (when given) and an hour's time limit, and panics listing every one that fails, with
/// the command that regenerates it.
fn assert_generates(max_depth: Option<u32>, seeds: Range<u64>) {
    let options = Options {
        max_depth: max_depth.unwrap_or(Options::default().max_depth),
        // Not the default 10 s of wall time: on a loaded machine, in the
        // test profile, a large program could pass it, and this test is
        // about failures, not speed.
        time_limit: std::time::Duration::from_secs(3600),
        ..Options::default()
    };
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, options.clone()).expect("the options suit the spec");
    let (mut total, mut largest, count) = (0, 0, seeds.end - seeds.start);
    let mut failures = Vec::new();
    for seed in seeds {
        match FUZZER.program(&spec, &mut generator, Source::Seed(seed)) {
            Ok(module) => {
                total += module.program.len();
                largest = largest.max(module.program.len());
            }
            Err(error) => failures.push(format!(
                "{}: {error}",
                FUZZER.command_line(&Source::Seed(seed), &options).join(" ")
            )),
        }
    }
    eprintln!(
        "--max-depth {}: {count} modules, {} nodes on average, {largest} at most",
        options.max_depth,
        total / count.max(1) as usize
    );
    assert!(
        failures.is_empty(),
        "{} of {count} modules failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn default_options() {
    assert_generates(None, 0..xsmith_tests::total::DEFAULT_PROGRAMS);
}

macro_rules! depths {
    ($($(#[$attribute:meta])* $name:ident = $depth:expr),* $(,)?) => {$(
        #[test]
        #[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
        $(#[$attribute])*
        fn $name() {
            assert_generates(Some($depth), 0..xsmith_tests::total::PROGRAMS_PER_DEPTH);
        }
    )*};
}

// Deep modules stay near `--size` (default 250 nodes) at every depth.
depths! {
    depth_01 = 1, depth_02 = 2, depth_03 = 3, depth_04 = 4, depth_05 = 5, depth_06 = 6,
    depth_07 = 7, depth_08 = 8, depth_09 = 9, depth_10 = 10, depth_11 = 11,
    depth_12 = 12, depth_13 = 13, depth_14 = 14, depth_15 = 15, depth_16 = 16,
}
