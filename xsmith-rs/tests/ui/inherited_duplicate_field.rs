use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr { ty = |_| 1, ty = |_| 2 }
        Literal: Expr { value = |r| r.int_in(1, 9) }
    }
}

fn main() {}
