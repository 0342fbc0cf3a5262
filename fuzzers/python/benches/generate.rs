//! Generation and rendering speed of the Python fuzzer at the default size:
//! programs per second and bytes of program text per second, one thread.
//!
//! `cargo bench -p xsmith-python`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xsmith::{Generator, Options, Source};
use xsmith_python::FUZZER;

const PROGRAMS: u64 = 100;

/// Generates and renders the batch, returning its nodes and bytes.
fn batch(generator: &mut Generator, spec: &xsmith::Spec) -> (usize, usize) {
    let (mut nodes, mut bytes) = (0, 0);
    for seed in 0..PROGRAMS {
        let program = FUZZER.program(spec, generator, Source::Seed(seed)).unwrap();
        nodes += program.program.len();
        bytes += program.text.len();
        black_box(&program.text);
    }
    (nodes, bytes)
}

fn generate(c: &mut Criterion) {
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (nodes, bytes) = batch(&mut generator, &spec);
    eprintln!(
        "default size: {:.1} nodes and {:.0} bytes per program",
        nodes as f64 / PROGRAMS as f64,
        bytes as f64 / PROGRAMS as f64
    );
    for (unit, throughput) in [
        ("programs", Throughput::Elements(PROGRAMS)),
        ("bytes", Throughput::Bytes(bytes as u64)),
    ] {
        let mut group = c.benchmark_group(format!("python-{unit}"));
        group.throughput(throughput);
        group.bench_function("default", |b| b.iter(|| batch(&mut generator, &spec)));
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(5));
    targets = generate
}
criterion_main!(benches);
