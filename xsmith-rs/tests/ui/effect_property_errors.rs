use xsmith::component;

component! {
    fn effects;
    grammar {
        Program { body: Expr }
        abstract Expr {}
        Let: Expr { name = |_| "", init: Expr, body: Expr }
        Const: Expr { name = |_| "", init: Expr }
        Lambda: Expr { params: [Expr; 0..=2], body: Expr }
        Call: Expr { callee: Expr, args: [Expr; 0..=2] }
        Apply: Expr { callee: Expr }
    }
    calls { Call => args, Apply => true }
    function_body { Lambda => bdy }
    binder_info {
        Let => definition(name, value = name),
        Const => definition(name, read_only, value = init, value = init),
    }
}

fn main() {}
