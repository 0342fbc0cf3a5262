//! Every feature group of the WebAssembly fuzzer can be switched off
//! alone: 300 modules each generate with no failure.
//!
//! `XSMITH_GROUP_SEEDS` sets how many modules per group (default 300, to
//! keep CI's time; 1,000 per group were checked when inhabitation came in).

use xsmith::{Generator, Options, Source};
use xsmith_wasm::FUZZER;

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn modules_generate_with_any_group_off() {
    let seeds = std::env::var("XSMITH_GROUP_SEEDS").map_or(300, |v| v.parse().expect("a number"));
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let groups: Vec<String> = spec.feature_groups().iter().map(|g| g.to_string()).collect();
    assert!(groups.len() >= 5, "{groups:?}");
    let mut failures = Vec::new();
    for group in groups {
        let options = Options {
            without: vec![group.clone()],
            ..Options::default()
        };
        let mut generator = Generator::new(&spec, options).expect("each group can be switched off");
        for seed in 0..seeds {
            if let Err(error) = FUZZER.program(&spec, &mut generator, Source::Seed(seed)) {
                failures.push(format!("--without {group} --seed {seed}: {error}"));
            }
        }
    }
    assert_eq!(failures, Vec::<String>::new());
}
