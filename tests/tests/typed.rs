//! The typed test fuzzer's programs, checked by a type checker written here
//! that shares no code with the engine's type module: it parses the rendered
//! text and checks it bottom-up with its own types and subtyping rules.

use std::collections::BTreeMap;

use xsmith::{Generator, Options, Random};
use xsmith_tests::typed;

/// The checker's own types.
#[derive(Clone, Debug, PartialEq)]
enum Ty {
    Int,
    Num,
    Bool,
    Str,
    Arr(Box<Ty>),
    Fun(Vec<Ty>, Box<Ty>),
    Rec(BTreeMap<String, Ty>),
}

/// `a <: b`: int below number; arrays invariant; functions contravariant in
/// parameters and covariant in results; records by width with invariant
/// fields.
fn subtype(a: &Ty, b: &Ty) -> bool {
    match (a, b) {
        _ if a == b => true,
        (Ty::Int, Ty::Num) => true,
        (Ty::Fun(pa, ra), Ty::Fun(pb, rb)) => {
            pa.len() == pb.len() && pa.iter().zip(pb).all(|(x, y)| subtype(y, x)) && subtype(ra, rb)
        }
        (Ty::Rec(fa), Ty::Rec(fb)) => fb.iter().all(|(name, tb)| fa.get(name) == Some(tb)),
        _ => false,
    }
}

/// Parses a type written by the fuzzer inside brackets.
struct TypeParser<'a> {
    text: &'a [u8],
    at: usize,
}

impl TypeParser<'_> {
    fn parse(text: &str) -> Result<Ty, String> {
        let mut parser = TypeParser {
            text: text.as_bytes(),
            at: 0,
        };
        let ty = parser.ty()?;
        if parser.at != parser.text.len() {
            return Err(format!("trailing text in type `{text}`"));
        }
        Ok(ty)
    }

    fn skip_spaces(&mut self) {
        while self.text.get(self.at) == Some(&b' ') {
            self.at += 1;
        }
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_spaces();
        if self.text[self.at..].starts_with(token.as_bytes()) {
            self.at += token.len();
            true
        } else {
            false
        }
    }

    fn word(&mut self) -> String {
        self.skip_spaces();
        let start = self.at;
        while self.text.get(self.at).is_some_and(|c| c.is_ascii_alphanumeric()) {
            self.at += 1;
        }
        String::from_utf8_lossy(&self.text[start..self.at]).into_owned()
    }

    fn ty(&mut self) -> Result<Ty, String> {
        if self.eat("(") {
            let mut params = Vec::new();
            if !self.eat(")") {
                loop {
                    params.push(self.ty()?);
                    if self.eat(")") {
                        break;
                    }
                    if !self.eat(",") {
                        return Err("expected `,` in a parameter list".into());
                    }
                }
            }
            if !self.eat("->") {
                return Err("a parenthesised type must be a function type".into());
            }
            let result = self.ty()?;
            return Ok(Ty::Fun(params, Box::new(result)));
        }
        if self.eat("{") {
            let mut fields = BTreeMap::new();
            if !self.eat("}") {
                loop {
                    let name = self.word();
                    if !self.eat(":") {
                        return Err("expected `:` after a field name".into());
                    }
                    fields.insert(name, self.ty()?);
                    if self.eat("}") {
                        break;
                    }
                    if !self.eat(",") {
                        return Err("expected `,` between fields".into());
                    }
                }
            }
            return Ok(Ty::Rec(fields));
        }
        match self.word().as_str() {
            "int" => Ok(Ty::Int),
            "number" => Ok(Ty::Num),
            "bool" => Ok(Ty::Bool),
            "string" => Ok(Ty::Str),
            "array" => {
                if !self.eat("<") {
                    return Err("expected `<` after array".into());
                }
                let element = self.ty()?;
                if !self.eat(">") {
                    return Err("expected `>`".into());
                }
                Ok(Ty::Arr(Box::new(element)))
            }
            other => Err(format!("unknown type `{other}` (an unresolved type variable?)")),
        }
    }
}

/// A token of a program.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Open,
    Close,
    LBrace,
    RBrace,
    Comma,
    Equals,
    Type(String),
    Atom(String),
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '(' | ')' | '{' | '}' | ',' | '=' => {
                chars.next();
                tokens.push(match c {
                    '(' => Token::Open,
                    ')' => Token::Close,
                    '{' => Token::LBrace,
                    '}' => Token::RBrace,
                    ',' => Token::Comma,
                    _ => Token::Equals,
                });
            }
            '[' => {
                chars.next();
                let mut ty = String::new();
                for c in chars.by_ref() {
                    if c == ']' {
                        break;
                    }
                    ty.push(c);
                }
                tokens.push(Token::Type(ty));
            }
            '"' => {
                chars.next();
                let mut s = String::from("\"");
                for c in chars.by_ref() {
                    s.push(c);
                    if c == '"' {
                        break;
                    }
                }
                tokens.push(Token::Atom(s));
            }
            _ => {
                let mut atom = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || "(){},=[".contains(c) {
                        break;
                    }
                    atom.push(c);
                    chars.next();
                }
                tokens.push(Token::Atom(atom));
            }
        }
    }
    Ok(tokens)
}

