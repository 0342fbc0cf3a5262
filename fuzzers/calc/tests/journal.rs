//! A campaign's journal under stress, through the real `xsmith-calc`
//! binary: two `--resume` of one campaign at once (one runs, the other
//! exits 2 naming it), a journal with duplicate records and a torn last
//! line (healed, and the campaign completed), and a campaign killed with
//! SIGKILL at ten moments, each followed by `--resume` (every seed
//! journaled exactly once, every finding saved).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use xsmith::campaign::{Entry, FINDINGS_PER_SIGNATURE};
use xsmith::Verdict;

const CALC: &str = env!("CARGO_BIN_EXE_xsmith-calc");

/// An implementation that prints the program, and one that prints `bad`
/// instead when the program divides a sum: they differ on those programs.
const IMPLEMENTATIONS: [&str; 4] = [
    "--impl",
    "cat=cat {}",
    "--impl",
    r#"planted=sh -c 'if grep -q "safe_div((" "$0"; then echo bad; else cat "$0"; fi' {}"#,
];

/// The `diff` command line of `count` programs from seed 0 with findings
/// in `findings`, and `extra` options.
fn diff_command(findings: &Path, count: &str, extra: &[&str]) -> Command {
    let mut command = Command::new(CALC);
    command
        .args(["diff", "--seed", "0", "--count", count, "--findings"])
        .arg(findings)
        .args(IMPLEMENTATIONS)
        .args(extra);
    command
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The summary line of a `diff`'s output.
fn summary(output: &Output) -> String {
    let stdout = text(&output.stdout);
    let line = stdout.lines().rev().find(|line| line.starts_with("programs "));
    line.unwrap_or_default().to_string()
}

/// Every line of a journal after its header.
fn journal_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines().skip(1).map(str::to_string).collect()
}

/// The journal's program records, by seed; panics on a seed recorded twice.
fn records(path: &Path) -> BTreeMap<u64, Entry> {
    let mut records = BTreeMap::new();
    for line in journal_lines(path) {
        if let Some(entry) = Entry::parse(&line) {
            let seed = entry.seed;
            assert!(records.insert(seed, entry).is_none(), "seed {seed} journaled twice");
        }
    }
    records
}

/// The seeds among `0..count` whose programs the planted implementation
/// tells apart.
fn planted_seeds(count: u64) -> BTreeSet<u64> {
    let fuzzer = xsmith_calc::FUZZER;
    let spec = (fuzzer.spec)().unwrap();
    let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    (0..count)
        .filter(|&seed| {
            let text = fuzzer
                .program(&spec, &mut generator, xsmith::Source::Seed(seed))
                .unwrap()
                .text;
            text.contains("safe_div((")
        })
        .collect()
}

/// Checks a finished journal of seeds `0..count`: each exactly once, each
/// with the verdict its program gives (or `campaign-crashed`, which a kill
/// during a lone rerun makes: at most `kills` of those), and every finding
/// saved: each finding a record names is a directory with the program and
/// the record's signature, and the first [`FINDINGS_PER_SIGNATURE`] records
/// of each signature (in seed order: a campaign saves that many of each,
/// and a resumed one that many more) all name one.
fn check_whole(findings: &Path, journal: &Path, count: u64, kills: usize) {
    let records = records(journal);
    assert_eq!(
        records.keys().copied().collect::<Vec<_>>(),
        (0..count).collect::<Vec<_>>()
    );
    let planted = planted_seeds(count);
    let mut campaign_crashed = 0;
    let mut of_signature: BTreeMap<&str, u64> = BTreeMap::new();
    for (seed, entry) in &records {
        let expected = match planted.contains(seed) {
            true => Verdict::Differ,
            false => Verdict::Agree,
        };
        match entry.verdict {
            Verdict::CampaignCrashed => campaign_crashed += 1,
            verdict => assert_eq!(verdict, expected, "seed {seed}"),
        }
        let Some(signature) = entry.signature.as_deref() else {
            assert_eq!(entry.verdict, Verdict::Agree, "seed {seed} has no signature");
            assert!(entry.finding.is_none(), "seed {seed} agreed");
            continue;
        };
        let nth = of_signature.entry(signature).or_default();
        *nth += 1;
        match &entry.finding {
            Some(finding) => {
                let dir = findings.join(finding);
                assert!(dir.join("program.calc").is_file(), "seed {seed}: {}", dir.display());
                let saved = std::fs::read_to_string(dir.join("signature")).unwrap_or_default();
                assert_eq!(saved.trim_end(), signature, "seed {seed}: {}", dir.display());
            }
            None => assert!(
                *nth > FINDINGS_PER_SIGNATURE,
                "seed {seed} is finding {nth} of `{signature}` and is not saved"
            ),
        }
    }
    assert!(campaign_crashed <= kills, "{campaign_crashed} campaign-crashed");
    assert!(
        !planted.is_empty(),
        "the planted implementation differs on some program"
    );
}

