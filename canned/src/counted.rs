//! Counted loops: hot code that ends by construction.
//!
//! `CountedFor` (`for i = 0, count - 1`) and `CountedWhile` (a counter from
//! 0 that the loop itself increments, tested before the body or, in its
//! `repeat`/`do ... while` form, after it) run their body `count` times.
//! The counter is a read-only [`LoopVar`](crate::nodes::Counted) of type
//! `int`: the body reads it (as an index, in arithmetic, as an argument)
//! and never writes it, so no body can change how often it runs.
//!
//! The bounds keep a default program fast on the slowest implementations
//! (lua5.1, duk) while making loops hot enough for the optimizing tiers
//! (LuaJIT records a trace after 56 iterations, PyPy compiles a loop after
//! 1,039, V8 replaces a loop's frame on the stack after some thousands of
//! bytecodes run):
//!
//! - a loop's `count` is drawn from
//!   [`Options::hot_iterations`](crate::Options::hot_iterations) (500 to
//!   2,500 by default) two times in three, from [`SHORT`] otherwise;
//! - a counted loop runs its `count` only in no function (whose calls
//!   could multiply it) and where the loops around it (counted loops, and
//!   loops over containers, whose length counts as [`CONTAINER_BOUND`])
//!   run at most [`NEST_BUDGET`] times; anywhere else it runs once
//!   ([`Counted::iterations`](crate::nodes::Counted::iterations)), and is
//!   rarely chosen. So any nest of loops runs its innermost body at most
//!   `NEST_BUDGET` times the greatest hot count (10,000 by default), and a
//!   hot loop nests only in short ones.

use xsmith::{DataInit, Hole, NodeRef, ScopeKind, Value, Weight};

use crate::builder::Builder;
use crate::statements::{stmt, stmt_type};
use crate::Group;

/// The range of a short loop's count.
pub const SHORT: (i64, i64) = (1, 4);

/// The most that the loops around a counted loop may multiply its
/// iterations by.
pub const NEST_BUDGET: i64 = 4;

/// The most elements a container a loop runs over has (the canned
/// container literals have at most this many).
pub const CONTAINER_BOUND: i64 = 4;

/// The productions that make a function: a counted loop is never inside
/// one.
const FUNCTIONS: [&str; 2] = ["Lambda", "LambdaBlock"];

/// A loop's count: in `hot` two times in three, else [`SHORT`].
fn count(hot: (i64, i64)) -> DataInit {
    DataInit::new(move |random| {
        let (low, high) = if random.below(3) < 2 { hot } else { SHORT };
        random.int_in(low, high)
    })
}

/// How many times the loops around `node` run what is inside them (`None`
/// inside a function, whose calls could multiply it without bound).
fn enclosing_iterations<'a>(mut ancestors: impl Iterator<Item = NodeRef<'a>>) -> Option<i64> {
    ancestors.try_fold(1i64, |product, ancestor| {
        let times = match ancestor.production() {
            name if FUNCTIONS.contains(&name) => return None,
            "CountedFor" | "CountedWhile" => iterations(ancestor),
            "ForEachArray" | "ForEachList" => CONTAINER_BOUND,
            _ => 1,
        };
        Some(product.saturating_mul(times))
    })
}

/// How many times the counted loop `node` runs its body: its `count`
/// where the loops around it run at most [`NEST_BUDGET`] times and it is
/// in no function, else once.
pub(crate) fn iterations(node: NodeRef) -> i64 {
    let count = match node.data("count") {
        Some(Value::Int(n)) => *n,
        other => unreachable!("a counted loop's count is an integer, not {other:?}"),
    };
    match enclosing_iterations(node.ancestors()) {
        Some(around) if around <= NEST_BUDGET => count,
        _ => 1,
    }
}

/// Whether a loop of a language's own whose ancestors are `ancestors`
/// (a hole's or a node's, innermost first) may run a hot count, as a
/// counted loop there would: it is in no function, and the loops around it
/// run at most 4 times in all (the budget of a nest of loops). Elsewhere
/// it should run a short count (at most 4 iterations), so that any nest of
/// loops stays within the budget. The loop's own generated children must
/// be evaluated once, outside the loop (the canned loops do not count it
/// as a loop).
///
/// ```
/// // At the top of a program, with no loop or function around it.
/// assert!(xsmith_canned::may_run_hot(std::iter::empty()));
/// ```
pub fn may_run_hot<'a>(ancestors: impl Iterator<Item = NodeRef<'a>>) -> bool {
    enclosing_iterations(ancestors).is_some_and(|n| n <= NEST_BUDGET)
}

/// Whether a counted loop at `hole` would run its `count`.
fn within_budget(hole: &Hole) -> bool {
    enclosing_iterations(hole.ancestors()).is_some_and(|n| n <= NEST_BUDGET)
}

/// Whether `hole` lies in a counted loop's body, not inside a function
/// there (a print there would print on every iteration).
pub(crate) fn in_counted_loop(hole: &Hole) -> bool {
    hole.ancestors()
        .take_while(|a| !FUNCTIONS.contains(&a.production()))
        .any(|a| a.is("CountedFor") || a.is("CountedWhile"))
}

pub(crate) fn add(b: &mut Builder) {
    // The counter is an integer: with integers off no expression could
    // stand for the variables it would give an integer type.
    if !b.options.has(Group::CountedLoops) || !b.options.has(Group::Integers) {
        return;
    }
    let hot = b.options.hot_iterations;
    for (name, weight) in [("CountedFor", 8), ("CountedWhile", 4)] {
        let mut decl = stmt(name).data("count", count(hot)).child("counter", "LoopVar");
        if name == "CountedWhile" {
            // 0: test first (`while`); 1: test last (`repeat`, `do ... while`).
            decl = decl.data("form", DataInit::new(|r| r.below(2) as i64));
        }
        let decl = decl.child("body", "Block");
        let info = stmt_type()
            .child("counter", |c| c.base("int"))
            .child("body", |c| c.base("stmt"));
        let weight = b.options.weights.get(name).copied().unwrap_or(weight);
        let name = b.add(Group::CountedLoops, decl, info, weight);
        b.component
            .feature(&name, Group::Integers.name())
            .scope(&name, ScopeKind::Sequential)
            .strict_child_order(&name, true)
            .choice_weight(
                &name,
                Weight::dynamic(
                    move |hole| match within_budget(hole) && hole.depth() + 2 < hole.max_depth() {
                        true => weight,
                        false => 1,
                    },
                ),
            );
    }
    crate::loops::loop_var(b);
}
