use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    render { Program => [body], Add => [left, " + ", right] }
    choice_weight { Add => 3, Add => 4 }
    render { Program => ["(", body, ")"] }
}

fn main() {}
