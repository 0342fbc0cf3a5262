//! The journal that lets a stopped campaign resume (see the
//! [module docs](super)): a file in the findings directory whose first line
//! is the campaign's command and each further line one program, appended in
//! seed order once the program's finding (if any) is saved.

use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::verdict::{Tally, Verdict};

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
}

impl Journal {
    /// Where the journal is.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Records one program (written through at once, so a stop loses at
    /// most the line being written): `SEED VERDICT [FINDING] [options:
    /// ARGS]`, `options` being the arguments a swarm program drew.
    pub fn record(
        &mut self,
        seed: u64,
        verdict: Verdict,
        finding: Option<&str>,
        options: Option<&str>,
    ) -> io::Result<()> {
        let mut line = format!("{seed} {}", verdict.name());
        if let Some(name) = finding {
            line.push(' ');
            line.push_str(name);
        }
        if let Some(options) = options {
            line.push_str(" options:");
            if !options.is_empty() {
                line.push(' ');
                line.push_str(options);
            }
        }
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
    for (j, line) in text[..whole].lines().skip(1).enumerate() {
        let j = j as u64;
        let bad = |why: String| format!("{}: line {}: {why}", path.display(), j + 2);
        let mut words = line.split(' ');
        let seed = words.next().and_then(|w| w.parse::<u64>().ok());
        let verdict = words.next().map(str::parse::<Verdict>);
        match (seed, verdict) {
            _ if j >= len => return Err(bad("more programs than the campaign has".into())),
            (Some(seed), Some(Ok(verdict))) if seed == seed_of(j) => tally.add(verdict),
            (Some(seed), Some(Ok(_))) => return Err(bad(format!("seed {seed}, expected {}", seed_of(j)))),
            _ => return Err(bad(format!("`{line}` is not `SEED VERDICT [FINDING]`"))),
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
    })
}
