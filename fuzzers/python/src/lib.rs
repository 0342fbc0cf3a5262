//! A Python fuzzer on the canned components: every program runs alike on
//! CPython 3.11 (`python3`) and PyPy 3.9 (`pypy3`). Integers are 64-bit,
//! wrapped by header functions (intermediate results exceed 64 bits, so
//! big-integer paths run too); values print through `show`, which writes
//! strings with `ascii`, containers element by element and dictionaries in
//! sorted key order. Block-bodied lambdas become `def`s hoisted before the
//! statement that uses them, with `global`/`nonlocal` declarations for the
//! outer variables they assign. See README.md.

mod hot;
mod idioms;
mod poly;

pub use idioms::{BIG_INTEGERS, CLASSES, COMPREHENSIONS, EXCEPTIONS, GENERATORS, WHILE};
pub use poly::GROUP as POLY_CALLS;

use xsmith::fuzzer::SpecFailure;
use xsmith::{Component, Doc, Fuzzer, Helper, Implementation, NodeRef, RenderNode, Spec, Value};
use xsmith_canned::nodes::*;
use xsmith_canned::render::{indented, record_entries, string_literal};
use xsmith_canned::{Canned, Options, Syntax};

/// Whether an expression-bodied lambda holds a block-bodied one or a hot
/// loop (and so must be a `def` itself: a `def` cannot be hoisted out of a
/// `lambda`).
fn holds_block(node: NodeRef) -> bool {
    node.all_children()
        .any(|c| c.is("LambdaBlock") || hot::is_hot(c) || holds_block(c))
}

/// The functions rendered as hoisted `def`s in the expressions under
/// `node`, not looking into nested blocks (their statements hoist their
/// own) nor into the functions found; a hot loop's `def` comes after those
/// of its arguments (which are evaluated outside it).
fn collect<'a>(node: NodeRef<'a>, out: &mut Vec<NodeRef<'a>>) {
    match node.production() {
        "Block" => {}
        "LambdaBlock" => out.push(node),
        "Lambda" if holds_block(node) => out.push(node),
        "Lambda" => {}
        _ if hot::is_hot(node) => {
            node.all_children().for_each(|c| collect(c, out));
            out.push(node);
        }
        _ => node.all_children().for_each(|c| collect(c, out)),
    }
}

/// The `def`s a statement (or a `def`'s returned expression) needs before it.
fn hoisted<'a>(n: &RenderNode<'a>, roots: impl IntoIterator<Item = NodeRef<'a>>) -> Doc<'a> {
    let mut defs = Vec::new();
    roots.into_iter().for_each(|r| collect(r, &mut defs));
    n.concat(defs.into_iter().map(|d| {
        let def = match hot::is_hot(d) {
            true => hot::definition(n, d),
            false => function_def(n, d),
        };
        def.append(n.hardline())
    }))
}

/// Whether the binder `node` is a local of some function (else a global).
fn in_function(node: NodeRef) -> bool {
    node.ancestors().any(|a| a.is("Lambda") || a.is("LambdaBlock"))
}

/// The `global` and `nonlocal` declarations of the `def` of `function`:
/// every outer variable that an assignment in its body (not in a nested
/// function) writes.
fn declarations<'a>(n: &RenderNode<'a>, function: NodeRef<'a>) -> Doc<'a> {
    let (mut stack, mut lines) = (function.children("body"), Vec::<String>::new());
    while let Some(node) = stack.pop() {
        match node.production() {
            "Lambda" | "LambdaBlock" => continue,
            "Assign" => {
                if let (Some(name), Some(binder)) = (node.data("name"), node.reference_target()) {
                    if !binder.is_inside(function.id()) {
                        let word = if in_function(binder) { "nonlocal" } else { "global" };
                        lines.push(format!("{word} {name}"));
                    }
                }
            }
            _ => {}
        }
        stack.extend(node.all_children());
    }
    lines.sort_unstable();
    lines.dedup();
    n.concat(lines.into_iter().map(|l| n.text(l).append(n.hardline())))
}

/// The name of the `def` of a hoisted function.
fn def_name<'a>(n: &RenderNode<'a>, function: NodeRef) -> Doc<'a> {
    n.text(format!("f{}", function.id().index()))
}

fn params<'a>(n: &RenderNode<'a>, function: NodeRef) -> Doc<'a> {
    let params = function.children("params").into_iter().map(|p| n.render(p.id()));
    n.join(params, n.text(", "))
}

