//! The names-and-effects test fuzzer's programs, checked by a checker written
//! here that shares no code with the engine's scope, reference and effect
//! modules: it parses the rendered text and checks, with its own scoping
//! rules, types and effect analysis,
//!
//! - that every reference (read or write) names a binder visible where it
//!   is, of the type its context needs (blocks and bodies are sequential:
//!   a definition is visible after itself; parameters in their lambda's
//!   body; every binder has a name of its own);
//! - that no write targets a read-only binder (parameters, `const`s);
//! - that no two children of a node whose children run in an unspecified
//!   order (`+`, `<`, `call`, `array`, `get`, `aset`) conflict: one writes
//!   a variable the other reads or writes, one writes arrays of a type the
//!   other reads or writes, both print, or one calls a function that may
//!   do anything while the other has any effect.
//!
//! Making a lambda has no effect; calling a function value has its latent
//! effects: a lambda literal's body's (less the variables bound inside it,
//! fresh for each call), a `const` bound to such a function's, either
//! branch's of an `if`; any other function value may do anything.

use std::collections::{BTreeSet, HashSet};

use xsmith::{Generator, Options, Random};
use xsmith_tests::names;

/// The checker's own types.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Bool,
    Arr(Box<Ty>),
    Fun(Vec<Ty>, Box<Ty>),
}

/// Parses a type written by the fuzzer inside brackets.
fn parse_type(text: &str) -> Result<Ty, String> {
    let mut at = 0;
    let ty = type_at(text.as_bytes(), &mut at)?;
    if at != text.len() {
        return Err(format!("trailing text in type `{text}`"));
    }
    Ok(ty)
}

fn type_at(text: &[u8], at: &mut usize) -> Result<Ty, String> {
    let eat = |at: &mut usize, token: &str| {
        while text.get(*at) == Some(&b' ') {
            *at += 1;
        }
        let found = text[*at..].starts_with(token.as_bytes());
        if found {
            *at += token.len();
        }
        found
    };
    if eat(at, "(") {
        let mut params = Vec::new();
        while !eat(at, ")") {
            if !params.is_empty() && !eat(at, ",") {
                return Err("expected `,` between parameter types".into());
            }
            params.push(type_at(text, at)?);
        }
        if !eat(at, "->") {
            return Err("a parenthesised type must be a function type".into());
        }
        return Ok(Ty::Fun(params, Box::new(type_at(text, at)?)));
    }
    if eat(at, "int") {
        Ok(Ty::Int)
    } else if eat(at, "bool") {
        Ok(Ty::Bool)
    } else if eat(at, "array<") {
        let element = type_at(text, at)?;
        if !eat(at, ">") {
            return Err("expected `>`".into());
        }
        Ok(Ty::Arr(Box::new(element)))
    } else {
        Err(format!("unknown type at `{}`", String::from_utf8_lossy(&text[*at..])))
    }
}

/// An S-expression: an atom, a bracketed type, or a list.
#[derive(Debug)]
enum Sexp {
    Atom(String),
    Type(Ty),
    List(Vec<Sexp>),
}

fn parse(text: &str) -> Result<Sexp, String> {
    let mut chars = text.chars().peekable();
    let mut stack: Vec<Vec<Sexp>> = vec![Vec::new()];
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {}
            '(' => stack.push(Vec::new()),
            ')' => {
                let list = stack.pop().filter(|_| !stack.is_empty()).ok_or("unbalanced `)`")?;
                stack.last_mut().expect("checked").push(Sexp::List(list));
            }
            '[' => {
                let mut depth = 0;
                let ty: String = chars
                    .by_ref()
                    .take_while(|&c| {
                        depth += i32::from(c == '[') - i32::from(c == ']');
                        depth >= 0
                    })
                    .collect();
                stack
                    .last_mut()
                    .expect("never empty")
                    .push(Sexp::Type(parse_type(&ty)?));
            }
            _ => {
                let mut atom = c.to_string();
                while let Some(&c) = chars.peek().filter(|c| !c.is_whitespace() && !"()[]".contains(**c)) {
                    atom.push(c);
                    chars.next();
                }
                stack.last_mut().expect("never empty").push(Sexp::Atom(atom));
            }
        }
    }
    match (stack.pop(), stack.is_empty()) {
        (Some(mut top), true) if top.len() == 1 => Ok(top.remove(0)),
        _ => Err("not one balanced expression".into()),
    }
}

