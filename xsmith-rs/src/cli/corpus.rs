//! `corpus`: a concise corpus grown and written to a directory, covering
//! the programs' k-paths or the edges their in-process engines run.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::Mutex;

use indexmap::IndexSet;

use super::args::{CorpusArgs, CorpusCoverage, CorpusMethod};
use crate::corpus::{bonsai, fuzz_then_reduce, Corpus, CorpusOptions, Coverage, KPathCoverage, Kept, Round};
use crate::exec::{Implementation, Isolation, Limits};
use crate::fuzzer::{Fuzzer, Generated, Source};
use crate::generate::Generator;
use crate::spec::Spec;

/// Grows the corpus (on a thread with the generation stack) and writes it;
/// exit status 2 for bad options, 1 when it cannot be made or written.
pub(super) fn corpus(fuzzer: &Fuzzer, args: &CorpusArgs) -> ExitCode {
    super::worker::report_from_generation_thread(fuzzer, "corpus", || build(fuzzer, args))
}

/// Grows and writes the corpus; its report.
fn build(fuzzer: &Fuzzer, args: &CorpusArgs) -> Result<String, (u8, String)> {
    let spec = (fuzzer.spec)().map_err(|e| (1, format!("the fuzzer's spec is wrong: {e}")))?;
    let mut generator = Generator::new(&spec, args.generation.clone()).map_err(|e| (2, e.to_string()))?;
    // Checked before the directory is made: a build that counts no edges
    // is a bad option.
    let engines = match args.coverage {
        CorpusCoverage::Kpaths => None,
        CorpusCoverage::Engines => Some(EngineEdges::of(fuzzer).map_err(|e| (2, e))?),
    };
    std::fs::create_dir_all(&args.out).map_err(|e| (2, format!("--out {}: {e}", args.out.display())))?;
    let bar = indicatif::ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let mut say = |message: &str| bar.set_message(message.to_string());
    let mut on_round = |round: Round| {
        bar.set_message(format!(
            "round of bound {} done: {} covered after {} candidates",
            round.bound, round.covered, round.candidates
        ))
    };
    let (grown, curve) = match &engines {
        None => {
            let paths = KPathCoverage { k: args.k };
            let (corpus, curve) = grow_and_write(fuzzer, &spec, &mut generator, args, &paths, &mut on_round, &mut say)?;
            let mut lines = String::new();
            for length in 1..=args.k {
                let covered = corpus.covered.iter().filter(|p| p.len() == length).count();
                let _ = writeln!(lines, "k={length}: covered {covered}");
            }
            (Grown::of(&corpus, lines + &rounds(&corpus, args, "k-paths")), curve)
        }
        Some(engines) => {
            let (corpus, curve) =
                grow_and_write(fuzzer, &spec, &mut generator, args, engines, &mut on_round, &mut say)?;
            let lines = format!(
                "edges covered {} (of {} instrumented) as grown\n",
                corpus.covered.len(),
                crate::edges::counters()
            );
            (Grown::of(&corpus, lines + &rounds(&corpus, args, "edges")), curve)
        }
    };
    bar.finish_and_clear();
    let (bytes, covered) = curve.points.last().copied().unwrap_or_default();
    let mut report = format!(
        "programs {} (of {} kept before pruning), bytes {bytes} (mean {}), seconds {:.1}\n",
        grown.programs,
        grown.kept,
        bytes / grown.programs.max(1),
        grown.seconds,
    );
    if engines.is_some() {
        let _ = writeln!(report, "edges covered {covered} when the corpus is run again");
    }
    report.push_str(&curve.summary());
    report.push_str(&grown.lines);
    let write = |name: &str, text: &str| {
        let path = args.out.join(name);
        std::fs::write(&path, text).map_err(|e| (1, format!("writing {}: {e}", path.display())))
    };
    write("curve.tsv", &curve.table())?;
    write("coverage", &report)?;
    Ok(report)
}

/// What each prefix of the corpus covers when it is run again: how
/// concise a corpus is at any coverage, not only at its whole (two
/// corpora compare at equal coverage on their curves).
#[derive(Default)]
struct Curve {
    /// For the first 1, 2, ... programs: their bytes and what they cover.
    points: Vec<(usize, usize)>,
}

