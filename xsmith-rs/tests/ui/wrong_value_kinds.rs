use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    render { Program => "program" }
    feature { Add => arithmetic }
    choice_filters { Add => true }
    choice_weight { Add => [left] }
    may_be_generated { Program => { body: |_| 1 } }
    fresh { Add => 3 }
}

fn main() {}