/// What evaluating something may do. Reads of read-only binders are left
/// out: nothing can write them, so they conflict with nothing.
#[derive(Clone, Debug, Default, PartialEq)]
struct Effects {
    reads: BTreeSet<String>,
    writes: BTreeSet<String>,
    io: bool,
    /// Reads and writes of arrays, by array type.
    array_reads: Vec<Ty>,
    array_writes: Vec<Ty>,
    /// Calls a function value whose effects are not known.
    anything: bool,
}

impl Effects {
    fn any(&self) -> bool {
        *self != Effects::default()
    }

    fn add(&mut self, other: &Effects) {
        self.reads.extend(other.reads.iter().cloned());
        self.writes.extend(other.writes.iter().cloned());
        self.io |= other.io;
        self.array_reads.extend(other.array_reads.iter().cloned());
        self.array_writes.extend(other.array_writes.iter().cloned());
        self.anything |= other.anything;
    }

    /// Why running `self` and `other` in either order could differ, if so.
    fn conflict(&self, other: &Effects) -> Option<String> {
        for (a, b) in [(self, other), (other, self)] {
            if a.anything && b.any() {
                return Some(format!("a call that may do anything beside {b:?}"));
            }
            if let Some(w) = a.writes.iter().find(|w| b.writes.contains(*w) || b.reads.contains(*w)) {
                return Some(format!("`{w}` written beside another access"));
            }
            if let Some(t) = a
                .array_writes
                .iter()
                .find(|t| b.array_writes.contains(t) || b.array_reads.contains(t))
            {
                return Some(format!("array<{t:?}> written beside another access"));
            }
        }
        (self.io && other.io).then(|| "two prints".to_string())
    }

    fn without(mut self, locals: &HashSet<String>) -> Effects {
        self.reads.retain(|n| !locals.contains(n));
        self.writes.retain(|n| !locals.contains(n));
        self
    }
}

/// A binder in scope.
struct Var {
    name: String,
    ty: Ty,
    writable: bool,
    /// A const's: what calling its value does, when known.
    latent: Option<Effects>,
}

/// What the checker found of an expression: its type, what evaluating it
/// does, and what calling its value does (`None`: may do anything).
struct Info {
    ty: Ty,
    effects: Effects,
    latent: Option<Effects>,
}

/// How often each construct was seen.
#[derive(Default)]
struct Counts {
    references: usize,
    writes: usize,
    calls_of_two: usize,
    arrays: usize,
    prints: usize,
    lambdas: usize,
    unordered: usize,
}

#[derive(Default)]
struct Checker {
    scope: Vec<Var>,
    binders: HashSet<String>,
    counts: Counts,
}

fn atom(s: &Sexp) -> Result<&str, String> {
    match s {
        Sexp::Atom(a) => Ok(a),
        other => Err(format!("expected a name, found {other:?}")),
    }
}

fn annotation(s: &Sexp) -> Result<&Ty, String> {
    match s {
        Sexp::Type(t) => Ok(t),
        other => Err(format!("expected a type, found {other:?}")),
    }
}

fn same(got: &Ty, want: &Ty, what: &str) -> Result<(), String> {
    match got == want {
        true => Ok(()),
        false => Err(format!("{what}: {got:?} where {want:?} is needed")),
    }
}

/// Every name bound inside `s`.
fn bound_inside(s: &Sexp, out: &mut HashSet<String>) {
    if let Sexp::List(items) = s {
        if let [Sexp::Atom(head), Sexp::Atom(name), Sexp::Type(_), ..] = &items[..] {
            if head == "let" || head == "const" {
                out.insert(name.clone());
            }
        }
        if let [Sexp::Atom(name), Sexp::Type(_)] = &items[..] {
            if name != "array" {
                out.insert(name.clone()); // a parameter, not an empty array
            }
        }
        for item in items {
            bound_inside(item, out);
        }
    }
}

