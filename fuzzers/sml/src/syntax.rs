//! Standard ML's syntax of the canned productions and of the fuzzer's own.
//!
//! Statements are declarations inside a `let`: a definition is `val x : T
//! = e` (a `fun` when its value is a function literal), a `ref` variable
//! `val x : T ref = ref e`, and every other statement `val () = e`. Every
//! binder is written with its type, so nothing is left to inference that
//! SML could not settle (flexible records, the value restriction).

use xsmith::types::{Type, TypeSystem};
use xsmith::{Doc, NodeRef, RenderNode, Value};
use xsmith_canned::nodes::*;
use xsmith_canned::render::{indented, infix, record_entries};
use xsmith_canned::Syntax;

use crate::grammar::visible_definitions;
use crate::poly::Signature;
use crate::types;

fn system<'a>(n: &RenderNode<'a>) -> &'a TypeSystem {
    n.program().type_store().expect("a typed spec").system()
}

/// The SML text of a type of the program.
pub(crate) fn type_text(n: &RenderNode, ty: &Type) -> String {
    types::text(system(n), ty)
}

fn node_type(n: &RenderNode) -> Type {
    n.node_type().expect("a typed program")
}

/// `(name (a, b))`: a call of a header function, in parentheses, as an
/// argument of anything else.
pub(crate) fn call<'a>(n: &RenderNode<'a>, name: &str, args: impl IntoIterator<Item = Doc<'a>>) -> Doc<'a> {
    let args: Vec<Doc<'a>> = args.into_iter().collect();
    n.text("(")
        .append(n.helper(name.to_string()))
        .append(" ")
        .append(parameters(n, args))
        .append(")")
}

/// `let decls in body end`, laid out over lines.
fn let_in<'a>(n: &RenderNode<'a>, decls: Vec<Doc<'a>>, body: Doc<'a>) -> Doc<'a> {
    let decls = n.join(decls, n.hardline());
    n.text("let")
        .append(indented(n, decls, 2))
        .append(n.hardline())
        .append("in")
        .append(indented(n, body, 2))
        .append(n.hardline())
        .append("end")
}

/// A block of statements run for their effects: `let ... in () end`.
fn block<'a>(n: &RenderNode<'a>, body: Doc<'a>) -> Doc<'a> {
    n.text("let")
        .append(indented(n, body, 2))
        .append(n.hardline())
        .append("in () end")
}

/// `(p1 : T1, p2 : T2)`, or `()`.
fn parameters<'a>(n: &RenderNode<'a>, params: Vec<Doc<'a>>) -> Doc<'a> {
    n.text("(").append(n.join(params, n.text(", "))).append(")")
}

/// `name : T`: a binder with its type.
fn typed_name<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let t = type_text(n, &node_type(n));
    n.text(format!("{} : {t}", n.data("name")))
}

/// An integer constant as SML writes it (`~3` for -3).
fn int_text(value: i64) -> String {
    match value < 0 {
        true => format!("~{}", value.unsigned_abs()),
        false => value.to_string(),
    }
}

/// A string literal: quotes and backslashes escaped, the rest of ASCII's
/// control characters as `\ddd`.
fn string_text(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (' '..='~').contains(&c) => out.push(c),
            c => out.push_str(&format!("\\{:03}", c as u32)),
        }
    }
    out.push('"');
    out
}

/// `val () = xs_out (printer value)`: prints `label` and the value.
fn print_value<'a>(n: &RenderNode<'a>, label: &str, ty: &Type, value: Doc<'a>) -> Doc<'a> {
    let printer = types::printer(system(n), ty);
    for helper in types::printer_helpers(system(n), ty) {
        n.uses_helper(helper);
    }
    n.helper("xs_out")
        .append(format!(" ({label}{printer} "))
        .append(value)
        .append(")")
}

/// Standard ML's syntax of the canned productions.
pub(crate) struct Sml;

