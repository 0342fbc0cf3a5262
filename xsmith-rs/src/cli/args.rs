//! The arguments of the standard command line: generation, `diff` and
//! `reduce`.

use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

use crate::campaign::Shard;
use crate::options::{self, Options};
pub use crate::swarm::SwarmArgs;

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
    /// Directory for --count programs, named SEED.EXTENSION.
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
    /// Generate from FILE as a coverage-guided fuzzer's input (`guided`
    /// findings): its first eight bytes a seed, the rest choices as --bytes
    /// reads them, then the seed's random choices.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["seed", "bytes", "choices", "count", "swarm"])]
    pub input: Option<PathBuf>,
    /// Write each program's choice sequence to PATH (with --count, to
    /// PATH/SEED.choices); --choices PATH regenerates the program.
    #[arg(long, value_name = "PATH")]
    pub save_choices: Option<PathBuf>,
    /// Steer generation towards k-paths (chains of K productions) that the
    /// programs before have not covered: program i depends on programs 0 to
    /// i - 1, and its header says so (--covered-from).
    #[arg(long, value_name = "K", conflicts_with_all = ["swarm", "bytes", "choices", "input"],
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4))]
    pub cover: Option<usize>,
    /// With --cover: first generate, steered, the programs of seeds START to
    /// --seed - 1 (as a batch from START would have), then the program(s) asked for.
    #[arg(long, value_name = "START", requires_all = ["cover", "seed"])]
    pub covered_from: Option<u64>,
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
    /// List a findings directory by signature: programs, saved findings,
    /// reductions, and the features over-represented in each signature's
    /// programs.
    Findings(FindingsArgs),
    /// Measure k-path coverage (chains of k productions through named
    /// fields): of generated programs, or of a directory of choice files.
    Coverage(CoverageArgs),
    /// Grow a concise corpus (Bonsai): small programs, each covering a
    /// k-path no other does, under bounds raised round by round.
    Corpus(CorpusArgs),
    /// Coverage-guided generation (Zest) on libFuzzer: libFuzzer mutates
    /// the programs' choices and keeps those that reach new code of the
    /// in-process engines; programs that do not agree are saved as `diff`
    /// saves them. Needs a build with libFuzzer and SanitizerCoverage
    /// (`fuzz/build`).
    Guided(GuidedArgs),
    /// Serve programs over HTTP: GET /program?seed=N&OPTIONS, GET
    /// /choices?seed=N&OPTIONS, POST /program (a choice file), GET
    /// /next?OPTIONS (see `xsmith::serve`).
    Serve(ServeArgs),
}

