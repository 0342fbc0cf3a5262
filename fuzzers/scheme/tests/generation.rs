//! Generation is total for the Scheme fuzzer: programs at default options,
//! at small and large `--max-depth`, with each feature group (the canned
//! ones and Scheme's own: `when-unless`, `cond-case`, `pairs`, `equality`)
//! switched off alone, and swarm programs, which regenerate from their
//! headers; none fails. (Fewer programs than the 9,000 of
//! `tests/tests/total.rs` for the other canned fuzzers, to keep this
//! crate's test time small.)

use xsmith::{Generator, Options, Source};
use xsmith_scheme::FUZZER;
use xsmith_tests::total::assert_generates;

#[test]
fn generates_at_default_options() {
    assert_generates(&FUZZER, None, 0..2_000);
}

#[test]
fn generates_at_every_depth() {
    for depth in [1, 2, 3, 8, 12, 16] {
        assert_generates(&FUZZER, Some(depth), 0..200);
    }
}

#[test]
fn generates_with_any_group_off() {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let groups: Vec<String> = spec.feature_groups().iter().map(|g| g.to_string()).collect();
    for own in ["when-unless", "cond-case", "pairs", "equality"] {
        assert!(groups.iter().any(|g| g == own), "{own} is a feature group");
    }
    let mut failures = Vec::new();
    for group in groups {
        let options = Options {
            without: vec![group.clone()],
            ..Options::default()
        };
        let mut generator = Generator::new(&spec, options).expect("any group may be off");
        for seed in 0..100 {
            if let Err(error) = FUZZER.program(&spec, &mut generator, Source::Seed(seed)) {
                failures.push(format!("--without {group} --seed {seed}: {error}"));
            }
        }
    }
    assert_eq!(failures, Vec::<String>::new());
}

#[test]
fn swarm_headers_regenerate() {
    let (written, failed) =
        xsmith_tests::conformance::check_swarm_headers_regenerate(&FUZZER, &["--time-limit", "3"], 0..60);
    assert_eq!((written, failed), (60, vec![]));
}

/// The depth of parentheses at the end of `text` (Scheme source), and
/// whether it ever went below zero: strings, characters and comments
/// skipped.
fn nesting(text: &str) -> (i64, bool) {
    let (mut depth, mut negative) = (0i64, false);
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            ';' => while chars.next_if(|&c| c != '\n').is_some() {},
            '#' if chars.peek() == Some(&'\\') => {
                chars.next();
                chars.next();
            }
            '"' => {
                while let Some(c) = chars.next() {
                    match c {
                        '\\' => {
                            chars.next();
                        }
                        '"' => break,
                        _ => {}
                    }
                }
            }
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                negative |= depth < 0;
            }
            _ => {}
        }
    }
    (depth, negative)
}

/// Every program is a sequence of balanced forms (what each renderer
/// writes is a whole form), checked without running any implementation.
#[test]
fn programs_are_balanced_forms() {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    for seed in 0..500 {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        assert_eq!(nesting(&program.text), (0, false), "seed {seed}:\n{}", program.text);
    }
    assert_eq!(nesting("(a \"(\" #\\( ; (\n)"), (0, false));
    assert_eq!(nesting("(a))("), (0, true));
}
