//! The standard command line every fuzzer gets with one call of [`main`].
//!
//! ```text
//! xsmith-<lang> [--seed N] [--count N --output-dir DIR] [GENERATION OPTIONS]
//!               [--bytes FILE | --choices FILE] [--save-choices PATH]
//!               [--print-tree] [--log-choices] [--version]
//!               [--swarm [--swarm-probability P]]
//! xsmith-<lang> diff --count N [--seed START] [GENERATION OPTIONS]
//!               [--swarm [--swarm-probability P]]
//!               [--impl NAME=COMMAND]... [--jobs J] [--timeout SECONDS]
//!               [--memory-limit MIB] [--findings DIR] [--shard K/N] [--resume]
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
//! first use drops the defaults), saving every finding in `--findings`
//! (default `findings`). It prints one line per finding and ends with
//! `programs N, agree A, differ D, rejected R, crashed C, timeout T` (and
//! `, generation-failed G` when some program could not be generated), then
//! the findings' signatures (see [`Signatures`](crate::Signatures)). It
//! exits with status 0 when all programs agreed or every finding is of a
//! known bug (the fuzzer's, [`main_with_known_bugs`], and `--known`), 1
//! otherwise, 2 for a bad option, a malformed `--impl` or an implementation
//! that is not installed (named with its Debian package).

use std::ffi::OsString;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::campaign::{Campaign, KnownBug, Shard};
use crate::choices::Choices;
use crate::exec::{Implementation, Limits};
use crate::fuzzer::{Fuzzer, Source, GENERATION_STACK};
use crate::generate::{ChoiceLog, Generator};
use crate::options::{self, Options};
use crate::reduce::{read_finding, write_reduced, Progress, ReduceError, Reducer};
use crate::swarm::{self, Swarm};

/// The options of the standard command line.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "--seed", "4", "--count", "10", "--output-dir", "out", "--with", "division"]);
/// assert_eq!((args.seed, args.count, args.options().with), (Some(4), Some(10), vec!["division".to_string()]));
/// assert!(args.command.is_none());
/// ```
#[derive(Parser, Debug)]
#[command(
    about = "Generates random conforming programs.",
    long_about = None,
    disable_version_flag = true,
    args_conflicts_with_subcommands = true
)]
pub struct Args {
    /// Seed of the first program (default: a random seed, written in the header).
    #[arg(long, value_name = "N")]
    pub seed: Option<u64>,
    /// How many programs to write to --output-dir (program i uses seed --seed + i).
    #[arg(long, value_name = "N", requires = "output_dir")]
    pub count: Option<u64>,
    /// Directory for --count programs, named <seed>.<extension>.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// The options that shape each program.
    #[command(flatten)]
    pub generation: Options,
    /// Swarm testing: each program draws its own configuration.
    #[command(flatten)]
    pub swarm: SwarmArgs,
    /// Generate from the bytes of FILE instead of a seed (program i of --count
    /// reads from offset --bytes-offset + i).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "swarm"])]
    pub bytes: Option<PathBuf>,
    /// Where in the --bytes file reading starts.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "bytes")]
    pub bytes_offset: usize,
    /// Generate from the choice sequence in FILE (as --save-choices writes
    /// it) instead of a seed; any sequence gives a valid program.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "bytes", "count"])]
    pub choices: Option<PathBuf>,
    /// Write each program's choice sequence to PATH (with --count, to
    /// PATH/<seed>.choices); --choices PATH regenerates the program.
    #[arg(long, value_name = "PATH")]
    pub save_choices: Option<PathBuf>,
    /// Also print each program's tree to standard error.
    #[arg(long)]
    pub print_tree: bool,
    /// Print, to standard error, how often each production was offered and chosen.
    #[arg(long)]
    pub log_choices: bool,
    /// Print the fuzzer's name and version.
    #[arg(long)]
    pub version: bool,
    /// A subcommand instead of generating.
    #[command(subcommand)]
    pub command: Option<Subcommand>,
}

/// The subcommands of the standard command line.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "diff", "--count", "5", "--shard", "2/4"]);
/// let Some(xsmith::cli::Subcommand::Diff(diff)) = args.command else { panic!("not diff") };
/// assert_eq!(diff.shard, xsmith::Shard { index: 2, count: 4 });
/// ```
#[derive(clap::Subcommand, Debug)]
pub enum Subcommand {
    /// Run a differential campaign: each program on every implementation,
    /// saving every difference, crash, timeout and rejection.
    Diff(Box<DiffArgs>),
    /// Reduce findings: shrink each one's choice sequence while its
    /// program shows the same bug (the same signature); the result goes to
    /// FINDING_DIR/reduced/.
    Reduce(ReduceArgs),
}

