//! `--size` steers modules towards the size asked for, at any depth: 95%
//! of modules have between half and twice as many nodes, from 50 to 5,000;
//! at the default size, no depth reaches the node budget.

use xsmith::{Generator, Options, Random};
use xsmith_wasm::FUZZER;

fn sizes(options: Options, count: u64) -> Vec<usize> {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, options).unwrap();
    (0..count)
        .map(|seed| generator.generate(&mut Random::from_seed(seed)).unwrap().len())
        .collect()
}

#[test]
fn modules_land_near_the_size_asked_for() {
    for (size, count) in [(50, 200), (200, 200), (1000, 60), (2000, 40), (5000, 20)] {
        for max_depth in [3, 5, 14] {
            let options = Options {
                size,
                max_depth,
                ..Options::default()
            };
            let near = sizes(options, count)
                .into_iter()
                .filter(|n| (size / 2..=size * 2).contains(n))
                .count() as u64;
            assert!(
                near * 100 / count >= 95,
                "--size {size} --max-depth {max_depth}: {near} of {count}"
            );
        }
    }
}

#[test]
fn deep_modules_stay_near_the_default_size() {
    // Before `--size`, modules at depth 14 passed the 100,000-node budget
    // within 40 seeds.
    let options = Options {
        max_depth: 14,
        ..Options::default()
    };
    let default = Options::default().size;
    assert!(sizes(options, 100).into_iter().all(|n| n <= 2 * default));
}
