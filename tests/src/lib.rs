//! Helpers shared by the cross-crate tests in `tests/tests/`: generated
//! programs run, through the engine's own [`Campaign`](xsmith::Campaign), on
//! real language implementations (see [`conformance`]); and the test
//! fuzzers that exercise the engine ([`names`], [`typed`]); and the check
//! that generation never fails ([`total`]).
//!
//! A missing implementation is a test failure that names the Debian package
//! providing it, never a silent skip; `./test.sh` installs them.

/// A fresh scratch directory, removed when the value is dropped.
///
/// ```
/// let dir = xsmith_tests::scratch_dir("doc");
/// assert!(dir.path().is_dir());
/// ```
pub fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("xsmith-tests-{name}-"))
        .tempdir()
        .expect("the temp directory is writable")
}

pub mod choices;
pub mod conformance;
pub mod functions;
pub mod instrumented;
pub mod locality;
pub mod names;
pub mod reach;
pub mod reduction_times;
pub mod total;
pub mod typed;

/// The code of the repository's README, run as doctests (its "Writing a
/// fuzzer" examples must compile and generate).
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
