//! A C fuzzer: C99 programs free of undefined, unspecified and
//! implementation-defined behaviour by construction, that print the same on
//! every correct compiler at every optimisation level.
//!
//! A program has global variables of the fixed-width integer types
//! (`int8_t` to `uint64_t`), and functions with parameters, local variables,
//! assignments and compound assignments, `if`, counted `for` loops with
//! `break` and `continue`, calls, the comma operator, casts and prints. `main`
//! calls every function in turn with constant arguments and prints its
//! result, then prints a checksum of every global (as Csmith and YARPGen do).
//!
//! What keeps a program defined (see the README for the whole list):
//! every arithmetic, shift and bitwise operator goes through a wrapper of
//! the prelude ([`PRELUDE`]) that computes in `uint64_t` (where overflow
//! wraps) and converts back to the operand type without an
//! implementation-defined conversion, and divides only by a divisor that is
//! neither zero nor `-1` under `MIN`; a cast to a signed type goes through
//! the same conversion; expressions have no side effects but calls, and the
//! engine's effect analysis keeps two operands (or arguments) from touching
//! the same variable when one of them writes it; function `i` calls only
//! functions before it, never from inside a loop; a loop's counter is hidden
//! from the program, so it runs a fixed number of times; every variable is
//! initialised where it is declared.
//!
//! ```
//! let spec = (xsmith_c::FUZZER.spec)().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! let program = xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(3)).unwrap();
//! assert!(program.text.starts_with("/* xsmith-c 0.1.0 --seed 3 */\n#include <stdint.h>"));
//! assert!(program.text.contains("int main(void)"));
//! ```

pub mod runtime;
pub mod structs;

pub use runtime::{HELPERS, PRELUDE};

use xsmith::fuzzer::SpecFailure;
use xsmith::types::{Type, TypeStore, TypeSystem, Variance};
use xsmith::{component, ChildTypes, Doc, Fuzzer, Hole, Implementation, NodeRef, Random, RenderNode, Spec};

/// Functions a program may have: a call is offered only while there are
/// fewer, so that a lifted function always fits.
///
/// ```
/// let spec = xsmith_c::spec().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(5)).unwrap();
/// let calls_in_main = program.text.lines().filter(|l| l.starts_with("  xs_print(\"v")).count();
/// assert!((1..=xsmith_c::MAX_FUNCTIONS + 3).contains(&calls_in_main));
/// ```
pub const MAX_FUNCTIONS: usize = 8;

/// The integer types of programs, as `<stdint.h>` names them, with their
/// width in bits and signedness.
///
/// ```
/// assert!(xsmith_c::INT_TYPES.contains(&("uint16_t", 16, false)));
/// ```
pub const INT_TYPES: [(&str, u32, bool); 8] = [
    ("int8_t", 8, true),
    ("int16_t", 16, true),
    ("int32_t", 32, true),
    ("int64_t", 64, true),
    ("uint8_t", 8, false),
    ("uint16_t", 16, false),
    ("uint32_t", 32, false),
    ("uint64_t", 64, false),
];

/// Elements of every array.
///
/// ```
/// let spec = xsmith_c::spec().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let text = (0..20)
///     .map(|seed| xsmith_c::FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(seed)).unwrap().text)
///     .collect::<String>();
/// assert!(text.contains(&format!("[{}] = {{", xsmith_c::ARRAY_LENGTH)));
/// ```
pub const ARRAY_LENGTH: u64 = 8;

/// The type system: the eight integer types, `array<T>` (arrays of
/// [`ARRAY_LENGTH`] elements), `ptr<T>` (the type of pointer parameters)
/// and function types.
///
/// ```
/// assert!(xsmith_c::type_system().base_named("uint16_t").is_some());
/// ```
pub fn type_system() -> TypeSystem {
    let mut system = TypeSystem::new();
    for (name, _, _) in INT_TYPES {
        system.base(name);
    }
    for name in structs::names() {
        system.base(name);
    }
    system.generic("array", &[Variance::Invariant]);
    system.generic("ptr", &[Variance::Invariant]);
    system.allow_functions(true);
    system
}

