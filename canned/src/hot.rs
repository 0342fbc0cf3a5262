//! Hot loops a language writes itself: an `int` expression that runs a
//! loop of the fuzzer's own text over values its generated children
//! compute (the JavaScript, Lua and Python fuzzers' polymorphic calls and
//! idioms).
//!
//! The part every language shares lives here: what a hot loop is
//! ([`HotLoop`]), the production, types, feature groups and weight it is
//! declared with ([`declare`]), and the [`Shape`] its body is written for,
//! read from a node: how many iterations it runs (its drawn `count` where
//! [`may_run_hot`](crate::may_run_hot) allows, else 2 to 4, enough to see
//! every phase of a polymorphic call), where its phases change and which
//! variant it is. A fuzzer keeps its fold (how an iteration's value goes
//! into the result), its bodies and its renderer (an immediately called
//! function in Lua and JavaScript, a hoisted `def` in Python).

use xsmith::{Component, DataInit, NodeRef, ProductionDecl, TypeInfo, Weight};

/// One hot-loop production: its name, feature group, children (each an
/// `int` or a `string`: `(name, type)`), weight where it may run hot, how
/// many variants its text has, and its body.
///
/// ```
/// use xsmith_canned::hot::{HotLoop, Shape};
///
/// fn body(shape: &Shape) -> Vec<String> {
///     vec![format!("for k in range({}): acc = acc + a", shape.count)]
/// }
/// let spec = HotLoop {
///     name: "SumLoop",
///     group: "idioms",
///     fields: &[("a", "int")],
///     weight: 4,
///     variants: 1,
///     body,
///     helpers: &[],
/// };
/// assert_eq!(spec.fields[0].1, "int");
/// ```
pub struct HotLoop {
    /// The production's name.
    pub name: &'static str,
    /// The feature group that turns it off.
    pub group: &'static str,
    /// The generated children, `(field, type)`, each of type `int` or
    /// `string`: the loop's arguments.
    pub fields: &'static [(&'static str, &'static str)],
    /// The production's weight where it may run hot (elsewhere 1).
    pub weight: u32,
    /// How many variants its text has: [`Shape::variant`] is below it.
    pub variants: i64,
    /// The body's lines, for a loop of [`Shape::count`] iterations.
    pub body: fn(&Shape) -> Vec<String>,
    /// The header helpers the body calls.
    pub helpers: &'static [&'static str],
}

/// What a body is written for: its iteration count, where its phases
/// change, and which variant it is.
///
/// ```
/// use xsmith_canned::hot::Shape;
///
/// let shape = Shape { count: 8, first: 2, second: 4, variant: 0, extra: 700 };
/// // `extra` of 500 or more asks for three phases, of distinct calls.
/// assert_eq!(shape.phases(&["f(a)", "f(s)", "f(t)"]).len(), 3);
/// ```
pub struct Shape {
    /// Iterations of the loop.
    pub count: i64,
    /// The first phase runs `k < first`, the second `k < second`, the
    /// third the rest (`0 < first <= second <= count`).
    pub first: i64,
    /// Where the second phase ends.
    pub second: i64,
    /// The variant drawn, below [`HotLoop::variants`].
    pub variant: i64,
    /// A further draw, 0 to 999, for the body's own small choices.
    pub extra: i64,
}

impl Shape {
    /// The shape of the hot loop `node`: its `count` where a counted loop
    /// would run its count ([`may_run_hot`](crate::may_run_hot)), else 2
    /// to 4 iterations; its phases split where its `split` (1 to 3, in
    /// quarters) says.
    ///
    /// # Panics
    ///
    /// If `node` is not a production [`declare`]d as a hot loop.
    pub fn of(node: NodeRef) -> Shape {
        let int = |field: &str| {
            (node.data(field).and_then(|v| v.as_int())).unwrap_or_else(|| panic!("a hot loop's {field} is an integer"))
        };
        let count = match crate::may_run_hot(node.ancestors()) {
            true => int("count"),
            false => 2 + int("count") % 3,
        };
        let split = int("split");
        Shape {
            count,
            first: (count * split / 4).max(1),
            second: (count * (split + 1) / 4).max(1),
            variant: int("variant"),
            extra: int("extra"),
        }
    }

    /// The phases' calls of a polymorphic call: two distinct ones of
    /// `calls`, or three where [`extra`](Shape::extra) is 500 or more,
    /// chosen by `extra`.
    pub fn phases<'a>(&self, calls: &[&'a str]) -> Vec<&'a str> {
        let mut left: Vec<&str> = calls.to_vec();
        let (mut draw, mut chosen) = (self.extra as usize, Vec::new());
        let phases = if self.extra >= 500 { 3 } else { 2 };
        for _ in 0..phases {
            let i = draw % left.len();
            draw /= left.len();
            chosen.push(left.remove(i));
        }
        chosen
    }
}

