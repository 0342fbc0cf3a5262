//! A JavaScript fuzzer on the canned components: every program is strict
//! ES5 and runs alike on `node` and `duk` (Duktape). Integers stay in the
//! int32 range through wrappers in the header (`| 0`, an exact ES5 32-bit
//! multiply, safe division and modulo), print as decimal integers (never
//! `-0`), strings print through `JSON.stringify`, arrays in order and
//! objects with their keys sorted. ES2015 and later constructs appear only
//! in the `es2015` feature group, off by default. See README.md.

use xsmith::{Component, Doc, Filter, Fuzzer, Implementation, RenderNode, Renderer, Slot, Spec, SpecError, Value};
use xsmith::{ProductionDecl, TypeInfo, Weight};
use xsmith_canned::render::{defined_names, dict_key, record_entries, wrapper};
use xsmith_canned::{Canned, Options};

/// A string literal in JavaScript syntax: quotes, backslashes, control and
/// non-ASCII characters escaped (so no literal holds a line terminator).
///
/// ```
/// assert_eq!(xsmith_javascript::string_literal("q\"\\\n\u{2028}"), r#""q\"\\\n\u2028""#);
/// ```
pub fn string_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            ' '..='~' => out.push(c),
            c => {
                let mut units = [0; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
        }
    }
    out.push('"');
    out
}

fn statements<'a>(n: &RenderNode<'a>, field: &str) -> Doc<'a> {
    n.join(n.list(field), n.hardline())
}

/// `{`, the statements indented on their own lines, `}`.
fn braced<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.text("{")
        .append(n.hardline().append(doc).nest(2))
        .append(n.hardline())
        .append("}")
}

fn function<'a>(n: &RenderNode<'a>, body: Doc<'a>) -> Doc<'a> {
    n.text("(function (")
        .append(n.join(n.list("params"), n.text(", ")))
        .append(") ")
        .append(braced(n, body))
        .append(")")
}

fn var<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    n.text("var ")
        .append(n.display(n.data("name")))
        .append(" = ")
        .append(n.child("init"))
        .append(";")
}

/// The name bound by the `LoopVar` of the loop being rendered.
fn loop_var_name(n: &RenderNode) -> String {
    let (grammar, tree) = (n.grammar(), n.program());
    let production = grammar.production(tree.node(n.node()).production);
    let slot = production.field_index("element").map(|i| &tree.node(n.node()).slots[i]);
    let Some(Slot::Child(element)) = slot else {
        panic!("a loop has an element child")
    };
    match &tree.node(*element).slots[..] {
        [Slot::Data(name)] => name.to_string(),
        _ => panic!("a loop variable holds its name"),
    }
}