/// `def fN(params):` and the body of a hoisted function.
fn function_def<'a>(n: &RenderNode<'a>, function: NodeRef<'a>) -> Doc<'a> {
    let body = function.child("body").expect("a function has a body");
    let inner = if function.is("LambdaBlock") {
        declarations(n, function).append(n.render(body.id()))
    } else {
        hoisted(n, [body]).append("return ").append(n.render(body.id()))
    };
    n.text("def ")
        .append(def_name(n, function))
        .append("(")
        .append(params(n, function))
        .append("):")
        .append(indented(n, inner, 4))
}

/// `(a, b, c)`: the items, evaluated left to right.
fn tuple<'a>(n: &RenderNode<'a>, items: Vec<Doc<'a>>) -> Doc<'a> {
    let single = items.len() == 1;
    let doc = n.text("(").append(n.join(items, n.text(", ")));
    doc.append(if single { ",)" } else { ")" })
}

/// Python's syntax of the canned productions.
struct Python;

impl Syntax for Python {
    /// `Block`: its statements; `pass` when it is empty (past the depth
    /// bound).
    fn block<'a>(&self, n: &Statements<'_, 'a>) -> Doc<'a> {
        let items = n.stmts();
        match items.is_empty() {
            true => n.text("pass"),
            false => n.join(items, n.hardline()),
        }
    }

    /// A statement: the `def`s its expressions need, then the statement.
    fn statement<'a>(&self, n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
        hoisted(n, n.at(n.node()).all_children()).append(doc)
    }
    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
        let head = n
            .text("if ")
            .append(n.cond())
            .append(":")
            .append(indented(n, n.then(), 4));
        head.append(n.hardline())
            .append("else:")
            .append(indented(n, n.otherwise(), 4))
    }
    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
        n.text("if True:").append(indented(n, n.body(), 4))
    }
    fn bool_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(if matches!(n.value(), Value::Bool(true)) {
            "True"
        } else {
            "False"
        })
    }
    /// `\`, `"` and control characters escaped, anything else (non-ASCII
    /// included) as itself.
    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        let hex = |c: char| c.is_control().then(|| format!("\\x{:02x}", c as u32));
        n.text(string_literal(&n.value().to_string(), hex))
    }
    fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        xsmith_canned::render::call(n, "len", [n.operand()])
    }
    fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
        let head = n.text("(").append(n.then()).append(" if ").append(n.cond());
        head.append(" else ").append(n.otherwise()).append(")")
    }
    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
        let mut items = n.effects();
        items.push(n.value());
        tuple(n, items).append("[-1]")
    }
    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
        let mut items = n.defs();
        items.push(n.body());
        tuple(n, items).append("[-1]")
    }
    fn let_def<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        n.text("(")
            .append(n.display(n.name()))
            .append(" := ")
            .append(n.init())
            .append(")")
    }
    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        let this = n.at(n.node());
        if holds_block(this) {
            return def_name(n, this);
        }
        let space = if this.children("params").is_empty() { "" } else { " " };
        let head = n.text("(lambda").append(space).append(params(n, this));
        head.append(": ").append(n.body()).append(")")
    }
    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        def_name(n, n.at(n.node()))
    }
    fn list_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        tuple(n, n.items())
    }
    fn dict_get<'a>(&self, n: &DictGet<'_, 'a>) -> Doc<'a> {
        let head = n.text("(").append(n.dict()).append(").get(").append(n.key());
        head.append(", ").append(n.default()).append(")")
    }
    fn dict_set<'a>(&self, n: &DictSet<'_, 'a>) -> Doc<'a> {
        let head = n.text("(").append(n.dict()).append(")[").append(n.key());
        head.append("] = ").append(n.value())
    }
    fn record_lit<'a>(&self, n: &RecordLit<'_, 'a>) -> Doc<'a> {
        n.helper("Rec")
            .append("(")
            .append(n.join(record_entries(n, "="), n.text(", ")))
            .append(")")
    }
    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
        let head = n.text("for ").append(n.element()).append(" in ").append(n.container());
        head.append(":").append(indented(n, n.body(), 4))
    }
    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
        let head = n.text("for ").append(n.counter());
        head.append(format!(" in range({}):", n.iterations()))
            .append(indented(n, n.body(), 4))
    }
    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
        let (i, count) = (n.counter_name(), n.iterations());
        let body = n.body().append(n.hardline()).append(format!("{i} += 1"));
        let looped = match n.tests_last() {
            true => {
                let body = body.append(n.hardline()).append(format!("if {i} >= {count}:"));
                let body = body.append(indented(n, n.text("break"), 4));
                n.text("while True:").append(indented(n, body, 4))
            }
            false => n.text(format!("while {i} < {count}:")).append(indented(n, body, 4)),
        };
        n.text(format!("{i} = 0")).append(n.hardline()).append(looped)
    }
}

