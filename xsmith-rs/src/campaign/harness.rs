//! One program at a time, as an outside driver hands them over: a
//! coverage-guided fuzzer (libFuzzer: `xsmith::guided`, with the
//! `libfuzzer` feature) gives a byte string, the [`Harness`] generates the
//! program it stands for, runs it on every implementation, and saves a
//! finding exactly as a [`Campaign`](super::Campaign) does, so that
//! `reduce` and `findings` work on it.
//!
//! A finding of an input ([`Source::Input`]) keeps its bytes beside the
//! program, as the file `input` of its directory, and its `command`
//! regenerates the program from them (`xsmith-wasm --input DIR/differ-17/input`). The
//! journal (`guided.journal`, or `-2`, `-3`, ... when taken) gets a line
//! for every finding and for one program in [`JOURNAL_EVERY`] of those
//! that agree, so that `findings` can contrast the two without the journal
//! of a long run growing by a line per execution; the number on each line
//! is the execution's.
//!
//! The baselines a guided run is measured against hand over seeds
//! ([`Source::Seed`]), which the harness can generate as a swarm campaign
//! does ([`Harness::swarm`]: each seed's program under a configuration of
//! its own) or steered towards k-paths not yet covered
//! ([`Harness::steer_to_cover`], with [`Source::Steered`] seeds).

use std::path::{Path, PathBuf};

use super::findings::{self, Finding};
use super::journal::{self, Entry, Journal};
use super::signature::{KnownBug, Signature, Signatures};
use super::verdict::{Tally, Verdict};
use super::{check_implementations, CampaignError, FINDINGS_PER_SIGNATURE};
use crate::exec::{Implementation, Isolation, Limits, Run};
use crate::features::Features;
use crate::fuzzer::{quote, Fuzzer, Generated, Source};
use crate::generate::{GenerateError, Generator};
use crate::options::Options;
use crate::program::Program;
use crate::spec::Spec;
use crate::swarm::Swarm;

/// One agreeing program in this many is journaled.
pub const JOURNAL_EVERY: u64 = 64;

