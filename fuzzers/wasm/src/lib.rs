//! A WebAssembly fuzzer: modules in the text format whose every run ends
//! without a trap and with the same observable result on every correct
//! engine.
//!
//! Each module has globals, a 64 KiB linear memory and a list of functions
//! with parameters and locals. Function `i` may call only functions before it
//! (the module is a sequential scope, so there is no recursion), and a call
//! that needs a function nobody has lifts a new one in. The exported `main`
//! calls the last function with constant arguments; the exported `checksum`
//! folds every global and all of memory into one `i64`. Both run on every
//! engine, so a miscompiled store shows up even when `main`'s value is right.
//!
//! What would trap or be nondeterministic is made safe by construction:
//! division and remainder go through wrappers of the prelude; memory
//! addresses are masked into a window well inside the one page; loops count a
//! hidden local down from a small constant; every float operation that may
//! produce a NaN is followed by a canonicalisation (so no NaN payload an
//! engine may choose is ever observed), float-to-int conversions saturate.
//!
//! ```
//! let spec = (xsmith_wasm::FUZZER.spec)().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let program = xsmith_wasm::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(3)).unwrap();
//! assert!(program.text.starts_with(";; xsmith-wasm 0.2.0 --seed 3\n(module"));
//! let result = xsmith_wasm::engines::run_wasmi(&program.text);
//! assert!(matches!(result, xsmith_wasm::engines::Execution::Output(_)), "{result:?}");
//! ```

use xsmith::types::{Type, TypeStore, TypeSystem, Variance};
use xsmith::{
    component, ChildTypes, Doc, Fuzzer, Helper, Hole, Implementation, NodeId, NodeRef, Random, RenderNode, Spec,
};

use xsmith::fuzzer::SpecFailure;

pub mod engines;

/// Bytes of memory that loads and stores reach: an address is masked with
/// `WINDOW - 1`, then an offset below 32 and an access of at most 8 bytes
/// are added, which stays well inside the 64 KiB page.
pub const WINDOW: i64 = 1024;

/// Functions a module may have: a call is offered only while there are fewer.
pub const MAX_FUNCTIONS: usize = 6;

/// The value types of WebAssembly 1.0 that modules use.
pub const VALUE_TYPES: [&str; 4] = ["i32", "i64", "f32", "f64"];

/// The type system: the four value types, `global<T>` (what a global binder
/// has, so local and global references never mix), and function types. A
/// statement's type is that of the value it moves, or any.
///
/// ```
/// let system = xsmith_wasm::type_system();
/// assert!(system.base_named("f64").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    for name in VALUE_TYPES {
        system.base(name);
    }
    system.generic("global", &[Variance::Invariant]);
    system.allow_functions(true);
    system
}

fn one_of(s: &mut TypeStore, names: &[&str]) -> Type {
    s.fresh_one_of_named(names)
}
fn value(s: &mut TypeStore) -> Type {
    one_of(s, &VALUE_TYPES)
}
fn int(s: &mut TypeStore) -> Type {
    one_of(s, &["i32", "i64"])
}
fn float(s: &mut TypeStore) -> Type {
    one_of(s, &["f32", "f64"])
}
fn global_of(s: &TypeStore, t: Type) -> Type {
    Type::generic(s.system().generic_named("global").expect("declared"), vec![t])
}
fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}
fn i32_(c: &mut ChildTypes) -> Type {
    c.base("i32")
}
fn like_earlier(c: &mut ChildTypes, field: &str) -> Type {
    c.earlier(field).expect("typed in field order")
}
/// The `T` of the `global<T>` in an earlier field.
fn global_content(c: &mut ChildTypes) -> Type {
    let g = c.earlier("global").expect("typed in field order");
    match c.store().resolve(&g) {
        Type::Generic(_, args) => args[0].clone(),
        other => unreachable!("a global reference has type global<T>, not {other:?}"),
    }
}

