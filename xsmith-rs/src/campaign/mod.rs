//! Differential campaigns: generate programs, run each on every
//! implementation, compare, and save everything that is not agreement.
//!
//! A [`Campaign`] runs the programs of seeds `first_seed .. first_seed +
//! count` (those of its [`Shard`]) on `jobs` threads. A job generates a
//! program (byte for byte what `xsmith-<lang> --seed N <options>` prints),
//! writes it to a scratch file, and runs it on each [`Implementation`] in
//! turn under [`Limits`] (see [`exec`](crate::exec): an external command in
//! its own process group, killed whole on timeout; an in-process engine in
//! the job's supervised worker process, so that its abort, fault, failed
//! allocation or hang is a `crashed` or `timeout` finding of that engine
//! and a new worker goes on, or, with [`Isolation::Thread`], on a thread).
//! An implementation that times out runs the program once more, and the
//! second run stands: a time-out is a finding only if it repeats (a loaded
//! machine slows a program down, a hang stays a hang).
//! The [`Execution`](crate::Execution)s give the program's [`Verdict`]; results are handled
//! in seed order, whatever order the jobs finish in. When the campaign ends
//! no process it started is left.
//!
//! # Findings
//!
//! Every program whose verdict is not `agree` is saved in a new directory of
//! the findings directory, `DIR/<verdict>-<seed>/` (`differ-1234/`), or
//! `DIR/<verdict>-<seed>-2/`, `-3/`, ... when that exists already: the
//! directory is created atomically, so no run, not even one running at the
//! same time in the same directory, overwrites another's finding. It holds:
//!
//! | file | content |
//! |---|---|
//! | `program.<ext>` | the program (or `generation-error`, why it could not be generated) |
//! | `command` | the command line that regenerates the program, e.g. `xsmith-calc --seed 1234 --max-depth 8` (with `--swarm`, the options the program drew) |
//! | `campaign` | the command line of the whole campaign |
//! | `<impl>.stdout`, `<impl>.stderr` | what implementation `<impl>` printed (each kept up to 64 MiB) |
//! | `<impl>.status` | how it ended (`exit status 1`, `killed by signal 11 (SIGSEGV)`, `timed out after 10 s`) and, on a second line, `NAME=COMMAND` |
//! | `signature` | its [`Signature`] |
//! | `reduced/` | once reduced (`reduce`, `diff --reduce`): the reduced program, its choices and runs, `sizes`, and `core`, the bug's [`Core`] |
//!
//! # Stopping and resuming
//!
//! The campaign appends one line per program, in seed order, to a journal in
//! the findings directory, `DIR/campaign-<first seed>-<count>.journal` (with
//! `-shard-<K>-of-<N>` before `.journal` for a shard, and `-2`, `-3`, ...
//! when that name is taken). Its first line is `# ` and the campaign's
//! command; each program has a line written once its finding is saved:
//! `SEED VERDICT [FINDING] [signature: SIGNATURE] [options: ARGS]
//! [features: FEATURES]`, with the finding's signature, the options a
//! `--swarm` program drew (as its header writes them) and the program's
//! [features](crate::features) (productions, and `Parent.field>Child` pairs), from
//! which `findings DIR` tells what the programs of each signature have in
//! common ([`Entry`]); before its runs, a line `SEED started` says it began.
//!
//! A campaign stopped at any point (Ctrl-C, a killed batch job) is resumed
//! by running the same command again with `--resume`: the newest journal
//! with the same command (the same seeds, shard, generation options,
//! implementations, timeout and memory limit; `--jobs` and `--isolation`
//! may change) is continued, and the summary covers the whole campaign.
//! With no such journal, `--resume` starts the campaign afresh.
//!
//! - **One writer per journal.** A campaign holds an advisory lock on its
//!   journal (`<journal>.lock`, which names the process and host) for its
//!   whole life; a second campaign that would write the same journal (two
//!   `--resume` at once: a retried batch job whose first run is still
//!   alive) stops with an error naming them, and `diff` exits with status
//!   2. Shards have journals of their own.
//! - **Healed, not refused.** `--resume` keeps the first record of each
//!   seed and drops later records of the same seed, a last line cut short
//!   by a stop, and lines that are no record of this campaign, says how
//!   many it dropped (`healed the journal: dropped 2 lines: ...`), and goes
//!   on.
//! - **A campaign that dies on a program.** A program that started but has
//!   no record was running when the campaign stopped: it runs again, alone
//!   (with nothing else running beside it, journaled `SEED started alone`),
//!   before the campaign goes on. If the campaign dies again then, it died
//!   on that program: the next `--resume` saves it as a `campaign-crashed`
//!   finding (its program, its command; no runs) and continues past it.
//!   (The first death alone proves nothing: a stop by Ctrl-C or a batch
//!   scheduler's kill looks the same; only the second, with the program
//!   alone, points at it.) With engines in workers only a bug of the
//!   campaign process itself does this; with [`Isolation::Thread`] an
//!   engine's abort does.
//!
//! A program whose finding was saved when the campaign stopped, but not
//! yet journaled, runs again and is saved a second time, under a `-2` name.
//!
//! ```
//! use xsmith::{Campaign, Execution, Implementation, Verdict};
//!
//! // An in-process "engine" that prints the program's last line, and one
//! // that prints it twice: they differ on every program.
//! fn last(text: &str) -> Execution {
//!     Execution::Output(text.lines().last().unwrap_or("").to_string())
//! }
//! fn twice(text: &str) -> Execution {
//!     let line = text.lines().last().unwrap_or("");
//!     Execution::Output(format!("{line}{line}"))
//! }
//!
//! let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
//!     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//!     implementations: &[] };
//! let findings = tempfile::tempdir().unwrap();
//! let mut campaign = Campaign::new(&fuzzer, findings.path());
//! campaign.count = 3;
//! campaign.first_seed = 10;
//! campaign.implementations = vec![
//!     Implementation::InProcess { name: "last", run: last },
//!     Implementation::InProcess { name: "same", run: last },
//! ];
//! let tally = campaign.run(&mut std::io::sink()).unwrap();
//! assert_eq!(tally.to_string(), "programs 3, agree 3, differ 0, rejected 0, crashed 0, timeout 0");
//!
//! campaign.implementations[1] = Implementation::InProcess { name: "twice", run: twice };
//! let tally = campaign.run(&mut std::io::sink()).unwrap();
//! assert_eq!((tally.differ, tally.all_agree()), (3, false));
//! assert!(findings.path().join("differ-11").join("program.t").is_file());
//! assert!(findings.path().join("differ-11").join("twice.stdout").is_file());
//! ```