struct Checker {
    tokens: Vec<Token>,
    at: usize,
}

impl Checker {
    fn next(&mut self) -> Result<Token, String> {
        let token = self.tokens.get(self.at).cloned().ok_or("unexpected end of program")?;
        self.at += 1;
        Ok(token)
    }

    fn expect(&mut self, token: Token) -> Result<(), String> {
        let got = self.next()?;
        if got == token {
            Ok(())
        } else {
            Err(format!("expected {token:?}, found {got:?}"))
        }
    }

    fn annotation(&mut self) -> Result<Ty, String> {
        match self.next()? {
            Token::Type(text) => TypeParser::parse(&text),
            other => Err(format!("expected a type annotation, found {other:?}")),
        }
    }

    fn check_below(&mut self, want: &Ty, what: &str) -> Result<(), String> {
        let got = self.expr()?;
        if subtype(&got, want) {
            Ok(())
        } else {
            Err(format!("{what}: {got:?} is not a subtype of {want:?}"))
        }
    }

    fn program(&mut self) -> Result<(), String> {
        self.expect(Token::Open)?;
        self.expect(Token::Atom("program".into()))?;
        let ty = self.annotation()?;
        self.check_below(&ty, "program body")?;
        self.expect(Token::Close)?;
        if self.at != self.tokens.len() {
            return Err("text after the program".into());
        }
        Ok(())
    }

    fn expr(&mut self) -> Result<Ty, String> {
        match self.next()? {
            Token::Atom(atom) if atom.starts_with('"') => Ok(Ty::Str),
            Token::Atom(atom) if atom == "true" || atom == "false" => Ok(Ty::Bool),
            Token::Atom(atom) if atom.parse::<i64>().is_ok() => Ok(Ty::Int),
            Token::Atom(atom) if atom.parse::<f64>().is_ok() => Ok(Ty::Num),
            Token::LBrace => self.record(),
            Token::Open => {
                let Token::Atom(head) = self.next()? else {
                    return Err("expected an operator".into());
                };
                let ty = self.form(&head)?;
                self.expect(Token::Close)?;
                Ok(ty)
            }
            other => Err(format!("unexpected {other:?}")),
        }
    }

    fn form(&mut self, head: &str) -> Result<Ty, String> {
        match head {
            "+" => {
                let ty = self.annotation()?;
                if ty != Ty::Int && ty != Ty::Num {
                    return Err(format!("+ of type {ty:?}"));
                }
                self.check_below(&ty, "+ operand")?;
                self.check_below(&ty, "+ operand")?;
                Ok(ty)
            }
            "<" => {
                self.check_below(&Ty::Num, "< operand")?;
                self.check_below(&Ty::Num, "< operand")?;
                Ok(Ty::Bool)
            }
            "++" => {
                self.check_below(&Ty::Str, "++ operand")?;
                self.check_below(&Ty::Str, "++ operand")?;
                Ok(Ty::Str)
            }
            "if" => {
                let ty = self.annotation()?;
                self.check_below(&Ty::Bool, "if condition")?;
                self.check_below(&ty, "if branch")?;
                self.check_below(&ty, "if branch")?;
                Ok(ty)
            }
            "lambda" => {
                self.expect(Token::Open)?;
                let mut params = Vec::new();
                while self.tokens.get(self.at) == Some(&Token::Open) {
                    self.next()?;
                    self.expect(Token::Atom("p".into()))?;
                    params.push(self.annotation()?);
                    self.expect(Token::Close)?;
                }
                self.expect(Token::Close)?;
                let result = self.annotation()?;
                self.check_below(&result, "lambda body")?;
                Ok(Ty::Fun(params, Box::new(result)))
            }
            "call" => {
                let Ty::Fun(params, result) = self.expr()? else {
                    return Err("calling a non-function".into());
                };
                for (i, param) in params.iter().enumerate() {
                    self.check_below(param, &format!("argument {i}"))?;
                }
                if self.tokens.get(self.at) != Some(&Token::Close) {
                    return Err("too many arguments".into());
                }
                Ok(*result)
            }
            "array" => {
                let element = self.annotation()?;
                while self.tokens.get(self.at) != Some(&Token::Close) {
                    self.check_below(&element, "array item")?;
                }
                Ok(Ty::Arr(Box::new(element)))
            }
            "get" => {
                let Ty::Arr(element) = self.expr()? else {
                    return Err("indexing a non-array".into());
                };
                self.check_below(&Ty::Int, "index")?;
                Ok(*element)
            }
            "." => {
                let Ty::Rec(fields) = self.expr()? else {
                    return Err("field of a non-record".into());
                };
                let Token::Atom(name) = self.next()? else {
                    return Err("expected a field name".into());
                };
                fields.get(&name).cloned().ok_or(format!("no field {name}"))
            }
            other => Err(format!("unknown form `{other}`")),
        }
    }

