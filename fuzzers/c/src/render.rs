//! Rendering: declarations, constants, conversions, struct members, and
//! the program's `main` with its checksum.

use xsmith::types::Type;
use xsmith::{Doc, NodeRef, RenderNode};

use crate::{structs, ARRAY_LENGTH, INT_TYPES, MEMBER_LENGTH};

/// `t` as C writes it; a struct type is recorded as a use of the helper
/// that defines it.
pub(crate) fn type_name(n: &RenderNode, t: &Type) -> String {
    let text = n.type_text(t);
    n.uses_helper(&text);
    text
}

/// The declaration of `name` with type `t`: `T name`, or `T *name` for a
/// `ptr<T>`.
pub(crate) fn declaration(n: &RenderNode, t: &Type, name: &str) -> String {
    match t {
        Type::Generic(_, args) => format!("{} *{name}", type_name(n, &args[0])),
        _ => format!("{} {name}", type_name(n, t)),
    }
}

pub(crate) fn ty(n: &RenderNode) -> String {
    type_name(n, &n.node_type().expect("a typed tree"))
}

/// The type of the node's child `name`.
pub(crate) fn child_type(n: &RenderNode, name: &str) -> String {
    let child = n.at(n.node()).child(name).expect("a child of that name");
    type_name(n, &child.node_type().expect("a typed tree"))
}

/// The type `T` of the `ptr<T>` a `Deref`'s or `DerefSet`'s pointer has.
pub(crate) fn pointee_type(n: &RenderNode) -> String {
    let ptr = n.at(n.node()).child("ptr").expect("a pointer");
    match ptr.node_type() {
        Some(Type::Generic(_, args)) => type_name(n, &args[0]),
        other => unreachable!("a pointer has type ptr<T>, not {other:?}"),
    }
}

/// The element type of the array a node defines.
pub(crate) fn element_type(n: &RenderNode) -> String {
    match n.node_type() {
        Some(Type::Generic(_, args)) => type_name(n, &args[0]),
        other => unreachable!("an array has type array<T>, not {other:?}"),
    }
}

/// `[index]`, the index reduced into the bounds of an array variable.
pub(crate) fn subscript<'a>(n: &RenderNode<'a>, index: Doc<'a>) -> Doc<'a> {
    subscript_of(n, index, ARRAY_LENGTH)
}

/// `[index]`, the index reduced into the bounds of a struct's array member.
pub(crate) fn member_subscript<'a>(n: &RenderNode<'a>, index: Doc<'a>) -> Doc<'a> {
    subscript_of(n, index, MEMBER_LENGTH)
}

fn subscript_of<'a>(n: &RenderNode<'a>, index: Doc<'a>, length: u64) -> Doc<'a> {
    n.text("[(uint64_t)(").append(index).append(format!(") % {length}]"))
}

/// Pseudo-random constants from `seed` (a global's initialiser; its
/// callers render a seed of 0 as all zeros, `{0}`).
pub(crate) fn constants(seed: i64) -> impl FnMut() -> i64 {
    let mut state = seed as u64;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 32) as i64 - (1 << 31)
    }
}
/// The leaf of the struct that child `record` has that an access of type
/// `ty` (an array element when `array`) reaches, by the node's `path`.
pub(crate) fn field(n: &RenderNode, record: &str, ty: &str, array: bool) -> structs::Leaf {
    let record = n.at(n.node()).child(record).expect("a struct");
    let record = type_name(n, &record.node_type().expect("typed"));
    structs::leaf(&record, ty, array, literal_of(n.data("path"))).expect("every struct has scalars and arrays")
}

/// The type `T` of a `ptr<T>`.
pub(crate) fn pointee_of(n: &RenderNode, t: &Type) -> String {
    match t {
        Type::Generic(_, args) => type_name(n, &args[0]),
        other => unreachable!("a pointer has type ptr<T>, not {other:?}"),
    }
}

/// `place`, a leaf's value, converted to the node's type if that differs.
pub(crate) fn convert_leaf<'a>(n: &RenderNode<'a>, leaf: &structs::Leaf, place: Doc<'a>) -> Doc<'a> {
    convert_if_other(n, &ty(n), leaf.ty, place)
}

/// `value`, the rendering of node `from`, converted to `t` if its type
/// differs.
pub(crate) fn convert_from<'a>(n: &RenderNode<'a>, t: &str, from: &NodeRef, value: Doc<'a>) -> Doc<'a> {
    convert_if_other(n, t, &type_name(n, &from.node_type().expect("typed")), value)
}

/// `value`, of type `from`, as it is if `t` is `from`, else converted to
/// `t` (see [`convert`]).
pub(crate) fn convert_if_other<'a>(n: &RenderNode<'a>, t: &str, from: &str, value: Doc<'a>) -> Doc<'a> {
    match from == t {
        true => value,
        false => convert(n, t, from, value),
    }
}

pub(crate) fn literal_of(value: &xsmith::Value) -> i64 {
    value.as_int().expect("literals are integers")
}

/// The width and signedness of one of [`INT_TYPES`].
pub(crate) fn shape(t: &str) -> (u32, bool) {
    let (_, bits, signed) = INT_TYPES
        .iter()
        .find(|(name, _, _)| *name == t)
        .expect("an integer type");
    (*bits, *signed)
}

/// The literal `v` wrapped to the type `t`, written so that its C type is
/// `t` (or `int`, for the narrow types) and its value is in `t`'s range.
/// A narrow type's literal is a plain `int` (`5`, `(-5)`): every use of a
/// value of a narrow type promotes it to `int` first, so a cast would
/// change nothing but the program's length.
pub(crate) fn constant(t: &str, v: i64) -> String {
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
            _ => format!("{unsigned}"),
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
        _ if value < 0 => format!("({value})"),
        _ => format!("{value}"),
    }
}

