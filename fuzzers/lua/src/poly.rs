//! Polymorphic calls (issue 34, item 2): `PolyCall`, group `poly-calls`.
//!
//! A function `f` of the fuzzer's own is called in a hot loop with one
//! kind of argument, then, from iteration `first` on, with another (and,
//! half the time, from `second` on, with a third): a string, then a table;
//! tables of one shape, then of another, or whose fields come through
//! `__index`; a number, then a table with `__add`; an array, then a table
//! with holes; one argument, then three. `f`'s body uses only operations
//! that every kind it is called with has (the length of strings and
//! sequences, field reads and writes, `+` with a metamethod where it is a
//! table, indexing, `select`), with results that lua5.1, lua5.4 and LuaJIT
//! compute alike, and returns an integer. LuaJIT's traces specialize on
//! the first kind, and must exit (and record new traces) when the second
//! comes.

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `PolyCall`.
pub const GROUP: &str = xsmith_canned::hot::POLY_CALLS;

/// The kinds of scenario: `f`'s definition, and the calls of `f` its phases
/// choose among (each with other kinds of argument). `a` and `b` are
/// int32s, `s` a string, `k` the iteration; `T` and `U` make tables with a
/// field `v` whose metatables' `__add` differ.
const SCENARIOS: [(&[&str], &[&str]); 5] = [
    // A length: of a string, and of sequences (`#` of a table is only
    // ever taken of a sequence, where it is defined).
    (
        &["local f = function(x, k)", "  return #x", "end"],
        &["f(s, k)", "f({a, b}, k)", "f({s, a, k}, k)", "f({}, k)"],
    ),
    // Fields read and written on tables of five shapes: two orders, an
    // extra field, a field inherited through an `__index` table, fields
    // given by an `__index` function (the write makes an own field).
    (
        &[
            "local f = function(x, k)",
            "  x.p = add(x.p, k)",
            "  return sub(x.p, x.q)",
            "end",
        ],
        &[
            "f({p = a, q = b}, k)",
            "f({q = b, p = a}, k)",
            "f({p = a, q = b, r = s}, k)",
            "f(setmetatable({q = b}, {__index = {p = a}}), k)",
            "f(setmetatable({}, {__index = function(t, key) if key == \"p\" then return a end return b end}), k)",
        ],
    ),
    // `x + k`: a number, or a table whose metatable's `__add` gives a
    // number.
    (
        &["local f = function(x, k)", "  return wrap(x + k)", "end"],
        &["f(a, k)", "f(T(a), k)", "f(U(b), k)", "f(#s, k)"],
    ),
    // Indexed reads, present and absent: an array, a table with holes (no
    // `#` is taken of it), an array of strings, an `__index` function, a
    // string (whose metatable's `__index` is `string`: a number key gives
    // `nil`).
    (
        &[
            "local f = function(x, k)",
            "  local v = x[k % 4 + 1]",
            "  if type(v) == \"number\" then return v elseif type(v) == \"string\" then return #v end",
            "  return -1",
            "end",
        ],
        &[
            "f({a, b, a}, k)",
            "f({[1] = a, [3] = b}, k)",
            "f({s, s}, k)",
            "f(setmetatable({}, {__index = function(t, i) return i * 2 end}), k)",
            "f(s, k)",
        ],
    ),
    // Arity: `f` reads its varargs through `select`, called with zero to
    // four.
    (
        &[
            "local f = function(...)",
            "  local t = select(\"#\", ...)",
            "  for j = 1, select(\"#\", ...) do",
            "    local v = (select(j, ...))",
            "    if type(v) == \"string\" then v = #v end",
            "    t = wrap(t * 7 + v)",
            "  end",
            "  return t",
            "end",
        ],
        &["f(a)", "f(a, k, b)", "f()", "f(s, a)", "f(k, s, k, b)"],
    ),
];

/// `PolyCall { a: int, b: int, s: string }`.
pub(crate) fn poly_call() -> HotLoop {
    xsmith_canned::hot::poly_call(SCENARIOS.len() as i64, body)
}

fn body(shape: &Shape) -> Vec<String> {
    let (f, calls) = SCENARIOS[shape.variant as usize];
    let calls = shape.phases(calls);
    let mut lines: Vec<String> = f.iter().map(|l| l.to_string()).collect();
    if calls.iter().any(|c| c.contains("T(")) {
        lines.push("local mt = {__add = function(l, r) return add(l.v, r) end}".to_string());
        lines.push("local T = function(v) return setmetatable({v = v}, mt) end".to_string());
    }
    if calls.iter().any(|c| c.contains("U(")) {
        lines.push("local mu = {__add = function(l, r) return sub(r, l.v) end}".to_string());
        lines.push("local U = function(v) return setmetatable({v = v}, mu) end".to_string());
    }
    lines.push("local acc = 0".to_string());
    lines.push(format!("for k = 0, {} - 1 do", shape.count));
    lines.push("  local r".to_string());
    match calls[..] {
        [first, second] => {
            lines.push(format!(
                "  if k < {} then r = {first} else r = {second} end",
                shape.first
            ));
        }
        [first, second, third] => {
            lines.push(format!(
                "  if k < {} then r = {first} elseif k < {} then r = {second} else r = {third} end",
                shape.first, shape.second
            ));
        }
        _ => unreachable!("two or three phases"),
    }
    lines.push(format!("  {}", fold("r")));
    lines.push("end".to_string());
    lines.push("return acc".to_string());
    lines
}
