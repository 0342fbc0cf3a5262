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
//! - a loop's `count` is drawn from [`HOT`] two times in three, from
//!   [`SHORT`] otherwise;
//! - a counted loop lies in no function (whose calls could multiply it),
//!   and inside other counted loops and loops over containers only while
//!   the product of their counts (a container's length counted as
//!   [`CONTAINER_BOUND`]) is at most [`NEST_BUDGET`]: so any nest of loops
//!   runs its innermost body at most `NEST_BUDGET * HOT.1` times (20,000),
//!   and a hot loop nests only in short ones.

use xsmith::{DataInit, Filter, Hole, ScopeKind, Weight};

use crate::builder::Builder;
use crate::statements::{stmt, stmt_type};
use crate::Group;

/// The range of a hot loop's count.
pub const HOT: (i64, i64) = (500, 2500);

/// The range of a short loop's count.
pub const SHORT: (i64, i64) = (1, 8);

/// The most that the loops around a counted loop may multiply its
/// iterations by.
pub const NEST_BUDGET: i64 = 8;

/// The most elements a container a loop runs over has (the canned
/// container literals have at most this many).
pub const CONTAINER_BOUND: i64 = 4;

/// The productions that make a function: a counted loop is never inside
/// one.
const FUNCTIONS: [&str; 2] = ["Lambda", "LambdaBlock"];

/// A loop's count: hot two times in three.
fn count(random: &mut xsmith::Random) -> i64 {
    let (low, high) = if random.below(3) < 2 { HOT } else { SHORT };
    random.int_in(low, high)
}

/// How many times the loops around `hole` run what is inside them (`None`
/// inside a function, where a counted loop never is).
fn enclosing_iterations(hole: &Hole) -> Option<i64> {
    let mut product = 1i64;
    for ancestor in hole.ancestors() {
        let name = ancestor.production();
        if FUNCTIONS.contains(&name) {
            return None;
        }
        let times = match name {
            "CountedFor" | "CountedWhile" => match ancestor.data("count") {
                Some(xsmith::Value::Int(n)) => *n,
                _ => HOT.1,
            },
            "ForEachArray" | "ForEachList" => CONTAINER_BOUND,
            _ => 1,
        };
        product = product.saturating_mul(times);
    }
    Some(product)
}

/// A counted loop only outside functions and within the nest budget.
fn within_budget() -> Filter {
    Filter::new(|hole: &Hole| enclosing_iterations(hole).is_some_and(|n| n <= NEST_BUDGET))
}

/// Whether `hole` lies in a counted loop's body, not inside a function
/// there (a print there would print on every iteration).
pub(crate) fn in_counted_loop(hole: &Hole) -> bool {
    hole.ancestors()
        .take_while(|a| !FUNCTIONS.contains(&a.production()))
        .any(|a| a.is("CountedFor") || a.is("CountedWhile"))
}

pub(crate) fn add(b: &mut Builder) {
    if !b.options.has(Group::CountedLoops) {
        return;
    }
    for (name, weight) in [("CountedFor", 8), ("CountedWhile", 4)] {
        let mut decl = stmt(name)
            .data("count", DataInit::new(count))
            .child("counter", "LoopVar");
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
            .scope(&name, ScopeKind::Sequential)
            .strict_child_order(&name, true)
            .choice_filter(&name, within_budget())
            .choice_weight(
                &name,
                Weight::dynamic(move |hole| if hole.depth() + 2 < hole.max_depth() { weight } else { 1 }),
            );
    }
    crate::loops::loop_var(b);
}
