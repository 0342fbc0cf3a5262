//! Local choices (see `xsmith_tests::locality` and
//! `Generator::set_local_choices`, experimental and off by default):
//! replacing one random subtree of a program by its smallest version leaves
//! the rest of the program as it was, for every fuzzer of this crate's
//! dependencies and the test fuzzers. Each test prints its figures (`--nocapture`) and asserts a
//! floor a little under what was measured (the share of splices that
//! changed no other node, of 1,000 programs at the default options):
//!
//! | fuzzer | without (as wave 2) | with local choices | with, of splices holding no variable used outside |
//! |---|---|---|---|
//! | calc | 100.0% | 100.0% | 100.0% |
//! | Lua, JavaScript, Python | 55.0% | 78.6% | 81.7% |
//! | C | 33.3% | 91.0% | 93.3% |
//! | names (test fuzzer) | 77.3% | 84.2% | 88.2% |
//! | typed (test fuzzer) | 46.0% | 62.8% | 62.8% |
//!
//! What still changes other nodes: a subtree holding a variable that
//! references outside it use (its replacement may hold none, and they must
//! point elsewhere); references elsewhere that pick a variable by its place
//! among those in sight (a definition the subtree lifted or dropped shifts
//! the places); and types a production leaves free to be anything, which
//! the first of the siblings that share them decides in its own subtree
//! (deciding them before it, from the types the generator could invent,
//! made holes no production could fill).

use xsmith::Options;
use xsmith_tests::locality::{measure, Locality};

/// Programs per fuzzer.
const PROGRAMS: u64 = 1_000;

fn check(name: &str, spec: xsmith::Spec, floor_percent: f64) -> Locality {
    let before = measure(&spec, Options::default(), false, 0..PROGRAMS);
    println!("{name}, without local choices: {before}");
    let locality = measure(&spec, Options::default(), true, 0..PROGRAMS);
    println!("{name}: {locality}");
    assert!(
        locality.unchanged_splices_percent() >= floor_percent,
        "{name}: {locality}, under the floor of {floor_percent}%"
    );
    locality
}

#[test]
fn calc_choices_are_local() {
    check("calc", (xsmith_calc::FUZZER.spec)().unwrap(), 100.0);
}

#[test]
fn lua_choices_are_local() {
    check("lua", (xsmith_lua::FUZZER.spec)().unwrap(), 77.0);
}

#[test]
fn javascript_choices_are_local() {
    check("javascript", (xsmith_javascript::FUZZER.spec)().unwrap(), 77.0);
}

#[test]
fn python_choices_are_local() {
    check("python", (xsmith_python::FUZZER.spec)().unwrap(), 77.0);
}

#[test]
fn c_choices_are_local() {
    check("c", (xsmith_c::FUZZER.spec)().unwrap(), 89.0);
}

#[test]
fn names_choices_are_local() {
    check("names", xsmith_tests::names::spec().unwrap(), 82.0);
}

#[test]
fn typed_choices_are_local() {
    check("typed", xsmith_tests::typed::spec().unwrap(), 60.0);
}
