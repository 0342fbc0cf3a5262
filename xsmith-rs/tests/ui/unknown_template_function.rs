use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { value = |_| 1 }
    }
    render { Program => [indent(2, [value])] }
}

fn main() {}
