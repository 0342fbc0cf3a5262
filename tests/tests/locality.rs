//! Local choices (see `xsmith_tests::locality` and
//! `Generator::set_local_choices`, on by default): replacing one random
//! subtree of a program by its smallest version leaves the rest of the
//! program as it was, for every fuzzer of this crate's dependencies and the
//! test fuzzers. Each test prints its figures (`--nocapture`) and asserts
//! floors a little under what was measured, on 1,000 programs at the
//! default options: the share of splices that changed no other node, and
//! the share of other nodes left unchanged (production, data and type):
//!
//! | fuzzer | splices, without (as version 0.1) | splices, with local choices | nodes, without | nodes, with | nodes, with, but references to the subtree's variables |
//! |---|---|---|---|---|---|
//! | calc | 100.0% | 100.0% | 100.00% | 100.00% | 100.00% |
//! | Lua | 55.8% | 92.9% | 92.06% | 99.79% | 99.86% |
//! | JavaScript | 57.5% | 92.6% | 92.71% | 99.65% | 99.78% |
//! | Python | 57.0% | 91.6% | 91.62% | 99.67% | 99.77% |
//! | C | 40.9% | 95.2% | 70.33% | 99.84% | 99.86% |
//! | names (test fuzzer) | 80.0% | 95.7% | 89.37% | 98.81% | 99.46% |
//! | typed (test fuzzer) | 49.0% | 96.6% | 90.19% | 99.16% | 99.16% |
//!
//! The last column leaves out the references outside the subtree to a
//! variable bound inside it (every fuzzer is held to 99% there,
//! `UNFORCED_NODES_FLOOR`; the floors passed here are on the column
//! before): they cannot stay as they were when the replacement binds no
//! such variable, whatever the generator does, as a definition lifted for
//! a reference inside the subtree cannot. Typed has no variables.
//!
//! Since a node in the place of one of the original keeps that one's
//! production while it passes there (`xsmith::Anchors`; seeded programs
//! unchanged): before, with the same programs, Lua 99.73% of nodes
//! (99.82% in the last column), JavaScript 99.58% (99.71%), Python 99.60%
//! (99.70%), C 99.83% (99.85%), names 97.88% (98.89%), typed 98.85%. The
//! names fuzzer's weights depend on the variables in sight
//! (`reference_weight`: a reference is common where a variable of its type
//! is in sight), and a drawn value is a ticket among the weights: a
//! variable fewer moved the other productions' tickets at holes the splice
//! never touched. At seeds 1,000-1,999, 2,000-2,999 and 3,000-3,999 names
//! measures 99.12%, 99.12% and 99.19% of nodes (99.47%, 99.52% and 99.50%
//! in the last column) and typed 99.57%, 99.57% and 99.16%.
//!
//! Since a finished node's type seed is anchored too (a replay reads it
//! where the node in its place drew its own; before, a parent's seed,
//! drawn after its last child, moved when that child drew fewer values,
//! and with it the parent's type: 14 of the names fuzzer's 1,000 splices
//! changed its program's type, `a_splice_leaves_the_types_only_a_parent_decides_as_they_were`):
//! before it, C 99.79% of nodes, names 97.65%, typed 98.83%, the others
//! as they are.
//!
//! (wasm, Scheme and SML have their tests in their crates: 99.90%, 99.68%
//! and 99.78% of nodes; before productions were kept, 99.88%, 99.68% and
//! 99.43%.)
//!
//! Since C bounds its call graph's height instead of counting its
//! functions (every C program changed) and each node's size budget is
//! kept in its span (seeded programs unchanged; a splice replays the rest
//! with the budgets they had): C 96.0% of splices and 99.80% of nodes
//! before, JavaScript 99.57% and names 97.62% of nodes before, the others
//! as they were.
//!
//! The figures are those since productions are drawn from stable lists
//! (`xsmith::generate`'s `draw`: a value picks the same production
//! whatever else the context offers, when that one passes; the programs of
//! every fuzzer but calc changed). Before, with one draw among the
//! candidates that passed: Lua 90.7% of splices and 99.54% of nodes,
//! JavaScript 91.7% and 99.47%, Python 91.2% and 99.47%, C 96.9% and
//! 99.87%, names 93.8% and 96.96%, typed 97.9% and 99.50%. Splices that
//! move nothing but types (typed) gain nothing from it, and typed moves
//! with the seeds: at seeds 1,000-1,999, 2,000-2,999 and 3,000-3,999 it
//! measures 99.47%, 99.47% and 98.94% of nodes (mean of the four
//! thousands 99.18%); its floor is 98.5%. Its changes at seeds 0 to 999:
//! 48 nodes whose type alone changed, 177 in subtrees whose production
//! changed, in 34 splices, nearly all a lambda or record literal whose
//! open function or record type a sibling or the parent shares (an `If`'s
//! branches, an `Apply`'s callee and arguments).
//!
//! Before that, size budgets became local choices (each
//! child draws its extra share in its own span; how many share a list's
//! parent's budget is kept in the parent's span; a replay follows the
//! recorded decisions to grow the root's list whatever the size). Before
//! (the programs otherwise the same): Lua 90.4% of splices and 99.61% of
//! nodes, JavaScript 89.9% and 99.53%, Python 90.2% and 99.46%, C 94.5%
//! and 99.72%, names 94.1% and 97.79%, typed 97.5% and 99.37%; wasm,
//! Scheme and SML 99.86%, 99.60% and 99.50% of nodes. C gains from the
//! growth (below); the others move within the noise of any change to the
//! programs. The names fuzzer's floor is 96.5%: over seeds 1,000 to 3,999
//! (a thousand at a time) it measures 97.50%, 98.30% and 98.45%, before
//! 97.25%, 98.00% and 98.66%. Of its 474 changed nodes at seeds 0 to 999,
//! 269 are in subtrees whose production changed (mostly a reference that
//! became a literal) and 103 changed type: open types that the replaced
//! subtree shared with the rest of the program.
//!
//! The type concretizer's shuffle runs front to back, so that draws of
//! zero keep its candidates in order (the simplest type first: what a
//! reducer's smallest choices make). Before it, with the same programs
//! otherwise: Lua, JavaScript and Python 89.2% of splices and 99.36% of
//! nodes, C 95.8% and 99.80%, typed 97.4% and 99.31%. The shuffle alone
//! took C to 92.8% of splices (99.65% of nodes): in 17 of its 72 changed
//! splices the last element of the root's list was gone, a function the
//! program grew towards `--size`: a replacement a few nodes larger than
//! the subtree it replaced (its smallest version is not always the
//! smaller: a literal of another type may need a conversion, or lift a
//! definition) took the program past `--size` one element sooner, when
//! the growth was decided by the program's size. A replay now follows the
//! recorded decisions instead (the C figure above). The C fuzzer's changes
//! of the same commit (a literal drawn by each function for its call's
//! arguments, small literals drawn 0, 1, -1, ...) changed every C program
//! again: 94.5%, within the point or two the share moves by with any
//! change to the programs (below).
//!
//! What made the nodes local, beyond each draw lying in its node's span:
//! anchors (`xsmith::Anchors`). A replay reads its values in order, so a
//! node outside the subtree that drew more or fewer values than before (a
//! reference that lifts a definition because the variable it read is gone)
//! moved every later draw: in 62 of Lua's 1,000 splices the root's list
//! stopped growing early, and those splices alone changed 5,090 nodes. An
//! anchored replay goes, at each hole, to where the node in its place began
//! in the original program: Lua from 97.13% to 99.36% of nodes, C from
//! 98.67% to 99.80%, names from 95.84% to 97.79% (the comparison's own fix,
//! matching the lifted definitions of a list apart from its other elements,
//! is in these figures too). The names fuzzer stays under 99%: its programs
//! have 16 nodes on average, so one reference that must read another
//! variable is 6% of a program.
//!
//! The share of splices moves by a point or two with any change to the
//! programs (10,000 programs: Lua 89.6%, C 94.0%), so the choices below
//! were weighed on 10,000 programs each. Ordering each hole's choices
//! simplest first (a draw of 0 makes a literal rather than a variable, so
//! the smallest version lifts no definition and binds no variable for later
//! references to pick up) took Lua from 83.8% to 89.5% and C from 89.8% to
//! 93.5%; deciding a shared hole type from one choice (a seed), however
//! many tries it takes, Lua to 89.6% and C to 94.0%; counting as shared a
//! hole type that subtyping relates to its parent's (a record field's
//! value, typed `subtype_of` the field's type), typed from 86.3% to 97.4%
//! (the other fuzzers relate types by unification alone). What still
//! changes other nodes: a subtree holding a variable that references
//! outside it use (its replacement may hold none, and they must point
//! elsewhere); references elsewhere whose choice among the variables in
//! sight changes when the subtree lifted or dropped one, or changed a
//! variable's type; effect analysis that offers a sibling other choices
//! once the subtree reads or writes other things; a type the subtree
//! decides that its parent's type holds (a record literal's field, a
//! function's result) when the decision in the parent's span fails; and the
//! records and products that wait for the end of the tree (a record made
//! ground in the middle of generation asked for field reads without end).
//! Tried and left out: rendezvous hashing over the variables
//! in sight, keyed by a number drawn with each binder (10,000 programs:
//! Lua 89.6% either way, C 94.0% to 92.6%; over productions, an earlier
//! measurement found no gain); deciding, before a record's subtree, the
//! field variables its parent or siblings share (Lua 89.6% to 88.1%,
//! typed 86.5% to 86.9%); concretizing what waits for the end of the tree
//! from the seed of the node that holds every node mentioning it (2,000
//! programs: no gain).

