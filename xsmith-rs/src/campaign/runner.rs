//! Running a campaign's remaining programs: `jobs` threads generate and run
//! them, each journaled as started before its runs; one thread saves the
//! findings and journals the results, in seed order whatever order the
//! threads finish in.

use std::collections::BTreeMap;
use std::io::Write;
use std::ops::Range;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Mutex};

use super::journal::{Entry, Journal, Pending, Remaining};
use super::signature::{Signature, Signatures};
use super::verdict::{ByProduction, Tally, Verdict};
use super::{findings, Campaign, CampaignError};
use crate::exec::{end_this_threads_worker, Execution, Implementation, Isolation, Limits, Run};
use crate::features::Features;
use crate::fuzzer::{quote, Source, GENERATION_STACK};
use crate::generate::Generator;
use crate::options::Options;

/// One program's result, sent from a job to the thread that records.
struct Outcome {
    seed: u64,
    /// The options it was generated with.
    options: Options,
    /// The program, or why it could not be generated.
    program: Result<String, String>,
    /// The program's features.
    features: Option<Features>,
    runs: Vec<(Implementation, Run)>,
    verdict: Verdict,
}

/// What a campaign's jobs share.
pub(super) struct Shared<'c, 'f> {
    pub campaign: &'c Campaign<'f>,
    /// The campaign's command line.
    pub header: String,
    pub journal: Mutex<Journal>,
    pub remaining: Remaining,
    /// The seed of the shard's `j`-th program.
    pub seed_of: &'c (dyn Fn(u64) -> u64 + Sync),
}

/// A campaign under way: what its jobs share, and what it has recorded so
/// far.
pub(super) struct Runner<'c, 'f> {
    pub shared: Shared<'c, 'f>,
    pub tally: Tally,
    pub by_production: ByProduction,
    pub signatures: Signatures,
    pub bar: indicatif::ProgressBar,
}

/// What the recording thread changes.
struct Records<'r> {
    tally: &'r mut Tally,
    by_production: &'r mut ByProduction,
    signatures: &'r mut Signatures,
    bar: &'r indicatif::ProgressBar,
}

