//! How long reduction takes (issue 26): findings of a planted wasmi bug
//! (one more line of output when the module has an `i64.popcnt`, in about
//! one module in five), each reduced on wasmtime and the planted wasmi
//! (see `xsmith_tests::reduction_times`).
//!
//! `cargo run --release -p xsmith-wasm --example reduction_times -- [COUNT [FIRST [JOBS]]]`
//! (defaults: 10, 0, 1).

use xsmith::{Execution, Implementation};
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
    let implementations = vec![
        Implementation::InProcess {
            name: "wasmtime",
            run: run_wasmtime,
        },
        Implementation::InProcess {
            name: "wasmi",
            run: wasmi_with_a_planted_bug,
        },
    ];
    xsmith_tests::reduction_times::measure(&xsmith_wasm::FUZZER, implementations, OP);
}
