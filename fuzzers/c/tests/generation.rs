//! Generation is total and deterministic: the C fuzzer makes 2,500
//! programs at default options, 250 at each `--max-depth` from 1 to 12 and
//! at sizes from 0 to 2,000 nodes, and none fails; the same seed gives the
//! same bytes from a fresh generator; and a program's header regenerates
//! it.

use std::ops::Range;

use xsmith::{Generator, Options, Source};
use xsmith_c::FUZZER;

/// Generates (and renders) the programs of `seeds` with `options` (an
/// hour's time limit: this test is about failures, not speed), and panics
/// listing every one that fails, with the command that regenerates it.
fn assert_generates(options: Options, seeds: Range<u64>) {
    let options = Options {
        time_limit: std::time::Duration::from_secs(3600),
        ..options
    };
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, options.clone()).expect("the options suit the spec");
    let mut failures = Vec::new();
    for seed in seeds.clone() {
        if let Err(error) = FUZZER.program(&spec, &mut generator, Source::Seed(seed)) {
            failures.push(format!(
                "{}: {error}",
                FUZZER.command_line(&Source::Seed(seed), &options).join(" ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} programs failed:\n{}",
        failures.len(),
        seeds.end - seeds.start,
        failures.join("\n")
    );
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn default_options() {
    assert_generates(Options::default(), 0..2_500);
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn every_depth() {
    for max_depth in 1..=12 {
        let options = Options {
            max_depth,
            ..Options::default()
        };
        assert_generates(options, 0..250);
    }
}

#[test]
#[ignore = "heavy sweep: ./test.sh runs it (cargo test -- --include-ignored)"]
fn every_size() {
    for size in [0, 20, 50, 500, 1000, 2000] {
        let options = Options {
            size,
            ..Options::default()
        };
        assert_generates(options, 0..if size > 500 { 100 } else { 500 });
    }
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let text = |seed| {
        let mut generator = Generator::new(&spec, Options::default()).unwrap();
        FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap().text
    };
    let mut shared = Generator::new(&spec, Options::default()).unwrap();
    for seed in [0, 1, 17, 123_456, u64::MAX] {
        let first = text(seed);
        assert_eq!(first, text(seed), "seed {seed}");
        let reused = FUZZER.program(&spec, &mut shared, Source::Seed(seed)).unwrap().text;
        assert_eq!(first, reused, "seed {seed}, a generator used before");
        assert!(
            first.starts_with(&format!("/* xsmith-c {} --seed {seed} */\n", env!("CARGO_PKG_VERSION"))),
            "{}",
            first.lines().next().unwrap()
        );
    }
}

/// What keeps evaluation order defined where the effect analysis cannot
/// see it: no call in a compound assignment's value (it may write the
/// variable the assignment reads), no dereference beside a sibling whose
/// order is unsequenced with it, no address taken but as an argument.
#[test]
fn the_rules_the_effect_analysis_cannot_see_hold() {
    use xsmith::NodeRef;
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (mut compound, mut derefs, mut addresses) = (0, 0, 0);
    for seed in 0..500 {
        let program = FUZZER
            .program(&spec, &mut generator, Source::Seed(seed))
            .unwrap()
            .program;
        for id in program.ids() {
            let node = NodeRef::new(spec.grammar(), &program, id);
            if node.is("CompoundAssign") {
                compound += 1;
                let mut stack: Vec<NodeRef> = node.all_children().collect();
                while let Some(below) = stack.pop() {
                    assert!(!below.is("Call"), "seed {seed}: a call in a compound assignment");
                    stack.extend(below.all_children());
                }
            }
            let parent = node
                .parent()
                .map(|p| spec.production(program.node(p.id()).production).name());
            if node.is("Deref") {
                derefs += 1;
                let statements = [
                    "Local",
                    "FieldSet",
                    "Assign",
                    "CompoundAssign",
                    "Print",
                    "DerefSet",
                    "ExprStmt",
                    "Body",
                    "If",
                    "Break",
                    "Continue",
                ];
                assert!(
                    parent.is_some_and(|p| statements.contains(&p)),
                    "seed {seed}: a dereference under {parent:?}"
                );
            }
            if node.is("AddrOf") || node.is("AddrOfElem") || node.is("AddrOfField") {
                addresses += 1;
                assert_eq!(parent, Some("Call"), "seed {seed}");
            }
        }
    }
    assert!(
        compound > 100 && derefs > 100 && addresses > 10,
        "{compound} {derefs} {addresses}"
    );
}

#[test]
fn global_structs_are_checksummed_member_by_member() {
    // A miscompiled store into a global struct must show in the checksum:
    // `main` mixes in every integer member of every global struct, nested
    // ones and array elements included (never its bytes, which would take
    // in padding).
    let spec = (FUZZER.spec)().expect("the spec assembles");
    let mut generator = Generator::new(&spec, Options::default()).expect("default options");
    let mut structs_seen = 0;
    for seed in 0..200 {
        let text = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap().text;
        let main = &text[text.find("int main(void)").expect("a main")..];
        for line in text.lines().filter(|l| l.starts_with("static S")) {
            let mut words = line.split_whitespace().skip(1);
            let (ty, name) = (words.next().unwrap(), words.next().unwrap());
            structs_seen += 1;
            for leaf in xsmith_c::structs::leaves(ty) {
                let place = format!("{name}{}", leaf.path);
                let mixed = match leaf.array {
                    true => format!("xs_mix((uint64_t){place}[i]);"),
                    false => format!("xs_mix((uint64_t){place});"),
                };
                assert!(main.contains(&mixed), "seed {seed}: {place} is not in the checksum");
            }
        }
    }
    assert!(structs_seen >= 20, "only {structs_seen} global structs in 200 programs");
}
