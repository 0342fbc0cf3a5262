//! The cost of names and effects: the names test fuzzer (scopes, lifting,
//! effect filtering) against the typed test fuzzer (types only), nodes per
//! second at two program sizes, generation only, one thread. The setup
//! prints nodes and references per program and the share of references that
//! reuse an existing variable.
//!
//! `cargo bench -p xsmith-tests --bench names`

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use xsmith::{Generator, Options, Random};

const PROGRAMS: u64 = 100;

/// Generates the batch; returns the number of nodes.
fn batch(generator: &mut Generator) -> usize {
    (0..PROGRAMS)
        .map(|seed| generator.generate(&mut Random::from_seed(seed)).unwrap().len())
        .sum()
}

fn compare(c: &mut Criterion) {
    let names = xsmith_tests::names::spec().unwrap();
    let typed = xsmith_tests::typed::spec().unwrap();
    for max_depth in [4, 8] {
        for (name, spec) in [("names", &names), ("typed", &typed)] {
            let options = Options {
                max_depth,
                max_nodes: 10_000_000,
                ..Options::default()
            };
            let mut generator = Generator::new(spec, options).unwrap();
            let nodes = batch(&mut generator);
            let log = generator.choice_log();
            eprintln!(
                "{name} depth {max_depth}: {:.1} nodes, {:.2} references per program, {:.0}% of references reuse a variable",
                nodes as f64 / PROGRAMS as f64,
                log.references() as f64 / PROGRAMS as f64,
                100.0 * (1.0 - log.lifts() as f64 / log.references().max(1) as f64),
            );
            let mut group = c.benchmark_group("names-vs-typed");
            group.throughput(Throughput::Elements(nodes as u64));
            group.bench_function(format!("{name}-max-depth-{max_depth}-generation-only"), |b| {
                b.iter(|| batch(&mut generator))
            });
            group.finish();
        }
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10).measurement_time(std::time::Duration::from_secs(3));
    targets = compare
}
criterion_main!(benches);
