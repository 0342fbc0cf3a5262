//! A Lua fuzzer on the canned components: every program runs alike on
//! `lua5.1`, `lua5.4` and `luajit`. Integers stay in `[-2^31, 2^31)`
//! (exact as doubles, so 5.1 and LuaJIT agree with 5.4's 64-bit integers)
//! through wrappers in the header, print through `string.format("%d")`,
//! strings are printed with every control character, quote and backslash
//! as a decimal escape, tables in a fixed order (array part, then string
//! keys sorted). See README.md.

mod hot;
mod idioms;
#[cfg(feature = "in-process")]
pub mod in_process;
mod poly;
mod strings;

pub use idioms::{METATABLES, PCALL, STEPS, UPVALUES};
pub use poly::GROUP as POLY_CALLS;
pub use strings::GROUP as STRING_FUNCTIONS;

use xsmith::fuzzer::SpecFailure;
use xsmith::{Component, Doc, Fuzzer, Helper, Implementation, RenderNode, Spec};
use xsmith_canned::nodes::*;
use xsmith_canned::render::{call, dict_key, indented, record_entries, statements, string_literal};
use xsmith_canned::{Canned, Options, Syntax};

/// An immediately called function: how Lua says "statements, then a value".
fn iife<'a>(n: &RenderNode<'a>, body: Doc<'a>) -> Doc<'a> {
    n.text("(function()")
        .append(indented(n, body, 2))
        .append(n.hardline())
        .append("end)()")
}

/// A block's statements on their own lines, indented, and a line break.
fn block<'a>(n: &RenderNode<'a>, body: Doc<'a>) -> Doc<'a> {
    indented(n, body, 2).append(n.hardline())
}

fn function<'a>(n: &Function<'_, 'a>) -> Doc<'a> {
    n.text("function(").append(n.join(n.params(), n.text(", "))).append(")")
}

/// Lua's syntax of the canned productions.
struct Lua;

impl Syntax for Lua {
    fn let_<'a>(&self, n: &Binding<'_, 'a>) -> Doc<'a> {
        n.text("local ")
            .append(n.display(n.name()))
            .append(" = ")
            .append(n.init())
    }
    fn if_stmt<'a>(&self, n: &IfStmt<'_, 'a>) -> Doc<'a> {
        let (then, otherwise) = (block(n, n.then()), block(n, n.otherwise()));
        let head = n.text("if ").append(n.cond()).append(" then");
        head.append(then).append("else").append(otherwise).append("end")
    }
    fn block_stmt<'a>(&self, n: &BlockStmt<'_, 'a>) -> Doc<'a> {
        n.text("do").append(block(n, n.body())).append("end")
    }
    fn str_lit<'a>(&self, n: &Literal<'_, 'a>) -> Doc<'a> {
        n.text(string_literal(&n.value().to_string(), |_| None))
    }
    fn str_len<'a>(&self, n: &Unary<'_, 'a>) -> Doc<'a> {
        n.text("#(").append(n.operand()).append(")")
    }
    fn if_expr<'a>(&self, n: &IfExpr<'_, 'a>) -> Doc<'a> {
        let body = n.text("if ").append(n.cond()).append(" then return ").append(n.then());
        iife(n, body.append(" else return ").append(n.otherwise()).append(" end"))
    }
    fn expr_seq<'a>(&self, n: &ExprSeq<'_, 'a>) -> Doc<'a> {
        let effects = n
            .effects()
            .into_iter()
            .map(|e| n.text("local _ = ").append(e).append(n.hardline()));
        iife(n, n.concat(effects).append("return ").append(n.value()))
    }
    fn let_star<'a>(&self, n: &LetStar<'_, 'a>) -> Doc<'a> {
        iife(
            n,
            statements(n, n.defs())
                .append(n.hardline())
                .append("return ")
                .append(n.body()),
        )
    }
    fn lambda<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        function(n).append(" return ").append(n.body()).append(" end")
    }
    fn lambda_block<'a>(&self, n: &Function<'_, 'a>) -> Doc<'a> {
        function(n).append(block(n, n.body())).append("end")
    }
    fn array_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        n.text("{").append(n.join(n.items(), n.text(", "))).append("}")
    }
    fn dict_lit<'a>(&self, n: &Items<'_, 'a>) -> Doc<'a> {
        let entries = n.items().into_iter().enumerate();
        let entries = entries.map(|(i, e)| n.text(format!("{} = ", dict_key(i))).append(e));
        n.text("{").append(n.join(entries, n.text(", "))).append("}")
    }
    fn dict_set<'a>(&self, n: &DictSet<'_, 'a>) -> Doc<'a> {
        call(n, "aset_key", [n.dict(), n.key(), n.value()])
    }
    fn record_lit<'a>(&self, n: &RecordLit<'_, 'a>) -> Doc<'a> {
        n.text("{")
            .append(n.join(record_entries(n, " = "), n.text(", ")))
            .append("}")
    }
    fn field_set<'a>(&self, n: &FieldSet<'_, 'a>) -> Doc<'a> {
        let field = n.text(format!("\"{}\"", n.field()));
        call(n, "aset_key", [n.record(), field, n.value()])
    }
    fn for_each<'a>(&self, n: &ForEach<'_, 'a>) -> Doc<'a> {
        let head = n
            .text("for _, ")
            .append(n.element())
            .append(" in ipairs(")
            .append(n.container());
        head.append(") do").append(block(n, n.body())).append("end")
    }
    fn counted_for<'a>(&self, n: &Counted<'_, 'a>) -> Doc<'a> {
        let head = n.text("for ").append(n.counter());
        let head = head.append(format!(" = 0, {} - 1 do", n.iterations()));
        head.append(block(n, n.body())).append("end")
    }
    fn counted_while<'a>(&self, n: &CountedWhile<'_, 'a>) -> Doc<'a> {
        let (i, count) = (n.counter_name(), n.iterations());
        let body = n.body().append(n.hardline()).append(format!("{i} = {i} + 1"));
        let looped = match n.tests_last() {
            true => n
                .text("repeat")
                .append(block(n, body))
                .append(format!("until {i} >= {count}")),
            false => n
                .text(format!("while {i} < {count} do"))
                .append(block(n, body))
                .append("end"),
        };
        let inner = n.text(format!("local {i} = 0")).append(n.hardline()).append(looped);
        n.text("do").append(block(n, inner)).append("end")
    }
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
pub fn spec() -> Result<Spec, SpecFailure> {
    let options = options();
    let canned = Canned::new(&options)?;
    Ok(canned.spec(Lua, [own(options.hot_iterations)])?)
}

