//! A typed test fuzzer with names and effects: blocks of definitions
//! (writable `let`s and read-only `const`s), assignments, prints, lambdas
//! with parameters (with an expression body, or a body of statements and a
//! result), calls of several arguments, and mutable arrays. Operands, call
//! arguments and array operations run in an unspecified order, so their
//! effects must not conflict.
//!
//! Its programs are S-expressions in which every binder's type is written in
//! brackets, so that a checker that shares nothing with the engine can check
//! scopes, types and effects from the text alone.
//!
//! ```
//! let spec = xsmith_tests::names::spec().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let tree = generator.generate(&mut xsmith::Random::from_seed(7)).unwrap();
//! let text = xsmith::render::render_tree(&spec, &tree, 100);
//! assert!(text.starts_with("(program (block"));
//! ```

use xsmith::types::{Type, TypeStore, TypeSystem, Variance};
use xsmith::{component, ChildTypes, Hole, RenderNode, Spec, SpecError};

/// The type system: `int`, `bool`, invariant `array<T>` and functions.
///
/// ```
/// let system = xsmith_tests::names::type_system();
/// assert!(system.generic_named("array").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    system.base("int");
    system.base("bool");
    system.generic("array", &[Variance::Invariant]);
    system.allow_functions(true);
    system
}

fn array_of(store: &TypeStore, element: Type) -> Type {
    let array = store.system().generic_named("array").expect("declared above");
    Type::generic(array, vec![element])
}

fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}

fn fresh(c: &mut ChildTypes) -> Type {
    c.fresh()
}

fn element_type(c: &mut ChildTypes) -> Type {
    let node_type = c.node_type().clone();
    match c.store().resolve(&node_type) {
        Type::Generic(_, args) => args[0].clone(),
        other => panic!("an array literal's type is an array, not {other:?}"),
    }
}

fn function_type(s: &mut TypeStore) -> Type {
    let (params, result) = (s.fresh_product(), s.fresh());
    Type::function_of(params, result)
}

fn param_type(c: &mut ChildTypes) -> Type {
    let (params, _) = c.function_parts();
    let (n, i) = (c.len(), c.index());
    c.product_item(&params, n, i)
}

fn result_type(c: &mut ChildTypes) -> Type {
    c.function_parts().1
}

/// As many parameters as the lambda's function type has (any number, up to
/// the drawn one, while it is open).
fn param_count(s: &mut TypeStore, t: &Type, drawn: usize) -> usize {
    let (params, _) = s.function_parts(t).expect("a lambda has a function type");
    match s.resolve(&params) {
        Type::Product(items) => items.len(),
        _ => s
            .product_items(&params, drawn)
            .expect("an open product takes any arity")
            .len(),
    }
}

/// Recursive productions only above the depth bound.
fn shallow(hole: &Hole) -> bool {
    hole.depth() < hole.max_depth()
}

/// Whether `a` and `b` may be the same type: equal where both are known
/// (an open variable may be anything).
fn may_fit(store: &TypeStore, a: &Type, b: &Type) -> bool {
    match (store.resolve(a), store.resolve(b)) {
        (Type::Var(_), _) | (_, Type::Var(_)) => true,
        (Type::Generic(f, xs), Type::Generic(g, ys)) => {
            f == g && xs.iter().zip(ys.iter()).all(|(x, y)| may_fit(store, x, y))
        }
        (Type::Product(xs), Type::Product(ys)) => {
            xs.len() == ys.len() && xs.iter().zip(ys.iter()).all(|(x, y)| may_fit(store, x, y))
        }
        (Type::Function(f), Type::Function(g)) => may_fit(store, &f.0, &g.0) && may_fit(store, &f.1, &g.1),
        (x, y) => x == y,
    }
}

/// References are common where a variable of their type may be in sight,
/// and rare where none is: each would lift a new definition whose
/// initialiser, a new expression, may lift again.
fn reference_weight(hole: &Hole, writes: bool) -> u32 {
    let (tree, required) = (hole.program(), hole.required_type());
    let (Some(store), Some(required), Some(node)) = (tree.type_store(), required, hole.node()) else {
        return 1;
    };
    let visible = xsmith::names::visible_bindings(tree, node);
    let fits = |b: &xsmith::names::Binding| {
        (b.writable || !writes) && b.ty.as_ref().is_some_and(|t| may_fit(store, t, &required))
    };
    match (visible.iter().any(fits), writes) {
        (true, false) => 30,
        (true, true) => 20,
        (false, _) => 2,
    }
}

