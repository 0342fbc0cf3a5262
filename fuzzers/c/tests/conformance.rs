//! Generated programs are conforming C: each compiles on gcc and clang at
//! `-O0` and `-O2` and on tcc, runs to the end, and prints the same on all
//! five (`programs_agree_on_every_compiler`); and none has undefined
//! behaviour that gcc's and clang's sanitizers can see, nor a warning of
//! an uninitialised read or an unsequenced modification
//! (`programs_are_clean_under_the_sanitizers`). And they are not trivial:
//! each major production appears in a good share of them.
//!
//! Known compiler bug: tcc 0.9.27 drops a narrowing cast to an unsigned
//! type of a negative `signed char` that is widened again
//! (`tcc-narrowing-cast.c` beside this file, listed in `known-bugs`): a
//! program on which tcc alone differs, while gcc and clang at both levels
//! agree, counts as that bug, up to `TCC_BUG_SHARE` percent of programs;
//! any other disagreement fails. gcc 12.2 at -O2 and -O3 vectorizes an
//! `int8_t` subtraction fold wrongly (`gcc-int8-sub-fold.c`, also in
//! `known-bugs`); no program of this test has shown it, so it gets no
//! allowance.
//!
//! Compiles and runs go through the engine's own
//! [`Implementation::Compiled`], on as many threads as there are cores.
//! `XSMITH_C_COUNT` sets how many programs each test checks (default 300).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use xsmith::{Execution, Generator, Implementation, Limits, Options, Source};
use xsmith_c::{FUZZER, IMPLEMENTATIONS};

/// Percent of programs on which tcc may be outvoted (the known bug).
const TCC_BUG_SHARE: usize = 3;

fn count() -> u64 {
    std::env::var("XSMITH_C_COUNT").map_or(300, |v| v.parse().expect("XSMITH_C_COUNT is a number"))
}

/// Share of programs (in percent) that must contain each group of
/// productions.
const COVERAGE: &[(&str, &[&str], usize)] = &[
    ("globals", &["Global", "GlobalArray"], 50),
    ("locals", &["Local"], 60),
    ("calls", &["Call"], 60),
    // Issue 34 gave loop statements three productions; For alone was in
    // 37% of programs when they landed (the union not yet measured).
    ("loops", &["For", "ArrayMap", "ArrayZip", "ArrayFold"], 30),
    // Break and continue sit only in For, whose share the whole-array loops
    // took (4% of programs when they landed; weights 4 instead of 2 would
    // push if and prints below their bounds).
    ("break or continue", &["Break", "Continue"], 3),
    // If and Print also gave way to the whole-array loops: 38% and 28% of
    // programs when they landed (50% and 30% before).
    ("if", &["If"], 30),
    ("arithmetic", &["Arith"], 80),
    ("compound assignment", &["CompoundAssign"], 30),
    ("casts", &["Cast"], 50),
    ("comma", &["Comma"], 10),
    ("arrays", &["ArrayGet", "ArraySet"], 40),
    ("pointers", &["Deref", "DerefSet"], 40),
    ("pointer parameters", &["AddrOf"], 3),
    ("prints", &["Print"], 20),
    (
        "struct members",
        &["FieldGet", "FieldElemGet", "FieldSet", "FieldElemSet"],
        60,
    ),
    ("struct member stores", &["FieldSet", "FieldElemSet"], 30),
    ("struct assignment", &["StructAssign"], 15),
    ("global structs", &["GlobalStruct"], 15),
    ("element and member pointers", &["LocalElemPtr", "LocalFieldPtr"], 30),
];

/// The programs of seeds `0..count()`, with the productions each contains.
fn programs() -> Vec<(u64, String, Vec<String>)> {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    (0..count())
        .map(|seed| {
            let program = FUZZER
                .program(&spec, &mut generator, Source::Seed(seed))
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let features = xsmith::features::Features::of(spec.grammar(), &program.program);
            let productions = features.productions().map(String::from).collect();
            (seed, program.text, productions)
        })
        .collect()
}

