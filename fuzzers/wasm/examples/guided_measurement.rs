//! Issue 17's measurement: the engines' edges that libFuzzer sees covered
//! over time, by three generators run side by side for the same time on
//! the same machine, each through libFuzzer and the same engines:
//!
//! - **random**: `xsmith-wasm guided --unguided` (program i is the one of
//!   seed i, as `diff` makes them; libFuzzer only counts coverage);
//! - **guided**: `xsmith-wasm guided` (libFuzzer mutates the choices and
//!   keeps what reaches new code);
//! - **wasm-smith**: the `wasm-smith` fuzz target (libFuzzer driving
//!   wasm-smith, with a configuration that never traps).
//!
//! The binaries come from `XSMITH_SANCOV=wasmi,wasmtime,cranelift
//! fuzz/build` (only the engines instrumented, so libFuzzer's `cov:` counts
//! their edges and nothing of the generators):
//!
//! ```text
//! cargo run --release -p xsmith-wasm --example guided_measurement -- \
//!     target/fuzz-wasmi-wasmtime-cranelift/x86_64-unknown-linux-gnu/release 600 docs/guided-wasm.svg [SEEDS_DIR] [--runs N]
//! ```
//!
//! With `--runs N` it runs the three side by side N times over. It writes
//! the plot (each generator's median over the runs, on a band from the
//! least to the most), a CSV of every coverage report beside it, and
//! prints a table: each run's edges at 1, 5 and 10 minutes (or the end),
//! executions, and findings, then each generator's median at the end.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use xsmith::plot::{draw_spreads, Spread};

/// One run's coverage reports: (seconds, edges, executions).
struct Run {
    name: &'static str,
    reports: Vec<(f64, u64, u64)>,
    /// What it said at the end: the tally and signatures, or a crash.
    summary: String,
}

impl Run {
    /// The edges of its last report at or before `seconds` (0 before the
    /// first).
    fn edges_at(&self, seconds: f64) -> u64 {
        (self.reports.iter())
            .take_while(|report| report.0 <= seconds)
            .last()
            .map_or(0, |report| report.1)
    }
}

fn main() -> Result<(), String> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = match args.iter().position(|a| a == "--runs") {
        Some(at) => {
            let value = args.get(at + 1).ok_or("--runs needs a number")?.clone();
            args.drain(at..at + 2);
            value
                .parse::<usize>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or(format!("--runs {value}: not a positive number"))?
        }
        None => 1,
    };
    let [bin, seconds, out, rest @ ..] = args.as_slice() else {
        return Err("usage: guided_measurement BIN_DIR SECONDS OUT.svg [SEEDS_DIR] [--runs N]".into());
    };
    let bin = PathBuf::from(bin);
    let seconds: u64 = seconds.parse().map_err(|e| format!("SECONDS {seconds}: {e}"))?;
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let mut rounds_run: Vec<Vec<Run>> = Vec::new();
    for round in 0..rounds {
        let dir = |name: &str| scratch.path().join(format!("{name}-{round}")).display().to_string();
        let commands = commands(&bin, seconds, round as u64, rest.first(), &dir);
        for corpus in ["guided", "random", "smith"] {
            std::fs::create_dir_all(dir(corpus)).map_err(|e| e.to_string())?;
        }
        let smith_findings = dir("smith-findings");
        let smith_findings = &smith_findings;
        let runs = std::thread::scope(|scope| {
            let handles = commands
                .each_ref()
                .map(|(name, words)| scope.spawn(move || run(name, words, smith_findings)));
            handles.map(|h| h.join().expect("a run thread"))
        });
        rounds_run.push(runs.into_iter().collect::<Result<_, _>>()?);
    }
    write_csv(&Path::new(out).with_extension("csv"), &rounds_run)?;
    // Each run's edges every second, so that the runs line up (to the
    // last report of any: libFuzzer reports once more as it stops).
    let last = (rounds_run.iter().flatten())
        .filter_map(|run| run.reports.last())
        .fold(seconds as f64, |last, report| last.max(report.0))
        .ceil() as u64;
    let sampled =
        |run: &Run| -> Vec<(f64, f64)> { (0..=last).map(|t| (t as f64, run.edges_at(t as f64) as f64)).collect() };
    let spreads: Vec<Spread> = (0..rounds_run[0].len())
        .map(|g| {
            let runs: Vec<Vec<(f64, f64)>> = rounds_run.iter().map(|round| sampled(&round[g])).collect();
            Spread::of(rounds_run[0][g].name.to_string(), &runs)
        })
        .collect();
    // The build's directory names what is instrumented: target/fuzz-wasmi/...
    let instrumented = bin
        .components()
        .filter_map(|c| c.as_os_str().to_str()?.strip_prefix("fuzz-").map(str::to_string))
        .next()
        .unwrap_or_else(|| "every crate".into())
        .replace('-', ", ");
    let title = match rounds {
        1 => format!("edges covered in {instrumented} over {seconds} s (libFuzzer's cov)"),
        _ => format!("{instrumented} edges over {seconds} s, median of {rounds} runs (band: least to most)"),
    };
    draw_spreads(Path::new(out), &title, ("seconds", "edges"), &spreads)?;
    println!("| generator | run | edges at 60 s | at 300 s | at the end | executions | findings |");
    println!("|---|---|---|---|---|---|---|");
    for (round, runs) in rounds_run.iter().enumerate() {
        for run in runs {
            let (end, executions) = run.reports.last().map_or((0, 0), |r| (r.1, r.2));
            println!(
                "| {} | {} | {} | {} | {end} | {executions} | {} |",
                run.name,
                round + 1,
                run.edges_at(60.0),
                run.edges_at(300.0),
                run.summary.replace('\n', "; ")
            );
        }
    }
    for spread in &spreads {
        if let Some(&(_, least, median, most)) = spread.points.last() {
            println!(
                "{}: median of {rounds} runs {median} edges at the end (least {least}, most {most})",
                spread.name
            );
        }
    }
    Ok(())
}

