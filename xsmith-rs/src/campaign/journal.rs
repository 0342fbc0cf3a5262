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
//! ([`entries`]). Before a program runs, the line `SEED started` (or `SEED
//! started alone`, when nothing else runs beside it) says so.
//!
//! One process writes a journal at a time ([`journal_lock`](super::journal_lock)).
//! Reopened to resume, a journal is healed rather than refused: the first
//! record of each seed is kept, a later record of the same seed (two
//! campaigns wrote it at once), a line cut short by a stop, and a line of
//! no program of the campaign are dropped and counted ([`Healed`]).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::core::Core;
use super::journal_lock::{DirectoryLock, Held, JournalLock};
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
    let mut entries = Vec::new();
    for path in journals(dir)? {
        let text = std::fs::read_to_string(&path)?;
        entries.extend(text.lines().skip(1).filter_map(Entry::parse));
    }
    Ok(entries)
}

/// The journals (`*.journal`) of findings directory `dir`, in name order.
fn journals(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut journals: Vec<PathBuf> = std::fs::read_dir(dir)?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "journal"))
        .collect();
    journals.sort();
    Ok(journals)
}

/// An open journal, positioned to append, and its lock.
pub(super) struct Journal {
    file: File,
    path: PathBuf,
    _lock: JournalLock,
}

/// What becomes of a program a resumed journal has no record of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Pending {
    /// It never started, as far as the journal tells: it runs.
    Fresh,
    /// It was running when the campaign stopped: it runs again, alone,
    /// before any program after it.
    Interrupted,
    /// It was running alone when the campaign stopped: the campaign died on
    /// it, twice. It is a `campaign-crashed` finding.
    CampaignCrashed,
}

/// The programs a journal has no record of, in seed order: `holes`, then
/// every program from `frontier` on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Remaining {
    /// Programs (by index in the shard) before `frontier` with no record.
    pub holes: Vec<(u64, Pending)>,
    /// The first program after every one the journal names.
    pub frontier: u64,
    /// How many programs the shard has.
    pub len: u64,
}

impl Remaining {
    /// How many programs remain.
    pub fn count(&self) -> u64 {
        self.holes.len() as u64 + (self.len - self.frontier)
    }

    /// The `position`-th remaining program: its index in the shard, and
    /// what becomes of it.
    pub fn get(&self, position: u64) -> Option<(u64, Pending)> {
        let holes = self.holes.len() as u64;
        match position < holes {
            true => Some(self.holes[position as usize]),
            false => {
                let j = self.frontier + (position - holes);
                (j < self.len).then_some((j, Pending::Fresh))
            }
        }
    }

    /// How many of the first remaining programs must run alone: up to the
    /// last one that is not [`Pending::Fresh`].
    pub fn alone(&self) -> u64 {
        self.holes
            .iter()
            .rposition(|(_, pending)| *pending != Pending::Fresh)
            .map_or(0, |i| i as u64 + 1)
    }
}

/// What healing a journal dropped.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Healed {
    /// Later records of a seed already recorded.
    pub duplicates: u64,
    /// A last line cut short.
    pub torn: u64,
    /// Lines that are no record of a program of the campaign.
    pub unreadable: u64,
}

impl Healed {
    /// How many lines were dropped.
    pub fn dropped(&self) -> u64 {
        self.duplicates + self.torn + self.unreadable
    }
}

impl fmt::Display for Healed {
    /// `dropped 3 lines: 2 duplicate records, 1 cut short`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<String> = [
            (self.duplicates, "duplicate record"),
            (self.torn, "cut short"),
            (self.unreadable, "not a record of this campaign"),
        ]
        .into_iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| match (n, what) {
            (1, _) | (_, "cut short") | (_, "not a record of this campaign") => format!("{n} {what}"),
            _ => format!("{n} {what}s"),
        })
        .collect();
        let lines = if self.dropped() == 1 { "line" } else { "lines" };
        write!(f, "dropped {} {lines}: {}", self.dropped(), parts.join(", "))
    }
}

/// What an opened journal already holds.
pub(super) struct Opened {
    pub journal: Journal,
    /// Programs already recorded.
    pub done: u64,
    /// Their verdicts.
    pub tally: Tally,
    /// Their verdicts per production.
    pub by_production: ByProduction,
    /// The programs that remain.
    pub remaining: Remaining,
    /// What healing the journal dropped.
    pub healed: Healed,
}

