//! Binders, references and scopes: every reference of every generated
//! program names a binder that a scope checker written here (sharing no code
//! with the engine's scope module) finds visible, and no write targets a
//! read-only binder.

use xsmith::{Access, BinderInfo, BinderStyle, ReferenceInfo, ScopeKind};
use xsmith::{Component, DataInit, Generator, ListLength, Options, Piece, ProductionDecl, Random, Renderer, Spec};

fn spec() -> Spec {
    spec_with(true)
}

/// The scoped test language; `lifting` lets blocks receive lifted
/// definitions.
fn spec_with(lifting: bool) -> Spec {
    let mut c = Component::new("scoped");
    let name = || DataInit::new(|_| "");
    c.production(ProductionDecl::new("Program").child("body", "Block"))
        .production(ProductionDecl::new("Block").list("stmts", "Stmt", ListLength::uniform(0, 4)))
        .production(ProductionDecl::new("Stmt").abstract_())
        .production(
            ProductionDecl::new("Let")
                .supertype("Stmt")
                .data("name", name())
                .child("init", "Expr"),
        )
        .production(
            ProductionDecl::new("Set")
                .supertype("Stmt")
                .data("name", name())
                .child("value", "Expr"),
        )
        .production(ProductionDecl::new("Print").supertype("Stmt").child("value", "Expr"))
        .production(ProductionDecl::new("Nested").supertype("Stmt").child("block", "Block"))
        .production(
            ProductionDecl::new("Letrec")
                .supertype("Stmt")
                .list("defs", "Fun", ListLength::uniform(1, 2)),
        )
        .production(ProductionDecl::new("Fun").data("name", name()).child("body", "Expr"))
        .production(ProductionDecl::new("Expr").abstract_())
        .production(
            ProductionDecl::new("Lit")
                .supertype("Expr")
                .data("value", DataInit::new(|r| r.int_in(0, 9))),
        )
        .production(ProductionDecl::new("Ref").supertype("Expr").data("name", name()))
        .production(
            ProductionDecl::new("Lambda")
                .supertype("Expr")
                .list("params", "Param", ListLength::uniform(0, 2))
                .child("body", "Expr"),
        )
        .production(ProductionDecl::new("Param").data("name", name()))
        .production(
            ProductionDecl::new("Pair")
                .supertype("Expr")
                .child("left", "Expr")
                .child("right", "Expr"),
        )
        .production(
            ProductionDecl::new("SetExpr")
                .supertype("Expr")
                .data("name", name())
                .child("value", "Expr"),
        )
        .production(
            ProductionDecl::new("PrintExpr")
                .supertype("Expr")
                .child("value", "Expr"),
        )
        .production(ProductionDecl::new("ArrayNew").supertype("Expr"))
        .production(
            ProductionDecl::new("ArrayGet")
                .supertype("Expr")
                .child("array", "Expr")
                .child("index", "Expr"),
        )
        .production(
            ProductionDecl::new("ArraySet")
                .supertype("Expr")
                .child("array", "Expr")
                .child("index", "Expr")
                .child("value", "Expr"),
        )
        .production(
            ProductionDecl::new("Call")
                .supertype("Expr")
                .child("callee", "Expr")
                .list("args", "Expr", ListLength::uniform(0, 2)),
        );
    // Everything runs in order but pairs and calls, whose children's order
    // is unspecified.
    for strict in [
        "Program",
        "Block",
        "Let",
        "Set",
        "Print",
        "Nested",
        "Letrec",
        "Fun",
        "Lambda",
        "SetExpr",
        "PrintExpr",
    ] {
        c.strict_child_order(strict, true);
    }
    c.reference_info("SetExpr", ReferenceInfo::new("name", Access::Write))
        .io("Print", true)
        .io("PrintExpr", true)
        .calls("Call", "callee")
        .mutable_container_access("ArrayGet", "array", Access::Read)
        .mutable_container_access("ArraySet", "array", Access::Write)
        .choice_weight("SetExpr", 20.into())
        .choice_weight("PrintExpr", 20.into());
    c.scope("Block", ScopeKind::Sequential)
        .scope("Lambda", ScopeKind::Sequential)
        .scope("Letrec", ScopeKind::Recursive)
        .binder_info("Let", BinderInfo::new("name", BinderStyle::Definition))
        .binder_info("Fun", BinderInfo::new("name", BinderStyle::Definition).read_only())
        .binder_info("Param", BinderInfo::new("name", BinderStyle::Parameter).read_only())
        .reference_info("Ref", ReferenceInfo::new("name", Access::Read))
        .reference_info("Set", ReferenceInfo::new("name", Access::Write))
        .choice_weight("Ref", 30.into())
        .choice_weight("Set", 20.into());
    if lifting {
        c.lift_predicate("Block", "stmts");
    }
    let t = |pieces: Vec<Piece>| Renderer::Template(pieces);
    use Piece::{Field, Join, Text};
    c.render("Program", t(vec![Field("body")]))
        .render("Block", t(vec![Text("(block"), Join("stmts", vec![]), Text(")")]))
        .render(
            "Let",
            t(vec![Text(" (let "), Field("name"), Text(" "), Field("init"), Text(")")]),
        )
        .render(
            "Set",
            t(vec![
                Text(" (set "),
                Field("name"),
                Text(" "),
                Field("value"),
                Text(")"),
            ]),
        )
        .render("Print", t(vec![Text(" (print "), Field("value"), Text(")")]))
        .render("Nested", t(vec![Text(" "), Field("block")]))
        .render("Letrec", t(vec![Text(" (letrec"), Join("defs", vec![]), Text(")")]))
        .render(
            "Fun",
            t(vec![Text(" (fun "), Field("name"), Text(" "), Field("body"), Text(")")]),
        )
        .render("Lit", t(vec![Field("value")]))
        .render("Ref", t(vec![Text("(ref "), Field("name"), Text(")")]))
        .render(
            "Lambda",
            t(vec![
                Text("(lambda ("),
                Join("params", vec![]),
                Text(") "),
                Field("body"),
                Text(")"),
            ]),
        )
        .render("Param", t(vec![Text(" (param "), Field("name"), Text(")")]))
        .render(
            "Pair",
            t(vec![
                Text("(pair "),
                Field("left"),
                Text(" "),
                Field("right"),
                Text(")"),
            ]),
        )
        .render(
            "SetExpr",
            t(vec![
                Text("(sete "),
                Field("name"),
                Text(" "),
                Field("value"),
                Text(")"),
            ]),
        )
        .render("PrintExpr", t(vec![Text("(printe "), Field("value"), Text(")")]))
        .render(
            "Call",
            t(vec![Text("(call "), Field("callee"), Join("args", vec![]), Text(")")]),
        )
        .render("ArrayNew", t(vec![Text("(anew)")]))
        .render(
            "ArrayGet",
            t(vec![
                Text("(aget "),
                Field("array"),
                Text(" "),
                Field("index"),
                Text(")"),
            ]),
        )
        .render(
            "ArraySet",
            t(vec![
                Text("(aset "),
                Field("array"),
                Text(" "),
                Field("index"),
                Text(" "),
                Field("value"),
                Text(")"),
            ]),
        );
    Spec::assemble("Program", [c]).unwrap()
}