/// The options of `guided`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "guided", "--time", "30", "--corpus", "c", "--libfuzzer-flag", "-use_value_profile=1"]);
/// let Some(xsmith::cli::Subcommand::Guided(guided)) = args.command else { panic!("not guided") };
/// assert_eq!((guided.time.as_secs(), guided.libfuzzer_flags.len()), (30, 1));
/// ```
#[derive(clap::Args, Debug)]
pub struct GuidedArgs {
    /// How long libFuzzer runs.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = options::parse_seconds)]
    pub time: Duration,
    /// libFuzzer's corpus: read at the start, and where every input that
    /// adds coverage is written.
    #[arg(long, value_name = "DIR", default_value = "corpus")]
    pub corpus: PathBuf,
    /// Start from these programs too: the `*.choices` files of DIR (as
    /// `corpus` writes them), or DIR's findings (as `diff` saves them), or
    /// DIR itself if it is a finding (repeatable).
    #[arg(long, value_name = "DIR")]
    pub seeds: Vec<PathBuf>,
    /// The longest input libFuzzer makes, in bytes.
    #[arg(long, value_name = "BYTES", default_value_t = 16384)]
    pub max_len: usize,
    /// Where findings and the run's journal are saved.
    #[arg(long, value_name = "DIR", default_value = "findings")]
    pub findings: PathBuf,
    /// Ignore libFuzzer's inputs: execution i runs the program of seed
    /// --seed + i, as `diff` would (libFuzzer only counts coverage; the
    /// baseline to measure guidance against; with --swarm or --cover K,
    /// as `diff --swarm` or `--cover K` would).
    #[arg(long)]
    pub unguided: bool,
    /// With --unguided, the seed of the first program (default: random).
    #[arg(long, value_name = "START", requires = "unguided")]
    pub seed: Option<u64>,
    /// With --unguided: steer each program towards k-paths (chains of K
    /// productions) that the programs before it have not covered, as
    /// `--cover K` does (a second baseline).
    #[arg(long, value_name = "K", requires = "unguided", conflicts_with = "swarm",
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4))]
    pub cover: Option<usize>,
    /// With --unguided: each program under a configuration of its own,
    /// drawn from its seed as `diff --swarm` draws it (a second baseline).
    #[command(flatten)]
    pub swarm: SwarmArgs,
    /// Let libFuzzer mutate an input's bytes as it does by default, rather
    /// than edit its program (a subtree re-drawn or taken from another
    /// input, a list element deleted, a value lowered; see
    /// `xsmith::mutate`): the baseline the edits are measured against.
    #[arg(long, conflicts_with = "unguided")]
    pub byte_mutations: bool,
    /// Wall-clock limit of one run.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = options::parse_seconds)]
    pub timeout: Duration,
    /// A known-bugs file, besides the fuzzer's own (as for `diff`).
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
    /// A flag for libFuzzer itself, e.g. `-use_value_profile=1`
    /// (repeatable; not `-fork` or `-jobs`).
    #[arg(long = "libfuzzer-flag", value_name = "FLAG", allow_hyphen_values = true)]
    pub libfuzzer_flags: Vec<String>,
    /// The options that shape each program.
    #[command(flatten)]
    pub generation: Options,
}

/// The options of `corpus`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "corpus", "--out", "c", "--budget", "30"]);
/// let Some(xsmith::cli::Subcommand::Corpus(corpus)) = args.command else { panic!("not corpus") };
/// assert_eq!((corpus.k, corpus.budget.as_secs()), (2, 30));
/// ```
#[derive(clap::Args, Debug)]
pub struct CorpusArgs {
    /// Where the corpus goes: each program with its choice file, and a
    /// `coverage` report.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Cover k-paths of every length from 1 to K.
    #[arg(long = "k", value_name = "K", default_value_t = 2,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4))]
    pub k: usize,
    /// Time for the whole corpus.
    #[arg(long, value_name = "SECONDS", default_value = "300", value_parser = options::parse_seconds)]
    pub budget: Duration,
    /// A round ends after this many candidates in a row that add nothing.
    #[arg(long, value_name = "N", default_value_t = 500)]
    pub patience: u64,
    /// Seed of the candidates and mutations.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub seed: u64,
    /// What the corpus covers.
    #[arg(long, value_enum, value_name = "WHAT", default_value = "kpaths")]
    pub coverage: CorpusCoverage,
    /// How the corpus is grown.
    #[arg(long, value_enum, value_name = "HOW", default_value = "bonsai")]
    pub method: CorpusMethod,
    /// With `--method fuzz-then-reduce`: the time to reduce each program
    /// kept.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = options::parse_seconds)]
    pub reduce_budget: Duration,
    /// The options that shape each program.
    #[command(flatten)]
    pub generation: Options,
}

/// What a corpus covers (`corpus --coverage`).
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "corpus", "--out", "c", "--coverage", "engines"]);
/// let Some(xsmith::cli::Subcommand::Corpus(corpus)) = args.command else { panic!("not corpus") };
/// assert_eq!(corpus.coverage, xsmith::cli::CorpusCoverage::Engines);
/// ```
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusCoverage {
    /// The programs' own k-paths, of every length up to `--k`.
    Kpaths,
    /// The edges that the fuzzer's in-process engines run, in a build
    /// whose engines are instrumented and counted (`fuzz/build --edges`).
    Engines,
}

