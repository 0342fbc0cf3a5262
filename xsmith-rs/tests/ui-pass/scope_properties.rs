use xsmith::{component, Spec};

component! {
    fn scoped;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 0..=3] }
        abstract Stmt {}
        Let: Stmt { name = |_| "", init: Expr }
        Const: Stmt { name = |_| "", init: Expr }
        Set: Stmt { name = |_| "", value: Expr }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Ref: Expr { name = |_| "" }
        Lambda: Expr { params: [Param; 0..=2], body: Expr }
        Param { name = |_| "" }
        Print: Stmt { value: Expr }
        Call: Expr { callee: Expr, args: [Expr; 0..=2] }
        Get: Expr { array: Expr, index: Expr }
    }
    scope { Block => sequential, Lambda => sequential }
    strict_child_order { Block => true, Let => true }
    io { Print => true }
    calls { Call => callee }
    function_body { Lambda => body }
    mutable_container_access { Get => read(array) }
    lift_predicate { Block => stmts }
    binder_info {
        Let => definition(name),
        Const => definition(name, read_only, value = init),
        Param => parameter(name, read_only),
    }
    reference_info { Ref => read(name), Set => write(name) }
    binding_filters { Set => |_hole, binder| binder.is("Let") }
    render {
        Program => [body],
        Block => ["{", join(stmts, " "), "}"],
        Let => ["let ", name, " = ", init, ";"],
        Const => ["const ", name, " = ", init, ";"],
        Set => [name, " = ", value, ";"],
        Lit => [value],
        Ref => [name],
        Lambda => ["(", join(params, ", "), ") => ", body],
        Param => [name],
        Print => ["print(", value, ");"],
        Call => [callee, "(", join(args, ", "), ")"],
        Get => [array, "[", index, "]"],
    }
}

fn main() {
    let spec = Spec::assemble("Program", [scoped()]).unwrap();
    let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
    let mut references = 0;
    for seed in 0..50 {
        let tree = generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
        let text = xsmith::render::render_tree(&spec, &tree, 80);
        references += text.matches("let v").count();
    }
    assert!(references > 0);
}
