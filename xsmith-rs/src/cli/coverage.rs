//! `coverage`: the k-paths that generated programs, or the programs of a
//! directory of choice files, cover, against those the grammar allows and
//! those a larger sample reaches.

use std::path::Path;
use std::process::ExitCode;

use indexmap::IndexSet;

use super::args::CoverageArgs;
use crate::corpus::{self, CorpusOptions};
use crate::fuzzer::{Fuzzer, Source};
use crate::generate::Generator;
use crate::kpaths::{self, KPath};
use crate::plot::{self, Curve};
use crate::spec::Spec;
use crate::tree::Tree;

/// Where the seeds of `--sample` start: past every seed the command line
/// draws at random (below 10^12), so the sample is other programs.
const SAMPLE_SEEDS: u64 = 1_000_000_000_000;

/// Runs `coverage` (on a thread with the generation stack); exit status 2
/// for bad options or an unreadable directory, 1 when some program could
/// not be generated.
pub(super) fn coverage(fuzzer: &Fuzzer, args: &CoverageArgs) -> ExitCode {
    super::worker::report_from_generation_thread(fuzzer, "coverage", || measure(fuzzer, args))
}

/// The report of `coverage`, or an exit status and a message.
fn measure(fuzzer: &Fuzzer, args: &CoverageArgs) -> Result<String, (u8, String)> {
    let spec = (fuzzer.spec)().map_err(|e| (1, format!("the fuzzer's spec is wrong: {e}")))?;
    let mut generator = Generator::new(&spec, args.generation.clone()).map_err(|e| (2, e.to_string()))?;
    let sample = match args.sample {
        Some(n) => {
            let sources = (0..n).map(|i| Source::Seed(SAMPLE_SEEDS + i)).collect();
            Some(Tally::of(fuzzer, &mut generator, sources, args.k, None)?.covered)
        }
        None => None,
    };
    let sources = match &args.dir {
        Some(dir) => choice_files(dir).map_err(|e| (2, format!("{}: {e}", dir.display())))?,
        None => (0..args.count)
            .map(|i| {
                let seed = args.seed.wrapping_add(i);
                match args.cover {
                    true => Source::Steered {
                        seed,
                        k: args.k,
                        from: args.seed,
                    },
                    false => Source::Seed(seed),
                }
            })
            .collect(),
    };
    if args.cover {
        generator.steer_to_cover(args.k);
    }
    let coverage = Tally::of(fuzzer, &mut generator, sources, args.k, sample.as_ref())?;
    let allowed = kpaths::allowed(spec.grammar(), |p| generator.is_enabled(p), args.k);
    let mut report = format!("{} programs\n", coverage.programs);
    for k in 1..=args.k {
        let of_length = |set: &IndexSet<KPath>| set.iter().filter(|p| p.len() == k).count();
        let (c, f) = (coverage.by_length[k - 1], of_length(&allowed));
        report.push_str(&format!("k={k}: covered {c} of {f} k-paths ({})", percent(c, f)));
        if let (Some(sample), Some(n)) = (&sample, args.sample) {
            let reached = of_length(sample);
            let both = coverage.in_sample[k - 1];
            report.push_str(&format!(
                "; a sample of {n} programs reaches {reached}, of which {both} ({}) are covered",
                percent(both, reached)
            ));
            if let Some(after) = coverage.most_of_sample_after[k - 1] {
                report.push_str(&format!(", 95% of them after {after} programs"));
            }
        }
        report.push('\n');
    }
    if let Some(path) = &args.plot {
        let k = args.k;
        let curves = curves(fuzzer, &spec, args, sample.as_ref()).map_err(|e| (1, e))?;
        let title = format!("{}: {k}-paths covered", fuzzer.name);
        plot::draw(path, &title, &curves.iter().map(|(c, _)| c.clone()).collect::<Vec<_>>()).map_err(|e| (1, e))?;
        for (curve, most_of_sample) in &curves {
            if let Some((programs, bytes, covered)) = curve.points.last() {
                report.push_str(&format!(
                    "plot {}: {covered} {k}-paths after {programs} programs, {bytes} bytes",
                    curve.name
                ));
                if let Some((after, bytes)) = most_of_sample {
                    report.push_str(&format!("; 95% of the sample's after {after} programs, {bytes} bytes"));
                }
                report.push('\n');
            }
        }
    }
    if args.uncovered {
        let reachable = sample.as_ref().unwrap_or(&allowed);
        let mut missing: Vec<(usize, String)> = reachable
            .iter()
            .filter(|p| !coverage.covered.contains(*p))
            .map(|p| (p.len(), p.display(spec.grammar())))
            .collect();
        missing.sort();
        for (_, path) in missing {
            report.push_str(&format!("uncovered {path}\n"));
        }
    }
    Ok(report)
}

/// The k-paths programs cover as they come, and how far into a sample's
/// k-paths they got.
struct Tally<'s> {
    /// The length bound.
    k: usize,
    /// The k-paths a sample reached, when measuring against one.
    sample: Option<&'s IndexSet<KPath>>,
    /// By length (index k - 1): 95% of the sample's k-paths.
    targets: Vec<usize>,
    /// The k-paths covered, of every length up to k.
    covered: IndexSet<KPath>,
    /// By length: how many are covered.
    by_length: Vec<usize>,
    /// By length: how many of the covered the sample reached.
    in_sample: Vec<usize>,
    /// By length: after how many programs 95% of the sample's were covered.
    most_of_sample_after: Vec<Option<usize>>,
    /// How many programs have been added.
    programs: usize,
}

