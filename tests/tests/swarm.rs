//! Swarm testing (`--swarm`) on the fuzzers of this crate: each program's
//! header regenerates it byte for byte, and 100 swarm programs per fuzzer
//! run alike on its implementations through a `diff` campaign. A swarm
//! program whose drawn feature subset cannot be generated is a failure,
//! never skipped: generation is total for any subset (issue 14, item 1).

use xsmith::swarm::Swarm;
use xsmith::{Fuzzer, Options};
use xsmith_tests::conformance::{assert_swarm_programs_agree, check_swarm_headers_regenerate};

/// Checks that each of 60 swarm programs is generated and regenerates from
/// its header. A time limit of 3 s, written into each header, keeps a
/// regression from taking the default 10 s per program; a program is made
/// in milliseconds.
fn headers_regenerate(fuzzer: &Fuzzer) {
    let (written, failed) = check_swarm_headers_regenerate(fuzzer, &["--time-limit", "3"], 0..60);
    assert_eq!(
        (written, failed.as_slice()),
        (60, &[][..]),
        "{}: swarm programs that could not be generated (seeds)",
        fuzzer.name
    );
}

fn agree(fuzzer: &Fuzzer) {
    assert_swarm_programs_agree(
        fuzzer,
        fuzzer.implementations,
        &Options::default(),
        Swarm::default(),
        0..100,
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn calc_swarm_headers_regenerate() {
    headers_regenerate(&xsmith_calc::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn lua_swarm_headers_regenerate() {
    headers_regenerate(&xsmith_lua::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn javascript_swarm_headers_regenerate() {
    headers_regenerate(&xsmith_javascript::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn python_swarm_headers_regenerate() {
    headers_regenerate(&xsmith_python::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn calc_100_swarm_programs_agree() {
    agree(&xsmith_calc::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn lua_100_swarm_programs_agree() {
    agree(&xsmith_lua::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn javascript_100_swarm_programs_agree() {
    agree(&xsmith_javascript::FUZZER);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn python_100_swarm_programs_agree() {
    agree(&xsmith_python::FUZZER);
}
