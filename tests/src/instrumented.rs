//! Checks of the binaries `fuzz/build` makes with SanitizerCoverage
//! (`test.sh` builds them first): a fuzzer's `corpus --coverage engines`
//! and `guided` on the edges of its in-process implementations.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The binary `name` that `fuzz/build` put in `target/<build>/<host>/release`
/// (`build`: `fuzz`, or `fuzz-lua` for `XSMITH_SANCOV=lua`), or in the
/// directory `$<variable>` names; a failure that says how to build it when
/// it is missing.
///
/// ```no_run
/// let edges = xsmith_tests::instrumented::binary("XSMITH_LUA_FUZZ_BIN", "fuzz-lua", "xsmith-lua-edges");
/// assert!(edges.is_file());
/// ```
pub fn binary(variable: &str, build: &str, name: &str) -> PathBuf {
    let dir = match std::env::var_os(variable) {
        Some(dir) => PathBuf::from(dir),
        None => {
            let host = Command::new("rustc").arg("-vV").output().expect("rustc runs");
            let host = String::from_utf8_lossy(&host.stdout)
                .lines()
                .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
                .expect("rustc names its host");
            Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("../target/{build}/{host}/release"))
        }
    };
    let path = dir.join(name);
    assert!(
        path.is_file(),
        "{} is missing: build it with `fuzz/build` first (test.sh does), or name its directory in ${variable}",
        path.display()
    );
    path
}

/// A process's status and both its streams, for a failure's message.
///
/// ```
/// let output = std::process::Command::new("true").output().unwrap();
/// assert!(xsmith_tests::instrumented::text(&output).starts_with("status"));
/// ```
pub fn text(output: &Output) -> String {
    format!(
        "status {:?}\n--- stdout\n{}\n--- stderr\n{}",
        output.status,
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

/// The number after `prefix` on the report's line that starts with it.
///
/// ```
/// assert_eq!(xsmith_tests::instrumented::figure("programs 12 (of 14 kept)\n", "programs "), 12);
/// ```
pub fn figure(report: &str, prefix: &str) -> usize {
    report
        .lines()
        .find_map(|line| line.strip_prefix(prefix))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no `{prefix}` in:\n{report}"))
}

/// `corpus --coverage engines` on `edges` (a fuzzer built with its
/// `edges` feature) both ways, Bonsai's rounds and fuzz-then-reduce: each
/// corpus covers more than `least_edges` edges when run again, its
/// `curve.tsv` rises to that figure, and its first program regenerates
/// from its choice file with `plain` (the same fuzzer, not instrumented),
/// whose programs' files end in `.extension`.
///
/// ```no_run
/// let edges = xsmith_tests::instrumented::binary("XSMITH_LUA_FUZZ_BIN", "fuzz-lua", "xsmith-lua-edges");
/// xsmith_tests::instrumented::check_engine_corpus(&edges, "target/release/xsmith-lua".as_ref(), "lua", 1000);
/// ```
pub fn check_engine_corpus(edges: &Path, plain: &Path, extension: &str, least_edges: usize) {
    for method in ["bonsai", "fuzz-then-reduce"] {
        let out = tempfile::tempdir().unwrap();
        let output = Command::new(edges)
            .args([
                "corpus",
                "--coverage",
                "engines",
                "--budget",
                "3",
                "--reduce-budget",
                "1",
            ])
            .args(["--patience", "50", "--method", method, "--out"])
            .arg(out.path())
            .output()
            .unwrap();
        assert!(output.status.success(), "{method}: {}", text(&output));
        let report = String::from_utf8_lossy(&output.stdout).to_string();
        let programs = figure(&report, "programs ");
        let rerun = figure(&report, "edges covered ");
        assert!(programs >= 1, "{method}: {report}");
        assert!(
            rerun > least_edges,
            "{method}: the engines run more than {least_edges} edges: {report}"
        );
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
        let regenerated = Command::new(plain)
            .arg("--choices")
            .arg(out.path().join("0000.choices"))
            .output()
            .unwrap();
        assert!(regenerated.status.success(), "{}", text(&regenerated));
        assert_eq!(
            String::from_utf8_lossy(&regenerated.stdout),
            std::fs::read_to_string(out.path().join(format!("0000.{extension}"))).unwrap(),
            "{method}"
        );
    }
}

/// `guided` on `instrumented` (a fuzzer built with its `guided` feature)
/// for 10 seconds, from four seeds `plain` saves: the corpus grows past
/// its seeds, the findings' journal is written, and no program is
/// rejected or crashes. The tally line, for the caller's own checks.
///
/// ```no_run
/// let guided = xsmith_tests::instrumented::binary("XSMITH_LUA_FUZZ_BIN", "fuzz-lua", "xsmith-lua");
/// let tally = xsmith_tests::instrumented::check_guided_grows(&guided, "target/release/xsmith-lua".as_ref());
/// assert!(tally.contains("differ 0"));
/// ```
pub fn check_guided_grows(instrumented: &Path, plain: &Path) -> String {
    let root = tempfile::tempdir().unwrap();
    let (corpus, findings, seeds) = (
        root.path().join("corpus"),
        root.path().join("findings"),
        root.path().join("seeds"),
    );
    // Seeds: a few programs' choice files, as `--save-choices` writes them.
    let saved = Command::new(plain)
        .args(["--seed", "1", "--count", "4", "--output-dir"])
        .arg(&seeds)
        .arg("--save-choices")
        .arg(&seeds)
        .output()
        .unwrap();
    assert!(saved.status.success(), "{}", text(&saved));
    let output = Command::new(instrumented)
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
    assert!(tally.contains("rejected 0, crashed 0"), "{}", text(&output));
    tally.to_string()
}
