use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { items: [Program; 0..=3] }
    }
    render { Program => [join(items)] }
}

fn main() {}