impl Curve {
    /// The curve as a table: programs, bytes, covered.
    fn table(&self) -> String {
        let mut text = String::from("programs\tbytes\tcovered\n");
        for (i, (bytes, covered)) in self.points.iter().enumerate() {
            let _ = writeln!(text, "{}\t{bytes}\t{covered}", i + 1);
        }
        text
    }

    /// The report's lines: the bytes of the shortest prefixes that cover
    /// 90% and 99% of what the whole corpus does.
    fn summary(&self) -> String {
        let Some(&(_, all)) = self.points.last() else {
            return String::new();
        };
        let mut text = String::new();
        for percent in [90, 99] {
            let goal = (all * percent).div_ceil(100);
            if let Some(i) = self.points.iter().position(|&(_, covered)| covered >= goal) {
                let _ = writeln!(
                    text,
                    "{percent}% of it ({goal}) in the first {} programs, {} bytes",
                    i + 1,
                    self.points[i].0
                );
            }
        }
        text + "each prefix: curve.tsv\n"
    }
}

/// A corpus as grown, and the curve of it as written.
type Written<F> = (Corpus<F>, Curve);

/// Grows the corpus by `--method` on what `coverage` measures and writes
/// it into `--out` (each program regenerated from its choices); the curve
/// of what each prefix of it covers when it is run again.
fn grow_and_write<C: Coverage>(
    fuzzer: &Fuzzer,
    spec: &Spec,
    generator: &mut Generator,
    args: &CorpusArgs,
    coverage: &C,
    on_round: &mut dyn FnMut(Round),
    say: &mut dyn FnMut(&str),
) -> Result<Written<C::Feature>, (u8, String)> {
    let options = &CorpusOptions {
        k: args.k,
        patience: args.patience,
        budget: args.budget,
        seed: args.seed,
        ..CorpusOptions::default()
    };
    let failed = |e: &dyn std::fmt::Display| (1, format!("the corpus could not be grown: {e}"));
    let corpus = match args.method {
        CorpusMethod::Bonsai => bonsai(fuzzer, spec, generator, options, coverage, on_round).map_err(|e| failed(&e))?,
        CorpusMethod::FuzzThenReduce => {
            fuzz_then_reduce(fuzzer, &args.generation, options, args.reduce_budget, coverage, say)
                .map_err(|e| failed(&e))?
        }
    };
    // The corpus run again in its order (most new coverage per byte
    // first): what each prefix of it covers.
    let mut curve = Curve::default();
    let (mut bytes, mut covered) = (0, IndexSet::new());
    for (i, kept) in corpus.programs.iter().enumerate() {
        let program = write_program(fuzzer, spec, generator, args, i, kept)?;
        bytes += program.text.len();
        covered.extend(coverage.features(&program));
        curve.points.push((bytes, covered.len()));
    }
    Ok((corpus, curve))
}

/// Writes the `i`th kept program and its choice file into `--out`; the
/// program as regenerated from them.
fn write_program(
    fuzzer: &Fuzzer,
    spec: &Spec,
    generator: &mut Generator,
    args: &CorpusArgs,
    i: usize,
    kept: &Kept,
) -> Result<Generated, (u8, String)> {
    let stem = args.out.join(format!("{i:04}"));
    let choices_path = stem.with_extension("choices");
    let source = Source::Choices {
        path: choices_path.display().to_string(),
        choices: kept.choices.clone(),
    };
    let program = fuzzer
        .program(spec, generator, source)
        .map_err(|e| (1, format!("program {i} does not regenerate: {e}")))?;
    let write = |path: &std::path::Path, text: &str| {
        std::fs::write(path, text).map_err(|e| (1, format!("writing {}: {e}", path.display())))
    };
    write(&choices_path, &kept.choices.to_text())?;
    write(&stem.with_extension(fuzzer.extension), &program.text)?;
    Ok(program)
}

/// A grown corpus, whatever it covers, as the report and the files need
/// it.
struct Grown {
    /// How many programs it holds.
    programs: usize,
    /// How many programs the rounds kept, before the set cover pruned them.
    kept: usize,
    seconds: f64,
    /// The report's lines on what it covers and how it was grown.
    lines: String,
}

