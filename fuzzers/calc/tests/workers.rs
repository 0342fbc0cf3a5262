//! In-process engines in supervised workers, as a library user plants them:
//! three engines that misbehave on a few programs each (one aborts, one
//! writes through a null pointer, one loops forever) beside a sound one,
//! in a 500-program campaign of calc programs. The campaign finishes, each
//! misbehaviour is a saved finding of its engine that `reduce` shrinks, and
//! no process the campaign started is left. And a campaign whose engines
//! run on its own threads, killed by one of them, makes that program a
//! `campaign-crashed` finding on its second `--resume`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;
use std::time::Duration;

use xsmith::{Campaign, Execution, Fuzzer, Generator, Implementation, Isolation, Limits, Source};

/// What the sound engine prints: the same for every engine on a program
/// that does not trip it.
fn sound(text: &str) -> Execution {
    Execution::Output(format!("{}\n", text.len()))
}

/// Programs that add something to 77 abort it.
fn aborts(text: &str) -> Execution {
    if text.contains(ABORTS) {
        std::process::abort();
    }
    sound(text)
}

/// Programs that add something to 13 make it write through a null pointer.
fn writes_null(text: &str) -> Execution {
    if text.contains(WRITES_NULL) {
        // SAFETY: none: the point is the segmentation fault.
        unsafe { std::ptr::null_mut::<u64>().write_volatile(13) };
    }
    sound(text)
}

/// Programs that add something to 42 make it loop forever.
fn spins(text: &str) -> Execution {
    if text.contains(SPINS) {
        loop {
            std::hint::spin_loop();
        }
    }
    sound(text)
}

const ABORTS: &str = "(77 +";
const WRITES_NULL: &str = "(13 +";
const SPINS: &str = "(42 +";

const PLANTED: &[Implementation] = &[
    Implementation::InProcess {
        name: "sound",
        run: sound,
    },
    Implementation::InProcess {
        name: "aborts",
        run: aborts,
    },
    Implementation::InProcess {
        name: "writes-null",
        run: writes_null,
    },
    Implementation::InProcess {
        name: "spins",
        run: spins,
    },
];

/// The calc fuzzer with the planted engines as its implementations, so
/// that `reduce` finds them by name in a finding.
const FUZZER: Fuzzer = Fuzzer {
    implementations: PLANTED,
    ..xsmith_calc::FUZZER
};

