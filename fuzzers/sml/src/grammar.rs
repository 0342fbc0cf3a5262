//! The fuzzer's own productions (tuples, `case`, list operations, `ref`
//! cells, polymorphic functions) and what it changes in the canned ones:
//! SML evaluates everything left to right, only `ref` variables are
//! assigned, records are immutable and always complete, and lists may be
//! empty (so the canned `ListGet`, which has no default, is off).

use xsmith::types::{Type, TypeStore};
use xsmith::{Access, BinderInfo, BinderStyle, ChildTypes, Component, DataInit, Filter, Hole, ListLength, NodeRef};
use xsmith::{ProductionDecl, Renderer, ScopeKind, TypeInfo, Weight};
use xsmith_canned::Canned;

use crate::poly::{Scheme, SCHEMES};
use crate::syntax as sml;

fn list_of(s: &TypeStore, element: Type) -> Type {
    Type::generic(s.system().generic_named("list").expect("declared"), vec![element])
}

fn ref_of(s: &TypeStore, element: Type) -> Type {
    Type::generic(s.system().generic_named("ref").expect("declared"), vec![element])
}

/// A fresh variable restricted to the base types a `ref` may be stored:
/// functions are never stored, so no call can reach itself.
fn storable(s: &mut TypeStore) -> Type {
    let bases = [s.base("int"), s.base("bool"), s.base("string")];
    s.fresh_one_of(&bases)
}

/// The argument of a generic type (`T` of `T list`).
fn argument(ty: Type) -> Type {
    match ty {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("a generic type, not {other:?}"),
    }
}

fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}

fn node_list(c: &mut ChildTypes) -> Type {
    let t = c.node_type().clone();
    list_of(c.store(), t)
}

fn element_of_node(c: &mut ChildTypes) -> Type {
    let t = c.node_type().clone();
    argument(c.store().resolve(&t))
}

/// The `PolyDef_k` (of scheme `k`) in scope at `node`: earlier in the
/// statement lists of its ancestors, innermost first.
pub(crate) fn visible_definitions<'a>(node: NodeRef<'a>, k: usize) -> Vec<NodeRef<'a>> {
    let (name, mut child, mut found) = (format!("PolyDef_{k}"), node, Vec::new());
    while let Some(parent) = child.parent() {
        let stmts = parent.children("stmts");
        let before = stmts.iter().take_while(|s| s.id() != child.id());
        found.extend(before.filter(|s| s.is(&name)).copied());
        child = parent;
    }
    found
}

/// The scheme of the polymorphic function the hole is in, if any.
fn enclosing_scheme(hole: &Hole) -> Option<usize> {
    let definition = hole.ancestors().find(|a| a.production().starts_with("PolyDef_"))?;
    definition.production()["PolyDef_".len()..].parse().ok()
}

fn in_polymorphic_function(hole: &Hole) -> bool {
    hole.ancestors().any(|a| a.production().starts_with("PolyDef_"))
}

/// Whether the hole is a statement of the program that only polymorphic
/// functions precede: where one may be defined. Its body then sees no
/// variable but its own, none of whose types is still open: a reference
/// in it to an outer variable of an open type could bind that type to
/// `'a`, which means nothing outside.
fn opens_the_program(hole: &Hole) -> bool {
    let (Some(node), Some(parent)) = (hole.node(), hole.parent()) else {
        return false;
    };
    let root = hole.program().tree().root();
    let stmts = hole.at(root).children("stmts");
    let before = stmts.iter().take_while(|s| s.id() != node);
    parent == root
        && before
            .collect::<Vec<_>>()
            .iter()
            .all(|s| s.production().starts_with("PolyDef_"))
}

/// One production with its type, weight, feature group and renderer.
struct Builder<'c> {
    c: &'c mut Component,
}

impl Builder<'_> {
    fn add(&mut self, decl: ProductionDecl, info: TypeInfo, weight: u32, group: &str, render: Renderer) -> String {
        let name = decl.name.clone();
        self.c
            .production(decl)
            .type_info(&name, info)
            .choice_weight(&name, Weight::Constant(weight))
            .feature(&name, group)
            .render(&name, render);
        name
    }
}

fn expr(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Expr")
}

fn stmt(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Stmt")
}

