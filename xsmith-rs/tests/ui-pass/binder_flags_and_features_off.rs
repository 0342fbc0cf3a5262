//! `binder_info` flags written both ways (inside the call, and after it as
//! the docs used to read), and `feature_off_by_default`: a read-only binder
//! is never assigned, a writable one is, and a group switched off by
//! default is off until `--with` names it.

use xsmith::{component, Spec};

component! {
    fn flags;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 1..=6] }
        abstract Stmt {}
        Const: Stmt { init: Expr }
        Var: Stmt { init: Expr }
        Set: Stmt { value: Expr }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Neg: Expr { operand: Expr }
    }
    scope { Block => sequential }
    binder_info {
        Const => definition(name, read_only, value = init),
        Var => definition(name), value = init,
    }
    reference_info { Set => write(name) }
    feature { Neg => "negation" }
    feature_off_by_default { "negation" }
    render {
        Program => [body],
        Block => [join(stmts, " ")],
        Const => ["const ", name, " = ", init, ";"],
        Var => ["var ", name, " = ", init, ";"],
        Set => ["set ", name, " = ", value, ";"],
        Lit => [value],
        Neg => ["-", operand],
    }
}

component! {
    fn flags_after;
    grammar {
        Program { body: [Stmt; 1..=4] }
        abstract Stmt {}
        Const: Stmt { init: Lit }
        Lit { value = |r| r.int_in(0, 9) }
    }
    scope { Program => sequential }
    // Flags after the call, in either order, then another entry.
    binder_info { Const => parameter(name), value = init, read_only }
    render { Program => [join(body, " ")], Const => [name, "=", init], Lit => [value] }
}

fn main() {
    let spec = Spec::assemble("Program", [flags()]).unwrap();
    assert_eq!(spec.features_off_by_default(), ["negation"]);
    let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    let (mut sets, mut negations) = (0, 0);
    for seed in 0..200 {
        let tree = generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 80);
        negations += text.matches('-').count();
        let words: Vec<&str> = text.split_whitespace().collect();
        for pair in words.windows(2) {
            if pair[0] == "set" {
                sets += 1;
                assert!(words.windows(2).any(|w| w == ["var", pair[1]]), "{text}");
                assert!(!words.windows(2).any(|w| w == ["const", pair[1]]), "{text}");
            }
        }
    }
    assert!(sets > 20, "writable binders are assigned ({sets})");
    assert_eq!(negations, 0, "the group off by default is off");
    Spec::assemble("Program", [flags_after()]).unwrap();
}
