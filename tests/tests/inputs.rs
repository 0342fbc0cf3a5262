//! A guided input is its program, for every fuzzer of this crate's
//! dependencies: a seed's input (`Mutator::input_of_seed`) regenerates the
//! seed's program, and an edited mutant's bytes regenerate the program the
//! mutator made from the edited choices (`Mutator::take_program_of`), which
//! a guided run hands to the harness instead of generating it again. The
//! bytes keep the size budgets and growth decisions an edit kept.

use xsmith::mutate::Mutator;
use xsmith::render::render_tree;
use xsmith::{Fuzzer, Generator, Options, Random};

/// How many seeds' inputs are mutated per fuzzer.
const SEEDS: u64 = 60;

fn check_inputs(fuzzer: &Fuzzer) {
    let spec = (fuzzer.spec)().expect("the fuzzer's spec assembles");
    let options = Options::default();
    let mut mutator = Mutator::new(&spec, options.clone()).unwrap();
    let mut generator = Generator::new(&spec, options).unwrap();
    let text = |program: &xsmith::Program| render_tree(&spec, program, fuzzer.width);
    let mut edited = 0;
    for seed in 0..SEEDS {
        let input = mutator.input_of_seed(seed).unwrap();
        let of_seed = generator.generate(&mut Random::from_seed(seed)).unwrap();
        let of_input = mutator.program_of(&input).unwrap();
        assert_eq!(text(&of_input), text(&of_seed), "{}: seed {seed}'s input", fuzzer.name);
        // A chain of mutants, each of the last, as libFuzzer makes them.
        let mut current = input;
        for step in 0..3 {
            let Some(mutant) = mutator.mutate(&current, seed * 3 + step) else {
                break;
            };
            if let Some((program, _)) = mutator.take_program_of(&mutant) {
                edited += 1;
                let again = mutator.program_of(&mutant).unwrap();
                assert_eq!(
                    text(&again),
                    text(&program),
                    "{}: seed {seed}, step {step}: the mutant's bytes give another program than the edit made",
                    fuzzer.name
                );
            }
            current = mutant;
        }
    }
    assert!(
        edited >= SEEDS as usize,
        "{}: only {edited} edited mutants",
        fuzzer.name
    );
}

#[test]
fn calc_inputs_are_their_programs() {
    check_inputs(&xsmith_calc::FUZZER);
}

#[test]
fn lua_inputs_are_their_programs() {
    check_inputs(&xsmith_lua::FUZZER);
}

#[test]
fn javascript_inputs_are_their_programs() {
    check_inputs(&xsmith_javascript::FUZZER);
}

#[test]
fn python_inputs_are_their_programs() {
    check_inputs(&xsmith_python::FUZZER);
}

#[test]
fn c_inputs_are_their_programs() {
    check_inputs(&xsmith_c::FUZZER);
}
