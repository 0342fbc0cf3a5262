//! A typed test fuzzer: ints and numbers (a subtype pair), booleans,
//! strings, functions (lambdas and applications), invariant arrays and
//! structural records. Its programs are S-expressions in which every type the
//! checker cannot work out bottom-up is written in brackets, so that a type
//! checker that shares nothing with the engine can check them.

use xsmith::types::{Type, TypeSystem, Variance};
use xsmith::{component, ChildTypes, Hole, RenderNode, Spec, SpecError};

/// The type system: `int <: number`, `bool`, `string`, invariant `array<T>`,
/// functions and records with fields `a`, `b`, `c`.
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    let number = system.base("number");
    system.base_under("int", &number);
    system.base("bool");
    system.base("string");
    system.generic("array", &[Variance::Invariant]);
    system.allow_functions(true);
    system.record_field_names(&["a", "b", "c"]);
    system
}

fn array_of(store: &xsmith::types::TypeStore, element: Type) -> Type {
    let array = store.system().generic_named("array").expect("declared above");
    Type::generic(array, vec![element])
}

/// The type of field `name` of the node's record type.
fn field_type(c: &mut ChildTypes, name: &str) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Record(fields) => fields
            .iter()
            .find(|(n, _)| &**n == name)
            .expect("declared field")
            .1
            .clone(),
        other => panic!("a record literal's type is a record, not {other:?}"),
    }
}

/// A subtype of the node's type (operands, branches).
fn below_node(c: &mut ChildTypes) -> Type {
    let t = c.node_type().clone();
    c.subtype_of(&t)
}

fn below_number(c: &mut ChildTypes) -> Type {
    let number = c.base("number");
    c.subtype_of(&number)
}

/// A subtype of the type of record field `name` (the value stored in it).
fn below_field(c: &mut ChildTypes, name: &str) -> Type {
    let t = field_type(c, name);
    c.subtype_of(&t)
}

fn element_type(c: &mut ChildTypes) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("an array literal's type is an array, not {other:?}"),
    }
}

/// Recursive productions only above the depth bound (types may rule out
/// the leaves, so the depth bound alone does not end recursion).
fn shallow(hole: &Hole) -> bool {
    hole.depth() < hole.max_depth()
}

fn ty(node: &RenderNode) -> String {
    let ty = node.node_type().expect("a typed tree");
    format!("[{}]", node.type_text(&ty))
}

fn function_result(node: &RenderNode) -> String {
    match node.node_type() {
        Some(Type::Function(f)) => format!("[{}]", node.type_text(&f.1)),
        other => panic!("a lambda's type is a function, not {other:?}"),
    }
}

