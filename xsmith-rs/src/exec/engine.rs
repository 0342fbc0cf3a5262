//! An in-process engine, wherever it runs (a worker process or a thread):
//! its type, the stack it runs on, what its panic says, and the [`Run`] its
//! [`Execution`] makes.

use super::execution::{Execution, Run};
use super::limits::Limits;

/// An in-process engine: it runs one program's text.
pub(super) type Engine = fn(&str) -> Execution;

/// The stack of an engine's thread: 1 GiB of address space, only reserved,
/// not committed, until used; engines that walk a program recursively (as
/// interpreters and compilers of deeply nested code do) need it.
pub(super) const ENGINE_STACK: usize = 1 << 30;

/// The message a panic carries.
pub(super) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// The run of an engine that gave `execution`: its output as standard
/// output, its message as standard error, `in process: <kind>` as status.
pub(super) fn run_of(execution: Execution, limits: &Limits) -> Run {
    let (stdout, stderr) = match &execution {
        Execution::Output(text) => (text.clone(), String::new()),
        Execution::Rejected(text) | Execution::Crashed(text) | Execution::CompilerCrashed(text) => {
            (String::new(), text.clone())
        }
        Execution::Timeout => (String::new(), String::new()),
    };
    let status = match &execution {
        Execution::Timeout => format!("timed out after {} s", limits.timeout.as_secs_f64()),
        other => format!("in process: {}", other.kind()),
    };
    Run {
        execution,
        stdout,
        stderr,
        status,
    }
}