/// The fuzzer's component: its productions, and its changes to the canned
/// ones.
pub(crate) fn sml(canned: &Canned) -> Component {
    let mut c = Component::new("sml");
    c.default_strict_child_order(true);
    for name in &canned.productions {
        c.strict_child_order(name, true);
    }
    // Only `RefLet`s are assigned; everything else binds for good.
    c.binder_info("Let", BinderInfo::new("name", BinderStyle::Definition).read_only())
        .binder_info("LetDef", BinderInfo::new("name", BinderStyle::Definition).read_only())
        .binder_info("Param", BinderInfo::new("name", BinderStyle::Parameter).read_only())
        .may_be_generated("ListGet", false)
        .choice_filter("PrintStmt", Filter::new(|hole| !in_polymorphic_function(hole)))
        // Poly/ML warns of a function value discarded in a sequence.
        .type_info(
            "ExprSeq",
            TypeInfo::new(|s| s.fresh())
                .child("effects", |c| storable(c.store()))
                .child("value", same),
        );
    for field in &canned.options.record_fields {
        c.may_be_generated(&format!("FieldSet_{field}"), false);
        // A record is always the literal's, with every field.
        let fields = canned.options.record_fields.clone();
        let field: &'static str = field;
        c.type_info(
            &format!("FieldGet_{field}"),
            TypeInfo::new(|s| s.fresh()).child("record", move |c| {
                let t = c.node_type().clone();
                let all = fields
                    .iter()
                    .map(|f| (*f, if *f == field { t.clone() } else { c.fresh() }));
                Type::record(all.collect())
            }),
        );
    }
    let mut b = Builder { c: &mut c };
    constants(&mut b);
    discard(&mut b);
    references(&mut b);
    tuples(&mut b);
    cases(&mut b);
    lists(&mut b);
    polymorphism(&mut b);
    c
}

/// A constant of each base type, in no feature group: a base type always
/// has a value. (Otherwise, with its literals switched off, a projection
/// such as `#1 (x, ...)`, whose own type is any, would be the only way
/// the engine sees to make one, and a hole of it would nest projections
/// without end.)
fn constants(b: &mut Builder) {
    for (name, base, text) in [
        ("IntConst", "int", "0"),
        ("BoolConst", "bool", "true"),
        ("StrConst", "string", "\"\""),
    ] {
        b.c.production(expr(name))
            .type_info(name, TypeInfo::new(move |s| s.base(base)))
            .choice_weight(name, Weight::Constant(1))
            .render(name, Renderer::function(move |n| n.text(text)));
    }
}

/// `val _ = e`: a value computed for its effects, in no feature group, so
/// that a function body always has a declaration it may make.
fn discard(b: &mut Builder) {
    b.c.production(stmt("Discard").child("value", "Expr"))
        .type_info(
            "Discard",
            TypeInfo::new(|s| s.base("stmt")).child("value", |c| storable(c.store())),
        )
        .choice_weight("Discard", Weight::Constant(2))
        .render(
            "Discard",
            Renderer::function(|n| n.text("val _ = ").append(n.child("value"))),
        );
}

/// `ref` variables (assigned by the canned `Assign`) and `ref` cells.
fn references(b: &mut Builder) {
    let name = b.add(
        stmt("RefLet").child("init", "Expr"),
        TypeInfo::new(storable).child("init", same),
        2,
        "assignment",
        Renderer::function(sml::ref_let),
    );
    b.c.binder_info(&name, BinderInfo::new("name", BinderStyle::Definition));
    b.add(
        expr("RefNew").child("value", "Expr"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            ref_of(s, t)
        })
        .child("value", element_of_node),
        3,
        "refs",
        Renderer::function(|n| n.text("(ref ").append(n.child("value")).append(")")),
    );
    let deref = b.add(
        expr("Deref").child("cell", "Expr"),
        TypeInfo::new(|s| s.fresh()).child("cell", |c| {
            let t = c.node_type().clone();
            ref_of(c.store(), t)
        }),
        4,
        "refs",
        Renderer::function(|n| n.text("(! ").append(n.child("cell")).append(")")),
    );
    b.c.mutable_container_access(&deref, "cell", Access::Read);
    let set = b.add(
        stmt("RefSet").child("cell", "Expr").child("value", "Expr"),
        TypeInfo::new(|s| s.base("stmt"))
            .child("cell", |c| {
                let t = storable(c.store());
                ref_of(c.store(), t)
            })
            .child("value", |c| {
                let cell = c.earlier("cell").expect("typed in order");
                argument(c.store().resolve(&cell))
            }),
        3,
        "refs",
        Renderer::function(|n| {
            n.text("val () = ")
                .append(n.child("cell"))
                .append(" := ")
                .append(n.child("value"))
        }),
    );
    b.c.mutable_container_access(&set, "cell", Access::Write);
}

