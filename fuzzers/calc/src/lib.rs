//! The calc language of the Xsmith paper: integer literals 1 to 99, addition,
//! and division made safe by a wrapper in the program header. One text runs
//! in both `python3` and `node` (a polyglot header defines the wrapper and
//! `show` in each) and prints the value.

use xsmith::{component, Fuzzer, Implementation, Spec};

component! {
    /// The calc grammar and its rendering.
    pub fn calc;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Literal: Expr { value = |r| r.int_in(1, 99) }
        Add: Expr { left: Expr, right: Expr }
        Div: Expr { left: Expr, right: Expr }
    }
    render {
        Program => ["show(", body, ")"],
        Literal => [value],
        Add => [group(["(", nest(1, [left, " +", line, right]), ")"])],
        Div => [group(["safe_div(", nest(9, [left, ",", line, right]), ")"])],
    }
    feature { Div => "division" }
}

/// Line 2 is `1 // 1; """` in both languages: JavaScript sees `1` and a
/// comment, Python a statement and a string that hides the JavaScript part.
const PRELUDE: &str = r#"1 // 1; """
function safe_div(a, b) { return b === 0 ? a : Math.trunc(a / b); }
function show(v) { console.log(String(v)); }
/* """
def safe_div(a, b):
    if b == 0:
        return a
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q
def show(v):
    print(v)
# */
"#;

/// The calc fuzzer: its spec, header and file conventions.
pub const FUZZER: Fuzzer = Fuzzer {
    name: "xsmith-calc",
    version: env!("CARGO_PKG_VERSION"),
    extension: "calc",
    spec: || Ok(Spec::assemble("Program", [calc()])?),
    comment: |text| format!("#! {text}\n"),
    prelude: PRELUDE,
    helpers: &[],
    width: 80,
    implementations: IMPLEMENTATIONS,
};

/// The implementations `xsmith-calc diff` runs programs on by default: one
/// text runs in both.
pub const IMPLEMENTATIONS: &[Implementation] = &[
    Implementation::Command {
        name: "python3",
        template: "python3 {}",
        package: "python3",
    },
    Implementation::Command {
        name: "node",
        template: "node {}",
        package: "nodejs",
    },
];
