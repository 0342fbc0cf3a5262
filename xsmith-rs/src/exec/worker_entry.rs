//! The worker side of a supervised engine worker: a process started from
//! the campaign's own executable with [`WORKER_ENV`] set. It is entered
//! before `main` (a constructor, run by the loader in every executable that
//! links this crate: a fuzzer's command line, a test harness, a user's
//! program), so whatever `main` would do never happens: the worker answers
//! requests until its standard input closes, then exits.
//!
//! Its standard output is kept for replies; what the engine itself writes
//! to standard output or error goes to the worker's standard error (a file
//! the campaign reads after each run, so that an engine's last words before
//! an abort are saved with the finding). Programs run one at a time on an
//! engine thread with a large stack; a panic is caught and replied as a
//! crash (its message, as on a thread). A worker whose campaign has gone (its parent changed) exits.

use std::io::Write;
use std::os::fd::{AsFd, FromRawFd, IntoRawFd};
use std::time::Duration;

use super::engine::{panic_message, ENGINE_STACK};
use super::engine_image;
use super::execution::Execution;
use super::worker_protocol::{read_request, reply, READY, WORKER_ENV};

/// How often a worker looks whether its campaign is still there.
const WATCH_EVERY: Duration = Duration::from_millis(200);

/// The entry point of a worker, run before `main` in every process: a
/// process without [`WORKER_ENV`] returns at once and goes on to `main`.
#[ctor::ctor(unsafe)]
fn enter_worker() {
    let Some(stack) = std::env::var_os(WORKER_ENV) else {
        return;
    };
    // Nothing the engine starts becomes a worker in turn.
    std::env::remove_var(WORKER_ENV);
    let stack = stack.to_str().and_then(|s| s.parse().ok()).unwrap_or(ENGINE_STACK);
    let status = match serve(stack) {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("xsmith engine worker: {e}");
            1
        }
    };
    std::process::exit(status);
}

/// Whether the worker's entry point is part of this executable: it is, and
/// calling this (as starting a worker does) keeps it so, since the linker
/// keeps what is referenced.
pub(super) fn entry_linked() -> bool {
    std::hint::black_box(enter_worker as fn()) as usize != 0
}

/// Answers requests on standard input until it closes.
fn serve(stack: usize) -> std::io::Result<()> {
    // Replies go to the standard output the campaign reads; from here on,
    // file descriptor 1 is the standard error file, so that an engine's
    // prints cannot garble a reply.
    let replies = rustix::io::dup(std::io::stdout().as_fd())?;
    rustix::stdio::dup2_stdout(std::io::stderr().as_fd())?;
    // SAFETY: `replies` is a descriptor this process owns and nothing else
    // uses.
    let mut replies = unsafe { std::fs::File::from_raw_fd(replies.into_raw_fd()) };
    replies.write_all(READY)?;
    // A panic is replied as a crash with its message, as on a thread; the
    // default hook would add it (and a backtrace) to the run's standard
    // error a second time.
    std::panic::set_hook(Box::new(|_| {}));
    let parent = rustix::process::getppid();
    std::thread::Builder::new().name("watch".into()).spawn(move || loop {
        std::thread::sleep(WATCH_EVERY);
        if rustix::process::getppid() != parent {
            std::process::exit(0);
        }
    })?;
    let engine = std::thread::Builder::new()
        .name("engine".into())
        .stack_size(stack)
        .spawn(move || {
            let mut requests = std::io::stdin().lock();
            while let Some((offset, text)) = read_request(&mut requests)? {
                let execution = match engine_image::engine_at(offset) {
                    Some(engine) => std::panic::catch_unwind(|| engine(&text))
                        .unwrap_or_else(|panic| Execution::Crashed(format!("panicked: {}", panic_message(&*panic)))),
                    None => Execution::Crashed(format!(
                        "the worker has no engine at offset {offset}: not the campaign's executable"
                    )),
                };
                replies.write_all(&reply(&execution))?;
            }
            Ok(())
        })?;
    engine
        .join()
        .unwrap_or_else(|_| Err(std::io::Error::other("the engine thread panicked")))
}
