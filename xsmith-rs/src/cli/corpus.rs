//! `corpus`: a concise corpus grown and written to a directory.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::process::ExitCode;

use super::args::CorpusArgs;
use crate::corpus::{grow, Corpus, CorpusOptions, Round};
use crate::fuzzer::{Fuzzer, Source};
use crate::generate::Generator;

/// Grows the corpus (on a thread with the generation stack) and writes it;
/// exit status 2 for bad options, 1 when it cannot be made or written.
pub(super) fn corpus(fuzzer: &Fuzzer, args: &CorpusArgs) -> ExitCode {
    super::worker::report_from_generation_thread(fuzzer, "corpus", || build(fuzzer, args))
}

/// Grows and writes the corpus; its report.
fn build(fuzzer: &Fuzzer, args: &CorpusArgs) -> Result<String, (u8, String)> {
    let spec = (fuzzer.spec)().map_err(|e| (1, format!("the fuzzer's spec is wrong: {e}")))?;
    let mut generator = Generator::new(&spec, args.generation.clone()).map_err(|e| (2, e.to_string()))?;
    std::fs::create_dir_all(&args.out).map_err(|e| (2, format!("--out {}: {e}", args.out.display())))?;
    let options = CorpusOptions {
        k: args.k,
        patience: args.patience,
        budget: args.budget,
        seed: args.seed,
        ..CorpusOptions::default()
    };
    let bar = indicatif::ProgressBar::new_spinner();
    if !std::io::stderr().is_terminal() {
        bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
    }
    let corpus = grow(&mut generator, &options, &mut |round: Round| {
        bar.set_message(format!(
            "round of bound {} done: {} k-paths after {} candidates",
            round.bound, round.covered, round.candidates
        ));
    })
    .map_err(|e| (1, format!("a candidate could not be generated: {e}")))?;
    bar.finish_and_clear();
    let mut bytes = 0;
    for (i, kept) in corpus.programs.iter().enumerate() {
        let stem = args.out.join(format!("{i:04}"));
        let choices_path = stem.with_extension("choices");
        let source = Source::Choices {
            path: choices_path.display().to_string(),
            choices: kept.choices.clone(),
        };
        let program = fuzzer
            .program(&spec, &mut generator, source)
            .map_err(|e| (1, format!("program {i} does not regenerate: {e}")))?;
        bytes += program.text.len();
        let write = |path: &std::path::Path, text: &str| {
            std::fs::write(path, text).map_err(|e| (1, format!("writing {}: {e}", path.display())))
        };
        write(&choices_path, &kept.choices.to_text())?;
        write(&stem.with_extension(fuzzer.extension), &program.text)?;
    }
    let report = report(&corpus, args.k, bytes);
    let path = args.out.join("coverage");
    std::fs::write(&path, &report).map_err(|e| (1, format!("writing {}: {e}", path.display())))?;
    Ok(report)
}

/// The corpus's report: sizes, coverage by length, rounds.
fn report(corpus: &Corpus, k: usize, bytes: usize) -> String {
    let programs = corpus.programs.len();
    let mut text = format!(
        "programs {programs} (of {} kept before pruning), bytes {bytes} (mean {}), seconds {:.1}\n",
        corpus.rounds.iter().map(|r| r.kept).sum::<usize>(),
        bytes / programs.max(1),
        corpus.elapsed.as_secs_f64()
    );
    for length in 1..=k {
        let covered = corpus.covered.iter().filter(|p| p.len() == length).count();
        let _ = writeln!(text, "k={length}: covered {covered}");
    }
    for round in &corpus.rounds {
        let bound = match round.bound {
            0 => "whole programs, steered".to_string(),
            n => format!("bound {n} choices"),
        };
        let _ = writeln!(
            text,
            "round: {bound}, {} candidates, {} kept, {} k-paths",
            round.candidates, round.kept, round.covered
        );
    }
    text
}