/// Judges programs one at a time, as an outside driver such as libFuzzer
/// hands them over, and saves each finding as a
/// [`Campaign`](super::Campaign) does.
///
/// ```
/// use xsmith::{Execution, Implementation, Source, Verdict};
/// use xsmith::campaign::Harness;
/// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
/// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
/// #     implementations: &[] };
/// let spec = (fuzzer.spec)().unwrap();
/// let implementations = vec![
///     Implementation::InProcess { name: "length", run: |t| Execution::Output(t.len().to_string()) },
///     Implementation::InProcess { name: "odd", run: |t| Execution::Output((t.len() | 1).to_string()) },
/// ];
/// let findings = tempfile::tempdir().unwrap();
/// let mut harness = Harness::new(&fuzzer, &spec, Default::default(), implementations, findings.path(), "x guided").unwrap();
/// let mut saved = None;
/// for input in 0..40u8 {
///     let checked = harness.check(Source::from_input(&[input, 7, input])).unwrap();
///     saved = saved.or(checked.finding);
/// }
/// // Programs of an even length differ; the finding keeps its input.
/// let finding = saved.expect("an even length among 40 programs");
/// assert!(finding.join("input").is_file() && finding.join("program.t").is_file());
/// let command = std::fs::read_to_string(finding.join("command")).unwrap();
/// assert!(command.starts_with("x --input ") && command.trim_end().ends_with("/input"));
/// assert!(harness.tally().differ > 0 && harness.tally().agree > 0);
/// ```
pub struct Harness<'s> {
    fuzzer: &'s Fuzzer,
    spec: &'s Spec,
    generator: Generator<'s>,
    implementations: Vec<Implementation>,
    /// The limits of each run.
    pub limits: Limits,
    /// Known bugs: their findings are saved like others, and
    /// [`Checked::known`] says so.
    pub known: Vec<KnownBug>,
    /// Swarm testing of seeds: the program of a [`Source::Seed`] is
    /// generated under the configuration the seed draws (see
    /// [`Swarm::options`]), which its header, its finding's `command` and
    /// its journal line give, as a `diff --swarm` campaign does; other
    /// sources keep the harness's options.
    ///
    /// ```
    /// use xsmith::{swarm::Swarm, Execution, Generator, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let implementations = vec![
    ///     Implementation::InProcess { name: "length", run: |t| Execution::Output(t.len().to_string()) },
    ///     Implementation::InProcess { name: "odd", run: |t| Execution::Output((t.len() | 1).to_string()) },
    /// ];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), implementations, findings.path(), "x").unwrap();
    /// harness.swarm = Some(Swarm::default());
    /// let drawn = |seed| Swarm::default().options(&spec, &Default::default(), seed);
    /// // A program of an even length differs: its finding's command names the options it drew.
    /// let (seed, finding) = (0..)
    ///     .find_map(|seed| Some((seed, harness.check(Source::Seed(seed)).unwrap().finding?)))
    ///     .unwrap();
    /// let command = std::fs::read_to_string(finding.join("command")).unwrap();
    /// assert_eq!(command.trim_end(), fuzzer.command(&Source::Seed(seed), &drawn(seed)));
    /// // And its program is the one those options make of the seed.
    /// let mut own = Generator::new(&spec, drawn(seed)).unwrap();
    /// let program = fuzzer.program(&spec, &mut own, Source::Seed(seed)).unwrap().text;
    /// assert_eq!(std::fs::read_to_string(finding.join("program.t")).unwrap(), program);
    /// // Some seeds leave out a feature group.
    /// assert!((0..20).any(|seed| harness.generate(&Source::Seed(seed)).unwrap().text.contains("--without")));
    /// ```
    pub swarm: Option<Swarm>,
    findings: PathBuf,
    /// The command of the whole run, for each finding's `campaign` file.
    command: String,
    scratch: tempfile::TempDir,
    journal: Journal,
    signatures: Signatures,
    tally: Tally,
}

/// What one program came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checked {
    /// Its verdict.
    pub verdict: Verdict,
    /// Its finding's signature (none when it agreed).
    pub signature: Option<String>,
    /// Whether that signature is a known bug's.
    pub known: bool,
    /// The directory its finding was saved in (none when it agreed, or
    /// when [`FINDINGS_PER_SIGNATURE`] of its signature were saved before).
    pub finding: Option<PathBuf>,
}

