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
//! dropped (a greedy set cover weighted by size, which also orders the
//! corpus: most new k-paths per byte first).
//! Every candidate is a program the fuzzer generates, so every kept one
//! conforms; its choice file regenerates it at the same options.
//!
//! What a corpus covers need not be k-paths: [`grow_by`] takes any
//! measure of a program's features, and `corpus --coverage engines` the
//! edges of the in-process engines that run it ([`crate::edges`]), what
//! Bonsai's paper measured. [`fuzz_then_reduce`] is the paper's baseline,
//! to measure Bonsai against.

use std::time::{Duration, Instant};

use indexmap::IndexSet;

use crate::choices::Choices;
use crate::fuzzer::{Fuzzer, Generated, Source};
use crate::generate::{GenerateError, Generator};
use crate::kpaths::{self, KPath};
use crate::options::Options;
use crate::random::Random;
use crate::reduce::{Case, ReduceError, Reducer};
use crate::spec::Spec;

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
    /// How many features (k-paths, edges) it was the first to cover.
    pub new_paths: usize,
    /// The bound of the round that kept it (0: the steered round).
    pub bound: usize,
    /// Its size, by which the set cover weighs it ([`Measured::size`]).
    pub size: usize,
}

/// A candidate program as [`grow_by`]'s measure gives it back.
///
/// ```
/// let measured = xsmith::corpus::Measured { choices: Default::default(), features: [7u32].into_iter().collect(), size: 120 };
/// assert!(measured.features.contains(&7));
/// ```
#[derive(Clone, Debug)]
pub struct Measured<F> {
    /// The values it drew: its choice sequence.
    pub choices: Choices,
    /// What it covers.
    pub features: IndexSet<F>,
    /// Its size, in any unit that is the same for every candidate (the
    /// bytes of its text, its nodes): the set cover at the end keeps the
    /// programs that cover the most per unit of size, so that the corpus
    /// is small in that unit.
    pub size: usize,
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
    /// How many features the corpus covered after it.
    pub covered: usize,
}

/// A grown corpus, of the programs that cover features `F` (k-paths, or
/// the edges of instrumented engines).
#[derive(Clone, Debug)]
pub struct Corpus<F = KPath> {
    /// The kept programs, those that cover the most first.
    pub programs: Vec<Kept>,
    /// The features they cover.
    pub covered: IndexSet<F>,
    /// The rounds run.
    pub rounds: Vec<Round>,
    /// How long it took.
    pub elapsed: Duration,
}

/// Grows a corpus of the programs `generator` makes that covers k-paths
/// (see the module docs), weighing programs by their nodes (the generator
/// renders no text; [`bonsai`] weighs the fuzzer's programs by their
/// bytes); `progress` hears of every round.
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
    generator.steer_to_cover(options.k);
    let corpus = grow_by(
        options,
        &mut |mut source| {
            source.record();
            let program = generator.generate(&mut source)?;
            Ok(Measured {
                choices: source.take_recorded().unwrap_or_default(),
                features: kpaths::paths_of(&program, options.k),
                size: program.len(),
            })
        },
        progress,
    );
    generator.steer_to_cover(0);
    corpus
}

