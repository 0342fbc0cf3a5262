//! The calc fuzzer against real implementations: every program prints the
//! same value in python3 and node (its own implementations), and that value
//! is the one an evaluator written here (sharing nothing with the fuzzer's
//! renderer) computes from the tree.

use clap::Parser;
use xsmith::{Execution, Generator, Implementation, NodeId, Options, Slot, Source, Spec, Tree};
use xsmith_calc::FUZZER;
use xsmith_tests::conformance::assert_programs_agree;

/// Evaluates a calc tree: literals, sums, and division that gives the
/// dividend when the divisor is zero and truncates otherwise.
fn evaluate(spec: &Spec, tree: &Tree, node: NodeId) -> i64 {
    let n = tree.node(node);
    let children: Vec<i64> = n
        .slots
        .iter()
        .filter_map(|slot| match slot {
            Slot::Child(child) => Some(evaluate(spec, tree, *child)),
            _ => None,
        })
        .collect();
    match spec.production(n.production).name() {
        "Program" => children[0],
        "Literal" => match &n.slots[0] {
            Slot::Data(value) => value.as_int().unwrap(),
            other => panic!("a literal holds its value, not {other:?}"),
        },
        "Add" => children[0] + children[1],
        "Div" if children[1] == 0 => children[0],
        "Div" => children[0] / children[1],
        other => panic!("not a calc production: {other}"),
    }
}

/// A third implementation of calc, in this process: regenerates the
/// program's tree from its header comment (`#! xsmith-calc VERSION --seed N
/// OPTIONS`, the command line that gives the same program) and prints what
/// [`evaluate`] makes of it.
fn evaluator(text: &str) -> Execution {
    let header = text.lines().next().and_then(|line| line.strip_prefix("#! "));
    let mut words: Vec<&str> = header.expect("a header comment").split(' ').collect();
    words.remove(1); // the fuzzer's version
    let args = xsmith::cli::Args::try_parse_from(words).expect("the header is a command line");
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = Generator::new(&spec, args.options()).unwrap();
    let program = FUZZER
        .program(&spec, &mut generator, Source::Seed(args.seed.expect("a seed")))
        .unwrap();
    if program.text != text {
        return Execution::Rejected("the header does not regenerate the program".into());
    }
    Execution::Output(format!(
        "{}\n",
        evaluate(&spec, &program.program, program.program.root())
    ))
}

#[test]
fn programs_agree_on_python3_and_node_and_with_an_independent_evaluator() {
    let options = Options {
        max_depth: 7,
        ..Options::default()
    };
    let spec = (FUZZER.spec)().unwrap();
    let mut generator = Generator::new(&spec, options.clone()).unwrap();
    for seed in 0..300u64 {
        FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
    }
    let divisions = generator.choice_log().programs_with(spec.lookup("Div").unwrap());
    assert!(divisions > 150, "most programs divide ({divisions} of 300 do)");
    let mut implementations = FUZZER.implementations.to_vec();
    implementations.push(Implementation::InProcess {
        name: "evaluator",
        run: evaluator,
    });
    assert_programs_agree(&FUZZER, &implementations, &options, 0..300);
}

/// The depth bound: past `--max-depth` the generator makes only the choices
/// that finish soonest, which in calc are literals (the program node itself
/// needs one child, so at `--max-depth 0` its literal sits at depth 1).
#[test]
fn ten_thousand_seeds_finish_within_the_depth_bound() {
    let spec = (FUZZER.spec)().unwrap();
    let literal = spec.lookup("Literal").unwrap();
    let mut deepest_seen = [0u32; 10];
    for max_depth in 0..10u32 {
        let options = Options {
            max_depth,
            ..Options::default()
        };
        let mut generator = Generator::new(&spec, options).unwrap();
        for seed in 0..1_000u64 {
            let seed = seed + u64::from(max_depth) * 1_000;
            let program = FUZZER.program(&spec, &mut generator, Source::Seed(seed)).unwrap();
            let tree = &program.program;
            for id in tree.ids() {
                let node = tree.node(id);
                assert!(!node.is_hole, "seed {seed} left a hole");
                if id != tree.root() && node.depth >= max_depth {
                    assert_eq!(
                        node.production, literal,
                        "seed {seed}: a non-literal at depth {} past --max-depth {max_depth}",
                        node.depth
                    );
                }
            }
            let deepest = tree.ids().map(|id| tree.node(id).depth).max().unwrap();
            assert!(
                deepest <= max_depth.max(1),
                "seed {seed}: depth {deepest} past --max-depth {max_depth}"
            );
            deepest_seen[max_depth as usize] = deepest_seen[max_depth as usize].max(deepest);
        }
    }
    for (max_depth, deepest) in deepest_seen.iter().enumerate() {
        assert_eq!(
            *deepest as usize,
            max_depth.max(1),
            "some program reaches the bound {max_depth}"
        );
    }
}

/// Issue 16: programs steered towards new 3-paths (`--cover 3`) agree on
/// python3 and node too, and cover every 3-path the calc grammar allows.
#[test]
fn steered_programs_agree() {
    let covered = xsmith_tests::conformance::assert_steered_programs_agree(&FUZZER, &Options::default(), 3, 100, &[]);
    assert_eq!(covered, 4 + 15 + 60);
}