/// The options of `reduce` (and of `diff --reduce`).
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "reduce", "findings/differ-7", "--time-budget", "30"]);
/// let Some(xsmith::cli::Subcommand::Reduce(reduce)) = args.command else { panic!("not reduce") };
/// assert_eq!(reduce.findings.len(), 1);
/// assert_eq!(reduce.reduction.time_budget.as_secs(), 30);
/// ```
#[derive(clap::Args, Debug)]
pub struct ReduceArgs {
    /// The finding directories to reduce (as `diff` saves them).
    #[arg(value_name = "FINDING_DIR", required = true)]
    pub findings: Vec<PathBuf>,
    /// How candidates are run.
    #[command(flatten)]
    pub reduction: ReductionArgs,
}

/// How a reduction runs its candidates.
#[derive(clap::Args, Debug, Clone)]
pub struct ReductionArgs {
    /// How many candidates run at once (default: the number of cores).
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..))]
    pub reduce_jobs: Option<u64>,
    /// Time for each finding's reduction, after which the best so far is kept.
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = options::parse_seconds)]
    pub time_budget: Duration,
}

/// The options of `diff`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "diff", "--count", "5", "--impl", "a=sh {}", "--max-depth", "3"]);
/// let Some(xsmith::cli::Subcommand::Diff(diff)) = args.command else { panic!() };
/// assert_eq!((diff.count, diff.generation.max_depth), (5, 3));
/// ```
#[derive(clap::Args, Debug)]
pub struct DiffArgs {
    /// How many programs the campaign has (over all shards).
    #[arg(long, value_name = "N")]
    pub count: u64,
    /// Seed of the first program; program i uses seed START + i (default: random).
    #[arg(long, value_name = "START")]
    pub seed: Option<u64>,
    /// The options that shape each program.
    #[command(flatten)]
    pub generation: Options,
    /// Swarm testing: each program draws its own configuration.
    #[command(flatten)]
    pub swarm: SwarmArgs,
    /// An implementation to run programs on, NAME=COMMAND, with {} in COMMAND
    /// for the program file (repeatable; the first drops the fuzzer's defaults).
    #[arg(long = "impl", value_name = "NAME=COMMAND")]
    pub implementations: Vec<String>,
    /// How many programs run at once (default: the number of cores).
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Wall-clock limit of one run; past it its whole process group is killed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = options::parse_seconds)]
    pub timeout: Duration,
    /// Data-segment limit of each run in MiB (RLIMIT_DATA; 0: none).
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub memory_limit: u64,
    /// Where findings and the campaign's journal are saved.
    #[arg(long, value_name = "DIR", default_value = "findings")]
    pub findings: PathBuf,
    /// Run only shard K of N: the programs i with i % N == K - 1.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: Shard,
    /// Continue the newest journal of this same campaign in --findings.
    #[arg(long, requires = "seed")]
    pub resume: bool,
    /// Reduce each finding after the campaign (see `reduce`).
    #[arg(long)]
    pub reduce: bool,
    /// A known-bugs file (`SIGNATURE = DESCRIPTION` a line), besides the
    /// fuzzer's own: findings of those signatures do not fail the campaign.
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
    /// How reductions run.
    #[command(flatten)]
    pub reduction: ReductionArgs,
}

/// `--swarm` and `--swarm-probability`, of generation and `diff` alike.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "--swarm", "--swarm-probability", "0.25"]);
/// assert_eq!(args.swarm.swarm(), Some(xsmith::swarm::Swarm { probability: 0.25 }));
/// assert_eq!(xsmith::cli::Args::parse_from(["x"]).swarm.swarm(), None);
/// assert!(xsmith::cli::Args::try_parse_from(["x", "--swarm", "--swarm-probability", "2"]).is_err());
/// ```
#[derive(clap::Args, Debug, Clone, Copy)]
pub struct SwarmArgs {
    /// Each program draws, from its seed, a random subset of the feature groups
    /// and random size options (written in its header).
    #[arg(long)]
    pub swarm: bool,
    /// With --swarm, the probability that each feature group stays on.
    #[arg(long, value_name = "P", default_value_t = Swarm::default().probability,
          value_parser = swarm::parse_probability, requires = "swarm")]
    pub swarm_probability: f64,
}

impl SwarmArgs {
    /// The swarm these arguments ask for, if any.
    ///
    /// ```
    /// let args = xsmith::cli::SwarmArgs { swarm: true, swarm_probability: 0.5 };
    /// assert_eq!(args.swarm(), Some(Default::default()));
    /// ```
    pub fn swarm(&self) -> Option<Swarm> {
        self.swarm.then_some(Swarm {
            probability: self.swarm_probability,
        })
    }
}

