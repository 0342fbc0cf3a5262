//! Let-polymorphism: polymorphic functions of a fixed catalog of type
//! schemes ([`SCHEMES`]), defined at the program's start (`fun ('a, 'b)
//! polyN (p : ..., q : ...) : ... = ...`) and called at whatever types
//! their call sites need.
//!
//! The engine's types have no schemes, so each scheme is a pair of
//! productions: `PolyDef_k`, a declaration whose parameters and body are
//! typed with the type variables as the opaque types `'a` and `'b` (no
//! value of them can be made but through a parameter), and `PolyCall_k`, a
//! call whose argument and result types instantiate the scheme with fresh
//! type variables, offered only where a `PolyDef_k` is in scope.

use xsmith::types::{Type, TypeStore};
use xsmith::{
    ChildTypes, Component, DataInit, Doc, Filter, Hole, ListLength, NodeRef, ProductionDecl, RenderNode, Renderer,
    ScopeKind,
};
use xsmith::{TypeInfo, Weight};
use xsmith_canned::render::indented;

use crate::syntax::{let_in, parameters, system};

/// The type variables of schemes, as the type system names them.
pub(crate) const VARIABLES: [&str; 2] = ["'a", "'b"];

/// A type of a scheme: a type variable, `int`, or a type built of them.
#[derive(Clone, Copy)]
enum T {
    A,
    B,
    Int,
    List(&'static T),
    Pair(&'static T, &'static T),
    Fun(&'static [T], &'static T),
}

use T::*;

/// The schemes, as parameters and result (`PolyDef_k` is the function of
/// `SCHEMES[k]`): choices, wrapping in a list, projections with a
/// default, application, mapping, swapping and folding. Every type
/// variable of a scheme is the type of a parameter of its own, so a value
/// of it can always be had where a hole of it is past the depth bound.
const SCHEMES: [(&[T], T); 8] = [
    (&[A, A], A),
    (&[A], List(&A)),
    (&[List(&A), A], A),
    (&[Fun(&[A], &B), A, B], B),
    (&[Fun(&[A], &B), List(&A), A, B], List(&B)),
    (&[A, B], Pair(&B, &A)),
    (&[Fun(&[A, B], &B), A, B, List(&A)], B),
    (&[A, Int], Int),
];

impl T {
    /// The type with `'a` and `'b` replaced by `vars`.
    fn instantiate(self, s: &TypeStore, vars: &[Type; 2]) -> Type {
        match self {
            A => vars[0].clone(),
            B => vars[1].clone(),
            Int => s.base("int"),
            List(e) => s.generic("list", vec![e.instantiate(s, vars)]),
            Pair(a, b) => Type::product(vec![a.instantiate(s, vars), b.instantiate(s, vars)]),
            Fun(ps, r) => Type::function(
                ps.iter().map(|p| p.instantiate(s, vars)).collect(),
                r.instantiate(s, vars),
            ),
        }
    }

    /// Whether the type or a part of it is one `f` accepts.
    fn has(self, f: &impl Fn(T) -> bool) -> bool {
        f(self)
            || match self {
                List(e) => e.has(f),
                Pair(a, b) => a.has(f) || b.has(f),
                Fun(ps, r) => ps.iter().any(|p| p.has(f)) || r.has(f),
                A | B | Int => false,
            }
    }
}

/// Whether some type of the scheme has a part `f` accepts.
fn mentions(k: usize, f: impl Fn(T) -> bool) -> bool {
    let (params, result) = SCHEMES[k];
    result.has(&f) || params.iter().any(|t| t.has(&f))
}

/// The type variables scheme `k` mentions (`'a` always; `'b` if it does).
fn variables(k: usize) -> &'static [&'static str] {
    &VARIABLES[..if mentions(k, |t| matches!(t, B)) { 2 } else { 1 }]
}

/// The type in the definition: with the opaque types `'a` and `'b`.
fn opaque(c: &mut ChildTypes, t: T) -> Type {
    let s = c.store();
    t.instantiate(s, &VARIABLES.map(|v| s.base(v)))
}