/// Why a journal could not be opened.
#[derive(Debug)]
pub(super) enum OpenError {
    /// Another process writes it.
    Held {
        /// The journal.
        journal: PathBuf,
        /// Its lock, and who holds it.
        held: Held,
    },
    /// Reading or writing failed.
    Io(String),
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

    /// Records that the program of `seed` starts its runs (`alone`: with
    /// no other program running).
    pub fn started(&mut self, seed: u64, alone: bool) -> io::Result<()> {
        let line = match alone {
            true => format!("{seed} {STARTED_ALONE}\n"),
            false => format!("{seed} {STARTED}\n"),
        };
        self.file.write_all(line.as_bytes())
    }
}

/// The marker of a finding's core in the journal: `SEED core: FEATURES`.
const CORE: &str = "core: ";

/// Appends to the journal at `path` the core of the finding of `seed`,
/// once its reduction knows it (`diff --reduce`), taking the journal's
/// lock for the write: the line `SEED core: FEATURES`, which [`cores`]
/// reads back.
///
/// ```
/// use xsmith::campaign::{cores, record_core, Core};
/// let dir = tempfile::tempdir().unwrap();
/// let journal = dir.path().join("campaign-0-2.journal");
/// std::fs::write(&journal, "# x diff\n0 agree\n1 differ differ-1 signature: differ: a | b\n").unwrap();
/// record_core(&journal, 1, &Core::parse("Add Add.left>Div Div")).unwrap();
/// assert_eq!(cores(dir.path()).unwrap()[&1].edges().collect::<Vec<_>>(), ["Add.left>Div"]);
/// assert_eq!(xsmith::campaign::entries(dir.path()).unwrap().len(), 2, "a core is no program");
/// ```
pub fn record_core(path: &Path, seed: u64, core: &Core) -> io::Result<()> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let directory = DirectoryLock::take(dir)?;
    let _lock = JournalLock::take(path, &directory)?.map_err(|held| {
        io::Error::other(format!(
            "{} is being written by {} (its lock: {})",
            path.display(),
            held.holder,
            held.lock.display()
        ))
    })?;
    let mut file = OpenOptions::new().append(true).open(path)?;
    writeln!(file, "{seed} {CORE}{core}")
}

/// The cores recorded ([`record_core`]) in the journals of findings
/// directory `dir`, by seed (a seed's last record).
pub fn cores(dir: &Path) -> io::Result<BTreeMap<u64, Core>> {
    let mut cores = BTreeMap::new();
    for path in journals(dir)? {
        for line in std::fs::read_to_string(&path)?.lines().skip(1) {
            if let Some((seed, core)) = core_line(line) {
                cores.insert(seed, core);
            }
        }
    }
    Ok(cores)
}

/// The seed and core of a journal's core line.
fn core_line(line: &str) -> Option<(u64, Core)> {
    let (seed, rest) = line.split_once(' ')?;
    Some((seed.parse().ok()?, Core::parse(rest.strip_prefix(CORE)?)))
}

/// The word of a program's start in the journal.
const STARTED: &str = "started";
/// The words of a program's start with nothing else running.
const STARTED_ALONE: &str = "started alone";

/// The path of journal number `n` (1, 2, ...) named `stem` in `dir`.
fn numbered(dir: &Path, stem: &str, n: u64) -> PathBuf {
    if n == 1 {
        dir.join(format!("{stem}.journal"))
    } else {
        dir.join(format!("{stem}-{n}.journal"))
    }
}

/// The programs of a shard: how many, and which seed each has.
pub(super) struct Programs<'a> {
    /// How many programs the shard has.
    pub len: u64,
    /// The index of the program with this seed, if the shard has one.
    pub index_of: &'a dyn Fn(u64) -> Option<u64>,
}

