//! Generation and rendering speed of the calc fuzzer at several max depths:
//! programs per second and nodes per second, one thread.
//!
//! `cargo bench -p xsmith-calc`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xsmith::{Generator, Options, Source};
use xsmith_calc::FUZZER;

const PROGRAMS: u64 = 200;

fn options(max_depth: u32) -> Options {
    Options {
        max_depth,
        max_nodes: 10_000_000,
        ..Options::default()
    }
}

/// Generates and renders the batch of programs, returning the node count.
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
    for max_depth in [4, 8, 12, 16] {
        let mut generator = Generator::new(&spec, options(max_depth)).unwrap();
        let (nodes, bytes) = batch(&mut generator, &spec);
        eprintln!(
            "depth {max_depth}: {:.1} nodes and {:.0} bytes per program",
            nodes as f64 / PROGRAMS as f64,
            bytes as f64 / PROGRAMS as f64
        );
        for (unit, throughput) in [
            ("programs", Throughput::Elements(PROGRAMS)),
            ("nodes", Throughput::Elements(nodes as u64)),
        ] {
            let mut group = c.benchmark_group(format!("calc-{unit}"));
            group.throughput(throughput);
            group.bench_function(format!("max-depth-{max_depth}"), |b| {
                b.iter(|| batch(&mut generator, &spec))
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(20).measurement_time(std::time::Duration::from_secs(3));
    targets = generate
}
criterion_main!(benches);
