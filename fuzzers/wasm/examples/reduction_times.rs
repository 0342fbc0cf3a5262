//! How long reduction takes (issue 26): the first `COUNT` default-size
//! modules from seed `FIRST` on that a planted wasmi bug shows in (one
//! more line of output when the module has an `i64.popcnt`, in about one
//! module in five), each reduced on wasmtime and the planted wasmi with
//! the default time budget and `JOBS` jobs; prints a row per finding and
//! the median time.
//!
//! `cargo run --release -p xsmith-wasm --example reduction_times -- [COUNT [FIRST [JOBS]]]`
//! (defaults: 10, 0, 1).

use std::time::Duration;

use xsmith::reduce::{Case, Reducer};
use xsmith::{Execution, Implementation, Limits, Source, Verdict};
use xsmith_wasm::engines::{run_wasmi, run_wasmtime};

/// The instruction whose presence the planted bug reacts to (a constant:
/// the engine runs in a worker process, where `main` never runs).
const OP: &str = "i64.popcnt";

/// wasmi, with a planted bug: a module that uses `OP` prints one line more.
fn wasmi_with_a_planted_bug(module: &str) -> Execution {
    match run_wasmi(module) {
        Execution::Output(out) if module.contains(OP) => Execution::Output(out + "planted\n"),
        other => other,
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let count: usize = args.next().map_or(10, |a| a.parse().expect("COUNT is a number"));
    let first: u64 = args.next().map_or(0, |a| a.parse().expect("FIRST is a number"));
    let jobs: usize = args.next().map_or(1, |a| a.parse().expect("JOBS is a number"));
    let case = Case {
        fuzzer: &xsmith_wasm::FUZZER,
        options: Default::default(),
        implementations: vec![
            Implementation::InProcess {
                name: "wasmtime",
                run: run_wasmtime,
            },
            Implementation::InProcess {
                name: "wasmi",
                run: wasmi_with_a_planted_bug,
            },
        ],
        limits: Limits::default(),
    };
    let reducer = Reducer::new(case, jobs, Duration::from_secs(300)).expect("the wasm fuzzer's spec assembles");
    println!("| seed | bytes before | bytes after | nodes after | tests | seconds |");
    println!("|---:|---:|---:|---:|---:|---:|");
    let spec = (xsmith_wasm::FUZZER.spec)().expect("the wasm fuzzer's spec assembles");
    let mut generator = xsmith::Generator::new(&spec, Default::default()).expect("default options suit it");
    let mut times = Vec::new();
    for seed in first.. {
        if times.len() == count {
            break;
        }
        // The planted bug shows where the module has the instruction (and
        // wasmi does not trap), which its text tells without running it.
        let program = (xsmith_wasm::FUZZER)
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("a module generates");
        if !program.text.contains(OP) {
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
