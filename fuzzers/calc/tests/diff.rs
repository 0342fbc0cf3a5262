//! `xsmith-calc diff`, through the real binary and real processes: python3
//! and node for agreement, small shell commands for every other verdict.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use xsmith::campaign::Entry;

const CALC: &str = env!("CARGO_BIN_EXE_xsmith-calc");

fn calc(args: &[&str]) -> Output {
    Command::new(CALC).args(args).output().expect("xsmith-calc runs")
}

/// Runs `diff` with `args` and findings in `findings`.
fn diff(findings: &Path, args: &[&str]) -> Output {
    let mut all = vec!["diff", "--findings", findings.to_str().unwrap()];
    all.extend_from_slice(args);
    calc(&all)
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The summary line (`programs N, ...`; the signatures follow it when
/// something did not agree).
fn summary(output: &Output) -> String {
    let stdout = text(&output.stdout);
    let line = stdout.lines().rev().find(|line| line.starts_with("programs "));
    line.unwrap_or_default().to_string()
}

fn scratch(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("xsmith-calc-diff-{name}-"))
        .tempdir()
        .unwrap()
}

/// The names of the finding directories in `dir`, sorted.
fn findings_in(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().into_string().unwrap())
        .collect()
}

/// The program lines of journal `path`, each as `SEED VERDICT [FINDING]`
/// and the drawn options (`signature:` and `features:` are checked by
/// `findings_are_listed_with_the_features_of_their_programs`); a line cut
/// short by a stop stays as it is. The lines that say a program started
/// (`SEED started`) are left out.
fn journal_lines(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .skip(1)
        .filter(|line| !is_start(line))
        .map(|line| match Entry::parse(line) {
            Some(entry) => {
                let mut head = format!("{} {}", entry.seed, entry.verdict.name());
                if let Some(finding) = &entry.finding {
                    head = format!("{head} {finding}");
                }
                match &entry.options {
                    Some(options) if options.is_empty() => format!("{head} options:"),
                    Some(options) => format!("{head} options: {options}"),
                    None => head,
                }
            }
            None => line.to_string(),
        })
        .collect()
}

/// Whether a journal line says a program started (`SEED started`, `SEED
/// started alone`).
fn is_start(line: &str) -> bool {
    line.ends_with(" started") || line.ends_with(" started alone")
}

const ECHO_0: &str = r#"zero=sh -c "echo 0" {}"#;

#[test]
fn python3_and_node_agree_on_every_program() {
    let dir = scratch("agree");
    let output = diff(dir.path(), &["--count", "40", "--seed", "100"]);
    assert_eq!(
        summary(&output),
        "programs 40, agree 40, differ 0, rejected 0, crashed 0, timeout 0",
        "stdout: {}\nstderr: {}",
        text(&output.stdout),
        text(&output.stderr)
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(findings_in(dir.path()).is_empty(), "agreement saves nothing");
    let journal = dir.path().join("campaign-100-40.journal");
    let lines = journal_lines(&journal);
    assert_eq!(lines.len(), 40);
    assert_eq!(lines[0], "100 agree");
    assert_eq!(lines[39], "139 agree");
}

#[test]
fn a_difference_is_saved_with_everything_that_regenerates_it() {
    let dir = scratch("differ");
    let args = [
        "--count",
        "3",
        "--seed",
        "20",
        "--max-depth",
        "3",
        "--impl",
        "cat=cat {}",
        "--impl",
        ECHO_0,
    ];
    let output = diff(dir.path(), &args);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        summary(&output),
        "programs 3, agree 0, differ 3, rejected 0, crashed 0, timeout 0"
    );
    assert!(text(&output.stdout).contains(&format!("differ seed 21: {}", dir.path().join("differ-21").display())));
    let finding = dir.path().join("differ-21");
    let program = std::fs::read_to_string(finding.join("program.calc")).unwrap();
    let command = std::fs::read_to_string(finding.join("command")).unwrap();
    assert_eq!(command, "xsmith-calc --seed 21 --max-depth 3\n");
    // The saved program is byte for byte what the command prints.
    assert_eq!(program.as_bytes(), calc(&["--seed", "21", "--max-depth", "3"]).stdout);
    assert_eq!(std::fs::read_to_string(finding.join("cat.stdout")).unwrap(), program);
    assert_eq!(std::fs::read_to_string(finding.join("zero.stdout")).unwrap(), "0\n");
    let status = std::fs::read_to_string(finding.join("zero.status")).unwrap();
    assert_eq!(status, "exit status 0\nzero=sh -c \"echo 0\" {}\n");
    let campaign = std::fs::read_to_string(finding.join("campaign")).unwrap();
    assert!(
        campaign.starts_with("xsmith-calc diff --seed 20 --count 3 --max-depth 3 "),
        "{campaign}"
    );

    // A second run of the same campaign keeps the first run's findings.
    std::fs::write(finding.join("zero.stdout"), "first run").unwrap();
    let again = diff(dir.path(), &args);
    assert_eq!(again.status.code(), Some(1));
    let names = findings_in(dir.path());
    let expected = [
        "differ-20",
        "differ-20-2",
        "differ-21",
        "differ-21-2",
        "differ-22",
        "differ-22-2",
    ];
    assert_eq!(names, expected.iter().map(|s| s.to_string()).collect());
    assert_eq!(
        std::fs::read_to_string(finding.join("zero.stdout")).unwrap(),
        "first run"
    );
    assert!(dir.path().join("campaign-20-3.journal").is_file());
    assert!(dir.path().join("campaign-20-3-2.journal").is_file());
}

