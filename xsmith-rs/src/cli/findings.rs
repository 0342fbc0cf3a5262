//! `findings`: findings directories listed by signature, as text and as an
//! HTML report.

use std::process::ExitCode;

use super::args::FindingsArgs;
use super::diff::read_known_bugs;
use crate::campaign::{write_report, Listing, ListingError};
use crate::fuzzer::Fuzzer;

/// Prints the listing of `args.dirs` (merged, when there are several) and
/// with `--html` writes the report page; exit status 2 for a bad `--known`
/// or a directory named twice, 1 when a directory cannot be read or the
/// page cannot be written.
pub(super) fn findings(fuzzer: &Fuzzer, known_bugs: &str, args: &FindingsArgs) -> ExitCode {
    let fail = |status: u8, message: &dyn std::fmt::Display| {
        eprintln!("{}: error: {message}", fuzzer.name);
        ExitCode::from(status)
    };
    let known = match read_known_bugs(known_bugs, &args.known) {
        Ok(bugs) => bugs,
        Err((status, message)) => return fail(status, &message),
    };
    let listing = match Listing::read(&args.dirs, &known, args.top) {
        Ok(listing) => listing,
        Err(e @ ListingError::NamedTwice(_)) => return fail(2, &e),
        Err(e) => return fail(1, &e),
    };
    print!("{listing}");
    if let Some(out) = &args.html {
        if let Err(e) = write_report(&listing, fuzzer, out) {
            return fail(1, &format!("writing {}: {e}", out.display()));
        }
    }
    ExitCode::SUCCESS
}
