//! `diff`: a differential campaign from the command line, its report, and
//! `--reduce`.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use super::args::{random_seed, DiffArgs};
use super::reduce::reduce_telling_bugs;
use crate::campaign::{group_bugs, Campaign, Core, CoreBug, KnownBug, Signatures};
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
    campaign.saved_per_signature = args.save_per_signature;
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
            let mut succeeded = summary.succeeded();
            if args.reduce {
                drop(report.out);
                reduce_telling_bugs(
                    fuzzer,
                    &report.findings,
                    &args.reduction,
                    &campaign.known,
                    summary.journal.as_deref(),
                );
                let all_known = report_bugs(&report.findings, &summary.signatures, &campaign.known);
                succeeded = summary.tally.all_agree() || (summary.tally.generation_failed == 0 && all_known);
            }
            if succeeded {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(e) => fail(if e.is_usage() { 2 } else { 1 }, &e),
    }
}

/// Prints the bugs of the campaign's findings after their reduction: under
/// each signature, the findings grouped by core (see
/// [`group_bugs`]), and the findings that were not reduced (not saved, or
/// their reduction failed). Returns whether every finding is of a known
/// bug: a reduced one by its core (or its signature, for a known bug
/// without a core), one not reduced by its signature alone.
fn report_bugs(saved: &[(u64, PathBuf)], signatures: &Signatures, known: &[KnownBug]) -> bool {
    let findings: Vec<(String, Option<Core>, PathBuf)> = saved
        .iter()
        .map(|(_, dir)| {
            let signature = std::fs::read_to_string(dir.join("signature")).unwrap_or_default();
            (signature.trim().to_string(), Core::of_finding(dir), dir.clone())
        })
        .collect();
    let bugs = group_bugs(findings, known);
    let mut all_known = bugs.iter().all(|bug| bug.known.is_some());
    println!(
        "bugs {} (new {}, known {})",
        bugs.len(),
        bugs.iter().filter(|b| b.known.is_none()).count(),
        bugs.iter().filter(|b| b.known.is_some()).count()
    );
    for (signature, &count) in &signatures.counts {
        let of_signature: Vec<&CoreBug> = bugs.iter().filter(|b| &b.signature == signature).collect();
        println!("  {signature}");
        for bug in &of_signature {
            println!("    {bug}");
        }
        let saved: usize = of_signature.iter().map(|b| b.findings.len()).sum();
        let unsaved = count.saturating_sub(saved as u64);
        if unsaved > 0 {
            let known = known.iter().find(|k| k.matches(signature, None));
            all_known &= known.is_some();
            let status = known.map_or_else(|| "new".to_string(), |k| format!("known: {}", k.description));
            println!("    {unsaved} findings not saved, not reduced ({status})");
        }
    }
    all_known
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

/// The campaign's report, passed on to standard output, with the seeds
/// and directories of the findings it names kept for `--reduce`.
struct Report<W: Write> {
    out: W,
    findings: Vec<(u64, PathBuf)>,
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
            if let Some((head, dir)) = line.split_once(": ") {
                // Nothing ran on those two: nothing to reduce.
                let ran = !line.starts_with("generation-failed") && !line.starts_with("campaign-crashed");
                let saved = ran && !dir.starts_with("not saved");
                let seed = head.split_once(" seed ").and_then(|(_, seed)| seed.parse().ok());
                if let (Some(seed), true) = (seed, saved) {
                    self.findings.push((seed, PathBuf::from(dir)));
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
