//! A finding's signature: what tells one bug from another before anyone has
//! looked at it. The verdict, and which implementations it concerns: for a
//! difference, which implementations print alike (the grouping: "wasmi
//! alone" against the rest); for a crash, which implementations crashed and
//! how (the signal); for a rejection or a time-out, which implementations
//! rejected the program or ran out of time.
//!
//! A reducer keeps a candidate only if its signature is the finding's, so a
//! reduced program shows the same bug, not another one.

use std::fmt;

use super::core::Core;
use super::verdict::Verdict;
use crate::exec::{Execution, Implementation, Run};

/// The signature of one program's runs.
///
/// ```
/// use xsmith::{Execution, Implementation, Run, Signature, Verdict};
/// let engine = |name: &'static str| Implementation::InProcess { name, run: |_| Execution::Timeout };
/// let printed = |text: &str| Run { execution: Execution::Output(text.into()), stdout: text.into(), stderr: String::new(), status: "exit status 0".into() };
/// let runs = [(engine("a"), printed("1")), (engine("b"), printed("2")), (engine("c"), printed("1"))];
/// let signature = Signature::of(&runs);
/// assert_eq!(signature.verdict, Verdict::Differ);
/// assert_eq!(signature.to_string(), "differ: a c | b");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Signature {
    /// The program's verdict.
    pub verdict: Verdict,
    /// The implementations it concerns, in a canonical order: for a
    /// difference, the groups of implementations that printed alike (each
    /// sorted, the groups by their first name); otherwise one group, the
    /// implementations that crashed (each with how it ended), rejected the
    /// program or timed out.
    pub groups: Vec<Vec<String>>,
}

impl Signature {
    /// The signature of `runs`, the runs of one program.
    ///
    /// ```
    /// assert_eq!(xsmith::Signature::of(&[]).to_string(), "agree");
    /// ```
    pub fn of(runs: &[(Implementation, Run)]) -> Signature {
        let verdict = Verdict::of_runs(runs);
        let names_of = |kind: &str, with_status: bool| {
            let mut names: Vec<String> = runs
                .iter()
                .filter(|(_, run)| run.execution.kind() == kind)
                .map(|(implementation, run)| match with_status {
                    true => format!("{} ({})", implementation.name(), run.status),
                    false => implementation.name().to_string(),
                })
                .collect();
            names.sort();
            vec![names]
        };
        let groups = match verdict {
            Verdict::Agree | Verdict::GenerationFailed | Verdict::CampaignCrashed => Vec::new(),
            Verdict::Differ => {
                let mut groups: Vec<(&Execution, Vec<String>)> = Vec::new();
                for (implementation, run) in runs {
                    match groups.iter_mut().find(|(execution, _)| **execution == run.execution) {
                        Some((_, names)) => names.push(implementation.name().to_string()),
                        None => groups.push((&run.execution, vec![implementation.name().to_string()])),
                    }
                }
                let mut groups: Vec<Vec<String>> = groups
                    .into_iter()
                    .map(|(_, mut names)| {
                        names.sort();
                        names
                    })
                    .collect();
                groups.sort();
                groups
            }
            Verdict::Crashed => names_of("crashed", true),
            Verdict::CompilerCrashed => names_of("compiler-crashed", true),
            Verdict::Rejected => names_of("rejected", false),
            Verdict::Timeout => names_of("timeout", false),
        };
        Signature { verdict, groups }
    }

    /// Whether the runs of some of a program's implementations already
    /// rule this signature out, whatever the others print: for a
    /// difference, a run that printed nothing comparable (the program's
    /// verdict is then a rejection, crash or time-out), or two
    /// implementations that printed alike where this signature has them
    /// apart, or not alike where it has them together. Other verdicts are
    /// ruled out only by all the runs. A reducer stops running a candidate
    /// here: most candidates lose the bug, and two runs show it.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Run, Signature};
    /// let engine = |name: &'static str| Implementation::InProcess { name, run: |_| Execution::Timeout };
    /// let printed = |text: &str| Run { execution: Execution::Output(text.into()), stdout: text.into(), stderr: String::new(), status: "exit status 0".into() };
    /// let all = [(engine("a"), printed("1")), (engine("b"), printed("2")), (engine("c"), printed("1"))];
    /// let signature = Signature::of(&all);
    /// assert!(!signature.ruled_out_by(&all));
    /// assert!(!signature.ruled_out_by(&all[..2]), "a and b differ, as they should");
    /// let lost = [(engine("a"), printed("1")), (engine("b"), printed("1"))];
    /// assert!(signature.ruled_out_by(&lost), "a and b print alike: the bug is gone");
    /// ```
    pub fn ruled_out_by(&self, runs: &[(Implementation, Run)]) -> bool {
        if self.verdict != Verdict::Differ {
            return false;
        }
        runs.iter().enumerate().any(|(i, (a, run_a))| {
            if !matches!(run_a.execution, Execution::Output(_)) || self.group_of(a).is_none() {
                return true;
            }
            runs[..i]
                .iter()
                .any(|(b, run_b)| (self.group_of(a) == self.group_of(b)) != (run_a.execution == run_b.execution))
        })
    }

