//! Scheme's syntax of the canned productions: every form an S-expression
//! laid out by xsmith's documents (on one line when it fits), statements as forms of
//! a body, definitions as `define`s where a body allows them and as `let`
//! (`letrec` for a procedure) around the rest of the body elsewhere.

use xsmith::{Doc, NodeRef, RenderNode, Value};
use xsmith_canned::nodes::*;
use xsmith_canned::render::string_literal;
use xsmith_canned::Syntax;

/// `(head item item ...)`: on one line if it fits, else one item a line,
/// indented by two. The head is written through
/// [`RenderNode::helper`], so a form whose head is a helper (`int+`,
/// `out`) brings its definition into the program.
pub(crate) fn form<'a>(n: &RenderNode<'a>, head: &str, items: Vec<Doc<'a>>) -> Doc<'a> {
    let items = n.concat(items.into_iter().map(|item| n.line().append(item)));
    n.text("(")
        .append(n.helper(head.to_string()))
        .append(items.nest(2))
        .append(")")
        .group()
}

/// `(item item ...)`: a list of forms (a binding, a binding list), on one
/// line if it fits, else one item a line.
fn list<'a>(n: &RenderNode<'a>, items: Vec<Doc<'a>>) -> Doc<'a> {
    n.text("(").append(n.join(items, n.line()).nest(1)).append(")").group()
}

/// `(head` then each form of a body on its own line, indented by two, `)`.
pub(crate) fn body_form<'a>(n: &RenderNode<'a>, head: Doc<'a>, forms: Vec<Doc<'a>>) -> Doc<'a> {
    let forms = n.concat(forms.into_iter().map(|f| n.hardline().append(f)));
    n.text("(").append(head).append(forms.nest(2)).append(")")
}

/// `(let () forms...)`: a block as an expression.
pub(crate) fn let_block<'a>(n: &RenderNode<'a>, forms: Doc<'a>) -> Doc<'a> {
    n.text("(let ()").append(n.hardline().append(forms).nest(2)).append(")")
}

/// Whether `node` is a procedure literal (`Lambda` or `LambdaBlock`).
fn is_procedure(node: NodeRef) -> bool {
    node.is("Lambda") || node.is("LambdaBlock")
}

/// The parameter list `(a b)` of a procedure literal, with `name` first
/// when given (`(f a b)` for a `define`).
fn formals<'a>(n: &RenderNode<'a>, procedure: NodeRef<'a>, name: Option<Doc<'a>>) -> Doc<'a> {
    let params = procedure.children("params").into_iter().map(|p| n.render(p.id()));
    let words: Vec<Doc<'a>> = name.into_iter().chain(params).collect();
    n.text("(").append(n.join(words, n.text(" "))).append(")")
}

/// `(define name init)`, or `(define (name params) body)` when `init` is a
/// procedure literal.
fn definition<'a>(n: &RenderNode<'a>, binding: NodeRef<'a>) -> Doc<'a> {
    let name = n.display(binding.data("name").expect("a definition has a name"));
    let init = binding.child("init").expect("a definition has an initial value");
    if is_procedure(init) {
        let head = n.text("define ").append(formals(n, init, Some(name)));
        let body = init.child("body").expect("a procedure has a body");
        return body_form(n, head, vec![n.render(body.id())]);
    }
    form(n, "define", vec![name, n.render(init.id())])
}

/// The forms of a body made of `stmts` and then `tail` (a procedure's
/// result). `Let`s before any other statement are internal `define`s; a
/// later `Let` becomes a `let` (a `letrec` for a procedure) whose body is
/// the rest, since a body's definitions must come first. A body that would
/// end with a definition, or be empty, ends with `#t`.
pub(crate) fn body<'a>(n: &RenderNode<'a>, stmts: &[NodeRef<'a>], tail: Option<Doc<'a>>) -> Vec<Doc<'a>> {
    let mut forms = Vec::new();
    let mut defining = true;
    for (i, stmt) in stmts.iter().enumerate() {
        if !stmt.is("Let") {
            defining = false;
            forms.push(n.render(stmt.id()));
            continue;
        }
        if defining {
            forms.push(definition(n, *stmt));
            continue;
        }
        let name = n.display(stmt.data("name").expect("a definition has a name"));
        let init = stmt.child("init").expect("a definition has an initial value");
        let keyword = if is_procedure(init) { "letrec" } else { "let" };
        let binding = list(n, vec![list(n, vec![name, n.render(init.id())])]);
        let head = n.text(keyword).append(" ").append(binding);
        forms.push(body_form(n, head, body(n, &stmts[i + 1..], tail)));
        return forms;
    }
    match tail {
        Some(tail) => forms.push(tail),
        None if defining => forms.push(n.text("#t")),
        None => {}
    }
    forms
}