/// S-expressions: atoms and lists.
#[derive(Debug)]
enum Sexp {
    Atom(String),
    List(Vec<Sexp>),
}

fn parse(text: &str) -> Sexp {
    let spaced = text.replace('(', " ( ").replace(')', " ) ");
    let tokens: Vec<&str> = spaced.split_whitespace().collect();
    fn read(tokens: &[&str], at: &mut usize) -> Sexp {
        let token = tokens[*at];
        *at += 1;
        if token != "(" {
            return Sexp::Atom(token.to_string());
        }
        let mut items = Vec::new();
        while tokens[*at] != ")" {
            items.push(read(tokens, at));
        }
        *at += 1;
        Sexp::List(items)
    }
    read(&tokens, &mut 0)
}

/// What the checker knows of a name in scope.
#[derive(Clone)]
struct Var {
    name: String,
    writable: bool,
}

#[derive(Default)]
struct Counts {
    reads: usize,
    writes: usize,
    binders: usize,
    unordered: usize,
}

/// What an operand may do, found syntactically (lambda bodies included).
#[derive(Debug, Default)]
struct Effects {
    reads: Vec<String>,
    writes: Vec<String>,
    io: bool,
    calls: bool,
    /// Untyped, every container may be any other.
    container_reads: bool,
    container_writes: bool,
}

