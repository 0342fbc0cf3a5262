//! Where an in-process engine runs: in a supervised worker process (the
//! default) or on a thread of the caller's process.

/// Where an [`Implementation::InProcess`](super::Implementation::InProcess)
/// engine runs a program.
///
/// With [`Isolation::Worker`] (the default) the engine runs in a worker
/// process: the caller's own executable started again, which runs programs
/// fed to it over a pipe until it dies or is stopped (see
/// [`worker`](super#supervised-workers)). An abort, a segmentation fault, a
/// failed allocation or a hang of the engine then ends the worker, never
/// the caller, and is the run's [`Execution::Crashed`](super::Execution::Crashed)
/// or [`Execution::Timeout`](super::Execution::Timeout); a new worker takes
/// its place. With [`Isolation::Thread`] it runs on a thread of the caller:
/// a panic is still a crash, but anything worse ends the caller, and a run
/// past its time-out is abandoned, not stopped. `guided` runs engines on
/// threads, since libFuzzer already saves the input that kills its process.
///
/// ```
/// use xsmith::{Execution, Implementation, Isolation, Limits};
/// let echo = Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) };
/// let unused = std::path::Path::new("unused");
/// let here = echo.run_with(unused, "hi", &Limits::default(), Isolation::Thread);
/// let there = echo.run_with(unused, "hi", &Limits::default(), Isolation::Worker);
/// assert_eq!(here.execution, there.execution);
/// assert_eq!(Isolation::default(), Isolation::Worker);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Isolation {
    /// In a supervised worker process, one per thread that runs programs.
    #[default]
    Worker,
    /// On a thread of the calling process.
    Thread,
}

impl Isolation {
    /// The word `--isolation` takes: `worker` or `thread`.
    ///
    /// ```
    /// assert_eq!(xsmith::Isolation::Thread.name(), "thread");
    /// ```
    pub fn name(self) -> &'static str {
        match self {
            Isolation::Worker => "worker",
            Isolation::Thread => "thread",
        }
    }
}

impl std::str::FromStr for Isolation {
    type Err = String;

    /// Reads `worker` or `thread`.
    ///
    /// ```
    /// assert_eq!("thread".parse(), Ok(xsmith::Isolation::Thread));
    /// assert!("fork".parse::<xsmith::Isolation>().is_err());
    /// ```
    fn from_str(word: &str) -> Result<Isolation, String> {
        match word {
            "worker" => Ok(Isolation::Worker),
            "thread" => Ok(Isolation::Thread),
            _ => Err(format!("`{word}` is not `worker` or `thread`")),
        }
    }
}
