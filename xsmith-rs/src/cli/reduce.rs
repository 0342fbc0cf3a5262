//! `reduce`: findings reduced one after another, with a progress line, and
//! the core of each reduced program computed and written to
//! `reduced/core` (see [`bug_core`](crate::bug_core)).

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Duration;

use super::args::ReductionArgs;
use crate::bug_core::core_of;
use crate::campaign::CORE_FILE;
use crate::fuzzer::Fuzzer;
use crate::reduce::{read_finding, write_reduced, Progress, ReduceError, Reducer};

/// Reduces each finding of `dirs` in turn, printing a line for each;
/// returns how many could not be reduced.
pub(super) fn reduce_findings(fuzzer: &Fuzzer, dirs: &[PathBuf], args: &ReductionArgs) -> usize {
    let jobs = args.reduce_jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| usize::try_from(j).unwrap_or(usize::MAX),
    );
    let mut failed = 0;
    for dir in dirs {
        match reduce_finding(fuzzer, dir, jobs, args.time_budget) {
            Ok(line) => println!("{line}"),
            Err(e) => {
                failed += 1;
                eprintln!("{}: error: reducing {}: {e}", fuzzer.name, dir.display());
            }
        }
    }
    failed
}

/// Reduces the finding in `dir`; the line that tells the result.
fn reduce_finding(
    fuzzer: &Fuzzer,
    dir: &std::path::Path,
    jobs: usize,
    budget: Duration,
) -> Result<String, ReduceError> {
    let finding = read_finding(fuzzer, dir)?;
    let options = finding.case.options.clone();
    let reducer = Reducer::new(finding.case, jobs, budget)?;
    let bar = indicatif::ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_message(format!("reducing {}", dir.display()));
    let reduced = reducer.reduce(finding.source, finding.verdict, &mut |p: Progress| {
        bar.set_message(format!(
            "reducing {}: {} tests, {} bytes, {} choices",
            dir.display(),
            p.tests,
            p.bytes,
            p.choices
        ));
    })?;
    bar.finish_and_clear();
    let out = write_reduced(dir, fuzzer, &options, &reduced)?;
    // The core, from the reduced choices, on the finding's implementations.
    let found = core_of(&read_finding(fuzzer, dir)?.case, &reduced.reduced.values)?;
    let core_file = out.join(CORE_FILE);
    std::fs::write(&core_file, format!("{}\n", found.core))
        .map_err(|e| ReduceError::Io(format!("{}: {e}", core_file.display())))?;
    Ok(format!(
        "reduced {}: {} bytes -> {}, {} nodes -> {}, {} tests, {:.1} s, core of {} nodes ({}): {}",
        reduced.reduced.signature,
        reduced.original.text.len(),
        reduced.reduced.text.len(),
        reduced.original.nodes,
        reduced.reduced.nodes,
        reduced.tests,
        reduced.elapsed.as_secs_f64(),
        found.necessary,
        found.core,
        out.display()
    ))
}
