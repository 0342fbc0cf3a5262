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
//! engine runs in a supervised worker process (below), or, with
//! [`Isolation::Thread`], on a thread of its own, so that its panic is a
//! crash.
//!
//! # Supervised workers
//!
//! An in-process engine is a function of the executable that runs the
//! campaign, `fn(&str) -> Execution`. By default it runs in a worker: the
//! same executable (`/proc/self/exe`) started again with the environment
//! variable `XSMITH_ENGINE_WORKER` set, kept alive across programs and fed
//! them over a pipe, one worker per thread that runs programs (one per job
//! of a campaign), as Fuzzilli's REPRL and libFuzzer's fork mode do. A
//! worker takes over before `main`, through a constructor this crate
//! links into every executable that uses it, so a fuzzer's `main`, a test
//! harness and a user's own program all work without a change; the engine
//! is named to the worker by its distance from a function of this crate,
//! which is the same in both processes since they run the same file. A
//! worker that dies of a signal or exits during a run has crashed on that
//! program (`killed by signal 6 (SIGABRT)`), with what the engine wrote as
//! the run's standard error; a run past its time-out kills the worker's
//! process group; the worker's data segment is capped at
//! [`Limits::memory`] and its core dumps are off; a new worker takes the
//! place of a dead one at the next run. A worker whose parent dies exits
//! within a fraction of a second. An engine that is not a function of the
//! executable (one in a shared library), or a system where a worker cannot
//! start, runs on a thread, and the run's standard error ends with a note
//! saying why (a campaign says so once, in its report).
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
mod engine;
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