/// Pairs and triples, and their projections `#i`.
fn tuples(b: &mut Builder) {
    for arity in 2..=3usize {
        b.add(
            expr(&format!("Tuple{arity}")).list("items", "Expr", ListLength::uniform(arity, arity)),
            TypeInfo::new(move |s| Type::product((0..arity).map(|_| s.fresh()).collect())).child("items", |c| {
                let (t, len, index) = (c.node_type().clone(), c.len(), c.index());
                c.product_item(&t, len, index)
            }),
            4,
            "tuples",
            Renderer::function(|n| n.text("(").append(n.join(n.list("items"), n.text(", "))).append(")")),
        );
        for index in 0..arity {
            b.add(
                expr(&format!("TupleGet_{arity}_{index}")).child("tuple", "Expr"),
                TypeInfo::new(|s| s.fresh()).child("tuple", move |c| {
                    let items = (0..arity).map(|i| if i == index { c.node_type().clone() } else { c.fresh() });
                    Type::product(items.collect())
                }),
                2,
                "tuples",
                Renderer::function(move |n| n.text(format!("(#{} ", index + 1)).append(n.child("tuple")).append(")")),
            );
        }
    }
}

/// `case` on integers (distinct constants and a wildcard), booleans and
/// lists (`[]` and `h :: t`, in either order, or one and a wildcard).
fn cases(b: &mut Builder) {
    b.add(
        expr("IntCase")
            .child("scrutinee", "Expr")
            .list("arms", "IntArm", ListLength::uniform(1, 3))
            .child("default", "Expr"),
        TypeInfo::new(|s| s.fresh())
            .child("scrutinee", |c| c.base("int"))
            .child("arms", same)
            .child("default", same),
        4,
        "cases",
        Renderer::function(sml::int_case),
    );
    let arm = ProductionDecl::new("IntArm")
        .data("value", DataInit::new(|r| r.int_in(0, 4)))
        .child("body", "Expr");
    b.c.production(arm)
        .type_info("IntArm", TypeInfo::new(|s| s.fresh()).child("body", same))
        .depth_increase("IntArm", 0)
        .render("IntArm", Renderer::function(|n| n.child("body")));
    b.add(
        expr("BoolCase")
            .child("scrutinee", "Expr")
            .child("on_true", "Expr")
            .child("on_false", "Expr")
            .data("style", DataInit::new(|r| r.int_in(0, 3))),
        TypeInfo::new(|s| s.fresh())
            .child("scrutinee", |c| c.base("bool"))
            .child("on_true", same)
            .child("on_false", same),
        3,
        "cases",
        Renderer::function(sml::bool_case),
    );
    b.add(
        expr("ListCase")
            .child("scrutinee", "Expr")
            .child("on_nil", "Expr")
            .child("on_cons", "ConsArm")
            .data("style", DataInit::new(|r| r.int_in(0, 3))),
        TypeInfo::new(|s| s.fresh())
            .child("scrutinee", |c| {
                let t = c.fresh();
                list_of(c.store(), t)
            })
            .child("on_nil", same)
            .child("on_cons", |c| {
                let list = c.earlier("scrutinee").expect("typed in order");
                let element = argument(c.store().resolve(&list));
                Type::function(vec![element, list], c.node_type().clone())
            }),
        5,
        "cases",
        Renderer::function(sml::list_case),
    );
    // The arm binds the head and the tail; its type is a function's from
    // them to the case's type, so its binders are typed as parameters.
    b.c.production(
        ProductionDecl::new("ConsArm")
            .list("binders", "PatVar", ListLength::uniform(2, 2))
            .child("body", "Expr"),
    )
    .type_info(
        "ConsArm",
        TypeInfo::new(|s| s.fresh_function())
            .child("binders", |c| c.parameter_type())
            .child("body", |c| c.function_parts().1),
    )
    .scope("ConsArm", ScopeKind::Sequential)
    .depth_increase("ConsArm", 0)
    .render("ConsArm", Renderer::function(|n| n.child("body")));
    b.c.production(ProductionDecl::new("PatVar"))
        .type_info("PatVar", TypeInfo::new(|s| s.fresh()))
        .binder_info("PatVar", BinderInfo::new("name", BinderStyle::Parameter).read_only())
        .render("PatVar", Renderer::function(|n| n.display(n.data("name"))));
}

