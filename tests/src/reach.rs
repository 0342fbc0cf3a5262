//! Reach (issue 34): the share of a fuzzer's default programs that reach
//! an implementation's optimizing tier, as the implementation itself
//! reports it: V8 marks or compiles a function for Maglev, TurboFan or OSR
//! (`node --trace-opt`), LuaJIT compiles a trace (`luajit -jv`), PyPy
//! compiles a loop (`PYPYLOG=jit-summary`), gcc vectorizes a loop (`gcc -O3
//! -fopt-info-vec-optimized`) and clang vectorizes one (`clang -O3
//! -Rpass=loop-vectorize`). The further probes of the JITs see speculation
//! fail (issue 34, item 2): V8 deoptimizes optimized code (`node
//! --trace-deopt`), LuaJIT records a side trace from a guard of a trace
//! that failed often enough, PyPy compiles a bridge from a guard that
//! failed often enough. A fuzzer's first probe is its reach test's.
//!
//! `cargo run --release -p xsmith-tests --example reach -- FUZZER COUNT`
//! prints the table of the README of each fuzzer.
//!
//! ```
//! let probes = xsmith_tests::reach::probes("lua").unwrap();
//! assert_eq!(probes[0].name, "luajit trace");
//! assert!((probes[0].reached)("[TRACE   1 prog.lua:3 loop]\n"));
//! assert!(!(probes[0].reached)("[TRACE --- prog.lua:3 -- leaving loop in root trace]\n"));
//! assert!((probes[1].reached)("[TRACE   5 (2/1) prog.lua:9 -- fallback to interpreter]\n"));
//! assert!(!(probes[1].reached)("[TRACE   1 prog.lua:3 loop]\n"));
//! ```

use std::path::Path;
use std::process::Command;

use xsmith::{Fuzzer, Generator, Options, Source};

/// One optimizing tier and how to see that a program reached it.
pub struct Probe {
    /// What the tier is, as the table names it.
    pub name: &'static str,
    /// The command, run in a shell with `{}` the program's file and `{dir}`
    /// a scratch directory; its stdout and stderr together, and any file
    /// `{dir}/log` it wrote, are what [`reached`](Probe::reached) reads.
    pub command: &'static str,
    /// The Debian package the command's tool comes from.
    pub package: &'static str,
    /// Whether the tool's report says the tier was reached.
    pub reached: fn(&str) -> bool,
}

fn v8_optimized(log: &str) -> bool {
    log.lines()
        .any(|l| l.starts_with("[marking") || l.starts_with("[compiling method") || l.starts_with("[OSR"))
}

fn v8_deoptimized(log: &str) -> bool {
    log.lines().any(|l| l.starts_with("[bailout"))
}

/// A side trace: `[TRACE   5 (2/1) prog.lua:9 ...]`, the trace's parent and
/// the exit it starts from in parentheses.
fn luajit_side_trace(log: &str) -> bool {
    log.lines().any(|l| {
        l.strip_prefix("[TRACE")
            .map(str::trim_start)
            .and_then(|rest| rest.split_once(' '))
            .is_some_and(|(number, rest)| number.parse::<u64>().is_ok() && rest.starts_with('('))
    })
}

fn pypy_bridge(log: &str) -> bool {
    log.lines().any(|l| {
        l.strip_prefix("Total # of bridges:")
            .and_then(|n| n.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0)
    })
}

fn luajit_trace(log: &str) -> bool {
    log.lines()
        .any(|l| l.starts_with("[TRACE") && !l.starts_with("[TRACE ---"))
}

fn pypy_loop(log: &str) -> bool {
    log.lines().any(|l| {
        l.strip_prefix("Total # of loops:")
            .and_then(|n| n.trim().parse::<u64>().ok())
            .is_some_and(|n| n > 0)
    })
}

fn gcc_vectorized(log: &str) -> bool {
    log.contains("optimized: loop vectorized")
}

fn clang_vectorized(log: &str) -> bool {
    log.contains("remark: vectorized loop")
}

