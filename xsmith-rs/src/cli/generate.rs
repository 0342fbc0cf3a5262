//! Generating programs from the command line: one to standard output, or a
//! batch to a directory, with their trees and choices on request.

use std::io::Write;

use super::args::{random_seed, Args};
use crate::fuzzer::{Fuzzer, Source};
use crate::generate::{ChoiceLog, Generator};
use crate::options::Options;

/// Why a command could not do what it was asked.
pub(super) enum Failure {
    /// A bad option or value (status 2).
    Usage(String),
    /// Something went wrong doing what was asked (status 1).
    Run(String),
}

/// Generates the programs `args` ask for (see the [module docs](super)).
pub(super) fn generate(fuzzer: &Fuzzer, args: &Args) -> Result<(), Failure> {
    let spec = (fuzzer.spec)().map_err(|e| Failure::Run(format!("the fuzzer's spec is wrong: {e}")))?;
    let mut generator = Generator::new(&spec, args.options()).map_err(|e| Failure::Usage(e.to_string()))?;
    generator.count_offers(args.log_choices);
    let bytes = match &args.bytes {
        Some(path) => {
            Some(std::fs::read(path).map_err(|e| Failure::Usage(format!("--bytes {}: {e}", path.display())))?)
        }
        None => None,
    };
    let choices = match &args.choices {
        Some(path) => Some(Source::from_choice_file(path).map_err(|e| Failure::Usage(format!("--choices {e}")))?),
        None => None,
    };
    let input = match &args.input {
        Some(path) => {
            let bytes = std::fs::read(path).map_err(|e| Failure::Usage(format!("--input {}: {e}", path.display())))?;
            Some(Source::Input {
                path: path.display().to_string(),
                bytes,
            })
        }
        None => None,
    };
    let first_seed = args.seed.unwrap_or_else(random_seed);
    let count = args.count.unwrap_or(1);
    if let Some(dir) = &args.output_dir {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("--output-dir {}: {e}", dir.display())))?;
    }
    if let (Some(dir), Some(_)) = (&args.save_choices, args.count) {
        std::fs::create_dir_all(dir).map_err(|e| Failure::Usage(format!("--save-choices {}: {e}", dir.display())))?;
    }
    if let Some(k) = args.cover {
        steer(
            fuzzer,
            &mut generator,
            k,
            args.covered_from.unwrap_or(first_seed),
            first_seed,
        )?;
    }
    let swarm = args.swarm.swarm();
    let mut log = ChoiceLog::default();
    let mut stdout = std::io::stdout().lock();
    let mut failed = 0u64;
    for i in 0..count {
        let (source, stem, label) = match (&bytes, &args.bytes) {
            _ if input.is_some() => {
                let path = args.input.as_ref().expect("read above").display().to_string();
                (
                    input.clone().expect("read above"),
                    "input".to_string(),
                    format!("input {path}"),
                )
            }
            _ if choices.is_some() => {
                let path = args.choices.as_ref().expect("read above").display();
                (
                    choices.clone().expect("read above"),
                    "choices".to_string(),
                    format!("choices {path}"),
                )
            }
            (Some(bytes), Some(path)) => {
                let offset = args
                    .bytes_offset
                    .checked_add(i as usize)
                    .ok_or_else(|| Failure::Usage(format!("--bytes-offset {} is too large", args.bytes_offset)))?;
                let source = Source::Bytes {
                    path: path.display().to_string(),
                    bytes: bytes.clone(),
                    offset,
                };
                (source, format!("bytes-{offset}"), format!("bytes offset {offset}"))
            }
            _ => {
                let seed = first_seed.wrapping_add(i);
                let source = match args.cover {
                    Some(k) => Source::Steered {
                        seed,
                        k,
                        from: args.covered_from.unwrap_or(first_seed),
                    },
                    None => Source::Seed(seed),
                };
                (source, seed.to_string(), format!("seed {seed}"))
            }
        };
        // A swarm program has a generator of its own, for the options it drew.
        let drawn = match (&swarm, &source) {
            (Some(swarm), Source::Seed(seed)) => Some(swarm.options(&spec, generator.options(), *seed)),
            _ => None,
        };
        let mut own = None;
        let partial = (args.print_tree).then(|| (source.clone(), drawn.clone()));
        let result = match drawn {
            Some(options) => match Generator::new(&spec, options.clone()) {
                Ok(mut g) => {
                    g.count_offers(args.log_choices);
                    let g = own.insert(g);
                    let command = fuzzer.command(&source, g.options());
                    fuzzer.program(&spec, g, source).map_err(|e| (e.to_string(), command))
                }
                Err(e) => Err((e.to_string(), fuzzer.command(&source, &options))),
            },
            None => {
                let command = fuzzer.command(&source, generator.options());
                fuzzer
                    .program(&spec, &mut generator, source)
                    .map_err(|e| (e.to_string(), command))
            }
        };
        if let Some(own) = own {
            log.merge(own.choice_log());
        }
        let program = match result {
            Ok(program) => program,
            Err((error, command)) => {
                // The batch goes on: one failing program loses no other.
                failed += 1;
                if let Some((source, drawn)) = partial {
                    let options = drawn.unwrap_or_else(|| generator.options().clone());
                    eprint!("{}", partial_outline(&spec, options, &source));
                }
                eprintln!("{}: error: {label}: {error}\n  regenerate with: {command}", fuzzer.name);
                continue;
            }
        };
        if args.print_tree {
            eprint!("{}", program.program.outline(spec.grammar()));
        }
        if let Some(path) = &args.save_choices {
            let path = match args.count {
                Some(_) => path.join(format!("{stem}.choices")),
                None => path.clone(),
            };
            std::fs::write(&path, program.choices.to_text())
                .map_err(|e| Failure::Run(format!("writing {}: {e}", path.display())))?;
        }
        match &args.output_dir {
            Some(dir) => {
                let path = dir.join(format!("{stem}.{}", fuzzer.extension));
                std::fs::write(&path, &program.text)
                    .map_err(|e| Failure::Run(format!("writing {}: {e}", path.display())))?;
            }
            None => stdout
                .write_all(program.text.as_bytes())
                .map_err(|e| Failure::Run(format!("writing standard output: {e}")))?,
        }
    }
    if args.log_choices {
        log.merge(generator.choice_log());
        eprintln!("{}", log.report(&spec));
    }
    match failed {
        0 => Ok(()),
        _ => Err(Failure::Run(format!(
            "{failed} of {count} programs could not be generated"
        ))),
    }
}

