use xsmith::component;

component! {
    fn misspelt_flag;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { init: Stmt }
    }
    scope { Block => sequential }
    binder_info { Let => definition(name), readonly }
}

component! {
    fn value_without_field;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { init: Stmt }
    }
    scope { Block => sequential }
    binder_info { Let => definition(name), value }
}

component! {
    fn flag_twice;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { init: Stmt }
    }
    scope { Block => sequential }
    binder_info { Let => definition(name, read_only), read_only }
}

component! {
    fn feature_group_not_a_string;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
    }
    feature_off_by_default { division }
}

component! {
    fn flag_after_another_value;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { init: Stmt }
    }
    scope { Block => sequential }
    binder_info { Let => name, read_only }
}

fn main() {}
