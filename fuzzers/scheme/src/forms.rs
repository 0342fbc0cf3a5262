//! Scheme's own productions, beside the canned ones: `when` and `unless`,
//! `cond` and `case`, pairs and lists (`cons`, `car`, `length`, `reverse`,
//! `append`) and `equal?`. Lists are never empty (every canned list
//! literal has an element, and these make only non-empty lists from
//! non-empty lists), so `car` needs no guard; `case` dispatches on an
//! integer modulo 8 against disjoint datums, compared with `eqv?`, which is
//! portable on exact integers; `equal?` compares base values only (never
//! procedures, whose identity is not portable).

use xsmith::types::{Type, TypeStore};
use xsmith::{Component, ListLength, ProductionDecl, Renderer, TypeInfo, Weight};

use crate::syntax::{form, let_block};

/// `list<element>`, the canned immutable list.
fn list_of(store: &TypeStore, element: Type) -> Type {
    let list = store
        .system()
        .generic_named("list")
        .expect("the canned type system has lists");
    Type::generic(list, vec![element])
}

/// `list<T>` for a fresh `T`.
fn fresh_list(store: &mut TypeStore) -> Type {
    let element = store.fresh();
    list_of(store, element)
}

/// A fresh type restricted to the base types `equal?` compares.
fn fresh_base(store: &mut TypeStore) -> Type {
    store.fresh_one_of_named(&["int", "bool", "string"])
}

fn expr(name: &str) -> ProductionDecl {
    ProductionDecl::new(name).supertype("Expr")
}

/// Adds `production` with its type, weight and feature group.
fn add(c: &mut Component, decl: ProductionDecl, info: TypeInfo, weight: u32, group: &str) {
    let name = decl.name.clone();
    c.production(decl);
    c.type_info(&name, info)
        .feature(&name, group)
        .choice_weight(&name, Weight::Constant(weight));
}

/// The component of Scheme's own productions, with their renderers.
pub(crate) fn component() -> Component {
    let mut c = Component::new("scheme");
    for (name, keyword) in [("When", "when"), ("Unless", "unless")] {
        let decl = ProductionDecl::new(name)
            .supertype("Stmt")
            .child("cond", "Expr")
            .child("body", "Block");
        let info = TypeInfo::new(|s| s.base("stmt"))
            .child("cond", |c| c.base("bool"))
            .child("body", |c| c.base("stmt"));
        add(&mut c, decl, info, 3, "when-unless");
        c.strict_child_order(name, true);
        c.render(
            name,
            Renderer::function(move |n| {
                let head = n.text(format!("({keyword} ")).append(n.child("cond"));
                head.append(n.hardline().append(let_block(n, n.child("body"))).nest(2))
                    .append(")")
            }),
        );
    }

    let clauses = || ListLength::uniform(1, 3);
    let decl = expr("Cond")
        .list("clauses", "CondClause", clauses())
        .child("otherwise", "Expr");
    let info = TypeInfo::new(|s| s.fresh())
        .child("clauses", |c| c.node_type().clone())
        .child("otherwise", |c| c.node_type().clone());
    add(&mut c, decl, info, 4, "cond-case");
    c.production(
        ProductionDecl::new("CondClause")
            .child("test", "Expr")
            .child("value", "Expr"),
    );
    c.type_info(
        "CondClause",
        TypeInfo::new(|s| s.fresh())
            .child("test", |c| c.base("bool"))
            .child("value", |c| c.node_type().clone()),
    );
    let decl = expr("Case")
        .child("key", "Expr")
        .list("clauses", "CaseClause", clauses())
        .child("otherwise", "Expr");
    let info = TypeInfo::new(|s| s.fresh())
        .child("key", |c| c.base("int"))
        .child("clauses", |c| c.node_type().clone())
        .child("otherwise", |c| c.node_type().clone());
    add(&mut c, decl, info, 3, "cond-case");
    c.production(ProductionDecl::new("CaseClause").child("value", "Expr"));
    c.type_info(
        "CaseClause",
        TypeInfo::new(|s| s.fresh()).child("value", |c| c.node_type().clone()),
    );
    for name in ["Cond", "CondClause", "Case", "CaseClause"] {
        c.strict_child_order(name, true);
    }
    c.render(
        "Cond",
        Renderer::function(|n| {
            let mut clauses = n.list("clauses");
            clauses.push(form(n, "else", vec![n.child("otherwise")]));
            form(n, "cond", clauses)
        }),
    );
    c.render(
        "CondClause",
        Renderer::function(|n| {
            let items = n.join([n.child("test"), n.child("value")], n.line());
            n.text("(").append(items.nest(1)).append(")").group()
        }),
    );
    c.render(
        "Case",
        Renderer::function(|n| {
            let key = form(n, "modulo", vec![n.child("key"), n.text("8")]);
            let clauses = n.at(n.node()).children("clauses").into_iter().enumerate();
            let mut items = vec![key];
            items.extend(
                clauses.map(|(i, clause)| form(n, &format!("({} {})", 2 * i, 2 * i + 1), vec![n.render(clause.id())])),
            );
            items.push(form(n, "else", vec![n.child("otherwise")]));
            form(n, "case", items)
        }),
    );
    c.render("CaseClause", Renderer::function(|n| n.child("value")));

    let decl = expr("Cons").child("head", "Expr").child("tail", "Expr");
    let info = TypeInfo::new(fresh_list)
        .child("head", element)
        .child("tail", |c| c.node_type().clone());
    add(&mut c, decl, info, 4, "pairs");
    let decl = expr("Car").child("list", "Expr");
    let info = TypeInfo::new(|s| s.fresh()).child("list", |c| {
        let element = c.node_type().clone();
        list_of(c.store(), element)
    });
    add(&mut c, decl, info, 4, "pairs");
    let decl = expr("Length").child("list", "Expr");
    let info = TypeInfo::new(|s| s.base("int")).child("list", |c| {
        let element = c.fresh();
        list_of(c.store(), element)
    });
    add(&mut c, decl, info, 3, "pairs");
    let decl = expr("Reverse").child("list", "Expr");
    let info = TypeInfo::new(fresh_list).child("list", |c| c.node_type().clone());
    add(&mut c, decl, info, 3, "pairs");
    let decl = expr("Append").child("left", "Expr").child("right", "Expr");
    let info = TypeInfo::new(fresh_list)
        .child("left", |c| c.node_type().clone())
        .child("right", |c| c.node_type().clone());
    add(&mut c, decl, info, 3, "pairs");
    for (name, head, fields) in [
        ("Cons", "cons", &["head", "tail"][..]),
        ("Car", "car", &["list"][..]),
        ("Length", "length", &["list"][..]),
        ("Reverse", "reverse", &["list"][..]),
        ("Append", "append", &["left", "right"][..]),
    ] {
        c.render(
            name,
            Renderer::function(move |n| form(n, head, fields.iter().map(|f| n.child(f)).collect())),
        );
    }

    let decl = expr("Equal").child("left", "Expr").child("right", "Expr");
    let info = TypeInfo::new(|s| s.base("bool"))
        .child("left", |c| fresh_base(c.store()))
        .child("right", |c| c.earlier("left").expect("the left operand is typed first"));
    add(&mut c, decl, info, 4, "equality");
    c.render(
        "Equal",
        Renderer::function(|n| form(n, "equal?", vec![n.child("left"), n.child("right")])),
    );
    c
}

/// The element type of the list type of the node.
fn element(c: &mut xsmith::ChildTypes) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("a cons has a list type, not {other:?}"),
    }
}
