use xsmith::component;

component! {
    fn spec;
    grammer {
        Program { body: Expr }
    }
}

fn main() {}