impl Checker {
    fn bind(&mut self, name: &str, ty: &Ty, writable: bool, latent: Option<Effects>) -> Result<(), String> {
        if !self.binders.insert(name.to_string()) {
            return Err(format!("`{name}` is bound twice"));
        }
        self.scope.push(Var {
            name: name.to_string(),
            ty: ty.clone(),
            writable,
            latent,
        });
        Ok(())
    }

    fn find(&self, name: &str) -> Result<&Var, String> {
        self.scope
            .iter()
            .find(|v| v.name == name)
            .ok_or(format!("`{name}` is not visible"))
    }

    fn expect(&mut self, s: &Sexp, want: &Ty, what: &str) -> Result<Info, String> {
        let info = self.expr(s)?;
        same(&info.ty, want, what)?;
        Ok(info)
    }

    /// Checks a block's statements in order, in a scope of their own.
    fn statements(&mut self, stmts: &[Sexp]) -> Result<Effects, String> {
        let mut effects = Effects::default();
        for stmt in stmts {
            effects.add(&self.statement(stmt)?);
        }
        Ok(effects)
    }

    fn statement(&mut self, s: &Sexp) -> Result<Effects, String> {
        let Sexp::List(items) = s else {
            return Err(format!("a statement is a form, not {s:?}"));
        };
        match (atom(&items[0])?, &items[1..]) {
            ("block", stmts) => {
                let outer = self.scope.len();
                let effects = self.statements(stmts)?;
                self.scope.truncate(outer);
                Ok(effects)
            }
            (head @ ("let" | "const"), [name, ty, init]) => {
                let ty = annotation(ty)?;
                let init = self.expect(init, ty, "an initialiser")?;
                let latent = if head == "const" { init.latent } else { None };
                self.bind(atom(name)?, ty, head == "let", latent)?;
                Ok(init.effects)
            }
            ("set", [name, value]) => self.write(name, value).map(|info| info.effects),
            ("print", [value]) => {
                self.counts.prints += 1;
                let mut effects = self.expr(value)?.effects;
                effects.io = true;
                Ok(effects)
            }
            (head, _) => Err(format!("unknown statement `{head}`")),
        }
    }

    fn write(&mut self, name: &Sexp, value: &Sexp) -> Result<Info, String> {
        self.counts.references += 1;
        self.counts.writes += 1;
        let var = self.find(atom(name)?)?;
        if !var.writable {
            return Err(format!("write to read-only `{}`", var.name));
        }
        let (name, ty) = (var.name.clone(), var.ty.clone());
        let mut info = self.expect(value, &ty, "an assigned value")?;
        info.effects.writes.insert(name);
        info.latent = None;
        Ok(info)
    }

