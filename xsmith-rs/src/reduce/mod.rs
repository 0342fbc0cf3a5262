//! Internal test-case reduction: shrinking a finding's choice sequence, not
//! its text (MacIver and Donaldson, "Test-Case Reduction via Test-Case
//! Generation", ECOOP 2020). Every candidate is a program the fuzzer
//! generates from a smaller sequence, so it is as conforming as any other:
//! a candidate that does not show the finding's bug is dropped, never
//! "fixed".
//!
//! A candidate is interesting when its runs on the finding's
//! implementations have the finding's [`Signature`] (the same verdict and
//! the same grouping of implementations). The passes, each tried in turn
//! until none makes progress or the time budget is spent, make candidates
//! with [`crate::edit`]'s edits and take the sequence down in shortlex
//! order (shorter first, then smaller values):
//!
//! 1. delete runs of consecutive elements of a list at once, halves
//!    first, down to runs of two (ddmin's chunks), with the list's length
//!    lowered by as many (or the decisions that grew it);
//! 2. replace a subtree in place (largest first) by the smallest choices,
//!    by its root's own choices alone (the same node, every child its
//!    smallest), or by a smaller subtree inside it that may stand in its
//!    place (hoisting), the rest of the program drawing what it drew
//!    before (a [`Splice`](crate::Splice));
//! 3. delete the span of a subtree, or zero it, what follows read from
//!    where it falls (as Hypothesis does);
//! 4. delete an element of a list with the choice that made the list that
//!    long (so a definition no reference uses goes), or, for an element
//!    of the list's own length, with the decision that grew the first
//!    element grown after it, which takes its place (each node's size
//!    budget is kept in its span, so the moved element comes out as it
//!    was);
//! 5. replace a subtree's span by a smaller subtree's, likewise;
//! 6. replace a subtree in place by a copy of a smaller subtree of its
//!    node type from elsewhere in the program;
//! 7. delete runs of 8, 4, 2 and 1 choices;
//! 8. lower single choices: to zero, to half, by one.
//!
//! Once a sweep accepts nothing, a second phase takes the program's text
//! down instead: a candidate is accepted when its text is shorter in
//! bytes (or as long, and its sequence shortlex smaller), and the passes
//! gain one more:
//!
//! 9. replace a subtree in place by the root's own choices of another
//!    subtree of its node type from elsewhere in the program (every child
//!    its smallest), however large that one is.
//!
//! Shortlex order on choices heads for the simplest productions, which
//! are not always the shortest text: three one-line definitions take
//! fewer choices than three statements with empty blocks, but a Lua
//! program prints each top-level variable at its end, through a helper
//! of 700 bytes. The second phase can trade them, one by one.
//!
//! After each accepted candidate the pass goes on from where it was (the
//! same position among the candidates it makes of the new best: what it
//! tried before that failed, most likely fails again), then the passes
//! after it; a sweep of the passes that accepted something starts again
//! from the first, and reduction ends after a whole sweep accepts nothing,
//! as C-Reduce's passes do. A generated candidate is kept as the
//! sequence it really drew (values below their bounds), and accepted only
//! if that is smaller than the best so far, so reduction always ends.
//! Candidates run `jobs` at a time, on threads that last the whole
//! reduction (each keeps its generator and its in-process engines' worker
//! process); the first interesting one in pass order wins, so the result
//! does not depend on `jobs`. Whether a candidate has the finding's
//! signature is cached by sequence (those that have it are tested again
//! in the second phase, which may accept them).
//!
//! [`Reducer::reduce_keeping`] reduces towards any property of a program
//! instead of a finding's signature (Bonsai's fuzz-then-reduce baseline,
//! [`crate::corpus::fuzz_then_reduce`], keeps the coverage a program
//! added), with the same passes and orders.

mod candidates;
mod finding;

use std::collections::HashMap;
use std::path::Path;
use std::sync::{mpsc, Arc, Mutex};
use std::time::{Duration, Instant};

use candidates::Candidate;
pub use finding::{read_finding, write_reduced, FindingCase};

use crate::campaign::{Signature, Verdict};
use crate::choices::Choices;
use crate::exec::{Implementation, Limits, Run};
use crate::features::Features;
use crate::fuzzer::{Fuzzer, Source, GENERATION_STACK};
use crate::generate::Generator;
use crate::options::Options;
use crate::spec::Spec;

