//! Generated programs are conforming Standard ML: SML/NJ and Poly/ML
//! accept every one without a warning (`type_checkers_accept_every_program_without_warnings`),
//! and each runs to the end, raising nothing, and prints the same on SML/NJ,
//! Poly/ML's interpreter and Poly/ML's compiler (`programs_agree_on_every_implementation`).
//! And they are not trivial: polymorphism, records, tuples, `case`, lists,
//! references and higher-order functions each appear in a good share of
//! them (`programs_use_every_feature`).
//!
//! SML/NJ and Poly/ML start slowly (SML/NJ loads its compiler's libraries
//! to be driven quietly, `polyc` links an executable), so programs go in
//! batches: the type checkers `use` a batch's files one after another in
//! one session each; the runs go through the fuzzer's own three
//! implementations (`xsmith_sml::IMPLEMENTATIONS`, the compiler as the
//! engine's compiled kind) on one file per batch, each program in a
//! structure of its own and a `main` that runs them in turn, each after a
//! line naming its seed. `XSMITH_SML_COUNT` sets how many programs each
//! test checks (default 300).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

use xsmith::{Execution, Generator, Implementation, Limits, Options, Source};
use xsmith_sml::{FUZZER, IMPLEMENTATIONS};

/// Programs per batch file.
const BATCH: usize = 50;

fn count() -> u64 {
    std::env::var("XSMITH_SML_COUNT").map_or(300, |v| v.parse().expect("XSMITH_SML_COUNT is a number"))
}

/// The programs of seeds `0..count()`, with the productions each contains.
fn programs() -> Vec<(u64, String, Vec<String>)> {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    (0..count())
        .map(|seed| {
            let program = FUZZER
                .program(&spec, &mut generator, Source::Seed(seed))
                .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
            let features = xsmith::features::Features::of(spec.grammar(), &program.program);
            let productions = features.productions().map(String::from).collect();
            (seed, program.text, productions)
        })
        .collect()
}

