//! The standard command line every fuzzer gets with one call of [`main`].
//!
//! ```text
//! xsmith-<lang> [--seed N] [--count N --output-dir DIR] [GENERATION OPTIONS]
//!               [--bytes FILE | --choices FILE | --input FILE] [--save-choices PATH]
//!               [--print-tree] [--log-choices] [--version]
//!               [--swarm [--swarm-probability P]]
//! xsmith-<lang> diff --count N [--seed START] [GENERATION OPTIONS]
//!               [--swarm [--swarm-probability P]]
//!               [--impl NAME[=COMMAND]]... [--add-impl NAME=COMMAND]...
//!               [--jobs J] [--timeout SECONDS]
//!               [--memory-limit MIB] [--findings DIR] [--shard K/N] [--resume]
//!               [--reduce] [--known FILE]... [--log-choices]
//! xsmith-<lang> reduce FINDING_DIR... [--reduce-jobs J] [--time-budget SECONDS]
//! xsmith-<lang> findings [DIR]... [--html OUT.html] [--top N] [--known FILE]...
//! xsmith-<lang> serve [--host ADDR] [--port P] [--threads N] [--seed START]
//! xsmith-<lang> coverage [DIR] [--k K] [--count N] [--seed START]
//!               [--sample N] [--uncovered] [GENERATION OPTIONS]
//! xsmith-<lang> corpus --out DIR [--k K] [--budget SECONDS] [--patience N]
//!               [--seed N] [GENERATION OPTIONS]
//! xsmith-<lang> guided [--time SECONDS] [--corpus DIR] [--seeds DIR]...
//!               [--max-len BYTES] [--findings DIR] [--unguided [--seed START]]
//!               [--timeout SECONDS] [--known FILE]... [--libfuzzer-flag FLAG]...
//!               [GENERATION OPTIONS]
//! GENERATION OPTIONS: [--max-depth N] [--max-nodes N] [--time-limit SECONDS]
//!               [--type-max-depth N] [--with NAME]... [--without NAME]...
//! ```
//!
//! With no `--count` one program goes to standard output. Program `i` of a
//! `--count` uses seed `--seed + i` and is written to `DIR/<seed>.<ext>`. A bad
//! option or value exits with status 2 and a message that names it. A
//! program that cannot be generated never ends the batch: its error goes to
//! standard error with the command that regenerates it (`regenerate with:
//! xsmith-lua --seed 12 --max-depth 8`), the other programs are written, and
//! the exit status is 1.
//!
//! `--save-choices` writes each program's choice sequence (see
//! [`Choices`](crate::Choices)), from which `--choices` regenerates it byte
//! for byte; any other sequence, truncated or edited, gives a valid
//! program too.
//!
//! With `--swarm` (generation and `diff` alike) each program draws its own
//! feature groups and size options from its seed ([`swarm`](crate::swarm))
//! on top of the options given, and its header writes the options drawn, so
//! the header's command regenerates it byte for byte.
//!
//! `diff` runs a differential [`Campaign`](crate::Campaign): each program on
//! every implementation (the fuzzer's defaults, or those of `--impl`, whose
//! first use drops the defaults: `--impl NAME` names one of the fuzzer's own,
//! `--impl NAME=COMMAND` another; `--add-impl NAME=COMMAND` adds one to
//! them), saving every finding in `--findings`
//! (default `findings`). It prints one line per finding and ends with
//! `programs N, agree A, differ D, rejected R, crashed C, timeout T` (and
//! `, generation-failed G` when some program could not be generated), then
//! the findings' signatures (see [`Signatures`](crate::Signatures)). It
//! exits with status 0 when all programs agreed or every finding is of a
//! known bug (the fuzzer's, [`main_with_known_bugs`], and `--known`), 1
//! otherwise, 2 for a bad option, a malformed `--impl` or an implementation
//! that is not installed (named with its Debian package). With
//! `--log-choices` it then prints, per production, how many programs it
//! appeared in and their verdicts.
//!
//! `reduce` shrinks findings to the smallest program with the same
//! signature ([`reduce`](crate::reduce)); `findings` lists findings
//! directories by signature (several, the shards of one campaign, as one),
//! with the features over-represented in each signature's programs
//! ([`Listing`](crate::campaign::Listing)), and with `--html` writes them as
//! one self-contained page ([`write_report`](crate::campaign::write_report)).
//!
//! `serve` answers HTTP requests with programs ([`serve`](crate::serve)); its
//! first line of output is `listening on http://ADDR:PORT`.
//!
//! `coverage` prints, for k = 1 to `--k`, the line `k=K: covered C of F
//! k-paths (P%)` ([`kpaths`](crate::kpaths)): of `--count` generated
//! programs, or of the choice files of `DIR`; F is what the grammar allows
//! under the options, and with `--sample N` the line adds how many of
//! those N other programs reach and the share of those covered.
//!
//! `corpus` grows a concise corpus ([`corpus`](crate::corpus)) into `--out`:
//! `NNNN.<ext>` and `NNNN.choices` per program, and a `coverage` report.
//!
//! `guided` runs coverage-guided generation on libFuzzer
//! (`xsmith::guided`, in a build with the `libfuzzer` feature)
//! against the fuzzer's in-process implementations: findings as `diff`
//! saves them, with a `guided.journal`, and at the end the tally and
//! signatures. Without that feature it exits with status 2 and says how
//! to build it.

