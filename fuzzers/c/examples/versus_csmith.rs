//! xsmith-c beside csmith, on the same compilers and the same time budget.
//!
//! ```text
//! cargo run --release -p xsmith-c --example versus_csmith -- [GEN_SECONDS [CAMPAIGN_SECONDS [JOBS]]]
//! ```
//!
//! First generation alone, one thread, for `GEN_SECONDS` each (default
//! 10): xsmith-c in process, csmith as the `csmith --seed N` process a
//! campaign runs (Debian's `csmith`). Then a campaign of `CAMPAIGN_SECONDS`
//! each (default 300) on `JOBS` threads (default: the cores): every
//! program compiled and run by the five default implementations of
//! xsmith-c (gcc and clang at `-O0` and `-O2`, tcc; csmith's programs with
//! `-I/usr/include/csmith ... -lm`, from `libcsmith-dev`), each compile held to
//! 60 s and each run to 5 s. Prints a Markdown table: programs and bytes
//! per second, the share of programs each compiler accepts (compiles, and
//! the executable exits normally within the time-out), and findings (any
//! verdict but agreement) and their distinct signatures per 1,000 programs
//! and per hour.
//!
//! `CSMITH_ARGS` adds options to csmith's command line (tcc rejects the
//! `#pragma pack(push)` of csmith's default packed structs:
//! `CSMITH_ARGS=--no-packed-struct` leaves them out); `VERSUS_ONLY=csmith`
//! or `VERSUS_ONLY=xsmith-c` measures one of the two; `VERSUS_SAVE=1`
//! writes each finding's program to the current directory.

use std::collections::{BTreeMap, BTreeSet};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use xsmith::{Execution, Generator, Implementation, Limits, Options, Signature, Source, Verdict};

/// The five compilers with csmith's include directory.
const CSMITH_IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Compiled {
        name: "gcc-O0",
        template: "gcc -std=c99 -w -O0 -I/usr/include/csmith {} -o {exe} -lm",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "gcc-O2",
        template: "gcc -std=c99 -w -O2 -I/usr/include/csmith {} -o {exe} -lm",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "clang-O0",
        template: "clang -std=c99 -w -O0 -I/usr/include/csmith {} -o {exe} -lm",
        package: "clang",
    },
    Implementation::Compiled {
        name: "clang-O2",
        template: "clang -std=c99 -w -O2 -I/usr/include/csmith {} -o {exe} -lm",
        package: "clang",
    },
    Implementation::Compiled {
        name: "tcc",
        template: "tcc -w -I/usr/include/csmith {} -o {exe} -lm",
        package: "tcc",
    },
];

/// One fuzzer's program of a seed, or why there is none.
type Make = dyn Fn(u64) -> Result<String, String> + Sync;

fn csmith(seed: u64) -> Result<String, String> {
    let extra = std::env::var("CSMITH_ARGS").unwrap_or_default();
    let out = Command::new("csmith")
        .args(["--seed", &seed.to_string()])
        .args(extra.split_whitespace())
        .output()
        .map_err(|e| format!("cannot run csmith (apt-get install csmith libcsmith-dev): {e}"))?;
    match out.status.success() {
        true => Ok(String::from_utf8_lossy(&out.stdout).into_owned()),
        false => Err(String::from_utf8_lossy(&out.stderr).into_owned()),
    }
}

fn xsmith_c() -> impl Fn(u64) -> Result<String, String> + Sync {
    let spec = (xsmith_c::FUZZER.spec)().expect("the spec assembles");
    move |seed| {
        let mut generator = Generator::new(&spec, Options::default()).map_err(|e| e.to_string())?;
        xsmith_c::FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .map(|p| p.text)
            .map_err(|e| e.to_string())
    }
}

/// Programs and bytes made in `budget` on one thread.
fn generation(make: &Make, budget: Duration) -> (u64, u64, f64) {
    let start = Instant::now();
    let (mut programs, mut bytes) = (0, 0);
    while start.elapsed() < budget {
        if let Ok(text) = make(programs) {
            bytes += text.len() as u64;
        }
        programs += 1;
    }
    (programs, bytes, start.elapsed().as_secs_f64())
}

#[derive(Default)]
struct Campaign {
    programs: u64,
    accepted: BTreeMap<&'static str, u64>,
    verdicts: BTreeMap<&'static str, u64>,
    signatures: BTreeSet<String>,
    seconds: f64,
}

