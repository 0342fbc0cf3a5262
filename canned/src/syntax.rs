//! The syntax a language gives the canned productions: one method per
//! canned production (a default where the canned languages agree), each
//! receiving a typed view of the node; [`Canned::spec`](crate::Canned::spec)
//! registers them as the productions' renderers.

use std::sync::Arc;

use xsmith::{Component, Doc, RenderNode, Renderer, Value};

use crate::inherited::inherited;
use crate::nodes::{
    Apply, ArrayGet, ArraySet, Assign, Binary, Binding, BlockStmt, Counted, CountedWhile, DictGet, DictSet, ExprSeq,
    FieldGet, FieldSet, FnBody, ForEach, Function, IfExpr, IfStmt, Items, LetStar, ListGet, Literal, Name, RecordLit,
    Statements, Unary, ValueStmt,
};
use crate::nodes::{FieldShape, View};
use crate::render::{call, defined_names, dict_key, infix, record_entries, statements, string_literal};

/// How a language writes the canned productions.
///
/// A method renders its production's nodes; a view's field methods give the
/// children's documents (`n.cond()`), and the view derefs to the
/// [`RenderNode`] for text, line breaks and other nodes. Where the canned
/// languages agree (wrapper calls for arithmetic, `(callee)(args)` calls,
/// `[a, b]` arrays, `name = value` assignments, ...) the method has a
/// default; the others are the language's to write. The defaults call the
/// header's helpers (`add`, `aget`, `out`, ...) through
/// [`call`](crate::render::call), which records each use, so a program
/// includes exactly the [`Helper`](xsmith::Helper)s its nodes call; a
/// method of the language's own writes a helper's name with `call` or
/// [`RenderNode::helper`]. A language that
/// switches a [`Group`](crate::Group) off writes its methods as
/// `unreachable!()`: no node of them is ever generated.
/// [`inherited_renderings`](crate::inherited_renderings) lists the
/// productions a language leaves at the default, to check each against
/// the language (a default can be valid syntax that means something else).
///
/// Statements (the productions of node type `Stmt`, and `Return`) go
/// through [`statement`](Syntax::statement) once rendered, where a
/// language can put what must come before a statement (Python's hoisted
/// `def`s); [`statement_end`](Syntax::statement_end) ends the default
/// statements (`;` in JavaScript).
///
/// ```
/// use xsmith::Doc;
/// use xsmith_canned::nodes::*;
/// use xsmith_canned::{render, Canned, Group, Options, Syntax};
///
/// /// A tiny language of integers, variables and printing.
/// struct Tiny;
/// impl Syntax for Tiny {
///     fn if_stmt<'a>(&self, _: &IfStmt<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn block_stmt<'a>(&self, _: &BlockStmt<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn str_lit<'a>(&self, _: &Literal<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn str_len<'a>(&self, _: &Unary<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn if_expr<'a>(&self, _: &IfExpr<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn expr_seq<'a>(&self, _: &ExprSeq<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn let_star<'a>(&self, _: &LetStar<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn lambda<'a>(&self, _: &Function<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn lambda_block<'a>(&self, _: &Function<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn for_each<'a>(&self, _: &ForEach<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn counted_for<'a>(&self, _: &Counted<'_, 'a>) -> Doc<'a> { unreachable!() }
///     fn counted_while<'a>(&self, _: &CountedWhile<'_, 'a>) -> Doc<'a> { unreachable!() }
/// }
///
/// let mut options = Options::default();
/// options.groups = vec![Group::Integers, Group::Variables, Group::Printing];
/// let spec = Canned::new(&options).unwrap().spec(Tiny, []).unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let tree = generator.generate(&mut xsmith::Random::from_seed(1)).unwrap();
/// let text = xsmith::render::render_tree(&spec, &tree, 80);
/// assert!(text.contains("out("), "{text}");
/// ```
pub trait Syntax: Send + Sync + 'static {
    /// What comes around every statement once rendered (default: nothing).
    fn statement<'a>(&self, node: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
        let _ = node;
        doc
    }

    /// What ends the default statements (default: nothing; `;` for
    /// JavaScript).
    fn statement_end(&self) -> &'static str {
        ""
    }

    /// `Program`: its statements, then a print of every variable its `Let`s
    /// define (`out(x)`, each on a line), so a program's final state is in
    /// its output.
    fn program<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        inherited("Program");
        let end = self.statement_end();
        let dump = defined_names(n, "stmts")
            .into_iter()
            .map(|v| n.helper("out").append(format!("({v}){end}")));
        statements(n, n.stmts())
            .append(n.hardline())
            .append(n.join(dump, n.hardline()))
            .append(n.hardline())
    }

    /// `Block`: its statements, one per line.
    fn block<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        inherited("Block");
        statements(n, n.stmts())
    }

    /// `Let`: defines a new variable (default `name = init`).
    fn let_<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        inherited("Let");
        n.display(n.name()).append(" = ").append(n.init())
    }

    /// `Assign`: `name = value`.
    fn assign<'a>(&self, n: &Assign<'_, 'a>) -> Doc<'a> {
        inherited("Assign");
        n.display(n.name())
            .append(" = ")
            .append(n.value())
            .append(self.statement_end())
    }

    /// `IfStmt`: `if` with two blocks.
    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a>;

    /// `BlockStmt`: a nested block.
    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a>;

    /// `PrintStmt`: `out(value)`, the header's printing function.
    fn print_stmt<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
        inherited("PrintStmt");
        call(n, "out", [n.value()]).append(self.statement_end())
    }

    /// `IntLit`: the number, in parentheses when negative.
    fn int_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        inherited("IntLit");
        match n.value() {
            Value::Int(v) if *v < 0 => n.text(format!("({v})")),
            v => n.display(v),
        }
    }

    /// `BoolLit`: `true` or `false`.
    fn bool_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        inherited("BoolLit");
        n.display(n.value())
    }

    /// `StrLit`: a string literal (see [`string_literal`]).
    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a>;

    /// `Add`: the header's `add(left, right)`.
    fn add<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Add");
        call(n, "add", [n.left(), n.right()])
    }

    /// `Sub`: the header's `sub(left, right)`.
    fn sub<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Sub");
        call(n, "sub", [n.left(), n.right()])
    }

    /// `Mul`: the header's `mul(left, right)`.
    fn mul<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Mul");
        call(n, "mul", [n.left(), n.right()])
    }

    /// `SafeDiv`: the header's `div(left, right)`.
    fn safe_div<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("SafeDiv");
        call(n, "div", [n.left(), n.right()])
    }

    /// `SafeMod`: the header's `mod(left, right)`.
    fn safe_mod<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("SafeMod");
        call(n, "mod", [n.left(), n.right()])
    }

    /// `Concat`: the header's `cat(left, right)`.
    fn concat<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Concat");
        call(n, "cat", [n.left(), n.right()])
    }

    /// `Less`: `(left < right)`.
    fn less<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Less");
        infix(n, " < ")
    }

    /// `IntEq`: `(left == right)`.
    fn int_eq<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("IntEq");
        infix(n, " == ")
    }

    /// `And`: `(left and right)`.
    fn and<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("And");
        infix(n, " and ")
    }

    /// `Or`: `(left or right)`.
    fn or<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        inherited("Or");
        infix(n, " or ")
    }

    /// `Neg`: the header's `neg(operand)`.
    fn neg<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        inherited("Neg");
        call(n, "neg", [n.operand()])
    }

    /// `Not`: `(not operand)`.
    fn not<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        inherited("Not");
        n.text("(not ").append(n.operand()).append(")")
    }

    /// `StrLen`: a string's length.
    fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a>;

    /// `VarRef`: the variable's name.
    fn var_ref<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        inherited("VarRef");
        n.display(n.name())
    }

    /// `IfExpr`: a conditional expression.
    fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a>;

    /// `ExprSeq`: the effects in order, then the value.
    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a>;

    /// `LetStar`: sequential definitions, then the body's value.
    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a>;

    /// `LetDef`: one definition of a `LetStar` (default: as a `Let`).
    fn let_def<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        inherited("LetDef");
        self.let_(n)
    }

    /// `Lambda`: a function whose body is an expression.
    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a>;

    /// `LambdaBlock`: a function whose body is an `FnBody`.
    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a>;

    /// `Param`: the parameter's name.
    fn param<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        inherited("Param");
        n.display(n.name())
    }

    /// `LoopVar`: the loop variable's name.
    fn loop_var<'a>(&self, n: &Name<'_, 'a>) -> Doc<'a> {
        inherited("LoopVar");
        n.display(n.name())
    }

    /// `FnBody`: the statements, then the `Return`, one per line.
    fn fn_body<'a>(&self, n: &FnBody<'_, 'a>) -> Doc<'a> {
        inherited("FnBody");
        statements(n, n.stmts()).append(n.hardline()).append(n.ret())
    }

    /// `Return`: `return value`.
    fn return_<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
        inherited("Return");
        n.text("return ").append(n.value()).append(self.statement_end())
    }

    /// `Apply`: `(callee)(args)`.
    fn apply<'a>(&self, n: &Apply<'_, 'a>) -> Doc<'a> {
        inherited("Apply");
        n.text("(")
            .append(n.callee())
            .append(")(")
            .append(n.join(n.args(), n.text(", ")))
            .append(")")
    }

    /// `ArrayLit`: `[a, b]`.
    fn array_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        inherited("ArrayLit");
        n.text("[").append(n.join(n.items(), n.text(", "))).append("]")
    }

    /// `ListLit`: as an `ArrayLit`.
    fn list_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        inherited("ListLit");
        self.array_lit(n)
    }

    /// `DictLit`: `{"k0": a, "k1": b}` (keys from [`dict_key`]).
    fn dict_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        inherited("DictLit");
        let entries = n.items().into_iter().enumerate().map(|(i, e)| {
            let key = string_literal(&dict_key(i), |_| None);
            n.text(format!("{key}: ")).append(e)
        });
        n.text("{").append(n.join(entries, n.text(", "))).append("}")
    }

    /// `ArrayGet`: the header's `aget(array, index)`.
    fn array_get<'a>(&self, n: &ArrayGet<'_, 'a>) -> Doc<'a> {
        inherited("ArrayGet");
        call(n, "aget", [n.array(), n.index()])
    }

    /// `ListGet`: the header's `aget(list, index)`.
    fn list_get<'a>(&self, n: &ListGet<'_, 'a>) -> Doc<'a> {
        inherited("ListGet");
        call(n, "aget", [n.list(), n.index()])
    }

    /// `ArraySet`: the header's `aset(array, index, value)`.
    fn array_set<'a>(&self, n: &ArraySet<'_, 'a>) -> Doc<'a> {
        inherited("ArraySet");
        call(n, "aset", [n.array(), n.index(), n.value()]).append(self.statement_end())
    }

    /// `DictGet`: the header's `dget(dict, key, default)`.
    fn dict_get<'a>(&self, n: &DictGet<'_, 'a>) -> Doc<'a> {
        inherited("DictGet");
        call(n, "dget", [n.dict(), n.key(), n.default()])
    }

    /// `DictSet`: the header's `dset(dict, key, value)`.
    fn dict_set<'a>(&self, n: &DictSet<'_, 'a>) -> Doc<'a> {
        inherited("DictSet");
        call(n, "dset", [n.dict(), n.key(), n.value()]).append(self.statement_end())
    }

    /// `RecordLit`: `{x: a, y: b}` (see [`record_entries`]).
    fn record_lit<'a>(&self, n: &RecordLit<'_, 'a>) -> Doc<'a> {
        inherited("RecordLit");
        let entries = record_entries(n, ": ");
        n.text("{").append(n.join(entries, n.text(", "))).append("}")
    }

    /// `FieldGet_<f>`: `(record).f`.
    fn field_get<'a>(&self, n: &FieldGet<'_, 'a>) -> Doc<'a> {
        inherited("FieldGet_<f>");
        n.text("(").append(n.record()).append(").").append(n.display(n.field()))
    }

    /// `FieldSet_<f>`: `(record).f = value`.
    fn field_set<'a>(&self, n: &FieldSet<'_, 'a>) -> Doc<'a> {
        inherited("FieldSet_<f>");
        n.text("(")
            .append(n.record())
            .append(").")
            .append(n.display(n.field()))
            .append(" = ")
            .append(n.value())
            .append(self.statement_end())
    }

    /// `ForEachArray`, `ForEachList`: a loop over the container's elements.
    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a>;

    /// `CountedFor`: a loop whose counter runs from 0 to its
    /// [`iterations`](Counted::iterations) less one.
    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a>;

    /// `CountedWhile`: a counter from 0, a `while` loop (or, in the form
    /// that [`tests_last`](CountedWhile::tests_last), a loop that tests
    /// after the body) while it is below its
    /// [`iterations`](CountedWhile::iterations), the body and then the
    /// counter's increment.
    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a>;
}