    fn expr(&mut self, s: &Sexp) -> Result<Info, String> {
        let plain = |ty: Ty, effects: Effects| Info {
            ty,
            effects,
            latent: None,
        };
        let items = match s {
            Sexp::Atom(a) if a == "true" || a == "false" => return Ok(plain(Ty::Bool, Effects::default())),
            Sexp::Atom(a) if a.parse::<i64>().is_ok() => return Ok(plain(Ty::Int, Effects::default())),
            Sexp::Atom(name) => {
                self.counts.references += 1;
                let var = self.find(name)?;
                let mut effects = Effects::default();
                if var.writable {
                    effects.reads.insert(var.name.clone());
                }
                return Ok(Info {
                    ty: var.ty.clone(),
                    effects,
                    latent: var.latent.clone(),
                });
            }
            Sexp::Type(t) => return Err(format!("a type {t:?} where an expression is needed")),
            Sexp::List(items) => items,
        };
        let head = atom(&items[0])?;
        let args = &items[1..];
        if matches!(head, "+" | "<" | "call" | "array" | "get" | "aset") {
            return self.unordered(head, args);
        }
        match (head, args) {
            ("if", [ty, cond, then, otherwise]) => {
                let ty = annotation(ty)?;
                let mut effects = self.expect(cond, &Ty::Bool, "a condition")?.effects;
                let (then, otherwise) = (
                    self.expect(then, ty, "a branch")?,
                    self.expect(otherwise, ty, "a branch")?,
                );
                effects.add(&then.effects);
                effects.add(&otherwise.effects);
                let latent = then.latent.zip(otherwise.latent).map(|(mut a, b)| {
                    a.add(&b);
                    a
                });
                Ok(Info {
                    ty: ty.clone(),
                    effects,
                    latent,
                })
            }
            (head @ ("lambda" | "fn"), [Sexp::List(params), result, body]) => {
                self.counts.lambdas += 1;
                let outer = self.scope.len();
                let mut types = Vec::new();
                for param in params {
                    let Sexp::List(param) = param else {
                        return Err("a parameter is `(name [type])`".into());
                    };
                    let [name, ty] = &param[..] else {
                        return Err("a parameter is `(name [type])`".into());
                    };
                    types.push(annotation(ty)?.clone());
                    self.bind(atom(name)?, annotation(ty)?, false, None)?;
                }
                let result = annotation(result)?;
                let effects = match (head, body) {
                    ("fn", Sexp::List(body)) if body.len() >= 2 && atom(&body[0])? == "body" => {
                        let mut effects = self.statements(&body[1..body.len() - 1])?;
                        effects.add(&self.expect(&body[body.len() - 1], result, "a body's result")?.effects);
                        effects
                    }
                    ("lambda", body) => self.expect(body, result, "a lambda's body")?.effects,
                    _ => return Err("`fn` takes a `(body ...)`".into()),
                };
                self.scope.truncate(outer);
                let mut locals = HashSet::new();
                bound_inside(s, &mut locals);
                Ok(Info {
                    ty: Ty::Fun(types, Box::new(result.clone())),
                    effects: Effects::default(),
                    latent: Some(effects.without(&locals)),
                })
            }
            ("sete", [name, value]) => self.write(name, value),
            ("printe", [value]) => {
                self.counts.prints += 1;
                let mut info = self.expr(value)?;
                info.effects.io = true;
                info.latent = None;
                Ok(info)
            }
            (head, _) => Err(format!("unknown or malformed form `{head}`")),
        }
    }

    /// A form whose operands run in an unspecified order: no two may
    /// conflict.
    fn unordered(&mut self, head: &str, args: &[Sexp]) -> Result<Info, String> {
        self.counts.unordered += 1;
        let mut parts = Vec::new();
        let ty = match (head, args) {
            ("+" | "<", [a, b]) => {
                parts.push(self.expect(a, &Ty::Int, "an operand")?);
                parts.push(self.expect(b, &Ty::Int, "an operand")?);
                if head == "+" {
                    Ty::Int
                } else {
                    Ty::Bool
                }
            }
            ("call", [callee, args @ ..]) => {
                self.counts.calls_of_two += usize::from(args.len() >= 2);
                let callee = self.expr(callee)?;
                let Ty::Fun(params, result) = callee.ty.clone() else {
                    return Err(format!("calling a {:?}", callee.ty));
                };
                if params.len() != args.len() {
                    return Err(format!("{} arguments for {} parameters", args.len(), params.len()));
                }
                parts.push(callee);
                for (arg, param) in args.iter().zip(&params) {
                    parts.push(self.expect(arg, param, "an argument")?);
                }
                *result
            }
            ("array", [ty, items @ ..]) => {
                self.counts.arrays += 1;
                let element = annotation(ty)?;
                for item in items {
                    parts.push(self.expect(item, element, "an array item")?);
                }
                Ty::Arr(Box::new(element.clone()))
            }
            ("get" | "aset", [array, index, value @ ..]) => {
                self.counts.arrays += 1;
                let array = self.expr(array)?;
                let Ty::Arr(element) = array.ty.clone() else {
                    return Err(format!("indexing a {:?}", array.ty));
                };
                parts.push(array);
                parts.push(self.expect(index, &Ty::Int, "an index")?);
                match (head, value) {
                    ("get", []) => {}
                    ("aset", [value]) => parts.push(self.expect(value, &element, "a stored value")?),
                    _ => return Err(format!("malformed `{head}`")),
                }
                *element
            }
            _ => return Err(format!("malformed `{head}`")),
        };
        for (i, a) in parts.iter().enumerate() {
            for b in &parts[i + 1..] {
                if let Some(why) = a.effects.conflict(&b.effects) {
                    return Err(format!("operands of `{head}` conflict: {why}"));
                }
            }
        }
        let mut effects = Effects::default();
        for part in &parts {
            effects.add(&part.effects);
        }
        match head {
            "call" => match &parts[0].latent {
                Some(latent) => effects.add(latent),
                None => effects.anything = true,
            },
            "get" => effects.array_reads.push(parts[0].ty.clone()),
            "aset" => effects.array_writes.push(parts[0].ty.clone()),
            _ => {}
        }
        Ok(Info {
            ty,
            effects,
            latent: None,
        })
    }
}

