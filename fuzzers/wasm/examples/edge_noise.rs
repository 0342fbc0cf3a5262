//! How the engines' edges vary between runs of one module: each of the
//! first five seeds' modules runs six times on wasmtime and wasmi, and
//! each run's edges are compared with the last run's. Meaningful only in
//! the build that counts edges (`fuzz/build --edges`; elsewhere every
//! count is 0):
//!
//! ```text
//! XSMITH_SANCOV=wasmi,wasmtime,cranelift fuzz/build --edges --example edge_noise
//! target/fuzz-wasmi-wasmtime-cranelift/x86_64-unknown-linux-gnu/release/examples/edge_noise
//! ```
//!
//! What `corpus --coverage engines` makes of it: see `xsmith::edges` and
//! the guide's command-line page.

fn main() {
    std::thread::Builder::new()
        .stack_size(xsmith::fuzzer::GENERATION_STACK)
        .spawn(measure)
        .expect("a thread starts")
        .join()
        .expect("the measurement ends");
}

fn measure() {
    let spec = xsmith_wasm::spec().expect("the wasm spec assembles");
    let fuzzer = xsmith_wasm::FUZZER;
    let mut generator = xsmith::Generator::new(&spec, Default::default()).expect("default options");
    let run = |text: &str| {
        xsmith::edges::take_covered();
        xsmith_wasm::engines::run_wasmtime(text);
        xsmith_wasm::engines::run_wasmi(text);
        xsmith::edges::take_covered()
    };
    println!("{} edges instrumented", xsmith::edges::counters());
    for seed in 0..5u64 {
        let program = fuzzer
            .program(&spec, &mut generator, xsmith::Source::Seed(seed))
            .expect("a seed's module generates");
        let runs: Vec<Vec<u32>> = (0..6).map(|_| run(&program.text)).collect();
        let last = &runs[runs.len() - 1];
        let sizes: Vec<usize> = runs.iter().map(Vec::len).collect();
        let differences: Vec<usize> = runs
            .iter()
            .map(|edges| {
                edges.iter().filter(|e| last.binary_search(e).is_err()).count()
                    + last.iter().filter(|e| edges.binary_search(e).is_err()).count()
            })
            .collect();
        println!("seed {seed}: edges of each run {sizes:?}, differences from the last run {differences:?}");
    }
}