/// List operations of the Basis (and bounded append, safe `nth`).
fn lists(b: &mut Builder) {
    b.add(
        expr("EmptyList"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            list_of(s, t)
        }),
        2,
        "lists",
        Renderer::function(|n| {
            let t = crate::syntax::type_text(n, &n.node_type().expect("typed"));
            n.text(format!("([] : {t})"))
        }),
    );
    b.add(
        expr("Cons").child("head", "Expr").child("tail", "Expr"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            list_of(s, t)
        })
        .child("head", element_of_node)
        .child("tail", same),
        4,
        "lists",
        Renderer::function(|n| {
            n.text("(")
                .append(n.child("head"))
                .append(" :: ")
                .append(n.child("tail"))
                .append(")")
        }),
    );
    b.add(
        expr("Append").child("left", "Expr").child("right", "Expr"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            list_of(s, t)
        })
        .child("left", same)
        .child("right", same),
        3,
        "lists",
        Renderer::function(|n| sml::call(n, "xs_append", [n.child("left"), n.child("right")])),
    );
    b.add(
        expr("ListLength").child("list", "Expr"),
        TypeInfo::new(|s| s.base("int")).child("list", |c| {
            let t = c.fresh();
            list_of(c.store(), t)
        }),
        3,
        "lists",
        Renderer::function(|n| n.text("(List.length ").append(n.child("list")).append(")")),
    );
    b.add(
        expr("ListRev").child("list", "Expr"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            list_of(s, t)
        })
        .child("list", same),
        3,
        "lists",
        Renderer::function(|n| n.text("(List.rev ").append(n.child("list")).append(")")),
    );
    b.add(
        expr("ListNth")
            .child("list", "Expr")
            .child("index", "Expr")
            .child("default", "Expr"),
        TypeInfo::new(|s| s.fresh())
            .child("list", node_list)
            .child("index", |c| c.base("int"))
            .child("default", same),
        5,
        "lists",
        Renderer::function(|n| sml::call(n, "xs_nth", [n.child("list"), n.child("index"), n.child("default")])),
    );
    b.add(
        expr("ListMap").child("function", "Expr").child("list", "Expr"),
        TypeInfo::new(|s| {
            let t = s.fresh();
            list_of(s, t)
        })
        .child("function", |c| {
            let (from, to) = (c.fresh(), element_of_node(c));
            Type::function(vec![from], to)
        })
        .child("list", |c| {
            let f = c.earlier("function").expect("typed in order");
            let Type::Function(f) = c.store().resolve(&f) else {
                panic!("a function")
            };
            let from = c.product_item(&f.0, 1, 0);
            list_of(c.store(), from)
        }),
        4,
        "higher-order",
        Renderer::function(|n| {
            n.text("(List.map ")
                .append(n.child("function"))
                .append(" ")
                .append(n.child("list"))
                .append(")")
        }),
    );
    b.add(
        expr("ListFoldl")
            .child("function", "Expr")
            .child("init", "Expr")
            .child("list", "Expr"),
        TypeInfo::new(|s| s.fresh())
            .child("function", |c| {
                let (element, acc) = (c.fresh(), c.node_type().clone());
                Type::function(vec![element, acc.clone()], acc)
            })
            .child("init", same)
            .child("list", |c| {
                let f = c.earlier("function").expect("typed in order");
                let Type::Function(f) = c.store().resolve(&f) else {
                    panic!("a function")
                };
                let element = c.product_item(&f.0, 2, 0);
                list_of(c.store(), element)
            }),
        4,
        "higher-order",
        Renderer::function(|n| {
            let parts = [n.child("function"), n.child("init"), n.child("list")];
            n.text("(List.foldl ").append(n.join(parts, n.text(" "))).append(")")
        }),
    );
}