fn int(s: &mut TypeStore) -> Type {
    let candidates: Vec<Type> = INT_TYPES.iter().map(|(n, _, _)| s.base(n)).collect();
    s.fresh_one_of(&candidates)
}
/// An integer type or a pointer to one: what a parameter may be.
fn int_or_pointer(s: &mut TypeStore) -> Type {
    let mut candidates: Vec<Type> = INT_TYPES.iter().map(|(n, _, _)| s.base(n)).collect();
    let ptr = s.system().generic_named("ptr").expect("declared");
    let pointers: Vec<Type> = candidates.iter().map(|t| Type::generic(ptr, vec![t.clone()])).collect();
    candidates.extend(pointers);
    s.fresh_one_of(&candidates)
}
/// Any of the struct types.
fn any_struct(s: &mut TypeStore) -> Type {
    let candidates: Vec<Type> = structs::names().into_iter().map(|n| s.base(n)).collect();
    s.fresh_one_of(&candidates)
}
/// A struct type with a scalar member of every integer type: what a
/// pointer to a member may point into.
fn complete_struct(c: &mut ChildTypes) -> Type {
    let candidates: Vec<Type> = structs::complete().into_iter().map(|n| c.store().base(n)).collect();
    c.store().fresh_one_of(&candidates)
}
fn pointer_to(s: &TypeStore, t: Type) -> Type {
    Type::generic(s.system().generic_named("ptr").expect("declared"), vec![t])
}
fn any_pointer(c: &mut ChildTypes) -> Type {
    let t = int(c.store());
    pointer_to(c.store(), t)
}
fn array_of(s: &TypeStore, t: Type) -> Type {
    Type::generic(s.system().generic_named("array").expect("declared"), vec![t])
}
fn array(s: &mut TypeStore) -> Type {
    let t = int(s);
    array_of(s, t)
}
/// The element type `T` of the `array<T>` or `ptr<T>` a node has.
fn element(c: &mut ChildTypes) -> Type {
    let t = c.node_type().clone();
    match c.store().resolve(&t) {
        Type::Generic(_, args) => args[0].clone(),
        other => unreachable!("an array or pointer has type array<T> or ptr<T>, not {other:?}"),
    }
}
fn array_of_node(c: &mut ChildTypes) -> Type {
    let t = c.node_type().clone();
    array_of(c.store(), t)
}
/// The type of the array an earlier `array` field refers to.
fn element_of_array_field(c: &mut ChildTypes) -> Type {
    let a = c.earlier("array").expect("typed in field order");
    match c.store().resolve(&a) {
        Type::Generic(_, args) => args[0].clone(),
        other => unreachable!("an array has type array<T>, not {other:?}"),
    }
}
fn same(c: &mut ChildTypes) -> Type {
    c.node_type().clone()
}
fn any_int(c: &mut ChildTypes) -> Type {
    int(c.store())
}
fn like_left(c: &mut ChildTypes) -> Type {
    c.earlier("left").expect("typed in field order")
}

fn pick(r: &mut Random, options: &[&'static str]) -> &'static str {
    options[r.below(options.len() as u64) as usize]
}

/// Integer literals: mostly small, often a boundary, sometimes anything
/// (each is wrapped to its type when rendered).
fn literal(r: &mut Random) -> i64 {
    const EDGES: [i64; 10] = [
        0,
        1,
        -1,
        i8::MIN as i64,
        i16::MAX as i64,
        i32::MAX as i64,
        i32::MIN as i64,
        u32::MAX as i64,
        i64::MAX,
        i64::MIN,
    ];
    match r.below(8) {
        0..=3 => r.int_in(-16, 16),
        4 | 5 => EDGES[r.below(EDGES.len() as u64) as usize],
        _ => r.next_u64() as i64,
    }
}

/// The nearest ancestor of the hole named `name` inside its function.
fn enclosing<'a>(hole: &Hole<'a>, name: &str) -> Option<NodeRef<'a>> {
    hole.enclosing(name, |a| a.is("Func"))
}

/// Function `i` calls only earlier ones (the program is a sequential
/// scope), never from inside a loop (so a run's work stays small), and only
/// while the program has room for a function that the call may lift.
///
/// Nor in the value of a compound assignment: `x += f()` reads `x` in an
/// order unsequenced with the call, which may write `x`, and the read is
/// the assignment's own, which the effect analysis does not see as a
/// sibling of the value (an expression has no other side effect than a
/// call, so without one the value cannot write `x`).
fn call_allowed(hole: &Hole) -> bool {
    let items = hole.at(hole.program().root()).children("items");
    let functions = items.iter().filter(|item| item.is("Func")).count();
    functions < MAX_FUNCTIONS && enclosing(hole, "For").is_none() && enclosing(hole, "CompoundAssign").is_none()
}

/// The last item of a program is a function (lifted items go before the
/// item that needs them, so it stays last).
fn not_last(hole: &Hole) -> bool {
    let items = hole.at(hole.program().root()).children("items");
    match hole.node() {
        Some(node) => items.last().map(|item| item.id()) != Some(node),
        None => true,
    }
}