/// Checks a whole program; returns what it counted.
fn check(text: &str) -> Result<Counts, String> {
    let Sexp::List(items) = parse(text)? else {
        return Err("a program is a form".into());
    };
    let [Sexp::Atom(program), Sexp::List(block)] = &items[..] else {
        return Err("expected `(program (block ...))`".into());
    };
    if program != "program" || atom(&block[0])? != "block" {
        return Err("expected `(program (block ...))`".into());
    }
    let mut checker = Checker::default();
    checker.statement(&items[1])?;
    Ok(checker.counts)
}

#[test]
fn the_checker_rejects_ill_scoped_ill_typed_and_conflicting_programs() {
    let bad = [
        // Scopes.
        "(program (block (print v1) (let v1 [int] 1)))",
        "(program (block (let v1 [int] v1)))",
        "(program (block (block (let v1 [int] 1)) (print v1)))",
        "(program (block (print (lambda ((v1 [int])) [int] v1)) (print v1)))",
        "(program (block (let v1 [int] 1) (block (let v1 [int] 2))))",
        "(program (block (print (fn () [int] (body (let v1 [int] 1) 2))) (print v1)))",
        // Types.
        "(program (block (let v1 [int] true)))",
        "(program (block (let v1 [int] 1) (set v1 false)))",
        "(program (block (print (call (lambda ((v1 [int])) [int] v1)))))",
        "(program (block (print (call (lambda ((v1 [int])) [int] v1) true))))",
        "(program (block (print (get (array [bool] true) false))))",
        "(program (block (print (if [int] 1 2 3))))",
        "(program (block (print (lambda () [int] false))))",
        // Writes to read-only binders.
        "(program (block (const v1 [int] 1) (set v1 2)))",
        "(program (block (print (lambda ((v1 [int])) [int] (sete v1 2)))))",
        // Conflicts.
        "(program (block (let v1 [int] 1) (print (+ (sete v1 2) v1))))",
        "(program (block (let v1 [int] 1) (print (+ (sete v1 2) (sete v1 3)))))",
        "(program (block (print (< (printe 1) (printe 2)))))",
        "(program (block (print (array [int] (get (array [int]) 0) (aset (array [int]) 0 1)))))",
        "(program (block (let v1 [int] 1) (print (+ (call (lambda () [int] (sete v1 2))) v1))))",
        "(program (block (let v1 [int] 1) (const v2 [() -> int] (lambda () [int] (sete v1 2))) (print (+ (call v2) v1))))",
        "(program (block (const v2 [() -> int] (fn () [int] (body (print 1) 2))) (const v3 [() -> int] v2) (print (+ (call v3) (printe 1)))))",
        "(program (block (let v1 [() -> int] (lambda () [int] 1)) (print (+ (call v1) (printe 1)))))",
        "(program (block (print (lambda ((v1 [() -> int])) [int] (+ (call v1) (get (array [int]) 0))))))",
        "(program (block (print (+ (call (call (lambda () [() -> int] (lambda () [int] 1)))) (printe 1)))))",
        "(program (block (let v1 [int] 1) (print (call (lambda ((v2 [int]) (v3 [int])) [int] v2) v1 (sete v1 2)))))",
    ];
    for program in bad {
        assert!(check(program).is_err(), "accepted {program}");
    }
    let good = [
        "(program (block (let v1 [int] 1) (print (+ v1 v1)) (set v1 (+ v1 1))))",
        // Making a lambda does nothing; its body runs when it is called.
        "(program (block (let v1 [int] 1) (print (array [() -> int] (lambda () [int] (sete v1 2)) (lambda () [int] v1)))))",
        "(program (block (let v1 [int] 1) (const v2 [() -> int] (lambda () [int] v1)) (print (+ (call v2) v1))))",
        "(program (block (const v1 [int] 1) (print (+ (call (lambda ((v2 [int])) [int] v2) 1) (printe v1)))))",
        // Calls through a parameter may do anything, but nothing is beside them.
        "(program (block (print (lambda ((v1 [(int) -> int])) [int] (+ (call v1 1) 2)))))",
        // A lambda's own variables are fresh for each call.
        "(program (block (const v1 [() -> int] (fn () [int] (body (let v2 [int] 1) (sete v2 2)))) (print (+ (call v1) (call v1)))))",
        "(program (block (print (+ (get (array [int]) 0) (get (aset (array [array<int>]) 0 (array [int])) 0)))))",
        "(program (block (print (< (printe 1) (if [int] true 2 3)))))",
    ];
    for program in good {
        check(program).unwrap_or_else(|e| panic!("rejected {program}: {e}"));
    }
}

