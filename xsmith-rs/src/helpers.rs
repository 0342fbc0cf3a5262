//! Runtime helpers: the definitions of a fuzzer's header (safe arithmetic,
//! printing) that a program carries only when it uses them, so that a
//! small program, a reduced one above all, is small.
//!
//! A helper is used when a renderer of one of the program's nodes says so:
//! [`RenderNode::helper`](crate::RenderNode::helper) writes a helper's name
//! and records the use (the canned components' `render::call`, through
//! which their arithmetic and printing go, calls it). A used helper brings
//! in the helpers it [`uses`](Helper::uses), and those theirs. Nothing is
//! chosen by searching the text: a helper whose own body holds another's
//! name in a string, or a program string that spells a helper's name, adds
//! nothing. Included helpers are written in the order the fuzzer declares
//! them, so that one may call any declared before it, and the same tree
//! always gives the same header.
//!
//! ```
//! use xsmith::{component, Fuzzer, Helper, Spec};
//!
//! component! {
//!     /// `show(a + b)`, or `show(a // b)` through the helper `div`.
//!     pub fn calc;
//!     grammar {
//!         Program { body: Expr }
//!         abstract Expr {}
//!         Literal: Expr { value = |r| r.int_in(1, 9) }
//!         Add: Expr { left: Expr, right: Expr }
//!         Div: Expr { left: Expr, right: Expr }
//!     }
//!     render {
//!         Program => |n| n.helper("show").append("(").append(n.child("body")).append(")"),
//!         Literal => [value],
//!         Add => ["(", left, " + ", right, ")"],
//!         Div => |n| n.helper("div").append("(").append(n.child("left")).append(", ").append(n.child("right")).append(")"),
//!     }
//! }
//!
//! const HELPERS: &[Helper] = &[
//!     Helper::new("wrap", "def wrap(x): return (x + 128) % 256 - 128"),
//!     Helper::new("div", "def div(a, b): return wrap(a // b) if b else a").uses(&["wrap"]),
//!     Helper::new("show", "def show(x): print(x, 'div(')"),
//! ];
//! let fuzzer = Fuzzer {
//!     name: "calc", version: "1", extension: "py", spec: || Ok(Spec::assemble("Program", [calc()])?),
//!     comment: |t| format!("# {t}\n"), prelude: "", helpers: HELPERS, width: 80, implementations: &[],
//! };
//! let spec = (fuzzer.spec)().unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! for seed in 0..20 {
//!     let text = fuzzer.program(&spec, &mut generator, xsmith::Source::Seed(seed)).unwrap().text;
//!     let body = text.lines().last().unwrap();
//!     // `div` (and the `wrap` it uses) only where a `Div` node is; `show`'s
//!     // string "div(" brings in nothing.
//!     assert_eq!(text.contains("def div("), body.contains("div("), "{text}");
//!     assert_eq!(text.contains("def wrap("), body.contains("div("), "{text}");
//!     assert!(text.contains("def show("));
//! }
//! ```

/// One definition of a fuzzer's runtime header: its name, the other
/// helpers its definition calls, and its text.
///
/// ```
/// use xsmith::Helper;
/// const HELPERS: &[Helper] = &[
///     Helper::new("wrap", "local function wrap(x) return x % 256 end"),
///     Helper::new("add", "local function add(a, b) return wrap(a + b) end").uses(&["wrap"]),
///     Helper::new("neg", "local function neg(a) return wrap(-a) end").uses(&["wrap"]),
/// ];
/// let header = xsmith::helpers::included(HELPERS, ["add"]);
/// assert_eq!(header, "local function wrap(x) return x % 256 end\nlocal function add(a, b) return wrap(a + b) end\n");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Helper {
    /// The name renderers use it by ([`RenderNode::helper`](crate::RenderNode::helper)):
    /// the identifier programs call it by, which may start with `$` (as
    /// WebAssembly's do).
    pub name: &'static str,
    /// The names of the helpers its text calls: a program that includes it
    /// includes them.
    pub uses: &'static [&'static str],
    /// Its definition; a newline is written after it unless it ends with
    /// one.
    pub text: &'static str,
}

