use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr, items: [Expr; 0..=2] }
        abstract Expr {}
    }
    fresh { Program => { body: |_| 1, items: |_| 2 } }
}

fn main() {}