/// Grows a corpus (see the module docs) of features `F` that `measure`
/// gives: it generates the program of the random source it is handed,
/// and gives the choices the program drew with the features it covers and
/// its size. [`grow`] measures k-paths; [`bonsai`] any [`Coverage`] of a
/// fuzzer's programs, such as the edges the engines run
/// ([`crate::edges`]). The k-paths still decide the last round's
/// steering, when the generator steers.
///
/// ```
/// use std::time::Duration;
/// use xsmith::corpus::{grow_by, CorpusOptions};
/// let spec = xsmith::example::spec();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let options = CorpusOptions { patience: 50, budget: Duration::from_secs(20), ..Default::default() };
/// // The features: the productions a program uses.
/// let corpus = grow_by(&options, &mut |mut source| {
///     source.record();
///     let program = generator.generate(&mut source)?;
///     let used = program.ids().map(|n| program.node(n).production).collect();
///     let choices = source.take_recorded().unwrap_or_default();
///     Ok(xsmith::corpus::Measured { choices, features: used, size: program.len() })
/// }, &mut |_| {}).unwrap();
/// assert_eq!(corpus.covered.len(), 4);
/// assert!(corpus.programs.len() <= 4);
/// ```
pub fn grow_by<F: Clone + Eq + std::hash::Hash>(
    options: &CorpusOptions,
    measure: &mut dyn FnMut(Random) -> Result<Measured<F>, GenerateError>,
    progress: &mut dyn FnMut(Round),
) -> Result<Corpus<F>, GenerateError> {
    let started = Instant::now();
    let mut random = Random::from_seed(options.seed);
    let mut corpus = Corpus {
        programs: Vec::new(),
        covered: IndexSet::new(),
        rounds: Vec::new(),
        elapsed: Duration::ZERO,
    };
    // The features of each kept program, for the set cover at the end.
    let mut kept_features: Vec<IndexSet<F>> = Vec::new();
    // The bounded rounds, then one of whole programs (bound 0: steered
    // towards the k-paths still missing, when the generator steers).
    for bound in options.bounds.iter().copied().chain([0]) {
        let mut round = Round {
            bound,
            candidates: 0,
            kept: 0,
            covered: 0,
        };
        let mut stale = 0;
        while stale < options.patience && started.elapsed() < options.budget {
            let source = match bound {
                0 => Random::from_seed(random.next_u64()),
                _ => Random::from_choices(&Choices::from_values(&candidate(&mut random, &corpus.programs, bound))),
            };
            let Measured {
                choices,
                features,
                size,
            } = measure(source)?;
            round.candidates += 1;
            let new: Vec<&F> = features.iter().filter(|f| !corpus.covered.contains(*f)).collect();
            if new.is_empty() {
                stale += 1;
                continue;
            }
            stale = 0;
            round.kept += 1;
            corpus.programs.push(Kept {
                choices,
                new_paths: new.len(),
                bound,
                size,
            });
            corpus.covered.extend(new.into_iter().cloned());
            kept_features.push(features);
        }
        round.covered = corpus.covered.len();
        corpus.rounds.push(round);
        progress(round);
        if started.elapsed() >= options.budget {
            break;
        }
    }
    prune(&mut corpus, &kept_features);
    corpus.elapsed = started.elapsed();
    Ok(corpus)
}