impl Helper {
    /// A helper that uses no other.
    ///
    /// ```
    /// let show = xsmith::Helper::new("show", "def show(x): print(repr(x))");
    /// assert!(show.uses.is_empty());
    /// ```
    pub const fn new(name: &'static str, text: &'static str) -> Helper {
        Helper { name, uses: &[], text }
    }

    /// This helper, using the helpers named `names` (its [`uses`](Helper::uses)).
    ///
    /// ```
    /// let out = xsmith::Helper::new("out", "def out(x): print(show(x))").uses(&["show"]);
    /// assert_eq!(out.uses, ["show"]);
    /// ```
    pub const fn uses(self, names: &'static [&'static str]) -> Helper {
        Helper { uses: names, ..self }
    }
}

/// The definitions of `helpers` named in `used` and, transitively, of the
/// helpers those [`use`](Helper::uses), in declared order, each ending
/// with a newline. A name in `used` that no helper has (a builtin of the
/// language a renderer called through the same function) adds nothing.
///
/// # Panics
///
/// When an included helper's `uses` names no helper of `helpers`: a bug of
/// the fuzzer, named in the message.
///
/// ```
/// use xsmith::Helper;
/// let helpers = [
///     Helper::new("$div", "(func $div)"),
///     Helper::new("$rem", "(func $rem)"),
/// ];
/// assert_eq!(xsmith::helpers::included(&helpers, ["$rem", "$div"]), "(func $div)\n(func $rem)\n");
/// assert_eq!(xsmith::helpers::included(&helpers, ["$divide"]), "");
/// ```
pub fn included<'n>(helpers: &[Helper], used: impl IntoIterator<Item = &'n str>) -> String {
    let mut included = vec![false; helpers.len()];
    // Each name to include, with the helper that uses it (none: a node).
    let mut pending: Vec<(&str, Option<&str>)> = used.into_iter().map(|name| (name, None)).collect();
    while let Some((name, user)) = pending.pop() {
        let Some(index) = helpers.iter().position(|h| h.name == name) else {
            if let Some(user) = user {
                panic!("helper `{user}` uses `{name}`, which is no helper of the fuzzer");
            }
            continue;
        };
        if !std::mem::replace(&mut included[index], true) {
            let helper = &helpers[index];
            pending.extend(helper.uses.iter().map(|&used| (used, Some(helper.name))));
        }
    }
    let mut text = String::new();
    for helper in helpers.iter().zip(&included).filter(|(_, &i)| i).map(|(h, _)| h) {
        text.push_str(helper.text);
        if !helper.text.ends_with('\n') {
            text.push('\n');
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    const HELPERS: &[Helper] = &[
        Helper::new("w", "def w(x): return x % 256"),
        Helper::new("add", "def add(a, b): return w(a + b)").uses(&["w"]),
        Helper::new("Rec", "class Rec: pass"),
        Helper::new("show", "def show(x): return 'Rec(' + str(x) + ')'"),
        Helper::new("out", "def out(x): print(show(x))").uses(&["show"]),
    ];

    #[test]
    fn a_helper_named_only_in_another_helpers_string_is_left_out() {
        let header = included(HELPERS, ["out"]);
        assert_eq!(
            header,
            "def show(x): return 'Rec(' + str(x) + ')'\ndef out(x): print(show(x))\n"
        );
        assert!(!header.contains("class Rec"));
        assert_eq!(included(HELPERS, ["out", "Rec"]).lines().count(), 3);
    }

    #[test]
    fn a_helper_used_only_by_a_used_helper_is_included_in_declared_order() {
        assert_eq!(
            included(HELPERS, ["add"]),
            "def w(x): return x % 256\ndef add(a, b): return w(a + b)\n"
        );
        assert_eq!(
            included(HELPERS, ["out", "add"]),
            included(HELPERS, ["add", "out", "add"])
        );
        assert_eq!(included(HELPERS, ["len", "print"]), "");
    }

    #[test]
    #[should_panic(expected = "helper `bad` uses `missing`, which is no helper of the fuzzer")]
    fn a_use_of_an_undeclared_helper_is_named() {
        included(&[Helper::new("bad", "bad").uses(&["missing"])], ["bad"]);
    }
}