/// What a reduction runs: the fuzzer and its options, the implementations
/// and the limits of their runs.
#[derive(Clone)]
pub struct Case<'f> {
    /// The fuzzer that generates every candidate.
    pub fuzzer: &'f Fuzzer,
    /// The generation options of the finding.
    pub options: Options,
    /// The implementations the finding ran on.
    pub implementations: Vec<Implementation>,
    /// The limits of each run.
    pub limits: Limits,
}

/// One tested candidate.
#[derive(Clone, Debug)]
pub struct Tested {
    /// The values it really drew.
    pub values: Vec<u64>,
    /// The program's text.
    pub text: String,
    /// How many nodes the program has.
    pub nodes: usize,
    /// The program's features: for a reduced program, what the bug needs.
    pub features: Features,
    /// Its runs.
    pub runs: Vec<(Implementation, Run)>,
    /// Their signature.
    pub signature: Signature,
    /// The choice spans of its subtrees, each with the spans of the
    /// subtrees inside it that may take its place (none for a candidate
    /// that lost the signature it was tested against).
    spans: Vec<crate::edit::Subtree>,
    /// Where its nodes began, to keep a replacement's replay in step (none
    /// for a candidate that lost the signature it was tested against).
    anchors: Arc<crate::Anchors>,
    /// Whether it meets the reduction's goal (the finding's signature, or
    /// what [`Reducer::reduce_keeping`] keeps).
    meets: bool,
}

/// What a reduction keeps.
enum Goal<'g> {
    /// The finding's signature: its runs on the case's implementations.
    Signature(Signature),
    /// What the caller tells of each program.
    Keep(&'g Keep<'g>),
}

/// A property of programs that [`Reducer::reduce_keeping`] keeps.
pub type Keep<'k> = dyn Fn(&crate::fuzzer::Generated) -> bool + Sync + 'k;

/// What a reduction ended with.
#[derive(Debug)]
pub struct Reduced {
    /// The finding's program as it was.
    pub original: Tested,
    /// The smallest interesting program found.
    pub reduced: Tested,
    /// How many candidates were generated and run.
    pub tests: u64,
    /// How long it took.
    pub elapsed: Duration,
}

/// Why a reduction could not start.
#[derive(Debug)]
pub enum ReduceError {
    /// The fuzzer's spec does not assemble, its options do not suit it, or
    /// the finding's own program cannot be generated.
    Generate(String),
    /// The finding's program, run again, does not show the finding: its
    /// runs have another signature (a flaky implementation, or another
    /// environment).
    NotReproduced {
        /// The finding's verdict.
        expected: String,
        /// The signature the program gives now.
        got: String,
    },
    /// The program to reduce does not have the property that
    /// [`Reducer::reduce_keeping`] was to keep.
    PropertyMissing,
    /// A file could not be read or written.
    Io(String),
}

impl std::fmt::Display for ReduceError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ReduceError::Generate(message) => write!(f, "{message}"),
            ReduceError::NotReproduced { expected, got } => write!(
                f,
                "the finding does not reproduce: it was {expected}, its program now gives `{got}`"
            ),
            ReduceError::PropertyMissing => write!(f, "the program to reduce does not have the property to keep"),
            ReduceError::Io(message) => write!(f, "{message}"),
        }
    }
}

impl std::error::Error for ReduceError {}

/// Reduces one finding's choice sequence (see the module docs).
///
/// ```
/// use std::time::Duration;
/// use xsmith::reduce::{Case, Reducer};
/// use xsmith::{Choices, Execution, Implementation, Limits};
///
/// // Two "engines" of the example language: one tells whether the
/// // program divides, one says no: they differ on every program with a
/// // division.
/// fn divides(text: &str) -> Execution { Execution::Output(text.contains('/').to_string()) }
/// fn never(_: &str) -> Execution { Execution::Output("false".into()) }
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let case = Case {
///     fuzzer: &fuzzer,
///     options: Default::default(),
///     implementations: vec![
///         Implementation::InProcess { name: "divides", run: divides },
///         Implementation::InProcess { name: "never", run: never },
///     ],
///     limits: Limits::default(),
/// };
/// let reducer = Reducer::new(case, 1, Duration::from_secs(60)).unwrap();
/// let seed = (0..100).find(|&s| reducer.test_source(xsmith::Source::Seed(s)).unwrap().text.contains('/')).unwrap();
/// let reduced = reducer.reduce(xsmith::Source::Seed(seed), None, &mut |_| {}).unwrap();
/// assert!(reduced.reduced.text.contains('/'));
/// assert!(reduced.reduced.nodes <= reduced.original.nodes);
/// ```
pub struct Reducer<'f> {
    case: Case<'f>,
    spec: Spec,
    jobs: usize,
    budget: Duration,
}

