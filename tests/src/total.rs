//! Generation is total (issue 14, "no failing seed"): a fuzzer makes
//! [`DEFAULT_PROGRAMS`] programs at default options and
//! [`PROGRAMS_PER_DEPTH`] at each `--max-depth` from 1 to 16, and none
//! fails. [`total_generation_tests!`](crate::total_generation_tests) makes
//! one test of each, so that the test harness runs them on every core.
//!
//! ```
//! let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
//!     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//!     implementations: &[] };
//! xsmith_tests::total::assert_generates(&fuzzer, Some(3), 0..50);
//! ```

use std::ops::Range;

use xsmith::{Fuzzer, Generator, Options, Source};

/// Programs generated at default options.
pub const DEFAULT_PROGRAMS: u64 = 5_000;

/// Programs generated at each `--max-depth`.
pub const PROGRAMS_PER_DEPTH: u64 = 250;

/// Generates (and renders) the programs of `seeds` at default options but
/// `max_depth` (when given) and an hour's time limit, and panics listing every one that fails, each
/// with the command that regenerates it. Prints the average and largest
/// size reached, in nodes.
pub fn assert_generates(fuzzer: &Fuzzer, max_depth: Option<u32>, seeds: Range<u64>) {
    let options = Options {
        max_depth: max_depth.unwrap_or(Options::default().max_depth),
        // Not the default 10 s of wall time: on a loaded machine, in the
        // test profile, a large program could pass it, and this test is
        // about failures, not speed.
        time_limit: std::time::Duration::from_secs(3600),
        ..Options::default()
    };
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, options.clone()).expect("the options suit the spec");
    let mut failures = Vec::new();
    let (mut total, mut largest) = (0, 0);
    let count = seeds.end - seeds.start;
    for seed in seeds {
        match fuzzer.program(&spec, &mut generator, Source::Seed(seed)) {
            Ok(program) => {
                total += program.program.len();
                largest = largest.max(program.program.len());
            }
            Err(error) => failures.push(format!(
                "{}: {error}",
                fuzzer.command_line(&Source::Seed(seed), &options).join(" ")
            )),
        }
    }
    eprintln!(
        "{} --max-depth {}: {count} programs, {} nodes on average, {largest} at most",
        fuzzer.name,
        options.max_depth,
        total / count.max(1) as usize
    );
    assert!(
        failures.is_empty(),
        "{} of {count} programs failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Tests that a fuzzer's generation is total: `default_options`
/// ([`DEFAULT_PROGRAMS`] programs) and one test per depth
/// ([`PROGRAMS_PER_DEPTH`] programs each), named as given, with the
/// attributes given. All are heavy sweeps, `#[ignore]`d in the fast tier
/// (`cargo test`); `./test.sh` runs them (`-- --include-ignored`).
///
/// ```text
/// xsmith_tests::total_generation_tests! {
///     fuzzer: xsmith_calc::FUZZER,
///     depths: [depth_01 = 1, depth_02 = 2, #[ignore = "why"] depth_03 = 3],
/// }
/// ```
#[macro_export]
macro_rules! total_generation_tests {
    (
        fuzzer: $fuzzer:expr,
        depths: [$($(#[$attribute:meta])* $name:ident = $depth:expr),* $(,)?] $(,)?
    ) => {
        #[test]
        #[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
        fn default_options() {
            $crate::total::assert_generates(&$fuzzer, None, 0..$crate::total::DEFAULT_PROGRAMS);
        }
        $(
            #[test]
            #[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
            $(#[$attribute])*
            fn $name() {
                $crate::total::assert_generates(&$fuzzer, Some($depth), 0..$crate::total::PROGRAMS_PER_DEPTH);
            }
        )*
    };
}
