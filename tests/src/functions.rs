//! A typed test fuzzer for a language of named functions and no function
//! values, rendered as Python: functions are defined only at the top level
//! (a choice filter says so), called by name with as many arguments as
//! they have parameters, and never passed, stored or returned. A call
//! whose function nothing in sight has gets one lifted, past the blocks
//! in between (whose definitions, variables, cannot have a function's
//! type, and where the function's filter refuses to go), to the top level;
//! a variable that a function's result expression needs is lifted into the
//! end of the function's body.
//!
//! Every value is checked at run time against the type the engine gave it
//! (`want(int, ...)`), so running a program in `python3` checks names,
//! arities and types independently of the engine.
//!
//! ```
//! let spec = xsmith_tests::functions::spec().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let program = generator.generate(&mut xsmith::Random::from_seed(3)).unwrap();
//! let text = xsmith::render::render_tree(&spec, &program, 100);
//! assert!(text.starts_with("def want("));
//! ```

use xsmith::types::{Type, TypeStore, TypeSystem};
use xsmith::{component, ChildTypes, Doc, Hole, RenderNode, Spec, SpecError};

/// The type system: `int`, `bool` and functions (of functions' names only).
///
/// ```
/// assert!(xsmith_tests::functions::type_system().base_named("bool").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    system.base("int");
    system.base("bool");
    system.allow_functions(true);
    system
}

/// A value: an `int` or a `bool`, never a function.
fn value(s: &mut TypeStore) -> Type {
    let candidates = [s.base("int"), s.base("bool")];
    s.fresh_one_of(&candidates)
}

fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}

fn any_value(c: &mut ChildTypes) -> Type {
    value(c.store())
}

fn function_type(s: &mut TypeStore) -> Type {
    let (params, result) = (s.fresh_product(), value(s));
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

/// As many parameters as the function's type has (the drawn number while
/// it is open).
fn param_count(s: &mut TypeStore, t: &Type, drawn: usize) -> usize {
    let (params, _) = s.function_parts(t).expect("a function definition has a function type");
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

/// Functions are defined at the top level only, lifted or not.
fn top_level(hole: &Hole) -> bool {
    hole.parent_production().is_some_and(|p| p.name() == "Program")
}

/// The Python type a value of the node's type has.
fn python_type(n: &RenderNode) -> String {
    let ty = n.node_type().expect("a typed program");
    n.type_text(&ty)
}

/// `want(t, doc)`: the value of `doc`, checked to be of Python type `t`.
fn checked<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.text(format!("want({}, ", python_type(n))).append(doc).append(")")
}

fn statements<'a>(n: &RenderNode<'a>, field: &str) -> Doc<'a> {
    n.join(n.list(field), n.hardline())
}

fn indented<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.hardline().append(doc).nest(4)
}

fn program<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    n.text("def want(t, x):")
        .append(indented(n, n.text("assert type(x) is t, (t, x)")))
        .append(indented(n, n.text("return x")))
        .append(n.hardline())
        .append(statements(n, "stmts"))
        .append(n.hardline())
}

fn fun_def<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let params = n.join(n.list("params"), n.text(", "));
    let mut body = n.nil();
    let (grammar, program) = (n.grammar(), n.program());
    for param in program.children(n.node()) {
        if grammar.production(program.node(param).production).name() == "Param" {
            let ty = n.type_text(&program.node_type(param).expect("a typed program"));
            let check = n.text(format!("want({ty}, ")).append(n.render(param)).append(")");
            body = body.append(indented(n, check));
        }
    }
    for stmt in n.list("body") {
        body = body.append(indented(n, stmt));
    }
    let Some(Type::Function(f)) = n.node_type() else {
        panic!("a function definition has a function type")
    };
    let result = format!("return want({}, ", n.type_text(&f.1));
    n.text(format!("def {}(", n.data("name")))
        .append(params)
        .append("):")
        .append(body)
        .append(indented(n, n.text(result).append(n.child("result")).append(")")))
}

