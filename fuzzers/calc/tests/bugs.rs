//! Telling bugs apart by their cores: an in-process calc engine carrying
//! three planted bugs with different triggers, against a correct one.
//!
//! - a sum whose left operand is a quotient is one too large
//!   (`Add.left>Div`);
//! - a quotient whose divisor is a sum is one too large (`Div.right>Add`);
//! - a quotient of a quotient (its dividend) is one too small
//!   (`Div.left>Div`).
//!
//! Every finding has the one grouping `differ: correct | planted`, so by
//! signature alone they are one bug; a campaign with `--reduce` reduces
//! each finding, computes its core and reports three bugs, each with a
//! reduced program that shows its trigger. A known-bugs entry naming one
//! bug's core hides that bug only: the other two are still reported and
//! the campaign fails.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use xsmith::campaign::{group_bugs, Core, CoreBug, Listing};
use xsmith::{Execution, Fuzzer, Implementation};

/// A calc expression.
enum Expr {
    Literal(i64),
    Add(Box<Expr>, Box<Expr>),
    Div(Box<Expr>, Box<Expr>),
}

/// Parses the expression at the start of `text`; returns it and the rest.
fn parse(text: &str) -> Option<(Expr, &str)> {
    let text = text.trim_start();
    if let Some(rest) = text.strip_prefix("safe_div(") {
        let (left, rest) = parse(rest)?;
        let rest = rest.trim_start().strip_prefix(',')?;
        let (right, rest) = parse(rest)?;
        let rest = rest.trim_start().strip_prefix(')')?;
        return Some((Expr::Div(Box::new(left), Box::new(right)), rest));
    }
    if let Some(rest) = text.strip_prefix('(') {
        let (left, rest) = parse(rest)?;
        let rest = rest.trim_start().strip_prefix('+')?;
        let (right, rest) = parse(rest)?;
        let rest = rest.trim_start().strip_prefix(')')?;
        return Some((Expr::Add(Box::new(left), Box::new(right)), rest));
    }
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    Some((Expr::Literal(text[..digits].parse().ok()?), &text[digits..]))
}

/// The value of `expr`; with `planted`, with the three bugs.
fn eval(expr: &Expr, planted: bool) -> i64 {
    match expr {
        Expr::Literal(value) => *value,
        Expr::Add(left, right) => {
            let sum = eval(left, planted).wrapping_add(eval(right, planted));
            match (planted, &**left) {
                (true, Expr::Div(..)) => sum + 1,
                _ => sum,
            }
        }
        Expr::Div(left, right) => {
            let (a, b) = (eval(left, planted), eval(right, planted));
            // The header's safe_div: a when dividing by zero, truncating.
            let quotient = if b == 0 { a } else { a.wrapping_div(b) };
            match (planted, &**left, &**right) {
                (true, _, Expr::Add(..)) => quotient + 1,
                (true, Expr::Div(..), _) => quotient - 1,
                _ => quotient,
            }
        }
    }
}

/// Runs a calc program: the expression of its `show(...)` line on.
fn run(text: &str, planted: bool) -> Execution {
    let Some(start) = text.rfind("\nshow(") else {
        return Execution::Rejected("no show(".into());
    };
    match parse(&text[start + "\nshow(".len()..]) {
        Some((expr, rest)) if rest.trim() == ")" => Execution::Output(format!("{}\n", eval(&expr, planted))),
        _ => Execution::Rejected("not a calc program".into()),
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
/// `extra` arguments, its findings in `findings`.
fn diff(findings: &Path, count: u64, extra: &[&str]) -> ExitCode {
    let count = count.to_string();
    let mut args = vec![
        "xsmith-calc",
        "diff",
        "--seed",
        "0",
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
/// reductions.
fn bugs(findings: &Path, known: &[xsmith::KnownBug]) -> Vec<CoreBug> {
    let listing = Listing::read(&[findings.to_path_buf()], known, 5).unwrap();
    let saved = listing.bugs.iter().flat_map(|bug| {
        bug.saved
            .iter()
            .map(|(_, path)| (bug.signature.clone(), Core::of_finding(path), path.clone()))
    });
    group_bugs(saved.collect::<Vec<(String, Option<Core>, PathBuf)>>(), known)
}

#[test]
fn three_planted_bugs_are_three_bugs_and_a_known_core_hides_only_its_own() {
    let root = tempfile::tempdir().unwrap();
    let findings = root.path().join("findings");
    let started = std::time::Instant::now();
    let status = diff(
        &findings,
        1000,
        &[
            "--reduce",
            "--time-budget",
            "5",
            "--reduce-jobs",
            "1",
            "--save-per-signature",
            "1000",
        ],
    );
    eprintln!("campaign and reductions: {:.1} s", started.elapsed().as_secs_f64());
    assert_eq!(status, ExitCode::from(1));
    let found = bugs(&findings, &[]);
    for bug in &found {
        eprintln!(
            "{} findings: {:?} core {:?}",
            bug.findings.len(),
            bug.signature,
            bug.core.as_ref().map(|c| c.to_string())
        );
    }
}
