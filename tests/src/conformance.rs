//! The conformance check every fuzzer gets: its programs run, through a
//! differential [`Campaign`], on each of its own implementations with no
//! rejection, runtime error, crash, timeout or disagreement; and, for the
//! fuzzers built on canned components, every canned production appears in
//! at least a tenth of them.
//!
//! ```
//! use xsmith::{Execution, Fuzzer, Implementation, Options};
//!
//! // Two "implementations" of the example language that print the same.
//! const TWINS: &[Implementation] = &[
//!     Implementation::InProcess { name: "length", run: |text| Execution::Output(text.len().to_string()) },
//!     Implementation::Command { name: "wc", template: "sh -c 'printf %s $(wc -c < {})'", package: "coreutils" },
//! ];
//! let fuzzer = Fuzzer { name: "x", version: "1", extension: "t",
//!     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
//!     implementations: TWINS };
//! xsmith_tests::conformance::assert_programs_agree(&fuzzer, TWINS, &Options::default(), 0..20);
//! ```

use std::fmt::Write as _;
use std::ops::Range;
use std::path::Path;

use xsmith::swarm::Swarm;
use xsmith::{Campaign, Fuzzer, Generator, Implementation, Limits, Options, Signature, Source, Verdict};

use crate::scratch_dir;

/// Runs the programs of `seeds`, generated at `options`, on
/// `implementations` through a [`Campaign`] (default limits: 10 seconds a
/// run). Panics unless every implementation runs every program to the same
/// output, describing each finding (kept on disk, where the message says);
/// an implementation that is not installed fails it, naming its Debian
/// package.
pub fn assert_programs_agree(
    fuzzer: &Fuzzer,
    implementations: &[Implementation],
    options: &Options,
    seeds: Range<u64>,
) {
    assert_campaign_agrees(fuzzer, implementations, options, None, seeds);
}

/// [`assert_programs_agree`] for swarm testing: each program of `seeds`
/// draws its configuration with `swarm` on top of `options`. A program
/// whose drawn configuration cannot be generated fails it too (its finding
/// says `not generated`, with the command that regenerates it).
///
/// ```
/// use xsmith::{Execution, Fuzzer, Implementation, Options};
/// const TWINS: &[Implementation] = &[
///     Implementation::InProcess { name: "length", run: |text| Execution::Output(text.len().to_string()) },
///     Implementation::InProcess { name: "also", run: |text| Execution::Output(text.len().to_string()) },
/// ];
/// let fuzzer = Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: TWINS };
/// let swarm = xsmith::swarm::Swarm::default();
/// xsmith_tests::conformance::assert_swarm_programs_agree(&fuzzer, TWINS, &Options::default(), swarm, 0..20);
/// ```
pub fn assert_swarm_programs_agree(
    fuzzer: &Fuzzer,
    implementations: &[Implementation],
    options: &Options,
    swarm: Swarm,
    seeds: Range<u64>,
) {
    assert_campaign_agrees(fuzzer, implementations, options, Some(swarm), seeds);
}

fn assert_campaign_agrees(
    fuzzer: &Fuzzer,
    implementations: &[Implementation],
    options: &Options,
    swarm: Option<Swarm>,
    seeds: Range<u64>,
) {
    let findings = scratch_dir(&format!("{}-findings", fuzzer.name));
    let mut campaign = Campaign::new(fuzzer, findings.path());
    campaign.implementations = implementations.to_vec();
    campaign.options = options.clone();
    campaign.swarm = swarm;
    campaign.first_seed = seeds.start;
    campaign.count = seeds.end - seeds.start;
    let mut report = Vec::new();
    let tally = campaign
        .run(&mut report)
        .unwrap_or_else(|e| panic!("{}: {e} (./test.sh installs what the tests need)", fuzzer.name));
    if tally.all_agree() {
        return;
    }
    let mut described = String::new();
    for line in String::from_utf8_lossy(&report).lines() {
        // A finding's line: `<verdict> seed <seed>: <its directory>`.
        let Some((verdict, rest)) = line.split_once(' ') else {
            continue;
        };
        if let (Ok(_), Some((_, dir))) = (verdict.parse::<Verdict>(), rest.split_once(": ")) {
            let _ = writeln!(described, "{line}\n    {}", describe(Path::new(dir), implementations));
        }
    }
    let kept = findings.keep();
    panic!(
        "{tally} ({} of {} programs did not agree; findings kept in {}):\n{described}",
        tally.programs - tally.agree,
        tally.programs,
        kept.display()
    );
}

