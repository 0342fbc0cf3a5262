//! Subcommands that generate run on a thread with the generation stack,
//! and print a report or an error with an exit status.

use std::process::ExitCode;

use crate::fuzzer::{Fuzzer, GENERATION_STACK};

/// Runs `work` on a thread named `name` with the generation stack (trees
/// are walked recursively), prints the report it returns, and gives the
/// exit status: 0, or the status of its error (printed with the fuzzer's
/// name).
pub(super) fn report_from_generation_thread(
    fuzzer: &Fuzzer,
    name: &str,
    work: impl FnOnce() -> Result<String, (u8, String)> + Send,
) -> ExitCode {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name(name.into())
            .stack_size(GENERATION_STACK)
            .spawn_scoped(scope, work)
            .map(|worker| worker.join())
    });
    match outcome {
        Ok(Ok(Ok(report))) => {
            print!("{report}");
            ExitCode::SUCCESS
        }
        Ok(Ok(Err((status, message)))) => {
            eprintln!("{}: error: {message}", fuzzer.name);
            ExitCode::from(status)
        }
        Ok(Err(panic)) => std::panic::resume_unwind(panic),
        Err(e) => {
            eprintln!("{}: error: cannot start the {name} thread: {e}", fuzzer.name);
            ExitCode::from(1)
        }
    }
}
