use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    may_be_generated { Add => 3 }
}

fn main() {}
