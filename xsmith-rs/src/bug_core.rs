//! Computing a reduced finding's [`Core`]: which of its program's nodes the
//! bug needs.
//!
//! The program is regenerated from its choice sequence and run on the
//! finding's implementations; then each node but the root in turn has its
//! subtree replaced in place by the smallest the generator makes in its
//! hole, the rest of the program drawing what it drew before (a
//! [`Splice`] with no values, as the reducer's first pass makes). When the
//! result is uninteresting (its runs have another
//! [`Signature`]: agreement, or another grouping), the node is necessary,
//! and its production and its edge from its parent (`Parent.field>Child`,
//! as [`Features`] names them) are in the core.
//! A child of the root brings its production alone: its edge from the root
//! (`Program.items>Func`) says only that it is one of the program's items,
//! as every program's are, and it made half of a small core. So does a
//! child the grammar forces, a single child that only one production can
//! fill (`Func.body>Body`): every C function has that edge, and it was one
//! of the three or four edges of each of the tcc bug's five cores, enough
//! to put any two cores of two edges within the distance. A planted
//! wasmi bug, `Func.result>IntUnary` and `Program.items>Func`, was within
//! [`SAME_BUG_DISTANCE`](crate::campaign::SAME_BUG_DISTANCE) of the real
//! wasmi bug's core, which holds `Program.items>Func` too, and joined it.
//! A replacement that cannot be generated, or that gives the same program
//! (the subtree is already the smallest), shows nothing, so the node is not
//! counted necessary.
//!
//! It costs one run of the implementations per node, so it is meant for a
//! reduced program (tens of nodes), after
//! [`Reducer::reduce`](crate::reduce::Reducer::reduce).

use std::collections::BTreeSet;
use std::sync::Arc;

use crate::campaign::{Core, Signature, Verdict};
use crate::choices::{Choices, Splice};
use crate::features::Features;
use crate::fuzzer::{Source, GENERATION_STACK};
use crate::generate::Generator;
use crate::random::Random;
use crate::reduce::{run_against, Case, ReduceError};
use crate::tree::NodeId;

/// A core and how it was found.
#[derive(Clone, Debug)]
pub struct FoundCore {
    /// The necessary features.
    pub core: Core,
    /// The signature the program keeps (its runs', before any replacement).
    pub signature: Signature,
    /// How many nodes the program has.
    pub nodes: usize,
    /// How many of them are necessary.
    pub necessary: usize,
    /// How many replaced programs were generated and run.
    pub tests: usize,
}

