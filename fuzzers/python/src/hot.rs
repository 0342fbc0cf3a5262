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
//! The loop runs `count` iterations, drawn from the hot range (the canned
//! `hot_iterations`), where a counted loop would run its count
//! ([`xsmith_canned::may_run_hot`]: in no function, in loops that run at
//! most 4 times); anywhere else it runs 2 to 4 (enough to see every phase
//! of a polymorphic call), and it is rarely chosen there.

use xsmith::{Component, DataInit, Doc, NodeRef, ProductionDecl, RenderNode, Renderer, TypeInfo, Weight};
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

fn int(node: NodeRef, field: &str) -> i64 {
    node.data(field)
        .and_then(|v| v.as_int())
        .unwrap_or_else(|| panic!("a hot loop's {field} is an integer"))
}

/// `def hN(params):` and the body of the hot loop `node`, written while
/// rendering `n` (which brings in the helpers it calls).
pub(crate) fn definition<'a>(n: &RenderNode<'a>, node: NodeRef<'a>) -> Doc<'a> {
    let spec = all()
        .into_iter()
        .find(|h| node.is(h.name))
        .expect("a hot loop production");
    let count = match xsmith_canned::may_run_hot(node.ancestors()) {
        true => int(node, "count"),
        false => 2 + int(node, "count") % 3,
    };
    let split = int(node, "split");
    let shape = Shape {
        count,
        first: (count * split / 4).max(1),
        second: (count * (split + 1) / 4).max(1),
        variant: int(node, "variant"),
        extra: int(node, "extra"),
    };
    n.uses_helper("w");
    for helper in spec.helpers {
        n.uses_helper(helper);
    }
    let params: Vec<&str> = spec.fields.iter().map(|(f, _)| *f).collect();
    let body = n.join((spec.body)(&shape).into_iter().map(|l| n.text(l)), n.hardline());
    n.text(format!("def {}({}):", def_name(node), params.join(", ")))
        .append(indented(n, body, 4))
}

/// Adds `spec` to `c`: the production, its types, feature groups (its
/// own, `integers`, and `strings` if it has a string child), weight and
/// renderer (the call; the `def` is hoisted).
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