use xsmith_tests::locality::check;

#[test]
fn calc_choices_are_local() {
    check("calc", &(xsmith_calc::FUZZER.spec)().unwrap(), 100.0, 100.0);
}

#[test]
fn lua_choices_are_local() {
    check("lua", &(xsmith_lua::FUZZER.spec)().unwrap(), 87.0, 99.0);
}

#[test]
fn javascript_choices_are_local() {
    check("javascript", &(xsmith_javascript::FUZZER.spec)().unwrap(), 87.0, 99.0);
}

#[test]
fn python_choices_are_local() {
    check("python", &(xsmith_python::FUZZER.spec)().unwrap(), 87.0, 99.0);
}

#[test]
fn c_choices_are_local() {
    check("c", &(xsmith_c::FUZZER.spec)().unwrap(), 93.0, 99.0);
}

#[test]
fn names_choices_are_local() {
    check("names", &xsmith_tests::names::spec().unwrap(), 95.0, 98.5);
}

#[test]
fn typed_choices_are_local() {
    check("typed", &xsmith_tests::typed::spec().unwrap(), 95.0, 99.0);
}

/// A parent's type seed is drawn after its last child, so a child that
/// draws fewer values than before (a statement that no longer lifts a
/// definition) would move it onto another value, and with it the parent's
/// type, unless the replay is anchored there too (`xsmith::Anchors`). The
/// names fuzzer's program and blocks have types nothing else shares (a
/// fresh variable each), so no splice may change them: before the type
/// seeds were anchored, 14 of 1,000 splices changed the program's.
#[test]
fn a_splice_leaves_the_types_only_a_parent_decides_as_they_were() {
    use xsmith::{Generator, NodeId, Random, Splice};
    let spec = xsmith_tests::names::spec().unwrap();
    let mut generator = Generator::new(&spec, Default::default()).unwrap();
    let type_text = |program: &xsmith::Program, node: NodeId| {
        let (store, ty) = (program.type_store().unwrap(), program.node_type(node).unwrap());
        store.system().display(&ty).to_string()
    };
    let mut changed = Vec::new();
    for seed in 0..1_000u64 {
        let mut random = Random::from_seed(seed);
        random.record();
        let original = generator.generate(&mut random).unwrap();
        let choices = random.take_recorded().unwrap();
        let replaceable: Vec<NodeId> = original
            .ids()
            .filter(|&id| id != original.root() && original.fill_number(id).is_some())
            .collect();
        let spliced = *Random::from_seed(seed ^ 0x10ca1).pick(&replaceable);
        let splice = Splice {
            fill: original.fill_number(spliced).unwrap(),
            resume: original.choice_span(spliced).unwrap().end,
            values: Vec::new(),
        };
        let mut replay = Random::from_choices_spliced(&choices, splice).with_anchors(original.anchors());
        let replaced = generator.generate(&mut replay).unwrap();
        if type_text(&original, original.root()) != type_text(&replaced, replaced.root()) {
            changed.push(seed);
        }
    }
    assert!(changed.is_empty(), "the program's type changed at seeds {changed:?}");
}