impl Args {
    /// The generation options these arguments give.
    ///
    /// ```
    /// use clap::Parser;
    /// let args = xsmith::cli::Args::parse_from(["x", "--max-depth", "3", "--without", "Div"]);
    /// assert_eq!(args.options().max_depth, 3);
    /// ```
    pub fn options(&self) -> Options {
        self.generation.clone()
    }
}

/// Runs the standard command line of `fuzzer` on the process's arguments.
///
/// ```no_run
/// const FUZZER: xsmith::Fuzzer = xsmith::Fuzzer {
///     name: "xsmith-example",
///     version: env!("CARGO_PKG_VERSION"),
///     extension: "txt",
///     spec: || Ok(xsmith::example::spec()),
///     comment: |text| format!("# {text}\n"),
///     prelude: "",
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
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", width: 80,
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
        Some(Subcommand::Diff(diff_args)) => return diff(fuzzer, known_bugs, diff_args),
        Some(Subcommand::Reduce(reduce_args)) => {
            let failed = reduce_findings(fuzzer, &reduce_args.findings, &reduce_args.reduction);
            return ExitCode::from(u8::from(failed > 0));
        }
        None => {}
    }
    // Trees are walked recursively, and a tree may be as deep as the node
    // budget allows: the work runs on a thread with a large stack (only
    // reserved, not committed, until used).
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("generate".into())
            .stack_size(GENERATION_STACK)
            .spawn_scoped(scope, || generate(fuzzer, &args))
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

enum Failure {
    /// A bad option or value (status 2).
    Usage(String),
    /// Something went wrong doing what was asked (status 1).
    Run(String),
}

