//! The [`component!`](crate::component) DSL, section by section, each with
//! an example that compiles; then a whole language with names and effects.
//!
//! A `component!` declares a function returning a
//! [`Component`](crate::Component): a `grammar` and property sections, each
//! `property { Production => value, ... }`. Every section is a call of the
//! [`Component`](crate::Component) builder method of the same name, whose
//! documentation says what the property means. Field names in property
//! values are checked against the grammar at compile time; names that only
//! other components declare are checked when the spec is assembled.
//!
//! # `grammar`
//!
//! Productions with an optional supertype (`Name: Super`), `abstract` ones
//! (node types only), child fields (`name: Type`), Kleene-star lists
//! (`name: [Type; 0..=4]`, with any [`ListLength`](crate::ListLength)
//! expression after the `;`) and data fields drawn from the program's
//! random source (`name = |r| ...`). A subtype has its supertype's fields
//! first. `uses { Stmt }` names node types that another component declares.
//!
//! ```
//! xsmith::component! {
//!     /// Statements and expressions.
//!     pub fn shapes;
//!     uses { Decl }
//!     grammar {
//!         Program { decls: [Decl; 0..=2], body: [Stmt; 1..=3] }
//!         abstract Stmt {}
//!         Print: Stmt { value: Expr }
//!         abstract Expr {}
//!         Lit: Expr { value = |r| r.int_in(0, 9) }
//!     }
//! }
//! # let _ = shapes;
//! ```
//!
//! # `render`
//!
//! A template (`[..]` of string literals, field names, `line`, `softline`,
//! `hardline`, `nest(N, [..])`, `group([..])`, `join(list, [..])`) or a
//! render function of the [`RenderNode`](crate::RenderNode) (see
//! [`Component::render`](crate::Component::render)).
//!
//! ```
//! use xsmith::{component, Spec};
//! component! {
//!     fn calc;
//!     grammar {
//!         Program { body: Expr }
//!         abstract Expr {}
//!         Lit: Expr { value = |r| r.int_in(-9, 9) }
//!         Add: Expr { left: Expr, right: Expr }
//!     }
//!     render {
//!         Program => [body, hardline],
//!         Lit => |n| match n.data("value").as_int() {
//!             Some(v) if v < 0 => n.text(format!("({v})")),
//!             _ => n.display(n.data("value")),
//!         },
//!         Add => [group(["(", nest(1, [left, " +", line, right]), ")"])],
//!     }
//! }
//! let spec = Spec::assemble("Program", [calc()]).unwrap();
//! # let _ = spec;
//! ```
//!
//! # `choice_weight`, `may_be_generated`, `depth_increase`, `choice_filters`, `fresh`, `feature`
//!
//! How likely a production is chosen (a constant, or a function of the
//! [`Hole`](crate::Hole)); whether generation chooses it at all; how much
//! deeper its children are; predicates on the hole that must all hold;
//! custom initialisation of its data fields; the feature group that
//! `--with`/`--without` switch. `feature_off_by_default { "group", .. }`
//! (a section, like `uses`) makes groups off unless `--with` names them.
//!
//! ```
//! use xsmith::{component, Spec};
//! component! {
//!     fn weighted;
//!     grammar {
//!         Program { body: Expr }
//!         abstract Expr {}
//!         Lit: Expr { value = |r| r.int_in(0, 9) }
//!         Neg: Expr { operand: Expr }
//!         Paren: Expr { inner: Expr }
//!     }
//!     render { Program => [body], Lit => [value], Neg => ["-", operand], Paren => ["(", inner, ")"] }
//!     choice_weight { Lit => 3, Neg => |hole| 8u32.saturating_sub(hole.depth()) }
//!     may_be_generated { Paren => true }
//!     depth_increase { Paren => 0 }
//!     choice_filters { Neg => |hole| hole.depth() < 5 }
//!     fresh { Lit => { value: |node| node.random().int_in(1, 3) * 2 } }
//!     feature { Neg => "negation", Paren => "parentheses" }
//!     feature_off_by_default { "parentheses" }
//! }
//! let spec = Spec::assemble("Program", [weighted()]).unwrap();
//! assert_eq!(spec.features_off_by_default(), ["parentheses"]);
//! ```
//!
//! A spec-wide default is given for `_`: every concrete production of the
//! spec that is given no value of its own gets it (for `strict_child_order`,
//! `choice_weight` and `depth_increase`):
//!
//! ```
//! # xsmith::component! { fn d; grammar { P { a: E, b: E } abstract E {} L: E { v = |r| r.int_in(0, 1) } } render { P => [a, b], L => [v] }
//! strict_child_order { _ => true }
//! choice_weight { _ => 5, L => 20 }
//! # }
//! # let _ = d;
//! ```
//!
//! # `type_info` and `list_length`
//!
//! In a typed spec ([`Spec::assemble_typed`](crate::Spec::assemble_typed))
//! every generatable production has a `type_info`: a function making the
//! type its nodes may have (fresh variables stand for any type that fits
//! the hole), then a function per child field giving the child its type
//! (see [`ChildTypes`](crate::ChildTypes): `node_type`, `subtype_of`,
//! `parameter_type`, `argument_type`, `earlier`, ...). `list_length`
//! fixes a list's length to the node's type, as a function literal's
//! parameters follow its function type
//! ([`TypeStore::function_arity`](crate::types::TypeStore::function_arity)).
//!
//! ```
//! use xsmith::types::{Type, TypeSystem};
//! use xsmith::{component, Spec};
//! component! {
//!     fn typed;
//!     grammar {
//!         Program { body: Expr }
//!         abstract Expr {}
//!         Int: Expr { value = |r| r.int_in(0, 9) }
//!         Less: Expr { left: Expr, right: Expr }
//!         Lambda: Expr { params: [Param; 0..=2], body: Expr }
//!         Param {}
//!         Call: Expr { callee: Expr, args: [Expr; 0..=2] }
//!     }
//!     type_info {
//!         Program => (|s| s.fresh()) { body: |c| c.fresh() },
//!         Int => (|s| s.base("int")),
//!         Less => (|s| s.base("bool")) { left: |c| c.base("int"), right: |c| c.base("int") },
//!         Lambda => (|s| s.fresh_function()) {
//!             params: |c| c.parameter_type(),
//!             body: |c| c.function_parts().1,
//!         },
//!         Param => (|s| s.fresh()),
//!         Call => (|s| s.fresh()) {
//!             callee: |c| {
//!                 let params = (0..c.field_len("args")).map(|_| c.fresh()).collect();
//!                 Type::function(params, c.node_type().clone())
//!             },
//!             args: |c| c.argument_type("callee"),
//!         },
//!     }
//!     list_length { Lambda => { params: |s, t, drawn| s.function_arity(t, drawn) } }
//!     render {
//!         Program => [body], Int => [value], Less => [left, " < ", right],
//!         Lambda => ["fn(", join(params, ", "), ") ", body], Param => ["p"],
//!         Call => [callee, "(", join(args, ", "), ")"],
//!     }
//! }
//! let mut system = TypeSystem::new();
//! system.base("int");
//! system.base("bool");
//! system.allow_functions(true);
//! let spec = Spec::assemble_typed("Program", system, [typed()]).unwrap();
//! # let _ = spec;
//! ```
//!
//! # `scope`, `binder_info`, `reference_info`, `lift_predicate`
//!
//! `scope` makes a production a scope for the binders below it:
//! `sequential` (a binder is seen by the scope's later children),
//! `recursive` (by all of them), `isolated` (sequential, and hiding the
//! binders of the scopes around it except `global` ones: a Ruby `def`, a
//! C function) or `global` (sequential, seen inside isolated scopes too);
//! see [`ScopeKind`](crate::ScopeKind). `binder_info` makes it bind a fresh name:
//! `definition(name)` or `parameter(name)`, with the flags `read_only`
//! (no `reference_info { .. => write(..) }` may assign it) and
//! `value = child` (the child field holding the bound value, so a call
//! through the name has the value's effects) written inside the call or
//! after it, in any order:
//!
//! ```
//! # use xsmith::component;
//! component! {
//!     fn binders;
//!     grammar {
//!         Program { defs: [Stmt; 1..=3] }
//!         abstract Stmt {}
//!         Const: Stmt { init: Expr }
//!         Var: Stmt { init: Expr }
//!         abstract Expr {}
//!         Lit: Expr { value = |r| r.int_in(0, 9) }
//!     }
//!     binder_info {
//!         Const => definition(name, read_only, value = init),
//!         Var => definition(name), value = init,
//!     }
//!     render { Program => [join(defs, "\n")], Const => ["const ", name, " = ", init], Var => ["var ", name, " = ", init], Lit => [value] }
//! }
//! # let _ = binders;
//! ```
//!
//! The name field holds a fresh name (see [`crate::names`] for their
//! format and how a language reserves its own). `reference_info`
//! (`read(name)` or `write(name)`) makes it refer to a visible binder of a fitting type.
//! The name field is implied: a binder or reference that does not declare
//! it gets a data field of that name, first of its own fields, which the
//! engine fills. `lift_predicate` names the list field of a sequential
//! scope that may receive lifted definitions: when a reference needs a
//! binder that nothing visible has, a definition is lifted into the
//! nearest such scope, before the reference. The example at the end of
//! this page uses them all.
//!
//! # `strict_child_order`, `io`, `calls`, `function_body`, `mutable_container_access`
//!
//! Effects: `strict_child_order` (`true`: the children run in order, so
//! their effects may depend on each other), `io` (the node does I/O),
//! `calls` (the child field holding the function value called),
//! `function_body` (the child that runs when the function value is called:
//! its effects are latent) and `mutable_container_access` (`read(field)` or
//! `write(field)`: the node reads or writes the container its child
//! evaluates to). Siblings whose order is unspecified never conflict.
//!
//! # A whole language with names and effects
//!
//! Blocks of definitions, assignments, prints, lambdas and calls, typed,
//! where operands and arguments run in an unspecified order:
//!
//! ```
//! use xsmith::types::{Type, TypeSystem};
//! use xsmith::{component, Spec};
//!
//! component! {
//!     /// A small language with names and effects.
//!     pub fn small;
//!     grammar {
//!         Program { body: Block }
//!         Block { stmts: [Stmt; 1..=4] }
//!         abstract Stmt {}
//!         Let: Stmt { init: Expr }
//!         Assign: Stmt { value: Expr }
//!         Print: Stmt { value: Expr }
//!         abstract Expr {}
//!         Int: Expr { value = |r| r.int_in(0, 9) }
//!         Ref: Expr {}
//!         Add: Expr { left: Expr, right: Expr }
//!         Lambda: Expr { params: [Param; 0..=2], body: Expr }
//!         Param {}
//!         Call: Expr { callee: Expr, args: [Expr; 0..=2] }
//!     }
//!     scope { Block => sequential, Lambda => sequential }
//!     lift_predicate { Block => stmts }
//!     binder_info { Let => definition(name), Param => parameter(name) }
//!     reference_info { Ref => read(name), Assign => write(name) }
//!     strict_child_order { Block => true, Let => true, Assign => true, Print => true }
//!     io { Print => true }
//!     calls { Call => callee }
//!     function_body { Lambda => body }
//!     choice_filters { Lambda => |h| h.depth() < 3, Call => |h| h.depth() < 3 }
//!     type_info {
//!         Program => (|s| s.fresh()) { body: |c| c.fresh() },
//!         Block => (|s| s.fresh()) { stmts: |c| c.fresh() },
//!         Let => (|s| s.fresh()) { init: |c| c.node_type().clone() },
//!         Assign => (|s| s.base("int")) { value: |c| c.base("int") },
//!         Print => (|s| s.fresh()) { value: |c| c.base("int") },
//!         Int => (|s| s.base("int")),
//!         Ref => (|s| s.fresh()),
//!         Add => (|s| s.base("int")) { left: |c| c.base("int"), right: |c| c.base("int") },
//!         Lambda => (|s| s.fresh_function()) {
//!             params: |c| c.parameter_type(),
//!             body: |c| c.function_parts().1,
//!         },
//!         Param => (|s| s.fresh()),
//!         Call => (|s| s.fresh()) {
//!             callee: |c| {
//!                 let params = (0..c.field_len("args")).map(|_| c.base("int")).collect();
//!                 Type::function(params, c.node_type().clone())
//!             },
//!             args: |c| c.argument_type("callee"),
//!         },
//!     }
//!     list_length { Lambda => { params: |s, t, drawn| s.function_arity(t, drawn) } }
//!     render {
//!         Program => [body],
//!         Block => ["{", nest(2, [hardline, join(stmts, [hardline])]), hardline, "}"],
//!         Let => ["let ", name, " = ", init, ";"],
//!         Assign => [name, " = ", value, ";"],
//!         Print => ["print(", value, ");"],
//!         Int => [value],
//!         Ref => [name],
//!         Add => ["(", left, " + ", right, ")"],
//!         Lambda => ["(fn(", join(params, ", "), ") => ", body, ")"],
//!         Param => [name],
//!         Call => [callee, "(", join(args, ", "), ")"],
//!     }
//! }
//!
//! let mut system = TypeSystem::new();
//! system.base("int");
//! system.allow_functions(true);
//! let spec = Spec::assemble_typed("Program", system, [small()]).unwrap();
//! let mut generator = xsmith::Generator::new(&spec, Default::default()).unwrap();
//! for seed in 0..20 {
//!     let tree = generator.generate(&mut xsmith::Random::from_seed(seed)).unwrap();
//!     let text = xsmith::render::render_tree(&spec, &tree, 80);
//!     assert!(text.starts_with('{'), "{text}");
//! }
//! ```