/// Fails, naming the Debian package, when `command` is not installed.
fn require(command: &str, package: &str) {
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {command}")])
        .stdout(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    assert!(
        found,
        "`{command}` is not installed: install the Debian package {package} (./test.sh does)"
    );
}

/// Runs `command` with `input` on its standard input; its standard output
/// and standard error.
fn run_with_input(command: &mut Command, input: &str) -> (String, String) {
    use std::io::Write;
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let mut stdin = child.stdin.take().expect("piped");
    let input = input.to_string();
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("runs");
    writer.join().expect("writes").expect("writes the input");
    let text = |bytes: Vec<u8>| String::from_utf8_lossy(&bytes).into_owned();
    (text(output.stdout), text(output.stderr))
}

/// The text between the marker lines `@@ <seed>`, by seed.
fn segments(text: &str) -> BTreeMap<u64, String> {
    let mut found = BTreeMap::new();
    let mut current: Option<(u64, String)> = None;
    for line in text.split_inclusive('\n') {
        if let Some(seed) = line.strip_prefix("@@ ").and_then(|s| s.trim().parse().ok()) {
            found.extend(current.take());
            current = Some((seed, String::new()));
        } else if let Some((_, segment)) = current.as_mut() {
            segment.push_str(line);
        }
    }
    found.extend(current);
    found
}

/// Each type checker `use`s every program, after a marker line naming it
/// on its standard output and in its messages (SML/NJ's go to standard
/// error); a program that does not compile or raises is reported by
/// name. No message of either may be a warning or an error.
#[test]
fn type_checkers_accept_every_program_without_warnings() {
    require("sml", "smlnj");
    require("poly", "polyml");
    let dir = tempfile::tempdir().expect("a scratch directory");
    let mut files = Vec::new();
    for (seed, text, _) in programs() {
        let path = dir.path().join(format!("{seed}.sml"));
        std::fs::write(&path, text).expect("writes");
        files.push((seed, path));
    }
    let uses = |say: &str| -> String {
        let each = files.iter().map(|(seed, path)| {
            format!(
                "val () = (print \"@@ {seed}\\n\"; {say} \"@@ {seed}\\n\");\n\
                 val () = (use \"{}\") handle e => print (\"FAILED \" ^ exnMessage e ^ \"\\n\");\n",
                path.display()
            )
        });
        each.collect()
    };
    let quiet = "val () = Control.Print.out := {say = fn s => TextIO.output (TextIO.stdErr, s), \
                 flush = fn () => TextIO.flushOut TextIO.stdErr};\n";
    let smlnj = format!("{quiet}{}", uses("Control.Print.say"));
    let mut sml = Command::new("sml");
    sml.args([
        "-Ccm.verbose=false",
        "-Cparser.primary-prompt=",
        "-Ccompiler-mc.error-non-exhaustive-match=true",
        "-Ccompiler-mc.error-non-exhaustive-bind=true",
    ]);
    let (out, messages) = run_with_input(&mut sml, &smlnj);
    let (outputs, messages) = (segments(&out), segments(&messages));
    let mut bad = Vec::new();
    for (seed, _) in &files {
        let output = outputs.get(seed).map_or("(no output)", |s| s.as_str());
        let message = messages.get(seed).map_or("", |s| s.as_str());
        if output.contains("FAILED") || message.contains("Warning") || message.contains("Error") {
            bad.push(format!("SML/NJ, seed {seed}:\n{message}{output}"));
        }
    }
    let (out, _) = run_with_input(Command::new("poly").arg("-q"), &uses("ignore"));
    let outputs = segments(&out);
    for (seed, _) in &files {
        let output = outputs.get(seed).map_or("(no output)", |s| s.as_str());
        if output.contains("FAILED") || output.contains(": warning:") || output.contains(": error:") {
            bad.push(format!("Poly/ML, seed {seed}:\n{output}"));
        }
    }
    assert!(bad.is_empty(), "{} complaints:\n{}", bad.len(), bad.join("\n"));
}

/// The programs as one file: each in a structure of its own (without its
/// call of `main`), then a `main` that runs each after a marker line.
fn batch(programs: &[(u64, String, Vec<String>)]) -> String {
    let mut text = String::new();
    for (seed, program, _) in programs {
        let body = program
            .strip_suffix("val () = main ()\n")
            .expect("a program ends calling main");
        text.push_str(&format!("structure Program{seed} = struct\n{body}end\n"));
    }
    text.push_str("fun main () = (\n");
    for (seed, _, _) in programs {
        text.push_str(&format!("  print \"@@ {seed}\\n\"; Program{seed}.main ();\n"));
    }
    text.push_str("  ())\nval () = main ()\n");
    text
}

/// Every program runs on SML/NJ, `poly --script` and `polyc`, prints the
/// checksum line at its end, and all three print the same.
#[test]
fn programs_agree_on_every_implementation() {
    require("sml", "smlnj");
    require("poly", "polyml");
    require("polyc", "polyml");
    require("c++", "g++");
    let implementations: Vec<Implementation> = IMPLEMENTATIONS
        .iter()
        .map(|i| i.if_installed().unwrap_or_else(|note| panic!("{note}")))
        .collect();
    let programs = programs();
    let limits = Limits {
        timeout: Duration::from_secs(600),
        compile_timeout: Duration::from_secs(600),
        ..Limits::default()
    };
    let dir = tempfile::tempdir().expect("a scratch directory");
    let jobs: Vec<(usize, &Implementation)> = (0..programs.chunks(BATCH).len())
        .flat_map(|b| implementations.iter().map(move |i| (b, i)))
        .collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| loop {
                let job = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&(b, implementation)) = jobs.get(job) else {
                    break;
                };
                let chunk = &programs[b * BATCH..((b + 1) * BATCH).min(programs.len())];
                let path = dir.path().join(format!("batch{b}-{}.sml", implementation.name()));
                let text = batch(chunk);
                std::fs::write(&path, &text).expect("writes");
                let run = implementation.run(Path::new(&path), &text, &limits);
                results.lock().expect("a lock").insert((b, implementation.name()), run);
            });
        }
    });
    let results = results.into_inner().expect("a lock");
    let mut bad = Vec::new();
    for ((b, name), run) in &results {
        match &run.execution {
            Execution::Output(out) => {
                let chunk = &programs[b * BATCH..((b + 1) * BATCH).min(programs.len())];
                let outputs = segments(out);
                for (seed, _, _) in chunk {
                    let Some(output) = outputs.get(seed) else {
                        bad.push(format!("{name}: no output for seed {seed}"));
                        continue;
                    };
                    if !output.lines().last().is_some_and(|l| l.starts_with("checksum ")) {
                        bad.push(format!("{name}, seed {seed}: no checksum at the end:\n{output}"));
                    }
                }
            }
            other => bad.push(format!("{name}, batch {b}: {other:?}\n{}", run.stderr)),
        }
    }
    for b in 0..programs.chunks(BATCH).len() {
        let outputs: Vec<(&str, BTreeMap<u64, String>)> = implementations
            .iter()
            .filter_map(|i| match &results[&(b, i.name())].execution {
                Execution::Output(out) => Some((i.name(), segments(out))),
                _ => None,
            })
            .collect();
        let Some((first, reference)) = outputs.first() else {
            continue;
        };
        for (name, output) in &outputs[1..] {
            for (seed, text) in reference {
                if output.get(seed) != Some(text) {
                    let theirs = output.get(seed).map_or("(nothing)", |s| s.as_str());
                    bad.push(format!("seed {seed}: {first} printed\n{text}{name} printed\n{theirs}"));
                }
            }
        }
    }
    assert!(bad.is_empty(), "{} problems:\n{}", bad.len(), bad.join("\n"));
}

