//! A Python fuzzer on the canned components: every program runs alike on
//! CPython 3.11 (`python3`) and PyPy 3.9 (`pypy3`). Integers are 64-bit,
//! wrapped by header functions (intermediate results exceed 64 bits, so
//! big-integer paths run too); values print through `show`, which writes
//! strings with `ascii`, containers element by element and dictionaries in
//! sorted key order. Block-bodied lambdas become `def`s hoisted before the
//! statement that uses them, with `global`/`nonlocal` declarations for the
//! outer variables they assign. See README.md.

use xsmith::{Component, Doc, Fuzzer, Implementation, NodeId, RenderNode, Renderer, Slot, Spec, SpecError, Value};
use xsmith_canned::render::{defined_names, dict_key, record_entries, wrapper};
use xsmith_canned::{Canned, Options};

/// A string literal in Python syntax: `\`, `"` and control characters
/// escaped, anything else (non-ASCII included) as itself.
fn string_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\x{:02x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The production name of node `id`.
fn kind<'a>(n: &RenderNode<'a>, id: NodeId) -> &'a str {
    n.grammar().production(n.program().node(id).production).name()
}

/// The slot `field` of node `id`.
fn slot<'a>(n: &RenderNode<'a>, id: NodeId, field: &str) -> &'a Slot {
    let node = n.program().node(id);
    let index = n.grammar().production(node.production).field_index(field);
    &node.slots[index.unwrap_or_else(|| panic!("`{}` has a field `{field}`", kind(n, id)))]
}

fn children<'a>(n: &RenderNode<'a>, id: NodeId, field: &str) -> Vec<NodeId> {
    match slot(n, id, field) {
        Slot::Child(c) => vec![*c],
        Slot::List(list) => list.to_vec(),
        Slot::Data(_) => Vec::new(),
    }
}

/// Whether an expression-bodied lambda holds a block-bodied one (and so must
/// be a `def` itself: a `def` cannot be hoisted out of a `lambda`).
fn holds_block(n: &RenderNode, id: NodeId) -> bool {
    n.program()
        .children(id)
        .any(|c| kind(n, c) == "LambdaBlock" || holds_block(n, c))
}

/// The functions rendered as hoisted `def`s in the expressions under `id`,
/// not looking into nested blocks (their statements hoist their own) nor
/// into the functions found.
fn collect(n: &RenderNode, id: NodeId, out: &mut Vec<NodeId>) {
    match kind(n, id) {
        "Block" => {}
        "LambdaBlock" => out.push(id),
        "Lambda" if holds_block(n, id) => out.push(id),
        "Lambda" => {}
        _ => n.program().children(id).for_each(|c| collect(n, c, out)),
    }
}

/// The `def`s a statement (or a `def`'s returned expression) needs before it.
fn hoisted<'a>(n: &RenderNode<'a>, roots: impl IntoIterator<Item = NodeId>) -> Doc<'a> {
    let mut defs = Vec::new();
    roots.into_iter().for_each(|r| collect(n, r, &mut defs));
    n.concat(defs.into_iter().map(|d| function_def(n, d).append(n.hardline())))
}

/// A statement renderer: the `def`s its expressions need, then the statement.
fn stmt(r: for<'a> fn(&RenderNode<'a>) -> Doc<'a>) -> Renderer {
    Renderer::function(move |n| hoisted(n, n.program().children(n.node())).append(r(n)))
}

/// Whether `id` lies under (or is) `ancestor`.
fn inside(n: &RenderNode, mut id: NodeId, ancestor: NodeId) -> bool {
    loop {
        if id == ancestor {
            return true;
        }
        match n.program().node(id).parent {
            Some(parent) => id = parent,
            None => return false,
        }
    }
}

/// Whether the binder `id` is a local of some function (else a global).
fn in_function(n: &RenderNode, id: NodeId) -> bool {
    let mut at = n.program().node(id).parent;
    while let Some(p) = at {
        if matches!(kind(n, p), "Lambda" | "LambdaBlock") {
            return true;
        }
        at = n.program().node(p).parent;
    }
    false
}

/// The `global` and `nonlocal` declarations of the `def` of `function`:
/// every outer variable that an assignment in its body (not in a nested
/// function) writes.
fn declarations<'a>(n: &RenderNode<'a>, function: NodeId) -> Doc<'a> {
    let (mut stack, mut lines) = (children(n, function, "body"), Vec::<String>::new());
    while let Some(id) = stack.pop() {
        match kind(n, id) {
            "Lambda" | "LambdaBlock" => continue,
            "Assign" => {
                let name = n.program().node(id).slots.iter().find_map(|s| match s {
                    Slot::Data(Value::Str(name)) => Some(name.as_str()),
                    _ => None,
                });
                let binder = n.program().reference_target(id);
                if let (Some(name), Some(binder)) = (name, binder) {
                    if !inside(n, binder, function) {
                        let word = if in_function(n, binder) { "nonlocal" } else { "global" };
                        lines.push(format!("{word} {name}"));
                    }
                }
            }
            _ => {}
        }
        stack.extend(n.program().children(id));
    }
    lines.sort_unstable();
    lines.dedup();
    n.concat(lines.into_iter().map(|l| n.text(l).append(n.hardline())))
}

