use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    choice_weight { Add => -3 }
    depth_increase { Add => -1 }
}

fn main() {}
