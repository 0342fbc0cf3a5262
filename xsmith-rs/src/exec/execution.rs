//! What running one program on one implementation gives: the [`Execution`]
//! that is compared and classified, and the [`Run`] around it that a
//! finding saves.

/// What running one program on one implementation gave.
///
/// ```
/// let ran = xsmith::Execution::Output("3\n".into());
/// assert_eq!(ran.kind(), "output");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Execution {
    /// Ran to the end; what it printed (stdout) - the thing compared.
    Output(String),
    /// Did not compile/validate, or stopped with an error / non-zero exit /
    /// trap (a conforming program never does either). The text says why
    /// (stderr, message).
    Rejected(String),
    /// The implementation itself died (killed by a signal, internal error).
    Crashed(String),
    /// The compile step of a compiled implementation died (killed by a
    /// signal) or reported an internal error: a bug of the compiler that
    /// no run of the program shows. The text says how.
    CompilerCrashed(String),
    /// Did not finish within the timeout.
    Timeout,
}

impl Execution {
    /// One word for the kind of outcome: `output`, `rejected`, `crashed`,
    /// `compiler-crashed` or `timeout`.
    ///
    /// ```
    /// assert_eq!(xsmith::Execution::Timeout.kind(), "timeout");
    /// ```
    pub fn kind(&self) -> &'static str {
        match self {
            Execution::Output(_) => "output",
            Execution::Rejected(_) => "rejected",
            Execution::Crashed(_) => "crashed",
            Execution::CompilerCrashed(_) => "compiler-crashed",
            Execution::Timeout => "timeout",
        }
    }
}

/// Everything one run left behind: the outcome that is classified, and the
/// raw material a finding saves.
///
/// ```
/// use xsmith::{Execution, Implementation, Limits};
/// let echo = Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) };
/// let run = echo.run(std::path::Path::new("unused"), "hi\n", &Limits::default());
/// assert_eq!(run.execution, Execution::Output("hi\n".into()));
/// assert_eq!(run.stdout, "hi\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Run {
    /// The classified outcome.
    pub execution: Execution,
    /// Everything written to standard output (an in-process engine's
    /// output), lossily decoded as UTF-8.
    pub stdout: String,
    /// Everything written to standard error (an in-process engine's
    /// message).
    pub stderr: String,
    /// How it ended, in words: `exit status 0`, `killed by signal 11
    /// (SIGSEGV)`, `timed out after 10 s`, ...
    pub status: String,
}

impl Run {
    /// A run that never got going, or whose end was lost: a crash that
    /// `message` explains (also kept as its standard error), ended as
    /// `status` says.
    pub(super) fn crashed(message: String, status: &str) -> Run {
        Run {
            execution: Execution::Crashed(message.clone()),
            stdout: String::new(),
            stderr: message,
            status: status.to_string(),
        }
    }
}