impl<'s> Harness<'s> {
    /// A harness for `fuzzer`'s programs of `spec` with `options`, run on
    /// `implementations` (checked as a campaign checks them), saving
    /// findings in `findings` (created if missing, made absolute so that
    /// the commands it writes work from anywhere); `command` is the
    /// command of the whole run.
    pub fn new(
        fuzzer: &'s Fuzzer,
        spec: &'s Spec,
        options: Options,
        implementations: Vec<Implementation>,
        findings: &Path,
        command: &str,
    ) -> Result<Harness<'s>, CampaignError> {
        check_implementations(&implementations)?;
        let generator = Generator::new(spec, options).map_err(CampaignError::Options)?;
        std::fs::create_dir_all(findings)
            .and_then(|()| std::path::absolute(findings))
            .map_err(|e| CampaignError::Findings(format!("{}: {e}", findings.display())))
            .and_then(|findings| {
                let scratch = tempfile::Builder::new()
                    .prefix("xsmith-guided-")
                    .tempdir()
                    .map_err(|e| CampaignError::Io(format!("cannot create a scratch directory: {e}")))?;
                let programs = journal::Programs {
                    len: 0,
                    index_of: &|_| None,
                };
                let opened = journal::open(&findings, "guided", command, false, &programs).map_err(|e| match e {
                    journal::OpenError::Io(e) => CampaignError::Io(e),
                    journal::OpenError::Held { journal, .. } => {
                        CampaignError::JournalHeld(format!("{} is held by another process", journal.display()))
                    }
                })?;
                Ok(Harness {
                    fuzzer,
                    spec,
                    generator,
                    implementations,
                    limits: Limits::default(),
                    known: Vec::new(),
                    swarm: None,
                    findings,
                    command: command.to_string(),
                    scratch,
                    journal: opened.journal,
                    signatures: Signatures::default(),
                    tally: Tally::default(),
                })
            })
    }

    /// Generates the program of `source`, runs it on every implementation,
    /// and saves a finding if they do not agree. Only writing a finding or
    /// the journal can fail.
    pub fn check(&mut self, source: Source) -> Result<Checked, CampaignError> {
        let generated = self.generate(&source);
        self.check_program(source, &generated)
    }

    /// The program of `source`, as [`check`](Harness::check) generates it.
    ///
    /// ```
    /// # use xsmith::{Execution, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// assert!(harness.generate(&Source::Seed(5)).unwrap().text.starts_with("# x 1 --seed 5\n"));
    /// assert_eq!(harness.tally().programs, 0, "generated, not checked");
    /// ```
    pub fn generate(&mut self, source: &Source) -> Result<Generated, GenerateError> {
        match self.swarm_generator(source) {
            Some(mut own) => self.fuzzer.program(self.spec, &mut own, source.clone()),
            None => self.fuzzer.program(self.spec, &mut self.generator, source.clone()),
        }
    }

    /// Steers the programs of [`Source::Steered`] seeds towards k-paths,
    /// of every length up to `k`, that the harness's programs have not
    /// covered yet (see [`Generator::steer_to_cover`]): the baseline of
    /// `guided --unguided --cover K`. Each program depends on those
    /// generated before it, so the steered seeds must be handed over in
    /// order from the `from` they name, as a batch from it would make them.
    ///
    /// ```
    /// # use xsmith::{Execution, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// harness.steer_to_cover(2);
    /// let programs: Vec<String> = (10..14)
    ///     .map(|seed| harness.generate(&Source::Steered { seed, k: 2, from: 10 }).unwrap().text)
    ///     .collect();
    /// // Each one's header regenerates it: the programs of seeds 10 to 12, steered, then its own.
    /// assert!(programs[3].starts_with("# x 1 --seed 13 --cover 2 --covered-from 10\n"));
    /// ```
    pub fn steer_to_cover(&mut self, k: usize) {
        self.generator.steer_to_cover(k);
    }

    /// The generator of `source`'s own options in a swarm run (see
    /// [`Harness::swarm`]), for a seed whose drawn options can make a
    /// program (the swarm makes sure of it but for its fallback); `None`
    /// otherwise, when the harness's generator makes it.
    fn swarm_generator(&self, source: &Source) -> Option<Generator<'s>> {
        match (self.swarm, source) {
            (Some(swarm), Source::Seed(seed)) => {
                Generator::new(self.spec, swarm.options(self.spec, self.generator.options(), *seed)).ok()
            }
            _ => None,
        }
    }

    /// The options `source`'s program is generated under: its own in a
    /// swarm run (see [`Harness::swarm_generator`]), else the harness's.
    fn options_of(&self, source: &Source) -> Options {
        match self.swarm_generator(source) {
            Some(own) => own.options().clone(),
            None => self.generator.options().clone(),
        }
    }

    /// The program `program`, generated elsewhere under this harness's
    /// options from `choices`, the draws of `source`, rendered as
    /// [`generate`](Harness::generate) renders it. A guided run's mutator
    /// generates the program of each input it makes (see
    /// [`Mutator::take_program_of`](crate::mutate::Mutator::take_program_of)).
    ///
    /// ```
    /// # use xsmith::{Execution, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// let made = harness.generate(&Source::Seed(5)).unwrap();
    /// let text = made.text.clone();
    /// assert_eq!(harness.rendered(&Source::Seed(5), made.program, made.choices).text, text);
    /// ```
    pub fn rendered(&self, source: &Source, program: Program, choices: crate::Choices) -> Generated {
        self.fuzzer
            .rendered(self.spec, self.generator.options(), source, program, choices)
    }

    /// [`check`](Harness::check) of a program already generated from
    /// `source` (or of the error that kept it from being generated).
    ///
    /// ```
    /// # use xsmith::{Execution, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// let made = harness.generate(&Source::Seed(5));
    /// assert_eq!(harness.check_program(Source::Seed(5), &made).unwrap().verdict, xsmith::Verdict::Agree);
    /// assert_eq!(harness.tally().programs, 1);
    /// ```
    pub fn check_program(
        &mut self,
        source: Source,
        generated: &Result<Generated, GenerateError>,
    ) -> Result<Checked, CampaignError> {
        let execution = self.tally.programs;
        let (runs, verdict) = match generated {
            Ok(generated) => {
                let file = self.scratch.path().join(format!("program.{}", self.fuzzer.extension));
                std::fs::write(&file, &generated.text)
                    .map_err(|e| CampaignError::Io(format!("writing {}: {e}", file.display())))?;
                // Engines stay in this process: libFuzzer saves the input that kills it.
                let runs = Implementation::run_each_with(
                    &self.implementations,
                    &file,
                    &generated.text,
                    &self.limits,
                    Isolation::Thread,
                );
                let verdict = Verdict::of_runs(&runs);
                (runs, verdict)
            }
            Err(_) => (Vec::new(), Verdict::GenerationFailed),
        };
        self.tally.add(verdict);
        // Features are computed only for the programs journaled.
        let features = (generated.as_ref().ok())
            .filter(|_| verdict != Verdict::Agree || execution % JOURNAL_EVERY == 0)
            .map(|generated| Features::of(self.spec.grammar(), &generated.program));
        if verdict == Verdict::Agree {
            if execution % JOURNAL_EVERY == 0 {
                self.record(execution, verdict, &source, None, None, features)?;
            }
            return Ok(Checked {
                verdict,
                signature: None,
                known: false,
                finding: None,
            });
        }
        let signature = match verdict {
            Verdict::GenerationFailed => verdict.name().to_string(),
            _ => Signature::of(&runs).to_string(),
        };
        let count = self.signatures.add(&signature, &self.known);
        let known = self.signatures.known.contains_key(&signature);
        let finding = match count <= FINDINGS_PER_SIGNATURE {
            true => {
                let program = (generated.as_ref())
                    .map(|generated| generated.text.clone())
                    .map_err(|e| e.to_string());
                Some(self.save(execution, verdict, &source, program, &runs, &signature)?)
            }
            false => None,
        };
        let name = finding
            .as_ref()
            .and_then(|dir| dir.file_name())
            .map(|n| n.to_string_lossy().into_owned());
        self.record(execution, verdict, &source, name, Some(signature.clone()), features)?;
        Ok(Checked {
            verdict,
            signature: Some(signature),
            known,
            finding,
        })
    }

    /// Saves one finding: an input's (or a byte string's) bytes go into
    /// the finding's directory, and the program is regenerated so that its
    /// header and `command` name that file.
    fn save(
        &mut self,
        execution: u64,
        verdict: Verdict,
        source: &Source,
        program: Result<String, String>,
        runs: &[(Implementation, Run)],
        signature: &str,
    ) -> Result<PathBuf, CampaignError> {
        let io = |e: std::io::Error| CampaignError::Io(format!("saving a finding in {}: {e}", self.findings.display()));
        let dir =
            findings::create_unique_dir(&self.findings, &format!("{}-{execution}", verdict.name())).map_err(io)?;
        let (source, program) = match source {
            Source::Input { bytes, .. } | Source::Bytes { bytes, .. } => {
                let input = dir.join("input");
                std::fs::write(&input, bytes).map_err(io)?;
                let path = input.display().to_string();
                let named = match source {
                    Source::Bytes { offset, .. } => Source::Bytes {
                        path,
                        bytes: bytes.clone(),
                        offset: *offset,
                    },
                    _ => Source::Input {
                        path,
                        bytes: bytes.clone(),
                    },
                };
                let program = match program {
                    Ok(_) => self
                        .fuzzer
                        .program(self.spec, &mut self.generator, named.clone())
                        .map(|generated| generated.text)
                        .map_err(|e| e.to_string()),
                    Err(e) => Err(e),
                };
                (named, program)
            }
            other => (other.clone(), program),
        };
        let command = self.fuzzer.command(&source, &self.options_of(&source));
        let finding = Finding {
            verdict,
            seed: execution,
            program: program.as_deref().map_err(String::as_str),
            extension: self.fuzzer.extension,
            command: &command,
            campaign: &self.command,
            runs,
            signature,
        };
        findings::write(&dir, &finding).map_err(io)?;
        Ok(dir)
    }

    /// Writes the journal's line of one execution (the options of a
    /// swarm program on it, as a swarm campaign's journal has them).
    fn record(
        &mut self,
        execution: u64,
        verdict: Verdict,
        source: &Source,
        finding: Option<String>,
        signature: Option<String>,
        features: Option<Features>,
    ) -> Result<(), CampaignError> {
        let entry = Entry {
            seed: execution,
            verdict,
            finding,
            signature,
            options: (self.swarm.is_some() && matches!(source, Source::Seed(_)))
                .then(|| quote(&self.options_of(source).args())),
            features,
        };
        self.journal
            .record(&entry)
            .map_err(|e| CampaignError::Io(format!("writing {}: {e}", self.journal.path().display())))
    }

    /// The input ([`Source::Input`]) that regenerates the program of
    /// `source`: the seed 0, then every choice's bytes (see
    /// [`Random::record_bytes`](crate::Random::record_bytes)). This is how a seed, a choice file or a
    /// finding becomes an input of a byte-driven fuzzer (a choice file
    /// whose decisions are not the defaults gives a program near its own).
    ///
    /// ```
    /// use xsmith::{Execution, Implementation, Source};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let mut harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// let input = harness.input_of(&Source::Seed(3)).unwrap();
    /// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    /// let mut body = |source| fuzzer.program(&spec, &mut generator, source).unwrap().text.split_once('\n').unwrap().1.to_string();
    /// let (from_input, from_seed) = (body(Source::from_input(&input)), body(Source::Seed(3)));
    /// assert_eq!(from_input, from_seed);
    /// ```
    pub fn input_of(&mut self, source: &Source) -> Result<Vec<u8>, crate::GenerateError> {
        crate::mutate::input_of_draws(&mut self.generator, source.random(), &[])
    }

    /// A [`Mutator`](crate::mutate::Mutator) of this harness's inputs:
    /// its programs, under its options.
    ///
    /// ```
    /// # use xsmith::{Execution, Implementation};
    /// # let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
    /// #     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
    /// #     implementations: &[] };
    /// let spec = (fuzzer.spec)().unwrap();
    /// let echo = vec![Implementation::InProcess { name: "echo", run: |t| Execution::Output(t.into()) }];
    /// let findings = tempfile::tempdir().unwrap();
    /// let harness = xsmith::campaign::Harness::new(&fuzzer, &spec, Default::default(), echo, findings.path(), "x").unwrap();
    /// let mut mutator = harness.mutator();
    /// let input = mutator.input_of_seed(1).unwrap();
    /// assert!(mutator.mutate(&input, 2).is_some());
    /// ```
    pub fn mutator(&self) -> crate::mutate::Mutator<'s> {
        crate::mutate::Mutator::new(self.spec, self.generator.options().clone())
            .expect("the harness's generator has these options")
    }

    /// The verdicts so far.
    pub fn tally(&self) -> &Tally {
        &self.tally
    }

    /// The findings' signatures so far.
    pub fn signatures(&self) -> &Signatures {
        &self.signatures
    }

    /// The findings directory (absolute).
    pub fn findings(&self) -> &Path {
        &self.findings
    }

    /// The journal's path.
    pub fn journal(&self) -> &Path {
        self.journal.path()
    }
}