    /// `implementations` in the order that rules this signature out
    /// soonest (see [`ruled_out_by`](Signature::ruled_out_by)): the first
    /// of each group, then the rest, each part in the order given.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Signature, Verdict};
    /// let engine = |name: &'static str| Implementation::InProcess { name, run: |_| Execution::Timeout };
    /// let signature = Signature { verdict: Verdict::Differ, groups: vec![vec!["a".into(), "b".into()], vec!["c".into()]] };
    /// let order = signature.telling_order(&[engine("a"), engine("b"), engine("c")]);
    /// assert_eq!(order.iter().map(|i| i.name()).collect::<Vec<_>>(), ["a", "c", "b"]);
    /// ```
    pub fn telling_order(&self, implementations: &[Implementation]) -> Vec<Implementation> {
        let mut first = Vec::new();
        let mut rest = Vec::new();
        let mut groups_seen = Vec::new();
        for implementation in implementations {
            match self.group_of(implementation) {
                Some(group) if !groups_seen.contains(&group) => {
                    groups_seen.push(group);
                    first.push(*implementation);
                }
                _ => rest.push(*implementation),
            }
        }
        first.extend(rest);
        first
    }

    /// Which of the groups holds `implementation`.
    fn group_of(&self, implementation: &Implementation) -> Option<usize> {
        let name = implementation.name();
        self.groups.iter().position(|group| group.iter().any(|n| n == name))
    }
}

impl fmt::Display for Signature {
    /// `differ: a c | b`, `crashed: luajit (killed by signal 11 (SIGSEGV))`,
    /// `rejected: duk`, `agree`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.verdict.name())?;
        if self.groups.is_empty() {
            return Ok(());
        }
        let groups: Vec<String> = self.groups.iter().map(|group| group.join(" ")).collect();
        write!(f, ": {}", groups.join(" | "))
    }
}

/// A known bug: a signature, the core of its reduced findings if known,
/// and what is known of it.
///
/// An entry with a core hides only the findings of its signature whose
/// core is the same bug's ([`Core::same_bug`]): another bug of the same
/// implementations is still reported. An entry without one hides every
/// finding of its signature, whatever its core (the meaning known-bugs
/// files had before cores).
#[derive(Clone, Debug, PartialEq)]
pub struct KnownBug {
    /// The signature its findings have, as [`Signature`]'s `Display` writes it.
    pub signature: String,
    /// The core of its reduced findings (see [`Core`]); `None`: the whole
    /// signature.
    pub core: Option<Core>,
    /// What it is: the implementation's bug, an upstream link, a reduced
    /// program.
    pub description: String,
}

impl KnownBug {
    /// Reads a known-bugs file: one bug a line, `SIGNATURE = DESCRIPTION`
    /// or `SIGNATURE; core: FEATURES = DESCRIPTION` (the features as a
    /// finding's `reduced/core` lists them); blank lines and lines
    /// starting with `#` are skipped.
    ///
    /// ```
    /// let bugs = xsmith::KnownBug::parse("# wasm\ndiffer: wasmi | wasmtime = wasmi 2.0.0, see tests/\n").unwrap();
    /// assert_eq!(bugs[0].signature, "differ: wasmi | wasmtime");
    /// assert_eq!(bugs[0].core, None);
    /// let bugs = xsmith::KnownBug::parse("differ: a | b; core: Add Add.left>Div Div = sums of quotients").unwrap();
    /// assert_eq!(bugs[0].signature, "differ: a | b");
    /// assert_eq!(bugs[0].core.as_ref().unwrap().to_string(), "Add Add.left>Div Div");
    /// assert!(xsmith::KnownBug::parse("no separator").is_err());
    /// assert!(xsmith::KnownBug::parse("differ: a | b; core: = empty").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Vec<KnownBug>, String> {
        let mut bugs = Vec::new();
        for (index, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let (signature, description) = line
                .split_once(" = ")
                .ok_or_else(|| format!("line {}: expected `SIGNATURE = DESCRIPTION`", index + 1))?;
            let (signature, core) = match signature.split_once("; core:") {
                Some((_, features)) if features.trim().is_empty() => {
                    return Err(format!("line {}: `; core:` names no feature", index + 1))
                }
                Some((signature, features)) => (signature, Some(Core::parse(features))),
                None => (signature, None),
            };
            bugs.push(KnownBug {
                signature: signature.trim().to_string(),
                core,
                description: description.trim().to_string(),
            });
        }
        Ok(bugs)
    }

    /// Whether a finding of `signature`, with `core` if it was reduced,
    /// is this bug: the same signature and, if this bug names a core, a
    /// core of the same bug.
    ///
    /// ```
    /// use xsmith::{campaign::Core, KnownBug};
    /// let bugs = KnownBug::parse("differ: a | b; core: Add.left>Div = x\ndiffer: a | c = y").unwrap();
    /// let (by_core, whole) = (&bugs[0], &bugs[1]);
    /// assert!(by_core.matches("differ: a | b", Some(&Core::parse("Add Add.left>Div Div"))));
    /// assert!(!by_core.matches("differ: a | b", Some(&Core::parse("Div.right>Add"))));
    /// assert!(!by_core.matches("differ: a | b", None), "not reduced: could be any bug");
    /// assert!(whole.matches("differ: a | c", None) && whole.matches("differ: a | c", Some(&Core::parse("Q"))));
    /// ```
    pub fn matches(&self, signature: &str, core: Option<&Core>) -> bool {
        self.signature == signature
            && match (&self.core, core) {
                (None, _) => true,
                (Some(known), Some(core)) => known.same_bug(core),
                (Some(_), None) => false,
            }
    }
}

