//! The conformance check every fuzzer built on the canned components gets:
//! programs at the default size run on each of its implementations with no
//! rejection, no runtime error, no timeout and no disagreement, and every
//! canned production appears in at least a tenth of them.

use std::path::Path;
use std::process::Command;
use std::thread;

use xsmith::{Fuzzer, Generator, Options, Source};

use crate::{scratch_dir, Implementation};

/// How long one program may run, in seconds (through `timeout`).
const TIMEOUT_SECONDS: &str = "10";

impl Implementation {
    /// Runs the program file under a 10-second timeout, with `extra_args`
    /// before it: what it printed, or how it failed (timed out, or the
    /// status and standard error).
    ///
    /// ```
    /// let sh = xsmith_tests::Implementation { command: "sh", args: &[], package: "dash", locate: None };
    /// let dir = xsmith_tests::scratch_dir("doc");
    /// let file = dir.path().join("p.sh");
    /// std::fs::write(&file, "echo 42\n").unwrap();
    /// assert_eq!(sh.run_with_timeout(&[], &file).unwrap(), "42\n");
    /// std::fs::write(&file, "exit 3\n").unwrap();
    /// assert!(sh.run_with_timeout(&[], &file).is_err());
    /// ```
    pub fn run_with_timeout(&self, extra_args: &[&str], program: &Path) -> Result<String, String> {
        let output = Command::new("timeout")
            .arg(TIMEOUT_SECONDS)
            .arg(self.executable())
            .args(self.args)
            .args(extra_args)
            .arg(program)
            .output()
            .map_err(|e| format!("{} could not start: {e}", self.command))?;
        match output.status.code() {
            Some(0) => Ok(String::from_utf8_lossy(&output.stdout).into_owned()),
            Some(124) => Err(format!("{} timed out", self.command)),
            _ => Err(format!(
                "{} failed ({}): {}",
                self.command,
                output.status,
                String::from_utf8_lossy(&output.stderr)
            )),
        }
    }
}

/// A canned-components fuzzer and what its programs run on.
pub struct CannedFuzzer<'a> {
    /// The fuzzer.
    pub fuzzer: &'a Fuzzer,
    /// The canned options its spec is built with.
    pub options: xsmith_canned::Options,
    /// Its implementations.
    pub implementations: &'a [Implementation],
    /// Arguments given to every implementation before the program file.
    pub extra_args: &'a [&'a str],
}

impl CannedFuzzer<'_> {
    /// Generates programs from seeds `0..programs` at the default options,
    /// checks that every canned production is in at least 10% of them and
    /// that every implementation runs every program to the same output, and
    /// returns the programs' texts (for checks of a language's own).
    /// Panics, naming what failed, otherwise.
    pub fn check_programs_agree(&self, programs: u64) -> Vec<String> {
        for implementation in self.implementations {
            implementation.require();
        }
        let fuzzer = self.fuzzer;
        let spec = (fuzzer.spec)().unwrap();
        let dir = scratch_dir(fuzzer.name);
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let (mut bytes, mut nodes) = (0, 0);
        let mut texts = Vec::new();
        let mut paths = Vec::new();
        for seed in 0..programs {
            let program = fuzzer.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
            bytes += program.text.len();
            nodes += program.program.len();
            let path = dir.path().join(format!("{seed}.{}", fuzzer.extension));
            std::fs::write(&path, &program.text).unwrap();
            texts.push(program.text);
            paths.push((seed, path));
        }
        eprintln!(
            "{programs} programs, {} bytes and {} nodes on average",
            bytes / programs as usize,
            nodes / programs as usize
        );

        let canned = xsmith_canned::Canned::new(&self.options).unwrap();
        let log = generator.choice_log();
        let mut rare = Vec::new();
        for name in &canned.productions {
            let share = log.programs_with(spec.lookup(name).unwrap()) as f64 / programs as f64;
            eprintln!("{name:>14}: in {:5.1}% of programs", share * 100.0);
            if share < 0.1 {
                rare.push(format!("{name} ({:.1}%)", share * 100.0));
            }
        }
        assert!(rare.is_empty(), "in fewer than 10% of programs: {}", rare.join(", "));

        let threads = thread::available_parallelism().map_or(2, |n| n.get()).max(2);
        let failures: Vec<String> = thread::scope(|scope| {
            let parts: Vec<_> = paths
                .chunks(paths.len().div_ceil(threads))
                .map(|chunk| scope.spawn(move || self.failures(chunk)))
                .collect();
            parts.into_iter().flat_map(|part| part.join().unwrap()).collect()
        });
        assert!(
            failures.is_empty(),
            "{} of {programs} programs failed or disagreed:\n{}",
            failures.len(),
            failures.join("\n")
        );
        texts
    }

    /// The programs of `chunk` that fail or disagree, described.
    fn failures(&self, chunk: &[(u64, std::path::PathBuf)]) -> Vec<String> {
        let mut failures = Vec::new();
        for (seed, path) in chunk {
            let outputs: Vec<_> = self.implementations.iter().map(|i| self.run(i, path)).collect();
            if outputs.iter().any(|o| o.is_err()) || outputs.iter().any(|o| o != &outputs[0]) {
                let described: Vec<String> = self
                    .implementations
                    .iter()
                    .zip(&outputs)
                    .map(|(i, o)| format!("{}: {:.300?}", i.command, o))
                    .collect();
                failures.push(format!("seed {seed}: {}", described.join("; ")));
            }
        }
        failures
    }

    /// Runs one program file on one implementation, with the extra
    /// arguments and the timeout.
    pub fn run(&self, implementation: &Implementation, program: &Path) -> Result<String, String> {
        implementation.run_with_timeout(self.extra_args, program)
    }

    /// Checks that the same seed gives the same bytes from two generators.
    pub fn check_same_seed_same_bytes(&self) {
        let spec = (self.fuzzer.spec)().unwrap();
        let mut first = Generator::new(&spec, Options::default()).unwrap();
        let mut second = Generator::new(&spec, Options::default()).unwrap();
        for seed in [0, 7, 12345] {
            let a = self.fuzzer.program(&spec, &mut first, Source::Seed(seed)).unwrap();
            let b = self.fuzzer.program(&spec, &mut second, Source::Seed(seed)).unwrap();
            assert_eq!(a.text, b.text, "seed {seed}");
        }
    }
}
