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
/// known ones (see [`KnownBug::matches`]).
pub fn group_bugs(
    findings: impl IntoIterator<Item = (String, Option<Core>, PathBuf)>,
    known: &[KnownBug],
) -> Vec<CoreBug> {
    let mut bugs: Vec<CoreBug> = Vec::new();
    for (signature, core, finding) in findings {
        let same = bugs.iter_mut().find(|bug| {
            bug.signature == signature
                && match (&bug.core, &core) {
                    (Some(a), Some(b)) => a.same_bug(b),
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
