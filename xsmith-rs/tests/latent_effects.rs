//! Latent effects of function values, binder styles and lifting, checked on
//! generated trees of small specs: what the effect summaries say about each
//! call is compared with what the tree shows (the callee's shape, its
//! binder), and where each lifted definition went with where its references
//! are.

use xsmith::effects::{EffectSummaries, Effects};
use xsmith::names::visible_bindings;
use xsmith::{component, Generator, NodeId, Options, Program, Random, Spec};

component! {
    /// Calls of lambdas, of read-only and writable variables, of
    /// parameters, and of recursive functions; unordered pairs and calls.
    fn calls;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 1..=4] }
        abstract Stmt {}
        Let: Stmt { name = |_| "", init: Expr }
        Const: Stmt { name = |_| "", init: Expr }
        Letrec: Stmt { defs: [Fun; 1..=2] }
        Fun { name = |_| "", body: Expr }
        Print: Stmt { value: Expr }
        Nested: Stmt { block: Block }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Ref: Expr { name = |_| "" }
        SetExpr: Expr { name = |_| "", value: Expr }
        PrintExpr: Expr { value: Expr }
        Lambda: Expr { params: [Param; 0..=1], body: Expr }
        BlockLambda: Expr { params: [Param; 0..=1], body: Block }
        Param { name = |_| "" }
        Call: Expr { callee: Expr, args: [Expr; 0..=2] }
        Pair: Expr { left: Expr, right: Expr }
    }
    scope { Block => sequential, Lambda => sequential, BlockLambda => sequential, Letrec => recursive }
    lift_predicate { Block => stmts }
    strict_child_order {
        Program => true, Block => true, Let => true, Const => true, Letrec => true, Fun => true,
        Print => true, Nested => true, SetExpr => true, PrintExpr => true, Lambda => true, BlockLambda => true,
    }
    binder_info {
        Let => definition(name),
        Const => definition(name, read_only, value = init),
        Fun => definition(name, read_only),
        Param => parameter(name, read_only),
    }
    reference_info { Ref => read(name), SetExpr => write(name) }
    io { Print => true, PrintExpr => true }
    calls { Call => callee }
    function_body { Lambda => body, BlockLambda => body, Fun => body }
    choice_weight { Ref => 30, Call => 20, Lambda => 15, SetExpr => 15, PrintExpr => 10, Letrec => 8 }
    render {
        Program => [body],
        Block => ["{", join(stmts, " "), "}"],
        Let => ["let ", name, " = ", init, ";"],
        Const => ["const ", name, " = ", init, ";"],
        Letrec => ["letrec ", join(defs, " and "), ";"],
        Fun => [name, " = ", body],
        Print => ["print ", value, ";"],
        Nested => [block],
        Lit => [value],
        Ref => [name],
        SetExpr => ["(", name, " := ", value, ")"],
        PrintExpr => ["print(", value, ")"],
        Lambda => ["fn(", join(params, ", "), ") ", body],
        BlockLambda => ["fn(", join(params, ", "), ") ", body],
        Param => [name],
        Call => [callee, "(", join(args, ", "), ")"],
        Pair => ["(", left, ", ", right, ")"],
    }
}

fn spec() -> Spec {
    Spec::assemble("Program", [calls()]).expect("the test spec assembles")
}

fn name<'s>(spec: &'s Spec, tree: &Program, node: NodeId) -> &'s str {
    spec.production(tree.node(node).production).name()
}

fn child(tree: &Program, node: NodeId, index: usize) -> NodeId {
    tree.children(node).nth(index).expect("the child exists")
}

/// The effects of running the body of the function value `function` makes.
fn body_effects(spec: &Spec, summaries: &EffectSummaries, tree: &Program, function: NodeId) -> Effects {
    let body = tree.children(function).last().expect("a function has a body");
    assert!(matches!(name(spec, tree, function), "Lambda" | "BlockLambda" | "Fun"));
    (*summaries.of(tree, body)).clone()
}

fn trees(spec: &Spec, seeds: std::ops::Range<u64>) -> impl Iterator<Item = Program> + '_ {
    let options = Options {
        max_depth: 6,
        ..Options::default()
    };
    let mut generator = Generator::new(spec, options).expect("default options are valid");
    seeds.map(move |seed| generator.generate(&mut Random::from_seed(seed)).expect("generates"))
}