impl Effects {
    fn any(&self) -> bool {
        !self.reads.is_empty()
            || !self.writes.is_empty()
            || self.io
            || self.calls
            || self.container_reads
            || self.container_writes
    }

    /// Whether the two could give different results in the two orders.
    fn clash(&self, other: &Effects) -> bool {
        let touches = |w: &String, e: &Effects| e.reads.contains(w) || e.writes.contains(w);
        (self.calls && other.any())
            || (other.calls && self.any())
            || (self.io && other.io)
            || self.writes.iter().any(|w| touches(w, other))
            || other.writes.iter().any(|w| touches(w, self))
            || (self.container_writes && (other.container_reads || other.container_writes))
            || (other.container_writes && self.container_reads)
    }
}

fn effects_of(s: &Sexp) -> Effects {
    fn walk(s: &Sexp, e: &mut Effects) {
        let Sexp::List(items) = s else { return };
        if let Some(Sexp::Atom(head)) = items.first() {
            match head.as_str() {
                "ref" => e.reads.push(atom(&items[1]).to_string()),
                "set" | "sete" => e.writes.push(atom(&items[1]).to_string()),
                "print" | "printe" => e.io = true,
                "call" => e.calls = true,
                "aget" => e.container_reads = true,
                "aset" => e.container_writes = true,
                _ => {}
            }
        }
        for item in items {
            walk(item, e);
        }
    }
    let mut e = Effects::default();
    walk(s, &mut e);
    e
}

fn head(items: &[Sexp]) -> &str {
    match &items[0] {
        Sexp::Atom(a) => a,
        Sexp::List(_) => panic!("a form starts with its name"),
    }
}

fn atom(s: &Sexp) -> &str {
    match s {
        Sexp::Atom(a) => a,
        Sexp::List(_) => panic!("expected a name"),
    }
}

fn find<'a>(scope: &'a [Var], name: &str) -> Result<&'a Var, String> {
    scope
        .iter()
        .find(|v| v.name == name)
        .ok_or(format!("`{name}` is not visible"))
}

fn check(s: &Sexp, scope: &mut Vec<Var>, counts: &mut Counts) -> Result<(), String> {
    let Sexp::List(items) = s else { return Ok(()) }; // a literal
    match head(items) {
        "block" => {
            let depth = scope.len();
            for stmt in &items[1..] {
                check(stmt, scope, counts)?;
            }
            scope.truncate(depth);
        }
        "let" => {
            check(&items[2], scope, counts)?; // the initialiser cannot see the name
            counts.binders += 1;
            scope.push(Var {
                name: atom(&items[1]).to_string(),
                writable: true,
            });
        }
        "set" => {
            counts.writes += 1;
            if !find(scope, atom(&items[1]))?.writable {
                return Err(format!("write to read-only `{}`", atom(&items[1])));
            }
            check(&items[2], scope, counts)?;
        }
        "print" | "printe" => check(&items[1], scope, counts)?,
        "sete" => {
            counts.writes += 1;
            if !find(scope, atom(&items[1]))?.writable {
                return Err(format!("write to read-only `{}`", atom(&items[1])));
            }
            check(&items[2], scope, counts)?;
        }
        "anew" => {}
        "pair" | "call" | "aget" | "aset" => {
            let effects: Vec<Effects> = items[1..].iter().map(effects_of).collect();
            for (i, a) in effects.iter().enumerate() {
                for b in &effects[i + 1..] {
                    if a.clash(b) {
                        return Err(format!("unordered operands conflict: {a:?} and {b:?}"));
                    }
                }
            }
            counts.unordered += 1;
            for item in &items[1..] {
                check(item, scope, counts)?;
            }
        }
        "letrec" => {
            let depth = scope.len();
            for def in &items[1..] {
                let Sexp::List(fun) = def else {
                    return Err("letrec of a non-function".into());
                };
                counts.binders += 1;
                scope.push(Var {
                    name: atom(&fun[1]).to_string(),
                    writable: false,
                });
            }
            for def in &items[1..] {
                let Sexp::List(fun) = def else { unreachable!() };
                check(&fun[2], scope, counts)?;
            }
            // The letrec is the functions' scope: later statements of the
            // block do not see them.
            scope.truncate(depth);
        }
        "ref" => {
            counts.reads += 1;
            find(scope, atom(&items[1]))?;
        }
        "lambda" => {
            let depth = scope.len();
            let Sexp::List(params) = &items[1] else {
                return Err("lambda without parameters".into());
            };
            for param in params {
                let Sexp::List(p) = param else {
                    return Err("bad parameter".into());
                };
                counts.binders += 1;
                scope.push(Var {
                    name: atom(&p[1]).to_string(),
                    writable: false,
                });
            }
            check(&items[2], scope, counts)?;
            scope.truncate(depth);
        }
        other => return Err(format!("unknown form {other}")),
    }
    Ok(())
}