/// `name(a, b, ...)`, its arguments on one line or indented.
pub(crate) fn call<'a>(n: &RenderNode<'a>, head: Doc<'a>, args: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
    let args = n.join(args, n.text(",").append(n.line()));
    head.append("(")
        .append(n.softline().append(args).nest(4))
        .append(")")
        .group()
}

/// `((T)(left op right))`: a comparison or logical operator, whose `int`
/// result (0 or 1) is cast to the node's type.
pub(crate) fn binary<'a>(n: &RenderNode<'a>, op: String) -> Doc<'a> {
    n.text(format!("(({})(", ty(n)))
        .append(n.child("left"))
        .append(format!(" {op} "))
        .append(n.child("right"))
        .append("))")
}

/// `value`, of type `from`, converted to `t`: a plain cast to an unsigned
/// type (reduction modulo 2^N) or to a signed one that holds every value
/// of `from`; otherwise the prelude's wrapping conversion to the signed
/// `t` (a plain cast of an out-of-range value would be
/// implementation-defined).
pub(crate) fn convert<'a>(n: &RenderNode<'a>, t: &str, from: &str, value: Doc<'a>) -> Doc<'a> {
    match shape(t).1 && !holds_every_value(t, from) {
        true => n
            .helper(format!("xs_to_{t}"))
            .append("((uint64_t)(")
            .append(value)
            .append("))"),
        false => n.text(format!("(({t})(")).append(value).append("))"),
    }
}

/// Whether the integer type `t` holds every value of the integer type
/// `from`: a signed type holds a narrower or equal signed one and a
/// narrower unsigned one; an unsigned type, a narrower or equal unsigned
/// one.
pub(crate) fn holds_every_value(t: &str, from: &str) -> bool {
    let ((bits, signed), (from_bits, from_signed)) = (shape(t), shape(from));
    match (signed, from_signed) {
        (true, true) | (false, false) => from_bits <= bits,
        (true, false) => from_bits < bits,
        (false, true) => false,
    }
}

pub(crate) fn block<'a>(n: &RenderNode<'a>, stmts: Vec<Doc<'a>>) -> Doc<'a> {
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
pub(crate) fn render_compound<'a>(n: &RenderNode<'a>) -> Doc<'a> {
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
            n.helper(format!("xs_{name}_{t}")),
            [n.text(var.clone()), n.child("value")],
        );
        return n.text(format!("{var} = ")).append(value).append(";");
    }
    n.text(format!("{var} {op} ")).append(n.child("value")).append(";")
}

pub(crate) fn render_func<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let result = match n.node_type() {
        Some(Type::Function(f)) => type_name(n, &f.1),
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

/// The constant `v` of type `t`, read through the volatile `xs_zero`: a
/// value the compiler cannot know.
fn opaque(t: &str, v: i64) -> String {
    format!("(({t})(xs_zero ? {} : {}))", constant(t, 0), constant(t, v))
}

/// Whether the variable `reference` refers to is a global one, which
/// `main` checksums, so that what a loop stores into it is live.
pub(crate) fn global(reference: NodeRef) -> bool {
    reference
        .reference_target()
        .is_some_and(|binder| binder.is("Global") || binder.is("GlobalArray"))
}

/// Whether a node of the subtree of `node` adds into `xs_sink`: a
/// whole-array loop whose result (a fold's accumulator, a map's target
/// array) is local.
fn feeds_sink(node: NodeRef) -> bool {
    let own = match node.production() {
        "ArrayFold" => !global(node),
        "ArrayMap" | "ArrayZip" => !global(node.child("target").expect("a target array")),
        _ => false,
    };
    own || node.all_children().into_iter().any(feeds_sink)
}

/// Globals and functions, then `main`: each function called in turn with
/// constant arguments (through [`opaque`]; from the function's own `args`,
/// so that deleting another function changes none of them) and its result
/// printed, then the checksum of every global.
pub(crate) fn render_program<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let items = n.at(n.node()).children("items");
    let name = |node: &NodeRef| node.data("name").expect("a binder has a name").to_string();
    let mut main = vec!["int main(void) {".to_string()];
    let mut locals = Vec::new();
    for (k, func) in items.iter().filter(|item| item.is("Func")).enumerate() {
        let seed = literal_of(func.data("args").expect("a function has arguments"));
        let args: Vec<String> = func
            .children("params")
            .iter()
            .enumerate()
            .map(|(i, param)| {
                let v = seed.wrapping_mul(i as i64 + 3).wrapping_add(i as i64);
                match param.node_type().expect("typed") {
                    // A pointer parameter gets the address of a local of main.
                    Type::Generic(_, args) => {
                        let (t, local) = (type_name(n, &args[0]), format!("xs_a{k}_{i}"));
                        main.push(format!("  {t} {local} = {};", constant(&t, v)));
                        locals.push(local.clone());
                        format!("&{local}")
                    }
                    t => opaque(&type_name(n, &t), v),
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
            for leaf in structs::leaves(&type_name(n, &global.node_type().expect("typed"))) {
                let place = format!("{}{}", name(global), leaf.path);
                main.push(match leaf.array {
                    true => format!("  for (int i = 0; i < {MEMBER_LENGTH}; i++) xs_mix((uint64_t){place}[i]);"),
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
    if feeds_sink(n.at(n.node())) {
        main.push("  xs_mix(xs_sink);".into());
    }
    main.push("  printf(\"checksum = %016llx\\n\", (unsigned long long)xs_checksum);".into());
    main.push("  return 0;".into());
    main.push("}".into());
    let items = n.list("items").into_iter().map(|item| item.append(n.hardline()));
    n.concat(items).append(main.join("\n")).append(n.hardline())
}
