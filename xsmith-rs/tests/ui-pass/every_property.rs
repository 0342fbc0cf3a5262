//! One component using every property and every template piece, and a second
//! component that declares the node type the first one `uses`.

use xsmith::{component, Spec};

component! {
    /// Statements, declared apart from the expressions.
    fn statements;
    grammar {
        abstract Stmt {}
        Print: Stmt { value: Expr }
    }
    uses { Expr }
    render {
        Print => ["print(", value, ");"],
    }
}

component! {
    /// A tiny language of blocks and sums.
    pub fn every_property;
    uses { Stmt }
    grammar {
        Program { body: Block }
        Block { items: [Stmt; 0..=3] }
        abstract Expr {}
        Literal: Expr { value = |r| r.int_in(1, 99) }
        Negate: Expr { operand: Expr, sign = |_| "-" }
        Add: Expr { left: Expr, right: Expr }
    }
    render {
        Program => [body, hardline],
        Block => [group(["{", nest(4, [line, join(items, [line])]), line, "}"])],
        Literal => |node| node.display(node.data("value")),
        Negate => [sign, operand],
        Add => [group(["(", nest(1, [left, " +", line, right]), ")"])],
    }
    choice_weight {
        Literal => 3,
        Negate => (2),
        Add => |hole| 8u32.saturating_sub(hole.depth()),
    }
    may_be_generated { Negate => true }
    depth_increase { Block => 0 }
    fresh {
        Literal => { value: |node| node.random().int_in(1, 9) },
    }
    choice_filters { Add => |hole| hole.depth() < 10 }
    feature { Negate => "negation" }
}

fn main() {
    let spec = Spec::assemble("Program", [every_property(), statements()]).unwrap();
    for seed in 0..20 {
        let tree = xsmith::Generator::new(&spec, Default::default())
            .unwrap()
            .generate(&mut xsmith::Random::from_seed(seed))
            .unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 80);
        assert!(text.starts_with('{') && text.ends_with("}\n"), "{text}");
    }
}