/// Productions whose children have a larger type than their own (a call's
/// callee, an indexed array) only where that type is small: lifted
/// definitions start over at a shallow depth, so the depth bound alone does
/// not bound the types.
fn shallow_small(hole: &Hole) -> bool {
    let small = match (hole.program().type_store(), hole.required_type()) {
        (Some(store), Some(ty)) => store.zonk(&ty).depth() <= 2,
        _ => true,
    };
    small && shallow(hole)
}

/// The node's type in brackets.
fn ty(node: &RenderNode) -> String {
    let ty = node.node_type().expect("a typed tree");
    format!("[{}]", node.type_text(&ty))
}

/// `(lambda ((v1 [int]) ...) [result] body)`, or `fn` for a block body.
fn lambda<'a>(n: &RenderNode<'a>, head: &str) -> xsmith::Doc<'a> {
    let Some(Type::Function(f)) = n.node_type() else {
        panic!("a lambda's type is a function");
    };
    let result = format!(") [{}] ", n.type_text(&f.1));
    let params = n.join(n.list("params"), n.text(" "));
    n.text(format!("({head} ("))
        .append(params)
        .append(result)
        .append(n.child("body"))
        .append(")")
}

/// `(head name [type] child)`: a definition.
fn definition<'a>(n: &RenderNode<'a>, head: &str) -> xsmith::Doc<'a> {
    let name = n.display(n.data("name"));
    n.text(format!("({head} "))
        .append(name)
        .append(format!(" {} ", ty(n)))
        .append(n.child("init"))
        .append(")")
}

/// `head`, then the elements of `list`, each after a space.
fn spaced<'a>(n: &RenderNode<'a>, head: xsmith::Doc<'a>, list: &str) -> xsmith::Doc<'a> {
    let items = n.list(list).into_iter().map(|a| n.text(" ").append(a));
    head.append(n.concat(items))
}

