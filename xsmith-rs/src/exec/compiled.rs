//! Compiling a program, then running what the compiler made: the two steps
//! of an [`Implementation::Compiled`](super::Implementation::Compiled).
//!
//! The compiler runs with [`Limits::compile_timeout`], the executable with
//! [`Limits::timeout`], both with the memory limit, each in a process group
//! of its own. The executable goes to a scratch directory of its own,
//! removed when the run ends, whatever its end. A compiler that dies of a
//! signal or reports an internal error (see [`INTERNAL_ERROR_MARKERS`]) has
//! crashed: [`Execution::CompilerCrashed`], a finding of its own kind. A
//! compiler that refuses the program otherwise has rejected it, as has an
//! executable that exits non-zero; an executable killed by a signal has
//! crashed; a compiler or executable past its time has timed out.

use std::path::Path;

use super::execution::{Execution, Run};
use super::limits::Limits;
use super::process;

/// Text a compiler writes to standard error when it fails inside itself
/// rather than because of the program: gcc's `internal compiler error`,
/// clang's request for a bug report after a crash or failed assertion.
pub(super) const INTERNAL_ERROR_MARKERS: &[&str] = &[
    "internal compiler error",
    "PLEASE submit a bug report",
    "Please submit a full bug report",
    "Assertion `",
];

/// The placeholder of a compile template for the executable it makes.
pub(super) const EXECUTABLE: &str = "{exe}";

/// Compiles `program` with the template `words` (`{}` the program,
/// `{exe}` the executable to make), then runs the executable.
pub(super) fn run(words: &[String], program: &Path, limits: &Limits) -> Run {
    let scratch = match tempfile::Builder::new().prefix("xsmith-compile-").tempdir() {
        Ok(dir) => dir,
        Err(e) => return Run::crashed(format!("cannot create a scratch directory: {e}"), "did not start"),
    };
    let executable = scratch.path().join("program");
    let (source, exe) = (program.to_string_lossy(), executable.to_string_lossy());
    let argv: Vec<String> = words
        .iter()
        .map(|w| w.replace(EXECUTABLE, &exe).replace("{}", &source))
        .collect();
    let compiled = process::run_argv(&argv, limits.compile_timeout, limits);
    let run = match compiled.execution {
        Execution::Output(_) => {
            let mut ran = process::run_argv(&[exe.to_string()], limits.timeout, limits);
            if !compiled.stderr.is_empty() {
                ran.stderr = format!("[compiler]\n{}[program]\n{}", compiled.stderr, ran.stderr);
            }
            ran
        }
        Execution::Timeout => Run {
            status: format!("compiler {}", compiled.status),
            ..compiled
        },
        Execution::Crashed(_) | Execution::CompilerCrashed(_) => Run {
            execution: Execution::CompilerCrashed(compiled.status.clone()),
            status: format!("compiler {}", compiled.status),
            ..compiled
        },
        Execution::Rejected(why) if is_internal_error(&compiled.stderr) => Run {
            execution: Execution::CompilerCrashed(why),
            status: format!("compiler {} (internal error)", compiled.status),
            ..compiled
        },
        Execution::Rejected(why) => Run {
            execution: Execution::Rejected(why),
            status: format!("compiler {}", compiled.status),
            ..compiled
        },
    };
    drop(scratch);
    run
}

