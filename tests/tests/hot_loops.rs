//! Hot code (issue 34): default programs reach the optimizing tiers of
//! the implementations, and still run quickly on the slowest ones.
//!
//! - At least half of 100 default Lua programs compile a LuaJIT trace, of
//!   JavaScript programs get a function or loop optimized by V8, of Python
//!   programs compile a PyPy loop, of C programs have a loop vectorized by
//!   `gcc -O3` (see `xsmith_tests::reach`).
//! - No default program of 100 takes more than 2 s of CPU time on the
//!   slowest implementation of its fuzzer (lua5.1, duk, CPython; for C,
//!   tcc, which compiles and runs it unoptimized with `tcc -run`).

use xsmith::{Fuzzer, Generator, Options, Source};
use xsmith_tests::reach;

/// Asserts that at least `percent` of 100 default programs of `fuzzer`
/// (`name` in `reach::probes`) reach the tier of its first probe.
fn assert_reach(fuzzer: &Fuzzer, name: &str, percent: u64) {
    let probes = reach::probes(name).expect("a fuzzer with probes");
    let hits = reach::measure(fuzzer, &probes[..1], 100);
    eprintln!("{}: {} of 100 programs reach {}", fuzzer.name, hits[0], probes[0].name);
    assert!(
        hits[0] >= percent,
        "{}: only {} of 100 default programs reach {} (`{}`)",
        fuzzer.name,
        hits[0],
        probes[0].name,
        probes[0].command
    );
}

/// Asserts that no default program of seeds 0 to 99 takes more than 2 s of
/// CPU time on `command`.
fn assert_fast(fuzzer: &Fuzzer, command: &str, package: &str) {
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options suit the spec");
    let dir = xsmith_tests::scratch_dir("hot");
    let file = dir.path().join(format!("prog.{}", fuzzer.extension));
    let mut slowest = (0.0, 0);
    for seed in 0..100 {
        let program = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("generates");
        std::fs::write(&file, &program.text).expect("writable");
        let seconds = reach::cpu_seconds(command, package, &file);
        if seconds > slowest.0 {
            slowest = (seconds, seed);
        }
    }
    eprintln!(
        "{}: slowest on `{command}`: seed {}, {:.2} s",
        fuzzer.name, slowest.1, slowest.0
    );
    assert!(
        slowest.0 <= 2.0,
        "{} --seed {} takes {:.2} s of CPU on `{command}`",
        fuzzer.name,
        slowest.1,
        slowest.0
    );
}

#[test]
fn lua_programs_compile_luajit_traces() {
    assert_reach(&xsmith_lua::FUZZER, "lua", 50);
}

#[test]
fn javascript_programs_reach_v8_optimizing_tiers() {
    assert_reach(&xsmith_javascript::FUZZER, "javascript", 50);
}

#[test]
fn python_programs_compile_pypy_loops() {
    assert_reach(&xsmith_python::FUZZER, "python", 50);
}

#[test]
fn c_programs_have_loops_gcc_vectorizes() {
    assert_reach(&xsmith_c::FUZZER, "c", 50);
}

#[test]
fn lua_programs_are_fast_on_lua51() {
    assert_fast(&xsmith_lua::FUZZER, "lua5.1 {}", "lua5.1");
}

#[test]
fn javascript_programs_are_fast_on_duk() {
    assert_fast(&xsmith_javascript::FUZZER, "duk {}", "duktape");
}

#[test]
fn c_programs_are_fast_on_tcc() {
    assert_fast(&xsmith_c::FUZZER, "tcc -run {}", "tcc");
}

#[test]
fn python_programs_are_fast_on_cpython() {
    assert_fast(&xsmith_python::FUZZER, "python3 {}", "python3");
}