/// The name of the `def` of a hoisted function.
fn def_name<'a>(n: &RenderNode<'a>, id: NodeId) -> Doc<'a> {
    n.text(format!("f{}", id.index()))
}

fn params<'a>(n: &RenderNode<'a>, id: NodeId) -> Doc<'a> {
    n.join(children(n, id, "params").into_iter().map(|p| n.render(p)), n.text(", "))
}

/// `def fN(params):` and the body of a hoisted function.
fn function_def<'a>(n: &RenderNode<'a>, id: NodeId) -> Doc<'a> {
    let body = children(n, id, "body")[0];
    let inner = if kind(n, id) == "LambdaBlock" {
        declarations(n, id).append(n.render(body))
    } else {
        hoisted(n, [body]).append("return ").append(n.render(body))
    };
    n.text("def ")
        .append(def_name(n, id))
        .append("(")
        .append(params(n, id))
        .append("):")
        .append(n.hardline().append(inner).nest(4))
}

fn statements<'a>(n: &RenderNode<'a>, field: &str) -> Doc<'a> {
    n.join(n.list(field), n.hardline())
}

fn indented<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.hardline().append(doc).nest(4)
}

/// `(a, b, c)`: the children of `field`, evaluated left to right.
fn tuple<'a>(n: &RenderNode<'a>, items: Vec<Doc<'a>>) -> Doc<'a> {
    let single = items.len() == 1;
    let doc = n.text("(").append(n.join(items, n.text(", ")));
    doc.append(if single { ",)" } else { ")" })
}