impl Syntax for Sml {
    /// `fun main () = let ... in <prints> end`, then its call: the
    /// statements, then every variable of the program's top level printed,
    /// then the checksum.
    fn program<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        let mut decls = vec![n.text("val () = ").append(n.helper("xs_sum")).append(" := 0")];
        decls.extend(n.stmts());
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
        let body = let_in(n, decls, n.join(prints, n.hardline()));
        n.text("fun main () =")
            .append(indented(n, body, 2))
            .append(n.hardline())
            .append("val () = main ()")
            .append(n.hardline())
    }

    fn block<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        n.join(n.stmts(), n.hardline())
    }

    /// `val x : T = e`, or `fun f (params) : R = body` for a function literal.
    fn let_<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        let init = n.at(n.node()).child("init").expect("a definition has a value");
        if init.is("Lambda") || init.is("LambdaBlock") {
            let Some(Type::Function(f)) = init.node_type() else {
                unreachable!("a function literal")
            };
            let params = init.children("params").into_iter().map(|p| n.render(p.id())).collect();
            let body = n.render(init.child("body").expect("a body").id());
            let result = types::result_text(system(n), &f.1);
            return n
                .text(format!("fun {} ", n.name()))
                .append(parameters(n, params))
                .append(format!(" : {result} ="))
                .append(indented(n, body, 2));
        }
        n.text("val ").append(typed_name(n)).append(" = ").append(n.init())
    }

    fn assign<'a>(&self, n: &Assign<'_, 'a>) -> Doc<'a> {
        n.text(format!("val () = {} := ", n.name())).append(n.value())
    }

    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
        let (then, otherwise) = (block(n, n.then()), block(n, n.otherwise()));
        n.text("val () = if ")
            .append(n.cond())
            .append(" then")
            .append(indented(n, then, 2))
            .append(n.hardline())
            .append("else")
            .append(indented(n, otherwise, 2))
    }

    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
        n.text("val () = ").append(block(n, n.body()))
    }

    fn print_stmt<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
        let value = n.at(n.node()).child("value").expect("a value");
        let ty = value.node_type().expect("typed");
        n.text("val () = ").append(print_value(n, "", &ty, n.value()))
    }

    fn int_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        let v = n.value().as_int().expect("an integer");
        n.text(if v < 0 {
            format!("({})", int_text(v))
        } else {
            v.to_string()
        })
    }

    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(string_text(&n.value().to_string()))
    }

    fn add<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_add", [n.left(), n.right()])
    }
    fn sub<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_sub", [n.left(), n.right()])
    }
    fn mul<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_mul", [n.left(), n.right()])
    }
    fn safe_div<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_div", [n.left(), n.right()])
    }
    fn safe_mod<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_mod", [n.left(), n.right()])
    }
    fn concat<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_cat", [n.left(), n.right()])
    }
    fn int_eq<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " = ")
    }
    fn and<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " andalso ")
    }
    fn or<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " orelse ")
    }
    fn neg<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        call(n, "xs_neg", [n.operand()])
    }

    fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        n.text("(String.size ").append(n.operand()).append(")")
    }

    /// A `ref` variable is read through `!`.
    fn var_ref<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        let target = n.at(n.node()).reference_target();
        match target.is_some_and(|t| t.is("RefLet")) {
            true => n.text(format!("(!{})", n.name())),
            false => n.display(n.name()),
        }
    }

    fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
        let doc = n.text("(if ").append(n.cond()).append(" then ").append(n.then());
        doc.append(" else ").append(n.otherwise()).append(")").group()
    }

    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
        let mut items = n.effects();
        items.push(n.value());
        n.text("(").append(n.join(items, n.text("; "))).append(")")
    }

    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
        n.text("(").append(let_in(n, n.defs(), n.body())).append(")")
    }

    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        n.text("(fn ")
            .append(parameters(n, n.params()))
            .append(" =>")
            .append(indented(n, n.body(), 2))
            .append(")")
    }

    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        self.lambda(n)
    }

    fn param<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        typed_name(n)
    }

    fn loop_var<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        typed_name(n)
    }

    fn fn_body<'a>(&self, n: &FnBody<'_, 'a>) -> Doc<'a> {
        let_in(n, n.stmts(), n.ret())
    }

    fn return_<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
        n.value()
    }

    fn apply<'a>(&self, n: &Apply<'_, 'a>) -> Doc<'a> {
        n.text("(")
            .append(n.callee())
            .append(" ")
            .append(parameters(n, n.args()))
            .append(")")
    }

    fn array_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        n.text("(Array.fromList [")
            .append(n.join(n.items(), n.text(", ")))
            .append("])")
    }

    fn list_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        n.text("[").append(n.join(n.items(), n.text(", "))).append("]")
    }

    fn array_get<'a>(&self, n: &ArrayGet<'_, 'a>) -> Doc<'a> {
        call(n, "xs_aget", [n.array(), n.index()])
    }

    /// Never generated: lists may be empty, so `ListNth` (with a default)
    /// replaces it.
    fn list_get<'a>(&self, n: &ListGet<'_, 'a>) -> Doc<'a> {
        unreachable!("ListGet is never generated (node {})", n.node().index())
    }

    fn array_set<'a>(&self, n: &ArraySet<'_, 'a>) -> Doc<'a> {
        n.text("val () = ")
            .append(call(n, "xs_aset", [n.array(), n.index(), n.value()]))
    }

    fn record_lit<'a>(&self, n: &RecordLit<'_, 'a>) -> Doc<'a> {
        n.text("{")
            .append(n.join(record_entries(n, " = "), n.text(", ")))
            .append("}")
    }

    fn field_get<'a>(&self, n: &FieldGet<'_, 'a>) -> Doc<'a> {
        n.text(format!("(#{} ", n.field())).append(n.record()).append(")")
    }

    /// Never generated: records are immutable.
    fn field_set<'a>(&self, n: &FieldSet<'_, 'a>) -> Doc<'a> {
        unreachable!("FieldSet is never generated (node {})", n.node().index())
    }

    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
        unreachable!("counted loops are switched off (node {})", n.node().index())
    }

    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
        unreachable!("counted loops are switched off (node {})", n.node().index())
    }

    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
        let app = if n.production() == "ForEachArray" {
            "Array.app"
        } else {
            "List.app"
        };
        let function = n
            .text("(fn (")
            .append(n.element())
            .append(") =>")
            .append(indented(n, block(n, n.body()), 2));
        n.text(format!("val () = {app} "))
            .append(function)
            .append(")")
            .append(indented(n, n.container(), 2))
    }
}

