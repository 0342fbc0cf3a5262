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
//!     target/fuzz-wasmi-wasmtime-cranelift/x86_64-unknown-linux-gnu/release 600 docs/guided-wasm.svg [SEEDS_DIR]
//! ```
//!
//! It writes the plot, a CSV of every coverage report beside it, and prints
//! a table: edges at 1, 5 and 10 minutes (or the end), executions, and
//! findings.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use xsmith::plot::{draw_lines, Line};

/// One run's coverage reports: (seconds, edges, executions).
struct Run {
    name: &'static str,
    reports: Vec<(f64, u64, u64)>,
    /// What it said at the end: the tally and signatures, or a crash.
    summary: String,
}

fn main() -> Result<(), String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [bin, seconds, out, rest @ ..] = args.as_slice() else {
        return Err("usage: guided_measurement BIN_DIR SECONDS OUT.svg [SEEDS_DIR]".into());
    };
    let bin = PathBuf::from(bin);
    let seconds: u64 = seconds.parse().map_err(|e| format!("SECONDS {seconds}: {e}"))?;
    let scratch = tempfile::tempdir().map_err(|e| e.to_string())?;
    let dir = |name: &str| scratch.path().join(name).display().to_string();
    let time = seconds.to_string();
    let xsmith = bin.join("xsmith-wasm").display().to_string();
    let mut guided = vec![xsmith.clone(), "guided".into(), "--time".into(), time.clone()];
    guided.extend([
        "--corpus".into(),
        dir("guided"),
        "--findings".into(),
        dir("guided-findings"),
    ]);
    if let Some(seeds) = rest.first() {
        guided.extend(["--seeds".into(), seeds.clone()]);
    }
    let mut random = vec![
        xsmith,
        "guided".into(),
        "--unguided".into(),
        "--seed".into(),
        "0".into(),
    ];
    random.extend(["--time".into(), time, "--corpus".into(), dir("random")]);
    random.extend(["--findings".into(), dir("random-findings")]);
    let smith = vec![
        bin.join("wasm-smith").display().to_string(),
        format!("-max_total_time={seconds}"),
        dir("smith"),
    ];
    for corpus in ["guided", "random", "smith"] {
        std::fs::create_dir_all(dir(corpus)).map_err(|e| e.to_string())?;
    }
    let smith_findings = dir("smith-findings");
    let smith_findings = &smith_findings;
    let runs = std::thread::scope(|scope| {
        let handles = [("random", &random), ("guided", &guided), ("wasm-smith", &smith)]
            .map(|(name, words)| scope.spawn(move || run(name, words, smith_findings)));
        handles.map(|h| h.join().expect("a run thread"))
    });
    let runs: Vec<Run> = runs.into_iter().collect::<Result<_, _>>()?;
    write_csv(&Path::new(out).with_extension("csv"), &runs)?;
    let lines: Vec<Line> = runs
        .iter()
        .map(|run| Line {
            name: run.name.to_string(),
            points: run.reports.iter().map(|&(t, edges, _)| (t, edges as f64)).collect(),
        })
        .collect();
    // The build's directory names what is instrumented: target/fuzz-wasmi/...
    let instrumented = bin
        .components()
        .filter_map(|c| c.as_os_str().to_str()?.strip_prefix("fuzz-").map(str::to_string))
        .next()
        .unwrap_or_else(|| "every crate".into())
        .replace('-', ", ");
    let title = format!("edges covered in {instrumented} over {seconds} s (libFuzzer's cov)");
    draw_lines(Path::new(out), &title, ("seconds", "edges"), &lines)?;
    println!("| generator | edges at 60 s | at 300 s | at the end | executions | findings |");
    println!("|---|---|---|---|---|---|");
    for run in &runs {
        let at = |t: f64| run.reports.iter().take_while(|r| r.0 <= t).last().map_or(0, |r| r.1);
        let (end, executions) = run.reports.last().map_or((0, 0), |r| (r.1, r.2));
        println!(
            "| {} | {} | {} | {end} | {executions} | {} |",
            run.name,
            at(60.0),
            at(300.0),
            run.summary.replace('\n', "; ")
        );
    }
    Ok(())
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

fn write_csv(path: &Path, runs: &[Run]) -> Result<(), String> {
    let mut text = String::from("generator,seconds,edges,executions\n");
    for run in runs {
        for (seconds, edges, executions) in &run.reports {
            text.push_str(&format!("{},{seconds:.2},{edges},{executions}\n", run.name));
        }
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