#[test]
fn calls_have_the_latent_effects_of_the_function_they_call() {
    let spec = spec();
    let summaries = EffectSummaries::new(&spec);
    let mut cases = std::collections::BTreeMap::<&str, usize>::new();
    for tree in trees(&spec, 0..1500) {
        for call in tree.ids().filter(|&n| name(&spec, &tree, n) == "Call") {
            let callee = child(&tree, call, 0);
            let latent = summaries.latent(&tree, callee).map(|e| (*e).clone());
            let case = match name(&spec, &tree, callee) {
                "Lambda" | "BlockLambda" => {
                    assert_eq!(latent, Some(body_effects(&spec, &summaries, &tree, callee)));
                    "function literal"
                }
                "Ref" => {
                    let binder = tree.reference_target(callee).expect("a settled reference");
                    match name(&spec, &tree, binder) {
                        "Const" => match child(&tree, binder, 0) {
                            value if matches!(name(&spec, &tree, value), "Lambda" | "BlockLambda") => {
                                assert_eq!(latent, Some(body_effects(&spec, &summaries, &tree, value)));
                                "read-only definition of a function literal"
                            }
                            value if name(&spec, &tree, value) == "Ref" => "read-only alias",
                            _ => {
                                assert_eq!(latent, None);
                                "read-only definition of something else"
                            }
                        },
                        "Fun" => {
                            // A function whose effects depend on its own
                            // (it, or a sibling it calls, calls it) does not
                            // know them; any other does.
                            let letrec = tree.node(binder).parent.expect("in a letrec");
                            let recursive = descendants(&tree, letrec).any(|n| {
                                tree.reference_target(n)
                                    .is_some_and(|b| tree.node(b).parent == Some(letrec))
                            });
                            match latent.as_ref().filter(|latent| !latent.anything) {
                                Some(latent) => {
                                    assert_eq!(*latent, body_effects(&spec, &summaries, &tree, binder));
                                    "function definition"
                                }
                                _ => {
                                    let body_may_do_anything = body_effects(&spec, &summaries, &tree, binder).anything;
                                    assert!(
                                        recursive || body_may_do_anything,
                                        "a function that calls no sibling and nothing unknown has known effects"
                                    );
                                    "recursive function"
                                }
                            }
                        }
                        other => {
                            assert_eq!(latent, None, "a call through a {other} may do anything");
                            if other == "Let" {
                                "writable variable"
                            } else {
                                "parameter"
                            }
                        }
                    }
                }
                _ => {
                    assert_eq!(latent, None);
                    "other expression"
                }
            };
            *cases.entry(case).or_default() += 1;
            let call_effects = summaries.of(&tree, call);
            match &latent {
                Some(latent) => assert!(
                    call_effects.anything
                        || latent.reads.is_subset(&call_effects.reads)
                            && latent.writes.is_subset(&call_effects.writes)
                            && (!latent.io || call_effects.io)
                            && (!latent.anything || call_effects.anything),
                    "a call does what its callee's body does"
                ),
                None => assert!(call_effects.anything, "an unknown callee may do anything"),
            }
        }
    }
    for case in [
        "function literal",
        "read-only definition of a function literal",
        "function definition",
        "recursive function",
        "writable variable",
        "parameter",
        "other expression",
    ] {
        assert!(
            cases.get(case).copied().unwrap_or(0) >= 5,
            "too few calls of a {case}: {cases:?}"
        );
    }
}

fn descendants(tree: &Program, node: NodeId) -> impl Iterator<Item = NodeId> + '_ {
    let mut stack = vec![node];
    std::iter::from_fn(move || {
        let next = stack.pop()?;
        stack.extend(tree.children(next));
        Some(next)
    })
}

#[test]
fn making_a_function_value_has_no_effect_of_its_body() {
    let spec = spec();
    let summaries = EffectSummaries::new(&spec);
    let mut effectful_bodies = 0;
    for tree in trees(&spec, 0..300) {
        for lambda in tree
            .ids()
            .filter(|&n| matches!(name(&spec, &tree, n), "Lambda" | "BlockLambda"))
        {
            assert!(summaries.of(&tree, lambda).is_pure(), "parameters do nothing either");
            effectful_bodies += usize::from(!body_effects(&spec, &summaries, &tree, lambda).is_pure());
        }
    }
    assert!(
        effectful_bodies > 50,
        "only {effectful_bodies} lambdas had effects in their bodies"
    );
}