/// This machine's host name, as the kernel tells it.
fn host_name() -> String {
    let name = std::fs::read_to_string("/proc/sys/kernel/hostname").unwrap();
    name.trim_end().to_string()
}

#[test]
fn two_resumes_at_once_one_runs_the_other_names_it_and_exits_2() {
    let dir = tempfile::Builder::new()
        .prefix("xsmith-calc-journal-two-")
        .tempdir()
        .unwrap();
    let findings = dir.path().join("findings");
    // Slow enough that both are alive at once.
    let slow = [
        "--jobs",
        "1",
        "--impl",
        r#"slow=sh -c "sleep 0.05; cat $0" {}"#,
        "--resume",
    ];
    let start = || {
        diff_command(&findings, "40", &slow)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let (first, second) = (start(), start());
    let pids = [first.id(), second.id()];
    let outputs = [first.wait_with_output().unwrap(), second.wait_with_output().unwrap()];
    let refused: Vec<usize> = (0..2).filter(|&i| outputs[i].status.code() == Some(2)).collect();
    assert_eq!(refused.len(), 1, "exactly one is refused: {outputs:?}");
    let (refused, ran) = (refused[0], 1 - refused[0]);
    let stderr = text(&outputs[refused].stderr);
    assert!(
        stderr.contains("is being written by another campaign")
            && stderr.contains(&format!("process {} on host {}", pids[ran], host_name())),
        "{stderr}"
    );
    assert!(summary(&outputs[ran]).starts_with("programs 40, "), "{outputs:?}");
    check_whole(&findings, &findings.join("campaign-0-40.journal"), 40, 0);
    assert!(!findings.join("campaign-0-40-2.journal").exists());
    assert!(
        !findings.join("campaign-0-40.journal.lock").exists(),
        "the lock file goes with the campaign"
    );
}

#[test]
fn a_journal_with_duplicates_and_a_torn_line_is_healed_and_completed() {
    let dir = tempfile::Builder::new()
        .prefix("xsmith-calc-journal-heal-")
        .tempdir()
        .unwrap();
    let findings = dir.path().join("findings");
    let finished = diff_command(&findings, "30", &[]).output().unwrap();
    assert!(summary(&finished).starts_with("programs 30, "), "{finished:?}");
    let journal = findings.join("campaign-0-30.journal");
    // As two campaigns writing at once, then a stop, leave it: the records
    // of seeds 0..20, those of 5..15 again (with other findings), and a
    // line cut short.
    let written = std::fs::read_to_string(&journal).unwrap();
    let mut lines = written.lines();
    let header = lines.next().unwrap();
    let kept: Vec<&str> = lines.filter(|l| Entry::parse(l).is_some_and(|e| e.seed < 20)).collect();
    let again: Vec<String> = kept
        .iter()
        .filter(|l| Entry::parse(l).is_some_and(|e| (5..15).contains(&e.seed)))
        .map(|l| format!("{l}-2"))
        .collect();
    let doubled = format!("{header}\n{}\n{}\n21 agr", kept.join("\n"), again.join("\n"));
    std::fs::write(&journal, doubled).unwrap();

    let resumed = diff_command(&findings, "30", &["--resume"]).output().unwrap();
    let stdout = text(&resumed.stdout);
    assert!(stdout.contains("(resumed after 20 of 30 programs)"), "{stdout}");
    assert!(
        stdout.contains("healed the journal: dropped 11 lines: 10 duplicate records, 1 cut short"),
        "{stdout}"
    );
    assert!(summary(&resumed).starts_with("programs 30, "), "{stdout}");
    check_whole(&findings, &journal, 30, 0);
    // The first record of each seed is the one kept.
    assert!(journal_lines(&journal).iter().all(|l| !l.ends_with("-2")));
}

/// A small deterministic source of kill moments.
struct Moments(u64);

impl Moments {
    /// The next moment, between 50 and 1,000 ms.
    fn next(&mut self) -> Duration {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        Duration::from_millis(50 + (self.0 >> 33) % 950)
    }
}

#[test]
fn a_campaign_killed_at_ten_moments_journals_every_seed_once_and_saves_every_finding() {
    let dir = tempfile::Builder::new()
        .prefix("xsmith-calc-journal-kill-")
        .tempdir()
        .unwrap();
    let findings = dir.path().join("findings");
    let journal = findings.join("campaign-0-300.journal");
    // About 15 s of work in all: every kill lands mid-campaign.
    let args = [
        "--jobs",
        "2",
        "--impl",
        r#"slow=sh -c "sleep 0.05; cat $0" {}"#,
        "--resume",
    ];
    let mut moments = Moments(33);
    let mut progress = Vec::new();
    for _ in 0..10 {
        let mut running = diff_command(&findings, "300", &args)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(moments.next());
        running.kill().unwrap();
        running.wait().unwrap();
        progress.push(records(&journal).len());
    }
    assert!(
        progress.windows(2).any(|w| w[0] < w[1]) && progress[9] < 300,
        "the campaign moved between kills, and was not done: {progress:?}"
    );
    let finished = diff_command(&findings, "300", &args).output().unwrap();
    assert!(summary(&finished).starts_with("programs 300, "), "{finished:?}");
    check_whole(&findings, &journal, 300, 10);
}

/// A small tmpfs mounted for a test, unmounted when dropped.
struct Mounted(std::path::PathBuf);

impl Mounted {
    /// Mounts a tmpfs of `size` (`mount -o size=`) at `dir`: the test
    /// needs root (as CI runs it) for that.
    fn tmpfs(dir: &Path, size: &str) -> Mounted {
        std::fs::create_dir_all(dir).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(dir)
            .output()
            .expect("mount (util-linux) runs");
        assert!(
            mounted.status.success(),
            "this test mounts a {size} tmpfs to fill a disk, which needs root: {}",
            text(&mounted.stderr)
        );
        Mounted(dir.to_path_buf())
    }

    /// Gives the filesystem `size`.
    fn resize(&self, size: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Mounted {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

#[test]
fn a_full_disk_is_a_clear_error_and_the_campaign_resumes_once_there_is_space() {
    let dir = tempfile::Builder::new()
        .prefix("xsmith-calc-journal-full-")
        .tempdir()
        .unwrap();
    let disk = Mounted::tmpfs(&dir.path().join("disk"), "64k");
    let findings = dir.path().join("disk").join("findings");
    let full = diff_command(&findings, "200", &["--resume"]).output().unwrap();
    assert_eq!(full.status.code(), Some(1), "{full:?}");
    let stderr = text(&full.stderr);
    assert!(
        stderr.starts_with("xsmith-calc: error: ") && stderr.contains("No space left on device"),
        "{stderr}"
    );
    disk.resize("32m");
    let resumed = diff_command(&findings, "200", &["--resume"]).output().unwrap();
    assert!(summary(&resumed).starts_with("programs 200, "), "{resumed:?}");
    check_whole(&findings, &findings.join("campaign-0-200.journal"), 200, 0);
}