/// Integer literals: mostly small, often a boundary, sometimes anything.
fn literal(r: &mut Random) -> i64 {
    const EDGES: [i64; 8] = [
        0,
        1,
        -1,
        i32::MAX as i64,
        i32::MIN as i64,
        i64::MAX,
        i64::MIN,
        0x8000_0000,
    ];
    match r.below(8) {
        0..=3 => r.int_in(-16, 16),
        4 | 5 => EDGES[r.below(8) as usize],
        _ => r.next_u64() as i64,
    }
}

/// Function `i` calls only earlier ones, never from inside a loop (so the
/// work of a run stays polynomial), and only while the module has room for
/// a function that the call may lift.
fn call_allowed(hole: &Hole) -> bool {
    let items = hole.at(hole.program().root()).children("items");
    let functions = items.iter().filter(|item| item.is("Func")).count();
    functions < MAX_FUNCTIONS && enclosing(hole, "Loop").is_none()
}

/// The last item of the module is a function: the one `main` calls.
/// (Lifted items go before the item that needs them, so it stays last.)
fn not_last(hole: &Hole) -> bool {
    let items = hole.at(hole.program().root()).children("items");
    hole.node()
        .is_none_or(|node| items.last().map(|item| item.id()) != Some(node))
}

/// The nearest ancestor of the hole named `name` inside the hole's function.
fn enclosing<'a>(hole: &Hole<'a>, name: &str) -> Option<NodeRef<'a>> {
    hole.enclosing(name, |a| a.is("Func"))
}

