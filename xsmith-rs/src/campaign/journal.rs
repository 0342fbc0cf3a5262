//! The journal that lets a stopped campaign resume (see the
//! [module docs](super)): a file in the findings directory whose first line
//! is the campaign's command and each further line one program, appended in
//! seed order once the program's finding (if any) is saved:
//!
//! ```text
//! SEED VERDICT [FINDING] [signature: SIGNATURE] [options: ARGS] [features: FEATURES]
//! ```
//!
//! `FINDING` is the finding's directory, when it was saved; `SIGNATURE` the
//! finding's signature; `ARGS` the options a swarm program drew; and
//! `FEATURES` the program's [`Features`]. `findings DIR` reads them back
//! ([`entries`]).

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::verdict::{ByProduction, Tally, Verdict};
use crate::features::Features;

/// One program's line in a journal.
///
/// ```
/// use xsmith::campaign::Entry;
/// let line = "7 differ differ-7 signature: differ: a | b features: Add Lit";
/// let entry = Entry::parse(line).unwrap();
/// assert_eq!(entry.finding.as_deref(), Some("differ-7"));
/// assert_eq!(entry.signature.as_deref(), Some("differ: a | b"));
/// assert!(entry.features.unwrap().contains("Lit"));
/// assert_eq!(Entry::parse("8 agree").unwrap().finding, None);
/// assert!(Entry::parse("not a journal line").is_none());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// The program's seed.
    pub seed: u64,
    /// Its verdict.
    pub verdict: Verdict,
    /// The directory of its finding, if it was saved.
    pub finding: Option<String>,
    /// Its finding's signature (none for a program that agreed).
    pub signature: Option<String>,
    /// The options a swarm program drew, as arguments.
    pub options: Option<String>,
    /// The program's features (none if it could not be generated).
    pub features: Option<Features>,
}

/// The markers of a journal line's optional parts, in their order.
const SIGNATURE: &str = " signature: ";
const OPTIONS: &str = " options:";
const FEATURES: &str = " features: ";

impl Entry {
    /// Reads a journal line; `None` if it is not one.
    pub fn parse(line: &str) -> Option<Entry> {
        let (rest, features) = split_off(line, FEATURES);
        let (rest, options) = split_off(rest, OPTIONS);
        let (rest, signature) = split_off(rest, SIGNATURE);
        let mut words = rest.split(' ');
        let seed = words.next()?.parse().ok()?;
        let verdict = words.next()?.parse().ok()?;
        let finding = words.next().map(str::to_string);
        if words.next().is_some() {
            return None;
        }
        Some(Entry {
            seed,
            verdict,
            finding,
            signature: signature.map(str::to_string),
            options: options.map(|o| o.trim_start().to_string()),
            features: features.map(Features::parse),
        })
    }

    /// The line, as [`parse`](Entry::parse) reads it.
    fn line(&self) -> String {
        let mut line = format!("{} {}", self.seed, self.verdict.name());
        if let Some(name) = &self.finding {
            line.push(' ');
            line.push_str(name);
        }
        if let Some(signature) = &self.signature {
            line.push_str(SIGNATURE);
            line.push_str(signature);
        }
        if let Some(options) = &self.options {
            line.push_str(OPTIONS);
            if !options.is_empty() {
                line.push(' ');
                line.push_str(options);
            }
        }
        if let Some(features) = &self.features {
            line.push_str(FEATURES);
            line.push_str(&features.to_string());
        }
        line
    }
}

/// `line` cut at the last `marker`: before it, and what follows it.
fn split_off<'a>(line: &'a str, marker: &str) -> (&'a str, Option<&'a str>) {
    match line.rfind(marker) {
        Some(at) => (&line[..at], Some(&line[at + marker.len()..])),
        None => (line, None),
    }
}

/// Every program line of the journals (`*.journal`) in findings directory
/// `dir`, journal by journal in name order.
///
/// ```
/// let dir = tempfile::tempdir().unwrap();
/// std::fs::write(dir.path().join("campaign-0-2.journal"), "# x diff\n0 agree\n1 timeout timeout-1\n").unwrap();
/// let entries = xsmith::campaign::entries(dir.path()).unwrap();
/// assert_eq!(entries.len(), 2);
/// ```
pub fn entries(dir: &Path) -> io::Result<Vec<Entry>> {
    let mut journals: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "journal"))
        .collect();
    journals.sort();
    let mut entries = Vec::new();
    for path in journals {
        let text = std::fs::read_to_string(&path)?;
        entries.extend(text.lines().skip(1).filter_map(Entry::parse));
    }
    Ok(entries)
}