component! {
    /// The names-and-effects test language.
    pub fn names;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=4] }
        abstract Stmt {}
        Let: Stmt { name = |_| "", init: Expr }
        Const: Stmt { name = |_| "", init: Expr }
        Assign: Stmt { name = |_| "", value: Expr }
        Print: Stmt { value: Expr }
        Nested: Stmt { block: Block }
        abstract Expr {}
        IntLit: Expr { value = |r| r.int_in(0, 9) }
        BoolLit: Expr { value = |r| r.chance(1, 2) }
        Ref: Expr { name = |_| "" }
        Add: Expr { left: Expr, right: Expr }
        Less: Expr { left: Expr, right: Expr }
        If: Expr { cond: Expr, then: Expr, otherwise: Expr }
        Lambda: Expr { params: [Param; 0..=3], body: Expr }
        LambdaBlock: Expr { params: [Param; 0..=3], body: Body }
        Body { stmts: [Stmt; 0..=3], result: Expr }
        Param { name = |_| "" }
        Call: Expr { callee: Expr, args: [Expr; 0..=3] }
        SetExpr: Expr { name = |_| "", value: Expr }
        PrintExpr: Expr { value: Expr }
        ArrayLit: Expr { items: [Expr; 0..=3] }
        ArrayGet: Expr { array: Expr, index: Expr }
        ArraySet: Expr { array: Expr, index: Expr, value: Expr }
    }
    type_info {
        Program => (|s| s.fresh()) { body: fresh },
        Block => (|s| s.fresh()) { stmts: fresh },
        Let => (|s| s.fresh()) { init: same },
        Const => (|s| s.fresh()) { init: same },
        Assign => (|s| s.fresh()) { value: same },
        Print => (|s| s.fresh()) { value: fresh },
        Nested => (|s| s.fresh()) { block: fresh },
        IntLit => (|s| s.base("int")),
        BoolLit => (|s| s.base("bool")),
        Ref => (|s| s.fresh()),
        Add => (|s| s.base("int")) { left: |c| c.base("int"), right: |c| c.base("int") },
        Less => (|s| s.base("bool")) { left: |c| c.base("int"), right: |c| c.base("int") },
        If => (|s| s.fresh()) { cond: |c| c.base("bool"), then: same, otherwise: same },
        Lambda => (function_type) { params: param_type, body: result_type },
        LambdaBlock => (function_type) { params: param_type, body: result_type },
        Body => (|s| s.fresh()) { stmts: fresh, result: same },
        Param => (|s| s.fresh()),
        Call => (|s| s.fresh()) {
            callee: |c| {
                let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
                Type::function(params, c.node_type().clone())
            },
            args: |c| {
                let callee = c.earlier("callee").expect("the callee is typed first");
                let (params, _) = c.store().function_parts(&callee).expect("the callee is a function");
                let (n, i) = (c.len(), c.index());
                c.product_item(&params, n, i)
            },
        },
        SetExpr => (|s| s.fresh()) { value: same },
        PrintExpr => (|s| s.fresh()) { value: same },
        ArrayLit => (|s| { let e = s.fresh(); array_of(s, e) }) { items: element_type },
        ArrayGet => (|s| s.fresh()) { array: |c| { let t = c.node_type().clone(); array_of(c.store(), t) }, index: |c| c.base("int") },
        ArraySet => (|s| s.fresh()) {
            array: |c| { let t = c.node_type().clone(); array_of(c.store(), t) },
            index: |c| c.base("int"),
            value: same,
        },
    }
    list_length { Lambda => { params: param_count }, LambdaBlock => { params: param_count } }
    scope { Block => sequential, Body => sequential, Lambda => sequential, LambdaBlock => sequential }
    lift_predicate { Block => stmts, Body => stmts }
    binder_info {
        Let => definition(name),
        Const => definition(name, read_only, value = init),
        Param => parameter(name, read_only),
    }
    reference_info { Ref => read(name), Assign => write(name), SetExpr => write(name) }
    strict_child_order { Program => true, Block => true, Body => true, If => true, Lambda => true, LambdaBlock => true }
    io { Print => true, PrintExpr => true }
    calls { Call => callee }
    function_body { Lambda => body, LambdaBlock => body }
    mutable_container_access { ArrayGet => read(array), ArraySet => write(array) }
    choice_filters {
        Nested => shallow, Add => shallow, Less => shallow, If => shallow, Call => shallow_small, SetExpr => shallow,
        PrintExpr => shallow, ArrayGet => shallow_small, ArraySet => shallow_small, LambdaBlock => shallow,
    }
    choice_weight {
        Ref => |hole| reference_weight(hole, false), Assign => |hole| reference_weight(hole, true), Print => 10, Let => 10, Const => 10, Nested => 3, Call => 15,
        SetExpr => 6, PrintExpr => 4, ArrayGet => 6, ArraySet => 6, ArrayLit => 4, Lambda => 6, LambdaBlock => 6,
    }
    render {
        Program => ["(program ", body, ")"],
        Block => |n| spaced(n, n.text("(block"), "stmts").append(")"),
        Let => |n| definition(n, "let"),
        Const => |n| definition(n, "const"),
        Assign => ["(set ", name, " ", value, ")"],
        Print => ["(print ", value, ")"],
        Nested => [block],
        IntLit => [value],
        BoolLit => [value],
        Ref => [name],
        Add => ["(+ ", left, " ", right, ")"],
        Less => ["(< ", left, " ", right, ")"],
        If => |n| n.text(format!("(if {} ", ty(n)))
            .append(n.child("cond")).append(" ").append(n.child("then")).append(" ").append(n.child("otherwise")).append(")"),
        Lambda => |n| lambda(n, "lambda"),
        LambdaBlock => |n| lambda(n, "fn"),
        Body => |n| spaced(n, n.text("(body"), "stmts").append(" ").append(n.child("result")).append(")"),
        Param => |n| n.text("(").append(n.display(n.data("name"))).append(format!(" {})", ty(n))),
        Call => |n| spaced(n, n.text("(call ").append(n.child("callee")), "args").append(")"),
        SetExpr => ["(sete ", name, " ", value, ")"],
        PrintExpr => ["(printe ", value, ")"],
        ArrayLit => |n| {
            let Some(Type::Generic(_, args)) = n.node_type() else { panic!("an array literal's type is an array") };
            spaced(n, n.text(format!("(array [{}]", n.type_text(&args[0]))), "items").append(")")
        },
        ArrayGet => ["(get ", array, " ", index, ")"],
        ArraySet => ["(aset ", array, " ", index, " ", value, ")"],
    }
}

/// The names-and-effects test spec.
///
/// ```
/// assert!(xsmith_tests::names::spec().is_ok());
/// ```
pub fn spec() -> Result<Spec, SpecError> {
    Spec::assemble_typed("Program", type_system(), [names()])
}
