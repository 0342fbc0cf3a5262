//! A spec-wide default (`_ => value`), name fields implied by `binder_info`
//! and `reference_info` (the binders and references declare no `name`
//! field, yet templates print it), and the typed views `component!`
//! generates (`implied::Let(n).init()`).

use xsmith::{component, Spec};

component! {
    fn implied;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 1..=3] }
        abstract Stmt {}
        Let: Stmt { init: Expr }
        Set: Stmt { value: Expr }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Ref: Expr {}
    }
    scope { Block => sequential }
    lift_predicate { Block => stmts }
    strict_child_order { _ => true, Set => false }
    choice_weight { _ => 4, Lit => 8 }
    binder_info { Let => definition(name) }
    reference_info { Ref => read(name), Set => write(name) }
    render {
        Program => [body],
        Block => [join(stmts, " ")],
        Let => |n| {
            let node = implied::Let(n);
            n.text("let ").append(n.display(node.name())).append(" = ").append(node.init()).append(";")
        },
        Set => [name, " = ", value, ";"],
        Lit => [value],
        Ref => [name],
    }
}

fn main() {
    let spec = Spec::assemble("Program", [implied()]).unwrap();
    let set = spec.production(spec.lookup("Set").unwrap());
    assert_eq!(set.fields()[0].name(), "name");
    let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    let mut named = 0;
    for seed in 0..50 {
        let tree = generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 80);
        assert!(!text.contains("let  ="), "{text}");
        named += text.matches("let v").count();
    }
    assert!(named > 0);
}