/// Runs every program on every implementation, on as many threads as
/// there are cores: for each program, its seed and each implementation's
/// run, in the order of `implementations`.
fn run_all(
    programs: &[(u64, String, Vec<String>)],
    implementations: &[Implementation],
    limits: &Limits,
) -> Vec<(u64, Vec<xsmith::Run>)> {
    for implementation in implementations {
        if let Err(e) = implementation.check() {
            panic!("{e} (./test.sh installs the compilers)");
        }
    }
    let dir = tempfile::tempdir().expect("a scratch directory");
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for worker in 0..threads {
            let (next, results, dir) = (&next, &results, dir.path());
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some((seed, text, _)) = programs.get(i) else { break };
                let file = dir.join(format!("w{worker}.c"));
                std::fs::write(&file, text).expect("writing a program");
                let runs = implementations.iter().map(|imp| imp.run(&file, text, limits)).collect();
                results.lock().unwrap().push((*seed, runs));
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(seed, _)| *seed);
    results
}

fn describe(run: &xsmith::Run) -> String {
    let stderr: String = run.stderr.chars().take(600).collect();
    format!("{} ({}): {stderr}", run.execution.kind(), run.status)
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn programs_agree_on_every_compiler() {
    let programs = programs();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, _, productions) in &programs {
        for (group, members, _) in COVERAGE {
            if members.iter().any(|m| productions.iter().any(|p| p == m)) {
                *seen.entry(group).or_default() += 1;
            }
        }
    }
    let limits = Limits {
        timeout: Duration::from_secs(10),
        compile_timeout: Duration::from_secs(120),
        memory: None,
    };
    let mut failures = Vec::new();
    let mut tcc_outvoted = Vec::new();
    let mut outputs = std::collections::BTreeSet::new();
    let tcc = IMPLEMENTATIONS
        .iter()
        .position(|i| i.name() == "tcc")
        .expect("tcc is a default");
    for (seed, runs) in run_all(&programs, IMPLEMENTATIONS, &limits) {
        let first = &runs[0].execution;
        let all_agree = runs.iter().all(|run| &run.execution == first);
        let others_agree = runs
            .iter()
            .enumerate()
            .all(|(i, run)| i == tcc || &run.execution == first);
        let tcc_printed = matches!(runs[tcc].execution, Execution::Output(_));
        match first {
            Execution::Output(_) if !all_agree && others_agree && tcc_printed => tcc_outvoted.push(seed),
            Execution::Output(text) if all_agree => {
                assert!(
                    text.ends_with('\n') && text.contains("checksum = "),
                    "seed {seed}: {text}"
                );
                outputs.insert(text.clone());
            }
            _ => {
                let lines: Vec<String> = IMPLEMENTATIONS
                    .iter()
                    .zip(&runs)
                    .map(|(imp, run)| match &run.execution {
                        Execution::Output(text) => format!("  {}: {}", imp.name(), text.lines().last().unwrap_or("")),
                        _ => format!("  {}: {}", imp.name(), describe(run)),
                    })
                    .collect();
                failures.push(format!("seed {seed}:\n{}", lines.join("\n")));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs did not agree:\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
    let n = programs.len();
    assert!(
        tcc_outvoted.len() * 100 <= n * TCC_BUG_SHARE,
        "tcc alone differed on {} programs (seeds {tcc_outvoted:?}): more than the known bug explains",
        tcc_outvoted.len()
    );
    assert!(
        outputs.len() * 10 >= n * 9,
        "programs should print different things: {} distinct outputs",
        outputs.len()
    );
    let rare: Vec<String> = COVERAGE
        .iter()
        .filter_map(|(group, _, percent)| {
            let share = seen.get(group).copied().unwrap_or(0) * 100 / n.max(1);
            (share < *percent).then(|| format!("{group}: in {share}% of programs, expected at least {percent}%"))
        })
        .collect();
    assert!(rare.is_empty(), "{}", rare.join("\n"));
}

/// gcc's or clang's command line for the sanitizer test: undefined
/// behaviour and address sanitizers, stopping at the first report, and
/// the warnings of real problems (uninitialised reads, unsequenced
/// modifications, a pointer to a member or element of another type) as
/// errors.
const SANITIZED: &[Implementation] = &[
    Implementation::Compiled {
        name: "gcc-sanitized",
        template: "gcc -std=c99 -O1 -Wall -Wextra -Werror=uninitialized -Werror=maybe-uninitialized \
                   -Werror=sequence-point -Werror=return-type -Werror=incompatible-pointer-types -fsanitize=undefined,address \
                   -fno-sanitize-recover=all {} -o {exe}",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "clang-sanitized",
        template: "clang -std=c99 -O1 -Wall -Wextra -Werror=uninitialized -Werror=sometimes-uninitialized \
                   -Werror=unsequenced -Werror=return-type -Werror=incompatible-pointer-types -fsanitize=undefined,address \
                   -fno-sanitize-recover=all {} -o {exe}",
        package: "clang",
    },
];

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn programs_are_clean_under_the_sanitizers() {
    let programs = programs();
    let limits = Limits {
        timeout: Duration::from_secs(20),
        compile_timeout: Duration::from_secs(120),
        memory: None,
    };
    let mut failures = Vec::new();
    for (seed, runs) in run_all(&programs, SANITIZED, &limits) {
        for (imp, run) in SANITIZED.iter().zip(&runs) {
            let reported = ["runtime error", "Sanitizer", "warning: "]
                .iter()
                .find(|marker| run.stderr.contains(*marker));
            let bad_warning = reported == Some(&"warning: ")
                && ["uninitialized", "sequence", "unsequenced"]
                    .iter()
                    .any(|w| run.stderr.contains(w));
            let sanitizer = reported.is_some_and(|m| *m != "warning: ");
            if !matches!(run.execution, Execution::Output(_)) || sanitizer || bad_warning {
                failures.push(format!("seed {seed}, {}: {}", imp.name(), describe(run)));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} sanitizer or warning reports over {} programs:\n{}",
        failures.len(),
        programs.len(),
        failures.join("\n")
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn a_program_with_undefined_behaviour_is_caught_by_the_sanitizer_test() {
    // The test above could not fail if its compilers or markers were
    // wrong: this program overflows a signed int and must be reported.
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("ub.c");
    let text = "#include <stdio.h>\nint main(void) { volatile int x = 2147483647; x = x + 1; printf(\"%d\\n\", x); return 0; }\n";
    std::fs::write(&file, text).unwrap();
    let limits = Limits {
        memory: None,
        ..Limits::default()
    };
    for imp in SANITIZED {
        let run = imp.run(Path::new(&file), text, &limits);
        assert!(
            !matches!(run.execution, Execution::Output(_)) && run.stderr.contains("runtime error"),
            "{}: {}",
            imp.name(),
            describe(&run)
        );
    }
}

/// Asserts that each default implementation named in `expected` prints
/// the text beside it for the test file `file` (beside this file).
fn assert_prints(file: &str, expected: &[(&str, &str)]) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join(file);
    let text = std::fs::read_to_string(&file).unwrap();
    let limits = Limits {
        memory: None,
        ..Limits::default()
    };
    for &(name, output) in expected {
        let implementation = IMPLEMENTATIONS.iter().find(|i| i.name() == name).unwrap();
        implementation.check().unwrap_or_else(|e| panic!("{e}"));
        let execution = implementation.run(&file, &text, &limits).execution;
        assert_eq!(
            execution,
            Execution::Output(output.into()),
            "{name} on {}",
            file.display()
        );
    }
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn the_known_tcc_bug_still_shows() {
    // If tcc is fixed, this fails: drop the bug from `known-bugs` and the
    // allowance above.
    assert_prints(
        "tcc-narrowing-cast.c",
        &[("gcc-O0", "65533\n"), ("clang-O2", "65533\n"), ("tcc", "4294967293\n")],
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn the_known_tcc_bug_shows_widened_to_64_bits() {
    // The same bug, as the campaign with structs found it (seed 2802).
    assert_prints(
        "tcc-narrowing-cast-64.c",
        &[("gcc-O2", "fff0\n"), ("clang-O0", "fff0\n"), ("tcc", "fffffff0\n")],
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn the_known_tcc_ternary_bug_still_shows() {
    // tcc takes neither arm of a conditional whose condition is a
    // conditional with equal constant arms and a call for its condition
    // (fixed upstream by tinycc 2cf3a6eb). If Debian's tcc is fixed, this
    // fails: drop the bug from `known-bugs`.
    assert_prints(
        "tcc-ternary-call-condition.c",
        &[("gcc-O0", "1\n"), ("clang-O2", "1\n"), ("tcc", "0\n")],
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn the_gcc_int8_fold_bug_still_shows() {
    // gcc 12.2 at -O2 and -O3 vectorizes an int8_t subtraction fold wrongly
    // (found by a campaign on gcc -O3 with the whole-array loops of issue
    // 34, seed 400549). If gcc is fixed, this fails: drop the bug from
    // `known-bugs`.
    assert_prints(
        "gcc-int8-sub-fold.c",
        &[
            ("gcc-O0", "55\n"),
            ("clang-O2", "55\n"),
            ("tcc", "55\n"),
            ("gcc-O2", "-128\n"),
        ],
    );
}