/// The probes of fuzzer `name` (`javascript`, `lua`, `python` or `c`).
///
/// ```
/// assert_eq!(xsmith_tests::reach::probes("c").unwrap().len(), 2);
/// assert!(xsmith_tests::reach::probes("cobol").is_none());
/// ```
pub fn probes(name: &str) -> Option<Vec<Probe>> {
    let probes = match name {
        "javascript" => vec![
            Probe {
                name: "V8 optimizing tier",
                command: "node --trace-opt {}",
                package: "nodejs",
                reached: v8_optimized,
            },
            Probe {
                name: "V8 deoptimization",
                command: "node --trace-deopt {}",
                package: "nodejs",
                reached: v8_deoptimized,
            },
        ],
        "lua" => vec![
            Probe {
                name: "luajit trace",
                command: "luajit -jv {}",
                package: "luajit",
                reached: luajit_trace,
            },
            Probe {
                name: "luajit side trace",
                command: "luajit -jv {}",
                package: "luajit",
                reached: luajit_side_trace,
            },
        ],
        "python" => vec![
            Probe {
                name: "PyPy loop",
                command: "env PYPYLOG=jit-summary:{dir}/log pypy3 {}",
                package: "pypy3",
                reached: pypy_loop,
            },
            Probe {
                name: "PyPy bridge",
                command: "env PYPYLOG=jit-summary:{dir}/log pypy3 {}",
                package: "pypy3",
                reached: pypy_bridge,
            },
        ],
        "c" => vec![
            Probe {
                name: "gcc -O3 loop vectorized",
                command: "gcc -std=c99 -w -O3 -fopt-info-vec-optimized -c {} -o {dir}/p.o",
                package: "gcc",
                reached: gcc_vectorized,
            },
            Probe {
                name: "clang -O3 loop vectorized",
                command: "clang -std=c99 -w -O3 -Rpass=loop-vectorize -c {} -o {dir}/p.o",
                package: "clang",
                reached: clang_vectorized,
            },
        ],
        _ => return None,
    };
    Some(probes)
}

/// Runs `probe` on the program in `file`, using `dir` for scratch files,
/// and says whether it reached the tier (a time-out of 60 s counts as not
/// reached).
///
/// Panics, naming the package, if the tool is missing.
pub fn reaches(probe: &Probe, file: &Path, dir: &Path) -> bool {
    let command = probe
        .command
        .replace("{dir}", &dir.display().to_string())
        .replace("{}", &file.display().to_string());
    let log = dir.join("log");
    let _ = std::fs::remove_file(&log);
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("timeout 60 {command}"))
        .output()
        .expect("sh runs");
    if output.status.code() == Some(127) {
        panic!("`{command}`: not found; install the Debian package {}", probe.package);
    }
    let mut text = String::from_utf8_lossy(&output.stdout).into_owned();
    text.push_str(&String::from_utf8_lossy(&output.stderr));
    if let Ok(written) = std::fs::read_to_string(&log) {
        text.push_str(&written);
    }
    (probe.reached)(&text)
}

/// The CPU time (user and system, in seconds) that `command` (a shell
/// command with `{}` for the program's file) takes to run the program in
/// `file`: CPU time rather than wall time, so that a loaded machine does
/// not slow it. Panics, naming the package, if the command is missing.
pub fn cpu_seconds(command: &str, package: &str, file: &Path) -> f64 {
    let command = command.replace("{}", &file.display().to_string());
    let output = Command::new("sh")
        .arg("-c")
        .arg(format!("timeout 60 {command} > /dev/null 2>&1; echo $?; times"))
        .output()
        .expect("sh runs");
    let text = String::from_utf8_lossy(&output.stdout);
    let mut lines = text.lines();
    if lines.next() == Some("127") {
        panic!("`{command}`: not found; install the Debian package {package}");
    }
    // `times` prints the shell's user and system time, then its children's:
    // `0m0.412s 0m0.004s`.
    let children = lines.nth(1).expect("`times` prints two lines");
    children
        .split_whitespace()
        .map(|t| {
            let (minutes, seconds) = t
                .trim_end_matches('s')
                .split_once('m')
                .expect("`times` prints NmN.NNNs");
            minutes.parse::<f64>().expect("minutes") * 60.0 + seconds.parse::<f64>().expect("seconds")
        })
        .sum()
}

/// How many of the default programs of `fuzzer` with seeds `0..count`
/// reach each of `probes`' tiers, in the order of `probes`.
pub fn measure(fuzzer: &Fuzzer, probes: &[Probe], count: u64) -> Vec<u64> {
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options suit the spec");
    let dir = crate::scratch_dir("reach");
    let file = dir.path().join(format!("prog.{}", fuzzer.extension));
    let mut hits = vec![0; probes.len()];
    for seed in 0..count {
        let program = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("a default program generates");
        std::fs::write(&file, &program.text).expect("the scratch directory is writable");
        for (probe, hit) in probes.iter().zip(&mut hits) {
            if reaches(probe, &file, dir.path()) {
                *hit += 1;
            }
        }
    }
    hits
}