/// Generates the programs of seeds `0..programs` steered towards k-paths
/// not yet covered (`--cover k`, one batch), runs each on every
/// implementation of the fuzzer (those it declares only if installed left
/// out when missing), and panics, describing them, unless all agree, but
/// for findings of a `known` signature (a known implementation bug, as
/// [`Signature`]'s text says it) in at most [`KNOWN_BUG_SHARE`] percent of
/// them. Returns how many k-paths the batch covered.
///
/// ```
/// use xsmith::{Execution, Fuzzer, Implementation, Options};
/// const TWINS: &[Implementation] = &[
///     Implementation::InProcess { name: "length", run: |text| Execution::Output(text.len().to_string()) },
///     Implementation::InProcess { name: "also", run: |text| Execution::Output(text.len().to_string()) },
/// ];
/// let fuzzer = Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: TWINS };
/// assert!(xsmith_tests::conformance::assert_steered_programs_agree(&fuzzer, &Options::default(), 2, 20, &[]) > 4);
/// ```
pub fn assert_steered_programs_agree(
    fuzzer: &Fuzzer,
    options: &Options,
    k: usize,
    programs: u64,
    known: &[&str],
) -> usize {
    let spec = (fuzzer.spec)().unwrap();
    let mut generator = Generator::new(&spec, options.clone()).unwrap();
    generator.steer_to_cover(k);
    let texts: Vec<String> = (0..programs)
        .map(|seed| {
            let source = Source::Steered { seed, k, from: 0 };
            fuzzer.program(&spec, &mut generator, source).unwrap().text
        })
        .collect();
    assert_texts_agree(fuzzer, &texts, "steered programs", known);
    generator.covered_paths()
}

/// Grows a concise corpus ([`xsmith::corpus`]) of 2-paths for `budget`,
/// runs each of its programs on every implementation of the fuzzer, and
/// panics, describing them, unless all agree. Returns the corpus's size in
/// programs and the k-paths it covers.
///
/// ```
/// use xsmith::{Execution, Fuzzer, Implementation};
/// const TWINS: &[Implementation] = &[
///     Implementation::InProcess { name: "length", run: |text| Execution::Output(text.len().to_string()) },
///     Implementation::InProcess { name: "also", run: |text| Execution::Output(text.len().to_string()) },
/// ];
/// let fuzzer = Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: TWINS };
/// let (programs, covered) = xsmith_tests::conformance::assert_corpus_programs_agree(&fuzzer, std::time::Duration::from_secs(5));
/// assert_eq!(covered, 4 + 15);
/// assert!(programs <= 15);
/// ```
pub fn assert_corpus_programs_agree(fuzzer: &Fuzzer, budget: std::time::Duration) -> (usize, usize) {
    let spec = (fuzzer.spec)().unwrap();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let options = xsmith::corpus::CorpusOptions {
        budget,
        patience: 200,
        ..Default::default()
    };
    let corpus = xsmith::corpus::grow(&mut generator, &options, &mut |_| {}).unwrap();
    let texts: Vec<String> = corpus
        .programs
        .iter()
        .map(|kept| {
            let source = Source::Choices {
                path: "corpus".into(),
                choices: kept.choices.clone(),
            };
            fuzzer.program(&spec, &mut generator, source).unwrap().text
        })
        .collect();
    assert_texts_agree(fuzzer, &texts, "corpus programs", &[]);
    (texts.len(), corpus.covered.len())
}

/// Percent of programs on which a known bug may show in
/// [`assert_steered_programs_agree`].
pub const KNOWN_BUG_SHARE: usize = 5;

