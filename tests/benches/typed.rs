//! The cost of type filtering: the typed test fuzzer against untyped calc,
//! nodes per second, generation and rendering together, one thread.
//!
//! `cargo bench -p xsmith-tests --bench typed`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xsmith::{Generator, Options, Random, Spec};

const PROGRAMS: u64 = 100;

/// Generates and renders the batch; returns (nodes, bytes).
fn batch(spec: &Spec, generator: &mut Generator) -> (usize, usize) {
    let (mut nodes, mut bytes) = (0, 0);
    for seed in 0..PROGRAMS {
        let tree = generator.generate(&mut Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(spec, &tree, 100);
        nodes += tree.len();
        bytes += text.len();
        black_box(text);
    }
    (nodes, bytes)
}

fn compare(c: &mut Criterion) {
    let typed = xsmith_tests::typed::spec().unwrap();
    let calc = (xsmith_calc::FUZZER.spec)().unwrap();
    for (name, spec, max_depth) in [
        ("typed", &typed, 4),
        ("typed", &typed, 6),
        ("calc", &calc, 8),
        ("calc", &calc, 12),
    ] {
        let options = Options {
            max_depth,
            max_nodes: 10_000_000,
            ..Options::default()
        };
        let mut generator = Generator::new(spec, options).unwrap();
        let (nodes, bytes) = batch(spec, &mut generator);
        eprintln!(
            "{name} depth {max_depth}: {:.1} nodes, {:.0} bytes per program",
            nodes as f64 / PROGRAMS as f64,
            bytes as f64 / PROGRAMS as f64
        );
        let mut group = c.benchmark_group("nodes");
        group.throughput(Throughput::Elements(nodes as u64));
        group.bench_function(format!("{name}-max-depth-{max_depth}"), |b| {
            b.iter(|| batch(spec, &mut generator))
        });
        group.bench_function(format!("{name}-max-depth-{max_depth}-generation-only"), |b| {
            b.iter(|| {
                (0..PROGRAMS)
                    .map(|seed| generator.generate(&mut Random::from_seed(seed)).unwrap().len())
                    .sum::<usize>()
            })
        });
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = compare
}
criterion_main!(benches);