/// A renderer calling `method` on the syntax with the node's view, and the
/// fields that view reads.
macro_rules! renderer {
    ($syntax:expr, $method:ident, $view:ident) => {{
        let syntax = Arc::clone($syntax);
        let renderer = Renderer::function(move |n| syntax.$method(&$view(n)));
        (renderer, <$view as View>::FIELDS)
    }};
    (statement $syntax:expr, $method:ident, $view:ident) => {{
        let syntax = Arc::clone($syntax);
        let renderer = Renderer::function(move |n| {
            let doc = syntax.$method(&$view(n));
            syntax.statement(n, doc)
        });
        (renderer, <$view as View>::FIELDS)
    }};
}

/// What a view reads: its fields and what each holds.
pub(crate) type ViewFields = &'static [(&'static str, FieldShape)];

/// The renderer of canned production `production` in `syntax`, and the
/// fields of the view it reads (which the test `views_match_the_grammar`
/// checks against the grammar).
pub(crate) fn renderer<S: Syntax>(syntax: &Arc<S>, production: &str) -> (Renderer, ViewFields) {
    match production {
        "Program" => renderer!(syntax, program, Statements),
        "Block" => renderer!(syntax, block, Statements),
        "Let" => renderer!(statement syntax, let_, Binding),
        "Assign" => renderer!(statement syntax, assign, Assign),
        "IfStmt" => renderer!(statement syntax, if_stmt, IfStmt),
        "BlockStmt" => renderer!(statement syntax, block_stmt, BlockStmt),
        "PrintStmt" => renderer!(statement syntax, print_stmt, ValueStmt),
        "IntLit" => renderer!(syntax, int_lit, Literal),
        "BoolLit" => renderer!(syntax, bool_lit, Literal),
        "StrLit" => renderer!(syntax, str_lit, Literal),
        "Add" => renderer!(syntax, add, Binary),
        "Sub" => renderer!(syntax, sub, Binary),
        "Mul" => renderer!(syntax, mul, Binary),
        "SafeDiv" => renderer!(syntax, safe_div, Binary),
        "SafeMod" => renderer!(syntax, safe_mod, Binary),
        "Concat" => renderer!(syntax, concat, Binary),
        "Less" => renderer!(syntax, less, Binary),
        "IntEq" => renderer!(syntax, int_eq, Binary),
        "And" => renderer!(syntax, and, Binary),
        "Or" => renderer!(syntax, or, Binary),
        "Neg" => renderer!(syntax, neg, Unary),
        "Not" => renderer!(syntax, not, Unary),
        "StrLen" => renderer!(syntax, str_len, Unary),
        "VarRef" => renderer!(syntax, var_ref, Name),
        "IfExpr" => renderer!(syntax, if_expr, IfExpr),
        "ExprSeq" => renderer!(syntax, expr_seq, ExprSeq),
        "LetStar" => renderer!(syntax, let_star, LetStar),
        "LetDef" => renderer!(syntax, let_def, Binding),
        "Lambda" => renderer!(syntax, lambda, Function),
        "LambdaBlock" => renderer!(syntax, lambda_block, Function),
        "Param" => renderer!(syntax, param, Name),
        "LoopVar" => renderer!(syntax, loop_var, Name),
        "FnBody" => renderer!(syntax, fn_body, FnBody),
        "Return" => renderer!(statement syntax, return_, ValueStmt),
        "Apply" => renderer!(syntax, apply, Apply),
        "ArrayLit" => renderer!(syntax, array_lit, Items),
        "ListLit" => renderer!(syntax, list_lit, Items),
        "DictLit" => renderer!(syntax, dict_lit, Items),
        "ArrayGet" => renderer!(syntax, array_get, ArrayGet),
        "ListGet" => renderer!(syntax, list_get, ListGet),
        "ArraySet" => renderer!(statement syntax, array_set, ArraySet),
        "DictGet" => renderer!(syntax, dict_get, DictGet),
        "DictSet" => renderer!(statement syntax, dict_set, DictSet),
        "RecordLit" => renderer!(syntax, record_lit, RecordLit),
        "ForEachArray" | "ForEachList" => renderer!(statement syntax, for_each, ForEach),
        "CountedFor" => renderer!(statement syntax, counted_for, Counted),
        "CountedWhile" => renderer!(statement syntax, counted_while, CountedWhile),
        p if p.starts_with("FieldGet_") => renderer!(syntax, field_get, FieldGet),
        p if p.starts_with("FieldSet_") => renderer!(statement syntax, field_set, FieldSet),
        other => unreachable!("`{other}` is not a canned production"),
    }
}

/// The component holding `syntax`'s renderers of `productions` (canned
/// production names).
pub(crate) fn renderers<S: Syntax>(syntax: S, productions: &[String]) -> Component {
    let syntax = Arc::new(syntax);
    let mut component = Component::new("syntax");
    for production in productions {
        component.render(production, renderer(&syntax, production).0);
    }
    component
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A syntax that writes every production as its name.
    pub(crate) struct Placeholder;

    impl Syntax for Placeholder {
        fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
            n.text("if")
        }
        fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
            n.text("block")
        }
        fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
            n.text("s")
        }
        fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
            n.text("len")
        }
        fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
            n.text("if")
        }
        fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
            n.text("seq")
        }
        fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
            n.text("let*")
        }
        fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
            n.text("lambda")
        }
        fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
            n.text("lambda")
        }
        fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
            n.text("for")
        }
        fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
            n.text("for")
        }
        fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
            n.text("while")
        }
    }

    /// Renderers of `canned`'s productions that print nothing.
    pub(crate) fn placeholders(canned: &crate::Canned) -> Component {
        renderers(Placeholder, &canned.productions)
    }
}
