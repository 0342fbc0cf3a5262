//! Known bugs by core (issue 26): a second bug of the same engine, with the
//! same grouping as the known wasmi bug, is reported as new. The engine
//! here is wasmi with a planted bug: a module that uses `i64.popcnt` prints
//! one line more. The campaign runs seeds 7557 to 7576, which hold module
//! 7566 (the real wasmi bug, `tests/wasmi-disagreement.wat`) and module
//! 7573 (the only one of them with an `i64.popcnt`), and `--reduce` takes
//! each finding to its core. (The seeds move whenever the modules change:
//! 940 to 959 before the type concretizer's shuffle ran front to back,
//! 19020 to 19039 before size budgets became local choices, 9792 to 9811
//! before productions were drawn from stable lists; a campaign of seeds 0
//! to 20,580 on wasmtime and wasmi now finds the real bug at 7566 alone.)

use std::path::PathBuf;
use std::process::ExitCode;

use xsmith::campaign::{group_bugs, Core};
use xsmith::{Execution, Fuzzer, Implementation, KnownBug};
use xsmith_wasm::engines::{run_wasmi, run_wasmtime};

/// wasmi, with a planted bug of its own.
fn wasmi_with_a_planted_bug(module: &str) -> Execution {
    match run_wasmi(module) {
        Execution::Output(out) if module.contains("i64.popcnt") => Execution::Output(out + "planted\n"),
        other => other,
    }
}

static PLANTED: [Implementation; 2] = [
    Implementation::InProcess {
        name: "wasmtime",
        run: run_wasmtime,
    },
    Implementation::InProcess {
        name: "wasmi",
        run: wasmi_with_a_planted_bug,
    },
];

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn a_second_bug_of_wasmi_is_new_and_the_known_one_stays_known() {
    let fuzzer = Fuzzer {
        implementations: &PLANTED,
        ..xsmith_wasm::FUZZER
    };
    let dir = tempfile::tempdir().unwrap();
    let findings = dir.path().join("findings");
    let args = ["xsmith-wasm", "diff", "--seed", "7557", "--count", "20", "--reduce"];
    let args = args.into_iter().map(String::from).chain([
        "--time-budget".into(),
        "60".into(),
        "--findings".into(),
        findings.display().to_string(),
    ]);
    let status = xsmith::cli::run_with_known_bugs(&fuzzer, xsmith_wasm::KNOWN_BUGS, args);
    assert_eq!(status, ExitCode::from(1), "the planted bug is new");

    let known = KnownBug::parse(xsmith_wasm::KNOWN_BUGS).unwrap();
    let saved: Vec<(String, Option<Core>, PathBuf)> = ["differ-7573", "differ-7566"]
        .iter()
        .map(|name| {
            let finding = findings.join(name);
            let signature = std::fs::read_to_string(finding.join("signature")).expect("the finding is saved");
            (signature.trim().to_string(), Core::of_finding(&finding), finding)
        })
        .collect();
    assert!(saved
        .iter()
        .all(|(s, core, _)| s == "differ: wasmi | wasmtime" && core.is_some()));
    let bugs = group_bugs(saved, &known);
    assert_eq!(bugs.len(), 2, "two bugs under one grouping: {bugs:?}");
    for bug in &bugs {
        let finding = &bug.findings[0];
        let reduced = std::fs::read_to_string(finding.join("reduced").join("program.wat")).unwrap();
        if finding.ends_with("differ-7566") {
            assert!(bug.known.is_some(), "the real wasmi bug is known by its core: {bug}");
            assert!(reduced.contains("select") && reduced.contains("i32.eqz"), "{reduced}");
        } else {
            assert!(bug.known.is_none(), "the planted bug is new: {bug}");
            assert!(reduced.contains("i64.popcnt"), "{reduced}");
        }
    }
}
