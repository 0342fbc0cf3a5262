//! `String.prototype` methods with portable results (issue 34, item 3),
//! group `string-methods`: expressions the optimizing tier inlines as
//! built-ins.
//!
//! - `StrSearch` (`int`): `s.indexOf(t)`, `s.lastIndexOf(t)`,
//!   `s.split(t).length` (a string separator; `""` splits into code
//!   units);
//! - `StrCodeAt` (`int`): the header's `scode(s, i)`, `s.charCodeAt` at
//!   `i` modulo the length (-1 for the empty string, never `NaN`);
//! - `StrSlice` and `StrCharAt` (`string`): `s.slice(i, j)`,
//!   `s.substring(i, j)`, `s.charAt(i)`, defined for every integer `i` and
//!   `j`;
//! - `StrCase` (`string`): `toUpperCase`, `toLowerCase`, `trim`. Every
//!   string of a program is ASCII (the canned literals, and what slicing
//!   and concatenating them gives), where the case mappings and the
//!   whitespace `trim` removes are the same in every engine: non-ASCII
//!   case mappings follow each engine's Unicode tables.
//!
//! Every result is an integer or a string no longer than its operands.

use xsmith::{Component, DataInit, ProductionDecl, Renderer, TypeInfo, Weight};

/// The group of the string methods.
pub const GROUP: &str = "string-methods";

/// One string production: its name, result type, string and int
/// children, and what it writes.
struct Entry {
    name: &'static str,
    result: &'static str,
    strings: &'static [&'static str],
    ints: &'static [&'static str],
    calls: &'static [&'static str],
}

/// `Entry` from its parts, in order.
const fn entry(
    name: &'static str,
    result: &'static str,
    strings: &'static [&'static str],
    ints: &'static [&'static str],
    calls: &'static [&'static str],
) -> Entry {
    Entry {
        name,
        result,
        strings,
        ints,
        calls,
    }
}

/// Each production: its name, result type, string and int children, and
/// its methods (`.NAME(` after the receiver, or a header call for `scode`).
const METHODS: [Entry; 5] = [
    entry(
        "StrSearch",
        "int",
        &["s", "t"],
        &[],
        &["indexOf", "lastIndexOf", "split"],
    ),
    entry("StrCodeAt", "int", &["s"], &["i"], &["scode"]),
    entry("StrSlice", "string", &["s"], &["i", "j"], &["slice", "substring"]),
    entry("StrCharAt", "string", &["s"], &["i"], &["charAt"]),
    entry(
        "StrCase",
        "string",
        &["s"],
        &[],
        &["toUpperCase", "toLowerCase", "trim"],
    ),
];

/// The component of the string methods.
pub(crate) fn component(c: &mut Component) {
    for Entry {
        name,
        result,
        strings,
        ints,
        calls: methods,
    } in METHODS
    {
        let mut decl = ProductionDecl::new(name)
            .supertype("Expr")
            .data("method", DataInit::new(move |r| r.below(methods.len() as u64) as i64));
        let mut info = TypeInfo::new(move |s| s.base(result));
        for &field in strings {
            decl = decl.child(field, "Expr");
            info = info.child(field, |c| c.base("string"));
        }
        for &field in ints {
            decl = decl.child(field, "Expr");
            info = info.child(field, |c| c.base("int"));
        }
        c.production(decl);
        c.type_info(name, info)
            .feature(name, GROUP)
            .feature(name, "strings")
            .choice_weight(name, Weight::Constant(2));
        if !ints.is_empty() {
            c.feature(name, "integers");
        }
        c.render(
            name,
            Renderer::function(move |n| {
                let method = methods[n.data("method").as_int().expect("an integer method") as usize];
                if method == "scode" {
                    return xsmith_canned::render::call(n, "scode", [n.child("s"), n.child("i")]);
                }
                let receiver = n.text("(").append(n.child("s")).append(").");
                let args = match name {
                    "StrSearch" => vec![n.child("t")],
                    "StrCharAt" => vec![n.child("i")],
                    "StrSlice" => vec![n.child("i"), n.child("j")],
                    _ => vec![],
                };
                let called = receiver
                    .append(method)
                    .append("(")
                    .append(n.join(args, n.text(", ")))
                    .append(")");
                match method {
                    "split" => n.text("(").append(called).append(").length"),
                    _ => called,
                }
            }),
        );
    }
}