/// Where a reduction is, for a progress line.
#[derive(Clone, Copy, Debug)]
pub struct Progress {
    /// Candidates tested so far.
    pub tests: u64,
    /// The best program's size in bytes.
    pub bytes: usize,
    /// The best sequence's length.
    pub choices: usize,
}

impl<'f> Reducer<'f> {
    /// A reducer for `case`, running `jobs` candidates at a time, for at
    /// most `budget` (it then returns the best so far).
    pub fn new(case: Case<'f>, jobs: usize, budget: Duration) -> Result<Reducer<'f>, ReduceError> {
        let spec = (case.fuzzer.spec)().map_err(|e| ReduceError::Generate(format!("the fuzzer's spec: {e}")))?;
        Generator::new(&spec, case.options.clone()).map_err(|e| ReduceError::Generate(e.to_string()))?;
        Ok(Reducer {
            case,
            spec,
            jobs: jobs.max(1),
            budget,
        })
    }

    /// Generates the program of `source` and runs it (what the finding
    /// saw, when `source` is the finding's).
    pub fn test_source(&self, source: Source) -> Result<Tested, ReduceError> {
        self.test_source_towards(source, None)
    }

    /// [`test_source`](Reducer::test_source), against `goal` when given.
    fn test_source_towards(&self, source: Source, goal: Option<&Goal>) -> Result<Tested, ReduceError> {
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(GENERATION_STACK)
                .spawn_scoped(scope, || self.test_source_here(source, goal))
                .map_err(|e| ReduceError::Io(format!("cannot start a thread: {e}")))?
                .join()
                .expect("the reduction's first test panicked")
        })
    }

    fn test_source_here(&self, source: Source, goal: Option<&Goal>) -> Result<Tested, ReduceError> {
        let mut generator = self.generator();
        let scratch = scratch()?;
        let generated = self
            .case
            .fuzzer
            .program(&self.spec, &mut generator, source)
            .map_err(|e| ReduceError::Generate(format!("the finding's program: {e}")))?;
        let candidate = Candidate::plain(generated.choices.values().collect());
        self.test(&mut generator, &candidate, goal, scratch.path())
            .ok_or_else(|| ReduceError::Generate("the finding's recorded choices do not replay".into()))
    }

    /// Reduces the program of `source` to the smallest program, in the
    /// same orders as [`reduce`](Reducer::reduce), of which `keep` holds:
    /// not a finding's signature but any property of the generated
    /// program (`corpus --method fuzz-then-reduce` keeps the edges of the
    /// engines that a program was the first to cover). The case's
    /// implementations are not run (`keep` runs what it needs). `keep`
    /// is asked from the reducer's threads, one at a time when it has one
    /// job.
    ///
    /// ```
    /// use std::time::Duration;
    /// use xsmith::reduce::{Case, Reducer};
    /// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    ///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    ///     implementations: &[] };
    /// let case = Case { fuzzer: &fuzzer, options: Default::default(), implementations: vec![], limits: Default::default() };
    /// let reducer = Reducer::new(case, 1, Duration::from_secs(60)).unwrap();
    /// // Keep a division.
    /// let divides = |p: &xsmith::fuzzer::Generated| p.text.contains('/');
    /// let seed = (0..100).find(|&s| reducer.test_source(xsmith::Source::Seed(s)).unwrap().text.contains('/')).unwrap();
    /// let reduced = reducer.reduce_keeping(xsmith::Source::Seed(seed), &divides, &mut |_| {}).unwrap();
    /// assert!(reduced.reduced.text.contains('/'));
    /// assert!(reduced.reduced.text.len() < reduced.original.text.len());
    /// ```
    pub fn reduce_keeping(
        &self,
        source: Source,
        keep: &Keep<'_>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Reduced, ReduceError> {
        let started = Instant::now();
        let goal = Goal::Keep(keep);
        let original = self.test_source_towards(source, Some(&goal))?;
        if !original.meets {
            return Err(ReduceError::PropertyMissing);
        }
        self.reduce_to(started, original, &goal, progress, &mut |_| Ok(false))
    }

    /// Reduces the program of `source`, whose runs' signature is the one to
    /// keep (it must have the verdict `expected`, when given: the finding's);
    /// `progress` hears of every improvement.
    pub fn reduce(
        &self,
        source: Source,
        expected: Option<Verdict>,
        progress: &mut dyn FnMut(Progress),
    ) -> Result<Reduced, ReduceError> {
        self.reduce_until(source, expected, progress, &mut |_| Ok(false))
    }

    /// Reduces as [`reduce`](Reducer::reduce) does, but stops early, with
    /// the best program so far, as soon as `enough` says of it that it is
    /// reduced enough (it is asked after every improvement). `diff
    /// --reduce` stops once a finding is shown to be a bug it already
    /// knows ([`core_shown`](crate::bug_core::core_shown)).
    ///
    /// ```no_run
    /// # fn reducer() -> xsmith::reduce::Reducer<'static> { unimplemented!() }
    /// // Stop below 100 bytes.
    /// let reduced = reducer().reduce_until(xsmith::Source::Seed(7), None, &mut |_| {}, &mut |best| Ok(best.text.len() < 100));
    /// ```
    pub fn reduce_until(
        &self,
        source: Source,
        expected: Option<Verdict>,
        progress: &mut dyn FnMut(Progress),
        enough: &mut dyn FnMut(&Tested) -> Result<bool, ReduceError>,
    ) -> Result<Reduced, ReduceError> {
        let started = Instant::now();
        let original = self.test_source(source)?;
        let verdict = original.signature.verdict;
        if verdict == Verdict::Agree || expected.is_some_and(|e| e != verdict) {
            return Err(ReduceError::NotReproduced {
                expected: expected.map_or_else(|| "a finding".to_string(), |v| v.name().to_string()),
                got: original.signature.to_string(),
            });
        }
        let goal = Goal::Signature(original.signature.clone());
        self.reduce_to(started, original, &goal, progress, enough)
    }

    /// Reduces `original` (tested without a goal) to the smallest program
    /// that meets `goal`.
    fn reduce_to(
        &self,
        started: Instant,
        original: Tested,
        goal: &Goal,
        progress: &mut dyn FnMut(Progress),
        enough: &mut dyn FnMut(&Tested) -> Result<bool, ReduceError>,
    ) -> Result<Reduced, ReduceError> {
        let (best, tests) = std::thread::scope(|scope| {
            let testers = Testers::start(self, scope, goal)?;
            let mut best = original.clone();
            // Whether each candidate tested met the goal.
            let mut cache: HashMap<Candidate, bool> = HashMap::new();
            let mut tests = 0u64;
            let mut order = Order::Choices;
            // Where the sweep goes on (a pass, a candidate of it), and
            // whether it has accepted anything since it began.
            let (mut at, mut accepted) = ((0, 0), false);
            'passes: while started.elapsed() < self.budget {
                let (first_pass, first_candidate) = at;
                for (number, pass) in order.passes().enumerate().skip(first_pass) {
                    let candidates: Vec<Candidate> = pass(&best.values, &best.spans)
                        .into_iter()
                        .map(|candidate| candidate.anchored(&best.anchors))
                        .collect();
                    let skip = match number == first_pass {
                        true => first_candidate.min(candidates.len()),
                        false => 0,
                    };
                    for (index, batch) in candidates[skip..].chunks(self.jobs).enumerate() {
                        if started.elapsed() >= self.budget {
                            break 'passes;
                        }
                        let fresh: Vec<&Candidate> = batch.iter().filter(|c| !cache.contains_key(*c)).collect();
                        tests += fresh.len() as u64;
                        let results = testers.test_all(&fresh)?;
                        let mut winner = None;
                        for (candidate, tested) in fresh.iter().zip(results) {
                            let matching = tested.as_ref().filter(|t| t.meets);
                            let interesting = matching.is_some_and(|t| order.smaller(t, &best));
                            cache.insert((*candidate).clone(), matching.is_some());
                            if interesting && winner.is_none() {
                                let position = batch.iter().position(|c| c == *candidate).unwrap_or(0);
                                winner = tested.map(|tested| (position, tested));
                            }
                        }
                        if let Some((position, tested)) = winner {
                            at = (number, skip + index * self.jobs + position);
                            accepted = true;
                            best = tested;
                            progress(Progress {
                                tests,
                                bytes: best.text.len(),
                                choices: best.values.len(),
                            });
                            if enough(&best)? {
                                break 'passes;
                            }
                            continue 'passes;
                        }
                    }
                }
                // The sweep is over: again from the first pass if it
                // accepted anything; else on to the text, or done.
                if !std::mem::take(&mut accepted) {
                    if order == Order::Text {
                        break;
                    }
                    order = Order::Text;
                    // A candidate with the signature whose sequence was
                    // not smaller may have less text.
                    cache.retain(|_, matched| !*matched);
                }
                at = (0, 0);
            }
            Ok::<_, ReduceError>((best, tests))
        })?;
        Ok(Reduced {
            original,
            reduced: best,
            tests,
            elapsed: started.elapsed(),
        })
    }

    fn generator(&self) -> Generator<'_> {
        Generator::new(&self.spec, self.case.options.clone()).expect("checked in Reducer::new")
    }

    /// Runs the program `text` in `dir` on the case's implementations (see
    /// [`run_against`]); `None` if it cannot be written.
    fn run_in(&self, dir: &Path, text: &str, target: Option<&Signature>) -> Option<Vec<(Implementation, Run)>> {
        let file = dir.join(format!("program.{}", self.case.fuzzer.extension));
        std::fs::write(&file, text).ok()?;
        Some(run_against(
            target,
            &self.case.implementations,
            &file,
            text,
            &self.case.limits,
        ))
    }

    /// Generates the program of `candidate` and runs it in `dir`; `None` if
    /// it cannot be generated. Towards a finding's signature, the runs stop
    /// as soon as they rule it out (see [`run_against`]); towards a
    /// property kept, they are the property's own; without a goal, every
    /// implementation runs.
    fn test(
        &self,
        generator: &mut Generator,
        candidate: &Candidate,
        goal: Option<&Goal>,
        dir: &Path,
    ) -> Option<Tested> {
        let random = candidate.random();
        let source = Source::Choices {
            path: "candidate".into(),
            choices: Choices::from_values(&candidate.values),
        };
        let generated = self
            .case
            .fuzzer
            .program_from(&self.spec, generator, &source, random)
            .ok()?;
        // Trailing zeros stay: an exhausted sequence gives zeros too, but
        // ends the growth towards `--size`, so without them the replay
        // could make a smaller program than the one tested.
        let drawn: Vec<u64> = generated.choices.values().collect();
        let (runs, meets) = match goal {
            Some(Goal::Keep(keep)) => (Vec::new(), keep(&generated)),
            Some(Goal::Signature(target)) => {
                let runs = self.run_in(dir, &generated.text, Some(target))?;
                let meets = *target == Signature::of(&runs);
                (runs, meets)
            }
            None => (self.run_in(dir, &generated.text, None)?, true),
        };
        let signature = Signature::of(&runs);
        // What the passes edit, for a candidate that can become the best
        // (most lose the bug, and only the best is edited further).
        let (spans, anchors) = match meets {
            true => (
                crate::edit::subtrees(&self.spec, &generated.program),
                Arc::new(generated.program.anchors()),
            ),
            false => (Vec::new(), Arc::default()),
        };
        Some(Tested {
            signature,
            spans,
            anchors,
            meets,
            values: drawn,
            nodes: generated.program.len(),
            features: Features::of(self.spec.grammar(), &generated.program),
            text: generated.text,
            runs,
        })
    }
}

