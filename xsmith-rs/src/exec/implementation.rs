//! Implementations of a language: an external command or an engine inside
//! this process, and the checks made before any program runs on them (a
//! well-formed `--impl`, an installed command).

use std::fmt;
use std::path::Path;

use super::command::{locate, words};
use super::execution::{Execution, Run};
use super::isolation::Isolation;
use super::limits::Limits;
use super::{compiled, in_process, process};

/// One implementation of a language, that programs run on.
///
/// A fuzzer declares its defaults in [`Fuzzer::implementations`](crate::Fuzzer::implementations);
/// `--impl NAME=COMMAND` replaces them (see [`Implementation::parse`]).
///
/// ```
/// use xsmith::{Execution, Implementation};
///
/// const IMPLEMENTATIONS: &[Implementation] = &[
///     Implementation::Command { name: "python3", template: "python3 {}", package: "python3" },
///     Implementation::InProcess { name: "echo", run: |text| Execution::Output(text.to_string()) },
/// ];
/// assert_eq!(IMPLEMENTATIONS[0].name(), "python3");
/// ```
#[derive(Clone, Copy, Debug)]
pub enum Implementation {
    /// An external command; `template` contains `{}` for the program file,
    /// e.g. `"lua5.4 {}"`. It is split into words like a shell would (quotes
    /// and backslashes) but run directly, with no shell; every `{}` in every
    /// word becomes the program's path. `package` is the Debian package that
    /// installs the command (empty when unknown, as for `--impl`).
    Command {
        /// A short name, used for the files of a finding.
        name: &'static str,
        /// The command line, with `{}` for the program file.
        template: &'static str,
        /// The Debian package that installs the command.
        package: &'static str,
    },
    /// A compiler, then the executable it made: `template` contains `{}`
    /// for the program file and `{exe}` for the executable to write, e.g.
    /// `"gcc -O2 {} -o {exe}"` (split into words as for `Command`). The
    /// compiler is held to [`Limits::compile_timeout`], the executable to
    /// [`Limits::timeout`]; the executable is made in a scratch directory
    /// removed after its run. A compiler killed by a signal or reporting an
    /// internal error gives [`Execution::CompilerCrashed`]; one that refuses
    /// the program otherwise, [`Execution::Rejected`]; the executable's run
    /// gives the rest, as a `Command`'s would. `--impl NAME=COMMAND` makes
    /// one when the command has an `{exe}`.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Limits};
    /// let dir = tempfile::tempdir().unwrap();
    /// let file = dir.path().join("p.sh");
    /// std::fs::write(&file, "#!/bin/sh\necho 42\n").unwrap();
    /// // "Compiling" a shell script: copying it where the executable goes.
    /// let copy = Implementation::Compiled { name: "copy", template: "install -m 755 {} {exe}", package: "coreutils" };
    /// let run = copy.run(&file, "", &Limits::default());
    /// assert_eq!(run.execution, Execution::Output("42\n".into()));
    /// ```
    Compiled {
        /// A short name, used for the files of a finding.
        name: &'static str,
        /// The compiler's command line, with `{}` for the program file and
        /// `{exe}` for the executable.
        template: &'static str,
        /// The Debian package that installs the compiler.
        package: &'static str,
    },
    /// An engine inside this process, given the whole program text.
    InProcess {
        /// A short name, used for the files of a finding.
        name: &'static str,
        /// Runs one program.
        run: fn(&str) -> Execution,
    },
    /// Another implementation that needs a command the machine may lack
    /// (an engine outside the process, driven by an in-process wrapper, say):
    /// among a fuzzer's defaults it takes part where `requires` is on the
    /// `PATH`, and is left out with a note naming `package` elsewhere, so
    /// that a campaign on in-process engines needs nothing installed.
    IfInstalled {
        /// The implementation itself.
        implementation: &'static Implementation,
        /// The command it needs.
        requires: &'static str,
        /// The Debian package that installs that command.
        package: &'static str,
    },
}

/// A bad `--impl`, a command that is not installed, or a clash of names.
///
/// ```
/// let error = xsmith::Implementation::parse("python3 {}").unwrap_err();
/// assert!(error.to_string().contains("--impl `python3 {}`"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ImplementationError {
    /// An `--impl` that is not `NAME=COMMAND` with a `{}` in the command and
    /// a name fit for a file name.
    Malformed {
        /// The argument as given.
        argument: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The command's first word is not an executable on the `PATH`.
    NotInstalled {
        /// The implementation's name.
        name: String,
        /// The command looked for.
        command: String,
        /// The Debian package that installs it (empty when unknown).
        package: String,
    },
    /// Two implementations share a name.
    Duplicate(String),
    /// No implementations at all.
    None,
}

