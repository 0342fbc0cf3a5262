use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Add: Expr { left: Expr, right: Expr }
    }
    render {
        Program => [body],
        Add => [group(["(", nest(1, [left, " +", line, rigth]), ")"])],
    }
}

fn main() {}