/// A program the fuzzer cannot generate gets its own verdict, not
/// `rejected` (which blames an implementation), is saved with its error and
/// the command that regenerates it, and ends nothing: the others still run.
#[test]
fn a_generation_failure_is_its_own_verdict_and_ends_nothing() {
    let dir = scratch("generation-failed");
    let args = [
        "--count",
        "8",
        "--seed",
        "0",
        "--max-nodes",
        "4",
        "--impl",
        "cat=cat {}",
        "--impl",
        "also=cat -- {}",
    ];
    let output = diff(dir.path(), &args);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        summary(&output),
        "programs 8, agree 4, differ 0, rejected 0, crashed 0, timeout 0, generation-failed 4"
    );
    let expected = [
        "generation-failed-0",
        "generation-failed-2",
        "generation-failed-5",
        "generation-failed-6",
    ];
    assert_eq!(
        findings_in(dir.path()),
        expected.iter().map(|s| s.to_string()).collect()
    );
    let finding = dir.path().join("generation-failed-5");
    let error = std::fs::read_to_string(finding.join("generation-error")).unwrap();
    assert!(error.contains("node budget of 4 nodes"), "{error}");
    let command = std::fs::read_to_string(finding.join("command")).unwrap();
    assert_eq!(command, "xsmith-calc --seed 5 --max-nodes 4\n");
    let lines = journal_lines(&dir.path().join("campaign-0-8.journal"));
    assert_eq!(lines[5], "5 generation-failed generation-failed-5");
    assert_eq!(lines[7], "7 agree");
}

/// A `--swarm` campaign records each program's drawn options in its
/// journal line and its finding's command, which regenerates the program.
/// (Five programs: all differ alike, and only five findings of one
/// signature are saved in full.)
#[test]
fn a_swarm_campaign_records_each_programs_configuration() {
    let dir = scratch("swarm");
    let args = [
        "--count",
        "5",
        "--seed",
        "40",
        "--swarm",
        "--impl",
        "cat=cat {}",
        "--impl",
        ECHO_0,
    ];
    let output = diff(dir.path(), &args);
    assert_eq!(
        summary(&output),
        "programs 5, agree 0, differ 5, rejected 0, crashed 0, timeout 0"
    );
    let journal = std::fs::read_to_string(dir.path().join("campaign-40-5.journal")).unwrap();
    assert!(
        journal.starts_with("# xsmith-calc diff --seed 40 --count 5 --swarm --timeout"),
        "{journal}"
    );
    for (i, line) in journal_lines(&dir.path().join("campaign-40-5.journal"))
        .iter()
        .enumerate()
    {
        let seed = 40 + i;
        let (head, drawn) = line.split_once(" options:").expect("the drawn options");
        assert_eq!(head, format!("{seed} differ differ-{seed}"));
        let finding = dir.path().join(format!("differ-{seed}"));
        let command = std::fs::read_to_string(finding.join("command")).unwrap();
        assert_eq!(command, format!("xsmith-calc --seed {seed}{drawn}\n"));
        let words: Vec<&str> = command.split_whitespace().skip(1).collect();
        let program = std::fs::read(finding.join("program.calc")).unwrap();
        assert_eq!(program, calc(&words).stdout, "{command}");
    }
}

