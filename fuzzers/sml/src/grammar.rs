//! The fuzzer's own productions (constants, `val _ = e`, `ref` cells,
//! tuples, `case`, list operations; polymorphic functions are in
//! [`crate::poly`]) and what it changes in the canned ones: SML evaluates
//! everything left to right, only `ref` variables are assigned, records
//! are immutable and always complete, lists may be empty (so the canned
//! `ListGet`, which has no default, is off), and the integer, string and
//! array operators are calls of the header's safe wrappers.

use xsmith::types::Type;
use xsmith::{component, ChildTypes, Component, ListLength, ProductionDecl, Renderer, TypeInfo, Weight};
use xsmith_canned::{element_of_node, fresh_base, Canned};

use crate::syntax::{call, case, int_text, parameters, type_text};

fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}

fn list(s: &mut xsmith::types::TypeStore) -> Type {
    let t = s.fresh();
    s.generic("list", vec![t])
}

fn any_list(c: &mut ChildTypes) -> Type {
    list(c.store())
}

/// The element type of the generic type of the earlier child `field`.
fn element_of(c: &mut ChildTypes, field: &str) -> Type {
    let ty = c.earlier(field).expect("typed in order");
    match c.store().resolve(&ty) {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("a generic type, not {other:?}"),
    }
}

/// Parameter `index` of the function type of the earlier child `field`,
/// which has `arity` parameters.
fn parameter_of(c: &mut ChildTypes, field: &str, arity: usize, index: usize) -> Type {
    let ty = c.earlier(field).expect("typed in order");
    let (params, _) = c.store().function_parts(&ty).expect("a function");
    let param = c.product_item(&params, arity, index);
    c.generic("list", vec![param])
}