impl Runner<'_, '_> {
    /// Runs the remaining programs at `positions` on at most `jobs`
    /// threads, recording each; `alone`: one at a time, each journaled as
    /// started alone (the reruns of programs a stop interrupted).
    pub fn run(
        &mut self,
        positions: Range<u64>,
        jobs: usize,
        alone: bool,
        report: &mut dyn Write,
    ) -> Result<(), CampaignError> {
        if positions.is_empty() {
            return Ok(());
        }
        let next = AtomicU64::new(positions.start);
        let stop = AtomicBool::new(false);
        let (sender, receiver) = mpsc::channel::<Result<(u64, Outcome), CampaignError>>();
        // Alone, a program starts only once the one before it is journaled:
        // one that ends the process must not take the record of the one
        // before it along (a resume would blame that one too).
        let (recorded, wait_recorded) = mpsc::channel::<()>();
        let mut wait_recorded = alone.then_some(wait_recorded);
        let jobs = if alone { 1 } else { jobs };
        let threads = (jobs as u64).min(positions.end - positions.start).max(1) as usize;
        let mut failure = None;
        let shared = &self.shared;
        let mut records = Records {
            tally: &mut self.tally,
            by_production: &mut self.by_production,
            signatures: &mut self.signatures,
            bar: &self.bar,
        };
        std::thread::scope(|scope| {
            for t in 0..threads {
                let sender = sender.clone();
                let (next, stop, end) = (&next, &stop, positions.end);
                let wait_recorded = wait_recorded.take();
                let spawned = std::thread::Builder::new()
                    .name(format!("campaign-{t}"))
                    .stack_size(GENERATION_STACK)
                    .spawn_scoped(scope, move || {
                        shared.work(end, alone, next, stop, &sender, wait_recorded.as_ref());
                        end_this_threads_worker();
                    });
                if let Err(e) = spawned {
                    failure.get_or_insert(CampaignError::Io(format!("cannot start a campaign thread: {e}")));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            drop(sender);
            let mut pending = BTreeMap::new();
            let mut expected = positions.start;
            for message in receiver {
                match message {
                    Ok((position, outcome)) => {
                        pending.insert(position, outcome);
                    }
                    Err(e) => {
                        failure.get_or_insert(e);
                        stop.store(true, Ordering::Relaxed);
                    }
                }
                while failure.is_none() {
                    let Some(outcome) = pending.remove(&expected) else {
                        break;
                    };
                    match shared.record(&outcome, &mut records, report) {
                        Ok(()) => expected += 1,
                        Err(e) => {
                            failure = Some(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
                // An alone job waits for this (its program journaled, or
                // the campaign stopping) before it starts the next.
                let _ = recorded.send(());
            }
        });
        match failure {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }
}

impl Shared<'_, '_> {
    /// One job: generates and runs the programs `next` hands out (up to
    /// `end`) until there are none left or the campaign stops; with
    /// `wait_recorded`, each only once the one before it is journaled.
    fn work(
        &self,
        end: u64,
        alone: bool,
        next: &AtomicU64,
        stop: &AtomicBool,
        sender: &mpsc::Sender<Result<(u64, Outcome), CampaignError>>,
        wait_recorded: Option<&mpsc::Receiver<()>>,
    ) {
        let campaign = self.campaign;
        let fail = |e: CampaignError| {
            let _ = sender.send(Err(e));
        };
        let spec = match (campaign.fuzzer.spec)() {
            Ok(spec) => spec,
            Err(e) => return fail(CampaignError::Spec(e.to_string())),
        };
        let mut generator = match Generator::new(&spec, campaign.options.clone()) {
            Ok(generator) => generator,
            Err(e) => return fail(CampaignError::Options(e)),
        };
        let scratch = match tempfile::Builder::new().prefix("xsmith-campaign-").tempdir() {
            Ok(dir) => dir,
            Err(e) => return fail(CampaignError::Io(format!("cannot create a scratch directory: {e}"))),
        };
        let file = scratch.path().join(format!("program.{}", campaign.fuzzer.extension));
        while !stop.load(Ordering::Relaxed) {
            let position = next.fetch_add(1, Ordering::Relaxed);
            let Some((j, pending)) = self.remaining.get(position).filter(|_| position < end) else {
                break;
            };
            let seed = (self.seed_of)(j);
            // A swarm program has a generator of its own, for the options it drew.
            let (options, generated) = match campaign.swarm {
                Some(swarm) => {
                    let options = swarm.options(&spec, &campaign.options, seed);
                    let generated = Generator::new(&spec, options.clone())
                        .map_err(|e| e.to_string())
                        .and_then(|mut own| {
                            let program = campaign.fuzzer.program(&spec, &mut own, Source::Seed(seed));
                            program.map_err(|e| e.to_string())
                        });
                    (options, generated)
                }
                None => {
                    let program = campaign.fuzzer.program(&spec, &mut generator, Source::Seed(seed));
                    (campaign.options.clone(), program.map_err(|e| e.to_string()))
                }
            };
            let outcome = match generated {
                Ok(program) if pending == Pending::CampaignCrashed => Outcome {
                    seed,
                    options,
                    features: Some(Features::of(spec.grammar(), &program.program)),
                    program: Ok(program.text),
                    runs: Vec::new(),
                    verdict: Verdict::CampaignCrashed,
                },
                Ok(program) => {
                    if let Err(e) = std::fs::write(&file, &program.text) {
                        return fail(CampaignError::Io(format!("writing {}: {e}", file.display())));
                    }
                    let started = self.journal.lock().map(|mut journal| {
                        let path = journal.path().display().to_string();
                        journal.started(seed, alone).map_err(|e| format!("writing {path}: {e}"))
                    });
                    match started {
                        Ok(Ok(())) => {}
                        Ok(Err(e)) => return fail(CampaignError::Io(e)),
                        Err(_) => return fail(CampaignError::Io("the journal's writer panicked".into())),
                    }
                    let mut runs = Implementation::run_each_with(
                        &campaign.implementations,
                        &file,
                        &program.text,
                        &campaign.limits,
                        campaign.isolation,
                    );
                    confirm_timeouts(&mut runs, &file, &program.text, &campaign.limits, campaign.isolation);
                    Outcome {
                        seed,
                        options,
                        features: Some(Features::of(spec.grammar(), &program.program)),
                        program: Ok(program.text),
                        verdict: Verdict::of_runs(&runs),
                        runs,
                    }
                }
                Err(e) => Outcome {
                    seed,
                    options,
                    features: None,
                    program: Err(e),
                    runs: Vec::new(),
                    verdict: Verdict::GenerationFailed,
                },
            };
            if sender.send(Ok((position, outcome))).is_err() {
                break;
            }
            if wait_recorded.is_some_and(|recorded| recorded.recv().is_err()) {
                break;
            }
        }
    }

    /// Saves a program's finding (if any), reports it, journals it and
    /// counts it.
    fn record(&self, outcome: &Outcome, records: &mut Records, report: &mut dyn Write) -> Result<(), CampaignError> {
        let campaign = self.campaign;
        let mut saved = None;
        let signature = match outcome.verdict {
            Verdict::GenerationFailed | Verdict::CampaignCrashed => outcome.verdict.name().to_string(),
            _ => Signature::of(&outcome.runs).to_string(),
        };
        let count = match outcome.verdict {
            Verdict::Agree => 0,
            _ => records.signatures.add(&signature, &campaign.known),
        };
        let bar = records.bar;
        let saved_per_signature = campaign.saved_per_signature;
        if count > saved_per_signature {
            bar.suspend(|| {
                writeln!(
                    report,
                    "{} seed {}: not saved ({saved_per_signature} findings of `{signature}` are)",
                    outcome.verdict.name(),
                    outcome.seed,
                )
            })
            .map_err(|e| CampaignError::Io(format!("writing the report: {e}")))?;
        } else if outcome.verdict != Verdict::Agree {
            let command = campaign.fuzzer.command(&Source::Seed(outcome.seed), &outcome.options);
            let finding = findings::Finding {
                verdict: outcome.verdict,
                seed: outcome.seed,
                program: outcome.program.as_deref().map_err(String::as_str),
                extension: campaign.fuzzer.extension,
                command: &command,
                campaign: &self.header,
                runs: &outcome.runs,
                signature: &signature,
            };
            let dir = findings::save(&campaign.findings, &finding)
                .map_err(|e| CampaignError::Io(format!("saving a finding in {}: {e}", campaign.findings.display())))?;
            bar.suspend(|| {
                writeln!(
                    report,
                    "{} seed {}: {}",
                    outcome.verdict.name(),
                    outcome.seed,
                    dir.display()
                )
            })
            .map_err(|e| CampaignError::Io(format!("writing the report: {e}")))?;
            saved = dir.file_name().map(|n| n.to_string_lossy().into_owned());
        }
        let entry = Entry {
            seed: outcome.seed,
            verdict: outcome.verdict,
            finding: saved,
            signature: (outcome.verdict != Verdict::Agree).then_some(signature),
            options: campaign.swarm.map(|_| quote(&outcome.options.args())),
            features: outcome.features.clone(),
        };
        let mut journal = self
            .journal
            .lock()
            .map_err(|_| CampaignError::Io("the journal's writer panicked".into()))?;
        journal
            .record(&entry)
            .map_err(|e| CampaignError::Io(format!("writing {}: {e}", journal.path().display())))?;
        records.tally.add(outcome.verdict);
        records.by_production.add(outcome.features.as_ref(), outcome.verdict);
        let tally = &records.tally;
        bar.inc(1);
        bar.set_message(format!(
            "differ {} rejected {} crashed {} timeout {} generation-failed {}",
            tally.differ, tally.rejected, tally.crashed, tally.timeout, tally.generation_failed
        ));
        Ok(())
    }
}

/// Runs each implementation that timed out once more, and lets the second
/// run stand: a time-out is a finding only if it repeats. A program that
/// finishes in a fraction of the limit can miss it while the machine is
/// loaded: of 2,092 programs of a Scheme campaign on two cores that were
/// also building, 21 timed out (Guile's compiler or Racket, at 10 s), and
/// each agreed, in under half a second, when run again.
fn confirm_timeouts(
    runs: &mut [(Implementation, Run)],
    file: &Path,
    text: &str,
    limits: &Limits,
    isolation: Isolation,
) {
    for (implementation, run) in runs.iter_mut() {
        if run.execution == Execution::Timeout {
            *run = implementation.run_with(file, text, limits, isolation);
        }
    }
}
