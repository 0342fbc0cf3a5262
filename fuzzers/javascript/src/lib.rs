//! A JavaScript fuzzer on the canned components: every program is strict
//! ES5 and runs alike on `node` and `duk` (Duktape). Integers stay in the
//! int32 range through wrappers in the header (`| 0`, an exact ES5 32-bit
//! multiply, safe division and modulo), print as decimal integers (never
//! `-0`), strings print through `JSON.stringify`, arrays in order and
//! objects with their keys sorted. ES2015 and later constructs appear only
//! in the `es2015` feature group, off by default. See README.md.

mod hot;
mod idioms;
mod poly;
mod strings;

pub use idioms::{EXCEPTIONS, PROTOTYPES, SHAPES};
pub use poly::GROUP as POLY_CALLS;
pub use strings::GROUP as STRING_METHODS;

use xsmith::fuzzer::SpecFailure;
use xsmith::{Component, Doc, Fuzzer, Helper, Implementation, ProductionDecl, RenderNode, Renderer, Spec};
use xsmith::{TypeInfo, Weight};
use xsmith_canned::nodes::*;
use xsmith_canned::render::{indented, infix, statements, wrapper};
use xsmith_canned::{Canned, Options, Syntax};

/// A string literal in JavaScript syntax: quotes, backslashes, control and
/// non-ASCII characters escaped (so no literal holds a line terminator).
///
/// ```
/// assert_eq!(xsmith_javascript::string_literal("q\"\\\n\u{2028}"), r#""q\"\\\n\u2028""#);
/// ```
pub fn string_literal(text: &str) -> String {
    xsmith_canned::render::string_literal(text, |c| {
        let mut units = [0; 2];
        let escaped = c.encode_utf16(&mut units).iter().map(|unit| format!("\\u{unit:04x}"));
        (!(' '..='~').contains(&c)).then(|| escaped.collect())
    })
}

/// `{`, the statements indented on their own lines, `}`.
fn braced<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.text("{").append(indented(n, doc, 2)).append(n.hardline()).append("}")
}

fn function<'a>(n: &Function<'_, 'a>, body: Doc<'a>) -> Doc<'a> {
    let params = n.join(n.params(), n.text(", "));
    n.text("(function (")
        .append(params)
        .append(") ")
        .append(braced(n, body))
        .append(")")
}

/// JavaScript's syntax of the canned productions (strict ES5).
struct JavaScript;

impl Syntax for JavaScript {
    fn statement_end(&self) -> &'static str {
        ";"
    }
    fn let_<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        n.text("var ")
            .append(n.display(n.name()))
            .append(" = ")
            .append(n.init())
            .append(";")
    }
    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
        let head = n.text("if (").append(n.cond()).append(") ");
        head.append(braced(n, n.then()))
            .append(" else ")
            .append(braced(n, n.otherwise()))
    }
    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
        braced(n, n.body())
    }
    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(string_literal(&n.value().to_string()))
    }
    fn int_eq<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " === ")
    }
    fn and<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " && ")
    }
    fn or<'a>(&self, n: &Binary<'_, 'a>) -> Doc<'a> {
        infix(n, " || ")
    }
    fn not<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        n.text("(!").append(n.operand()).append(")")
    }
    fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        n.text("(").append(n.operand()).append(").length")
    }
    fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
        let head = n.text("(").append(n.cond()).append(" ? ").append(n.then());
        head.append(" : ").append(n.otherwise()).append(")")
    }
    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
        let parts = n.effects().into_iter().chain([n.value()]);
        n.text("(").append(n.join(parts, n.text(", "))).append(")")
    }
    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
        let body = statements(n, n.defs()).append(n.hardline()).append("return ");
        let body = body.append(n.body()).append(";");
        n.text("(function () ").append(braced(n, body)).append(")()")
    }
    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        function(n, n.text("return ").append(n.body()).append(";"))
    }
    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        function(n, n.body())
    }
    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
        // The container is evaluated once, into a temporary named after the
        // (fresh, unique) element variable; so is the index.
        let v = n.element_name();
        let head = n.text(format!("var {v}_c = ")).append(n.container()).append(";");
        let body = n
            .text(format!("var {v} = {v}_c[{v}_i];"))
            .append(n.hardline())
            .append(n.body());
        head.append(n.hardline())
            .append(format!("for (var {v}_i = 0; {v}_i < {v}_c.length; {v}_i += 1) "))
            .append(braced(n, body))
    }
    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
        let i = n.counter_name();
        n.text(format!("for (var {i} = 0; {i} < {}; {i}++) ", n.iterations()))
            .append(braced(n, n.body()))
    }
    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
        let (i, count) = (n.counter_name(), n.iterations());
        let body = braced(n, n.body().append(n.hardline()).append(format!("{i}++;")));
        let looped = match n.tests_last() {
            true => n.text("do ").append(body).append(format!(" while ({i} < {count});")),
            false => n.text(format!("while ({i} < {count}) ")).append(body),
        };
        n.text(format!("var {i} = 0;")).append(n.hardline()).append(looped)
    }
}