mod args;
mod corpus;
mod coverage;
mod diff;
mod findings;
mod generate;
mod guided;
mod reduce;
mod serve;
mod worker;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

pub use args::{
    Args, CorpusArgs, CorpusCoverage, CorpusMethod, CoverageArgs, DiffArgs, FindingsArgs, GuidedArgs, ReduceArgs,
    ReductionArgs, ServeArgs, Subcommand, SwarmArgs,
};
use generate::Failure;

use crate::fuzzer::{Fuzzer, GENERATION_STACK};

/// Runs the standard command line of `fuzzer` on the process's arguments.
///
/// ```no_run
/// const FUZZER: xsmith::Fuzzer = xsmith::Fuzzer {
///     name: "xsmith-example",
///     version: env!("CARGO_PKG_VERSION"),
///     extension: "txt",
///     spec: || Ok(xsmith::example::spec()),
///     comment: |text| format!("# {text}\n"),
///     prelude: "", helpers: &[],
///     width: 80,
///     implementations: &[xsmith::Implementation::Command { name: "sh", template: "sh {}", package: "dash" }],
/// };
///
/// fn main() -> std::process::ExitCode {
///     xsmith::cli::main(&FUZZER)
/// }
/// ```
pub fn main(fuzzer: &Fuzzer) -> ExitCode {
    run(fuzzer, std::env::args_os())
}

/// [`main`], for a fuzzer that ships a known-bugs file (its text, in the
/// format of `diff --known`): `diff` counts their findings as known.
pub fn main_with_known_bugs(fuzzer: &Fuzzer, known_bugs: &str) -> ExitCode {
    run_with_known_bugs(fuzzer, known_bugs, std::env::args_os())
}

/// Runs the standard command line of `fuzzer` on `args` (the first is the
/// program name).
///
/// ```
/// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
/// #     implementations: &[] };
/// let status = xsmith::cli::run(&fuzzer, ["x", "--seed", "3", "--max-depth", "2"]);
/// assert_eq!(status, std::process::ExitCode::SUCCESS);
/// let findings = tempfile::tempdir().unwrap();
/// let diff = ["x", "diff", "--count", "4", "--impl", "a=cat {}", "--impl", "b=cat -- {}", "--findings"];
/// let status = xsmith::cli::run(&fuzzer, diff.into_iter().chain([findings.path().to_str().unwrap()]));
/// assert_eq!(status, std::process::ExitCode::SUCCESS);
/// ```
pub fn run<I, T>(fuzzer: &Fuzzer, args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    run_with_known_bugs(fuzzer, "", args)
}

/// [`run`], with the fuzzer's known bugs (see [`main_with_known_bugs`]).
pub fn run_with_known_bugs<I, T>(fuzzer: &Fuzzer, known_bugs: &str, args: I) -> ExitCode
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let command = Args::command().name(fuzzer.name).bin_name(fuzzer.name);
    let args = match command
        .try_get_matches_from(args)
        .and_then(|m| Args::from_arg_matches(&m))
    {
        Ok(args) => args,
        Err(error) => {
            let _ = error.print();
            return ExitCode::from(if error.use_stderr() { 2 } else { 0 });
        }
    };
    if args.version {
        println!("{} {}", fuzzer.name, fuzzer.version);
        return ExitCode::SUCCESS;
    }
    match &args.command {
        Some(Subcommand::Diff(diff_args)) => return diff::diff(fuzzer, known_bugs, diff_args),
        Some(Subcommand::Reduce(reduce_args)) => {
            let failed = reduce::reduce_findings(fuzzer, &reduce_args.findings, &reduce_args.reduction);
            return ExitCode::from(u8::from(failed > 0));
        }
        Some(Subcommand::Findings(findings_args)) => return findings::findings(fuzzer, known_bugs, findings_args),
        Some(Subcommand::Coverage(coverage_args)) => return coverage::coverage(fuzzer, coverage_args),
        Some(Subcommand::Corpus(corpus_args)) => return corpus::corpus(fuzzer, corpus_args),
        Some(Subcommand::Guided(guided_args)) => return guided::guided(fuzzer, known_bugs, guided_args),
        Some(Subcommand::Serve(serve_args)) => return serve::serve(fuzzer, serve_args),
        None => {}
    }
    // Trees are walked recursively, and a tree may be as deep as the node
    // budget allows: the work runs on a thread with a large stack (only
    // reserved, not committed, until used).
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("generate".into())
            .stack_size(GENERATION_STACK)
            .spawn_scoped(scope, || generate::generate(fuzzer, &args))
            .map(|worker| worker.join())
    });
    let outcome = match outcome {
        Ok(Ok(outcome)) => outcome,
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => Err(Failure::Run(format!("cannot start the generation thread: {e}"))),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("{}: error: {message}", fuzzer.name);
            ExitCode::from(2)
        }
        Err(Failure::Run(message)) => {
            eprintln!("{}: error: {message}", fuzzer.name);
            ExitCode::from(1)
        }
    }
}
