//! Every feature group of every canned fuzzer (and calc) can be switched
//! off alone: 300 programs each generate with no failure (no type left
//! that nothing can make, no stall, no explosion), since generation knows
//! which types the productions still switched on can make.
//!
//! `XSMITH_GROUP_SEEDS` sets how many programs per group (default 300, to
//! keep CI's time; 1,000 per group were checked when inhabitation came in).

use xsmith::{Fuzzer, Generator, Options, Source};

fn seeds() -> u64 {
    std::env::var("XSMITH_GROUP_SEEDS").map_or(300, |v| v.parse().expect("XSMITH_GROUP_SEEDS is a number"))
}

/// The failures (group, seed, error) of `fuzzer` with each of its groups
/// switched off alone.
fn failures_with_each_group_off(fuzzer: &Fuzzer) -> Vec<String> {
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let groups: Vec<String> = spec.feature_groups().iter().map(|g| g.to_string()).collect();
    assert!(!groups.is_empty(), "{} has feature groups", fuzzer.name);
    let mut failures = Vec::new();
    for group in groups {
        let options = Options {
            without: vec![group.clone()],
            ..Options::default()
        };
        let mut generator = match Generator::new(&spec, options) {
            Ok(generator) => generator,
            Err(error) => {
                failures.push(format!("--without {group}: {error}"));
                continue;
            }
        };
        for seed in 0..seeds() {
            if let Err(error) = fuzzer.program(&spec, &mut generator, Source::Seed(seed)) {
                failures.push(format!("--without {group} --seed {seed}: {error}"));
            }
        }
    }
    failures
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn calc_generates_with_any_group_off() {
    assert_eq!(failures_with_each_group_off(&xsmith_calc::FUZZER), Vec::<String>::new());
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn lua_generates_with_any_group_off() {
    assert_eq!(failures_with_each_group_off(&xsmith_lua::FUZZER), Vec::<String>::new());
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn javascript_generates_with_any_group_off() {
    assert_eq!(
        failures_with_each_group_off(&xsmith_javascript::FUZZER),
        Vec::<String>::new()
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn python_generates_with_any_group_off() {
    assert_eq!(
        failures_with_each_group_off(&xsmith_python::FUZZER),
        Vec::<String>::new()
    );
}
