//! The harness a coverage-guided fuzzer drives (`xsmith::campaign::Harness`,
//! under `guided` and the libFuzzer targets): programs made from byte
//! strings, run on a planted implementation that misbehaves only when a
//! program divides a sum, give findings saved as `diff` saves them; the real
//! `xsmith-calc` binary regenerates, lists and reduces them.

use std::path::PathBuf;
use std::process::Command;

use xsmith::campaign::Harness;
use xsmith::{Implementation, Random, Source, Verdict};

fn calc(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_xsmith-calc"))
        .args(args)
        .output()
        .expect("xsmith-calc runs")
}

#[test]
fn findings_of_byte_strings_regenerate_list_and_reduce() {
    let root = tempfile::tempdir().unwrap();
    let findings = root.path().join("findings");
    let spec = (xsmith_calc::FUZZER.spec)().unwrap();
    let implementations = vec![
        Implementation::parse("ok=sh -c 'echo ok' {}").unwrap(),
        Implementation::parse(r#"planted=sh -c 'grep -q "safe_div((" "$0" && echo bad || echo ok' {}"#).unwrap(),
    ];
    let mut harness = Harness::new(
        &xsmith_calc::FUZZER,
        &spec,
        Default::default(),
        implementations,
        &findings,
        "xsmith-calc guided --time 1",
    )
    .unwrap();
    let mut random = Random::from_seed(11);
    let mut saved: Vec<PathBuf> = Vec::new();
    for _ in 0..150 {
        let bytes: Vec<u8> = (0..64).map(|_| random.below(256) as u8).collect();
        let checked = harness.check(Source::from_input(&bytes)).unwrap();
        assert!(
            matches!(checked.verdict, Verdict::Agree | Verdict::Differ),
            "{checked:?}"
        );
        saved.extend(checked.finding);
    }
    let tally = *harness.tally();
    assert_eq!(tally.programs, 150);
    assert!(tally.differ > 0 && tally.agree > 0, "{tally}");
    assert_eq!(
        saved.len() as u64,
        tally.differ.min(5),
        "five findings of a signature are saved"
    );
    assert!(harness.journal().is_file());

    // Each finding keeps its input, and its command regenerates its program.
    let finding = &saved[0];
    let command = std::fs::read_to_string(finding.join("command")).unwrap();
    let words: Vec<&str> = command.split_whitespace().collect();
    assert_eq!(words[..2], ["xsmith-calc", "--input"]);
    assert_eq!(PathBuf::from(words[2]), finding.join("input"));
    let regenerated = calc(&words[1..]);
    assert!(regenerated.status.success());
    let program = std::fs::read_to_string(finding.join("program.calc")).unwrap();
    assert_eq!(String::from_utf8_lossy(&regenerated.stdout), program);
    assert!(program.contains("safe_div(("));

    // `findings` lists them by signature; `reduce` shrinks one.
    let listing = calc(&["findings", findings.to_str().unwrap()]);
    assert!(listing.status.success());
    let listing = String::from_utf8_lossy(&listing.stdout).into_owned();
    assert!(listing.contains("differ: ok | planted"), "{listing}");
    let reduce = calc(&[
        "reduce",
        finding.to_str().unwrap(),
        "--time-budget",
        "60",
        "--reduce-jobs",
        "2",
    ]);
    assert!(reduce.status.success(), "{}", String::from_utf8_lossy(&reduce.stderr));
    let sizes = std::fs::read_to_string(finding.join("reduced/sizes")).unwrap();
    assert!(sizes.starts_with("signature differ: ok | planted\n"), "{sizes}");
}
