//! `findings DIR`: a findings directory told by signature. For each
//! signature: how many programs had it, whether it is a known bug, the
//! findings saved in full, their reductions (size, and the productions the
//! reduced program needs), and the features over-represented in its
//! programs against all programs of the journals (Havrikov's input features
//! associated with failures), so that a report can say what every program
//! of a bug has in common.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::Path;

use super::journal::{entries, Entry};
use super::signature::KnownBug;
use super::verdict::Verdict;
use crate::features::{associated, Features};

/// The listing of findings directory `dir` (its journals and saved
/// findings), with at most `top` associated features per signature;
/// `known` marks known bugs.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let journal = "# x diff --count 3\n\
///     0 agree features: A A.x>B B\n\
///     1 differ differ-1 signature: differ: a | b features: A A.x>C C\n\
///     2 agree features: A A.x>B B\n";
/// std::fs::write(dir.path().join("campaign-0-3.journal"), journal).unwrap();
/// let listing = xsmith::campaign::list_findings(dir.path(), &[], 5).unwrap();
/// assert!(listing.contains("1 program: differ: a | b (new)"));
/// assert!(listing.contains("A.x>C"));
/// ```
pub fn list_findings(dir: &Path, known: &[KnownBug], top: usize) -> std::io::Result<String> {
    let entries = entries(dir)?;
    let all: Vec<&Features> = entries.iter().filter_map(|e| e.features.as_ref()).collect();
    let mut by_signature: BTreeMap<String, Vec<&Entry>> = BTreeMap::new();
    for entry in entries.iter().filter(|e| e.verdict != Verdict::Agree) {
        let signature = entry
            .signature
            .clone()
            .unwrap_or_else(|| entry.verdict.name().to_string());
        by_signature.entry(signature).or_default().push(entry);
    }
    let findings: usize = by_signature.values().map(Vec::len).sum();
    let mut out = String::new();
    let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
    let _ = writeln!(
        out,
        "{}: {}, {}, {}",
        dir.display(),
        plural(entries.len(), "program"),
        plural(findings, "finding"),
        plural(by_signature.len(), "signature")
    );
    for (signature, programs) in &by_signature {
        let status = match known.iter().find(|b| &b.signature == signature) {
            Some(bug) => format!("known: {}", bug.description),
            None => "new".to_string(),
        };
        let _ = writeln!(out, "\n{}: {signature} ({status})", plural(programs.len(), "program"));
        let seeds: Vec<String> = programs.iter().map(|e| e.seed.to_string()).collect();
        let _ = writeln!(out, "  seeds: {}", seeds.join(" "));
        let saved: Vec<&str> = programs.iter().filter_map(|e| e.finding.as_deref()).collect();
        if !saved.is_empty() {
            let _ = writeln!(out, "  saved: {}", saved.join(" "));
        }
        for finding in &saved {
            if let Some(line) = reduction(&dir.join(finding)) {
                let _ = writeln!(out, "  reduced {finding}: {line}");
            }
        }
        let selected: Vec<&Features> = programs.iter().filter_map(|e| e.features.as_ref()).collect();
        let associations = associated(&selected, &all);
        if associations.is_empty() {
            continue;
        }
        let _ = writeln!(
            out,
            "  features over-represented (in its {} programs; in all {}; ratio):",
            selected.len(),
            all.len()
        );
        let width = associations
            .iter()
            .take(top)
            .map(|a| a.feature.len())
            .max()
            .unwrap_or(0);
        for a in associations.iter().take(top) {
            let _ = writeln!(
                out,
                "    {:width$}  {:>6}  {:>7}  {:>6.1}x",
                a.feature,
                a.selected,
                a.all,
                a.ratio()
            );
        }
    }
    Ok(out)
}

/// What `finding/reduced/sizes` says of a reduction: its nodes and bytes
/// before and after, and the productions of the reduced program.
fn reduction(finding: &Path) -> Option<String> {
    let sizes = std::fs::read_to_string(finding.join("reduced").join("sizes")).ok()?;
    let field = |name: &str| {
        sizes
            .lines()
            .find_map(|line| line.strip_prefix(name)?.strip_prefix(' '))
            .unwrap_or("?")
            .to_string()
    };
    Some(format!(
        "nodes {}, bytes {}; productions: {}",
        field("nodes"),
        field("bytes"),
        field("productions")
    ))
}
