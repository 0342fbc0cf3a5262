//! Generated modules are conforming: every one validates, none traps or
//! runs out of fuel on any engine, and wasmtime, wasmi and wasm-interp
//! print the same text for each. And they are not trivial: each major
//! production appears in a good share of them.
//!
//! Known implementation bug: wasmi 2.0.0 gives a wrong result in about 0.5%
//! of modules (`wasmi-disagreement.wat` beside this file, reduced by
//! `xsmith-wasm reduce`: a `select` whose condition is
//! `(i32.eqz (local.get $x))` and one of whose operands reads `$x` too).
//! The fuzzer could avoid the pattern by construction, but then it would
//! stop finding the bug; a module on which wasmi alone differs, while
//! wasmtime and wasm-interp agree, is counted as that bug, up to
//! `WASMI_BUG_SHARE` percent; any other disagreement fails.
//!
//! `XSMITH_WASM_COUNT` sets how many modules (default 500).

use std::collections::BTreeMap;

use xsmith::{Generator, Options, Source};
use xsmith_wasm::engines::{self, Execution};
use xsmith_wasm::FUZZER;

/// Percent of modules on which wasmi may be outvoted (the known bug).
const WASMI_BUG_SHARE: u64 = 5;

fn count() -> u64 {
    std::env::var("XSMITH_WASM_COUNT").map_or(500, |v| v.parse().expect("XSMITH_WASM_COUNT is a number"))
}

/// Share of modules (in percent) that must contain each group of
/// productions.
const COVERAGE: &[(&str, &[&str], usize)] = &[
    ("loops", &["Loop"], 40),
    ("calls", &["Call"], 40),
    ("memory", &["Load", "Store"], 50),
    ("globals", &["GlobalGet", "GlobalSet"], 50),
    ("floats", &["FloatUnary", "FloatBinary", "FloatCompare"], 40),
    ("division", &["DivRem"], 30),
    ("blocks and branches", &["Block", "BlockExpr", "ExitIf"], 40),
    ("if/else", &["If", "IfExpr", "Select"], 50),
    ("locals", &["LocalSet", "LocalTee"], 50),
    ("conversions", &["Convert"], 40),
];