fn campaign(make: &Make, implementations: &[Implementation], budget: Duration, jobs: usize) -> Campaign {
    let limits = Limits {
        timeout: Duration::from_secs(5),
        compile_timeout: Duration::from_secs(60),
        memory: None,
    };
    let dir = tempfile::tempdir().expect("a scratch directory");
    let next = AtomicU64::new(1_000_000);
    let result = Mutex::new(Campaign::default());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for worker in 0..jobs {
            let (next, result, dir) = (&next, &result, dir.path());
            scope.spawn(move || {
                while start.elapsed() < budget {
                    let seed = next.fetch_add(1, Ordering::Relaxed);
                    let Ok(text) = make(seed) else { continue };
                    let file = dir.join(format!("w{worker}.c"));
                    std::fs::write(&file, &text).expect("writing a program");
                    let runs = Implementation::run_each(implementations, &file, &text, &limits);
                    let signature = Signature::of(&runs);
                    let mut result = result.lock().unwrap();
                    result.programs += 1;
                    for (implementation, run) in &runs {
                        if matches!(run.execution, Execution::Output(_)) {
                            *result.accepted.entry(implementation.name()).or_default() += 1;
                        }
                    }
                    *result.verdicts.entry(signature.verdict.name()).or_default() += 1;
                    if signature.verdict != Verdict::Agree {
                        if std::env::var_os("VERSUS_SAVE").is_some() {
                            let _ = std::fs::write(format!("finding-{}.c", seed), &text);
                        }
                        result.signatures.insert(signature.to_string());
                    }
                }
            });
        }
    });
    let mut result = result.into_inner().unwrap();
    result.seconds = start.elapsed().as_secs_f64();
    result
}

fn main() {
    let args: Vec<f64> = std::env::args()
        .skip(1)
        .map(|a| a.parse().expect("numbers of seconds and jobs"))
        .collect();
    let gen_budget = Duration::from_secs_f64(args.first().copied().unwrap_or(10.0));
    let run_budget = Duration::from_secs_f64(args.get(1).copied().unwrap_or(300.0));
    let jobs = args
        .get(2)
        .map(|j| *j as usize)
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(2, |n| n.get()));
    let ours = xsmith_c();
    let fuzzers: [(&str, &Make, &[Implementation]); 2] = [
        ("xsmith-c", &ours, xsmith_c::IMPLEMENTATIONS),
        ("csmith", &csmith, CSMITH_IMPLEMENTATIONS),
    ];
    println!("| fuzzer | programs/s | MB/s | bytes/program | programs run | accepted by gcc-O0 / gcc-O2 / clang-O0 / clang-O2 / tcc | verdicts | findings / 1,000 | signatures / 1,000 | findings / hour | signatures |");
    println!("|---|---|---|---|---|---|---|---|---|---|---|");
    let only = std::env::var("VERSUS_ONLY").ok();
    for (name, make, implementations) in fuzzers {
        if only.as_deref().is_some_and(|only| only != name) {
            continue;
        }
        let (programs, bytes, seconds) = generation(make, gen_budget);
        let c = campaign(make, implementations, run_budget, jobs);
        let n = c.programs.max(1) as f64;
        let accepted: Vec<String> = implementations
            .iter()
            .map(|i| format!("{:.1}%", 100.0 * *c.accepted.get(i.name()).unwrap_or(&0) as f64 / n))
            .collect();
        let findings = c.programs - c.verdicts.get("agree").copied().unwrap_or(0);
        let verdicts: Vec<String> = c.verdicts.iter().map(|(v, k)| format!("{v} {k}")).collect();
        println!(
            "| {name} | {:.0} | {:.2} | {} | {} in {:.0} s | {} | {} | {:.1} | {:.1} | {:.0} | {} |",
            programs as f64 / seconds,
            bytes as f64 / seconds / 1e6,
            bytes / programs.max(1),
            c.programs,
            c.seconds,
            accepted.join(" / "),
            verdicts.join(", "),
            1000.0 * findings as f64 / n,
            1000.0 * c.signatures.len() as f64 / n,
            3600.0 * findings as f64 / c.seconds,
            c.signatures.iter().cloned().collect::<Vec<_>>().join("; "),
        );
    }
}
