//! Running programs on implementations of their language: a leaf of the
//! engine, which knows nothing of fuzzers or campaigns (a
//! [`Campaign`](crate::Campaign) decides what runs where; this module runs
//! it).
//!
//! An [`Implementation`] is an external command, a compiler whose
//! executable then runs ([`Implementation::Compiled`]: the compiler with its
//! own time-out, a compiler crash told apart from a crash of the program,
//! the executable removed after its run), or an engine inside this
//! process. One run of a program on it is held to [`Limits`] and gives a
//! [`Run`]: the [`Execution`] that is compared (output, rejection, crash or
//! timeout), with everything it printed and how it ended. An external
//! command runs in its own process group (the whole group is killed on
//! timeout), its standard output and error read without ever blocking it,
//! its memory capped with `RLIMIT_DATA` and core dumps off; an in-process
//! engine runs on a thread of its own, so that its panic is a crash.
//!
//! ```
//! use xsmith::{Execution, Implementation, Limits};
//!
//! let dir = tempfile::tempdir().unwrap();
//! let file = dir.path().join("program.sh");
//! std::fs::write(&file, "echo $((6 * 7))\n").unwrap();
//! let sh = Implementation::parse("sh=sh {}").unwrap();
//! sh.check().unwrap();
//! let limits = Limits { timeout: std::time::Duration::from_secs(5), memory: None, ..Limits::default() };
//! let run = sh.run(&file, "echo $((6 * 7))\n", &limits);
//! assert_eq!((run.execution, run.status.as_str()), (Execution::Output("42\n".into()), "exit status 0"));
//!
//! std::fs::write(&file, "kill -SEGV $$\n").unwrap();
//! let run = sh.run(&file, "", &limits);
//! assert_eq!(run.execution.kind(), "crashed");
//! assert_eq!(run.status, "killed by signal 11 (SIGSEGV)");
//! ```

mod command;
mod compiled;
mod engine_image;
mod execution;
mod implementation;
mod in_process;
mod isolation;
mod limits;
mod process;
mod worker;
mod worker_entry;
mod worker_protocol;

pub use execution::{Execution, Run};
pub use implementation::{Implementation, ImplementationError};
pub use isolation::Isolation;
pub use limits::Limits;
pub(crate) use worker::{check_workers, end_this_threads_worker};
