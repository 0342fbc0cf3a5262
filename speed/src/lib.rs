//! xsmith's fuzzers beside their peers, measured in one run
//! (`cargo bench -p xsmith-speed`): the engine's cost per node against a
//! hand-written generator of the same grammar, `xsmith-wasm` against
//! wasm-smith, and how a node's cost grows with the program.
//!
//! Each contender is a closure that makes one batch of programs and says
//! how much it made ([`Work`]); [`race`] runs every contender in turn for a
//! fixed time, round after round, so that a slow stretch of the machine
//! falls on all of them alike, and reports each one's median rate.
//!
//! ```
//! use std::time::Duration;
//! use xsmith_speed::{by_hand, race, Contender};
//! let mut contenders = vec![Contender::new("calc by hand, depth 6", || by_hand::batch(6, 0..10))];
//! let rates = race(&mut contenders, 2, Duration::from_millis(20));
//! assert!(rates[0].nodes_per_second > 0.0);
//! ```

use std::time::{Duration, Instant};

pub mod by_hand;
pub mod wasm;

/// What one batch of a contender made.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Work {
    /// Programs made.
    pub programs: u64,
    /// Nodes of their trees (for a generator with no tree, what it would
    /// have built: one per production chosen).
    pub nodes: u64,
    /// Bytes of output: program text, or a binary module's bytes.
    pub bytes: u64,
}

impl std::ops::AddAssign for Work {
    fn add_assign(&mut self, other: Work) {
        self.programs += other.programs;
        self.nodes += other.nodes;
        self.bytes += other.bytes;
    }
}

/// A generator under measurement: a name and a closure that makes one
/// batch of programs.
pub struct Contender<'a> {
    /// How the report names it.
    pub name: String,
    batch: Box<dyn FnMut() -> Work + 'a>,
}

impl<'a> Contender<'a> {
    /// A contender named `name` whose batches `batch` makes.
    ///
    /// ```
    /// let contender = xsmith_speed::Contender::new("nothing", || xsmith_speed::Work::default());
    /// assert_eq!(contender.name, "nothing");
    /// ```
    pub fn new(name: impl Into<String>, batch: impl FnMut() -> Work + 'a) -> Contender<'a> {
        Contender {
            name: name.into(),
            batch: Box::new(batch),
        }
    }
}

/// A contender's median rates over the rounds of a [`race`].
#[derive(Clone, Debug, PartialEq)]
pub struct Rates {
    /// The contender's name.
    pub name: String,
    /// Programs per second.
    pub programs_per_second: f64,
    /// Nodes per second.
    pub nodes_per_second: f64,
    /// Bytes of output per second.
    pub bytes_per_second: f64,
    /// Mean nodes per program.
    pub nodes_per_program: f64,
    /// Mean bytes per program.
    pub bytes_per_program: f64,
}

/// Runs `rounds` rounds; in each, every contender makes batches for at
/// least `round_time` (one batch at the least). Returns each contender's
/// median rates, in the contenders' order.
///
/// ```
/// use std::time::Duration;
/// let mut contenders = vec![xsmith_speed::Contender::new("one", || xsmith_speed::Work { programs: 1, nodes: 3, bytes: 9 })];
/// let rates = xsmith_speed::race(&mut contenders, 3, Duration::from_millis(1));
/// assert_eq!(rates[0].bytes_per_program, 9.0);
/// ```
pub fn race(contenders: &mut [Contender], rounds: usize, round_time: Duration) -> Vec<Rates> {
    let mut samples: Vec<Vec<(Work, Duration)>> = vec![Vec::new(); contenders.len()];
    for _ in 0..rounds.max(1) {
        for (contender, samples) in contenders.iter_mut().zip(&mut samples) {
            let (mut work, start) = (Work::default(), Instant::now());
            while work.programs == 0 || start.elapsed() < round_time {
                work += std::hint::black_box((contender.batch)());
            }
            samples.push((work, start.elapsed()));
        }
    }
    contenders
        .iter()
        .zip(samples)
        .map(|(contender, samples)| {
            let rate = |amount: fn(&Work) -> u64| {
                median(
                    samples
                        .iter()
                        .map(|(work, time)| amount(work) as f64 / time.as_secs_f64()),
                )
            };
            let total = samples.iter().fold(Work::default(), |mut total, (work, _)| {
                total += *work;
                total
            });
            Rates {
                name: contender.name.clone(),
                programs_per_second: rate(|w| w.programs),
                nodes_per_second: rate(|w| w.nodes),
                bytes_per_second: rate(|w| w.bytes),
                nodes_per_program: total.nodes as f64 / total.programs as f64,
                bytes_per_program: total.bytes as f64 / total.programs as f64,
            }
        })
        .collect()
}

/// The median of `values` (the mean of the middle two for an even count).
fn median(values: impl Iterator<Item = f64>) -> f64 {
    let mut values: Vec<f64> = values.collect();
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => 0.0,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// The options under which `xsmith-calc` is measured: no `--size`, depth
/// bound `max_depth` (what the hand-written generator takes), and room for
/// any number of nodes.
///
/// ```
/// assert_eq!(xsmith_speed::calc_options(8).max_depth, 8);
/// ```
pub fn calc_options(max_depth: u32) -> xsmith::Options {
    xsmith::Options {
        max_depth,
        size: 0,
        max_nodes: 10_000_000,
        ..xsmith::Options::default()
    }
}

/// The default options at `--size size`.
///
/// ```
/// assert_eq!(xsmith_speed::sized(1000).size, 1000);
/// ```
pub fn sized(size: usize) -> xsmith::Options {
    xsmith::Options {
        size,
        ..xsmith::Options::default()
    }
}

/// A batch of `fuzzer`'s programs for `seeds` under `options`: programs,
/// their nodes and their text's bytes.
///
/// ```
/// let work = xsmith_speed::fuzzer_batch(&xsmith_calc::FUZZER, &Default::default(), 0..3);
/// assert_eq!(work.programs, 3);
/// ```
pub fn fuzzer_batch(fuzzer: &xsmith::Fuzzer, options: &xsmith::Options, seeds: std::ops::Range<u64>) -> Work {
    let spec = (fuzzer.spec)().expect("the spec assembles");
    let mut generator = xsmith::Generator::new(&spec, options.clone()).expect("the options suit the spec");
    FuzzerBatch::new(fuzzer, &spec, &mut generator).make(seeds)
}

/// Makes batches of one fuzzer's programs with one generator, as a
/// campaign does (the spec assembled and the generator made once).
pub struct FuzzerBatch<'f, 's, 'g> {
    fuzzer: &'f xsmith::Fuzzer,
    spec: &'s xsmith::Spec,
    generator: &'g mut xsmith::Generator<'s>,
}

impl<'f, 's, 'g> FuzzerBatch<'f, 's, 'g> {
    /// Batches of `fuzzer`'s programs made by `generator`.
    ///
    /// ```
    /// let spec = (xsmith_calc::FUZZER.spec)().unwrap();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let mut batch = xsmith_speed::FuzzerBatch::new(&xsmith_calc::FUZZER, &spec, &mut generator);
    /// assert!(batch.make(0..2).nodes >= 2);
    /// ```
    pub fn new(
        fuzzer: &'f xsmith::Fuzzer,
        spec: &'s xsmith::Spec,
        generator: &'g mut xsmith::Generator<'s>,
    ) -> FuzzerBatch<'f, 's, 'g> {
        FuzzerBatch {
            fuzzer,
            spec,
            generator,
        }
    }

