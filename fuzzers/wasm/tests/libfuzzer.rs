//! The libFuzzer side (issue 17), on the binaries `fuzz/build` makes with
//! SanitizerCoverage (`test.sh` runs it first): every fuzz target runs, and
//! `xsmith-wasm guided` grows a corpus from seeds. The directory of those
//! binaries is `$XSMITH_FUZZ_BIN` or the workspace's
//! `target/fuzz/<host>/release`.

use std::path::{Path, PathBuf};
use std::process::Command;

use xsmith_tests::instrumented::{check_engine_corpus, check_guided_grows, text};

/// The instrumented binary `name` of `fuzz/build`.
fn instrumented(name: &str) -> PathBuf {
    xsmith_tests::instrumented::binary("XSMITH_FUZZ_BIN", "fuzz", name)
}

const PLAIN: &str = env!("CARGO_BIN_EXE_xsmith-wasm");

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
    // Only the known wasmi bug may differ; nothing is rejected or crashes.
    check_guided_grows(&instrumented("xsmith-wasm"), Path::new(PLAIN));
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn guided_without_libfuzzer_says_how_to_build_it() {
    let output = Command::new(PLAIN).args(["guided", "--time", "1"]).output().unwrap();
    assert_eq!(output.status.code(), Some(2), "{}", text(&output));
    assert!(
        String::from_utf8_lossy(&output.stderr).contains("fuzz/build"),
        "{}",
        text(&output)
    );
}

/// `corpus --coverage engines` on the build that counts the edges of the
/// instrumented code (`fuzz/build --edges`), both ways: Bonsai's rounds,
/// and fuzz-then-reduce, whose reduced programs keep the edges they
/// added. Each written program regenerates from its choice file.
#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn a_corpus_covers_the_edges_of_the_engines_both_ways() {
    check_engine_corpus(&instrumented("xsmith-wasm-edges"), Path::new(PLAIN), "wat", 1000);
}

#[test]
fn a_corpus_of_engine_edges_without_the_edges_build_says_how_to_build_it() {
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(PLAIN)
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

/// The two baselines beside `--unguided`: `--swarm` (each program under
/// the configuration its seed draws, which the journal gives) and
/// `--cover 2` (each program steered towards k-paths the ones before
/// have not covered); `--swarm` without `--unguided` is refused.
#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn guided_baselines_run() {
    for baseline in [&["--swarm"][..], &["--cover", "2"]] {
        let root = tempfile::tempdir().unwrap();
        let output = Command::new(instrumented("xsmith-wasm"))
            .args(["guided", "--unguided", "--seed", "5", "--time", "3", "--corpus"])
            .arg(root.path().join("corpus"))
            .arg("--findings")
            .arg(root.path().join("findings"))
            .args(baseline)
            .output()
            .unwrap();
        assert!(output.status.success(), "{baseline:?}: {}", text(&output));
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            stdout.contains("rejected 0, crashed 0"),
            "{baseline:?}: {}",
            text(&output)
        );
        let journal = std::fs::read_to_string(root.path().join("findings/guided.journal")).unwrap();
        // Execution 0 is journaled; a swarm program's line has its options.
        let first = journal.lines().find(|l| l.starts_with("0 ")).unwrap_or_default();
        assert_eq!(
            first.contains(" options:"),
            baseline == ["--swarm"],
            "{baseline:?}: {journal}"
        );
    }
    let refused = Command::new(PLAIN).args(["guided", "--swarm"]).output().unwrap();
    assert_eq!(refused.status.code(), Some(2), "{}", text(&refused));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("--unguided"),
        "{}",
        text(&refused)
    );
}