#[test]
fn rejections_and_crashes_are_saved() {
    let dir = scratch("reject-crash");
    let output = diff(
        dir.path(),
        &[
            "--count",
            "2",
            "--seed",
            "7",
            "--impl",
            "cat=cat {}",
            "--impl",
            "no=false {}",
        ],
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        summary(&output),
        "programs 2, agree 0, differ 0, rejected 2, crashed 0, timeout 0"
    );
    let status = std::fs::read_to_string(dir.path().join("rejected-7").join("no.status")).unwrap();
    assert!(status.starts_with("exit status 1\n"), "{status}");

    let crash = r#"segv=sh -c "kill -SEGV \$\$" {}"#;
    let output = diff(
        dir.path(),
        &["--count", "2", "--seed", "7", "--impl", "no=false {}", "--impl", crash],
    );
    assert_eq!(
        summary(&output),
        "programs 2, agree 0, differ 0, rejected 0, crashed 2, timeout 0",
        "a crash outranks a rejection"
    );
    let status = std::fs::read_to_string(dir.path().join("crashed-8").join("segv.status")).unwrap();
    assert!(status.starts_with("killed by signal 11 (SIGSEGV)\n"), "{status}");
    assert!(dir.path().join("rejected-7").join("program.calc").is_file());
}

#[test]
fn a_timeout_kills_the_whole_process_group() {
    let dir = scratch("timeout");
    let marker = dir.path().join("marker");
    // The background subshell would touch the marker after a second, unless
    // it is killed with the rest of the group at the timeout.
    let slow = format!("slow=sh -c \"(sleep 1; touch {}) & sleep 5\" {{}}", marker.display());
    let started = Instant::now();
    let output = diff(
        dir.path(),
        &[
            "--count",
            "2",
            "--seed",
            "1",
            "--timeout",
            "0.5",
            "--impl",
            "cat=cat {}",
            "--impl",
            &slow,
        ],
    );
    assert!(started.elapsed() < Duration::from_secs(4), "{:?}", started.elapsed());
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        summary(&output),
        "programs 2, agree 0, differ 0, rejected 0, crashed 0, timeout 2"
    );
    let status = std::fs::read_to_string(dir.path().join("timeout-1").join("slow.status")).unwrap();
    assert!(status.starts_with("timed out after 0.5 s\n"), "{status}");
    std::thread::sleep(Duration::from_millis(1500));
    assert!(!marker.exists(), "a process of the timed-out run lived on");
}

#[test]
fn a_missing_implementation_is_named_with_its_package() {
    let dir = scratch("missing");
    let empty_path = dir.path().join("bin");
    std::fs::create_dir(&empty_path).unwrap();
    let output = Command::new(CALC)
        .args(["diff", "--count", "1", "--findings"])
        .arg(dir.path().join("f"))
        .env("PATH", &empty_path)
        .output()
        .unwrap();
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("`python3` is not installed: install the Debian package `python3`"),
        "{stderr}"
    );
    assert!(!dir.path().join("f").exists(), "nothing ran");

    let output = diff(
        &dir.path().join("f"),
        &["--count", "1", "--impl", "x=no-such-command-xyz {}"],
    );
    let stderr = text(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("`no-such-command-xyz` is not installed"), "{stderr}");
}

#[test]
fn bad_diff_options_exit_2_and_name_themselves() {
    let dir = scratch("bad");
    for (args, named) in [
        (vec!["--count", "1", "--impl", "python3 {}"], "--impl `python3 {}`"),
        (vec!["--count", "1", "--impl", "py=python3"], "no `{}`"),
        (vec!["--count", "1", "--impl", "a/b=cat {}"], "--impl `a/b=cat {}`"),
        (vec!["--count", "1", "--impl", "a=cat \"{}"], "unclosed quote"),
        (
            vec!["--count", "1", "--impl", "a=cat {}", "--impl", "a=cat {}"],
            "two implementations are named `a`",
        ),
        (vec!["--count", "1", "--shard", "0/2"], "--shard"),
        (vec!["--count", "1", "--shard", "3/2"], "3/2"),
        (vec!["--count", "1", "--jobs", "0"], "--jobs"),
        (vec!["--count", "1", "--timeout=0"], "--timeout"),
        (vec!["--count", "1", "--without", "Multiply"], "Multiply"),
        (vec!["--count", "1", "--resume"], "--seed"),
        (vec!["--seed", "1"], "--count"),
    ] {
        let output = diff(dir.path(), &args);
        let stderr = text(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?} should name {named}: {stderr}");
    }
}