mod bugs;
mod core;
mod error;
mod findings;
mod harness;
mod journal;
mod journal_lock;
mod listing;
mod report;
mod runner;
mod shard;
mod signature;
mod verdict;

use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Mutex;

pub use self::core::{Core, CORE_FILE, SAME_BUG_DISTANCE};
pub use bugs::{group_bugs, CoreBug};
pub use error::CampaignError;
pub use harness::{Checked, Harness, JOURNAL_EVERY};
pub use journal::{cores, entries, record_core, Entry};
pub use listing::{list_findings, Bug, Listing, ListingError};
pub use report::write_report;
pub use shard::Shard;
pub use signature::{KnownBug, Signature, Signatures};
pub use verdict::{ByProduction, Tally, Verdict};

use crate::exec::{check_workers, Implementation, ImplementationError, Isolation, Limits};
use crate::fuzzer::{quote, Fuzzer};
use crate::generate::Generator;
use crate::options::Options;
use crate::swarm::Swarm;

/// One differential campaign: which programs, on which implementations,
/// under which limits, saved where. [`Campaign::new`] gives the defaults;
/// set the fields, then [`run`](Campaign::run) it (see the
/// [module docs](self) for a whole campaign).
///
/// ```
/// use xsmith::{Campaign, Execution, Implementation};
///
/// static ECHO: Implementation = Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) };
/// const IMPLEMENTATIONS: &[Implementation] = &[
///     Implementation::InProcess { name: "length", run: |t| Execution::Output(t.len().to_string()) },
///     Implementation::IfInstalled { implementation: &ECHO, requires: "no-such-command-xyz", package: "xyz" },
/// ];
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: IMPLEMENTATIONS };
/// // The fuzzer's implementations, but for those whose command is missing.
/// let campaign = Campaign::new(&fuzzer, "findings");
/// assert_eq!(campaign.implementations.len(), 1);
/// assert!(campaign.left_out[0].contains("apt-get install xyz"));
/// ```
#[derive(Clone, Debug)]
pub struct Campaign<'f> {
    /// The fuzzer whose programs are run.
    pub fuzzer: &'f Fuzzer,
    /// The generation options of every program (with `swarm`, the base each
    /// program draws its own from).
    pub options: Options,
    /// Swarm testing: each program draws its feature groups and size options
    /// from its seed (see [`swarm`](crate::swarm)).
    pub swarm: Option<Swarm>,
    /// The seed of program 0; program `i` has seed `first_seed + i`
    /// (wrapping).
    pub first_seed: u64,
    /// How many programs the whole campaign has (over all shards).
    pub count: u64,
    /// Which of them this run runs.
    pub shard: Shard,
    /// What each program runs on.
    pub implementations: Vec<Implementation>,
    /// How many programs are generated and run at once.
    pub jobs: usize,
    /// The time and memory limits of each run.
    pub limits: Limits,
    /// Where in-process engines run: in supervised workers (the default),
    /// or on the campaign's threads.
    pub isolation: Isolation,
    /// Where findings and the journal go (created if missing).
    pub findings: PathBuf,
    /// Continue this campaign's newest journal instead of starting afresh.
    pub resume: bool,
    /// Draw a progress bar on standard error (only when it is a terminal).
    pub progress: bool,
    /// Notes on default implementations left out because what they need is
    /// not installed ([`Implementation::IfInstalled`]); printed when it runs.
    pub left_out: Vec<String>,
    /// Known bugs: a finding of one of these signatures does not fail the
    /// campaign (only entries without a core count here: a finding has no
    /// core before it is reduced).
    pub known: Vec<KnownBug>,
    /// How many findings of one signature are saved in full
    /// ([`FINDINGS_PER_SIGNATURE`] unless set); later ones are only
    /// journaled.
    pub saved_per_signature: u64,
}