impl Grown {
    fn of<F>(corpus: &Corpus<F>, lines: String) -> Grown {
        Grown {
            programs: corpus.programs.len(),
            kept: corpus.rounds.iter().map(|round| round.kept).sum(),
            seconds: corpus.elapsed.as_secs_f64(),
            lines,
        }
    }
}

/// The report's lines on how the corpus was grown: its rounds, each with
/// how many `features` the corpus covered after it.
fn rounds<F>(corpus: &Corpus<F>, args: &CorpusArgs, features: &str) -> String {
    let mut text = String::new();
    for round in &corpus.rounds {
        let what = match (args.method, round.bound) {
            (CorpusMethod::FuzzThenReduce, _) => "random programs, then each reduced".to_string(),
            (CorpusMethod::Bonsai, 0) => "whole programs, steered".to_string(),
            (CorpusMethod::Bonsai, n) => format!("bound {n} choices"),
        };
        let _ = writeln!(
            text,
            "round: {what}, {} candidates, {} kept, {} {features}",
            round.candidates, round.kept, round.covered
        );
    }
    text
}

/// The edges a program's runs on the fuzzer's in-process engines reach
/// ([`crate::edges`]). An engine's edges vary from run to run (wasmtime
/// and wasmi's reach 10-40 edges in one run of a module and not in the
/// next, and more in its first run: hash orders, caches, first uses): a
/// program that reaches an edge not confirmed before runs again; only the
/// edges of both runs count, and those of one run only are noisy, left
/// out of every program's edges from then on.
struct EngineEdges {
    engines: Vec<Implementation>,
    seen: Mutex<Seen>,
}

/// The edges confirmed so far, and those seen to be noisy.
#[derive(Default)]
struct Seen {
    confirmed: IndexSet<u32>,
    noisy: IndexSet<u32>,
}

impl EngineEdges {
    /// The fuzzer's in-process engines, in a build that counts their
    /// edges.
    fn of(fuzzer: &Fuzzer) -> Result<EngineEdges, String> {
        if crate::edges::counters() == 0 {
            return Err(format!(
                "--coverage engines: this build of {} counts no edges; build it with its engines \
                 instrumented, `XSMITH_SANCOV=<engine crates> fuzz/build --edges` in the repository \
                 (the guide's command line: `corpus`)",
                fuzzer.name
            ));
        }
        let engines: Vec<Implementation> = fuzzer
            .implementations
            .iter()
            .filter(|i| matches!(i, Implementation::InProcess { .. }))
            .copied()
            .collect();
        if engines.is_empty() {
            return Err(format!("--coverage engines: {} has no in-process engine", fuzzer.name));
        }
        Ok(EngineEdges {
            engines,
            seen: Mutex::default(),
        })
    }

    /// The edges of one run of `text` on each engine.
    fn run(&self, text: &str) -> impl Iterator<Item = u32> {
        crate::edges::take_covered();
        let unused = std::path::Path::new("in-process");
        for engine in &self.engines {
            engine.run_with(unused, text, &Limits::default(), Isolation::Thread);
        }
        crate::edges::take_covered().into_iter()
    }
}

impl Coverage for EngineEdges {
    type Feature = u32;

    /// The edges the program reaches on the engines, but for the noisy
    /// ones.
    fn features(&self, program: &Generated) -> IndexSet<u32> {
        let text = &program.text;
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let first: IndexSet<u32> = self.run(text).filter(|edge| !seen.noisy.contains(edge)).collect();
        if first.iter().all(|edge| seen.confirmed.contains(edge)) {
            return first;
        }
        let second: IndexSet<u32> = self.run(text).filter(|edge| !seen.noisy.contains(edge)).collect();
        let noisy: Vec<u32> = first.symmetric_difference(&second).copied().collect();
        seen.noisy.extend(noisy);
        let both: IndexSet<u32> = first.intersection(&second).copied().collect();
        seen.confirmed.extend(both.iter().copied());
        both
    }

    /// Whether one run of the program reaches every edge of `goal` (edges
    /// confirmed before: a second run would only take edges away).
    fn covers(&self, program: &Generated, goal: &[u32]) -> bool {
        let _held = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        let edges: IndexSet<u32> = self.run(&program.text).collect();
        goal.iter().all(|edge| edges.contains(edge))
    }
}
