use xsmith::component;

component! {
    fn viewed;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
        Lit: Expr { value = |r| r.int_in(0, 9) }
    }
    render {
        Program => [body],
        Add => |n| viewed::Add(n).left().append(" + ").append(viewed::Add(n).rigth()),
        Lit => [value],
    }
}

fn main() {}
