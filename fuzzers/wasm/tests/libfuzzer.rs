//! The libFuzzer side (issue 17), on the binaries `fuzz/build` makes with
//! SanitizerCoverage (`test.sh` runs it first): every fuzz target runs, and
//! `xsmith-wasm guided` grows a corpus from seeds. The directory of those
//! binaries is `$XSMITH_FUZZ_BIN` or the workspace's
//! `target/fuzz/<host>/release`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Where `fuzz/build` put its binaries.
fn fuzz_bin() -> PathBuf {
    if let Some(dir) = std::env::var_os("XSMITH_FUZZ_BIN") {
        return PathBuf::from(dir);
    }
    let host = Command::new("rustc").arg("-vV").output().expect("rustc runs");
    let host = String::from_utf8_lossy(&host.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../../target/fuzz/{host}/release"))
}

/// The instrumented binary `name`, or a failure that says how to build it.
fn instrumented(name: &str) -> PathBuf {
    let path = fuzz_bin().join(name);
    assert!(
        path.is_file(),
        "{} is missing: run `fuzz/build` first (test.sh does)",
        path.display()
    );
    path
}

fn text(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn every_fuzz_target_runs() {
    for target in ["calc", "lua", "javascript", "python", "c", "wasm", "wasm-smith"] {
        let corpus = tempfile::tempdir().unwrap();
        let findings = tempfile::tempdir().unwrap();
        let output = Command::new(instrumented(target))
            .args(["-runs=200", "-seed=1"])
            .arg(corpus.path())
            .env("XSMITH_FINDINGS", findings.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{target}: {}", text(&output));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("Done 200 runs"), "{target}: {}", text(&output));
        let kept = std::fs::read_dir(corpus.path()).unwrap().count();
        assert!(
            kept > 5,
            "{target}: libFuzzer kept {kept} inputs: no coverage? {}",
            text(&output)
        );
    }
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn guided_grows_a_corpus_from_seeds() {
    let root = tempfile::tempdir().unwrap();
    let (corpus, findings, seeds) = (
        root.path().join("corpus"),
        root.path().join("findings"),
        root.path().join("seeds"),
    );
    // Seeds: a few programs' choice files, as `--save-choices` writes them.
    let saved = Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
        .args(["--seed", "1", "--count", "4", "--output-dir"])
        .arg(&seeds)
        .arg("--save-choices")
        .arg(&seeds)
        .output()
        .unwrap();
    assert!(saved.status.success(), "{}", text(&saved));
    let output = Command::new(instrumented("xsmith-wasm"))
        .args(["guided", "--time", "10", "--corpus"])
        .arg(&corpus)
        .arg("--findings")
        .arg(&findings)
        .arg("--seeds")
        .arg(&seeds)
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", text(&output));
    let files = |dir: &Path| std::fs::read_dir(dir).map(|d| d.count()).unwrap_or(0);
    assert!(
        files(&corpus) > 4 + 10,
        "the corpus grew from its 4 seeds: {}",
        text(&output)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let tally = stdout.lines().find(|l| l.starts_with("programs ")).unwrap_or_default();
    assert!(tally.contains(", agree "), "{}", text(&output));
    assert!(findings.join("guided.journal").is_file());
    // Only the known wasmi bug may differ; nothing is rejected or crashes.
    assert!(tally.contains("rejected 0, crashed 0"), "{}", text(&output));
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn guided_without_libfuzzer_says_how_to_build_it() {
    let output = Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
        .args(["guided", "--time", "1"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("fuzz/build"),
        "{}",
        text(&output)
    );
}

/// The number after `prefix` on the report's line that starts with it.
fn figure(report: &str, prefix: &str) -> usize {
    report
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `{prefix}` in:\n{report}"))
}

/// `corpus --coverage engines` on the build that counts the edges of the
/// instrumented code (`fuzz/build --edges`), both ways: Bonsai's rounds,
/// and fuzz-then-reduce, whose reduced programs keep the edges they
/// added. Each written program regenerates from its choice file.
#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn a_corpus_covers_the_edges_of_the_engines_both_ways() {
    for method in ["bonsai", "fuzz-then-reduce"] {
        let out = tempfile::tempdir().unwrap();
        let output = Command::new(instrumented("xsmith-wasm-edges"))
            .args([
                "corpus",
                "--coverage",
                "engines",
                "--budget",
                "3",
                "--reduce-budget",
                "1",
                "--patience",
                "50",
            ])
            .args(["--method", method, "--out"])
            .arg(out.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{method}: {}", text(&output));
        let report = String::from_utf8_lossy(&output.stdout).to_string();
        let programs = figure(&report, "programs ");
        let rerun = figure(&report, "edges covered ");
        assert!(programs >= 1, "{method}: {report}");
        assert!(rerun > 1000, "{method}: the engines run thousands of edges: {report}");
        // The curve: each prefix's bytes and edges, up to the whole
        // corpus's when run again.
        let curve = std::fs::read_to_string(out.path().join("curve.tsv")).unwrap();
        let rows: Vec<Vec<usize>> = curve
            .lines()
            .skip(1)
            .map(|line| line.split('\t').map(|n| n.parse().unwrap()).collect())
            .collect();
        assert_eq!(rows.len(), programs, "{method}: {curve}");
        assert!(
            rows.windows(2).all(|w| w[0][1] < w[1][1] && w[0][2] <= w[1][2]),
            "{method}: {curve}"
        );
        assert_eq!(rows.last().unwrap()[2], rerun, "{method}: {curve}\n{report}");
        let choices = out.path().join("0000.choices");
        let regenerated = Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
            .arg("--choices")
            .arg(&choices)
            .output()
            .unwrap();
        assert!(regenerated.status.success(), "{}", text(&regenerated));
        assert_eq!(
            String::from_utf8_lossy(&regenerated.stdout),
            std::fs::read_to_string(out.path().join("0000.wat")).unwrap(),
            "{method}"
        );
    }
}

#[test]
fn a_corpus_of_engine_edges_without_the_edges_build_says_how_to_build_it() {
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_xsmith-wasm"))
        .args(["corpus", "--coverage", "engines", "--out"])
        .arg(out.path().join("corpus"))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("fuzz/build --edges"),
        "{}",
        text(&output)
    );
    assert!(!out.path().join("corpus").exists(), "nothing is written");
}