/// Grows a corpus (see the module docs) of `fuzzer`'s programs that
/// covers what `coverage` measures, weighing programs by the bytes of
/// their text: [`grow_by`] on the programs as the fuzzer writes them.
/// `progress` hears of every round.
///
/// ```
/// use std::time::Duration;
/// use xsmith::corpus::{bonsai, CorpusOptions, KPathCoverage};
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let spec = (fuzzer.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let options = CorpusOptions { patience: 50, budget: Duration::from_secs(20), ..Default::default() };
/// let corpus = bonsai(&fuzzer, &spec, &mut generator, &options, &KPathCoverage { k: 2 }, &mut |_| {}).unwrap();
/// assert_eq!(corpus.covered.len(), 4 + 15);
/// ```
pub fn bonsai<C: Coverage>(
    fuzzer: &Fuzzer,
    spec: &Spec,
    generator: &mut Generator,
    options: &CorpusOptions,
    coverage: &C,
    progress: &mut dyn FnMut(Round),
) -> Result<Corpus<C::Feature>, GenerateError> {
    generator.steer_to_cover(options.k);
    let source = Source::Choices {
        path: "candidate".into(),
        choices: Choices::default(),
    };
    let grown = grow_by(
        options,
        &mut |random| {
            let generated = fuzzer.program_from(spec, generator, &source, random)?;
            Ok(Measured {
                features: coverage.features(&generated),
                size: generated.text.len(),
                choices: generated.choices,
            })
        },
        progress,
    );
    generator.steer_to_cover(0);
    grown
}

/// Bonsai's baseline, fuzz-then-reduce: whole random programs (seeds
/// [`CorpusOptions::seed`], the next, ...) for [`CorpusOptions::budget`],
/// keeping each that covers a feature no kept one did; then each kept
/// program reduced ([`Reducer::reduce_keeping`], `reduce_budget` each) to
/// the smallest program that still covers the features it added (those
/// that a second measurement of it gives again: an engine's edges may
/// vary between runs, and one it reached once is no goal). `coverage`
/// measures programs; `progress` hears what is being done. The corpus's
/// `covered` is the union of the reduced programs' features; last, the
/// same set cover as [`grow_by`]'s drops the reduced programs whose
/// features the others cover, and orders the rest.
///
/// ```
/// use std::time::Duration;
/// use xsmith::corpus::{fuzz_then_reduce, CorpusOptions, KPathCoverage};
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let options = CorpusOptions { budget: Duration::from_secs(1), ..Default::default() };
/// let paths = KPathCoverage { k: 2 };
/// let corpus = fuzz_then_reduce(&fuzzer, &Default::default(), &options, Duration::from_secs(5), &paths, &mut |_| {}).unwrap();
/// // Every 2-path of the example grammar, in programs smaller than random ones.
/// assert_eq!(corpus.covered.len(), 4 + 15);
/// ```
pub fn fuzz_then_reduce<C: Coverage>(
    fuzzer: &Fuzzer,
    generation: &Options,
    options: &CorpusOptions,
    reduce_budget: Duration,
    coverage: &C,
    progress: &mut dyn FnMut(&str),
) -> Result<Corpus<C::Feature>, ReduceError> {
    let measure = |generated: &Generated| coverage.features(generated);
    let started = Instant::now();
    let spec = (fuzzer.spec)().map_err(|e| ReduceError::Generate(format!("the fuzzer's spec: {e}")))?;
    let mut generator = Generator::new(&spec, generation.clone()).map_err(|e| ReduceError::Generate(e.to_string()))?;
    let mut covered = IndexSet::new();
    let mut fuzzed = Vec::new();
    let mut round = Round {
        bound: 0,
        candidates: 0,
        kept: 0,
        covered: 0,
    };
    while started.elapsed() < options.budget {
        let seed = options.seed.wrapping_add(round.candidates);
        let generated = fuzzer
            .program(&spec, &mut generator, Source::Seed(seed))
            .map_err(|e| ReduceError::Generate(format!("seed {seed}: {e}")))?;
        round.candidates += 1;
        let new: IndexSet<C::Feature> = measure(&generated)
            .into_iter()
            .filter(|f| !covered.contains(f))
            .collect();
        if !new.is_empty() {
            covered.extend(new.iter().cloned());
            fuzzed.push((generated.choices, new));
            round.kept += 1;
        }
    }
    round.covered = covered.len();
    progress(&format!(
        "fuzzed {} programs, kept {} covering {}",
        round.candidates, round.kept, round.covered
    ));
    let case = Case {
        fuzzer,
        options: generation.clone(),
        implementations: Vec::new(),
        limits: Default::default(),
    };
    let reducer = Reducer::new(case, 1, reduce_budget)?;
    let mut corpus = Corpus {
        programs: Vec::new(),
        covered: IndexSet::new(),
        rounds: vec![round],
        elapsed: Duration::ZERO,
    };
    for (index, (choices, new)) in fuzzed.into_iter().enumerate() {
        progress(&format!("reducing program {} of {}", index + 1, round.kept));
        let source = Source::Choices {
            path: format!("kept-{index}"),
            choices: choices.clone(),
        };
        let again = measure(
            &fuzzer
                .program(&spec, &mut generator, source.clone())
                .map_err(|e| ReduceError::Generate(format!("kept program {index} does not regenerate: {e}")))?,
        );
        let goal: Vec<C::Feature> = new.into_iter().filter(|f| again.contains(f)).collect();
        if goal.is_empty() {
            continue;
        }
        let keep = |generated: &Generated| coverage.covers(generated, &goal);
        // A program whose features vary from run to run may lose its goal
        // at the reducer's first test: it is kept as it is.
        let choices = match reducer.reduce_keeping(source, &keep, &mut |_| {}) {
            Ok(reduced) => Choices::from_values(&reduced.reduced.values),
            Err(ReduceError::PropertyMissing) => choices,
            Err(e) => return Err(e),
        };
        corpus.programs.push(Kept {
            choices,
            new_paths: goal.len(),
            bound: 0,
            size: 0,
        });
    }
    let mut features = Vec::new();
    for kept in &mut corpus.programs {
        let source = Source::Choices {
            path: "reduced".into(),
            choices: kept.choices.clone(),
        };
        let generated = fuzzer
            .program(&spec, &mut generator, source)
            .map_err(|e| ReduceError::Generate(format!("a reduced program does not regenerate: {e}")))?;
        let covers = measure(&generated);
        corpus.covered.extend(covers.iter().cloned());
        features.push(covers);
        kept.size = generated.text.len();
    }
    // The same set cover as Bonsai's: a reduced program may add nothing
    // to the others.
    prune(&mut corpus, &features);
    corpus.elapsed = started.elapsed();
    Ok(corpus)
}

/// What programs cover, as [`fuzz_then_reduce`] measures it.
///
/// ```
/// use xsmith::corpus::{Coverage, KPathCoverage};
/// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
/// #     implementations: &[] };
/// let spec = (fuzzer.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = fuzzer.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
/// let paths = KPathCoverage { k: 1 }.features(&program);
/// assert!(KPathCoverage { k: 1 }.covers(&program, &paths.into_iter().collect::<Vec<_>>()));
/// ```
pub trait Coverage: Sync {
    /// What is covered: a k-path, an edge.
    type Feature: Clone + Eq + std::hash::Hash + Sync;

    /// The features `program` covers.
    fn features(&self, program: &Generated) -> IndexSet<Self::Feature>;

    /// Whether `program` covers every feature of `goal` (by default, from
    /// its [`features`](Coverage::features); a measure that confirms each
    /// new feature, as the engines' edges do, can check with less).
    fn covers(&self, program: &Generated, goal: &[Self::Feature]) -> bool {
        let features = self.features(program);
        goal.iter().all(|feature| features.contains(feature))
    }
}

/// The k-paths of every length up to `k` ([`kpaths::paths_of`]).
#[derive(Clone, Copy, Debug)]
pub struct KPathCoverage {
    /// The longest k-paths counted.
    pub k: usize,
}

impl Coverage for KPathCoverage {
    type Feature = KPath;

    fn features(&self, program: &Generated) -> IndexSet<KPath> {
        kpaths::paths_of(&program.program, self.k)
    }
}

/// Drops the programs whose features the others cover: keeps, greedily,
/// the program that covers the most features not yet kept per unit of its
/// size ([`Kept::size`]; Chvátal's greedy weighted set cover, which makes
/// the corpus small in that unit), the one of fewer choices on ties, until
/// the kept ones cover all, in the order kept (so the first programs of a
/// corpus cover the most for their size).
/// `paths` holds each program's features.
fn prune<F: Eq + std::hash::Hash>(corpus: &mut Corpus<F>, paths: &[IndexSet<F>]) {
    // Each feature as a number, each program's as a list of them: an
    // engine's program has thousands of edges.
    let mut numbers: IndexSet<&F> = IndexSet::new();
    let features: Vec<Vec<usize>> = paths
        .iter()
        .map(|path| path.iter().map(|f| numbers.insert_full(f).0).collect())
        .collect();
    let mut missing = vec![true; numbers.len()];
    let mut left = numbers.len();
    let offer = |index: usize, gain: usize| Offer {
        gain,
        size: corpus.programs[index].size.max(1),
        choices: corpus.programs[index].choices.len(),
        index,
    };
    // The greedy choice, lazily: a program's gain only falls as others
    // are chosen, so one whose gain, counted again, still leads the
    // offers counted before is the best (the same choice as counting all).
    let mut heap: std::collections::BinaryHeap<Offer> = (0..paths.len()).map(|i| offer(i, features[i].len())).collect();
    let mut order = Vec::new();
    while left > 0 {
        let i = heap.pop().expect("a missing feature is some program's").index;
        let gain = features[i].iter().filter(|&&f| missing[f]).count();
        if heap.peek().is_some_and(|top| offer(i, gain) < *top) {
            heap.push(offer(i, gain));
            continue;
        }
        order.push(i);
        for &f in &features[i] {
            left -= usize::from(std::mem::replace(&mut missing[f], false));
        }
    }
    corpus.programs = order.into_iter().map(|i| corpus.programs[i].clone()).collect();
}

/// A program as the set cover weighs it: the better offer covers more
/// features not yet kept per unit of size, then has fewer choices, then
/// came first.
struct Offer {
    gain: usize,
    size: usize,
    choices: usize,
    index: usize,
}

impl Ord for Offer {
    fn cmp(&self, other: &Offer) -> std::cmp::Ordering {
        // gain / size against other.gain / other.size, without division.
        let per_size = |a: &Offer, b: &Offer| a.gain as u128 * b.size as u128;
        per_size(self, other)
            .cmp(&per_size(other, self))
            .then(other.choices.cmp(&self.choices))
            .then(other.index.cmp(&self.index))
    }
}

impl PartialOrd for Offer {
    fn partial_cmp(&self, other: &Offer) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Offer {
    fn eq(&self, other: &Offer) -> bool {
        self.cmp(other).is_eq()
    }
}

impl Eq for Offer {}

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
