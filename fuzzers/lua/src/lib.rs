//! A Lua fuzzer on the canned components: every program runs alike on
//! `lua5.1`, `lua5.4` and `luajit`. Integers stay in `[-2^31, 2^31)`
//! (exact as doubles, so 5.1 and LuaJIT agree with 5.4's 64-bit integers)
//! through wrappers in the header, print through `string.format("%d")`,
//! strings are printed with every control character, quote and backslash
//! as a decimal escape, tables in a fixed order (array part, then string
//! keys sorted). See README.md.

use xsmith::{Component, Doc, Fuzzer, Implementation, RenderNode, Renderer, Spec, SpecError, Value};
use xsmith_canned::render::{defined_names, dict_key, record_entries, wrapper};
use xsmith_canned::{Canned, Options};

/// A string literal in Lua syntax (the same escapes in every version).
fn string_literal(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// An immediately called function: how Lua says "statements, then a value".
fn iife<'a>(n: &RenderNode<'a>, body: Doc<'a>) -> Doc<'a> {
    n.text("(function()")
        .append(n.hardline().append(body).nest(2))
        .append(n.hardline())
        .append("end)()")
}

fn statements<'a>(n: &RenderNode<'a>, field: &str) -> Doc<'a> {
    n.join(n.list(field), n.hardline())
}

fn indented<'a>(n: &RenderNode<'a>, doc: Doc<'a>) -> Doc<'a> {
    n.hardline().append(doc).nest(2).append(n.hardline())
}

fn params<'a>(n: &RenderNode<'a>) -> Doc<'a> {
    n.text("function(")
        .append(n.join(n.list("params"), n.text(", ")))
        .append(")")
}

/// The Lua renderers of the canned productions.
fn renderers(canned: &Canned) -> Component {
    let mut c = Component::new("lua");
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
    c.render("Block", f(|n| statements(n, "stmts")));
    c.render(
        "Let",
        f(|n| {
            n.text("local ")
                .append(n.display(n.data("name")))
                .append(" = ")
                .append(n.child("init"))
        }),
    );
    c.render(
        "Assign",
        f(|n| n.display(n.data("name")).append(" = ").append(n.child("value"))),
    );
    c.render(
        "IfStmt",
        f(|n| {
            let (t, e) = (indented(n, n.child("then")), indented(n, n.child("otherwise")));
            n.text("if ")
                .append(n.child("cond"))
                .append(" then")
                .append(t)
                .append("else")
                .append(e)
                .append("end")
        }),
    );
    c.render(
        "BlockStmt",
        f(|n| n.text("do").append(indented(n, n.child("body"))).append("end")),
    );
    c.render("PrintStmt", f(|n| wrapper(n, "out", &["value"])));
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
    c.render("StrLen", f(|n| n.text("#(").append(n.child("operand")).append(")")));
    c.render("VarRef", f(|n| n.display(n.data("name"))));
    c.render(
        "IfExpr",
        f(|n| {
            iife(
                n,
                n.text("if ")
                    .append(n.child("cond"))
                    .append(" then return ")
                    .append(n.child("then"))
                    .append(" else return ")
                    .append(n.child("otherwise"))
                    .append(" end"),
            )
        }),
    );
    c.render(
        "ExprSeq",
        f(|n| {
            let effects = n
                .list("effects")
                .into_iter()
                .map(|e| n.text("local _ = ").append(e).append(n.hardline()));
            iife(n, n.concat(effects).append("return ").append(n.child("value")))
        }),
    );
    c.render(
        "LetStar",
        f(|n| {
            iife(
                n,
                statements(n, "defs")
                    .append(n.hardline())
                    .append("return ")
                    .append(n.child("body")),
            )
        }),
    );
    c.render(
        "LetDef",
        f(|n| {
            n.text("local ")
                .append(n.display(n.data("name")))
                .append(" = ")
                .append(n.child("init"))
        }),
    );
    c.render(
        "Lambda",
        f(|n| params(n).append(" return ").append(n.child("body")).append(" end")),
    );
    c.render(
        "LambdaBlock",
        f(|n| params(n).append(indented(n, n.child("body"))).append("end")),
    );
    c.render("Param", f(|n| n.display(n.data("name"))));
    c.render("LoopVar", f(|n| n.display(n.data("name"))));
    c.render(
        "FnBody",
        f(|n| statements(n, "stmts").append(n.hardline()).append(n.child("ret"))),
    );
    c.render("Return", f(|n| n.text("return ").append(n.child("value"))));
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
            f(|n| n.text("{").append(n.join(n.list("items"), n.text(", "))).append("}")),
        );
    }
    c.render(
        "DictLit",
        f(|n| {
            let entries = n
                .list("items")
                .into_iter()
                .enumerate()
                .map(|(i, e)| n.text(format!("{} = ", dict_key(i))).append(e));
            n.text("{").append(n.join(entries, n.text(", "))).append("}")
        }),
    );
    c.render("ArrayGet", f(|n| wrapper(n, "aget", &["array", "index"])));
    c.render("ListGet", f(|n| wrapper(n, "aget", &["list", "index"])));
    c.render("ArraySet", f(|n| wrapper(n, "aset", &["array", "index", "value"])));
    c.render("DictGet", f(|n| wrapper(n, "dget", &["dict", "key", "default"])));
    c.render("DictSet", f(|n| wrapper(n, "aset_key", &["dict", "key", "value"])));
    c.render(
        "RecordLit",
        f(|n| {
            let entries = record_entries(n, " = ");
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
                n.text("aset_key(")
                    .append(n.child("record"))
                    .append(format!(", \"{}\", ", n.data("field")))
                    .append(n.child("value"))
                    .append(")")
            }),
        );
    }
    for production in ["ForEachArray", "ForEachList"] {
        c.render(
            production,
            f(|n| {
                n.text("for _, ")
                    .append(n.child("element"))
                    .append(" in ipairs(")
                    .append(n.child("container"))
                    .append(") do")
                    .append(indented(n, n.child("body")))
                    .append("end")
            }),
        );
    }
    c
}