component! {
    /// The C grammar: globals and functions, statements, expressions.
    ///
    /// ```
    /// let component = xsmith_c::c();
    /// let spec = xsmith::Spec::assemble_typed("Program", xsmith_c::type_system(), [component]).unwrap();
    /// assert!(spec.lookup("Deref").is_some());
    /// ```
    pub fn c;
    grammar {
        Program { items: [Item; 1..=4], args = literal }
        abstract Item {}
        Global: Item { init = literal }
        GlobalArray: Item { init = literal }
        GlobalStruct: Item { init = literal }
        Func: Item { params: [Param; 0..=3], body: Body }
        Param {}
        Body { stmts: [Stmt; 0..=5], result: Expr }
        Block { stmts: [Stmt; 0..=4] }

        abstract Stmt {}
        Local: Stmt { init: Expr }
        LocalArray: Stmt { items: [Expr; 1..=4] }
        LocalPtr: Stmt { target: AddrTarget }
        LocalStruct: Stmt { items: [Expr; 1..=4] }
        LocalElemPtr: Stmt { array: ArrayWrite, index: Expr }
        LocalFieldPtr: Stmt { record: StructWrite, path = member }
        StructAssign: Stmt { target: StructWrite, source: StructRead }
        FieldSet: Stmt { record: StructWrite, path = member, value: Expr }
        FieldElemSet: Stmt { record: StructWrite, path = member, access: Element }
        ArraySet: Stmt { array: ArrayWrite, access: Element }
        Element { index: Expr, value: Expr }
        Assign: Stmt { value: Expr }
        CompoundAssign: Stmt { op = |r| r.below(6) as i64, value: Expr }
        If: Stmt { cond: Expr, then: Block, otherwise: Block }
        For: Stmt { iterations = |r| r.int_in(1, 6), body: Block }
        Break: Stmt { cond: Expr }
        Continue: Stmt { cond: Expr }
        Print: Stmt { value: Expr }
        DerefSet: Stmt { ptr: PtrRead, value: Expr }
        ExprStmt: Stmt { value: Expr }

        abstract Expr {}
        Const: Expr { value = literal }
        VarRef: Expr {}
        ArrayGet: Expr { array: ArrayRead, index: Expr }
        ArrayRead {}
        FieldGet: Expr { record: StructRead, path = member }
        FieldElemGet: Expr { record: StructRead, path = member, index: Expr }
        StructRead {}
        StructWrite {}
        AddrOf: Expr { target: AddrTarget }
        AddrTarget {}
        Deref: Expr { ptr: PtrRead }
        PtrRead {}
        ArrayWrite {}
        Arith: Expr {
            op = |r| pick(r, &["add", "sub", "mul", "div", "mod", "shl", "shr", "and", "or", "xor"]),
            left: Expr, right: Expr,
        }
        Unary: Expr { op = |r| pick(r, &["neg", "not"]), value: Expr }
        Compare: Expr { op = |r| pick(r, &["<", "<=", ">", ">=", "==", "!="]), left: Expr, right: Expr }
        Logical: Expr { op = |r| pick(r, &["&&", "||"]), left: Expr, right: Expr }
        LogicalNot: Expr { value: Expr }
        Cast: Expr { value: Expr }
        Ternary: Expr { cond: Expr, then: Expr, otherwise: Expr }
        Comma: Expr { effect: Expr, value: Expr }
        Call: Expr { callee: FuncRef, args: [Expr; 0..=3] }
        FuncRef {}
    }
    type_info {
        Program => (|s| s.fresh()),
        Global => (int),
        GlobalArray => (array),
        GlobalStruct => (any_struct),
        LocalStruct => (any_struct) { items: any_int },
        LocalElemPtr => (|s| { let t = int(s); pointer_to(s, t) }) { array: |c| { let t = element(c); array_of(c.store(), t) }, index: any_int },
        LocalFieldPtr => (|s| { let t = int(s); pointer_to(s, t) }) { record: complete_struct },
        StructAssign => (any_struct) { target: same, source: same },
        FieldSet => (any_struct) { record: same, value: any_int },
        FieldElemSet => (any_struct) { record: same, access: any_int },
        FieldGet => (int) { record: |c| any_struct(c.store()) },
        FieldElemGet => (int) { record: |c| any_struct(c.store()), index: any_int },
        StructRead => (|s| s.fresh()),
        StructWrite => (|s| s.fresh()),
        LocalArray => (array) { items: element },
        LocalPtr => (|s| { let t = int(s); pointer_to(s, t) }) { target: element },
        ArraySet => (|s| s.fresh()) { array: |c| array(c.store()), access: element_of_array_field },
        Element => (int) { index: any_int, value: same },
        ArrayGet => (int) { array: array_of_node, index: any_int },
        ArrayRead => (|s| s.fresh()),
        AddrOf => (|s| { let t = int(s); pointer_to(s, t) }) { target: element },
        AddrTarget => (int),
        Deref => (int) { ptr: any_pointer },
        DerefSet => (|s| s.fresh()) { ptr: any_pointer, value: any_int },
        PtrRead => (|s| s.fresh()),
        ArrayWrite => (|s| s.fresh()),
        Func => (|s| { let (p, r) = (s.fresh_product(), int(s)); Type::function_of(p, r) }) {
            params: |c| c.parameter_type(),
            body: |c| c.function_parts().1,
        },
        Param => (int_or_pointer),
        Body => (int) { result: same },
        Block => (|s| s.fresh()),
        Local => (int) { init: same },
        Assign => (int) { value: same },
        CompoundAssign => (int) { value: same },
        If => (|s| s.fresh()) { cond: any_int },
        For => (|s| s.fresh()),
        Break => (|s| s.fresh()) { cond: any_int },
        Continue => (|s| s.fresh()) { cond: any_int },
        Print => (|s| s.fresh()) { value: any_int },
        ExprStmt => (|s| s.fresh()) { value: any_int },
        Const => (int),
        VarRef => (int),
        Arith => (int) { left: same, right: same },
        Unary => (int) { value: same },
        Compare => (int) { left: any_int, right: like_left },
        Logical => (int) { left: any_int, right: any_int },
        LogicalNot => (int) { value: any_int },
        Cast => (int) { value: any_int },
        Ternary => (int) { cond: any_int, then: same, otherwise: same },
        Comma => (int) { effect: any_int, value: same },
        Call => (int) {
            callee: |c| {
                let params = (0..c.field_len("args")).map(|_| int_or_pointer(c.store())).collect();
                Type::function(params, c.node_type().clone())
            },
            args: |c| c.argument_type("callee"),
        },
        FuncRef => (|s| s.fresh()),
    }
    list_length {
        // A function has as many parameters as its type says (a lifted one's
        // type comes from the call that lifted it).
        Func => { params: |s, t, drawn| s.function_arity(t, drawn) },
    }
    scope { Program => sequential, Func => sequential, Body => sequential, Block => sequential }
    lift_predicate { Program => items, Body => stmts, Block => stmts }
    binder_info {
        Global => definition(name),
        GlobalArray => definition(name),
        GlobalStruct => definition(name),
        LocalStruct => definition(name),
        LocalElemPtr => definition(name),
        LocalFieldPtr => definition(name),
        LocalArray => definition(name),
        LocalPtr => definition(name),
        Func => definition(name, read_only),
        Param => parameter(name),
        Local => definition(name),
    }
    reference_info {
        VarRef => read(name),
        Assign => write(name),
        CompoundAssign => write(name),
        FuncRef => read(name),
        ArrayRead => read(name),
        AddrTarget => write(name),
        PtrRead => read(name),
        ArrayWrite => write(name),
        StructRead => read(name),
        StructWrite => write(name),
    }
    calls { Call => callee }
    function_body { Func => body }
    io { Print => true }
    strict_child_order {
        Program => true, Func => true, Body => true, Block => true, Local => true, Assign => true,
        CompoundAssign => true, ArraySet => true, DerefSet => true, If => true, For => true, Break => true, Continue => true, Print => true,
        ExprStmt => true, Logical => true, Ternary => true, Comma => true, StructAssign => true, FieldSet => true,
        FieldElemSet => true, LocalElemPtr => true, LocalFieldPtr => true,
    }
    choice_filters {
        Call => call_allowed,
        Break => |hole| enclosing(hole, "For").is_some(),
        Continue => |hole| enclosing(hole, "For").is_some(),
        Global => not_last,
        Deref => whole_expression,
        DerefSet => in_function,
        AddrOf => |hole| hole.parent_production().is_some_and(|p| p.name() == "Call"),
        GlobalArray => not_last,
        GlobalStruct => not_last,
    }
    choice_weight {
        ArrayGet => 4, ArraySet => 4, Deref => 4, DerefSet => 4, AddrOf => 4, LocalPtr => 1, Const => 6, VarRef => 12, Arith => 10, Assign => 10, CompoundAssign => 4, Local => 6, Call => 3,
        For => 3, If => 4, Print => 2, Comma => 1, ExprStmt => 1, Break => 2, Continue => 2,
        FieldGet => 4, FieldElemGet => 3, FieldSet => 4, FieldElemSet => 3, StructAssign => 2, LocalStruct => 2,
        LocalElemPtr => 1, LocalFieldPtr => 1,
    }
    depth_increase {
        Program => 0, Func => 0, Body => 0, FuncRef => 0, ArrayRead => 0, ArrayWrite => 0, Element => 0,
        AddrTarget => 0, PtrRead => 0, StructRead => 0, StructWrite => 0,
    }
    render {
        Program => render_program,
        Global => |n| n.text(format!("static {} {} = {};", ty(n), n.data("name"), constant(&ty(n), literal_of(n.data("init"))))),
        GlobalArray => |n| {
            let t = element_type(n);
            let mut next = constants(literal_of(n.data("init")));
            let values: Vec<String> = (0..ARRAY_LENGTH).map(|_| constant(&t, next())).collect();
            n.text(format!("static {t} {}[{ARRAY_LENGTH}] = {{{}}};", n.data("name"), values.join(", ")))
        },
        LocalArray => |n| {
            let head = n.text(format!("{} {}[{ARRAY_LENGTH}] = {{", element_type(n), n.data("name")));
            head.append(n.join(n.list("items"), n.text(", "))).append("};")
        },
        ArraySet => |n| {
            let access = n.at(n.node()).child("access").expect("an element");
            let index = n.render(access.child("index").expect("an index").id());
            let value = n.render(access.child("value").expect("a value").id());
            n.child("array").append(subscript(n, index)).append(" = ").append(value).append(";")
        },
        Element => |n| n.child("index").append(", ").append(n.child("value")),
        ArrayGet => |n| n.child("array").append(subscript(n, n.child("index"))),
        ArrayRead => [name],
        AddrOf => ["&", target],
        LocalPtr => |n| {
            let t = n.node_type().expect("a typed tree");
            n.text(format!("{} = &", declaration(n, &t, &n.data("name").to_string()))).append(n.child("target")).append(";")
        },
        AddrTarget => [name],
        Deref => |n| convert(n, &ty(n), n.text("*").append(n.child("ptr"))),
        DerefSet => |n| {
            let pointee = pointee_type(n);
            let value = convert(n, &pointee, n.child("value"));
            n.text("*").append(n.child("ptr")).append(" = ").append(value).append(";")
        },
        PtrRead => [name],
        GlobalStruct => |n| {
            let init = structs::initialiser(&ty(n), &mut constants(literal_of(n.data("init"))));
            n.text(format!("static {} {} = {init};", ty(n), n.data("name")))
        },
        LocalStruct => |n| {
            let types = structs::flattened(&ty(n));
            let items = n.list("items").into_iter().zip(n.at(n.node()).children("items")).zip(types);
            let items = items.map(|((doc, item), t)| convert_from(n, t, &item, doc));
            n.text(format!("{} {} = {{", ty(n), n.data("name"))).append(n.join(items, n.text(", "))).append("};")
        },
        LocalElemPtr => |n| {
            let t = n.node_type().expect("a typed tree");
            let head = n.text(format!("{} = &", declaration(n, &t, &n.data("name").to_string())));
            head.append(n.child("array")).append(subscript(n, n.child("index"))).append(";")
        },
        LocalFieldPtr => |n| {
            let t = n.node_type().expect("a typed tree");
            let leaf = field(n, "record", &pointee_of(n, &t), false);
            n.text(format!("{} = &", declaration(n, &t, &n.data("name").to_string())))
                .append(n.child("record")).append(leaf.path).append(";")
        },
        StructAssign => ["", target, " = ", source, ";"],
        FieldSet => |n| {
            let value = n.at(n.node()).child("value").expect("a value");
            let leaf = field(n, "record", &n.type_text(&value.node_type().expect("typed")), false);
            n.child("record").append(leaf.path).append(" = ").append(convert_from(n, leaf.ty, &value, n.child("value"))).append(";")
        },
        FieldElemSet => |n| {
            let access = n.at(n.node()).child("access").expect("an element");
            let leaf = field(n, "record", &n.type_text(&access.node_type().expect("typed")), true);
            let index = n.render(access.child("index").expect("an index").id());
            let value = access.child("value").expect("a value");
            let value = convert_from(n, leaf.ty, &value, n.render(value.id()));
            n.child("record").append(leaf.path).append(subscript(n, index)).append(" = ").append(value).append(";")
        },
        FieldGet => |n| {
            let leaf = field(n, "record", &ty(n), false);
            convert_leaf(n, &leaf, n.child("record").append(leaf.path.clone()))
        },
        FieldElemGet => |n| {
            let leaf = field(n, "record", &ty(n), true);
            let place = n.child("record").append(leaf.path.clone()).append(subscript(n, n.child("index")));
            convert_leaf(n, &leaf, place)
        },
        StructRead => [name],
        StructWrite => [name],
        ArrayWrite => [name],
        Func => render_func,
        Param => |n| n.text(declaration(n, &n.node_type().expect("a typed tree"), &n.data("name").to_string())),
        Body => |n| {
            let mut items = n.list("stmts");
            items.push(n.text("return ").append(n.child("result")).append(";"));
            n.concat(items.into_iter().map(|item| n.hardline().append(item)))
        },
        Block => |n| block(n, n.list("stmts")),
        Local => |n| n.text(format!("{} {} = ", ty(n), n.data("name"))).append(n.child("init")).append(";"),
        Assign => ["", name, " = ", value, ";"],
        CompoundAssign => render_compound,
        If => |n| n.text("if (").append(n.child("cond")).append(") ").append(n.child("then"))
            .append(" else ").append(n.child("otherwise")),
        For => |n| {
            let c = format!("xs_i{}", n.node().index());
            n.text(format!("for (int {c} = 0; {c} < {}; {c}++) ", n.data("iterations"))).append(n.child("body"))
        },
        Break => ["if (", cond, ") break;"],
        Continue => ["if (", cond, ") continue;"],
        Print => |n| {
            let value = n.child("value");
            n.text(format!("xs_print(\"p{}\", (uint64_t)", n.node().index())).append(value).append(");")
        },
        ExprStmt => ["(void)(", value, ");"],
        Const => |n| n.text(constant(&ty(n), literal_of(n.data("value")))),
        VarRef => [name],
        Arith => |n| call(n, n.text(format!("xs_{}_{}", n.data("op"), ty(n))), [n.child("left"), n.child("right")]),
        Unary => |n| call(n, n.text(format!("xs_{}_{}", n.data("op"), ty(n))), [n.child("value")]),
        Compare => |n| binary(n, n.data("op").to_string()),
        Logical => |n| binary(n, n.data("op").to_string()),
        LogicalNot => |n| n.text(format!("(({})!", ty(n))).append(n.child("value")).append(")"),
        Cast => |n| convert(n, &ty(n), n.child("value")),
        Ternary => |n| {
            let doc = n.child("cond").append(" ? ").append(n.child("then")).append(" : ").append(n.child("otherwise"));
            n.text(format!("(({})(", ty(n))).append(doc).append("))")
        },
        Comma => ["((void)(", effect, "), ", value, ")"],
        Call => |n| call(n, n.child("callee"), n.list("args")),
        FuncRef => [name],
    }
    feature {
        Call => "calls", Comma => "comma", For => "loops", Break => "loops",
        Continue => "loops", Print => "printing", GlobalArray => "arrays", LocalArray => "arrays",
        ArrayGet => "arrays", ArraySet => "arrays",
        Deref => "pointers", DerefSet => "pointers", AddrOf => "pointers", LocalPtr => "pointers", CompoundAssign => "compound-assignment", Cast => "casts",
        Ternary => "conditionals", If => "conditionals",
        GlobalStruct => "structs", LocalStruct => "structs", StructAssign => "structs", FieldSet => "structs",
        FieldElemSet => "structs", FieldGet => "structs", FieldElemGet => "structs", LocalFieldPtr => "structs",
        LocalElemPtr => "pointers",
    }
}

