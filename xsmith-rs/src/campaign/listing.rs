//! `findings DIR...`: findings directories told by signature. For each
//! signature: how many programs had it, whether it is a known bug, the
//! findings saved in full, their reductions (size, and the productions the
//! reduced program needs), and the features over-represented in its
//! programs against all programs of the journals (Havrikov's input features
//! associated with failures), so that a report can say what every program
//! of a bug has in common. The saved findings that were reduced are told
//! apart by their [cores](super::Core): under each signature, one line per
//! bug, with its findings' count, its core and its reduced program.
//!
//! Several directories (the shards of one campaign, `diff --shard K/N`) are
//! merged: their journals' programs are taken together in seed order, so
//! the listing of the shards is the listing of the campaign run whole.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

use super::bugs::{group_bugs, CoreBug};
use super::core::Core;
use super::journal::{cores, entries, Entry};
use super::signature::KnownBug;
use super::verdict::Verdict;
use crate::features::{associated, Association, Features};

/// Findings directories read and grouped by signature: what `findings`
/// prints (its [`Display`](fmt::Display)) and the HTML report shows.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let journal = "# x diff --count 3\n\
///     0 agree features: A A.x>B B\n\
///     1 differ differ-1 signature: differ: a | b features: A A.x>C C\n\
///     2 agree features: A A.x>B B\n";
/// std::fs::write(dir.path().join("campaign-0-3.journal"), journal).unwrap();
/// let listing = xsmith::campaign::Listing::read(&[dir.path().to_path_buf()], &[], 5).unwrap();
/// assert_eq!((listing.programs, listing.bugs.len()), (3, 1));
/// assert_eq!(listing.bugs[0].seeds, [1]);
/// ```
#[derive(Clone, Debug)]
pub struct Listing {
    /// The directories read.
    pub dirs: Vec<PathBuf>,
    /// The campaigns' commands (each journal's first line), in the order
    /// read, each once.
    pub campaigns: Vec<String>,
    /// How many programs the journals hold.
    pub programs: usize,
    /// How many of them have features recorded.
    pub with_features: usize,
    /// One entry per signature, in the order of their names.
    pub bugs: Vec<Bug>,
}

/// One signature's programs in a [`Listing`].
#[derive(Clone, Debug)]
pub struct Bug {
    /// The signature (see [`Signature`](super::Signature)).
    pub signature: String,
    /// The known bug's description, if it is one.
    pub known: Option<String>,
    /// The seeds of its programs, in order.
    pub seeds: Vec<u64>,
    /// Where each of its programs comes in the listing's seed order (for
    /// counts over the campaign).
    pub positions: Vec<usize>,
    /// Its findings saved in full: as written in the listing, and where
    /// they are.
    pub saved: Vec<(String, PathBuf)>,
    /// How many of its programs have features recorded.
    pub with_features: usize,
    /// The features over-represented in its programs (at most `top`).
    pub features: Vec<Association>,
    /// Its saved findings grouped into bugs by the cores of their
    /// reductions (see [`group_bugs`]), the findings not reduced last.
    pub cores: Vec<CoreBug>,
}

impl Listing {
    /// Reads the journals of `dirs` (and the findings they name), with at
    /// most `top` associated features per signature; `known` marks known
    /// bugs. A directory named twice is an error (its programs would count
    /// twice).
    pub fn read(dirs: &[PathBuf], known: &[KnownBug], top: usize) -> Result<Listing, ListingError> {
        let mut seen = Vec::new();
        let mut all_entries: Vec<(usize, Entry)> = Vec::new();
        let mut campaigns = Vec::new();
        // The cores the journals recorded, for findings whose `reduced/`
        // is gone.
        let mut journal_cores = Vec::new();
        for (d, dir) in dirs.iter().enumerate() {
            let unreadable = |e: std::io::Error| ListingError::Unreadable(dir.clone(), e.to_string());
            let canonical = dir.canonicalize().map_err(unreadable)?;
            if seen.contains(&canonical) {
                return Err(ListingError::NamedTwice(dir.clone()));
            }
            seen.push(canonical);
            all_entries.extend(entries(dir).map_err(unreadable)?.into_iter().map(|e| (d, e)));
            journal_cores.push(cores(dir).map_err(unreadable)?);
            for header in headers(dir).map_err(unreadable)? {
                if !campaigns.contains(&header) {
                    campaigns.push(header);
                }
            }
        }
        // Seed order (stable: a seed in two journals keeps their order), so
        // that shards merge into the order of the campaign run whole.
        all_entries.sort_by_key(|(_, e)| e.seed);
        let all: Vec<&Features> = all_entries.iter().filter_map(|(_, e)| e.features.as_ref()).collect();
        let mut by_signature: BTreeMap<String, Vec<(usize, usize, &Entry)>> = BTreeMap::new();
        for (position, (d, entry)) in all_entries.iter().enumerate() {
            if entry.verdict == Verdict::Agree {
                continue;
            }
            let signature = entry
                .signature
                .clone()
                .unwrap_or_else(|| entry.verdict.name().to_string());
            by_signature.entry(signature).or_default().push((position, *d, entry));
        }
        let bugs = by_signature
            .into_iter()
            .map(|(signature, programs)| {
                let selected: Vec<&Features> = programs.iter().filter_map(|(_, _, e)| e.features.as_ref()).collect();
                let mut features = associated(&selected, &all);
                features.truncate(top);
                let saved: Vec<(String, PathBuf, Option<Core>)> = programs
                    .iter()
                    .filter_map(|(_, d, e)| {
                        let finding = e.finding.as_deref()?;
                        let shown = match dirs.len() {
                            1 => finding.to_string(),
                            _ => dirs[*d].join(finding).display().to_string(),
                        };
                        let path = dirs[*d].join(finding);
                        let core = Core::of_finding(&path).or_else(|| journal_cores[*d].get(&e.seed).cloned());
                        Some((shown, path, core))
                    })
                    .collect();
                let mut cores = group_bugs(
                    saved
                        .iter()
                        .map(|(_, path, core)| (signature.clone(), core.clone(), path.clone())),
                    known,
                );
                cores.sort_by_key(|bug| bug.core.is_none());
                Bug {
                    known: known
                        .iter()
                        .find(|b| b.matches(&signature, None))
                        .map(|b| b.description.clone()),
                    cores,
                    signature,
                    seeds: programs.iter().map(|(_, _, e)| e.seed).collect(),
                    positions: programs.iter().map(|(p, _, _)| *p).collect(),
                    saved: saved.into_iter().map(|(shown, path, _)| (shown, path)).collect(),
                    with_features: selected.len(),
                    features,
                }
            })
            .collect();
        Ok(Listing {
            dirs: dirs.to_vec(),
            campaigns,
            programs: all_entries.len(),
            with_features: all.len(),
            bugs,
        })
    }