/// Runs `diff`: the campaign, its report on standard output, the summary
/// line last.
fn diff(fuzzer: &Fuzzer, known_bugs: &str, args: &DiffArgs) -> ExitCode {
    let fail = |status: u8, message: &dyn std::fmt::Display| {
        eprintln!("{}: error: {message}", fuzzer.name);
        ExitCode::from(status)
    };
    let mut campaign = Campaign::new(fuzzer, &args.findings);
    match KnownBug::parse(known_bugs) {
        Ok(bugs) => campaign.known = bugs,
        Err(e) => return fail(1, &format!("the fuzzer's known bugs: {e}")),
    }
    for path in &args.known {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) => return fail(2, &format!("--known {}: {e}", path.display())),
        };
        match KnownBug::parse(&text) {
            Ok(bugs) => campaign.known.extend(bugs),
            Err(e) => return fail(2, &format!("--known {}: {e}", path.display())),
        }
    }
    if !args.implementations.is_empty() {
        match args.implementations.iter().map(|i| Implementation::parse(i)).collect() {
            Ok(implementations) => {
                campaign.implementations = implementations;
                campaign.left_out.clear();
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
    };
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
                let saved = !line.starts_with("generation-failed") && !dir.starts_with("not saved");
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

/// Reduces each finding of `dirs` in turn, printing a line for each;
/// returns how many could not be reduced.
fn reduce_findings(fuzzer: &Fuzzer, dirs: &[PathBuf], args: &ReductionArgs) -> usize {
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
    Ok(format!(
        "reduced {}: {} bytes -> {}, {} nodes -> {}, {} tests, {:.1} s: {}",
        reduced.reduced.signature,
        reduced.original.text.len(),
        reduced.reduced.text.len(),
        reduced.original.nodes,
        reduced.reduced.nodes,
        reduced.tests,
        reduced.elapsed.as_secs_f64(),
        out.display()
    ))
}

fn generate(fuzzer: &Fuzzer, args: &Args) -> Result<(), Failure> {
    let spec = (fuzzer.spec)().map_err(|e| Failure::Run(format!("the fuzzer's spec is wrong: {e}")))?;
    let mut generator = Generator::new(&spec, args.options()).map_err(|e| Failure::Usage(e.to_string()))?;
    let bytes = match &args.bytes {
        Some(path) => {
            Some(std::fs::read(path).map_err(|e| Failure::Usage(format!("--bytes {}: {e}", path.display())))?)
        }
        None => None,
    };
    let choices = match &args.choices {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| Failure::Usage(format!("--choices {}: {e}", path.display())))?;
            Some(Choices::parse(&text).map_err(|e| Failure::Usage(format!("--choices {}: {e}", path.display())))?)
        }
        None => None,
    };
    let first_seed = args.seed.unwrap_or_else(random_seed);
    let count = args.count.unwrap_or(1);
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("--output-dir {}: {e}", dir.display())))?;
    }
    if let (Some(dir), Some(_)) = (&args.save_choices, args.count) {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("--save-choices {}: {e}", dir.display())))?;
    }
    let swarm = args.swarm.swarm();
    let mut log = ChoiceLog::default();
    let mut stdout = std::io::stdout().lock();
    let mut failed = 0u64;
    for i in 0..count {
        let (source, stem, label) = match (&bytes, &args.bytes) {
            _ if choices.is_some() => {
                let path = args.choices.as_ref().expect("read above").display().to_string();
                let choices = choices.clone().expect("read above");
                let label = format!("choices {path}");
                (Source::Choices { path, choices }, "choices".to_string(), label)
            }
            (Some(bytes), Some(path)) => {
                let offset = args
                    .bytes_offset
                    .checked_add(i as usize)
                    .ok_or_else(|| Failure::Usage(format!("--bytes-offset {} is too large", args.bytes_offset)))?;
                let source = Source::Bytes {
                    path: path.display().to_string(),
                    bytes: bytes.clone(),
                    offset,
                };
                (source, format!("bytes-{offset}"), format!("bytes offset {offset}"))
            }
            _ => {
                let seed = first_seed.wrapping_add(i);
                (Source::Seed(seed), seed.to_string(), format!("seed {seed}"))
            }
        };
        // A swarm program has a generator of its own, for the options it drew.
        let drawn = match (&swarm, &source) {
            (Some(swarm), Source::Seed(seed)) => Some(swarm.options(&spec, generator.options(), *seed)),
            _ => None,
        };
        let mut own = None;
        let partial = (args.print_tree).then(|| (source.clone(), drawn.clone()));
        let result = match drawn {
            Some(options) => match Generator::new(&spec, options.clone()) {
                Ok(g) => {
                    let g = own.insert(g);
                    let command = fuzzer.command(&source, g.options());
                    fuzzer.program(&spec, g, source).map_err(|e| (e.to_string(), command))
                }
                Err(e) => Err((e.to_string(), fuzzer.command(&source, &options))),
            },
            None => {
                let command = fuzzer.command(&source, generator.options());
                fuzzer
                    .program(&spec, &mut generator, source)
                    .map_err(|e| (e.to_string(), command))
            }
        };
        if let Some(own) = own {
            log.merge(own.choice_log());
        }
        let program = match result {
            Ok(program) => program,
            Err((error, command)) => {
                // The batch goes on: one failing program loses no other.
                failed += 1;
                if let Some((source, drawn)) = partial {
                    let options = drawn.unwrap_or_else(|| generator.options().clone());
                    eprint!("{}", partial_outline(&spec, options, &source));
                }
                eprintln!("{}: error: {label}: {error}\n  regenerate with: {command}", fuzzer.name);
                continue;
            }
        };
        if args.print_tree {
            eprint!("{}", program.program.outline(spec.grammar()));
        }
        if let Some(path) = &args.save_choices {
            let path = match args.count {
                Some(_) => path.join(format!("{stem}.choices")),
                None => path.clone(),
            };
            std::fs::write(&path, program.choices.to_text())
                .map_err(|e| Failure::Run(format!("writing {}: {e}", path.display())))?;
        }
        match &args.output_dir {
            Some(dir) => {
                let path = dir.join(format!("{stem}.{}", fuzzer.extension));
                std::fs::write(&path, &program.text)
                    .map_err(|e| Failure::Run(format!("writing {}: {e}", path.display())))?;
            }
            None => stdout
                .write_all(program.text.as_bytes())
                .map_err(|e| Failure::Run(format!("writing standard output: {e}")))?,
        }
    }
    if args.log_choices {
        log.merge(generator.choice_log());
        eprintln!("{}", log.report(&spec));
    }
    match failed {
        0 => Ok(()),
        _ => Err(Failure::Run(format!(
            "{failed} of {count} programs could not be generated"
        ))),
    }
}

/// The outline of the program of `source` as far as its generation got
/// (generation is deterministic: the same failure, with the tree built
/// until then), for `--print-tree` of a program that could not be made.
fn partial_outline(spec: &crate::spec::Spec, options: Options, source: &Source) -> String {
    let Ok(mut generator) = Generator::new(spec, options) else {
        return String::new();
    };
    let mut program = generator.start();
    let _ = generator.complete(&mut program, &mut source.random());
    program.outline(spec.grammar())
}

/// A seed for runs that name none: from the clock and the process id.
fn random_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    // splitmix64's finaliser spreads nearby clock readings apart.
    let mut z = nanos ^ (u64::from(std::process::id()) << 32);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    (z ^ (z >> 31)) % 1_000_000_000_000
}