/// The declaration of `name` with type `t`: `T name`, or `T *name` for a
/// `ptr<T>`.
fn declaration(n: &RenderNode, t: &Type, name: &str) -> String {
    match t {
        Type::Generic(_, args) => format!("{} *{name}", n.type_text(&args[0])),
        _ => format!("{} {name}", n.type_text(t)),
    }
}

fn ty(n: &RenderNode) -> String {
    n.type_text(&n.node_type().expect("a typed tree"))
}

/// Whether the hole is in a function's body, where a pointer a
/// dereference needs can be lifted (a local `T *p = &x;`).
fn in_function(hole: &Hole) -> bool {
    hole.ancestors().any(|a| a.is("Body"))
}

/// A read through a pointer is the whole expression of a statement (an
/// initialiser, the value assigned or printed, a condition, the value
/// returned): it has no sibling whose evaluation is unsequenced with it,
/// so the variable it reads, which may be any variable of its type
/// (pointer parameters point into callers), is never also written or
/// read elsewhere in an order C leaves open. A store through a pointer is
/// a statement.
fn whole_expression(hole: &Hole) -> bool {
    const STATEMENTS: [&str; 11] = [
        "Local",
        "FieldSet",
        "Assign",
        "CompoundAssign",
        "Print",
        "DerefSet",
        "ExprStmt",
        "Body",
        "If",
        "Break",
        "Continue",
    ];
    in_function(hole) && hole.parent_production().is_some_and(|p| STATEMENTS.contains(&p.name()))
}

