//! Concise corpora (Vikram, Padhye and Sen, "Growing a Test Corpus with
//! Bonsai Fuzzing", ICSE 2021): a small set of small programs that covers
//! as many k-paths as many random programs do.
//!
//! The bound is the length of the choice sequence a program may draw from
//! (an exhausted sequence gives the smallest choices, so a short one makes
//! a small program). Starting from a tight bound, each round tries
//! candidates (fresh random sequences of the bound's length, and
//! mutations of the sequences already kept: values changed, spans deleted,
//! spans of another kept sequence inserted) and keeps a program only if
//! it covers a k-path no kept program does. A round ends when
//! [`CorpusOptions::patience`] candidates in a row added nothing; the bound
//! then doubles, and the kept programs seed the next round's mutations.
//! After the last bound, a round of whole programs steered towards the
//! k-paths still missing ([`Generator::steer_to_cover`]) adds what small
//! programs could not reach. The corpus is done then, or when the time
//! budget ends; last, the programs whose k-paths the others cover are
//! dropped (a greedy set cover, which also orders the corpus: most new
//! k-paths first).
//! Every candidate is a program the fuzzer generates, so every kept one
//! conforms; its choice file regenerates it at the same options.

use std::time::{Duration, Instant};

use indexmap::IndexSet;

use crate::choices::Choices;
use crate::generate::{GenerateError, Generator};
use crate::kpaths::{self, KPath};
use crate::random::Random;

/// How a corpus is grown.
///
/// ```
/// let options = xsmith::corpus::CorpusOptions::default();
/// assert_eq!(options.k, 2);
/// assert_eq!(options.bounds.first(), Some(&8));
/// ```
#[derive(Clone, Debug)]
pub struct CorpusOptions {
    /// The length of the k-paths to cover (every length up to it counts).
    pub k: usize,
    /// The bounds on a candidate's choice sequence, one round each, in order.
    pub bounds: Vec<usize>,
    /// A round ends after this many candidates in a row that add nothing.
    pub patience: u64,
    /// The whole corpus's time.
    pub budget: Duration,
    /// The seed of the candidates' random values and mutations.
    pub seed: u64,
}

impl Default for CorpusOptions {
    fn default() -> CorpusOptions {
        CorpusOptions {
            k: 2,
            bounds: (3..=11).map(|e| 1 << e).collect(),
            patience: 500,
            budget: Duration::from_secs(300),
            seed: 0,
        }
    }
}

/// One program kept.
#[derive(Clone, Debug)]
pub struct Kept {
    /// The values it drew: its choice sequence.
    pub choices: Choices,
    /// How many k-paths it was the first to cover.
    pub new_paths: usize,
    /// The bound of the round that kept it (0: the steered round).
    pub bound: usize,
}

/// What one round did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Round {
    /// Its bound on the choice sequence; 0 for the round of whole,
    /// steered programs.
    pub bound: usize,
    /// How many candidates it generated.
    pub candidates: u64,
    /// How many programs it kept.
    pub kept: usize,
    /// How many k-paths the corpus covered after it.
    pub covered: usize,
}

/// A grown corpus.
#[derive(Clone, Debug)]
pub struct Corpus {
    /// The kept programs, those that cover the most first.
    pub programs: Vec<Kept>,
    /// The k-paths they cover.
    pub covered: IndexSet<KPath>,
    /// The rounds run.
    pub rounds: Vec<Round>,
    /// How long it took.
    pub elapsed: Duration,
}

