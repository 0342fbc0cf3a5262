//! The Python fuzzer against real implementations: 300 programs at the
//! default size run on CPython (`python3`) and PyPy (`pypy3`) with no
//! rejection, no runtime error, no timeout and no disagreement, and every
//! canned production appears in at least a tenth of them.

use xsmith::{Generator, Options, Source};
use xsmith_python::FUZZER;
use xsmith_tests::conformance::CannedFuzzer;
use xsmith_tests::{scratch_dir, PYPY3, PYTHON3};

/// `-S` skips the set-up of `site-packages`, which programs that import
/// nothing do not need, and which takes most of a run's time with some
/// installations (pyenv's).
fn python() -> CannedFuzzer<'static> {
    CannedFuzzer {
        fuzzer: &FUZZER,
        options: xsmith_python::options(),
        implementations: &[PYTHON3, PYPY3],
        extra_args: &["-S"],
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
/// (`nonlocal`), rare at the default size: the first three of the first few
/// thousand seeds run alike on both.
#[test]
fn nonlocal_programs_agree() {
    let python = python();
    for implementation in python.implementations {
        implementation.require();
    }
    let spec = (FUZZER.spec)().unwrap();
    let dir = scratch_dir("python-nonlocal");
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let mut found = 0;
    for seed in 0..5000 {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        if !program.text.contains("nonlocal ") {
            continue;
        }
        found += 1;
        let path = dir.path().join(format!("{seed}.py"));
        std::fs::write(&path, &program.text).unwrap();
        let outputs: Vec<_> = python.implementations.iter().map(|i| python.run(i, &path)).collect();
        assert!(outputs[0].is_ok(), "seed {seed}: {:?}", outputs[0]);
        assert_eq!(outputs[0], outputs[1], "seed {seed}");
        if found == 3 {
            break;
        }
    }
    assert!(found >= 3, "only {found} programs with `nonlocal` in 5000 seeds");
}