/// Share of programs (in percent) that must contain each group of
/// productions.
const COVERAGE: &[(&str, &[&str], usize)] = &[
    ("polymorphic calls", &["PolyCall_"], 25),
    ("records", &["RecordLit", "FieldGet_"], 50),
    ("tuples", &["Tuple2", "Tuple3"], 50),
    ("case", &["IntCase", "BoolCase", "ListCase"], 50),
    ("higher-order", &["ListMap", "ListFoldl", "ForEach", "Apply"], 60),
    ("references", &["RefLet", "RefNew", "Deref"], 50),
    ("functions", &["Lambda"], 60),
];

#[test]
fn programs_use_every_feature() {
    let programs = programs();
    for (what, prefixes, least) in COVERAGE {
        let having = programs
            .iter()
            .filter(|(_, _, productions)| productions.iter().any(|p| prefixes.iter().any(|x| p.starts_with(x))))
            .count();
        let share = 100 * having / programs.len().max(1);
        assert!(
            share >= *least,
            "{what}: {share}% of programs, expected at least {least}%"
        );
    }
}

/// What the closing note of issue 28 measures, over the programs of seeds
/// `0..count()` (`XSMITH_SML_COUNT=1000 cargo test -p xsmith-sml --test
/// conformance shares -- --nocapture` prints them): the share of programs
/// that call one polymorphic function at two different types, that have
/// records, and that pass a function to a function (`List.map`,
/// `List.foldl`, `Array.app`, `List.app`, or a call, of a polymorphic
/// function or any other, with an argument of a function type); and the
/// average size. Each share must stay above a floor well below what was
/// measured (1,000 programs: see README.md).
#[test]
fn shares_of_polymorphism_records_and_higher_order_functions() {
    use std::collections::BTreeSet;
    use xsmith::types::Type;
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    let (mut two_types, mut records, mut higher_order, mut nodes) = (0, 0, 0, 0);
    let (mut defines, mut calls) = (0, 0);
    let takes_a_function = |callee: Option<Type>| match callee {
        Some(Type::Function(f)) => match &f.0 {
            Type::Product(params) => params.iter().any(|p| matches!(p, Type::Function(_))),
            param => matches!(param, Type::Function(_)),
        },
        _ => false,
    };
    for seed in 0..count() {
        let program = FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        let tree = program.program.tree();
        nodes += tree.len();
        // The types each polymorphic function (by the name the call renders) is called at.
        let mut instances: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        let (mut record, mut passes_function) = (false, false);
        for id in tree.ids() {
            let node = xsmith::NodeRef::new(spec.grammar(), &program.program, id);
            let name = node.production();
            let callee = || node.child("callee").and_then(|c| c.node_type());
            record |= name == "RecordLit" || name.starts_with("FieldGet_");
            passes_function |= ["ListMap", "ListFoldl", "ForEachArray", "ForEachList"].contains(&name);
            passes_function |= (name == "Apply" || name.starts_with("PolyCall_")) && takes_a_function(callee());
            if name.starts_with("PolyCall_") {
                let arena = xsmith::render::Arena::new();
                let text =
                    xsmith::render::layout(xsmith::render::render_node(&spec, &program.program, id, &arena), 100);
                let function = text.split(' ').next().expect("a call").to_string();
                instances.entry(function).or_default().insert(format!("{:?}", callee()));
            }
        }
        let productions: Vec<&str> = tree
            .ids()
            .map(|id| spec.production(tree.node(id).production).name())
            .collect();
        defines += usize::from(productions.iter().any(|p| p.starts_with("PolyDef_")));
        calls += usize::from(!instances.is_empty());
        two_types += usize::from(instances.values().any(|types| types.len() >= 2));
        records += usize::from(record);
        higher_order += usize::from(passes_function);
    }
    let programs = count() as usize;
    let share = |n: usize| 100.0 * n as f64 / programs.max(1) as f64;
    println!(
        "{programs} programs, {:.1} nodes on average: a polymorphic function defined {:.1}%, called {:.1}%, \
         called at two types {:.1}%; records {:.1}%; a function passed to a function {:.1}%",
        nodes as f64 / programs.max(1) as f64,
        share(defines),
        share(calls),
        share(two_types),
        share(records),
        share(higher_order)
    );
    for (what, n, floor) in [
        // 1,000 programs: 11.1% (11.5% before choices were ordered simplest
        // first, 17.7% without local choices); 300 programs: 9.3%.
        ("a polymorphic function at two types", two_types, 7.0),
        ("records", records, 80.0),
        ("higher-order functions", higher_order, 80.0),
    ] {
        assert!(
            share(n) >= floor,
            "{what}: {:.1}% of programs, expected at least {floor}%",
            share(n)
        );
    }
}
