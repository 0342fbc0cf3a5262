//! The Lua fuzzer against real implementations: 300 programs at the default
//! size run on lua5.1, lua5.4 and luajit with no rejection, no runtime
//! error, no timeout and no disagreement, and every canned production
//! appears in at least a tenth of them.

use std::path::Path;
use std::process::Command;
use std::thread;

use xsmith::{Generator, Options, Source};
use xsmith_lua::FUZZER;
use xsmith_tests::{scratch_dir, Implementation, LUA51, LUA54, LUAJIT};

const PROGRAMS: u64 = 300;
const IMPLEMENTATIONS: [Implementation; 3] = [LUA51, LUA54, LUAJIT];

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
fn programs_agree_on_lua51_lua54_and_luajit() {
    for implementation in &IMPLEMENTATIONS {
        implementation.require();
    }
    let spec = (FUZZER.spec)().unwrap();
    let dir = scratch_dir("lua");
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (mut bytes, mut nodes) = (0, 0);
    let mut paths = Vec::new();
    for seed in 0..PROGRAMS {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        bytes += program.text.len();
        nodes += program.tree.len();
        let path = dir.path().join(format!("{seed}.lua"));
        std::fs::write(&path, &program.text).unwrap();
        paths.push((seed, path));
    }
    eprintln!(
        "{PROGRAMS} programs, {} bytes and {} nodes on average",
        bytes / PROGRAMS as usize,
        nodes / PROGRAMS as usize
    );

    // Every canned production appears in at least a tenth of the programs.
    let canned = xsmith_canned::Canned::new(&xsmith_lua::options()).unwrap();
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
