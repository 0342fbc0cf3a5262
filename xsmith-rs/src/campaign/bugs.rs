//! A grouping's findings told apart into bugs by their [cores](Core):
//! what `diff --reduce` and `findings` report under each signature, and
//! which bugs a known-bugs file hides.

use std::fmt;
use std::path::PathBuf;

use super::core::Core;
use super::signature::KnownBug;

/// One bug of a grouping: the findings whose cores are the same bug's, or,
/// with no core, the findings of the grouping that were not reduced.
///
/// ```
/// use std::path::PathBuf;
/// use xsmith::campaign::{group_bugs, Core};
/// let findings = [
///     ("differ: a | b".to_string(), Some(Core::parse("Add.left>Div")), PathBuf::from("differ-1")),
///     ("differ: a | b".to_string(), Some(Core::parse("Div.right>Add")), PathBuf::from("differ-2")),
///     ("differ: a | b".to_string(), Some(Core::parse("Add.left>Div")), PathBuf::from("differ-3")),
///     ("differ: a | b".to_string(), None, PathBuf::from("differ-4")),
/// ];
/// let bugs = group_bugs(findings, &[]);
/// assert_eq!(bugs.len(), 3);
/// assert_eq!(bugs[0].findings, [PathBuf::from("differ-1"), PathBuf::from("differ-3")]);
/// assert_eq!(bugs[2].core, None);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CoreBug {
    /// The grouping (the findings' signature).
    pub signature: String,
    /// The core of its first finding; `None` for the findings not reduced.
    pub core: Option<Core>,
    /// Its findings, the first one's reduced program the bug's example.
    pub findings: Vec<PathBuf>,
    /// The description of the known bug it is, if any.
    pub known: Option<String>,
}

/// The bugs of `findings` (each a signature, its core if reduced, and its
/// directory), in the order of their first findings; `known` marks the
/// known ones (see [`KnownBug::matches`]). A finding joins the first bug
/// of its signature whose core is the same bug's ([`Core::same_bug`]), or
/// that is the same known bug named by its core; otherwise it starts a bug
/// of its own.
///
/// ```
/// use std::path::PathBuf;
/// use xsmith::{campaign::{group_bugs, Core}, KnownBug};
/// // Three cores, two edges of five in common at most: three bugs, unless
/// // a known bug's core (the two edges the first two share) says two of
/// // them are one.
/// let finding = |core: &str, dir: &str| ("differ: a | b".to_string(), Some(Core::parse(core)), PathBuf::from(dir));
/// let findings = || [
///     finding("S.cond>E E.v>L F.body>St St.addr>S A.b>C", "differ-1"),
///     finding("S.cond>E E.v>L F.body>G G.v>Ld Ld.addr>S", "differ-2"),
///     finding("X.y>Z F.body>G G.v>Ld Ld.addr>T Q.r>W", "differ-3"),
/// ];
/// assert_eq!(group_bugs(findings(), &[]).len(), 3);
/// let known = KnownBug::parse("differ: a | b; core: S.cond>E E.v>L = the select bug").unwrap();
/// let bugs = group_bugs(findings(), &known);
/// assert_eq!(bugs.len(), 2);
/// assert_eq!(bugs[0].findings.len(), 2);
/// assert!(bugs[0].known.is_some() && bugs[1].known.is_none());
/// ```
pub fn group_bugs(
    findings: impl IntoIterator<Item = (String, Option<Core>, PathBuf)>,
    known: &[KnownBug],
) -> Vec<CoreBug> {
    // The known bug named by its core that a finding is, if any.
    let known_core = |signature: &str, core: Option<&Core>| {
        known
            .iter()
            .position(|k| k.core.is_some() && k.matches(signature, core))
    };
    let mut bugs: Vec<CoreBug> = Vec::new();
    for (signature, core, finding) in findings {
        let entry = known_core(&signature, core.as_ref());
        let same = bugs.iter_mut().find(|bug| {
            bug.signature == signature
                && match (&bug.core, &core) {
                    (Some(a), Some(b)) => {
                        a.same_bug(b) || (entry.is_some() && known_core(&bug.signature, Some(a)) == entry)
                    }
                    (None, None) => true,
                    _ => false,
                }
        });
        match same {
            Some(bug) => bug.findings.push(finding),
            None => bugs.push(CoreBug {
                known: known
                    .iter()
                    .find(|k| k.matches(&signature, core.as_ref()))
                    .map(|k| k.description.clone()),
                signature,
                core,
                findings: vec![finding],
            }),
        }
    }
    bugs
}

impl fmt::Display for CoreBug {
    /// `3 findings, core Add Add.left>Div Div (new): DIR/reduced`, or, for
    /// findings not reduced, `2 findings not reduced (new): DIR`.
    ///
    /// ```
    /// use std::path::PathBuf;
    /// let bug = xsmith::campaign::CoreBug {
    ///     signature: "differ: a | b".into(),
    ///     core: Some(xsmith::campaign::Core::parse("Add.left>Div")),
    ///     findings: vec![PathBuf::from("f/differ-1")],
    ///     known: None,
    /// };
    /// assert_eq!(bug.to_string(), "1 finding, core Add.left>Div (new): f/differ-1/reduced");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.findings.len();
        write!(f, "{n} finding{}", if n == 1 { "" } else { "s" })?;
        let status = match &self.known {
            Some(description) => format!("known: {description}"),
            None => "new".to_string(),
        };
        let first = self
            .findings
            .first()
            .map(|d| d.display().to_string())
            .unwrap_or_default();
        match &self.core {
            Some(core) => write!(f, ", core {core} ({status}): {first}/reduced"),
            None => write!(f, " not reduced ({status}): {first}"),
        }
    }
}