#[test]
fn unordered_siblings_never_conflict_and_known_calls_sit_beside_effects() {
    let spec = spec();
    let summaries = EffectSummaries::new(&spec);
    let mut known_call_beside_effect = 0;
    for tree in trees(&spec, 0..3000) {
        for node in tree.ids().filter(|&n| matches!(name(&spec, &tree, n), "Call" | "Pair")) {
            let children: Vec<NodeId> = tree.children(node).collect();
            for (i, &a) in children.iter().enumerate() {
                for &b in &children[i + 1..] {
                    let (ea, eb) = (summaries.of(&tree, a), summaries.of(&tree, b));
                    assert!(
                        !ea.conflicts(&eb),
                        "siblings conflict under a {}",
                        name(&spec, &tree, node)
                    );
                    let known_call =
                        |n: NodeId, e: &Effects| name(&spec, &tree, n) == "Call" && !e.anything && !e.is_pure();
                    if (known_call(a, &ea) && !eb.is_pure()) || (known_call(b, &eb) && !ea.is_pure()) {
                        known_call_beside_effect += 1;
                    }
                }
            }
        }
    }
    // With calls taken to do anything, this would be zero.
    assert!(known_call_beside_effect > 10, "only {known_call_beside_effect}");
}

component! {
    /// Definitions come only from lifting (they are never chosen), in
    /// blocks nested in blocks and in lambda bodies.
    fn lifted_only;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 1..=3] }
        abstract Stmt {}
        Let: Stmt { name = |_| "", init: Expr }
        Set: Stmt { name = |_| "", value: Expr }
        Nested: Stmt { block: Block }
        Print: Stmt { value: Expr }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Ref: Expr { name = |_| "" }
        BlockLambda: Expr { params: [Param; 0..=1], body: Block }
        Param { name = |_| "" }
    }
    may_be_generated { Let => false }
    scope { Block => sequential, BlockLambda => sequential }
    lift_predicate { Block => stmts }
    binder_info { Let => definition(name), Param => parameter(name, read_only) }
    reference_info { Ref => read(name), Set => write(name) }
    choice_weight { Ref => 20, Set => 10 }
    render {
        Program => [body],
        Block => ["{", join(stmts, " "), "}"],
        Let => ["let ", name, " = ", init, ";"],
        Set => [name, " = ", value, ";"],
        Nested => [block],
        Print => ["print ", value, ";"],
        Lit => [value],
        Ref => [name],
        BlockLambda => ["fn(", join(params, ", "), ") ", body],
        Param => [name],
    }
}

/// The nearest ancestor of `node` that is a `Block`, and the child of it
/// that holds `node`.
fn innermost_block(spec: &Spec, tree: &Program, node: NodeId) -> (NodeId, NodeId) {
    let mut child = node;
    loop {
        let parent = tree.node(child).parent.expect("every statement is in a block");
        if name(spec, tree, parent) == "Block" {
            return (parent, child);
        }
        child = parent;
    }
}

#[test]
fn lifted_definitions_go_into_the_innermost_block_before_the_reference() {
    let spec = Spec::assemble("Program", [lifted_only()]).expect("assembles");
    let (mut lifted, mut in_nested_block, mut in_lambda_body) = (0, 0, 0);
    for tree in trees(&spec, 0..1000) {
        for definition in tree.ids().filter(|&n| name(&spec, &tree, n) == "Let") {
            lifted += 1;
            let (block, _) = innermost_block(&spec, &tree, definition);
            let references: Vec<NodeId> = tree
                .ids()
                .filter(|&n| tree.reference_target(n) == Some(definition))
                .collect();
            assert!(!references.is_empty(), "a definition is lifted only for a reference");
            // The reference it was lifted for sits in that very block (not
            // in a block around it), after it.
            assert!(
                references.iter().any(|&r| innermost_block(&spec, &tree, r).0 == block),
                "lifted into a block that is not the reference's innermost one"
            );
            let position = |n: NodeId| {
                tree.children(block)
                    .position(|c| c == n)
                    .expect("a statement of the block")
            };
            for &reference in &references {
                let mut anchor = reference;
                while tree.node(anchor).parent != Some(block) {
                    anchor = tree.node(anchor).parent.expect("references are inside the block");
                }
                assert!(
                    position(definition) < position(anchor),
                    "a reference before its definition"
                );
            }
            // Its initialiser never refers to the variable itself.
            let init = child(&tree, definition, 0);
            assert!(descendants(&tree, init).all(|n| tree.reference_target(n) != Some(definition)));
            let parent = tree.node(block).parent.expect("a block has a parent");
            in_nested_block += usize::from(name(&spec, &tree, parent) == "Nested");
            in_lambda_body += usize::from(name(&spec, &tree, parent) == "BlockLambda");
        }
    }
    assert!(
        lifted > 1000 && in_nested_block > 50 && in_lambda_body > 50,
        "{lifted} {in_nested_block} {in_lambda_body}"
    );
}

