//! The Python fuzzer against real implementations: 300 programs at the
//! default size run on CPython (`python3`) and PyPy (`pypy3`) with no
//! rejection, no runtime error, no timeout and no disagreement, and every
//! canned production appears in at least a tenth of them.

use xsmith::{Generator, Implementation, Limits, Options, Signature, Source, Verdict};
use xsmith_python::FUZZER;
use xsmith_tests::conformance::CannedFuzzer;

/// The fuzzer, run on its own implementations (`xsmith_python::IMPLEMENTATIONS`).
fn python() -> CannedFuzzer<'static> {
    CannedFuzzer {
        fuzzer: &FUZZER,
        options: xsmith_python::options(),
    }
}

#[test]
fn programs_agree_on_python3_and_pypy3() {
    let texts = python().check_programs_agree(300);
    // Walrus bindings, lambdas and hoisted `def`s (with `global`
    // declarations) are what the renderers do that is easiest to get wrong:
    // the programs must have them.
    for (needed, percent) in [(" := ", 10), ("(lambda", 10), ("\ndef f", 10), ("\n    global ", 1)] {
        let share = texts.iter().filter(|t| t.contains(needed)).count();
        assert!(
            share * 100 >= texts.len() * percent,
            "{needed:?} in only {share} programs"
        );
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    python().check_same_seed_same_bytes();
}

/// Programs whose nested `def`s assign a variable of an enclosing function
/// (`nonlocal`), rare at the default size and depth (a nested `def` sits
/// near the depth bound): the first three of the first few thousand seeds
/// at a larger size and depth run alike on both.
#[test]
fn nonlocal_programs_agree() {
    let spec = (FUZZER.spec)().unwrap();
    let options = Options {
        max_depth: 7,
        size: 500,
        ..Options::default()
    };
    let mut generator = Generator::new(&spec, options).unwrap();
    // With local choices (the default) no program of 3,000 has a nested
    // `def` that assigns an enclosing function's variable (15 without):
    // a regression of version 0.2 not understood yet (not the size
    // budgets: `--size 0` has none either). The renderer's `nonlocal`
    // declarations are checked on the programs made without.
    generator.set_local_choices(false);
    let texts: Vec<String> = (0..5000)
        .map(|seed| FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap().text)
        .filter(|text| text.contains("nonlocal "))
        .take(3)
        .collect();
    assert!(
        texts.len() >= 3,
        "only {} programs with `nonlocal` in 5000 seeds",
        texts.len()
    );
    let dir = tempfile::tempdir().unwrap();
    for (i, text) in texts.iter().enumerate() {
        let file = dir.path().join(format!("nonlocal-{i}.py"));
        std::fs::write(&file, text).unwrap();
        let runs = Implementation::run_each(FUZZER.implementations, &file, text, &Limits::default());
        let signature = Signature::of(&runs);
        assert_eq!(signature.verdict, Verdict::Agree, "{signature}: {text}");
    }
}

/// Issue 14: at these depths and seeds a record type came to contain itself
/// (`type variable ?181 would contain itself`).
#[test]
fn seeds_whose_record_type_once_contained_itself_agree() {
    python().check_seeds_agree(&[(8, 2080079), (9, 92332110289)]);
}

/// Issue 16: programs steered towards new 2-paths (`--cover 2`) conform too.
#[test]
fn steered_programs_agree() {
    let covered = xsmith_tests::conformance::assert_steered_programs_agree(
        &xsmith_python::FUZZER,
        &Default::default(),
        2,
        300,
        &[],
    );
    assert!(covered > 1000, "{covered} k-paths");
}
