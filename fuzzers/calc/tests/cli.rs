//! The standard command line, through the real `xsmith-calc` binary.

use std::path::PathBuf;
use std::process::{Command, Output};

fn calc(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_xsmith-calc"))
        .args(args)
        .output()
        .expect("xsmith-calc runs")
}

fn stdout(output: &Output) -> String {
    assert!(
        output.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// A fresh scratch directory (removed when dropped) and a path inside it
/// that does not exist yet.
fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let root = tempfile::Builder::new()
        .prefix(&format!("xsmith-calc-cli-{name}-"))
        .tempdir()
        .unwrap();
    let dir = root.path().join(name);
    (root, dir)
}

#[test]
fn the_same_seed_prints_the_same_bytes() {
    let first = stdout(&calc(&["--seed", "7", "--max-depth", "8"]));
    let second = stdout(&calc(&["--seed", "7", "--max-depth", "8"]));
    assert_eq!(first, second);
    assert!(
        first.starts_with("#! xsmith-calc 0.2.0 --seed 7 --max-depth 8\n"),
        "{first}"
    );
    let other = stdout(&calc(&["--seed", "8", "--max-depth", "8"]));
    assert_ne!(first, other);
}

#[test]
fn a_seedless_run_writes_its_random_seed_in_the_header() {
    let text = stdout(&calc(&[]));
    let header = text.lines().next().unwrap();
    let seed = header
        .strip_prefix("#! xsmith-calc 0.2.0 --seed ")
        .expect("header names the seed");
    let again = stdout(&calc(&["--seed", seed]));
    assert_eq!(text, again, "the header's seed regenerates the program");
}

#[test]
fn count_writes_one_file_per_seed() {
    let (_root, dir) = scratch("count");
    let d = dir.to_str().unwrap();
    stdout(&calc(&["--count", "100", "--output-dir", d, "--seed", "1000"]));
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names.len(), 100);
    assert_eq!(names[0], "1000.calc");
    assert_eq!(names[99], "1099.calc");
    let file = std::fs::read_to_string(dir.join("1042.calc")).unwrap();
    assert_eq!(
        file,
        stdout(&calc(&["--seed", "1042"])),
        "program i uses seed --seed + i"
    );
}

#[test]
fn bytes_drive_generation() {
    let (_root, dir) = scratch("bytes");
    std::fs::create_dir_all(&dir).unwrap();
    let bytes: Vec<u8> = (0..200u32).map(|i| (i * 37 % 256) as u8).collect();
    let file = dir.join("input.bin");
    std::fs::write(&file, &bytes).unwrap();
    let f = file.to_str().unwrap();
    let one = stdout(&calc(&["--bytes", f]));
    assert_eq!(
        one,
        stdout(&calc(&["--bytes", f])),
        "the same bytes give the same program"
    );
    assert!(one.starts_with(&format!("#! xsmith-calc 0.2.0 --bytes {f}\n")), "{one}");
    let out = dir.join("out");
    stdout(&calc(&[
        "--bytes",
        f,
        "--count",
        "100",
        "--output-dir",
        out.to_str().unwrap(),
    ]));
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 100);
    let third = std::fs::read_to_string(out.join("bytes-3.calc")).unwrap();
    assert_eq!(third, stdout(&calc(&["--bytes", f, "--bytes-offset", "3"])));
    // An empty byte string gives the smallest program.
    let empty = dir.join("empty.bin");
    std::fs::write(&empty, b"").unwrap();
    assert!(stdout(&calc(&["--bytes", empty.to_str().unwrap()])).ends_with("show(1)\n"));
}

#[test]
fn bad_options_exit_2_and_name_themselves() {
    for (args, named) in [
        (vec!["--max-depth", "deep"], "--max-depth"),
        (vec!["--frobnicate"], "--frobnicate"),
        (vec!["--without", "Multiply"], "Multiply"),
        (vec!["--with", "nothing"], "nothing"),
        (vec!["--without", "Expr"], "Expr"),
        (vec!["--without", "Literal"], "Expr"),
        (vec!["--count", "3"], "--output-dir"),
        (vec!["--time-limit", "0"], "--time-limit"),
        (vec!["--bytes", "/nonexistent/file"], "/nonexistent/file"),
    ] {
        let output = calc(&args);
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(named), "{args:?} should name {named}: {stderr}");
    }
}