#[test]
fn shards_split_the_seeds_exactly() {
    let dir = scratch("shard");
    let mut summaries = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let output = diff(
            dir.path(),
            &[
                "--count",
                "10",
                "--seed",
                "50",
                "--shard",
                shard,
                "--impl",
                "cat=cat {}",
                "--impl",
                ECHO_0,
            ],
        );
        summaries.push(summary(&output));
    }
    assert_eq!(
        summaries,
        [
            "programs 4, agree 0, differ 4, rejected 0, crashed 0, timeout 0",
            "programs 3, agree 0, differ 3, rejected 0, crashed 0, timeout 0",
            "programs 3, agree 0, differ 3, rejected 0, crashed 0, timeout 0",
        ]
    );
    let expected: BTreeSet<String> = (50..60).map(|seed| format!("differ-{seed}")).collect();
    assert_eq!(findings_in(dir.path()), expected, "every seed exactly once");
    let lines = journal_lines(&dir.path().join("campaign-50-10-shard-2-of-3.journal"));
    assert_eq!(
        lines,
        ["51 differ differ-51", "54 differ differ-54", "57 differ differ-57"]
    );
}

#[test]
fn a_stopped_campaign_resumes_where_it_stopped() {
    let dir = scratch("resume");
    let findings = dir.path().join("findings");
    let slow = r#"slow=sh -c "sleep 0.2; echo 0" {}"#;
    let args = [
        "--count",
        "8",
        "--seed",
        "30",
        "--jobs",
        "1",
        "--impl",
        "cat=cat {}",
        "--impl",
        slow,
    ];
    let mut all = vec!["diff", "--findings", findings.to_str().unwrap()];
    all.extend_from_slice(&args);
    let journal = findings.join("campaign-30-8.journal");
    // Stop a real campaign (SIGKILL, as a batch scheduler would) once it has
    // done a few programs.
    let mut running = Command::new(CALC)
        .args(&all)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while journal_done(&journal) < 3 {
        assert!(Instant::now() < deadline, "the campaign made no progress");
        std::thread::sleep(Duration::from_millis(20));
    }
    running.kill().unwrap();
    running.wait().unwrap();
    let before = journal_lines(&journal).len();
    assert!((3..8).contains(&before), "{before}");

    let mut resume = args.to_vec();
    resume.push("--resume");
    let output = diff(&findings, &resume);
    let stdout = text(&output.stdout);
    assert!(
        stdout.contains(&format!("(resumed after {before} of 8 programs)")),
        "{stdout}"
    );
    assert_eq!(
        summary(&output),
        "programs 8, agree 0, differ 8, rejected 0, crashed 0, timeout 0"
    );
    let seeds: Vec<String> = journal_lines(&journal)
        .iter()
        .map(|l| l.split(' ').next().unwrap().to_string())
        .collect();
    assert_eq!(seeds, (30..38).map(|s| s.to_string()).collect::<Vec<_>>());
    assert!(
        !findings.join("campaign-30-8-2.journal").exists(),
        "resumed, not restarted"
    );
    for seed in 30..38 {
        assert!(findings.join(format!("differ-{seed}")).is_dir(), "seed {seed}");
    }

    // Resuming a finished campaign runs nothing and reports it whole.
    let output = diff(&findings, &resume);
    assert_eq!(
        summary(&output),
        "programs 8, agree 0, differ 8, rejected 0, crashed 0, timeout 0"
    );
    assert_eq!(journal_lines(&journal).len(), 8);

    // A cut last line is dropped and its program run again; a campaign with
    // other options is another campaign, with a journal of its own.
    let whole = std::fs::read_to_string(&journal).unwrap();
    let cut: Vec<&str> = whole.lines().filter(|l| !is_start(l)).take(3).collect();
    std::fs::write(&journal, format!("{}\n32 dif", cut.join("\n"))).unwrap();
    let output = diff(&findings, &resume);
    let stdout = text(&output.stdout);
    assert!(stdout.contains("(resumed after 2 of 8 programs)"), "{stdout}");
    assert!(
        stdout.contains("healed the journal: dropped 1 line: 1 cut short"),
        "{stdout}"
    );
    assert_eq!(journal_lines(&journal).len(), 8);
    assert_eq!(journal_lines(&journal)[2], "32 differ differ-32-2");
    let mut other = resume.clone();
    other.extend(["--max-depth", "2"]);
    let output = diff(&findings, &other);
    assert!(!text(&output.stdout).contains("resumed"));
    assert!(findings.join("campaign-30-8-2.journal").is_file());
}

/// How many programs a journal records (0 before it exists).
fn journal_done(path: &PathBuf) -> usize {
    std::fs::read_to_string(path)
        .map(|t| t.lines().skip(1).filter(|l| Entry::parse(l).is_some()).count())
        .unwrap_or(0)
}