/// The signatures a campaign's findings had, with how many findings each,
/// and which are known bugs.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Signatures {
    /// Each signature seen, with its number of findings, in signature order.
    pub counts: std::collections::BTreeMap<String, u64>,
    /// The known bugs among them, by signature.
    pub known: std::collections::BTreeMap<String, String>,
}

impl Signatures {
    /// Counts one finding of `signature`; returns how many it has now.
    pub(crate) fn add(&mut self, signature: &str, known: &[KnownBug]) -> u64 {
        // Before reduction a finding has no core: only an entry without
        // one (the whole signature) tells it is known.
        if let Some(bug) = known.iter().find(|b| b.matches(signature, None)) {
            self.known.insert(signature.to_string(), bug.description.clone());
        }
        let count = self.counts.entry(signature.to_string()).or_default();
        *count += 1;
        *count
    }

    /// Whether every finding is of a known bug.
    ///
    /// ```
    /// assert!(xsmith::Signatures::default().all_known());
    /// ```
    pub fn all_known(&self) -> bool {
        self.counts.keys().all(|s| self.known.contains_key(s))
    }
}

impl fmt::Display for Signatures {
    /// `signatures S (new N, known K)`, then a line per signature: its
    /// findings, the signature, and what is known of it.
    ///
    /// ```
    /// let mut s = xsmith::Signatures::default();
    /// s.counts.insert("differ: a | b".into(), 3);
    /// assert_eq!(s.to_string(), "signatures 1 (new 1, known 0)\n  3 differ: a | b (new)");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known = self.counts.keys().filter(|s| self.known.contains_key(*s)).count();
        write!(
            f,
            "signatures {} (new {}, known {known})",
            self.counts.len(),
            self.counts.len() - known
        )?;
        for (signature, count) in &self.counts {
            match self.known.get(signature) {
                Some(description) => write!(f, "\n  {count} {signature} (known: {description})")?,
                None => write!(f, "\n  {count} {signature} (new)")?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(execution: Execution, status: &str) -> Run {
        Run {
            execution,
            stdout: String::new(),
            stderr: String::new(),
            status: status.into(),
        }
    }

    fn engine(name: &'static str) -> Implementation {
        Implementation::InProcess {
            name,
            run: |_| Execution::Timeout,
        }
    }

    #[test]
    fn each_verdict_names_the_implementations_it_concerns_in_any_order() {
        let out = |s: &str| run(Execution::Output(s.into()), "exit status 0");
        let differ = [
            (engine("z"), out("1")),
            (engine("y"), out("2")),
            (engine("x"), out("1")),
        ];
        let reordered = [
            (engine("y"), out("7")),
            (engine("x"), out("5")),
            (engine("z"), out("5")),
        ];
        assert_eq!(
            Signature::of(&differ),
            Signature::of(&reordered),
            "the grouping, not the outputs"
        );
        assert_eq!(Signature::of(&differ).to_string(), "differ: x z | y");
        let crashed = [
            (engine("a"), out("1")),
            (
                engine("b"),
                run(Execution::Crashed("boom".into()), "killed by signal 11 (SIGSEGV)"),
            ),
        ];
        assert_eq!(
            Signature::of(&crashed).to_string(),
            "crashed: b (killed by signal 11 (SIGSEGV))"
        );
        let rejected = [
            (engine("a"), out("1")),
            (engine("b"), run(Execution::Rejected("e".into()), "exit status 1")),
        ];
        assert_eq!(Signature::of(&rejected).to_string(), "rejected: b");
        let timeout = [
            (engine("a"), run(Execution::Timeout, "timed out")),
            (engine("b"), out("1")),
        ];
        assert_eq!(Signature::of(&timeout).to_string(), "timeout: a");
        let compiler = [
            (engine("gcc"), out("1")),
            (
                engine("clang"),
                run(
                    Execution::CompilerCrashed("ice".into()),
                    "compiler killed by signal 11 (SIGSEGV)",
                ),
            ),
        ];
        assert_eq!(
            Signature::of(&compiler).to_string(),
            "compiler-crashed: clang (compiler killed by signal 11 (SIGSEGV))"
        );
    }
}
