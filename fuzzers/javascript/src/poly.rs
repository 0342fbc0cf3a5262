//! Polymorphic calls (issue 34, item 2): `PolyCall`, group `poly-calls`.
//!
//! A function `f` of the fuzzer's own is called in a hot loop with one
//! kind of argument, then, from iteration `first` on, with another (and,
//! half the time, from `second` on, with a third): a string, then an
//! array; records of one shape, then of another; an array, then a
//! dictionary, then an `arguments` object; one argument, then three. `f`'s
//! body uses only operations that every kind it is called with has, with
//! results every implementation computes alike (lengths, property reads
//! and writes of int32 values through the header's wrappers, `+` of a
//! value with itself, indexing, `arguments`), and returns an integer. The
//! optimizing tier specializes `f` and the loop on the first kind, and must
//! deoptimize when the second comes.

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `PolyCall`.
pub const GROUP: &str = xsmith_canned::hot::POLY_CALLS;

/// The kinds of scenario: `f`'s body, and the calls of `f` its phases
/// choose among (each with other kinds of argument). `a` and `b` are
/// int32s, `s` a string, `k` the iteration; `Pq` is a constructor of
/// objects with the fields `p` and `q`, `args` returns its `arguments`.
const SCENARIOS: [(&[&str], &[&str]); 5] = [
    // A length: of a string, arrays of integers and of mixed elements, an
    // object with a `length`, an `arguments` object.
    (
        &["return x.length;"],
        &[
            "f(s, k)",
            "f([a, b], k)",
            "f([s, a, k], k)",
            "f({length: a}, k)",
            "f(args(a, s), k)",
        ],
    ),
    // Fields read and written on objects of five shapes: two orders, an
    // extra field, a constructor's instance, an inherited field (the write
    // makes an own one).
    (
        &["x.p = add(x.p, k);", "return sub(x.p, x.q);"],
        &[
            "f({p: a, q: b}, k)",
            "f({q: b, p: a}, k)",
            "f({p: a, q: b, r: s}, k)",
            "f(new Pq(a, b), k)",
            "f(Object.create({p: a, q: b}), k)",
        ],
    ),
    // `+` of a value with itself: an integer sum, a string concatenation,
    // an array's text, booleans as numbers.
    (
        &["var y = x + x;", "return typeof y === \"string\" ? y.length : y | 0;"],
        &["f(a, k)", "f(s, k)", "f([a, b], k)", "f(a < b, k)"],
    ),
    // Indexed reads, in and out of bounds: a packed array, a string, a
    // dictionary with integer-like keys, an `arguments` object, an array
    // of strings.
    (
        &[
            "var v = x[k % 4];",
            "return typeof v === \"number\" ? v : typeof v === \"string\" ? v.length : -1;",
        ],
        &[
            "f([a, b, a], k)",
            "f(s, k)",
            "f({\"0\": a, \"2\": b}, k)",
            "f(args(a, s, b), k)",
            "f([s, s], k)",
        ],
    ),
    // Arity: `f` reads its `arguments`, called with zero to four.
    (
        &[
            "var t = arguments.length, j;",
            "for (j = 0; j < arguments.length; j++) {",
            "  t = (t * 7 + (typeof arguments[j] === \"number\" ? arguments[j] : arguments[j].length)) | 0;",
            "}",
            "return t;",
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
    let mut lines = vec!["var f = function (x, k) {".to_string()];
    lines.extend(f.iter().map(|l| format!("  {l}")));
    lines.push("};".to_string());
    if calls.iter().any(|c| c.contains("Pq")) {
        lines.push("var Pq = function (p, q) {".to_string());
        lines.push("  this.p = p;".to_string());
        lines.push("  this.q = q;".to_string());
        lines.push("};".to_string());
    }
    if calls.iter().any(|c| c.contains("args(")) {
        lines.push("var args = function () {".to_string());
        lines.push("  return arguments;".to_string());
        lines.push("};".to_string());
    }
    let call = match calls[..] {
        [first, second] => format!("(k < {} ? {first} : {second})", shape.first),
        [first, second, third] => format!(
            "(k < {} ? {first} : k < {} ? {second} : {third})",
            shape.first, shape.second
        ),
        _ => unreachable!("two or three phases"),
    };
    lines.push("var acc = 0, k;".to_string());
    lines.push(format!("for (k = 0; k < {}; k++) {{", shape.count));
    lines.push(format!("  {}", fold(&call)));
    lines.push("}".to_string());
    lines.push("return acc;".to_string());
    lines
}