component! {
    /// The WebAssembly grammar: module, functions, statements, expressions.
    pub fn wasm;
    grammar {
        Program { items: [Item; 1..=4], args = |r| r.int_in(-8, 8), data = literal }
        abstract Item {}
        Global: Item { init = literal }
        Func: Item { params: [Param; 0..=3], locals: [Local; 1..=4], body: [Stmt; 0..=4], result: Expr }
        Param { }
        Local { }

        abstract Stmt {}
        LocalSet: Stmt { value: Expr }
        GlobalSet: Stmt { global: GlobalWrite, value: Expr }
        Store: Stmt { addr: Expr, value: Expr, width = |r| r.below(4) as i64, offset = |r| r.int_in(0, 31) }
        Drop: Stmt { value: Expr }
        Block: Stmt { body: [Stmt; 1..=3] }
        ExitIf: Stmt { cond: Expr }
        If: Stmt { cond: Expr, then: [Stmt; 1..=3], otherwise: [Stmt; 0..=2] }
        Loop: Stmt { iterations = |r| r.int_in(1, 4), body: [Stmt; 1..=3] }

        abstract Expr {}
        Const: Expr { value = literal }
        LocalGet: Expr { }
        LocalTee: Expr { value: Expr }
        GlobalGet: Expr { global: GlobalRead }
        Load: Expr { addr: Expr, width = |r| r.below(4) as i64, signed = |r| r.chance(1, 2), offset = |r| r.int_in(0, 31) }
        IntUnary: Expr { op = |r| *r.pick(&["clz", "ctz", "popcnt", "extend8_s", "extend16_s", "extend32_s"]), value: Expr }
        IntBinary: Expr {
            op = |r| *r.pick(&["add", "sub", "mul", "and", "or", "xor", "shl", "shr_s", "shr_u", "rotl", "rotr"]),
            left: Expr, right: Expr,
        }
        DivRem: Expr { op = |r| *r.pick(&["div_s", "div_u", "rem_s", "rem_u"]), left: Expr, right: Expr }
        Eqz: Expr { value: Expr }
        IntCompare: Expr {
            op = |r| *r.pick(&["eq", "ne", "lt_s", "lt_u", "gt_s", "gt_u", "le_s", "le_u", "ge_s", "ge_u"]),
            left: Expr, right: Expr,
        }
        FloatUnary: Expr { op = |r| *r.pick(&["abs", "neg", "sqrt", "ceil", "floor", "trunc", "nearest"]), value: Expr }
        FloatBinary: Expr { op = |r| *r.pick(&["add", "sub", "mul", "div", "min", "max", "copysign"]), left: Expr, right: Expr }
        FloatCompare: Expr { op = |r| *r.pick(&["eq", "ne", "lt", "gt", "le", "ge"]), left: Expr, right: Expr }
        Convert: Expr { value: Expr, signed = |r| r.chance(1, 2), bits = |r| r.chance(1, 3) }
        Select: Expr { then: Expr, otherwise: Expr, cond: Expr }
        IfExpr: Expr { cond: Expr, then_body: [Stmt; 0..=2], then: Expr, else_body: [Stmt; 0..=2], otherwise: Expr }
        BlockExpr: Expr { body: [Stmt; 1..=3], value: Expr }
        Call: Expr { callee: FuncRef, args: [Expr; 0..=3] }

        GlobalRead { }
        GlobalWrite { }
        FuncRef { }
    }
    type_info {
        Program => (|s| s.fresh()),
        Global => (|s| { let t = value(s); global_of(s, t) }),
        Func => (|s| { let (p, r) = (s.fresh_product(), value(s)); Type::function_of(p, r) }) {
            params: |c| c.parameter_type(),
            locals: |c| value(c.store()),
            result: |c| c.function_parts().1,
        },
        Param => (value),
        Local => (value),
        LocalSet => (value) { value: same },
        GlobalSet => (value) { global: |c| { let t = value(c.store()); global_of(c.store(), t) }, value: global_content },
        Store => (value) { addr: i32_, value: |c| value(c.store()) },
        Drop => (value) { value: |c| value(c.store()) },
        Block => (value),
        ExitIf => (value) { cond: i32_ },
        If => (value) { cond: i32_ },
        Loop => (value),
        Const => (value),
        LocalGet => (value),
        LocalTee => (value) { value: same },
        GlobalGet => (value) { global: |c| { let t = c.node_type().clone(); global_of(c.store(), t) } },
        Load => (value) { addr: i32_ },
        IntUnary => (int) { value: same },
        IntBinary => (int) { left: same, right: same },
        DivRem => (int) { left: same, right: same },
        Eqz => (|s| s.base("i32")) { value: |c| int(c.store()) },
        IntCompare => (|s| s.base("i32")) { left: |c| int(c.store()), right: |c| like_earlier(c, "left") },
        FloatUnary => (float) { value: same },
        FloatBinary => (float) { left: same, right: same },
        FloatCompare => (|s| s.base("i32")) { left: |c| float(c.store()), right: |c| like_earlier(c, "left") },
        Convert => (value) { value: |c| value(c.store()) },
        Select => (value) { then: same, otherwise: same, cond: i32_ },
        IfExpr => (value) { cond: i32_, then: same, otherwise: same },
        BlockExpr => (value) { value: same },
        Call => (value) {
            callee: |c| {
                let params = (0..c.field_len("args")).map(|_| value(c.store())).collect();
                Type::function(params, c.node_type().clone())
            },
            args: |c| c.argument_type("callee"),
        },
        GlobalRead => (|s| s.fresh()),
        GlobalWrite => (|s| s.fresh()),
        FuncRef => (|s| s.fresh()),
    }
    list_length {
        // A function has as many parameters as its type says (a lifted one's
        // type comes from the call that lifted it).
        Func => { params: |s, t, drawn| s.function_arity(t, drawn) },
    }
    scope { Program => sequential, Func => sequential }
    lift_predicate { Program => items }
    binder_info {
        Global => definition(name),
        Func => definition(name, read_only),
        Param => parameter(name),
        Local => definition(name),
    }
    reference_info {
        LocalGet => read(name),
        LocalSet => write(name),
        LocalTee => write(name),
        GlobalRead => read(name),
        GlobalWrite => write(name),
        FuncRef => read(name),
    }
    choice_filters {
        Call => call_allowed,
        ExitIf => |hole| enclosing(hole, "Block").is_some(),
        Global => not_last,
    }
    choice_weight {
        Const => 6, LocalGet => 12, GlobalGet => 4, IntBinary => 8, LocalSet => 12, Store => 8, Loop => 4, Call => 6,
    }
    depth_increase { Program => 0, Func => 0, GlobalRead => 0, GlobalWrite => 0, FuncRef => 0 }
    render {
        Program => render_program,
        Global => |n| {
            let t = n.type_text(&global_type(n.program(), n.node()));
            n.text(format!("(global ${} (mut {t}) {})", n.data("name"), constant(&t, literal_of(n.data("init")))))
        },
        Func => render_func,
        Param => |n| n.text(format!("(param ${} {})", n.data("name"), ty(n))),
        Local => |n| n.text(format!("(local ${} {})", n.data("name"), ty(n))),
        LocalSet => ["(local.set $", name, " ", value, ")"],
        GlobalSet => ["(global.set ", global, " ", value, ")"],
        Store => |n| {
            let t = child_ty(n, 1);
            let width = match (t.as_str(), n.data("width").as_int()) {
                ("i32" | "i64", Some(0)) => "8",
                ("i32" | "i64", Some(1)) => "16",
                ("i64", Some(2)) => "32",
                _ => "",
            };
            let head = format!("({t}.store{width} offset={}", n.data("offset"));
            sexp(n, head, [address(n, n.child("addr")), n.child("value")])
        },
        Drop => ["(drop ", value, ")"],
        Block => |n| sexp(n, format!("(block $b{}", n.node().index()), body_items(n, "body")),
        ExitIf => |n| n.text(format!("(br_if $b{} ", target_block(n).index())).append(n.child("cond")).append(")"),
        If => |n| {
            let then = sexp(n, "(then", body_items(n, "then"));
            let otherwise = sexp(n, "(else", body_items(n, "otherwise"));
            sexp(n, "(if", [n.child("cond"), then, otherwise])
        },
        Loop => render_loop,
        Const => |n| n.text(constant(&ty(n), literal_of(n.data("value")))),
        LocalGet => ["(local.get $", name, ")"],
        LocalTee => ["(local.tee $", name, " ", value, ")"],
        GlobalGet => ["(global.get ", global, ")"],
        Load => |n| {
            let t = ty(n);
            let sign = if flag(n, "signed") { "_s" } else { "_u" };
            let width = match (t.as_str(), n.data("width").as_int()) {
                ("i32" | "i64", Some(0)) => format!("8{sign}"),
                ("i32" | "i64", Some(1)) => format!("16{sign}"),
                ("i64", Some(2)) => format!("32{sign}"),
                _ => String::new(),
            };
            sexp(n, format!("({t}.load{width} offset={}", n.data("offset")), [address(n, n.child("addr"))])
        },
        IntUnary => |n| {
            let (t, op) = (ty(n), n.data("op").to_string());
            // Only i64 has extend32_s.
            let op = if t == "i32" && op == "extend32_s" { "extend16_s".to_string() } else { op };
            sexp(n, format!("({t}.{op}"), [n.child("value")])
        },
        IntBinary => |n| sexp(n, format!("({}.{}", ty(n), n.data("op")), [n.child("left"), n.child("right")]),
        DivRem => |n| {
            let helper = format!("${}_{}", n.data("op"), ty(n));
            n.uses_helper(&helper);
            sexp(n, format!("(call {helper}"), [n.child("left"), n.child("right")])
        },
        Eqz => |n| sexp(n, format!("({}.eqz", child_ty(n, 0)), [n.child("value")]),
        IntCompare => |n| sexp(n, format!("({}.{}", child_ty(n, 0), n.data("op")), [n.child("left"), n.child("right")]),
        FloatUnary => |n| {
            let (t, op) = (ty(n), n.data("op").to_string());
            canonical(n, &t, matches!(op.as_str(), "abs" | "neg"), sexp(n, format!("({t}.{op}"), [n.child("value")]))
        },
        FloatBinary => |n| {
            let (t, op) = (ty(n), n.data("op").to_string());
            let doc = sexp(n, format!("({t}.{op}"), [n.child("left"), n.child("right")]);
            canonical(n, &t, op == "copysign", doc)
        },
        FloatCompare => |n| sexp(n, format!("({}.{}", child_ty(n, 0), n.data("op")), [n.child("left"), n.child("right")]),
        Convert => render_convert,
        Select => |n| sexp(n, "(select", [n.child("then"), n.child("otherwise"), n.child("cond")]),
        IfExpr => |n| {
            let mut then = body_items(n, "then_body");
            then.push(n.child("then"));
            let mut otherwise = body_items(n, "else_body");
            otherwise.push(n.child("otherwise"));
            let arms = [n.child("cond"), sexp(n, "(then", then), sexp(n, "(else", otherwise)];
            sexp(n, format!("(if (result {})", ty(n)), arms)
        },
        BlockExpr => |n| {
            let mut items = body_items(n, "body");
            items.push(n.child("value"));
            sexp(n, format!("(block (result {})", ty(n)), items)
        },
        Call => |n| sexp(n, "(call", std::iter::once(n.child("callee")).chain(n.list("args"))),
        GlobalRead => ["$", name],
        GlobalWrite => ["$", name],
        FuncRef => ["$", name],
    }
    strict_child_order { _ => true }
    feature {
        Load => "memory", Store => "memory", Loop => "loops", Call => "calls", DivRem => "division",
        FloatUnary => "floats", FloatBinary => "floats", FloatCompare => "floats",
    }
}