/// Runs each of `texts` on every implementation of the fuzzer (those it
/// declares only if installed left out when missing), on as many threads
/// as there are cores, and panics, naming each program by its header,
/// unless all agree but for findings of a `known` signature in at most
/// [`KNOWN_BUG_SHARE`] percent of them.
fn assert_texts_agree(fuzzer: &Fuzzer, texts: &[String], what: &str, known: &[&str]) {
    let implementations: Vec<Implementation> = fuzzer
        .implementations
        .iter()
        .filter_map(|i| i.if_installed().ok())
        .collect();
    let dir = scratch_dir(&format!("{}-texts", fuzzer.name));
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    let failures: Vec<String> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|worker| {
                let (implementations, dir) = (&implementations, dir.path());
                scope.spawn(move || {
                    let mut failures = Vec::new();
                    for (index, text) in texts.iter().enumerate().skip(worker).step_by(workers) {
                        let file = dir.join(format!("{index}.{}", fuzzer.extension));
                        std::fs::write(&file, text).unwrap();
                        let runs = Implementation::run_each(implementations, &file, text, &Limits::default());
                        let signature = Signature::of(&runs);
                        if signature.verdict != Verdict::Agree {
                            let header = text.lines().next().unwrap_or_default();
                            failures.push(format!("{signature}: {header}"));
                        }
                    }
                    failures
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    let (known_bug, other): (Vec<String>, Vec<String>) = failures
        .into_iter()
        .partition(|failure| known.iter().any(|k| failure.starts_with(&format!("{k}: "))));
    assert!(
        other.is_empty() && known_bug.len() * 100 <= texts.len() * KNOWN_BUG_SHARE,
        "{} of {} {what} did not agree ({} of a known bug):\n{}",
        other.len() + known_bug.len(),
        texts.len(),
        known_bug.len(),
        other.iter().chain(&known_bug).cloned().collect::<Vec<_>>().join("\n")
    );
}

/// Writes the `--swarm` programs of `seeds`, with the further options
/// `base`, through the fuzzer's own command line, then regenerates each one that was written from its header's
/// command (without `--swarm`: the header writes the options the program
/// drew) and checks it is the same, byte for byte. Returns how many were
/// written and the seeds that could not be generated (the command line
/// reported each with the command that regenerates it).
///
/// ```
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let (written, failed) = xsmith_tests::conformance::check_swarm_headers_regenerate(&fuzzer, &[], 0..20);
/// assert_eq!((written, failed), (20, vec![]));
/// ```
pub fn check_swarm_headers_regenerate(fuzzer: &Fuzzer, base: &[&str], seeds: Range<u64>) -> (usize, Vec<u64>) {
    let first = scratch_dir(&format!("{}-swarm", fuzzer.name));
    let again = scratch_dir(&format!("{}-swarm-again", fuzzer.name));
    let (start, count) = (seeds.start.to_string(), (seeds.end - seeds.start).to_string());
    let dir = first.path().to_str().unwrap();
    let mut batch = vec![
        fuzzer.name,
        "--seed",
        &start,
        "--count",
        &count,
        "--output-dir",
        dir,
        "--swarm",
    ];
    batch.extend_from_slice(base);
    xsmith::cli::run(fuzzer, batch);
    let prefix = (fuzzer.comment)("");
    let prefix = prefix.trim_end_matches('\n');
    let (mut written, mut failed, mut configurations) = (0, Vec::new(), std::collections::BTreeSet::new());
    for seed in seeds {
        let name = format!("{seed}.{}", fuzzer.extension);
        let Ok(text) = std::fs::read_to_string(first.path().join(&name)) else {
            failed.push(seed);
            continue;
        };
        written += 1;
        let header = text.lines().next().unwrap();
        let command = header
            .strip_prefix(prefix)
            .and_then(|c| c.strip_prefix(&format!("{} {} ", fuzzer.name, fuzzer.version)))
            .unwrap_or_else(|| panic!("seed {seed}: the header `{header}` is not a command"));
        assert!(!command.contains("--swarm"), "seed {seed}: {header}");
        let seed_words = format!("--seed {seed}");
        configurations.insert(command.trim_start_matches(&seed_words).to_string());
        let mut words = vec![fuzzer.name];
        words.extend(command.split_whitespace());
        words.extend(["--count", "1", "--output-dir", again.path().to_str().unwrap()]);
        let status = xsmith::cli::run(fuzzer, words);
        assert_eq!(status, std::process::ExitCode::SUCCESS, "seed {seed}: {header}");
        let regenerated = std::fs::read_to_string(again.path().join(&name)).unwrap();
        assert!(
            regenerated == text,
            "seed {seed}: `{header}` regenerates another program"
        );
    }
    assert!(
        written < 4 || configurations.len() > 1,
        "every swarm program drew the same configuration: {configurations:?}"
    );
    (written, failed)
}

/// What each implementation made of a finding's program: how it ended and
/// the start of what it printed (its output, or its errors when it failed).
fn describe(finding: &Path, implementations: &[Implementation]) -> String {
    let read = |file: String| std::fs::read_to_string(finding.join(file)).unwrap_or_default();
    let error = read("generation-error".into());
    if !error.is_empty() {
        return format!(
            "not generated: {} (regenerate with: {})",
            error.trim_end(),
            read("command".into()).trim_end()
        );
    }
    let runs: Vec<String> = implementations
        .iter()
        .map(|implementation| {
            let name = implementation.name();
            let status = read(format!("{name}.status"));
            let status = status.lines().next().unwrap_or_default();
            let printed = match read(format!("{name}.stdout")) {
                stdout if status == "exit status 0" || status == "in process: output" => stdout,
                _ => read(format!("{name}.stderr")),
            };
            format!("{name}: {status}, {printed:.300?}")
        })
        .collect();
    runs.join("; ")
}

/// The share (0 to 1) of the default programs of seeds `0..programs` of
/// `fuzzer` that have a node of each of `productions`, in their order;
/// and the share that have a node of any of them. Panics if one is not a
/// production of the fuzzer's spec.
///
/// ```
/// let (each, any) = xsmith_tests::conformance::production_shares(&xsmith_lua::FUZZER, &["CountedFor"], 20);
/// assert!(each[0] > 0.1 && any == each[0]);
/// ```
pub fn production_shares(fuzzer: &Fuzzer, productions: &[&str], programs: u64) -> (Vec<f64>, f64) {
    let spec = (fuzzer.spec)().unwrap();
    let ids: Vec<_> = productions
        .iter()
        .map(|name| {
            spec.lookup(name)
                .unwrap_or_else(|| panic!("{}: no production {name}", fuzzer.name))
        })
        .collect();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (mut each, mut any) = (vec![0u64; ids.len()], 0u64);
    for seed in 0..programs {
        let program = fuzzer.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
        let tree = program.program.tree();
        let (mut stack, mut seen) = (vec![tree.root()], Vec::new());
        while let Some(node) = stack.pop() {
            seen.push(tree.node(node).production);
            stack.extend(tree.children(node));
        }
        let present: Vec<bool> = ids.iter().map(|id| seen.contains(id)).collect();
        for (count, hit) in each.iter_mut().zip(&present) {
            *count += u64::from(*hit);
        }
        any += u64::from(present.contains(&true));
    }
    let share = |n: u64| n as f64 / programs as f64;
    (each.into_iter().map(share).collect(), share(any))
}

/// Issue 34's check of a language's own productions (its hot loops,
/// polymorphic calls and idioms): each of `own` is in at least a tenth of
/// the 200 default programs of seeds 0 to 199 of `fuzzer`, and one of them
/// in at least half; 100 `--swarm` programs agree on the fuzzer's
/// implementations. Prints each production's share. The default programs
/// are not run here: they are the first of those the fuzzer's conformance
/// test runs ([`CannedFuzzer::check_programs_agree`] from seed 0), which
/// every caller has.
///
/// ```no_run
/// xsmith_tests::conformance::assert_own_productions_common_and_agree(&xsmith_lua::FUZZER, &["PolyCall"]);
/// ```
pub fn assert_own_productions_common_and_agree(fuzzer: &Fuzzer, own: &[&str]) {
    let (each, any) = production_shares(fuzzer, own, 200);
    for (name, share) in own.iter().zip(&each) {
        eprintln!("{name:>14}: in {:5.1}% of programs", share * 100.0);
    }
    let rare: Vec<_> = own.iter().zip(&each).filter(|(_, share)| **share < 0.1).collect();
    assert!(rare.is_empty(), "in fewer than 10% of programs: {rare:?}");
    assert!(any >= 0.5, "only {:.1}% of programs have one", any * 100.0);
    assert_swarm_programs_agree(
        fuzzer,
        fuzzer.implementations,
        &Options::default(),
        Swarm::default(),
        0..100,
    );
}

/// A canned-components fuzzer, checked on its own implementations.
pub struct CannedFuzzer<'a> {
    /// The fuzzer.
    pub fuzzer: &'a Fuzzer,
    /// The canned options its spec is built with.
    pub options: xsmith_canned::Options,
}

impl CannedFuzzer<'_> {
    /// Generates programs from seeds `0..programs` at the default options,
    /// checks that every canned production is in at least 10% of them and
    /// that every implementation of the fuzzer runs every program to the
    /// same output ([`assert_programs_agree`]), and returns the programs'
    /// texts (for checks of a language's own). Panics, naming what failed,
    /// otherwise.
    pub fn check_programs_agree(&self, programs: u64) -> Vec<String> {
        let fuzzer = self.fuzzer;
        let spec = (fuzzer.spec)().unwrap();
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        let (mut bytes, mut nodes) = (0, 0);
        let mut texts = Vec::new();
        for seed in 0..programs {
            let program = fuzzer.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
            bytes += program.text.len();
            nodes += program.program.len();
            texts.push(program.text);
        }
        eprintln!(
            "{programs} programs, {} bytes and {} nodes on average",
            bytes / programs as usize,
            nodes / programs as usize
        );

        let canned = xsmith_canned::Canned::new(&self.options).unwrap();
        let log = generator.choice_log();
        let mut rare = Vec::new();
        for name in &canned.productions {
            let share = log.programs_with(spec.lookup(name).unwrap()) as f64 / programs as f64;
            eprintln!("{name:>14}: in {:5.1}% of programs", share * 100.0);
            if share < 0.1 {
                rare.push(format!("{name} ({:.1}%)", share * 100.0));
            }
        }
        assert!(rare.is_empty(), "in fewer than 10% of programs: {}", rare.join(", "));

        assert_programs_agree(fuzzer, fuzzer.implementations, &Options::default(), 0..programs);
        texts
    }

    /// Checks that each `(max_depth, seed)` of `cases` generates, at
    /// default options but that depth, a program every implementation of
    /// the fuzzer runs to the same output: for seeds that once failed.
    pub fn check_seeds_agree(&self, cases: &[(u32, u64)]) {
        for &(max_depth, seed) in cases {
            let options = Options {
                max_depth,
                ..Options::default()
            };
            assert_programs_agree(self.fuzzer, self.fuzzer.implementations, &options, seed..seed + 1);
        }
    }

    /// Checks that the same seed gives the same bytes from two generators.
    pub fn check_same_seed_same_bytes(&self) {
        let spec = (self.fuzzer.spec)().unwrap();
        let mut first = Generator::new(&spec, Options::default()).unwrap();
        let mut second = Generator::new(&spec, Options::default()).unwrap();
        for seed in [0, 7, 12345] {
            let a = self.fuzzer.program(&spec, &mut first, Source::Seed(seed)).unwrap();
            let b = self.fuzzer.program(&spec, &mut second, Source::Seed(seed)).unwrap();
            assert_eq!(a.text, b.text, "seed {seed}");
        }
    }
}

#[cfg(test)]
mod tests {
    use xsmith::{Execution, Fuzzer, Implementation, Options};

    use super::assert_programs_agree;

    const EXAMPLE: Fuzzer = Fuzzer {
        name: "xsmith-example",
        version: "1",
        extension: "t",
        spec: || Ok(xsmith::example::spec()),
        comment: |text| format!("# {text}\n"),
        prelude: "",
        helpers: &[],
        width: 80,
        implementations: &[],
    };

    /// The message of the panic `check` ends with.
    fn panic_message(check: impl FnOnce() + std::panic::UnwindSafe) -> String {
        let panic = std::panic::catch_unwind(check).expect_err("the check fails");
        panic
            .downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| panic.downcast_ref::<&str>().unwrap().to_string())
    }

    #[test]
    fn a_disagreement_fails_naming_the_seed_and_what_each_printed() {
        let implementations = [
            Implementation::InProcess {
                name: "length",
                run: |text| Execution::Output(text.len().to_string()),
            },
            Implementation::InProcess {
                name: "last",
                run: |text| Execution::Output(text.lines().last().unwrap_or_default().to_string()),
            },
        ];
        let message = panic_message(|| assert_programs_agree(&EXAMPLE, &implementations, &Options::default(), 3..5));
        assert!(message.starts_with("programs 2, agree 0, differ 2,"), "{message}");
        assert!(message.contains("\ndiffer seed 3: "), "{message}");
        assert!(message.contains("length: in process: output, \""), "{message}");
        assert!(message.contains("; last: in process: output, \"print("), "{message}");
        let kept = message
            .split("findings kept in ")
            .nth(1)
            .unwrap()
            .split(')')
            .next()
            .unwrap();
        assert!(std::path::Path::new(kept).join("differ-4").is_dir(), "{message}");
        std::fs::remove_dir_all(kept).unwrap();
    }

    #[test]
    fn a_missing_implementation_fails_naming_its_package() {
        let implementations = [Implementation::Command {
            name: "missing",
            template: "no-such-interpreter-xyz {}",
            package: "xyz-interpreter",
        }];
        let message = panic_message(|| assert_programs_agree(&EXAMPLE, &implementations, &Options::default(), 0..1));
        assert!(
            message.contains("install the Debian package `xyz-interpreter`"),
            "{message}"
        );
    }
}
