//! `findings`: a findings directory listed by signature.

use std::process::ExitCode;

use super::args::FindingsArgs;
use super::diff::read_known_bugs;
use crate::campaign::list_findings;
use crate::fuzzer::Fuzzer;

/// Prints the listing of `args.dir`; exit status 2 for a bad `--known`, 1
/// when the directory cannot be read.
pub(super) fn findings(fuzzer: &Fuzzer, known_bugs: &str, args: &FindingsArgs) -> ExitCode {
    let fail = |status: u8, message: &dyn std::fmt::Display| {
        eprintln!("{}: error: {message}", fuzzer.name);
        ExitCode::from(status)
    };
    let known = match read_known_bugs(known_bugs, &args.known) {
        Ok(bugs) => bugs,
        Err((status, message)) => return fail(status, &message),
    };
    match list_findings(&args.dir, &known, args.top) {
        Ok(listing) => {
            print!("{listing}");
            ExitCode::SUCCESS
        }
        Err(e) => fail(1, &format!("reading {}: {e}", args.dir.display())),
    }
}