/// The canned options of the Python fuzzer: all groups, 64-bit integers,
/// the canned strings plus an apostrophe and non-ASCII text, records with
/// the fields `x` and `y` (the header's `Rec` class).
///
/// ```
/// let options = xsmith_python::options();
/// assert_eq!(options.int_range, (i64::MIN, i64::MAX));
/// assert_eq!(options.record_fields, ["x", "y"]);
/// ```
pub fn options() -> Options {
    let mut options = Options {
        int_range: (i64::MIN, i64::MAX),
        ..Options::default()
    };
    options
        .strings
        .extend(["it's", "caf\u{e9}", "\u{65e5}\u{672c}", "\u{1F600}!"]);
    options
}

/// The Python spec: the canned productions and their Python renderers.
///
/// ```
/// let spec = xsmith_python::spec().unwrap();
/// assert!(spec.lookup("LambdaBlock").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    let options = options();
    let canned = Canned::new(&options)?;
    Ok(canned.spec(Python, [own(options.hot_iterations)])?)
}

/// Python's own productions (issue 34), each in a feature group of its
/// own: polymorphic calls in hot loops (`PolyCall`, [`POLY_CALLS`]),
/// `while` (`WhileLoop`, [`WHILE`]), comprehensions (`Comprehensions`,
/// [`COMPREHENSIONS`]), classes with dunder operators (`ClassOps`,
/// [`CLASSES`]), exceptions (`TryLoop`, [`EXCEPTIONS`]), generators
/// (`GenLoop`, [`GENERATORS`]) and big integers (`BigInt`,
/// [`BIG_INTEGERS`]).
fn own(hot: (i64, i64)) -> Component {
    let mut c = Component::new("python");
    for spec in hot::all() {
        hot::add(&mut c, spec, hot);
    }
    c
}

/// The runtime helpers, each written into a program that uses it: 64-bit wrapping arithmetic, safe division, modulo,
/// bounded concatenation, safe indexing, the record class, and printing
/// that every implementation does alike.
const HELPERS: &[Helper] = &[
    Helper::new(
        "w",
        "def w(x):\n    return (x + 0x8000000000000000) % 0x10000000000000000 - 0x8000000000000000",
    ),
    Helper::new("add", "def add(a, b):\n    return w(a + b)").uses(&["w"]),
    Helper::new("sub", "def sub(a, b):\n    return w(a - b)").uses(&["w"]),
    Helper::new("mul", "def mul(a, b):\n    return w(a * b)").uses(&["w"]),
    Helper::new("neg", "def neg(a):\n    return w(-a)").uses(&["w"]),
    Helper::new("div", "def div(a, b):\n    return w(a // b) if b else a").uses(&["w"]),
    Helper::new("mod", "def mod(a, b):\n    return a % b if b else a"),
    Helper::new("cat", "def cat(a, b):\n    return (a + b)[:40]"),
    Helper::new("aget", "def aget(a, i):\n    return a[i % len(a)]"),
    Helper::new("aset", "def aset(a, i, v):\n    a[i % len(a)] = v"),
    Helper::new(
        "Rec",
        r#"class Rec:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x = x
        self.y = y"#,
    ),
    Helper::new(
        "show",
        r#"def show(x):
    t = type(x)
    if t is str:
        return ascii(x)
    if t is int or t is bool:
        return repr(x)
    if t is list:
        return "[" + ", ".join([show(e) for e in x]) + "]"
    if t is tuple:
        return "(" + ", ".join([show(e) for e in x]) + ",)"
    if t is dict:
        return "{" + ", ".join([ascii(k) + ": " + show(x[k]) for k in sorted(x)]) + "}"
    if t.__name__ == "Rec":
        return "Rec(x=" + show(x.x) + ", y=" + show(x.y) + ")"
    return "<function>""#,
    ),
    Helper::new("out", "def out(x):\n    print(show(x))").uses(&["show"]),
];

/// The Python fuzzer.
///
/// ```
/// use xsmith_python::FUZZER;
/// let spec = (FUZZER.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
/// assert!(program.text.starts_with("# xsmith-python"));
/// assert!(program.text.contains("def out(x):"));
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-python",
    version: env!("CARGO_PKG_VERSION"),
    extension: "py",
    spec,
    comment: |text| format!("# {text}\n"),
    prelude: "",
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-python diff` runs programs on by default.
///
/// ```
/// assert_eq!(xsmith_python::IMPLEMENTATIONS.len(), 2);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Command {
        name: "python3",
        template: "python3 {}",
        package: "python3",
    },
    Implementation::Command {
        name: "pypy3",
        template: "pypy3 {}",
        package: "pypy3",
    },
];
