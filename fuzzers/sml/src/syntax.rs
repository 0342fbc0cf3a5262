//! Standard ML's syntax of the canned productions, a template each where
//! the text is fixed, and the pieces the fuzzer's own productions share.
//!
//! Statements are declarations inside a `let`: a definition is `val x : T
//! = e` (a `fun` when its value is a function literal), a `ref` variable
//! `val x : T ref = ref e`, and every other statement `val () = e`; a
//! block of statements is `let ... in () end`. Every binder is written
//! with its type, so nothing is left to inference that SML could not
//! settle (flexible records, the value restriction). The integer, string
//! and array operators are calls of the header's safe wrappers.

use xsmith::types::{Type, TypeSystem};
use xsmith::{component, Doc, RenderNode};
use xsmith_canned::render::{indented, record_entries, string_literal};

use crate::types;

pub(crate) fn system<'a>(n: &RenderNode<'a>) -> &'a TypeSystem {
    n.program().type_store().expect("a typed spec").system()
}

/// The SML text of the node's type.
pub(crate) fn type_text(n: &RenderNode) -> String {
    types::text(system(n), &n.node_type().expect("a typed program"), 0)
}

/// `let decls in body end`, laid out over lines.
pub(crate) fn let_in<'a>(n: &RenderNode<'a>, decls: Vec<Doc<'a>>, body: Doc<'a>) -> Doc<'a> {
    let decls = indented(n, n.join(decls, n.hardline()), 2);
    let body = indented(n, body, 2);
    n.text("let")
        .append(decls)
        .append(n.hardline())
        .append("in")
        .append(body)
        .append(n.hardline())
        .append("end")
}

/// `(p1 : T1, p2 : T2)`, or `()`.
pub(crate) fn parameters<'a>(n: &RenderNode<'a>, params: Vec<Doc<'a>>) -> Doc<'a> {
    n.text("(").append(n.join(params, n.text(", "))).append(")")
}

/// An integer constant as SML writes it (`~3` for -3).
pub(crate) fn int_text(value: i64) -> String {
    match value < 0 {
        true => format!("~{}", value.unsigned_abs()),
        false => value.to_string(),
    }
}

/// `(name (a, b))`: a call of the header's helper `name` (recorded as
/// used) on the node's children `fields`.
pub(crate) fn call<'a>(n: &RenderNode<'a>, name: &'a str, fields: &[&str]) -> Doc<'a> {
    let args = fields.iter().map(|f| n.child(f)).collect();
    let head = n.text("(").append(n.helper(name)).append(" ");
    head.append(parameters(n, args)).append(")")
}

/// `(case scrutinee of rule | rule ...)`.
pub(crate) fn case<'a>(n: &RenderNode<'a>, rules: Vec<Doc<'a>>) -> Doc<'a> {
    let rules = indented(n, n.text("  ").append(n.join(rules, n.hardline().append("| "))), 2);
    n.text("(case ")
        .append(n.child("scrutinee"))
        .append(" of")
        .append(rules)
        .append(")")
}

/// `xs_out (label printer value)`: prints `label` and the value.
fn print_value<'a>(n: &RenderNode<'a>, label: &str, ty: &Type, value: Doc<'a>) -> Doc<'a> {
    let printer = types::printer(system(n), ty, &|helper| n.uses_helper(helper));
    let head = n.helper("xs_out").append(format!(" ({label}{printer} "));
    head.append(value).append(")")
}

/// `fun main () = let ... in <prints> end`, then its call: the statements,
/// then every variable of the program's top level printed, then the
/// checksum.
fn program<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let mut decls = vec![n.text("val () = ").append(n.helper("xs_sum")).append(" := 0")];
    decls.extend(n.list("stmts"));
    let mut prints = Vec::new();
    for s in n.at(n.node()).children("stmts") {
        let (Some(name), Some(ty)) = (s.data("name"), s.node_type()) else {
            continue;
        };
        let value = match s.production() {
            "Let" => n.text(name.to_string()),
            "RefLet" => n.text(format!("(!{name})")),
            _ => continue,
        };
        prints.push(print_value(n, &format!("\"{name} = \" ^ "), &ty, value).append(";"));
    }
    prints.push(n.helper("xs_finish").append(" ()"));
    let body = indented(n, let_in(n, decls, n.join(prints, n.hardline())), 2);
    n.text("fun main () =")
        .append(body)
        .append(n.hardline())
        .append("val () = main ()")
        .append(n.hardline())
}

/// `val x : T = e`, or `fun f (params) : R = body` for a function literal.
fn definition<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let init = n.at(n.node()).child("init").expect("a definition has a value");
    let (Some(Type::Function(f)), true) = (init.node_type(), init.is("Lambda") || init.is("LambdaBlock")) else {
        return n
            .text(format!("val {} : {} = ", n.data("name"), type_text(n)))
            .append(n.child("init"));
    };
    let params = init.children("params").into_iter().map(|p| n.render(p.id())).collect();
    let body = indented(n, n.render(init.child("body").expect("a body").id()), 2);
    let head = n.text(format!("fun {} ", n.data("name"))).append(parameters(n, params));
    head.append(format!(" : {} =", types::text(system(n), &f.1, 1)))
        .append(body)
}