/// Steers `generator` towards k-paths not yet covered and generates, to
/// discard, the programs of seeds `from` to `first - 1`: what a `--cover`
/// batch from `from` would have generated before seed `first`.
fn steer(fuzzer: &Fuzzer, generator: &mut Generator, k: usize, from: u64, first: u64) -> Result<(), Failure> {
    if from > first {
        return Err(Failure::Usage(format!(
            "--covered-from {from} comes after --seed {first}"
        )));
    }
    generator.steer_to_cover(k);
    for seed in from..first {
        let source = Source::Steered { seed, k, from };
        generator.generate(&mut source.random()).map_err(|e| {
            let command = fuzzer.command(&source, generator.options());
            Failure::Run(format!(
                "seed {seed}: {e}
  regenerate with: {command}"
            ))
        })?;
    }
    Ok(())
}

/// The outline of the program of `source` as far as its generation got
/// (generation is deterministic: the same failure, with the tree built
/// until then), for `--print-tree` of a program that could not be made.
fn partial_outline(spec: &crate::spec::Spec, options: Options, source: &Source) -> String {
    let Ok(mut generator) = Generator::new(spec, options) else {
        return String::new();
    };
    let mut program = generator.start();
    let _ = generator.complete(&mut program, &mut source.random());
    program.outline(spec.grammar())
}
