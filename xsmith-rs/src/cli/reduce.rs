//! `reduce`: findings reduced one after another, with a progress line, and
//! the core of each reduced program computed and written to
//! `reduced/core` (see [`bug_core`](crate::bug_core)); and `diff
//! --reduce`'s reductions, which stop as soon as a finding is shown to be a
//! bug already known.

use std::io::IsTerminal;
use std::path::{Path, PathBuf};

use super::args::ReductionArgs;
use crate::bug_core::{core_of, core_shown};
use crate::campaign::{record_core, Core, KnownBug, CORE_FILE};
use crate::fuzzer::Fuzzer;
use crate::reduce::{read_finding, write_reduced, Progress, ReduceError, Reducer, Tested};

/// Reduces each finding of `dirs` in turn, printing a line for each;
/// returns how many could not be reduced.
pub(super) fn reduce_findings(fuzzer: &Fuzzer, dirs: &[PathBuf], args: &ReductionArgs) -> usize {
    let mut failed = 0;
    for dir in dirs {
        match reduce_finding(fuzzer, dir, args, &[]) {
            Ok(reduced) => println!("{}", reduced.line),
            Err(e) => failed += not_reduced(fuzzer, dir, &e),
        }
    }
    failed
}

/// Says that the finding in `dir` could not be reduced, and why; counts 1.
fn not_reduced(fuzzer: &Fuzzer, dir: &Path, e: &ReduceError) -> usize {
    eprintln!("{}: error: reducing {}: {e}", fuzzer.name, dir.display());
    1
}

/// A bug whose core a campaign's reductions know: a known bug named by
/// its core, or the bug of a finding reduced before.
struct BugSoFar {
    signature: String,
    core: Core,
    /// What it is: a known bug's description, or the finding's directory.
    what: String,
}

/// `diff --reduce`: reduces the campaign's `findings` (each its seed and
/// directory) in seed order, telling bugs apart as it goes. The first
/// finding of each bug is reduced in full and its core computed; a later
/// one of the same grouping only until it is shown to be a bug already
/// known (one of `known` named by its core, or a bug of a finding reduced
/// before: [`core_shown`]), its core then the part of that bug's core it
/// is shown to need. Each core found is recorded in the campaign's
/// `journal`. Returns how many findings could not be reduced.
pub(super) fn reduce_telling_bugs(
    fuzzer: &Fuzzer,
    findings: &[(u64, PathBuf)],
    args: &ReductionArgs,
    known: &[KnownBug],
    journal: Option<&Path>,
) -> usize {
    let mut bugs: Vec<BugSoFar> = known
        .iter()
        .filter_map(|bug| {
            Some(BugSoFar {
                signature: bug.signature.clone(),
                core: bug.core.clone()?,
                what: format!("known: {}", bug.description),
            })
        })
        .collect();
    let mut in_order: Vec<&(u64, PathBuf)> = findings.iter().collect();
    in_order.sort_by_key(|(seed, _)| *seed);
    let mut failed = 0;
    for (seed, dir) in in_order {
        let signature = std::fs::read_to_string(dir.join("signature")).unwrap_or_default();
        let of_grouping: Vec<&BugSoFar> = bugs.iter().filter(|b| b.signature == signature.trim()).collect();
        match reduce_finding(fuzzer, dir, args, &of_grouping) {
            Ok(reduced) => {
                println!("{}", reduced.line);
                if let Some(journal) = journal {
                    if let Err(e) = record_core(journal, *seed, &reduced.core) {
                        eprintln!("{}: error: recording the core of seed {seed}: {e}", fuzzer.name);
                    }
                }
                let new = !reduced.shown && !of_grouping.iter().any(|b| b.core.same_bug(&reduced.core));
                if new && !reduced.core.is_empty() {
                    bugs.push(BugSoFar {
                        signature: signature.trim().to_string(),
                        core: reduced.core,
                        what: dir.display().to_string(),
                    });
                }
            }
            Err(e) => failed += not_reduced(fuzzer, dir, &e),
        }
    }
    failed
}

/// A finding reduced: its core, the line that tells the result, and
/// whether its reduction stopped once it showed a bug already known.
struct ReducedFinding {
    core: Core,
    line: String,
    shown: bool,
}

/// Reduces the finding in `dir` and computes its core; with `bugs` (bugs
/// of its grouping already known by their cores), only until it is shown
/// to be one of them, checked at the first smaller program and then each
/// time the program has halved, in nodes.
fn reduce_finding(
    fuzzer: &Fuzzer,
    dir: &Path,
    args: &ReductionArgs,
    bugs: &[&BugSoFar],
) -> Result<ReducedFinding, ReduceError> {
    let jobs = args.reduce_jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        |j| usize::try_from(j).unwrap_or(usize::MAX),
    );
    let finding = read_finding(fuzzer, dir)?;
    let options = finding.case.options.clone();
    // The case again, for the checks and the core (the reducer holds it).
    let case = finding.case.clone();
    let reducer = Reducer::new(finding.case, jobs, args.time_budget)?;
    let bar = indicatif::ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    bar.set_message(format!("reducing {}", dir.display()));
    let mut next_check = usize::MAX;
    let mut shown: Option<(usize, Core)> = None;
    let mut check_tests = 0;
    let mut enough = |best: &Tested| -> Result<bool, ReduceError> {
        if bugs.is_empty() || best.nodes > next_check {
            return Ok(false);
        }
        next_check = best.nodes / 2;
        for (i, bug) in bugs.iter().enumerate() {
            let found = core_shown(&case, &best.values, &bug.core)?;
            check_tests += found.tests;
            if bug.core.is_shown_by(&found.core) {
                shown = Some((i, found.core));
                return Ok(true);
            }
        }
        Ok(false)
    };
    let reduced = reducer.reduce_until(
        finding.source,
        finding.verdict,
        &mut |p: Progress| {
            bar.set_message(format!(
                "reducing {}: {} tests, {} bytes, {} choices",
                dir.display(),
                p.tests,
                p.bytes,
                p.choices
            ));
        },
        &mut enough,
    )?;
    bar.finish_and_clear();
    let out = write_reduced(dir, fuzzer, &options, &reduced)?;
    let summary = format!(
        "reduced {}: {} bytes -> {}, {} nodes -> {}, {} tests, {:.1} s",
        reduced.reduced.signature,
        reduced.original.text.len(),
        reduced.reduced.text.len(),
        reduced.original.nodes,
        reduced.reduced.nodes,
        reduced.tests,
        reduced.elapsed.as_secs_f64(),
    );
    let (core, line, shown) = match shown {
        Some((i, core)) => {
            let line = format!(
                "{summary}, shown to be the bug of {} by {check_tests} more tests, core {}: {}",
                bugs[i].what,
                core,
                out.display()
            );
            (core, line, true)
        }
        None => {
            // The core, from the reduced choices, on the finding's implementations.
            let found = core_of(&case, &reduced.reduced.values)?;
            let line = format!(
                "{summary}, core of {} nodes ({}): {}",
                found.necessary,
                found.core,
                out.display()
            );
            (found.core, line, false)
        }
    };
    let core_file = out.join(CORE_FILE);
    std::fs::write(&core_file, format!("{core}\n"))
        .map_err(|e| ReduceError::Io(format!("{}: {e}", core_file.display())))?;
    Ok(ReducedFinding { core, line, shown })
}