impl fmt::Display for ImplementationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImplementationError::Malformed { argument, reason } => write!(f, "--impl `{argument}`: {reason}"),
            ImplementationError::NotInstalled { name, command, package } if package.is_empty() => {
                write!(
                    f,
                    "implementation `{name}`: the command `{command}` is not installed (not found on PATH)"
                )
            }
            ImplementationError::NotInstalled { name, command, package } => write!(
                f,
                "implementation `{name}`: the command `{command}` is not installed: install the Debian package \
                 `{package}` (apt-get install {package}), or name other implementations with --impl NAME=COMMAND"
            ),
            ImplementationError::Duplicate(name) => write!(f, "two implementations are named `{name}`"),
            ImplementationError::None => write!(
                f,
                "no implementations to run: this fuzzer declares none; name them with --impl NAME=COMMAND"
            ),
        }
    }
}

impl std::error::Error for ImplementationError {}

impl Implementation {
    /// The implementation's name.
    ///
    /// ```
    /// let node = xsmith::Implementation::Command { name: "node", template: "node {}", package: "nodejs" };
    /// assert_eq!(node.name(), "node");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Implementation::Command { name, .. }
            | Implementation::Compiled { name, .. }
            | Implementation::InProcess { name, .. } => name,
            Implementation::IfInstalled { implementation, .. } => implementation.name(),
        }
    }

    /// The implementation to run, unless it is [`Implementation::IfInstalled`]
    /// and what it needs is missing: then a note saying so.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation};
    /// static ECHO: Implementation = Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) };
    /// let missing = Implementation::IfInstalled { implementation: &ECHO, requires: "no-such-command-xyz", package: "xyz" };
    /// assert!(missing.if_installed().unwrap_err().contains("apt-get install xyz"));
    /// let present = Implementation::IfInstalled { implementation: &ECHO, requires: "sh", package: "dash" };
    /// assert_eq!(present.if_installed().unwrap().name(), "echo");
    /// ```
    pub fn if_installed(&self) -> Result<Implementation, String> {
        match *self {
            Implementation::IfInstalled {
                implementation,
                requires,
                package,
            } => match locate(requires) {
                Some(_) => Ok(*implementation),
                None => Err(format!(
                    "implementation `{}` left out: the command `{requires}` is not installed (apt-get install {package})",
                    implementation.name()
                )),
            },
            other => Ok(other),
        }
    }

    /// Parses a command-line `--impl NAME=COMMAND`: the name is letters,
    /// digits, `-`, `_` and `.` (it names files); the command is split into
    /// words like a shell would and must contain `{}`. A command that also
    /// contains `{exe}` is a compiler ([`Implementation::Compiled`]): it
    /// writes the executable `{exe}`, which then runs. The strings are leaked
    /// to give them the `'static` lifetime of declared implementations (a
    /// handful of short strings per process).
    ///
    /// ```
    /// use xsmith::Implementation;
    /// let lua = Implementation::parse("lua=lua5.4 -W {}").unwrap();
    /// assert_eq!(lua.name(), "lua");
    /// assert!(Implementation::parse("lua=lua5.4").is_err());
    /// assert!(Implementation::parse("lua5.4 {}").is_err());
    /// assert!(Implementation::parse("a/b=lua {}").is_err());
    /// let gcc = Implementation::parse("gcc=gcc -O2 {} -o {exe}").unwrap();
    /// assert!(matches!(gcc, Implementation::Compiled { .. }));
    /// ```
    pub fn parse(argument: &str) -> Result<Implementation, ImplementationError> {
        let malformed = |reason: &str| ImplementationError::Malformed {
            argument: argument.to_string(),
            reason: reason.to_string(),
        };
        let (name, template) = argument
            .split_once('=')
            .ok_or_else(|| malformed("expected NAME=COMMAND, e.g. lua='lua5.4 {}'"))?;
        if name.is_empty()
            || name.starts_with('.')
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
        {
            return Err(malformed(
                "the name must be letters, digits, `-`, `_` and `.`, not starting with `.`",
            ));
        }
        words(template).map_err(|reason| malformed(&reason))?;
        let (name, template) = (
            Box::leak(name.to_string().into_boxed_str()),
            Box::leak(template.to_string().into_boxed_str()),
        );
        Ok(match template.contains(compiled::EXECUTABLE) {
            true => Implementation::Compiled {
                name,
                template,
                package: "",
            },
            false => Implementation::Command {
                name,
                template,
                package: "",
            },
        })
    }

    /// Checks that the implementation can run: its template is well formed
    /// and its command is an executable (a path, or a name found on the
    /// `PATH`). The error names the Debian package when it is known.
    ///
    /// ```
    /// use xsmith::Implementation;
    /// let sh = Implementation::Command { name: "sh", template: "sh {}", package: "dash" };
    /// assert!(sh.check().is_ok());
    /// let missing = Implementation::Command { name: "m", template: "no-such-command-xyz {}", package: "xyz" };
    /// assert!(missing.check().unwrap_err().to_string().contains("Debian package `xyz`"));
    /// ```
    pub fn check(&self) -> Result<(), ImplementationError> {
        if let Implementation::IfInstalled {
            implementation,
            requires,
            package,
        } = *self
        {
            if locate(requires).is_none() {
                return Err(ImplementationError::NotInstalled {
                    name: implementation.name().to_string(),
                    command: requires.to_string(),
                    package: package.to_string(),
                });
            }
            return implementation.check();
        }
        let (Implementation::Command {
            name,
            template,
            package,
        }
        | Implementation::Compiled {
            name,
            template,
            package,
        }) = *self
        else {
            return Ok(());
        };
        let words = words(template).map_err(|reason| ImplementationError::Malformed {
            argument: format!("{name}={template}"),
            reason,
        })?;
        if locate(&words[0]).is_none() {
            return Err(ImplementationError::NotInstalled {
                name: name.to_string(),
                command: words[0].clone(),
                package: package.to_string(),
            });
        }
        Ok(())
    }

    /// Runs one program: an external command on the file `program` (which
    /// must hold `text`), an in-process engine on `text` in this thread's
    /// supervised worker process ([`Isolation::Worker`]). Never panics, and
    /// nothing an engine does ends the caller: an engine that panics, aborts
    /// or dies of a signal has crashed, a command that cannot start too.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Limits};
    /// let dir = tempfile::tempdir().unwrap();
    /// let file = dir.path().join("p.sh");
    /// std::fs::write(&file, "echo 42\n").unwrap();
    /// let sh = Implementation::Command { name: "sh", template: "sh {}", package: "dash" };
    /// let run = sh.run(&file, "echo 42\n", &Limits::default());
    /// assert_eq!(run.execution, Execution::Output("42\n".into()));
    /// assert_eq!(run.status, "exit status 0");
    ///
    /// let aborts = Implementation::InProcess { name: "aborts", run: |_| std::process::abort() };
    /// let run = aborts.run(&file, "", &Limits::default());
    /// assert_eq!((run.execution.kind(), run.status.as_str()), ("crashed", "killed by signal 6 (SIGABRT)"));
    /// ```
    pub fn run(&self, program: &Path, text: &str, limits: &Limits) -> Run {
        self.run_with(program, text, limits, Isolation::Worker)
    }

    /// Runs one program as [`run`](Implementation::run) does, an
    /// in-process engine where `isolation` says.
    pub fn run_with(&self, program: &Path, text: &str, limits: &Limits, isolation: Isolation) -> Run {
        match *self {
            Implementation::Command { name, template, .. } => match words(template) {
                Ok(words) => process::run(&words, program, limits),
                Err(reason) => Run::crashed(format!("implementation `{name}`: {reason}"), "did not start"),
            },
            Implementation::Compiled { name, template, .. } => match words(template) {
                Ok(words) => compiled::run(&words, program, limits),
                Err(reason) => Run::crashed(format!("implementation `{name}`: {reason}"), "did not start"),
            },
            Implementation::InProcess { run, .. } => in_process::run(run, text, limits, isolation),
            Implementation::IfInstalled { implementation, .. } => {
                implementation.run_with(program, text, limits, isolation)
            }
        }
    }

    /// Runs one program on each of `implementations` in turn (see
    /// [`run`](Implementation::run)), each with its run.
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Limits};
    /// let engines = [
    ///     Implementation::InProcess { name: "length", run: |t| Execution::Output(t.len().to_string()) },
    ///     Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) },
    /// ];
    /// let runs = Implementation::run_each(&engines, std::path::Path::new("unused"), "abc", &Limits::default());
    /// assert_eq!(runs[0].1.execution, Execution::Output("3".into()));
    /// assert_eq!(runs[1].0.name(), "echo");
    /// ```
    pub fn run_each(
        implementations: &[Implementation],
        program: &Path,
        text: &str,
        limits: &Limits,
    ) -> Vec<(Implementation, Run)> {
        Implementation::run_each_with(implementations, program, text, limits, Isolation::Worker)
    }

    /// Runs one program on each of `implementations` in turn, in-process
    /// engines where `isolation` says (see [`run_with`](Implementation::run_with)).
    pub fn run_each_with(
        implementations: &[Implementation],
        program: &Path,
        text: &str,
        limits: &Limits,
        isolation: Isolation,
    ) -> Vec<(Implementation, Run)> {
        implementations
            .iter()
            .map(|i| (*i, i.run_with(program, text, limits, isolation)))
            .collect()
    }

    /// How the implementation is written on a command line: `NAME=TEMPLATE`,
    /// or `NAME=<in-process>`.
    ///
    /// ```
    /// let sh = xsmith::Implementation::Command { name: "sh", template: "sh {}", package: "dash" };
    /// assert_eq!(sh.describe(), "sh=sh {}");
    /// ```
    pub fn describe(&self) -> String {
        match self {
            Implementation::Command { name, template, .. } | Implementation::Compiled { name, template, .. } => {
                format!("{name}={template}")
            }
            Implementation::InProcess { name, .. } => format!("{name}=<in-process>"),
            Implementation::IfInstalled { implementation, .. } => implementation.describe(),
        }
    }
}
