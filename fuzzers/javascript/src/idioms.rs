//! JavaScript's own features that optimizers treat specially (issue 34,
//! item 3), as hot loops ([`crate::hot`]), each in a group of its own:
//!
//! - `ShapeGrow` (`object-shapes`): objects that start from one of two
//!   shapes and get properties added in a loop (hidden-class transitions),
//!   some deleted again (dictionary mode), read by name, by computed name,
//!   with `in` and through `Object.keys(o).length` (a count: the order of
//!   the keys is never observed);
//! - `ProtoCall` (`prototypes`): a constructor and a second one inheriting
//!   from it through `Object.create`, a method called through the
//!   prototype chain on instances of both, overridden or inherited, and in
//!   some variants replaced in the middle of the loop (on the prototype,
//!   or as an instance's own property), and `instanceof`;
//! - `TryLoop` (`exceptions`): `try`/`catch` in a hot loop, the exception
//!   an object thrown by a called function every few iterations, or the
//!   `TypeError` of reading a property of `null` (only its class is looked
//!   at, `instanceof TypeError`, never its message, which engines word
//!   differently), with `finally`, or rethrown from a nested `try`.

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `ShapeGrow`.
pub const SHAPES: &str = "object-shapes";
/// The group of `ProtoCall`.
pub const PROTOTYPES: &str = "prototypes";
/// The group of `TryLoop`.
pub const EXCEPTIONS: &str = "exceptions";

/// `ShapeGrow { a: int, b: int }`.
pub(crate) fn shape_grow() -> HotLoop {
    HotLoop {
        name: "ShapeGrow",
        group: SHAPES,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 2,
        body: shape_body,
        helpers: &["add"],
    }
}

fn shape_body(shape: &Shape) -> Vec<String> {
    let width = 2 + shape.extra % 4;
    let mut lines = vec![
        "var acc = 0, k, j, o;".to_string(),
        format!("for (k = 0; k < {}; k++) {{", shape.count),
        "  o = k % 2 === 0 ? {} : {q: b};".to_string(),
        format!("  for (j = 0; j <= k % {width}; j++) {{"),
        "    o[\"p\" + j] = add(a, j);".to_string(),
        "  }".to_string(),
        format!("  if (k >= {}) {{", shape.first),
        "    o.r = k;".to_string(),
        "  }".to_string(),
    ];
    if shape.variant == 1 {
        lines.push("  if (k % 3 === 0) {".to_string());
        lines.push("    delete o.p0;".to_string());
        lines.push("  }".to_string());
    }
    for value in [
        "(o.p0 === undefined ? 1 : o.p0)".to_string(),
        "(o.p1 === undefined ? 3 : o.p1)".to_string(),
        format!(
            "Object.keys(o).length + (\"q\" in o ? 2 : 0) + ((\"p\" + (k % {})) in o ? 4 : 0)",
            width + 1
        ),
    ] {
        lines.push(format!("  {}", fold(&value)));
    }
    lines.push("}".to_string());
    lines.push("return acc;".to_string());
    lines
}

/// `ProtoCall { a: int, b: int }`.
pub(crate) fn proto_call() -> HotLoop {
    HotLoop {
        name: "ProtoCall",
        group: PROTOTYPES,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 4,
        body: proto_body,
        helpers: &["add", "sub", "mul"],
    }
}

