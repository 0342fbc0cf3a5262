use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Literal: Expression { value = |r| r.int_in(1, 9) }
    }
}

fn main() {}
