use xsmith::component;

component! {
    fn spec;
    grammar {
        Program { a: [Program; 3], b: [Program; 0..3], c: [Program; ..=3], fine: [Program; 1..=2] }
    }
}

fn main() {}
