//! What the fuzz targets of `fuzz_targets/` check, given libFuzzer's bytes.
//!
//! The bytes are a seed and a program's first choices, followed by the
//! seed's random ones (see [`xsmith::Random::from_input`]): libFuzzer's
//! mutations of the bytes are mutations of the program's choices, and every
//! byte string is a valid program. Every target checks that generation succeeds (it is total: a
//! failure is an engine bug) and that the program's recorded choices
//! regenerate it byte for byte. The WebAssembly target also runs the
//! program on the engines in this process, wasmtime and wasmi, and fails
//! on a disagreement that is not a known bug; the wasm-smith target runs
//! wasm-smith's modules on the same engines, the peer of the measurement
//! in the README.

use std::cell::RefCell;

use xsmith::campaign::Harness;
use xsmith::{Fuzzer, Generated, Generator, KnownBug, Source, Spec, Verdict};

pub mod smith;

thread_local! {
    /// The spec and generator of the target's fuzzer (one per process:
    /// each target is a binary of its own).
    static GENERATOR: RefCell<Option<(&'static Spec, Generator<'static>)>> = const { RefCell::new(None) };
    /// The harness of a target that runs programs.
    static HARNESS: RefCell<Option<Harness<'static>>> = const { RefCell::new(None) };
}

/// The fuzzer's spec, made once and kept for the process.
fn spec_of(fuzzer: &'static Fuzzer) -> &'static Spec {
    let spec = (fuzzer.spec)().unwrap_or_else(|e| panic!("{}: the spec is wrong: {e}", fuzzer.name));
    Box::leak(Box::new(spec))
}

/// Generates the program of `bytes` and checks that it regenerates from
/// its own choices; panics (a libFuzzer crash) if generation fails or the
/// replay differs.
pub fn generate(fuzzer: &'static Fuzzer, bytes: &[u8]) -> Generated {
    GENERATOR.with(|cell| {
        let mut cell = cell.borrow_mut();
        let (spec, generator) = cell.get_or_insert_with(|| {
            let spec = spec_of(fuzzer);
            (
                spec,
                Generator::new(spec, Default::default()).expect("the default options are valid"),
            )
        });
        let spec: &Spec = spec;
        let generated = fuzzer
            .program(spec, generator, Source::from_input(bytes))
            .unwrap_or_else(|e| panic!("{}: generation failed: {e}", fuzzer.name));
        assert!(generated.text.ends_with('\n'), "{}: an unfinished program", fuzzer.name);
        let replay = Source::Choices {
            path: "replay".into(),
            choices: generated.choices.clone(),
        };
        let replayed = fuzzer
            .program(spec, generator, replay)
            .unwrap_or_else(|e| panic!("{}: the replay failed: {e}", fuzzer.name));
        let body = |text: &str| text.split_once('\n').map(|(_, body)| body.to_string());
        assert_eq!(
            body(&generated.text),
            body(&replayed.text),
            "{}: the replay differs",
            fuzzer.name
        );
        generated
    })
}

/// Runs the program of `bytes` on the fuzzer's in-process implementations
/// and panics on a finding that is not of a known bug (`known_bugs`, in
/// the format of `diff --known`). Findings are saved as `diff` saves them,
/// in `$XSMITH_FINDINGS` (default: `xsmith-findings` in the temporary
/// directory), so that `reduce` works on them.
pub fn agree(fuzzer: &'static Fuzzer, known_bugs: &str, bytes: &[u8]) {
    HARNESS.with(|cell| {
        let mut cell = cell.borrow_mut();
        let harness = cell.get_or_insert_with(|| {
            let implementations = fuzzer.in_process_implementations();
            let findings = std::env::var_os("XSMITH_FINDINGS")
                .map(std::path::PathBuf::from)
                .unwrap_or_else(|| std::env::temp_dir().join("xsmith-findings"));
            let command = format!("{} fuzz target", fuzzer.name);
            let mut harness = Harness::new(
                fuzzer,
                spec_of(fuzzer),
                Default::default(),
                implementations,
                &findings,
                &command,
            )
            .unwrap_or_else(|e| panic!("{}: {e}", fuzzer.name));
            // No reduction here, so no core: a bug known by its core
            // hides its whole signature, as known bugs did before cores.
            harness.known = KnownBug::parse(known_bugs)
                .expect("the known bugs parse")
                .into_iter()
                .map(|bug| KnownBug { core: None, ..bug })
                .collect();
            harness
        });
        let checked = harness
            .check(Source::from_input(bytes))
            .unwrap_or_else(|e| panic!("{}: {e}", fuzzer.name));
        if checked.verdict != Verdict::Agree && !checked.known {
            panic!(
                "{}: {} ({}), saved in {}",
                fuzzer.name,
                checked.verdict.name(),
                checked.signature.unwrap_or_default(),
                checked.finding.map(|d| d.display().to_string()).unwrap_or_default(),
            );
        }
    });
}
