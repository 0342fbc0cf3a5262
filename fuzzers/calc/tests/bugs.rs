//! Telling bugs apart by their cores: an in-process calc engine carrying
//! three planted bugs with different triggers, against a correct one.
//!
//! - a sum of a quotient and a literal of 90 to 99 is one too large
//!   (`Add.left>Div`, `Add.right>Literal`);
//! - a quotient of a literal of 80 to 89 by a sum is one too small
//!   (`Div.left>Literal`, `Div.right>Add`);
//! - a quotient of a quotient by a literal of 70 to 79 is one too large
//!   (`Div.left>Div`, `Div.right>Literal`).
//!
//! Every finding has the one grouping `differ: correct | planted`, so by
//! signature alone they are one bug; a campaign with `--reduce` reduces
//! each bug's first finding in full, computes its core, reduces each later
//! finding only until it is shown to be a bug it knows, and reports three
//! bugs, each with a reduced program that shows its trigger. A known-bugs
//! entry naming one bug's core hides that bug only: the other two are
//! still reported and the campaign fails.

use std::path::Path;
use std::process::ExitCode;

use xsmith::campaign::{CoreBug, Listing};
use xsmith::{Execution, Fuzzer, Implementation, KnownBug};

/// A calc expression.
enum Expr {
    Literal(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

/// Parses `left SEPARATOR right)` at the start of `text` (what follows an
/// operator's opening); returns both operands and the rest.
fn operands(text: &str, separator: char) -> Option<(Expr, Expr, &str)> {
    let (left, rest) = parse(text)?;
    let rest = rest.trim_start().strip_prefix(separator)?;
    let (right, rest) = parse(rest)?;
    let rest = rest.trim_start().strip_prefix(')')?;
    Some((left, right, rest))
}

/// Parses the expression at the start of `text`; returns it and the rest.
fn parse(text: &str) -> Option<(Expr, &str)> {
    let text = text.trim_start();
    if let Some(rest) = text.strip_prefix("safe_div(") {
        let (left, right, rest) = operands(rest, ',')?;
        return Some((Expr::Div(Box::new(left), Box::new(right)), rest));
    }
    if let Some(rest) = text.strip_prefix('(') {
        let (left, right, rest) = operands(rest, '+')?;
        return Some((Expr::Add(Box::new(left), Box::new(right)), rest));
    }
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    Some((Expr::Literal(text[..digits].parse().ok()?), &text[digits..]))
}

/// The literal operands that set each planted bug off: 1 in 10 of the
/// literals 1 to 99, so that a program in 25 or so sets one off, and
/// disjoint, so that a reduction of one bug's program does not slide into
/// another's by reading one bug's literal in the other's place (it keeps
/// any program of the same signature).
const TRIGGERS: [std::ops::RangeInclusive<i64>; 3] = [90..=99, 80..=89, 70..=79];

/// Which of the three planted bugs the node `expr` sets off: a sum of a
/// quotient and a literal of 90 to 99; a quotient of a literal of 80 to 89
/// by a sum; a quotient of a quotient by a literal of 70 to 79.
fn planted_bug(expr: &Expr) -> Option<usize> {
    let literal = |e: &Expr, bug: usize| matches!(e, Expr::Literal(v) if TRIGGERS[bug].contains(v));
    match expr {
        Expr::Add(left, right) if matches!(**left, Expr::Div(..)) && literal(right, 0) => Some(0),
        Expr::Div(left, right) if literal(left, 1) && matches!(**right, Expr::Add(..)) => Some(1),
        Expr::Div(left, right) if matches!(**left, Expr::Div(..)) && literal(right, 2) => Some(2),
        _ => None,
    }
}

/// Which planted bugs the nodes of `expr` set off.
fn planted_bugs(expr: &Expr, found: &mut [bool; 3]) {
    if let Some(bug) = planted_bug(expr) {
        found[bug] = true;
    }
    if let Expr::Add(left, right) | Expr::Div(left, right) = expr {
        planted_bugs(left, found);
        planted_bugs(right, found);
    }
}

/// The value of `expr`; with `planted`, with the three bugs (each one off
/// by one).
fn eval(expr: &Expr, planted: bool) -> i64 {
    let value = match expr {
        Expr::Literal(value) => *value,
        Expr::Add(left, right) => eval(left, planted).wrapping_add(eval(right, planted)),
        Expr::Div(left, right) => {
            let (a, b) = (eval(left, planted), eval(right, planted));
            // The header's safe_div: a when dividing by zero, truncating.
            if b == 0 {
                a
            } else {
                a.wrapping_div(b)
            }
        }
    };
    match planted.then(|| planted_bug(expr)).flatten() {
        Some(1) => value.wrapping_sub(1),
        Some(_) => value.wrapping_add(1),
        None => value,
    }
}

/// The expression of a calc program's `show(...)` line on.
fn program_expr(text: &str) -> Option<Expr> {
    let start = text.rfind("\nshow(")?;
    match parse(&text[start + "\nshow(".len()..])? {
        (expr, rest) if rest.trim() == ")" => Some(expr),
        _ => None,
    }
}

/// Runs a calc program.
fn run(text: &str, planted: bool) -> Execution {
    match program_expr(text) {
        Some(expr) => Execution::Output(format!("{}\n", eval(&expr, planted))),
        None => Execution::Rejected("not a calc program".into()),
    }
}

const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::InProcess {
        name: "correct",
        run: |text| run(text, false),
    },
    Implementation::InProcess {
        name: "planted",
        run: |text| run(text, true),
    },
];

/// The calc fuzzer with the two engines as its implementations.
const PLANTED: Fuzzer = Fuzzer {
    implementations: IMPLEMENTATIONS,
    ..xsmith_calc::FUZZER
};

/// Runs `xsmith-calc diff` with the planted engines on threads and
/// `extra` arguments on the programs of seeds `first..first + count`, its
/// findings in `findings`.
fn diff(findings: &Path, first: u64, count: u64, extra: &[&str]) -> ExitCode {
    let (first, count) = (first.to_string(), count.to_string());
    let mut args = vec![
        "xsmith-calc",
        "diff",
        "--seed",
        &first,
        "--count",
        &count,
        "--isolation",
        "thread",
        "--jobs",
        "1",
        "--findings",
        findings.to_str().unwrap(),
    ];
    args.extend(extra);
    xsmith::cli::run(&PLANTED, args)
}

/// The bugs of the findings saved in `findings`, by the cores of their
/// reductions, as `findings` lists them.
fn bugs(findings: &Path, known: &[KnownBug]) -> Vec<CoreBug> {
    let listing = Listing::read(&[findings.to_path_buf()], known, 5).unwrap();
    listing.bugs.into_iter().flat_map(|bug| bug.cores).collect()
}

/// The planted bug the reduced program of `bug` sets off (exactly one).
fn trigger(bug: &CoreBug) -> usize {
    let program = std::fs::read_to_string(bug.findings[0].join("reduced/program.calc")).unwrap();
    let expr = program_expr(&program).unwrap_or_else(|| panic!("a calc program:\n{program}"));
    let mut found = [false; 3];
    planted_bugs(&expr, &mut found);
    let set: Vec<usize> = (0..3).filter(|&b| found[b]).collect();
    assert_eq!(set.len(), 1, "one trigger in the reduced program of {bug}:\n{program}");
    set[0]
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn three_planted_bugs_are_three_bugs_and_a_known_core_hides_only_its_own() {
    let root = tempfile::tempdir().unwrap();
    let reduce = [
        "--reduce",
        "--time-budget",
        "5",
        "--reduce-jobs",
        "1",
        "--save-per-signature",
        "1000",
    ];
    let findings = root.path().join("findings");
    let seed = |dir: &Path| -> u64 {
        let name = dir.file_name().unwrap().to_string_lossy().into_owned();
        name.trim_start_matches("differ-").parse().unwrap()
    };
    let started = std::time::Instant::now();
    assert_eq!(diff(&findings, 0, 1000, &reduce), ExitCode::from(1));
    eprintln!("campaign and reductions: {:.1} s", started.elapsed().as_secs_f64());

    // One signature, three bugs, each reduced to a program with its trigger.
    let found = bugs(&findings, &[]);
    let described: Vec<String> = found.iter().map(|bug| format!("{} {bug}", bug.signature)).collect();
    assert_eq!(found.len(), 3, "{described:#?}");
    assert!(found
        .iter()
        .all(|bug| bug.signature == "differ: correct | planted" && bug.known.is_none()));
    let mut triggers: Vec<usize> = found.iter().map(trigger).collect();
    triggers.sort();
    assert_eq!(triggers, [0, 1, 2], "{described:#?}");
    let edges = ["Add.left>Div", "Div.right>Add", "Div.left>Div"];
    for bug in &found {
        let core = bug.core.as_ref().expect("every finding reduced");
        assert!(core.features().contains(edges[trigger(bug)]), "{bug}");
    }

    // Each bug's first finding was reduced in full; the later ones only
    // until shown to be a bug already known, so with far fewer tests.
    let tests = |dir: &Path| -> u64 {
        let sizes = std::fs::read_to_string(dir.join("reduced/sizes")).unwrap();
        let line = sizes.lines().find_map(|l| l.strip_prefix("tests ")).unwrap();
        line.parse().unwrap()
    };
    let median = |mut v: Vec<u64>| -> u64 {
        v.sort();
        v[v.len() / 2]
    };
    let firsts = median(found.iter().map(|bug| tests(&bug.findings[0])).collect());
    let later: Vec<u64> = found
        .iter()
        .flat_map(|bug| bug.findings[1..].iter().map(|dir| tests(dir)))
        .collect();
    assert!(later.len() >= 3, "{described:#?}");
    let later = median(later);
    eprintln!("median reduction tests: {firsts} for a bug's first finding, {later} for a later one");
    assert!(
        4 * later < firsts,
        "median tests: {later} for later findings, {firsts} for first ones"
    );
    // And the journal records every finding's core.
    let recorded = xsmith::campaign::cores(&findings).unwrap();
    for dir in found.iter().flat_map(|bug| &bug.findings) {
        let core = xsmith::campaign::Core::of_finding(dir).unwrap();
        assert_eq!(recorded.get(&seed(dir)), Some(&core), "{}", dir.display());
    }

    // The report page shows each of them with its core and its own
    // reduced program.
    let listing = Listing::read(std::slice::from_ref(&findings), &[], 5).unwrap();
    let page = root.path().join("report.html");
    xsmith::campaign::write_report(&listing, &PLANTED, &page).unwrap();
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("3 bugs by core"), "{html}");
    for bug in &found {
        let core = bug.core.as_ref().unwrap().to_string().replace('>', "&gt;");
        assert!(html.contains(&format!("Core: <code>{core}</code>")), "{core}:\n{html}");
    }
    assert_eq!(html.matches("<pre class=\"program\">").count(), 3, "a program per bug");

    // Marked as known by its core, the sum of a quotient is hidden; the
    // other two are not, and the campaign fails.
    let sum = found.iter().find(|bug| trigger(bug) == 0).unwrap();
    let entry = format!(
        "differ: correct | planted; core: {} = the planted sum of a quotient\n",
        sum.core.as_ref().unwrap()
    );
    let known_file = root.path().join("known-bugs");
    std::fs::write(&known_file, &entry).unwrap();
    let known = KnownBug::parse(&entry).unwrap();
    // The campaign again, with the known bug, up to the first finding of
    // the last bug to show up (the same seeds give the same findings).
    let count = found.iter().map(|bug| seed(&bug.findings[0])).max().unwrap() + 1;
    let again = root.path().join("again");
    let known_arg = ["--known", known_file.to_str().unwrap()];
    assert_eq!(
        diff(&again, 0, count, &[&reduce[..], &known_arg[..]].concat()),
        ExitCode::from(1)
    );
    let found = bugs(&again, &known);
    assert_eq!(found.len(), 3);
    for bug in &found {
        assert_eq!(bug.known.is_some(), trigger(bug) == 0, "{bug}");
    }

    // A campaign whose one finding is of the known bug succeeds.
    let alone = root.path().join("alone");
    let with_known = [&reduce[..], &known_arg[..]].concat();
    assert_eq!(diff(&alone, seed(&sum.findings[0]), 1, &with_known), ExitCode::SUCCESS);

    // All three known by their cores: every finding is known.
    let entries: String = found
        .iter()
        .map(|bug| {
            format!(
                "differ: correct | planted; core: {} = planted\n",
                bug.core.as_ref().unwrap()
            )
        })
        .collect();
    let all = KnownBug::parse(&entries).unwrap();
    assert!(bugs(&again, &all).iter().all(|bug| bug.known.is_some()));
    // A known bug without a core hides the whole signature, as before.
    let whole = KnownBug::parse("differ: correct | planted = every difference").unwrap();
    assert!(bugs(&again, &whole).iter().all(|bug| bug.known.is_some()));
    // A finding whose `reduced/` is gone keeps its bug: `findings` reads
    // its core from the journal.
    let before = bugs(&findings, &[]);
    let later = before.iter().find(|bug| bug.findings.len() > 1).unwrap();
    std::fs::remove_dir_all(later.findings[1].join("reduced")).unwrap();
    assert_eq!(bugs(&findings, &[]), before);
    eprintln!("in all: {:.1} s", started.elapsed().as_secs_f64());
}