fn ty(n: &RenderNode) -> String {
    n.type_text(&n.node_type().expect("a typed tree"))
}

fn child_ty(n: &RenderNode, index: usize) -> String {
    let child = n.program().children(n.node()).nth(index).expect("the child exists");
    n.type_text(&n.program().node_type(child).expect("a typed tree"))
}

fn global_type(tree: &xsmith::Program, node: NodeId) -> Type {
    match tree.node_type(node) {
        Some(Type::Generic(_, args)) => args[0].clone(),
        other => unreachable!("a global has type global<T>, not {other:?}"),
    }
}

fn flag(n: &RenderNode, field: &str) -> bool {
    matches!(n.data(field), xsmith::Value::Bool(true))
}

fn literal_of(value: &xsmith::Value) -> i64 {
    value.as_int().expect("literals are integers")
}

/// A `T.const` of the literal: integers wrap to the type; floats are the
/// literal over 8 (so fractions appear), or a special value.
fn constant(t: &str, v: i64) -> String {
    const SPECIAL: [&str; 8] = [
        "inf",
        "-inf",
        "nan",
        "-nan",
        "-0x0p+0",
        "0x1p-149",
        "0x1.fffffep+127",
        "-0x1p-126",
    ];
    match t {
        "i32" => format!("(i32.const {})", v as i32),
        "i64" => format!("(i64.const {v})"),
        _ if v.rem_euclid(16) == 5 => format!("({t}.const {})", SPECIAL[(v.rem_euclid(128) / 16) as usize]),
        _ => format!("({t}.const {:?})", v as f64 / 8.0),
    }
}

