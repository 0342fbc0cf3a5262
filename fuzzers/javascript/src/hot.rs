//! Hot loops of the JavaScript fuzzer's own (issue 34): an `int`
//! expression that runs a loop written by the fuzzer, over values its
//! generated children compute.
//!
//! Each such production is an immediately called function
//! `(function (a, s) { ...; return acc; })(A, S)`: the generated children
//! (`A`, `S`, each an `int` or a `string`) are its arguments, evaluated
//! once, left to right, before the loop; the loop is the fuzzer's text,
//! and folds what each iteration computes into `acc` with
//! `acc = (acc * 31 + v) | 0` (every `v` is an integer of magnitude below
//! 2^33, so the sum is exact and `| 0` wraps it to int32 alike
//! everywhere). Names inside the function are the fuzzer's own (`acc`,
//! `k`, `f`, ...): the function sees no variable of the program, and its
//! children are rendered outside it, so none is shadowed.
//!
//! The production, its data and weight, and the [`Shape`] a body is
//! written for (its iteration count, hot only where
//! [`xsmith_canned::may_run_hot`] allows; where its phases change) are
//! [`xsmith_canned::hot`]'s, shared with the other fuzzers' hot loops.

use xsmith::{Component, Doc, RenderNode, Renderer};
use xsmith_canned::hot::{declare, HotLoop, Shape};
use xsmith_canned::render::indented;

/// `acc = (acc * 31 + value) | 0;`: the fold of every hot loop.
pub(crate) fn fold(value: &str) -> String {
    format!("acc = (acc * 31 + {value}) | 0;")
}

/// Adds `spec` to `c` ([`declare`]) with its renderer: the body, for the
/// node's [`Shape`], in an immediately called function of the children.
pub(crate) fn add(c: &mut Component, spec: HotLoop, hot: (i64, i64)) {
    declare(c, &spec, hot);
    let (fields, body, helpers) = (spec.fields, spec.body, spec.helpers);
    c.render(
        spec.name,
        Renderer::function(move |n| {
            let shape = Shape::of(n.at(n.node()));
            for helper in helpers {
                n.uses_helper(helper);
            }
            let params: Vec<&str> = fields.iter().map(|(f, _)| *f).collect();
            iife(
                n,
                &params,
                body(&shape),
                fields.iter().map(|(f, _)| n.child(f)).collect(),
            )
        }),
    );
}

/// `(function (params) { lines })(args)`.
fn iife<'a>(n: &RenderNode<'a>, params: &[&str], lines: Vec<String>, args: Vec<Doc<'a>>) -> Doc<'a> {
    let body = n.join(lines.into_iter().map(|l| n.text(l)), n.hardline());
    n.text(format!("(function ({}) {{", params.join(", ")))
        .append(indented(n, body, 2))
        .append(n.hardline())
        .append("})(")
        .append(n.join(args, n.text(", ")))
        .append(")")
}