/// How many findings of one signature are saved in full by default; later
/// ones are only journaled, so that a broken implementation cannot fill the
/// disk.
pub const FINDINGS_PER_SIGNATURE: u64 = 5;

/// What a campaign ended with: the tally of verdicts and the signatures of
/// the findings (of this run; a resumed campaign's earlier findings are in
/// its journal).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// The campaign's journal (none for a summary made elsewhere).
    pub journal: Option<std::path::PathBuf>,
    /// How many programs got each verdict.
    pub tally: Tally,
    /// The findings' signatures.
    pub signatures: Signatures,
    /// The verdicts of the programs each production appeared in (a
    /// resumed campaign's earlier programs included).
    pub by_production: ByProduction,
}

impl Summary {
    /// Whether the campaign succeeded: every program agreed, or every
    /// finding is of a known bug.
    ///
    /// ```
    /// assert!(xsmith::Summary::default().succeeded());
    /// ```
    pub fn succeeded(&self) -> bool {
        self.tally.all_agree() || (self.tally.generation_failed == 0 && self.signatures.all_known())
    }
}

/// Checks a campaign's implementations: at least one, distinct names,
/// every command installed.
pub(crate) fn check_implementations(implementations: &[Implementation]) -> Result<(), CampaignError> {
    if implementations.is_empty() {
        return Err(CampaignError::Implementation(ImplementationError::None));
    }
    for (i, implementation) in implementations.iter().enumerate() {
        if implementations[..i].iter().any(|o| o.name() == implementation.name()) {
            let name = implementation.name().to_string();
            return Err(CampaignError::Implementation(ImplementationError::Duplicate(name)));
        }
        implementation.check().map_err(CampaignError::Implementation)?;
    }
    Ok(())
}