/// `head item item)` laid out on one line or with the items indented.
fn sexp<'a>(n: &RenderNode<'a>, head: impl Into<String>, items: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
    let items = items.into_iter().map(|item| n.line().append(item));
    n.text(head.into()).append(n.concat(items).nest(1)).append(")").group()
}

fn body_items<'a>(n: &RenderNode<'a>, field: &str) -> Vec<Doc<'a>> {
    n.list(field)
}

/// An address masked into the memory window.
fn address<'a>(n: &RenderNode<'a>, addr: Doc<'a>) -> Doc<'a> {
    sexp(n, "(i32.and", [addr, n.text(format!("(i32.const {})", WINDOW - 1))])
}

/// A float result through the prelude's NaN canonicalisation, unless the
/// operation only moves bits (`exact`).
fn canonical<'a>(n: &RenderNode<'a>, t: &str, exact: bool, doc: Doc<'a>) -> Doc<'a> {
    if exact {
        doc
    } else {
        n.uses_helper(&format!("$canon_{t}"));
        sexp(n, format!("(call $canon_{t}"), [doc])
    }
}

/// The nearest enclosing `Block` (the choice filter guarantees one).
fn target_block(n: &RenderNode) -> NodeId {
    let block = n.at(n.node()).enclosing("Block", |_| false);
    block.expect("ExitIf is generated only inside a block").id()
}