/// Variants: 0, `Q` overrides `m`; 1, `Q` inherits it; 2, `Q` overrides it
/// and `P.prototype.m` is replaced at `second`; 3, `Q` overrides it and an
/// instance gets an own `m` at `second`.
fn proto_body(shape: &Shape) -> Vec<String> {
    let mut lines: Vec<String> = [
        "var P = function (v) {",
        "  this.v = v;",
        "};",
        "P.prototype.m = function (k) {",
        "  return add(this.v, k);",
        "};",
        "var Q = function (v) {",
        "  P.call(this, v);",
        "  this.w = 3;",
        "};",
        "Q.prototype = Object.create(P.prototype);",
    ]
    .map(String::from)
    .to_vec();
    if shape.variant != 1 {
        lines.push("Q.prototype.m = function (k) {".to_string());
        lines.push("  return sub(this.w, this.v);".to_string());
        lines.push("};".to_string());
    }
    lines.push("var os = [new P(a), new Q(b), new Q(a)], acc = 0, k, o;".to_string());
    lines.push(format!("for (k = 0; k < {}; k++) {{", shape.count));
    lines.push(format!("  o = os[k < {} ? 0 : k % 3];", shape.first));
    match shape.variant {
        2 => {
            lines.push(format!("  if (k === {}) {{", shape.second));
            lines.push("    P.prototype.m = function (k) {".to_string());
            lines.push("      return mul(this.v, 3);".to_string());
            lines.push("    };".to_string());
            lines.push("  }".to_string());
        }
        3 => {
            lines.push(format!("  if (k === {}) {{", shape.second));
            lines.push("    os[1].m = function (k) {".to_string());
            lines.push("      return k;".to_string());
            lines.push("    };".to_string());
            lines.push("  }".to_string());
        }
        _ => {}
    }
    lines.push(format!("  {}", fold("o.m(k) + (o instanceof Q ? 1 : 0)")));
    lines.push("}".to_string());
    lines.push("return acc;".to_string());
    lines
}

/// `TryLoop { a: int, b: int }`.
pub(crate) fn try_loop() -> HotLoop {
    HotLoop {
        name: "TryLoop",
        group: EXCEPTIONS,
        fields: &[("a", "int"), ("b", "int")],
        weight: 4,
        variants: 4,
        body: try_body,
        helpers: &["add"],
    }
}

/// Variants: 0, `g` throws an object every `period` iterations; 1, a
/// property of `null` is read every `period` iterations (a `TypeError`);
/// 2, as 0 with `finally`; 3, as 0, the inner `catch` rethrowing every
/// other exception to an outer `try`.
fn try_body(shape: &Shape) -> Vec<String> {
    let period = 2 + shape.extra % 5;
    let mut lines: Vec<String> = vec![
        "var g = function (k) {".to_string(),
        format!("  if (k % {period} === 0) {{"),
        "    throw {v: k};".to_string(),
        "  }".to_string(),
        "  return add(a, k);".to_string(),
        "};".to_string(),
        "var o = {v: b}, acc = 0, k;".to_string(),
        format!("for (k = 0; k < {}; k++) {{", shape.count),
    ];
    let caught = fold("(e instanceof TypeError ? 7 : e.v)");
    let body: Vec<String> = match shape.variant {
        1 => vec![
            "try {".to_string(),
            format!("  {}", fold(&format!("(k % {period} === 1 ? null : o).v"))),
            "} catch (e) {".to_string(),
            format!("  {caught}"),
            "}".to_string(),
        ],
        2 => vec![
            "try {".to_string(),
            format!("  {}", fold("g(k)")),
            "} catch (e) {".to_string(),
            format!("  {caught}"),
            "} finally {".to_string(),
            "  acc = (acc + 1) | 0;".to_string(),
            "}".to_string(),
        ],
        3 => vec![
            "try {".to_string(),
            "  try {".to_string(),
            format!("    {}", fold("g(k)")),
            "  } catch (e) {".to_string(),
            "    if (k % 2 === 0) {".to_string(),
            "      throw e;".to_string(),
            "    }".to_string(),
            format!("    {}", fold("e.v")),
            "  }".to_string(),
            "} catch (e) {".to_string(),
            format!("  {}", fold("add(e.v, 1)")),
            "}".to_string(),
        ],
        _ => vec![
            "try {".to_string(),
            format!("  {}", fold("g(k)")),
            "} catch (e) {".to_string(),
            format!("  {caught}"),
            "}".to_string(),
        ],
    };
    lines.extend(body.into_iter().map(|l| format!("  {l}")));
    lines.push("}".to_string());
    lines.push("return acc;".to_string());
    lines
}