/// The `diff` arguments of `count` programs from seed 1 on two
/// implementations, `ok` and a planted one that prints differently on
/// programs that divide a sum (`safe_div((`: a sum as a division's left
/// operand).
fn planted_campaign(count: &'static str) -> Vec<&'static str> {
    let planted = r#"planted=sh -c 'if grep -q "safe_div((" "$0"; then echo bad; else echo ok; fi' {}"#;
    vec![
        "--count",
        count,
        "--seed",
        "1",
        "--impl",
        "ok=sh -c 'echo ok' {}",
        "--impl",
        planted,
    ]
}

/// With the planted implementation, `diff` groups its findings by
/// signature, keeps only the first five in full, and with the signature in
/// a known-bugs file exits with status 0.
#[test]
fn findings_are_grouped_by_signature_and_known_bugs_do_not_fail() {
    let dir = scratch("signatures");
    let args = planted_campaign("40");
    let output = diff(dir.path(), &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let stdout = text(&output.stdout);
    assert!(stdout.contains("\nsignatures 1 (new 1, known 0)\n"), "{stdout}");
    assert!(stdout.contains(" differ: ok | planted (new)"), "{stdout}");
    assert!(
        stdout.contains(": not saved (5 findings of `differ: ok | planted` are)"),
        "{stdout}"
    );
    let saved = findings_in(dir.path())
        .into_iter()
        .filter(|f| f.starts_with("differ-"))
        .count();
    assert_eq!(saved, 5, "only the first five findings of a signature are kept in full");

    let journal = std::fs::read_to_string(dir.path().join("campaign-1-40.journal")).unwrap();
    let entries: Vec<Entry> = journal.lines().skip(1).filter_map(Entry::parse).collect();
    assert_eq!(entries.len(), 40);
    for entry in &entries {
        let features = entry.features.as_ref().expect("every generated program's features");
        let planted = features.contains("Div.left>Add");
        assert_eq!(
            entry.verdict.name(),
            if planted { "differ" } else { "agree" },
            "{entry:?}"
        );
        let signature = planted.then(|| "differ: ok | planted".to_string());
        assert_eq!(entry.signature, signature);
    }

    let known = dir.path().join("known");
    std::fs::write(&known, "# planted\ndiffer: ok | planted = the planted bug\n").unwrap();
    let again = scratch("signatures-known");
    let mut args = args;
    args.extend(["--known", known.to_str().unwrap()]);
    let output = diff(again.path(), &args);
    assert_eq!(
        output.status.code(),
        Some(0),
        "only known findings: {}",
        text(&output.stdout)
    );
    assert!(text(&output.stdout).contains("signatures 1 (new 0, known 1)"));
}

/// `findings DIR` lists the planted bug's signature with its programs and
/// names what all of them have in common: a division whose left operand is
/// a sum (`safe_div((`), the feature `Div.left>Add`, first.
#[test]
fn findings_are_listed_with_the_features_of_their_programs() {
    let dir = scratch("listing");
    let args = planted_campaign("60");
    let output = diff(dir.path(), &args);
    assert_eq!(output.status.code(), Some(1), "{}", text(&output.stderr));
    let listing = calc(&["findings", dir.path().to_str().unwrap()]);
    assert_eq!(listing.status.code(), Some(0), "{}", text(&listing.stderr));
    let listing = text(&listing.stdout);
    let signature = listing
        .lines()
        .position(|line| line.ends_with(": differ: ok | planted (new)"))
        .unwrap_or_else(|| panic!("no line for the planted signature:\n{listing}"));
    let lines: Vec<&str> = listing.lines().collect();
    let header = lines[signature..]
        .iter()
        .position(|line| line.contains("features over-represented"))
        .map(|i| signature + i)
        .unwrap_or_else(|| panic!("no features:\n{listing}"));
    let first = lines[header + 1].split_whitespace().next();
    assert_eq!(first, Some("Div.left>Add"), "{listing}");
    assert!(lines[signature + 1].starts_with("  seeds: "), "{listing}");

    let log = diff(scratch("log-choices").path(), &[&args[..], &["--log-choices"]].concat());
    let stdout = text(&log.stdout);
    let table = stdout
        .lines()
        .skip_while(|line| !line.starts_with("production "))
        .collect::<Vec<_>>();
    assert!(table.len() > 2, "a line per production:\n{stdout}");
    let div = table
        .iter()
        .find(|line| line.starts_with("Div "))
        .expect("a line for Div");
    let numbers: Vec<u64> = div.split_whitespace().skip(1).map(|n| n.parse().unwrap()).collect();
    let (programs, agree, differ) = (numbers[0], numbers[1], numbers[2]);
    assert_eq!(programs, agree + differ, "{div}");
    assert!(differ > 0, "every planted difference divides: {div}");
}
