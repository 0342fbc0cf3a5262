//! The grammar of C programs: productions, their types, scopes, effects
//! and the filters that keep a program defined.

use xsmith::types::{Type, TypeStore};
use xsmith::{component, ChildTypes, Doc, Hole, NodeRef, Random, RenderNode};

use crate::render::*;
use crate::{structs, ARRAY_LENGTH, INT_NAMES, INT_TYPES, MAX_CALL_HEIGHT};

fn int(s: &mut TypeStore) -> Type {
    s.fresh_one_of_named(&INT_NAMES)
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

/// Integer literals: mostly small, often a boundary, sometimes anything
/// (each is wrapped to its type when rendered). A small one is drawn as
/// `0, 1, -1, 2, -2, ..., 16, -16` (the same values, each as likely), so
/// that a reducer's lower draws make literals of smaller magnitude, a
/// draw of zero the literal 0 (and a global array or struct seeded by it
/// all zeros, rendered `{0}`).
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
        0..=3 => zigzag(r.below(33)),
        4 | 5 => *r.pick(&EDGES),
        _ => r.next_u64() as i64,
    }
}

/// The `n`-th of `0, 1, -1, 2, -2, ...`.
fn zigzag(n: u64) -> i64 {
    let half = n.div_ceil(2) as i64;
    if n % 2 == 1 {
        half
    } else {
        -half
    }
}

/// The operators of the whole-array loops (`ArrayMap`, `ArrayZip`,
/// `ArrayFold`): those
/// whose wrappers have no branch on their operands but the conversion, so
/// that a vectorizer can take the loop.
const VECTOR_OPS: [&str; 8] = ["add", "add", "sub", "xor", "xor", "and", "or", "mul"];

/// The nearest ancestor of the hole named `name` inside its function.
fn enclosing<'a>(hole: &Hole<'a>, name: &str) -> Option<NodeRef<'a>> {
    hole.enclosing(name, |a| a.is("Func"))
}

/// Function `i` calls only earlier ones (the program is a sequential
/// scope), never from inside a loop (`For`, `ArrayMap`, ...: so a run's
/// work stays small), and only a function whose calls nest less deep than
/// its own may (see [`MAX_CALL_HEIGHT`] and [`callee_low_enough`]).
///
/// Nor in the value of a compound assignment: `x += f()` reads `x` in an
/// order unsequenced with the call, which may write `x`, and the read is
/// the assignment's own, which the effect analysis does not see as a
/// sibling of the value (an expression has no other side effect than a
/// call, so without one the value cannot write `x`).
fn call_allowed(hole: &Hole) -> bool {
    let allowance = hole.ancestors().find(|a| a.is("Func")).map(|f| call_allowance(hole, f));
    allowance.is_some_and(|a| a >= 2)
        && ["For", "ArrayMap", "ArrayZip", "ArrayFold", "CompoundAssign"]
            .iter()
            .all(|p| enclosing(hole, p).is_none())
}

/// How high the call graph below `func` may be, `func` counting one: a
/// function of the program's own (an item) [`MAX_CALL_HEIGHT`], a function
/// lifted for a call one less than the function that calls it. Read from
/// the chain of lifts alone, so it is the same wherever the program is
/// edited but in that chain.
fn call_allowance(hole: &Hole, func: NodeRef) -> u32 {
    let mut allowance = MAX_CALL_HEIGHT;
    let mut at = func;
    while let Some(reference) = hole.program().lifted_for(at.id()) {
        allowance = allowance.saturating_sub(1);
        match hole.at(reference).ancestors().find(|a| a.is("Func")) {
            Some(caller) => at = caller,
            None => break,
        }
    }
    allowance
}

/// Whether the call graph below function `func` is less than `bound`
/// high (`func` alone is one high; a call adds the callee's height): read
/// from `func`'s body and, through its calls, its callees', not from how
/// many functions the program has, so deleting another function changes
/// nothing here. A function is never higher than its
/// [`call_allowance`], which settles most questions without a walk.
fn lower_than(hole: &Hole, func: NodeRef, bound: u32) -> bool {
    if bound <= 1 {
        return false;
    }
    if call_allowance(hole, func) < bound {
        return true;
    }
    let mut stack: Vec<NodeRef> = func.all_children().collect();
    while let Some(node) = stack.pop() {
        if node.is("Call") {
            let callee = node.child("callee").and_then(|c| c.reference_target());
            if callee.is_some_and(|callee| !lower_than(hole, callee, bound - 1)) {
                return false;
            }
        }
        stack.extend(node.all_children());
    }
    true
}