#[test]
fn each_binder_style_is_visible_where_its_scope_says() {
    let spec = spec();
    let mut seen = std::collections::BTreeMap::<&str, usize>::new();
    for tree in trees(&spec, 0..300) {
        for reference in tree
            .ids()
            .filter(|&n| matches!(name(&spec, &tree, n), "Ref" | "SetExpr"))
        {
            let binder = tree.reference_target(reference).expect("settled");
            let style = name(&spec, &tree, binder);
            let visible = visible_bindings(&tree, reference);
            assert!(
                visible.iter().any(|b| b.binder == binder),
                "a reference to an invisible {style}"
            );
            let ancestors: Vec<NodeId> = std::iter::successors(Some(reference), |&n| tree.node(n).parent).collect();
            match style {
                // Parameters: only inside their function.
                "Param" => assert!(ancestors.contains(&tree.node(binder).parent.expect("in a lambda"))),
                // Recursive functions: anywhere in their letrec, own body
                // and siblings' included, or after it in the block.
                "Fun" => {}
                // Definitions: after themselves in their block.
                _ => {
                    let (block, _) = innermost_block(&spec, &tree, binder);
                    assert!(ancestors.contains(&block));
                    assert!(!ancestors.contains(&binder), "a definition sees itself");
                }
            }
            if name(&spec, &tree, reference) == "SetExpr" {
                assert_eq!(style, "Let", "only writable definitions are assigned");
            }
            *seen.entry(style).or_default() += 1;
        }
    }
    for style in ["Let", "Const", "Fun", "Param"] {
        assert!(seen.get(style).copied().unwrap_or(0) > 20, "{seen:?}");
    }
}

component! {
    /// Function definitions that may be reassigned (writable) and functions
    /// taking a function parameter with a default value: neither has
    /// effects a call may count on.
    fn rebindable;
    grammar {
        Program { body: Block }
        Block { stmts: [Stmt; 1..=4] }
        abstract Stmt {}
        Def: Stmt { name = |_| "", body: Expr }
        Print: Stmt { value: Expr }
        abstract Expr {}
        Lit: Expr { value = |r| r.int_in(0, 9) }
        Ref: Expr { name = |_| "" }
        SetExpr: Expr { name = |_| "", value: Expr }
        PrintExpr: Expr { value: Expr }
        Lambda: Expr { params: [Param; 0..=1], body: Expr }
        Param { name = |_| "", default: Expr }
        Call: Expr { callee: Expr }
        Pair: Expr { left: Expr, right: Expr }
    }
    scope { Block => sequential, Lambda => sequential }
    lift_predicate { Block => stmts }
    strict_child_order { Program => true, Block => true, Def => true, Print => true, SetExpr => true, PrintExpr => true, Lambda => true }
    binder_info { Def => definition(name), Param => parameter(name, read_only, value = default) }
    reference_info { Ref => read(name), SetExpr => write(name) }
    io { Print => true, PrintExpr => true }
    calls { Call => callee }
    function_body { Def => body, Lambda => body }
    choice_weight { Ref => 30, Call => 20, Def => 10 }
    render {
        Program => [body],
        Block => ["{", join(stmts, " "), "}"],
        Def => ["def ", name, " = ", body, ";"],
        Print => ["print ", value, ";"],
        Lit => [value],
        Ref => [name],
        SetExpr => ["(", name, " := ", value, ")"],
        PrintExpr => ["print(", value, ")"],
        Lambda => ["fn(", join(params, ", "), ") ", body],
        Param => [name, " = ", default],
        Call => [callee, "()"],
        Pair => ["(", left, ", ", right, ")"],
    }
}

#[test]
fn calls_through_writable_definitions_and_parameters_may_do_anything() {
    let spec = Spec::assemble("Program", [rebindable()]).expect("assembles");
    let summaries = EffectSummaries::new(&spec);
    let (mut through_definition, mut through_parameter) = (0, 0);
    for tree in trees(&spec, 0..500) {
        for call in tree.ids().filter(|&n| name(&spec, &tree, n) == "Call") {
            let callee = child(&tree, call, 0);
            let Some(binder) = tree.reference_target(callee) else {
                continue;
            };
            assert!(
                summaries.latent(&tree, callee).is_none(),
                "a {} may change",
                name(&spec, &tree, binder)
            );
            assert!(summaries.of(&tree, call).anything);
            through_definition += usize::from(name(&spec, &tree, binder) == "Def");
            through_parameter += usize::from(name(&spec, &tree, binder) == "Param");
        }
    }
    assert!(
        through_definition > 20 && through_parameter > 5,
        "{through_definition} {through_parameter}"
    );
}