/// The canned options of the Lua fuzzer (all groups, 32-bit integers).
///
/// ```
/// assert_eq!(xsmith_lua::options().int_range, (-(1 << 31), (1 << 31) - 1));
/// ```
pub fn options() -> Options {
    Options::default()
}

/// The Lua spec: the canned productions and their Lua renderers.
///
/// ```
/// let spec = xsmith_lua::spec().unwrap();
/// assert!(spec.lookup("ForEachArray").is_some());
/// ```
pub fn spec() -> Result<Spec, SpecError> {
    let canned = Canned::new(&options()).expect("the Lua options are valid");
    canned.assemble([renderers(&canned)])
}

/// The runtime header: integer wrappers that keep every value in
/// `[-2^31, 2^31)`, safe division and modulo, bounded concatenation, safe
/// indexing, and printing that every implementation does alike.
const PRELUDE: &str = r#"local function wrap(x) x = x % 4294967296 if x >= 2147483648 then x = x - 4294967296 end return x end
local function add(a, b) return wrap(a + b) end
local function sub(a, b) return wrap(a - b) end
local function neg(a) return wrap(-a) end
local function mul(a, b)
  local lo = b % 65536
  local hi = math.floor((b - lo) / 65536)
  return wrap(a * lo + wrap(a * hi) * 65536)
end
local function div(a, b)
  if b == 0 then return a end
  local q = a / b
  if q >= 0 then q = math.floor(q) else q = math.ceil(q) end
  return wrap(q)
end
local function mod(a, b) if b == 0 then return a end return a % b end
local function cat(a, b) return string.sub(a .. b, 1, 40) end
local function aget(a, i) return a[i % #a + 1] end
local function aset(a, i, v) a[i % #a + 1] = v end
local function aset_key(t, k, v) t[k] = v end
local function dget(d, k, default) local v = d[k] if v == nil then return default end return v end
local function escape(c) return "\\" .. string.byte(c) end
local show
show = function(x)
  local t = type(x)
  if t == "number" then return string.format("%d", x)
  elseif t == "string" then return '"' .. string.gsub(x, '[%c"\\]', escape) .. '"'
  elseif t == "table" then
    local parts, keys = {}, {}
    for i = 1, #x do parts[#parts + 1] = show(x[i]) end
    for k in pairs(x) do if type(k) == "string" then keys[#keys + 1] = k end end
    table.sort(keys)
    for _, k in ipairs(keys) do parts[#parts + 1] = k .. "=" .. show(x[k]) end
    return "{" .. table.concat(parts, ",") .. "}"
  elseif t == "function" then return "<function>"
  else return tostring(x) end
end
local function out(x) io.write(show(x), "\n") end
"#;

/// The Lua fuzzer.
///
/// ```
/// use xsmith_lua::FUZZER;
/// let spec = (FUZZER.spec)().unwrap();
/// let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
/// let program = FUZZER.program(&spec, &mut generator, xsmith::Source::Seed(1)).unwrap();
/// assert!(program.text.starts_with("-- xsmith-lua"));
/// assert!(program.text.contains("local function out(x)"));
/// ```
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-lua",
    version: env!("CARGO_PKG_VERSION"),
    extension: "lua",
    spec,
    comment: |text| format!("-- {text}\n"),
    prelude: PRELUDE,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-lua diff` runs programs on by default.
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Command {
        name: "lua5.1",
        template: "lua5.1 {}",
        package: "lua5.1",
    },
    Implementation::Command {
        name: "lua5.4",
        template: "lua5.4 {}",
        package: "lua5.4",
    },
    Implementation::Command {
        name: "luajit",
        template: "luajit {}",
        package: "luajit",
    },
];