/// The JavaScript renderers of the canned productions.
fn renderers(canned: &Canned) -> Component {
    let mut c = Component::new("javascript");
    let f = |r: for<'a> fn(&RenderNode<'a>) -> Doc<'a>| Renderer::function(r);
    c.render(
        "Program",
        f(|n| {
            let dump = defined_names(n, "stmts")
                .into_iter()
                .map(|v| n.text(format!("out({v});")));
            statements(n, "stmts")
                .append(n.hardline())
                .append(n.join(dump, n.hardline()))
                .append(n.hardline())
        }),
    );
    c.render("Block", f(|n| statements(n, "stmts")));
    c.render("Let", f(var));
    c.render("LetDef", f(var));
    c.render(
        "Assign",
        f(|n| {
            n.display(n.data("name"))
                .append(" = ")
                .append(n.child("value"))
                .append(";")
        }),
    );
    c.render(
        "IfStmt",
        f(|n| {
            n.text("if (")
                .append(n.child("cond"))
                .append(") ")
                .append(braced(n, n.child("then")))
                .append(" else ")
                .append(braced(n, n.child("otherwise")))
        }),
    );
    c.render("BlockStmt", f(|n| braced(n, n.child("body"))));
    c.render("PrintStmt", f(|n| wrapper(n, "out", &["value"]).append(";")));
    c.render(
        "IntLit",
        f(|n| match n.data("value") {
            Value::Int(v) if *v < 0 => n.text(format!("({v})")),
            v => n.display(v),
        }),
    );
    c.render("BoolLit", f(|n| n.display(n.data("value"))));
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
    for (production, op) in [("Less", " < "), ("IntEq", " === "), ("And", " && "), ("Or", " || ")] {
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
    c.render("Not", f(|n| n.text("(!").append(n.child("operand")).append(")")));
    c.render(
        "StrLen",
        f(|n| n.text("(").append(n.child("operand")).append(").length")),
    );
    c.render("VarRef", f(|n| n.display(n.data("name"))));
    c.render(
        "IfExpr",
        f(|n| {
            n.text("(")
                .append(n.child("cond"))
                .append(" ? ")
                .append(n.child("then"))
                .append(" : ")
                .append(n.child("otherwise"))
                .append(")")
        }),
    );
    c.render(
        "ExprSeq",
        f(|n| {
            let parts = n.list("effects").into_iter().chain([n.child("value")]);
            n.text("(").append(n.join(parts, n.text(", "))).append(")")
        }),
    );
    c.render(
        "LetStar",
        f(|n| {
            let body = statements(n, "defs")
                .append(n.hardline())
                .append("return ")
                .append(n.child("body"))
                .append(";");
            n.text("(function () ").append(braced(n, body)).append(")()")
        }),
    );
    c.render(
        "Lambda",
        f(|n| function(n, n.text("return ").append(n.child("body")).append(";"))),
    );
    c.render("LambdaBlock", f(|n| function(n, n.child("body"))));
    c.render("Param", f(|n| n.display(n.data("name"))));
    c.render("LoopVar", f(|n| n.display(n.data("name"))));
    c.render(
        "FnBody",
        f(|n| statements(n, "stmts").append(n.hardline()).append(n.child("ret"))),
    );
    c.render("Return", f(|n| n.text("return ").append(n.child("value")).append(";")));
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
    for literal in ["ArrayLit", "ListLit"] {
        c.render(
            literal,
            f(|n| n.text("[").append(n.join(n.list("items"), n.text(", "))).append("]")),
        );
    }
    c.render(
        "DictLit",
        f(|n| {
            let entries = n
                .list("items")
                .into_iter()
                .enumerate()
                .map(|(i, e)| n.text(format!("{}: ", string_literal(&dict_key(i)))).append(e));
            n.text("{").append(n.join(entries, n.text(", "))).append("}")
        }),
    );
    c.render("ArrayGet", f(|n| wrapper(n, "aget", &["array", "index"])));
    c.render("ListGet", f(|n| wrapper(n, "aget", &["list", "index"])));
    c.render(
        "ArraySet",
        f(|n| wrapper(n, "aset", &["array", "index", "value"]).append(";")),
    );
    c.render("DictGet", f(|n| wrapper(n, "dget", &["dict", "key", "default"])));
    c.render(
        "DictSet",
        f(|n| wrapper(n, "dset", &["dict", "key", "value"]).append(";")),
    );
    c.render(
        "RecordLit",
        f(|n| {
            let entries = record_entries(n, ": ");
            n.text("{").append(n.join(entries, n.text(", "))).append("}")
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
            f(|n| {
                n.text("(")
                    .append(n.child("record"))
                    .append(").")
                    .append(n.display(n.data("field")))
                    .append(" = ")
                    .append(n.child("value"))
                    .append(";")
            }),
        );
    }
    for production in ["ForEachArray", "ForEachList"] {
        // The container is evaluated once, into a temporary named after the
        // (fresh, unique) element variable; so is the index.
        c.render(
            production,
            f(|n| {
                let v = loop_var_name(n);
                n.text(format!("var {v}_c = "))
                    .append(n.child("container"))
                    .append(";")
                    .append(n.hardline())
                    .append(format!("for (var {v}_i = 0; {v}_i < {v}_c.length; {v}_i += 1) "))
                    .append(braced(
                        n,
                        n.text(format!("var {v} = {v}_c[{v}_i];"))
                            .append(n.hardline())
                            .append(n.child("body")),
                    ))
            }),
        );
    }
    c
}

/// The feature group of the constructs later than ES5, off by default (for
/// engines that have them, with `--with es2015`): multiplication through
/// ES2015's `Math.imul` instead of the header's ES5 `mul`.
pub const ES2015: &str = "es2015";

/// The productions of the `es2015` group: `Imul`, an int32 product written
/// `Math.imul(a, b)`, chosen as often as the canned `Mul` (it is in the
/// `integers` group too, so switching integers off switches it off).
fn es2015(canned: &Canned) -> Component {
    let mut c = Component::new("javascript-es2015");
    let limit = canned.options.soft_node_limit;
    c.production(
        ProductionDecl::new("Imul")
            .supertype("Expr")
            .child("left", "Expr")
            .child("right", "Expr"),
    )
    .type_info(
        "Imul",
        TypeInfo::new(|s| s.base("int"))
            .child("left", |c| c.base("int"))
            .child("right", |c| c.base("int")),
    )
    .choice_weight("Imul", Weight::Constant(6))
    .choice_filter(
        "Imul",
        Filter::new(move |hole| hole.depth() < hole.max_depth() && hole.program().len() < limit),
    )
    .feature("Imul", "integers")
    .feature("Imul", ES2015)
    .feature_off_by_default(ES2015)
    .render(
        "Imul",
        Renderer::function(|n| wrapper(n, "Math.imul", &["left", "right"])),
    );
    c
}

/// The canned options of the JavaScript fuzzer (all groups, int32 integers).
///
/// ```
/// assert_eq!(xsmith_javascript::options().int_range, (-(1 << 31), (1 << 31) - 1));
/// ```
pub fn options() -> Options {
    Options::default()
}

/// The JavaScript spec: the canned productions and their renderers.
///
/// ```
/// let spec = xsmith_javascript::spec().unwrap();
/// assert!(spec.lookup("ForEachArray").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecError> {
    let canned = Canned::new(&options()).expect("the JavaScript options are valid");
    canned.assemble([renderers(&canned), es2015(&canned)])
}

