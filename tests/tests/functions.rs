//! The named-functions test fuzzer (see `xsmith_tests::functions`): calls of
//! named functions in a language without function values never fail to
//! generate, whatever the depth; functions, lifted or not, are only ever
//! defined at the top level, as their choice filter says; and the programs
//! run in `python3`, which checks every name, arity and (through the
//! programs' own run-time checks) every value's type.

use std::io::Write;
use std::process::{Command, Stdio};

use xsmith::{Generator, Options, Program, Random, Spec};
use xsmith_tests::functions;

/// The nodes of `program` made by the production named `name`.
fn nodes<'p>(spec: &'p Spec, program: &'p Program, name: &'p str) -> impl Iterator<Item = xsmith::NodeId> + 'p {
    program
        .ids()
        .filter(move |&id| !program.node(id).is_hole && spec.production(program.node(id).production).name() == name)
}

fn options(max_depth: u32) -> Options {
    Options {
        max_depth,
        ..Options::default()
    }
}

#[test]
fn calls_of_named_functions_never_fail_and_functions_stay_at_the_top_level() {
    let spec = functions::spec().expect("the spec assembles");
    let (mut calls, mut functions) = (0, 0);
    for max_depth in 1..=10 {
        let mut generator = Generator::new(&spec, options(max_depth)).expect("the options suit the spec");
        for seed in 0..300 {
            let program = generator
                .generate(&mut Random::from_seed(seed))
                .unwrap_or_else(|e| panic!("--max-depth {max_depth} --seed {seed}: {e}"));
            calls += nodes(&spec, &program, "Call").count();
            for function in nodes(&spec, &program, "FunDef") {
                functions += 1;
                let parent = program.node(function).parent.expect("a definition has a parent");
                assert_eq!(
                    spec.production(program.node(parent).production).name(),
                    "Program",
                    "--max-depth {max_depth} --seed {seed}: a function defined below the top level"
                );
            }
        }
    }
    assert!(
        calls > 1000 && functions > 1000,
        "the sample calls functions ({calls} calls of {functions})"
    );
}

/// Runs each program in `python3`, in a fresh namespace of one process
/// (one process for all: starting Python is the slow part); returns the
/// failures, each with its index and Python's error.
fn run_in_python(programs: &[String]) -> Vec<String> {
    const DRIVER: &str = r#"
import sys, io, contextlib, traceback
for index, source in enumerate(sys.stdin.read().split("\0")):
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            exec(compile(source, "program-%d" % index, "exec"), {})
    except BaseException:
        print("\x1eprogram %d: %s" % (index, traceback.format_exc()))
"#;
    let mut python = Command::new("python3")
        .args(["-c", DRIVER])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("python3 runs (Debian package python3; ./test.sh installs it)");
    let input = programs.join("\0");
    let mut stdin = python.stdin.take().expect("stdin is piped");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = python.wait_with_output().expect("python3 finishes");
    writer
        .join()
        .expect("the writer ends")
        .expect("python3 reads the programs");
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8_lossy(&output.stdout)
        .split('\u{1e}')
        .filter(|failure| !failure.trim().is_empty())
        .map(str::to_string)
        .collect()
}

#[test]
fn programs_with_named_functions_run_in_python() {
    let spec = functions::spec().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options suit the spec");
    let programs: Vec<String> = (0..300)
        .map(|seed| {
            let program = generator
                .generate(&mut Random::from_seed(seed))
                .expect("generation succeeds");
            xsmith::render::render_tree(&spec, &program, 100)
        })
        .collect();
    let failures = run_in_python(&programs);
    assert!(
        failures.is_empty(),
        "{} of 300 programs fail:\n{}",
        failures.len(),
        failures.join("\n")
    );
    let broken = ["def f(a):\n    return a\nf()".to_string()];
    assert_eq!(run_in_python(&broken).len(), 1, "the driver reports a failing program");
}
