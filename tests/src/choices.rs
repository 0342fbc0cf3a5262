//! The choice-sequence check every fuzzer gets: a program is its choice
//! sequence. Replaying a recorded sequence gives the same program; random
//! sequences and mutated recordings (spans deleted, zeroed, duplicated or
//! shuffled, values changed, the end cut off) all generate, and the
//! programs of some of them run to the same output on every one of the
//! fuzzer's implementations.
//!
//! ```
//! use xsmith::{Execution, Fuzzer, Implementation};
//! const LENGTH: &[Implementation] = &[
//!     Implementation::InProcess { name: "length", run: |text| Execution::Output(text.len().to_string()) },
//! ];
//! let fuzzer = Fuzzer { name: "x", version: "1", extension: "t",
//!     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//!     implementations: LENGTH };
//! let counts = xsmith_tests::choices::Counts { replays: 20, random: 20, mutated: 20, run: 5 };
//! xsmith_tests::choices::check_choice_sequences(&fuzzer, LENGTH, counts);
//! ```

use xsmith::{Choices, Fuzzer, Generator, Implementation, Limits, Options, Random, Source, Verdict};

use crate::scratch_dir;

/// How many sequences of each kind [`check_choice_sequences`] tries.
#[derive(Clone, Copy, Debug)]
pub struct Counts {
    /// Seeds whose recorded sequence is replayed.
    pub replays: u64,
    /// Random sequences.
    pub random: u64,
    /// Mutated recordings.
    pub mutated: u64,
    /// Programs of random and mutated sequences run on the fuzzer's
    /// implementations.
    pub run: u64,
}

/// One mutation of `values`, drawn from `random`: what a reducer or a
/// coverage-guided fuzzer does to a sequence.
fn mutate(values: &mut Vec<u64>, random: &mut Random) {
    let len = values.len() as u64;
    let at = random.below(len + 1) as usize;
    let span = (random.below(16) as usize + 1).min(values.len() - at.min(values.len()));
    match random.below(6) {
        0 => {
            values.drain(at..at + span);
        }
        1 => values[at..at + span].iter_mut().for_each(|v| *v = 0),
        2 => {
            let copy: Vec<u64> = values[at..at + span].to_vec();
            values.splice(at..at, copy);
        }
        3 => values[at..at + span].reverse(),
        4 => values[at..at + span].iter_mut().for_each(|v| *v = random.below(8)),
        _ => values.truncate(at),
    }
}

/// Checks the fuzzer's programs against their choice sequences (see the
/// module's documentation), running programs on `implementations`; panics
/// naming the sequence that failed.
pub fn check_choice_sequences(fuzzer: &Fuzzer, implementations: &[Implementation], counts: Counts) {
    let spec = (fuzzer.spec)().expect("the fuzzer's spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options suit the spec");
    let width = fuzzer.width;
    let render = |program: &xsmith::Program| xsmith::render::render_tree(&spec, program, width);
    let choices = |choices: Choices| Source::Choices {
        path: "sequence".into(),
        choices,
    };

    let mut recordings = Vec::new();
    for seed in 0..counts.replays {
        let original = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .expect("seeded generation");
        let replayed = fuzzer
            .program(&spec, &mut generator, choices(original.choices.clone()))
            .unwrap_or_else(|e| panic!("the replay of seed {seed}: {e}"));
        assert!(
            render(&original.program) == render(&replayed.program),
            "the replay of seed {seed} differs"
        );
        assert_eq!(
            replayed.choices, original.choices,
            "seed {seed}: the replay draws as recorded"
        );
        recordings.push(original.choices);
    }

    let mut random = Random::from_seed(0x5eed);
    let mut texts = Vec::new();
    for index in 0..counts.random + counts.mutated {
        let values: Vec<u64> = match index < counts.random {
            // Small values half the time: the choices a reducer leaves.
            true => {
                let len = random.below(3_000);
                let small = random.chance(1, 2);
                (0..len)
                    .map(|_| if small { random.below(4) } else { random.next_u64() })
                    .collect()
            }
            false => {
                let recording = random.pick(&recordings);
                let mut values: Vec<u64> = recording.values().collect();
                for _ in 0..=random.below(4) {
                    mutate(&mut values, &mut random);
                }
                values
            }
        };
        let sequence = Choices::from_values(&values);
        let program = fuzzer
            .program(&spec, &mut generator, choices(sequence.clone()))
            .unwrap_or_else(|e| panic!("sequence {index} ({}):\n{e}", sequence.to_text()));
        if (texts.len() as u64) < counts.run && (index % 2 == 0 || index >= counts.random) {
            texts.push((index, program.text));
        }
    }

    let dir = scratch_dir(&format!("{}-choices", fuzzer.name));
    for (index, text) in texts {
        let path = dir.path().join(format!("{index}.{}", fuzzer.extension));
        std::fs::write(&path, &text).expect("the scratch directory is writable");
        let runs: Vec<xsmith::Run> = implementations
            .iter()
            .map(|implementation| {
                implementation
                    .check()
                    .unwrap_or_else(|e| panic!("{e} (./test.sh installs what the tests need)"));
                implementation.run(&path, &text, &Limits::default())
            })
            .collect();
        let executions: Vec<xsmith::Execution> = runs.iter().map(|run| run.execution.clone()).collect();
        let verdict = Verdict::of(&executions);
        assert_eq!(verdict, Verdict::Agree, "sequence {index}: {executions:?}\n{text}");
    }
}