#[test]
fn modules_validate_run_and_agree_on_every_engine() {
    assert!(
        engines::wasm_interp_installed(),
        "wasm-interp is not installed: install the Debian package wabt (./test.sh does)"
    );
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    let n = count();
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut outputs = std::collections::BTreeSet::new();
    let mut failures = Vec::new();
    let mut wasmi_outvoted = Vec::new();
    for seed in 0..n {
        let program = FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let productions: std::collections::BTreeSet<&str> = program
            .program
            .ids()
            .map(|id| spec.production(program.program.node(id).production).name())
            .collect();
        for (group, members, _) in COVERAGE {
            if members.iter().any(|m| productions.contains(m)) {
                *seen.entry(group).or_default() += 1;
            }
        }
        if let Err(e) = engines::assemble(&program.text) {
            failures.push(format!("seed {seed}: {e}"));
            continue;
        }
        let runs = [
            ("wasmtime", engines::run_wasmtime(&program.text)),
            ("wasmi", engines::run_wasmi(&program.text)),
            ("wasm-interp", engines::run_wasm_interp(&program.text)),
        ];
        match (&runs[0].1, &runs[1].1, &runs[2].1) {
            (Execution::Output(a), b, c) if &runs[0].1 == c && matches!(b, Execution::Output(_)) => {
                if b != &runs[0].1 {
                    wasmi_outvoted.push(seed);
                }
                outputs.insert(a.clone());
            }
            _ => failures.push(format!("seed {seed}: {runs:#?}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {n} modules failed:\n{}",
        failures.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
    );
    assert!(
        wasmi_outvoted.len() as u64 * 100 <= n * WASMI_BUG_SHARE,
        "wasmi alone differs on {} of {n} modules (seeds {wasmi_outvoted:?})",
        wasmi_outvoted.len()
    );
    for (group, _, percent) in COVERAGE {
        let share = seen.get(group).copied().unwrap_or(0) * 100 / n as usize;
        assert!(
            share >= *percent,
            "{group} in only {share}% of modules (want {percent}%)"
        );
    }
    // Modules compute different things: most outputs are distinct.
    assert!(
        outputs.len() as u64 * 10 >= n * 9,
        "only {} distinct outputs",
        outputs.len()
    );
    eprintln!(
        "{n} modules: all run; wasmtime and wasm-interp agree on all, wasmi on all but seeds {wasmi_outvoted:?}; \
         coverage {seen:?}"
    );
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let text = |seed| {
        let mut generator = Generator::new(&spec, Options::default()).expect("default options");
        FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("generates")
            .text
    };
    for seed in [0, 7, 1234] {
        assert_eq!(text(seed), text(seed));
    }
    assert_ne!(text(1), text(2));
}

/// The reduced module of the known wasmi bug still shows it (when wasmi is
/// fixed, this fails: then drop the tolerance above).
#[test]
fn the_known_wasmi_bug_is_still_there() {
    let module = include_str!("wasmi-disagreement.wat");
    let expected = Execution::Output("main() => i64:4294967280\nchecksum() => i64:0\n".into());
    assert_eq!(engines::run_wasmtime(module), expected);
    assert_ne!(engines::run_wasmi(module), expected);
}

#[test]
fn traps_and_hangs_are_reported_not_hidden() {
    let trap = r#"(module (func (export "main") (result i64) (i64.div_s (i64.const 1) (i64.const 0)))
                          (func (export "checksum") (result i64) (i64.const 0)))"#;
    let hang = r#"(module (func (export "main") (result i64) (loop $l (br $l)) (i64.const 0))
                          (func (export "checksum") (result i64) (i64.const 0)))"#;
    assert!(matches!(engines::run_wasmtime(trap), Execution::Rejected(_)));
    assert!(matches!(engines::run_wasmi(trap), Execution::Rejected(_)));
    assert_eq!(engines::run_wasmtime(hang), Execution::Timeout);
    assert_eq!(engines::run_wasmi(hang), Execution::Timeout);
    assert!(matches!(engines::run_wasmtime("(module (func"), Execution::Rejected(_)));
}

/// `--swarm`: 300 modules, each with the feature groups and sizes it drew
/// from its seed, through a `diff` campaign on the fuzzer's engines
/// (wasmtime, wasmi, and wasm-interp, which the first test requires):
/// every module is generated and runs, and the only differences are wasmi
/// alone against the others (the known bug), within `WASMI_BUG_SHARE`; the
/// header of each module regenerates it byte for byte.
#[test]
fn swarm_modules_regenerate_and_agree_through_diff() {
    let findings = tempfile::tempdir().unwrap();
    let mut campaign = xsmith::Campaign::new(&FUZZER, findings.path());
    campaign.swarm = Some(xsmith::swarm::Swarm::default());
    campaign.count = 300;
    let mut report = Vec::new();
    let tally = campaign.run(&mut report).expect("the campaign runs");
    let report = String::from_utf8(report).unwrap();
    let read = |dir: &str, file: &str| std::fs::read_to_string(std::path::Path::new(dir).join(file)).ok();
    let mut wasmi_outvoted = 0;
    for line in report.lines().skip(2).filter(|l| !l.starts_with("note: ")) {
        let (verdict, dir) = line
            .split_once(": ")
            .map(|(v, d)| (v.split(' ').next().unwrap(), d))
            .unwrap();
        let (wasmtime, wasmi, interp) = (
            read(dir, "wasmtime.stdout"),
            read(dir, "wasmi.stdout"),
            read(dir, "wasm-interp.stdout"),
        );
        let wasmi_alone =
            verdict == "differ" && wasmtime != wasmi && interp.as_ref().is_none_or(|i| Some(i) == wasmtime.as_ref());
        assert!(
            wasmi_alone,
            "{line}: {:?} {:?}",
            read(dir, "command"),
            read(dir, "generation-error")
        );
        wasmi_outvoted += 1;
    }
    assert_eq!(tally.agree + wasmi_outvoted, 300, "{tally}");
    assert!(
        wasmi_outvoted * 100 <= 300 * WASMI_BUG_SHARE,
        "wasmi alone differs on {wasmi_outvoted} of 300"
    );

    // Headers: each module's command, without --swarm, regenerates it.
    let spec = (FUZZER.spec)().unwrap();
    let swarm = xsmith::swarm::Swarm::default();
    let mut configurations = std::collections::BTreeSet::new();
    for seed in 0..40 {
        let drawn = swarm.options(&spec, &Options::default(), seed);
        let mut generator = Generator::new(&spec, drawn).unwrap();
        let text = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap().text;
        let header = text.lines().next().unwrap();
        let command = header.strip_prefix(";; xsmith-wasm 0.2.0 ").unwrap();
        let again = tempfile::tempdir().unwrap();
        let mut words = vec!["xsmith-wasm"];
        words.extend(command.split(' '));
        words.extend(["--count", "1", "--output-dir", again.path().to_str().unwrap()]);
        assert_eq!(
            xsmith::cli::run(&FUZZER, words),
            std::process::ExitCode::SUCCESS,
            "{header}"
        );
        let regenerated = std::fs::read_to_string(again.path().join(format!("{seed}.wat"))).unwrap();
        assert!(regenerated == text, "`{header}` regenerates another module");
        configurations.insert(
            command
                .split_once(' ')
                .unwrap()
                .1
                .split_once(' ')
                .map(|(_, rest)| rest.to_string()),
        );
    }
    assert!(configurations.len() > 10, "{configurations:?}");
}

/// Issue 16: modules steered towards new 2-paths (`--cover 2`) run and agree
/// on every engine too, but for the known wasmi bug (as above).
#[test]
fn steered_modules_agree() {
    let wasmi_bug = ["differ: wasm-interp wasmtime | wasmi"];
    let covered =
        xsmith_tests::conformance::assert_steered_programs_agree(&FUZZER, &Options::default(), 2, 100, &wasmi_bug);
    assert!(covered > 300, "{covered} k-paths");
}