component! {
    /// The named-functions test language.
    pub fn functions;
    grammar {
        Program { stmts: [Stmt; 1..=4] }
        Block { stmts: [Stmt; 1..=3] }
        abstract Stmt {}
        FunDef: Stmt { name = |_| "", params: [Param; 0..=3], body: [Stmt; 0..=2], result: Expr }
        Let: Stmt { name = |_| "", init: Expr }
        Print: Stmt { value: Expr }
        IfStmt: Stmt { cond: Expr, then: Block, otherwise: Block }
        Param { name = |_| "" }
        abstract Expr {}
        IntLit: Expr { value = |r| r.int_in(0, 9) }
        BoolLit: Expr { value = |r| r.chance(1, 2) }
        Ref: Expr { name = |_| "" }
        Add: Expr { left: Expr, right: Expr }
        Less: Expr { left: Expr, right: Expr }
        Call: Expr { callee: FunRef, args: [Expr; 0..=3] }
        FunRef { name = |_| "" }
    }
    type_info {
        Program => (|s| s.fresh()) { stmts: |c| c.fresh() },
        Block => (|s| s.fresh()) { stmts: |c| c.fresh() },
        FunDef => (function_type) { params: param_type, body: |c| c.fresh(), result: result_type },
        Let => (value) { init: same },
        Print => (|s| s.fresh()) { value: any_value },
        IfStmt => (|s| s.fresh()) { cond: |c| c.base("bool"), then: |c| c.fresh(), otherwise: |c| c.fresh() },
        Param => (value),
        IntLit => (|s| s.base("int")),
        BoolLit => (|s| s.base("bool")),
        Ref => (value),
        Add => (|s| s.base("int")) { left: |c| c.base("int"), right: |c| c.base("int") },
        Less => (|s| s.base("bool")) { left: |c| c.base("int"), right: |c| c.base("int") },
        Call => (value) {
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
        FunRef => (function_type),
    }
    list_length { FunDef => { params: param_count } }
    scope { Program => sequential, Block => sequential, FunDef => sequential }
    lift_predicate { Program => stmts, Block => stmts, FunDef => body }
    binder_info { FunDef => definition(name, read_only), Let => definition(name, read_only), Param => parameter(name, read_only) }
    reference_info { Ref => read(name), FunRef => read(name) }
    strict_child_order { Program => true, Block => true, FunDef => true, Let => true, IfStmt => true, Add => true, Less => true, Call => true }
    io { Print => true }
    choice_filters { FunDef => top_level, IfStmt => shallow, Add => shallow, Less => shallow, Call => shallow }
    render {
        Program => program,
        Block => |n| statements(n, "stmts"),
        FunDef => fun_def,
        Let => |n| n.display(n.data("name")).append(" = ").append(checked(n, n.child("init"))),
        Print => |n| n.text("print(").append(n.child("value")).append(")"),
        IfStmt => |n| n.text("if ").append(n.child("cond")).append(":").append(indented(n, n.child("then")))
            .append(n.hardline()).append("else:").append(indented(n, n.child("otherwise"))),
        Param => |n| n.display(n.data("name")),
        IntLit => |n| n.display(n.data("value")),
        BoolLit => |n| n.text(if n.data("value") == &xsmith::Value::Bool(true) { "True" } else { "False" }),
        Ref => |n| checked(n, n.display(n.data("name"))),
        Add => |n| n.text("(").append(n.child("left")).append(" + ").append(n.child("right")).append(")"),
        Less => |n| n.text("(").append(n.child("left")).append(" < ").append(n.child("right")).append(")"),
        Call => |n| checked(n, n.child("callee").append("(").append(n.join(n.list("args"), n.text(", "))).append(")")),
        FunRef => |n| n.display(n.data("name")),
    }
}

/// The named-functions spec, with its type system.
///
/// ```
/// assert!(xsmith_tests::functions::spec().is_ok());
/// ```
pub fn spec() -> Result<Spec, SpecError> {
    Spec::assemble_typed("Program", type_system(), [functions()])
}