#[test]
fn every_reference_resolves_to_a_visible_binder() {
    let spec = spec();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let (mut reads, mut writes, mut binders, mut unordered, mut containers) = (0, 0, 0, 0, 0);
    for seed in 0..2_000u64 {
        let tree = generator.generate(&mut Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 200);
        let mut counts = Counts::default();
        if let Err(e) = check(&parse(&text), &mut Vec::new(), &mut counts) {
            panic!("seed {seed}: {e}\n{text}");
        }
        reads += counts.reads;
        writes += counts.writes;
        binders += counts.binders;
        unordered += counts.unordered;
        containers += text.matches("(aset ").count() + text.matches("(aget ").count();
    }
    assert!(reads > 2_000, "programs read variables ({reads} reads)");
    assert!(writes > 500, "programs assign variables ({writes} writes)");
    assert!(binders > 2_000, "programs bind names ({binders})");
    assert!(unordered > 1_000, "programs have unordered operands ({unordered})");
    assert!(containers > 500, "programs access arrays ({containers})");
}

#[test]
fn names_are_fresh_and_references_use_them() {
    // Fresh names have the documented form (`xsmith::names`), which no
    // hidden name a renderer draws has.
    let spec = spec();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    for seed in 0..200u64 {
        let tree = generator.generate(&mut Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 200);
        let mut defined: Vec<&str> = Vec::new();
        let words: Vec<&str> = text.split(['(', ')', ' ']).collect();
        for pair in words.windows(2) {
            if matches!(pair[0], "let" | "fun" | "param") {
                assert!(!defined.contains(&pair[1]), "seed {seed}: `{}` bound twice", pair[1]);
                assert!(
                    xsmith::names::is_fresh_name(pair[1]),
                    "seed {seed}: `{}` is not of the documented fresh-name form",
                    pair[1]
                );
                defined.push(pair[1]);
            }
        }
    }
}

#[test]
fn lifting_makes_references_possible_where_nothing_is_visible() {
    // Without lifting, a reference needs an explicit earlier definition;
    // with it, references appear far more often, each before its use.
    let count_refs = |spec: &Spec| {
        let mut generator = Generator::new(spec, Options::default()).unwrap();
        let mut refs = 0;
        for seed in 0..500u64 {
            let tree = generator.generate(&mut Random::from_seed(seed)).unwrap();
            let text = xsmith::render::render_tree(spec, &tree, 200);
            check(&parse(&text), &mut Vec::new(), &mut Counts::default()).unwrap_or_else(|e| panic!("{e}\n{text}"));
            refs += text.matches("(ref ").count() + text.matches("(set ").count();
        }
        refs
    };
    let without = count_refs(&spec_with(false));
    let with = count_refs(&spec_with(true));
    assert!(
        with > without * 2,
        "lifting should multiply references: {without} without, {with} with"
    );
}
