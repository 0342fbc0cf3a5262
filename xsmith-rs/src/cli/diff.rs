//! `diff`: a differential campaign from the command line, its report, and
//! `--reduce`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{random_seed, DiffArgs};
use super::reduce::reduce_findings;
use crate::campaign::{Campaign, KnownBug};
use crate::exec::{Implementation, ImplementationError, Limits};
use crate::fuzzer::Fuzzer;

/// Runs `diff`: the campaign, its report on standard output, the summary
/// line last.
pub(super) fn diff(fuzzer: &Fuzzer, known_bugs: &str, args: &DiffArgs) -> ExitCode {
    let fail = |status: u8, message: &dyn std::fmt::Display| {
        eprintln!("{}: error: {message}", fuzzer.name);
        ExitCode::from(status)
    };
    let mut campaign = Campaign::new(fuzzer, &args.findings);
    match read_known_bugs(known_bugs, &args.known) {
        Ok(bugs) => campaign.known = bugs,
        Err((status, message)) => return fail(status, &message),
    }
    if !args.implementations.is_empty() {
        match args
            .implementations
            .iter()
            .map(|i| named_implementation(fuzzer, i))
            .collect()
        {
            Ok(implementations) => {
                campaign.implementations = implementations;
                campaign.left_out.clear();
            }
            Err(e) => return fail(2, &e),
        }
    }
    for added in &args.added_implementations {
        match Implementation::parse(added) {
            Ok(implementation) => campaign.implementations.push(implementation),
            Err(ImplementationError::Malformed { reason, .. }) => {
                return fail(2, &format!("--add-impl `{added}`: {reason}"))
            }
            Err(e) => return fail(2, &e),
        }
    }
    campaign.options = args.generation.clone();
    campaign.swarm = args.swarm.swarm();
    campaign.first_seed = args.seed.unwrap_or_else(random_seed);
    campaign.count = args.count;
    campaign.shard = args.shard;
    if let Some(jobs) = args.jobs {
        campaign.jobs = usize::try_from(jobs).unwrap_or(usize::MAX);
    }
    campaign.limits = Limits {
        timeout: args.timeout,
        memory: (args.memory_limit > 0).then(|| args.memory_limit.saturating_mul(1 << 20)),
        ..Limits::default()
    };
    campaign.isolation = args.isolation;
    campaign.resume = args.resume;
    campaign.progress = true;
    let mut report = Report {
        out: std::io::stdout().lock(),
        findings: Vec::new(),
        line: Vec::new(),
    };
    match campaign.run_summary(&mut report) {
        Ok(summary) => {
            let _ = writeln!(report.out, "{}", summary.tally);
            if !summary.tally.all_agree() {
                let _ = writeln!(report.out, "{}", summary.signatures);
            }
            if args.log_choices {
                let _ = write!(report.out, "{}", summary.by_production.table());
            }
            if args.reduce {
                drop(report.out);
                reduce_findings(fuzzer, &report.findings, &args.reduction);
            }
            if summary.succeeded() {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => fail(if e.is_usage() { 2 } else { 1 }, &e),
    }
}

/// The implementation an `--impl` argument names: `NAME=COMMAND` (see
/// [`Implementation::parse`]), or `NAME` alone, one of the fuzzer's own
/// implementations (an in-process engine too, and one that needs a command
/// installed, which the campaign's check then asks for).
fn named_implementation(fuzzer: &Fuzzer, argument: &str) -> Result<Implementation, ImplementationError> {
    if argument.contains('=') {
        return Implementation::parse(argument);
    }
    let own = fuzzer.implementations.iter().find(|i| i.name() == argument);
    own.copied().ok_or_else(|| {
        let names: Vec<&str> = fuzzer.implementations.iter().map(|i| i.name()).collect();
        let reason = match names.is_empty() {
            true => "this fuzzer has no implementations of its own; write NAME=COMMAND, with {} for the program file"
                .to_string(),
            false => format!(
                "not one of this fuzzer's implementations ({}); write NAME=COMMAND, with {{}} for the program file, \
                 for another",
                names.join(", ")
            ),
        };
        ImplementationError::Malformed {
            argument: argument.to_string(),
            reason,
        }
    })
}

/// The fuzzer's known bugs (`known_bugs`, its known-bugs text) and those
/// of the `--known` files; on an error, the exit status and message (1 for
/// the fuzzer's own, 2 for a bad file).
pub(super) fn read_known_bugs(known_bugs: &str, files: &[PathBuf]) -> Result<Vec<KnownBug>, (u8, String)> {
    let mut bugs = KnownBug::parse(known_bugs).map_err(|e| (1, format!("the fuzzer's known bugs: {e}")))?;
    for path in files {
        let bad = |e: &dyn std::fmt::Display| (2, format!("--known {}: {e}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| bad(&e))?;
        bugs.extend(KnownBug::parse(&text).map_err(|e| bad(&e))?);
    }
    Ok(bugs)
}

/// The campaign's report, passed on to standard output, with the
/// directories of the findings it names kept for `--reduce`.
struct Report<W: Write> {
    out: W,
    findings: Vec<PathBuf>,
    line: Vec<u8>,
}

impl<W: Write> Write for Report<W> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        for &byte in bytes {
            if byte != b'\n' {
                self.line.push(byte);
                continue;
            }
            // A finding's line: `<verdict> seed <seed>: <its directory>`.
            let line = String::from_utf8_lossy(&self.line).into_owned();
            if let Some((_, dir)) = line.split_once(": ") {
                // Nothing ran on those two: nothing to reduce.
                let ran = !line.starts_with("generation-failed") && !line.starts_with("campaign-crashed");
                let saved = ran && !dir.starts_with("not saved");
                if line.contains(" seed ") && saved {
                    self.findings.push(PathBuf::from(dir));
                }
            }
            self.line.clear();
        }
        self.out.write_all(bytes)?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.out.flush()
    }
}