/// The threads that test a reduction's candidates, `jobs` of them for the
/// whole reduction: each keeps its generator, its scratch directory and
/// (through the thread) its in-process engines' worker process, which a
/// thread per candidate would start again for every candidate (a process,
/// and the engines' set-up in it).
struct Testers<'scope> {
    jobs: mpsc::Sender<(usize, Candidate)>,
    results: mpsc::Receiver<(usize, Result<Option<Tested>, ReduceError>)>,
    _threads: Vec<std::thread::ScopedJoinHandle<'scope, ()>>,
}

impl<'scope> Testers<'scope> {
    /// Starts `reducer.jobs` testers in `scope`, each testing candidates
    /// towards `goal`.
    fn start<'env>(
        reducer: &'scope Reducer<'env>,
        scope: &'scope std::thread::Scope<'scope, 'env>,
        goal: &'scope Goal<'scope>,
    ) -> Result<Testers<'scope>, ReduceError> {
        let (jobs, queue) = mpsc::channel::<(usize, Candidate)>();
        let queue = Arc::new(Mutex::new(queue));
        let (sender, results) = mpsc::channel();
        let threads = (0..reducer.jobs)
            .map(|_| {
                let (queue, sender) = (Arc::clone(&queue), sender.clone());
                std::thread::Builder::new()
                    .stack_size(GENERATION_STACK)
                    .spawn_scoped(scope, move || {
                        let mut generator = reducer.generator();
                        let scratch = scratch();
                        loop {
                            let job = queue.lock().expect("a tester panicked").recv();
                            let Ok((index, candidate)) = job else {
                                return;
                            };
                            let tested = match &scratch {
                                Ok(dir) => Ok(reducer.test(&mut generator, &candidate, Some(goal), dir.path())),
                                Err(e) => Err(ReduceError::Io(e.to_string())),
                            };
                            if sender.send((index, tested)).is_err() {
                                return;
                            }
                        }
                    })
                    .map_err(|e| ReduceError::Io(format!("cannot start a thread: {e}")))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Testers {
            jobs,
            results,
            _threads: threads,
        })
    }

    /// Tests `candidates` on the testers, returning the results in order.
    fn test_all(&self, candidates: &[&Candidate]) -> Result<Vec<Option<Tested>>, ReduceError> {
        for (index, &candidate) in candidates.iter().enumerate() {
            self.jobs
                .send((index, candidate.clone()))
                .map_err(|_| ReduceError::Io("the reduction's testers stopped".into()))?;
        }
        let mut results: Vec<Option<Option<Tested>>> = (0..candidates.len()).map(|_| None).collect();
        for _ in candidates {
            let (index, tested) = self
                .results
                .recv()
                .map_err(|_| ReduceError::Io("a reduction tester panicked".into()))?;
            results[index] = Some(tested?);
        }
        Ok(results
            .into_iter()
            .map(|r| r.expect("a result per candidate"))
            .collect())
    }
}