/// The canned options of the JavaScript fuzzer (all groups, int32 integers).
///
/// ```
/// assert_eq!(xsmith_javascript::options().int_range, (-(1 << 31), (1 << 31) - 1));
/// ```
pub fn options() -> Options {
    Options {
        // V8 replaces a loop's frame with optimized code (OSR) once the loop
        // has run some 200 KB of bytecode: a few thousand iterations of the
        // small bodies that local choices' size budgets make (1,000 to
        // 4,000 reached the optimizing tier in 41 of 100 programs, 4,000 to
        // 12,000 in 63; duktape's slowest of them takes 0.14 s).
        hot_iterations: (4000, 12000),
        ..Options::default()
    }
}

/// The JavaScript spec: the canned productions and their renderers.
///
/// ```
/// let spec = xsmith_javascript::spec().unwrap();
/// assert!(spec.lookup("ForEachArray").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecFailure> {
    let options = options();
    let canned = Canned::new(&options)?;
    Ok(canned.spec(JavaScript, [es2015(), own(options.hot_iterations)])?)
}

/// JavaScript's own productions (issue 34), each in a feature group of its
/// own: polymorphic calls in hot loops (`PolyCall`, [`POLY_CALLS`]),
/// objects growing in loops (`ShapeGrow`, [`SHAPES`]), prototype methods
/// (`ProtoCall`, [`PROTOTYPES`]), exceptions in loops (`TryLoop`,
/// [`EXCEPTIONS`]) and `String.prototype` methods ([`STRING_METHODS`]).
fn own(hot: (i64, i64)) -> Component {
    let mut c = Component::new("javascript");
    for spec in [
        poly::poly_call(),
        idioms::shape_grow(),
        idioms::proto_call(),
        idioms::try_loop(),
    ] {
        hot::add(&mut c, spec, hot);
    }
    strings::component(&mut c);
    c
}

/// The feature group of the constructs later than ES5, off by default (for
/// engines that have them, with `--with es2015`): multiplication through
/// ES2015's `Math.imul` instead of the header's ES5 `mul`.
pub const ES2015: &str = "es2015";

/// The productions of the `es2015` group: `Imul`, an int32 product written
/// `Math.imul(a, b)`, chosen as often as the canned `Mul` (it is in the
/// `integers` group too, so switching integers off switches it off).
fn es2015() -> Component {
    let mut c = Component::new("javascript-es2015");
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
    .feature("Imul", "integers")
    .feature("Imul", ES2015)
    .feature_off_by_default(ES2015)
    .render(
        "Imul",
        Renderer::function(|n| wrapper(n, "Math.imul", &["left", "right"])),
    );
    c
}

/// Every program runs in strict mode.
const PRELUDE: &str = r#""use strict";
"#;

/// The runtime helpers, ES5 alone, each written into a program that uses
/// it: int32 wrappers (`mul` is the
/// exact 32-bit product from 16-bit halves: each partial product is below
/// 2^33, exact in a double, where `a * b` would round), safe division and
/// modulo, bounded concatenation, safe indexing and dictionary access, and
/// printing that node and duk do alike (`print` in duk, `console.log` in
/// node).
const HELPERS: &[Helper] = &[
    Helper::new("add", "function add(a, b) { return (a + b) | 0; }"),
    Helper::new("sub", "function sub(a, b) { return (a - b) | 0; }"),
    Helper::new("neg", "function neg(a) { return (-a) | 0; }"),
    Helper::new(
        "mul",
        r#"function mul(a, b) {
  var al = a & 0xffff, bl = b & 0xffff;
  return (al * bl + ((((a >>> 16) * bl + al * (b >>> 16)) << 16) >>> 0)) | 0;
}"#,
    ),
    Helper::new("div", "function div(a, b) { return b === 0 ? a : (a / b) | 0; }"),
    Helper::new("mod", "function mod(a, b) { return b === 0 ? a : (a % b) | 0; }"),
    Helper::new("cat", "function cat(a, b) { return (a + b).substring(0, 40); }"),
    Helper::new(
        "index",
        "function index(a, i) { var n = a.length; return ((i % n) + n) % n; }",
    ),
    Helper::new("aget", "function aget(a, i) { return a[index(a, i)]; }").uses(&["index"]),
    Helper::new("aset", "function aset(a, i, v) { a[index(a, i)] = v; }").uses(&["index"]),
    Helper::new(
        "dget",
        "function dget(d, k, def) { return Object.prototype.hasOwnProperty.call(d, k) ? d[k] : def; }",
    ),
    Helper::new("dset", "function dset(d, k, v) { d[k] = v; }"),
    Helper::new(
        "scode",
        "function scode(s, i) { return s.length === 0 ? -1 : s.charCodeAt(index(s, i)); }",
    )
    .uses(&["index"]),
    Helper::new(
        "show",
        r#"function show(x) {
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
}"#,
    ),
    Helper::new(
        "write",
        r#"var write = typeof print === "function" ? print : function (s) { console.log(s); };"#,
    ),
    Helper::new("out", "function out(x) { write(show(x)); }").uses(&["show", "write"]),
];

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
    helpers: HELPERS,
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