/// The type `T` of the `ptr<T>` a `DerefSet`'s pointer has.
fn pointee_type(n: &RenderNode) -> String {
    let ptr = n.at(n.node()).child("ptr").expect("a pointer");
    match ptr.node_type() {
        Some(Type::Generic(_, args)) => n.type_text(&args[0]),
        other => unreachable!("a pointer has type ptr<T>, not {other:?}"),
    }
}

/// The element type of the array a node defines.
fn element_type(n: &RenderNode) -> String {
    match n.node_type() {
        Some(Type::Generic(_, args)) => n.type_text(&args[0]),
        other => unreachable!("an array has type array<T>, not {other:?}"),
    }
}

/// `[index]`, the index reduced into the array's bounds.
fn subscript<'a>(n: &RenderNode<'a>, index: Doc<'a>) -> Doc<'a> {
    n.text("[(uint64_t)(")
        .append(index)
        .append(format!(") % {ARRAY_LENGTH}]"))
}

/// Pseudo-random constants from `seed` (a global's initialiser).
fn constants(seed: i64) -> impl FnMut() -> i64 {
    let mut state = seed as u64;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 32) as i64 - (1 << 31)
    }
}

/// Which member a field access reaches: any number, reduced when rendered.
fn member(r: &mut Random) -> i64 {
    r.below(64) as i64
}

