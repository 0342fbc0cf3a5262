use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Literal: Expr { value = |r| r.int_in(1, 9) }
        Lambda: Expr { params: [Expr; 0..=2], body: Expr }
    }
    type_info {
        Program => (|s| s.fresh()) { bdy: |c| c.fresh() },
        Literal => (|s| s.base("int")) { value: |c| c.fresh() },
        Lambda => 3,
    }
    list_length {
        Lambda => { body: |_, _, n| n, parms: |_, _, n| n },
    }
}

fn main() {}
