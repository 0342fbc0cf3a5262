use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { body: Program }
    }
    render { Program => [join(body, ", ")] }
}

fn main() {}
