//! Lua's own features that its JIT treats specially (issue 34, item 3),
//! as hot loops ([`crate::hot`]), each in a group of its own, in the
//! subset where lua5.1, lua5.4 and LuaJIT agree:
//!
//! - `StepFor` (`for-steps`): numeric `for` with a step other than 1,
//!   up or down, its control variable used in the body (integer start,
//!   limit and step: 5.4 counts an integer loop, 5.1 and LuaJIT a double
//!   one, the same values);
//! - `Upvalues` (`upvalues`): closures that update upvalues in loops: a
//!   counter closure over the function's local, a closure made in each
//!   iteration over that iteration's fresh local, a closure shared by
//!   several iterations;
//! - `MetaOps` (`metatables`): values with a metatable: `__add` and `__eq`
//!   (both operands tables with the same metatable, where 5.1's rule and
//!   5.4's agree), methods through an `__index` chain (a class and a
//!   subclass, overriding or inheriting), and `__index` functions;
//! - `PcallLoop` (`pcall`): `pcall` of a function that calls `error` with
//!   a table every few iterations (only the table is looked at), or that
//!   indexes `nil` (only `pcall`'s status is looked at: the messages
//!   differ between versions), nested `pcall`s.

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `StepFor`.
pub const STEPS: &str = "for-steps";
/// The group of `Upvalues`.
pub const UPVALUES: &str = "upvalues";
/// The group of `MetaOps`.
pub const METATABLES: &str = "metatables";
/// The group of `PcallLoop`.
pub const PCALL: &str = "pcall";

/// `StepFor { a: int, b: int }`.
pub(crate) fn step_for() -> HotLoop {
    HotLoop {
        name: "StepFor",
        group: STEPS,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 4,
        body: step_body,
        helpers: &["add"],
    }
}

/// Variants: 0, counting up by `step`; 1, counting down; 2, down with an
/// inner loop up by `step` over a few values; 3, a loop whose limit is
/// not reached exactly (the last value is below it).
fn step_body(shape: &Shape) -> Vec<String> {
    let step = 2 + shape.extra % 5;
    let start = shape.extra % 7 - 3;
    let last = start + (shape.count - 1) * step;
    let head = match shape.variant {
        1 | 2 => format!("for i = {last}, {start}, -{step} do"),
        3 => format!("for i = {start}, {} do", last + step - 1),
        _ => format!("for i = {start}, {last} do"),
    };
    let head = match shape.variant {
        1 | 2 => head,
        _ => head.replace(" do", &format!(", {step} do")),
    };
    let mut lines = vec!["local acc = 0".to_string(), head];
    if shape.variant == 2 {
        lines.push(format!("  for j = i % 3, 6, {step} do"));
        lines.push(format!("    {}", fold("add(a, j)")));
        lines.push("  end".to_string());
    }
    lines.push(format!("  {}", fold("i + b % 7")));
    lines.push("end".to_string());
    lines.push("return acc".to_string());
    lines
}

/// `Upvalues { a: int, b: int }`.
pub(crate) fn upvalues() -> HotLoop {
    HotLoop {
        name: "Upvalues",
        group: UPVALUES,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 3,
        body: upvalue_body,
        helpers: &["add"],
    }
}

/// Variants: 0, a counter closure over a local of the function, bumped in
/// the loop; 1, a closure made in each iteration over the iteration's own
/// local; 2, both, and a closure kept from the first phase called in the
/// later ones.
fn upvalue_body(shape: &Shape) -> Vec<String> {
    let mut lines = vec![
        "local n = a".to_string(),
        "local bump = function(d)".to_string(),
        "  n = add(n, d)".to_string(),
        "  return n".to_string(),
        "end".to_string(),
        "local kept = function() return b end".to_string(),
        "local acc = 0".to_string(),
        format!("for k = 0, {} - 1 do", shape.count),
    ];
    let inner: &[&str] = match shape.variant {
        0 => &["  acc = wrap(acc * 31 + bump(k % 5))"],
        1 => &[
            "  local c = k",
            "  local g = function() c = add(c, b) return c end",
            "  g()",
            "  acc = wrap(acc * 31 + g())",
        ],
        _ => &[
            "  local c = k",
            "  local g = function() c = add(c, n) return c end",
            "  acc = wrap(acc * 31 + bump(1) + g())",
        ],
    };
    lines.extend(inner.iter().map(|l| l.to_string()));
    if shape.variant == 2 {
        lines.push(format!("  if k < {} then kept = g end", shape.first));
        lines.push(format!("  {}", fold("kept()")));
    }
    lines.push("end".to_string());
    lines.push(fold("n"));
    lines.push("return acc".to_string());
    lines
}

