//! The generation benchmark every canned fuzzer runs (feature `bench`):
//! generation and rendering speed at the default size, in programs per
//! second and bytes of program text per second, one thread.
//!
//! A fuzzer's `benches/generate.rs` is a few lines around [`generate`]
//! (`cargo bench -p xsmith-lua` runs Lua's):
//!
//! ```no_run
//! # const FUZZER: xsmith::Fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
//! #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//! #     implementations: &[] };
//! fn generate(c: &mut criterion::Criterion) {
//!     xsmith_canned::bench::generate(c, "example", &FUZZER);
//! }
//!
//! criterion::criterion_group! {
//!     name = benches;
//!     config = xsmith_canned::bench::config();
//!     targets = generate
//! }
//! criterion::criterion_main!(benches);
//! ```

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use xsmith::{Fuzzer, Generator, Options, Source, Spec};

/// How many programs (seeds `0..PROGRAMS`) one iteration generates.
pub const PROGRAMS: u64 = 100;

/// The benchmark settings: 10 samples over 5 seconds.
pub fn config() -> Criterion {
    Criterion::default()
        .sample_size(10)
        .measurement_time(Duration::from_secs(5))
}

/// Benchmarks `fuzzer` at the default options: groups `<language>-programs`
/// (programs per second) and `<language>-bytes` (bytes per second), each
/// with the benchmark `default`. Prints the programs' average size first.
pub fn generate(c: &mut Criterion, language: &str, fuzzer: &Fuzzer) {
    let spec = (fuzzer.spec)().unwrap();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (nodes, bytes) = batch(fuzzer, &spec, &mut generator);
    eprintln!(
        "default size: {:.1} nodes and {:.0} bytes per program",
        nodes as f64 / PROGRAMS as f64,
        bytes as f64 / PROGRAMS as f64
    );
    for (unit, throughput) in [
        ("programs", Throughput::Elements(PROGRAMS)),
        ("bytes", Throughput::Bytes(bytes as u64)),
    ] {
        let mut group = c.benchmark_group(format!("{language}-{unit}"));
        group.throughput(throughput);
        group.bench_function("default", |b| b.iter(|| batch(fuzzer, &spec, &mut generator)));
        group.finish();
    }
}

/// Generates and renders the batch, returning its nodes and bytes.
fn batch(fuzzer: &Fuzzer, spec: &Spec, generator: &mut Generator) -> (usize, usize) {
    let (mut nodes, mut bytes) = (0, 0);
    for seed in 0..PROGRAMS {
        let program = fuzzer.program(spec, generator, Source::Seed(seed)).unwrap();
        nodes += program.program.len();
        bytes += program.text.len();
        black_box(&program.text);
    }
    (nodes, bytes)
}
