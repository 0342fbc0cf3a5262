//! Running one program on an in-process engine, held to [`Limits`]: in
//! this thread's supervised worker process ([`Isolation::Worker`], see
//! [`worker`](super::worker)), or on a thread of its own
//! ([`Isolation::Thread`]), where a panic is a crash and a run past the
//! timeout is left behind. An engine that no worker can run (it is not a
//! function of this executable, or this system cannot start a worker)
//! runs on a thread, with a note saying why at the end of its standard
//! error.

use std::sync::mpsc;

use super::engine::{panic_message, run_of, Engine, ENGINE_STACK};
use super::execution::{Execution, Run};
use super::isolation::Isolation;
use super::limits::Limits;
use super::worker;

/// Runs an in-process engine as `isolation` says.
pub(super) fn run(engine: Engine, text: &str, limits: &Limits, isolation: Isolation) -> Run {
    match isolation {
        Isolation::Thread => run_on_thread(engine, text, limits),
        Isolation::Worker => worker::run(engine, text, limits).unwrap_or_else(|why| {
            let mut run = run_on_thread(engine, text, limits);
            run.stderr
                .push_str(&format!("\n[xsmith: ran on a thread, not in a worker: {why}]\n"));
            run
        }),
    }
}

/// Runs an in-process engine on a thread of its own with a large stack. A
/// panic is a crash; past the timeout the thread is abandoned (it cannot be
/// stopped) and the run has timed out.
fn run_on_thread(engine: Engine, text: &str, limits: &Limits) -> Run {
    let text = text.to_string();
    let (sender, receiver) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .name("in-process".into())
        .stack_size(ENGINE_STACK)
        .spawn(move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| engine(&text)));
            let _ = sender.send(outcome);
        });
    let execution = match spawned {
        Err(e) => Execution::Crashed(format!("cannot start the engine's thread: {e}")),
        Ok(_) => match receiver.recv_timeout(limits.timeout) {
            Ok(Ok(execution)) => execution,
            Ok(Err(panic)) => Execution::Crashed(format!("panicked: {}", panic_message(&*panic))),
            Err(mpsc::RecvTimeoutError::Timeout) => Execution::Timeout,
            Err(mpsc::RecvTimeoutError::Disconnected) => Execution::Crashed("the engine's thread vanished".into()),
        },
    };
    run_of(execution, limits)
}