/// `MetaOps { a: int, b: int }`.
pub(crate) fn meta_ops() -> HotLoop {
    HotLoop {
        name: "MetaOps",
        group: METATABLES,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 3,
        body: meta_body,
        helpers: &["add", "sub", "mul"],
    }
}

/// Variants: 0, a value type with `__add` and `__eq`; 1, a class and a
/// subclass through `__index` tables, the subclass overriding the
/// method; 2, the same, the subclass inheriting it, and the class's method
/// replaced at `second`.
fn meta_body(shape: &Shape) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    if shape.variant == 0 {
        lines.extend(
            [
                "local mt = {}",
                "local V = function(v) return setmetatable({v = v}, mt) end",
                "mt.__add = function(l, r) return V(add(l.v, r.v)) end",
                "mt.__eq = function(l, r) return l.v % 8 == r.v % 8 end",
                "local x, acc = V(a), 0",
            ]
            .map(String::from),
        );
        lines.push(format!("for k = 0, {} - 1 do", shape.count));
        lines.push("  x = x + V(k)".to_string());
        lines.push("  if x == V(b) then acc = wrap(acc * 31 + 1) end".to_string());
        lines.push(format!("  {}", fold("x.v")));
        lines.push("end".to_string());
        lines.push("return acc".to_string());
        return lines;
    }
    lines.extend(
        [
            "local Class = {}",
            "Class.__index = Class",
            "Class.m = function(self, k) return add(self.v, k) end",
            "Class.new = function(v) return setmetatable({v = v, w = 3}, Class) end",
            "local Sub = setmetatable({}, {__index = Class})",
            "Sub.__index = Sub",
            "Sub.new = function(v) return setmetatable({v = v, w = 5}, Sub) end",
        ]
        .map(String::from),
    );
    if shape.variant == 1 {
        lines.push("Sub.m = function(self, k) return sub(self.w, self.v) end".to_string());
    }
    lines.push("local objs, acc = {Class.new(a), Sub.new(b), Sub.new(a)}, 0".to_string());
    lines.push(format!("for k = 0, {} - 1 do", shape.count));
    lines.push(format!("  local o = objs[k < {} and 1 or k % 3 + 1]", shape.first));
    if shape.variant == 2 {
        lines.push(format!(
            "  if k == {} then Class.m = function(self, k) return mul(self.v, 3) end end",
            shape.second
        ));
    }
    lines.push(format!("  {}", fold("o:m(k) + (getmetatable(o) == Sub and 1 or 0)")));
    lines.push("end".to_string());
    lines.push("return acc".to_string());
    lines
}

/// `PcallLoop { a: int, b: int }`.
pub(crate) fn pcall_loop() -> HotLoop {
    HotLoop {
        name: "PcallLoop",
        group: PCALL,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 3,
        body: pcall_body,
        helpers: &["add"],
    }
}

/// Variants: 0, `g` calls `error` with a table every `period` iterations;
/// 1, `g` indexes `nil` every `period` iterations (only the status is
/// kept); 2, as 0 inside a second `pcall` that rethrows every other error.
fn pcall_body(shape: &Shape) -> Vec<String> {
    let period = 2 + shape.extra % 5;
    let mut lines = vec!["local o = {v = b}".to_string(), "local g = function(k)".to_string()];
    match shape.variant {
        1 => {
            lines.push("  local t = o".to_string());
            lines.push(format!("  if k % {period} == 1 then t = nil end"));
            lines.push("  return t.v".to_string());
        }
        _ => {
            lines.push(format!("  if k % {period} == 0 then error({{v = k}}) end"));
            lines.push("  return add(a, k)".to_string());
        }
    }
    lines.push("end".to_string());
    lines.push("local acc = 0".to_string());
    lines.push(format!("for k = 0, {} - 1 do", shape.count));
    match shape.variant {
        1 => {
            lines.push("  local ok, r = pcall(g, k)".to_string());
            lines.push("  if ok then acc = wrap(acc * 31 + r) else acc = wrap(acc * 31 + 7) end".to_string());
        }
        2 => {
            lines.push("  local ok, r = pcall(function()".to_string());
            lines.push("    local ok2, r2 = pcall(g, k)".to_string());
            lines.push("    if not ok2 and k % 2 == 0 then error(r2) end".to_string());
            lines.push("    if ok2 then return r2 end".to_string());
            lines.push("    return r2.v".to_string());
            lines.push("  end)".to_string());
            lines.push("  if ok then acc = wrap(acc * 31 + r) else acc = wrap(acc * 31 + add(r.v, 1)) end".to_string());
        }
        _ => {
            lines.push("  local ok, r = pcall(g, k)".to_string());
            lines.push("  if ok then acc = wrap(acc * 31 + r) else acc = wrap(acc * 31 + r.v) end".to_string());
        }
    }
    lines.push("end".to_string());
    lines.push("return acc".to_string());
    lines
}