/// The `PolyDef_k` in scope at `node`: earlier in the statement lists of
/// its ancestors, innermost first.
pub(crate) fn visible_definitions<'a>(node: NodeRef<'a>, k: usize) -> Vec<NodeRef<'a>> {
    let (name, mut child, mut found) = (format!("PolyDef_{k}"), node, Vec::new());
    while let Some(parent) = child.parent() {
        let stmts = parent.children("stmts");
        found.extend(
            stmts
                .into_iter()
                .take_while(|s| s.id() != child.id())
                .filter(|s| s.is(&name)),
        );
        child = parent;
    }
    found
}

/// The polymorphic function a node is in (its `PolyDef_k` node and `k`).
fn enclosing<'a>(mut ancestors: impl Iterator<Item = NodeRef<'a>>) -> Option<(NodeRef<'a>, usize)> {
    let definition = ancestors.find(|a| a.production().starts_with("PolyDef_"))?;
    Some((definition, definition.production()["PolyDef_".len()..].parse().ok()?))
}

/// Whether a `PolyDef_k` is in scope at the hole.
fn defined(hole: &Hole, k: usize) -> bool {
    hole.node()
        .is_some_and(|n| !visible_definitions(hole.at(n), k).is_empty())
}

/// Whether the hole is a statement of the program that only polymorphic
/// functions precede: where one may be defined. Its body then sees no
/// variable but its own, none of whose types is still open: a reference
/// in it to an outer variable of an open type could bind that type to
/// `'a`, which means nothing outside.
fn opens_the_program(hole: &Hole) -> bool {
    let root = hole.program().tree().root();
    let (Some(node), Some(parent)) = (hole.node(), hole.parent()) else {
        return false;
    };
    let stmts = hole.at(root).children("stmts");
    let mut before = stmts.iter().take_while(|s| s.id() != node);
    parent == root && before.all(|s| s.production().starts_with("PolyDef_"))
}

xsmith::component! {
    /// The callee of a `PolyCall_k` (rendered by the call), and the values of
    /// type variables: the parameter of that type. (The engine sees a
    /// production that makes `'a` where a reference alone would, so that a
    /// hole of a type built of `'a` always has a way to finish.)
    fn type_variables;
    uses { Expr }
    grammar {
        PolyRef {}
        TypeVarValue_a: Expr {}
        TypeVarValue_b: Expr {}
    }
    type_info {
        PolyRef => (|s| s.fresh()),
        TypeVarValue_a => (|s| s.base(VARIABLES[0])),
        TypeVarValue_b => (|s| s.base(VARIABLES[1])),
    }
    choice_filters { TypeVarValue_a => |h| in_scheme_of(h, 0), TypeVarValue_b => |h| in_scheme_of(h, 1) }
    choice_weight { TypeVarValue_a => 4, TypeVarValue_b => 4 }
    feature { TypeVarValue_a => "polymorphism", TypeVarValue_b => "polymorphism" }
    depth_increase { PolyRef => 0 }
    render { PolyRef => [], TypeVarValue_a => type_variable_value, TypeVarValue_b => type_variable_value }
}

/// Whether the hole is in a polymorphic function whose scheme has type
/// variable `v`.
fn in_scheme_of(hole: &Hole, v: usize) -> bool {
    enclosing(hole.ancestors()).is_some_and(|(_, k)| variables(k).len() > v)
}

/// The parameter of the enclosing polymorphic function whose type is the
/// node's.
fn type_variable_value<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let (definition, _) = enclosing(n.at(n.node()).ancestors()).expect("in a definition");
    let params = definition.children("params");
    let param = params.iter().find(|p| p.node_type() == n.node_type());
    let name = param.and_then(|p| p.data("name"));
    n.display(name.expect("a parameter of each type variable"))
}