/// Grows a corpus of the programs `generator` makes (see the module docs);
/// `progress` hears of every round.
///
/// ```
/// use std::time::Duration;
/// use xsmith::corpus::{grow, CorpusOptions};
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let options = CorpusOptions { patience: 50, budget: Duration::from_secs(20), ..Default::default() };
/// let corpus = grow(&mut generator, &options, &mut |_| {}).unwrap();
/// // The example grammar's 2-paths: 4 productions, 15 parent-child pairs.
/// assert_eq!(corpus.covered.len(), 4 + 15);
/// assert!(corpus.programs.len() <= 15);
/// ```
pub fn grow(
    generator: &mut Generator,
    options: &CorpusOptions,
    progress: &mut dyn FnMut(Round),
) -> Result<Corpus, GenerateError> {
    let started = Instant::now();
    let mut random = Random::from_seed(options.seed);
    let mut corpus = Corpus {
        programs: Vec::new(),
        covered: IndexSet::new(),
        rounds: Vec::new(),
        elapsed: Duration::ZERO,
    };
    // The k-paths of each kept program, for the set cover at the end.
    let mut kept_paths: Vec<IndexSet<KPath>> = Vec::new();
    generator.steer_to_cover(options.k);
    // The bounded rounds, then one of whole programs steered towards the
    // k-paths still missing (bound 0).
    for bound in options.bounds.iter().copied().chain([0]) {
        let mut round = Round {
            bound,
            candidates: 0,
            kept: 0,
            covered: 0,
        };
        let mut stale = 0;
        while stale < options.patience && started.elapsed() < options.budget {
            let mut source = match bound {
                0 => Random::from_seed(random.next_u64()),
                _ => Random::from_choices(&Choices::from_values(&candidate(&mut random, &corpus.programs, bound))),
            };
            source.record();
            let program = generator.generate(&mut source)?;
            round.candidates += 1;
            let paths = kpaths::paths_of(&program, options.k);
            let new: Vec<&KPath> = paths.iter().filter(|path| !corpus.covered.contains(*path)).collect();
            if new.is_empty() {
                stale += 1;
                continue;
            }
            stale = 0;
            round.kept += 1;
            corpus.programs.push(Kept {
                choices: source.take_recorded().unwrap_or_default(),
                new_paths: new.len(),
                bound,
            });
            corpus.covered.extend(new.into_iter().cloned());
            kept_paths.push(paths);
        }
        round.covered = corpus.covered.len();
        corpus.rounds.push(round);
        progress(round);
        if started.elapsed() >= options.budget {
            break;
        }
    }
    generator.steer_to_cover(0);
    prune(&mut corpus, &kept_paths);
    corpus.elapsed = started.elapsed();
    Ok(corpus)
}

/// Drops the programs whose k-paths the others cover: keeps, greedily,
/// the program that covers the most k-paths not yet kept, the smaller on
/// ties, until the kept ones cover all (a set cover), in the order kept
/// (so the first programs of a corpus cover the most).
/// `paths` holds each program's k-paths.
fn prune(corpus: &mut Corpus, paths: &[IndexSet<KPath>]) {
    let mut missing: IndexSet<&KPath> = paths.iter().flatten().collect();
    let mut chosen = vec![false; paths.len()];
    let mut order = Vec::new();
    while !missing.is_empty() {
        let best = (0..paths.len())
            .filter(|&i| !chosen[i])
            .max_by_key(|&i| {
                let gain = paths[i].iter().filter(|p| missing.contains(p)).count();
                (
                    gain,
                    std::cmp::Reverse(corpus.programs[i].choices.len()),
                    std::cmp::Reverse(i),
                )
            })
            .expect("a missing k-path is some program's");
        chosen[best] = true;
        order.push(best);
        for path in &paths[best] {
            missing.swap_remove(path);
        }
    }
    corpus.programs = order.into_iter().map(|i| corpus.programs[i].clone()).collect();
}

/// A candidate sequence of at most `bound` values: a fresh random one, or
/// a kept one mutated.
fn candidate(random: &mut Random, kept: &[Kept], bound: usize) -> Vec<u64> {
    if kept.is_empty() || random.chance(1, 2) {
        return (0..bound).map(|_| random.next_u64()).collect();
    }
    let pick = |random: &mut Random| -> Vec<u64> {
        let index = random.below(kept.len() as u64) as usize;
        kept[index].choices.values().collect()
    };
    let mut values = pick(random);
    match random.below(3) {
        0 => {
            for _ in 0..=random.below(4) {
                if !values.is_empty() {
                    let at = random.below(values.len() as u64) as usize;
                    values[at] = random.next_u64();
                }
            }
        }
        1 => {
            if !values.is_empty() {
                let at = random.below(values.len() as u64) as usize;
                let len = (1 + random.below(8) as usize).min(values.len() - at);
                values.drain(at..at + len);
            }
        }
        _ => {
            let other = pick(random);
            if !other.is_empty() {
                let from = random.below(other.len() as u64) as usize;
                let len = (1 + random.below(16) as usize).min(other.len() - from);
                let at = random.below(values.len() as u64 + 1) as usize;
                values.splice(at..at, other[from..from + len].iter().copied());
            }
        }
    }
    values.truncate(bound);
    values
}