/// Lua's own productions (issue 34), each in a feature group of its own:
/// polymorphic calls in hot loops (`PolyCall`, [`POLY_CALLS`]), numeric
/// `for` with steps (`StepFor`, [`STEPS`]), closures updating upvalues
/// (`Upvalues`, [`UPVALUES`]), metatables (`MetaOps`, [`METATABLES`]),
/// `pcall` and `error` (`PcallLoop`, [`PCALL`]) and `string` functions
/// ([`STRING_FUNCTIONS`]).
fn own(hot: (i64, i64)) -> Component {
    let mut c = Component::new("lua");
    for spec in [
        poly::poly_call(),
        idioms::step_for(),
        idioms::upvalues(),
        idioms::meta_ops(),
        idioms::pcall_loop(),
    ] {
        hot::add(&mut c, spec, hot);
    }
    strings::component(&mut c);
    c
}

/// The runtime helpers, each written into a program that uses it: integer wrappers that keep every value in
/// `[-2^31, 2^31)`, safe division and modulo, bounded concatenation, safe
/// indexing, and printing that every implementation does alike.
const HELPERS: &[Helper] = &[
    Helper::new(
        "wrap",
        "local function wrap(x) x = x % 4294967296 if x >= 2147483648 then x = x - 4294967296 end return x end",
    ),
    Helper::new("add", "local function add(a, b) return wrap(a + b) end").uses(&["wrap"]),
    Helper::new("sub", "local function sub(a, b) return wrap(a - b) end").uses(&["wrap"]),
    Helper::new("neg", "local function neg(a) return wrap(-a) end").uses(&["wrap"]),
    Helper::new(
        "mul",
        r#"local function mul(a, b)
  local lo = b % 65536
  local hi = math.floor((b - lo) / 65536)
  return wrap(a * lo + wrap(a * hi) * 65536)
end"#,
    )
    .uses(&["wrap"]),
    Helper::new(
        "div",
        r#"local function div(a, b)
  if b == 0 then return a end
  local q = a / b
  if q >= 0 then q = math.floor(q) else q = math.ceil(q) end
  return wrap(q)
end"#,
    )
    .uses(&["wrap"]),
    Helper::new(
        "mod",
        "local function mod(a, b) if b == 0 then return a end return a % b end",
    ),
    Helper::new("cat", "local function cat(a, b) return string.sub(a .. b, 1, 40) end"),
    Helper::new("aget", "local function aget(a, i) return a[i % #a + 1] end"),
    Helper::new("aset", "local function aset(a, i, v) a[i % #a + 1] = v end"),
    Helper::new("aset_key", "local function aset_key(t, k, v) t[k] = v end"),
    Helper::new(
        "dget",
        "local function dget(d, k, default) local v = d[k] if v == nil then return default end return v end",
    ),
    Helper::new(
        "sbyte",
        "local function sbyte(s, i) if #s == 0 then return -1 end return string.byte(s, i % #s + 1) end",
    ),
    Helper::new(
        "sfind",
        "local function sfind(s, t) return string.find(s, t, 1, true) or 0 end",
    ),
    Helper::new(
        "escape",
        r#"local function escape(c) return "\\" .. string.byte(c) end"#,
    ),
    Helper::new(
        "show",
        r#"local show
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
end"#,
    )
    .uses(&["escape"]),
    Helper::new("out", r#"local function out(x) io.write(show(x), "\n") end"#).uses(&["show"]),
];

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
    prelude: "",
    helpers: HELPERS,
    width: 100,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-lua diff` runs programs on by default: the
/// installed interpreters, and with the `in-process` feature Lua 5.4 in
/// the fuzzer's own process ([`in_process::LUA`]).
#[cfg(feature = "in-process")]
pub const IMPLEMENTATIONS: &[Implementation] = &[INSTALLED[0], INSTALLED[1], INSTALLED[2], in_process::LUA];

/// The implementations `xsmith-lua diff` runs programs on by default.
#[cfg(not(feature = "in-process"))]
pub const IMPLEMENTATIONS: &[Implementation] = INSTALLED;

/// The interpreters installed on the machine that `xsmith-lua` runs
/// programs on.
pub const INSTALLED: &[Implementation] = &[
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
