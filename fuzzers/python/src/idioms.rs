//! Python's own features that its JIT treats specially (issue 34, item 3),
//! as hot loops ([`crate::hot`]), each in a group of its own, where
//! CPython and PyPy agree:
//!
//! - `WhileLoop` (`while-loops`): `while` with `continue`, with `break`
//!   (which skips the loop's `else`) or without (which runs it), and
//!   `while True` left by `break`;
//! - `Comprehensions` (`comprehensions`): list, dictionary and set
//!   comprehensions and generator expressions over `range`s with steps,
//!   nested; only sums, lengths and sorted keys are looked at (a set's or
//!   dictionary's order is never observed);
//! - `ClassOps` (`classes`): a class with methods and dunder operators
//!   (`__add__`, `__radd__`, `__eq__` and `__hash__`, `__lt__` under
//!   `sorted`, `__len__`, `__getitem__`), a subclass overriding a method
//!   through `super()`, instances of both at one call site;
//! - `TryLoop` (`exceptions`): `try`/`except`/`else`/`finally` in a hot
//!   loop, a raised exception class of the fuzzer's own, `ZeroDivisionError`
//!   and `KeyError` (only the class is looked at, never a message), a
//!   re-raise to an outer `try`;
//! - `GenLoop` (`generators`): generator functions consumed by `for`,
//!   `sum`, `next` with a default, `yield from`, and a coroutine driven by
//!   `send`;
//! - `BigInt` (`big-integers`): integers of hundreds to thousands of bits:
//!   squaring modulo a Mersenne prime, three-argument `pow`, `divmod` of
//!   negative big integers, products that grow, `bit_length`, and `str` of
//!   a number below 10^200 (far below CPython's 4,300-digit limit).

use xsmith_canned::hot::{HotLoop, Shape};

use crate::hot::fold;

/// The group of `WhileLoop`.
pub const WHILE: &str = "while-loops";
/// The group of `Comprehensions`.
pub const COMPREHENSIONS: &str = "comprehensions";
/// The group of `ClassOps`.
pub const CLASSES: &str = "classes";
/// The group of `TryLoop`.
pub const EXCEPTIONS: &str = "exceptions";
/// The group of `GenLoop`.
pub const GENERATORS: &str = "generators";
/// The group of `BigInt`.
pub const BIG_INTEGERS: &str = "big-integers";

/// Every production of this module.
pub(crate) fn all() -> Vec<HotLoop> {
    let hot = |name, group, variants, body, helpers| HotLoop {
        name,
        group,
        fields: &[("a", "int"), ("b", "int")],
        weight: 3,
        variants,
        body,
        helpers,
    };
    vec![
        hot("WhileLoop", WHILE, 3, while_body, &["add"]),
        hot("Comprehensions", COMPREHENSIONS, 2, comprehension_body, &[]),
        hot("ClassOps", CLASSES, 2, class_body, &["add", "sub"]),
        hot("TryLoop", EXCEPTIONS, 4, try_body, &["add"]),
        hot("GenLoop", GENERATORS, 2, generator_body, &["add"]),
        hot("BigInt", BIG_INTEGERS, 2, big_body, &[]),
    ]
}

fn lines(text: &[&str]) -> Vec<String> {
    text.iter().map(|l| l.to_string()).collect()
}

/// Variants: 0, `continue` and no `break` (the `else` runs); 1, a `break`
/// at `second` (the `else` is skipped); 2, `while True` left by `break`.
fn while_body(shape: &Shape) -> Vec<String> {
    let period = 2 + shape.extra % 5;
    let (n, stop) = (shape.count, shape.second);
    let mut body = lines(&["acc = 0", "k = 0"]);
    body.push(match shape.variant {
        2 => "while True:".to_string(),
        _ => format!("while k < {n}:"),
    });
    body.push("    k += 1".to_string());
    body.push(format!("    if k % {period} == 0:"));
    body.push("        continue".to_string());
    body.push(format!("    {}", fold("add(a, k)")));
    match shape.variant {
        1 => body.extend([format!("    if k == {stop}:"), "        break".to_string()]),
        2 => body.extend([format!("    if k >= {n}:"), "        break".to_string()]),
        _ => {}
    }
    if shape.variant != 2 {
        body.push("else:".to_string());
        body.push(format!("    {}", fold("b")));
    }
    body.push("return acc".to_string());
    body
}

