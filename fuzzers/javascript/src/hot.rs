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
//! The loop runs `count` iterations, drawn from the hot range
//! ([`crate::options`]'s `hot_iterations`), where a counted loop would run
//! its count ([`xsmith_canned::may_run_hot`]: in no function, in loops that
//! run at most 4 times); anywhere else it runs 2 to 4 (enough to see every
//! phase of a polymorphic call), and it is rarely chosen there.

use xsmith::{Component, DataInit, Doc, ProductionDecl, RenderNode, Renderer, TypeInfo, Weight};
use xsmith_canned::render::indented;

/// One hot-loop production: its name, feature group, children (each an
/// `int` or a `string`: `(name, type)`), weight where it may run hot, how
/// many variants its text has, and its body.
pub(crate) struct HotLoop {
    pub name: &'static str,
    pub group: &'static str,
    pub fields: &'static [(&'static str, &'static str)],
    pub weight: u32,
    pub variants: i64,
    /// The body's lines, for a loop of `Shape::count` iterations.
    pub body: fn(&Shape) -> Vec<String>,
    /// The header helpers the body calls.
    pub helpers: &'static [&'static str],
}

/// What a body is written for: its iteration count, where its phases
/// change, and which variant it is.
pub(crate) struct Shape {
    /// Iterations of the loop.
    pub count: i64,
    /// The first phase runs `k < first`, the second `k < second`, the
    /// third the rest (`0 < first <= second <= count`).
    pub first: i64,
    pub second: i64,
    /// The variant drawn, below [`HotLoop::variants`].
    pub variant: i64,
    /// A further draw, 0 to 999, for the body's own small choices.
    pub extra: i64,
}

/// `acc = (acc * 31 + value) | 0;`: the fold of every hot loop.
pub(crate) fn fold(value: &str) -> String {
    format!("acc = (acc * 31 + {value}) | 0;")
}

/// The loop's iterations where the node is: its `count` where a counted
/// loop would run its count, else 2 to 4.
fn iterations(n: &RenderNode) -> i64 {
    let count = n.data("count").as_int().expect("a hot loop's count is an integer");
    match xsmith_canned::may_run_hot(n.at(n.node()).ancestors()) {
        true => count,
        false => 2 + count % 3,
    }
}

/// Adds `spec` to `c`: the production, its types, feature groups (its
/// own, `integers`, and `strings` if it has a string child), weight and
/// renderer.
pub(crate) fn add(c: &mut Component, spec: HotLoop, hot: (i64, i64)) {
    let variants = spec.variants as u64;
    let mut decl = ProductionDecl::new(spec.name)
        .supertype("Expr")
        .data("count", DataInit::new(move |r| r.int_in(hot.0, hot.1)))
        .data("split", DataInit::new(|r| r.int_in(1, 3)))
        .data("variant", DataInit::new(move |r| r.below(variants) as i64))
        .data("extra", DataInit::new(|r| r.below(1000) as i64));
    let mut info = TypeInfo::new(|s| s.base("int"));
    for &(field, ty) in spec.fields {
        decl = decl.child(field, "Expr");
        info = info.child(field, move |c| c.base(ty));
    }
    c.production(decl);
    c.type_info(spec.name, info)
        .feature(spec.name, spec.group)
        .feature(spec.name, "integers");
    if spec.fields.iter().any(|(_, ty)| *ty == "string") {
        c.feature(spec.name, "strings");
    }
    let weight = spec.weight;
    c.choice_weight(
        spec.name,
        Weight::dynamic(move |hole| {
            match xsmith_canned::may_run_hot(hole.ancestors()) && hole.depth() + 2 < hole.max_depth() {
                true => weight,
                false => 1,
            }
        }),
    );
    let (fields, body, helpers) = (spec.fields, spec.body, spec.helpers);
    c.render(
        spec.name,
        Renderer::function(move |n| {
            let count = iterations(n);
            let split = n.data("split").as_int().expect("an integer split");
            let shape = Shape {
                count,
                first: (count * split / 4).max(1),
                second: (count * (split + 1) / 4).max(1),
                variant: n.data("variant").as_int().expect("an integer variant"),
                extra: n.data("extra").as_int().expect("an integer draw"),
            };
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
