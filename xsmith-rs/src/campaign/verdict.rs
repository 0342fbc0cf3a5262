//! What became of one program (its [`Verdict`]) and of a whole campaign (its
//! [`Tally`], printed as the summary line).

use std::fmt;
use std::str::FromStr;

use crate::exec::{Execution, Implementation, Run};

/// The class of one program, from the executions of all implementations:
/// any timeout makes it `Timeout`; else any compiler crash
/// `CompilerCrashed`; else any crash `Crashed`; else any rejection
/// `Rejected`; else outputs that are not all equal `Differ`; else
/// `Agree`. A program the fuzzer could not generate is `GenerationFailed`,
/// a verdict of its own: no implementation ran. A program that was running
/// alone when the campaign process itself died is `CampaignCrashed` (see
/// the [campaign's docs](super#stopping-and-resuming)).
///
/// ```
/// use xsmith::{Execution, Verdict};
/// let out = |s: &str| Execution::Output(s.into());
/// assert_eq!(Verdict::of(&[out("1"), out("1")]), Verdict::Agree);
/// assert_eq!(Verdict::of(&[out("1"), out("2")]), Verdict::Differ);
/// assert_eq!(Verdict::of(&[out("1"), Execution::Rejected("e".into())]), Verdict::Rejected);
/// assert_eq!(Verdict::of(&[Execution::Crashed("c".into()), Execution::Timeout]), Verdict::Timeout);
/// let ice = Execution::CompilerCrashed("internal compiler error".into());
/// assert_eq!(Verdict::of(&[Execution::Crashed("c".into()), ice]), Verdict::CompilerCrashed);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Verdict {
    /// Every implementation printed the same.
    Agree,
    /// Every implementation ran to the end, and not all printed the same.
    Differ,
    /// Some implementation rejected the program or stopped with an error:
    /// the fuzzer is wrong, or the implementation is.
    Rejected,
    /// Some implementation crashed.
    Crashed,
    /// The compile step of some compiled implementation crashed or
    /// reported an internal error (a compiler bug, whatever the program
    /// does).
    CompilerCrashed,
    /// Some implementation did not finish in time.
    Timeout,
    /// The fuzzer could not generate the program (a bug of the fuzzer or of
    /// the engine, never of an implementation); nothing ran.
    GenerationFailed,
    /// The campaign process itself died while the program ran, twice: the
    /// second time while it ran alone. An engine on a thread of the campaign
    /// ([`Isolation::Thread`](crate::Isolation::Thread)) that aborts or
    /// faults does this; which implementation it was, no run tells.
    CampaignCrashed,
}

impl Verdict {
    /// Classifies the executions of one program.
    ///
    /// ```
    /// assert_eq!(xsmith::Verdict::of(&[]), xsmith::Verdict::Agree);
    /// ```
    pub fn of(executions: &[Execution]) -> Verdict {
        let any = |kind: &str| executions.iter().any(|e| e.kind() == kind);
        if any("timeout") {
            Verdict::Timeout
        } else if any("compiler-crashed") {
            Verdict::CompilerCrashed
        } else if any("crashed") {
            Verdict::Crashed
        } else if any("rejected") {
            Verdict::Rejected
        } else if executions.windows(2).any(|pair| pair[0] != pair[1]) {
            Verdict::Differ
        } else {
            Verdict::Agree
        }
    }

    /// Classifies the runs of one program on its implementations.
    ///
    /// ```
    /// assert_eq!(xsmith::Verdict::of_runs(&[]), xsmith::Verdict::Agree);
    /// ```
    pub fn of_runs(runs: &[(Implementation, Run)]) -> Verdict {
        let executions: Vec<Execution> = runs.iter().map(|(_, run)| run.execution.clone()).collect();
        Verdict::of(&executions)
    }

    /// The verdict's word, as in finding names and the journal: `agree`,
    /// `differ`, `rejected`, `crashed`, `compiler-crashed`, `timeout`,
    /// `generation-failed`.
    ///
    /// ```
    /// assert_eq!(xsmith::Verdict::Differ.name(), "differ");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Verdict::Agree => "agree",
            Verdict::Differ => "differ",
            Verdict::Rejected => "rejected",
            Verdict::Crashed => "crashed",
            Verdict::CompilerCrashed => "compiler-crashed",
            Verdict::Timeout => "timeout",
            Verdict::GenerationFailed => "generation-failed",
            Verdict::CampaignCrashed => "campaign-crashed",
        }
    }
}

impl FromStr for Verdict {
    type Err = String;

    /// Reads a verdict's word back.
    ///
    /// ```
    /// assert_eq!("crashed".parse::<xsmith::Verdict>(), Ok(xsmith::Verdict::Crashed));
    /// ```
    fn from_str(word: &str) -> Result<Verdict, String> {
        [
            Verdict::Agree,
            Verdict::Differ,
            Verdict::Rejected,
            Verdict::Crashed,
            Verdict::CompilerCrashed,
            Verdict::Timeout,
            Verdict::GenerationFailed,
            Verdict::CampaignCrashed,
        ]
        .into_iter()
        .find(|v| v.name() == word)
        .ok_or_else(|| format!("`{word}` is not a verdict"))
    }
}

