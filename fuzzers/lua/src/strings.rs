//! `string` library functions with results every version agrees on
//! (issue 34, item 3), group `string-functions`: calls that LuaJIT compiles
//! as fast functions in its traces.
//!
//! - `StrSub` (`string`): `string.sub(s, i, j)`, defined alike for every
//!   integer `i` and `j` (negative ones count from the end);
//! - `StrByte` (`int`): the header's `sbyte(s, i)`, `string.byte` at `i`
//!   modulo the length (-1 for the empty string, never `nil`);
//! - `StrFind` (`int`): the header's `sfind(s, t)`, a plain
//!   `string.find` (no pattern), the start of the first match or 0;
//! - `StrCase` (`string`): `string.upper`, `string.lower`,
//!   `string.reverse`: every string of a program is ASCII, which the C
//!   locale all three run in maps alike;
//! - `StrRep` (`string`): `string.rep(s, n % 3)` (5.1 has no separator
//!   argument), cut to 40 characters;
//! - `StrFormat` (`string`): `string.format` of an integer with `%d`,
//!   `%5d` or `%-4d`.

use xsmith::{Component, DataInit, ProductionDecl, Renderer, TypeInfo, Weight};

/// The group of the string functions.
pub const GROUP: &str = "string-functions";

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
/// the calls it chooses among, `{s}`, `{t}`, `{i}`, `{j}` standing for
/// its children.
const FUNCTIONS: [Entry; 6] = [
    entry("StrSub", "string", &["s"], &["i", "j"], &["string.sub({s}, {i}, {j})"]),
    entry("StrByte", "int", &["s"], &["i"], &["sbyte({s}, {i})"]),
    entry("StrFind", "int", &["s", "t"], &[], &["sfind({s}, {t})"]),
    entry(
        "StrCase",
        "string",
        &["s"],
        &[],
        &["string.upper({s})", "string.lower({s})", "string.reverse({s})"],
    ),
    entry(
        "StrRep",
        "string",
        &["s"],
        &["i"],
        &["string.sub(string.rep({s}, {i} % 3), 1, 40)"],
    ),
    entry(
        "StrFormat",
        "string",
        &[],
        &["i"],
        &[
            "string.format(\"%d\", {i})",
            "string.format(\"%5d\", {i})",
            "string.format(\"%-4d\", {i})",
        ],
    ),
];

/// The header helpers a call text uses.
const HELPERS: [&str; 2] = ["sbyte", "sfind"];

/// The component of the string functions.
pub(crate) fn component(c: &mut Component) {
    for Entry {
        name,
        result,
        strings,
        ints,
        calls,
    } in FUNCTIONS
    {
        let mut decl = ProductionDecl::new(name)
            .supertype("Expr")
            .data("method", DataInit::new(move |r| r.below(calls.len() as u64) as i64));
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
            .choice_weight(name, Weight::Constant(2));
        if !strings.is_empty() || result == "string" {
            c.feature(name, "strings");
        }
        if !ints.is_empty() || result == "int" {
            c.feature(name, "integers");
        }
        c.render(
            name,
            Renderer::function(move |n| {
                let call = calls[n.data("method").as_int().expect("an integer method") as usize];
                for helper in HELPERS {
                    if call.starts_with(helper) {
                        n.uses_helper(helper);
                    }
                }
                // The text between the fields, and the fields in order.
                let mut doc = n.nil();
                let mut rest = call;
                while let Some(start) = rest.find('{') {
                    let end = start + rest[start..].find('}').expect("a closed field");
                    doc = doc
                        .append(n.text(&rest[..start]))
                        .append(n.child(&rest[start + 1..end]));
                    rest = &rest[end + 1..];
                }
                doc.append(n.text(rest))
            }),
        );
    }
}