/// How a corpus is grown (`corpus --method`).
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "corpus", "--out", "c", "--method", "fuzz-then-reduce"]);
/// let Some(xsmith::cli::Subcommand::Corpus(corpus)) = args.command else { panic!("not corpus") };
/// assert_eq!(corpus.method, xsmith::cli::CorpusMethod::FuzzThenReduce);
/// ```
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CorpusMethod {
    /// Bonsai: rising bounds on the choice sequence, then a set cover
    /// (see [`crate::corpus`]).
    Bonsai,
    /// Bonsai's baseline: random programs for the budget, each that adds
    /// coverage then reduced to the smallest that keeps what it added
    /// ([`crate::corpus::fuzz_then_reduce`]).
    FuzzThenReduce,
}

/// The options of `coverage`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "coverage", "--k", "3", "--count", "50"]);
/// let Some(xsmith::cli::Subcommand::Coverage(coverage)) = args.command else { panic!("not coverage") };
/// assert_eq!((coverage.k, coverage.count), (3, 50));
/// assert!(xsmith::cli::Args::try_parse_from(["x", "coverage", "--k", "0"]).is_err());
/// ```
#[derive(clap::Args, Debug)]
pub struct CoverageArgs {
    /// Count k-paths of every length from 1 to K.
    #[arg(long = "k", value_name = "K", default_value_t = 2,
          value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=4))]
    pub k: usize,
    /// How many programs to generate and measure (seeds --seed, --seed + 1, ...).
    #[arg(long, value_name = "N", default_value_t = 1000)]
    pub count: u64,
    /// Seed of the first program.
    #[arg(long, value_name = "START", default_value_t = 0)]
    pub seed: u64,
    /// Measure the programs of this directory instead: each `*.choices`
    /// file in it (as `--save-choices` writes them), regenerated.
    #[arg(value_name = "DIR")]
    pub dir: Option<PathBuf>,
    /// Also generate N programs from other seeds and say how many of the
    /// k-paths the grammar allows occur in them (types rule some out).
    #[arg(long, value_name = "N")]
    pub sample: Option<u64>,
    /// List the k-paths not covered (of those the sample reached, with
    /// --sample; else of those the grammar allows).
    #[arg(long)]
    pub uncovered: bool,
    /// Generate the programs steered towards k-paths not covered yet (as
    /// `--cover K` does), rather than at random.
    #[arg(long, conflicts_with = "dir")]
    pub cover: bool,
    /// Also draw, into this SVG file, the K-paths covered against programs
    /// and against total bytes: --count random programs, --count steered
    /// ones, and a corpus grown for --corpus-budget.
    #[arg(long, value_name = "FILE.svg", conflicts_with = "dir")]
    pub plot: Option<PathBuf>,
    /// With --plot, the corpus's time.
    #[arg(long, value_name = "SECONDS", default_value = "60", value_parser = options::parse_seconds)]
    pub corpus_budget: Duration,
    /// The options that shape each program.
    #[command(flatten)]
    pub generation: Options,
}

/// The options of `serve`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "serve", "--port", "0", "--threads", "2"]);
/// let Some(xsmith::cli::Subcommand::Serve(serve)) = args.command else { panic!("not serve") };
/// assert_eq!((serve.port, serve.threads, serve.host.as_str()), (0, Some(2), "127.0.0.1"));
/// ```
#[derive(clap::Args, Debug)]
pub struct ServeArgs {
    /// The address to listen on.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1")]
    pub host: String,
    /// The port to listen on (0: any free one; the first line printed names it).
    #[arg(long, value_name = "P", default_value_t = 8080)]
    pub port: u16,
    /// How many requests are served at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    pub threads: Option<u64>,
    /// The seed of the first program of `GET /next` (default: random).
    #[arg(long, value_name = "START")]
    pub seed: Option<u64>,
}