/// The productions of polymorphic functions: a definition and a call per
/// scheme, and the values of type variables.
pub(crate) fn component() -> Component {
    let mut c = type_variables();
    let expr = |name: &str| ProductionDecl::new(name).supertype("Expr");
    for (k, (params, result)) in SCHEMES.into_iter().enumerate() {
        let arity = params.len();
        // A scheme of lists, pairs or functions needs the productions that
        // make them (the engine would otherwise count a parameter's type as
        // one it can make anywhere).
        let needs = [
            ("lists", mentions(k, |t| matches!(t, List(_)))),
            ("tuples", mentions(k, |t| matches!(t, Pair(..)))),
            ("functions", mentions(k, |t| matches!(t, Fun(..)))),
        ];
        let (def, call) = (format!("PolyDef_{k}"), format!("PolyCall_{k}"));
        let decl =
            ProductionDecl::new(&def)
                .supertype("Stmt")
                .list("params", "Param", ListLength::uniform(arity, arity));
        c.production(
            decl.list("defs", "Stmt", ListLength::uniform(0, 0))
                .child("body", "Expr"),
        )
        .type_info(
            &def,
            TypeInfo::new(|s| s.base("stmt"))
                .child("params", move |c| opaque(c, params[c.index()]))
                .child("defs", |c| c.fresh())
                .child("body", move |c| opaque(c, result)),
        )
        .lift_predicate(&def, "defs")
        .scope(&def, ScopeKind::Sequential)
        .choice_filter(&def, Filter::new(opens_the_program))
        .choice_weight(&def, Weight::Constant(12))
        .render(&def, Renderer::function(move |n| poly_def(n, k)));
        let decl = expr(&call)
            .child("callee", "PolyRef")
            .list("args", "Expr", ListLength::uniform(arity, arity));
        c.production(decl.data("target", DataInit::new(|r| r.int_in(0, 7))))
            .type_info(
                &call,
                TypeInfo::new(move |s| {
                    let vars = [s.fresh(), s.fresh()];
                    result.instantiate(s, &vars)
                })
                .child("callee", move |c| {
                    let vars = [c.fresh(), c.fresh()];
                    let (instance, node) = (result.instantiate(c.store(), &vars), c.node_type().clone());
                    c.store()
                        .unify(&instance, &node)
                        .expect("a fresh instance of the node's type");
                    let s = c.store();
                    Type::function(params.iter().map(|p| p.instantiate(s, &vars)).collect(), instance)
                })
                .child("args", |c| c.argument_type("callee")),
            )
            .choice_filter(&call, Filter::new(move |hole| defined(hole, k)))
            .choice_weight(&call, Weight::Constant(15))
            .render(&call, Renderer::function(move |n| poly_call(n, k)));
        for name in [&def, &call] {
            c.feature(name, "polymorphism");
            for (group, _) in needs.iter().filter(|(_, needed)| *needed) {
                c.feature(name, group);
            }
        }
    }
    c
}

/// `fun ('a, 'b) polyN (p : T, ...) : R = let <lifted> in body end` (or
/// `fun ('a) polyN ...`).
fn poly_def<'a>(n: &RenderNode<'a>, k: usize) -> Doc<'a> {
    let body = n.at(n.node()).child("body").expect("a body");
    let result = crate::types::text(system(n), &body.node_type().expect("typed"), 1);
    n.text(format!("fun ({}) poly{} ", variables(k).join(", "), n.node().index()))
        .append(parameters(n, n.list("params")))
        .append(format!(" : {result} ="))
        .append(indented(n, let_in(n, n.list("defs"), n.child("body")), 2))
}

/// A call of one of the `PolyDef_k` in scope (picked by the `target` data).
fn poly_call<'a>(n: &RenderNode<'a>, k: usize) -> Doc<'a> {
    let definitions = visible_definitions(n.at(n.node()), k);
    let pick = n.data("target").as_int().expect("an index") as usize % definitions.len().max(1);
    let definition = definitions.get(pick).expect("a call has a definition in scope");
    n.text(format!("(poly{} ", definition.id().index()))
        .append(parameters(n, n.list("args")))
        .append(")")
}
