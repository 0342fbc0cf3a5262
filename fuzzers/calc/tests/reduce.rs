//! Internal reduction, through the real `xsmith-calc` binary: for each kind
//! of finding (a difference, a crash, a rejection, a time-out) a planted
//! "implementation" that misbehaves only when a program divides a sum
//! (`safe_div((`) gives findings, and `reduce` shrinks one to a program
//! that still shows the same signature, is much smaller, and still runs
//! clean on python3 and node (every candidate is generated, so it is a
//! valid program).

use std::path::{Path, PathBuf};
use std::process::Command;

fn calc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xsmith-calc"))
        .args(args)
        .output()
        .expect("xsmith-calc runs")
}

/// The shell snippet that tells whether the program `$0` divides a sum.
const TRIGGER: &str = r#"grep -q "safe_div((" "$0""#;

/// Runs a campaign of 20 programs with `sh -c 'echo ok'` and `planted`
/// (and `extra` options), then reduces its first finding; returns the
/// finding's directory.
fn campaign_and_reduce(name: &str, planted: &str, extra: &[&str]) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::Builder::new()
        .prefix(&format!("xsmith-calc-reduce-{name}-"))
        .tempdir()
        .unwrap();
    let findings = root.path().join("findings");
    let planted = format!("planted=sh -c '{planted}' {{}}");
    let mut args = vec![
        "diff",
        "--count",
        "20",
        "--seed",
        "1",
        "--impl",
        "ok=sh -c 'echo ok' {}",
        "--impl",
        &planted,
    ];
    args.extend(["--findings", findings.to_str().unwrap()]);
    args.extend(extra);
    let diff = calc(&args);
    assert_eq!(diff.status.code(), Some(1), "{}", String::from_utf8_lossy(&diff.stderr));
    let report = String::from_utf8_lossy(&diff.stdout).into_owned();
    let finding = report
        .lines()
        .find_map(|line| {
            line.split_once(": ")
                .filter(|_| line.contains(" seed "))
                .map(|(_, dir)| PathBuf::from(dir))
        })
        .unwrap_or_else(|| panic!("the campaign has findings:\n{report}"));
    let reduce = calc(&[
        "reduce",
        finding.to_str().unwrap(),
        "--time-budget",
        "120",
        "--reduce-jobs",
        "2",
    ]);
    assert!(reduce.status.success(), "{}", String::from_utf8_lossy(&reduce.stderr));
    (root, finding)
}

/// The reduced program's `sizes` file as (signature, nodes before, nodes after).
fn sizes(finding: &Path) -> (String, usize, usize) {
    let text = std::fs::read_to_string(finding.join("reduced/sizes")).unwrap();
    let field = |name: &str| {
        text.lines()
            .find_map(|l| l.strip_prefix(name))
            .unwrap()
            .trim()
            .to_string()
    };
    let nodes = field("nodes ");
    let (before, after) = nodes.split_once(" -> ").unwrap();
    (field("signature "), before.parse().unwrap(), after.parse().unwrap())
}

/// Checks the reduction of `finding`: the signature kept, the trigger
/// still there, at most `most` nodes, and a program python3 runs.
fn check(finding: &Path, signature: &str, most: usize) {
    let (kept, before, after) = sizes(finding);
    assert_eq!(kept, signature);
    assert!(after <= most && after < before, "{after} nodes of {before}");
    let program = finding.join("reduced/program.calc");
    let text = std::fs::read_to_string(&program).unwrap();
    assert!(text.contains("safe_div(("), "{text}");
    let python = Command::new("python3")
        .arg(&program)
        .output()
        .expect("python3 runs (Debian package python3)");
    assert!(
        python.status.success(),
        "the reduced program is valid: {}",
        String::from_utf8_lossy(&python.stderr)
    );
    // The saved command regenerates the reduced program.
    let command = std::fs::read_to_string(finding.join("reduced/command")).unwrap();
    let choices = command.split_whitespace().last().unwrap();
    let again = calc(&["--choices", choices]);
    let body = |t: &str| t.split_once('\n').map(|(_, b)| b.to_string()).unwrap();
    assert_eq!(body(&String::from_utf8_lossy(&again.stdout)), body(&text));
}

#[test]
fn a_difference_reduces_keeping_the_grouping() {
    let planted = format!(r#"if {TRIGGER}; then echo bad; else echo ok; fi"#);
    let (_root, finding) = campaign_and_reduce("differ", &planted, &[]);
    check(&finding, "differ: ok | planted", 6);
}

#[test]
fn a_crash_reduces_keeping_the_implementation_and_signal() {
    let planted = format!(r#"if {TRIGGER}; then kill -SEGV $$; fi; echo ok"#);
    let (_root, finding) = campaign_and_reduce("crashed", &planted, &[]);
    check(&finding, "crashed: planted (killed by signal 11 (SIGSEGV))", 6);
}

#[test]
fn a_rejection_reduces_keeping_the_implementation() {
    let planted = format!(r#"if {TRIGGER}; then exit 3; fi; echo ok"#);
    let (_root, finding) = campaign_and_reduce("rejected", &planted, &[]);
    check(&finding, "rejected: planted", 6);
}

#[test]
fn a_time_out_reduces_keeping_the_implementation() {
    let planted = format!(r#"if {TRIGGER}; then sleep 3; fi; echo ok"#);
    let (_root, finding) = campaign_and_reduce("timeout", &planted, &["--timeout", "0.5"]);
    check(&finding, "timeout: planted", 6);
}
