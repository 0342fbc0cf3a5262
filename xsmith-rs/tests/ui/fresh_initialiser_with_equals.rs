use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { value = |_| 1 }
    }
    fresh { Program => { value = |_| 2 } }
}

fn main() {}
