use xsmith::component;

component! {
    fn defaults;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Ref: Expr {}
    }
    render { _ => ["x"], Program => [body], Ref => [nmae] }
    feature { _ => "all" }
    strict_child_order { _ => true, _ => false }
    reference_info { Ref => read(name) }
}

fn main() {}