component! {
    /// The fixed productions of the fuzzer's own.
    fn own;
    uses { Expr, Stmt, Let, LetDef, Param, PrintStmt, ListGet }
    grammar {
        // A constant of each base type, in no feature group: a base type
        // always has a value. (Otherwise, with its literals switched off,
        // a projection such as `#1 (x, ...)`, whose own type is any, would
        // be the only way the engine sees to make one, and a hole of it
        // would nest projections without end.)
        IntConst: Expr {}
        BoolConst: Expr {}
        StrConst: Expr {}
        // `val _ = e`, in no feature group, so that a function body always
        // has a declaration it may make.
        Discard: Stmt { value: Expr }
        RefLet: Stmt { init: Expr }
        RefNew: Expr { value: Expr }
        Deref: Expr { cell: Expr }
        RefSet: Stmt { cell: Expr, value: Expr }
        IntCase: Expr { scrutinee: Expr, arms: [IntArm; 1..=3], default: Expr }
        IntArm { value = |r| r.int_in(0, 4), body: Expr }
        BoolCase: Expr { scrutinee: Expr, on_true: Expr, on_false: Expr, style = |r| r.int_in(0, 3) }
        ListCase: Expr { scrutinee: Expr, on_nil: Expr, on_cons: ConsArm, style = |r| r.int_in(0, 3) }
        // The arm binds the head and the tail; its type is a function's
        // from them to the case's type, so its binders are typed as
        // parameters.
        ConsArm { binders: [PatVar; 2..=2], body: Expr }
        PatVar {}
        EmptyList: Expr {}
        Cons: Expr { head: Expr, tail: Expr }
        Append: Expr { left: Expr, right: Expr }
        ListLength: Expr { list: Expr }
        ListRev: Expr { list: Expr }
        ListNth: Expr { list: Expr, index: Expr, default: Expr }
        ListMap: Expr { function: Expr, list: Expr }
        ListFoldl: Expr { function: Expr, init: Expr, list: Expr }
    }
    type_info {
        IntConst => (|s| s.base("int")),
        BoolConst => (|s| s.base("bool")),
        StrConst => (|s| s.base("string")),
        Discard => (|s| s.base("stmt")) { value: |c| fresh_base(c.store()) },
        RefLet => (fresh_base) { init: same },
        RefNew => (|s| { let t = s.fresh(); s.generic("ref", vec![t]) }) { value: element_of_node },
        Deref => (|s| s.fresh()) { cell: |c| c.generic("ref", vec![c.node_type().clone()]) },
        RefSet => (|s| s.base("stmt")) {
            cell: |c| { let t = fresh_base(c.store()); c.generic("ref", vec![t]) },
            value: |c| element_of(c, "cell"),
        },
        IntCase => (|s| s.fresh()) { scrutinee: |c| c.base("int"), arms: same, default: same },
        IntArm => (|s| s.fresh()) { body: same },
        BoolCase => (|s| s.fresh()) { scrutinee: |c| c.base("bool"), on_true: same, on_false: same },
        ListCase => (|s| s.fresh()) {
            scrutinee: any_list,
            on_nil: same,
            on_cons: |c| {
                let (list, element) = (c.earlier("scrutinee").expect("typed in order"), element_of(c, "scrutinee"));
                Type::function(vec![element, list], c.node_type().clone())
            },
        },
        ConsArm => (|s| s.fresh_function()) { binders: |c| c.parameter_type(), body: |c| c.function_parts().1 },
        PatVar => (|s| s.fresh()),
        EmptyList => (list),
        Cons => (list) { head: element_of_node, tail: same },
        Append => (list) { left: same, right: same },
        ListLength => (|s| s.base("int")) { list: any_list },
        ListRev => (list) { list: same },
        ListNth => (|s| s.fresh()) {
            list: |c| c.generic("list", vec![c.node_type().clone()]),
            index: |c| c.base("int"),
            default: same,
        },
        ListMap => (list) {
            function: |c| { let (from, to) = (c.fresh(), element_of_node(c)); Type::function(vec![from], to) },
            list: |c| parameter_of(c, "function", 1, 0),
        },
        ListFoldl => (|s| s.fresh()) {
            function: |c| { let acc = c.node_type().clone(); Type::function(vec![c.fresh(), acc.clone()], acc) },
            init: same,
            list: |c| parameter_of(c, "function", 2, 0),
        },
    }
    binder_info {
        RefLet => definition(name),
        PatVar => parameter(name, read_only),
        // Only `RefLet`s are assigned; everything else binds for good.
        Let => definition(name, read_only),
        LetDef => definition(name, read_only),
        Param => parameter(name, read_only),
    }
    scope { ConsArm => sequential }
    depth_increase { IntArm => 0, ConsArm => 0 }
    mutable_container_access { Deref => read(cell), RefSet => write(cell) }
    may_be_generated { ListGet => false }
    choice_filters { PrintStmt => |hole| !hole.ancestors().any(|a| a.production().starts_with("PolyDef_")) }
    choice_weight {
        IntConst => 1, BoolConst => 1, StrConst => 1, Discard => 2, RefLet => 2, RefNew => 3, Deref => 4, RefSet => 3,
        IntCase => 4, BoolCase => 3, ListCase => 5, EmptyList => 2, Cons => 4, Append => 3, ListLength => 3,
        ListRev => 3, ListNth => 5, ListMap => 4, ListFoldl => 4,
    }
    feature {
        RefLet => "assignment", RefNew => "refs", Deref => "refs", RefSet => "refs", IntCase => "cases",
        BoolCase => "cases", ListCase => "cases", EmptyList => "lists", Cons => "lists", Append => "lists",
        ListLength => "lists", ListRev => "lists", ListNth => "lists", ListMap => "higher-order",
        ListFoldl => "higher-order",
    }
    render {
        IntConst => ["0"],
        BoolConst => ["true"],
        StrConst => ["\"\""],
        Discard => ["val _ = ", value],
        RefLet => |n| n.text(format!("val {} : {} ref = ref ", n.data("name"), type_text(n))).append(n.child("init")),
        RefSet => ["val () = ", cell, " := ", value],
        IntArm => [body],
        ConsArm => [body],
        PatVar => [name],
        EmptyList => |n| n.text(format!("([] : {})", type_text(n))),
        Cons => ["(", head, " :: ", tail, ")"],
        RefNew => ["(ref ", value, ")"],
        Deref => ["(! ", cell, ")"],
        Append => |n| call(n, "xs_append", &["left", "right"]),
        ListLength => ["(List.length ", list, ")"],
        ListRev => ["(List.rev ", list, ")"],
        ListNth => |n| call(n, "xs_nth", &["list", "index", "default"]),
        ListMap => ["(List.map ", function, " ", list, ")"],
        ListFoldl => ["(List.foldl ", function, " ", init, " ", list, ")"],
        // `case s of 0 => a | 7 => b | _ => d`: the constant of arm `i`
        // lies in `5i-2..=5i+2`, so no two arms share one.
        IntCase => |n| {
            let arms = n.at(n.node()).children("arms").into_iter().enumerate().map(|(i, arm)| {
                let v = arm.data("value").and_then(|v| v.as_int()).expect("a constant");
                n.text(format!("{} => ", int_text(5 * i as i64 + v - 2))).append(n.render(arm.id()))
            });
            case(n, arms.chain([n.text("_ => ").append(n.child("default"))]).collect())
        },
        BoolCase => |n| two_rules(n, [("true", "on_true", true), ("false", "on_false", true)]),
        ListCase => |n| {
            let arm = n.at(n.node()).child("on_cons").expect("a cons arm");
            let binders = arm.children("binders");
            let names: Vec<String> = binders.iter().map(|b| b.data("name").expect("named").to_string()).collect();
            let cons = format!("{} :: {}", names[0], names[1]);
            two_rules(n, [("[]", "on_nil", true), (&cons, "on_cons", false)])
        },
    }
}

