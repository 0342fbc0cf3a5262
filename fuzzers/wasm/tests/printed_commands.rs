//! Every command a campaign prints runs as printed: the header (`campaign:
//! ...`, also the journal's first line and each finding's `campaign` file)
//! repeats the campaign, and a finding's `command` regenerates its program.
//! The campaign runs on the fuzzer's in-process engines, which the header
//! names `--impl wasmtime --impl wasmi`, plus one added with `--add-impl`
//! (`cat`, which prints the module's text, so every program is a finding).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The directory of the `xsmith-wasm` binary, so that `xsmith-wasm ...` runs
/// as printed.
fn path_with_binary() -> String {
    let binary = PathBuf::from(env!("CARGO_BIN_EXE_xsmith-wasm"));
    let dir = binary.parent().expect("the binary's directory");
    format!("{}:{}", dir.display(), std::env::var("PATH").unwrap_or_default())
}

/// Runs a printed command line through `sh`, in `dir`, as a user would paste it.
fn run_as_printed(command: &str, dir: &Path) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path_with_binary())
        .output()
        .expect("sh runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The lines of a campaign's report that name its results (findings and
/// the summary), without the journal's path, which differs between runs.
fn results(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|line| !line.starts_with("journal: "))
        .map(str::to_string)
        .collect()
}

#[test]
fn every_command_a_campaign_prints_runs_as_printed() {
    let first = tempfile::tempdir().unwrap();
    let original = Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
        .args(["diff", "--count", "4", "--seed", "31", "--jobs", "2", "--size", "200"])
        .args(["--add-impl", "text=cat {}", "--findings", "findings"])
        .current_dir(first.path())
        .output()
        .unwrap();
    let stdout = text(&original.stdout);
    assert_eq!(original.status.code(), Some(1), "{stdout}\n{}", text(&original.stderr));

    let header = stdout
        .lines()
        .find_map(|line| line.strip_prefix("campaign: "))
        .unwrap_or_else(|| panic!("no header in:\n{stdout}"))
        .to_string();
    assert!(
        header.contains("--impl wasmtime --impl wasmi"),
        "in-process engines by name: {header}"
    );
    assert!(header.contains("--impl 'text=cat {}'"), "{header}");
    assert!(!header.contains("<in-process>"), "{header}");

    // The journal's first line is the header, as a comment.
    let journal = stdout
        .lines()
        .find_map(|line| line.strip_prefix("journal: "))
        .expect("a journal line");
    let journaled = std::fs::read_to_string(first.path().join(journal)).unwrap();
    assert_eq!(journaled.lines().next(), Some(format!("# {header}").as_str()));

    // Each finding: its `campaign` file is the header, its `command`
    // regenerates its program byte for byte.
    let findings: Vec<&str> = stdout
        .lines()
        .filter_map(|line| line.split_once(" seed ").and_then(|(_, rest)| rest.split_once(": ")))
        .map(|(_, dir)| dir)
        .collect();
    assert_eq!(findings.len(), 4, "every program differs from `cat`:\n{stdout}");
    for finding in &findings {
        let dir = first.path().join(finding);
        let campaign = std::fs::read_to_string(dir.join("campaign")).unwrap();
        assert_eq!(campaign.trim_end(), header);
        let command = std::fs::read_to_string(dir.join("command")).unwrap();
        let regenerated = run_as_printed(command.trim_end(), first.path());
        assert!(regenerated.status.success(), "{command}: {}", text(&regenerated.stderr));
        let program = std::fs::read(dir.join("program.wat")).unwrap();
        assert!(
            regenerated.stdout == program,
            "{command} regenerates {finding}/program.wat"
        );
    }

    // The header, run as printed in a fresh directory, repeats the campaign.
    let second = tempfile::tempdir().unwrap();
    let repeated = run_as_printed(&header, second.path());
    assert_eq!(repeated.status.code(), Some(1), "{}", text(&repeated.stderr));
    assert_eq!(results(&text(&repeated.stdout)), results(&stdout));
}

#[test]
fn implementations_are_named_or_added_with_clear_errors() {
    let dir = tempfile::tempdir().unwrap();
    let diff = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
            .args(["diff", "--count", "1", "--seed", "1", "--size", "50", "--findings", "f"])
            .args(args)
            .current_dir(dir.path())
            .output()
            .unwrap()
    };

    // One in-process engine by its name.
    let wasmi = diff(&["--impl", "wasmi", "--impl", "again=cat {}"]);
    let stdout = text(&wasmi.stdout);
    assert!(stdout.contains("--impl wasmi --impl 'again=cat {}'"), "{stdout}");
    assert!(
        !stdout.contains("wasmtime"),
        "the first --impl drops the defaults: {stdout}"
    );

    let unknown = diff(&["--impl", "v8"]);
    assert_eq!(unknown.status.code(), Some(2));
    let stderr = text(&unknown.stderr);
    assert!(
        stderr.contains("--impl `v8`: not one of this fuzzer's implementations (wasmtime, wasmi, wasm-interp)"),
        "{stderr}"
    );

    let bare = diff(&["--add-impl", "cat"]);
    assert_eq!(bare.status.code(), Some(2));
    let stderr = text(&bare.stderr);
    assert!(stderr.contains("--add-impl `cat`: expected NAME=COMMAND"), "{stderr}");

    let clash = diff(&["--add-impl", "wasmi=cat {}"]);
    assert_eq!(clash.status.code(), Some(2));
    assert!(text(&clash.stderr).contains("two implementations are named `wasmi`"));
}
