//! `guided`: coverage-guided generation on libFuzzer, against the
//! fuzzer's in-process implementations.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use super::args::GuidedArgs;
use crate::campaign::Harness;
use crate::exec::Limits;
use crate::fuzzer::{quote, Fuzzer, Source};
use crate::reduce::read_finding;
use crate::Spec;

/// Runs `guided`: exit status 2 for a bad option or a build without
/// libFuzzer, 1 when it cannot start; on success libFuzzer ends the
/// process (status 0) once `--time` is up.
pub(super) fn guided(fuzzer: &Fuzzer, known_bugs: &str, args: &GuidedArgs) -> ExitCode {
    let fail = |status: u8, message: &dyn std::fmt::Display| {
        eprintln!("{}: error: {message}", fuzzer.name);
        ExitCode::from(status)
    };
    if args.swarm.swarm && !args.unguided {
        return fail(
            2,
            &"--swarm is a baseline of --unguided runs (libFuzzer's inputs have no seed to draw a configuration from)",
        );
    }
    if !cfg!(feature = "libfuzzer") {
        return without_libfuzzer(fuzzer);
    }
    // The harness lives as long as the process: libFuzzer ends it.
    let fuzzer: &'static Fuzzer = Box::leak(Box::new(*fuzzer));
    let spec: &'static Spec = match (fuzzer.spec)() {
        Ok(spec) => Box::leak(Box::new(spec)),
        Err(e) => return fail(1, &format!("the fuzzer's spec is wrong: {e}")),
    };
    let implementations = fuzzer.in_process_implementations();
    if implementations.is_empty() {
        return fail(
            2,
            &format!("{} has no in-process implementation to guide by", fuzzer.name),
        );
    }
    let command = quote(
        &std::iter::once(fuzzer.name.to_string())
            .chain(std::env::args().skip(1))
            .collect::<Vec<_>>(),
    );
    let mut harness = match Harness::new(
        fuzzer,
        spec,
        args.generation.clone(),
        implementations,
        &args.findings,
        &command,
    ) {
        Ok(harness) => harness,
        Err(e) => return fail(if e.is_usage() { 2 } else { 1 }, &e),
    };
    harness.limits = Limits {
        timeout: args.timeout,
        ..Limits::default()
    };
    harness.swarm = args.swarm.swarm();
    match super::diff::read_known_bugs(known_bugs, &args.known) {
        Ok(bugs) => harness.known = bugs,
        Err((status, message)) => return fail(status, &message),
    }
    let first_seed = args.seed.unwrap_or_else(super::args::random_seed);
    let mut seeds = Vec::new();
    for dir in &args.seeds {
        let sources = match seed_sources(fuzzer, dir) {
            Ok(sources) => sources,
            Err(e) => return fail(2, &format!("--seeds {}: {e}", dir.display())),
        };
        for (path, source) in sources {
            match harness.input_of(&source) {
                Ok(bytes) => seeds.push(bytes),
                Err(e) => return fail(1, &format!("{}: does not generate: {e}", path.display())),
            }
        }
    }
    run(harness, args, seeds, first_seed, fuzzer)
}

#[cfg(feature = "libfuzzer")]
fn run(
    harness: Harness<'static>,
    args: &GuidedArgs,
    seeds: Vec<Vec<u8>>,
    first_seed: u64,
    fuzzer: &Fuzzer,
) -> ExitCode {
    let guided = crate::guided::Guided {
        time: args.time,
        corpus: args.corpus.clone(),
        seeds,
        max_len: args.max_len,
        unguided: args.unguided.then_some(first_seed),
        cover: args.cover,
        edits: !args.byte_mutations,
        libfuzzer_flags: args.libfuzzer_flags.clone(),
    };
    let Err(e) = crate::guided::run(harness, &guided);
    eprintln!("{}: error: {e}", fuzzer.name);
    ExitCode::from(1)
}

#[cfg(not(feature = "libfuzzer"))]
fn run(_: Harness<'static>, _: &GuidedArgs, _: Vec<Vec<u8>>, _: u64, fuzzer: &Fuzzer) -> ExitCode {
    without_libfuzzer(fuzzer)
}

/// The error of a build without libFuzzer (status 2).
fn without_libfuzzer(fuzzer: &Fuzzer) -> ExitCode {
    eprintln!(
        "{}: error: `guided` needs libFuzzer, and this {} was built without it: build it with `fuzz/build` \
         (README: \"Coverage-guided generation\")",
        fuzzer.name, fuzzer.name
    );
    ExitCode::from(2)
}

/// The programs a `--seeds DIR` names: its `*.choices` files, its findings
/// (subdirectories with a `command` file), or DIR itself if it is a
/// finding; in name order.
fn seed_sources(fuzzer: &Fuzzer, dir: &Path) -> Result<Vec<(PathBuf, Source)>, String> {
    let finding = |path: &Path| {
        read_finding(fuzzer, path)
            .map(|case| (path.to_path_buf(), case.source))
            .map_err(|e| e.to_string())
    };
    if dir.join("command").is_file() {
        return Ok(vec![finding(dir)?]);
    }
    let mut paths: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    paths.sort();
    let mut sources = Vec::new();
    for path in paths {
        if path.extension().is_some_and(|e| e == "choices") {
            let source = Source::from_choice_file(&path)?;
            sources.push((path, source));
        } else if path.join("command").is_file() {
            sources.push(finding(&path)?);
        }
    }
    if sources.is_empty() {
        return Err("no `*.choices` file and no finding".into());
    }
    Ok(sources)
}