/// The options of `findings`.
///
/// ```
/// use clap::Parser;
/// let args = xsmith::cli::Args::parse_from(["x", "findings", "out", "--top", "3"]);
/// let Some(xsmith::cli::Subcommand::Findings(findings)) = args.command else { panic!("not findings") };
/// assert_eq!((findings.dirs[0].to_str(), findings.top), (Some("out"), 3));
/// ```
#[derive(clap::Args, Debug)]
pub struct FindingsArgs {
    /// The findings directories (`diff --findings`): several, the shards
    /// of one campaign, are listed as one.
    #[arg(value_name = "DIR", default_value = "findings")]
    pub dirs: Vec<PathBuf>,
    /// Also write the listing as one self-contained HTML page: per bug, its
    /// (reduced) program, each implementation's output side by side, the
    /// command that regenerates it, its features and its counts over the
    /// campaign.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
    /// How many over-represented features to show per signature.
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub top: usize,
    /// A known-bugs file, besides the fuzzer's own (as for `diff`).
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
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
    /// An implementation to run programs on: NAME, one of the fuzzer's own
    /// (in-process ones included), or NAME=COMMAND, with {} in COMMAND for
    /// the program file (repeatable; the first drops the fuzzer's defaults).
    #[arg(long = "impl", value_name = "NAME[=COMMAND]")]
    pub implementations: Vec<String>,
    /// An implementation to run programs on besides the others (the
    /// fuzzer's defaults, or those of --impl): NAME=COMMAND (repeatable).
    #[arg(long = "add-impl", value_name = "NAME=COMMAND")]
    pub added_implementations: Vec<String>,
    /// How many programs run at once (default: the number of cores).
    #[arg(long, value_name = "J", value_parser = clap::value_parser!(u64).range(1..))]
    pub jobs: Option<u64>,
    /// Wall-clock limit of one run; past it its whole process group is killed.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = options::parse_seconds)]
    pub timeout: Duration,
    /// Data-segment limit of each run in MiB (RLIMIT_DATA; 0: none), an
    /// in-process engine's worker included.
    #[arg(long, value_name = "MIB", default_value_t = 4096)]
    pub memory_limit: u64,
    /// Where in-process engines run: `worker` (a supervised worker process
    /// per job, so that an engine's abort, fault or hang is a finding) or
    /// `thread` (threads of the campaign: an engine's abort ends it).
    #[arg(long, value_name = "WHERE", default_value = "worker")]
    pub isolation: crate::exec::Isolation,
    /// Where findings and the campaign's journal are saved.
    #[arg(long, value_name = "DIR", default_value = "findings")]
    pub findings: PathBuf,
    /// Run only shard K of N: the programs i with i % N == K - 1.
    #[arg(long, value_name = "K/N", default_value = "1/1")]
    pub shard: Shard,
    /// Continue the newest journal of this same campaign in --findings.
    #[arg(long, requires = "seed")]
    pub resume: bool,
    /// Reduce each saved finding after the campaign (see `reduce`), compute
    /// the core of each, and report the bugs (cores) of each signature; the
    /// exit status then follows the bugs: 1 if one is not known. A finding
    /// is reduced only until it is shown to be a bug already known (by a
    /// known core, or a finding reduced before); each core is journaled.
    #[arg(long)]
    pub reduce: bool,
    /// How many findings of one signature are saved in full (later ones
    /// are only journaled). With --reduce, more saved findings can tell
    /// more bugs of one signature apart.
    #[arg(long, value_name = "N", default_value_t = crate::campaign::FINDINGS_PER_SIGNATURE)]
    pub save_per_signature: u64,
    /// A known-bugs file (`SIGNATURE = DESCRIPTION` or `SIGNATURE; core:
    /// FEATURES = DESCRIPTION` a line), besides the fuzzer's own: findings
    /// of those signatures (with --reduce, of those cores) do not fail the
    /// campaign.
    #[arg(long, value_name = "FILE")]
    pub known: Vec<PathBuf>,
    /// How reductions run.
    #[command(flatten)]
    pub reduction: ReductionArgs,
    /// Print, after the summary, how many programs each production
    /// appeared in and how many of those agreed, differed, were rejected,
    /// crashed or timed out.
    #[arg(long)]
    pub log_choices: bool,
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

/// A seed for runs that name none: from the clock and the process id.
pub(super) fn random_seed() -> u64 {
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