/// The leaf of the struct that child `record` has that an access of type
/// `ty` (an array element when `array`) reaches, by the node's `path`.
fn field(n: &RenderNode, record: &str, ty: &str, array: bool) -> structs::Leaf {
    let record = n.at(n.node()).child(record).expect("a struct");
    let record = n.type_text(&record.node_type().expect("typed"));
    structs::leaf(&record, ty, array, literal_of(n.data("path"))).expect("every struct has scalars and arrays")
}

/// The type `T` of a `ptr<T>`.
fn pointee_of(n: &RenderNode, t: &Type) -> String {
    match t {
        Type::Generic(_, args) => n.type_text(&args[0]),
        other => unreachable!("a pointer has type ptr<T>, not {other:?}"),
    }
}

/// `place`, a leaf's value, converted to the node's type if that differs.
fn convert_leaf<'a>(n: &RenderNode<'a>, leaf: &structs::Leaf, place: Doc<'a>) -> Doc<'a> {
    match ty(n) == leaf.ty {
        true => place,
        false => convert(n, &ty(n), place),
    }
}

/// `value`, the rendering of node `from`, converted to `t` if its type
/// differs.
fn convert_from<'a>(n: &RenderNode<'a>, t: &str, from: &NodeRef, value: Doc<'a>) -> Doc<'a> {
    match n.type_text(&from.node_type().expect("typed")) == t {
        true => value,
        false => convert(n, t, value),
    }
}