/// The three generators' command lines for round `round` (random's seeds
/// start at a million times the round), their corpora in `dir(name)`.
fn commands(
    bin: &Path,
    seconds: u64,
    round: u64,
    seeds: Option<&String>,
    dir: &dyn Fn(&str) -> String,
) -> [(&'static str, Vec<String>); 3] {
    let time = seconds.to_string();
    let xsmith = bin.join("xsmith-wasm").display().to_string();
    let mut guided = vec![xsmith.clone(), "guided".into(), "--time".into(), time.clone()];
    guided.extend([
        "--corpus".into(),
        dir("guided"),
        "--findings".into(),
        dir("guided-findings"),
    ]);
    if let Some(seeds) = seeds {
        guided.extend(["--seeds".into(), seeds.clone()]);
    }
    let mut random = vec![xsmith, "guided".into(), "--unguided".into(), "--seed".into()];
    random.push((round * 1_000_000).to_string());
    random.extend(["--time".into(), time, "--corpus".into(), dir("random")]);
    random.extend(["--findings".into(), dir("random-findings")]);
    let smith = vec![
        bin.join("wasm-smith").display().to_string(),
        format!("-max_total_time={seconds}"),
        dir("smith"),
    ];
    [("random", random), ("guided", guided), ("wasm-smith", smith)]
}

/// Runs one generator to its end, timing each coverage report libFuzzer
/// writes on standard error (`#N ... cov: E ...`).
fn run(name: &'static str, words: &[String], smith_findings: &str) -> Result<Run, String> {
    let start = Instant::now();
    let mut child = Command::new(&words[0])
        .args(&words[1..])
        .env("XSMITH_FINDINGS", smith_findings)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{}: {e}", words[0]))?;
    let stdout = child.stdout.take().expect("piped");
    let stdout = std::thread::spawn(move || std::io::read_to_string(stdout).unwrap_or_default());
    let mut reports = Vec::new();
    let mut crash = None;
    for line in BufReader::new(child.stderr.take().expect("piped")).lines() {
        let Ok(line) = line else { break };
        let seconds = start.elapsed().as_secs_f64();
        if let Some(report) = coverage_report(&line) {
            reports.push((seconds, report.0, report.1));
        } else if line.contains("panicked at") || line.starts_with("==") && line.contains("ERROR") {
            crash.get_or_insert_with(|| format!("crashed at {seconds:.0} s: {line}"));
        }
    }
    let status = child.wait().map_err(|e| e.to_string())?;
    let out = stdout.join().unwrap_or_default();
    let summary = match crash {
        Some(crash) => crash,
        None if status.success() => out
            .lines()
            .filter(|l| !l.starts_with("findings: "))
            .collect::<Vec<_>>()
            .join("\n"),
        None => format!("ended with {status}"),
    };
    if reports.is_empty() {
        return Err(format!(
            "{name}: no coverage report: was {} built by fuzz/build?",
            words[0]
        ));
    }
    Ok(Run { name, reports, summary })
}

/// `(edges, executions)` of a libFuzzer status line such as
/// `#2183  NEW    cov: 19309 ft: 31708 corp: 127/389b ...`.
fn coverage_report(line: &str) -> Option<(u64, u64)> {
    let executions = line.strip_prefix('#')?.split_whitespace().next()?.parse().ok()?;
    let (_, after) = line.split_once(" cov: ")?;
    let edges = after.split_whitespace().next()?.parse().ok()?;
    Some((edges, executions))
}

fn write_csv(path: &Path, rounds: &[Vec<Run>]) -> Result<(), String> {
    let mut text = String::from("generator,run,seconds,edges,executions\n");
    for (round, runs) in rounds.iter().enumerate() {
        for run in runs {
            for (seconds, edges, executions) in &run.reports {
                text.push_str(&format!(
                    "{},{},{seconds:.2},{edges},{executions}\n",
                    run.name,
                    round + 1
                ));
            }
        }
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