/// Whether a compiler's standard error reports a failure of the compiler
/// itself.
fn is_internal_error(stderr: &str) -> bool {
    INTERNAL_ERROR_MARKERS.iter().any(|marker| stderr.contains(marker))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn words(template: &str) -> Vec<String> {
        shlex::split(template).unwrap()
    }

    fn limits() -> Limits {
        Limits {
            timeout: Duration::from_secs(5),
            compile_timeout: Duration::from_secs(5),
            memory: None,
        }
    }

    /// A "compiler" written in sh: `sh compile.sh {} {exe}` does what
    /// the program file's first line says.
    fn compile(program: &str) -> (Run, tempfile::TempDir) {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.txt");
        std::fs::write(&file, program).unwrap();
        let compiler = dir.path().join("compile.sh");
        std::fs::write(
            &compiler,
            "case \"$(head -n1 \"$1\")\" in\n\
             ok) printf '#!/bin/sh\\necho ran\\n' > \"$2\"; chmod +x \"$2\" ;;\n\
             warn) echo 'warning: odd' >&2; printf '#!/bin/sh\\necho ran\\n' > \"$2\"; chmod +x \"$2\" ;;\n\
             segv-run) printf '#!/bin/sh\\nkill -SEGV $$\\n' > \"$2\"; chmod +x \"$2\" ;;\n\
             exit-run) printf '#!/bin/sh\\nexit 3\\n' > \"$2\"; chmod +x \"$2\" ;;\n\
             hang-run) printf '#!/bin/sh\\nsleep 30\\n' > \"$2\"; chmod +x \"$2\" ;;\n\
             error) echo 'p.txt:1: error: expected ;' >&2; exit 1 ;;\n\
             ice) echo 'p.txt:1: internal compiler error: in foo, at bar.c:12' >&2; exit 4 ;;\n\
             segv) kill -SEGV $$ ;;\n\
             hang) sleep 30 ;;\n\
             esac\n",
        )
        .unwrap();
        let template = format!("sh {} {{}} {{exe}}", compiler.display());
        let mut limits = limits();
        limits.timeout = Duration::from_millis(700);
        limits.compile_timeout = Duration::from_millis(700);
        (run(&words(&template), &file, &limits), dir)
    }

    #[test]
    fn a_compiled_program_runs_and_its_outcome_is_the_executables() {
        let (ran, _dir) = compile("ok\n");
        assert_eq!(ran.execution, Execution::Output("ran\n".into()));
        assert_eq!(ran.status, "exit status 0");
        let (ran, _dir) = compile("warn\n");
        assert_eq!(ran.execution, Execution::Output("ran\n".into()));
        assert!(ran.stderr.contains("[compiler]\nwarning: odd"), "{}", ran.stderr);
        let (ran, _dir) = compile("segv-run\n");
        assert_eq!(ran.execution.kind(), "crashed");
        assert_eq!(ran.status, "killed by signal 11 (SIGSEGV)");
        let (ran, _dir) = compile("exit-run\n");
        assert_eq!(
            (ran.execution.kind(), ran.status.as_str()),
            ("rejected", "exit status 3")
        );
        let (ran, _dir) = compile("hang-run\n");
        assert_eq!(ran.execution, Execution::Timeout);
        assert!(ran.status.starts_with("timed out"), "{}", ran.status);
    }

    #[test]
    fn a_compiler_crash_is_told_apart_from_a_rejection_and_a_program_crash() {
        let (ran, _dir) = compile("error\n");
        assert_eq!(ran.execution.kind(), "rejected");
        assert_eq!(ran.status, "compiler exit status 1");
        assert!(ran.stderr.contains("expected ;"));
        let (ran, _dir) = compile("ice\n");
        assert_eq!(ran.execution.kind(), "compiler-crashed");
        assert_eq!(ran.status, "compiler exit status 4 (internal error)");
        let (ran, _dir) = compile("segv\n");
        assert_eq!(ran.execution.kind(), "compiler-crashed");
        assert_eq!(ran.status, "compiler killed by signal 11 (SIGSEGV)");
        let (ran, _dir) = compile("hang\n");
        assert_eq!(ran.execution, Execution::Timeout);
        assert!(
            ran.status.starts_with("compiler timed out after 0.7 s"),
            "{}",
            ran.status
        );
    }

    #[test]
    fn the_executable_is_removed_after_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("p.sh");
        std::fs::write(&file, "#!/bin/sh\necho hi\n").unwrap();
        let list = dir.path().join("made");
        // The "compiler" records where it was asked to put the executable.
        let template = format!(
            "sh -c \"echo \\\"\\$1\\\" > {}; cp \\\"\\$0\\\" \\\"\\$1\\\"; chmod +x \\\"\\$1\\\"\" {{}} {{exe}}",
            list.display()
        );
        let ran = run(&words(&template), &file, &limits());
        assert_eq!(ran.execution, Execution::Output("hi\n".into()));
        let made = std::fs::read_to_string(&list).unwrap();
        assert!(made.trim().ends_with("/program"), "{made}");
        assert!(
            !Path::new(made.trim()).exists(),
            "the executable and its directory are gone"
        );
        assert!(!Path::new(made.trim()).parent().unwrap().exists());
    }
}