#[test]
fn without_a_feature_group_its_productions_never_appear() {
    let (_root, dir) = scratch("without");
    let d = dir.to_str().unwrap();
    stdout(&calc(&[
        "--count",
        "50",
        "--output-dir",
        d,
        "--without",
        "division",
        "--max-depth",
        "6",
    ]));
    for entry in std::fs::read_dir(&dir).unwrap() {
        let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(text.starts_with("#! xsmith-calc 0.2.0 --seed "));
        assert!(text
            .lines()
            .next()
            .unwrap()
            .ends_with("--max-depth 6 --without division"));
        let body = text.rsplit("# */\n").next().unwrap();
        assert!(!body.contains("safe_div"), "{body}");
    }
}

#[test]
fn version_tree_and_choice_log() {
    assert_eq!(stdout(&calc(&["--version"])), "xsmith-calc 0.2.0\n");
    let output = calc(&["--seed", "3", "--print-tree", "--log-choices", "--max-depth", "3"]);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(output.status.success());
    assert!(stderr.starts_with("Program\n  body:\n"), "{stderr}");
    let table = stderr.split_once("production").map(|(_, t)| t).expect("a choice table");
    for production in ["Program", "Literal", "Add", "Div"] {
        assert!(table.contains(production), "{table}");
    }
    assert!(table.trim_end().ends_with("1 programs"));
}

#[test]
fn node_budget_ends_generation_with_a_clear_error() {
    // `--size 0`: the depth bound alone, which a program of depth 40 grows
    // far past 50 nodes under (a size budget would keep it small).
    let output = calc(&["--seed", "5", "--max-depth", "40", "--size", "0", "--max-nodes", "50"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("seed 5: the program grew past the node budget of 50 nodes"),
        "{stderr}"
    );
}

/// The program of `text` without its header line.
fn body(text: &str) -> &str {
    text.split_once('\n').map_or("", |(_, body)| body)
}

#[test]
fn a_saved_choice_sequence_regenerates_the_program_and_any_edit_of_it_is_valid() {
    let (_root, dir) = scratch("choices");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("8.choices");
    let file_arg = file.to_str().unwrap();
    let original = stdout(&calc(&["--seed", "8", "--max-depth", "8", "--save-choices", file_arg]));
    let replayed = stdout(&calc(&["--choices", file_arg, "--max-depth", "8"]));
    assert_eq!(body(&replayed), body(&original));
    assert!(
        replayed.starts_with(&format!("#! xsmith-calc 0.2.0 --choices {file_arg} --max-depth 8\n")),
        "{replayed}"
    );

    // Cut short (seed 8 draws 72 choices): still a program, smaller.
    let text = std::fs::read_to_string(&file).unwrap();
    let short: String = text.lines().take(4).map(|l| format!("{l}\n")).collect();
    std::fs::write(&file, short).unwrap();
    let cut = stdout(&calc(&["--choices", file_arg, "--max-depth", "8"]));
    assert!(body(&cut).len() < body(&original).len());

    // With --count, one file per program.
    let many = dir.join("many");
    let out = dir.join("out");
    let args = [
        "--seed",
        "3",
        "--count",
        "2",
        "--output-dir",
        out.to_str().unwrap(),
        "--save-choices",
        many.to_str().unwrap(),
    ];
    stdout(&calc(&args));
    for seed in ["3", "4"] {
        let saved = many.join(format!("{seed}.choices"));
        let again = stdout(&calc(&["--choices", saved.to_str().unwrap()]));
        let written = std::fs::read_to_string(out.join(format!("{seed}.calc"))).unwrap();
        assert_eq!(body(&again), body(&written), "seed {seed}");
    }

    std::fs::write(&file, "not choices\n").unwrap();
    let bad = calc(&["--choices", file_arg]);
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("--choices"),
        "the error names the option"
    );
}