/// Resets the loop's hidden counter, runs the body, then branches back
/// while the decremented counter is not zero.
fn render_loop<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let id = n.node().index();
    let reset = n.text(format!("(local.set $c{id} (i32.const {}))", n.data("iterations")));
    let mut body = body_items(n, "body");
    body.push(n.text(format!(
        "(br_if $l{id} (local.tee $c{id} (i32.sub (local.get $c{id}) (i32.const 1))))"
    )));
    reset
        .append(n.hardline())
        .append(sexp(n, format!("(loop $l{id}"), body))
}

fn render_func<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let result = match n.node_type() {
        Some(Type::Function(f)) => n.type_text(&f.1),
        other => unreachable!("a function has a function type, not {other:?}"),
    };
    let mut head = vec![n.text(format!("(func ${}", n.data("name")))];
    head.extend(n.list("params"));
    head.push(n.text(format!("(result {result})")));
    let mut items = n.list("locals");
    let mut stack: Vec<NodeRef> = n.at(n.node()).all_children().collect();
    let mut counters = Vec::new();
    while let Some(node) = stack.pop() {
        if node.is("Loop") {
            counters.push(node.id().index());
        }
        stack.extend(node.all_children());
    }
    counters.sort_unstable();
    items.extend(counters.iter().map(|c| n.text(format!("(local $c{c} i32)"))));
    items.extend(n.list("body"));
    items.push(n.child("result"));
    let head = n.join(head, n.text(" ")).group();
    let items = items.into_iter().map(|item| n.hardline().append(item));
    head.append(n.concat(items).nest(2)).append(")")
}

/// A conversion from the operand's type to the node's: wrap/extend between
/// integers, saturating truncation and conversion between integers and
/// floats, demotion and promotion (canonicalised), or, with `bits`, a
/// reinterpretation (through a wrap or extension when the widths differ).
fn render_convert<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let (to, from) = (ty(n), child_ty(n, 0));
    let value = n.child("value");
    let signed = flag(n, "signed");
    let s = if signed { "s" } else { "u" };
    let bits = flag(n, "bits");
    let apply = |op: String, doc: Doc<'a>| sexp(n, format!("({op}"), [doc]);
    match (to.as_str(), from.as_str()) {
        (a, b) if a == b && a.starts_with('i') => apply(format!("{a}.extend{}_s", if signed { 8 } else { 16 }), value),
        (a, b) if a == b => value,
        ("i32", "i64") => apply("i32.wrap_i64".into(), value),
        ("i64", "i32") => apply(format!("i64.extend_i32_{s}"), value),
        ("f32", "f64") => canonical(n, "f32", false, apply("f32.demote_f64".into(), value)),
        ("f64", "f32") => canonical(n, "f64", false, apply("f64.promote_f32".into(), value)),
        (i, f) if i.starts_with('i') && bits => {
            let same_width = if f == "f32" { "i32" } else { "i64" };
            let raw = apply(format!("{same_width}.reinterpret_{f}"), value);
            match (i, same_width) {
                ("i32", "i64") => apply("i32.wrap_i64".into(), raw),
                ("i64", "i32") => apply(format!("i64.extend_i32_{s}"), raw),
                _ => raw,
            }
        }
        (i, f) if i.starts_with('i') => apply(format!("{i}.trunc_sat_{f}_{s}"), value),
        (f, i) if bits => {
            let same_width = if f == "f32" { "i32" } else { "i64" };
            let value = match (same_width, i) {
                ("i32", "i64") => apply("i32.wrap_i64".into(), value),
                ("i64", "i32") => apply(format!("i64.extend_i32_{s}"), value),
                _ => value,
            };
            apply(format!("{f}.reinterpret_{same_width}"), value)
        }
        (f, i) => apply(format!("{f}.convert_{i}_{s}"), value),
    }
}

