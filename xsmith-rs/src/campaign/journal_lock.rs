//! One writer per journal: an advisory lock (`flock`) on `<journal>.lock`,
//! held for the campaign's life, which names the process and host that
//! hold it. Choosing a journal (the newest of a campaign, or a new one) and
//! taking its lock happen under a second lock, on the findings directory's
//! `.journals.lock`, held only for that moment, so that two campaigns
//! starting at once never both take one journal. A campaign that ends
//! removes its journal's lock file (under the directory's lock, so that no
//! other campaign has it open then) when it can do so at once, and leaves
//! it otherwise, as a killed one does: the next campaign takes it over. The locks are `flock`s, which NFS carries between
//! hosts.

use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

use rustix::fs::{flock, FlockOperation};

/// The lock that serialises choosing a journal in one findings directory.
pub(super) struct DirectoryLock {
    _file: File,
}

impl DirectoryLock {
    /// Waits for, then takes, the lock of findings directory `dir`.
    pub fn take(dir: &Path) -> io::Result<DirectoryLock> {
        let file = lock_file(&dir.join(".journals.lock"))?;
        flock(&file, FlockOperation::LockExclusive)?;
        Ok(DirectoryLock { _file: file })
    }
}

/// Who holds a journal's lock, as its lock file says.
#[derive(Debug)]
pub(super) struct Held {
    /// The lock file.
    pub lock: PathBuf,
    /// `process 1234 on host node7`, or what else the file holds.
    pub holder: String,
}

/// The held lock of one journal.
pub(super) struct JournalLock {
    /// The open lock file: the lock lasts as long as it is open.
    _file: File,
    path: PathBuf,
    dir: PathBuf,
}

impl JournalLock {
    /// Takes the lock of `journal` (with the directory's lock held):
    /// `Ok(Err(held))` when another process holds it.
    pub fn take(journal: &Path, _directory: &DirectoryLock) -> io::Result<Result<JournalLock, Held>> {
        let mut name = journal.file_name().unwrap_or_default().to_os_string();
        name.push(".lock");
        let path = journal.with_file_name(name);
        let mut file = lock_file(&path)?;
        match flock(&file, FlockOperation::NonBlockingLockExclusive) {
            Ok(()) => {}
            Err(rustix::io::Errno::WOULDBLOCK) => {
                let mut holder = String::new();
                file.read_to_string(&mut holder)?;
                let holder = match holder.trim() {
                    "" => "a process that has not yet said who it is".to_string(),
                    text => text.to_string(),
                };
                return Ok(Err(Held { lock: path, holder }));
            }
            Err(e) => return Err(e.into()),
        }
        let host = rustix::system::uname().nodename().to_string_lossy().into_owned();
        file.set_len(0)?;
        file.rewind()?;
        writeln!(file, "process {} on host {host}", std::process::id())?;
        Ok(Ok(JournalLock {
            _file: file,
            path,
            dir: journal.parent().map(Path::to_path_buf).unwrap_or_default(),
        }))
    }
}

impl Drop for JournalLock {
    /// Removes the lock file when the directory's lock is free to take at
    /// once (no campaign is choosing a journal then, so none can have the
    /// file open), then lets go.
    fn drop(&mut self) {
        if let Ok(file) = lock_file(&self.dir.join(".journals.lock")) {
            if flock(&file, FlockOperation::NonBlockingLockExclusive).is_ok() {
                let _ = std::fs::remove_file(&self.path);
            }
        }
    }
}

fn lock_file(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_journal_names_its_holder_and_is_free_again_once_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let journal = dir.path().join("campaign-0-9.journal");
        let directory = DirectoryLock::take(dir.path()).unwrap();
        let first = JournalLock::take(&journal, &directory).unwrap().unwrap();
        // A second open file description is a second holder, as another
        // process would be.
        let Err(held) = JournalLock::take(&journal, &directory).unwrap() else {
            panic!("the lock is held")
        };
        assert!(held.lock.ends_with("campaign-0-9.journal.lock"));
        assert!(
            held.holder
                .starts_with(&format!("process {} on host ", std::process::id())),
            "{}",
            held.holder
        );
        drop(directory);
        drop(first);
        assert!(!dir.path().join("campaign-0-9.journal.lock").exists());
        let directory = DirectoryLock::take(dir.path()).unwrap();
        assert!(JournalLock::take(&journal, &directory).unwrap().is_ok());
    }
}