/// Runs a program on `implementations`; with a `target`, in its telling
/// order, stopping as soon as the runs so far rule it out
/// ([`Signature::ruled_out_by`]): the runs are then those of some of the
/// implementations, and their signature is not `target`. Without one,
/// every implementation runs, in the order given. Most of a
/// reduction's candidates lose the bug, and with one implementation of each
/// group run first, two runs show it. `xsmith-scheme reduce` of a finding
/// of CHICKEN's compiler alone (six implementations) tested 436 candidates
/// in its 300 s instead of 388: the two it runs first, Racket and `csc`,
/// are the slowest of the six.
pub(crate) fn run_against(
    target: Option<&Signature>,
    implementations: &[Implementation],
    file: &Path,
    text: &str,
    limits: &Limits,
) -> Vec<(Implementation, Run)> {
    let Some(target) = target else {
        return Implementation::run_each(implementations, file, text, limits);
    };
    let mut runs = Vec::new();
    for implementation in target.telling_order(implementations) {
        runs.push((implementation, implementation.run(file, text, limits)));
        if target.ruled_out_by(&runs) {
            break;
        }
    }
    runs
}

/// What a reduction's phase takes down (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Order {
    /// The choice sequence, in shortlex order.
    Choices,
    /// The program's text in bytes, then the choice sequence.
    Text,
}

impl Order {
    /// Whether `candidate` is smaller than `best` in this order.
    fn smaller(self, candidate: &Tested, best: &Tested) -> bool {
        let choices_smaller = shortlex_less(&candidate.values, &best.values);
        match self {
            Order::Choices => choices_smaller,
            Order::Text => match candidate.text.len().cmp(&best.text.len()) {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Equal => choices_smaller,
                std::cmp::Ordering::Greater => false,
            },
        }
    }

    /// The passes of this phase, in order.
    fn passes(self) -> impl Iterator<Item = &'static candidates::Pass> {
        let text_passes: &[candidates::Pass] = match self {
            Order::Choices => &[],
            Order::Text => &candidates::TEXT_PASSES,
        };
        candidates::PASSES.iter().chain(text_passes)
    }
}

/// Whether `a` comes before `b` in shortlex order.
fn shortlex_less(a: &[u64], b: &[u64]) -> bool {
    (a.len(), a) < (b.len(), b)
}

fn scratch() -> Result<tempfile::TempDir, ReduceError> {
    tempfile::Builder::new()
        .prefix("xsmith-reduce-")
        .tempdir()
        .map_err(|e| ReduceError::Io(format!("cannot create a scratch directory: {e}")))
}