/// The tests of this file count this process's children: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// The processes whose parent is this one (zombies included).
fn children() -> Vec<String> {
    let me = std::process::id().to_string();
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid ...`: the command may hold spaces.
        let Some((_, after)) = stat.rsplit_once(") ") else {
            continue;
        };
        if after.split(' ').nth(1) == Some(me.as_str()) {
            found.push(stat.split(' ').next().unwrap_or_default().to_string());
        }
    }
    found
}

/// The signature each of seeds `0..count` should get.
fn expected_signatures(count: u64) -> BTreeMap<u64, String> {
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = Generator::new(&spec, Default::default()).unwrap();
    let mut expected = BTreeMap::new();
    for seed in 0..count {
        let text = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap().text;
        let crashed: Vec<&str> = [
            (ABORTS, "aborts (killed by signal 6 (SIGABRT))"),
            (WRITES_NULL, "writes-null (killed by signal 11 (SIGSEGV))"),
        ]
        .into_iter()
        .filter(|(trigger, _)| text.contains(trigger))
        .map(|(_, name)| name)
        .collect();
        let signature = match () {
            _ if text.contains(SPINS) => "timeout: spins".to_string(),
            _ if !crashed.is_empty() => format!("crashed: {}", crashed.join(" ")),
            _ => "agree".to_string(),
        };
        expected.insert(seed, signature);
    }
    expected
}

/// The bytes of a finding's program before and after reduction, from its
/// `reduced/sizes`.
fn reduced_bytes(finding: &Path) -> (usize, usize) {
    let sizes = std::fs::read_to_string(finding.join("reduced").join("sizes")).unwrap();
    let line = sizes.lines().find(|l| l.starts_with("bytes ")).unwrap();
    let (before, after) = line["bytes ".len()..].split_once(" -> ").unwrap();
    (before.parse().unwrap(), after.parse().unwrap())
}

#[test]
fn engines_that_abort_fault_or_hang_are_findings_of_their_own_and_leave_nothing_running() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::Builder::new()
        .prefix("xsmith-calc-workers-")
        .tempdir()
        .unwrap();
    let findings = dir.path().join("findings");
    let mut campaign = Campaign::new(&FUZZER, &findings);
    (campaign.first_seed, campaign.count, campaign.jobs) = (0, 500, 2);
    // Generous for a loaded machine: the sound runs take microseconds.
    campaign.limits = Limits {
        timeout: Duration::from_secs(3),
        ..Limits::default()
    };
    let before = children();
    let mut report = Vec::new();
    let tally = campaign.run(&mut report).expect("the campaign finishes");
    let report = String::from_utf8(report).unwrap();
    assert!(!report.contains("note: in-process engines run on threads"), "{report}");
    assert_eq!(children(), before, "no worker outlives the campaign");

    let expected = expected_signatures(500);
    let misbehaving = expected.values().filter(|s| *s != "agree").count() as u64;
    for engine in ["aborts", "writes-null", "spins"] {
        let programs = expected.values().filter(|s| s.contains(engine)).count();
        assert!(programs >= 2, "{engine} misbehaves on a few programs, not {programs}");
    }
    assert_eq!((tally.programs, tally.agree), (500, 500 - misbehaving), "{report}");
    let entries = xsmith::campaign::entries(&findings).unwrap();
    let got: BTreeMap<u64, String> = entries
        .iter()
        .map(|e| (e.seed, e.signature.clone().unwrap_or_else(|| "agree".into())))
        .collect();
    assert_eq!(got, expected, "each program has the signature of what it trips");

    // Each finding is saved with its program, and the status of the engine
    // that misbehaved.
    let mut first_of = BTreeMap::new();
    for entry in entries.iter().filter(|e| e.finding.is_some()) {
        let finding = findings.join(entry.finding.as_ref().unwrap());
        let program = std::fs::read_to_string(finding.join("program.calc")).unwrap();
        let signature = entry.signature.clone().unwrap();
        let (trigger, engine, status) = match signature.as_str() {
            s if s.starts_with("timeout") => (SPINS, "spins", "timed out after 3 s"),
            s if s.contains("aborts") => (ABORTS, "aborts", "killed by signal 6 (SIGABRT)"),
            _ => (WRITES_NULL, "writes-null", "killed by signal 11 (SIGSEGV)"),
        };
        assert!(program.contains(trigger), "{}", finding.display());
        let written = std::fs::read_to_string(finding.join(format!("{engine}.status"))).unwrap();
        assert_eq!(written, format!("{status}\n{engine}=<in-process>\n"));
        first_of.entry(engine).or_insert(finding);
    }
    assert_eq!(first_of.len(), 3, "a finding of each engine");

    // `reduce` shrinks one finding of each, keeping its signature.
    let dirs: Vec<PathBuf> = first_of.values().cloned().collect();
    let mut args = vec!["xsmith-calc".to_string(), "reduce".to_string()];
    args.extend(dirs.iter().map(|d| d.display().to_string()));
    args.extend(["--reduce-jobs", "1", "--time-budget", "30"].map(String::from));
    let status = xsmith::cli::run(&FUZZER, args);
    assert_eq!(status, std::process::ExitCode::SUCCESS);
    for (engine, finding) in &first_of {
        let (before, after) = reduced_bytes(finding);
        assert!(after < before, "{engine}: {before} -> {after} bytes");
        let reduced = std::fs::read_to_string(finding.join("reduced").join("program.calc")).unwrap();
        let trigger = match *engine {
            "aborts" => ABORTS,
            "writes-null" => WRITES_NULL,
            _ => SPINS,
        };
        assert!(reduced.contains(trigger), "{engine}: {reduced}");
    }
    assert_eq!(children(), before, "no worker outlives the reduction");
}

/// The environment variable that makes [`dying_campaign`] run: the
/// findings directory.
const DYING: &str = "XSMITH_CALC_TEST_DYING_CAMPAIGN";

/// A campaign of seeds 60..100 (seed 88 adds to 77) with its engines on its
/// own threads, resumed: the aborting engine kills it. Run by
/// [`a_campaign_that_dies_on_a_program_saves_it_on_the_second_resume`] in
/// a process of its own.
#[test]
#[ignore = "run by a_campaign_that_dies_on_a_program_saves_it_on_the_second_resume"]
fn dying_campaign() {
    let Some(findings) = std::env::var_os(DYING) else {
        return;
    };
    let mut campaign = Campaign::new(&FUZZER, PathBuf::from(findings));
    (campaign.first_seed, campaign.count, campaign.jobs) = (60, 40, 2);
    campaign.implementations = vec![PLANTED[0], PLANTED[1]];
    campaign.isolation = Isolation::Thread;
    campaign.resume = true;
    let mut report = std::io::stdout();
    let tally = campaign.run(&mut report).unwrap();
    println!("{tally}");
}

#[test]
fn a_campaign_that_dies_on_a_program_saves_it_on_the_second_resume() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let dir = tempfile::Builder::new().prefix("xsmith-calc-dying-").tempdir().unwrap();
    let findings = dir.path().join("findings");
    let run = || {
        Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "dying_campaign",
                "--ignored",
                "--nocapture",
                "--test-threads",
                "1",
            ])
            .env(DYING, &findings)
            .output()
            .unwrap()
    };
    use std::os::unix::process::ExitStatusExt;
    let first = run();
    assert_eq!(
        first.status.signal(),
        Some(6),
        "the engine's abort ends the campaign: {first:?}"
    );
    let second = run();
    assert_eq!(
        second.status.signal(),
        Some(6),
        "seed 88, run again alone, ends it again"
    );
    let journal = findings.join("campaign-60-40.journal");
    let text = std::fs::read_to_string(&journal).unwrap();
    assert!(text.lines().any(|l| l == "88 started alone"), "{text}");
    let third = run();
    let stdout = String::from_utf8_lossy(&third.stdout);
    assert!(third.status.success(), "{stdout}");
    assert!(
        stdout.contains("programs 40, agree 39, differ 0, rejected 0, crashed 0, timeout 0, campaign-crashed 1"),
        "{stdout}"
    );
    let entries = xsmith::campaign::entries(&findings).unwrap();
    let seeds: Vec<u64> = {
        let mut seeds: Vec<u64> = entries.iter().map(|e| e.seed).collect();
        seeds.sort();
        seeds
    };
    assert_eq!(
        seeds,
        (60..100).collect::<Vec<_>>(),
        "every seed journaled exactly once"
    );
    let crashed = entries.iter().find(|e| e.seed == 88).unwrap();
    assert_eq!(crashed.verdict, xsmith::Verdict::CampaignCrashed);
    let finding = findings.join(crashed.finding.as_ref().unwrap());
    let program = std::fs::read_to_string(finding.join("program.calc")).unwrap();
    assert!(program.contains(ABORTS), "the program is saved");
    assert_eq!(
        std::fs::read_to_string(finding.join("command")).unwrap(),
        "xsmith-calc --seed 88\n"
    );
}
