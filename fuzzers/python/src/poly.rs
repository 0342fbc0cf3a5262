//! Polymorphic calls (issue 34, item 2): `PolyCall`, group `poly-calls`.
//!
//! A function `f` of the fuzzer's own is called in a hot loop with one
//! kind of argument, then, from iteration `first` on, with another (and,
//! half the time, from `second` on, with a third): a string, then a list;
//! instances of a plain class, then of one with `__slots__`, a subclass,
//! a class whose fields are class attributes, one with a property; an int,
//! then a string, a list, a bool under `+`; a list, then a dictionary, a
//! range under indexing; one argument, then three. `f`'s body uses only
//! operations that every kind it is called with has, with results CPython
//! and PyPy compute alike, and returns an int. PyPy's JIT specializes its
//! loop on the first kind and must bridge out of it when the second comes.

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `PolyCall`.
pub const GROUP: &str = xsmith_canned::hot::POLY_CALLS;

/// The kinds of scenario: `f`'s definition, and the calls of `f` its phases
/// choose among (each with other kinds of argument). `a` and `b` are
/// 64-bit ints, `s` a string, `k` the iteration; `Pq`, `Sl`, `Sub`, `Cl`
/// and `Pr` are classes of objects with fields `p` and `q`.
const SCENARIOS: [(&[&str], &[&str]); 5] = [
    // A length: of a string, a list, a tuple, a dictionary, a range.
    (
        &["def f(x, k):", "    return len(x)"],
        &[
            "f(s, k)",
            "f([a, b], k)",
            "f((s, a, k), k)",
            "f({\"p\": a, \"q\": b}, k)",
            "f(range(k % 5), k)",
        ],
    ),
    // Fields read and written on objects of five classes.
    (
        &["def f(x, k):", "    x.p = add(x.p, k)", "    return sub(x.p, x.q)"],
        &[
            "f(Pq(a, b), k)",
            "f(Sl(a, b), k)",
            "f(Sub(b, a), k)",
            "f(Cl(), k)",
            "f(Pr(a, b), k)",
        ],
    ),
    // `+` of a value with itself: an int sum, string, list and tuple
    // concatenations, a bool (as an int).
    (
        &[
            "def f(x, k):",
            "    y = x + x",
            "    return len(y) if isinstance(y, (str, list, tuple)) else int(y)",
        ],
        &["f(a, k)", "f(s, k)", "f([a, b], k)", "f((a,), k)", "f(a < b, k)"],
    ),
    // Indexed reads, in range and out (`IndexError`, `KeyError`): a list, a
    // string, a dictionary with int keys, a tuple of strings, a range.
    (
        &[
            "def f(x, k):",
            "    try:",
            "        v = x[k % 4]",
            "    except (IndexError, KeyError):",
            "        return -1",
            "    return v if type(v) is int else len(v)",
        ],
        &[
            "f([a, b, a], k)",
            "f(s, k)",
            "f({0: a, 2: b}, k)",
            "f((s, s), k)",
            "f(range(a % 7, a % 7 + 3), k)",
        ],
    ),
    // Arity: `f` takes `*args`, called with zero to four, some unpacked.
    (
        &[
            "def f(*args):",
            "    t = len(args)",
            "    for v in args:",
            "        t = w(t * 7 + (v if type(v) is int else len(v)))",
            "    return t",
        ],
        &["f(a)", "f(a, k, b)", "f()", "f(s, a)", "f(k, *[s, k, b])"],
    ),
];

/// The classes the field scenario's calls make, each defined only when a
/// chosen call uses it.
const CLASSES: [(&str, &[&str]); 5] = [
    (
        "Pq(",
        &[
            "class Pq:",
            "    def __init__(self, p, q):",
            "        self.p = p",
            "        self.q = q",
        ],
    ),
    (
        "Sl(",
        &[
            "class Sl:",
            "    __slots__ = (\"p\", \"q\")",
            "    def __init__(self, p, q):",
            "        self.p = p",
            "        self.q = q",
        ],
    ),
    (
        "Sub(",
        &[
            "class Sub(Pq):",
            "    def __init__(self, p, q):",
            "        super().__init__(p, q)",
            "        self.r = 0",
        ],
    ),
    ("Cl(", &["class Cl:", "    p = 1", "    q = 2"]),
    (
        "Pr(",
        &[
            "class Pr:",
            "    def __init__(self, p, q):",
            "        self._p = p",
            "        self.q = q",
            "    @property",
            "    def p(self):",
            "        return self._p",
            "    @p.setter",
            "    def p(self, v):",
            "        self._p = w(v)",
        ],
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
    for (call, class) in CLASSES {
        // `Sub` derives from `Pq`.
        let needed = |c: &str| calls.iter().any(|d| d.contains(c));
        if needed(call) || (call == "Pq(" && needed("Sub(")) {
            lines.extend(class.iter().map(|l| l.to_string()));
        }
    }
    lines.push("acc = 0".to_string());
    lines.push(format!("for k in range({}):", shape.count));
    let call = match calls[..] {
        [first, second] => format!("{first} if k < {} else {second}", shape.first),
        [first, second, third] => format!(
            "{first} if k < {} else ({second} if k < {} else {third})",
            shape.first, shape.second
        ),
        _ => unreachable!("two or three phases"),
    };
    lines.push(format!("    r = {call}"));
    lines.push(format!("    {}", fold("r")));
    lines.push("return acc".to_string());
    lines
}