/// Variants: 0, comprehensions over `range(n)`; 1, over a `range` with a
/// start and a step, and nested.
fn comprehension_body(shape: &Shape) -> Vec<String> {
    let n = shape.count;
    let period = 2 + shape.extra % 5;
    let (start, step) = (shape.extra % 9 - 4, 1 + shape.extra % 3);
    let over = match shape.variant {
        1 => format!("range({start}, {start} + {n} * {step}, {step})"),
        _ => format!("range({n})"),
    };
    let mut body = lines(&["acc = 0"]);
    body.push(format!("xs = [w(i * a + b) for i in {over} if i % {period}]"));
    body.push(fold("len(xs)"));
    body.push(fold("w(sum(xs))"));
    body.push(format!("d = {{i % 13: w(i * b) for i in {over}}}"));
    body.push(fold("w(sum(d[key] * key for key in sorted(d)))"));
    body.push(fold(&format!("len({{i % 11 for i in {over}}})")));
    if shape.variant == 1 {
        body.push(format!(
            "nested = [[i * j for j in range(3)] for i in range({})]",
            n / 4 + 1
        ));
        body.push(fold("w(sum(map(sum, nested)))"));
    }
    body.push(fold("w(sum(x % 7 for x in xs if x > a))"));
    body.push("return acc".to_string());
    body
}

/// Variants: 0, `V` plain; 1, `V` with `__slots__`.
fn class_body(shape: &Shape) -> Vec<String> {
    let mut body = lines(&["class V:"]);
    if shape.variant == 1 {
        body.push("    __slots__ = (\"v\",)".to_string());
    }
    body.extend(lines(&[
        "    def __init__(self, v):",
        "        self.v = v",
        "    def __add__(self, other):",
        "        return V(add(self.v, other.v if isinstance(other, V) else other))",
        "    def __radd__(self, other):",
        "        return V(add(other, self.v))",
        "    def __eq__(self, other):",
        "        return isinstance(other, V) and self.v % 8 == other.v % 8",
        "    def __hash__(self):",
        "        return self.v % 8",
        "    def __lt__(self, other):",
        "        return self.v < other.v",
        "    def __len__(self):",
        "        return self.v % 5",
        "    def __getitem__(self, i):",
        "        return add(self.v, i)",
        "    def m(self, k):",
        "        return add(self.v, k)",
        "class W(V):",
        "    def m(self, k):",
        "        return sub(super().m(k), 1)",
        "x = V(a)",
        "acc = 0",
    ]));
    body.push(format!("for k in range({}):", shape.count));
    body.push("    x = x + V(k) if k % 2 else k + x".to_string());
    body.push(format!("    o = V(b) if k < {} else W(b)", shape.first));
    body.push(format!(
        "    {}",
        fold("x.v + o.m(k) + (1 if x == o else 0) + len(x) + x[k % 3]")
    ));
    body.push(fold("w(sum(v.v for v in sorted([V(a), W(b), V(acc % 97), x])))"));
    body.push("return acc".to_string());
    body
}

