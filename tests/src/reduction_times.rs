//! How long reduction takes (issue 26), measured the same way for every
//! fuzzer: the first `COUNT` default-size programs from seed `FIRST` on
//! whose text holds a planted bug's trigger, each reduced on the given
//! implementations (one of them with the planted bug) with the default
//! time budget of 300 s and `JOBS` jobs; a table row per finding, then the
//! median time. The examples `fuzzers/wasm/examples/reduction_times.rs`
//! and `tests/examples/lua_reduction_times.rs` plant the bugs.

use std::time::Duration;

use xsmith::reduce::{Case, Reducer};
use xsmith::{Fuzzer, Generator, Implementation, Limits, Source, Verdict};

/// Prints the reduction times of `fuzzer`'s programs that hold `trigger`
/// on `implementations`, for the `[COUNT [FIRST [JOBS]]]` of the command
/// line (by default 10 findings from seed 0, one job).
pub fn measure(fuzzer: &Fuzzer, implementations: Vec<Implementation>, trigger: &str) {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(10, |a| a.parse().expect("COUNT is a number"));
    let first: u64 = args.next().map_or(0, |a| a.parse().expect("FIRST is a number"));
    let jobs: usize = args.next().map_or(1, |a| a.parse().expect("JOBS is a number"));
    let case = Case {
        fuzzer,
        options: Default::default(),
        implementations,
        limits: Limits::default(),
    };
    let reducer = Reducer::new(case, jobs, Duration::from_secs(300)).expect("the fuzzer's spec assembles");
    let spec = (fuzzer.spec)().expect("the fuzzer's spec assembles");
    let mut generator = Generator::new(&spec, Default::default()).expect("default options suit it");
    println!("| seed | bytes before | bytes after | nodes after | tests | seconds |");
    println!("|---:|---:|---:|---:|---:|---:|");
    let mut times = Vec::new();
    for seed in first.. {
        if times.len() == count {
            break;
        }
        // The planted bug shows where the program holds the trigger (and
        // runs to its end), which its text tells without running it.
        let program = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("a program generates");
        if !program.text.contains(trigger) {
            continue;
        }
        let reduced = match reducer.reduce(Source::Seed(seed), Some(Verdict::Differ), &mut |_| {}) {
            Ok(reduced) => reduced,
            Err(e) => {
                eprintln!("seed {seed}: {e}");
                continue;
            }
        };
        let seconds = reduced.elapsed.as_secs_f64();
        println!(
            "| {seed} | {} | {} | {} | {} | {seconds:.1} |",
            reduced.original.text.len(),
            reduced.reduced.text.len(),
            reduced.reduced.nodes,
            reduced.tests
        );
        times.push(seconds);
    }
    times.sort_by(f64::total_cmp);
    let median = match times.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => times[n / 2],
        n => (times[n / 2 - 1] + times[n / 2]) / 2.0,
    };
    println!("median: {median:.1} s over {} findings", times.len());
}