/// The core of the program that `values` (a choice sequence, as a
/// reduction's result has it) makes under `case`.
///
/// ```
/// use std::time::Duration;
/// use xsmith::bug_core::core_of;
/// use xsmith::reduce::{Case, Reducer};
/// use xsmith::{Execution, Implementation, Limits};
/// // Two "engines" of the example language: they differ on every
/// // program with a division.
/// fn divides(text: &str) -> Execution { Execution::Output(text.contains('/').to_string()) }
/// fn never(_: &str) -> Execution { Execution::Output("false".into()) }
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let case = || Case {
///     fuzzer: &fuzzer,
///     options: Default::default(),
///     implementations: vec![
///         Implementation::InProcess { name: "divides", run: divides },
///         Implementation::InProcess { name: "never", run: never },
///     ],
///     limits: Limits::default(),
/// };
/// let reducer = Reducer::new(case(), 1, Duration::from_secs(60)).unwrap();
/// let seed = (0..100).find(|&s| reducer.test_source(xsmith::Source::Seed(s)).unwrap().text.contains('/')).unwrap();
/// let reduced = reducer.reduce(xsmith::Source::Seed(seed), None, &mut |_| {}).unwrap();
/// let found = core_of(&case(), &reduced.reduced.values).unwrap();
/// // The division is necessary: its production is in the core.
/// assert!(found.core.features().iter().any(|f| f.ends_with("Div") || f == "Div"), "{}", found.core);
/// assert!(found.necessary >= 1 && found.necessary < found.nodes);
/// ```
pub fn core_of(case: &Case, values: &[u64]) -> Result<FoundCore, ReduceError> {
    on_generation_stack(|| core_here(case, values, None))
}

/// The part of `core` (another finding's, or a known bug's) that the
/// program of `values` is shown to need: the core of the program, its
/// nodes tested only where they carry one of `core`'s features (a
/// production or an edge). It costs a run per such node, not per node, so
/// it can be asked of a program still being reduced; when enough of
/// `core` is necessary ([`Core::is_shown_by`]), the program's finding is
/// that bug, and its reduction can stop.
///
/// ```
/// use std::time::Duration;
/// use xsmith::bug_core::{core_of, core_shown};
/// use xsmith::reduce::{Case, Reducer};
/// use xsmith::{Execution, Implementation, Limits};
/// fn divides(text: &str) -> Execution { Execution::Output(text.contains('/').to_string()) }
/// fn never(_: &str) -> Execution { Execution::Output("false".into()) }
/// let fuzzer = xsmith::Fuzzer { name: "x", version: "1", extension: "t",
///     spec: || Ok(xsmith::example::spec()), comment: |t| format!("# {t}\n"), prelude: "", helpers: &[], width: 80,
///     implementations: &[] };
/// let case = || Case {
///     fuzzer: &fuzzer,
///     options: Default::default(),
///     implementations: vec![
///         Implementation::InProcess { name: "divides", run: divides },
///         Implementation::InProcess { name: "never", run: never },
///     ],
///     limits: Limits::default(),
/// };
/// let reducer = Reducer::new(case(), 1, Duration::from_secs(60)).unwrap();
/// let divisions = |s| reducer.test_source(xsmith::Source::Seed(s)).unwrap().text.matches('/').count();
/// let mut seeds = (0..200).filter(|&s| divisions(s) == 1);
/// let (first, second) = (seeds.next().unwrap(), seeds.next().unwrap());
/// let reduced = reducer.reduce(xsmith::Source::Seed(first), None, &mut |_| {}).unwrap();
/// let core = core_of(&case(), &reduced.reduced.values).unwrap().core;
/// // The second finding, not reduced at all, already shows its one division.
/// let unreduced = reducer.test_source(xsmith::Source::Seed(second)).unwrap();
/// let shown = core_shown(&case(), &unreduced.values, &core).unwrap();
/// assert!(core.is_shown_by(&shown.core), "{shown:?} of {core}");
/// ```
pub fn core_shown(case: &Case, values: &[u64], core: &Core) -> Result<FoundCore, ReduceError> {
    on_generation_stack(|| core_here(case, values, Some(core)))
}

/// Runs `work` on a thread with the generator's stack.
fn on_generation_stack<T: Send>(work: impl FnOnce() -> Result<T, ReduceError> + Send) -> Result<T, ReduceError> {
    std::thread::scope(|scope| {
        std::thread::Builder::new()
            .stack_size(GENERATION_STACK)
            .spawn_scoped(scope, work)
            .map_err(|e| ReduceError::Io(format!("cannot start a thread: {e}")))?
            .join()
            .expect("computing a core panicked")
    })
}

/// The core of the program of `values`; with `only`, its nodes are tested
/// only where they carry one of `only`'s features, and the core is the
/// part of `only` found necessary.
fn core_here(case: &Case, values: &[u64], only: Option<&Core>) -> Result<FoundCore, ReduceError> {
    let spec = (case.fuzzer.spec)().map_err(|e| ReduceError::Generate(format!("the fuzzer's spec: {e}")))?;
    let mut generator =
        Generator::new(&spec, case.options.clone()).map_err(|e| ReduceError::Generate(e.to_string()))?;
    let scratch = tempfile::Builder::new()
        .prefix("xsmith-core-")
        .tempdir()
        .map_err(|e| ReduceError::Io(format!("cannot create a scratch directory: {e}")))?;
    let file = scratch.path().join(format!("program.{}", case.fuzzer.extension));
    let choices = Choices::from_values(values);
    let source = Source::Choices {
        path: "reduced".into(),
        choices: choices.clone(),
    };
    // With a target, the runs stop as soon as they rule it out.
    let run = |text: &str, target: Option<&Signature>| -> Result<Signature, ReduceError> {
        std::fs::write(&file, text).map_err(|e| ReduceError::Io(format!("{}: {e}", file.display())))?;
        Ok(Signature::of(&run_against(
            target,
            &case.implementations,
            &file,
            text,
            &case.limits,
        )))
    };
    let generated = case
        .fuzzer
        .program_from(&spec, &mut generator, &source, Random::from_choices(&choices))
        .map_err(|e| ReduceError::Generate(format!("the reduced program: {e}")))?;
    let signature = run(&generated.text, None)?;
    if signature.verdict == Verdict::Agree {
        return Err(ReduceError::NotReproduced {
            expected: "a finding".into(),
            got: signature.to_string(),
        });
    }
    let program = &generated.program;
    let anchors = Arc::new(program.anchors());
    let grammar = spec.grammar();
    let name = |id: NodeId| grammar.production(program.node(id).production).name().to_string();
    let mut names = BTreeSet::new();
    let (mut necessary, mut tests) = (0, 0);
    for node in program
        .ids()
        .filter(|&id| id != program.root() && !program.node(id).is_hole)
    {
        let (Some(span), Some(fill)) = (program.choice_span(node), program.fill_number(node)) else {
            continue;
        };
        let production = name(node);
        let edge = match program.node(node).parent != Some(program.root()) {
            true => edge_into(&spec, program, node),
            false => None,
        };
        if let Some(only) = only {
            // By its edge when `only` has edges and the node one (a
            // production is too common to select by), else by production.
            let carries = match (&edge, only.edges().next().is_some()) {
                (Some(edge), true) => only.features().contains(edge),
                _ => only.features().contains(&production),
            };
            if !carries {
                continue;
            }
        }
        let splice = Splice {
            fill,
            resume: span.end,
            values: Vec::new(),
        };
        let random = Random::from_choices_spliced(&choices, splice).with_anchors(Arc::clone(&anchors));
        let Ok(replaced) = case.fuzzer.program_from(&spec, &mut generator, &source, random) else {
            continue;
        };
        if replaced.text == generated.text {
            continue;
        }
        tests += 1;
        if run(&replaced.text, Some(&signature))? == signature {
            continue;
        }
        necessary += 1;
        names.insert(production);
        names.extend(edge);
    }
    if let Some(only) = only {
        names.retain(|feature| only.features().contains(feature));
    }
    let joined: Vec<String> = names.into_iter().collect();
    Ok(FoundCore {
        core: Core::new(Features::parse(&joined.join(" "))),
        signature,
        nodes: program.len(),
        necessary,
        tests,
    })
}

/// The feature `Parent.field>Child` of the edge from `node`'s parent to it;
/// `None` for an edge the grammar forces (a single child that only one
/// production can fill, such as a function's body), which every parent of
/// that production has.
fn edge_into(spec: &crate::spec::Spec, program: &crate::program::Program, node: NodeId) -> Option<String> {
    let grammar = spec.grammar();
    let parent = program.node(node).parent?;
    let parent_production = grammar.production(program.node(parent).production);
    let field = &parent_production.fields()[program.slot_holding(node)?];
    if let crate::grammar::FieldKind::Child(node_type) = field.kind() {
        if grammar.fillers(*node_type).len() == 1 {
            return None;
        }
    }
    Some(format!(
        "{}.{}>{}",
        parent_production.name(),
        field.name(),
        grammar.production(program.node(node).production).name()
    ))
}