/// A call's callee is a function whose call graph is lower than the
/// calling function's allowance ([`call_allowance`]): so no function's
/// calls nest deeper than [`MAX_CALL_HEIGHT`], and a run's work is at
/// most the calls a body makes to that power, however many functions the
/// program has.
fn callee_low_enough(hole: &Hole, binder: NodeRef) -> bool {
    let caller = hole.ancestors().find(|a| a.is("Func"));
    caller.is_some_and(|caller| lower_than(hole, binder, call_allowance(hole, caller)))
}

/// An address is taken only as the argument of a call, whose callee
/// (an earlier function) cannot outlive it.
fn an_argument(hole: &Hole) -> bool {
    hole.parent_production().is_some_and(|p| p.name() == "Call")
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
        Program { items: [Item; 1..=4] }
        abstract Item {}
        Global: Item { init = literal }
        GlobalArray: Item { init = literal }
        GlobalStruct: Item { init = literal }
        Func: Item { params: [Param; 0..=3], body: Body, args = literal }
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
        ArrayMap: Stmt { op = |r| *r.pick(&VECTOR_OPS), whole = |r| r.below(2) as i64, reverse = reverse, length: Expr, target: ArrayWrite, source: ArrayRead, value: Expr }
        ArrayZip: Stmt { op = |r| *r.pick(&VECTOR_OPS), whole = |r| r.below(2) as i64, reverse = reverse, length: Expr, target: ArrayWrite, left: ArrayRead, source: ArrayRead }
        ArrayFold: Stmt { op = |r| *r.pick(&VECTOR_OPS), whole = |r| r.below(2) as i64, reverse = reverse, length: Expr, source: ArrayRead }
        Break: Stmt { cond: Expr }
        Continue: Stmt { cond: Expr }
        Print: Stmt { value: Expr }
        DerefSet: Stmt { ptr: PtrRead, value: Expr }
        ExprStmt: Stmt { value: Expr }

        abstract Expr {}
        Const: Expr { value = literal }
        VarRef: Expr {}
        Counter: Expr {}
        ArrayGet: Expr { array: ArrayRead, index: Expr }
        ArrayRead {}
        FieldGet: Expr { record: StructRead, path = member }
        FieldElemGet: Expr { record: StructRead, path = member, index: Expr }
        StructRead {}
        StructWrite {}
        AddrOf: Expr { target: AddrTarget }
        AddrOfElem: Expr { array: ArrayWrite, index: Expr }
        AddrOfField: Expr { record: StructWrite, path = member }
        AddrTarget {}
        Deref: Expr { ptr: PtrRead }
        PtrRead {}
        ArrayWrite {}
        Arith: Expr {
            op = |r| *r.pick(&["add", "sub", "mul", "div", "mod", "shl", "shr", "and", "or", "xor"]),
            left: Expr, right: Expr,
        }
        Unary: Expr { op = |r| *r.pick(&["neg", "not"]), value: Expr }
        Compare: Expr { op = |r| *r.pick(&["<", "<=", ">", ">=", "==", "!="]), left: Expr, right: Expr }
        Logical: Expr { op = |r| *r.pick(&["&&", "||"]), left: Expr, right: Expr }
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
        AddrOfElem => (|s| { let t = int(s); pointer_to(s, t) }) { array: |c| { let t = element(c); array_of(c.store(), t) }, index: any_int },
        AddrOfField => (|s| { let t = int(s); pointer_to(s, t) }) { record: complete_struct },
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
        ArrayMap => (int) { length: any_int, target: array_of_node, source: |c| array(c.store()), value: same },
        ArrayZip => (int) { length: any_int, target: array_of_node, left: array_of_node, source: |c| array(c.store()) },
        ArrayFold => (int) { length: any_int, source: |c| array(c.store()) },
        Break => (|s| s.fresh()) { cond: any_int },
        Continue => (|s| s.fresh()) { cond: any_int },
        Print => (|s| s.fresh()) { value: any_int },
        ExprStmt => (|s| s.fresh()) { value: any_int },
        Const => (int),
        VarRef => (int),
        Counter => (int),
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
        ArrayFold => write(name),
        FuncRef => read(name),
        ArrayRead => read(name),
        AddrTarget => write(name),
        PtrRead => read(name),
        ArrayWrite => write(name),
        StructRead => read(name),
        StructWrite => write(name),
    }
    binding_filters { FuncRef => callee_low_enough }
    calls { Call => callee }
    function_body { Func => body }
    io { Print => true }
    strict_child_order {
        Program => true, Func => true, Body => true, Block => true, Local => true, Assign => true,
        CompoundAssign => true, ArraySet => true, DerefSet => true, If => true, For => true, Break => true, Continue => true, Print => true,
        ExprStmt => true, ArrayMap => true, ArrayZip => true, ArrayFold => true, Logical => true, Ternary => true, Comma => true, StructAssign => true, FieldSet => true,
        FieldElemSet => true, LocalElemPtr => true, LocalFieldPtr => true, AddrOfElem => true,
    }
    choice_filters {
        Call => call_allowed,
        Counter => |hole| hole.node().is_some_and(|id| counted_loop(hole.at(id)).is_some()),
        Break => |hole| enclosing(hole, "For").is_some(),
        Continue => |hole| enclosing(hole, "For").is_some(),
        Global => not_last,
        Deref => whole_expression,
        DerefSet => in_function,
        AddrOf => an_argument,
        AddrOfElem => an_argument,
        AddrOfField => an_argument,
        GlobalArray => not_last,
        GlobalStruct => not_last,
    }
    choice_weight {
        ArrayGet => 4, ArraySet => 4, Deref => 4, DerefSet => 4, AddrOf => 4, LocalPtr => 1, Const => 6, VarRef => 12, Counter => 6, Arith => 10, Assign => 10, CompoundAssign => 4, Local => 6, Call => 8,
        For => 3, ArrayMap => 10, ArrayZip => 8, ArrayFold => 10, If => 4, Print => 2, Comma => 1, ExprStmt => 1, Break => 6, Continue => 6,
        FieldGet => 3, FieldElemGet => 2, FieldSet => 3, FieldElemSet => 2, StructAssign => 2, LocalStruct => 2,
        LocalElemPtr => 1, LocalFieldPtr => 1, AddrOfElem => 2, AddrOfField => 2,
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
            let values = match literal_of(n.data("init")) {
                0 => "0".to_string(),
                seed => {
                    let mut next = constants(seed);
                    let values: Vec<String> = (0..ARRAY_LENGTH).map(|_| constant(&t, next())).collect();
                    values.join(", ")
                }
            };
            n.text(format!("static {t} {}[{ARRAY_LENGTH}] = {{{values}}};", n.data("name")))
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
        AddrOfElem => |n| n.text("&").append(n.child("array")).append(subscript(n, n.child("index"))),
        AddrOfField => |n| {
            let leaf = field(n, "record", &pointee_of(n, &n.node_type().expect("a typed tree")), false);
            n.text("&").append(n.child("record")).append(leaf.path)
        },
        LocalPtr => |n| {
            let t = n.node_type().expect("a typed tree");
            n.text(format!("{} = &", declaration(n, &t, &n.data("name").to_string()))).append(n.child("target")).append(";")
        },
        AddrTarget => [name],
        Deref => |n| convert(n, &ty(n), &pointee_type(n), n.text("*").append(n.child("ptr"))),
        DerefSet => |n| {
            let pointee = pointee_type(n);
            let value = convert(n, &pointee, &child_type(n, "value"), n.child("value"));
            n.text("*").append(n.child("ptr")).append(" = ").append(value).append(";")
        },
        PtrRead => [name],
        GlobalStruct => |n| {
            let init = match literal_of(n.data("init")) {
                0 => "{0}".to_string(),
                seed => structs::initialiser(&ty(n), &mut constants(seed)),
            };
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
            let leaf = field(n, "record", &type_name(n, &value.node_type().expect("typed")), false);
            n.child("record").append(leaf.path).append(" = ").append(convert_from(n, leaf.ty, &value, n.child("value"))).append(";")
        },
        FieldElemSet => |n| {
            let access = n.at(n.node()).child("access").expect("an element");
            let leaf = field(n, "record", &type_name(n, &access.node_type().expect("typed")), true);
            let index = n.render(access.child("index").expect("an index").id());
            let value = access.child("value").expect("a value");
            let value = convert_from(n, leaf.ty, &value, n.render(value.id()));
            n.child("record").append(leaf.path).append(member_subscript(n, index)).append(" = ").append(value).append(";")
        },
        FieldGet => |n| {
            let leaf = field(n, "record", &ty(n), false);
            convert_leaf(n, &leaf, n.child("record").append(leaf.path.clone()))
        },
        FieldElemGet => |n| {
            let leaf = field(n, "record", &ty(n), true);
            let place = n.child("record").append(leaf.path.clone()).append(member_subscript(n, n.child("index")));
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
        ArrayMap => |n| {
            let j = format!("xs_j{}", n.node().index());
            let value = call(n, n.helper(format!("xs_{}_{}", n.data("op"), ty(n))), [source_element(n, &j), n.child("value")]);
            map_loop(n, &j, value)
        },
        ArrayZip => |n| {
            let j = format!("xs_j{}", n.node().index());
            let left = n.child("left").append(format!("[{j}]"));
            let value = call(n, n.helper(format!("xs_{}_{}", n.data("op"), ty(n))), [left, source_element(n, &j)]);
            map_loop(n, &j, value)
        },
        ArrayFold => |n| {
            let (j, x) = (format!("xs_j{}", n.node().index()), n.data("name").to_string());
            let element = source_element(n, &j);
            let value = call(n, n.helper(format!("xs_{}_{}", n.data("op"), ty(n))).append(format!("({x}, ")), [element]);
            let fold = array_loop(n, &j).append(format!("{x} = ")).append(value).append(");");
            match global(n.at(n.node())) {
                true => fold,
                false => fold.append(n.hardline()).append(format!("xs_sink += (uint64_t){x};")),
            }
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
        Counter => |n| match counted_loop(n.at(n.node())) {
            Some(l) => {
                let var = if l.is("For") { "xs_i" } else { "xs_j" };
                n.text(format!("(({})({var}{}))", ty(n), l.id().index()))
            }
            None => n.text(constant(&ty(n), 0)),
        },
        Arith => |n| call(n, n.helper(format!("xs_{}_{}", n.data("op"), ty(n))), [n.child("left"), n.child("right")]),
        Unary => |n| call(n, n.helper(format!("xs_{}_{}", n.data("op"), ty(n))), [n.child("value")]),
        Compare => |n| binary(n, n.data("op").to_string()),
        Logical => |n| binary(n, n.data("op").to_string()),
        LogicalNot => |n| n.text(format!("(({})!", ty(n))).append(n.child("value")).append(")"),
        Cast => |n| convert(n, &ty(n), &child_type(n, "value"), n.child("value")),
        Ternary => |n| {
            let doc = n.child("cond").append(" ? ").append(n.child("then")).append(" : ").append(n.child("otherwise"));
            n.text(format!("(({})(", ty(n))).append(doc).append("))")
        },
        Comma => ["((void)(", effect, "), ", value, ")"],
        Call => |n| call(n, n.child("callee"), n.list("args")),
        FuncRef => [name],
    }
    feature {
        Call => "calls", Comma => "comma", For => "loops", Counter => "loops", Break => "loops",
        Continue => "loops", Print => "printing", GlobalArray => "arrays", LocalArray => "arrays",
        ArrayGet => "arrays", ArraySet => "arrays", ArrayMap => "array-loops", ArrayZip => "array-loops", ArrayFold => "array-loops",
        Deref => "pointers", DerefSet => "pointers", AddrOf => "pointers", AddrOfElem => "pointers",
        AddrOfField => "structs", LocalPtr => "pointers", CompoundAssign => "compound-assignment", Cast => "casts",
        Ternary => "conditionals", If => "conditionals",
        GlobalStruct => "structs", LocalStruct => "structs", StructAssign => "structs", FieldSet => "structs",
        FieldElemSet => "structs", FieldGet => "structs", FieldElemGet => "structs", LocalFieldPtr => "structs",
        LocalElemPtr => "pointers",
    }
}

/// How often a whole-array loop reads its source backwards: 1 in 4.
fn reverse(r: &mut Random) -> i64 {
    i64::from(r.below(4) == 3)
}

/// The element of an array loop's `source` that iteration `j` reads,
/// converted to the loop's type: `source[j]`, or `source[N - 1 - j]` when
/// the node's `reverse` is 1 (in range: `j < N`). The source may have
/// another element type than the loop (a widening or narrowing loop).
fn source_element<'a>(n: &RenderNode<'a>, j: &str) -> Doc<'a> {
    let index = match n.data("reverse") {
        xsmith::Value::Int(1) => format!("[{} - {j}]", ARRAY_LENGTH - 1),
        _ => format!("[{j}]"),
    };
    let element = n.child("source").append(index);
    let source = n.at(n.node()).child("source").expect("a source array");
    match source.node_type() {
        Some(Type::Generic(_, args)) => convert_if_other(n, &ty(n), &type_name(n, &args[0]), element),
        other => unreachable!("an array has type array<T>, not {other:?}"),
    }
}