/// Variants: 0, `g` raises `Stop` every `period` iterations; 1, a division
/// by zero every `period` iterations; 2, a missing key; 3, as 0 inside an
/// outer `try` that an inner `except` re-raises to every other time.
fn try_body(shape: &Shape) -> Vec<String> {
    let period = 2 + shape.extra % 5;
    let mut body = lines(&["class Stop(Exception):", "    pass", "def g(k):"]);
    body.push(format!("    if k % {period} == 0:"));
    body.push("        raise Stop(k)".to_string());
    body.push("    return add(a, k)".to_string());
    body.push("d = {0: a}".to_string());
    body.push("acc = 0".to_string());
    body.push(format!("for k in range({}):", shape.count));
    let attempt = match shape.variant {
        1 => fold(&format!("b // (k % {period})")),
        2 => fold(&format!("d[k % {period}]")),
        _ => fold("g(k)"),
    };
    let handlers = [
        "except Stop as e:".to_string(),
        format!("    {}", fold("e.args[0]")),
        "except (ZeroDivisionError, KeyError):".to_string(),
        format!("    {}", fold("7")),
        "else:".to_string(),
        format!("    {}", fold("1")),
        "finally:".to_string(),
        "    acc = w(acc + 2)".to_string(),
    ];
    let mut inner = vec!["try:".to_string(), format!("    {attempt}")];
    if shape.variant == 3 {
        inner = vec![
            "try:".to_string(),
            "    try:".to_string(),
            format!("        {attempt}"),
            "    except Stop as e:".to_string(),
            "        if k % 2 == 0:".to_string(),
            "            raise".to_string(),
            format!("        {}", fold("add(e.args[0], 3)")),
        ];
    }
    inner.extend(handlers);
    body.extend(inner.into_iter().map(|l| format!("    {l}")));
    body.push("return acc".to_string());
    body
}

/// Variants: 0, generator functions consumed by `for`, `sum` and `next`,
/// and `yield from`; 1, as 0 and a coroutine driven by `send`.
fn generator_body(shape: &Shape) -> Vec<String> {
    let n = shape.count;
    let mut body = lines(&[
        "def gen(n):",
        "    for i in range(n):",
        "        yield add(a, i)",
        "def evens(n):",
        "    yield from (i for i in range(0, n, 2))",
        "    yield b",
        "acc = 0",
    ]);
    body.push(format!("for v in gen({n}):"));
    body.push(format!("    {}", fold("v")));
    body.push(fold(&format!("w(sum(evens({n})))")));
    body.push("it = gen(2)".to_string());
    body.push(fold("w(next(it) + next(it, b) + next(it, b))"));
    body.push(fold(&format!(
        "sum(1 for i, v in enumerate(gen({})) if v % 3 == i % 3)",
        n / 2 + 1
    )));
    if shape.variant == 1 {
        body.extend(lines(&[
            "def running():",
            "    total = 0",
            "    while True:",
            "        x = yield total",
            "        total = w(total + x)",
            "c = running()",
            "next(c)",
        ]));
        body.push(format!("for k in range({n}):"));
        body.push(format!("    {}", fold("c.send(add(k, a))")));
    }
    body.push("return acc".to_string());
    body
}

/// Variants: 0, squaring modulo a Mersenne prime, `pow` and `divmod`; 1,
/// as 0 and a product that grows to thousands of bits.
fn big_body(shape: &Shape) -> Vec<String> {
    let n = shape.count;
    let bits = [127, 521, 607][(shape.extra % 3) as usize];
    let mut body = vec![
        format!("m = (1 << {bits}) - 1"),
        "x = a".to_string(),
        "acc = 0".to_string(),
        format!("for k in range({n}):"),
        "    x = (x * x + b + k) % m".to_string(),
        format!("    {}", fold("(x >> 100) % 1000003")),
        fold("x.bit_length()"),
        fold(&format!("pow(abs(a) + 2, {n}, m) % 65521")),
        "q, r = divmod(x - (1 << 300), b | 1)".to_string(),
        fold("q % 99991 + r"),
        fold("len(str(x % 10 ** 200))"),
    ];
    if shape.variant == 1 {
        body.push("p = 1".to_string());
        body.push(format!("for k in range(1, {n}):"));
        body.push("    p = p * (k % 50 + 1) - (k & 1)".to_string());
        body.push(fold("p % 1000000007"));
        body.push(fold("p.bit_length()"));
    }
    body.push("return acc".to_string());
    body
}
