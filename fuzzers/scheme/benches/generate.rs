//! Generation and rendering speed of the Scheme fuzzer at the default size:
//! programs per second and bytes of program text per second, one thread
//! (the benchmark of every canned fuzzer, `xsmith_canned::bench`).
//!
//! `cargo bench -p xsmith-scheme`

fn generate(c: &mut criterion::Criterion) {
    xsmith_canned::bench::generate(c, "scheme", &xsmith_scheme::FUZZER);
}

criterion::criterion_group! {
    name = benches;
    config = xsmith_canned::bench::config();
    targets = generate
}
criterion::criterion_main!(benches);