/// The loop of an `ArrayMap` or `ArrayZip`: `target[j] = value`. When the
/// target is a local array, each element stored is also
/// added into `xs_sink` (an unsigned sum, so the same whatever order calls
/// run in), so that the loop's stores are live even when nothing reads the
/// array afterwards; a global array is in the checksum already.
fn map_loop<'a>(n: &RenderNode<'a>, j: &str, value: Doc<'a>) -> Doc<'a> {
    let store = n.child("target").append(format!("[{j}] = ")).append(value).append(";");
    if global(n.at(n.node()).child("target").expect("a target array")) {
        return array_loop(n, j).append(store);
    }
    let sink = n
        .text("xs_sink += (uint64_t)")
        .append(n.child("target"))
        .append(format!("[{j}];"));
    array_loop(n, j).append(block(n, vec![store, sink]))
}

/// The head of an array loop (`ArrayMap`, `ArrayZip`, `ArrayFold`) with induction
/// variable `j`: over the whole array when `whole` is 1 (`length` is then
/// evaluated before, for nothing: no expression here has an effect), else
/// over the first `ARRAY_LENGTH - length % (ARRAY_LENGTH + 1)` elements, a
/// count computed once, in range by construction (and unknown to the
/// compiler unless `length` folds to a constant). The subtraction makes
/// the many `length`s that are comparisons or logical operators (0 or 1)
/// run the loop over nearly the whole array, so that a vectorized body
/// runs rather than only its scalar remainder. With arrays of 8 elements
/// clang unrolled every whole-array loop before its loop vectorizer saw
/// it; of 64, it vectorizes many.
fn array_loop<'a>(n: &RenderNode<'a>, j: &str) -> Doc<'a> {
    if matches!(n.data("whole"), xsmith::Value::Int(1)) {
        let head = n
            .text("(void)(")
            .append(n.child("length"))
            .append(");")
            .append(n.hardline());
        return head.append(format!("for (int {j} = 0; {j} < {ARRAY_LENGTH}; {j}++) "));
    }
    let count = j.replacen("xs_j", "xs_n", 1);
    n.text(format!("for (uint64_t {j} = 0, {count} = {ARRAY_LENGTH} - (uint64_t)("))
        .append(n.child("length"))
        .append(format!(") % {}; {j} < {count}; {j}++) ", ARRAY_LENGTH + 1))
}

/// The loop whose induction variable a `Counter` at `node` reads: the
/// nearest enclosing `For` (its hidden counter, 0 to at most 5), or
/// `ArrayMap` when `node` is in its `value` (the one part of an array loop
/// rendered inside the loop; its `j` is below [`ARRAY_LENGTH`]). Either
/// value fits every integer type, so a plain cast converts it.
fn counted_loop<'a>(node: NodeRef<'a>) -> Option<NodeRef<'a>> {
    let in_value = |a: &NodeRef<'a>| a.child("value").is_some_and(|v| node.is_inside(v.id()));
    node.ancestors()
        .take_while(|a| !a.is("Func"))
        .find(|a| a.is("For") || (a.is("ArrayMap") && in_value(a)))
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

/// Which member a field access reaches: any number, reduced when rendered.
fn member(r: &mut Random) -> i64 {
    r.below(64) as i64
}