    fn record(&mut self) -> Result<Ty, String> {
        let mut fields = BTreeMap::new();
        loop {
            let Token::Atom(name) = self.next()? else {
                return Err("expected a field name".into());
            };
            let ty = self.annotation()?;
            self.expect(Token::Equals)?;
            self.check_below(&ty, "record field")?;
            fields.insert(name, ty);
            match self.next()? {
                Token::Comma => continue,
                Token::RBrace => return Ok(Ty::Rec(fields)),
                other => return Err(format!("unexpected {other:?} in a record")),
            }
        }
    }
}

fn check(text: &str) -> Result<(), String> {
    Checker {
        tokens: tokenize(text)?,
        at: 0,
    }
    .program()
}

#[test]
fn the_checker_rejects_ill_typed_programs() {
    for bad in [
        "(program [int] true)",
        "(program [int] (+ [number] 1 2))",
        "(program [array<number>] (array [int] 1))",
        "(program [number] (call (lambda ((p [int])) [int] 1) 2.5))",
        "(program [{a: int}] {a [number] = 1, b [int] = 2})",
        "(program [int] (. {b [int] = 1, c [int] = 2} a))",
        "(program [(number) -> int] (lambda ((p [int])) [int] 1))",
    ] {
        assert!(check(bad).is_err(), "accepted {bad}");
    }
    for good in [
        "(program [number] (+ [int] 1 2))",
        "(program [(int) -> number] (lambda ((p [number])) [int] 1))",
        "(program [{a: int}] {a [int] = 1, b [int] = 2})",
        "(program [int] (. {a [int] = 1, b [int] = 2} a))",
    ] {
        check(good).unwrap_or_else(|e| panic!("rejected {good}: {e}"));
    }
}

#[test]
fn two_thousand_programs_type_check_independently() {
    let spec = typed::spec().unwrap();
    let options = Options {
        max_depth: 6,
        ..Options::default()
    };
    let mut generator = Generator::new(&spec, options).unwrap();
    let mut failures = Vec::new();
    let mut nodes = 0;
    for seed in 0..2_000u64 {
        let tree = match generator.generate(&mut Random::from_seed(seed)) {
            Ok(tree) => tree,
            Err(e) => {
                failures.push(format!("seed {seed}: generation failed: {e}"));
                continue;
            }
        };
        nodes += tree.len();
        let text = xsmith::render::render_tree(&spec, &tree, 100);
        if let Err(e) = check(&text) {
            failures.push(format!("seed {seed}: {e}\n{text}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of 2000 programs failed:\n{}",
        failures.len(),
        failures.iter().take(5).cloned().collect::<Vec<_>>().join("\n\n")
    );
    let log = generator.choice_log();
    for production in [
        "Lambda", "Apply", "ArrayLit", "ArrayGet", "RecordAB", "GetA", "If", "Add", "NumLit",
    ] {
        let share = log.programs_with(spec.lookup(production).unwrap()) as f64 / 2000.0;
        assert!(
            share > 0.05,
            "{production} appears in only {:.1}% of programs",
            share * 100.0
        );
    }
    assert!(nodes > 2_000 * 10, "programs are not trivial: {nodes} nodes in all");
}

/// The typed spec's k-paths: the grammar allows every `Expr` filler (17) in
/// each of its 23 `Expr` fields, plus `Lambda.params>Param`; types rule out
/// some (a concatenation's operand is a string, a comparison's a number),
/// and generated programs reach only paths the grammar allows.
#[test]
fn the_grammar_allows_more_two_paths_than_types_let_programs_reach() {
    let spec = typed::spec().unwrap();
    let grammar = spec.grammar();
    let mut generator = Generator::new(&spec, Options::default()).unwrap();
    let allowed = xsmith::kpaths::allowed(grammar, |p| generator.is_enabled(p), 2);
    let two = |p: &&xsmith::kpaths::KPath| p.len() == 2;
    assert_eq!(allowed.iter().filter(two).count(), 23 * 17 + 1);
    assert_eq!(allowed.iter().filter(|p| p.len() == 1).count(), 19);
    let mut reached = std::collections::HashSet::new();
    for seed in 0..1_000u64 {
        let program = generator.generate(&mut Random::from_seed(seed)).unwrap();
        reached.extend(xsmith::kpaths::paths_of(&program, 2));
    }
    assert!(reached.iter().all(|p| allowed.contains(p)));
    let names: Vec<String> = reached.iter().map(|p| p.display(grammar)).collect();
    for impossible in [
        "Concat.left>IntLit",
        "Less.right>StrLit",
        "If.cond>StrLit",
        "Program.body>Param",
    ] {
        assert!(!names.iter().any(|n| n == impossible), "{impossible} is reached");
    }
    for possible in [
        "Concat.left>StrLit",
        "Apply.callee>Lambda",
        "Lambda.params>Param",
        "GetA.record>RecordAB",
    ] {
        assert!(names.iter().any(|n| n == possible), "{possible} is not reached");
    }
    assert!(reached.iter().filter(two).count() < allowed.iter().filter(two).count());
}