/// The feature group of every language's polymorphic call, [`poly_call`].
pub const POLY_CALLS: &str = "poly-calls";

/// A language's polymorphic call, `PolyCall { a: int, b: int, s: string }`
/// in the group [`POLY_CALLS`]: a function called in a hot loop with
/// arguments of one kind, then of another (where optimizing tiers
/// speculate on types and shapes, then deoptimize). `body` writes it in
/// the language, choosing among its `variants` scenarios by
/// [`Shape::variant`] and the phases' calls by [`Shape::phases`]; it may
/// call the header's `add` and `sub`.
///
/// ```
/// use xsmith_canned::hot::{poly_call, Shape};
///
/// fn body(shape: &Shape) -> Vec<String> {
///     let calls = shape.phases(&["f(a)", "f(s)"]);
///     vec![format!("for k in range({}): acc = acc + {}", shape.count, calls[0])]
/// }
/// assert_eq!(poly_call(1, body).fields.len(), 3);
/// ```
pub fn poly_call(variants: i64, body: fn(&Shape) -> Vec<String>) -> HotLoop {
    HotLoop {
        name: "PolyCall",
        group: POLY_CALLS,
        fields: &[("a", "int"), ("b", "int"), ("s", "string")],
        weight: 8,
        variants,
        body,
        helpers: &["add", "sub"],
    }
}

/// Adds `spec`'s production to `c`, an `Expr` of type `int` with a child
/// per field and the data a [`Shape`] is read from (its `count` drawn from
/// `hot`, the range of hot iterations); its feature groups (its own,
/// `integers`, and `strings` if it has a string child) and its weight:
/// [`HotLoop::weight`] where it may run hot and the tree is deep enough
/// for its children, 1 elsewhere. The fuzzer adds its renderer.
///
/// ```
/// use xsmith::Component;
/// use xsmith_canned::hot::{declare, HotLoop, Shape};
///
/// fn body(shape: &Shape) -> Vec<String> {
///     vec![format!("for k in range({}): acc = acc + a", shape.count)]
/// }
/// let spec = HotLoop {
///     name: "SumLoop",
///     group: "idioms",
///     fields: &[("a", "int")],
///     weight: 4,
///     variants: 1,
///     body,
///     helpers: &[],
/// };
/// let mut c = Component::new("python");
/// declare(&mut c, &spec, (500, 2500));
/// ```
pub fn declare(c: &mut Component, spec: &HotLoop, hot: (i64, i64)) {
    let variants = spec.variants as u64;
    let mut decl = ProductionDecl::new(spec.name)
        .supertype("Expr")
        .data("count", DataInit::new(move |r| r.int_in(hot.0, hot.1)))
        .data("split", DataInit::new(|r| r.int_in(1, 3)))
        .data("variant", DataInit::new(move |r| r.below(variants) as i64))
        .data("extra", DataInit::new(|r| r.below(1000) as i64));
    let mut info = TypeInfo::new(|s| s.base("int"));
    for &(field, ty) in spec.fields {
        decl = decl.child(field, "Expr");
        info = info.child(field, move |c| c.base(ty));
    }
    c.production(decl);
    c.type_info(spec.name, info)
        .feature(spec.name, spec.group)
        .feature(spec.name, "integers");
    if spec.fields.iter().any(|(_, ty)| *ty == "string") {
        c.feature(spec.name, "strings");
    }
    let weight = spec.weight;
    c.choice_weight(
        spec.name,
        Weight::dynamic(move |hole| {
            match crate::may_run_hot(hole.ancestors()) && hole.depth() + 2 < hole.max_depth() {
                true => weight,
                false => 1,
            }
        }),
    );
}

#[cfg(test)]
mod tests {
    use super::Shape;

    #[test]
    fn phases_are_distinct_calls() {
        let calls = ["a", "b", "c", "d"];
        for extra in 0..1000 {
            let shape = Shape {
                count: 8,
                first: 2,
                second: 4,
                variant: 0,
                extra,
            };
            let chosen = shape.phases(&calls);
            assert_eq!(chosen.len(), if extra >= 500 { 3 } else { 2 });
            assert!(chosen.iter().all(|c| chosen.iter().filter(|d| *d == c).count() == 1));
        }
    }
}
