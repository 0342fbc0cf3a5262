use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Literal: Expr { value = |r| r.int_in(1, 9) }
    }
    fresh {
        Literal => { valeu: |node| node.random().int_in(1, 5) },
    }
}

fn main() {}