/// An open journal, positioned to append.
pub(super) struct Journal {
    file: File,
    path: PathBuf,
}

/// What an opened journal already holds.
pub(super) struct Opened {
    pub journal: Journal,
    /// Programs already done (a prefix of the shard's programs).
    pub done: u64,
    /// Their verdicts.
    pub tally: Tally,
    /// Their verdicts per production.
    pub by_production: ByProduction,
}

impl Journal {
    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records one program (written through at once, so a stop loses at
    /// most the line being written).
    pub fn record(&mut self, entry: &Entry) -> io::Result<()> {
        let mut line = entry.line();
        line.push('\n');
        self.file.write_all(line.as_bytes())
    }
}

/// The path of journal number `n` (1, 2, ...) named `stem` in `dir`.
fn numbered(dir: &Path, stem: &str, n: u64) -> PathBuf {
    if n == 1 {
        dir.join(format!("{stem}.journal"))
    } else {
        dir.join(format!("{stem}-{n}.journal"))
    }
}

/// Opens the journal of the campaign whose command is `header`: with
/// `resume`, the newest journal named `stem` whose header matches (reading
/// what it holds; `seed_of(j)` is the seed of the shard's `j`-th program, of
/// which there are `len`); otherwise, or when none matches, a new one at the
/// first free number.
pub(super) fn open(
    dir: &Path,
    stem: &str,
    header: &str,
    resume: bool,
    len: u64,
    seed_of: impl Fn(u64) -> u64,
) -> Result<Opened, String> {
    let first_line = format!("# {header}");
    if resume {
        let mut n = 1;
        let mut newest = None;
        while numbered(dir, stem, n).exists() {
            let path = numbered(dir, stem, n);
            let text = std::fs::read_to_string(&path).map_err(|e| format!("reading {}: {e}", path.display()))?;
            if text.lines().next() == Some(first_line.as_str()) {
                newest = Some((path, text));
            }
            n += 1;
        }
        if let Some((path, text)) = newest {
            return reopen(path, &text, &first_line, len, seed_of);
        }
    }
    let mut n = 1;
    loop {
        let path = numbered(dir, stem, n);
        match OpenOptions::new().append(true).create_new(true).open(&path) {
            Ok(mut file) => {
                writeln!(file, "{first_line}").map_err(|e| format!("writing {}: {e}", path.display()))?;
                return Ok(Opened {
                    journal: Journal { file, path },
                    done: 0,
                    tally: Tally::default(),
                    by_production: ByProduction::default(),
                });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(format!("creating {}: {e}", path.display())),
        }
    }
}

/// Reads a journal's programs, drops a last line cut short by a stop, and
/// opens it to append.
fn reopen(
    path: PathBuf,
    text: &str,
    first_line: &str,
    len: u64,
    seed_of: impl Fn(u64) -> u64,
) -> Result<Opened, String> {
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    let mut tally = Tally::default();
    let mut by_production = ByProduction::default();
    for (j, line) in text[..whole].lines().skip(1).enumerate() {
        let j = j as u64;
        let bad = |why: String| format!("{}: line {}: {why}", path.display(), j + 2);
        match Entry::parse(line) {
            _ if j >= len => return Err(bad("more programs than the campaign has".into())),
            Some(entry) if entry.seed == seed_of(j) => {
                tally.add(entry.verdict);
                by_production.add(entry.features.as_ref(), entry.verdict);
            }
            Some(entry) => return Err(bad(format!("seed {}, expected {}", entry.seed, seed_of(j)))),
            None => return Err(bad(format!("`{line}` is not `SEED VERDICT [FINDING] ...`"))),
        }
    }
    let file = OpenOptions::new()
        .append(true)
        .open(&path)
        .and_then(|mut file| {
            file.set_len(whole as u64)?;
            if whole == 0 {
                // Stopped while writing the header itself.
                writeln!(file, "{first_line}")?;
            }
            Ok(file)
        })
        .map_err(|e| format!("reopening {}: {e}", path.display()))?;
    Ok(Opened {
        journal: Journal { file, path },
        done: tally.programs,
        tally,
        by_production,
    })
}