/// Opens the journal of the campaign whose command is `header`, and takes
/// its lock: with `resume`, the newest journal named `stem` whose header
/// matches (healing what it holds); otherwise, or when none matches, a new
/// one at the first free number.
pub(super) fn open(
    dir: &Path,
    stem: &str,
    header: &str,
    resume: bool,
    programs: &Programs,
) -> Result<Opened, OpenError> {
    let io = |what: &str, path: &Path, e: io::Error| OpenError::Io(format!("{what} {}: {e}", path.display()));
    let directory = DirectoryLock::take(dir).map_err(|e| io("locking", dir, e))?;
    let first_line = format!("# {header}");
    if resume {
        let mut n = 1;
        let mut newest = None;
        while numbered(dir, stem, n).exists() {
            let path = numbered(dir, stem, n);
            let text = std::fs::read_to_string(&path).map_err(|e| io("reading", &path, e))?;
            if text.lines().next() == Some(first_line.as_str()) {
                newest = Some(path);
            }
            n += 1;
        }
        if let Some(path) = newest {
            let lock = take(&path, &directory)?;
            // Read again: the campaign that held it until now may have
            // written more.
            let text = std::fs::read_to_string(&path).map_err(|e| io("reading", &path, e))?;
            return reopen(path, lock, &text, &first_line, programs);
        }
    }
    let mut n = 1;
    loop {
        let path = numbered(dir, stem, n);
        match OpenOptions::new().append(true).create_new(true).open(&path) {
            Ok(mut file) => {
                let lock = take(&path, &directory)?;
                writeln!(file, "{first_line}").map_err(|e| io("writing", &path, e))?;
                return Ok(Opened {
                    journal: Journal {
                        file,
                        path,
                        _lock: lock,
                    },
                    done: 0,
                    tally: Tally::default(),
                    by_production: ByProduction::default(),
                    remaining: Remaining {
                        holes: Vec::new(),
                        frontier: 0,
                        len: programs.len,
                    },
                    healed: Healed::default(),
                });
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(io("creating", &path, e)),
        }
    }
}

/// Takes the lock of `journal`.
fn take(journal: &Path, directory: &DirectoryLock) -> Result<JournalLock, OpenError> {
    match JournalLock::take(journal, directory) {
        Ok(Ok(lock)) => Ok(lock),
        Ok(Err(held)) => Err(OpenError::Held {
            journal: journal.to_path_buf(),
            held,
        }),
        Err(e) => Err(OpenError::Io(format!("locking {}: {e}", journal.display()))),
    }
}

/// Reads a journal's programs, heals it (see the [module docs](self)),
/// rewriting it when something was dropped, and opens it to append.
fn reopen(
    path: PathBuf,
    lock: JournalLock,
    text: &str,
    first_line: &str,
    programs: &Programs,
) -> Result<Opened, OpenError> {
    let mut healed = Healed::default();
    let whole = text.rfind('\n').map_or(0, |i| i + 1);
    if whole < text.len() {
        healed.torn += 1;
    }
    let mut tally = Tally::default();
    let mut by_production = ByProduction::default();
    let mut recorded = BTreeSet::new();
    // The programs that started without a record, and whether alone.
    let mut started: BTreeMap<u64, bool> = BTreeMap::new();
    let mut kept = format!("{first_line}\n");
    for line in text[..whole].lines().skip(1) {
        let (seed, rest) = line.split_once(' ').unwrap_or((line, ""));
        let index = seed.parse().ok().and_then(|seed| (programs.index_of)(seed));
        let Some(j) = index else {
            healed.unreadable += 1;
            continue;
        };
        if rest.starts_with(CORE) {
            // A finding's core, recorded after the campaign: kept as it is.
        } else if rest == STARTED || rest == STARTED_ALONE {
            if !recorded.contains(&j) {
                started.insert(j, rest == STARTED_ALONE);
            }
        } else {
            match Entry::parse(line) {
                Some(_) if recorded.contains(&j) => {
                    healed.duplicates += 1;
                    continue;
                }
                Some(entry) => {
                    recorded.insert(j);
                    started.remove(&j);
                    tally.add(entry.verdict);
                    by_production.add(entry.features.as_ref(), entry.verdict);
                }
                None => {
                    healed.unreadable += 1;
                    continue;
                }
            }
        }
        kept.push_str(line);
        kept.push('\n');
    }
    let last_recorded = recorded.last().copied();
    let last_started = started.keys().next_back().copied();
    let frontier = last_recorded.max(last_started).map_or(0, |last| last + 1);
    let holes = (0..frontier)
        .filter(|j| !recorded.contains(j))
        .map(|j| match started.get(&j) {
            None => (j, Pending::Fresh),
            Some(false) => (j, Pending::Interrupted),
            Some(true) => (j, Pending::CampaignCrashed),
        })
        .collect();
    let rewrite = healed.dropped() > 0 || whole == 0;
    let reopened = if rewrite {
        // Written beside the journal, then renamed over it: a stop while
        // healing leaves the journal as it was.
        let healing = path.with_extension("journal.healing");
        std::fs::write(&healing, &kept)
            .and_then(|()| File::open(&healing)?.sync_all())
            .and_then(|()| std::fs::rename(&healing, &path))
            .and_then(|()| OpenOptions::new().append(true).open(&path))
    } else {
        OpenOptions::new().append(true).open(&path)
    };
    let file = reopened.map_err(|e| OpenError::Io(format!("reopening {}: {e}", path.display())))?;
    Ok(Opened {
        journal: Journal {
            file,
            path,
            _lock: lock,
        },
        done: recorded.len() as u64,
        tally,
        by_production,
        remaining: Remaining {
            holes,
            frontier,
            len: programs.len,
        },
        healed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Opens `text` as the journal of a campaign of 10 programs, seeds
    /// 100..110, resuming it.
    fn resume(text: &str) -> (Opened, String) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("c.journal"), text).unwrap();
        let programs = Programs {
            len: 10,
            index_of: &|seed| (100..110).contains(&seed).then(|| seed - 100),
        };
        let opened = match open(dir.path(), "c", "x diff", true, &programs) {
            Ok(opened) => opened,
            Err(e) => panic!("{e:?}"),
        };
        let healed = std::fs::read_to_string(dir.path().join("c.journal")).unwrap();
        (opened, healed)
    }

    #[test]
    fn a_resumed_journal_keeps_the_first_record_of_each_seed_and_tells_what_remains() {
        let journal = "# x diff\n100 started\n101 started\n100 agree\n101 differ differ-101\n\
                       102 started\n100 differ differ-100\n103 started\n104 started\n104 agree\n\
                       999 agree\nnonsense\n105 started alone\n106 star";
        let (opened, healed) = resume(journal);
        assert_eq!(opened.done, 3);
        assert_eq!((opened.tally.agree, opened.tally.differ), (2, 1));
        assert_eq!(
            opened.healed,
            Healed {
                duplicates: 1,
                torn: 1,
                unreadable: 2
            }
        );
        assert_eq!(
            opened.healed.to_string(),
            "dropped 4 lines: 1 duplicate record, 1 cut short, 2 not a record of this campaign"
        );
        assert_eq!(
            opened.remaining.holes,
            [
                (2, Pending::Interrupted),
                (3, Pending::Interrupted),
                (5, Pending::CampaignCrashed)
            ]
        );
        assert_eq!((opened.remaining.frontier, opened.remaining.count()), (6, 7));
        assert_eq!(opened.remaining.alone(), 3);
        assert_eq!(opened.remaining.get(3), Some((6, Pending::Fresh)));
        assert_eq!(opened.remaining.get(7), None);
        assert!(!healed.contains("100 differ") && !healed.contains("nonsense") && !healed.contains("106"));
        assert!(
            healed.starts_with("# x diff\n100 started\n101 started\n100 agree\n"),
            "{healed}"
        );
    }

    #[test]
    fn a_resumed_journal_keeps_the_cores_of_its_findings() {
        let journal = "# x diff\n100 started\n100 differ differ-100\n101 started\n101 agree\n\
                       100 core: Add Add.left>Div Div\n102 star";
        let (opened, healed) = resume(journal);
        assert_eq!(
            opened.healed,
            Healed {
                torn: 1,
                ..Healed::default()
            }
        );
        assert_eq!(opened.done, 2);
        assert_eq!(opened.remaining.frontier, 2);
        assert!(healed.ends_with("100 core: Add Add.left>Div Div\n"), "{healed}");
    }

    #[test]
    fn a_whole_journal_is_left_as_it_is() {
        let journal = "# x diff\n100 started\n100 agree\n101 started\n";
        let (opened, healed) = resume(journal);
        assert_eq!(opened.healed.dropped(), 0);
        assert_eq!(healed, journal);
        assert_eq!(opened.remaining.holes, [(1, Pending::Interrupted)]);
    }
}
