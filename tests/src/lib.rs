//! Helpers shared by the cross-crate tests in `tests/tests/`: running real
//! language implementations on generated programs.
//!
//! A missing implementation is a test failure that names the Debian package
//! providing it, never a silent skip; `./test.sh` installs them.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::{Mutex, OnceLock};

/// A language implementation: the command that runs it and the Debian package
/// that provides it.
#[derive(Clone, Copy, Debug)]
pub struct Implementation {
    /// The executable.
    pub command: &'static str,
    /// Arguments before the program file.
    pub args: &'static [&'static str],
    /// The Debian package that installs it.
    pub package: &'static str,
    /// Arguments that make it print the path of its real executable, for
    /// commands that are often wrapper scripts (pyenv shims): running the
    /// real one directly saves a shell start per program.
    pub locate: Option<&'static [&'static str]>,
}

impl Implementation {
    /// Panics, naming the package, when the executable is not on the `PATH`.
    ///
    /// ```
    /// let sh = xsmith_tests::Implementation { command: "sh", args: &[], package: "dash", locate: None };
    /// sh.require();
    /// ```
    pub fn require(&self) {
        let found = std::env::var_os("PATH")
            .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(self.command).is_file()))
            .unwrap_or(false);
        assert!(
            found,
            "`{}` is not installed: install the Debian package `{}` (./test.sh does this)",
            self.command, self.package
        );
    }

    /// Runs the program file and returns what it printed, or a description of
    /// how it failed (status and standard error).
    ///
    /// ```
    /// let sh = xsmith_tests::Implementation { command: "sh", args: &[], package: "dash", locate: None };
    /// let dir = xsmith_tests::scratch_dir("doc");
    /// let file = dir.path().join("p.sh");
    /// std::fs::write(&file, "echo 42\n").unwrap();
    /// assert_eq!(sh.run(&file).unwrap(), "42\n");
    /// ```
    pub fn run(&self, program: &Path) -> Result<String, String> {
        let output = Command::new(self.executable())
            .args(self.args)
            .arg(program)
            .output()
            .map_err(|e| format!("{} could not start: {e}", self.command))?;
        if output.status.success() {
            Ok(String::from_utf8_lossy(&output.stdout).into_owned())
        } else {
            Err(format!(
                "{} failed ({}): {}",
                self.command,
                output.status,
                String::from_utf8_lossy(&output.stderr)
            ))
        }
    }
}

impl Implementation {
    /// The executable to start: the command, or the real program behind it
    /// when `locate` says how to find it (looked up once per process).
    ///
    /// ```
    /// let sh = xsmith_tests::Implementation { command: "sh", args: &[], package: "dash", locate: None };
    /// assert_eq!(sh.executable(), std::path::PathBuf::from("sh"));
    /// ```
    pub fn executable(&self) -> PathBuf {
        static RESOLVED: OnceLock<Mutex<BTreeMap<&'static str, PathBuf>>> = OnceLock::new();
        let Some(locate) = self.locate else {
            return PathBuf::from(self.command);
        };
        let mut resolved = RESOLVED.get_or_init(Default::default).lock().unwrap();
        resolved
            .entry(self.command)
            .or_insert_with(|| {
                Command::new(self.command)
                    .args(locate)
                    .output()
                    .ok()
                    .filter(|o| o.status.success())
                    .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()))
                    .filter(|p| p.is_file())
                    .unwrap_or_else(|| PathBuf::from(self.command))
            })
            .clone()
    }
}

/// CPython 3.
pub const PYTHON3: Implementation = Implementation {
    command: "python3",
    args: &[],
    package: "python3",
    locate: Some(&["-c", "import sys; print(sys.executable)"]),
};

/// PyPy 3.
pub const PYPY3: Implementation = Implementation {
    command: "pypy3",
    args: &[],
    package: "pypy3",
    locate: None,
};

/// Node.js.
pub const NODE: Implementation = Implementation {
    command: "node",
    args: &[],
    package: "nodejs",
    locate: None,
};

/// PUC Lua 5.1.
pub const LUA51: Implementation = Implementation {
    command: "lua5.1",
    args: &[],
    package: "lua5.1",
    locate: None,
};

/// PUC Lua 5.4.
pub const LUA54: Implementation = Implementation {
    command: "lua5.4",
    args: &[],
    package: "lua5.4",
    locate: None,
};

/// LuaJIT 2.1.
pub const LUAJIT: Implementation = Implementation {
    command: "luajit",
    args: &[],
    package: "luajit",
    locate: None,
};

/// Duktape's command-line interpreter (ES5).
///
/// ```
/// assert_eq!(xsmith_tests::DUK.package, "duktape");
/// ```
pub const DUK: Implementation = Implementation {
    command: "duk",
    args: &[],
    package: "duktape",
    locate: None,
};

/// A fresh scratch directory, removed when the value is dropped.
///
/// ```
/// let dir = xsmith_tests::scratch_dir("doc");
/// assert!(dir.path().is_dir());
/// ```
pub fn scratch_dir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("xsmith-tests-{name}-"))
        .tempdir()
        .expect("the temp directory is writable")
}

pub mod conformance;
pub mod names;
pub mod typed;