    /// The programs of `seeds`: their count, nodes and text bytes.
    pub fn make(&mut self, seeds: std::ops::Range<u64>) -> Work {
        self.make_with(seeds, |text| text.len())
    }

    /// The programs of `seeds`, each text turned into output by `output`
    /// (an assembler, say), whose length counts as the program's bytes.
    pub fn make_with(&mut self, seeds: std::ops::Range<u64>, mut output: impl FnMut(&str) -> usize) -> Work {
        let mut work = Work::default();
        for seed in seeds {
            let program = (self.fuzzer)
                .program(self.spec, self.generator, xsmith::Source::Seed(seed))
                .expect("generation is total");
            work += Work {
                programs: 1,
                nodes: program.program.len() as u64,
                bytes: output(&program.text) as u64,
            };
        }
        work
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_median_of_an_even_count_is_the_mean_of_the_middle_two() {
        assert_eq!(median([4.0, 1.0, 3.0, 2.0].into_iter()), 2.5);
        assert_eq!(median([5.0, 1.0, 3.0].into_iter()), 3.0);
    }

    #[test]
    fn every_contender_runs_in_every_round() {
        let mut runs = [0, 0];
        {
            let (first, second) = runs.split_at_mut(1);
            let mut contenders = vec![
                Contender::new("a", || {
                    first[0] += 1;
                    Work {
                        programs: 1,
                        nodes: 1,
                        bytes: 1,
                    }
                }),
                Contender::new("b", || {
                    second[0] += 1;
                    Work {
                        programs: 1,
                        nodes: 2,
                        bytes: 2,
                    }
                }),
            ];
            let rates = race(&mut contenders, 4, Duration::ZERO);
            assert_eq!(rates[1].nodes_per_program, 2.0);
        }
        assert_eq!(runs, [4, 4]);
    }
}