impl<'f> Campaign<'f> {
    /// A campaign of 100 programs from seed 0 on the fuzzer's declared
    /// implementations, default options and limits, one job per core,
    /// findings in `findings`.
    ///
    /// ```
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let campaign = xsmith::Campaign::new(&fuzzer, "findings");
    /// assert_eq!((campaign.first_seed, campaign.count), (0, 100));
    /// assert!(campaign.jobs >= 1);
    /// ```
    pub fn new(fuzzer: &'f Fuzzer, findings: impl Into<PathBuf>) -> Campaign<'f> {
        let mut left_out = Vec::new();
        let implementations = fuzzer
            .implementations
            .iter()
            .filter_map(|implementation| match implementation.if_installed() {
                Ok(implementation) => Some(implementation),
                Err(note) => {
                    left_out.push(note);
                    None
                }
            })
            .collect();
        Campaign {
            left_out,
            fuzzer,
            options: Options::default(),
            swarm: None,
            first_seed: 0,
            count: 100,
            shard: Shard::default(),
            implementations,
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            limits: Limits::default(),
            isolation: Isolation::default(),
            findings: findings.into(),
            resume: false,
            progress: false,
            known: Vec::new(),
            saved_per_signature: FINDINGS_PER_SIGNATURE,
        }
    }

    /// The command line that runs this campaign (`--jobs` aside), written in
    /// the journal and in each finding's `campaign` file.
    ///
    /// ```
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let mut campaign = xsmith::Campaign::new(&fuzzer, "findings");
    /// campaign.implementations = vec![xsmith::Implementation::parse("sh=sh -e {}").unwrap()];
    /// assert_eq!(
    ///     campaign.command_line(),
    ///     "x diff --seed 0 --count 100 --timeout 10 --memory-limit 4096 --findings findings --impl 'sh=sh -e {}'"
    /// );
    /// ```
    pub fn command_line(&self) -> String {
        let mut words = vec![
            self.fuzzer.name.to_string(),
            "diff".into(),
            "--seed".into(),
            self.first_seed.to_string(),
            "--count".into(),
            self.count.to_string(),
        ];
        if self.shard != Shard::default() {
            words.extend(["--shard".into(), self.shard.to_string()]);
        }
        words.extend(self.options.args());
        if let Some(swarm) = self.swarm {
            words.push("--swarm".into());
            if swarm != Swarm::default() {
                words.extend(["--swarm-probability".into(), swarm.probability.to_string()]);
            }
        }
        words.extend([
            "--timeout".into(),
            self.limits.timeout.as_secs_f64().to_string(),
            "--memory-limit".into(),
            self.limits.memory.map_or(0, |bytes| bytes >> 20).to_string(),
            "--findings".into(),
            self.findings.display().to_string(),
        ]);
        for implementation in &self.implementations {
            // One of the fuzzer's own by its name (`--impl wasmtime`: an
            // in-process engine has no command to write), others in full.
            let own = self.fuzzer.implementations.iter().any(|declared| {
                declared.name() == implementation.name() && declared.describe() == implementation.describe()
            });
            let argument = match own {
                true => implementation.name().to_string(),
                false => implementation.describe(),
            };
            words.extend(["--impl".into(), argument]);
        }
        quote(&words)
    }

    /// Checks everything that can be checked before a program runs: at least
    /// one implementation, distinct names, every command installed, the
    /// options, the spec, at least one job, a valid shard.
    ///
    /// ```
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let campaign = xsmith::Campaign::new(&fuzzer, "findings");
    /// assert_eq!(campaign.check(), Err(xsmith::CampaignError::Implementation(xsmith::ImplementationError::None)));
    /// ```
    pub fn check(&self) -> Result<(), CampaignError> {
        check_implementations(&self.implementations)?;
        if self.jobs == 0 {
            return Err(CampaignError::NoJobs);
        }
        if !self.shard.is_valid() {
            return Err(CampaignError::BadShard(self.shard));
        }
        let spec = (self.fuzzer.spec)().map_err(|e| CampaignError::Spec(e.to_string()))?;
        Generator::new(&spec, self.options.clone()).map_err(CampaignError::Options)?;
        Ok(())
    }

    /// Runs the campaign (resuming it if asked), writing to `report` a first
    /// line naming the campaign and its journal and one line per finding,
    /// `<verdict> seed <seed>: <directory>`. Returns the tally of the whole
    /// campaign, including the part an earlier run did; it never panics on a
    /// program, an implementation or bad input.
    ///
    /// ```
    /// use xsmith::{Campaign, Execution, Implementation};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut campaign = Campaign::new(&fuzzer, findings.path());
    /// (campaign.first_seed, campaign.count) = (5, 2);
    /// campaign.implementations = vec![
    ///     Implementation::InProcess { name: "length", run: |t| Execution::Output(t.len().to_string()) },
    ///     Implementation::InProcess { name: "refuses", run: |_| Execution::Rejected("syntax error".into()) },
    /// ];
    /// let mut report = Vec::new();
    /// let tally = campaign.run(&mut report).unwrap();
    /// assert_eq!((tally.programs, tally.rejected), (2, 2));
    /// let report = String::from_utf8(report).unwrap();
    /// let lines: Vec<&str> = report.lines().collect();
    /// assert!(lines[0].starts_with("campaign: x diff --seed 5 --count 2 "));
    /// assert!(lines[1].starts_with("journal: "));
    /// assert!(lines[2].starts_with("rejected seed 5: ") && lines[2].ends_with("rejected-5"));
    /// assert!(lines[3].starts_with("rejected seed 6: "));
    /// ```
    pub fn run(&self, report: &mut dyn Write) -> Result<Tally, CampaignError> {
        self.run_summary(report).map(|summary| summary.tally)
    }

    /// Runs the campaign as [`run`](Campaign::run) does, and tells the
    /// findings' signatures too.
    pub fn run_summary(&self, report: &mut dyn Write) -> Result<Summary, CampaignError> {
        self.check()?;
        std::fs::create_dir_all(&self.findings)
            .map_err(|e| CampaignError::Findings(format!("{}: {e}", self.findings.display())))?;
        let header = self.command_line();
        let len = self.shard.len(self.count);
        let offset = self.shard.index - 1;
        let seed_of = |j: u64| self.first_seed.wrapping_add(offset + j * self.shard.count);
        let index_of = |seed: u64| {
            let distance = seed.wrapping_sub(self.first_seed).wrapping_sub(offset);
            let j = distance / self.shard.count;
            (distance % self.shard.count == 0 && j < len).then_some(j)
        };
        let mut stem = format!("campaign-{}-{}", self.first_seed, self.count);
        if self.shard != Shard::default() {
            stem.push_str(&format!("-shard-{}-of-{}", self.shard.index, self.shard.count));
        }
        let programs = journal::Programs {
            len,
            index_of: &index_of,
        };
        let opened = journal::open(&self.findings, &stem, &header, self.resume, &programs).map_err(|e| match e {
            journal::OpenError::Held { journal, held } => CampaignError::JournalHeld(format!(
                "{} is being written by another campaign: {} holds its lock ({}); \
                 wait for it to end or stop it, then --resume",
                journal.display(),
                held.holder,
                held.lock.display()
            )),
            journal::OpenError::Io(e) => CampaignError::Io(e),
        })?;
        let (journal, done, remaining) = (opened.journal, opened.done, opened.remaining);
        let journal_path = journal.path().to_path_buf();
        let io = |e: std::io::Error| CampaignError::Io(format!("writing the report: {e}"));
        writeln!(report, "campaign: {header}").map_err(io)?;
        for note in &self.left_out {
            writeln!(report, "note: {note}").map_err(io)?;
        }
        let in_process = self
            .implementations
            .iter()
            .any(|i| matches!(i.if_installed(), Ok(Implementation::InProcess { .. })));
        if in_process && self.isolation == Isolation::Worker {
            if let Err(why) = check_workers() {
                writeln!(report, "note: in-process engines run on threads of this process: {why}").map_err(io)?;
            }
        }
        if done > 0 || opened.healed.dropped() > 0 {
            writeln!(
                report,
                "journal: {} (resumed after {done} of {len} programs)",
                journal.path().display()
            )
        } else {
            writeln!(report, "journal: {}", journal.path().display())
        }
        .map_err(io)?;
        if opened.healed.dropped() > 0 {
            writeln!(report, "healed the journal: {}", opened.healed).map_err(io)?;
        }
        let interrupted = remaining
            .holes
            .iter()
            .filter(|(_, pending)| *pending == journal::Pending::Interrupted)
            .count();
        if interrupted > 0 {
            writeln!(
                report,
                "note: {interrupted} programs were running when the campaign stopped: each runs again, alone"
            )
            .map_err(io)?;
        }

        let bar = if self.progress && std::io::stderr().is_terminal() {
            let bar = indicatif::ProgressBar::new(len);
            if let Ok(style) = indicatif::ProgressStyle::with_template("{elapsed_precise} [{bar:30}] {pos}/{len} {msg}")
            {
                bar.set_style(style.progress_chars("=> "));
            }
            bar.set_position(done);
            bar
        } else {
            indicatif::ProgressBar::hidden()
        };
        let (alone, count) = (remaining.alone(), remaining.count());
        let mut runner = runner::Runner {
            shared: runner::Shared {
                campaign: self,
                header,
                journal: Mutex::new(journal),
                remaining,
                seed_of: &seed_of,
            },
            tally: opened.tally,
            by_production: opened.by_production,
            signatures: Signatures::default(),
            bar,
        };
        let ran = runner
            .run(0..alone, 1, true, report)
            .and_then(|()| runner.run(alone..count, self.jobs, false, report));
        runner.bar.finish_and_clear();
        ran.map(|()| Summary {
            journal: Some(journal_path),
            tally: runner.tally,
            signatures: runner.signatures,
            by_production: runner.by_production,
        })
    }
}