    /// How many findings (programs that did not agree) there are.
    pub fn findings(&self) -> usize {
        self.bugs.iter().map(|b| b.seeds.len()).sum()
    }
}

impl fmt::Display for Listing {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize, word: &str| format!("{n} {word}{}", if n == 1 { "" } else { "s" });
        let dirs: Vec<String> = self.dirs.iter().map(|d| d.display().to_string()).collect();
        writeln!(
            out,
            "{}: {}, {}, {}",
            dirs.join(", "),
            plural(self.programs, "program"),
            plural(self.findings(), "finding"),
            plural(self.bugs.len(), "signature")
        )?;
        for bug in &self.bugs {
            let status = match &bug.known {
                Some(description) => format!("known: {description}"),
                None => "new".to_string(),
            };
            writeln!(
                out,
                "\n{}: {} ({status})",
                plural(bug.seeds.len(), "program"),
                bug.signature
            )?;
            let seeds: Vec<String> = bug.seeds.iter().map(u64::to_string).collect();
            writeln!(out, "  seeds: {}", seeds.join(" "))?;
            if !bug.saved.is_empty() {
                let shown: Vec<&str> = bug.saved.iter().map(|(shown, _)| shown.as_str()).collect();
                writeln!(out, "  saved: {}", shown.join(" "))?;
            }
            for (shown, path) in &bug.saved {
                if let Some(line) = reduction(path) {
                    writeln!(out, "  reduced {shown}: {line}")?;
                }
            }
            if bug.cores.iter().any(|c| c.core.is_some()) {
                writeln!(out, "  bugs by core (of its saved findings):")?;
                for core in &bug.cores {
                    writeln!(out, "    {core}")?;
                }
            }
            if bug.features.is_empty() {
                continue;
            }
            writeln!(
                out,
                "  features over-represented (in its {} programs; in all {}; ratio):",
                bug.with_features, self.with_features
            )?;
            let width = bug.features.iter().map(|a| a.feature.len()).max().unwrap_or(0);
            for a in &bug.features {
                writeln!(
                    out,
                    "    {:width$}  {:>6}  {:>7}  {:>6.1}x",
                    a.feature,
                    a.selected,
                    a.all,
                    a.ratio()
                )?;
            }
        }
        Ok(())
    }
}

/// Why findings directories could not be listed.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// let twice = [dir.path().to_path_buf(), dir.path().to_path_buf()];
/// let error = xsmith::campaign::Listing::read(&twice, &[], 5).unwrap_err();
/// assert!(error.to_string().ends_with("is named twice"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ListingError {
    /// A directory or a journal in it could not be read.
    Unreadable(PathBuf, String),
    /// A directory was named twice (its programs would count twice).
    NamedTwice(PathBuf),
}

impl fmt::Display for ListingError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ListingError::Unreadable(dir, error) => write!(f, "reading {}: {error}", dir.display()),
            ListingError::NamedTwice(dir) => write!(f, "{} is named twice", dir.display()),
        }
    }
}

impl std::error::Error for ListingError {}

/// The listing of findings directory `dir` (its journals and saved
/// findings), with at most `top` associated features per signature;
/// `known` marks known bugs (see [`Listing`]).
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
pub fn list_findings(dir: &Path, known: &[KnownBug], top: usize) -> Result<String, ListingError> {
    Ok(Listing::read(&[dir.to_path_buf()], known, top)?.to_string())
}

/// The first lines of the journals of `dir`: their campaigns' commands.
fn headers(dir: &Path) -> std::io::Result<Vec<String>> {
    let mut journals: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "journal"))
        .collect();
    journals.sort();
    let mut headers = Vec::new();
    for path in journals {
        let text = std::fs::read_to_string(&path)?;
        if let Some(first) = text.lines().next() {
            headers.push(first.trim_start_matches("# ").to_string());
        }
    }
    Ok(headers)
}

/// What `finding/reduced/sizes` says of a reduction: its nodes and bytes
/// before and after, and the productions of the reduced program.
pub(super) fn reduction(finding: &Path) -> Option<String> {
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