fn literal_of(value: &xsmith::Value) -> i64 {
    value.as_int().expect("literals are integers")
}

/// The width and signedness of one of [`INT_TYPES`].
fn shape(t: &str) -> (u32, bool) {
    let (_, bits, signed) = INT_TYPES
        .iter()
        .find(|(name, _, _)| *name == t)
        .expect("an integer type");
    (*bits, *signed)
}

/// The literal `v` wrapped to the type `t`, written so that its C type is
/// `t` (or `int`, for the narrow types) and its value is in `t`'s range.
fn constant(t: &str, v: i64) -> String {
    let (bits, signed) = shape(t);
    let unsigned = if bits == 64 {
        v as u64
    } else {
        (v as u64) & ((1u64 << bits) - 1)
    };
    if !signed {
        return match bits {
            64 => format!("UINT64_C({unsigned})"),
            32 => format!("UINT32_C({unsigned})"),
            _ => format!("(({t}){unsigned})"),
        };
    }
    let value = if bits == 64 {
        v
    } else {
        let shift = 64 - bits;
        ((unsigned << shift) as i64) >> shift
    };
    let min = -(1i128 << (bits - 1));
    match bits {
        _ if i128::from(value) == min => format!("INT{bits}_MIN"),
        64 => format!("INT64_C({value})"),
        32 if value < 0 => format!("({value})"),
        32 => format!("{value}"),
        _ => format!("(({t}){value})"),
    }
}

/// `name(a, b, ...)`, its arguments on one line or indented.
fn call<'a>(n: &RenderNode<'a>, head: Doc<'a>, args: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
    let args = n.join(args, n.text(",").append(n.line()));
    head.append("(")
        .append(n.softline().append(args).nest(4))
        .append(")")
        .group()
}

/// `((T)(left op right))`: a comparison or logical operator, whose `int`
/// result (0 or 1) is cast to the node's type.
fn binary<'a>(n: &RenderNode<'a>, op: String) -> Doc<'a> {
    n.text(format!("(({})(", ty(n)))
        .append(n.child("left"))
        .append(format!(" {op} "))
        .append(n.child("right"))
        .append("))")
}

/// `value` converted to `t`: a plain cast to an unsigned type (reduction
/// modulo 2^N), the prelude's wrapping conversion to a signed one (a plain
/// cast of an out-of-range value would be implementation-defined).
fn convert<'a>(n: &RenderNode<'a>, t: &str, value: Doc<'a>) -> Doc<'a> {
    match shape(t).1 {
        true => n.text(format!("xs_to_{t}((uint64_t)(")).append(value).append("))"),
        false => n.text(format!("(({t})(")).append(value).append("))"),
    }
}

fn block<'a>(n: &RenderNode<'a>, stmts: Vec<Doc<'a>>) -> Doc<'a> {
    let body = n.concat(stmts.into_iter().map(|s| n.hardline().append(s)));
    n.text("{").append(body.nest(2)).append(n.hardline()).append("}")
}

/// `x op= value` for an unsigned `x`, with the operators that cannot
/// overflow after the integer promotions: the bitwise ones; `+=` and `-=`
/// (an `int` holds any sum of two promoted `uint16_t`s, and a negative
/// result converts to an unsigned type by reduction); `*=` for `uint8_t`,
/// `uint32_t` and `uint64_t` (not `uint16_t`: two promoted ones may
/// overflow `int`). A signed `x` gets `x = xs_op_T(x, value)` instead (its
/// bitwise operators depend on the representation of negative values in
/// C99, its arithmetic may overflow).
fn render_compound<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let t = ty(n);
    let (bits, signed) = shape(&t);
    let mut ops = vec![("&=", "and"), ("|=", "or"), ("^=", "xor"), ("+=", "add"), ("-=", "sub")];
    if signed || bits != 16 {
        ops.push(("*=", "mul"));
    }
    let (op, name) = ops[literal_of(n.data("op")) as usize % ops.len()];
    let var = n.data("name").to_string();
    if signed {
        let value = call(
            n,
            n.text(format!("xs_{name}_{t}")),
            [n.text(var.clone()), n.child("value")],
        );
        return n.text(format!("{var} = ")).append(value).append(";");
    }
    n.text(format!("{var} {op} ")).append(n.child("value")).append(";")
}