/// The runtime header, ES5 alone: strict mode, int32 wrappers (`mul` is the
/// exact 32-bit product from 16-bit halves: each partial product is below
/// 2^33, exact in a double, where `a * b` would round), safe division and
/// modulo, bounded concatenation, safe indexing and dictionary access, and
/// printing that node and duk do alike (`print` in duk, `console.log` in
/// node).
const PRELUDE: &str = r#""use strict";
function add(a, b) { return (a + b) | 0; }
function sub(a, b) { return (a - b) | 0; }
function neg(a) { return (-a) | 0; }
function mul(a, b) {
  var al = a & 0xffff, bl = b & 0xffff;
  return (al * bl + ((((a >>> 16) * bl + al * (b >>> 16)) << 16) >>> 0)) | 0;
}
function div(a, b) { return b === 0 ? a : (a / b) | 0; }
function mod(a, b) { return b === 0 ? a : (a % b) | 0; }
function cat(a, b) { return (a + b).substring(0, 40); }
function index(a, i) { var n = a.length; return ((i % n) + n) % n; }
function aget(a, i) { return a[index(a, i)]; }
function aset(a, i, v) { a[index(a, i)] = v; }
function dget(d, k, def) { return Object.prototype.hasOwnProperty.call(d, k) ? d[k] : def; }
function dset(d, k, v) { d[k] = v; }
function show(x) {
  var parts = [], keys, i;
  switch (typeof x) {
    case "number": return String(x === 0 ? 0 : x);
    case "boolean": return x ? "true" : "false";
    case "string": return JSON.stringify(x);
    case "function": return "<function>";
  }
  if (x instanceof Array) {
    for (i = 0; i < x.length; i += 1) parts.push(show(x[i]));
    return "[" + parts.join(",") + "]";
  }
  keys = Object.keys(x).sort();
  for (i = 0; i < keys.length; i += 1) parts.push(JSON.stringify(keys[i]) + ":" + show(x[keys[i]]));
  return "{" + parts.join(",") + "}";
}
var write = typeof print === "function" ? print : function (s) { console.log(s); };
function out(x) { write(show(x)); }
"#;

/// The JavaScript fuzzer.
///
/// ```
/// use xsmith_javascript::FUZZER;
/// let spec = (FUZZER.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
/// assert!(program.text.starts_with("// xsmith-javascript"));
/// assert!(program.text.contains("function out(x)"));
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-javascript",
    version: env!("CARGO_PKG_VERSION"),
    extension: "js",
    spec,
    comment: |text| format!("// {text}\n"),
    prelude: PRELUDE,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-javascript diff` runs programs on by default.
///
/// ```
/// assert_eq!(xsmith_javascript::IMPLEMENTATIONS.len(), 2);
/// ```
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Command {
        name: "node",
        template: "node {}",
        package: "nodejs",
    },
    Implementation::Command {
        name: "duk",
        template: "duk {}",
        package: "duktape",
    },
];