/// An expression of type `t` widened to the `i64` that `main` and
/// `checksum` observe (floats by their bits).
fn as_i64(t: &str, expr: String) -> String {
    match t {
        "i32" => format!("(i64.extend_i32_u {expr})"),
        "i64" => expr,
        "f32" => format!("(i64.extend_i32_u (i32.reinterpret_f32 {expr}))"),
        _ => format!("(i64.reinterpret_f64 {expr})"),
    }
}

/// Globals, functions, then `main` (the last function called with constant
/// arguments), `checksum` (every global, and all of memory when the module
/// stores) and, when it loads, a data segment that gives memory a pattern
/// to start from.
fn render_program<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let tree = n.program();
    let uses = |production: &str| tree.ids().any(|id| n.at(id).is(production));
    let items = n.at(n.node()).children("items");
    let name = |node: &NodeRef| node.data("name").expect("a binder has a name").to_string();
    let last = items
        .last()
        .expect("a module has at least one item, the last a function");
    let seed = literal_of(n.data("args"));
    let args: Vec<String> = last
        .children("params")
        .iter()
        .enumerate()
        .map(|(i, param)| {
            let t = n.type_text(&param.node_type().expect("typed"));
            constant(&t, seed.wrapping_mul(i as i64 + 3).wrapping_add(i as i64))
        })
        .collect();
    let result = match last.node_type() {
        Some(Type::Function(f)) => n.type_text(&f.1),
        other => unreachable!("a function has a function type, not {other:?}"),
    };
    let call = format!("(call ${} {})", name(last), args.join(" "));
    let main = format!(
        "(func $main (export \"main\") (result i64)\n    {})",
        as_i64(&result, call)
    );
    let stores = uses("Store");
    let mut checksum = String::from("(func $checksum (export \"checksum\") (result i64) (local $h i64)");
    if stores {
        checksum.push_str(" (local $a i32)");
    }
    for global in items.iter().filter(|item| item.is("Global")) {
        let t = n.type_text(&global_type(tree, global.id()));
        let value = as_i64(&t, format!("(global.get ${})", name(global)));
        checksum.push_str(&format!("\n    (local.set $h (call $mix (local.get $h) {value}))"));
        n.uses_helper("$mix");
    }
    if stores {
        n.uses_helper("$mix");
        checksum.push_str(
            "\n    (loop $memory\n      (local.set $h (call $mix (local.get $h) (i64.load (local.get $a))))\n      \
             (br_if $memory (i32.ne (local.tee $a (i32.add (local.get $a) (i32.const 8))) (i32.const 65536))))",
        );
    }
    checksum.push_str("\n    (local.get $h))");
    let mut tail = vec![main, checksum];
    if uses("Load") {
        let mut bytes = String::new();
        let mut state = literal_of(n.data("data")) as u64;
        for _ in 0..64 {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            bytes.push_str(&format!("\\{:02x}", state >> 56));
        }
        tail.push(format!("(data (i32.const 0) \"{bytes}\")"));
    }
    let items = n.list("items").into_iter();
    let items = items.chain(tail.into_iter().map(|text| n.text(text)));
    n.concat(items.map(|item| n.text("  ").append(item.nest(2)).append(n.hardline())))
        .append(")")
}

/// Opens the module and its memory.
pub const PRELUDE: &str = "(module\n  (memory 1)\n";