/// The Python renderers of the canned productions.
fn renderers(canned: &Canned) -> Component {
    let mut c = Component::new("python");
    let f = |r: for<'a> fn(&RenderNode<'a>) -> Doc<'a>| Renderer::function(r);
    c.render(
        "Program",
        f(|n| {
            let dump = defined_names(n, "stmts")
                .into_iter()
                .map(|v| n.text(format!("out({v})")));
            statements(n, "stmts")
                .append(n.hardline())
                .append(n.join(dump, n.hardline()))
                .append(n.hardline())
        }),
    );
    // An empty block (past the depth bound) is `pass`.
    c.render(
        "Block",
        f(|n| {
            let items = n.list("stmts");
            match items.is_empty() {
                true => n.text("pass"),
                false => n.join(items, n.hardline()),
            }
        }),
    );
    c.render(
        "FnBody",
        f(|n| statements(n, "stmts").append(n.hardline()).append(n.child("ret"))),
    );
    for binding in ["Let", "Assign"] {
        c.render(
            binding,
            stmt(|n| {
                let value = if n.production() == "Let" { "init" } else { "value" };
                n.display(n.data("name")).append(" = ").append(n.child(value))
            }),
        );
    }
    c.render(
        "IfStmt",
        stmt(|n| {
            n.text("if ")
                .append(n.child("cond"))
                .append(":")
                .append(indented(n, n.child("then")))
                .append(n.hardline())
                .append("else:")
                .append(indented(n, n.child("otherwise")))
        }),
    );
    c.render(
        "BlockStmt",
        stmt(|n| n.text("if True:").append(indented(n, n.child("body")))),
    );
    c.render("PrintStmt", stmt(|n| wrapper(n, "out", &["value"])));
    c.render("Return", stmt(|n| n.text("return ").append(n.child("value"))));
    c.render(
        "IntLit",
        f(|n| match n.data("value") {
            Value::Int(v) if *v < 0 => n.text(format!("({v})")),
            v => n.display(v),
        }),
    );
    c.render(
        "BoolLit",
        f(|n| {
            n.text(if matches!(n.data("value"), Value::Bool(true)) {
                "True"
            } else {
                "False"
            })
        }),
    );
    c.render("StrLit", f(|n| n.text(string_literal(&n.data("value").to_string()))));
    for (production, function) in [
        ("Add", "add"),
        ("Sub", "sub"),
        ("Mul", "mul"),
        ("SafeDiv", "div"),
        ("SafeMod", "mod"),
        ("Concat", "cat"),
    ] {
        c.render(
            production,
            Renderer::function(move |n| wrapper(n, function, &["left", "right"])),
        );
    }
    for (production, op) in [("Less", " < "), ("IntEq", " == "), ("And", " and "), ("Or", " or ")] {
        c.render(
            production,
            Renderer::function(move |n| {
                n.text("(")
                    .append(n.child("left"))
                    .append(op)
                    .append(n.child("right"))
                    .append(")")
            }),
        );
    }
    c.render("Neg", f(|n| wrapper(n, "neg", &["operand"])));
    c.render("Not", f(|n| n.text("(not ").append(n.child("operand")).append(")")));
    c.render("StrLen", f(|n| wrapper(n, "len", &["operand"])));
    for name in ["VarRef", "Param", "LoopVar"] {
        c.render(name, f(|n| n.display(n.data("name"))));
    }
    c.render(
        "IfExpr",
        f(|n| {
            n.text("(")
                .append(n.child("then"))
                .append(" if ")
                .append(n.child("cond"))
                .append(" else ")
                .append(n.child("otherwise"))
                .append(")")
        }),
    );
    c.render(
        "ExprSeq",
        f(|n| {
            let mut items = n.list("effects");
            items.push(n.child("value"));
            tuple(n, items).append("[-1]")
        }),
    );
    c.render(
        "LetStar",
        f(|n| {
            let mut items = n.list("defs");
            items.push(n.child("body"));
            tuple(n, items).append("[-1]")
        }),
    );
    c.render(
        "LetDef",
        f(|n| {
            n.text("(")
                .append(n.display(n.data("name")))
                .append(" := ")
                .append(n.child("init"))
                .append(")")
        }),
    );
    c.render(
        "Lambda",
        f(|n| {
            if holds_block(n, n.node()) {
                return def_name(n, n.node());
            }
            let params = params(n, n.node());
            let space = if children(n, n.node(), "params").is_empty() {
                ""
            } else {
                " "
            };
            n.text("(lambda")
                .append(space)
                .append(params)
                .append(": ")
                .append(n.child("body"))
                .append(")")
        }),
    );
    c.render("LambdaBlock", f(|n| def_name(n, n.node())));
    c.render(
        "Apply",
        f(|n| {
            n.text("(")
                .append(n.child("callee"))
                .append(")(")
                .append(n.join(n.list("args"), n.text(", ")))
                .append(")")
        }),
    );
    c.render(
        "ArrayLit",
        f(|n| n.text("[").append(n.join(n.list("items"), n.text(", "))).append("]")),
    );
    c.render("ListLit", f(|n| tuple(n, n.list("items"))));
    c.render(
        "DictLit",
        f(|n| {
            let entries = n
                .list("items")
                .into_iter()
                .enumerate()
                .map(|(i, e)| n.text(format!("\"{}\": ", dict_key(i))).append(e));
            n.text("{").append(n.join(entries, n.text(", "))).append("}")
        }),
    );
    c.render("ArrayGet", f(|n| wrapper(n, "aget", &["array", "index"])));
    c.render("ListGet", f(|n| wrapper(n, "aget", &["list", "index"])));
    c.render("ArraySet", stmt(|n| wrapper(n, "aset", &["array", "index", "value"])));
    c.render(
        "DictGet",
        f(|n| {
            n.text("(")
                .append(n.child("dict"))
                .append(").get(")
                .append(n.child("key"))
                .append(", ")
                .append(n.child("default"))
                .append(")")
        }),
    );
    c.render(
        "DictSet",
        stmt(|n| {
            n.text("(")
                .append(n.child("dict"))
                .append(")[")
                .append(n.child("key"))
                .append("] = ")
                .append(n.child("value"))
        }),
    );
    c.render(
        "RecordLit",
        f(|n| {
            let entries = record_entries(n, "=");
            n.text("Rec(").append(n.join(entries, n.text(", "))).append(")")
        }),
    );
    for production in canned.productions.iter().filter(|p| p.starts_with("FieldGet_")) {
        c.render(
            production,
            f(|n| {
                n.text("(")
                    .append(n.child("record"))
                    .append(").")
                    .append(n.display(n.data("field")))
            }),
        );
    }
    for production in canned.productions.iter().filter(|p| p.starts_with("FieldSet_")) {
        c.render(
            production,
            stmt(|n| {
                n.text("(")
                    .append(n.child("record"))
                    .append(").")
                    .append(n.display(n.data("field")))
                    .append(" = ")
                    .append(n.child("value"))
            }),
        );
    }
    for production in ["ForEachArray", "ForEachList"] {
        c.render(
            production,
            stmt(|n| {
                n.text("for ")
                    .append(n.child("element"))
                    .append(" in ")
                    .append(n.child("container"))
                    .append(":")
                    .append(indented(n, n.child("body")))
            }),
        );
    }
    c
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
pub fn spec() -> Result<Spec, SpecError> {
    let canned = Canned::new(&options()).expect("the Python options are valid");
    canned.assemble([renderers(&canned)])
}

/// The runtime header: 64-bit wrapping arithmetic, safe division, modulo,
/// bounded concatenation, safe indexing, the record class, and printing
/// that every implementation does alike.
const PRELUDE: &str = r#"def w(x):
    return (x + 0x8000000000000000) % 0x10000000000000000 - 0x8000000000000000
def add(a, b):
    return w(a + b)
def sub(a, b):
    return w(a - b)
def mul(a, b):
    return w(a * b)
def neg(a):
    return w(-a)
def div(a, b):
    return w(a // b) if b else a
def mod(a, b):
    return a % b if b else a
def cat(a, b):
    return (a + b)[:40]
def aget(a, i):
    return a[i % len(a)]
def aset(a, i, v):
    a[i % len(a)] = v
class Rec:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x = x
        self.y = y
def show(x):
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
    if t is Rec:
        return "Rec(x=" + show(x.x) + ", y=" + show(x.y) + ")"
    return "<function>"
def out(x):
    print(show(x))
"#;

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
    prelude: PRELUDE,
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