component! {
    /// Standard ML's syntax of the canned productions.
    pub(crate) fn canned;
    uses {
        Program, Block, Let, Assign, IfStmt, BlockStmt, PrintStmt, IntLit, BoolLit, StrLit, Add, Sub, Mul, SafeDiv,
        SafeMod, Concat, Less, IntEq, And, Or, Neg, Not, StrLen, VarRef, IfExpr, ExprSeq, LetStar, LetDef, Lambda,
        LambdaBlock, Param, LoopVar, FnBody, Return, Apply, ArrayLit, ArrayGet, ArraySet, ListLit, ListGet, RecordLit,
        ForEachArray, ForEachList,
    }
    render {
        Program => program,
        Block => ["let", nest(2, [hardline, join(stmts, [hardline])]), hardline, "in () end"],
        Let => definition,
        LetDef => definition,
        Assign => ["val () = ", name, " := ", value],
        IfStmt => ["val () = if ", cond, " then", nest(2, [hardline, then]), "\nelse", nest(2, [hardline, otherwise])],
        BlockStmt => ["val () = ", body],
        PrintStmt => |n| {
            let ty = n.at(n.node()).child("value").and_then(|v| v.node_type()).expect("a typed value");
            n.text("val () = ").append(print_value(n, "", &ty, n.child("value")))
        },
        IntLit => |n| match n.data("value").as_int().expect("an integer") {
            v if v < 0 => n.text(format!("({})", int_text(v))),
            v => n.display(v),
        },
        BoolLit => [value],
        // Quotes and backslashes escaped, the rest of ASCII's control
        // characters as `\ddd`.
        StrLit => |n| {
            let escape = |c: char| (!(' '..='~').contains(&c)).then(|| format!("\\{:03}", c as u32));
            n.text(string_literal(&n.data("value").to_string(), escape))
        },
        Add => |n| call(n, "xs_add", &["left", "right"]),
        Sub => |n| call(n, "xs_sub", &["left", "right"]),
        Mul => |n| call(n, "xs_mul", &["left", "right"]),
        SafeDiv => |n| call(n, "xs_div", &["left", "right"]),
        SafeMod => |n| call(n, "xs_mod", &["left", "right"]),
        Concat => |n| call(n, "xs_cat", &["left", "right"]),
        Less => ["(", left, " < ", right, ")"],
        IntEq => ["(", left, " = ", right, ")"],
        And => ["(", left, " andalso ", right, ")"],
        Or => ["(", left, " orelse ", right, ")"],
        Neg => |n| call(n, "xs_neg", &["operand"]),
        Not => ["(not ", operand, ")"],
        StrLen => ["(String.size ", operand, ")"],
        // A `ref` variable is read through `!`.
        VarRef => |n| match n.at(n.node()).reference_target().is_some_and(|t| t.is("RefLet")) {
            true => n.text(format!("(!{})", n.data("name"))),
            false => n.display(n.data("name")),
        },
        IfExpr => [group(["(if ", cond, " then ", then, " else ", otherwise, ")"])],
        ExprSeq => ["(", join(effects, "; "), "; ", value, ")"],
        LetStar => |n| n.text("(").append(let_in(n, n.list("defs"), n.child("body"))).append(")"),
        Lambda => ["(fn (", join(params, ", "), ") =>", nest(2, [hardline, body]), ")"],
        LambdaBlock => ["(fn (", join(params, ", "), ") =>", nest(2, [hardline, body]), ")"],
        Param => |n| n.text(format!("{} : {}", n.data("name"), type_text(n))),
        LoopVar => |n| n.text(format!("{} : {}", n.data("name"), type_text(n))),
        FnBody => |n| let_in(n, n.list("stmts"), n.child("ret")),
        Return => [value],
        Apply => ["(", callee, " (", join(args, ", "), "))"],
        ArrayLit => ["(Array.fromList [", join(items, ", "), "])"],
        ListLit => ["[", join(items, ", "), "]"],
        ArrayGet => |n| call(n, "xs_aget", &["array", "index"]),
        ArraySet => |n| n.text("val () = ").append(call(n, "xs_aset", &["array", "index", "value"])),
        // Never generated: lists may be empty, so `ListNth` (with a default)
        // replaces it.
        ListGet => |n| unreachable!("ListGet is never generated (node {})", n.node().index()),
        RecordLit => |n| n.text("{").append(n.join(record_entries(n, " = "), n.text(", "))).append("}"),
        ForEachArray => ["val () = Array.app (fn (", element, ") =>", nest(2, [hardline, body]), ")",
            nest(2, [hardline, container])],
        ForEachList => ["val () = List.app (fn (", element, ") =>", nest(2, [hardline, body]), ")",
            nest(2, [hardline, container])],
    }
}
