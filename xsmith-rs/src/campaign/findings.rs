//! Saving a finding: one new directory per program that did not agree,
//! never overwriting an earlier one (see the layout in the
//! [module docs](super)).

use std::io;
use std::path::{Path, PathBuf};

use super::verdict::Verdict;
use crate::exec::{Implementation, Run};

/// What a finding records.
pub(super) struct Finding<'a> {
    pub verdict: Verdict,
    pub seed: u64,
    /// The program text, or why it could not be generated.
    pub program: Result<&'a str, &'a str>,
    /// The language's file extension.
    pub extension: &'a str,
    /// The command that regenerates the program.
    pub command: &'a str,
    /// The command that reruns the whole campaign.
    pub campaign: &'a str,
    pub runs: &'a [(Implementation, Run)],
    /// The finding's signature (the file `signature`).
    pub signature: &'a str,
}

/// Creates `DIR/<verdict>-<seed>` (or the first free `-2`, `-3`, ...
/// suffix: the directory is created atomically, so two runs, even running
/// at once, never share one) and writes the finding into it.
pub(super) fn save(findings: &Path, finding: &Finding) -> io::Result<PathBuf> {
    let dir = create_unique_dir(findings, &format!("{}-{}", finding.verdict.name(), finding.seed))?;
    write(&dir, finding)?;
    Ok(dir)
}

/// Writes a finding into `dir`, a directory made for it.
pub(super) fn write(dir: &Path, finding: &Finding) -> io::Result<()> {
    match finding.program {
        Ok(text) => std::fs::write(dir.join(format!("program.{}", finding.extension)), text)?,
        Err(error) => std::fs::write(dir.join("generation-error"), format!("{error}\n"))?,
    }
    std::fs::write(dir.join("command"), format!("{}\n", finding.command))?;
    std::fs::write(dir.join("campaign"), format!("{}\n", finding.campaign))?;
    for (implementation, run) in finding.runs {
        let name = implementation.name();
        std::fs::write(dir.join(format!("{name}.stdout")), &run.stdout)?;
        std::fs::write(dir.join(format!("{name}.stderr")), &run.stderr)?;
        std::fs::write(
            dir.join(format!("{name}.status")),
            format!("{}\n{}\n", run.status, implementation.describe()),
        )?;
    }
    std::fs::write(dir.join("signature"), format!("{}\n", finding.signature))?;
    Ok(())
}

/// Creates `parent/stem`, or `parent/stem-2`, `parent/stem-3`, ... whichever
/// is free first.
pub(super) fn create_unique_dir(parent: &Path, stem: &str) -> io::Result<PathBuf> {
    let mut n = 1u64;
    loop {
        let name = if n == 1 {
            stem.to_string()
        } else {
            format!("{stem}-{n}")
        };
        let dir = parent.join(name);
        match std::fs::create_dir(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => n += 1,
            Err(e) => return Err(e),
        }
    }
}
