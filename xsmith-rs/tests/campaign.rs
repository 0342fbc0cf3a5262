//! Campaigns through the library API, with in-process engines: every verdict,
//! the order of the report, and that the programs are those the fuzzer
//! generates for each seed.

use std::path::Path;
use std::time::Duration;

use xsmith::{Campaign, Execution, Fuzzer, Implementation, Limits, Source, Verdict};

const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-example",
    version: "0.1.0",
    extension: "txt",
    spec: || Ok(xsmith::example::spec()),
    comment: |text| format!("# {text}\n"),
    prelude: "",
    helpers: &[],
    width: 80,
    implementations: &[],
};

/// Prints the program's last line.
fn last_line(text: &str) -> Execution {
    Execution::Output(text.lines().last().unwrap_or_default().to_string())
}

/// Prints how long the program is: differs from `last_line`.
fn length(text: &str) -> Execution {
    Execution::Output(text.len().to_string())
}

fn rejects(_: &str) -> Execution {
    Execution::Rejected("syntax error".into())
}

fn panics(_: &str) -> Execution {
    panic!("internal error in the engine")
}

fn hangs(_: &str) -> Execution {
    std::thread::sleep(Duration::from_secs(3));
    Execution::Output(String::new())
}

/// An in-process engine.
type Engine = fn(&str) -> Execution;

fn campaign<'f>(findings: &Path, engines: &[(&'static str, Engine)]) -> Campaign<'f> {
    let mut campaign = Campaign::new(&FUZZER, findings);
    campaign.count = 4;
    campaign.first_seed = 1000;
    campaign.jobs = 2;
    campaign.limits = Limits {
        timeout: Duration::from_millis(300),
        memory: None,
        ..Limits::default()
    };
    campaign.implementations = engines
        .iter()
        .map(|&(name, run)| Implementation::InProcess { name, run })
        .collect();
    campaign
}

#[test]
fn each_verdict_of_in_process_engines() {
    let dir = tempfile::tempdir().unwrap();
    for (second, verdict) in [
        (last_line as Engine, Verdict::Agree),
        (length, Verdict::Differ),
        (rejects, Verdict::Rejected),
        (panics, Verdict::Crashed),
        (hangs, Verdict::Timeout),
    ] {
        let mut campaign = campaign(dir.path(), &[("last", last_line), ("second", second)]);
        if verdict != Verdict::Timeout {
            // A panic's backtrace alone can take longer than the hang's limit.
            campaign.limits.timeout = Duration::from_secs(30);
        }
        let mut report = Vec::new();
        let tally = campaign.run(&mut report).unwrap();
        assert_eq!(tally.programs, 4, "{verdict:?}");
        let mut expected = xsmith::Tally::default();
        (0..4).for_each(|_| expected.add(verdict));
        assert_eq!(tally, expected);
        let report = String::from_utf8(report).unwrap();
        let findings: Vec<&str> = report.lines().skip(2).collect();
        if verdict == Verdict::Agree {
            assert!(findings.is_empty(), "{report}");
        } else {
            // Reported in seed order, whatever order the jobs finished in.
            let seeds: Vec<&str> = findings.iter().map(|l| l.split(' ').nth(2).unwrap()).collect();
            assert_eq!(seeds, ["1000:", "1001:", "1002:", "1003:"], "{report}");
            let dir = dir.path().join(format!("{}-1002", verdict.name()));
            let status = std::fs::read_to_string(dir.join("second.status")).unwrap();
            assert!(status.contains("second=<in-process>"), "{status}");
        }
    }
    let crash = std::fs::read_to_string(dir.path().join("crashed-1001").join("second.stderr")).unwrap();
    assert_eq!(crash, "panicked: internal error in the engine");
}

#[test]
fn saved_programs_are_those_the_fuzzer_generates() {
    let dir = tempfile::tempdir().unwrap();
    let mut campaign = campaign(dir.path(), &[("last", last_line), ("length", length)]);
    campaign.options.max_depth = 3;
    campaign.run(&mut std::io::sink()).unwrap();
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = xsmith::Generator::new(&spec, campaign.options.clone()).unwrap();
    for seed in 1000..1004 {
        let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        let finding = dir.path().join(format!("differ-{seed}"));
        assert_eq!(
            std::fs::read_to_string(finding.join("program.txt")).unwrap(),
            program.text
        );
        assert_eq!(
            std::fs::read_to_string(finding.join("command")).unwrap(),
            format!("xsmith-example --seed {seed} --max-depth 3\n")
        );
    }
}

#[test]
fn a_command_and_an_engine_side_by_side() {
    let dir = tempfile::tempdir().unwrap();
    let mut campaign = campaign(dir.path(), &[("last", last_line)]);
    // `tail -n 1` prints the last line with its newline; the engine without.
    campaign
        .implementations
        .push(Implementation::parse("tail=tail -n 1 {}").unwrap());
    let tally = campaign.run(&mut std::io::sink()).unwrap();
    assert_eq!(tally.differ, 4);
    let finding = dir.path().join("differ-1000");
    let tail = std::fs::read_to_string(finding.join("tail.stdout")).unwrap();
    let last = std::fs::read_to_string(finding.join("last.stdout")).unwrap();
    assert_eq!(tail, format!("{last}\n"));
}

#[test]
fn a_timeout_that_does_not_repeat_is_no_finding() {
    let dir = tempfile::tempdir().unwrap();
    let mut slow = campaign(dir.path(), &[]);
    // The first run of each job's scratch file sleeps past the limit (300
    // ms); a second run of the same program does not.
    let slow_once = r#"slow-once=sh -c 'test -e "$0.seen" || { touch "$0.seen"; sleep 2; }; tail -n 1 "$0"' {}"#;
    slow.implementations = vec![
        Implementation::parse(slow_once).unwrap(),
        Implementation::parse("tail=tail -n 1 {}").unwrap(),
    ];
    let tally = slow.run(&mut std::io::sink()).unwrap();
    assert_eq!((tally.agree, tally.timeout), (4, 0), "{tally:?}");
    // A hang stays a hang.
    let mut hanging = campaign(dir.path(), &[("last", last_line), ("hangs", hangs)]);
    hanging.count = 1;
    let tally = hanging.run(&mut std::io::sink()).unwrap();
    assert_eq!(tally.timeout, 1, "{tally:?}");
}

#[test]
fn large_outputs_do_not_block_a_run() {
    // 4 MiB on each stream, more than any pipe buffer holds.
    let noisy = Implementation::parse(
        r#"noisy=sh -c "head -c 4194304 /dev/zero; head -c 4194304 /dev/zero >&2; echo done" {}"#,
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p");
    std::fs::write(&file, "").unwrap();
    let run = noisy.run(&file, "", &Limits::default());
    assert_eq!(run.stdout.len(), 4 * 1024 * 1024 + 5);
    assert_eq!(run.stderr.len(), 4 * 1024 * 1024);
    assert!(matches!(run.execution, Execution::Output(ref s) if s.ends_with("done\n")));
}

#[test]
fn the_memory_limit_holds() {
    let hungry = Implementation::parse(r#"hungry=python3 -c "bytearray(512 * 1024 * 1024)" {}"#).unwrap();
    let limits = Limits {
        timeout: Duration::from_secs(20),
        memory: Some(128 << 20),
        ..Limits::default()
    };
    let run = hungry.run(Path::new("unused"), "", &limits);
    assert!(
        matches!(run.execution, Execution::Rejected(ref why) if why.contains("MemoryError")),
        "{run:?}"
    );
}
