use xsmith::component;

component! {
    fn scoped;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { name = |_| "", init: Stmt }
        Ref: Stmt { name = |_| "" }
    }
    scope { Block => nested }
    lift_predicate { Block => stmt }
    binder_info { Let => definition(init) }
    reference_info { Ref => modify(name) }
}

fn main() {}
