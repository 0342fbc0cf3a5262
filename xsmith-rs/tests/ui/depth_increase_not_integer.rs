use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    depth_increase { Add => "deep" }
}

fn main() {}