/// A program that cannot be generated (here: past a node budget of 4, as
/// seeds 0, 2, 5 and 6 grow) ends nothing: it is reported with the command
/// that regenerates it, every other program of the batch is written, and
/// the exit status is 1.
#[test]
fn a_failing_seed_loses_no_other_program_of_the_batch() {
    let (_root, dir) = scratch("failing");
    let d = dir.to_str().unwrap();
    let output = calc(&["--seed", "0", "--count", "8", "--output-dir", d, "--max-nodes", "4"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    let mut written: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    written.sort();
    assert_eq!(written, ["1.calc", "3.calc", "4.calc", "7.calc"], "{stderr}");
    for seed in [0, 2, 5, 6] {
        let command = format!("  regenerate with: xsmith-calc --seed {seed} --max-nodes 4\n");
        assert!(stderr.contains(&command), "{stderr}");
        // The command given fails again, alone.
        let again = calc(&["--seed", &seed.to_string(), "--max-nodes", "4"]);
        assert_eq!(again.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&again.stderr).contains(&command));
    }
    assert!(
        stderr.ends_with("xsmith-calc: error: 4 of 8 programs could not be generated\n"),
        "{stderr}"
    );
    // The programs written are those the seeds give alone.
    for seed in [1, 3, 4, 7] {
        let alone = calc(&["--seed", &seed.to_string(), "--max-nodes", "4"]);
        assert_eq!(std::fs::read(dir.join(format!("{seed}.calc"))).unwrap(), alone.stdout);
    }
}

/// `--swarm`: each program draws its own options from its seed, writes
/// them in its header, and the header's command (without `--swarm`)
/// prints the same program; `--swarm-probability` needs `--swarm`, and a
/// probability outside 0..=1 is a usage error.
#[test]
fn a_swarm_program_regenerates_from_its_header() {
    let mut configurations = std::collections::BTreeSet::new();
    for seed in 0..20 {
        let text = stdout(&calc(&["--seed", &seed.to_string(), "--swarm"]));
        let header = text.lines().next().unwrap();
        let command = header.strip_prefix("#! xsmith-calc 0.2.0 ").unwrap();
        assert!(!command.contains("swarm"), "{header}");
        let words: Vec<&str> = command.split(' ').collect();
        assert_eq!(stdout(&calc(&words)), text, "{header}");
        configurations.insert(words[2..].join(" "));
    }
    assert!(configurations.len() >= 5, "{configurations:?}");
    assert!(configurations.iter().any(|c| c.contains("--without division")));
    assert_eq!(calc(&["--swarm-probability", "0.3"]).status.code(), Some(2));
    assert_eq!(calc(&["--swarm", "--swarm-probability", "1.5"]).status.code(), Some(2));
    // Probability 1: every group stays on, only the sizes vary.
    for seed in 0..10 {
        let text = stdout(&calc(&[
            "--seed",
            &seed.to_string(),
            "--swarm",
            "--swarm-probability",
            "1",
        ]));
        assert!(!text.lines().next().unwrap().contains("--without"), "{text}");
    }
}

/// A program that cannot be generated (past a node budget of 4) still
/// shows, with `--print-tree`, the tree as far as generation got: its
/// holes, and the error naming where generation stopped.
#[test]
fn print_tree_shows_the_partial_tree_of_a_failing_program() {
    let output = calc(&["--seed", "0", "--max-nodes", "4", "--print-tree"]);
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("(hole "), "the partial tree: {stderr}");
    assert!(stderr.contains("node budget"), "{stderr}");
}

