//! Hot loops of the Python fuzzer's own (issue 34): an `int` expression
//! that runs a loop written by the fuzzer, over values its generated
//! children compute.
//!
//! Each such production is a call `hN(A, S)` of a function `def hN(a, s):`
//! hoisted before the statement that holds it, as block-bodied lambdas
//! are (see `collect` in `lib.rs`): the generated children (`A`, `S`, each
//! an `int` or a `str`) are its arguments, evaluated once, left to right,
//! before the loop; the loop is the fuzzer's text, and folds what each
//! iteration computes into `acc` with `acc = w(acc * 31 + v)` (the
//! header's 64-bit wrap; every `v` is an `int`, exact however large). Names
//! inside the function are the fuzzer's own (`acc`, `k`, `f`, ...), none a
//! header helper's: the function uses no variable of the program (its
//! children are evaluated outside it), so hoisting it changes nothing.
//!
//! The production, its data and weight, and the [`Shape`] a body is
//! written for (its iteration count, hot only where
//! [`xsmith_canned::may_run_hot`] allows; where its phases change) are
//! [`xsmith_canned::hot`]'s, shared with the other fuzzers' hot loops.

use xsmith::{Component, Doc, NodeRef, RenderNode, Renderer};
use xsmith_canned::hot::{declare, HotLoop, Shape};
use xsmith_canned::render::indented;

/// `acc = w(acc * 31 + value)`: the fold of every hot loop.
pub(crate) fn fold(value: &str) -> String {
    format!("acc = w(acc * 31 + {value})")
}

/// Every hot-loop production of the fuzzer.
pub(crate) fn all() -> Vec<HotLoop> {
    let mut all = vec![crate::poly::poly_call()];
    all.extend(crate::idioms::all());
    all
}

/// The names of the productions of [`all`], which rendering asks about at
/// every node.
const NAMES: [&str; 7] = [
    "PolyCall",
    "WhileLoop",
    "Comprehensions",
    "ClassOps",
    "TryLoop",
    "GenLoop",
    "BigInt",
];

/// Whether `node` is a hot loop (rendered as a call of a hoisted `def`).
pub(crate) fn is_hot(node: NodeRef) -> bool {
    NAMES.contains(&node.production())
}

/// The name of the hoisted `def` of the hot loop `node`.
fn def_name(node: NodeRef) -> String {
    format!("h{}", node.id().index())
}

/// `def hN(params):` and the body of the hot loop `node`, written while
/// rendering `n` (which brings in the helpers it calls).
pub(crate) fn definition<'a>(n: &RenderNode<'a>, node: NodeRef<'a>) -> Doc<'a> {
    let spec = all()
        .into_iter()
        .find(|h| node.is(h.name))
        .expect("a hot loop production");
    let shape = Shape::of(node);
    n.uses_helper("w");
    for helper in spec.helpers {
        n.uses_helper(helper);
    }
    let params: Vec<&str> = spec.fields.iter().map(|(f, _)| *f).collect();
    let body = n.join((spec.body)(&shape).into_iter().map(|l| n.text(l)), n.hardline());
    n.text(format!("def {}({}):", def_name(node), params.join(", ")))
        .append(indented(n, body, 4))
}

/// Adds `spec` to `c` ([`declare`]) with its renderer: the call of its
/// hoisted `def` (see [`definition`]).
pub(crate) fn add(c: &mut Component, spec: HotLoop, hot: (i64, i64)) {
    declare(c, &spec, hot);
    let fields = spec.fields;
    c.render(
        spec.name,
        Renderer::function(move |n| {
            let args = fields.iter().map(|(f, _)| n.child(f));
            n.text(def_name(n.at(n.node())))
                .append("(")
                .append(n.join(args, n.text(", ")))
                .append(")")
        }),
    );
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_names_are_those_of_every_hot_loop() {
        let names: Vec<&str> = super::all().iter().map(|h| h.name).collect();
        assert_eq!(names, super::NAMES);
    }
}