/// The polymorphic functions of [`SCHEMES`]: a definition and a call per
/// scheme, the call offered where a definition of its scheme is in scope.
fn polymorphism(b: &mut Builder) {
    for (k, scheme) in SCHEMES.iter().enumerate() {
        let arity = scheme.params.len();
        // A scheme of lists, pairs or functions needs the productions that
        // make them (the engine would otherwise count a parameter's type as
        // one it can make anywhere).
        let mentions = |f: fn(&Scheme) -> bool| scheme.params.iter().chain([&scheme.result]).any(f);
        let mut needs = Vec::new();
        if mentions(|t| matches!(t, Scheme::ListOf(_))) {
            needs.push("lists");
        }
        if mentions(|t| matches!(t, Scheme::Pair(..))) {
            needs.push("tuples");
        }
        if mentions(|t| matches!(t, Scheme::Arrow(..) | Scheme::Arrow2(..))) {
            needs.push("functions");
        }
        let def = b.add(
            stmt(&format!("PolyDef_{k}"))
                .list("params", "Param", ListLength::uniform(arity, arity))
                .list("defs", "Stmt", ListLength::uniform(0, 0))
                .child("body", "Expr"),
            TypeInfo::new(|s| s.base("stmt"))
                .child("params", move |c| {
                    let index = c.index();
                    scheme.params[index].opaque(c.store())
                })
                .child("defs", |c| c.fresh())
                .child("body", move |c| scheme.result.opaque(c.store())),
            12,
            "polymorphism",
            Renderer::function(move |n| sml::poly_def(n, scheme)),
        );
        b.c.lift_predicate(&def, "defs");
        b.c.scope(&def, ScopeKind::Sequential)
            .choice_filter(&def, Filter::new(opens_the_program));
        for group in &needs {
            b.c.feature(&def, group);
        }
        let call = b.add(
            expr(&format!("PolyCall_{k}"))
                .child("callee", "PolyRef")
                .list("args", "Expr", ListLength::uniform(arity, arity))
                .data("target", DataInit::new(|r| r.int_in(0, 7))),
            TypeInfo::new(move |s| {
                let (a, b) = (s.fresh(), s.fresh());
                scheme.result.instantiate(s, &a, &b)
            })
            .child("callee", move |c| {
                let (a, b) = (c.fresh(), c.fresh());
                let result = scheme.result.instantiate(c.store(), &a, &b);
                let node = c.node_type().clone();
                c.store()
                    .unify(&result, &node)
                    .expect("a fresh instance of the result the node has");
                let params = scheme.params.iter().map(|p| p.instantiate(c.store(), &a, &b)).collect();
                Type::function(params, result)
            })
            .child("args", |c| c.argument_type("callee")),
            15,
            "polymorphism",
            Renderer::function(move |n| sml::poly_call(n, k)),
        );
        for group in &needs {
            b.c.feature(&call, group);
        }
        b.c.choice_filter(
            &call,
            Filter::new(move |hole| {
                hole.node()
                    .is_some_and(|node| !visible_definitions(hole.at(node), k).is_empty())
            }),
        );
    }
    // A value of a type variable: the parameter of that type. (The engine
    // sees a production that makes `'a` where a reference alone would,
    // so that a hole of a type built of `'a` always has a way to finish.)
    for (v, variable) in crate::poly::VARIABLES.iter().enumerate() {
        let name = b.add(
            expr(&format!("TypeVarValue_{v}")),
            TypeInfo::new(move |s| s.base(variable)),
            4,
            "polymorphism",
            Renderer::function(move |n| {
                let this = n.at(n.node());
                let mut ancestors = this.ancestors();
                let definition = ancestors
                    .find(|a| a.production().starts_with("PolyDef_"))
                    .expect("in a definition");
                let params = definition.children("params");
                let param = params
                    .iter()
                    .find(|p| p.node_type().is_some_and(|t| t == n.node_type().expect("typed")));
                n.display(
                    param
                        .and_then(|p| p.data("name"))
                        .expect("a parameter of each type variable"),
                )
            }),
        );
        b.c.choice_filter(
            &name,
            Filter::new(move |hole| enclosing_scheme(hole).is_some_and(|k| SCHEMES[k].variables().contains(variable))),
        );
    }
    b.c.production(ProductionDecl::new("PolyRef"))
        .type_info("PolyRef", TypeInfo::new(|s| s.fresh()))
        .depth_increase("PolyRef", 0)
        .render("PolyRef", Renderer::function(|n| n.nil()));
}
