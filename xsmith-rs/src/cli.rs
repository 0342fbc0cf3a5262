//! The standard command line every fuzzer gets with one call of [`main`].
//!
//! ```text
//! xsmith-<lang> [--seed N] [--count N --output-dir DIR] [--max-depth N]
//!               [--with NAME]... [--without NAME]... [--bytes FILE]
//!               [--print-tree] [--log-choices] [--version]
//! ```
//!
//! With no `--count` one program goes to standard output. Program `i` of a
//! `--count` uses seed `--seed + i` and is written to `DIR/<seed>.<ext>`. A bad
//! option or value exits with status 2 and a message that names it; a
//! program that cannot be generated exits with status 1.

use std::ffi::OsString;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::{CommandFactory, FromArgMatches, Parser};

use crate::fuzzer::{Fuzzer, Source};
use crate::generate::{Generator, Options};

/// The options of the standard command line.
#[derive(Parser, Debug)]
#[command(about = "Generates random conforming programs.", disable_version_flag = true)]
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
    /// Past this depth only the choices that finish soonest are made.
    #[arg(long, value_name = "N", default_value_t = Options::default().max_depth)]
    pub max_depth: u32,
    /// Fail a program that grows past this many nodes.
    #[arg(long, value_name = "N", default_value_t = Options::default().max_nodes)]
    pub max_nodes: usize,
    /// Fail a program whose generation takes longer than this many seconds.
    #[arg(long, value_name = "SECONDS", default_value = "10", value_parser = parse_seconds)]
    pub time_limit: Duration,
    /// How deeply the composite types that typed fuzzers invent may nest.
    #[arg(long, value_name = "N", default_value_t = Options::default().type_max_depth)]
    pub type_max_depth: u32,
    /// Switch on a production or feature group.
    #[arg(long, value_name = "NAME")]
    pub with: Vec<String>,
    /// Switch off a production or feature group.
    #[arg(long, value_name = "NAME")]
    pub without: Vec<String>,
    /// Generate from the bytes of FILE instead of a seed (program i of --count
    /// reads from offset --bytes-offset + i).
    #[arg(long, value_name = "FILE", conflicts_with = "seed")]
    pub bytes: Option<PathBuf>,
    /// Where in the --bytes file reading starts.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "bytes")]
    pub bytes_offset: usize,
    /// Also print each program's tree to standard error.
    #[arg(long)]
    pub print_tree: bool,
    /// Print, to standard error, how often each production was offered and chosen.
    #[arg(long)]
    pub log_choices: bool,
    /// Print the fuzzer's name and version.
    #[arg(long)]
    pub version: bool,
}

fn parse_seconds(text: &str) -> Result<Duration, String> {
    match text
        .parse::<f64>()
        .ok()
        .and_then(|s| Duration::try_from_secs_f64(s).ok())
    {
        Some(limit) if !limit.is_zero() => Ok(limit),
        _ => Err(format!("`{text}` is not a positive number of seconds")),
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
        Options {
            max_depth: self.max_depth,
            max_nodes: self.max_nodes,
            time_limit: self.time_limit,
            with: self.with.clone(),
            without: self.without.clone(),
            type_max_depth: self.type_max_depth,
        }
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
/// };
///
/// fn main() -> std::process::ExitCode {
///     xsmith::cli::main(&FUZZER)
/// }
/// ```
pub fn main(fuzzer: &Fuzzer) -> ExitCode {
    run(fuzzer, std::env::args_os())
}

/// Runs the standard command line of `fuzzer` on `args` (the first is the
/// program name).
///
/// ```
/// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", width: 80 };
/// let status = xsmith::cli::run(&fuzzer, ["x", "--seed", "3", "--max-depth", "2"]);
/// assert_eq!(status, std::process::ExitCode::SUCCESS);
/// ```
pub fn run<I, T>(fuzzer: &Fuzzer, args: I) -> ExitCode
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

/// The stack of the generation thread: 1 GiB of address space, enough for
/// trees as deep as a large node budget.
const GENERATION_STACK: usize = 1 << 30;

enum Failure {
    /// A bad option or value (status 2).
    Usage(String),
    /// Something went wrong doing what was asked (status 1).
    Run(String),
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
    let first_seed = args.seed.unwrap_or_else(random_seed);
    let count = args.count.unwrap_or(1);
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("--output-dir {}: {e}", dir.display())))?;
    }
    let mut stdout = std::io::stdout().lock();
    for i in 0..count {
        let (source, stem, label) = match (&bytes, &args.bytes) {
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
        let program = fuzzer
            .program(&spec, &mut generator, source)
            .map_err(|e| Failure::Run(format!("{label}: {e}")))?;
        if args.print_tree {
            eprint!("{}", program.tree.outline(&spec));
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
        eprintln!("{}", generator.choice_log().report(&spec));
    }
    Ok(())
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
