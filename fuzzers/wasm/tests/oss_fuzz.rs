//! OSS-Fuzz's build script (`fuzz/oss-fuzz/build.sh`, which
//! ClusterFuzzLite runs too), run as OSS-Fuzz runs it: with `$SRC`, `$OUT`
//! and `$WORK`, and the compiler flags of an AddressSanitizer libFuzzer
//! build. Every target lands in `$OUT` with a seed corpus, and runs from
//! it. (RUSTFLAGS stay as `fuzz/build` had them, so that the build reuses
//! the one `test.sh` made; a run with OSS-Fuzz's RUSTFLAGS is a rebuild of
//! everything, done by hand: see the guide's scaling-out page.)

use std::path::Path;
use std::process::Command;

const TARGETS: [&str; 7] = ["calc", "lua", "javascript", "python", "c", "wasm", "wasm-smith"];

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn the_oss_fuzz_build_script_builds_every_target_into_out() {
    let repo = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap();
    let (out, work) = (tempfile::tempdir().unwrap(), tempfile::tempdir().unwrap());
    let cflags = "-O1 -fno-omit-frame-pointer -gline-tables-only -DFUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION \
                  -fsanitize=address -fsanitize-address-use-after-scope -fsanitize=fuzzer-no-link";
    let build = Command::new(repo.join("fuzz/oss-fuzz/build.sh"))
        .current_dir(&repo)
        .env("SRC", repo.parent().unwrap())
        .env("OUT", out.path())
        .env("WORK", work.path())
        .env("CC", "clang")
        .env("CXX", "clang++")
        .env("CFLAGS", cflags)
        .env("CXXFLAGS", format!("{cflags} -stdlib=libc++"))
        .env("SANITIZER", "address")
        .env("FUZZING_ENGINE", "libfuzzer")
        .env("LIB_FUZZING_ENGINE", "-fsanitize=fuzzer")
        .env("ARCHITECTURE", "x86_64")
        .output()
        .unwrap();
    let log = format!(
        "{}\n{}",
        String::from_utf8_lossy(&build.stdout),
        String::from_utf8_lossy(&build.stderr)
    );
    assert!(build.status.success(), "build.sh failed:\n{log}");
    for target in TARGETS {
        let binary = out.path().join(target);
        assert!(binary.is_file(), "{target} is not in $OUT:\n{log}");
        let corpus = out.path().join(format!("{target}_seed_corpus.zip"));
        assert!(corpus.is_file(), "{target} has no seed corpus");
        let seeds = work.path().join(format!("corpus-{target}"));
        let run = Command::new(&binary)
            .args(["-runs=50", "-seed=1"])
            .arg(&seeds)
            .env("XSMITH_FINDINGS", work.path().join("findings"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert!(run.status.success(), "{target}:\n{stderr}");
        assert!(stderr.contains("INITED"), "{target} read its seed corpus:\n{stderr}");
    }
}