/// `val x : T ref = ref e`: a variable the canned `Assign` may assign.
pub(crate) fn ref_let<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let t = type_text(n, &node_type(n));
    n.text(format!("val {} : {t} ref = ref ", n.data("name")))
        .append(n.child("init"))
}

/// The name of the polymorphic function defined by `node`.
fn poly_name(node: &NodeRef) -> String {
    format!("poly{}", node.id().index())
}

/// `fun ('a, 'b) polyN (p : T, ...) : R = let <lifted> in body end`.
pub(crate) fn poly_def<'a>(n: &RenderNode<'a>, scheme: &Signature) -> Doc<'a> {
    let this = n.at(n.node());
    let body = this.child("body").expect("a body");
    let result = types::result_text(system(n), &body.node_type().expect("typed"));
    let variables = match scheme.variables().as_slice() {
        [one] => one.to_string(),
        many => format!("({})", many.join(", ")),
    };
    n.text(format!("fun {variables} {} ", poly_name(&this)))
        .append(parameters(n, n.list("params")))
        .append(format!(" : {result} ="))
        .append(indented(n, let_in(n, n.list("defs"), n.child("body")), 2))
}

/// A call of one of the `PolyDef_k` in scope (picked by the `target` data).
pub(crate) fn poly_call<'a>(n: &RenderNode<'a>, k: usize) -> Doc<'a> {
    let definitions = visible_definitions(n.at(n.node()), k);
    let pick = n.data("target").as_int().expect("an index") as usize % definitions.len().max(1);
    let name = definitions
        .get(pick)
        .map(poly_name)
        .expect("a call has a definition in scope");
    n.text(format!("({name} "))
        .append(parameters(n, n.list("args")))
        .append(")")
}

/// `case s of 0 => a | 7 => b | _ => d`: the constant of arm `i` lies in
/// `5i-2..=5i+2`, so no two arms share one.
pub(crate) fn int_case<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let arms = n.at(n.node()).children("arms");
    let mut rules = Vec::new();
    for (i, arm) in arms.iter().enumerate() {
        let v = arm.data("value").and_then(Value::as_int).expect("a constant");
        let constant = 5 * i as i64 + v - 2;
        rules.push(n.text(format!("{} => ", int_text(constant))).append(n.render(arm.id())));
    }
    rules.push(n.text("_ => ").append(n.child("default")));
    case(n, rules)
}

fn case<'a>(n: &RenderNode<'a>, rules: Vec<Doc<'a>>) -> Doc<'a> {
    let rules = n.join(rules, n.hardline().append("| "));
    n.text("(case ")
        .append(n.child("scrutinee"))
        .append(" of")
        .append(indented(n, n.text("  ").append(rules), 2))
        .append(")")
}

/// `case b of true => x | false => y`, in one of four spellings.
pub(crate) fn bool_case<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let (t, f) = (n.child("on_true"), n.child("on_false"));
    let rules = match n.data("style").as_int() {
        Some(0) => vec![n.text("true => ").append(t), n.text("false => ").append(f)],
        Some(1) => vec![n.text("false => ").append(f), n.text("true => ").append(t)],
        Some(2) => vec![n.text("true => ").append(t), n.text("_ => ").append(f)],
        _ => vec![n.text("false => ").append(f), n.text("_ => ").append(t)],
    };
    case(n, rules)
}

/// `case l of [] => x | h :: t => y`, in one of four spellings.
pub(crate) fn list_case<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    let arm = n.at(n.node()).child("on_cons").expect("a cons arm");
    let binders: Vec<String> = arm
        .children("binders")
        .iter()
        .map(|b| b.data("name").expect("named").to_string())
        .collect();
    let cons = n
        .text(format!("{} :: {} => ", binders[0], binders[1]))
        .append(n.child("on_cons"));
    let nil = n.child("on_nil");
    let rules = match n.data("style").as_int() {
        Some(0) => vec![n.text("[] => ").append(nil), cons],
        Some(1) => vec![cons, n.text("[] => ").append(nil)],
        Some(2) => vec![cons, n.text("_ => ").append(nil)],
        _ => vec![n.text("[] => ").append(nil), cons],
    };
    case(n, rules)
}