/// The functions a module calls when it needs them: safe division and
/// remainder (a zero divisor gives the dividend, `MIN / -1` gives `MIN`), NaN
/// canonicalisation, and the checksum's mixing step.
pub const HELPERS: &[Helper] = &[
    Helper::new(
        "$div_s_i32",
        r#"  (func $div_s_i32 (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.or (i32.eqz (local.get $b))
          (i32.and (i32.eq (local.get $a) (i32.const 0x80000000)) (i32.eq (local.get $b) (i32.const -1))))
      (then (local.get $a)) (else (i32.div_s (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$div_u_i32",
        r#"  (func $div_u_i32 (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.eqz (local.get $b)) (then (local.get $a)) (else (i32.div_u (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$rem_s_i32",
        r#"  (func $rem_s_i32 (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.eqz (local.get $b)) (then (local.get $a)) (else (i32.rem_s (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$rem_u_i32",
        r#"  (func $rem_u_i32 (param $a i32) (param $b i32) (result i32)
    (if (result i32) (i32.eqz (local.get $b)) (then (local.get $a)) (else (i32.rem_u (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$div_s_i64",
        r#"  (func $div_s_i64 (param $a i64) (param $b i64) (result i64)
    (if (result i64) (i32.or (i64.eqz (local.get $b))
          (i32.and (i64.eq (local.get $a) (i64.const 0x8000000000000000)) (i64.eq (local.get $b) (i64.const -1))))
      (then (local.get $a)) (else (i64.div_s (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$div_u_i64",
        r#"  (func $div_u_i64 (param $a i64) (param $b i64) (result i64)
    (if (result i64) (i64.eqz (local.get $b)) (then (local.get $a)) (else (i64.div_u (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$rem_s_i64",
        r#"  (func $rem_s_i64 (param $a i64) (param $b i64) (result i64)
    (if (result i64) (i64.eqz (local.get $b)) (then (local.get $a)) (else (i64.rem_s (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$rem_u_i64",
        r#"  (func $rem_u_i64 (param $a i64) (param $b i64) (result i64)
    (if (result i64) (i64.eqz (local.get $b)) (then (local.get $a)) (else (i64.rem_u (local.get $a) (local.get $b)))))"#,
    ),
    Helper::new(
        "$canon_f32",
        r#"  (func $canon_f32 (param $x f32) (result f32)
    (select (f32.const nan) (local.get $x) (f32.ne (local.get $x) (local.get $x))))"#,
    ),
    Helper::new(
        "$canon_f64",
        r#"  (func $canon_f64 (param $x f64) (result f64)
    (select (f64.const nan) (local.get $x) (f64.ne (local.get $x) (local.get $x))))"#,
    ),
    Helper::new(
        "$mix",
        r#"  (func $mix (param $h i64) (param $v i64) (result i64)
    (i64.mul (i64.xor (i64.rotl (local.get $h) (i64.const 5)) (local.get $v)) (i64.const 0x100000001b3)))"#,
    ),
];

/// The assembled spec.
///
/// ```
/// let spec = xsmith_wasm::spec().unwrap();
/// assert!(spec.lookup("Loop").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    Ok(Spec::assemble_typed("Program", type_system(), [wasm()])?)
}

/// The known bugs of the engines, in the format of `diff --known`: the
/// findings of these signatures are counted as known (the file
/// `known-bugs`).
///
/// ```
/// assert!(xsmith::KnownBug::parse(xsmith_wasm::KNOWN_BUGS).unwrap().len() >= 1);
/// ```
pub const KNOWN_BUGS: &str = include_str!("../known-bugs");

/// The WebAssembly fuzzer: its spec, prelude and file conventions.
///
/// ```
/// assert_eq!(xsmith_wasm::FUZZER.extension, "wat");
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-wasm",
    version: env!("CARGO_PKG_VERSION"),
    extension: "wat",
    spec,
    comment: |text| format!(";; {text}\n"),
    prelude: PRELUDE,
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-wasm diff` runs modules on by default: the
/// two engines inside the process, so that a campaign needs nothing
/// installed, and `wasm-interp` where Debian's `wabt` is installed.
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::InProcess {
        name: "wasmtime",
        run: engines::run_wasmtime,
    },
    Implementation::InProcess {
        name: "wasmi",
        run: engines::run_wasmi,
    },
    Implementation::IfInstalled {
        implementation: &WASM_INTERP,
        requires: "wasm-interp",
        package: "wabt",
    },
];

static WASM_INTERP: Implementation = Implementation::InProcess {
    name: "wasm-interp",
    run: engines::run_wasm_interp,
};