component! {
    /// The typed test language.
    pub fn typed;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        IntLit: Expr { value = |r| r.int_in(-50, 50) }
        NumLit: Expr { value = |r| r.int_in(-50, 50) }
        BoolLit: Expr { value = |r| r.chance(1, 2) }
        StrLit: Expr { value = |r| r.int_in(0, 9) }
        Add: Expr { left: Expr, right: Expr }
        Less: Expr { left: Expr, right: Expr }
        Concat: Expr { left: Expr, right: Expr }
        If: Expr { cond: Expr, then: Expr, otherwise: Expr }
        Lambda: Expr { params: [Param; 0..=2], body: Expr }
        Param {}
        Apply: Expr { callee: Expr, args: [Expr; 0..=2] }
        ArrayLit: Expr { items: [Expr; 0..=3] }
        ArrayGet: Expr { array: Expr, index: Expr }
        RecordAB: Expr { a: Expr, b: Expr }
        RecordBC: Expr { b: Expr, c: Expr }
        GetA: Expr { record: Expr }
        GetB: Expr { record: Expr }
        GetC: Expr { record: Expr }
    }
    type_info {
        Program => (|s| s.fresh()) { body: |c| c.node_type().clone() },
        IntLit => (|s| s.base("int")),
        NumLit => (|s| s.base("number")),
        BoolLit => (|s| s.base("bool")),
        StrLit => (|s| s.base("string")),
        Add => (|s| { let (i, n) = (s.base("int"), s.base("number")); s.fresh_one_of(&[i, n]) })
            { left: below_node, right: below_node },
        Less => (|s| s.base("bool")) { left: below_number, right: below_number },
        Concat => (|s| s.base("string")) { left: |c| c.base("string"), right: |c| c.base("string") },
        If => (|s| s.fresh()) { cond: |c| c.base("bool"), then: below_node, otherwise: below_node },
        Lambda => (|s| { let (p, r) = (s.fresh_product(), s.fresh()); Type::function_of(p, r) }) {
            params: |c| { let (p, _) = c.function_parts(); let (n, i) = (c.len(), c.index()); c.product_item(&p, n, i) },
            body: |c| { let result = c.function_parts().1; c.subtype_of(&result) },
        },
        Param => (|s| s.fresh()),
        Apply => (|s| s.fresh()) {
            callee: |c| {
                let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
                let result = { let t = c.node_type().clone(); c.subtype_of(&t) };
                Type::function(params, result)
            },
            args: |c| {
                let callee = c.earlier("callee").expect("the callee is typed first");
                let (params, _) = c.store().function_parts(&callee).expect("the callee is a function");
                let (n, i) = (c.len(), c.index());
                let param = c.product_item(&params, n, i);
                c.subtype_of(&param)
            },
        },
        ArrayLit => (|s| { let e = s.fresh(); array_of(s, e) }) { items: |c| { let e = element_type(c); c.subtype_of(&e) } },
        ArrayGet => (|s| s.fresh()) {
            array: |c| { let t = c.node_type().clone(); array_of(c.store(), t) },
            index: |c| c.base("int"),
        },
        RecordAB => (|s| Type::record(vec![("a", s.fresh()), ("b", s.fresh())]))
            { a: |c| below_field(c, "a"), b: |c| below_field(c, "b") },
        RecordBC => (|s| Type::record(vec![("b", s.fresh()), ("c", s.fresh())]))
            { b: |c| below_field(c, "b"), c: |c| below_field(c, "c") },
        GetA => (|s| s.fresh()) { record: |c| { let t = c.node_type().clone(); c.store().fresh_record(vec![("a", t)]) } },
        GetB => (|s| s.fresh()) { record: |c| { let t = c.node_type().clone(); c.store().fresh_record(vec![("b", t)]) } },
        GetC => (|s| s.fresh()) { record: |c| { let t = c.node_type().clone(); c.store().fresh_record(vec![("c", t)]) } },
    }
    list_length {
        Lambda => { params: |s, t, drawn| {
            let (params, _) = s.function_parts(t).expect("a lambda has a function type");
            match s.resolve(&params) {
                Type::Product(items) => items.len(),
                _ => s.product_items(&params, drawn).expect("an open product takes any arity").len(),
            }
        } },
    }
    choice_filters {
        If => shallow, Apply => shallow, ArrayGet => shallow, GetA => shallow, GetB => shallow, GetC => shallow,
        Add => shallow, Less => shallow, Concat => shallow,
    }
    render {
        Program => |n| n.text(format!("(program {} ", ty(n))).append(n.child("body")).append(")"),
        IntLit => [value],
        NumLit => [value, ".5"],
        BoolLit => [value],
        StrLit => ["\"s", value, "\""],
        Add => |n| n.text(format!("(+ {} ", ty(n))).append(n.child("left")).append(" ").append(n.child("right")).append(")"),
        Less => ["(< ", left, " ", right, ")"],
        Concat => ["(++ ", left, " ", right, ")"],
        If => |n| n.text(format!("(if {} ", ty(n)))
            .append(n.child("cond")).append(" ").append(n.child("then")).append(" ").append(n.child("otherwise")).append(")"),
        Lambda => |n| n.text("(lambda (").append(n.join(n.list("params"), n.text(" ")))
            .append(format!(") {} ", function_result(n))).append(n.child("body")).append(")"),
        Param => |n| n.text(format!("(p {})", ty(n))),
        Apply => |n| {
            let args = n.list("args").into_iter().map(|a| n.text(" ").append(a));
            n.text("(call ").append(n.child("callee")).append(n.concat(args)).append(")")
        },
        ArrayLit => |n| {
            let element = match n.node_type() {
                Some(Type::Generic(_, args)) => n.type_text(&args[0]),
                other => panic!("an array literal's type is an array, not {other:?}"),
            };
            let items = n.list("items").into_iter().map(|a| n.text(" ").append(a));
            n.text(format!("(array [{element}]")).append(n.concat(items)).append(")")
        },
        ArrayGet => ["(get ", array, " ", index, ")"],
        RecordAB => |n| record(n, ["a", "b"]),
        RecordBC => |n| record(n, ["b", "c"]),
        GetA => ["(. ", record, " a)"],
        GetB => ["(. ", record, " b)"],
        GetC => ["(. ", record, " c)"],
    }
}

/// `{a [A] = e, b [B] = e}` with the record type's field types.
fn record<'a>(n: &RenderNode<'a>, names: [&str; 2]) -> xsmith::Doc<'a> {
    let Some(Type::Record(fields)) = n.node_type() else {
        panic!("a record literal's type is a record");
    };
    let mut doc = n.text("{");
    for (i, name) in names.iter().enumerate() {
        let field_type = &fields.iter().find(|(f, _)| &**f == *name).expect("declared field").1;
        let separator = if i == 0 { "" } else { ", " };
        doc = doc
            .append(format!("{separator}{name} [{}] = ", n.type_text(field_type)))
            .append(n.child(name));
    }
    doc.append("}")
}

/// The typed test spec.
pub fn spec() -> Result<Spec, SpecError> {
    Spec::assemble_typed("Program", type_system(), [typed()])
}
