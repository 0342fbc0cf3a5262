//! The JavaScript fuzzer against real implementations: 300 programs at the default
//! size run on node and duk with no rejection, no runtime
//! error, no timeout and no disagreement, and every canned production
//! appears in at least a tenth of them.

use std::path::Path;
use std::process::Command;
use std::thread;

use xsmith::{Generator, Options, Source};
use xsmith_javascript::FUZZER;
use xsmith_tests::{scratch_dir, Implementation, DUK, NODE};

const PROGRAMS: u64 = 300;
const IMPLEMENTATIONS: [Implementation; 2] = [NODE, DUK];

/// Runs one program under a 10-second timeout: its output, or how it failed.
fn run(implementation: &Implementation, program: &Path) -> Result<String, String> {
    let output = Command::new("timeout")
        .args(["10", implementation.command])
        .arg(program)
        .output()
        .map_err(|e| format!("{} could not start: {e}", implementation.command))?;
    match output.status.code() {
        Some(0) => Ok(String::from_utf8_lossy(&output.stdout).into_owned()),
        Some(124) => Err(format!("{} timed out", implementation.command)),
        _ => Err(format!(
            "{} failed ({}): {}",
            implementation.command,
            output.status,
            String::from_utf8_lossy(&output.stderr)
        )),
    }
}

#[test]
fn programs_agree_on_node_and_duk() {
    for implementation in &IMPLEMENTATIONS {
        implementation.require();
    }
    let spec = (FUZZER.spec)().unwrap();
    let dir = scratch_dir("javascript");
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (mut bytes, mut nodes) = (0, 0);
    let mut paths = Vec::new();
    for seed in 0..PROGRAMS {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        bytes += program.text.len();
        nodes += program.tree.len();
        let path = dir.path().join(format!("{seed}.js"));
        std::fs::write(&path, &program.text).unwrap();
        paths.push((seed, path));
    }
    eprintln!(
        "{PROGRAMS} programs, {} bytes and {} nodes on average",
        bytes / PROGRAMS as usize,
        nodes / PROGRAMS as usize
    );

    // Every canned production appears in at least a tenth of the programs.
    let canned = xsmith_canned::Canned::new(&xsmith_javascript::options()).unwrap();
    let log = generator.choice_log();
    let mut rare = Vec::new();
    for name in &canned.productions {
        let share = log.programs_with(spec.lookup(name).unwrap()) as f64 / PROGRAMS as f64;
        eprintln!("{name:>14}: in {:5.1}% of programs", share * 100.0);
        if share < 0.1 {
            rare.push(format!("{name} ({:.1}%)", share * 100.0));
        }
    }
    assert!(rare.is_empty(), "in fewer than 10% of programs: {}", rare.join(", "));

    let failures: Vec<String> = thread::scope(|scope| {
        let halves: Vec<_> = paths
            .chunks(paths.len() / 2 + 1)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (seed, path) in chunk {
                        let outputs: Vec<_> = IMPLEMENTATIONS.iter().map(|i| run(i, path)).collect();
                        if outputs.iter().any(|o| o.is_err()) || outputs.iter().any(|o| o != &outputs[0]) {
                            let described: Vec<String> = IMPLEMENTATIONS
                                .iter()
                                .zip(&outputs)
                                .map(|(i, o)| format!("{}: {:.300?}", i.command, o))
                                .collect();
                            failures.push(format!("seed {seed}: {}", described.join("; ")));
                        }
                    }
                    failures
                })
            })
            .collect();
        halves.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(
        failures.is_empty(),
        "{} of {PROGRAMS} programs failed or disagreed:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let spec = (FUZZER.spec)().unwrap();
    let mut first = Generator::new(&spec, Options::default()).unwrap();
    let mut second = Generator::new(&spec, Options::default()).unwrap();
    for seed in [0, 7, 12345] {
        let a = FUZZER.program(&spec, &mut first, Source::Seed(seed)).unwrap();
        let b = FUZZER.program(&spec, &mut second, Source::Seed(seed)).unwrap();
        assert_eq!(a.text, b.text, "seed {seed}");
    }
}

/// The header's wrappers at the edges of the int32 range, and its printing,
/// give the same, expected text on both implementations.
#[test]
fn the_header_keeps_int32_and_prints_alike() {
    for implementation in &IMPLEMENTATIONS {
        implementation.require();
    }
    let checks = [
        ("add(2147483647, 1)", "-2147483648"),
        ("sub((-2147483648), 1)", "2147483647"),
        ("neg((-2147483648))", "-2147483648"),
        ("neg(0)", "0"),
        ("mul(65537, 65537)", "131073"),
        ("mul((-2147483648), (-1))", "-2147483648"),
        ("mul(0, (-5))", "0"),
        ("div(7, 0)", "7"),
        ("div((-7), 2)", "-3"),
        ("div(0, (-5))", "0"),
        ("div((-2147483648), (-1))", "-2147483648"),
        ("mod((-7), 2)", "-1"),
        ("mod((-4), 2)", "0"),
        ("mod((-2147483648), (-1))", "0"),
        ("mod(5, 0)", "5"),
        ("aget([1, 2, 3], (-1))", "3"),
        ("aget([1, 2, 3], (-2147483648))", "2"),
        ("dget({\"k0\": 1}, \"toString\", 9)", "9"),
        ("cat(\"0123456789012345678901234567890123456789\", \"x\").length", "40"),
        ("\"q\\\"uote\\\\tab\\tnew\\nline\"", r#""q\"uote\\tab\tnew\nline""#),
        (
            "{\"k1\": [true, {y: 1, x: \"a\"}], \"k0\": (function () { return 0; })}",
            r#"{"k0":<function>,"k1":[true,{"x":"a","y":1}]}"#,
        ),
    ];
    let mut program = FUZZER.prelude.to_string();
    let mut expected = String::new();
    for (expression, printed) in checks {
        program.push_str(&format!("out({expression});\n"));
        expected.push_str(printed);
        expected.push('\n');
    }
    let dir = scratch_dir("javascript-header");
    let path = dir.path().join("header.js");
    std::fs::write(&path, program).unwrap();
    for implementation in &IMPLEMENTATIONS {
        assert_eq!(
            run(implementation, &path).as_deref(),
            Ok(expected.as_str()),
            "{}",
            implementation.command
        );
    }
}