impl<'s> Tally<'s> {
    /// Nothing covered yet.
    fn new(k: usize, sample: Option<&'s IndexSet<KPath>>) -> Tally<'s> {
        let of_length = |k: usize| sample.map_or(0, |s| s.iter().filter(|p| p.len() == k).count());
        Tally {
            k,
            sample,
            targets: (1..=k).map(|k| (of_length(k) * 95).div_ceil(100)).collect(),
            covered: IndexSet::new(),
            by_length: vec![0; k],
            in_sample: vec![0; k],
            most_of_sample_after: vec![None; k],
            programs: 0,
        }
    }

    /// Adds the k-paths of one more program.
    fn add(&mut self, tree: &Tree) {
        self.programs += 1;
        for path in kpaths::paths_of(tree, self.k) {
            let (length, reached) = (path.len(), self.sample.is_some_and(|s| s.contains(&path)));
            if self.covered.insert(path) {
                self.by_length[length - 1] += 1;
                self.in_sample[length - 1] += usize::from(reached);
            }
        }
        for (length, target) in self.targets.iter().enumerate() {
            if self.sample.is_some() && self.most_of_sample_after[length].is_none() && self.in_sample[length] >= *target
            {
                self.most_of_sample_after[length] = Some(self.programs);
            }
        }
    }

    /// The tally of the programs of `sources`, against `sample` when given.
    fn of(
        fuzzer: &Fuzzer,
        generator: &mut Generator,
        sources: Vec<Source>,
        k: usize,
        sample: Option<&'s IndexSet<KPath>>,
    ) -> Result<Tally<'s>, (u8, String)> {
        let mut tally = Tally::new(k, sample);
        for source in sources {
            let program = generator.generate(&mut source.random()).map_err(|e| {
                let command = fuzzer.command(&source, generator.options());
                (1, format!("{e}\n  regenerate with: {command}"))
            })?;
            tally.add(&program);
        }
        Ok(tally)
    }
}

/// A curve, and after how many programs (and bytes) it covered 95% of the
/// sample's k-paths.
type Measured = (Curve, Option<(usize, usize)>);

/// The curves of `--plot`: `--count` random programs, `--count` steered
/// ones, and a corpus, each program's K-paths (of length K alone) counted
/// as it comes; each with when it covered 95% of `sample`'s K-paths, when
/// given.
fn curves(
    fuzzer: &Fuzzer,
    spec: &Spec,
    args: &CoverageArgs,
    sample: Option<&IndexSet<KPath>>,
) -> Result<Vec<Measured>, String> {
    let k = args.k;
    let generator = || Generator::new(spec, args.generation.clone()).map_err(|e| e.to_string());
    let curve = |name: &str, generator: &mut Generator, sources: Vec<Source>| -> Result<Measured, String> {
        let (mut tally, mut bytes) = (Tally::new(k, sample), 0);
        let mut points = Vec::with_capacity(sources.len());
        let mut most_of_sample = None;
        for source in sources {
            let program = fuzzer.program(spec, generator, source).map_err(|e| e.to_string())?;
            bytes += program.text.len();
            tally.add(&program.program);
            if most_of_sample.is_none() && tally.most_of_sample_after[k - 1].is_some() {
                most_of_sample = Some((tally.programs, bytes));
            }
            points.push((tally.programs, bytes, tally.by_length[k - 1]));
        }
        let name = name.to_string();
        Ok((Curve { name, points }, most_of_sample))
    };
    let seeds = || (0..args.count).map(|i| args.seed.wrapping_add(i));
    let random = curve("random", &mut generator()?, seeds().map(Source::Seed).collect())?;
    let mut steered = generator()?;
    steered.steer_to_cover(k);
    let from = args.seed;
    let directed = curve(
        &format!("--cover {k}"),
        &mut steered,
        seeds().map(|seed| Source::Steered { seed, k, from }).collect(),
    )?;
    let mut grower = generator()?;
    let options = CorpusOptions {
        k,
        budget: args.corpus_budget,
        seed: args.seed,
        ..CorpusOptions::default()
    };
    let corpus = corpus::grow(&mut grower, &options, &mut |_| {}).map_err(|e| e.to_string())?;
    let kept = corpus.programs.into_iter().map(|kept| Source::Choices {
        path: "corpus".into(),
        choices: kept.choices,
    });
    let corpus = curve("corpus", &mut grower, kept.collect())?;
    Ok(vec![random, directed, corpus])
}

/// The `*.choices` files of `dir`, by name, as sources.
fn choice_files(dir: &Path) -> Result<Vec<Source>, String> {
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| e.to_string())?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|e| e == "choices"))
        .collect();
    paths.sort();
    if paths.is_empty() {
        return Err("no .choices files (write them with --save-choices)".into());
    }
    paths.iter().map(|path| Source::from_choice_file(path)).collect()
}

/// `part` of `whole` as a percentage with one decimal.
fn percent(part: usize, whole: usize) -> String {
    format!("{:.1}%", 100.0 * part as f64 / whole.max(1) as f64)
}