/// How many programs got each verdict. Its `Display` is the summary line of
/// a campaign; `compiler-crashed N`, `generation-failed N` and
/// `campaign-crashed N` end it only when some compiler crashed, some
/// program could not be generated, or the campaign died on some program.
///
/// ```
/// use xsmith::{Tally, Verdict};
/// let mut tally = Tally::default();
/// tally.add(Verdict::Agree);
/// tally.add(Verdict::Timeout);
/// assert_eq!(tally.to_string(), "programs 2, agree 1, differ 0, rejected 0, crashed 0, timeout 1");
/// assert!(!tally.all_agree());
/// tally.add(Verdict::GenerationFailed);
/// assert!(tally.to_string().ends_with(", timeout 1, generation-failed 1"));
/// tally.add(Verdict::CompilerCrashed);
/// assert!(tally.to_string().ends_with(", timeout 1, compiler-crashed 1, generation-failed 1"));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Programs run.
    pub programs: u64,
    /// Programs on which all implementations agreed.
    pub agree: u64,
    /// Programs whose outputs differed.
    pub differ: u64,
    /// Programs some implementation rejected.
    pub rejected: u64,
    /// Programs some implementation crashed on.
    pub crashed: u64,
    /// Programs some implementation timed out on.
    pub timeout: u64,
    /// Programs whose compilation crashed some compiler.
    pub compiler_crashed: u64,
    /// Programs that could not be generated.
    pub generation_failed: u64,
    /// Programs the campaign process died on.
    pub campaign_crashed: u64,
}

impl Tally {
    /// Counts one program.
    ///
    /// ```
    /// let mut tally = xsmith::Tally::default();
    /// tally.add(xsmith::Verdict::Differ);
    /// assert_eq!((tally.programs, tally.differ), (1, 1));
    /// ```
    pub fn add(&mut self, verdict: Verdict) {
        self.programs += 1;
        *match verdict {
            Verdict::Agree => &mut self.agree,
            Verdict::Differ => &mut self.differ,
            Verdict::Rejected => &mut self.rejected,
            Verdict::Crashed => &mut self.crashed,
            Verdict::CompilerCrashed => &mut self.compiler_crashed,
            Verdict::Timeout => &mut self.timeout,
            Verdict::GenerationFailed => &mut self.generation_failed,
            Verdict::CampaignCrashed => &mut self.campaign_crashed,
        } += 1;
    }

    /// Whether every program agreed (the campaign's exit status is 0 only
    /// then).
    ///
    /// ```
    /// assert!(xsmith::Tally::default().all_agree());
    /// ```
    pub fn all_agree(&self) -> bool {
        self.agree == self.programs
    }
}

impl fmt::Display for Tally {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "programs {}, agree {}, differ {}, rejected {}, crashed {}, timeout {}",
            self.programs, self.agree, self.differ, self.rejected, self.crashed, self.timeout
        )?;
        if self.compiler_crashed > 0 {
            write!(f, ", compiler-crashed {}", self.compiler_crashed)?;
        }
        if self.generation_failed > 0 {
            write!(f, ", generation-failed {}", self.generation_failed)?;
        }
        if self.campaign_crashed > 0 {
            write!(f, ", campaign-crashed {}", self.campaign_crashed)?;
        }
        Ok(())
    }
}

/// The verdicts of the programs each production appeared in (Fuzzilli
/// prints these per code generator): which productions go with which
/// verdicts.
///
/// ```
/// use xsmith::{campaign::ByProduction, features::Features, Verdict};
/// let mut counts = ByProduction::default();
/// counts.add(Some(&Features::parse("Add Lit")), Verdict::Differ);
/// counts.add(Some(&Features::parse("Lit")), Verdict::Agree);
/// let lit = counts.iter().find(|(name, _)| *name == "Lit").unwrap().1;
/// assert_eq!((lit.programs, lit.differ), (2, 1));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ByProduction {
    tallies: std::collections::BTreeMap<String, Tally>,
}

impl ByProduction {
    /// Counts one program of `features` (none: it could not be generated,
    /// and counts for no production) with `verdict`.
    pub fn add(&mut self, features: Option<&crate::features::Features>, verdict: Verdict) {
        for production in features.into_iter().flat_map(|f| f.productions()) {
            self.tallies.entry(production.to_string()).or_default().add(verdict);
        }
    }

    /// Each production that appeared, in name order, with the verdicts of
    /// its programs.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Tally)> {
        self.tallies.iter().map(|(name, tally)| (name.as_str(), tally))
    }

    /// The table `diff --log-choices` prints: a line per production, with
    /// how many programs it appeared in and how many of those got each
    /// verdict.
    ///
    /// ```
    /// use xsmith::{campaign::ByProduction, features::Features, Verdict};
    /// let mut counts = ByProduction::default();
    /// counts.add(Some(&Features::parse("Lit")), Verdict::Crashed);
    /// assert!(counts.table().lines().nth(1).unwrap().starts_with("Lit"));
    /// ```
    pub fn table(&self) -> String {
        let width = self
            .tallies
            .keys()
            .map(String::len)
            .max()
            .unwrap_or(0)
            .max("production".len());
        let mut table = format!(
            "{:width$} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n",
            "production", "programs", "agree", "differ", "rejected", "crashed", "timeout"
        );
        for (name, t) in &self.tallies {
            table.push_str(&format!(
                "{name:width$} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}\n",
                t.programs, t.agree, t.differ, t.rejected, t.crashed, t.timeout
            ));
        }
        table
    }
}