#[test]
fn two_thousand_programs_use_names_and_effects_correctly() {
    let spec = names::spec().unwrap();
    let options = Options {
        max_depth: 6,
        ..Options::default()
    };
    let mut generator = Generator::new(&spec, options).unwrap();
    let mut failures = Vec::new();
    let mut programs_with = [0usize; 8];
    let (mut nodes, mut references) = (0, 0);
    for seed in 0..2_000u64 {
        let lifts_before = generator.choice_log().lifts();
        let tree = match generator.generate(&mut Random::from_seed(seed)) {
            Ok(tree) => tree,
            Err(e) => {
                failures.push(format!("seed {seed}: generation failed: {e}"));
                continue;
            }
        };
        nodes += tree.len();
        let text = xsmith::render::render_tree(&spec, &tree, 100);
        match check(&text) {
            Ok(c) => {
                references += c.references;
                let lifted = generator.choice_log().lifts() > lifts_before;
                let seen = [
                    c.references,
                    usize::from(lifted),
                    c.writes,
                    c.calls_of_two,
                    c.arrays,
                    c.prints,
                    c.lambdas,
                    c.unordered,
                ];
                for (count, seen) in programs_with.iter_mut().zip(seen) {
                    *count += usize::from(seen > 0);
                }
            }
            Err(e) => failures.push(format!("seed {seed}: {e}\n{text}")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 2000 programs failed:\n{}",
        failures.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
    let names = [
        "references",
        "lifted definitions",
        "assignments",
        "calls of 2+ arguments",
        "arrays",
        "prints",
        "lambdas",
        "unordered operands",
    ];
    for (name, count) in names.iter().zip(programs_with) {
        assert!(count >= 300, "{name} appear in only {count} of 2000 programs");
    }
    let log = generator.choice_log();
    assert_eq!(
        log.references() as usize,
        references,
        "the checker sees every reference"
    );
    eprintln!(
        "{nodes} nodes; {:.2} references per program, {:.0}% reuse a variable; programs with {}",
        references as f64 / 2000.0,
        100.0 * (1.0 - log.lifts() as f64 / log.references() as f64),
        names
            .iter()
            .zip(programs_with)
            .map(|(n, c)| format!("{n} {:.0}%", c as f64 / 20.0))
            .collect::<Vec<_>>()
            .join(", ")
    );
}