/// `case` with two rules, in one of four spellings: bit 0 of the `style`
/// data swaps them, bit 1 writes the second as `_` if it may be.
fn two_rules<'a>(n: &xsmith::RenderNode<'a>, mut rules: [(&str, &str, bool); 2]) -> xsmith::Doc<'a> {
    let style = n.data("style").as_int().expect("a style");
    if style & 1 == 1 {
        rules.swap(0, 1);
    }
    let rules = rules.iter().enumerate().map(|(i, (pattern, field, wild))| {
        let pattern = if i == 1 && *wild && style & 2 == 2 {
            "_"
        } else {
            pattern
        };
        n.text(format!("{pattern} => ")).append(n.child(field))
    });
    case(n, rules.collect())
}

/// The fuzzer's component: its productions, and its changes to the canned
/// ones.
pub(crate) fn sml(canned: &Canned) -> Component {
    let mut c = own();
    c.default_strict_child_order(true);
    for name in &canned.productions {
        c.strict_child_order(name, true);
    }
    // Poly/ML warns of a function value discarded in a sequence.
    c.type_info(
        "ExprSeq",
        TypeInfo::new(|s| s.fresh())
            .child("effects", |c| fresh_base(c.store()))
            .child("value", same),
    );
    // Records are immutable, and always the literal's, with every field.
    for field in canned.options.record_fields.iter().copied() {
        let (get, set) = (format!("FieldGet_{field}"), format!("FieldSet_{field}"));
        c.may_be_generated(&set, false)
            .render(
                &set,
                Renderer::function(|n| unreachable!("records are immutable (node {})", n.node().index())),
            )
            .render(
                &get,
                Renderer::function(move |n| n.text(format!("(#{field} ")).append(n.child("record")).append(")")),
            );
        let fields = canned.options.record_fields.clone();
        c.type_info(
            &get,
            TypeInfo::new(|s| s.fresh()).child("record", move |c| {
                let t = c.node_type().clone();
                Type::record(
                    fields
                        .iter()
                        .map(|f| (*f, if *f == field { t.clone() } else { c.fresh() }))
                        .collect(),
                )
            }),
        );
    }
    // Pairs and triples, and their projections `#i`.
    for arity in 2..=3usize {
        let name = format!("Tuple{arity}");
        let decl =
            ProductionDecl::new(&name)
                .supertype("Expr")
                .list("items", "Expr", ListLength::uniform(arity, arity));
        c.production(decl)
            .type_info(
                &name,
                TypeInfo::new(move |s| Type::product((0..arity).map(|_| s.fresh()).collect())).child("items", |c| {
                    let (t, len, index) = (c.node_type().clone(), c.len(), c.index());
                    c.product_item(&t, len, index)
                }),
            )
            .choice_weight(&name, Weight::Constant(4))
            .feature(&name, "tuples")
            .render(&name, Renderer::function(|n| parameters(n, n.list("items"))));
        for index in 0..arity {
            let get = format!("TupleGet_{arity}_{index}");
            c.production(ProductionDecl::new(&get).supertype("Expr").child("tuple", "Expr"))
                .type_info(
                    &get,
                    TypeInfo::new(|s| s.fresh()).child("tuple", move |c| {
                        let items = (0..arity).map(|i| if i == index { c.node_type().clone() } else { c.fresh() });
                        Type::product(items.collect())
                    }),
                )
                .choice_weight(&get, Weight::Constant(2))
                .feature(&get, "tuples")
                .render(
                    &get,
                    Renderer::function(move |n| {
                        n.text(format!("(#{} ", index + 1)).append(n.child("tuple")).append(")")
                    }),
                );
        }
    }
    c
}
