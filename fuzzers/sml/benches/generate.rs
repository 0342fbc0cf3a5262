//! Generation and rendering speed of the Standard ML fuzzer at the default
//! size: programs per second and bytes of program text per second, one
//! thread (the benchmark of every canned fuzzer, `xsmith_canned::bench`).
//!
//! `cargo bench -p xsmith-sml`

fn generate(c: &mut criterion::Criterion) {
    xsmith_canned::bench::generate(c, "sml", &xsmith_sml::FUZZER);
}

criterion::criterion_group! {
    name = benches;
    config = xsmith_canned::bench::config();
    targets = generate
}
criterion::criterion_main!(benches);
