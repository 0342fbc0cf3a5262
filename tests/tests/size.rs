//! `--size` steers programs towards the size asked for, at any depth: 95%
//! of programs have between half and twice as many nodes, from 50 to 5,000.

use xsmith::{Fuzzer, Generator, Options, Random};

/// The share, in percent, of `count` programs of `fuzzer` at `--size size`
/// (and `--max-depth max_depth`) whose node count is within a factor of 2
/// of `size`.
fn share_near_size(fuzzer: &Fuzzer, size: usize, max_depth: u32, count: u64) -> u64 {
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let options = Options {
        size,
        max_depth,
        ..Options::default()
    };
    let mut generator = Generator::new(&spec, options).unwrap();
    let near = (0..count)
        .filter(|&seed| {
            let program = generator.generate(&mut Random::from_seed(seed)).unwrap();
            (size / 2..=size * 2).contains(&program.len())
        })
        .count() as u64;
    near * 100 / count
}

#[test]
fn programs_land_near_the_size_asked_for() {
    for fuzzer in [&xsmith_lua::FUZZER, &xsmith_python::FUZZER] {
        for (size, count) in [(50, 200), (200, 200), (1000, 60), (2000, 40), (5000, 20)] {
            for max_depth in [3, 5, 12] {
                let share = share_near_size(fuzzer, size, max_depth, count);
                assert!(
                    share >= 95,
                    "{}: --size {size} --max-depth {max_depth}: {share}%",
                    fuzzer.name
                );
            }
        }
    }
}