fn render_func<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let result = match n.node_type() {
        Some(Type::Function(f)) => n.type_text(&f.1),
        other => unreachable!("a function has a function type, not {other:?}"),
    };
    let params = n.list("params");
    let params = if params.is_empty() {
        n.text("void")
    } else {
        n.join(params, n.text(", "))
    };
    n.text(format!("static {result} {}(", n.data("name")))
        .append(params)
        .append(") {")
        .append(n.child("body").nest(2))
        .append(n.hardline())
        .append("}")
}

/// Globals and functions, then `main`: each function called in turn with
/// constant arguments and its result printed, then the checksum of every
/// global.
fn render_program<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let items = n.at(n.node()).children("items");
    let name = |node: &NodeRef| node.data("name").expect("a binder has a name").to_string();
    let seed = literal_of(n.data("args"));
    let mut main = vec!["int main(void) {".to_string()];
    let mut locals = Vec::new();
    for (k, func) in items.iter().filter(|item| item.is("Func")).enumerate() {
        let args: Vec<String> = func
            .children("params")
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let v = seed.wrapping_mul(i as i64 + 3).wrapping_add((i + k) as i64);
                match param.node_type().expect("typed") {
                    // A pointer parameter gets the address of a local of main.
                    Type::Generic(_, args) => {
                        let (t, local) = (n.type_text(&args[0]), format!("xs_a{k}_{i}"));
                        main.push(format!("  {t} {local} = {};", constant(&t, v)));
                        locals.push(local.clone());
                        format!("&{local}")
                    }
                    t => constant(&n.type_text(&t), v),
                }
            })
            .collect();
        main.push(format!(
            "  xs_print(\"{0}\", (uint64_t){0}({1}));",
            name(func),
            args.join(", ")
        ));
    }
    for local in locals {
        main.push(format!("  xs_mix((uint64_t){local});"));
    }
    for global in &items {
        if global.is("Global") {
            main.push(format!("  xs_mix((uint64_t){});", name(global)));
        } else if global.is("GlobalStruct") {
            for leaf in structs::leaves(&n.type_text(&global.node_type().expect("typed"))) {
                let place = format!("{}{}", name(global), leaf.path);
                main.push(match leaf.array {
                    true => format!("  for (int i = 0; i < {ARRAY_LENGTH}; i++) xs_mix((uint64_t){place}[i]);"),
                    false => format!("  xs_mix((uint64_t){place});"),
                });
            }
        } else if global.is("GlobalArray") {
            main.push(format!(
                "  for (int i = 0; i < {ARRAY_LENGTH}; i++) xs_mix((uint64_t){}[i]);",
                name(global)
            ));
        }
    }
    main.push("  printf(\"checksum = %016llx\\n\", (unsigned long long)xs_checksum);".into());
    main.push("  return 0;".into());
    main.push("}".into());
    let items = n.list("items").into_iter().map(|item| item.append(n.hardline()));
    n.concat(items).append(main.join("\n")).append(n.hardline())
}

/// The assembled spec.
///
/// ```
/// let spec = xsmith_c::spec().unwrap();
/// assert!(spec.lookup("For").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    Ok(Spec::assemble_typed("Program", type_system(), [c()])?)
}

/// The C fuzzer: its spec, prelude and file conventions.
///
/// ```
/// assert_eq!(xsmith_c::FUZZER.extension, "c");
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-c",
    version: env!("CARGO_PKG_VERSION"),
    extension: "c",
    spec,
    comment: |text| format!("/* {text} */\n"),
    prelude: PRELUDE,
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The compilers `xsmith-c diff` runs programs on by default: gcc and
/// clang at `-O0` and `-O2`, and tcc. Each compiles the program (`-w`: the
/// wrappers a program does not use are not worth a warning), then the
/// executable runs.
///
/// ```
/// assert_eq!(xsmith_c::IMPLEMENTATIONS.len(), 5);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Compiled {
        name: "gcc-O0",
        template: "gcc -std=c99 -w -O0 {} -o {exe}",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "gcc-O2",
        template: "gcc -std=c99 -w -O2 {} -o {exe}",
        package: "gcc",
    },
    Implementation::Compiled {
        name: "clang-O0",
        template: "clang -std=c99 -w -O0 {} -o {exe}",
        package: "clang",
    },
    Implementation::Compiled {
        name: "clang-O2",
        template: "clang -std=c99 -w -O2 {} -o {exe}",
        package: "clang",
    },
    Implementation::Compiled {
        name: "tcc",
        template: "tcc -w {} -o {exe}",
        package: "tcc",
    },
];