/// The k-paths the calc grammar allows: 4 productions; 2-paths through
/// `Program.body` and the four operand fields, 3 fillers each; 3-paths
/// `Program.body>X.f>Y` (2 operators, 2 fields, 3 fillers) and `X.f>Y.g>Z`
/// (2 · 2 · 2 · 2 · 3). Generated programs cover all the 1- and 2-paths,
/// and a directory of choice files gives the same count as the seeds that
/// wrote it.
#[test]
fn coverage_counts_the_k_paths_the_grammar_allows_and_programs_cover() {
    let report = stdout(&calc(&["coverage", "--k", "3", "--count", "300", "--max-depth", "4"]));
    let lines: Vec<&str> = report.lines().collect();
    assert_eq!(lines[0], "300 programs");
    assert_eq!(lines[1], "k=1: covered 4 of 4 k-paths (100.0%)");
    assert_eq!(lines[2], "k=2: covered 15 of 15 k-paths (100.0%)");
    assert!(
        lines[3].starts_with("k=3: covered ") && lines[3].contains(" of 60 k-paths"),
        "{report}"
    );

    let without = stdout(&calc(&[
        "coverage",
        "--k",
        "2",
        "--count",
        "50",
        "--without",
        "division",
        "--uncovered",
    ]));
    assert!(without.contains("k=1: covered 3 of 3 k-paths"), "{without}");
    assert!(without.contains("k=2: covered 6 of 6 k-paths"), "{without}");
    assert!(!without.contains("uncovered"), "{without}");

    let (_root, dir) = scratch("coverage");
    let args = ["--count", "20", "--seed", "3", "--max-depth", "3"];
    let saved = dir.to_str().unwrap();
    stdout(&calc(
        &[&args[..], &["--output-dir", saved, "--save-choices", saved]].concat(),
    ));
    let from_seeds = stdout(&calc(&[&["coverage", "--k", "3"][..], &args].concat()));
    let from_files = stdout(&calc(&["coverage", "--k", "3", "--max-depth", "3", saved]));
    assert_eq!(from_seeds, from_files);
    let sampled = stdout(&calc(&[
        "coverage",
        "--k",
        "3",
        "--count",
        "5",
        "--sample",
        "200",
        "--uncovered",
    ]));
    assert!(sampled.contains("; a sample of 200 programs reaches "), "{sampled}");
    assert!(sampled.lines().any(|l| l.starts_with("uncovered ")), "{sampled}");
    let bad = calc(&["coverage", "--k", "5"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// `--cover`: a steered batch's program regenerates from its header (which
/// names the batch's first seed) and from its choice file (which replays
/// without steering); steering changes programs after the first; bad
/// combinations exit 2 naming the option.
#[test]
fn a_steered_batch_regenerates_from_headers_and_choice_files() {
    let (_root, dir) = scratch("cover");
    let out = dir.to_str().unwrap();
    stdout(&calc(&[
        "--seed",
        "10",
        "--count",
        "6",
        "--cover",
        "2",
        "--max-depth",
        "4",
        "--output-dir",
        out,
        "--save-choices",
        out,
    ]));
    let mut steered_differs = false;
    for seed in 10..16 {
        let text = std::fs::read_to_string(dir.join(format!("{seed}.calc"))).unwrap();
        let header = text.lines().next().unwrap();
        let expected = match seed {
            10 => "#! xsmith-calc 0.2.0 --seed 10 --cover 2 --max-depth 4".to_string(),
            _ => format!("#! xsmith-calc 0.2.0 --seed {seed} --cover 2 --covered-from 10 --max-depth 4"),
        };
        assert_eq!(header, expected);
        let args: Vec<&str> = header.split_whitespace().skip(3).collect();
        assert_eq!(stdout(&calc(&args)), text, "seed {seed}");
        let choices = dir.join(format!("{seed}.choices"));
        let replayed = stdout(&calc(&["--choices", choices.to_str().unwrap(), "--max-depth", "4"]));
        assert_eq!(body(&replayed), body(&text), "seed {seed}");
        let unsteered = stdout(&calc(&["--seed", &seed.to_string(), "--max-depth", "4"]));
        steered_differs |= body(&unsteered) != body(&text);
    }
    assert!(steered_differs, "steering changed no program");
    for bad in [
        &["--seed", "3", "--cover", "2", "--covered-from", "5"][..],
        &["--cover", "2", "--swarm"],
        &["--cover", "9"],
        &["--covered-from", "1", "--seed", "2"],
    ] {
        let output = calc(bad);
        assert_eq!(output.status.code(), Some(2), "{bad:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("--cover"), "{bad:?}: {stderr}");
    }
}

/// `corpus`: every k-path the calc grammar allows (4 + 15 + 60 for k = 3
/// are all reachable) is covered by a handful of small programs, each
/// written with its choice file, which `coverage DIR` reads back.
#[test]
fn a_corpus_covers_every_k_path_with_few_small_programs() {
    let (_root, dir) = scratch("corpus");
    let out = dir.to_str().unwrap();
    let report = stdout(&calc(&[
        "corpus",
        "--out",
        out,
        "--k",
        "3",
        "--budget",
        "60",
        "--patience",
        "300",
    ]));
    assert!(
        report.contains("k=1: covered 4\nk=2: covered 15\nk=3: covered 60\n"),
        "{report}"
    );
    let programs: usize = report
        .strip_prefix("programs ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{report}"));
    assert!((1..=30).contains(&programs), "{report}");
    assert_eq!(std::fs::read_to_string(dir.join("coverage")).unwrap(), report);
    // The curve: each prefix of the corpus, its bytes and k-paths rising
    // to all 79 in the whole corpus.
    let curve = std::fs::read_to_string(dir.join("curve.tsv")).unwrap();
    let rows: Vec<Vec<usize>> = curve
        .lines()
        .skip(1)
        .map(|line| line.split('\t').map(|n| n.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), programs, "{curve}");
    assert!(
        rows.windows(2).all(|w| w[0][1] < w[1][1] && w[0][2] < w[1][2]),
        "{curve}"
    );
    assert_eq!(rows.last().unwrap()[2], 79, "{curve}");
    assert!(report.contains("99% of it (79) in the first "), "{report}");
    let text = std::fs::read_to_string(dir.join("0000.calc")).unwrap();
    assert!(
        text.starts_with(&format!("#! xsmith-calc 0.2.0 --choices {out}/0000.choices\n")),
        "{text}"
    );
    let measured = stdout(&calc(&["coverage", out, "--k", "3"]));
    assert!(
        measured.contains("k=3: covered 60 of 60 k-paths (100.0%)"),
        "{measured}"
    );
}

/// The report of `corpus --method fuzz-then-reduce --k 3` into `out`, 2 s
/// of random programs, each reduced for `reduce_budget` seconds.
fn fuzz_then_reduce(out: &std::path::Path, reduce_budget: &str) -> String {
    let out = out.to_str().unwrap();
    stdout(&calc(&[
        "corpus",
        "--out",
        out,
        "--k",
        "3",
        "--budget",
        "2",
        "--method",
        "fuzz-then-reduce",
        "--reduce-budget",
        reduce_budget,
    ]))
}

/// `corpus --method fuzz-then-reduce`, Bonsai's baseline: random programs
/// for the budget, each that adds a k-path reduced to the smallest that
/// keeps the k-paths it added; the corpus keeps every k-path, in programs
/// smaller on average than the same programs unreduced. (Not always in
/// fewer bytes in all: the set cover that ends it drops more of the
/// unreduced programs, whose k-paths overlap more.)
#[test]
fn fuzz_then_reduce_keeps_every_k_path_in_reduced_programs() {
    let (_root, dir) = scratch("fuzz-then-reduce");
    let report = fuzz_then_reduce(&dir, "5");
    assert!(
        report.contains("k=1: covered 4\nk=2: covered 15\nk=3: covered 60\n"),
        "{report}"
    );
    assert!(
        report.contains("round: random programs, then each reduced, "),
        "{report}"
    );
    let measured = stdout(&calc(&["coverage", dir.to_str().unwrap(), "--k", "3"]));
    assert!(
        measured.contains("k=3: covered 60 of 60 k-paths (100.0%)"),
        "{measured}"
    );
    // The same random programs (every k-path is covered long before the
    // budget ends), not reduced.
    let (_root, unreduced) = scratch("fuzz-then-reduce-0");
    let report_unreduced = fuzz_then_reduce(&unreduced, "0.001");
    let mean_bytes = |report: &str| -> usize {
        let after = report.split("(mean ").nth(1).unwrap_or_else(|| panic!("{report}"));
        after
            .split(')')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{report}"))
    };
    assert!(
        mean_bytes(&report) < mean_bytes(&report_unreduced),
        "reduced:\n{report}\nnot reduced:\n{report_unreduced}"
    );
}

/// `coverage --plot`: an SVG with the three curves, and a line per curve
/// saying when it covered 95% of the sample's k-paths.
#[test]
fn coverage_plots_random_steered_and_corpus_curves() {
    let (_root, dir) = scratch("plot");
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("calc.svg");
    let report = stdout(&calc(&[
        "coverage",
        "--k",
        "2",
        "--count",
        "40",
        "--sample",
        "200",
        "--plot",
        svg.to_str().unwrap(),
        "--corpus-budget",
        "10",
    ]));
    for curve in ["random", "--cover 2", "corpus"] {
        let line = report
            .lines()
            .find(|l| l.starts_with(&format!("plot {curve}: ")))
            .unwrap_or_else(|| panic!("{report}"));
        assert!(line.contains("; 95% of the sample's after "), "{line}");
    }
    let drawn = std::fs::read_to_string(&svg).unwrap();
    assert!(
        drawn.starts_with("<svg") && drawn.contains("xsmith-calc: 2-paths covered"),
        "{drawn:.200}"
    );
    for legend in ["random", "--cover 2", "corpus", "total bytes"] {
        assert!(drawn.contains(legend), "{legend}");
    }
}