/// A name made unique by the node being rendered (`%` never occurs in the
/// canned names).
fn local<'a>(n: &RenderNode<'a>, stem: &str) -> String {
    format!("{stem}%{}", n.node().index())
}

/// Methods of [`Syntax`] that write a node as `(head field field ...)`.
macro_rules! forms {
    ($($method:ident($view:ident: $($field:ident),*) => $head:literal;)*) => {
        $(fn $method<'a>(&self, n: &$view<'_, 'a>) -> Doc<'a> {
            form(n, $head, vec![$(n.$field()),*])
        })*
    };
}

/// Scheme's syntax of the canned productions.
pub(crate) struct Scheme;

impl Syntax for Scheme {
    forms! {
        print_stmt(ValueStmt: value) => "out";
        add(Binary: left, right) => "int+";
        sub(Binary: left, right) => "int-";
        mul(Binary: left, right) => "int*";
        safe_div(Binary: left, right) => "int-quotient";
        safe_mod(Binary: left, right) => "int-modulo";
        concat(Binary: left, right) => "bounded-string-append";
        less(Binary: left, right) => "<";
        int_eq(Binary: left, right) => "=";
        and(Binary: left, right) => "and";
        or(Binary: left, right) => "or";
        neg(Unary: operand) => "int-negate";
        not(Unary: operand) => "not";
        str_len(Unary: operand) => "string-length";
        if_expr(IfExpr: cond, then, otherwise) => "if";
        array_get(ArrayGet: array, index) => "vector-ref/mod";
        list_get(ListGet: list, index) => "list-ref/mod";
        array_set(ArraySet: array, index, value) => "vector-set/mod!";
        dict_get(DictGet: dict, key, default) => "dict-ref";
        dict_set(DictSet: dict, key, value) => "dict-set!";
    }
    /// Top-level forms, then every top-level variable printed, then their
    /// checksum.
    fn program<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        let stmts = n.at(n.node()).children("stmts");
        let forms = stmts.iter().map(|s| match s.is("Let") {
            true => definition(n, *s),
            false => n.render(s.id()),
        });
        let names = xsmith_canned::render::defined_names(n, "stmts");
        let dump = names
            .iter()
            .map(|v| n.text("(").append(n.helper("out")).append(format!(" {v})")));
        let checksum = match names.is_empty() {
            true => n.nil(),
            false => form(
                n,
                "checksum",
                vec![form(n, "list", names.iter().map(|v| n.text(v.clone())).collect())],
            ),
        };
        n.join(forms.chain(dump), n.hardline())
            .append(n.hardline())
            .append(checksum)
            .append(n.hardline())
    }
    /// A block's forms (the caller wraps them in a body).
    fn block<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        n.join(body(n, &n.at(n.node()).children("stmts"), None), n.hardline())
    }
    fn let_<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        definition(n, n.at(n.node()))
    }
    fn assign<'a>(&self, n: &Assign<'_, 'a>) -> Doc<'a> {
        form(n, "set!", vec![n.display(n.name()), n.value()])
    }
    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
        let (then, otherwise) = (let_block(n, n.then()), let_block(n, n.otherwise()));
        body_form(n, n.text("if ").append(n.cond()), vec![then, otherwise])
    }
    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
        let_block(n, n.body())
    }
    fn int_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.display(n.value())
    }
    fn bool_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(if matches!(n.value(), Value::Bool(true)) {
            "#t"
        } else {
            "#f"
        })
    }
    /// `\"`, `\\`, `\n` and `\t` escaped; the strings are ASCII.
    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(string_literal(&n.value().to_string(), |_| None))
    }
    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
        let mut items = n.effects();
        items.push(n.value());
        form(n, "begin", items)
    }
    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
        let bindings = list(n, n.defs());
        body_form(n, n.text("let* ").append(bindings), vec![n.body()])
    }
    fn let_def<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        list(n, vec![n.display(n.name()), n.init()])
    }
    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        let this = n.at(n.node());
        body_form(n, n.text("lambda ").append(formals(n, this, None)), vec![n.body()])
    }
    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        self.lambda(n)
    }
    /// A procedure's body forms, its result last.
    fn fn_body<'a>(&self, n: &FnBody<'_, 'a>) -> Doc<'a> {
        n.join(body(n, &n.at(n.node()).children("stmts"), Some(n.ret())), n.hardline())
    }
    fn return_<'a>(&self, n: &ValueStmt<'_, 'a>) -> Doc<'a> {
        n.value()
    }
    fn apply<'a>(&self, n: &Apply<'_, 'a>) -> Doc<'a> {
        let items = n.concat(n.args().into_iter().map(|a| n.line().append(a)));
        n.text("(").append(n.callee()).append(items.nest(2)).append(")").group()
    }
    fn array_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        form(n, "vector", n.items())
    }
    fn list_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        form(n, "list", n.items())
    }
    /// `(make-dict (cons "k0" a) ...)`: an association list in a tagged
    /// vector.
    fn dict_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        let entries = n.items().into_iter().enumerate().map(|(i, item)| {
            let key = string_literal(&xsmith_canned::render::dict_key(i), |_| None);
            form(n, "cons", vec![n.text(key), item])
        });
        form(n, "make-dict", entries.collect())
    }
    /// `(make-record x y)`, the values in the order of the fuzzer's record
    /// fields.
    fn record_lit<'a>(&self, n: &RecordLit<'_, 'a>) -> Doc<'a> {
        let Some(xsmith::types::Type::Record(fields)) = n.node_type() else {
            panic!("a record literal has a record type")
        };
        let mut values: Vec<(usize, Doc<'a>)> = fields
            .iter()
            .zip(n.values())
            .map(|((field, _), value)| (field_slot(field), value))
            .collect();
        values.sort_by_key(|(slot, _)| *slot);
        form(n, "make-record", values.into_iter().map(|(_, v)| v).collect())
    }
    fn field_get<'a>(&self, n: &FieldGet<'_, 'a>) -> Doc<'a> {
        let slot = field_slot(&n.field().to_string());
        form(n, "vector-ref", vec![n.record(), n.display(slot)])
    }
    fn field_set<'a>(&self, n: &FieldSet<'_, 'a>) -> Doc<'a> {
        let slot = field_slot(&n.field().to_string());
        form(n, "vector-set!", vec![n.record(), n.display(slot), n.value()])
    }
    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
        counted(n, n.counter(), n.iterations(), n.body())
    }
    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
        counted(n, n.counter(), n.iterations(), n.body())
    }
    /// A list: `for-each` with a procedure of the element. A vector: a
    /// named `let` whose counter runs up to the vector's length.
    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
        let element = n.element();
        if n.production() == "ForEachList" {
            let procedure = body_form(n, n.text("lambda (").append(element).append(")"), vec![n.body()]);
            return form(n, "for-each", vec![procedure, n.container()]);
        }
        let (vector, index, again) = (local(n, "vec"), local(n, "i"), local(n, "loop"));
        let bind = n
            .text("let ((")
            .append(element)
            .append(format!(" (vector-ref {vector} {index})))"));
        let step = body_form(n, bind, vec![n.body()]);
        let test = n.text(format!("when (< {index} (vector-length {vector}))"));
        let round = body_form(n, test, vec![step, n.text(format!("({again} (+ {index} 1))"))]);
        let named = body_form(n, n.text(format!("let {again} (({index} 0))")), vec![round]);
        let outer = n.text(format!("let (({vector} ")).append(n.container()).append("))");
        body_form(n, outer, vec![named])
    }
}

/// A loop that runs `body` `iterations` times with `counter` bound to 0, 1,
/// ...: a named `let` over a counter of its own, so that the body's
/// variable is rebound each round.
fn counted<'a>(n: &RenderNode<'a>, counter: Doc<'a>, iterations: i64, body: Doc<'a>) -> Doc<'a> {
    let (index, again) = (local(n, "i"), local(n, "loop"));
    let bind = n.text("let ((").append(counter).append(format!(" {index}))"));
    let round = body_form(n, bind, vec![body]);
    let test = n.text(format!("when (< {index} {iterations})"));
    let step = body_form(n, test, vec![round, n.text(format!("({again} (+ {index} 1))"))]);
    body_form(n, n.text(format!("let {again} (({index} 0))")), vec![step])
}

/// The slot of record field `field` in the vector `(record x y)`.
fn field_slot(field: &str) -> usize {
    1 + crate::RECORD_FIELDS
        .iter()
        .position(|f| *f == field)
        .expect("a record field of the fuzzer's options")
}
